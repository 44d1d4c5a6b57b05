//! Attack queries on a board: who can capture on a point, what a piece can capture.
//!
//! Everything here is pseudo-legal (own-king safety is the position's business) and treats the
//! queried point as occupied, so the same query answers "who attacks this piece" and "who could
//! recapture here".

use crate::board::Board;
use crate::color::Color;
use crate::piece::{Piece, Role};
use crate::square::{Square, bit_at};
use crate::tables::{
    ADVISOR, DIAG, DIRECTIONS, ELEPHANT, ELEPHANT_BY_EYE, HORSE, HORSE_ATTACKERS,
    HORSE_ATTACKERS_ANY, HORSE_BY_DIAG, HORSE_BY_LEG, KING, ORTHO, PAWN, PAWN_ATTACKERS, RAYS,
};
use arrayvec::ArrayVec;

/// A short list of squares, kept on the stack (at most 16 pieces of a side, 17 line points).
pub type SquareList = ArrayVec<Square, 24>;

/// Whether `color`'s king on `king` is attacked (将) on `board`, flying general included.
#[inline]
pub fn king_attacked(board: &Board, king: Square, color: Color) -> bool {
    Threats::of(board, !color).attack(board.occupied(), king.index())
}

/// The enemy pieces that can give check, as masks; cheap to copy and to thin out after a capture.
#[derive(Copy, Clone)]
pub(crate) struct Threats {
    /// Rooks and the king (the flying general acts like a rook on the file).
    pub lines: u128,
    pub cannons: u128,
    pub horses: u128,
    pub pawns: u128,
    pub color: Color,
}

impl Threats {
    /// The pieces of `by` that can attack a king.
    #[inline]
    pub fn of(board: &Board, by: Color) -> Threats {
        let own = board.color_mask(by);
        Threats {
            lines: own & (board.role_mask(Role::Rook) | board.role_mask(Role::King)),
            cannons: own & board.role_mask(Role::Cannon),
            horses: own & board.role_mask(Role::Horse),
            pawns: own & board.role_mask(Role::Pawn),
            color: by,
        }
    }

    /// The same threats with the pieces on `gone` removed (captured).
    #[inline]
    pub fn without(self, gone: u128) -> Threats {
        Threats {
            lines: self.lines & !gone,
            cannons: self.cannons & !gone,
            horses: self.horses & !gone,
            pawns: self.pawns & !gone,
            color: self.color,
        }
    }

    /// Whether these pieces attack point `sq` (0–89) with the board occupied as `occ`.
    #[inline(always)]
    pub fn attack(&self, occ: u128, sq: usize) -> bool {
        if self.pawns & PAWN_ATTACKERS[self.color.index()][sq] != 0 {
            return true;
        }
        if self.horses & HORSE_ATTACKERS_ANY[sq] != 0 {
            for j in 0..4 {
                if self.horses & HORSE_BY_DIAG[sq][j] != 0 && !has(occ, usize::from(DIAG[sq][j])) {
                    return true;
                }
            }
        }
        let sliders = self.lines | self.cannons;
        self.ray_attack::<0>(occ, sq, sliders)
            || self.ray_attack::<1>(occ, sq, sliders)
            || self.ray_attack::<2>(occ, sq, sliders)
            || self.ray_attack::<3>(occ, sq, sliders)
    }

    #[inline(always)]
    fn ray_attack<const D: usize>(&self, occ: u128, sq: usize, sliders: u128) -> bool {
        let ray = RAYS[D][sq];
        if ray & sliders == 0 {
            return false;
        }
        // Some slider is on the ray, so there is a first blocker.
        let b1 = first::<D>(ray & occ);
        if has(self.lines, b1) {
            return true;
        }
        let beyond = RAYS[D][b1] & occ;
        beyond != 0 && has(self.cannons, first::<D>(beyond))
    }
}

/// Whether the pseudo-legal move `from`–`to` of `board`'s piece on `from` attacks the enemy king
/// on `king` afterwards (gives check), worked out on the masks without playing it.
#[inline]
pub fn gives_check(board: &Board, from: Square, to: Square, king: Square) -> bool {
    let Some(piece) = board.get(from) else {
        return false;
    };
    let threats = Threats::of(board, piece.color);
    moved_checks(threats, board.occupied(), from, to, piece.role, king)
}

/// As [`gives_check`], with the mover's pieces already taken as `threats` and the board's
/// occupancy `occ` (a generator of checks looks at one position's pieces once).
#[inline]
pub(crate) fn moved_checks(
    threats: Threats,
    occ: u128,
    from: Square,
    to: Square,
    role: Role,
    king: Square,
) -> bool {
    let (f, t) = (from.mask(), to.mask());
    let occ = (occ & !f) | t;
    let mut threats = threats.without(f);
    match role {
        Role::Rook | Role::King => threats.lines |= t,
        Role::Cannon => threats.cannons |= t,
        Role::Horse => threats.horses |= t,
        Role::Pawn => threats.pawns |= t,
        Role::Advisor | Role::Elephant => {}
    }
    threats.attack(occ, king.index())
}

/// Whether point `i` (0–127) is in `mask`, tested on the 64-bit half that holds it: fewer
/// instructions than a 128-bit shift. The off-board index `NONE` is never in a board's mask.
#[inline(always)]
pub(crate) fn has(mask: u128, i: usize) -> bool {
    let half = if i < 64 {
        mask as u64
    } else {
        (mask >> 64) as u64
    };
    (half >> (i & 63)) & 1 != 0
}

/// The mask of point `i`, empty for the off-board index `NONE`.
#[inline(always)]
pub(crate) const fn bit(i: u8) -> u128 {
    bit_at(i as usize)
}

/// The nearest point of a non-empty `mask` of points on a ray in direction `D` (see `DIRECTIONS`):
/// north and east go up in index, south and west down.
#[inline(always)]
pub(crate) fn first<const D: usize>(mask: u128) -> usize {
    if D & 1 == 0 {
        mask.trailing_zeros() as usize
    } else {
        127 - mask.leading_zeros() as usize
    }
}

/// Rook attacks from `sq` along direction `D`: empty points and the first blocker.
#[inline(always)]
fn rook_ray<const D: usize>(occ: u128, sq: usize) -> u128 {
    let ray = RAYS[D][sq];
    let blockers = ray & occ;
    if blockers == 0 {
        ray
    } else {
        ray ^ RAYS[D][first::<D>(blockers)]
    }
}

/// Cannon moves from `sq` along direction `D`: empty points before the screen and the first
/// piece beyond the screen (whatever its colour).
#[inline(always)]
fn cannon_ray<const D: usize>(occ: u128, sq: usize) -> u128 {
    let ray = RAYS[D][sq];
    let blockers = ray & occ;
    if blockers == 0 {
        return ray;
    }
    let screen = first::<D>(blockers);
    let beyond = RAYS[D][screen];
    let quiet = ray ^ beyond ^ bit_at(screen);
    let behind = beyond & occ;
    if behind == 0 {
        quiet
    } else {
        quiet | bit_at(first::<D>(behind))
    }
}

/// Rook attacks from `sq` (empty points and first blockers, whatever their colour).
#[inline]
pub(crate) fn rook_attacks(occ: u128, sq: usize) -> u128 {
    rook_ray::<0>(occ, sq)
        | rook_ray::<1>(occ, sq)
        | rook_ray::<2>(occ, sq)
        | rook_ray::<3>(occ, sq)
}

/// Cannon moves from `sq` (quiet points and the points beyond a screen, whatever their colour).
#[inline]
pub(crate) fn cannon_attacks(occ: u128, sq: usize) -> u128 {
    cannon_ray::<0>(occ, sq)
        | cannon_ray::<1>(occ, sq)
        | cannon_ray::<2>(occ, sq)
        | cannon_ray::<3>(occ, sq)
}

/// The first piece beyond the screen on each ray from `sq` (whatever its colour): a cannon's
/// captures, without its quiet moves.
#[inline]
pub(crate) fn cannon_captures(occ: u128, sq: usize) -> u128 {
    cannon_jump::<0>(occ, sq)
        | cannon_jump::<1>(occ, sq)
        | cannon_jump::<2>(occ, sq)
        | cannon_jump::<3>(occ, sq)
}

/// [`cannon_captures`] along direction `D`.
#[inline(always)]
fn cannon_jump<const D: usize>(occ: u128, sq: usize) -> u128 {
    let blockers = RAYS[D][sq] & occ;
    if blockers == 0 {
        return 0;
    }
    let behind = RAYS[D][first::<D>(blockers)] & occ;
    if behind == 0 {
        0
    } else {
        bit_at(first::<D>(behind))
    }
}

/// Horse targets from `sq` whose legs are free.
#[inline]
pub(crate) fn horse_attacks(occ: u128, sq: usize) -> u128 {
    let legs = &ORTHO[sq];
    let to = &HORSE_BY_LEG[sq];
    let mut out = 0;
    for j in 0..4 {
        if !has(occ, usize::from(legs[j])) {
            out |= to[j];
        }
    }
    out
}

/// Elephant targets from `sq` whose eyes are free.
#[inline]
pub(crate) fn elephant_attacks(occ: u128, sq: usize) -> u128 {
    let eyes = &DIAG[sq];
    let to = &ELEPHANT_BY_EYE[sq];
    let mut out = 0;
    for j in 0..4 {
        if !has(occ, usize::from(eyes[j])) {
            out |= to[j];
        }
    }
    out
}

#[inline]
fn pawn_reaches(from: Square, to: Square, color: Color) -> bool {
    PAWN[color.index()][from.index()]
        .iter()
        .any(|(t, _)| t == to)
}

/// The pieces of `by` that could capture on `target` if an enemy piece stood there.
///
/// Kings count on their palace steps, and on the flying-general line when `target` holds a king.
pub fn attackers(board: &Board, target: Square, by: Color) -> SquareList {
    let mut out = SquareList::new();
    let target_is_king = board.get(target).is_some_and(|p| p.role == Role::King);
    for (df, dr) in DIRECTIONS {
        let mut sq = target;
        let mut screens = 0;
        let mut dist = 0;
        while let Some(next) = sq.offset(df, dr) {
            sq = next;
            dist += 1;
            let Some(p) = board.get(sq) else { continue };
            if screens == 0 {
                if p.color == by {
                    let hit = match p.role {
                        Role::Rook => true,
                        Role::King => {
                            (dist == 1 && KING[sq.index()].iter().any(|(t, _)| t == target))
                                || (target_is_king && df == 0)
                        }
                        Role::Pawn => dist == 1 && pawn_reaches(sq, target, by),
                        _ => false,
                    };
                    if hit {
                        out.push(sq);
                    }
                }
                screens = 1;
            } else {
                if p.color == by && p.role == Role::Cannon {
                    out.push(sq);
                }
                break;
            }
        }
    }
    for (h, leg) in HORSE_ATTACKERS[target.index()].iter() {
        if board.get(h) == Some(Piece::new(by, Role::Horse)) && board.is_empty(leg) {
            out.push(h);
        }
    }
    for (a, _) in ADVISOR[target.index()].iter() {
        if board.get(a) == Some(Piece::new(by, Role::Advisor)) && a.in_palace(by) {
            out.push(a);
        }
    }
    for (e, eye) in ELEPHANT[target.index()].iter() {
        if board.get(e) == Some(Piece::new(by, Role::Elephant))
            && board.is_empty(eye)
            && target.on_own_half(by)
        {
            out.push(e);
        }
    }
    out
}

/// The occupied points the piece on `from` could capture on (whatever their colour), so that one
/// query gives both what it attacks and what it protects. Empty if `from` is empty.
pub fn targets(board: &Board, from: Square) -> SquareList {
    let mut out = SquareList::new();
    let Some(piece) = board.get(from) else {
        return out;
    };
    let steps = match piece.role {
        Role::Rook | Role::Cannon => {
            line_targets(board, from, piece.role == Role::Cannon, &mut out);
            return out;
        }
        Role::King => {
            // The flying general: the enemy king straight along the file.
            for dr in [1, -1] {
                let mut sq = from;
                while let Some(next) = sq.offset(0, dr) {
                    sq = next;
                    if let Some(p) = board.get(sq) {
                        if p.role == Role::King && p.color != piece.color {
                            out.push(sq);
                        }
                        break;
                    }
                }
            }
            &KING[from.index()]
        }
        Role::Advisor => &ADVISOR[from.index()],
        Role::Elephant => &ELEPHANT[from.index()],
        Role::Horse => &HORSE[from.index()],
        Role::Pawn => &PAWN[piece.color.index()][from.index()],
    };
    for (to, block) in steps.iter() {
        let blocked = matches!(piece.role, Role::Horse | Role::Elephant) && !board.is_empty(block);
        if !blocked && !board.is_empty(to) && !out.contains(&to) {
            out.push(to);
        }
    }
    out
}

fn line_targets(board: &Board, from: Square, cannon: bool, out: &mut SquareList) {
    for (df, dr) in DIRECTIONS {
        let mut sq = from;
        let mut screened = false;
        while let Some(next) = sq.offset(df, dr) {
            sq = next;
            if board.is_empty(sq) {
                continue;
            }
            if !cannon || screened {
                out.push(sq);
                break;
            }
            screened = true;
        }
    }
}
