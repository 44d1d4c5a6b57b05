//! The state one ruling's searches share, passed `&mut` to each of them (as Pikafish's `Worker`
//! owns its search history and node count): the answers remembered for the ruling, the ruling's
//! account of positions, and the account of the move under judgement.
//!
//! Three accounts nest: every position any search visits is drawn from the ruling's account
//! ([`Context::new`]); one move's net-gain searches together draw at most the move's bound
//! ([`Context::open_move`], the `*_in_move` searches); and each search has its own bound (a
//! [`Budget`], or `GainLimits::nodes`). A search stops at whichever runs out
//! first.

use super::gain::{Gain, Probe, Query, gain_above, gains, gains_above, gains_or_fork};
use super::mate::Budget;
use super::memo::Memo;
use crate::position::Position;
use std::cell::Cell;

/// What one ruling's searches share: the remembered answers and the accounts of positions.
/// Create one per ruling; its tables come from the last context dropped on this thread, so a
/// ruling allocates nothing for them.
pub struct Context {
    /// The answers remembered for this ruling.
    pub(crate) memo: Memo,
    /// The ruling's account: positions left for all its searches.
    pub(crate) left: u64,
    /// What the ruling's account was opened with.
    opened: u64,
    /// The account of the move under judgement (its net-gain searches).
    step: Account,
}

/// Where a ruling's searches stood between two of its steps (see [`Context::mark`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Mark {
    left: u64,
    step: Account,
}

/// The positions a group of searches has visited, against the group's bound.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Account {
    /// Positions visited so far.
    pub nodes: u64,
    /// The bound.
    pub max: u64,
    /// A search was cut short by its bound.
    pub exhausted: bool,
}

thread_local! {
    /// The tables of the last context dropped on this thread, for the next one.
    static SPARE: Cell<Memo> = const { Cell::new(Memo::empty()) };
}

impl Context {
    /// A ruling's context: nothing remembered, and an account of `positions` for all its
    /// searches (`u64::MAX` for none).
    pub fn new(positions: u64) -> Context {
        let mut memo = SPARE.with(|s| s.replace(Memo::empty()));
        if memo.is_allocated() {
            memo.forget();
        } else {
            memo = Memo::new(1);
        }
        Context {
            memo,
            left: positions,
            opened: positions,
            step: Account::default(),
        }
    }

    /// Positions the ruling's searches have visited so far.
    pub fn spent(&self) -> u64 {
        self.opened - self.left
    }

    /// Whether the ruling's account is spent: every search since has been cut short.
    pub fn exhausted(&self) -> bool {
        self.left == 0
    }

    /// A mark to go back to with [`Context::back_to`]: the accounts as they are, and from here
    /// on a journal of what the searches overwrite in the answers that change their counts.
    pub(crate) fn mark(&mut self) -> Mark {
        self.memo.journal();
        Mark {
            left: self.left,
            step: self.step,
        }
    }

    /// Back to `mark`, the last one taken: the accounts and the answers that change what the
    /// searches count are as they were then, so the searches from there on draw and find what
    /// they drew and found the first time (the generated moves and checks kept since are the
    /// same wherever they are found).
    pub(crate) fn back_to(&mut self, mark: Mark) {
        self.memo.roll_back();
        self.left = mark.left;
        self.step = mark.step;
    }

    /// The ruling's account opened again with `positions` in all, what was spent counted in it;
    /// no more marks kept. A ruling stopped at a [`Mark`] goes on with the whole account.
    pub(crate) fn reopen(&mut self, positions: u64) {
        let spent = self.spent();
        self.memo.end_journal();
        self.opened = positions;
        self.left = positions.saturating_sub(spent);
    }

    /// Opens the account of one move's net-gain searches, bounded by `max` positions.
    pub fn open_move(&mut self, max: u64) {
        self.step = Account {
            nodes: 0,
            max,
            exhausted: false,
        };
    }

    /// What the move's net-gain searches visited since [`Context::open_move`].
    pub fn move_account(&self) -> Account {
        self.step
    }

    /// `q` with its position bound cut to what is left of the move's.
    fn in_move(&self, q: &Query) -> Query {
        let mut q = q.clone();
        q.limits.nodes = q
            .limits
            .nodes
            .min(self.step.max.saturating_sub(self.step.nodes));
        q
    }

    /// Whether the side to move gains under `q` (a null-window search), counted in the move's
    /// account.
    pub fn gains_in_move(&mut self, pos: &Position, q: &Query) -> bool {
        let q = self.in_move(q);
        let p = gains(self, pos, &q);
        self.count(p);
        p.gains
    }

    /// Whether the side to move gains under `q`, and how: [`gains_in_move`](Self::gains_in_move)
    /// with the fork's value when the gain is a fork's.
    pub fn gaining_in_move(&mut self, pos: &Position, q: &Query) -> Gaining {
        let q = self.in_move(q);
        let (p, fork) = gains_or_fork(self, pos, &q);
        self.count(p);
        match fork {
            Some(value) => Gaining::Fork(value),
            None if p.gains => Gaining::Search,
            None => Gaining::No,
        }
    }

    /// Whether the side to move wins more than `floor` under `q`, a fork's answers left out (a
    /// null-window search), counted in the move's account.
    pub fn gains_above_in_move(&mut self, pos: &Position, q: &Query, floor: i32) -> bool {
        let q = self.in_move(q);
        let p = gains_above(self, pos, &q, floor);
        self.count(p);
        p.gains
    }

    fn count(&mut self, p: Probe) {
        self.step.nodes += p.nodes;
        self.step.exhausted |= p.exhausted;
    }

    /// The search for a gain above `floor` under `q`, counted in the move's account.
    pub fn gain_in_move(&mut self, pos: &Position, q: &Query, floor: i32) -> Gain {
        let q = self.in_move(q);
        let g = gain_above(self, pos, &q, floor);
        self.step.nodes += g.nodes;
        self.step.exhausted |= g.exhausted;
        g
    }

    /// A budget of at most `max` positions for one search counted in the move's account: what
    /// is left of the move's bound, if less (see [`Context::count_in_move`]).
    pub fn move_budget(&self, max: u64) -> Budget {
        Budget::new(max.min(self.step.max.saturating_sub(self.step.nodes)))
    }

    /// Counts a search made with a budget from [`Context::move_budget`] in the move's account.
    pub fn count_in_move(&mut self, b: &Budget) {
        self.step.nodes += b.nodes;
        self.step.exhausted |= b.exhausted;
    }
}

/// Whether a search gains, and how (see [`Context::gaining_in_move`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Gaining {
    /// No gain.
    No,
    /// A gain the search finds itself: its value is above zero.
    Search,
    /// A fork by check's gain, worth this (the value [`gain`](super::gain::gain) finds).
    Fork(i32),
}

/// Draws one position from the ruling's account `left`: false once it is spent.
#[inline]
pub(crate) fn spend(left: &mut u64) -> bool {
    let l = *left;
    *left = l.saturating_sub(1);
    l > 0
}

impl Drop for Context {
    fn drop(&mut self) {
        let memo = std::mem::replace(&mut self.memo, Memo::empty());
        SPARE.with(|s| s.set(memo));
    }
}
