//! `qili load`: a bounded load generator for a running `qili serve` on loopback. It keeps N calls
//! in flight for S seconds (or up to a request cap) and prints throughput, errors by code, latency
//! percentiles and the mean reply size. The calls are `Adjudicate` (the corpus cases), the health
//! check (the transport's ceiling, with the same client), the corpus over `AdjudicateStream`,
//! `Status` (the same requests, each answered by the game's status at its last position), or
//! real games over `Watch` (a request is a move, sent once the previous one is answered).

use super::json::DetailArg;
use clap::{Args, ValueEnum};
use futures::StreamExt;
use prost::Message;
use prost::bytes::{Buf, BufMut, Bytes};
use qili::corpus::{self, Case};
use qili::notation::{Notation, detect};
use qili::service::convert;
use qili::service::pb;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::net::{IpAddr, Ipv6Addr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Status};
use tonic_health::pb::HealthCheckResponse;
use tonic_health::pb::health_check_response::ServingStatus;

/// Which call the load is made of.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Rpc {
    /// `grpc.health.v1.Health/Check` for `qili.v1.Qili`: the transport's cost alone.
    Health,
    /// `qili.v1.Qili/Adjudicate` with the corpus cases, one call each.
    Adjudicate,
    /// The corpus cases over `qili.v1.Qili/AdjudicateStream`, one stream per connection.
    Stream,
    /// `qili.v1.Qili/Status` with the same requests as `adjudicate`, one call each: the status
    /// of each game at its last position, as a platform polling a live game asks for it (with
    /// the platform mix, a call after every move).
    Status,
    /// The real games of `--records` over `qili.v1.Qili/Watch`: N games in flight, a stream each,
    /// each move sent once the previous one is answered (a request is a move).
    Watch,
    /// No server: the same rulings as `adjudicate` made in this process, one at a time on one
    /// thread, and the CPU time per ruling (what the service adds is its CPU per call less this).
    InProcess,
}

/// Arguments of `qili load`.
#[derive(Args)]
pub struct LoadArgs {
    /// Server to call: loopback only (127.0.0.0/8, localhost or [::1]), with or without `http://`.
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    addr: String,
    /// The call to make.
    #[arg(long, value_enum, default_value_t = Rpc::Adjudicate)]
    rpc: Rpc,
    /// How much of each ruling to ask for (adjudicate, stream, status and watch).
    #[arg(long, value_enum, default_value_t = DetailArg::Full)]
    detail: DetailArg,
    /// Calls kept in flight (one task each, spread over the connections; with `stream`, the
    /// requests sent and not yet answered, spread over the streams).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// HTTP/2 connections to spread the calls over (a platform's client pool; one connection is
    /// served by one task on the server, so a single one caps what the server can use).
    #[arg(long, default_value_t = 1)]
    connections: usize,
    /// Seconds to run before stopping.
    #[arg(long, default_value_t = 10)]
    duration: u64,
    /// Most requests sent in all.
    #[arg(long, default_value_t = 10_000_000)]
    max_requests: u64,
    /// The requests: a .jsonl file or a folder of them, each line a corpus case or an
    /// `AdjudicateRequest` in the JSON API's form (as benches/data/platform-mix.jsonl); default:
    /// `cases` here, else the corpus of the checkout qili was built from.
    #[arg(long)]
    cases: Option<PathBuf>,
    /// The games to play with `watch`: a game record or a folder of them; default:
    /// `tests/data/pgn` here, else in the checkout qili was built from.
    #[arg(long)]
    records: Option<PathBuf>,
    /// Sends nothing: prints the platform mix of the games of RECORDS (a record or a folder of
    /// them) as `--cases` reads it, one JSON request a line: a call after every move of each
    /// game, as a platform that asks after each move sends them, and where a game repeats a
    /// position without reaching a third occurrence, the calls of that cycle played on until it
    /// does (benches/data/platform-mix.jsonl is this for tests/data/pgn).
    #[arg(long, value_name = "RECORDS")]
    platform_mix: Option<PathBuf>,
    /// With `--rpc in-process`: before each ruling, write to KB kilobytes of memory (a byte a
    /// cache line) and encode, decode and print the request (other code), as a server's
    /// transport does between rulings; the CPU of that work, run alone as many times after, is
    /// taken out of the rulings' ("ruling cpu per call"). An experiment: cold caches against
    /// extra work (BENCHMARKS.md, eleventh session).
    #[arg(long, value_name = "KB")]
    cold_kb: Option<usize>,
}

/// The record files of `path`: the file, or a folder's files in name order.
fn record_files(path: &std::path::Path, flag: &str) -> Result<Vec<PathBuf>, String> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| format!("load: {flag} {}: {e}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Ok(files)
}

/// `--platform-mix`: prints the requests (see the flag).
fn platform_mix(path: &std::path::Path) -> Result<ExitCode, String> {
    for file in record_files(path, "--platform-mix")? {
        let bytes = std::fs::read(&file)
            .map_err(|e| format!("load: --platform-mix {}: {e}", file.display()))?;
        let games = qili::record::read_games(&bytes)
            .map_err(|e| format!("load: --platform-mix {}: {e}", file.display()))?;
        let name = file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        for (g, game) in games.iter().enumerate() {
            let mut calls: Vec<(Vec<qili::Move>, String)> = (1..=game.moves.len())
                .map(|k| {
                    (
                        game.moves[..k].to_vec(),
                        format!("{name} #{} ply {}", g + 1, k - 1),
                    )
                })
                .collect();
            // Each repetition that stops at two occurrences, played on to the third: after the
            // move that repeats, the cycle from the earlier occurrence once more.
            let positions = game.positions();
            for run in qili::record::dispute::repetitions(&game.start, &game.moves) {
                let again = run.first + 1;
                let earlier = (0..again).rev().find(|&j| positions[j] == positions[again]);
                let (None, Some(earlier)) = (run.threefold, earlier) else {
                    continue;
                };
                for t in 1..=again - earlier {
                    let mut moves = game.moves[..again].to_vec();
                    moves.extend_from_slice(&game.moves[earlier..earlier + t]);
                    let id = format!(
                        "{name} #{} ply {}, the cycle from ply {earlier} played on",
                        g + 1,
                        again + t - 1
                    );
                    calls.push((moves, id));
                }
            }
            for (moves, request_id) in calls {
                let request = pb::AdjudicateRequest {
                    request_id,
                    fen: game.start.fen(),
                    moves: moves.iter().map(ToString::to_string).collect(),
                    notation: pb::Notation::Iccs.into(),
                    ..Default::default()
                };
                let line = serde_json::to_string(&request)
                    .map_err(|e| format!("load: cannot write JSON: {e}"))?;
                outln!("{line}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `--cases` or `--records`, else `default` (a path in the repository) under the current
/// directory, else in the checkout this binary was built from: so `qili load` runs anywhere.
fn input_path(given: Option<&PathBuf>, flag: &str, default: &str) -> Result<PathBuf, String> {
    if let Some(path) = given {
        return Ok(path.clone());
    }
    let here = PathBuf::from(default);
    if here.exists() {
        return Ok(here);
    }
    let built = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(default);
    if built.exists() {
        return Ok(built);
    }
    Err(format!(
        "load: no {default} here or in {} (where qili was built): name the files with {flag}",
        env!("CARGO_MANIFEST_DIR")
    ))
}

/// The requests of `--cases` at `detail`: a folder's corpus cases; or a .jsonl file of corpus
/// cases (its first line has `expected`) or of requests in the JSON API's form, one a line.
fn requests(
    path: &std::path::Path,
    detail: DetailArg,
) -> Result<Vec<pb::AdjudicateRequest>, String> {
    let cannot =
        |e: &dyn std::fmt::Display| format!("load: cannot read cases {}: {e}", path.display());
    let text = if path.is_dir() {
        None
    } else {
        Some(std::fs::read_to_string(path).map_err(|e| cannot(&e))?)
    };
    let first = text
        .as_deref()
        .and_then(|t| t.lines().find(|l| !l.trim().is_empty()));
    let is_case = |line: &str| {
        serde_json::from_str::<serde_json::Value>(line).is_ok_and(|v| v.get("expected").is_some())
    };
    let out: Vec<pb::AdjudicateRequest> = match (text.as_deref(), first) {
        (Some(text), Some(first)) if !is_case(first) => text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(n, line)| {
                let mut request: pb::AdjudicateRequest =
                    serde_json::from_str(line).map_err(|e| {
                        format!("load: {}:{}: not a request: {e}", path.display(), n + 1)
                    })?;
                request.detail = detail.pb().into();
                Ok(request)
            })
            .collect::<Result<_, String>>()?,
        _ => corpus::load(path)
            .map_err(|e| cannot(&e))?
            .iter()
            .map(|c| to_request(c, detail))
            .collect(),
    };
    if out.is_empty() {
        return Err(format!("load: no cases in {}", path.display()));
    }
    Ok(out)
}

/// Longest a single call may take before it counts as DEADLINE_EXCEEDED.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest the connection may take to establish.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Checks that `addr` names a loopback host and returns it as an `http://` URL.
fn loopback_url(addr: &str) -> Result<String, String> {
    let refuse = |why: &str| {
        format!(
            "load: refusing address `{addr}`: {why}; only loopback addresses \
             (127.0.0.0/8, localhost, [::1]) are allowed"
        )
    };
    let rest = if let Some(r) = addr.strip_prefix("http://") {
        r
    } else if addr.contains("://") {
        return Err(refuse("only plain http:// is supported"));
    } else {
        addr
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.contains('/') || rest.contains('@') {
        return Err(refuse("expected host:port"));
    }
    let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
        let (host, after) = v6.split_once(']').ok_or_else(|| refuse("unclosed `[`"))?;
        let port = after
            .strip_prefix(':')
            .ok_or_else(|| refuse("missing port"))?;
        (host, port)
    } else {
        rest.rsplit_once(':')
            .ok_or_else(|| refuse("missing port"))?
    };
    port.parse::<u16>()
        .map_err(|_| refuse("the port is not a number from 0 to 65535"))?;
    let loopback = if host.eq_ignore_ascii_case("localhost") {
        true
    } else if rest.starts_with('[') {
        host.parse::<Ipv6Addr>().is_ok_and(|ip| ip.is_loopback())
    } else {
        host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
    };
    if !loopback {
        return Err(refuse("not a loopback host"));
    }
    Ok(format!("http://{rest}"))
}

/// The `Adjudicate` request a corpus case describes, in ICCS when every move is (saving the
/// server the detection).
fn to_request(case: &Case, detail: DetailArg) -> pb::AdjudicateRequest {
    let mut request = convert::case_request(case);
    if case.moves.iter().all(|m| detect(m) == Some(Notation::Iccs)) {
        request.notation = pb::Notation::Iccs as i32;
    }
    request.detail = detail.pb().into();
    request
}

/// Sends messages encoded once beforehand (the client's encoding is not what is measured) and
/// decodes the replies as `M`, counting their bytes.
struct PreEncoded<M> {
    replies: Arc<Replies>,
    reply: PhantomData<fn() -> M>,
}

/// The replies decoded and their bytes.
#[derive(Default)]
struct Replies {
    count: AtomicU64,
    bytes: AtomicU64,
}

impl<M> PreEncoded<M> {
    fn new(replies: &Arc<Replies>) -> PreEncoded<M> {
        PreEncoded {
            replies: Arc::clone(replies),
            reply: PhantomData,
        }
    }
}

impl<M: Message + Default + Send + 'static> Codec for PreEncoded<M> {
    type Encode = Bytes;
    type Decode = M;
    type Encoder = BytesEncoder;
    type Decoder = PreEncoded<M>;
    fn encoder(&mut self) -> BytesEncoder {
        BytesEncoder
    }
    fn decoder(&mut self) -> PreEncoded<M> {
        PreEncoded::new(&self.replies)
    }
}

/// Writes an already encoded message.
struct BytesEncoder;

impl Encoder for BytesEncoder {
    type Item = Bytes;
    type Error = Status;
    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put(item);
        Ok(())
    }
}

impl<M: Message + Default> Decoder for PreEncoded<M> {
    type Item = M;
    type Error = Status;
    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<M>, Status> {
        self.replies.count.fetch_add(1, Ordering::Relaxed);
        self.replies
            .bytes
            .fetch_add(src.remaining() as u64, Ordering::Relaxed);
        M::decode(src)
            .map(Some)
            .map_err(|e| Status::internal(format!("cannot decode the reply: {e}")))
    }
}

/// What one worker saw.
#[derive(Default)]
struct Tally {
    ok: u64,
    errors: BTreeMap<String, u64>,
    latencies_us: Vec<u64>,
}

impl Tally {
    fn error(&mut self, code: &str) {
        *self.errors.entry(code.to_string()).or_default() += 1;
    }

    fn absorb(&mut self, other: Tally) {
        self.ok += other.ok;
        for (code, n) in other.errors {
            *self.errors.entry(code).or_default() += n;
        }
        self.latencies_us.extend(other.latencies_us);
    }
}

fn micros_since(t: Instant) -> u64 {
    u64::try_from(t.elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// What the workers share: the messages, the stop time and the count of requests sent.
struct Plan {
    rpc: Rpc,
    bodies: Vec<Bytes>,
    /// For `watch`: each game's messages, its opening first.
    games: Vec<Vec<Bytes>>,
    deadline: Instant,
    sent: AtomicU64,
    max_requests: u64,
    replies: Arc<Replies>,
}

impl Plan {
    /// Whether another request may go out.
    fn go_on(&self) -> bool {
        Instant::now() < self.deadline
            && self.sent.fetch_add(1, Ordering::Relaxed) < self.max_requests
    }
}

const ADJUDICATE: &str = "/qili.v1.Qili/Adjudicate";
const ADJUDICATE_STREAM: &str = "/qili.v1.Qili/AdjudicateStream";
const HEALTH_CHECK: &str = "/grpc.health.v1.Health/Check";
const WATCH: &str = "/qili.v1.Qili/Watch";
const STATUS: &str = "/qili.v1.Qili/Status";

/// One unary call at a time, in a loop, from message `start_at` on.
async fn unary_worker(channel: Channel, plan: Arc<Plan>, start_at: usize) -> Tally {
    let mut grpc = tonic::client::Grpc::new(channel);
    let mut tally = Tally::default();
    let mut i = start_at;
    while plan.go_on() {
        let body = plan.bodies[i % plan.bodies.len()].clone();
        i = i.wrapping_add(1);
        let began = Instant::now();
        let outcome = match grpc.ready().await {
            Err(e) => Err(Status::unavailable(e.to_string())),
            Ok(()) => {
                let mut request = tonic::Request::new(body);
                request.set_timeout(CALL_TIMEOUT);
                if plan.rpc == Rpc::Health {
                    let codec = PreEncoded::<HealthCheckResponse>::new(&plan.replies);
                    let path = PathAndQuery::from_static(HEALTH_CHECK);
                    grpc.unary(request, path, codec).await.map(|r| {
                        // Anything but SERVING is an error of the run.
                        (r.get_ref().status != ServingStatus::Serving as i32)
                            .then_some("NotServing")
                    })
                } else if plan.rpc == Rpc::Status {
                    let codec = PreEncoded::<pb::GameStatus>::new(&plan.replies);
                    let path = PathAndQuery::from_static(STATUS);
                    grpc.unary(request, path, codec).await.map(|r| {
                        // A status that says a move could not be played is an error too.
                        r.get_ref().error.is_some().then_some("StatusError")
                    })
                } else {
                    let codec = PreEncoded::<pb::Ruling>::new(&plan.replies);
                    let path = PathAndQuery::from_static(ADJUDICATE);
                    grpc.unary(request, path, codec).await.map(|_| None)
                }
            }
        };
        tally.latencies_us.push(micros_since(began));
        match outcome {
            Ok(None) => tally.ok += 1,
            Ok(Some(wrong)) => tally.error(wrong),
            Err(status) => tally.error(&format!("{:?}", status.code())),
        }
    }
    tally
}

/// One `AdjudicateStream` call with up to `window` requests sent and not yet answered; answers
/// come back in order, so each one's latency is from its own request's sending.
async fn stream_worker(channel: Channel, plan: Arc<Plan>, start_at: usize, window: usize) -> Tally {
    let mut grpc = tonic::client::Grpc::new(channel);
    let mut tally = Tally::default();
    if let Err(e) = grpc.ready().await {
        tally.error(&format!("{:?}", Status::unavailable(e.to_string()).code()));
        return tally;
    }
    let permits = Arc::new(tokio::sync::Semaphore::new(window));
    let (sent_at_tx, mut sent_at_rx) = tokio::sync::mpsc::unbounded_channel::<Instant>();
    let outgoing = {
        let plan = Arc::clone(&plan);
        let permits = Arc::clone(&permits);
        futures::stream::unfold(start_at, move |i| {
            let plan = Arc::clone(&plan);
            let permits = Arc::clone(&permits);
            let sent_at = sent_at_tx.clone();
            async move {
                // A permit comes back with each answer.
                permits.acquire().await.ok()?.forget();
                if !plan.go_on() {
                    return None;
                }
                sent_at.send(Instant::now()).ok()?;
                Some((
                    plan.bodies[i % plan.bodies.len()].clone(),
                    i.wrapping_add(1),
                ))
            }
        })
    };
    let codec = PreEncoded::<pb::AdjudicateStreamResponse>::new(&plan.replies);
    let path = PathAndQuery::from_static(ADJUDICATE_STREAM);
    let mut answers = match grpc
        .streaming(tonic::Request::new(outgoing), path, codec)
        .await
    {
        Ok(r) => r.into_inner(),
        Err(status) => {
            tally.error(&format!("{:?}", status.code()));
            return tally;
        }
    };
    while let Some(answer) = answers.next().await {
        let Some(sent) = sent_at_rx.recv().await else {
            break;
        };
        tally.latencies_us.push(micros_since(sent));
        permits.add_permits(1);
        match answer {
            Ok(a) => match a.result {
                Some(pb::adjudicate_stream_response::Result::Ruling(_)) => tally.ok += 1,
                Some(pb::adjudicate_stream_response::Result::Error(e)) => {
                    tally.error(&format!("{:?}", Code::from_i32(e.code)));
                }
                None => tally.error("EmptyAnswer"),
            },
            Err(status) => {
                tally.error(&format!("{:?}", status.code()));
                break;
            }
        }
    }
    tally
}

/// One game at a time over `Watch`, from game `start_at` on: a stream per game, its opening, then
/// each move sent once the previous one is answered, its latency from its sending.
async fn watch_worker(channel: Channel, plan: Arc<Plan>, start_at: usize) -> Tally {
    let mut grpc = tonic::client::Grpc::new(channel);
    let mut tally = Tally::default();
    let mut i = start_at;
    while Instant::now() < plan.deadline {
        let Some((opening, moves)) = plan.games[i % plan.games.len()].split_first() else {
            break;
        };
        i = i.wrapping_add(1);
        if let Err(e) = grpc.ready().await {
            tally.error(&format!("{:?}", Status::unavailable(e.to_string()).code()));
            return tally;
        }
        let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(1);
        let outgoing =
            futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|b| (b, rx)) });
        if tx.send(opening.clone()).await.is_err() {
            break;
        }
        let codec = PreEncoded::<pb::GameStatus>::new(&plan.replies);
        let path = PathAndQuery::from_static(WATCH);
        let mut answers = match grpc
            .streaming(tonic::Request::new(outgoing), path, codec)
            .await
        {
            Ok(r) => r.into_inner(),
            Err(status) => {
                tally.error(&format!("{:?}", status.code()));
                continue;
            }
        };
        // The opening's answer.
        if let Err(status) = answers.message().await {
            tally.error(&format!("{:?}", status.code()));
            continue;
        }
        for m in moves {
            if !plan.go_on() {
                return tally;
            }
            let began = Instant::now();
            if tx.send(m.clone()).await.is_err() {
                tally.error("StreamEnded");
                break;
            }
            let answer = answers.message().await;
            tally.latencies_us.push(micros_since(began));
            match answer {
                Ok(Some(status)) if status.error.is_none() => tally.ok += 1,
                Ok(Some(_)) => tally.error("InvalidArgument"),
                Ok(None) => {
                    tally.error("StreamEnded");
                    break;
                }
                Err(status) => {
                    tally.error(&format!("{:?}", status.code()));
                    break;
                }
            }
        }
    }
    tally
}

/// For `watch`: every game of the records, as its messages encoded once (the opening, then a
/// message per move, ICCS).
fn games(args: &LoadArgs) -> Result<Vec<Vec<Bytes>>, String> {
    if args.rpc != Rpc::Watch {
        return Ok(Vec::new());
    }
    let path = &input_path(args.records.as_ref(), "--records", "tests/data/pgn")?;
    let files = record_files(path, "--records")?;
    let mut out = Vec::new();
    for file in files {
        let bytes =
            std::fs::read(&file).map_err(|e| format!("load: --records {}: {e}", file.display()))?;
        let games = qili::record::read_games(&bytes)
            .map_err(|e| format!("load: --records {}: {e}", file.display()))?;
        for (n, g) in games.iter().enumerate() {
            let encode = |m: pb::watch_request::Message| -> Bytes {
                pb::WatchRequest { message: Some(m) }.encode_to_vec().into()
            };
            let mut messages = vec![encode(pb::watch_request::Message::Open(
                pb::AdjudicateRequest {
                    request_id: format!("{} #{}", file.display(), n + 1),
                    fen: g.start.fen(),
                    notation: pb::Notation::Iccs.into(),
                    detail: args.detail.pb().into(),
                    ..Default::default()
                },
            ))];
            messages.extend(g.moves.iter().map(|m| {
                encode(pb::watch_request::Message::Play(pb::WatchMoves {
                    moves: vec![m.to_string()],
                }))
            }));
            out.push(messages);
        }
    }
    if out.is_empty() {
        return Err(format!("load: no games in {}", path.display()));
    }
    Ok(out)
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    // Nearest-rank percentile.
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(us: u64) -> String {
    format!("{:.3} ms", us as f64 / 1000.0)
}

/// The messages to send, each encoded once.
fn bodies(args: &LoadArgs) -> Result<Vec<Bytes>, String> {
    if args.rpc == Rpc::Watch {
        return Ok(Vec::new());
    }
    if args.rpc == Rpc::Health {
        let check = tonic_health::pb::HealthCheckRequest {
            service: "qili.v1.Qili".into(),
        };
        return Ok(vec![check.encode_to_vec().into()]);
    }
    let path = input_path(args.cases.as_ref(), "--cases", "cases")?;
    Ok(requests(&path, args.detail)?
        .iter()
        .map(|r| r.encode_to_vec().into())
        .collect())
}

/// The CPU time this thread has run, from /proc (Linux).
fn thread_cpu() -> Result<Duration, String> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat")
        .map_err(|e| format!("load: cannot read /proc/thread-self/schedstat: {e}"))?;
    let ns = text
        .split_whitespace()
        .next()
        .and_then(|n| n.parse::<u64>().ok())
        .ok_or("load: /proc/thread-self/schedstat is not as expected")?;
    Ok(Duration::from_nanos(ns))
}

/// `--rpc in-process`: the requests ruled here, one after another, for the duration; prints the
/// CPU time per ruling beside the summary's usual lines.
fn in_process(args: &LoadArgs) -> Result<ExitCode, String> {
    let path = input_path(args.cases.as_ref(), "--cases", "cases")?;
    let mut messages = requests(&path, args.detail)?;
    let requests = messages
        .iter()
        .map(|r| convert::into_request(r.clone()).map(|(request, _, _)| request))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|f| format!("load: {}: {}", path.display(), f.message))?;
    // The messages are kept for the cold runs' other code only.
    if args.cold_kb.is_none() {
        messages.clear();
    }
    let mut scratch = vec![0u8; args.cold_kb.unwrap_or(0) * 1024];
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.duration);
    let cpu_before = thread_cpu()?;
    let (mut lat, mut errors) = (Vec::new(), 0u64);
    'run: loop {
        for (n, request) in requests.iter().enumerate() {
            if Instant::now() >= deadline || lat.len() as u64 >= args.max_requests {
                break 'run;
            }
            if let Some(m) = messages.get(n) {
                chill(&mut scratch, m, lat.len());
            }
            let t = Instant::now();
            if std::hint::black_box(qili::request::adjudicate(request)).is_err() {
                errors += 1;
            }
            lat.push(u64::try_from(t.elapsed().as_micros()).unwrap_or(u64::MAX));
        }
    }
    let cpu = thread_cpu()?.saturating_sub(cpu_before);
    // The cold runs' other work alone, as many times, to take it out of the CPU time.
    let chilled = if messages.is_empty() {
        Duration::ZERO
    } else {
        let before = thread_cpu()?;
        for n in 0..lat.len() {
            chill(&mut scratch, &messages[n % messages.len()], n);
        }
        thread_cpu()?.saturating_sub(before)
    };
    let elapsed = started.elapsed().as_secs_f64();
    lat.sort_unstable();
    let n = lat.len() as u64;
    outln!("target: this process (no server)");
    outln!(
        "rpc: {}",
        format!("in-process, detail {:?}", args.detail).to_lowercase()
    );
    outln!("duration: {elapsed:.2} s, cases: {}", requests.len());
    outln!("requests: {n}");
    outln!("ok: {}", n - errors);
    outln!("errors: {errors}");
    outln!("requests/s: {:.0}", n as f64 / elapsed.max(1e-9));
    outln!(
        "latency: p50 {} p90 {} p99 {} max {}",
        ms(percentile(&lat, 50.0)),
        ms(percentile(&lat, 90.0)),
        ms(percentile(&lat, 99.0)),
        ms(lat.last().copied().unwrap_or(0)),
    );
    outln!(
        "cpu per call: {:.1} us",
        cpu.as_secs_f64() * 1e6 / n.max(1) as f64
    );
    if let Some(kb) = args.cold_kb {
        outln!(
            "ruling cpu per call: {:.1} us (less the {kb} KB written and the request recoded, \
             run alone: {:.1} us a call)",
            cpu.saturating_sub(chilled).as_secs_f64() * 1e6 / n.max(1) as f64,
            chilled.as_secs_f64() * 1e6 / n.max(1) as f64
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The cold runs' work between two rulings: a byte written in each cache line of `scratch`
/// (evicting the ruling's tables and code from the caches), then the request encoded, decoded
/// and printed (running other code, as a transport does).
fn chill(scratch: &mut [u8], message: &pb::AdjudicateRequest, n: usize) {
    let mark = n as u8;
    for line in scratch.chunks_mut(64) {
        line[0] = line[0].wrapping_add(mark);
    }
    let bytes = message.encode_to_vec();
    if let Ok(back) = pb::AdjudicateRequest::decode(bytes.as_slice()) {
        std::hint::black_box(format!("{back:?}"));
    }
    std::hint::black_box(&scratch);
}

/// Runs the load and prints the summary.
pub fn run(args: LoadArgs) -> Result<ExitCode, String> {
    let url = loopback_url(&args.addr)?;
    if args.concurrency == 0 {
        return Err("load: --concurrency must be at least 1".to_string());
    }
    if args.duration == 0 {
        return Err("load: --duration must be at least 1 second".to_string());
    }
    if let Some(records) = &args.platform_mix {
        return platform_mix(records);
    }
    if args.rpc == Rpc::InProcess {
        return in_process(&args);
    }
    if args.cold_kb.is_some() {
        return Err("load: --cold-kb is for --rpc in-process only".to_string());
    }
    let bodies = bodies(&args)?;
    let games = games(&args)?;
    let cases = bodies.len().max(games.len());

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("load: cannot start the runtime: {e}"))?;
    runtime.block_on(async move {
        let endpoint = Endpoint::from_shared(url.clone())
            .map_err(|e| format!("load: bad address {url}: {e}"))?
            .connect_timeout(CONNECT_TIMEOUT)
            .tcp_nodelay(true)
            .timeout(CALL_TIMEOUT);
        let mut channels = Vec::new();
        for _ in 0..args.connections.clamp(1, args.concurrency) {
            match endpoint.connect().await {
                Ok(channel) => channels.push(channel),
                Err(e) => {
                    eprintln!("qili: load: cannot connect to {url}: {e}");
                    return Ok(ExitCode::FAILURE);
                }
            }
        }
        let started = Instant::now();
        let plan = Arc::new(Plan {
            rpc: args.rpc,
            bodies,
            games,
            deadline: started + Duration::from_secs(args.duration),
            sent: AtomicU64::new(0),
            max_requests: args.max_requests,
            replies: Arc::default(),
        });
        let handles: Vec<_> = if args.rpc == Rpc::Stream {
            // One stream per connection; the window spread over them.
            let k = channels.len();
            let stride = cases / k;
            channels
                .iter()
                .enumerate()
                .map(|(n, ch)| {
                    let window = args.concurrency / k + usize::from(n < args.concurrency % k);
                    tokio::spawn(stream_worker(
                        ch.clone(),
                        Arc::clone(&plan),
                        n * stride.max(1),
                        window,
                    ))
                })
                .collect()
        } else if args.rpc == Rpc::Watch {
            // N games in flight, a stream each, spread over the connections.
            (0..args.concurrency)
                .map(|n| {
                    tokio::spawn(watch_worker(
                        channels[n % channels.len()].clone(),
                        Arc::clone(&plan),
                        n,
                    ))
                })
                .collect()
        } else {
            let stride = cases / args.concurrency;
            (0..args.concurrency)
                .map(|n| {
                    tokio::spawn(unary_worker(
                        channels[n % channels.len()].clone(),
                        Arc::clone(&plan),
                        n * stride.max(1),
                    ))
                })
                .collect()
        };
        let mut total = Tally::default();
        let mut panicked = 0u64;
        for handle in handles {
            match handle.await {
                Ok(t) => total.absorb(t),
                Err(_) => panicked += 1,
            }
        }
        let elapsed = started.elapsed().as_secs_f64();
        let mut lat = total.latencies_us;
        lat.sort_unstable();
        let requests_sent = lat.len() as u64;
        let errors: u64 = total.errors.values().sum();
        let rpc = match args.rpc {
            Rpc::Health => "health".to_string(),
            Rpc::Adjudicate => format!("adjudicate, detail {:?}", args.detail).to_lowercase(),
            Rpc::Stream => format!("stream, detail {:?}", args.detail).to_lowercase(),
            Rpc::Status => format!("status, detail {:?}", args.detail).to_lowercase(),
            Rpc::Watch => {
                format!("watch (a request is a move), detail {:?}", args.detail).to_lowercase()
            }
            Rpc::InProcess => "in-process".to_string(),
        };
        outln!("target: {url}");
        outln!("rpc: {rpc}");
        outln!(
            "concurrency: {}, connections: {}, duration: {:.2} s, cases: {}",
            args.concurrency,
            channels.len(),
            elapsed,
            cases
        );
        outln!("requests: {requests_sent}");
        outln!("ok: {}", total.ok);
        outln!("errors: {errors}");
        for (code, n) in &total.errors {
            outln!("  {code}: {n}");
        }
        if panicked > 0 {
            outln!("failed workers: {panicked}");
        }
        outln!(
            "requests/s: {:.0}",
            requests_sent as f64 / elapsed.max(1e-9)
        );
        outln!(
            "latency: p50 {} p90 {} p99 {} max {}",
            ms(percentile(&lat, 50.0)),
            ms(percentile(&lat, 90.0)),
            ms(percentile(&lat, 99.0)),
            ms(lat.last().copied().unwrap_or(0)),
        );
        let replies = plan.replies.count.load(Ordering::Relaxed);
        let bytes = plan.replies.bytes.load(Ordering::Relaxed);
        outln!(
            "reply bytes: {:.0} mean",
            bytes as f64 / replies.max(1) as f64
        );
        Ok(ExitCode::SUCCESS)
    })
}

#[cfg(test)]
mod tests {
    use super::loopback_url;

    #[test]
    fn accepts_loopback_only() {
        for ok in [
            "127.0.0.1:50051",
            "http://127.0.0.1:1",
            "127.1.2.3:80",
            "localhost:50051",
            "http://[::1]:50051",
        ] {
            assert!(loopback_url(ok).is_ok(), "{ok}");
        }
        for bad in [
            "10.0.0.1:50051",
            "http://10.0.0.1:50051",
            "example.com:50051",
            "[::2]:1",
            "0.0.0.0:50051",
            "127.0.0.1",
            "https://127.0.0.1:50051",
            "http://user@evil.com:1",
            "localhost.evil.com:1",
        ] {
            assert!(loopback_url(bad).is_err(), "{bad}");
        }
    }
}
