//! Piece kinds and pieces.

use crate::color::Color;
use std::fmt;

/// The seven piece kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// 帅/将, the general.
    King = 0,
    /// 仕/士.
    Advisor = 1,
    /// 相/象.
    Elephant = 2,
    /// 马, the horse.
    Horse = 3,
    /// 车, the chariot.
    Rook = 4,
    /// 炮, the cannon.
    Cannon = 5,
    /// 兵/卒, the soldier.
    Pawn = 6,
}

impl Role {
    /// All kinds in index order.
    pub const ALL: [Role; 7] = [
        Role::King,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Rook,
        Role::Cannon,
        Role::Pawn,
    ];

    /// 0–6.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Upper-case FEN letter (`K A B N R C P`).
    pub const fn char(self) -> char {
        match self {
            Role::King => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Rook => 'R',
            Role::Cannon => 'C',
            Role::Pawn => 'P',
        }
    }

    /// The kind for a FEN or WXF letter, either case; accepts `E` for elephant and `H` for horse.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::King,
            'A' => Role::Advisor,
            'B' | 'E' => Role::Elephant,
            'N' | 'H' => Role::Horse,
            'R' => Role::Rook,
            'C' => Role::Cannon,
            'P' => Role::Pawn,
            _ => return None,
        })
    }

    /// Most pieces of this kind a side may have.
    pub const fn max_count(self) -> u8 {
        match self {
            Role::King => 1,
            Role::Pawn => 5,
            _ => 2,
        }
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Rook => "rook",
            Role::Cannon => "cannon",
            Role::Pawn => "pawn",
        }
    }

    /// Chinese name as printed for `color` (red 帅仕相马车炮兵, black 将士象马车炮卒).
    pub const fn chinese(self, color: Color) -> char {
        match (self, color) {
            (Role::King, Color::Red) => '帅',
            (Role::King, Color::Black) => '将',
            (Role::Advisor, Color::Red) => '仕',
            (Role::Advisor, Color::Black) => '士',
            (Role::Elephant, Color::Red) => '相',
            (Role::Elephant, Color::Black) => '象',
            (Role::Horse, _) => '马',
            (Role::Rook, _) => '车',
            (Role::Cannon, _) => '炮',
            (Role::Pawn, Color::Red) => '兵',
            (Role::Pawn, Color::Black) => '卒',
        }
    }

    /// Whether this kind moves along lines (so WXF/Chinese notation gives a distance when it moves
    /// forward or back), as opposed to diagonally.
    pub const fn moves_straight(self) -> bool {
        matches!(self, Role::King | Role::Rook | Role::Cannon | Role::Pawn)
    }
}

/// A piece: a kind and a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Which side owns it.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// A piece of `color` and `role`.
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case for red, lower case for black.
    pub fn char(self) -> char {
        match self.color {
            Color::Red => self.role.char(),
            Color::Black => self.role.char().to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter (`E`/`H` accepted).
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// Chinese character as printed on the piece.
    pub const fn chinese(self) -> char {
        self.role.chinese(self.color)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
