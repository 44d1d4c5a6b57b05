//! Move generation: pseudo-legal moves by the rules of movement, then the king-safety filter.
//!
//! Legal moves are found without playing most of them: one look around the king per position
//! (`Safety`) finds the pieces whose departure could expose it (pinned by a rook, the other king,
//! or a cannon, or standing on the leg of a horse aimed at it) and the empty points where a piece
//! would become a cannon's screen. Only king moves, moves touching those points, and moves out of
//! check are tried on the occupancy masks.

use crate::attacks::{
    Threats, bit, cannon_attacks, elephant_attacks, first, horse_attacks, rook_attacks,
};
use crate::board::{Board, Squares};
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::piece::Role;
use crate::square::Square;
use crate::tables::{
    ADVISOR_MASK, DIAG, HORSE_BY_DIAG, KING_MASK, PAWN_ATTACKERS, PAWN_MASK, RAYS,
};

/// Appends every move of `us`'s pieces that obeys the rules of movement (horse leg, elephant eye and
/// river, palace, cannon screen, pawns), ignoring whether it leaves the own king attacked.
pub fn pseudo_legal(board: &Board, us: Color, out: &mut MoveList) {
    let occ = board.occupied();
    let own = board.color_mask(us);
    for from in Squares(own) {
        if let Some(p) = board.get(from) {
            push_all(from, targets(occ, from.index(), p.role, us) & !own, out);
        }
    }
}

/// Appends the pseudo-legal moves of the piece of `role` and `us` on `from`.
pub fn piece_moves(board: &Board, from: Square, role: Role, us: Color, out: &mut MoveList) {
    let occ = board.occupied();
    let own = board.color_mask(us);
    push_all(from, targets(occ, from.index(), role, us) & !own, out);
}

/// Where a piece of `role` and `us` on `sq` could move or capture, own pieces included.
#[inline]
fn targets(occ: u128, sq: usize, role: Role, us: Color) -> u128 {
    match role {
        Role::Rook => rook_attacks(occ, sq),
        Role::Cannon => cannon_attacks(occ, sq),
        Role::Horse => horse_attacks(occ, sq),
        Role::Elephant => elephant_attacks(occ, sq),
        Role::Advisor => ADVISOR_MASK[sq],
        Role::King => KING_MASK[sq],
        Role::Pawn => PAWN_MASK[us.index()][sq],
    }
}

#[inline]
fn push_all(from: Square, to: u128, out: &mut MoveList) {
    for to in Squares(to) {
        // Cannot overflow: a side's pseudo-legal moves are fewer than MAX_MOVES.
        let _ = out.try_push(Move::new(from, to));
    }
}

/// What one look around a king tells about which moves need a closer test.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Safety {
    /// The king is attacked.
    pub in_check: bool,
    /// Points whose piece, if it leaves, may expose the king.
    pub pinned: u128,
    /// Empty points where a piece would become the screen of a cannon aimed at the king.
    pub screens: u128,
}

impl Safety {
    /// Looks around the king of `threats`' opponent on `king`.
    #[inline]
    pub fn of(occ: u128, king: usize, threats: &Threats) -> Safety {
        let mut s = Safety {
            in_check: false,
            pinned: 0,
            screens: 0,
        };
        let sliders = threats.lines | threats.cannons;
        s.ray::<0>(occ, king, threats, sliders);
        s.ray::<1>(occ, king, threats, sliders);
        s.ray::<2>(occ, king, threats, sliders);
        s.ray::<3>(occ, king, threats, sliders);
        if threats.horses & crate::tables::HORSE_ATTACKERS_ANY[king] != 0 {
            for j in 0..4 {
                if threats.horses & HORSE_BY_DIAG[king][j] != 0 {
                    let leg = bit(DIAG[king][j]);
                    if occ & leg == 0 {
                        s.in_check = true;
                    } else {
                        s.pinned |= leg;
                    }
                }
            }
        }
        if threats.pawns & PAWN_ATTACKERS[threats.color.index()][king] != 0 {
            s.in_check = true;
        }
        s
    }

    /// The first three pieces out from the king along `D` decide pins, screens and checks.
    #[inline(always)]
    fn ray<const D: usize>(&mut self, occ: u128, king: usize, t: &Threats, sliders: u128) {
        let ray = RAYS[D][king];
        if ray & sliders == 0 {
            return;
        }
        let blockers = ray & occ;
        let b1 = first::<D>(blockers);
        let m1 = 1u128 << b1;
        if t.lines & m1 != 0 {
            self.in_check = true;
            return;
        }
        let after1 = RAYS[D][b1];
        if t.cannons & m1 != 0 {
            // Any piece put between would be the screen.
            self.screens |= ray ^ after1 ^ m1;
        }
        let rest = after1 & occ;
        if rest == 0 {
            return;
        }
        let b2 = first::<D>(rest);
        let m2 = 1u128 << b2;
        if t.cannons & m2 != 0 {
            self.in_check = true;
            return;
        }
        if t.lines & m2 != 0 {
            self.pinned |= m1;
            return;
        }
        let rest = RAYS[D][b2] & occ;
        if rest != 0 && t.cannons & (1u128 << first::<D>(rest)) != 0 {
            // Either screen leaving would leave exactly one.
            self.pinned |= m1 | m2;
        }
    }
}

/// Whether the king on `king` is safe after moving `from` to `to` with the board occupied as `occ`.
#[inline]
fn safe_after(occ: u128, king: usize, from: usize, to: usize, threats: &Threats) -> bool {
    let to_bit = 1u128 << to;
    let occ = (occ & !(1u128 << from)) | to_bit;
    let k = if from == king { to } else { king };
    !threats.without(to_bit).attack(occ, k)
}

/// Visits the legal moves of `us` with the king on `king`, as (from, targets) groups that are all
/// legal, so counting needs no list.
#[inline(always)]
fn legal_groups(board: &Board, us: Color, king: Square, mut visit: impl FnMut(usize, u128)) {
    let occ = board.occupied();
    let own = board.color_mask(us);
    let threats = Threats::of(board, !us);
    let k = king.index();
    let safety = Safety::of(occ, k, &threats);
    // Moves that may expose the king are tried; the rest are legal as they are.
    let mut emit = |f: usize, all: u128| {
        let all = all & !own;
        if all == 0 {
            return;
        }
        let risky = if safety.in_check || safety.pinned & (1u128 << f) != 0 {
            all
        } else {
            all & safety.screens
        };
        let mut ok = all & !risky;
        let mut rest = risky;
        while rest != 0 {
            let to = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if safe_after(occ, k, f, to, &threats) {
                ok |= 1u128 << to;
            }
        }
        if ok != 0 {
            visit(f, ok);
        }
    };
    let mine = |role: Role| own & board.role_mask(role);
    for f in Indices(mine(Role::Rook)) {
        emit(f, rook_attacks(occ, f));
    }
    for f in Indices(mine(Role::Cannon)) {
        emit(f, cannon_attacks(occ, f));
    }
    for f in Indices(mine(Role::Horse)) {
        emit(f, horse_attacks(occ, f));
    }
    for f in Indices(mine(Role::Pawn)) {
        emit(f, PAWN_MASK[us.index()][f]);
    }
    for f in Indices(mine(Role::Elephant)) {
        emit(f, elephant_attacks(occ, f));
    }
    for f in Indices(mine(Role::Advisor)) {
        emit(f, ADVISOR_MASK[f]);
    }
    // King moves are always tried.
    for f in Indices(mine(Role::King)) {
        let mut ok = 0;
        for to in Indices(KING_MASK[f] & !own) {
            if safe_after(occ, k, f, to, &threats) {
                ok |= 1u128 << to;
            }
        }
        if ok != 0 {
            visit(f, ok);
        }
    }
}

/// Point indices of a mask, lowest first.
struct Indices(u128);

impl Iterator for Indices {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// Appends the legal moves of `us`, whose king is on `king`.
pub fn legal(board: &Board, us: Color, king: Square, out: &mut MoveList) {
    legal_groups(board, us, king, |from, to| {
        if let Some(from) = Square::from_index(from) {
            push_all(from, to, out);
        }
    });
}

/// Whether playing the pseudo-legal `m` leaves `us`'s king safe. `board` is restored afterwards.
#[inline]
pub fn keeps_king_safe(board: &mut Board, us: Color, king: Square, m: Move) -> bool {
    let threats = Threats::of(board, !us);
    safe_after(
        board.occupied(),
        king.index(),
        m.from.index(),
        m.to.index(),
        &threats,
    )
}

/// Keeps only the moves of `moves` that leave `us`'s king (on `king`) safe.
pub fn retain_legal(board: &Board, us: Color, king: Square, moves: &mut MoveList) {
    let occ = board.occupied();
    let threats = Threats::of(board, !us);
    let k = king.index();
    let safety = Safety::of(occ, k, &threats);
    moves.retain(|m| {
        let (f, t) = (m.from.index(), m.to.index());
        let risky = safety.in_check
            || f == k
            || (safety.pinned | safety.screens) & ((1u128 << f) | (1u128 << t)) != 0;
        !risky || safe_after(occ, k, f, t, &threats)
    });
}

/// Counts the legal moves without storing them (perft's last ply).
pub fn count_legal(board: &Board, us: Color, king: Square) -> usize {
    let mut n = 0;
    legal_groups(board, us, king, |_, to| n += to.count_ones() as usize);
    n
}
