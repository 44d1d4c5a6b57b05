//! Material (子力) and its values (1999 art. 25.3; docs/spec.md §2).

use crate::piece::{Piece, Role};
use crate::square::Square;
use std::ops::{Add, Neg, Sub};

/// Value of a rook; two horses, two cannons or a horse and a cannon are worth the same (25.3).
pub const ROOK: i32 = 10;
/// Value of a horse or a cannon (马炮相等).
pub const MINOR: i32 = 5;
/// Value of an advisor or an elephant (士相相等).
pub const GUARD: i32 = 2;

/// A profile's pawn arithmetic: when a balance of pieces and crossed pawns is a gain. Pawns
/// against pieces, either way, are no gain (25.3, item 10), unless a setting here says otherwise.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arithmetic {
    /// A pawn given for a rook (or more) is a gain (2011 26.6).
    pub pawn_for_rook: bool,
    /// An advisor or elephant given for pawns is a loss, so winning one for pawns is a gain
    /// (2011 26.6: only the strong pieces float against pawns).
    pub guard_for_pawns: bool,
    /// A crossed pawn of the winning side lost after its gain, that had not captured in the
    /// line, does not void the gain (2011 26.6; `tactics::gain`).
    pub late_pawn_kept: bool,
}

/// Material won or lost, with crossed pawns kept apart because their value floats (item 10):
/// "一兵换取数子或一子换取数兵均不算得子".
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Material {
    /// Rook, horse, cannon, advisor and elephant values.
    pub pieces: i32,
    /// Crossed pawns.
    pub pawns: i32,
}

impl Material {
    /// Nothing won or lost.
    pub const ZERO: Material = Material {
        pieces: 0,
        pawns: 0,
    };

    /// The material a capture of `piece` on `square` wins: nothing for a king or a pawn that has
    /// not crossed the river, which are not material (25.3).
    pub fn of(piece: Piece, square: Square) -> Material {
        let pieces = match piece.role {
            Role::Rook => ROOK,
            Role::Horse | Role::Cannon => MINOR,
            Role::Advisor | Role::Elephant => GUARD,
            Role::King => 0,
            Role::Pawn => {
                let crossed = !square.on_own_half(piece.color);
                return Material {
                    pieces: 0,
                    pawns: crossed as i32,
                };
            }
        };
        Material { pieces, pawns: 0 }
    }

    /// Whether the piece on `square` is material at all (a possible chase target).
    pub fn is_material(piece: Piece, square: Square) -> bool {
        Material::of(piece, square) != Material::ZERO
    }

    /// One number for choosing between lines inside an exchange (a crossed pawn weighs 1.5, between
    /// an advisor and a horse, in half units). Whether a result is a gain is decided by
    /// [`Material::is_gain`], not by this.
    #[inline]
    pub fn score(self) -> i32 {
        self.pieces * 2 + self.pawns * 3
    }

    /// Whether this result is a gain under the arithmetic `a`: more pieces without giving pawns,
    /// or pawns for nothing; pawns against pieces, either way, are no gain, except what `a` adds.
    pub fn is_gain(self, a: Arithmetic) -> bool {
        if self.pieces > 0 && self.pawns >= 0 {
            return true;
        }
        if self.pieces == 0 && self.pawns > 0 {
            return true;
        }
        (a.pawn_for_rook && self.pieces >= ROOK && self.pawns == -1)
            || (a.guard_for_pawns && self.pieces > 0 && self.pieces < MINOR && self.pawns < 0)
    }

    /// One number for reports: pieces plus one per crossed pawn.
    pub fn report_value(self) -> i32 {
        self.pieces + self.pawns
    }
}

impl Add for Material {
    type Output = Material;
    fn add(self, o: Material) -> Material {
        Material {
            pieces: self.pieces + o.pieces,
            pawns: self.pawns + o.pawns,
        }
    }
}

impl Sub for Material {
    type Output = Material;
    fn sub(self, o: Material) -> Material {
        Material {
            pieces: self.pieces - o.pieces,
            pawns: self.pawns - o.pawns,
        }
    }
}

impl Neg for Material {
    type Output = Material;
    fn neg(self) -> Material {
        Material {
            pieces: -self.pieces,
            pawns: -self.pawns,
        }
    }
}

/// The order in which an exchange sends capturers: cheapest first, the king last.
pub fn capture_order(role: Role) -> u8 {
    match role {
        Role::Pawn => 0,
        Role::Advisor | Role::Elephant => 1,
        Role::Horse | Role::Cannon => 2,
        Role::Rook => 3,
        Role::King => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const Y2011: Arithmetic = Arithmetic {
        pawn_for_rook: true,
        guard_for_pawns: true,
        late_pawn_kept: true,
    };
    const Y1999: Arithmetic = Arithmetic {
        pawn_for_rook: false,
        guard_for_pawns: false,
        late_pawn_kept: false,
    };

    #[test]
    fn an_advisor_given_for_pawns_is_a_loss_under_2011_only() {
        let guard_for_two = Material {
            pieces: GUARD,
            pawns: -2,
        };
        assert!(guard_for_two.is_gain(Y2011));
        assert!(!(-guard_for_two).is_gain(Y2011));
        assert!(!guard_for_two.is_gain(Y1999));
        // A horse for pawns is no gain in either book (25.3).
        let minor_for_one = Material {
            pieces: MINOR,
            pawns: -1,
        };
        assert!(!minor_for_one.is_gain(Y2011));
        assert!(!minor_for_one.is_gain(Y1999));
    }
}
