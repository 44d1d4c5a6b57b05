//! The `qili.v1.Qili` handlers: limits, where rulings run, deadlines, what the access log is told.

use super::access::{self, CallNote};
use super::config::ServiceConfig;
use super::convert;
use super::failure::{Failure, abridge, reclassify};
use super::pb;
use super::pb::qili_server::Qili;
use super::timeout::parse_grpc_timeout;
use crate::position::Position;
use crate::rules;
use futures::{Stream, StreamExt};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::Semaphore;
use tonic::{Request, Response, Status, Streaming};

/// How much sooner than the client's deadline a call gives up.
const CLIENT_MARGIN: std::time::Duration = std::time::Duration::from_millis(1);

/// Where a ruling runs. Measured side by side (BENCHMARKS.md, "Load"): a unary call's ruling on
/// the blocking pool keeps the workers free for the HTTP/2 connection that carries every call, which
/// gives more calls per second and a far shorter p99 at 64 in flight than ruling in-line, though
/// the hand-off costs CPU; a stream's rulings (a task each, one HTTP/2 stream for all) do better
/// in-line, where that CPU is saved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Placement {
    /// On the call's own task, on a worker thread.
    InLine,
    /// On tokio's blocking pool (at most `max_concurrent` threads).
    Pool,
}

/// The service state shared by all calls: the limits and the permits for concurrent rulings.
#[derive(Clone, Debug)]
pub struct QiliService {
    config: Arc<ServiceConfig>,
    permits: Arc<Semaphore>,
}

impl QiliService {
    /// A service with `config`'s limits.
    pub fn new(config: ServiceConfig) -> QiliService {
        let permits = Arc::new(Semaphore::new(config.max_concurrent.max(1)));
        QiliService {
            config: Arc::new(config),
            permits,
        }
    }

    /// The server's limits.
    pub(super) fn config(&self) -> &ServiceConfig {
        &self.config
    }

    /// The instant the call must be answered by: the server's deadline, or the client's if shorter.
    pub(super) fn deadline_of<T>(&self, start: Instant, request: &Request<T>) -> Instant {
        let client = request
            .metadata()
            .get("grpc-timeout")
            .and_then(|v| v.to_str().ok())
            .and_then(parse_grpc_timeout);
        // tonic's transport cancels the call itself (as CANCELLED) once the client's deadline
        // passes; ending 1 ms earlier lets the handler answer DEADLINE_EXCEEDED first.
        let limit = client.map_or(self.config.deadline, |c| {
            c.saturating_sub(CLIENT_MARGIN).min(self.config.deadline)
        });
        start + limit
    }

    /// Runs `work` once a permit is free, within `deadline`, where `placement` says.
    pub(super) async fn limited<T, F>(
        &self,
        start: Instant,
        deadline: Instant,
        placement: Placement,
        work: F,
    ) -> Result<T, Failure>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let late = || Failure::deadline(start.elapsed().as_millis());
        let deadline = tokio::time::Instant::from_std(deadline);
        let permit = tokio::time::timeout_at(deadline, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| late())?
            .map_err(|_| Failure::internal("the server is shutting down".into()))?;
        // Past the deadline already (a zero deadline, a long wait): no ruling for nobody.
        if tokio::time::Instant::now() >= deadline {
            return Err(late());
        }
        let out = match placement {
            Placement::InLine => {
                let out = work();
                drop(permit);
                out
            }
            Placement::Pool => {
                // The permit travels with the work: an abandoned (late) ruling still counts
                // until it ends.
                let task = tokio::task::spawn_blocking(move || {
                    let _permit = permit;
                    work()
                });
                tokio::time::timeout_at(deadline, task)
                    .await
                    .map_err(|_| late())?
                    .map_err(|e| Failure::internal(format!("ruling failed: {e}")))?
            }
        };
        // An answer after the deadline is of no use to the caller.
        if tokio::time::Instant::now() >= deadline {
            return Err(late());
        }
        Ok(out)
    }

    /// Rules on one request: checks the limits, then adjudicates within them, and tells
    /// `note` the verdict.
    async fn rule(
        &self,
        r: pb::AdjudicateRequest,
        start: Instant,
        deadline: Instant,
        placement: Placement,
        note: Option<&CallNote>,
    ) -> Result<pb::Ruling, Failure> {
        if r.moves.len() > self.config.max_moves {
            return Err(Failure::exhausted(
                Some("moves"),
                format!(
                    "moves: {} moves, more than the limit of {} (qili serve --max-moves)",
                    r.moves.len(),
                    self.config.max_moves
                ),
            ));
        }
        let (request, request_id, wanted) = convert::into_request(r)?;
        let ruling = self
            .limited(start, deadline, placement, move || {
                crate::request::adjudicate(&request)
            })
            .await??;
        if let Some(note) = note {
            note.verdict(ruling.verdict.name());
        }
        Ok(convert::reply(ruling, request_id, wanted))
    }

    /// Analyses one position within the limits.
    async fn analyse(
        &self,
        r: pb::AnalyzeRequest,
        start: Instant,
        deadline: Instant,
    ) -> Result<pb::AnalyzeResponse, Failure> {
        let ruleset = convert::ruleset(&r.ruleset)?;
        let notation = convert::notation(r.notation)?;
        let language = convert::language(r.language)?;
        let options = rules::Options {
            ruleset,
            defensive_key_point: rules::BySide {
                red: r.defensive_key_point.as_ref().is_some_and(|b| b.red),
                black: r.defensive_key_point.as_ref().is_some_and(|b| b.black),
            },
            ..rules::Options::default()
        };
        self.limited(start, deadline, Placement::Pool, move || {
            let position = if r.fen.trim().is_empty() {
                Position::start()
            } else {
                Position::from_fen(&r.fen)
                    .map_err(|e| Failure::from(crate::request::RequestError::from(e)))?
            };
            let mv = if r.r#move.trim().is_empty() {
                None
            } else {
                let moves = crate::request::parse_moves(&position, &[r.r#move.as_str()], notation)
                    .map_err(|e| {
                        let reason = match &e {
                            crate::request::RequestError::Move { text, reason, .. } => {
                                abridge(&format!("move {text:?}: {reason}"), text)
                            }
                            other => abridge(&other.to_string(), ""),
                        };
                        Failure::invalid("move", reason)
                    })?;
                moves.first().copied()
            };
            let after = match mv {
                Some(m) => position.play(m).map_err(|e| {
                    Failure::invalid(
                        "move",
                        abridge(&format!("move {:?}: {e}", r.r#move), &r.r#move),
                    )
                })?,
                None => position,
            };
            let a = rules::analyze(&position, mv, &options);
            Ok::<_, Failure>(convert::analysis(
                &r.request_id,
                after.fen(),
                &a.graph,
                &a.attacked,
                a.mv.as_ref(),
                language,
            ))
        })
        .await?
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
pub type AnswerStream =
    Pin<Box<dyn Stream<Item = Result<pb::AdjudicateStreamResponse, Status>> + Send>>;

#[tonic::async_trait]
impl Qili for QiliService {
    async fn adjudicate(
        &self,
        request: Request<pb::AdjudicateRequest>,
    ) -> Result<Response<pb::Ruling>, Status> {
        let start = Instant::now();
        let deadline = self.deadline_of(start, &request);
        let note = note_of(&request);
        let r = request.into_inner();
        if let Some(note) = &note {
            note.request_id(&r.request_id);
        }
        let result = self
            .rule(r, start, deadline, Placement::Pool, note.as_ref())
            .await;
        result.map(Response::new).map_err(|f| f.to_status())
    }

    type AdjudicateStreamStream = AnswerStream;

    async fn adjudicate_stream(
        &self,
        request: Request<Streaming<pb::AdjudicateRequest>>,
    ) -> Result<Response<AnswerStream>, Status> {
        let service = self.clone();
        let in_flight = self.config.max_concurrent.max(1);
        let answers = request
            .into_inner()
            .map(move |item| {
                let service = service.clone();
                // Each ruling is a task of its own, so that one stream's rulings use every core.
                tokio::spawn(async move {
                    let r = item.map_err(stream_status)?;
                    let start = Instant::now();
                    let deadline = start + service.config.deadline;
                    let id = r.request_id.clone();
                    let result = service
                        .rule(r, start, deadline, Placement::InLine, None)
                        .await;
                    let result = match result {
                        Ok(ruling) => {
                            let verdict = pb::Verdict::try_from(ruling.verdict)
                                .ok()
                                .and_then(convert::verdict_of)
                                .map(rules::Verdict::name);
                            access::streamed(STREAM, &id, verdict, None, start);
                            pb::adjudicate_stream_response::Result::Ruling(ruling)
                        }
                        Err(f) => {
                            access::streamed(STREAM, &id, None, Some(&f), start);
                            pb::adjudicate_stream_response::Result::Error(f.to_pb())
                        }
                    };
                    Ok(pb::AdjudicateStreamResponse {
                        request_id: id,
                        result: Some(result),
                    })
                })
            })
            // Up to `in_flight` rulings of one stream run at once; answers keep the request order.
            .buffered(in_flight)
            .map(|joined| {
                joined.unwrap_or_else(|e| {
                    Err(Failure::internal(format!("ruling failed: {e}")).to_status())
                })
            });
        Ok(Response::new(Box::pin(answers)))
    }

    async fn analyze(
        &self,
        request: Request<pb::AnalyzeRequest>,
    ) -> Result<Response<pb::AnalyzeResponse>, Status> {
        let start = Instant::now();
        let deadline = self.deadline_of(start, &request);
        let note = note_of(&request);
        let r = request.into_inner();
        if let Some(note) = &note {
            note.request_id(&r.request_id);
        }
        let result = self.analyse(r, start, deadline).await;
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
    ) -> Result<Response<pb::GameStatus>, Status> {
        super::watch::status(self, request).await
    }
}
