//! Reading and writing Xiangqi FEN.
//!
//! ```
//! use qili::Position;
//! let pos: Position = "3k5/9/9/9/9/9/9/9/9/4K4 w".parse().unwrap();
//! assert_eq!(pos.fen(), "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
//! assert!("3k5/9/9/9/9/9/9/9/9/4K5 w".parse::<Position>().is_err());
//! ```

use crate::board::Board;
use crate::color::Color;
use crate::lang::{Lang, Words, file_zh, piece_at_zh, role_named, side_zh};
use crate::movegen;
use crate::moves::MoveList;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;
use std::fmt::Write;
use std::str::FromStr;

/// Why a FEN was rejected. Ranks are numbered 0–9 from red's side, files a–i, as in ICCS.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// Not 2 to 6 space-separated fields.
    FieldCount(usize),
    /// The board does not have ten ranks.
    RankCount(usize),
    /// A character that is neither a piece letter nor a digit 1–9.
    BadChar {
        /// The rank (0–9).
        rank: u8,
        /// The character.
        ch: char,
    },
    /// A rank that does not describe exactly nine points.
    RankWidth {
        /// The rank (0–9).
        rank: u8,
        /// How many points it described.
        width: usize,
    },
    /// More pieces of one kind than a side owns.
    TooMany {
        /// The side.
        color: Color,
        /// The kind.
        role: &'static str,
        /// How many there are.
        count: usize,
        /// The most allowed.
        max: u8,
    },
    /// A piece on a point it can never reach.
    Unreachable {
        /// The side.
        color: Color,
        /// The kind.
        role: &'static str,
        /// The point.
        square: Square,
        /// Why it cannot stand there.
        reason: &'static str,
    },
    /// A side has no king.
    MissingKing(Color),
    /// The kings see each other on an open file.
    KingsFacing(char),
    /// The side that has just moved is in check.
    OppositeCheck(Color),
    /// A UCCI position string (`position startpos moves …`, given where a FEN goes) that is not
    /// well formed.
    PositionString(String),
    /// The side-to-move field is not `w`, `r` or `b`.
    BadTurn(String),
    /// Fields 3 or 4 are not `-`.
    BadPlaceholder {
        /// 3 or 4.
        field: usize,
        /// What was there.
        value: String,
    },
    /// A move counter that is not a number in range.
    BadCounter {
        /// 5 or 6.
        field: usize,
        /// `halfmoves` or `fullmoves`.
        name: &'static str,
        /// What was there.
        value: String,
    },
}

impl Words for FenError {
    fn words(&self, lang: Lang) -> String {
        use FenError::*;
        match (self, lang) {
            (Empty, _) => lang.pick("FEN为空", "empty FEN").into(),
            (FieldCount(n), Lang::En) => format!(
                "FEN has {n} fields; expected the board and the side to move, optionally followed by `- - halfmoves fullmoves`"
            ),
            (FieldCount(n), Lang::Zh) => {
                format!("FEN有{n}个字段；应为棋盘和走棋方，其后可有“- - 半回合数 回合数”")
            }
            (RankCount(n), Lang::En) => {
                format!("FEN board has {n} ranks; expected 10 separated by '/'")
            }
            (RankCount(n), Lang::Zh) => format!("FEN的棋盘有{n}行；应为10行，以“/”分隔"),
            (BadChar { rank, ch }, Lang::En) => format!("rank {rank}: invalid character {ch:?}"),
            (BadChar { rank, ch }, Lang::Zh) => format!("第{rank}行：无效字符{ch:?}"),
            (RankWidth { rank, width }, Lang::En) => {
                format!("rank {rank} describes {width} points; expected 9")
            }
            (RankWidth { rank, width }, Lang::Zh) => {
                format!("第{rank}行描述了{width}个点；应为9个")
            }
            (
                TooMany {
                    color,
                    role,
                    count,
                    max,
                },
                Lang::En,
            ) => {
                format!("{color} has {count} {role}s; at most {max} allowed")
            }
            (
                TooMany {
                    color,
                    role,
                    count,
                    max,
                },
                Lang::Zh,
            ) => format!(
                "{}有{count}个{}；最多{max}个",
                side_zh(*color),
                role_named(role).map_or(role.to_string(), |r| r.chinese(*color).to_string())
            ),
            (
                Unreachable {
                    color,
                    role,
                    square,
                    reason,
                },
                Lang::En,
            ) => {
                format!("{color} {role} on {square}: {reason}")
            }
            (
                Unreachable {
                    color,
                    role,
                    square,
                    reason,
                },
                Lang::Zh,
            ) => {
                let zh = CONFINEMENTS
                    .iter()
                    .find(|(en, _)| en == reason)
                    .map_or(*reason, |(_, zh)| zh);
                match role_named(role) {
                    Some(r) => format!("{}：{zh}", piece_at_zh(Piece::new(*color, r), *square)),
                    None => format!("{}{role}({square})：{zh}", color.chinese()),
                }
            }
            (MissingKing(c), Lang::En) => format!("{c} has no king"),
            (MissingKing(c), Lang::Zh) => format!("{}没有{}", side_zh(*c), Role::King.chinese(*c)),
            (KingsFacing(file), Lang::En) => {
                format!("the kings face each other on file {file} with nothing between them")
            }
            (KingsFacing(file), Lang::Zh) => {
                let f = u8::try_from(*file).map_or(0, |b| b.saturating_sub(b'a'));
                format!(
                    "帅将在同一直线上对面，中间无子（红方{}路，{file}线）",
                    file_zh(Color::Red, f)
                )
            }
            (OppositeCheck(c), Lang::En) => format!("{c} is not to move but its king is attacked"),
            (OppositeCheck(c), Lang::Zh) => {
                format!(
                    "{}不是走棋方，其{}却正被攻击",
                    side_zh(*c),
                    Role::King.chinese(*c)
                )
            }
            (PositionString(why), Lang::En) => format!("UCCI position string: {why}"),
            (PositionString(why), Lang::Zh) => format!("UCCI局面串：{why}"),
            (BadTurn(t), Lang::En) => {
                format!("invalid side to move {t:?}; expected w (or r) for red, b for black")
            }
            (BadTurn(t), Lang::Zh) => {
                format!("走棋方{t:?}无效；红方为w（或r），黑方为b")
            }
            (BadPlaceholder { field, value }, Lang::En) => {
                format!("field {field} is {value:?}; expected '-'")
            }
            (BadPlaceholder { field, value }, Lang::Zh) => {
                format!("第{field}个字段为{value:?}；应为“-”")
            }
            (BadCounter { field, name, value }, Lang::En) => {
                format!("field {field} ({name}) is {value:?}; expected a number 0–65535")
            }
            (BadCounter { field, name, value }, Lang::Zh) => {
                let name = if *name == "halfmoves" {
                    "半回合数"
                } else {
                    "回合数"
                };
                format!("第{field}个字段（{name}）为{value:?}；应为0–65535的数")
            }
        }
    }
}

crate::lang::english_display!(FenError);

/// Why a piece cannot stand where it does, in English (as [`FenError::Unreachable`] carries it)
/// and in Chinese.
const CONFINEMENTS: [(&str, &str); 5] = [
    ("a king stays in its palace", "帅（将）只在九宫之内"),
    (
        "an advisor stays on the five points of its palace's diagonals",
        "仕（士）只在九宫斜线的五个点上",
    ),
    (
        "an elephant stays on its seven points on its own side of the river",
        "相（象）只在本方河界内的七个点上",
    ),
    (
        "a pawn never stands behind its starting rank",
        "兵（卒）不会在其起始横线之后",
    ),
    (
        "a pawn that has not crossed the river stays on its starting files",
        "未过河的兵（卒）只在其起始的直线上",
    ),
];

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

fn unreachable_reason(piece: Piece, sq: Square) -> Option<&'static str> {
    let c = piece.color;
    // Work in red's view: flip black pieces.
    let v = match c {
        Color::Red => sq,
        Color::Black => sq.flip_ranks(),
    };
    let (f, r) = (v.file(), v.rank());
    match piece.role {
        Role::King if !sq.in_palace(c) => Some(CONFINEMENTS[0].0),
        Role::Advisor if !matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)) => {
            Some(CONFINEMENTS[1].0)
        }
        Role::Elephant
            if !matches!(
                (f, r),
                (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
            ) =>
        {
            Some(CONFINEMENTS[2].0)
        }
        Role::Pawn if r < 3 => Some(CONFINEMENTS[3].0),
        Role::Pawn if r < 5 && f % 2 == 1 => Some(CONFINEMENTS[4].0),
        _ => None,
    }
}

impl Position {
    /// Reads a FEN with 2 to 6 fields; `B`/`E` and `N`/`H` are accepted, `w`/`r`/`b` for the side.
    /// Every check is made, including that each piece stands where it can ever get to.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        parse(fen, true)
    }

    /// Reads a FEN like [`Position::from_fen`] but lets pieces stand on points they could never
    /// reach (some published perft positions have such pieces). Counts, kings and checks are still
    /// validated; an advisor or elephant that could take the enemy king is rejected as unreachable,
    /// since check detection does not look for advisors and elephants. One on the enemy's side
    /// may still come next to the enemy king (or the king next to it) in later moves, which check
    /// detection misses: such positions are for move-generation tests, not for rulings.
    pub fn from_fen_lenient(fen: &str) -> Result<Position, FenError> {
        parse(fen, false)
    }

    /// Writes the six-field FEN (`B` for elephant, `N` for horse).
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.board().get(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let _ = write!(
            out,
            " {} - - {} {}",
            self.turn().fen_char(),
            self.halfmoves(),
            self.fullmoves()
        );
        out
    }
}

fn validate(board: &Board, strict: bool) -> Result<(), FenError> {
    for color in Color::ALL {
        for role in Role::ALL {
            let count = board.count(color, role);
            if count > role.max_count() as usize {
                return Err(FenError::TooMany {
                    color,
                    role: role.name(),
                    count,
                    max: role.max_count(),
                });
            }
        }
    }
    for (sq, p) in board.pieces() {
        let reason = unreachable_reason(p, sq).filter(|_| strict || p.role == Role::King);
        if let Some(reason) = reason {
            return Err(FenError::Unreachable {
                color: p.color,
                role: p.role.name(),
                square: sq,
                reason,
            });
        }
    }
    let red = board
        .king(Color::Red)
        .ok_or(FenError::MissingKing(Color::Red))?;
    let black = board
        .king(Color::Black)
        .ok_or(FenError::MissingKing(Color::Black))?;
    if red.file() == black.file()
        && (red.rank() + 1..black.rank()).all(|r| board.is_empty(Square::new(red.file(), r)))
    {
        return Err(FenError::KingsFacing((b'a' + red.file()) as char));
    }
    // Check detection never looks at advisors and elephants: from their own palace or half of the
    // board they cannot reach the enemy king. One placed leniently where it could is rejected.
    for (sq, p) in board.pieces() {
        if !matches!(p.role, Role::Advisor | Role::Elephant) {
            continue;
        }
        let enemy_king = if p.color == Color::Red { black } else { red };
        let mut moves = MoveList::new();
        movegen::piece_moves(board, sq, p.role, p.color, &mut moves);
        if moves.iter().any(|m| m.to == enemy_king)
            && let Some(reason) = unreachable_reason(p, sq)
        {
            return Err(FenError::Unreachable {
                color: p.color,
                role: p.role.name(),
                square: sq,
                reason,
            });
        }
    }
    Ok(())
}

fn parse(fen: &str, strict: bool) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if !(2..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount(fields.len()));
    }
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 10 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = 9 - i as u8;
        let mut file = 0usize;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                file += d as usize;
            } else if let Some(piece) = Piece::from_char(ch) {
                if file < 9 {
                    board.set(Square::new(file as u8, rank), Some(piece));
                }
                file += 1;
            } else {
                return Err(FenError::BadChar { rank, ch });
            }
        }
        if file != 9 {
            return Err(FenError::RankWidth { rank, width: file });
        }
    }
    let turn = match fields[1] {
        "w" | "r" | "W" | "R" => Color::Red,
        "b" | "B" => Color::Black,
        other => return Err(FenError::BadTurn(other.to_string())),
    };
    for (i, field) in fields.iter().enumerate().skip(2).take(2) {
        if *field != "-" {
            return Err(FenError::BadPlaceholder {
                field: i + 1,
                value: field.to_string(),
            });
        }
    }
    let counter = |i: usize, name: &'static str, default: u16| -> Result<u16, FenError> {
        match fields.get(i) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| FenError::BadCounter {
                field: i + 1,
                name,
                value: v.to_string(),
            }),
        }
    };
    let halfmoves = counter(4, "halfmoves", 0)?;
    let fullmoves = counter(5, "fullmoves", 1)?;
    validate(&board, strict)?;
    let pos = Position::from_parts(board, turn, halfmoves, fullmoves)
        .ok_or(FenError::MissingKing(Color::Red))?;
    if pos.in_check(!turn) {
        return Err(FenError::OppositeCheck(!turn));
    }
    Ok(pos)
}
