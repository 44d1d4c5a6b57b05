//! Move generation: pseudo-legal moves by the rules of movement, then the king-safety filter.
//!
//! Legal moves are found without playing most of them: one look around the king per position
//! (`Safety`) finds the pieces whose departure could expose it (pinned by a rook, the other king,
//! or a cannon, or standing on the leg of a horse aimed at it) and the empty points where a piece
//! would become a cannon's screen. Only king moves, moves touching those points, and moves out of
//! check are tried on the occupancy masks.

use crate::attacks::{
    Threats, bit, cannon_attacks, cannon_captures, elephant_attacks, first, has, horse_attacks,
    moved_checks, rook_attacks,
};
use crate::board::{Board, Squares, next_index};
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::piece::{Piece, Role};
use crate::square::{Square, bit_at};
use crate::tables::{
    ADVISOR_MASK, DIAG, ELEPHANT_MASK, HORSE_ATTACKERS_ANY, HORSE_BY_DIAG, KING_MASK,
    PAWN_ATTACKERS, PAWN_MASK, RAYS,
};

/// The rank and file through each point, the point left out: the four rays together.
static LINES: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let mut i = 0;
        while i < 90 {
            if i != s && (i % 9 == s % 9 || i / 9 == s / 9) {
                t[s] |= 1u128 << i;
            }
            i += 1;
        }
        s += 1;
    }
    t
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

/// Whether the piece of `role` and `us` on `from` may move to `to` by the rules of movement (a
/// move [`piece_moves`] lists), without listing them.
#[inline]
pub(crate) fn piece_reaches(
    board: &Board,
    from: Square,
    role: Role,
    us: Color,
    to: Square,
) -> bool {
    let reach = targets(board.occupied(), from.index(), role, us) & !board.color_mask(us);
    has(reach, to.index())
}

/// Where a piece of `role` and `us` on `sq` could move or capture, own pieces included.
#[inline(always)]
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
    /// Number of pieces giving check.
    pub checkers: u8,
    /// Under a single check: the points where a piece other than the king can meet it (the
    /// checker, the points between, a horse's leg).
    pub evasion: u128,
    /// Under a single cannon check: the screen, free to go anywhere.
    pub free: u128,
    /// The checking pieces.
    pub checker: u128,
    /// Of `checker`, those whose capture may leave the king attacked: a rook (or the king)
    /// checking along a line with an enemy cannon beyond it, whose taker may become that
    /// cannon's screen. Taking any other single checker is safe for a piece neither pinned nor
    /// the checking cannon's screen.
    retake: u128,
    /// Under a single cannon check, the point of `free` (a point off the board otherwise): a
    /// plain comparison for the generator's test of each piece.
    free_at: usize,
}

impl Safety {
    /// Looks around the king of `threats`' opponent on `king`.
    #[inline(always)]
    pub fn of(occ: u128, king: usize, threats: &Threats) -> Safety {
        let mut s = Safety {
            in_check: false,
            pinned: 0,
            screens: 0,
            checkers: 0,
            evasion: 0,
            free: 0,
            checker: 0,
            retake: 0,
            free_at: usize::MAX,
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
                        let horses = threats.horses & HORSE_BY_DIAG[king][j];
                        s.check(horses.count_ones() as u8, horses | leg, horses);
                    } else {
                        s.pinned |= leg;
                    }
                }
            }
        }
        let pawns = threats.pawns & PAWN_ATTACKERS[threats.color.index()][king];
        if pawns != 0 {
            s.check(pawns.count_ones() as u8, pawns, pawns);
        }
        s
    }

    /// Records `n` checking pieces, on `checker`, met by moving onto `evasion`.
    #[inline(always)]
    fn check(&mut self, n: u8, evasion: u128, checker: u128) {
        self.in_check = true;
        self.checkers += n;
        self.evasion |= evasion;
        self.checker |= checker;
    }

    /// The destinations of a piece on `f` other than the king that may leave the king attacked,
    /// and so must be played out. Out of check: all if the piece guards the king (pinned), else
    /// the points where it would become a cannon's screen. Under a single check a piece that is
    /// neither pinned nor the checking cannon's screen meets the check by blocking or taking, so
    /// only landing as a cannon's screen, taking a checking rook with a cannon behind it (the
    /// taker may be its screen, [`Safety::retake`]) or not meeting the check at all; under a
    /// double check, all.
    #[inline(always)]
    fn risky(&self, f: usize) -> u128 {
        if self.in_check {
            if self.checkers == 1 && !has(self.pinned | self.free, f) {
                self.screens | self.retake | !self.evasion
            } else {
                !0
            }
        } else if self.pinned != 0 && has(self.pinned, f) {
            !0
        } else {
            self.screens
        }
    }

    /// Of `wanted`, the destinations worth trying for a piece on `f` other than the king, given
    /// `meets` (`wanted` cut to the evasions under a single check, see [`Safety::meets`]): under
    /// a single check only those that meet it, unless the piece is the checking cannon's screen;
    /// otherwise all.
    #[inline(always)]
    fn aim(&self, f: usize, wanted: u128, meets: u128) -> u128 {
        // Under a double check `meets` is `wanted`, whichever screen is `free_at`.
        if f == self.free_at { wanted } else { meets }
    }

    /// Of `wanted`, the points where a piece other than the king may usefully go unless it is
    /// the checking cannon's screen: under a single check those that meet it, otherwise all.
    #[inline(always)]
    fn meets(&self, wanted: u128) -> u128 {
        if self.checkers == 1 {
            wanted & self.evasion
        } else {
            wanted
        }
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
        let m1 = bit_at(b1);
        let after1 = RAYS[D][b1];
        if has(t.lines, b1) {
            self.check(1, ray ^ after1, m1);
            if after1 & t.cannons != 0 {
                self.retake |= m1;
            }
            return;
        }
        if has(t.cannons, b1) {
            // Any piece put between would be the screen.
            self.screens |= ray ^ after1 ^ m1;
        }
        let rest = after1 & occ;
        if rest == 0 {
            return;
        }
        let b2 = first::<D>(rest);
        if has(t.cannons, b2) {
            let m2 = bit_at(b2);
            self.check(1, (ray ^ RAYS[D][b2]) & !m1, m2);
            self.free |= m1;
            self.free_at = b1;
            return;
        }
        if has(t.lines, b2) {
            self.pinned |= m1;
            return;
        }
        let rest = RAYS[D][b2] & occ;
        if rest != 0 && has(t.cannons, first::<D>(rest)) {
            // Either screen leaving would leave exactly one.
            self.pinned |= m1 | bit_at(b2);
        }
    }
}

/// Whether the king on `king` is safe after moving `from` to `to` with the board occupied as `occ`.
#[inline(always)]
fn safe_after(occ: u128, king: usize, from: usize, to: usize, threats: &Threats) -> bool {
    let to_bit = bit_at(to);
    let occ = (occ & !bit_at(from)) | to_bit;
    let k = if from == king { to } else { king };
    !threats.without(to_bit).attack(occ, k)
}

/// Where [`legal_groups_seen`] puts the king's steps: last (the generators' order).
const KING_LAST: u8 = 0;
/// First, and their group may hold only the first safe one (asked for any one legal move).
const KING_FIRST: u8 = 1;
/// Nowhere (asked for any one legal move, the king's steps already found unsafe).
const KING_NEVER: u8 = 2;

/// Visits the legal moves of `us` with the king on `king` onto the points of `onto`, as (from,
/// targets) groups that are all legal, so counting needs no list. `visit` returns true to stop
/// early, and then so does this function. `KING` says where the king's steps go
/// ([`KING_LAST`], [`KING_FIRST`], [`KING_NEVER`]).
#[inline(always)]
fn legal_groups<const KING: u8>(
    board: &Board,
    us: Color,
    king: Square,
    onto: u128,
    visit: impl FnMut(usize, u128) -> bool,
) -> bool {
    let threats = Threats::of(board, !us);
    let safety = Safety::of(board.occupied(), king.index(), &threats);
    legal_groups_seen::<KING>(board, us, king, onto, &threats, &safety, visit)
}

/// As [`legal_groups`], with the enemy's threats and the look around the king already taken.
#[inline(always)]
fn legal_groups_seen<const KING: u8>(
    board: &Board,
    us: Color,
    king: Square,
    onto: u128,
    threats: &Threats,
    safety: &Safety,
    mut visit: impl FnMut(usize, u128) -> bool,
) -> bool {
    let occ = board.occupied();
    let own = board.color_mask(us);
    let k = king.index();
    // King moves are always tested, since any of them may walk into an attack; first when only
    // one legal move is wanted, as the king's step is the likeliest way out of a check.
    let king_moves = |visit: &mut dyn FnMut(usize, u128) -> bool| -> bool {
        let mut ok = 0;
        for to in Indices(KING_MASK[k] & !own & onto) {
            if safe_after(occ, k, k, to, threats) {
                ok |= bit_at(to);
                // Asked for any one legal move: one step will do.
                if KING == KING_FIRST {
                    break;
                }
            }
        }
        ok != 0 && visit(k, ok)
    };
    if KING == KING_FIRST && king_moves(&mut visit) {
        return true;
    }
    // Moves that may expose the king are tried; the rest are legal as they are. `all` is the
    // piece's wanted destinations, not empty.
    let mut emit = |f: usize, all: u128| -> bool {
        let risky = all & safety.risky(f);
        let mut ok = all & !risky;
        let mut rest = risky;
        while rest != 0 {
            let to = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if safe_after(occ, k, f, to, threats) {
                ok |= bit_at(to);
            }
        }
        ok != 0 && visit(f, ok)
    };
    let mine = |role: Role| own & board.role_mask(role);
    // The wanted points are masked once for every piece; a piece with none in reach is skipped
    // without a call. A slider or horse that could not reach a wanted point even on an empty
    // board is skipped before its moves are worked out (under a check, or asked for a few
    // points, most are).
    let wanted = onto & !own;
    let meets = safety.meets(wanted);
    for f in Indices(mine(Role::Rook)) {
        let aim = safety.aim(f, wanted, meets);
        if LINES[f] & aim != 0 {
            let all = rook_attacks(occ, f) & aim;
            if all != 0 && emit(f, all) {
                return true;
            }
        }
    }
    for f in Indices(mine(Role::Cannon)) {
        let aim = safety.aim(f, wanted, meets);
        if LINES[f] & aim != 0 {
            let all = cannon_attacks(occ, f) & aim;
            if all != 0 && emit(f, all) {
                return true;
            }
        }
    }
    for f in Indices(mine(Role::Horse)) {
        let aim = safety.aim(f, wanted, meets);
        // Horse steps are symmetric: the points it reaches are those that reach it.
        if HORSE_ATTACKERS_ANY[f] & aim != 0 {
            let all = horse_attacks(occ, f) & aim;
            if all != 0 && emit(f, all) {
                return true;
            }
        }
    }
    for f in Indices(mine(Role::Pawn)) {
        let all = PAWN_MASK[us.index()][f] & safety.aim(f, wanted, meets);
        if all != 0 && emit(f, all) {
            return true;
        }
    }
    for f in Indices(mine(Role::Elephant)) {
        let aim = safety.aim(f, wanted, meets);
        if ELEPHANT_MASK[f] & aim != 0 {
            let all = elephant_attacks(occ, f) & aim;
            if all != 0 && emit(f, all) {
                return true;
            }
        }
    }
    for f in Indices(mine(Role::Advisor)) {
        let all = ADVISOR_MASK[f] & safety.aim(f, wanted, meets);
        if all != 0 && emit(f, all) {
            return true;
        }
    }
    if KING == KING_LAST && king_moves(&mut visit) {
        return true;
    }
    false
}

/// Whether `us`, not in check, has a move that needs no trying: a piece other than the king
/// that guards nothing ([`Safety::pinned`]) going anywhere but onto a cannon's screen point
/// (the moves [`legal_groups_seen`] takes as legal without playing them). Looks for one only:
/// false says nothing, and the full test follows.
#[inline]
fn any_untried(board: &Board, us: Color, safety: &Safety) -> bool {
    let occ = board.occupied();
    let own = board.color_mask(us);
    let open = !own & !safety.screens;
    let loose = |role: Role| own & !safety.pinned & board.role_mask(role);
    Indices(loose(Role::Rook)).any(|f| rook_attacks(occ, f) & open != 0)
        || Indices(loose(Role::Pawn)).any(|f| PAWN_MASK[us.index()][f] & open != 0)
        || Indices(loose(Role::Advisor)).any(|f| ADVISOR_MASK[f] & open != 0)
        || Indices(loose(Role::Horse)).any(|f| horse_attacks(occ, f) & open != 0)
        || Indices(loose(Role::Cannon)).any(|f| cannon_attacks(occ, f) & open != 0)
        || Indices(loose(Role::Elephant)).any(|f| elephant_attacks(occ, f) & open != 0)
}

/// Point indices of a mask, lowest first.
struct Indices(u128);

impl Iterator for Indices {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        next_index(&mut self.0)
    }
}

/// Appends the legal moves of `us`, whose king is on `king`.
pub fn legal(board: &Board, us: Color, king: Square, out: &mut MoveList) {
    legal_groups::<KING_LAST>(board, us, king, !0, |from, to| {
        if let Some(from) = Square::from_index(from) {
            push_all(from, to, out);
        }
        false
    });
}

/// Visits the legal moves of `us` (king on `king`) one by one, in [`legal`]'s order, until
/// `visit` returns true; whether it did. Generates no more than it visits, for searches that
/// usually stop at the first move. (Tried: the king's steps first made the corpus's searches
/// visit 16 % more positions.)
pub fn find_legal(board: &Board, us: Color, king: Square, visit: impl FnMut(Move) -> bool) -> bool {
    legal_groups::<KING_LAST>(board, us, king, !0, one_by_one(visit))
}

/// A group visitor that hands a group's moves to `visit` one by one, until it says stop.
#[inline(always)]
fn one_by_one(mut visit: impl FnMut(Move) -> bool) -> impl FnMut(usize, u128) -> bool {
    move |from, to| {
        let Some(from) = Square::from_index(from) else {
            return false;
        };
        Squares(to).any(|dest| visit(Move::new(from, dest)))
    }
}

/// As [`find_legal`], the captures of the checking pieces first, then the other moves in
/// [`legal`]'s order (a defence in a search by checks: taking the checker most often holds).
pub fn find_evasion(
    board: &Board,
    us: Color,
    king: Square,
    visit: impl FnMut(Move) -> bool,
) -> bool {
    let threats = Threats::of(board, !us);
    let safety = Safety::of(board.occupied(), king.index(), &threats);
    let mut each = one_by_one(visit);
    let checker = safety.checker;
    legal_groups_seen::<KING_LAST>(board, us, king, checker, &threats, &safety, &mut each)
        || legal_groups_seen::<KING_LAST>(board, us, king, !checker, &threats, &safety, &mut each)
}

/// Appends the legal captures of `us`, whose king is on `king` (the enemy king is no target).
pub fn legal_captures(board: &Board, us: Color, king: Square, out: &mut MoveList) {
    let enemy = board.color_mask(!us) & !board.role_mask(Role::King);
    legal_groups::<KING_LAST>(board, us, king, enemy, |from, to| {
        if let Some(from) = Square::from_index(from) {
            push_all(from, to, out);
        }
        false
    });
}

/// Whether `us` (king on `king`) is in check, and whether it has any legal move, from one look
/// around the king.
pub fn status(board: &Board, us: Color, king: Square) -> (bool, bool) {
    let threats = Threats::of(board, !us);
    let safety = Safety::of(board.occupied(), king.index(), &threats);
    let any = (!safety.in_check && any_untried(board, us, &safety))
        || legal_groups_seen::<KING_FIRST>(board, us, king, !0, &threats, &safety, |_, _| true);
    (safety.in_check, any)
}

/// What a net-gain search needs at a position of `us` (king on `king`): whether it is in check,
/// and whether it has any legal move; `out` gets every legal move when in check, else the
/// captures (the enemy king is no target).
///
/// Out of check, one look from our king along the lines and legs the enemy's pieces stand on
/// (`exposed_unless_check`) tells the pieces whose leaving may expose it: only their captures
/// (and the king's) are tried on the masks, since a capture lands on a point already taken and
/// makes no new screen. The full look around the king (`Safety`) is taken only in check, or
/// when there is no capture and some other move must be found.
pub fn captures_or_evasions(
    board: &Board,
    us: Color,
    king: Square,
    out: &mut MoveList,
) -> (bool, bool) {
    let threats = Threats::of(board, !us);
    let occ = board.occupied();
    let k = king.index();
    let Some(exposed) = exposed_unless_check(occ, k, &threats) else {
        let safety = Safety::of(occ, k, &threats);
        let push = |from: usize, to: u128| {
            if let Some(from) = Square::from_index(from) {
                push_all(from, to, out);
            }
            false
        };
        legal_groups_seen::<KING_LAST>(board, us, king, !0, &threats, &safety, push);
        return (true, !out.is_empty());
    };
    captures_seen(board, us, k, &threats, exposed, out);
    if !out.is_empty() {
        return (false, true);
    }
    let safety = Safety::of(occ, k, &threats);
    let any = any_untried(board, us, &safety)
        || legal_groups_seen::<KING_FIRST>(board, us, king, !0, &threats, &safety, |_, _| true);
    (false, any)
}

/// The points whose piece, leaving, may expose the king on `k` to `threats` (the pieces
/// [`Safety::pinned`] holds: a rook's only blocker, a cannon's two screens, the leg of a horse
/// aimed at it), or `None` if the king is attacked already.
#[inline(always)]
fn exposed_unless_check(occ: u128, k: usize, threats: &Threats) -> Option<u128> {
    if threats.pawns & PAWN_ATTACKERS[threats.color.index()][k] != 0 {
        return None;
    }
    let mut exposed = 0;
    if threats.horses & HORSE_ATTACKERS_ANY[k] != 0 {
        for j in 0..4 {
            if threats.horses & HORSE_BY_DIAG[k][j] != 0 {
                let leg = DIAG[k][j];
                if !has(occ, usize::from(leg)) {
                    return None;
                }
                exposed |= bit(leg);
            }
        }
    }
    let sliders = threats.lines | threats.cannons;
    exposed |= exposed_ray::<0>(occ, k, threats, sliders)?;
    exposed |= exposed_ray::<1>(occ, k, threats, sliders)?;
    exposed |= exposed_ray::<2>(occ, k, threats, sliders)?;
    exposed |= exposed_ray::<3>(occ, k, threats, sliders)?;
    Some(exposed)
}

/// [`exposed_unless_check`] along the ray `D` from the king on `k`, read as [`Safety::ray`] does
/// (the first three pieces out): a rook's or king's only blocker, a cannon's two screens, or
/// `None` on a check.
#[inline(always)]
fn exposed_ray<const D: usize>(occ: u128, k: usize, t: &Threats, sliders: u128) -> Option<u128> {
    let ray = RAYS[D][k];
    if ray & sliders == 0 {
        return Some(0);
    }
    // Some slider is on the ray, so there is a first blocker.
    let b1 = first::<D>(ray & occ);
    if has(t.lines, b1) {
        return None;
    }
    let rest = RAYS[D][b1] & occ;
    if rest == 0 {
        return Some(0);
    }
    let b2 = first::<D>(rest);
    if has(t.cannons, b2) {
        return None;
    }
    if has(t.lines, b2) {
        return Some(bit_at(b1));
    }
    let rest = RAYS[D][b2] & occ;
    if rest != 0 && has(t.cannons, first::<D>(rest)) {
        // Either screen leaving would leave exactly one.
        return Some(bit_at(b1) | bit_at(b2));
    }
    Some(0)
}

/// Appends the legal captures of `us` (king on `k`, not in check) in [`legal_groups_seen`]'s
/// order (by kind, then point); a piece off `exposed` captures freely, the others and the king
/// are tried on the masks.
#[inline(always)]
fn captures_seen(
    board: &Board,
    us: Color,
    k: usize,
    threats: &Threats,
    exposed: u128,
    out: &mut MoveList,
) {
    let occ = board.occupied();
    let own = board.color_mask(us);
    let enemy = board.color_mask(!us) & !board.role_mask(Role::King);
    let mut emit = |f: usize, to: u128| {
        if has(exposed, f) {
            pinned_captures(occ, k, f, to, threats, out);
        } else if let Some(from) = Square::from_index(f) {
            push_all(from, to, out);
        }
    };
    let mine = |role: Role| own & board.role_mask(role);
    for f in Indices(mine(Role::Rook)) {
        if LINES[f] & enemy != 0 {
            let to = rook_attacks(occ, f) & enemy;
            if to != 0 {
                emit(f, to);
            }
        }
    }
    for f in Indices(mine(Role::Cannon)) {
        if LINES[f] & enemy != 0 {
            let to = cannon_captures(occ, f) & enemy;
            if to != 0 {
                emit(f, to);
            }
        }
    }
    for f in Indices(mine(Role::Horse)) {
        // Horse steps are symmetric: the points it reaches are those that reach it.
        if HORSE_ATTACKERS_ANY[f] & enemy != 0 {
            let to = horse_attacks(occ, f) & enemy;
            if to != 0 {
                emit(f, to);
            }
        }
    }
    for f in Indices(mine(Role::Pawn)) {
        let to = PAWN_MASK[us.index()][f] & enemy;
        if to != 0 {
            emit(f, to);
        }
    }
    for f in Indices(mine(Role::Elephant)) {
        if ELEPHANT_MASK[f] & enemy != 0 {
            let to = elephant_attacks(occ, f) & enemy;
            if to != 0 {
                emit(f, to);
            }
        }
    }
    for f in Indices(mine(Role::Advisor)) {
        let to = ADVISOR_MASK[f] & enemy;
        if to != 0 {
            emit(f, to);
        }
    }
    let mut ok = 0;
    for t in Indices(KING_MASK[k] & enemy) {
        if safe_after(occ, k, k, t, threats) {
            ok |= bit_at(t);
        }
    }
    if let Some(from) = Square::from_index(k) {
        push_all(from, ok, out);
    }
}

/// Appends the captures `to` of the pinned piece on `f` that leave the king on `k` safe.
#[inline(never)]
fn pinned_captures(occ: u128, k: usize, f: usize, to: u128, threats: &Threats, out: &mut MoveList) {
    let mut ok = 0;
    for t in Indices(to) {
        if safe_after(occ, k, f, t, threats) {
            ok |= bit_at(t);
        }
    }
    if let Some(from) = Square::from_index(f) {
        push_all(from, ok, out);
    }
}

/// Whether `us` has any legal move, stopping at the first one found.
pub fn any_legal(board: &Board, us: Color, king: Square) -> bool {
    let threats = Threats::of(board, !us);
    let occ = board.occupied();
    let k = king.index();
    // The king's steps first, the likeliest way out of a check; they need no look around the
    // king, which is taken only when none is safe (and then they are not tried again).
    if Indices(KING_MASK[k] & !board.color_mask(us)).any(|to| safe_after(occ, k, k, to, &threats)) {
        return true;
    }
    let safety = Safety::of(occ, k, &threats);
    legal_groups_seen::<KING_NEVER>(board, us, king, !0, &threats, &safety, |_, _| true)
}

/// Whether playing the pseudo-legal `m` leaves `us`'s king safe, worked out on the masks of
/// `board` as it stands (nothing is played).
#[inline]
pub fn keeps_king_safe(board: &Board, us: Color, king: Square, m: Move) -> bool {
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
            || (safety.pinned | safety.screens) & (bit_at(f) | bit_at(t)) != 0;
        !risky || safe_after(occ, k, f, t, &threats)
    });
}

/// Where checks on the enemy king can come from, seen from its point outward: the first three
/// pieces on each of its four rays and its four horse legs.
struct Aims {
    /// Points from which a rook checks: on each ray up to the first piece, its point included.
    rook: u128,
    /// Points from which a cannon checks: beyond the first piece up to the second, its point
    /// included.
    cannon: u128,
    /// Points from which a horse checks (the leg at the king free).
    horse: u128,
    /// Empty points between the king and our cannon first on a ray: a piece landing there checks
    /// as its screen.
    screen: u128,
    /// Our cannons first on a ray: along it they check only by jumping the second piece.
    first_cannons: u128,
    /// Our pieces whose leaving their line to the king opens a check: a rook's only blocker, one
    /// of a cannon's two screens.
    opens_line: u128,
    /// The two screens of each cannon of ours behind two pieces: one of them taking the other
    /// leaves exactly one, along the line.
    pairs: u128,
    /// Our pieces on the leg of our horse aimed at the king: any move of theirs opens a check.
    opens_leg: u128,
    /// The king is attacked already (no game reaches such a position; see [`checks`]).
    attacked: bool,
}

/// The piece on point `i` (0–89).
#[inline(always)]
fn piece_at(board: &Board, i: usize) -> Option<Piece> {
    Square::from_index(i).and_then(|sq| board.get(sq))
}

impl Aims {
    /// The sources of checks by `us` (its `horses` and `pawns` given) on the enemy king on `k`.
    #[inline(always)]
    fn of(board: &Board, us: Color, k: usize, horses: u128, pawns: u128) -> Aims {
        let occ = board.occupied();
        let mut a = Aims {
            rook: 0,
            cannon: 0,
            horse: 0,
            screen: 0,
            first_cannons: 0,
            opens_line: 0,
            pairs: 0,
            opens_leg: 0,
            attacked: pawns & PAWN_ATTACKERS[us.index()][k] != 0,
        };
        a.ray::<0>(board, occ, us, k);
        a.ray::<1>(board, occ, us, k);
        a.ray::<2>(board, occ, us, k);
        a.ray::<3>(board, occ, us, k);
        if horses != 0 {
            let own = board.color_mask(us);
            for j in 0..4 {
                let leg = DIAG[k][j];
                let from = HORSE_BY_DIAG[k][j];
                if !has(occ, usize::from(leg)) {
                    a.horse |= from;
                } else if horses & from != 0 {
                    a.opens_leg |= bit(leg) & own;
                }
            }
            a.attacked |= horses & a.horse != 0;
        }
        a
    }

    /// The first three pieces out from the king along `D`.
    #[inline(always)]
    fn ray<const D: usize>(&mut self, board: &Board, occ: u128, us: Color, k: usize) {
        let ray = RAYS[D][k];
        let blockers = ray & occ;
        if blockers == 0 {
            self.rook |= ray;
            return;
        }
        let b1 = first::<D>(blockers);
        let beyond1 = RAYS[D][b1];
        self.rook |= ray ^ beyond1;
        let p1 = piece_at(board, b1);
        let ours1 = p1.is_some_and(|p| p.color == us);
        if ours1 {
            match p1.map(|p| p.role) {
                Some(Role::Rook | Role::King) => {
                    self.attacked = true;
                    return;
                }
                Some(Role::Cannon) => {
                    // Any piece put between would be the screen.
                    self.screen |= ray ^ beyond1 ^ bit_at(b1);
                    self.first_cannons |= bit_at(b1);
                }
                _ => {}
            }
        }
        let rest = beyond1 & occ;
        if rest == 0 {
            self.cannon |= beyond1;
            return;
        }
        let b2 = first::<D>(rest);
        let beyond2 = RAYS[D][b2];
        self.cannon |= beyond1 ^ beyond2;
        let p2 = piece_at(board, b2);
        let ours2 = p2.is_some_and(|p| p.color == us);
        if ours2 {
            match p2.map(|p| p.role) {
                Some(Role::Cannon) => {
                    self.attacked = true;
                    return;
                }
                Some(Role::Rook | Role::King) if ours1 => self.opens_line |= bit_at(b1),
                _ => {}
            }
        } else if !ours1 {
            return;
        }
        let rest = beyond2 & occ;
        if rest != 0 && piece_at(board, first::<D>(rest)) == Some(Piece::new(us, Role::Cannon)) {
            // Either of two screens leaving (or taking the other) would leave exactly one.
            let pair = bit_at(b1) | bit_at(b2);
            self.opens_line |= pair & board.color_mask(us);
            self.pairs |= pair;
        }
    }

    /// The destinations where our piece on `f` checks by leaving its place: anywhere off a
    /// horse's leg, off its ray from a line it blocks (or onto the other of two screens); none
    /// for any other piece.
    #[inline(always)]
    fn opened(&self, k: usize, f: usize) -> u128 {
        if has(self.opens_leg, f) {
            !0
        } else if has(self.opens_line, f) {
            let ray = line_through(k, f);
            !ray | (self.pairs & ray)
        } else {
            0
        }
    }
}

/// The ray from the king's point `k` that holds point `f` (empty if none does).
#[inline]
fn line_through(k: usize, f: usize) -> u128 {
    let fb = bit_at(f);
    RAYS.iter().map(|r| r[k]).find(|r| r & fb != 0).unwrap_or(0)
}

/// Appends the legal moves of `us` (king on `ours`) that check the enemy king on `theirs` (将), in
/// the order of their points (from, then to; the searches' lines follow it).
///
/// Worked out from the enemy king's point outward (its rays and horse legs): each piece's
/// destinations are cut to the points where it checks by itself (a rook, cannon, horse or pawn),
/// lands as a cannon's screen, or leaves a line or leg it blocked; only those are tried on the
/// masks for our own king's safety. A position whose enemy king is attacked already (no game
/// reaches one, but a board built by hand may) is answered by trying every move.
pub fn checks(board: &Board, us: Color, ours: Square, theirs: Square, out: &mut MoveList) {
    let occ = board.occupied();
    let own = board.color_mask(us);
    let mine = |role: Role| own & board.role_mask(role);
    let k = theirs.index();
    let (horses, pawns) = (mine(Role::Horse), mine(Role::Pawn));
    let aims = Aims::of(board, us, k, horses, pawns);
    if aims.attacked {
        checks_tried(board, us, ours, theirs, out);
        return;
    }
    // The enemy king's point is no destination, whatever a position built by hand holds.
    let open = !own & !theirs.mask();
    let screen = aims.screen;
    // The checking moves of each piece, (point, destinations), kept in point order.
    let mut groups = [(0u8, 0u128); 16];
    let mut n = 0;
    let mut keep = |f: usize, to: u128| {
        if to != 0 && n < groups.len() {
            let mut i = n;
            while i > 0 && usize::from(groups[i - 1].0) > f {
                groups[i] = groups[i - 1];
                i -= 1;
            }
            groups[i] = (f as u8, to);
            n += 1;
        }
    };
    // Pieces that open a line or leg, and cannons first on a ray, are seen to apart.
    let special = aims.opens_line | aims.opens_leg | aims.first_cannons;
    let want = aims.rook | screen;
    for f in Indices(mine(Role::Rook) & !special) {
        if LINES[f] & want != 0 {
            keep(f, rook_attacks(occ, f) & want & open);
        }
    }
    let want = aims.cannon | screen;
    for f in Indices(mine(Role::Cannon) & !special) {
        if LINES[f] & want != 0 {
            keep(f, cannon_attacks(occ, f) & want & open);
        }
    }
    let want = aims.horse | screen;
    for f in Indices(horses & !special) {
        // Horse steps are symmetric: the points it reaches are those that reach it.
        if HORSE_ATTACKERS_ANY[f] & want != 0 {
            keep(f, horse_attacks(occ, f) & want & open);
        }
    }
    let want = PAWN_ATTACKERS[us.index()][k] | screen;
    for f in Indices(pawns & !special) {
        keep(f, PAWN_MASK[us.index()][f] & want & open);
    }
    // The other pieces check only as a screen.
    if screen != 0 {
        let others = mine(Role::Advisor) | mine(Role::Elephant) | mine(Role::King);
        for f in Indices(others & !special) {
            if let Some(piece) = piece_at(board, f) {
                keep(f, targets(occ, f, piece.role, us) & screen & open);
            }
        }
    }
    for f in Indices(special) {
        let Some(piece) = piece_at(board, f) else {
            continue;
        };
        let mut want = screen
            | match piece.role {
                Role::Rook => aims.rook,
                Role::Cannon => aims.cannon,
                Role::Horse => aims.horse,
                Role::Pawn => PAWN_ATTACKERS[us.index()][k],
                Role::King | Role::Advisor | Role::Elephant => 0,
            };
        if has(aims.first_cannons, f) {
            // Along its own ray it only empties the line, but for jumping the second piece.
            let ray = line_through(k, f);
            want = (want & !ray) | (ray & !(aims.rook | aims.cannon));
        }
        want |= aims.opened(k, f);
        keep(f, targets(occ, f, piece.role, us) & want & open);
    }
    if n == 0 {
        return;
    }
    // Each check found is tried on the masks for our own king's safety.
    let threats = Threats::of(board, !us);
    let kq = ours.index();
    for &(f, to) in &groups[..n] {
        let f = usize::from(f);
        let mut ok = 0;
        for t in Indices(to) {
            if safe_after(occ, if f == kq { t } else { kq }, f, t, &threats) {
                ok |= bit_at(t);
            }
        }
        if let Some(from) = Square::from_index(f) {
            push_all(from, ok, out);
        }
    }
}

/// [`checks`] where the enemy king is attacked already: every move tried, in point order.
#[cold]
fn checks_tried(board: &Board, us: Color, ours: Square, theirs: Square, out: &mut MoveList) {
    let occ = board.occupied();
    let own = board.color_mask(us);
    let threats = Threats::of(board, !us);
    let mine = Threats::of(board, us);
    for from in Squares(own) {
        let Some(piece) = board.get(from) else {
            continue;
        };
        let f = from.index();
        for to in Squares(targets(occ, f, piece.role, us) & !own & !theirs.mask()) {
            let t = to.index();
            let k = if piece.role == Role::King {
                t
            } else {
                ours.index()
            };
            if moved_checks(mine, occ, from, to, piece.role, theirs)
                && safe_after(occ, k, f, t, &threats)
            {
                // Cannot overflow: a side's checks are fewer than MAX_MOVES.
                let _ = out.try_push(Move::new(from, to));
            }
        }
    }
}

/// Counts the legal moves without storing them (perft's last ply).
pub fn count_legal(board: &Board, us: Color, king: Square) -> usize {
    let mut n = 0;
    legal_groups::<KING_LAST>(board, us, king, !0, |_, to| {
        n += to.count_ones() as usize;
        false
    });
    n
}

/// The check generator as it was before it worked from the enemy king outward (0.6.0): the new
/// one must give the same moves in the same order.
#[cfg(test)]
#[path = "movegen_before.rs"]
mod before;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// Compares the check generator with the one before on `pos` and, turn passed, on the
    /// other side: the whole list, order included. How many checks were met.
    fn same_checks(pos: &Position) -> usize {
        let mut n = 0;
        for p in [Some(*pos), pos.with_turn_passed()].into_iter().flatten() {
            let us = p.turn();
            let (ours, theirs) = (p.king(us), p.king(!us));
            let (mut new, mut old) = (MoveList::new(), MoveList::new());
            checks(p.board(), us, ours, theirs, &mut new);
            before::checks(p.board(), us, ours, theirs, &mut old);
            assert_eq!(new, old, "{}", p.fen());
            n += new.len();
        }
        n
    }

    /// Where the enemy king is attacked already (a board no game reaches: the positions in check of
    /// the corpus's cycles and the platform mix with the turn handed back), every legal move
    /// but the king's capture that leaves it attacked, in point order.
    #[test]
    fn checks_on_a_king_attacked_already() {
        let mut met = 0;
        for file in corpus_files() {
            for pos in positions_of(&file) {
                if !pos.is_check() {
                    continue;
                }
                let Some(p) = Position::from_parts(*pos.board(), !pos.turn(), 0, 1) else {
                    continue;
                };
                let us = p.turn();
                let mut found = MoveList::new();
                checks(p.board(), us, p.king(us), p.king(!us), &mut found);
                let mut tried: Vec<Move> = p
                    .legal_moves()
                    .into_iter()
                    .filter(|m| m.to != p.king(!us))
                    .filter(|m| crate::attacks::gives_check(p.board(), m.from, m.to, p.king(!us)))
                    .collect();
                tried.sort_by_key(|m| (m.from, m.to));
                assert_eq!(found.as_slice(), tried.as_slice(), "{}", p.fen());
                met += 1;
            }
        }
        assert!(met > 20, "only {met} positions");
    }

    /// Compares the captures-or-evasions generator with the one before on `pos`, on the other
    /// side (turn passed), and on the position after each of the checks of the side to move
    /// (evasions): the answers and the whole list, order included. Adds to `met` the captures
    /// met, and the evasions.
    fn same_captures(pos: &Position, met: &mut (usize, usize)) {
        let mut at = vec![*pos];
        at.extend(pos.with_turn_passed());
        let mut checks_here = MoveList::new();
        let us = pos.turn();
        checks(
            pos.board(),
            us,
            pos.king(us),
            pos.king(!us),
            &mut checks_here,
        );
        at.extend(checks_here.iter().filter_map(|&m| pos.play(m).ok()));
        for p in at {
            let us = p.turn();
            let (mut new, mut old) = (MoveList::new(), MoveList::new());
            let answer = captures_or_evasions(p.board(), us, p.king(us), &mut new);
            let before = before::captures_or_evasions(p.board(), us, p.king(us), &mut old);
            assert_eq!((answer, &new), (before, &old), "{}", p.fen());
            if answer.0 {
                met.1 += new.len();
            } else {
                met.0 += new.len();
            }
        }
    }

    /// Visits every position of the perft tree from the start to depth 3.
    fn over_perft_3(each: &mut impl FnMut(&Position)) {
        fn walk(pos: &Position, depth: u32, each: &mut impl FnMut(&Position)) {
            each(pos);
            if depth == 0 {
                return;
            }
            for m in pos.legal_moves() {
                if let Ok(next) = pos.play(m) {
                    walk(&next, depth - 1, each);
                }
            }
        }
        walk(&Position::start(), 3, each);
    }

    /// Every position of the perft tree from the start to depth 3.
    #[test]
    fn checks_as_before_over_perft_3() {
        let mut seen = 0;
        over_perft_3(&mut |pos| seen += same_checks(pos));
        assert!(seen > 1_000, "only {seen} checks met");
    }

    /// Every position of the perft tree from the start to depth 3, and after each check there.
    #[test]
    fn captures_and_evasions_as_before_over_perft_3() {
        let mut met = (0, 0);
        over_perft_3(&mut |pos| same_captures(pos, &mut met));
        assert!(
            met.0 > 10_000 && met.1 > 1_000,
            "only {met:?} captures and evasions met"
        );
    }

    /// The corpus's case files and the platform mix.
    fn corpus_files() -> Vec<String> {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut files: Vec<String> = std::fs::read_dir(format!("{root}/cases"))
            .expect("cases/")
            .filter_map(|e| e.ok().map(|e| e.path().display().to_string()))
            .filter(|p| p.ends_with(".jsonl"))
            .collect();
        files.sort();
        files.push(format!("{root}/benches/data/platform-mix.jsonl"));
        files
    }

    /// The positions of a JSON-lines file's `fen` and `moves` (the corpus's cycles, the platform
    /// mix's games), each from its start through every move.
    fn positions_of(path: &str) -> Vec<Position> {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut out = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let Some(Ok(mut pos)) = v["fen"].as_str().map(str::parse::<Position>) else {
                continue;
            };
            out.push(pos);
            for m in v["moves"].as_array().into_iter().flatten() {
                let m = m.as_str().and_then(crate::record::dispute::iccs_move);
                let Some(next) = m.and_then(|m| pos.play(m).ok()) else {
                    break;
                };
                pos = next;
                out.push(pos);
            }
        }
        out
    }

    /// Visits every position of the corpus's cycles and of the platform mix's games (crowded
    /// middlegames), and of short random games from them (captures and the checks they allow).
    fn over_the_corpus_and_the_mix(each: &mut impl FnMut(&Position)) {
        let mut starts: Vec<Position> = corpus_files()
            .iter()
            .flat_map(|f| positions_of(f))
            .collect();
        starts.sort_by_key(Position::hash);
        starts.dedup_by_key(|p| p.hash());
        assert!(starts.len() > 3_000, "only {} positions", starts.len());
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for start in starts {
            let mut pos = start;
            for _ in 0..6 {
                each(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let Ok(next) = pos.play(moves[(rng % moves.len() as u64) as usize]) else {
                    break;
                };
                pos = next;
            }
        }
    }

    /// The corpus's and the platform mix's positions and random plies from them.
    #[test]
    fn checks_as_before_over_the_corpus_and_the_mix() {
        let mut seen = 0;
        over_the_corpus_and_the_mix(&mut |pos| seen += same_checks(pos));
        assert!(seen > 10_000, "only {seen} checks met");
    }

    /// The corpus's and the platform mix's positions, random plies from them, and the position
    /// after each check there.
    #[test]
    fn captures_and_evasions_as_before_over_the_corpus_and_the_mix() {
        let mut met = (0, 0);
        over_the_corpus_and_the_mix(&mut |pos| same_captures(pos, &mut met));
        assert!(
            met.0 > 10_000 && met.1 > 10_000,
            "only {met:?} captures and evasions met"
        );
    }

    /// The captures of a cannon are its moves onto pieces.
    #[test]
    fn cannon_captures_are_the_cannon_moves_onto_pieces() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let occ = u128::from(rng) | (u128::from(rng.rotate_left(29) & rng) << 64);
            let occ = occ & ((1u128 << 90) - 1);
            for s in 0..90 {
                assert_eq!(
                    cannon_captures(occ, s),
                    cannon_attacks(occ, s) & occ,
                    "{occ:#x} {s}"
                );
            }
        }
    }

    #[test]
    fn reach_tables_match_the_rays_and_steps() {
        for s in 0..90 {
            assert_eq!(LINES[s], RAYS[0][s] | RAYS[1][s] | RAYS[2][s] | RAYS[3][s]);
            assert_eq!(ELEPHANT_MASK[s], elephant_attacks(0, s));
        }
    }

    #[test]
    fn has_tests_each_point() {
        let mask = (1u128 << 3) | (1u128 << 63) | (1u128 << 64) | (1u128 << 89);
        for i in 0..128 {
            assert_eq!(has(mask, i), mask & (1u128 << i) != 0, "point {i}");
        }
    }
}
