//! Protection (根) of attacked pieces: 有根 / 无根 / 假根 / 少根 / 暗根, from the attack/defence
//! graph and the exchange evaluation (28.16; SPEC §4).

use super::exchange::{Exchange, evaluate_capture, legal_captures};
use super::graph::{AttackGraph, Relation};
use super::kinds::Protection;
use super::report::Defender;
use super::ruleset::Ruleset;
use super::search::has_mate_in_one;
use super::value::Material;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// An enemy piece the side to move can capture, judged.
#[derive(Clone, Debug)]
pub struct Assessment {
    /// The attacked point.
    pub square: Square,
    /// Every legal first capture with its exchange, cheapest capturer first.
    pub captures: Vec<Exchange>,
    /// The defenders from the graph, each marked real or not.
    pub defenders: Vec<Defender>,
    /// The protection.
    pub protection: Protection,
    /// The best first capture and its result (the one the protection is judged by).
    pub best: Exchange,
    /// Whether `best` gains under the profile.
    pub gains: bool,
}

impl Assessment {
    /// The mover's pieces that can capture legally.
    pub fn attackers(&self) -> Vec<Square> {
        self.captures.iter().map(|x| x.capture.from).collect()
    }
}

/// Judges the enemy piece on `sq`, attacked by the side to move of `pos`. `None` when the side to
/// move has no legal capture of it.
pub fn assess(
    pos: &Position,
    graph: &AttackGraph,
    sq: Square,
    ruleset: Ruleset,
) -> Option<Assessment> {
    let captures: Vec<Exchange> = legal_captures(pos, sq)
        .into_iter()
        .map(|m| evaluate_capture(pos, m))
        .collect();
    let gains = |x: &Exchange| !x.mated_after && x.result.is_gain(ruleset);
    let best = *captures.iter().max_by_key(|x| {
        (
            gains(x),
            x.result.score(),
            std::cmp::Reverse(x.capture.from.index()),
        )
    })?;
    let best_gains = gains(&best);
    let defenders = defenders(pos, graph, best.capture);
    let protection = if defenders.is_empty() {
        Protection::Unprotected
    } else if !best.real_recapture {
        Protection::FalseRoot
    } else if best_gains {
        Protection::InsufficientRoot
    } else if defenders.iter().filter(|d| d.real).all(|d| d.hidden) {
        Protection::HiddenRoot
    } else {
        Protection::Protected
    };
    Some(Assessment {
        square: sq,
        captures,
        defenders,
        protection,
        best,
        gains: best_gains,
    })
}

/// The defenders of the piece that `capture` takes: direct and hidden ones from the graph, plus
/// those the capture itself uncovers; `real` when the recapture is legal and does not let the
/// capturer mate at once.
fn defenders(pos: &Position, graph: &AttackGraph, capture: Move) -> Vec<Defender> {
    let sq = capture.to;
    let mut after = *pos;
    after.play_unchecked(capture);
    let real: Vec<Square> = legal_captures(&after, sq)
        .into_iter()
        .filter(|r| {
            let mut again = after;
            again.play_unchecked(*r);
            !has_mate_in_one(&again)
        })
        .map(|r| r.from)
        .collect();
    let mut out: Vec<Defender> = Vec::new();
    for e in graph.into_square(sq, Relation::Defends) {
        if let Some(piece) = pos.piece_at(e.from) {
            out.push(Defender {
                square: e.from,
                piece,
                hidden: e.hidden,
                real: real.contains(&e.from),
            });
        }
    }
    // A recapture the graph did not foresee (this capture opened the way): hidden protection.
    for from in crate::attacks::attackers(after.board(), sq, after.turn()) {
        if out.iter().any(|d| d.square == from) {
            continue;
        }
        if let Some(piece) = pos.piece_at(from) {
            out.push(Defender {
                square: from,
                piece,
                hidden: true,
                real: real.contains(&from),
            });
        }
    }
    out.sort_by_key(|d| d.square);
    out
}

/// The material the side to move would win on `sq`, if any: its best capture's result when that
/// gains under the profile.
pub fn winnable(pos: &Position, sq: Square, ruleset: Ruleset) -> Option<Material> {
    legal_captures(pos, sq)
        .into_iter()
        .map(|m| evaluate_capture(pos, m))
        .filter(|x| !x.mated_after && x.result.is_gain(ruleset))
        .map(|x| x.result)
        .max_by_key(|r| r.score())
}
