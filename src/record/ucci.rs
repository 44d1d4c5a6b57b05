//! UCCI position strings, as engines and their front ends pass a game: `position startpos moves
//! h2e2 h9g7 …` and `position fen <FEN> moves …` (xqbase UCCI §4), and the short forms without
//! `position`: `startpos`, `fen <FEN>`, or a bare FEN, each optionally followed by `moves …`.
//! Moves are ICCS without the dash (`h2e2`), ranks 0–9.
//!
//! ```
//! use qili::record::ucci;
//!
//! let game = ucci::read("position startpos moves h2e2 h9g7").unwrap();
//! assert_eq!(game.moves.len(), 2);
//! assert_eq!(ucci::write(&game), "position startpos moves h2e2 h9g7");
//! assert!(ucci::read("position startpos moves h2e9").is_err());
//! ```

use super::Game;
use crate::fen::FenError;
use crate::lang::{Lang, Words};
use crate::notation::{Notation, NotationErrorKind, parse_move};
use crate::position::Position;

/// A position string taken apart: the start and the move texts after `moves`, not yet checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionString {
    /// The start (`startpos`, or the FEN).
    pub start: Position,
    /// The texts after `moves`, in order.
    pub moves: Vec<String>,
}

/// Why a position string cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UcciError {
    /// Nothing but white space.
    Empty,
    /// `position` followed by neither `startpos` nor `fen`.
    NoStart(String),
    /// `fen` with no FEN after it.
    MissingFen,
    /// The FEN is not a valid position.
    Fen {
        /// The FEN as written.
        fen: String,
        /// Why it was rejected.
        source: FenError,
    },
    /// A word where `moves` (or the end) should be.
    Unexpected(String),
    /// A move that is not an ICCS move legal in turn.
    Move {
        /// Index of the move, from 0.
        ply: usize,
        /// The move's text.
        text: String,
        /// Why it was rejected.
        reason: NotationErrorKind,
    },
}

impl Words for UcciError {
    fn words(&self, lang: Lang) -> String {
        use UcciError::*;
        match (self, lang) {
            (Empty, _) => lang.pick("局面串为空", "empty position string").into(),
            (NoStart(w), Lang::En) => {
                format!("{w:?} after \"position\": expected startpos or fen")
            }
            (NoStart(w), Lang::Zh) => format!("“position”之后是{w:?}：应为startpos或fen"),
            (MissingFen, _) => lang
                .pick("“fen”之后没有FEN", "\"fen\" is not followed by a FEN")
                .into(),
            (Fen { fen, source }, Lang::En) => format!("FEN {fen:?}: {source}"),
            (Fen { fen, source }, Lang::Zh) => format!("FEN {fen:?}：{}", source.words(lang)),
            (Unexpected(w), Lang::En) => {
                format!("{w:?} after the position: expected \"moves\" and the moves")
            }
            (Unexpected(w), Lang::Zh) => format!("局面之后是{w:?}：应为“moves”及着法"),
            (Move { ply, text, reason }, Lang::En) => {
                format!(
                    "move {ply} (counting from 0) {text:?}: {}",
                    reason.words(lang)
                )
            }
            (Move { ply, text, reason }, Lang::Zh) => {
                format!("从0数起第{ply}着{text:?}：{}", reason.words(lang))
            }
        }
    }
}

crate::lang::english_display!(UcciError);

/// The keywords a position string starts with; a FEN never starts with one of them.
const KEYWORDS: [&str; 3] = ["position", "startpos", "fen"];

/// Whether `text` is written as a UCCI position string: it starts with `position`, `startpos`
/// or `fen`. (A bare FEN is one too, but reads as a FEN anyway.)
pub fn is_position_string(text: &str) -> bool {
    text.split_whitespace()
        .next()
        .is_some_and(|w| KEYWORDS.iter().any(|k| w.eq_ignore_ascii_case(k)))
}

/// Takes a position string apart; the moves are not read (see [`read`]).
pub fn parse(text: &str) -> Result<PositionString, UcciError> {
    let mut words = text.split_whitespace().peekable();
    let is = |w: &str, k: &str| w.eq_ignore_ascii_case(k);
    let Some(mut first) = words.next() else {
        return Err(UcciError::Empty);
    };
    if is(first, "position") {
        first = match words.next() {
            Some(w) if is(w, "startpos") || is(w, "fen") => w,
            Some(w) => return Err(UcciError::NoStart(w.to_string())),
            None => return Err(UcciError::NoStart(String::new())),
        };
    }
    let start = if is(first, "startpos") {
        Position::start()
    } else {
        // `fen <FEN>` or a bare FEN: its fields run to `moves` (six at most).
        let mut fields = Vec::new();
        if !is(first, "fen") {
            fields.push(first);
        }
        while fields.len() < 6
            && let Some(&w) = words.peek()
            && !is(w, "moves")
        {
            fields.push(w);
            words.next();
        }
        if fields.is_empty() {
            return Err(UcciError::MissingFen);
        }
        let fen = fields.join(" ");
        Position::from_fen(&fen).map_err(|source| UcciError::Fen { fen, source })?
    };
    let moves = match words.next() {
        None => Vec::new(),
        Some(w) if is(w, "moves") => words.map(str::to_string).collect(),
        Some(w) => return Err(UcciError::Unexpected(w.to_string())),
    };
    Ok(PositionString { start, moves })
}

/// Reads a position string as a game: the start and its moves, each legal in turn.
pub fn read(text: &str) -> Result<Game, UcciError> {
    let PositionString { start, moves } = parse(text)?;
    let mut game = Game::new(start);
    let mut pos = start;
    for (ply, text) in moves.into_iter().enumerate() {
        let m = parse_move(&pos, &text, Some(Notation::Iccs)).map_err(|e| UcciError::Move {
            ply,
            text: text.clone(),
            reason: e.kind,
        })?;
        pos.play_unchecked(m);
        game.moves.push(m);
        game.texts.push(text);
    }
    Ok(game)
}

/// Writes `game` as `position startpos moves …` (or `position fen <FEN> moves …` for another
/// start), the moves in ICCS; `moves` is left out when there are none.
pub fn write(game: &Game) -> String {
    let mut out = if game.start == Position::start() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", game.start.fen())
    };
    if !game.moves.is_empty() {
        out.push_str(" moves");
        for m in &game.moves {
            out.push(' ');
            out.push_str(&m.to_string());
        }
    }
    out
}
