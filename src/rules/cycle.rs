//! Finding the cycle (docs/spec.md §1): the moves between the last two occurrences of the final
//! position.

use crate::moves::Move;
use crate::position::Position;

/// Where the cycle lies in a move sequence.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// Index of the cycle's first move.
    pub start: usize,
    /// Number of moves in the cycle.
    pub length: usize,
    /// How often the final position occurs in the sequence (the start position included).
    pub repetitions: u32,
}

/// Finds the cycle of `moves` played from `start` (all legal). `None` if the final position never
/// occurred before. Positions are compared by hash, then confirmed on the board.
///
/// ```
/// use qili::{Move, Position, rules::find_cycle};
/// let start = Position::start();
/// let moves: Vec<Move> = ["h2e2", "h7e7", "e2h2", "e7h7"]
///     .iter()
///     .map(|s| Move::new(s[..2].parse().unwrap(), s[2..].parse().unwrap()))
///     .collect();
/// let cycle = find_cycle(&start, &moves).unwrap();
/// assert_eq!((cycle.start, cycle.length, cycle.repetitions), (0, 4, 2));
/// ```
pub fn find_cycle(start: &Position, moves: &[Move]) -> Option<Cycle> {
    let positions = positions(start, moves);
    let last = *positions.last()?;
    let mut occurrences = positions
        .iter()
        .enumerate()
        .filter(|(_, p)| **p == last)
        .map(|(i, _)| i);
    let count = occurrences.clone().count() as u32;
    if count < 2 {
        return None;
    }
    let previous = occurrences.nth(count as usize - 2)?;
    Some(Cycle {
        start: previous,
        length: moves.len() - previous,
        repetitions: count,
    })
}

/// Every position of the sequence: the start, then the one after each move.
pub fn positions(start: &Position, moves: &[Move]) -> Vec<Position> {
    let mut out = Vec::with_capacity(moves.len() + 1);
    let mut pos = *start;
    out.push(pos);
    for &m in moves {
        pos.play_unchecked(m);
        out.push(pos);
    }
    out
}
