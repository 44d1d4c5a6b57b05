//! The generators as they were before they were rewritten, kept for the tests only: the new ones
//! must give the same moves in the same order. The check generator of 0.6.0 (`movegen::checks`
//! works from the enemy king outward since 0.6.1), and the captures-or-evasions generator of
//! 0.6.1 (which took the full look around our king, [`Safety`], at every position).

use super::*;
use crate::attacks::moved_checks;

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
pub(super) fn checks(board: &Board, us: Color, ours: Square, theirs: Square, out: &mut MoveList) {
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

/// `movegen::captures_or_evasions` as it was in 0.6.1: the full look around the king first, then
/// the captures (or, in check, every move) through [`legal_groups_seen`].
pub(super) fn captures_or_evasions(
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
