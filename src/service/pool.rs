//! The work pool: every piece of work a request causes — a ruling (unary or streamed), an
//! analysis, reading an uploaded record, rendering the HTML sheet — runs here, on
//! `--max-concurrent` threads of its own, under the call's deadline, not on the async workers;
//! except a ruling whose whole work is provably small (the cheap path, [`super::quick`]).
//!
//! Why a pool of its own, and not tokio's blocking pool or in-line work: the async workers carry
//! every connection (HTTP/2 framing, timers, health checks), so a ruling there (up to 80 000
//! positions, about 16 ms) holds up every call behind it: unary deadlines did not hold beside
//! streams (issue 23.5). A ruling cut short by a small budget is a different ruling; but one
//! that ends within a budget that is a prefix of the real one is the real ruling, so the cheap
//! path makes rulings in-line under 3 200 positions and sends here only those that need more,
//! stopped at the step that spent them, to be finished here (at most those 3 200 searched
//! twice). The hand-off costs few instructions (a few thousand a call under
//! callgrind) but wakes a pool thread and then the waiting worker: kernel time that callgrind
//! does not count and `/proc` does (BENCHMARKS.md).
//! `spawn_blocking` keeps the workers free but costs a task allocation, a join handle and the
//! blocking pool's bookkeeping for each call, and a permit taken before it was a second hand-off.
//! Here one bounded queue is both the permit and the hand-off: a call puts a boxed closure on it
//! (one lock, one condvar signal; no task, no join handle), a pool thread takes it, and the answer
//! comes back through a oneshot. Rulings (bounded by their search budget) are taken before bulk
//! work (records, sheets: as long as the input is large), and bulk work may hold at most all
//! threads but one, so uploads cannot starve rulings (issue 23.2). The queue's bound
//! (`--max-queue`) is what "saturated" means: a call that finds it full is answered
//! RESOURCE_EXHAUSTED at once; a call whose deadline passes while queued is answered
//! DEADLINE_EXCEEDED and its work is skipped when a thread gets to it. BENCHMARKS.md ("Load") has
//! the CPU per call of this hand-off and of the blocking pool measured side by side.
//!
//! The pool's threads run at the async workers' priority (niceness 0). They ran at niceness 4
//! while every ruling came here; with the cheap path the workers make most rulings themselves,
//! so a lower priority left the long rulings last in line whenever the cores were busy: corpus
//! p99 at 64 in flight 93–192 ms, at equal priority 32–46 ms (BENCHMARKS.md, sixth session).
//!
//! # Using it from a handler (a new streaming RPC in a few lines)
//! ```ignore
//! // Unary: the call's deadline (the server's, or the client's `grpc-timeout` if shorter).
//! let deadline = service.deadline_of(start, &request);
//! let answer = service.pool().run(start, deadline, move || work(&input)).await?;
//!
//! // Streamed: `intake` reads the requests as they come (bounded, and it ends when the server
//! // drains: see `QiliService::begin_drain`), the pool rules them a window at a time, answers in
//! // request order; the stream then ends with OK.
//! let answers = service
//!     .intake(request.into_inner())
//!     .map(move |taken| {
//!         let service = service.clone();
//!         async move {
//!             let r = taken?.message;
//!             let start = Instant::now();
//!             service.pool().run(start, start + service.config().deadline, move || rule(r)).await
//!         }
//!     })
//!     .buffered(window);
//! // A stream that only sends (a watch) ends on drain with `.take_until(service.drained())`.
//! ```

use super::failure::Failure;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// One piece of work, boxed for the queue.
type Job = Box<dyn FnOnce() + Send>;

/// A job in the queue and its call's deadline: a job past it has been answered already.
struct Queued {
    deadline: Instant,
    job: Job,
}

/// What a piece of work is, for the queue's order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lane {
    /// A ruling or an analysis: bounded by the search budget (at most about 16 ms). Taken first.
    Ruling,
    /// Reading an uploaded record or rendering a sheet: as long as the input is large. At most
    /// all threads but one run such work at once, so rulings always have a thread.
    Bulk,
}

/// The pool's threads and its bounded queue. Cloning shares them; the threads end when the last
/// clone is dropped.
#[derive(Clone, Debug)]
pub struct WorkPool {
    shared: Arc<Handle>,
}

/// Closes the queue when the last [`WorkPool`] goes.
#[derive(Debug)]
struct Handle {
    queue: Arc<Queue>,
    threads: usize,
    max_queue: usize,
    /// Calls answered RESOURCE_EXHAUSTED because the queue was full.
    refused: AtomicU64,
}

impl Drop for Handle {
    fn drop(&mut self) {
        if let Ok(mut state) = self.queue.state.lock() {
            state.closed = true;
        }
        self.queue.ready.notify_all();
    }
}

#[derive(Debug, Default)]
struct Queue {
    state: Mutex<State>,
    ready: Condvar,
}

#[derive(Default)]
struct State {
    rulings: VecDeque<Queued>,
    bulk: VecDeque<Queued>,
    bulk_running: usize,
    max_bulk: usize,
    closed: bool,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("rulings", &self.rulings.len())
            .field("bulk", &self.bulk.len())
            .field("bulk_running", &self.bulk_running)
            .finish()
    }
}

impl State {
    /// The next job a free thread may take, and whether it is bulk work.
    fn next(&mut self) -> Option<(Job, bool)> {
        if let Some(queued) = self.rulings.pop_front() {
            return Some((queued.job, false));
        }
        if self.bulk_running < self.max_bulk
            && let Some(queued) = self.bulk.pop_front()
        {
            self.bulk_running += 1;
            return Some((queued.job, true));
        }
        None
    }

    /// Jobs waiting, those whose deadline has passed (already answered) dropped first when the
    /// queue looks full, so that they do not make the server look saturated.
    fn waiting(&mut self, max_queue: usize) -> usize {
        if self.rulings.len() + self.bulk.len() >= max_queue {
            let now = Instant::now();
            self.rulings.retain(|q| q.deadline > now);
            self.bulk.retain(|q| q.deadline > now);
        }
        self.rulings.len() + self.bulk.len()
    }
}

impl WorkPool {
    /// Starts `threads` threads (at least one) with room for `max_queue` waiting jobs (at least
    /// one). A thread that cannot be started is logged; the pool runs on those that could.
    pub fn new(threads: usize, max_queue: usize) -> WorkPool {
        let threads = threads.max(1);
        let queue = Arc::new(Queue::default());
        if let Ok(mut state) = queue.state.lock() {
            state.max_bulk = threads.saturating_sub(1).max(1);
        }
        let mut started = 0;
        for n in 0..threads {
            let queue = Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name(format!("qili-work-{n}"))
                .spawn(move || work(&queue));
            match spawned {
                Ok(_) => started += 1,
                Err(e) => tracing::error!(error = %e, "cannot start a work thread"),
            }
        }
        WorkPool {
            shared: Arc::new(Handle {
                queue,
                threads: started,
                max_queue: max_queue.max(1),
                refused: AtomicU64::new(0),
            }),
        }
    }

    /// The number of threads that run work.
    pub fn threads(&self) -> usize {
        self.shared.threads
    }

    /// How many calls were refused because the queue was full.
    pub fn refused(&self) -> u64 {
        self.shared.refused.load(Ordering::Relaxed)
    }

    /// Runs `work` (a ruling: see [`Lane`]) on a pool thread; see [`WorkPool::run_in`].
    pub async fn run<T, F>(&self, start: Instant, deadline: Instant, work: F) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        self.run_in(Lane::Ruling, start, deadline, work).await
    }

    /// Runs `work` on a pool thread and returns its result, or DEADLINE_EXCEEDED if `deadline`
    /// passes first (the work is then skipped if it has not started, and its result dropped if
    /// it has), or RESOURCE_EXHAUSTED at once if the queue is full. `start` is when the call
    /// began, for the message.
    pub async fn run_in<T, F>(
        &self,
        lane: Lane,
        start: Instant,
        deadline: Instant,
        work: F,
    ) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let late = || Failure::deadline(start.elapsed().as_millis());
        if Instant::now() >= deadline {
            return Err(late());
        }
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // Nobody waits for it any more (late, or the client left): skip it.
            if tx.is_closed() || Instant::now() >= deadline {
                return;
            }
            let _ = tx.send(guarded(work));
        });
        {
            let queue = &self.shared.queue;
            let Ok(mut state) = queue.state.lock() else {
                return Err(Failure::internal("the work pool has stopped".into()));
            };
            if state.waiting(self.shared.max_queue) >= self.shared.max_queue {
                drop(state);
                self.shared.refused.fetch_add(1, Ordering::Relaxed);
                return Err(Failure::saturated(self.shared.max_queue));
            }
            let queued = Queued { deadline, job };
            match lane {
                Lane::Ruling => state.rulings.push_back(queued),
                Lane::Bulk => state.bulk.push_back(queued),
            }
            drop(state);
            queue.ready.notify_one();
        }
        match tokio::time::timeout_at(tokio::time::Instant::from_std(deadline), rx).await {
            Ok(Ok(out)) => out,
            // Skipped (its deadline had passed when a thread took it) or cut off here.
            Ok(Err(_)) | Err(_) => Err(late()),
        }
    }
}

/// Runs `work`; a panic in it is a fault of the server, answered as one (INTERNAL), and the
/// thread that ran it (a pool thread, or an async worker on the cheap path) lives on.
pub fn guarded<T>(work: impl FnOnce() -> T) -> Result<T, Failure> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
        .map_err(|_| Failure::internal("the work failed (a panic; see the log)".into()))
}

/// A pool thread: takes jobs, rulings first, until the pool is dropped.
fn work(queue: &Queue) {
    let Ok(mut state) = queue.state.lock() else {
        return;
    };
    loop {
        if let Some((job, bulk)) = state.next() {
            drop(state);
            job();
            let Ok(relocked) = queue.state.lock() else {
                return;
            };
            state = relocked;
            if bulk {
                state.bulk_running -= 1;
                // Another thread may be waiting for that bulk place.
                if !state.bulk.is_empty() {
                    queue.ready.notify_one();
                }
            }
            continue;
        }
        if state.closed {
            return;
        }
        let Ok(woken) = queue.ready.wait(state) else {
            return;
        };
        state = woken;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn runs_work_refuses_when_full_and_skips_late_work() {
        let pool = WorkPool::new(1, 1);
        let start = Instant::now();
        let far = start + Duration::from_secs(10);
        assert_eq!(pool.run(start, far, || 7).await, Ok(7));
        // Hold the one thread, fill the one place in the queue, then one more is refused.
        let (hold_tx, hold_rx) = std::sync::mpsc::channel::<()>();
        let (started_tx, started_rx) = tokio::sync::oneshot::channel::<()>();
        let busy = tokio::spawn({
            let pool = pool.clone();
            async move {
                let work = move || {
                    let _ = started_tx.send(());
                    hold_rx.recv().is_ok()
                };
                pool.run(start, far, work).await
            }
        });
        started_rx.await.expect("the thread took the work");
        let soon = Instant::now() + Duration::from_millis(50);
        let mut queued = Box::pin(pool.run(start, soon, || 1));
        // One poll puts it in the queue.
        assert!(futures::poll!(queued.as_mut()).is_pending());
        let refused = pool.run(start, far, || 2).await.expect_err("full");
        assert_eq!(refused.code, tonic::Code::ResourceExhausted);
        assert_eq!(pool.refused(), 1);
        // The queued one's deadline passes while the thread is held.
        let late = queued.await.expect_err("late");
        assert_eq!(late.code, tonic::Code::DeadlineExceeded);
        hold_tx.send(()).expect("release");
        assert_eq!(busy.await.expect("join"), Ok(true));
        // The late job was skipped, and the pool still works.
        assert_eq!(pool.run(start, far, || 3).await, Ok(3));
        let past = Instant::now() - Duration::from_millis(1);
        assert_eq!(
            pool.run(start, past, || 4).await.expect_err("past").code,
            tonic::Code::DeadlineExceeded
        );
    }
}
