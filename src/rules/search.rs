//! Bounded searches by checks: mate in one, forced mate by a series of checks (杀), and the
//! helpers they share. Every search counts its nodes against a budget.

use crate::moves::Move;
use crate::position::Position;

/// A node budget shared by one search.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Positions visited so far.
    pub nodes: u64,
    /// Most positions allowed.
    pub max_nodes: u64,
    /// Set when the budget ran out before the search finished.
    pub exhausted: bool,
}

impl Budget {
    /// A budget of `max_nodes` positions.
    pub fn new(max_nodes: u64) -> Budget {
        Budget {
            nodes: 0,
            max_nodes,
            exhausted: false,
        }
    }

    /// Counts one node; false once the budget is spent.
    #[inline]
    pub fn tick(&mut self) -> bool {
        if self.nodes >= self.max_nodes {
            self.exhausted = true;
            return false;
        }
        self.nodes += 1;
        true
    }
}

/// Whether the side to move can mate at once: a move after which the opponent has no legal move
/// (checkmate, or 困毙 which also loses).
pub fn has_mate_in_one(pos: &Position) -> bool {
    let mut p = *pos;
    for m in pos.legal_moves() {
        let undo = p.play_unchecked(m);
        // A quiet move rarely stalemates; only test it when the defender has little left.
        let mated = (p.is_check() || few_pieces(&p)) && !p.has_legal_move();
        p.undo(m, undo);
        if mated {
            return true;
        }
    }
    false
}

fn few_pieces(pos: &Position) -> bool {
    pos.board().pieces_of(pos.turn()).count() <= 3
}

/// Whether the side to move forces mate within `plies` plies with every one of its moves a check
/// (a series of checks, 连续照将), every defence tried. Iterative deepening; stops when `budget`
/// is spent (then the answer is "no mate found").
pub fn mate_by_checks(pos: &Position, plies: u32, budget: &mut Budget) -> Option<Move> {
    let mut depth = 1;
    while depth <= plies {
        let mut p = *pos;
        if let Some(m) = mate_root(&mut p, depth, budget) {
            return Some(m);
        }
        if budget.exhausted {
            return None;
        }
        depth += 2;
    }
    None
}

fn mate_root(pos: &mut Position, plies: u32, budget: &mut Budget) -> Option<Move> {
    for m in pos.legal_moves() {
        let undo = pos.play_unchecked(m);
        let found = pos.is_check() && defender_is_mated(pos, plies - 1, budget);
        pos.undo(m, undo);
        if found {
            return Some(m);
        }
        if budget.exhausted {
            return None;
        }
    }
    None
}

/// The defender is to move after a check: is it mated now or within `plies` more plies?
fn defender_is_mated(pos: &mut Position, plies: u32, budget: &mut Budget) -> bool {
    if !budget.tick() {
        return false;
    }
    let replies = pos.legal_moves();
    if replies.is_empty() {
        return true;
    }
    if plies < 2 {
        return false;
    }
    for r in replies {
        let undo = pos.play_unchecked(r);
        let mated = attacker_mates(pos, plies - 1, budget);
        pos.undo(r, undo);
        if !mated {
            return false;
        }
    }
    true
}

/// The attacker is to move: does some check lead to mate within `plies` plies?
fn attacker_mates(pos: &mut Position, plies: u32, budget: &mut Budget) -> bool {
    if !budget.tick() {
        return false;
    }
    for m in pos.legal_moves() {
        let undo = pos.play_unchecked(m);
        let found = pos.is_check() && defender_is_mated(pos, plies - 1, budget);
        pos.undo(m, undo);
        if found {
            return true;
        }
        if budget.exhausted {
            return false;
        }
    }
    false
}
