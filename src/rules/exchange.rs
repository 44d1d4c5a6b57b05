//! Exchange evaluation on one point (static exchange with real moves): cheapest legal capturer
//! first, either side free to stop, lines, screens and legs recomputed after every capture because
//! each capture is actually played.
//!
//! The depth is bounded by the pieces on the board (at most 32 captures), so it cannot run away.

use super::ruleset::Ruleset;
use super::search::has_mate_in_one;
use super::value::{Material, capture_order};
use crate::attacks::attackers;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use arrayvec::ArrayVec;

/// Legal captures on `sq` by the side to move, cheapest capturer first.
pub fn legal_captures(pos: &Position, sq: Square) -> ArrayVec<Move, 24> {
    let mut out = ArrayVec::new();
    if pos.piece_at(sq).is_none_or(|p| p.color == pos.turn()) {
        return out;
    }
    for from in attackers(pos.board(), sq, pos.turn()) {
        let m = Move::new(from, sq);
        if pos.is_legal(m) {
            out.push(m);
        }
    }
    out.sort_by_key(|m| pos.piece_at(m.from).map_or(9, |p| capture_order(p.role)));
    out
}

/// What the side to move can still win by capturing on `sq` and going on with the exchange, where
/// it may stop at any point (so never less than zero).
fn continue_exchange(pos: &mut Position, sq: Square) -> Material {
    let Some(victim) = pos.piece_at(sq) else {
        return Material::ZERO;
    };
    let Some(&m) = legal_captures(pos, sq).first() else {
        return Material::ZERO;
    };
    let undo = pos.play_unchecked(m);
    let reply = continue_exchange(pos, sq);
    pos.undo(m, undo);
    let v = Material::of(victim, sq) - reply;
    if v.score() > 0 { v } else { Material::ZERO }
}

/// The outcome of one capture and the exchange that follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// The first capture.
    pub capture: Move,
    /// Net material for the capturing side after the complete exchange.
    pub result: Material,
    /// After the capture the opponent can mate at once (29.4, item 7): the capture gains nothing.
    pub mated_after: bool,
    /// The defender has a legal recapture that does not let the capturer mate at once.
    pub real_recapture: bool,
}

/// Plays the capture `m` on its square and evaluates the exchange from the capturer's side.
/// The defender's recaptures that would let the capturer mate at once do not count (假根).
pub fn evaluate_capture(pos: &Position, m: Move) -> Exchange {
    super::memo::exchange(pos.hash(), m, || exchange(pos, m))
}

fn exchange(pos: &Position, m: Move) -> Exchange {
    let sq = m.to;
    let victim = pos.piece_at(sq);
    let mut after = *pos;
    after.play_unchecked(m);
    let mated_after = has_mate_in_one(&after);
    let gained = victim.map_or(Material::ZERO, |v| Material::of(v, sq));
    // The defender's best recapture, skipping those that walk into mate.
    let mut best_reply = Material::ZERO;
    let mut real = false;
    if let Some(lost) = after.piece_at(sq) {
        for r in legal_captures(&after, sq) {
            let mut again = after;
            again.play_unchecked(r);
            if has_mate_in_one(&again) {
                continue;
            }
            real = true;
            let v = Material::of(lost, sq) - continue_exchange(&mut again, sq);
            if v.score() > best_reply.score() {
                best_reply = v;
            }
            // Cheapest first: the first real recapture is the one the exchange uses.
            break;
        }
    }
    Exchange {
        capture: m,
        result: gained - best_reply,
        mated_after,
        real_recapture: real,
    }
}

/// The best capture of the piece on `sq` for the side to move, and whether it gains under
/// `ruleset`. `None` if the piece cannot be captured legally.
pub fn best_capture(pos: &Position, sq: Square, ruleset: Ruleset) -> Option<(Exchange, bool)> {
    let mut best: Option<(Exchange, bool)> = None;
    for m in legal_captures(pos, sq) {
        let x = evaluate_capture(pos, m);
        let gain = !x.mated_after && x.result.is_gain(ruleset);
        let better = match &best {
            None => true,
            Some((b, bg)) => (gain, x.result.score()) > (*bg, b.result.score()),
        };
        if better {
            best = Some((x, gain));
        }
    }
    best
}
