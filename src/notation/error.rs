//! Why a move text could not be read, as typed data, and its words in Chinese and English (the
//! one place both are written; `Display` is the English).

use super::Notation;
use super::descriptor::Place;
use crate::color::Color;
use crate::lang::{Lang, Words, file_zh, piece_at_zh, point_zh, role_zh, side_zh};
use crate::moves::Move;
use crate::piece::Piece;
use crate::square::Square;

/// Why a move text could not be read, with the text and the notation it was read as.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct NotationError {
    /// The notation the text was read as; `None` when auto-detection found nothing to go on.
    pub notation: Option<Notation>,
    /// Whether the notation was auto-detected rather than given by the caller.
    pub auto_detected: bool,
    /// The text as the caller gave it.
    pub text: String,
    /// What is wrong.
    pub kind: NotationErrorKind,
}

/// The reasons a move text is rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationErrorKind {
    /// The text is not well formed in the notation.
    Syntax(Syntax),
    /// No piece of the side to move stands where the text says (e.g. no cannon on that file).
    NoPiece(Missing),
    /// The text describes a legal move of the side that is not to move.
    WrongSide {
        /// The side to move.
        turn: Color,
        /// The move the text would be for the other side.
        mv: Move,
    },
    /// The piece exists but cannot make the described move: why, for each piece it may mean.
    NoMatch(Vec<Blocked>),
    /// The only move described would leave the mover's own king attacked (flying general included).
    KingLeftAttacked {
        /// The move.
        mv: Move,
        /// The side to move.
        turn: Color,
    },
    /// Several legal moves match the text.
    Ambiguous(Vec<Move>),
    /// The text's tandem designation (前/中/后, 一…五, `+`/`-`) could name several pieces.
    AmbiguousPiece(Vec<Square>),
}

/// What is wrong with a move text's form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Syntax {
    /// Nothing to read.
    Empty,
    /// ICCS with a rank above 9 (`h10e10`: some engines count ranks 1–10).
    IccsRankAbove9,
    /// Not two squares.
    IccsShape,
    /// A character (1-based position) that is not a piece, number, direction or place.
    ChineseChar {
        /// Its position in the text, from 1.
        index: usize,
        /// The character.
        ch: char,
    },
    /// 一…五 before a piece other than a soldier.
    ChineseOrdinal,
    /// Fewer than four characters.
    ChineseShort,
    /// The characters are not in a move's order.
    ChineseOrder,
    /// Not three or four symbols.
    WxfLength(usize),
    /// Three symbols that are not letter, file, file.
    WxfShort,
    /// The third symbol is not a direction.
    WxfDirection(char),
    /// The last symbol is not a digit.
    WxfTarget(char),
    /// The first two symbols name no piece.
    WxfPiece(char, char),
    /// Two different digits where the middle soldier of one file is meant (`33`).
    WxfMiddle,
}

/// Which piece the text names that the side to move does not have (in English the piece, in
/// Chinese the whole sentence: Chinese puts the place first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missing {
    /// ICCS: no piece of the side to move on the starting point (`there`: what stands there).
    At {
        /// The side to move.
        turn: Color,
        /// The starting point.
        from: Square,
        /// The piece there, of the other side, if any.
        there: Option<Piece>,
    },
    /// No such piece on the file (numbered from the mover's right).
    OnFile {
        /// The piece named.
        piece: Piece,
        /// Its file, 1–9.
        file: u8,
    },
    /// A tandem designation, but no file holds two or more of the kind.
    NoTandem {
        /// The piece named.
        piece: Piece,
    },
    /// No piece in that place: the files holding several have `counts` of them.
    Place {
        /// The piece named.
        piece: Piece,
        /// The place.
        place: Place,
        /// How many stand on each file holding several.
        counts: Vec<usize>,
    },
    /// No piece in that place on that file: `count` stand there.
    PlaceOnFile {
        /// The piece named.
        piece: Piece,
        /// The place.
        place: Place,
        /// The file, 1–9.
        file: u8,
        /// How many stand there.
        count: usize,
    },
    /// No n-th soldier: `count` stand on files holding several.
    Numbered {
        /// The piece named.
        piece: Piece,
        /// Its number, from 1.
        number: u8,
        /// How many there are.
        count: usize,
    },
}

/// Why a piece the text may mean cannot make the move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blocked {
    /// It does not move sideways (平).
    Sideways {
        /// The piece.
        piece: Piece,
        /// Its point.
        from: Square,
    },
    /// It already stands on the file it would move to.
    AlreadyOnFile {
        /// The piece.
        piece: Piece,
        /// Its point.
        from: Square,
        /// The file, 1–9.
        file: u8,
    },
    /// The move would leave the board.
    OffBoard {
        /// The piece.
        piece: Piece,
        /// Its point.
        from: Square,
    },
    /// It cannot reach that file going that way.
    CannotReach {
        /// The piece.
        piece: Piece,
        /// Its point.
        from: Square,
        /// The file, 1–9.
        file: u8,
        /// Forward (进) rather than back (退).
        forward: bool,
    },
    /// The move is not one the piece makes (blocked, or not its way of moving).
    NotAMove {
        /// The piece.
        piece: Piece,
        /// Its point.
        from: Square,
        /// The destination.
        to: Square,
    },
}

impl Notation {
    /// How the notation is named in messages (`ICCS`, `WXF`, `Chinese`).
    const fn title(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Notation::Iccs, _) => "ICCS",
            (Notation::Wxf, _) => "WXF",
            (Notation::Chinese, Lang::En) => "Chinese",
            (Notation::Chinese, Lang::Zh) => "中文记谱",
        }
    }
}

impl Place {
    fn words(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Place::Front, Lang::En) => "front (前)",
            (Place::Rear, Lang::En) => "rear (后)",
            (Place::Middle, Lang::En) => "middle (中)",
            (Place::Front, Lang::Zh) => "前",
            (Place::Rear, Lang::Zh) => "后",
            (Place::Middle, Lang::Zh) => "中",
            (Place::Plus, _) => "`+`",
            (Place::Minus, _) => "`-`",
            (Place::PlusPlus, _) => "`++`",
            (Place::MinusMinus, _) => "`--`",
        }
    }
}

/// A file in the mover's numbering: `file 7 (c)` / `七路`.
fn file_words(color: Color, n: u8, lang: Lang) -> String {
    let board = super::descriptor::board_file(color, n);
    match lang {
        Lang::En => format!("file {n} ({})", (b'a' + board) as char),
        Lang::Zh => format!("{}路", file_zh(color, board)),
    }
}

fn piece_en(p: Piece) -> String {
    format!("{} {}", p.color.name(), p.role.name())
}

const SHAPE_CHINESE: [&str; 2] = [
    "应为棋子、纵线、进/退/平、数字，如炮二平五或马８进７（同一纵线上的棋子写作前车进一、中兵平四、一兵进一）",
    "expected piece, file, 进/退/平, number, like 炮二平五 or 马８进７ (or 前车进一, 中兵平四, 一兵进一 for pieces sharing a file)",
];
const SHAPE_WXF: [&str; 2] = [
    "应为棋子、纵线、方向（+ - . =）、数字，如C2.5、H8+7或R+.3",
    "expected piece, file, direction (+ - . =), number, like C2.5, H8+7 or R+.3",
];

impl Words for Syntax {
    fn words(&self, lang: Lang) -> String {
        let shape = |s: [&'static str; 2]| lang.pick(s[0], s[1]);
        match (self, lang) {
            (Syntax::Empty, _) => lang.pick("着法为空", "empty move text").into(),
            (Syntax::IccsRankAbove9, _) => lang
                .pick(
                    "横线超过9：ICCS从红方一侧数横线0–9，不是1–10（红方中炮为h2e2）",
                    "a rank above 9: ICCS counts ranks 0–9 from red's side, never 1–10 (red's central cannon move is h2e2)",
                )
                .into(),
            (Syntax::IccsShape, _) => lang
                .pick(
                    "应为两个点，各为纵线a–i加横线0–9，如h2e2或H2-E2",
                    "expected two squares, each a file a–i and a rank 0–9, like h2e2 or H2-E2",
                )
                .into(),
            (Syntax::ChineseChar { index, ch }, Lang::En) => format!(
                "character {index} ({ch:?}) is not a piece, a number, 进/退/平 or 前/中/后; {}",
                shape(SHAPE_CHINESE)
            ),
            (Syntax::ChineseChar { index, ch }, Lang::Zh) => format!(
                "第{index}个字{ch:?}不是棋子、数字、进/退/平或前/中/后；{}",
                shape(SHAPE_CHINESE)
            ),
            (Syntax::ChineseOrdinal, _) => lang
                .pick(
                    "棋子前的数字（一…五）只用于排列分处几条纵线的兵（卒）",
                    "a number before the piece (一…五) only orders soldiers sharing files",
                )
                .into(),
            (Syntax::ChineseShort, _) => {
                format!("{}{}", lang.pick("太短；", "too short; "), shape(SHAPE_CHINESE))
            }
            (Syntax::ChineseOrder, _) => format!(
                "{}{}",
                lang.pick("各字不合着法的次序；", "the characters are not in a move's order; "),
                shape(SHAPE_CHINESE)
            ),
            (Syntax::WxfLength(n), Lang::En) => {
                format!("{n} symbols where a move has 4; {}", shape(SHAPE_WXF))
            }
            (Syntax::WxfLength(n), Lang::Zh) => {
                format!("有{n}个符号，着法应有4个；{}", shape(SHAPE_WXF))
            }
            (Syntax::WxfShort, Lang::En) => format!(
                "too short; {} (a three-symbol move is letter, file, file, like C25)",
                shape(SHAPE_WXF)
            ),
            (Syntax::WxfShort, Lang::Zh) => format!(
                "太短；{}（三个符号的着法为字母、纵线、纵线，如C25）",
                shape(SHAPE_WXF)
            ),
            (Syntax::WxfDirection(c), Lang::En) => format!(
                "the third symbol {c:?} must be a direction: + forward, - back, . or = sideways"
            ),
            (Syntax::WxfDirection(c), Lang::Zh) => {
                format!("第三个符号{c:?}应为方向：+ 进，- 退，. 或 = 平")
            }
            (Syntax::WxfTarget(c), Lang::En) => {
                format!("the last symbol {c:?} must be a digit 1–9 (a file or a distance)")
            }
            (Syntax::WxfTarget(c), Lang::Zh) => {
                format!("最后一个符号{c:?}应为数字1–9（纵线或步数）")
            }
            (Syntax::WxfPiece(a, b), Lang::En) => format!(
                "{a:?}{b:?} does not name a piece; {} (letters K A E/B H/N R C P; tandems R+ R- +R; soldiers P+ ++ -- 3+ 33 3-)",
                shape(SHAPE_WXF)
            ),
            (Syntax::WxfPiece(a, b), Lang::Zh) => format!(
                "{a:?}{b:?}不是棋子；{}（字母K A E/B H/N R C P；同线棋子R+ R- +R；兵P+ ++ -- 3+ 33 3-）",
                shape(SHAPE_WXF)
            ),
            (Syntax::WxfMiddle, _) => lang
                .pick(
                    "两个数字表示一条纵线上居中的兵，须是同一纵线写两次，如33.4",
                    "two digits name the middle soldier of a file and must be the same file twice, like 33.4",
                )
                .into(),
        }
    }
}

impl Words for Missing {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (Missing::At { turn, from, there }, Lang::En) => match there {
                Some(p) => format!(
                    "{turn} piece on {from} (the {} {} stands there)",
                    p.color,
                    p.role.name()
                ),
                None => format!("piece on {from}"),
            },
            (Missing::At { turn, from, there }, Lang::Zh) => match there {
                Some(p) => format!(
                    "{}没有{}棋子（那里是{}）",
                    point_zh(*turn, *from),
                    side_zh(*turn),
                    piece_at_zh(*p, *from)
                ),
                None => format!("{}没有棋子", point_zh(*turn, *from)),
            },
            (Missing::OnFile { piece, file }, Lang::En) => {
                format!(
                    "{} on {}",
                    piece_en(*piece),
                    file_words(piece.color, *file, lang)
                )
            }
            (Missing::OnFile { piece, file }, Lang::Zh) => format!(
                "{}没有{}",
                file_words(piece.color, *file, lang),
                role_zh(piece.color, piece.role)
            ),
            (Missing::NoTandem { piece }, Lang::En) => {
                format!("file with two or more {}s", piece_en(*piece))
            }
            (Missing::NoTandem { piece }, Lang::Zh) => {
                format!(
                    "没有哪条纵线上有两个以上{}",
                    role_zh(piece.color, piece.role)
                )
            }
            (
                Missing::Place {
                    piece,
                    place,
                    counts,
                },
                _,
            ) => {
                let counts: Vec<String> = counts.iter().map(ToString::to_string).collect();
                match lang {
                    Lang::En => format!(
                        "{} in the {} place: the files holding several have {}",
                        piece_en(*piece),
                        place.words(lang),
                        counts.join(" and ")
                    ),
                    Lang::Zh => format!(
                        "没有{}位的{}：有多个此子的纵线上各有{}个",
                        place.words(lang),
                        role_zh(piece.color, piece.role),
                        counts.join("、")
                    ),
                }
            }
            (
                Missing::PlaceOnFile {
                    piece,
                    place,
                    file,
                    count,
                },
                Lang::En,
            ) => format!(
                "{} in the {} place on {}: {count} stand there",
                piece_en(*piece),
                place.words(lang),
                file_words(piece.color, *file, lang)
            ),
            (
                Missing::PlaceOnFile {
                    piece,
                    place,
                    file,
                    count,
                },
                Lang::Zh,
            ) => format!(
                "{}上没有{}位的{}：那里有{count}个",
                file_words(piece.color, *file, lang),
                place.words(lang),
                role_zh(piece.color, piece.role)
            ),
            (
                Missing::Numbered {
                    piece,
                    number,
                    count,
                },
                Lang::En,
            ) => format!(
                "{} number {number}: {count} stand on files holding several",
                piece_en(*piece)
            ),
            (
                Missing::Numbered {
                    piece,
                    number,
                    count,
                },
                Lang::Zh,
            ) => format!(
                "没有第{number}个{}：有多个此子的纵线上共有{count}个",
                role_zh(piece.color, piece.role)
            ),
        }
    }
}

impl Words for Blocked {
    fn words(&self, lang: Lang) -> String {
        let at = |piece: &Piece, from: &Square| match lang {
            Lang::En => format!("the {} on {from}", piece_en(*piece)),
            Lang::Zh => piece_at_zh(*piece, *from),
        };
        match (self, lang) {
            (Blocked::Sideways { piece, from }, Lang::En) => {
                format!("{} cannot move sideways (平)", at(piece, from))
            }
            (Blocked::Sideways { piece, from }, Lang::Zh) => format!("{}不能平", at(piece, from)),
            (Blocked::AlreadyOnFile { piece, from, file }, Lang::En) => format!(
                "{} already stands on {}",
                at(piece, from),
                file_words(piece.color, *file, lang)
            ),
            (Blocked::AlreadyOnFile { piece, from, file }, Lang::Zh) => format!(
                "{}已在{}",
                at(piece, from),
                file_words(piece.color, *file, lang)
            ),
            (Blocked::OffBoard { piece, from }, Lang::En) => {
                format!("{} would leave the board", at(piece, from))
            }
            (Blocked::OffBoard { piece, from }, Lang::Zh) => {
                format!("{}会走出棋盘", at(piece, from))
            }
            (
                Blocked::CannotReach {
                    piece,
                    from,
                    file,
                    forward,
                },
                Lang::En,
            ) => format!(
                "{} cannot reach {} going {}",
                at(piece, from),
                file_words(piece.color, *file, lang),
                if *forward {
                    "forward (进)"
                } else {
                    "back (退)"
                }
            ),
            (
                Blocked::CannotReach {
                    piece,
                    from,
                    file,
                    forward,
                },
                Lang::Zh,
            ) => format!(
                "{}{}不到{}",
                at(piece, from),
                if *forward { "进" } else { "退" },
                file_words(piece.color, *file, lang)
            ),
            (Blocked::NotAMove { piece, from, to }, Lang::En) => {
                format!("{} cannot move to {to}", at(piece, from))
            }
            (Blocked::NotAMove { piece, from, to }, Lang::Zh) => {
                format!("{}不能走到{}", at(piece, from), point_zh(piece.color, *to))
            }
        }
    }
}

fn join<T>(items: &[T], each: impl Fn(&T) -> String, sep: &str) -> String {
    items.iter().map(each).collect::<Vec<_>>().join(sep)
}

impl Words for NotationErrorKind {
    fn words(&self, lang: Lang) -> String {
        use NotationErrorKind::*;
        match (self, lang) {
            (Syntax(s), _) => s.words(lang),
            (NoPiece(m), Lang::En) => format!("there is no {}", m.words(lang)),
            (NoPiece(m), Lang::Zh) => m.words(lang),
            (WrongSide { turn, mv }, Lang::En) => {
                format!("it is {turn}'s turn, but this is a {} move ({mv})", !*turn)
            }
            (WrongSide { turn, mv }, Lang::Zh) => format!(
                "该{}走，这却是{}的着法（{mv}）",
                side_zh(*turn),
                side_zh(!*turn)
            ),
            (NoMatch(why), Lang::En) => format!(
                "no legal move matches: {}",
                join(why, |b| b.words(lang), "; ")
            ),
            (NoMatch(why), Lang::Zh) => {
                format!("没有相符的合法着法：{}", join(why, |b| b.words(lang), "；"))
            }
            (KingLeftAttacked { mv, turn }, Lang::En) => {
                format!("{mv} would leave the {turn} king attacked")
            }
            (KingLeftAttacked { mv, turn }, Lang::Zh) => format!(
                "{mv}走后{}{}会被攻击",
                side_zh(*turn),
                crate::piece::Role::King.chinese(*turn)
            ),
            (Ambiguous(moves), Lang::En) => format!(
                "several legal moves match: {}",
                join(moves, ToString::to_string, ", ")
            ),
            (Ambiguous(moves), Lang::Zh) => format!(
                "有几个合法着法相符：{}",
                join(moves, ToString::to_string, "、")
            ),
            (AmbiguousPiece(squares), Lang::En) => format!(
                "it could name the pieces on {}; write the move so that only one is meant",
                join(squares, ToString::to_string, ", ")
            ),
            (AmbiguousPiece(squares), Lang::Zh) => format!(
                "可指{}的几个棋子；请写成只指一个棋子的着法",
                join(squares, ToString::to_string, "、")
            ),
        }
    }
}

impl Words for NotationError {
    fn words(&self, lang: Lang) -> String {
        let text = &self.text;
        let how = match (self.notation, self.auto_detected, lang) {
            (Some(n), false, Lang::En) => format!(" as {}", n.title(lang)),
            (Some(n), true, Lang::En) => {
                format!(" (notation auto-detected as {})", n.title(lang))
            }
            (Some(n), false, Lang::Zh) => format!("（按{}）", n.title(lang)),
            (Some(n), true, Lang::Zh) => format!("（自动识别为{}）", n.title(lang)),
            (None, ..) => String::new(),
        };
        match lang {
            Lang::En => format!("cannot read move {text:?}{how}: {}", self.kind.words(lang)),
            Lang::Zh => format!("无法读取着法{text:?}{how}：{}", self.kind.words(lang)),
        }
    }
}

crate::lang::english_display!(NotationError, NotationErrorKind, Syntax, Missing, Blocked);
