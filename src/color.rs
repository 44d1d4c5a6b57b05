//! The two sides.

use std::fmt;
use std::ops::Not;

/// A side: red (红) moves first from ranks 0–4, black (黑) from ranks 5–9.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// 红方.
    Red = 0,
    /// 黑方.
    Black = 1,
}

impl Color {
    /// Both colours, red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// 0 for red, 1 for black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank direction this side's pawns advance in (+1 for red, -1 for black).
    #[inline]
    pub const fn forward(self) -> i32 {
        match self {
            Color::Red => 1,
            Color::Black => -1,
        }
    }

    /// `"red"` or `"black"`, as used in rulings and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// 红 or 黑.
    pub const fn chinese(self) -> &'static str {
        match self {
            Color::Red => "红",
            Color::Black => "黑",
        }
    }

    /// The FEN side-to-move letter (`w` for red, `b` for black).
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
