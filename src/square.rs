//! Points of the board in ICCS coordinates.

use crate::color::Color;
use std::fmt;
use std::str::FromStr;

/// One of the 90 points: files `a`–`i` from red's left, ranks `0`–`9` from red's side.
///
/// ```
/// use qili::Square;
/// let sq: Square = "e0".parse().unwrap();
/// assert_eq!((sq.file(), sq.rank()), (4, 0));
/// assert_eq!(sq.to_string(), "e0");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// One-bit masks by point index: a load is fewer instructions than a 128-bit shift by a variable
/// amount (two shifts and two conditional moves), and the masks are made at every move and test.
static BITS: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// The one-bit mask of point `i` (0–127; larger indices wrap, which no caller passes).
#[inline(always)]
pub(crate) const fn bit_at(i: usize) -> u128 {
    BITS[i & 127]
}

/// Why a square name was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?}: expected a file a–i and a rank 0–9, like \"e0\"")]
pub struct ParseSquareError(pub String);

impl Square {
    /// Number of points on the board.
    pub const COUNT: usize = 90;

    /// The square at `file` (0–8) and `rank` (0–9); both must be in range.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 9 && rank < 10);
        Square(rank * 9 + file)
    }

    /// The square at signed coordinates, if they lie on the board.
    #[inline]
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    /// The square with index `rank * 9 + file`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 90 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// `rank * 9 + file`, 0–89.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The point as a one-bit board mask (bit `index`).
    #[inline]
    pub const fn mask(self) -> u128 {
        bit_at(self.0 as usize)
    }

    /// File 0–8 (`a`–`i`).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0–9.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The square `df` files and `dr` ranks away, if on the board.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::from_coords(self.file() as i32 + df, self.rank() as i32 + dr)
    }

    /// The same point seen from the other side's ranks (rank r becomes 9 − r); used to swap colours.
    #[inline]
    pub const fn flip_ranks(self) -> Square {
        Square::new(self.file(), 9 - self.rank())
    }

    /// The point mirrored left to right (file f becomes 8 − f).
    #[inline]
    pub const fn mirror_files(self) -> Square {
        Square::new(8 - self.file(), self.rank())
    }

    /// All 90 squares, a0, b0, … i9.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }

    /// Whether the point lies in `color`'s palace (九宫).
    #[inline]
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// Whether the point lies on `color`'s own half (before the river).
    #[inline]
    pub const fn on_own_half(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(ParseSquareError(s.to_string()));
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        if file < 9 && rank < 10 {
            Ok(Square::new(file, rank))
        } else {
            Err(ParseSquareError(s.to_string()))
        }
    }
}
