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
//!     moves: "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9".split(' ').collect(),
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
    pub moves: Moves,
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
pub fn parse_moves<T: AsRef<str>>(
    start: &Position,
    texts: impl IntoIterator<Item = T>,
    notation: Option<Notation>,
) -> Result<Vec<Move>, RequestError> {
    let mut pos = *start;
    let texts = texts.into_iter();
    let mut moves = Vec::with_capacity(texts.size_hint().0);
    for (ply, text) in texts.enumerate() {
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

/// A request's move texts (着法) in one buffer: the texts end to end and where each ends, so a
/// request of n moves holds two allocations, not n + 1 (protobuf's `repeated string` decodes
/// into one `String` a move). Equal lists of moves are equal `Moves`; its `Debug` and serde forms
/// are those of a list of strings.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Moves {
    /// The texts, end to end.
    text: String,
    /// Where each text ends in `text`.
    ends: Vec<usize>,
}

impl Moves {
    /// No moves.
    pub const fn new() -> Moves {
        Moves {
            text: String::new(),
            ends: Vec::new(),
        }
    }

    /// Room for `moves` moves of `bytes` bytes in all, allocated now.
    pub fn with_capacity(moves: usize, bytes: usize) -> Moves {
        Moves {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(moves),
        }
    }

    /// Adds a move at the end.
    pub fn push(&mut self, text: impl AsRef<str>) {
        self.text.push_str(text.as_ref());
        self.ends.push(self.text.len());
    }

    /// Adds a move given as bytes, if they are UTF-8 (else an error, and nothing is added).
    pub fn push_utf8(&mut self, bytes: &[u8]) -> Result<(), std::str::Utf8Error> {
        self.text.push_str(std::str::from_utf8(bytes)?);
        self.ends.push(self.text.len());
        Ok(())
    }

    /// Makes room for `moves` more moves of `bytes` more bytes.
    pub fn reserve(&mut self, moves: usize, bytes: usize) {
        self.text.reserve(bytes);
        self.ends.reserve(moves);
    }

    /// How many moves.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The bytes of all the texts together.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The `i`th move's text.
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        let start = i.checked_sub(1).map_or(0, |j| self.ends[j]);
        self.text.get(start..end)
    }

    /// The texts in order.
    pub fn iter(&self) -> MovesIter<'_> {
        MovesIter {
            text: &self.text,
            ends: self.ends.iter(),
            start: 0,
        }
    }

    /// Drops every move, keeping the room.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }
}

/// The texts of [`Moves`], in order.
#[derive(Clone, Debug)]
pub struct MovesIter<'a> {
    text: &'a str,
    ends: std::slice::Iter<'a, usize>,
    start: usize,
}

impl<'a> Iterator for MovesIter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let end = *self.ends.next()?;
        let text = self.text.get(self.start..end).unwrap_or_default();
        self.start = end;
        Some(text)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ends.size_hint()
    }
}

impl ExactSizeIterator for MovesIter<'_> {}

impl<'a> IntoIterator for &'a Moves {
    type Item = &'a str;
    type IntoIter = MovesIter<'a>;

    fn into_iter(self) -> MovesIter<'a> {
        self.iter()
    }
}

impl<S: AsRef<str>> FromIterator<S> for Moves {
    fn from_iter<I: IntoIterator<Item = S>>(texts: I) -> Moves {
        let mut moves = Moves::new();
        moves.extend(texts);
        moves
    }
}

impl<S: AsRef<str>> Extend<S> for Moves {
    fn extend<I: IntoIterator<Item = S>>(&mut self, texts: I) {
        for text in texts {
            self.push(text);
        }
    }
}

impl<S: AsRef<str>> From<Vec<S>> for Moves {
    fn from(texts: Vec<S>) -> Moves {
        texts.into_iter().collect()
    }
}

impl<S: AsRef<str>> From<&[S]> for Moves {
    fn from(texts: &[S]) -> Moves {
        texts.iter().collect()
    }
}

impl std::fmt::Debug for Moves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl serde::Serialize for Moves {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> serde::Deserialize<'de> for Moves {
    /// A list of strings, with `Vec<String>`'s errors, each text read straight into the buffer.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Moves, D::Error> {
        deserializer.deserialize_seq(MovesVisitor)
    }
}

/// Reads a list of strings into [`Moves`].
struct MovesVisitor;

impl<'de> serde::de::Visitor<'de> for MovesVisitor {
    type Value = Moves;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Moves, A::Error> {
        let mut moves = Moves::new();
        // The hint is the caller's word: bounded as serde bounds a Vec's.
        moves.reserve(seq.size_hint().unwrap_or(0).min(4096), 0);
        while seq.next_element_seed(MoveText(&mut moves))?.is_some() {}
        Ok(moves)
    }
}

/// One string of the list, appended to the [`Moves`] it holds.
struct MoveText<'m>(&'m mut Moves);

impl<'de> serde::de::DeserializeSeed<'de> for MoveText<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_string(self)
    }
}

impl serde::de::Visitor<'_> for MoveText<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<(), E> {
        self.0.push(text);
        Ok(())
    }

    fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<(), E> {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.visit_str(text),
            Err(_) => Err(E::invalid_value(serde::de::Unexpected::Bytes(bytes), &self)),
        }
    }
}
