//! Step tables for the short-range pieces, computed at compile time.

use crate::square::Square;

/// Up to eight target squares, each with the square that must be empty (horse leg, elephant eye).
#[derive(Copy, Clone)]
pub(crate) struct Steps {
    pub to: [u8; 8],
    pub block: [u8; 8],
    pub len: u8,
}

impl Steps {
    const EMPTY: Steps = Steps {
        to: [0; 8],
        block: [0; 8],
        len: 0,
    };

    const fn push(&mut self, to: u8, block: u8) {
        self.to[self.len as usize] = to;
        self.block[self.len as usize] = block;
        self.len += 1;
    }

    /// Iterates `(to, block)` pairs.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        (0..self.len as usize).map(move |i| {
            (
                Square::new(self.to[i] % 9, self.to[i] / 9),
                Square::new(self.block[i] % 9, self.block[i] / 9),
            )
        })
    }
}

const fn idx(f: i32, r: i32) -> u8 {
    (r * 9 + f) as u8
}

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn in_any_palace(f: i32, r: i32) -> bool {
    on_board(f, r) && f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

const HORSE_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

/// Horse moves from each square: target and leg (马腿).
pub(crate) static HORSE: [Steps; 90] = HORSE_T;

const HORSE_T: [Steps; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 8 {
            let (df, dr) = HORSE_DELTAS[i];
            if on_board(f + df, r + dr) {
                // The leg is the orthogonal neighbour in the direction of the long step.
                let (lf, lr) = if dr.abs() == 2 {
                    (f, r + dr / 2)
                } else {
                    (f + df / 2, r)
                };
                t[s].push(idx(f + df, r + dr), idx(lf, lr));
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// For each square, the squares a horse could attack it from, with that horse's leg.
pub(crate) static HORSE_ATTACKERS: [Steps; 90] = HORSE_ATTACKERS_T;

const HORSE_ATTACKERS_T: [Steps; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 8 {
            let (df, dr) = HORSE_DELTAS[i];
            // A horse at (f - df, r - dr) jumping by (df, dr) lands on s.
            let (hf, hr) = (f - df, r - dr);
            if on_board(hf, hr) {
                let (lf, lr) = if dr.abs() == 2 {
                    (hf, hr + dr / 2)
                } else {
                    (hf + df / 2, hr)
                };
                t[s].push(idx(hf, hr), idx(lf, lr));
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// Elephant moves (相/象): two points diagonally, eye (象眼) empty, never across the river.
pub(crate) static ELEPHANT: [Steps; 90] = ELEPHANT_T;

const ELEPHANT_T: [Steps; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let deltas = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
        let mut i = 0;
        while i < 4 {
            let (df, dr) = deltas[i];
            let (nf, nr) = (f + df, r + dr);
            if on_board(nf, nr) && ((r <= 4) == (nr <= 4)) {
                t[s].push(idx(nf, nr), idx(f + df / 2, r + dr / 2));
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// Advisor moves (仕/士): one point diagonally inside the palace.
pub(crate) static ADVISOR: [Steps; 90] = ADVISOR_T;

const ADVISOR_T: [Steps; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let deltas = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut i = 0;
        while i < 4 {
            let (df, dr) = deltas[i];
            let (nf, nr) = (f + df, r + dr);
            if in_any_palace(f, r) && in_any_palace(nf, nr) && ((r <= 4) == (nr <= 4)) {
                t[s].push(idx(nf, nr), idx(nf, nr));
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// King moves (帅/将): one point orthogonally inside the palace.
pub(crate) static KING: [Steps; 90] = KING_T;

const KING_T: [Steps; 90] = {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let deltas = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        let mut i = 0;
        while i < 4 {
            let (df, dr) = deltas[i];
            let (nf, nr) = (f + df, r + dr);
            if in_any_palace(f, r) && in_any_palace(nf, nr) && ((r <= 4) == (nr <= 4)) {
                t[s].push(idx(nf, nr), idx(nf, nr));
            }
            i += 1;
        }
        s += 1;
    }
    t
};

/// Pawn moves per colour: forward, and sideways once across the river.
pub(crate) static PAWN: [[Steps; 90]; 2] = PAWN_T;

const PAWN_T: [[Steps; 90]; 2] = {
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: i32 = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            if on_board(f, r + fwd) {
                t[c][s].push(idx(f, r + fwd), idx(f, r + fwd));
            }
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if crossed {
                if f > 0 {
                    t[c][s].push(idx(f - 1, r), idx(f - 1, r));
                }
                if f < 8 {
                    t[c][s].push(idx(f + 1, r), idx(f + 1, r));
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
};

/// The four line directions as (file, rank) steps.
pub(crate) const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// Index standing for "off the board" in the neighbour tables; bit 127 of a mask is never set.
pub(crate) const NONE: u8 = 127;

/// Orthogonal neighbours in `DIRECTIONS` order (north, south, east, west): the horse's legs.
pub(crate) static ORTHO: [[u8; 4]; 90] = ORTHO_T;

const ORTHO_T: [[u8; 4]; 90] = neighbours(DIRECTIONS);

/// Diagonal neighbours (NE, NW, SE, SW): elephant eyes and the legs of horses attacking a point.
pub(crate) static DIAG: [[u8; 4]; 90] = DIAG_T;

const DIAG_T: [[u8; 4]; 90] = neighbours([(1, 1), (-1, 1), (1, -1), (-1, -1)]);

const fn neighbours(deltas: [(i32, i32); 4]) -> [[u8; 4]; 90] {
    let mut t = [[NONE; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (df, dr) = deltas[i];
            if on_board(f + df, r + dr) {
                t[s][i] = idx(f + df, r + dr);
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// The points strictly beyond each point in each of the four `DIRECTIONS`.
pub(crate) static RAYS: [[u128; 90]; 4] = {
    let mut t = [[0u128; 90]; 4];
    let mut d = 0;
    while d < 4 {
        let (df, dr) = DIRECTIONS[d];
        let mut s = 0;
        while s < 90 {
            let (mut f, mut r) = ((s % 9) as i32 + df, (s / 9) as i32 + dr);
            while on_board(f, r) {
                t[d][s] |= 1u128 << idx(f, r);
                f += df;
                r += dr;
            }
            s += 1;
        }
        d += 1;
    }
    t
};

/// Groups a step table's targets by which neighbour (per `near`) is their block point.
const fn by_block(steps: &[Steps; 90], near: &[[u8; 4]; 90]) -> [[u128; 4]; 90] {
    let mut t = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let mut i = 0;
        while i < steps[s].len as usize {
            let mut j = 0;
            while j < 4 {
                if near[s][j] == steps[s].block[i] {
                    t[s][j] |= 1u128 << steps[s].to[i];
                }
                j += 1;
            }
            i += 1;
        }
        s += 1;
    }
    t
}

const fn targets_mask(steps: &[Steps; 90]) -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let mut i = 0;
        while i < steps[s].len as usize {
            t[s] |= 1u128 << steps[s].to[i];
            i += 1;
        }
        s += 1;
    }
    t
}

/// Horse targets from each point, by leg (index into `ORTHO`).
pub(crate) static HORSE_BY_LEG: [[u128; 4]; 90] = by_block(&HORSE_T, &ORTHO_T);

/// Points a horse attacks each point from, by leg (index into `DIAG`).
pub(crate) static HORSE_BY_DIAG: [[u128; 4]; 90] = by_block(&HORSE_ATTACKERS_T, &DIAG_T);

/// Every point a horse could attack each point from, leg or not.
pub(crate) static HORSE_ATTACKERS_ANY: [u128; 90] = targets_mask(&HORSE_ATTACKERS_T);

/// Elephant targets from each point, by eye (index into `DIAG`).
pub(crate) static ELEPHANT_BY_EYE: [[u128; 4]; 90] = by_block(&ELEPHANT_T, &DIAG_T);

/// Elephant targets on an empty board as masks.
pub(crate) static ELEPHANT_MASK: [u128; 90] = targets_mask(&ELEPHANT_T);

/// Advisor targets as masks.
pub(crate) static ADVISOR_MASK: [u128; 90] = targets_mask(&ADVISOR_T);

/// King targets (palace steps) as masks.
pub(crate) static KING_MASK: [u128; 90] = targets_mask(&KING_T);

/// Pawn targets per colour as masks.
pub(crate) static PAWN_MASK: [[u128; 90]; 2] = [targets_mask(&PAWN_T[0]), targets_mask(&PAWN_T[1])];

/// Points from which a pawn of each colour attacks each point.
pub(crate) static PAWN_ATTACKERS: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 90 {
            let st = &PAWN_T[c][p];
            let mut i = 0;
            while i < st.len as usize {
                t[c][st.to[i] as usize] |= 1u128 << p;
                i += 1;
            }
            p += 1;
        }
        c += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_stays_on_the_board() {
        for s in 0..90 {
            let tables = [
                &HORSE[s],
                &HORSE_ATTACKERS[s],
                &ELEPHANT[s],
                &ADVISOR[s],
                &KING[s],
                &PAWN[0][s],
                &PAWN[1][s],
            ];
            for t in tables {
                for i in 0..t.len as usize {
                    assert!(
                        t.to[i] < 90 && t.block[i] < 90,
                        "square {s}: {:?} {:?}",
                        t.to,
                        t.block
                    );
                }
            }
        }
    }

    #[test]
    fn palace_moves() {
        assert_eq!(KING[3].len, 2); // d0: e0, d1
        assert_eq!(KING[13].len, 4); // e1
        assert_eq!(ADVISOR[13].len, 4);
        assert_eq!(ADVISOR[3].len, 1);
        assert_eq!(ELEPHANT[2].len, 2); // c0: a2, e2
        assert_eq!(ELEPHANT[6 + 4 * 9].len, 2); // g4 stays on its side: e2, i2
    }

    #[test]
    fn masks_match_step_tables() {
        for s in 0..90 {
            let legs: u128 = HORSE_BY_LEG[s].iter().fold(0, |a, b| a | b);
            let steps: u128 = HORSE[s].iter().fold(0, |a, (t, _)| a | 1u128 << t.index());
            assert_eq!(legs, steps, "horse from {s}");
            let eyes: u128 = ELEPHANT_BY_EYE[s].iter().fold(0, |a, b| a | b);
            let steps: u128 = ELEPHANT[s]
                .iter()
                .fold(0, |a, (t, _)| a | 1u128 << t.index());
            assert_eq!(eyes, steps, "elephant from {s}");
            let by_diag: u128 = HORSE_BY_DIAG[s].iter().fold(0, |a, b| a | b);
            assert_eq!(by_diag, HORSE_ATTACKERS_ANY[s]);
        }
        // e4 is reached by a red pawn from e3 only; a crossed red pawn on e5 is attacked from
        // d5, f5 and e4.
        assert_eq!(PAWN_ATTACKERS[0][4 + 4 * 9], 1u128 << (4 + 3 * 9));
        assert_eq!(PAWN_ATTACKERS[0][4 + 5 * 9].count_ones(), 3);
        assert_eq!(RAYS[0][0].count_ones(), 9);
        assert_eq!(RAYS[2][0].count_ones(), 8);
    }
}
