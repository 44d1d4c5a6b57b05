//! Forced mate by a series of checks (连续照将将死, the test behind 杀, false roots and "mated at
//! once"), and the helpers the searches share. Every search counts its positions against a
//! budget and the ruling's account; what one search proves about a position (mated within so
//! many plies, or not) is remembered for the rest of the ruling (in its [`Context`]).

use super::context::{Context, spend};
use super::memo::{Known, Memo};
use crate::movegen;
use crate::moves::{Move, MoveList};
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

    /// Counts one node; false once the budget, or the ruling's account (`left`), is spent.
    #[inline]
    pub(crate) fn tick(&mut self, left: &mut u64) -> bool {
        if self.nodes >= self.max_nodes || !spend(left) {
            self.exhausted = true;
            return false;
        }
        self.nodes += 1;
        true
    }
}

/// The legal moves of the side to move that check the enemy king.
pub fn checking_moves(pos: &Position) -> MoveList {
    let mut out = MoveList::new();
    push_checks(pos, &mut out);
    out
}

/// Appends the legal moves of the side to move that check the enemy king to `out` (the searches'
/// hot paths fill their own list rather than copy one back).
#[inline]
pub fn push_checks(pos: &Position, out: &mut MoveList) {
    let us = pos.turn();
    movegen::checks(pos.board(), us, pos.king(us), pos.king(!us), out);
}

/// As [`push_checks`], remembered for the ruling in `memo`: the gain searches look for quiet
/// checks, and the mate searches start from, the same positions again and again.
pub(crate) fn remembered_checks(memo: &mut Memo, pos: &Position, out: &mut MoveList) {
    if memo.checks(pos.hash(), out) {
        return;
    }
    push_checks(pos, out);
    memo.set_checks(pos.hash(), out);
}

/// Whether the side to move forces mate within `plies` plies with every one of its moves a check
/// (a series of checks, 连续照将), every defence tried, searched at the full depth at once;
/// stops when `budget` is spent (then the answer is "no mate found").
pub fn mate_by_checks(
    cx: &mut Context,
    pos: &Position,
    plies: u32,
    budget: &mut Budget,
) -> Option<Move> {
    mate_avoiding(cx, pos, plies, budget, 0)
}

/// As [`mate_by_checks`], the attacker never capturing a piece now on one of the points of
/// `forbid` (a mask of point indices) while it stands there (a mate that rests on taking an
/// offered piece where it is offered is not counted, 2011 26.9; once the piece moves, taking it
/// is allowed). The answer is remembered for the rest of
/// the ruling: the gain searches ask it of the same positions again and again. A search that ran
/// out of room answers "cut" to every later one with no more room (its budget is then marked
/// exhausted too), rather than spending the same positions again.
pub fn mate_avoiding(
    cx: &mut Context,
    pos: &Position,
    plies: u32,
    budget: &mut Budget,
    forbid: u128,
) -> Option<Move> {
    let key = pos.hash() ^ forbid_key(forbid) ^ ROOT_KEY;
    let room = budget.max_nodes.saturating_sub(budget.nodes);
    match cx.memo.root_mate(key, plies, room) {
        Some(Known::Mate(m)) => return Some(m),
        Some(Known::NoMate) => return None,
        Some(Known::Cut) => {
            budget.exhausted = true;
            return None;
        }
        None => {}
    }
    let found = search_mate(pos, plies, forbid, &mut Mater::new(cx, budget));
    let cut = found.is_none() && budget.exhausted;
    cx.memo.set_root_mate(key, plies, room, found, cut);
    found
}

/// Whether the check `m` of the side to move in `pos` begins a forced mate by checks within
/// `plies` plies (every defence tried, the attacker never taking a piece on `forbid` where it
/// stands); false when `m` is not a legal check there. Which mating first moves a reply to a
/// check leaves (2011 24.18, 26.3) is asked one first move at a time; what is proven is
/// remembered for the ruling as in [`mate_avoiding`].
pub fn mates_first(
    cx: &mut Context,
    pos: &Position,
    m: Move,
    plies: u32,
    budget: &mut Budget,
    forbid: u128,
) -> bool {
    if plies == 0 || forbid & m.to.mask() != 0 {
        return false;
    }
    let mut s = Mater::new(cx, budget);
    let mut checks = MoveList::new();
    remembered_checks(s.memo, pos, &mut checks);
    if !checks.contains(&m) {
        return false;
    }
    let mut p = *pos;
    p.play_unchecked(m);
    defender_is_mated(&mut p, m, plies - 1, forbid, &mut s)
}

/// One mate search under way: its budget, the ruling's account and what the ruling remembers
/// (the results proven so far, the checks generated).
struct Mater<'a> {
    budget: &'a mut Budget,
    left: &'a mut u64,
    memo: &'a mut Memo,
}

impl<'a> Mater<'a> {
    fn new(cx: &'a mut Context, budget: &'a mut Budget) -> Mater<'a> {
        let Context { memo, left, .. } = cx;
        Mater { budget, left, memo }
    }

    /// Counts one position; false once the search's budget or the ruling's account is spent.
    #[inline]
    fn tick(&mut self) -> bool {
        self.budget.tick(self.left)
    }

    fn exhausted(&self) -> bool {
        self.budget.exhausted
    }
}

/// Keeps the whole searches' answers apart from the defender's positions in the same table keys.
const ROOT_KEY: u64 = 0x9E37_79B9_7F4A_7C15;

fn search_mate(pos: &Position, plies: u32, forbid: u128, s: &mut Mater) -> Option<Move> {
    // The root's checks are generated once for every depth.
    let mut checks = MoveList::new();
    remembered_checks(s.memo, pos, &mut checks);
    if checks.is_empty() {
        return None;
    }
    if plies == 0 {
        return None;
    }
    // Straight to the full depth: a mate in one is found there too, and searching it first
    // (tried before) costs a position a check when, as usual, there is no mate.
    mate_root(&mut pos.clone(), &checks, plies, forbid, s)
}

fn mate_root(
    pos: &mut Position,
    checks: &MoveList,
    plies: u32,
    forbid: u128,
    s: &mut Mater,
) -> Option<Move> {
    for &m in checks {
        if forbid & m.to.mask() != 0 {
            continue;
        }
        let undo = pos.play_unchecked(m);
        let found = defender_is_mated(pos, m, plies - 1, forbid, s);
        pos.undo(m, undo);
        if found {
            return Some(m);
        }
        if s.exhausted() {
            return None;
        }
    }
    None
}

/// The defender is to move after the attacker's `check`: is it mated now or within `plies` more
/// plies?
fn defender_is_mated(
    pos: &mut Position,
    check: Move,
    plies: u32,
    forbid: u128,
    s: &mut Mater,
) -> bool {
    let key = pos.hash() ^ forbid_key(forbid);
    if let Some(known) = s.memo.proven().mated_within(key, plies) {
        return known;
    }
    if !s.tick() {
        return false;
    }
    let mated = if plies < 2 {
        // No time left for another check: mated only if there is no reply at all.
        !pos.has_legal_move()
    } else {
        every_reply_mated(pos, check, plies, forbid, s)
    };
    // An answer cut short by the budget is not stored.
    if !s.exhausted() {
        s.memo.proven().set_mated_within(key, plies, mated);
    }
    mated
}

/// Keeps the remembered answers of searches that avoid pieces apart from the plain ones (and
/// from each other's).
fn forbid_key(forbid: u128) -> u64 {
    let (lo, hi) = (forbid as u64, (forbid >> 64) as u64);
    lo.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ hi.wrapping_mul(0xA076_1D64_78BD_642F).rotate_left(29)
}

/// Whether every reply of the defender (to move, `plies` ≥ 2 left) runs into mate; true when it
/// has none.
fn every_reply_mated(
    pos: &mut Position,
    check: Move,
    plies: u32,
    forbid: u128,
    s: &mut Mater,
) -> bool {
    // The replies are generated as they are tried, the captures of the checking piece first
    // (the likeliest to hold, and the first that holds ends the test): 9 % fewer positions over
    // the corpus than the generator's plain order. Before them, the reply that last escaped a
    // check to the same point with as many plies left in this ruling, if legal here (the same
    // defence usually holds again: 图9 37.1 M → 33.2 M instructions, the corpus −2 %); the
    // order changes no answer, only the positions.
    let slot = (plies, check.to);
    let killer = s.memo.escape(slot).filter(|&k| pos.is_legal(k));
    let reply = |pos: &mut Position, r: Move, s: &mut Mater| {
        // Once the avoided piece moves (say, to block a check), taking it no longer takes the
        // piece offered where it was offered.
        let forbid = forbid & !r.from.mask();
        let undo = pos.play_unchecked(r);
        let mated = attacker_mates(pos, plies - 1, forbid, s);
        pos.undo(r, undo);
        if !mated {
            s.memo.set_escape(slot, r);
        }
        !mated
    };
    if let Some(k) = killer
        && (reply(pos, k, s) || s.exhausted())
    {
        return false;
    }
    let board = *pos.board();
    let us = pos.turn();
    let escapes = movegen::find_evasion(&board, us, pos.king(us), |r| {
        Some(r) != killer && reply(pos, r, s)
    });
    !escapes
}

/// The attacker is to move: does some check lead to mate within `plies` plies?
fn attacker_mates(pos: &mut Position, plies: u32, forbid: u128, s: &mut Mater) -> bool {
    // The attacker's positions are remembered as the defender's are, under their own keys.
    let key = pos.hash() ^ forbid_key(forbid) ^ ATTACKER_KEY;
    if let Some(known) = s.memo.proven().mated_within(key, plies) {
        return known;
    }
    if !s.tick() {
        return false;
    }
    let mut found = false;
    let mut checks = MoveList::new();
    remembered_checks(s.memo, pos, &mut checks);
    for &m in &checks {
        if forbid & m.to.mask() != 0 {
            continue;
        }
        let undo = pos.play_unchecked(m);
        found = defender_is_mated(pos, m, plies - 1, forbid, s);
        pos.undo(m, undo);
        if found || s.exhausted() {
            break;
        }
    }
    // An answer cut short by the budget is not stored.
    if found || !s.exhausted() {
        s.memo.proven().set_mated_within(key, plies, found);
    }
    found
}

/// Keeps the attacker's positions apart from the defender's in the table of proven results.
const ATTACKER_KEY: u64 = 0xC2B2_AE3D_27D4_EB4F;

/// The mating line behind a mate by checks found by [`mate_by_checks`] in `pos` within `plies`
/// plies: the attacker's checks and, at each defender's turn, the reply that holds out longest.
/// Reads the results the search stored for this ruling, re-searching (within `budget`) what was
/// not stored; empty when no mate is found.
pub fn mate_line(cx: &mut Context, pos: &Position, plies: u32, budget: &mut Budget) -> Vec<Move> {
    line_of_mate(pos, plies, None, &mut Mater::new(cx, budget))
}

/// As [`mate_line`], the line beginning with the check `first` (a mate [`mates_first`] found);
/// empty when no mate begins with it.
pub fn mate_line_from(
    cx: &mut Context,
    pos: &Position,
    first: Move,
    plies: u32,
    budget: &mut Budget,
) -> Vec<Move> {
    line_of_mate(pos, plies, Some(first), &mut Mater::new(cx, budget))
}

fn line_of_mate(pos: &Position, plies: u32, first: Option<Move>, s: &mut Mater) -> Vec<Move> {
    let mut line = Vec::new();
    let mut p = *pos;
    let mut left = plies;
    let mut first = first;
    loop {
        // The attacker: the first check (the given one, at the start) after which the defender
        // is mated within the plies left.
        let given = first.take();
        let Some(m) = checking_moves(&p).into_iter().find(|&m| {
            given.is_none_or(|f| f == m) && {
                let mut q = p;
                q.play_unchecked(m);
                defender_is_mated(&mut q, m, left - 1, 0, s)
            }
        }) else {
            return Vec::new();
        };
        line.push(m);
        p.play_unchecked(m);
        left -= 1;
        let replies = p.legal_moves();
        if replies.is_empty() {
            return line;
        }
        // The defender: the reply that needs the most plies to mate.
        let mut best: Option<(u32, Move)> = None;
        for r in replies {
            let mut q = p;
            q.play_unchecked(r);
            let need = (1..left)
                .step_by(2)
                .find(|&k| attacker_mates(&mut q, k, 0, s));
            let Some(need) = need else {
                return Vec::new();
            };
            if best.is_none_or(|(n, _)| need > n) {
                best = Some((need, r));
            }
        }
        let Some((need, r)) = best else {
            return line;
        };
        line.push(r);
        p.play_unchecked(r);
        left = need;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(pos: &Position, iccs: &str) -> Move {
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string() == iccs);
        m.unwrap_or_else(|| panic!("{iccs} is not legal"))
    }

    /// The red rook has left the f-file to check on the d-file and black has blocked:
    /// 车９平６ (i5f5) mates at once, the pawn e1 boxing the king in.
    #[test]
    fn mates_first_asks_one_first_move() {
        let again = Position::from_fen("3k5/4a4/3c5/3R5/8r/9/9/9/4p4/5KB2 b").unwrap();
        let mut cx = Context::new(1_000_000);
        let mut budget = Budget::new(20_000);
        let mate = find(&again, "i5f5");
        assert!(mates_first(&mut cx, &again, mate, 13, &mut budget, 0));
        // A check that does not mate (the king takes the pawn), a move that is no check, and
        // the mate when its point is barred (`forbid`).
        assert!(!mates_first(
            &mut cx,
            &again,
            find(&again, "e1e0"),
            13,
            &mut budget,
            0
        ));
        assert!(!mates_first(
            &mut cx,
            &again,
            find(&again, "i5i4"),
            13,
            &mut budget,
            0
        ));
        let f5 = mate.to.mask();
        assert!(!mates_first(&mut cx, &again, mate, 13, &mut budget, f5));
        assert!(!budget.exhausted);
        // With the rook back on f6 it takes on f5: no mate.
        let before = Position::from_fen("3k5/4a4/3c5/5R3/8r/9/9/9/4p4/5KB2 b").unwrap();
        assert!(!mates_first(&mut cx, &before, mate, 13, &mut budget, 0));
        assert_eq!(
            mate_line_from(&mut cx, &again, mate, 13, &mut budget),
            vec![mate]
        );
    }
}
