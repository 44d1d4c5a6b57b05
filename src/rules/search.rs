//! Bounded searches by checks: mate in one, forced mate by a series of checks (杀), and the
//! helpers they share. Every search counts its nodes against a budget.

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::square::Square;

/// Entries of the table that remembers solved defender nodes within one search.
const TABLE_SIZE: usize = 1 << 10;

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

/// Whether `m` could possibly give check to the king on `king`: it lands on or leaves the king's file
/// or rank (lines, screens, pawns), lands where a horse checks, or leaves a horse leg. A cheap filter
/// before playing the move.
#[inline]
fn may_check(king: Square, m: Move) -> bool {
    let line = |sq: Square| {
        sq.file() == king.file()
            || sq.rank() == king.rank()
            || (sq.file().abs_diff(king.file()) == 1 && sq.rank().abs_diff(king.rank()) == 1)
    };
    let (df, dr) = (
        m.to.file().abs_diff(king.file()),
        m.to.rank().abs_diff(king.rank()),
    );
    line(m.from) || line(m.to) || (df, dr) == (1, 2) || (df, dr) == (2, 1)
}

/// The legal moves of the side to move that check the enemy king.
pub fn checking_moves(pos: &Position) -> MoveList {
    let king = pos.king(!pos.turn());
    let mut p = *pos;
    let mut out = MoveList::new();
    for m in pos.legal_moves() {
        if !may_check(king, m) {
            continue;
        }
        let undo = p.play_unchecked(m);
        if p.is_check() {
            out.push(m);
        }
        p.undo(m, undo);
    }
    out
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
    let replies = pos.legal_moves();
    let mut mated = true;
    if !replies.is_empty() {
        mated = plies >= 2;
        for r in replies {
            if !mated {
                break;
            }
            let undo = pos.play_unchecked(r);
            mated = attacker_mates(pos, plies - 1, budget, table);
            pos.undo(r, undo);
        }
    }
    // An answer cut short by the budget is not stored.
    if !budget.exhausted {
        table.store(pos.hash(), plies, mated);
    }
    mated
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
