//! The opponent's standing threats (docs/gain.md §2): its captures that win on their point,
//! which frame the questions of A (threats it had before the move are not answers to the line)
//! and B (threats it has both before and after the move).

use super::Scene;
use crate::moves::Move;
use crate::piece::Role;
use crate::position::Position;
use crate::rules::profile::StandingThreats;
use crate::rules::protection::{capture_wins, exchange_wins, legal_captures};
use crate::rules::tactics::context::Context;
use crate::rules::tactics::gain::{Frame, GainLimits, Query};
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
    // Only the points A's threats are on can hold a common one: the exchanges elsewhere are
    // not searched.
    let points = standing_a.iter().fold(0, |m, a| m | a.to.mask());
    let common = standing(cx, &b_opp, None, points, material, limits);
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

/// The opponent's threats after the move that are not answers to the mover's lines in A, by the
/// profile's reading (`StandingThreats`).
pub(super) fn standing_after(
    cx: &mut Context,
    scene: &Scene,
    reading: StandingThreats,
    material: Arithmetic,
    limits: GainLimits,
) -> ArrayVec<Move, 48> {
    match reading {
        StandingThreats::OnTheBoard => {
            standing(cx, &scene.after, Some(scene.m.to), !0, material, limits)
        }
        StandingThreats::AlreadyThere => {
            let mut all = standing(cx, &scene.after, None, !0, material, limits);
            // Whether a threat was already there is asked only of the points threatened now.
            let points = all.iter().fold(0, |m, c| m | c.to.mask());
            let there = already_there(cx, scene, points, material, limits);
            // The moved piece's captures stay out only when it is offered (献): its capture
            // wins, and taking it answers the chase rather than refuting it (2011 26.4).
            all.retain(|c| {
                there & c.to.mask() != 0
                    || (c.to == scene.m.to && capture_wins(cx, &scene.after, *c, material, limits))
            });
            all
        }
    }
}

/// Of the points `points`, those of the mover's pieces that the opponent could already win
/// before the move (before its checking move when the mover was in check): a capture that wins
/// once the mover's recapture and its way to win the capturer back by checks are counted, and
/// every piece a gain the opponent had (by a series of checks, a combination) can take. A threat
/// the move itself creates is not among them. The gain searches are made only when a point is
/// left undecided by the captures.
fn already_there(
    cx: &mut Context,
    scene: &Scene,
    points: u128,
    material: Arithmetic,
    limits: GainLimits,
) -> u128 {
    let b0 = if scene.before.is_check() {
        scene
            .suspended
            .as_ref()
            .and_then(|(p, _)| p.with_turn_passed())
    } else {
        scene.before.with_turn_passed()
    };
    let Some(b0) = b0 else {
        return 0;
    };
    let mut there = 0u128;
    for (sq, piece) in b0.board().pieces_of(!b0.turn()) {
        if piece.role == Role::King || points & sq.mask() == 0 {
            continue;
        }
        if legal_captures(&b0, sq)
            .into_iter()
            .any(|c| capture_wins(cx, &b0, c, material, limits))
        {
            there |= sq.mask();
        }
    }
    if points & !there == 0 {
        return there;
    }
    // A gain the opponent had through checks (or a combination) takes a piece when a line that
    // captures it gains: asked of each undecided point, so that of two lines worth the same the
    // one the search meets first (which goes by the board's order) decides nothing (a mirrored
    // board was ruled otherwise, kept in tests/properties.rs). One probe per such point.
    let q = Query::new(material, limits);
    if cx.gains_in_move(&b0, &q) {
        for (sq, _) in b0.board().pieces_of(!b0.turn()) {
            if points & !there & sq.mask() != 0 && cx.gains_in_move(&b0, &q.targeting(sq)) {
                there |= sq.mask();
            }
        }
    }
    there & points
}

/// The opponent's captures in `after` (it is to move) on the points of `points` that win on
/// their point, and every capture of the piece that just moved to `moved`.
fn standing(
    cx: &mut Context,
    after: &Position,
    moved: Option<Square>,
    points: u128,
    material: Arithmetic,
    limits: GainLimits,
) -> ArrayVec<Move, 48> {
    let mut out = ArrayVec::new();
    for (sq, piece) in after.board().pieces_of(!after.turn()) {
        if piece.role == Role::King || points & sq.mask() == 0 {
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
