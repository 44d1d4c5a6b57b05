//! Whether a chase is new (从没捉到捉; item 2, item 6; docs/gain.md §2, §5): the piece could not
//! be won in B, nor, for a threat the answer to a check uncovers, before the opponent's checking
//! move; and, under 2011 26.1.2, no other answer to the same check would have left it just as
//! winnable.

use super::won::settled;
use super::{Judge, Judged};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::profile::ChaseTest;
use crate::rules::protection::assess;
use crate::rules::tactics::context::Context;
use crate::rules::tactics::context::Gaining;
use crate::rules::tactics::gain::{MATE, Query};
use crate::square::Square;

/// Whether a gain on a piece is new, and if not, why.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Newness {
    /// Not winnable before the move: a new threat.
    New,
    /// Already winnable before the move, or before the check the move answers (从捉到捉).
    Old,
    /// Another legal answer to the same check leaves it just as winnable: the check, not this
    /// answer, made the threat (2011 26.1.2).
    LeftByTheCheck,
}

impl Judge<'_> {
    /// Whether the gain on the piece on `sq`, worth `a_value` in A by `line`, is new: the piece
    /// could not be won in B (从捉到捉, item 6). A gain in B reached through checks has no fixed
    /// target until played, so it is compared by value: A's line must win more (docs/gain.md
    /// §2). Values are the searches', so a line ending in mate outweighs any material (the
    /// material along it says nothing of the mate).
    ///
    /// When the mover was in check in B (docs/gain.md §5): a threat the answering piece itself
    /// makes is judged on B alone (2011 26.1.2: a chase made by another piece answering a check
    /// counts); one the answer uncovers is also compared with the position before the
    /// opponent's checking move (an attack the check only suspended is not new). AXF's own
    /// chase test keeps comparing every threat with that position (docs/profiles/axf.md). Under
    /// 2011 26.1.2, a threat that another legal answer to the same check would leave just as
    /// winnable is the check's doing, not this answer's.
    pub(super) fn newness(
        &self,
        sq: Square,
        a_value: i32,
        line: &[Move],
        cx: &mut Context,
    ) -> Newness {
        // A gain through checks has no fixed target until it is played (docs/gain.md §2).
        let by_checks = line.first().is_some_and(|m| m.to != sq);
        if self.old(&self.scene.before, sq, (a_value, by_checks), cx) {
            return Newness::Old;
        }
        if !self.scene.before.is_check() {
            return Newness::New;
        }
        let answering_piece = matches!(self.profile.chase_test, ChaseTest::NetGain(_))
            && line.first().is_some_and(|m| m.from == self.scene.m.to);
        if let Some((earlier, check)) = &self.scene.suspended
            && !answering_piece
        {
            let at = if check.to == sq { check.from } else { sq };
            if self.old(earlier, at, (a_value, by_checks), cx) {
                return Newness::Old;
            }
        }
        if self.profile.king_answering_check.is_some() && self.another_answer_wins(sq, a_value, cx)
        {
            return Newness::LeftByTheCheck;
        }
        Newness::New
    }

    /// Whether the side to move of `pos` could already win the enemy piece on `sq`: won without
    /// a series of checks (the same threat), or only through checks and worth at least
    /// `a_value` (docs/gain.md §2). A gain in A through checks (`by_checks`) is old too when the
    /// best net line of `pos`, whatever it takes, was worth at least as much (a series of
    /// checks has no fixed target until it is played, docs/gain.md §2).
    ///
    /// B's gain on the piece is asked as yes-or-no searches (does it gain, is it worth at least
    /// A's: a null window there) rather than for its line and value, and without B's
    /// assessment, which that answer never reads.
    fn old(
        &self,
        pos: &Position,
        sq: Square,
        (a_value, by_checks): (i32, bool),
        cx: &mut Context,
    ) -> bool {
        if pos.piece_at(sq).is_none_or(|p| p.color == pos.turn()) {
            return false;
        }
        let q = self.qb.targeting(sq);
        let plain = Query {
            checkless: true,
            ..q.clone()
        };
        // B's gain is worth as much as A's when at least this (every mate alike).
        // One clamp, not a branch around `max(1)`: rustc 1.95's LLVM 22, hoisting that `max` out
        // of its branch, kept the range the branch had proved for it and so dropped the mate
        // case in some release builds (BENCHMARKS.md, "Cheaper positions", step 4).
        let worth = a_value.clamp(1, MATE / 2 + 1);
        match cx.gaining_in_move(pos, &q) {
            // Above the floor the search's value is exact; at or below it, only a bound (a
            // colour-swapped board once read a bound just under a mate's value as a mate).
            Gaining::No if by_checks => {
                cx.gains_in_move(pos, &self.qb)
                    && cx.gain_in_move(pos, &self.qb, worth - 1).value >= worth
            }
            Gaining::No => false,
            Gaining::Fork(value) => value >= worth || cx.gains_in_move(pos, &plain),
            Gaining::Search => {
                worth == 1
                    || cx.gains_in_move(pos, &plain)
                    || cx.gains_above_in_move(pos, &q, worth - 1)
            }
        }
    }

    /// Whether another legal answer to the check of B leaves the enemy piece on `sq` winnable
    /// as the move does, judged as the move is (2011 26.1.2): won without a series of checks, or
    /// through checks for at least `a_value`.
    fn another_answer_wins(&self, sq: Square, a_value: i32, cx: &mut Context) -> bool {
        let before = &self.scene.before;
        let judged = Judged {
            any_gain: true,
            lenient: true,
        };
        let plain = Query {
            checkless: true,
            ..self.qa.targeting(sq)
        };
        for answer in before.legal_moves() {
            if answer == self.scene.m || answer.to == sq {
                continue;
            }
            let mut after = *before;
            after.play_unchecked(answer);
            let Some(again) = after.with_turn_passed() else {
                continue;
            };
            let x = assess(cx, &again, sq, self.profile.material, self.limits);
            if let Some(w) = self.wins(&again, sq, &self.qa, x.as_ref(), judged, cx)
                && (settled(w.value) >= settled(a_value) || cx.gains_in_move(&again, &plain))
            {
                return true;
            }
        }
        false
    }
}
