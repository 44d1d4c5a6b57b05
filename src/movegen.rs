//! Move generation: pseudo-legal moves by the rules of movement, then the king-safety filter.
//!
//! Legal moves are found without playing most of them: one look around the king per position
//! (`Safety`) finds the pieces whose departure could expose it (pinned by a rook, the other king,
//! or a cannon, or standing on the leg of a horse aimed at it) and the empty points where a piece
//! would become a cannon's screen. Only king moves, moves touching those points, and moves out of
//! check are tried on the occupancy masks.

use crate::attacks::{
    Threats, bit, cannon_attacks, elephant_attacks, first, has, horse_attacks, moved_checks,
    rook_attacks,
};
use crate::board::{Board, Squares, next_index};
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::piece::Role;
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

/// What a net-gain search needs at a position of `us` (king on `king`), from one look around the
/// king: whether it is in check, and whether it has any legal move; `out` gets every legal move
/// when in check, else the captures (the enemy king is no target).
pub fn captures_or_evasions(
    board: &Board,
    us: Color,
    king: Square,
    out: &mut MoveList,
) -> (bool, bool) {
    let threats = Threats::of(board, !us);
    let safety = Safety::of(board.occupied(), king.index(), &threats);
    let mut push = |from: usize, to: u128| {
        if let Some(from) = Square::from_index(from) {
            push_all(from, to, out);
        }
        false
    };
    if safety.in_check {
        legal_groups_seen::<KING_LAST>(board, us, king, !0, &threats, &safety, &mut push);
        return (true, !out.is_empty());
    }
    let enemy = board.color_mask(!us) & !board.role_mask(Role::King);
    legal_groups_seen::<KING_LAST>(board, us, king, enemy, &threats, &safety, &mut push);
    let any = !out.is_empty()
        || any_untried(board, us, &safety)
        || legal_groups_seen::<KING_FIRST>(board, us, king, !0, &threats, &safety, |_, _| true);
    (false, any)
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

/// Where checks on one king can come from: the points each kind of piece checks from, the
/// empty points where any piece would become a cannon's screen, and the pieces whose departure
/// may uncover a check (a rook's or cannon's line, a horse's leg).
struct CheckSources {
    /// The enemy king's rank and file.
    lines: u128,
    rook: u128,
    cannon: u128,
    horse: u128,
    pawn: u128,
    screen: u128,
    uncover: u128,
    /// Of `uncover`, the pieces that check for sure by leaving their line to the king (a rook's
    /// blocker, one of a cannon's two screens) or by leaving a horse's leg wherever they go.
    opens_line: u128,
    opens_leg: u128,
}

impl CheckSources {
    /// The sources of checks by `us` on the enemy king on `k`.
    fn of(board: &Board, us: Color, k: usize) -> CheckSources {
        let occ = board.occupied();
        let own = board.color_mask(us);
        let mine = |role: Role| own & board.role_mask(role);
        let mut s = CheckSources {
            lines: LINES[k],
            // Filled in by the rays below, which find the same first pieces.
            rook: 0,
            cannon: 0,
            horse: 0,
            pawn: PAWN_ATTACKERS[us.index()][k],
            screen: 0,
            uncover: 0,
            opens_line: 0,
            opens_leg: 0,
        };
        let lines = mine(Role::Rook) | mine(Role::King);
        let cannons = mine(Role::Cannon);
        s.ray::<0>(occ, own, k, lines, cannons);
        s.ray::<1>(occ, own, k, lines, cannons);
        s.ray::<2>(occ, own, k, lines, cannons);
        s.ray::<3>(occ, own, k, lines, cannons);
        let horses = mine(Role::Horse);
        for j in 0..4 {
            let leg = DIAG[k][j];
            if !has(occ, usize::from(leg)) {
                s.horse |= HORSE_BY_DIAG[k][j];
            } else if horses & HORSE_BY_DIAG[k][j] != 0 {
                s.uncover |= bit(leg) & own;
                s.opens_leg |= bit(leg) & own;
            }
        }
        s
    }

    /// The points from which a piece of `role` checks by itself.
    #[inline(always)]
    fn direct(&self, role: Role) -> u128 {
        match role {
            Role::Rook => self.rook,
            Role::Cannon => self.cannon,
            Role::Horse => self.horse,
            Role::Pawn => self.pawn,
            // A king never checks by itself (that would be the flying general on its own king).
            Role::King | Role::Advisor | Role::Elephant => 0,
        }
    }

    /// The pieces of `us` that may give check: those that uncover one, and those that could reach
    /// a point where they check (by themselves or as a screen) on an empty board. A kind with no
    /// such point is passed over whole (the advisors, elephants and king have one only when a
    /// cannon wants a screen), so the generator looks up only the pieces that may check.
    #[inline(always)]
    fn candidates(&self, board: &Board, us: Color) -> u128 {
        let own = board.color_mask(us);
        let mine = |role: Role| own & board.role_mask(role);
        let mut out = self.uncover & own;
        let s = self.screen;
        reaching(&mut out, mine(Role::Rook), self.rook | s, |f| LINES[f]);
        reaching(&mut out, mine(Role::Cannon), self.cannon | s, |f| LINES[f]);
        // Horse steps are symmetric: the points it reaches are those that reach it.
        reaching(&mut out, mine(Role::Horse), self.horse | s, |f| {
            HORSE_ATTACKERS_ANY[f]
        });
        reaching(&mut out, mine(Role::Pawn), self.pawn | s, |f| {
            PAWN_MASK[us.index()][f]
        });
        reaching(&mut out, mine(Role::Advisor), s, |f| ADVISOR_MASK[f]);
        reaching(&mut out, mine(Role::Elephant), s, |f| ELEPHANT_MASK[f]);
        reaching(&mut out, mine(Role::King), s, |f| KING_MASK[f]);
        out
    }

    /// The first three pieces out from the king along `D`.
    #[inline(always)]
    fn ray<const D: usize>(&mut self, occ: u128, own: u128, k: usize, lines: u128, cannons: u128) {
        let ray = RAYS[D][k];
        let blockers = ray & occ;
        if blockers == 0 {
            self.rook |= ray;
            return;
        }
        let b1 = first::<D>(blockers);
        let m1 = bit_at(b1);
        let beyond = RAYS[D][b1];
        // A rook checks from the empty points up to the first piece and from its point.
        self.rook |= ray ^ beyond;
        if has(cannons, b1) {
            // Any piece put between would be the screen; the cannon itself may also step back
            // along the line behind the next piece.
            self.screen |= ray ^ beyond ^ m1;
            self.uncover |= m1;
        }
        let rest = beyond & occ;
        if rest == 0 {
            self.cannon |= beyond;
            return;
        }
        let b2 = first::<D>(rest);
        let m2 = bit_at(b2);
        // From beyond the first piece up to the second, a cannon would have one screen.
        self.cannon |= beyond ^ RAYS[D][b2];
        if has(lines, b2) {
            self.uncover |= m1 & own;
            self.opens_line |= m1 & own;
        }
        let rest = RAYS[D][b2] & occ;
        if rest != 0 && has(cannons, first::<D>(rest)) {
            // Either of two screens leaving would leave exactly one.
            self.uncover |= (m1 | m2) & own;
            self.opens_line |= (m1 | m2) & own;
        }
    }
}

/// The ray from the king's point `k` that holds point `f` (empty if none does).
#[inline]
fn line_through(k: usize, f: usize) -> u128 {
    let fb = bit_at(f);
    RAYS.iter().map(|r| r[k]).find(|r| r & fb != 0).unwrap_or(0)
}

/// Adds to `out` the pieces of `pieces` not in it yet that could reach a point of `wanted` on an
/// empty board (`reach`).
#[inline(always)]
fn reaching(out: &mut u128, pieces: u128, wanted: u128, reach: impl Fn(usize) -> u128) {
    if wanted == 0 {
        return;
    }
    for f in Indices(pieces & !*out) {
        if wanted & reach(f) != 0 {
            *out |= bit_at(f);
        }
    }
}

/// Appends the legal moves of `us` (king on `ours`) that check the enemy king on `theirs` (将).
/// Only moves to or from the points a check can come from are tried, so a search by checks does
/// not generate every move.
pub fn checks(board: &Board, us: Color, ours: Square, theirs: Square, out: &mut MoveList) {
    let occ = board.occupied();
    let own = board.color_mask(us);
    let src = CheckSources::of(board, us, theirs.index());
    let threats = Threats::of(board, !us);
    let mine = Threats::of(board, us);
    // Looked up at the first check found: most positions of a search by checks have few.
    let mut safety = None;
    for from in Squares(src.candidates(board, us)) {
        let Some(piece) = board.get(from) else {
            continue;
        };
        let f = from.index();
        let direct = src.direct(piece.role);
        let uncovers = has(src.uncover, f);
        let wanted = direct | src.screen;
        // The enemy king's point is no destination, whatever a position built by hand holds.
        let mut to = targets(occ, f, piece.role, us) & !own & !theirs.mask();
        if !uncovers {
            to &= wanted;
        }
        // Checks for sure, without playing them out: a piece landing where it checks by itself
        // or as the screen of one of our cannons (a cannon only if it leaves no line through the
        // king: it may be the screen it needs, or the cannon it would screen for), and a piece
        // whose leaving opens a check (off its line to the king, or off a horse's leg).
        let lands = match piece.role {
            Role::King => 0,
            Role::Cannon if has(src.lines, f) => 0,
            _ => direct | src.screen,
        };
        let opens = if piece.role == Role::King {
            0
        } else if has(src.opens_leg, f) {
            !0
        } else if has(src.opens_line, f) {
            !line_through(theirs.index(), f)
        } else {
            0
        };
        let sure = lands | opens;
        for dest in Squares(to) {
            let t = dest.index();
            let tb = bit_at(t);
            let checks = sure & tb != 0 || moved_checks(mine, occ, from, dest, piece.role, theirs);
            if !checks {
                continue;
            }
            // Only these moves can expose our own king (every king move can).
            let (k, risky) = if piece.role == Role::King {
                (t, !0)
            } else {
                let safety = safety.get_or_insert_with(|| Safety::of(occ, ours.index(), &threats));
                (ours.index(), safety.risky(f))
            };
            if risky & tb == 0 || safe_after(occ, k, f, t, &threats) {
                // Cannot overflow: a side's checks are fewer than MAX_MOVES.
                let _ = out.try_push(Move::new(from, dest));
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

#[cfg(test)]
mod tests {
    use super::*;

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
