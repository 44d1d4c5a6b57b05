//! A ruling request as callers send it: the start position and the moves as text, with the
//! options; its errors name the field and the move. It reads UCCI position strings, so it sits
//! above both [`crate::rules`] and [`crate::record`].
//!
//! ```
//! use qili::request::{Request, adjudicate};
//! use qili::rules::Verdict;
//! // Red's rook checks on rank 9 and rank 8 while black's king steps up and down:
//! // unilateral perpetual check loses (24.1).
//! let request = Request {
//!     fen: "4k4/R8/9/9/9/9/9/9/9/3K5 w".into(),
//!     moves: "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9".split(' ').map(String::from).collect(),
//!     ..Request::default()
//! };
//! let ruling = adjudicate(&request).unwrap();
//! assert_eq!(ruling.verdict, Verdict::RedLoses);
//! ```

use crate::fen::FenError;
use crate::lang::{Lang, Words};
use crate::moves::Move;
use crate::notation::{Notation, NotationError, parse_move};
use crate::position::Position;
use crate::record::ucci;
use crate::rules::{Options, Ruling, rule};

/// Reads a request and rules on it.
pub fn adjudicate(request: &Request) -> Result<Ruling, RequestError> {
    let (start, moves) = request.parse()?;
    Ok(rule(&start, &moves, &request.options))
}

/// A request as callers send it: text fields, resolved by [`Request::parse`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Start position in FEN; empty means the opening position.
    pub fen: String,
    /// The moves, in `notation` (auto-detected when `None`).
    pub moves: Vec<String>,
    /// The moves' notation, or `None` to detect it per move.
    pub notation: Option<Notation>,
    /// How to rule.
    pub options: Options,
}

/// Why a request cannot be ruled on. Each names the field, and for a move its index.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// The start position is not a valid FEN.
    Fen(#[from] FenError),
    /// A move cannot be read or is illegal.
    Move {
        /// Index of the move (0-based).
        ply: usize,
        /// The move's text.
        text: String,
        /// Why it was rejected.
        reason: NotationError,
        /// Whether it is a move of the UCCI position string given in `fen` rather than of `moves`.
        in_fen: bool,
    },
}

impl Words for RequestError {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (RequestError::Fen(e), _) => format!("fen: {}", e.words(lang)),
            (
                RequestError::Move {
                    ply,
                    text,
                    reason,
                    in_fen,
                },
                Lang::En,
            ) => {
                let ucci = if *in_fen {
                    " (a move of the UCCI position string in fen)"
                } else {
                    ""
                };
                format!("moves[{ply}] {text:?}: {}{ucci}", reason.words(lang))
            }
            (
                RequestError::Move {
                    ply,
                    text,
                    reason,
                    in_fen,
                },
                Lang::Zh,
            ) => {
                let ucci = if *in_fen {
                    "（fen中UCCI局面串的着法）"
                } else {
                    ""
                };
                format!("moves[{ply}] {text:?}：{}{ucci}", reason.words(lang))
            }
        }
    }
}

crate::lang::english_display!(RequestError);

impl RequestError {
    /// The request field at fault (`fen` or `moves`).
    pub fn field(&self) -> &'static str {
        match self {
            RequestError::Fen(_) => "fen",
            RequestError::Move { .. } => "moves",
        }
    }

    /// The index of the offending move, if a move is at fault.
    pub fn ply(&self) -> Option<usize> {
        match self {
            RequestError::Fen(_) => None,
            RequestError::Move { ply, .. } => Some(*ply),
        }
    }
}

impl Request {
    /// Reads the start position and resolves every move against the position it is played in.
    ///
    /// `fen` may also be a UCCI position string (`startpos`, `position startpos moves h2e2 …`,
    /// `position fen <FEN> moves …`): its moves (ICCS) are played first, before `moves`, and
    /// count in the move indices.
    pub fn parse(&self) -> Result<(Position, Vec<Move>), RequestError> {
        if ucci::is_position_string(&self.fen) {
            return self.parse_ucci();
        }
        let start = if self.fen.trim().is_empty() {
            Position::start()
        } else {
            Position::from_fen(&self.fen)?
        };
        let moves = parse_moves(&start, &self.moves, self.notation)?;
        Ok((start, moves))
    }

    fn parse_ucci(&self) -> Result<(Position, Vec<Move>), RequestError> {
        let given = ucci::parse(&self.fen).map_err(|e| match e {
            ucci::UcciError::Fen { source, .. } => RequestError::Fen(source),
            other => RequestError::Fen(FenError::PositionString(other.to_string())),
        })?;
        let mut moves =
            parse_moves(&given.start, &given.moves, Some(Notation::Iccs)).map_err(|e| match e {
                RequestError::Move {
                    ply, text, reason, ..
                } => RequestError::Move {
                    ply,
                    text,
                    reason,
                    in_fen: true,
                },
                other => other,
            })?;
        let mut pos = given.start;
        for &m in &moves {
            pos.play_unchecked(m);
        }
        let offset = moves.len();
        let rest = parse_moves(&pos, &self.moves, self.notation).map_err(|e| match e {
            RequestError::Move {
                ply,
                text,
                reason,
                in_fen,
            } => RequestError::Move {
                ply: ply + offset,
                text,
                reason,
                in_fen,
            },
            other => other,
        })?;
        moves.extend(rest);
        Ok((given.start, moves))
    }
}

/// Resolves move texts one by one from `start`; the first bad one is an error naming its index.
pub fn parse_moves(
    start: &Position,
    texts: &[impl AsRef<str>],
    notation: Option<Notation>,
) -> Result<Vec<Move>, RequestError> {
    let mut pos = *start;
    let mut moves = Vec::with_capacity(texts.len());
    for (ply, text) in texts.iter().enumerate() {
        let text = text.as_ref();
        let m = parse_move(&pos, text, notation).map_err(|reason| RequestError::Move {
            ply,
            text: text.to_string(),
            reason,
            in_fen: false,
        })?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}
