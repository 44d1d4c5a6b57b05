//! Zobrist keys for position hashing.

use crate::color::Color;
use crate::piece::Piece;
use crate::square::Square;

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

static PIECE_KEYS: [[[u64; 90]; 7]; 2] = {
    let mut t = [[[0u64; 90]; 7]; 2];
    let mut seed = 0x5149_4c49_u64; // "QILI"
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 7 {
            let mut s = 0;
            while s < 90 {
                seed = splitmix(seed);
                t[c][r][s] = seed;
                s += 1;
            }
            r += 1;
        }
        c += 1;
    }
    t
};

/// Key toggled when black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0xB1AC_u64);

/// The key of `piece` standing on `square`.
#[inline]
pub fn piece_key(piece: Piece, square: Square) -> u64 {
    PIECE_KEYS[piece.color.index()][piece.role.index()][square.index()]
}

/// The key of the side to move.
#[inline]
pub fn turn_key(turn: Color) -> u64 {
    match turn {
        Color::Red => 0,
        Color::Black => BLACK_TO_MOVE,
    }
}
