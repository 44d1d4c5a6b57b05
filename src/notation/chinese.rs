//! Chinese notation (中文纵线记谱): `炮二平五`, `马８进７`, `前车进一`, `中兵平四`, `一兵进一`.
//!
//! Reading accepts simplified and traditional characters and their variants (车/車/俥, 马/馬/傌,
//! 相/象, 仕/士, 帅/帥/将/將, 炮/砲/包, 兵/卒; 进/進, 退, 平; 前, 中, 后/後) and, for either side,
//! Chinese numerals 一…九, ASCII `1`–`9`, full-width `１`–`９` and financial 壹…玖: the side is
//! never inferred from the characters. Forms:
//!
//! * `炮二平五`: piece, file (from the mover's right), 进/退/平, then the destination file (平, and
//!   horses, elephants, advisors) or the distance (straight moves).
//! * `前车进一`, `后炮平四` (also `车前进一`): 前/后 replaces the file when two of a kind share one.
//! * Soldiers on files holding several: ordered file by file from the mover's right to left, front
//!   to back within a file, then named 前/后 (two), 前/中/后 (three) or 一…五 (`二兵平四`).
//!   `前七进一` / `前兵七进一` name a place on a given file. A designation that could name more
//!   than one soldier is reported as ambiguous, never guessed.

use super::Syntax;
use super::descriptor::{Descriptor, Direction, Flavor, Place, Which, describe};
use super::strip_marks;
use crate::color::Color;
use crate::moves::Move;
use crate::piece::Role;
use crate::position::Position;

/// Character set for written Chinese moves.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Script {
    /// 简体: 车马帅将进后.
    #[default]
    Simplified,
    /// 繁體: 車馬帥將進後 (black's cannon 砲).
    Traditional,
}

/// Digits for black's files and distances (red always uses 一…九).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum BlackDigits {
    /// Full-width `１`–`９`, as printed and in xqbase PGN files.
    #[default]
    FullWidth,
    /// ASCII `1`–`9`, as on web pages and in the UCCI spec (`炮8平5`).
    Ascii,
    /// Chinese numerals 一…九, like red.
    Chinese,
}

/// How to write Chinese moves; the default is simplified with full-width digits for black
/// (`炮二平五`, `马８进７`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChineseStyle {
    /// Simplified or traditional characters.
    pub script: Script,
    /// Black's digits.
    pub black_digits: BlackDigits,
}

impl ChineseStyle {
    /// `炮二平五`, `马８进７` (the default).
    pub const SIMPLIFIED: ChineseStyle = ChineseStyle {
        script: Script::Simplified,
        black_digits: BlackDigits::FullWidth,
    };
    /// `炮二平五`, `马8进7`.
    pub const ASCII_BLACK: ChineseStyle = ChineseStyle {
        script: Script::Simplified,
        black_digits: BlackDigits::Ascii,
    };
    /// `炮二平五`, `馬８進７`.
    pub const TRADITIONAL: ChineseStyle = ChineseStyle {
        script: Script::Traditional,
        black_digits: BlackDigits::FullWidth,
    };
}

/// One recognised character.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Token {
    Piece(Role),
    Dir(Direction),
    Pos(Place),
    Num(u8),
}

fn token(c: char) -> Option<Token> {
    use Token::*;
    Some(match c {
        '车' | '車' | '俥' | '伡' => Piece(Role::Rook),
        '马' | '馬' | '傌' | '㐷' => Piece(Role::Horse),
        '相' | '象' => Piece(Role::Elephant),
        '仕' | '士' => Piece(Role::Advisor),
        '帅' | '帥' | '将' | '將' => Piece(Role::King),
        '炮' | '砲' | '包' => Piece(Role::Cannon),
        '兵' | '卒' => Piece(Role::Pawn),
        '进' | '進' => Dir(Direction::Forward),
        '退' => Dir(Direction::Backward),
        '平' => Dir(Direction::Sideways),
        '前' => Pos(Place::Front),
        '中' => Pos(Place::Middle),
        '后' | '後' => Pos(Place::Rear),
        _ => Num(numeral(c)?),
    })
}

fn numeral(c: char) -> Option<u8> {
    const CHINESE: [&str; 9] = [
        "一壹",
        "二贰貳",
        "三叁參叄",
        "四肆",
        "五伍",
        "六陆陸",
        "七柒",
        "八捌",
        "九玖",
    ];
    if let Some(i) = CHINESE.iter().position(|s| s.contains(c)) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        '１'..='９' => Some((c as u32 - '１' as u32) as u8 + 1),
        _ => None,
    }
}

/// Decodes a Chinese text to its four slots.
pub(super) fn parse(text: &str) -> Result<Descriptor, Syntax> {
    let core = strip_marks(text).trim_end_matches(['+', '#', '＋']);
    let chars: Vec<char> = core.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.is_empty() {
        return Err(Syntax::Empty);
    }
    let mut tokens = Vec::with_capacity(chars.len());
    for (i, &c) in chars.iter().enumerate() {
        match token(c) {
            Some(t) => tokens.push(t),
            None => {
                return Err(Syntax::ChineseChar {
                    index: i + 1,
                    ch: c,
                });
            }
        }
    }
    use Token::*;
    let (role, which, dir, target) = match tokens[..] {
        [Piece(r), Num(f), Dir(d), Num(t)] => (r, Which::File(f), d, t),
        [Pos(p), Piece(r), Dir(d), Num(t)] | [Piece(r), Pos(p), Dir(d), Num(t)] => {
            (r, Which::Tandem(p), d, t)
        }
        [Num(k), Piece(Role::Pawn), Dir(d), Num(t)] if k <= 5 => {
            (Role::Pawn, Which::Ordinal(k), d, t)
        }
        [Num(_), Piece(_), Dir(_), Num(_)] => {
            return Err(Syntax::ChineseOrdinal);
        }
        [Pos(p), Num(f), Dir(d), Num(t)] | [Pos(p), Piece(Role::Pawn), Num(f), Dir(d), Num(t)] => {
            (Role::Pawn, Which::FileTandem(f, p), d, t)
        }
        _ if tokens.len() < 4 => {
            return Err(Syntax::ChineseShort);
        }
        _ => return Err(Syntax::ChineseOrder),
    };
    Ok(Descriptor {
        role,
        which,
        dir,
        target,
    })
}

fn role_char(role: Role, color: Color, script: Script) -> char {
    match (script, role, color) {
        (Script::Simplified, _, _) => role.chinese(color),
        (Script::Traditional, Role::King, Color::Red) => '帥',
        (Script::Traditional, Role::King, Color::Black) => '將',
        (Script::Traditional, Role::Horse, _) => '馬',
        (Script::Traditional, Role::Rook, _) => '車',
        (Script::Traditional, Role::Cannon, Color::Black) => '砲',
        (Script::Traditional, _, _) => role.chinese(color),
    }
}

const CHINESE_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn digit_char(n: u8, color: Color, style: ChineseStyle) -> char {
    let i = usize::from(n.clamp(1, 9) - 1);
    match (color, style.black_digits) {
        (Color::Red, _) | (Color::Black, BlackDigits::Chinese) => CHINESE_DIGITS[i],
        (Color::Black, BlackDigits::FullWidth) => {
            ['１', '２', '３', '４', '５', '６', '７', '８', '９'][i]
        }
        (Color::Black, BlackDigits::Ascii) => (b'1' + i as u8) as char,
    }
}

/// Writes the move `m` of `pos` in Chinese notation in `style`, choosing the tandem form the
/// position needs (`前车进一`, `中兵平四`, `二兵进一`).
///
/// ```
/// use qili::notation::{write_chinese, ChineseStyle, parse_move};
/// use qili::Position;
///
/// let pos = Position::start();
/// let m = parse_move(&pos, "h2e2", None).unwrap();
/// assert_eq!(write_chinese(&pos, m, ChineseStyle::TRADITIONAL), "炮二平五");
/// let black = pos.play(m).unwrap();
/// let reply = parse_move(&black, "h9g7", None).unwrap();
/// assert_eq!(write_chinese(&black, reply, ChineseStyle::default()), "马８进７");
/// assert_eq!(write_chinese(&black, reply, ChineseStyle::ASCII_BLACK), "马8进7");
/// assert_eq!(write_chinese(&black, reply, ChineseStyle::TRADITIONAL), "馬８進７");
/// ```
pub fn write_chinese(pos: &Position, m: Move, style: ChineseStyle) -> String {
    let Some((color, d)) = describe(pos, m, Flavor::Chinese) else {
        return m.to_string();
    };
    let role = role_char(d.role, color, style.script);
    let place = |p: Place| match (p, style.script) {
        (Place::Front | Place::Plus | Place::PlusPlus, _) => '前',
        (Place::Middle, _) => '中',
        (_, Script::Simplified) => '后',
        (_, Script::Traditional) => '後',
    };
    let mut out = String::with_capacity(12);
    match d.which {
        Which::File(f) | Which::WxfFile(f) => {
            out.push(role);
            out.push(digit_char(f, color, style));
        }
        Which::Tandem(p) => {
            out.push(place(p));
            out.push(role);
        }
        Which::FileTandem(f, p) => {
            out.push(place(p));
            out.push(digit_char(f, color, style));
        }
        Which::Ordinal(k) => {
            // 一…五 name places in an order, not files: always Chinese numerals.
            out.push(CHINESE_DIGITS[usize::from(k.clamp(1, 9) - 1)]);
            out.push(role);
        }
    }
    out.push(match (d.dir, style.script) {
        (Direction::Forward, Script::Simplified) => '进',
        (Direction::Forward, Script::Traditional) => '進',
        (Direction::Backward, _) => '退',
        (Direction::Sideways, _) => '平',
    });
    out.push(digit_char(d.target, color, style));
    out
}
