//! A game as read from a record: its tags, start, moves and result.

use crate::moves::Move;
use crate::position::Position;

/// One game: its tags, start, moves (with their original texts) and result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Tag pairs in file order, names as written.
    pub tags: Vec<(String, String)>,
    /// The start position: `[FEN]` if given, else the standard opening.
    pub start: Position,
    /// The moves, all legal in turn.
    pub moves: Vec<Move>,
    /// The move texts as written in the record, one per move.
    pub texts: Vec<String>,
    /// The result token that ended the move text, else the `[Result]` tag if it is not empty.
    pub result: Option<String>,
}

impl Game {
    /// A game from `start` with no tags, moves or result yet.
    pub fn new(start: Position) -> Game {
        Game {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            texts: Vec::new(),
            result: None,
        }
    }

    /// The value of the first tag called `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The start and the position after each move (`moves.len() + 1` of them), stopping early at
    /// a move that is not legal (possible only if `moves` was changed after reading).
    pub fn positions(&self) -> Vec<Position> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for &m in &self.moves {
            match pos.play(m) {
                Ok(next) => pos = next,
                Err(_) => break,
            }
            out.push(pos);
        }
        out
    }
}
