//! Bounded searches by checks: mate in one, forced mate by a series of checks (杀), and the
//! helpers they share. Every search counts its nodes against a budget.

use crate::attacks::gives_check;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Entries of the table that remembers solved defender nodes within one search.
const TABLE_SIZE: usize = 1 << 8;

/// Remembers, per position, the plies within which it is known mated or known not mated, so the
/// many transpositions of a checking sequence are solved once.
struct Table {
    entries: Vec<(u64, u32, bool)>,
}

impl Table {
    fn new() -> Table {
        Table {
            entries: vec![(0, 0, false); TABLE_SIZE],
        }
    }

    #[inline]
    fn probe(&self, hash: u64, plies: u32) -> Option<bool> {
        let (h, p, mated) = self.entries[(hash as usize) & (TABLE_SIZE - 1)];
        if h != hash || hash == 0 {
            return None;
        }
        // Mated within p plies means mated within more; not mated within p means not within fewer.
        if mated && p <= plies {
            Some(true)
        } else if !mated && p >= plies {
            Some(false)
        } else {
            None
        }
    }

    #[inline]
    fn store(&mut self, hash: u64, plies: u32, mated: bool) {
        self.entries[(hash as usize) & (TABLE_SIZE - 1)] = (hash, plies, mated);
    }
}

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

/// The legal moves of the side to move that check the enemy king.
pub fn checking_moves(pos: &Position) -> MoveList {
    let us = pos.turn();
    let mut out = MoveList::new();
    movegen::checks(pos.board(), us, pos.king(us), pos.king(!us), &mut out);
    out
}

/// Whether the side to move can mate at once: a move after which the opponent has no legal move
/// (checkmate, or 困毙 which also loses).
pub fn has_mate_in_one(pos: &Position) -> bool {
    super::memo::mate_in_one(pos.hash(), || mate_in_one(pos))
}

fn mate_in_one(pos: &Position) -> bool {
    // A quiet move rarely stalemates; it is only tried when the defender has little left (a
    // capture may take one more away).
    let quiet_too = pos.board().pieces_of(!pos.turn()).count() <= 4;
    let moves = if quiet_too {
        pos.legal_moves()
    } else {
        checking_moves(pos)
    };
    let king = pos.king(!pos.turn());
    let mut p = *pos;
    for m in moves {
        let check = !quiet_too || gives_check(pos.board(), m.from, m.to, king);
        let undo = p.play_unchecked(m);
        let mated = (check || few_pieces(&p)) && !p.has_legal_move();
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
    if checking_moves(pos).is_empty() {
        return None;
    }
    let mut depth = 1;
    let mut table = Table::new();
    while depth <= plies {
        let mut p = *pos;
        if let Some(m) = mate_root(&mut p, depth, budget, &mut table) {
            return Some(m);
        }
        if budget.exhausted {
            return None;
        }
        depth += 2;
    }
    None
}

fn mate_root(
    pos: &mut Position,
    plies: u32,
    budget: &mut Budget,
    table: &mut Table,
) -> Option<Move> {
    for m in checking_moves(pos) {
        let undo = pos.play_unchecked(m);
        let found = defender_is_mated(pos, plies - 1, budget, table);
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
fn defender_is_mated(
    pos: &mut Position,
    plies: u32,
    budget: &mut Budget,
    table: &mut Table,
) -> bool {
    if let Some(known) = table.probe(pos.hash(), plies) {
        return known;
    }
    if !budget.tick() {
        return false;
    }
    let mated = if plies < 2 {
        // No time left for another check: mated only if there is no reply at all.
        !pos.has_legal_move()
    } else {
        every_reply_mated(pos, plies, budget, table)
    };
    // An answer cut short by the budget is not stored.
    if !budget.exhausted {
        table.store(pos.hash(), plies, mated);
    }
    mated
}

/// Whether every reply of the defender (to move, `plies` ≥ 2 left) runs into mate; true when it
/// has none.
fn every_reply_mated(
    pos: &mut Position,
    plies: u32,
    budget: &mut Budget,
    table: &mut Table,
) -> bool {
    for r in pos.legal_moves() {
        let undo = pos.play_unchecked(r);
        let mated = attacker_mates(pos, plies - 1, budget, table);
        pos.undo(r, undo);
        if !mated {
            return false;
        }
    }
    true
}

/// The attacker is to move: does some check lead to mate within `plies` plies?
fn attacker_mates(pos: &mut Position, plies: u32, budget: &mut Budget, table: &mut Table) -> bool {
    if !budget.tick() {
        return false;
    }
    for m in checking_moves(pos) {
        let undo = pos.play_unchecked(m);
        let found = defender_is_mated(pos, plies - 1, budget, table);
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
