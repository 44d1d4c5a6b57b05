//! The `qili.v1.Qili` handlers: limits, where rulings run, deadlines, what the access log is told.

use super::access::{self, CallNote};
use super::config::ServiceConfig;
use super::convert;
use super::failure::{Failure, Limit, abridge, reclassify};
use super::pb;
use super::pb::qili_server::Qili;
use super::pool::{WorkPool, guarded};
use super::quick;
use super::spare::Spares;
use super::timeout::parse_grpc_timeout;
use crate::lang::{Lang, Words};
use crate::position::Position;
use crate::rules;
use futures::{Stream, StreamExt};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tonic::{Request, Response, Status, Streaming};

/// Most bytes of requests one stream holds taken in and not yet answered (4 MiB).
pub const STREAM_INTAKE_BYTES: usize = 4 << 20;

/// A request taken in from a stream; it holds its room in the stream's intake until dropped.
#[derive(Debug)]
pub struct Taken<T> {
    /// The request.
    pub message: T,
    _room: tokio::sync::OwnedSemaphorePermit,
}

/// How much sooner than the client's deadline a call gives up.
const CLIENT_MARGIN: std::time::Duration = std::time::Duration::from_millis(1);

/// The service state shared by all calls: the limits, the work pool and the drain signal.
#[derive(Clone, Debug)]
pub struct QiliService {
    config: Arc<ServiceConfig>,
    pool: WorkPool,
    /// The searches' tables of stopped rulings, passed back from the pool to the workers.
    spares: Arc<Spares>,
    drain: CancellationToken,
}

impl QiliService {
    /// A service with `config`'s limits and a work pool of `config.max_concurrent` threads.
    pub fn new(config: ServiceConfig) -> QiliService {
        let pool = WorkPool::new(config.max_concurrent, config.max_queue);
        QiliService {
            spares: Arc::new(Spares::new(pool.threads())),
            config: Arc::new(config),
            pool,
            drain: CancellationToken::new(),
        }
    }

    /// The limits it serves with.
    pub fn config(&self) -> &ServiceConfig {
        &self.config
    }

    /// The pool every piece of work of a call runs on (see [`WorkPool`]).
    pub fn pool(&self) -> &WorkPool {
        &self.pool
    }

    /// Tells the streams to end: their intakes stop reading, what they took in is answered, and
    /// each ends with OK. The server calls it on SIGTERM.
    pub fn begin_drain(&self) {
        self.drain.cancel();
    }

    /// Completes once the server drains; a long-lived stream ends its answers then.
    pub fn drained(&self) -> tokio_util::sync::WaitForCancellationFutureOwned {
        self.drain.clone().cancelled_owned()
    }

    /// Whether the server is draining.
    pub fn is_draining(&self) -> bool {
        self.drain.is_cancelled()
    }

    /// How many requests of one stream are ruled at once (twice the pool's threads, so a thread
    /// that finishes finds the next one queued).
    pub fn stream_window(&self) -> usize {
        2 * self.pool.threads()
    }

    /// The instant a call that began at `start` must be answered by: the server's deadline, or
    /// the client's (`grpc-timeout`) if shorter.
    pub fn deadline_of<T>(&self, start: Instant, request: &Request<T>) -> Instant {
        let client = request
            .metadata()
            .get("grpc-timeout")
            .and_then(|v| v.to_str().ok());
        self.deadline_with(start, client)
    }

    /// The same, from the raw `grpc-timeout` value (HTTP calls send it as a header).
    pub fn deadline_with(&self, start: Instant, grpc_timeout: Option<&str>) -> Instant {
        let client = grpc_timeout.and_then(parse_grpc_timeout);
        // tonic's transport cancels the call itself (as CANCELLED) once the client's deadline
        // passes; ending 1 ms earlier lets the handler answer DEADLINE_EXCEEDED first.
        let limit = client.map_or(self.config.deadline, |c| {
            c.saturating_sub(CLIENT_MARGIN).min(self.config.deadline)
        });
        start + limit
    }

    /// A stream's requests, read as they arrive (so that HTTP/2 never holds many small frames
    /// unread, which its peer's frame budget punishes with GOAWAY) into a queue bounded in bytes
    /// ([`STREAM_INTAKE_BYTES`]): each request holds its bytes of the bound until its answer is
    /// made (the [`Taken`] is dropped), so a client sending faster than it is answered is held
    /// back by HTTP/2 flow control. The intake ends when the client ends its side, when a
    /// message cannot be read (that error is its last item), or when the server drains.
    pub fn intake<T>(
        &self,
        mut requests: Streaming<T>,
    ) -> impl Stream<Item = Result<Taken<T>, Status>> + Send + 'static
    where
        T: prost::Message + Send + 'static,
    {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let room = Arc::new(Semaphore::new(STREAM_INTAKE_BYTES));
        let drain = self.drain.clone();
        tokio::spawn(async move {
            loop {
                let next = tokio::select! {
                    biased;
                    () = drain.cancelled() => break,
                    () = tx.closed() => break,
                    next = requests.next() => next,
                };
                let message = match next {
                    None => break,
                    Some(Err(status)) => {
                        let _ = tx.send(Err(stream_status(status)));
                        break;
                    }
                    Some(Ok(message)) => message,
                };
                let bytes = message.encoded_len().clamp(1, STREAM_INTAKE_BYTES);
                let bytes = u32::try_from(bytes).unwrap_or(u32::MAX);
                let permit = tokio::select! {
                    biased;
                    () = drain.cancelled() => break,
                    () = tx.closed() => break,
                    permit = Arc::clone(&room).acquire_many_owned(bytes) => permit,
                };
                let Ok(room) = permit else { break };
                if tx
                    .send(Ok(Taken {
                        message,
                        _room: room,
                    }))
                    .is_err()
                {
                    break;
                }
            }
        });
        tokio_stream::wrappers::UnboundedReceiverStream::new(rx)
    }

    /// Rules on one request: checks the limits, then reads and adjudicates it within them and
    /// hands what it came to to `finish` where the ruling ran (the reply's conversion, the page's
    /// sheet), and tells `note` the verdict. A small request whose `finish` is [`Finish::Light`]
    /// is ruled on the async worker when its ruling fits the cheap path's bound (see
    /// [`quick`](super::quick)), else in the pool; the reply is the same either way.
    pub(super) async fn rule_then<T, F>(
        &self,
        r: pb::AdjudicateRequest,
        start: Instant,
        deadline: Instant,
        note: Option<&CallNote>,
        finish: (Finish, F),
    ) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce(Ruled) -> T + Send + 'static,
    {
        // The limits are said in the request's language (English when it names none or a bad one).
        let lang = convert::language(r.language).map_or(Lang::En, convert::error_lang);
        let (weight, finish) = finish;
        if r.moves.len() > self.config.max_moves {
            return Err(Failure::limit(Limit::Moves {
                moves: r.moves.len(),
                max_moves: self.config.max_moves,
            })
            .said(lang));
        }
        let (request, request_id, wanted) = convert::into_request(r)?;
        let lang = wanted.error_lang();
        let late = || Failure::deadline(start.elapsed().as_millis()).said(lang);
        let (mut read, mut suspended) = (None, None);
        if weight == Finish::Light && quick::fits(&request) {
            if Instant::now() >= deadline {
                return Err(late());
            }
            let (first, moves) = request.parse().map_err(|e| Failure::request(&e, lang))?;
            match guarded(|| quick::rule(&first, &moves, &request.options))? {
                quick::Quick::Ruled(ruling) => {
                    let verdict = ruling.verdict;
                    let ruled = Ruled {
                        ruling,
                        start: first,
                        moves,
                        request_id,
                        wanted,
                    };
                    let out = guarded(|| finish(ruled))?;
                    if Instant::now() >= deadline {
                        return Err(late());
                    }
                    if let Some(note) = note {
                        note.verdict(verdict.name());
                    }
                    return Ok(out);
                }
                // Too long for the cheap path: the pool rules the moves read here.
                quick::Quick::Long => read = Some((first, moves)),
                // Too long a search: the pool finishes the ruling from where it stopped, with
                // this thread's tables; it gets a set the pool passed back instead.
                quick::Quick::Suspended(s) => {
                    self.spares.refill();
                    read = Some((first, moves));
                    suspended = Some(s);
                }
            }
        }
        let spares = Arc::clone(&self.spares);
        let (out, verdict) = self
            .pool
            .run(start, deadline, move || {
                let (first, moves) = match read {
                    Some(read) => read,
                    None => request.parse().map_err(|e| Failure::request(&e, lang))?,
                };
                let ruling = match suspended {
                    Some(s) => {
                        let ruling = s.finish(&moves, &request.options);
                        // Its tables, left on this thread, go back to a worker.
                        spares.keep();
                        ruling
                    }
                    None => rules::rule(&first, &moves, &request.options),
                };
                let verdict = ruling.verdict;
                let ruled = Ruled {
                    ruling,
                    start: first,
                    moves,
                    request_id,
                    wanted,
                };
                Ok::<_, Failure>((finish(ruled), verdict))
            })
            .await
            .map_err(|f| f.said(lang))??;
        if let Some(note) = note {
            note.verdict(verdict.name());
        }
        Ok(out)
    }

    /// A unary call's start, deadline, access-log note (told the request's id) and message.
    fn open<T>(
        &self,
        request: Request<T>,
        id: impl FnOnce(&T) -> &str,
    ) -> (Instant, Instant, Option<CallNote>, T) {
        let start = Instant::now();
        let deadline = self.deadline_of(start, &request);
        let note = note_of(&request);
        let r = request.into_inner();
        if let Some(note) = &note {
            note.request_id(id(&r));
        }
        (start, deadline, note, r)
    }

    /// A unary ruling call ([`rule_then`](Self::rule_then)) with the call's deadline and
    /// access-log note.
    pub(super) async fn adjudicate_then<T, F>(
        &self,
        request: Request<pb::AdjudicateRequest>,
        finish: (Finish, F),
    ) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce(Ruled) -> T + Send + 'static,
    {
        let (start, deadline, note, r) = self.open(request, |r| &r.request_id);
        self.rule_then(r, start, deadline, note.as_ref(), finish)
            .await
    }

    /// Analyses one position within the limits and hands the analysis, with the request's id and
    /// the language of its answer, to `finish` where it ran.
    async fn analyse_then<T, F>(
        &self,
        r: pb::AnalyzeRequest,
        start: Instant,
        deadline: Instant,
        finish: F,
    ) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce(rules::Analysis, String, pb::Language) -> T + Send + 'static,
    {
        let language = convert::language(r.language)?;
        let lang = convert::error_lang(language);
        let ruleset = convert::ruleset(&r.ruleset, lang)?;
        let notation = convert::notation(r.notation)?;
        let options = rules::Options {
            ruleset,
            defensive_key_point: rules::BySide {
                red: r.defensive_key_point.as_ref().is_some_and(|b| b.red),
                black: r.defensive_key_point.as_ref().is_some_and(|b| b.black),
            },
            ..rules::Options::default()
        };
        self.pool
            .run(start, deadline, move || {
                let position = if r.fen.trim().is_empty() {
                    Position::start()
                } else {
                    Position::from_fen(&r.fen).map_err(|e| {
                        Failure::request(&crate::request::RequestError::from(e), lang)
                    })?
                };
                let mv = if r.r#move.trim().is_empty() {
                    None
                } else {
                    let moves =
                        crate::request::parse_moves(&position, [r.r#move.as_str()], notation)
                            .map_err(|e| {
                                let reason = match &e {
                                    crate::request::RequestError::Move { text, reason, .. } => {
                                        let colon = lang.pick("：", ": ");
                                        let said = reason.words(lang);
                                        abridge(&format!("move {text:?}{colon}{said}"), text)
                                    }
                                    other => abridge(&other.words(lang), ""),
                                };
                                Failure::invalid("move", reason)
                            })?;
                    moves.first().copied()
                };
                if let Some(m) = mv {
                    position.play(m).map_err(|e| {
                        let colon = lang.pick("：", ": ");
                        let said = e.words(lang);
                        Failure::invalid(
                            "move",
                            abridge(&format!("move {:?}{colon}{said}", r.r#move), &r.r#move),
                        )
                    })?;
                }
                let a = rules::analyze(&position, mv, &options);
                Ok::<_, Failure>(finish(a, r.request_id, language))
            })
            .await
            .map_err(|f| f.said(lang))?
    }

    /// An `Analyze` call ([`analyse_then`](Self::analyse_then)) with the call's deadline and
    /// access-log note.
    pub(super) async fn analyze_then<T, F>(
        &self,
        request: Request<pb::AnalyzeRequest>,
        finish: F,
    ) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce(rules::Analysis, String, pb::Language) -> T + Send + 'static,
    {
        let (start, deadline, _note, r) = self.open(request, |r| &r.request_id);
        self.analyse_then(r, start, deadline, finish).await
    }
}

/// How long the work after a ruling (`finish` of [`QiliService::rule_then`]) may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Finish {
    /// The reply's conversion: a ruling that fits the cheap path may be finished on the async
    /// worker.
    Light,
    /// As long as its input is large (the page's sheet): always in the pool.
    Heavy,
}

/// What a ruling request came to: the library's ruling of `moves` from `start`, the request's id
/// and what the caller wants of the answer.
pub(super) struct Ruled {
    /// The ruling.
    pub ruling: rules::Ruling,
    /// The start position read from the request.
    pub start: Position,
    /// The moves read from it (a UCCI position string's first).
    pub moves: Vec<crate::moves::Move>,
    /// The caller's id of the request.
    pub request_id: String,
    /// What the caller wants of the answer.
    pub wanted: convert::Wanted,
}

impl Ruled {
    /// The API's reply: the ruling at the detail and in the language wanted (the JSON API's).
    pub(super) fn reply(self) -> pb::Ruling {
        convert::reply(self.ruling, self.request_id, self.wanted)
    }

    /// The same reply written for gRPC, straight from the library's ruling (`pb::Reply`).
    pub(super) fn written(self) -> pb::Reply {
        pb::Reply::new(&self.ruling, &self.request_id, self.wanted)
    }
}

/// The access log's note of a call (absent when the handler is called without the layer).
fn note_of<T>(request: &Request<T>) -> Option<CallNote> {
    request.extensions().get::<CallNote>().cloned()
}

/// A streamed request whose message could not be read ends the stream, with the code a client
/// should see (see [`reclassify`]).
fn stream_status(status: Status) -> Status {
    reclassify(&status).unwrap_or(status)
}

/// The name streamed answers are logged under.
const STREAM: &str = "/qili.v1.Qili/AdjudicateStream";

/// The stream of answers of `AdjudicateStream`.
pub type AnswerStream = Pin<Box<dyn Stream<Item = Result<pb::StreamReply, Status>> + Send>>;

#[tonic::async_trait]
impl Qili for QiliService {
    async fn adjudicate(
        &self,
        request: Request<pb::AdjudicateRequest>,
    ) -> Result<Response<pb::Reply>, Status> {
        let result = self
            .adjudicate_then(request, (Finish::Light, Ruled::written))
            .await;
        result.map(Response::new).map_err(|f| f.to_status())
    }

    type AdjudicateStreamStream = AnswerStream;

    async fn adjudicate_stream(
        &self,
        request: Request<Streaming<pb::AdjudicateRequest>>,
    ) -> Result<Response<AnswerStream>, Status> {
        let service = self.clone();
        let window = self.stream_window();
        let answers = self
            .intake(request.into_inner())
            .map(move |item| {
                let service = service.clone();
                async move {
                    let taken = item?;
                    let r = taken.message;
                    let start = Instant::now();
                    let deadline = start + service.config.deadline;
                    let id = r.request_id.clone();
                    let result = service
                        .rule_then(
                            r,
                            start,
                            deadline,
                            None,
                            (Finish::Light, |x: Ruled| {
                                (x.ruling.verdict.name(), x.written())
                            }),
                        )
                        .await;
                    let result = match result {
                        Ok((verdict, ruling)) => {
                            access::streamed(STREAM, &id, Some(verdict), None, start);
                            Ok(ruling)
                        }
                        Err(f) => {
                            access::streamed(STREAM, &id, None, Some(&f), start);
                            Err(f.to_pb())
                        }
                    };
                    Ok(pb::StreamReply {
                        request_id: id,
                        result,
                    })
                }
            })
            // Up to `window` rulings of one stream in the pool at once; answers keep the
            // request order, and those ready together go out in one write (tonic coalesces).
            .buffered(window);
        Ok(Response::new(Box::pin(answers)))
    }

    async fn analyze(
        &self,
        request: Request<pb::AnalyzeRequest>,
    ) -> Result<Response<pb::AnalyzeResponse>, Status> {
        let result = self
            .analyze_then(request, |a, request_id, language| {
                convert::analysis(a, request_id, language)
            })
            .await;
        result.map(Response::new).map_err(|f| f.to_status())
    }

    async fn list_rulesets(
        &self,
        _request: Request<pb::ListRulesetsRequest>,
    ) -> Result<Response<pb::ListRulesetsResponse>, Status> {
        Ok(Response::new(convert::rulesets()))
    }

    type WatchStream = super::watch::GameStream;

    async fn watch(
        &self,
        request: Request<Streaming<pb::WatchRequest>>,
    ) -> Result<Response<Self::WatchStream>, Status> {
        super::watch::watch(self, request).await
    }

    async fn status(
        &self,
        request: Request<pb::AdjudicateRequest>,
    ) -> Result<Response<pb::StatusReply>, Status> {
        super::watch::status(self, request)
            .await
            .map_err(|f| f.to_status())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The request and the thread its ruling ran on, and the reply's bytes.
    async fn answer(
        service: &QiliService,
        r: &pb::AdjudicateRequest,
        weight: Finish,
    ) -> (bool, Result<Vec<u8>, Failure>) {
        let start = Instant::now();
        let deadline = start + std::time::Duration::from_secs(60);
        let out = service
            .rule_then(
                r.clone(),
                start,
                deadline,
                None,
                (weight, |x: Ruled| {
                    let pooled = std::thread::current()
                        .name()
                        .is_some_and(|n| n.starts_with("qili-work-"));
                    (pooled, x.written().as_bytes().to_vec())
                }),
            )
            .await;
        match out {
            Ok((pooled, bytes)) => (pooled, Ok(bytes)),
            Err(f) => (false, Err(f)),
        }
    }

    /// A ruling the cheap path stops takes its worker's tables to the pool; the pool passes
    /// them back, and the next stopped ruling's worker takes them: the stash holds one set
    /// after each such call, however many were made.
    #[tokio::test]
    async fn the_tables_of_stopped_rulings_come_back_from_the_pool() {
        let stopped: Vec<pb::AdjudicateRequest> = crate::service::samples::requests(50)
            .into_iter()
            .filter(|r| {
                let Ok((request, _, _)) = convert::into_request(r.clone()) else {
                    return false;
                };
                let Ok((start, moves)) = request.parse() else {
                    return false;
                };
                quick::fits(&request)
                    && matches!(
                        quick::rule(&start, &moves, &request.options),
                        quick::Quick::Suspended(_)
                    )
            })
            .take(5)
            .collect();
        assert!(stopped.len() >= 2, "{} stopped rulings", stopped.len());
        let service = QiliService::new(ServiceConfig::default());
        assert_eq!(service.spares.len(), 0);
        for r in &stopped {
            let (pooled, reply) = answer(&service, r, Finish::Light).await;
            assert!(pooled && reply.is_ok(), "{}", r.request_id);
            assert_eq!(service.spares.len(), 1, "{}", r.request_id);
        }
    }

    /// The cheap path's reply is the pool's, byte for byte, at every detail level: the corpus
    /// (cycles, short and long searches), the platform mix (mostly no cycle) and bad requests.
    #[tokio::test]
    async fn the_cheap_path_answers_as_the_pool_does() {
        let mut requests = crate::service::samples::requests(7);
        let mut bad = requests[0].clone();
        bad.moves.push("a0a9");
        requests.push(bad);
        let service = QiliService::new(ServiceConfig::default());
        let (mut quick, mut pooled) = (0, 0);
        for (n, base) in requests.iter().enumerate() {
            for detail in [pb::Detail::Full, pb::Detail::Summary, pb::Detail::Verdict] {
                let mut r = base.clone();
                r.detail = detail.into();
                r.language = [pb::Language::Both, pb::Language::Zh, pb::Language::En][n % 3].into();
                let (in_pool, pool) = answer(&service, &r, Finish::Heavy).await;
                let (cheap_pooled, cheap) = answer(&service, &r, Finish::Light).await;
                assert!(in_pool || pool.is_err(), "Heavy is ruled in the pool");
                assert_eq!(cheap, pool, "{}", r.request_id);
                if cheap.is_ok() {
                    if cheap_pooled {
                        pooled += 1
                    } else {
                        quick += 1
                    }
                }
            }
        }
        // Both paths were compared: most rulings take the cheap one, the long ones the pool.
        assert!(
            quick > pooled && pooled > 0,
            "{quick} cheap, {pooled} in the pool"
        );
    }
}
