//! Faults (issue 6 item 6) against a real `qili serve` child: clients that vanish in the middle of
//! a stream, client deadlines shorter than the ruling, and SIGTERM under load. The server keeps
//! serving the others (health stays SERVING), calls fail only with the documented codes, nothing
//! leaks (threads and open descriptors come back), and SIGTERM ends the process with status 0.

use super::common::{HealthWatch, Server, channel, threads_and_fds};
use futures::StreamExt;
use qili::service::pb::qili_client::QiliClient;
use qili::service::pb::{self, adjudicate_stream_response::Result as Answer};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tonic::Code;
use tonic::transport::Channel;

/// A heavy ruling: open kings among both sides' rooks, horses and cannons, so every move of the
/// cycle runs the mate-threat search to its budget (see tests/hostile.rs).
const HEAVY: (&str, &str) = (
    "9/5c3/2C1k2n1/3N5/3N3r1/9/4c4/1R7/1n3K2R/r6C1 w",
    "c7b7 f8f2 b7c7 f2f8 c7b7 f8f2 b7c7 f2f8",
);

/// Red's rook checks on ranks 9 and 8; black's king steps up and down (a light ruling).
const LIGHT: (&str, &str) = (
    "4k4/R8/9/9/9/9/9/9/9/3K5 w",
    "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9",
);

fn request(id: &str, (fen, moves): (&str, &str)) -> pb::AdjudicateRequest {
    pb::AdjudicateRequest {
        request_id: id.to_string(),
        fen: fen.to_string(),
        moves: moves.split_whitespace().map(String::from).collect(),
        ..Default::default()
    }
}

fn assert_no_panic(log: &[String]) {
    assert!(
        !log.iter().any(|l| l.contains("panicked")),
        "the server panicked: {log:#?}"
    );
}

/// Polls until the server's threads and descriptors are back within `slack` of `baseline`
/// (blocking threads linger up to 10 s after their last ruling); the last reading on failure.
async fn settles(pid: u32, baseline: (usize, usize), slack: (usize, usize)) -> (usize, usize) {
    let start = Instant::now();
    loop {
        let now = threads_and_fds(pid).expect("/proc readable");
        if now.0 <= baseline.0 + slack.0 && now.1 <= baseline.1 + slack.1 {
            return now;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "threads/fds {now:?} did not come back near {baseline:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn clients_dropping_streams_mid_way_leave_the_server_serving_and_leak_nothing() {
    let server = Server::start_with(&["--max-concurrent", "2"]);
    let url = server.url();
    let health = HealthWatch::start(&url).await;
    let mut other = QiliClient::new(channel(&url).await);

    // Warm up (blocking threads, buffers), then take the baseline.
    for i in 0..4 {
        let r = other
            .adjudicate(request(&format!("warm-{i}"), HEAVY))
            .await
            .expect("warm-up ruling");
        assert_ne!(r.into_inner().verdict(), pb::Verdict::NoRepetition);
    }
    let baseline = threads_and_fds(server.pid());

    // Another client keeps calling while streams are abandoned.
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = Arc::clone(&done);
    let mut busy = other.clone();
    let others = tokio::spawn(async move {
        let mut outcomes = Vec::new();
        while outcomes.is_empty() || !flag.load(Ordering::Relaxed) {
            let r = busy.adjudicate(request("other", LIGHT)).await;
            outcomes.push(r.map(|r| r.into_inner().verdict()).map_err(|e| e.code()));
        }
        outcomes
    });

    for round in 0..12 {
        // A new connection each round, dropped with everything on it.
        let ch = Channel::from_shared(url.clone())
            .expect("url")
            .connect()
            .await
            .expect("connect");
        let mut client = QiliClient::new(ch);
        let (tx, rx) = tokio::sync::mpsc::channel(16);
        for i in 0..6 {
            tx.send(request(&format!("r{round}-{i}"), HEAVY))
                .await
                .expect("queue");
        }
        let mut answers = client
            .adjudicate_stream(tokio_stream::wrappers::ReceiverStream::new(rx))
            .await
            .expect("stream")
            .into_inner();
        if round % 3 != 0 {
            // Read one answer first; every third round vanishes before any answer.
            let first = answers.next().await.expect("an answer").expect("ok");
            assert!(matches!(first.result, Some(Answer::Ruling(_))), "{first:?}");
        }
        drop(answers);
        drop(tx);
        drop(client);
    }
    done.store(true, Ordering::Relaxed);
    let outcomes = others.await.expect("other client");
    // Served throughout: rulings, or at worst the deadline while abandoned rulings held the slots.
    assert!(
        outcomes
            .iter()
            .all(|o| matches!(o, Ok(pb::Verdict::RedLoses) | Err(Code::DeadlineExceeded))),
        "{outcomes:?}"
    );
    let after = other
        .adjudicate(request("after", LIGHT))
        .await
        .expect("served after the disconnects");
    assert_eq!(after.into_inner().verdict(), pb::Verdict::RedLoses);
    health.finish().await;

    if let Some(baseline) = baseline {
        // Threads: at most the blocking pool's (--max-concurrent) over the baseline; descriptors:
        // every dropped connection closed.
        settles(server.pid(), baseline, (2, 1)).await;
    }
    // Every abandoned stream has its one access-log line once its connection is gone, as cancelled
    // unless it had ended.
    let streams = server.calls_of(
        Some("/qili.v1.Qili/AdjudicateStream"),
        12,
        Duration::from_secs(20),
    );
    assert_eq!(streams.len(), 12, "{streams:#?}");
    assert!(
        streams
            .iter()
            .all(|v| v["code"] == "CANCELLED" || v["code"] == "OK"),
        "{streams:#?}"
    );
    assert!(
        streams.iter().any(|v| v["code"] == "CANCELLED"),
        "{streams:#?}"
    );
    assert_no_panic(&server.log());
}

#[tokio::test]
async fn a_client_deadline_shorter_than_the_ruling_ends_the_call_and_nothing_else() {
    let server = Server::start();
    let url = server.url();
    let health = HealthWatch::start(&url).await;
    let mut client = QiliClient::new(channel(&url).await);
    // 1 ms always passes: the handler keeps a 1 ms margin, so nothing is left to rule in.
    let mut r = tonic::Request::new(request("hurried", HEAVY));
    r.set_timeout(Duration::from_millis(1));
    let e = client.adjudicate(r).await.expect_err("deadline passes");
    // The handler answers DEADLINE_EXCEEDED just before the client's deadline; tonic's
    // transport, racing it, cancels the call as CANCELLED (README, Limits).
    assert!(
        matches!(e.code(), Code::DeadlineExceeded | Code::Cancelled),
        "1 ms: {e:?}"
    );
    // A few milliseconds may or may not be enough (the ruling takes about that long): either
    // a ruling or a clean deadline error, never anything else.
    for ms in [2, 5, 10, 20] {
        let mut r = tonic::Request::new(request("hurried", HEAVY));
        r.set_timeout(Duration::from_millis(ms));
        if let Err(e) = client.adjudicate(r).await {
            assert!(
                matches!(e.code(), Code::DeadlineExceeded | Code::Cancelled),
                "{ms} ms: {e:?}"
            );
        }
    }
    // The same ruling with time to finish, and the server is none the worse.
    let mut r = tonic::Request::new(request("patient", HEAVY));
    r.set_timeout(Duration::from_secs(30));
    let ruling = client.adjudicate(r).await.expect("ruling").into_inner();
    assert_ne!(ruling.verdict(), pb::Verdict::NoRepetition);
    health.finish().await;
    assert_no_panic(&server.log());
}

#[tokio::test]
async fn sigterm_under_load_drains_and_exits_0() {
    let mut server = Server::start();
    let url = server.url();
    let ok = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for c in 0..4 {
        let ch = channel(&url).await;
        for t in 0..4 {
            let client = QiliClient::new(ch.clone());
            let ok = Arc::clone(&ok);
            let streaming = t == 3;
            tasks.push(tokio::spawn(load(
                client,
                ok,
                streaming,
                format!("{c}-{t}"),
            )));
        }
    }
    // Shut down once calls are flowing.
    let start = Instant::now();
    while ok.load(Ordering::Relaxed) < 16 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no calls succeed"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    server.terminate();
    let mut failures = Vec::new();
    for task in tasks {
        failures.extend(task.await.expect("load task"));
    }
    // Every call either finished or was refused as the server went away: never another code.
    assert!(
        failures
            .iter()
            .all(|s| matches!(s.code(), Code::Unavailable | Code::Cancelled)),
        "{failures:#?}"
    );
    let (status, log) = server.wait_exit(Duration::from_secs(20));
    assert!(status.success(), "exit status {status}");
    assert!(
        log.iter().any(|l| l.contains("SIGTERM received")),
        "{log:#?}"
    );
    assert!(log.iter().any(|l| l.contains("stopped")), "{log:#?}");
    assert_no_panic(&log);
}

/// Calls until the first failure (the server going away) and returns it; every ruling must be
/// right. DEADLINE_EXCEEDED (the server saturated, as documented) is not a failure. Streams send a
/// few requests each, then close.
async fn load(
    mut client: QiliClient<Channel>,
    ok: Arc<AtomicUsize>,
    streaming: bool,
    id: String,
) -> Vec<tonic::Status> {
    for round in 0.. {
        let pick = if round % 2 == 0 { LIGHT } else { HEAVY };
        if streaming {
            let requests: Vec<pb::AdjudicateRequest> = (0..4)
                .map(|i| request(&format!("{id}-{round}-{i}"), pick))
                .collect();
            let mut answers = match client
                .adjudicate_stream(futures::stream::iter(requests))
                .await
            {
                Ok(a) => a.into_inner(),
                Err(e) => return vec![e],
            };
            loop {
                match answers.next().await {
                    None => break,
                    Some(Ok(a)) => match &a.result {
                        Some(Answer::Ruling(_)) => {
                            ok.fetch_add(1, Ordering::Relaxed);
                        }
                        // Saturated: the documented answer, and the stream goes on.
                        Some(Answer::Error(e)) if e.code() == pb::ErrorCode::DeadlineExceeded => {}
                        _ => panic!("{a:?}"),
                    },
                    Some(Err(e)) => return vec![e],
                }
            }
        } else {
            match client.adjudicate(request(&id, pick)).await {
                Ok(r) => {
                    assert_ne!(r.into_inner().verdict(), pb::Verdict::NoRepetition);
                    ok.fetch_add(1, Ordering::Relaxed);
                }
                // Saturated: the documented answer; keep calling.
                Err(e) if e.code() == Code::DeadlineExceeded => {}
                Err(e) => return vec![e],
            }
        }
    }
    unreachable!()
}

/// 22.6: SIGTERM with an `AdjudicateStream`, a `Watch` and a `Health/Watch` open and their clients
/// still connected: the bulk stream answers what it has read and ends with OK, the game ends with
/// OK, the health watch says NOT_SERVING and ends with OK, and the process exits 0 without waiting
/// for its 30 s drain timeout.
#[tokio::test]
async fn sigterm_ends_open_streams_and_exits_before_the_drain_timeout() {
    use pb::watch_request::Message;
    use tonic_health::pb::health_check_response::ServingStatus;
    use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};
    let mut server = Server::start_with(&["--drain-timeout-ms", "30000"]);
    let ch = channel(&server.url()).await;
    let mut client = QiliClient::new(ch.clone());

    // A bulk stream with rulings in hand when the signal comes.
    let (bulk, bulk_rx) = tokio::sync::mpsc::channel(8);
    let mut bulk_answers = client
        .adjudicate_stream(tokio_stream::wrappers::ReceiverStream::new(bulk_rx))
        .await
        .expect("AdjudicateStream")
        .into_inner();
    for i in 0..4 {
        bulk.send(request(&format!("bulk-{i}"), HEAVY))
            .await
            .expect("send");
    }

    // A live game, opened and then silent.
    let (game, game_rx) = tokio::sync::mpsc::channel(4);
    let mut statuses = client
        .watch(tokio_stream::wrappers::ReceiverStream::new(game_rx))
        .await
        .expect("Watch")
        .into_inner();
    let opening = pb::WatchRequest {
        message: Some(Message::Open(pb::AdjudicateRequest {
            request_id: "game".into(),
            ..Default::default()
        })),
    };
    game.send(opening).await.expect("send");
    statuses.next().await.expect("a status").expect("ok");

    // A balancer's health watch.
    let mut health = HealthClient::new(ch)
        .watch(HealthCheckRequest::default())
        .await
        .expect("Health/Watch")
        .into_inner();
    let first = health.next().await.expect("a status").expect("ok");
    assert_eq!(first.status(), ServingStatus::Serving);

    let first = bulk_answers.next().await.expect("an answer").expect("ok");
    assert!(matches!(first.result, Some(Answer::Ruling(_))), "{first:?}");
    let stopping = Instant::now();
    server.terminate();
    let limit = Duration::from_secs(15);
    // What the stream had read is answered (rulings, not errors), then it ends with OK.
    loop {
        let answer = tokio::time::timeout(limit, bulk_answers.next())
            .await
            .expect("AdjudicateStream ends");
        match answer {
            None => break,
            Some(Ok(a)) => assert!(matches!(a.result, Some(Answer::Ruling(_))), "{a:?}"),
            Some(Err(e)) => panic!("AdjudicateStream: {e:?}"),
        }
    }
    let end = tokio::time::timeout(limit, statuses.next())
        .await
        .expect("Watch ends");
    assert!(end.is_none(), "Watch: {end:?}");
    let last = tokio::time::timeout(limit, health.next())
        .await
        .expect("Health/Watch answers")
        .expect("a last status")
        .expect("ok");
    assert_eq!(last.status(), ServingStatus::NotServing);
    let end = tokio::time::timeout(limit, health.next())
        .await
        .expect("Health/Watch ends");
    assert!(end.is_none(), "Health/Watch: {end:?}");

    let (status, log) = server.wait_exit(Duration::from_secs(25));
    assert!(status.success(), "{status}: {log:#?}");
    let took = stopping.elapsed();
    assert!(
        took < limit,
        "exit {took:?} after SIGTERM, drain timeout 30 s"
    );
    assert!(!log.iter().any(|l| l.contains("drain timeout")), "{log:#?}");
    // Each stream has its access-log line, OK.
    for rpc in [
        "/qili.v1.Qili/AdjudicateStream",
        "/qili.v1.Qili/Watch",
        "/grpc.health.v1.Health/Watch",
    ] {
        let calls = server.calls_of(Some(rpc), 1, Duration::ZERO);
        assert!(
            calls.len() == 1 && calls[0]["code"] == "OK",
            "{rpc}: {calls:#?}"
        );
    }
    assert_no_panic(&log);
    drop((bulk, game));
}
