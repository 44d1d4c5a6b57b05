//! The access log: one structured line per call, written when the call's response ends, for every
//! route the layer wraps (the Qili service, health, reflection, and any HTTP route mounted beside
//! them). Calls the transport rejects before a handler runs (a message too large, not protobuf,
//! a string that is not UTF-8) are logged like the others, with their code. OK calls and client
//! errors are at INFO, server faults (INTERNAL, UNKNOWN, DATA_LOSS) at ERROR.

use super::failure::{FIELD_KEY, Failure, PLY_KEY, abridge_text};
use http_body::{Body, Frame, SizeHint};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, ready};
use std::time::Instant;
use tonic::codegen::http;
use tonic::{Code, Status};
use tower::{Layer, Service};

/// Writes one event at a level chosen at run time (tracing's macros want a constant one).
macro_rules! event_at {
    ($level:expr, $($fields:tt)*) => {
        match $level {
            tracing::Level::ERROR => tracing::error!($($fields)*),
            _ => tracing::info!($($fields)*),
        }
    };
}

/// What a handler adds to its call's line: the request id and, for a ruling, the verdict. The
/// layer puts an empty one in each request's extensions.
#[derive(Clone, Debug, Default)]
pub struct CallNote(Arc<Note>);

#[derive(Debug, Default)]
struct Note {
    request_id: OnceLock<String>,
    verdict: OnceLock<&'static str>,
    /// A gRPC-Web call: its code comes from [`WebCodeLayer`].
    web: bool,
    code: OnceLock<Code>,
}

impl CallNote {
    /// Records the call's request id (cut short if long); the first one recorded stays.
    pub fn request_id(&self, request_id: &str) {
        if !request_id.is_empty() {
            let _ = self.0.request_id.set(abridge_text(request_id).into_owned());
        }
    }

    /// Records the call's verdict.
    pub fn verdict(&self, verdict: &'static str) {
        let _ = self.0.verdict.set(verdict);
    }
}

/// What one gRPC line says besides its kind, RPC and latency.
struct Outcome<'a> {
    code: Code,
    request_id: Option<&'a str>,
    verdict: Option<&'static str>,
    field: Option<&'a str>,
    ply: Option<u64>,
    error: Option<&'a str>,
}

/// Writes one gRPC line: `kind` is "call" for a call, "message" for one answer of a stream.
fn grpc_line(kind: &'static str, rpc: &str, o: Outcome<'_>, latency_us: u64) {
    event_at!(
        level_of(o.code),
        message = kind,
        rpc,
        code = code_name(o.code),
        request_id = o.request_id,
        verdict = o.verdict,
        field = o.field,
        ply = o.ply,
        latency_us,
        error = o.error,
    );
}

/// Logs one answer of a stream (`AdjudicateStream` answers each request separately): its request
/// id, verdict or failure, and latency, at the level its code calls for.
pub fn streamed(
    rpc: &'static str,
    request_id: &str,
    verdict: Option<&'static str>,
    failure: Option<&Failure>,
    start: Instant,
) {
    let request_id = abridge_text(request_id);
    let outcome = Outcome {
        code: failure.map_or(Code::Ok, |f| f.code),
        request_id: (!request_id.is_empty()).then_some(request_id.as_ref()),
        verdict,
        field: failure.and_then(|f| f.field),
        ply: failure.and_then(|f| f.ply).map(|p| p as u64),
        error: failure.map(|f| f.message.as_str()),
    };
    grpc_line("message", rpc, outcome, micros_since(start));
}

/// The level of a call that ended with `code`: ERROR for a fault of the server, else INFO.
pub fn level_of(code: Code) -> tracing::Level {
    match code {
        Code::Internal | Code::Unknown | Code::DataLoss => tracing::Level::ERROR,
        _ => tracing::Level::INFO,
    }
}

/// The gRPC name of a code (`INVALID_ARGUMENT`), as grpcurl and the status codes' spec print it.
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

fn micros_since(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// The layer that writes the access log; wrap the whole router with it.
#[derive(Clone, Copy, Debug, Default)]
pub struct AccessLogLayer;

impl<S> Layer<S> for AccessLogLayer {
    type Service = AccessLog<S>;
    fn layer(&self, inner: S) -> AccessLog<S> {
        AccessLog { inner }
    }
}

/// A service whose every call gets one access-log line (see [`AccessLogLayer`]).
#[derive(Clone, Debug)]
pub struct AccessLog<S> {
    inner: S,
}

impl<S, B, R> Service<http::Request<B>> for AccessLog<S>
where
    S: Service<http::Request<B>, Response = http::Response<R>>,
    R: Body,
{
    type Response = http::Response<Logged<R>>;
    type Error = S::Error;
    type Future = Respond<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Respond<S::Future> {
        let web = request
            .headers()
            .get(http::header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"application/grpc-web"));
        let note = CallNote(Arc::new(Note {
            web,
            ..Note::default()
        }));
        request.extensions_mut().insert(note.clone());
        let call = Call {
            start: Instant::now(),
            // The path shares the request's bytes: no copy.
            path: request.uri().clone(),
            note,
            end: None,
            logged: false,
        };
        Respond {
            inner: self.inner.call(request),
            call: Some(call),
        }
    }
}

pin_project_lite::pin_project! {
    /// The response future of [`AccessLog`].
    pub struct Respond<F> {
        #[pin]
        inner: F,
        call: Option<Call>,
    }
}

impl<F, R, E> Future for Respond<F>
where
    F: Future<Output = Result<http::Response<R>, E>>,
    R: Body,
{
    type Output = Result<http::Response<Logged<R>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let result = ready!(this.inner.poll(cx));
        let Some(mut call) = this.call.take() else {
            return Poll::Ready(result.map(|r| r.map(|body| Logged { body, call: None })));
        };
        match result {
            Ok(response) => {
                call.end = End::of_head(&response);
                Poll::Ready(Ok(response.map(|body| Logged {
                    body,
                    call: Some(call),
                })))
            }
            Err(e) => {
                // The service itself failed: the transport answers with a broken connection.
                call.end = Some(End::Grpc(Status::unknown("the service failed")));
                drop(call);
                Poll::Ready(Err(e))
            }
        }
    }
}

/// How a call ended, as far as the log knows.
enum End {
    /// A gRPC status, from the response head (an error answered at once) or the trailers.
    Grpc(Status),
    /// A response that is not gRPC: its HTTP status, the failure an HTTP route reported, and
    /// whether it is gRPC-Web (whose code, in the body's trailers, [`WebCodeLayer`] notes).
    Http(http::StatusCode, Option<Status>, bool),
}

impl End {
    /// What the response head says: a gRPC error answered at once (tonic puts the `Status` in the
    /// extensions, and a rewrite of it replaces it there), a non-gRPC response, or nothing yet
    /// (gRPC answers end with trailers).
    fn of_head<R>(response: &http::Response<R>) -> Option<End> {
        let content_type = response
            .headers()
            .get(http::header::CONTENT_TYPE)
            .map_or(&b""[..], |v| v.as_bytes());
        let grpc = content_type.starts_with(b"application/grpc");
        let status = response.extensions().get::<Status>().cloned();
        if !grpc {
            // An HTTP route's failure (the JSON API) leaves its status in the extensions too.
            return Some(End::Http(response.status(), status, false));
        }
        if let Some(status) = status {
            return Some(End::Grpc(status));
        }
        // gRPC-Web carries its trailers inside the body: log those answers by their HTTP status.
        if content_type.starts_with(b"application/grpc-web") {
            return Some(End::Http(response.status(), None, true));
        }
        Status::from_header_map(response.headers()).map(End::Grpc)
    }
}

/// One call, logged once: when its response ends, or when it is dropped unfinished (the client
/// left, or the service failed).
struct Call {
    start: Instant,
    path: http::Uri,
    note: CallNote,
    end: Option<End>,
    logged: bool,
}

impl Call {
    fn log(&mut self) {
        if std::mem::replace(&mut self.logged, true) {
            return;
        }
        let rpc = self.path.path();
        let latency_us = micros_since(self.start);
        let request_id = self.note.0.request_id.get().map(String::as_str);
        let verdict = self.note.0.verdict.get().copied();
        match &self.end {
            Some(End::Grpc(status)) => {
                let code = status.code();
                let metadata = status.metadata();
                let outcome = Outcome {
                    code,
                    request_id,
                    verdict,
                    field: metadata.get(FIELD_KEY).and_then(|v| v.to_str().ok()),
                    ply: metadata
                        .get(PLY_KEY)
                        .and_then(|v| v.to_str().ok()?.parse().ok()),
                    error: (code != Code::Ok).then(|| status.message()),
                };
                grpc_line("call", rpc, outcome, latency_us);
            }
            Some(End::Http(status, failure, web)) => {
                let http_status = status.as_u16();
                let failure = failure.as_ref();
                // A success of the JSON API is OK, as over gRPC; gRPC-Web's is in its trailers.
                let code = match failure {
                    Some(f) => Some(f.code()),
                    None if *web => self.note.0.code.get().copied(),
                    None => status.is_success().then_some(Code::Ok),
                };
                // The code decides, as over gRPC: a 504 (DEADLINE_EXCEEDED) is the client's
                // deadline or the server's load, no fault; a 5xx with no code is one.
                let level = match code {
                    Some(c) => level_of(c),
                    None if status.is_server_error() => tracing::Level::ERROR,
                    None => tracing::Level::INFO,
                };
                let code = code.map(code_name);
                let meta = |key: &str| {
                    failure.and_then(|f| f.metadata().get(key)?.to_str().ok().map(str::to_owned))
                };
                let field = meta(FIELD_KEY);
                let ply: Option<u64> = meta(PLY_KEY).and_then(|p| p.parse().ok());
                let error = failure.map(Status::message);
                event_at!(
                    level,
                    rpc,
                    http_status,
                    code,
                    request_id,
                    verdict,
                    field,
                    ply,
                    latency_us,
                    error,
                    "call"
                );
            }
            // The client went away before the answer ended.
            None => {
                let outcome = Outcome {
                    code: Code::Cancelled,
                    request_id,
                    verdict,
                    field: None,
                    ply: None,
                    error: Some("the client left before the answer ended"),
                };
                grpc_line("call", rpc, outcome, latency_us);
            }
        }
    }
}

impl Drop for Call {
    fn drop(&mut self) {
        self.log();
    }
}

pin_project_lite::pin_project! {
    /// A response body that logs its call when it ends (or is dropped unfinished).
    pub struct Logged<B> {
        #[pin]
        body: B,
        call: Option<Call>,
    }
}

impl<B: Body> Body for Logged<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        let this = self.project();
        let frame = ready!(this.body.poll_frame(cx));
        if let Some(call) = this.call.as_mut() {
            match &frame {
                Some(Ok(f)) => {
                    if let Some(trailers) = f.trailers_ref() {
                        // A stream's status; a missing grpc-status would be a broken answer.
                        call.end = Some(End::Grpc(
                            Status::from_header_map(trailers)
                                .unwrap_or_else(|| Status::unknown("no grpc-status")),
                        ));
                        call.log();
                    }
                }
                Some(Err(_)) => {
                    call.end = Some(End::Grpc(Status::unknown("the answer failed")));
                    call.log();
                }
                None => {
                    if call.end.is_none() {
                        call.end = Some(End::Grpc(Status::unknown("no grpc-status")));
                    }
                    call.log();
                }
            }
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Inside gRPC-Web's translation, where an answer's trailers are still trailers: notes a
/// gRPC-Web call's code, which [`AccessLogLayer`] outside sees only encoded in the body.
#[derive(Clone, Copy, Debug, Default)]
pub struct WebCodeLayer;

impl<S> Layer<S> for WebCodeLayer {
    type Service = WebCode<S>;
    fn layer(&self, inner: S) -> WebCode<S> {
        WebCode { inner }
    }
}

/// The service of [`WebCodeLayer`].
#[derive(Clone, Debug)]
pub struct WebCode<S> {
    inner: S,
}

impl<S, B, R> Service<http::Request<B>> for WebCode<S>
where
    S: Service<http::Request<B>, Response = http::Response<R>>,
{
    type Response = http::Response<WebCodeBody<R>>;
    type Error = S::Error;
    type Future = WebCodeFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> WebCodeFuture<S::Future> {
        let note = request
            .extensions()
            .get::<CallNote>()
            .filter(|n| n.0.web)
            .cloned();
        WebCodeFuture {
            inner: self.inner.call(request),
            note,
        }
    }
}

pin_project_lite::pin_project! {
    /// The response future of [`WebCode`].
    pub struct WebCodeFuture<F> {
        #[pin]
        inner: F,
        note: Option<CallNote>,
    }
}

impl<F, R, E> Future for WebCodeFuture<F>
where
    F: Future<Output = Result<http::Response<R>, E>>,
{
    type Output = Result<http::Response<WebCodeBody<R>>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let result = ready!(this.inner.poll(cx));
        let note = this.note.take();
        Poll::Ready(result.map(|r| r.map(|body| WebCodeBody { body, note })))
    }
}

pin_project_lite::pin_project! {
    /// A response body that notes the code of its trailers (see [`WebCodeLayer`]).
    pub struct WebCodeBody<B> {
        #[pin]
        body: B,
        note: Option<CallNote>,
    }
}

impl<B: Body> Body for WebCodeBody<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        let this = self.project();
        let frame = ready!(this.body.poll_frame(cx));
        if let (Some(note), Some(Ok(f))) = (this.note.as_ref(), &frame)
            && let Some(status) = f.trailers_ref().and_then(Status::from_header_map)
        {
            let _ = note.0.code.set(status.code());
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Collects what the subscriber writes.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("lock").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The log lines of one call of a service answering `status` with `content_type`, and what
    /// the handler noted.
    fn log_of(status: u16, content_type: &str, note: bool) -> String {
        log_with(status, content_type, note, None)
    }

    /// The log line of a JSON call that failed with `failure` (as `HttpError` answers).
    fn log_of_failure(status: u16, failure: Status) -> String {
        log_with(status, "application/json", false, Some(failure))
    }

    fn log_with(status: u16, content_type: &str, note: bool, failure: Option<Status>) -> String {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let content_type = content_type.to_string();
        let inner = tower::service_fn(move |request: http::Request<tonic::body::Body>| {
            if note && let Some(n) = request.extensions().get::<CallNote>() {
                n.request_id("json-1");
                n.verdict("draw");
            }
            let mut response = http::Response::builder()
                .status(status)
                .header(http::header::CONTENT_TYPE, content_type.as_str());
            if let Some(failure) = &failure {
                response = response.extension(failure.clone());
            }
            std::future::ready(response.body(tonic::body::Body::empty()))
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        tracing::subscriber::with_default(subscriber, || {
            runtime.block_on(async {
                let mut service = AccessLogLayer.layer(inner);
                let request = http::Request::builder()
                    .uri("/api/v1/adjudicate")
                    .body(tonic::body::Body::empty())
                    .expect("request");
                let response = service.call(request).await.expect("response");
                drop(response);
            });
        });
        let bytes = captured.0.lock().expect("lock").clone();
        String::from_utf8(bytes).expect("UTF-8")
    }

    #[test]
    fn an_http_route_gets_one_line_with_its_status_and_the_handlers_note() {
        let log = log_of(200, "application/json", true);
        assert_eq!(log.lines().count(), 1, "{log}");
        assert!(log.contains(" INFO "), "{log}");
        for part in [
            "call",
            "rpc=\"/api/v1/adjudicate\"",
            "http_status=200",
            "code=\"OK\"",
            "request_id=\"json-1\"",
            "verdict=\"draw\"",
            "latency_us=",
        ] {
            assert!(log.contains(part), "{part}: {log}");
        }
        let log = log_of(400, "application/json", false);
        assert!(
            log.contains(" INFO ") && log.contains("http_status=400"),
            "{log}"
        );
        let log = log_of(500, "text/plain", false);
        assert!(
            log.contains(" ERROR ") && log.contains("http_status=500"),
            "{log}"
        );
        // A 504 the handler answered DEADLINE_EXCEEDED is at INFO, as the same call over gRPC.
        let log = log_of_failure(504, tonic::Status::deadline_exceeded("late"));
        assert!(
            log.contains(" INFO ") && log.contains("code=\"DEADLINE_EXCEEDED\""),
            "{log}"
        );
        let log = log_of_failure(500, tonic::Status::internal("broken"));
        assert!(log.contains(" ERROR "), "{log}");
    }

    #[test]
    fn a_grpc_answer_that_never_ends_is_logged_as_cancelled() {
        let log = log_of(200, "application/grpc", true);
        assert_eq!(log.lines().count(), 1, "{log}");
        assert!(log.contains("code=\"CANCELLED\""), "{log}");
        assert!(log.contains("verdict=\"draw\""), "{log}");
    }

    #[test]
    fn codes_name_and_levels() {
        assert_eq!(code_name(Code::InvalidArgument), "INVALID_ARGUMENT");
        assert_eq!(level_of(Code::InvalidArgument), tracing::Level::INFO);
        assert_eq!(level_of(Code::DeadlineExceeded), tracing::Level::INFO);
        assert_eq!(level_of(Code::Internal), tracing::Level::ERROR);
        assert_eq!(level_of(Code::Unknown), tracing::Level::ERROR);
    }
}
