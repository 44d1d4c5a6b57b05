//! Connections: the accept loop (at most `--max-connections` open, accept errors backed off and
//! logged once) and each connection's timeouts — idle (no call for `--idle-timeout-ms`), read (a
//! request's head and body within `--read-timeout-ms`) and write (an answer the client does not
//! take for `--write-timeout-ms`) — so that a client that stops, or never starts, holds neither a
//! connection nor the memory of a half-read body for long (issue 23.3, 23.7).

use super::config::ServiceConfig;
use axum::body::Bytes;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Sleep;
use tonic::codegen::http::{Request, Response};

/// The calls whose request body is a stream of messages the client sends as it likes (a live
/// game's moves, a bulk stream): no read timeout on their body; the stream's own bounds apply.
const STREAMED_BODIES: [&str; 3] = [
    "/qili.v1.Qili/AdjudicateStream",
    "/qili.v1.Qili/Watch",
    "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
];

/// Longest pause between accept attempts while accepting fails (at the file-descriptor limit).
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// The error of a request body that did not arrive within the read timeout.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0} ms (qili serve --read-timeout-ms)")]
pub struct BodyTimeout(pub u128);

/// Serves `app` on each connection `listener` accepts, until `shutdown` completes; then stops
/// accepting and waits for the open connections to finish their calls (HTTP/2 connections are
/// sent GOAWAY, idle HTTP/1 ones closed). The caller bounds that wait.
pub async fn serve<S, B>(
    listener: TcpListener,
    app: S,
    config: &ServiceConfig,
    shutdown: impl Future<Output = ()>,
) where
    S: tower::Service<Request<TimedBody>, Response = Response<B>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(config.read_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        // What HTTP/2 may hold unread per stream. h2 ends a connection (GOAWAY
        // ENHANCE_YOUR_CALM) whose unread small DATA frames cost more than half its connection
        // window (1 MiB) in framing; a 64 KiB stream window keeps a stream's unread messages of
        // 40 bytes and more under that, and the streams' intakes read as messages come.
        .initial_stream_window_size(super::server::STREAM_WINDOW)
        // A peer that stops answering pings (gone, or not reading) is dropped.
        .keep_alive_interval(config.idle_timeout)
        .keep_alive_timeout(config.write_timeout);
    let builder = Arc::new(builder);
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let mut failing = AcceptFailures::default();
    tokio::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            () = &mut shutdown => break,
            slot = Arc::clone(&slots).acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
        };
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => {
                failing.recovered();
                stream
            }
            Err(e) => {
                if let Some(pause) = failing.failed(&e) {
                    tokio::select! {
                        () = &mut shutdown => break,
                        () = tokio::time::sleep(pause) => {}
                    }
                }
                continue;
            }
        };
        // Without it small answers wait for the client's delayed ACK (~40 ms a call).
        let _ = stream.set_nodelay(true);
        let activity = Arc::new(Activity::new());
        let service = connection_service(app.clone(), Arc::clone(&activity), config.read_timeout);
        let io = TokioIo::new(TimedWrite::new(stream, config.write_timeout));
        let builder = Arc::clone(&builder);
        let watcher = graceful.watcher();
        let idle = config.idle_timeout;
        tokio::spawn(async move {
            let connection = builder.serve_connection_with_upgrades(
                io,
                hyper_util::service::TowerToHyperService::new(service),
            );
            tokio::select! {
                served = watcher.watch(connection.into_owned()) => {
                    if let Err(e) = served {
                        tracing::debug!(error = %e, "connection ended with an error");
                    }
                }
                () = activity.idle_for(idle) => {
                    tracing::debug!("idle connection closed");
                }
            }
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

/// Accept errors in a row: the first is logged, the rest counted until an accept succeeds;
/// errors of the process (no file descriptors, no memory) are retried after a growing pause so
/// the loop does not spin.
#[derive(Default)]
struct AcceptFailures {
    count: u64,
    pause: Duration,
}

impl AcceptFailures {
    /// The pause before the next accept, if any.
    fn failed(&mut self, e: &io::Error) -> Option<Duration> {
        // The one connection's own trouble (it was reset before it was accepted): go on.
        if matches!(
            e.kind(),
            io::ErrorKind::ConnectionAborted
                | io::ErrorKind::ConnectionReset
                | io::ErrorKind::Interrupted
                | io::ErrorKind::WouldBlock
        ) {
            return None;
        }
        if self.count == 0 {
            tracing::warn!(error = %e,
                "cannot accept connections; retrying with a growing pause (at the file-descriptor \
                 limit: raise `ulimit -n` or lower --max-connections)");
        }
        self.count += 1;
        self.pause = (self.pause * 2).clamp(Duration::from_millis(5), MAX_BACKOFF);
        Some(self.pause)
    }

    fn recovered(&mut self) {
        if self.count > 0 {
            tracing::info!(failed = self.count, "accepting connections again");
            *self = AcceptFailures::default();
        }
    }
}

/// What a connection is doing: calls in flight, and when the last one ended.
struct Activity {
    calls: AtomicUsize,
    born: Instant,
    /// Microseconds from `born` to the end of the last call.
    last_end_us: AtomicU64,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            calls: AtomicUsize::new(0),
            born: Instant::now(),
            last_end_us: AtomicU64::new(0),
        }
    }

    fn last_end(&self) -> Instant {
        self.born + Duration::from_micros(self.last_end_us.load(Ordering::Relaxed))
    }

    /// Completes once the connection has had no call for `idle`.
    async fn idle_for(&self, idle: Duration) {
        loop {
            let quiet_until = self.last_end() + idle;
            if self.calls.load(Ordering::Acquire) > 0 {
                tokio::time::sleep(idle).await;
            } else if Instant::now() >= quiet_until {
                return;
            } else {
                tokio::time::sleep_until(quiet_until.into()).await;
            }
        }
    }
}

/// Counts a call in flight until its answer's body is dropped (sent, or the connection gone).
struct InFlight(Arc<Activity>);

impl InFlight {
    fn new(activity: Arc<Activity>) -> InFlight {
        activity.calls.fetch_add(1, Ordering::AcqRel);
        InFlight(activity)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let us = u64::try_from(self.0.born.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.0.last_end_us.store(us, Ordering::Relaxed);
        self.0.calls.fetch_sub(1, Ordering::AcqRel);
    }
}

/// `app` for one connection: each call counted in flight, and its body under the read timeout.
fn connection_service<S, B>(
    app: S,
    activity: Arc<Activity>,
    read_timeout: Duration,
) -> impl tower::Service<
    Request<Incoming>,
    Response = Response<Counted<B>>,
    Error = Infallible,
    Future = impl Future<Output = Result<Response<Counted<B>>, Infallible>> + Send,
> + Clone
+ Send
where
    S: tower::Service<Request<TimedBody>, Response = Response<B>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: Send + 'static,
{
    tower::service_fn(move |request: Request<Incoming>| {
        let call = InFlight::new(Arc::clone(&activity));
        let streamed = STREAMED_BODIES.contains(&request.uri().path());
        let limit = (!streamed).then_some(read_timeout);
        let request = request.map(|body| TimedBody::new(body, limit));
        let answer = tower::ServiceExt::oneshot(app.clone(), request);
        async move {
            let response = answer.await?;
            Ok(response.map(|body| Counted { body, _call: call }))
        }
    })
}

pin_project_lite::pin_project! {
    /// A request body that fails if it has not ended within its limit (if it has one) of the
    /// request's arrival.
    pub struct TimedBody {
        #[pin]
        body: Incoming,
        #[pin]
        deadline: Option<Sleep>,
        limit: Duration,
    }
}

impl TimedBody {
    fn new(body: Incoming, limit: Option<Duration>) -> TimedBody {
        TimedBody {
            body,
            deadline: limit.map(tokio::time::sleep),
            limit: limit.unwrap_or_default(),
        }
    }
}

impl http_body::Body for TimedBody {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        let this = self.project();
        match this.body.poll_frame(cx) {
            Poll::Ready(frame) => Poll::Ready(frame.map(|f| f.map_err(Into::into))),
            Poll::Pending => match this.deadline.as_pin_mut().map(|d| d.poll(cx)) {
                Some(Poll::Ready(())) => {
                    Poll::Ready(Some(Err(Box::new(BodyTimeout(this.limit.as_millis())))))
                }
                _ => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

pin_project_lite::pin_project! {
    /// An answer's body, counted in flight until it is dropped.
    struct Counted<B> {
        #[pin]
        body: B,
        _call: InFlight,
    }
}

impl<B: http_body::Body> http_body::Body for Counted<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<B::Data>, Self::Error>>> {
        self.project().body.poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// A socket whose writes fail once one has waited `limit` for the client to take the bytes.
struct TimedWrite {
    stream: TcpStream,
    limit: Duration,
    timer: Pin<Box<Sleep>>,
    armed: bool,
}

impl TimedWrite {
    fn new(stream: TcpStream, limit: Duration) -> TimedWrite {
        TimedWrite {
            stream,
            limit,
            timer: Box::pin(tokio::time::sleep(limit)),
            armed: false,
        }
    }

    /// `written` as is, or a timeout error once the write has been pending for `limit`.
    fn timed<T>(
        &mut self,
        cx: &mut Context<'_>,
        written: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if written.is_ready() {
            self.armed = false;
            return written;
        }
        if !self.armed {
            self.armed = true;
            let at = tokio::time::Instant::now() + self.limit;
            self.timer.as_mut().reset(at);
        }
        match self.timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took no bytes within the write timeout (qili serve --write-timeout-ms)",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for TimedWrite {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for TimedWrite {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.timed(cx, written)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.timed(cx, written)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let flushed = Pin::new(&mut this.stream).poll_flush(cx);
        this.timed(cx, flushed)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}
