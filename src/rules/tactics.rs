//! Material won by a series of checks (连续照将得子), discovered and forking checks (抽吃)
//! included: the mover checks, every reply is tried, and at the end it captures with gain.
//! Bounded in plies and nodes.

use super::protection::winnable;
use super::ruleset::Ruleset;
use super::search::{Budget, checking_moves};
use super::value::Material;
use crate::color::Color;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;

/// A line's outcome: net material for the checking side and the piece it wins at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    /// Net material.
    pub material: Material,
    /// The piece captured at the end of the line, if any.
    pub won: Option<(Square, Piece)>,
    /// The line's first move (the first check), if it starts with one.
    pub first: Option<crate::moves::Move>,
}

/// The best direct capture for the side to move over every enemy piece.
pub fn best_direct(pos: &Position, ruleset: Ruleset, budget: &mut Budget) -> Line {
    let mut best = Line {
        material: Material::ZERO,
        won: None,
        first: None,
    };
    let them: Color = !pos.turn();
    for (sq, piece) in pos.board().pieces_of(them) {
        if !budget.tick() {
            break;
        }
        // An exchange never wins more than the piece taken first, and the king is never taken.
        if piece.role == Role::King || Material::of(piece, sq).score() <= best.material.score() {
            continue;
        }
        if let Some(m) = winnable(pos, sq, ruleset)
            && m.score() > best.material.score()
        {
            best = Line {
                material: m,
                won: Some((sq, piece)),
                first: None,
            };
        }
    }
    best
}

/// What the side to move can force by starting with a check and going on checking for at most
/// `plies` plies, then capturing. `None` if it has no check or every line fails.
pub fn gain_by_checks(
    pos: &Position,
    plies: u32,
    ruleset: Ruleset,
    budget: &mut Budget,
) -> Option<Line> {
    let mut p = *pos;
    attacker(&mut p, plies, ruleset, budget)
}

fn attacker(pos: &mut Position, plies: u32, ruleset: Ruleset, budget: &mut Budget) -> Option<Line> {
    if plies < 3 || !budget.tick() {
        return None;
    }
    let mut best: Option<Line> = None;
    for c in checking_moves(pos) {
        let victim = pos.piece_at(c.to).map(|v| Material::of(v, c.to));
        let undo = pos.play_unchecked(c);
        let line = defender(pos, plies - 1, ruleset, budget);
        pos.undo(c, undo);
        if let Some(mut l) = line {
            l.material = l.material + victim.unwrap_or(Material::ZERO);
            l.first = Some(c);
            if best.is_none_or(|b| l.material.score() > b.material.score()) {
                best = Some(l);
            }
        }
        if budget.exhausted {
            break;
        }
    }
    best
}

/// The defender answers a check; the line is worth its worst reply for the checker.
fn defender(pos: &mut Position, plies: u32, ruleset: Ruleset, budget: &mut Budget) -> Option<Line> {
    if !budget.tick() {
        return None;
    }
    let replies = pos.legal_moves();
    if replies.is_empty() {
        // Mate is the mate-threat search's business, not a material gain.
        return None;
    }
    let mut worst: Option<Line> = None;
    for r in replies {
        let lost = pos
            .piece_at(r.to)
            .map_or(Material::ZERO, |v| Material::of(v, r.to));
        let undo = pos.play_unchecked(r);
        let mut cont = best_direct(pos, ruleset, budget);
        if let Some(deeper) = attacker(pos, plies - 1, ruleset, budget)
            && deeper.material.score() > cont.material.score()
        {
            cont = deeper;
        }
        pos.undo(r, undo);
        let line = Line {
            material: cont.material - lost,
            won: cont.won,
            first: None,
        };
        if worst.is_none_or(|w| line.material.score() < w.material.score()) {
            worst = Some(line);
        }
        if budget.exhausted {
            return None;
        }
    }
    worst
}
