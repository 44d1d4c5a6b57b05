//! Moves and move lists.

use crate::square::Square;
use std::fmt;

/// A move from one point to another (captures included); it says nothing about legality.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece starts.
    pub from: Square,
    /// Where it lands.
    pub to: Square,
}

impl Move {
    /// A move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The same move with colours swapped (ranks flipped).
    pub const fn flip_ranks(self) -> Move {
        Move::new(self.from.flip_ranks(), self.to.flip_ranks())
    }

    /// The same move mirrored left to right.
    pub const fn mirror_files(self) -> Move {
        Move::new(self.from.mirror_files(), self.to.mirror_files())
    }
}

/// Prints the UCCI/ICCS short form, `h2e2`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Upper bound on the moves of one position (rooks and cannons 17 each, horses 8, pawns 3 …).
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity list of moves, kept on the stack.
pub type MoveList = arrayvec::ArrayVec<Move, MAX_MOVES>;
