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
pub(crate) static HORSE: [Steps; 90] = {
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
pub(crate) static HORSE_ATTACKERS: [Steps; 90] = {
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
pub(crate) static ELEPHANT: [Steps; 90] = {
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
pub(crate) static ADVISOR: [Steps; 90] = {
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
pub(crate) static KING: [Steps; 90] = {
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
pub(crate) static PAWN: [[Steps; 90]; 2] = {
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
}
