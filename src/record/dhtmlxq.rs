//! DhtmlXQ (UBB) records, as 东萍象棋 (dpxq.com), forums and game databases publish them: a
//! `[DhtmlXQ]` … `[/DhtmlXQ]` block of `[DhtmlXQ_name]value[/DhtmlXQ_name]` fields.
//!
//! * `binit`: the start, 64 digits: the 32 slots of the XQF layout (red's rook, horse, elephant,
//!   advisor, king, advisor, elephant, horse, rook, cannon, cannon, five soldiers, then black's),
//!   each `xy` with x the file 0–8 from red's left and y the row 0–9 **from the top** (black's
//!   back rank), `99` for a piece off the board. No `binit`: the opening position.
//! * `movelist`: the main line, four digits a move (`x1y1x2y2`, the same coordinates), so
//!   炮二平五 is `7747`. The side to move is the owner of the first move's piece.
//! * `title`, `event`, `date`, `place`, `round`, `red`, `black`, `redteam`, `blackteam`, `open`,
//!   `result` (红胜, 黑胜, 和棋, or a PGN result), … become PGN tags (`Title`, `Event`, `Date`,
//!   `Site`, `Round`, `Red`, `Black`, `RedTeam`, `BlackTeam`, `Opening`, `Result`, …).
//! * Variations (`move_a_b_c`) and comments (`comment…`) are skipped. A text may hold several
//!   blocks (a forum page); the fields may also stand without the enclosing `[DhtmlXQ]`.
//!
//! ```
//! use qili::record::dhtmlxq;
//!
//! let text = "[DhtmlXQ][DhtmlXQ_red]许银川[/DhtmlXQ_red][DhtmlXQ_result]红胜[/DhtmlXQ_result]\
//!             [DhtmlXQ_movelist]77471022[/DhtmlXQ_movelist][/DhtmlXQ]";
//! let game = &dhtmlxq::read_games(text).unwrap()[0];
//! assert_eq!(game.moves[0].to_string(), "h2e2");
//! assert_eq!(game.moves[1].to_string(), "b9c7");
//! assert_eq!(game.tag("Red"), Some("许银川"));
//! assert_eq!(game.result.as_deref(), Some("1-0"));
//! assert_eq!(dhtmlxq::read_games(&dhtmlxq::write(game)).unwrap()[0].moves, game.moves);
//! ```

use super::Game;
use super::{BadMove, layout};
use crate::color::Color;
use crate::fen::FenError;
use crate::lang::{Lang, Words};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use std::fmt::Write;

/// Why a DhtmlXQ record cannot be read; `game` counts the blocks from 0.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct DhtmlXqError {
    /// The block's index in the text, from 0.
    pub game: usize,
    /// What is wrong.
    pub kind: DhtmlXqErrorKind,
}

impl Words for DhtmlXqError {
    fn words(&self, lang: Lang) -> String {
        let (block, kind) = (self.game + 1, self.kind.words(lang));
        match lang {
            Lang::En => format!("block {block}: {kind}"),
            Lang::Zh => format!("第{block}个DhtmlXQ块：{kind}"),
        }
    }
}

/// The ways a DhtmlXQ block can be wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DhtmlXqErrorKind {
    /// No `[DhtmlXQ_…]` field at all.
    NoFields,
    /// `binit` is not 64 digits.
    BadInit(String),
    /// Two pieces of `binit` on one point.
    SamePoint {
        /// The point.
        square: Square,
        /// The first piece's slot, from 1.
        first: usize,
        /// The second's.
        second: usize,
    },
    /// `binit` describes no valid position.
    Position(FenError),
    /// `movelist` is not groups of four digits.
    BadMoveList(String),
    /// A move that is not legal in turn (or leaves the board).
    Move {
        /// Index of the move, from 0.
        ply: usize,
        /// Its four digits.
        text: String,
        /// Why it was rejected.
        reason: BadMove,
    },
}

impl Words for DhtmlXqErrorKind {
    fn words(&self, lang: Lang) -> String {
        use DhtmlXqErrorKind::*;
        match (self, lang) {
            (NoFields, _) => lang
                .pick("没有[DhtmlXQ_…]字段", "no [DhtmlXQ_…] fields")
                .into(),
            (BadInit(init), Lang::En) => format!(
                "[DhtmlXQ_binit] is {init:?}; expected 64 digits, two for each of the 32 pieces"
            ),
            (BadInit(init), Lang::Zh) => {
                format!("[DhtmlXQ_binit]为{init:?}；应为64个数字，32个棋子各两个")
            }
            (
                SamePoint {
                    square,
                    first,
                    second,
                },
                Lang::En,
            ) => format!(
                "[DhtmlXQ_binit]: pieces {first} and {second} (from 1) are both on {square}"
            ),
            (
                SamePoint {
                    square,
                    first,
                    second,
                },
                Lang::Zh,
            ) => format!(
                "[DhtmlXQ_binit]：{}",
                layout::same_point_zh(*square, *first, *second)
            ),
            (Position(e), Lang::En) => format!("[DhtmlXQ_binit] is not a valid position: {e}"),
            (Position(e), Lang::Zh) => {
                format!("[DhtmlXQ_binit]不是有效局面：{}", e.words(lang))
            }
            (BadMoveList(list), Lang::En) => {
                format!("[DhtmlXQ_movelist] is {list:?}; expected four digits a move")
            }
            (BadMoveList(list), Lang::Zh) => {
                format!("[DhtmlXQ_movelist]为{list:?}；每着应为四个数字")
            }
            (Move { ply, text, reason }, Lang::En) => format!(
                "move {ply} (counting from 0) {text:?}: {}",
                reason.words(lang)
            ),
            (Move { ply, text, reason }, Lang::Zh) => {
                format!("从0数起第{ply}着{text:?}：{}", reason.words(lang))
            }
        }
    }
}

crate::lang::english_display!(DhtmlXqError, DhtmlXqErrorKind);

/// Field names and the PGN tags they become (and are written from).
const TAGS: [(&str, &str); 15] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("table", "Table"),
    ("red", "Red"),
    ("redteam", "RedTeam"),
    ("redrating", "RedElo"),
    ("black", "Black"),
    ("blackteam", "BlackTeam"),
    ("blackrating", "BlackElo"),
    ("open", "Opening"),
    ("ecco", "ECCO"),
    ("author", "Annotator"),
];

/// Whether `text` holds a DhtmlXQ field.
pub fn looks_like(text: &str) -> bool {
    find_ignore_case(text, "[dhtmlxq", 0).is_some()
}

/// Byte offset of the first ASCII-case-insensitive `needle` (ASCII) in `hay` from `from`.
fn find_ignore_case(hay: &str, needle: &str, from: usize) -> Option<usize> {
    let h = hay.as_bytes();
    let n = needle.as_bytes();
    (from..=h.len().checked_sub(n.len())?).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// The blocks of `text`: between `[DhtmlXQ]` and `[/DhtmlXQ]` (or to the next opening, or the
/// end); the whole text if it has fields but no `[DhtmlXQ]`.
fn blocks(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(open) = find_ignore_case(text, "[dhtmlxq]", at) {
        let body = open + "[dhtmlxq]".len();
        let next_open = find_ignore_case(text, "[dhtmlxq]", body).unwrap_or(text.len());
        let close = find_ignore_case(text, "[/dhtmlxq]", body)
            .filter(|&c| c < next_open)
            .unwrap_or(next_open);
        out.push(&text[body..close]);
        at = close;
    }
    if out.is_empty() && looks_like(text) {
        out.push(text);
    }
    out
}

/// The `[DhtmlXQ_name]value` fields of a block, names lower-cased; a value runs to the next
/// closing `[/DhtmlXQ_…]` (some writers close a field with another name).
fn fields(block: &str) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(open) = find_ignore_case(block, "[dhtmlxq_", at) {
        let name_start = open + "[dhtmlxq_".len();
        let Some(name_len) = block[name_start..].find(']') else {
            break;
        };
        let name = block[name_start..name_start + name_len].to_ascii_lowercase();
        let value_start = name_start + name_len + 1;
        let value_end = find_ignore_case(block, "[/dhtmlxq_", value_start).unwrap_or(block.len());
        out.push((name, &block[value_start..value_end]));
        at = value_end.max(value_start);
    }
    out
}

/// Reads every block of `text` (UTF-8; see `record` for other encodings).
pub fn read_games(text: &str) -> Result<Vec<Game>, DhtmlXqError> {
    // The first block that cannot be read is the error, as `read_each` reports it.
    read_each(text).into_iter().collect()
}

/// Reads each block of `text` on its own: a block that cannot be read is an error item, and the
/// others are still read (one error item if there is no block).
pub fn read_each(text: &str) -> Vec<Result<Game, DhtmlXqError>> {
    let blocks = blocks(text);
    if blocks.is_empty() {
        return vec![Err(DhtmlXqError {
            game: 0,
            kind: DhtmlXqErrorKind::NoFields,
        })];
    }
    blocks
        .iter()
        .enumerate()
        .map(|(game, block)| read_block(block).map_err(|kind| DhtmlXqError { game, kind }))
        .collect()
}

/// Reads the first block of `text`; the blocks after it are not read.
pub fn read_game(text: &str) -> Result<Game, DhtmlXqError> {
    let first = blocks(text).into_iter().next().ok_or(DhtmlXqError {
        game: 0,
        kind: DhtmlXqErrorKind::NoFields,
    })?;
    read_block(first).map_err(|kind| DhtmlXqError { game: 0, kind })
}

fn result_token(value: &str) -> Option<&'static str> {
    let v = value.trim();
    Some(match v {
        "1-0" | "红胜" | "红先胜" | "红方胜" | "紅勝" | "紅先勝" => "1-0",
        "0-1" | "黑胜" | "红先负" | "黑方胜" | "黑勝" | "紅先負" => "0-1",
        "1/2-1/2" | "和棋" | "和局" | "红先和" | "和" | "紅先和" => "1/2-1/2",
        _ => return None,
    })
}

/// A point written as two digits (file from red's left, row from the top); `None` off the board.
fn point(x: u8, y: u8) -> Option<Square> {
    (x <= 8 && y <= 9).then(|| Square::new(x, 9 - y))
}

fn digits(text: &str) -> Option<Vec<u8>> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_digit(10).map(|d| d as u8))
        .collect()
}

fn read_block(block: &str) -> Result<Game, DhtmlXqErrorKind> {
    let fields = fields(block);
    if fields.is_empty() {
        return Err(DhtmlXqErrorKind::NoFields);
    }
    let value = |name: &str| fields.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    let board = match value("binit").map(str::trim).filter(|v| !v.is_empty()) {
        None => *Position::start().board(),
        Some(init) => {
            let d = digits(init)
                .filter(|d| d.len() == 64)
                .ok_or_else(|| DhtmlXqErrorKind::BadInit(init.to_string()))?;
            let mut slots = [None; 32];
            for (slot, xy) in slots.iter_mut().zip(d.chunks(2)) {
                *slot = point(xy[0], xy[1]);
            }
            layout::board(&slots).map_err(|e| DhtmlXqErrorKind::SamePoint {
                square: e.square,
                first: e.first + 1,
                second: e.second + 1,
            })?
        }
    };
    let list = value("movelist").unwrap_or("");
    let codes = digits(list)
        .filter(|d| d.len() % 4 == 0)
        .ok_or_else(|| DhtmlXqErrorKind::BadMoveList(list.trim().to_string()))?;
    let first_from = codes.first().and_then(|_| point(codes[0], codes[1]));
    let turn = layout::turn(&board, first_from, Color::Red);
    let start = layout::position(&board, turn).map_err(DhtmlXqErrorKind::Position)?;
    let mut game = Game::new(start);
    for (name, tag) in TAGS {
        if let Some(v) = value(name).map(str::trim).filter(|v| !v.is_empty()) {
            game.tags.push((tag.to_string(), v.to_string()));
        }
    }
    if let Some(r) = value("result").and_then(result_token) {
        game.tags.push(("Result".to_string(), r.to_string()));
        game.result = Some(r.to_string());
    }
    let mut pos = start;
    for (ply, c) in codes.chunks(4).enumerate() {
        let text: String = c.iter().map(|d| char::from(b'0' + d)).collect();
        let bad = |reason: BadMove| DhtmlXqErrorKind::Move {
            ply,
            text: text.clone(),
            reason,
        };
        let (Some(from), Some(to)) = (point(c[0], c[1]), point(c[2], c[3])) else {
            return Err(bad(BadMove::OffBoard));
        };
        let m = Move::new(from, to);
        pos.check_legal(m)
            .map_err(|why| bad(BadMove::Illegal { mv: m, why }))?;
        pos.play_unchecked(m);
        game.moves.push(m);
        game.texts.push(text);
    }
    Ok(game)
}

/// Writes `game` as a DhtmlXQ block: its tags as fields, `binit` for a start other than the
/// opening, and the moves up to the first that is not legal (there is none in a game read from a
/// record). The side to move at the start is not written: DhtmlXQ readers take it from the first
/// move.
pub fn write(game: &Game) -> String {
    let mut out = String::from("[DhtmlXQ]\n");
    for (name, tag) in TAGS {
        if let Some(v) = game.tag(tag).filter(|v| !v.is_empty()) {
            let _ = writeln!(out, "[DhtmlXQ_{name}]{}[/DhtmlXQ_{name}]", clean(v));
        }
    }
    let result = match game.result.as_deref().or_else(|| game.tag("Result")) {
        Some("1-0") => "红胜",
        Some("0-1") => "黑胜",
        Some("1/2-1/2") => "和棋",
        _ => "未知",
    };
    let _ = writeln!(out, "[DhtmlXQ_result]{result}[/DhtmlXQ_result]");
    if game.start.board() != Position::start().board() {
        let mut init = String::with_capacity(64);
        for slot in layout::slots(game.start.board()) {
            match slot {
                Some(sq) => {
                    let _ = write!(init, "{}{}", sq.file(), 9 - sq.rank());
                }
                None => init.push_str("99"),
            }
        }
        let _ = writeln!(out, "[DhtmlXQ_binit]{init}[/DhtmlXQ_binit]");
    }
    let mut list = String::with_capacity(game.moves.len() * 4);
    let mut pos = game.start;
    for &m in &game.moves {
        if pos.check_legal(m).is_err() {
            break;
        }
        let _ = write!(
            list,
            "{}{}{}{}",
            m.from.file(),
            9 - m.from.rank(),
            m.to.file(),
            9 - m.to.rank()
        );
        pos.play_unchecked(m);
    }
    let _ = writeln!(out, "[DhtmlXQ_movelist]{list}[/DhtmlXQ_movelist]");
    out.push_str("[/DhtmlXQ]\n");
    out
}

/// A tag value as a field: brackets would end the field, line breaks the line.
fn clean(v: &str) -> String {
    v.chars()
        .map(|c| match c {
            '[' => '(',
            ']' => ')',
            '\r' | '\n' => ' ',
            c => c,
        })
        .collect()
}
