//! Piece placement.

use crate::color::Color;
use crate::piece::{Piece, Role};
use crate::square::Square;

/// What stands on each of the 90 points. Plain data, cheap to copy.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; 90],
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    /// A board with no pieces.
    pub const fn empty() -> Board {
        Board {
            squares: [None; 90],
        }
    }

    /// The piece on `sq`.
    #[inline]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Puts `piece` (or nothing) on `sq`.
    #[inline]
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.squares[sq.index()] = piece;
    }

    /// Whether `sq` is empty.
    #[inline]
    pub fn is_empty(&self, sq: Square) -> bool {
        self.squares[sq.index()].is_none()
    }

    /// All occupied squares with their pieces, a0 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(move |sq| self.get(sq).map(|p| (sq, p)))
    }

    /// The squares holding `color`'s pieces.
    pub fn pieces_of(&self, color: Color) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces().filter(move |(_, p)| p.color == color)
    }

    /// Where `color`'s king stands, if anywhere.
    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces()
            .find(|(_, p)| p.color == color && p.role == Role::King)
            .map(|(sq, _)| sq)
    }

    /// The board with colours swapped and ranks flipped (red's pieces become black's, mirrored).
    pub fn flip_colors(&self) -> Board {
        let mut b = Board::empty();
        for (sq, p) in self.pieces() {
            b.set(sq.flip_ranks(), Some(Piece::new(!p.color, p.role)));
        }
        b
    }

    /// The board mirrored left to right.
    pub fn mirror_files(&self) -> Board {
        let mut b = Board::empty();
        for (sq, p) in self.pieces() {
            b.set(sq.mirror_files(), Some(p));
        }
        b
    }

    /// Counts the pieces of `color` and `role`.
    pub fn count(&self, color: Color, role: Role) -> usize {
        self.pieces()
            .filter(|(_, p)| p.color == color && p.role == role)
            .count()
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..10).rev() {
            for file in 0..9 {
                let c = self.get(Square::new(file, rank)).map_or('.', |p| p.char());
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
