//! The server's log writer: a log that cannot be written never holds up or fails a call.
//!
//! Lines go to stderr from a thread of their own (tracing-appender's non-blocking writer, lossy)
//! through a queue of [`QUEUED_LINES`]. A call only puts its line in the queue: when the sink is
//! slow (a pipe nobody reads) the queue fills and further lines are dropped; when it is broken (a
//! full disk, `/dev/full`, a closed pipe) its writes fail and those lines are lost. Both are
//! counted, and the first line the sink takes again is followed by one WARN line (`log lines
//! lost`, field `lost`, and `lost_total` since the start) saying how many went missing.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use tracing_appender::non_blocking::{ErrorCounter, NonBlocking, NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::fmt::MakeWriter;

/// Lines waiting for the sink, at most (about 200 bytes each: a few MB when the sink stalls).
pub const QUEUED_LINES: usize = 16_384;

/// How long the writing thread pauses after writing what was queued, before it looks again.
/// Lines that come meanwhile wait in the queue, and their callers wake nobody; without the pause
/// the thread went to sleep after each line at a few thousand calls a second, and each call woke
/// it again (the caller's futex call, the thread's spinning, yielding and sleeping: about 10 µs
/// of CPU a call; BENCHMARKS.md, eleventh session). A line waits at most this long more.
const LINGER: Duration = Duration::from_millis(1);

/// How long [`LogWriter::finish`] waits for the queued lines to be written.
const FLUSH_LIMIT: Duration = Duration::from_secs(1);

/// The counts the callers and the writing thread share.
#[derive(Debug)]
struct Counts {
    /// Lines handed to the queue (dropped ones included).
    sent: AtomicUsize,
    /// Lines the sink took.
    written: AtomicUsize,
    /// Lines the sink refused (the write failed).
    failed: AtomicUsize,
    /// Lines lost (dropped or failed) already reported.
    reported: AtomicUsize,
    /// Lines dropped because the queue was full (the non-blocking writer counts them).
    dropped: OnceLock<ErrorCounter>,
    /// When the write in progress began, in microseconds after `epoch` (0: none in progress).
    writing_since: AtomicU64,
    epoch: Instant,
}

impl Counts {
    fn dropped(&self) -> usize {
        self.dropped.get().map_or(0, ErrorCounter::dropped_lines)
    }

    /// Lines lost so far: dropped, or refused by the sink.
    fn lost(&self) -> usize {
        self.dropped()
            .saturating_add(self.failed.load(Ordering::Relaxed))
    }

    /// Lines in the queue or being written, about (the counts move as it is computed).
    fn queued(&self) -> usize {
        let done = self.written.load(Ordering::Acquire)
            + self.failed.load(Ordering::Acquire)
            + self.dropped();
        self.sent.load(Ordering::Acquire).saturating_sub(done)
    }

    fn now_us(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_micros())
            .unwrap_or(u64::MAX)
            .max(1)
    }

    /// Whether the writing thread has been stuck in one write for longer than `limit`.
    fn stuck_for(&self, limit: Duration) -> bool {
        let since = self.writing_since.load(Ordering::Relaxed);
        since != 0 && Duration::from_micros(self.now_us().saturating_sub(since)) > limit
    }
}

/// Where the writing thread writes: the sink, with every line counted and no error passed on
/// (the non-blocking writer would drop it anyway, and tracing would print it — to stderr). The
/// lines of a batch are gathered and written at once, one `write` a batch (at most
/// [`BATCH_BYTES`]) rather than one a line.
struct Sink<W> {
    inner: W,
    counts: Arc<Counts>,
    /// The lines gathered since the last write.
    batch: Vec<u8>,
    /// How many.
    lines: usize,
}

/// Most bytes of lines gathered before they are written (about 300 lines): the writing thread
/// writes what it has when it has emptied the queue, or when it has this much.
const BATCH_BYTES: usize = 64 * 1024;

impl<W: Write> Sink<W> {
    /// Writes the lines gathered, counting them written or failed.
    fn write_batch(&mut self) {
        if self.lines == 0 {
            return;
        }
        let c = &self.counts;
        c.writing_since.store(c.now_us(), Ordering::Relaxed);
        let result = self.inner.write_all(&self.batch);
        c.writing_since.store(0, Ordering::Relaxed);
        let lines = std::mem::take(&mut self.lines);
        self.batch.clear();
        match result {
            Ok(()) => {
                c.written.fetch_add(lines, Ordering::Release);
                // The sink takes lines again: say how many it missed, once the queue has room
                // for the saying. Only this thread writes `reported`: a load and a store suffice.
                let lost = c.lost();
                let reported = c.reported.load(Ordering::Relaxed);
                if lost > reported && c.queued() < QUEUED_LINES / 2 {
                    c.reported.store(lost, Ordering::Relaxed);
                    tracing::warn!(
                        lost = lost - reported,
                        lost_total = lost,
                        "log lines lost: the log's sink (stderr) was full, failing or not read, \
                         and lines were dropped rather than hold up calls"
                    );
                }
            }
            Err(_) => {
                // A batch fails whole: its lines are lost.
                c.failed.fetch_add(lines, Ordering::Release);
            }
        }
    }
}

impl<W: Write> Write for Sink<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    /// Takes one line (the writer gets each line whole) into the batch.
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.batch.extend_from_slice(buf);
        self.lines += 1;
        if self.batch.len() >= BATCH_BYTES {
            self.write_batch();
        }
        Ok(())
    }

    /// Called by the writing thread after each batch of lines: it writes them, then pauses
    /// ([`LINGER`]).
    fn flush(&mut self) -> io::Result<()> {
        self.write_batch();
        // A failed flush loses nothing the writes have not already counted.
        let _ = self.inner.flush();
        std::thread::sleep(LINGER);
        Ok(())
    }
}

/// The non-blocking log writer of `qili serve` (see the module's doc). Hand
/// [`make_writer`](Self::make_writer) to the subscriber; call [`finish`](Self::finish) before the
/// process exits.
pub struct LogWriter {
    writer: Line,
    guard: WorkerGuard,
}

impl LogWriter {
    /// A writer to standard error.
    pub fn stderr() -> LogWriter {
        LogWriter::to(io::stderr())
    }

    /// A writer to `sink`.
    fn to<W: Write + Send + 'static>(sink: W) -> LogWriter {
        let counts = Arc::new(Counts {
            sent: AtomicUsize::new(0),
            written: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            reported: AtomicUsize::new(0),
            dropped: OnceLock::new(),
            writing_since: AtomicU64::new(0),
            epoch: Instant::now(),
        });
        let sink = Sink {
            inner: sink,
            counts: Arc::clone(&counts),
            batch: Vec::new(),
            lines: 0,
        };
        let (queue, guard) = NonBlockingBuilder::default()
            .lossy(true)
            .buffered_lines_limit(QUEUED_LINES)
            .thread_name("qili-log")
            .finish(sink);
        let _ = counts.dropped.set(queue.error_counter());
        LogWriter {
            writer: Line { queue, counts },
            guard,
        }
    }

    /// What the subscriber writes each line with: it never blocks and never fails.
    pub fn make_writer(&self) -> impl for<'a> MakeWriter<'a> + Send + Sync + 'static {
        self.writer.clone()
    }

    /// Waits (at most a second) for the queued lines to be written, unless the sink is stuck.
    /// The writing thread is left behind, not joined: if it is stuck in a write, the process
    /// exits all the same.
    pub fn finish(self) {
        let c = &self.writer.counts;
        let start = Instant::now();
        loop {
            if c.queued() == 0
                || start.elapsed() > FLUSH_LIMIT
                || c.stuck_for(Duration::from_millis(100))
            {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        // Dropping the guard would wait for the thread again, and print to stdout if it is stuck.
        std::mem::forget(self.guard);
    }

    #[cfg(test)]
    fn counts(&self) -> &Counts {
        &self.writer.counts
    }
}

/// The subscriber's writer: counts each line and queues it.
#[derive(Clone)]
struct Line {
    queue: NonBlocking,
    counts: Arc<Counts>,
}

impl Write for Line {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.counts.sent.fetch_add(1, Ordering::Release);
        self.queue.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.write(buf).map(|_| ())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Line {
    type Writer = Line;

    fn make_writer(&'a self) -> Line {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::sync::mpsc;

    /// A sink that fails while `broken` is set, and otherwise keeps the lines.
    #[derive(Clone, Default)]
    struct Flaky {
        broken: Arc<std::sync::atomic::AtomicBool>,
        lines: Arc<Mutex<Vec<String>>>,
    }

    impl Write for Flaky {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.broken.load(Ordering::SeqCst) {
                return Err(io::Error::from_raw_os_error(28)); // ENOSPC
            }
            let line = String::from_utf8_lossy(buf).into_owned();
            self.lines.lock().expect("lock").push(line);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn write_line(log: &LogWriter, text: &str) {
        let make = log.make_writer();
        let mut w = make.make_writer();
        w.write_all(format!("{text}\n").as_bytes())
            .expect("never fails");
    }

    fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
        let start = Instant::now();
        while !done() {
            assert!(start.elapsed() < Duration::from_secs(20), "{what}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn lines_a_broken_sink_refuses_are_counted_and_reported_when_it_recovers() {
        let sink = Flaky::default();
        let log = LogWriter::to(sink.clone());
        let subscriber = tracing_subscriber::fmt()
            .with_writer(log.make_writer())
            .with_ansi(false)
            .finish();
        let _default = tracing::subscriber::set_default(subscriber);
        sink.broken.store(true, Ordering::SeqCst);
        for i in 0..5 {
            tracing::info!(i, "lost");
        }
        wait_until("five failures", || {
            log.counts().failed.load(Ordering::SeqCst) == 5
        });
        sink.broken.store(false, Ordering::SeqCst);
        tracing::info!("back");
        // The report is written by the writing thread, which has no subscriber of its own.
        wait_until("the line after the sink recovers", || {
            sink.lines.lock().expect("lock").len() == 1
        });
        let lines = sink.lines.lock().expect("lock").clone();
        assert!(lines[0].contains("back"), "{lines:?}");
        wait_until("five reported", || {
            log.counts().reported.load(Ordering::SeqCst) == 5
        });
        log.finish();
    }

    /// The lines in `buf` (each ends with a newline).
    fn lines_in(buf: &[u8]) -> usize {
        buf.iter().filter(|&&b| b == b'\n').count()
    }

    /// Lines that come faster than one a [`LINGER`] are written in batches: the writing thread
    /// looks at the queue at most once a `LINGER`, not once a line, and writes each batch with
    /// one `write`.
    #[test]
    fn the_writing_thread_takes_lines_in_batches() {
        /// A sink that counts its lines, its writes and its batches (the thread flushes after
        /// each).
        #[derive(Clone, Default)]
        struct Batches(Arc<Mutex<(usize, usize, usize)>>);
        impl Write for Batches {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                let mut counts = self.0.lock().expect("lock");
                counts.0 += lines_in(buf);
                counts.2 += 1;
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                self.0.lock().expect("lock").1 += 1;
                Ok(())
            }
        }
        let sink = Batches::default();
        let log = LogWriter::to(sink.clone());
        let n = 200;
        let start = Instant::now();
        for i in 0..n {
            write_line(&log, &format!("line {i}"));
            // A line every 100 µs: the thread, idle, would take each alone.
            let due = start + Duration::from_micros(100 * (i as u64 + 1));
            while Instant::now() < due {
                std::hint::spin_loop();
            }
        }
        wait_until("every line written", || sink.0.lock().expect("lock").0 == n);
        let took = start.elapsed();
        let (_, batches, writes) = *sink.0.lock().expect("lock");
        let most = took.as_millis() as usize / LINGER.as_millis() as usize + 2;
        assert!(
            batches <= most,
            "{batches} batches of {n} lines in {took:?}"
        );
        // One write a batch (the last batch may be written before its flush is counted).
        assert!(writes <= batches + 1, "{writes} writes, {batches} batches");
        log.finish();
    }

    #[test]
    fn a_stalled_sink_never_blocks_the_caller_and_drops_are_counted() {
        /// A sink whose first write waits until told to go on; it counts the lines written.
        struct Stalled(mpsc::Receiver<()>, Arc<Mutex<usize>>);
        impl Write for Stalled {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                let _ = self.0.recv();
                *self.1.lock().expect("lock") += lines_in(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let (go, wait) = mpsc::channel();
        let written = Arc::new(Mutex::new(0));
        let log = LogWriter::to(Stalled(wait, Arc::clone(&written)));
        // Before its write stalls, the thread may take a batch's worth of lines off the queue
        // (at most `BATCH_BYTES` of them, each at least "line 0\n" long): more lines than the
        // queue and a batch hold.
        let batch = BATCH_BYTES / "line 0\n".len() + 1;
        let n = QUEUED_LINES + batch + 1000;
        let start = Instant::now();
        for i in 0..n {
            write_line(&log, &format!("line {i}"));
        }
        // Every line was queued or dropped at once, none waited for the sink.
        assert!(start.elapsed() < Duration::from_secs(10));
        let dropped = log.counts().dropped();
        assert!(dropped >= n - QUEUED_LINES - batch - 1, "{dropped}");
        wait_until("the writing thread stuck", || {
            log.counts().stuck_for(Duration::ZERO)
        });
        // Unstalled, it writes what it kept.
        drop(go);
        wait_until("the queue written", || {
            *written.lock().expect("lock") + dropped >= n
        });
        log.finish();
    }
}
