//! The opponent's standing threats (docs/gain.md §2): its captures that win on their point,
//! which frame the questions of A (threats it had before the move are not answers to the line)
//! and B (threats it has both before and after the move).

use super::Scene;
use crate::moves::Move;
use crate::piece::Role;
use crate::position::Position;
use crate::rules::protection::{exchange_wins, legal_captures};
use crate::rules::tactics::context::Context;
use crate::rules::tactics::gain::{Frame, GainLimits};
use crate::rules::tactics::mate::{Budget, mate_by_checks};
use crate::rules::tactics::value::Arithmetic;
use crate::square::Square;
use arrayvec::ArrayVec;

/// The frame of B: every answer of the opponent counts except the threats it has both before and
/// after the move, which the move did nothing to (else a move elsewhere would seem to make new
/// every gain such a threat spoils in B).
pub(super) fn common_threats(
    cx: &mut Context,
    scene: &Scene,
    standing_a: &[Move],
    material: Arithmetic,
    limits: GainLimits,
) -> Frame {
    let Some(b_opp) = scene.before.with_turn_passed() else {
        return Frame::Before;
    };
    let common: ArrayVec<Move, 48> = standing(cx, &b_opp, None, material, limits)
        .into_iter()
        .filter(|m| standing_a.iter().any(|a| a.to == m.to))
        .collect();
    let mut mates = |p: &Position| {
        let mut b = Budget::new(limits.mate_nodes);
        mate_by_checks(cx, p, limits.mate_plies, &mut b).is_some()
    };
    let old_mates = mates(&b_opp) && mates(&scene.after);
    if common.is_empty() && !old_mates {
        return Frame::Before;
    }
    Frame::Standing {
        standing: common,
        old_mates,
    }
}

/// The opponent's captures in `after` (it is to move) that win on their point, and every
/// capture of the piece that just moved to `moved`.
pub(super) fn standing(
    cx: &mut Context,
    after: &Position,
    moved: Option<Square>,
    material: Arithmetic,
    limits: GainLimits,
) -> ArrayVec<Move, 48> {
    let mut out = ArrayVec::new();
    for (sq, piece) in after.board().pieces_of(!after.turn()) {
        if piece.role == Role::King {
            continue;
        }
        for c in legal_captures(after, sq) {
            let counts = Some(sq) == moved || exchange_wins(cx, after, c, material, limits);
            if counts && out.try_push(c).is_err() {
                return out;
            }
        }
    }
    out
}
