//! Piece placement.

use crate::color::Color;
use crate::piece::{Piece, Role};
use crate::square::{Square, bit_at};

/// What stands on each of the 90 points. Plain data, cheap to copy.
///
/// Besides the mailbox it keeps occupancy masks (bit `rank * 9 + file`) per colour and per kind,
/// so move generation and attack tests need no scan of the 90 points.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; 90],
    by_color: [u128; 2],
    by_role: [u128; 7],
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
            by_color: [0; 2],
            by_role: [0; 7],
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
        let i = sq.index();
        let bit = bit_at(i);
        if let Some(old) = self.squares[i] {
            self.by_color[old.color.index()] &= !bit;
            self.by_role[old.role.index()] &= !bit;
        }
        if let Some(p) = piece {
            self.by_color[p.color.index()] |= bit;
            self.by_role[p.role.index()] |= bit;
        }
        self.squares[i] = piece;
    }

    /// Whether `sq` is empty.
    #[inline]
    pub fn is_empty(&self, sq: Square) -> bool {
        self.squares[sq.index()].is_none()
    }

    /// All occupied squares with their pieces, a0 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces_in(self.occupied())
    }

    /// The squares holding `color`'s pieces.
    pub fn pieces_of(&self, color: Color) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.pieces_in(self.by_color[color.index()])
    }

    fn pieces_in(&self, mask: u128) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Squares(mask).filter_map(move |sq| self.get(sq).map(|p| (sq, p)))
    }

    /// Where `color`'s king stands, if anywhere (the lowest point if there were several).
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        Squares(self.pieces_mask(color, Role::King)).next()
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
        self.pieces_mask(color, role).count_ones() as usize
    }

    /// Occupied points as a mask (bit `rank * 9 + file`).
    #[inline]
    pub fn occupied(&self) -> u128 {
        self.by_color[0] | self.by_color[1]
    }

    /// Points holding `color`'s pieces, as a mask.
    #[inline]
    pub fn color_mask(&self, color: Color) -> u128 {
        self.by_color[color.index()]
    }

    /// Points holding pieces of `role` of either colour, as a mask.
    #[inline]
    pub fn role_mask(&self, role: Role) -> u128 {
        self.by_role[role.index()]
    }

    /// Points holding `color`'s pieces of `role`, as a mask.
    #[inline]
    pub fn pieces_mask(&self, color: Color, role: Role) -> u128 {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Moves `piece`, which stands on `from`, to `to` (which must differ) and returns what stood
    /// on `to`. The caller has the piece already, so the mailbox is read once.
    #[inline]
    pub(crate) fn move_piece(&mut self, piece: Piece, from: Square, to: Square) -> Option<Piece> {
        let (f, t) = (from.index(), to.index());
        let captured = self.squares[t];
        let to_bit = bit_at(t);
        if let Some(c) = captured {
            self.by_color[c.color.index()] &= !to_bit;
            self.by_role[c.role.index()] &= !to_bit;
        }
        let both = bit_at(f) | to_bit;
        self.by_color[piece.color.index()] ^= both;
        self.by_role[piece.role.index()] ^= both;
        self.squares[t] = Some(piece);
        self.squares[f] = None;
        captured
    }

    /// Takes back `move_piece(piece, from, to)` that returned `captured`.
    #[inline]
    pub(crate) fn unmove_piece(
        &mut self,
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
    ) {
        let (f, t) = (from.index(), to.index());
        let to_bit = bit_at(t);
        let both = bit_at(f) | to_bit;
        self.by_color[piece.color.index()] ^= both;
        self.by_role[piece.role.index()] ^= both;
        if let Some(c) = captured {
            self.by_color[c.color.index()] |= to_bit;
            self.by_role[c.role.index()] |= to_bit;
        }
        self.squares[f] = Some(piece);
        self.squares[t] = captured;
    }
}

/// The squares of a mask, lowest first.
#[derive(Copy, Clone)]
pub(crate) struct Squares(pub u128);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        Square::from_index(next_index(&mut self.0)?)
    }
}

/// Takes the lowest point off a mask and returns its index; `None` once the mask is empty. Works
/// on the two 64-bit halves, which costs fewer instructions than the 128-bit arithmetic.
#[inline(always)]
pub(crate) fn next_index(mask: &mut u128) -> Option<usize> {
    let lo = *mask as u64;
    if lo != 0 {
        *mask ^= u128::from(lo & lo.wrapping_neg());
        return Some(lo.trailing_zeros() as usize);
    }
    let hi = (*mask >> 64) as u64;
    if hi != 0 {
        *mask = u128::from(hi & (hi - 1)) << 64;
        return Some(64 + hi.trailing_zeros() as usize);
    }
    None
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
