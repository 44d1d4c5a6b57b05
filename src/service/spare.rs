//! The searches' tables (备用表, a ruling's remembered answers: about 1.1 MB) kept between
//! rulings across the server's threads.
//!
//! A ruling takes its tables from the last [`Context`] dropped on its thread and leaves them there
//! for the next one, so a thread that rules allocates them once. A ruling the cheap path stops
//! ([`super::quick`]) breaks that: its context goes to the pool with it, so the async worker's
//! next ruling allocates and zeroes a fresh set (new pages: page faults), and the pool thread
//! that finishes it frees the set it had when the travelling one replaces it (and the heap trims
//! its top: `madvise`). About one corpus call in six paid both (BENCHMARKS.md, eleventh
//! session). Here the pool thread hands the travelling set on instead ([`Spares::keep`]), and
//! the worker whose set just left takes it ([`Spares::refill`]): in a steady state no ruling
//! allocates its tables. The sets are forgotten (a new generation) before each ruling as
//! always, so no request is answered from another's work.

use crate::rules::Context;
use std::sync::Mutex;

/// Sets of tables waiting for a thread whose own set left with a stopped ruling.
pub(super) struct Spares {
    /// Each set in the context that carries it.
    stash: Mutex<Vec<Context>>,
    /// Most sets kept (one a pool thread: as many rulings as can be finished at once).
    max: usize,
}

impl std::fmt::Debug for Spares {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spares")
            .field("kept", &self.stash.lock().map_or(0, |s| s.len()))
            .field("max", &self.max)
            .finish()
    }
}

impl Spares {
    /// Room for `max` sets (at least one).
    pub(super) fn new(max: usize) -> Spares {
        Spares {
            stash: Mutex::new(Vec::new()),
            max: max.max(1),
        }
    }

    /// On a thread that has just finished a stopped ruling (whose context, dropped here, left
    /// its tables on this thread): puts those tables in the stash, unless it is full.
    pub(super) fn keep(&self) {
        // A context takes this thread's tables: the ones the finished ruling left.
        let taken = Context::new(0);
        if let Ok(mut stash) = self.stash.lock()
            && stash.len() < self.max
        {
            stash.push(taken);
        }
        // Else `taken`, dropped here, leaves the tables to this thread again.
    }

    /// On a thread whose tables have just left with a stopped ruling: gives it a kept set, if
    /// any (else its next ruling allocates one, as it would have).
    pub(super) fn refill(&self) {
        let kept = self.stash.lock().ok().and_then(|mut s| s.pop());
        // Dropped here, the context leaves its tables to this thread's next ruling.
        drop(kept);
    }

    /// Sets waiting in the stash.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.stash.lock().map_or(0, |s| s.len())
    }
}
