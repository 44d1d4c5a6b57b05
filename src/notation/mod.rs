//! Move notations: ICCS coordinates (`h2e2`, `H2-E2`), WXF (`C2.5`) and Chinese (`炮二平五`).
//!
//! Reading always resolves against a position: the text is decoded to the piece(s) it can name and
//! the destination(s) it describes, and exactly one legal move must match. Otherwise the error says
//! why (syntax, no such piece, no legal move, several legal moves, the other side's move, or a move
//! that would leave the mover's king attacked).
//!
//! Forms read:
//!
//! * ICCS: `h2e2`, `H2-E2`, `h2-e2`; ranks 0–9 only (a rank 10 is reported, never reinterpreted).
//! * WXF: `C2.5`, `C2=5`, `H8+7`, letters `K A E/B H/N R C P` in any case; tandems `R+.3`, `+R.3`,
//!   `C-+1`, `C--1`; soldiers `P+.4`, `P3.4` (middle of three or five), `P-.4`, `++.4`, `--.4`,
//!   and `3+.4`, `33.4`, `3-.4` when several files hold several. The dotless `C25` is read only as
//!   letter, file, file (no other three-symbol form exists). Trailing `!`/`?` are dropped, and a
//!   trailing `+`/`#` only when what is left is a whole move.
//! * Chinese: simplified, traditional and variant characters (车/車/俥, 马/馬/傌, 相/象, 仕/士,
//!   帅/帥/将/將, 炮/砲/包, 兵/卒, 进/進, 后/後), digits 一…九, `1`–`9`, `１`–`９`, 壹…玖 for either
//!   side; `前车进一`, `后炮平四`, `中兵平四`, `一兵`…`五兵`, `前七进一`.
//!
//! Resolution:
//!
//! * A plain file holding two pieces of the kind (`车二平五` with both rooks on file 二) is read
//!   when exactly one of them can legally make the move, and reported as ambiguous otherwise.
//! * A tandem designation (前/中/后, 一…五, `+`, `-`, `++`, `3+` …) must name exactly one piece:
//!   `前兵` with soldiers stacked on two files is ambiguous even if only one of them could move.
//! * When the side to move has no such piece but the other side could play the text, the error
//!   says so ([`NotationErrorKind::WrongSide`]): in a record this usually means a missing move.
//!
//! ```
//! use qili::notation::{parse_move, write_move, Notation};
//! use qili::Position;
//!
//! let pos = Position::start();
//! let m = parse_move(&pos, "炮二平五", None).unwrap();
//! assert_eq!(m.to_string(), "h2e2");
//! assert_eq!(parse_move(&pos, "C2.5", None).unwrap(), m);
//! assert_eq!(parse_move(&pos, "H2-E2", Some(Notation::Iccs)).unwrap(), m);
//! assert_eq!(write_move(&pos, m, Notation::Wxf), "C2.5");
//! assert_eq!(write_move(&pos, m, Notation::Chinese), "炮二平五");
//! ```

mod chinese;
mod descriptor;
mod error;
mod iccs;
mod wxf;

pub use chinese::{BlackDigits, ChineseStyle, Script, write_chinese};
pub use descriptor::Place;
pub use error::{Blocked, Missing, NotationError, NotationErrorKind, Syntax};

use crate::moves::Move;
use crate::position::Position;
use std::fmt;
use std::str::FromStr;

/// A move notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Coordinates from red's left and red's side, ranks 0–9: `h2e2` (UCCI) or `H2-E2`.
    Iccs,
    /// WXF file notation, files counted from each player's right: `C2.5`, `H8+7`, `R+.3`.
    Wxf,
    /// Chinese notation (中文纵线记谱): `炮二平五`, `马８进７`, `前车进一`.
    Chinese,
}

impl Notation {
    /// The three notations.
    pub const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];

    /// `"iccs"`, `"wxf"` or `"chinese"`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown notation name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown notation {0:?}: expected iccs, wxf or chinese")]
pub struct ParseNotationError(pub String);

impl FromStr for Notation {
    type Err = ParseNotationError;
    /// Reads `iccs`, `wxf` or `chinese` (any case). There is no `auto`: use `Option::None`.
    fn from_str(s: &str) -> Result<Notation, ParseNotationError> {
        Notation::ALL
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseNotationError(s.to_string()))
    }
}

/// Maps full-width ASCII look-alikes (`Ｃ２．５`) to ASCII; other characters are kept.
fn fold_full_width(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    }
}

/// Whether `c` can only belong to Chinese notation: not ASCII and not a full-width look-alike.
fn is_chinese_char(c: char) -> bool {
    !c.is_ascii() && !('\u{FF01}'..='\u{FF5E}').contains(&c) && !c.is_whitespace()
}

/// Guesses the notation of a move text: Chinese if it has Chinese characters, ICCS if it is two
/// squares (`h2e2`, `H2-E2`), WXF otherwise. `None` for an empty text.
pub fn detect(text: &str) -> Option<Notation> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    if t.chars().any(is_chinese_char) {
        return Some(Notation::Chinese);
    }
    let folded: String = t.chars().map(fold_full_width).collect();
    if iccs::looks_like_iccs(&folded) {
        Some(Notation::Iccs)
    } else {
        Some(Notation::Wxf)
    }
}

/// Reads a move in `notation` (`None` auto-detects) and returns the one legal move it names.
///
/// ```
/// use qili::notation::{parse_move, Notation, NotationErrorKind};
/// use qili::Position;
///
/// let pos = Position::start();
/// assert_eq!(parse_move(&pos, "马８进７", None).unwrap().to_string(), "b0c2");
/// assert_eq!(parse_move(&pos, "h2e2", Some(Notation::Iccs)).unwrap().to_string(), "h2e2");
/// let err = parse_move(&pos, "R5+1", None).unwrap_err();
/// assert!(matches!(err.kind, NotationErrorKind::NoPiece(_)));
/// ```
pub fn parse_move(
    pos: &Position,
    text: &str,
    notation: Option<Notation>,
) -> Result<Move, NotationError> {
    let (notation, auto_detected) = match notation {
        Some(n) => (Some(n), false),
        None => (detect(text), true),
    };
    let error = |kind| NotationError {
        notation,
        auto_detected,
        text: text.to_string(),
        kind,
    };
    let Some(n) = notation else {
        return Err(error(NotationErrorKind::Syntax(Syntax::Empty)));
    };
    match parse_as(pos, text, n) {
        Ok(m) => Ok(m),
        Err(NotationErrorKind::NoPiece(what)) => {
            // Most often a record that skipped a move: say so if the other side could play it.
            let other = pos
                .with_turn_passed()
                .and_then(|p| parse_as(&p, text, n).ok());
            Err(error(match other {
                Some(mv) => NotationErrorKind::WrongSide {
                    turn: pos.turn(),
                    mv,
                },
                None => NotationErrorKind::NoPiece(what),
            }))
        }
        Err(kind) => Err(error(kind)),
    }
}

fn parse_as(pos: &Position, text: &str, notation: Notation) -> Result<Move, NotationErrorKind> {
    match notation {
        Notation::Iccs => iccs::parse(pos, text),
        Notation::Wxf => {
            let d = wxf::parse(text).map_err(NotationErrorKind::Syntax)?;
            descriptor::resolve(pos, &d)
        }
        Notation::Chinese => {
            let d = chinese::parse(text).map_err(NotationErrorKind::Syntax)?;
            descriptor::resolve(pos, &d)
        }
    }
}

/// Writes the legal move `m` of `pos` in `notation`: ICCS as `h2e2`, WXF canonically (`C2.5`,
/// `R+.3`, `P+.4`), Chinese in the default [`ChineseStyle`] (`炮二平五`, `马８进７`).
///
/// A move whose origin is empty is written in ICCS whatever the notation; other illegal moves are
/// described as if they were legal.
///
/// ```
/// use qili::notation::{parse_move, write_move, Notation};
/// use qili::Position;
///
/// let pos = Position::start();
/// let m = parse_move(&pos, "b0c2", None).unwrap();
/// assert_eq!(write_move(&pos, m, Notation::Iccs), "b0c2");
/// assert_eq!(write_move(&pos, m, Notation::Wxf), "H8+7");
/// assert_eq!(write_move(&pos, m, Notation::Chinese), "马八进七");
/// ```
pub fn write_move(pos: &Position, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => m.to_string(),
        Notation::Wxf => wxf::write(pos, m),
        Notation::Chinese => write_chinese(pos, m, ChineseStyle::default()),
    }
}

/// Removes trailing annotations (`!`, `?`, their full-width forms) and surrounding blanks.
fn strip_marks(text: &str) -> &str {
    text.trim()
        .trim_end_matches(['!', '?', '！', '？'])
        .trim_end()
}
