//! The server's log (issue 23.4): a log that cannot be written never takes the service down. A
//! real `qili serve` child whose stderr is `/dev/full` (what a full disk gives: every write fails
//! with ENOSPC) or a pipe nobody reads keeps answering and exits on SIGTERM; lines it could not
//! write are counted and reported once the sink takes lines again. Loopback only; every client is
//! bounded in count and time, with margins for a loaded 2-core machine.

use super::common::{channel, serve_bin};
use futures::StreamExt;
use qili::service::pb::qili_client::QiliClient;
use qili::service::pb::{self, adjudicate_stream_response::Result as Answer};
use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStderr, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

/// How long one call may take before the test calls the server stuck.
const CALL_LIMIT: Duration = Duration::from_secs(15);

/// Red's rook checks, black's king steps up and down: a ruling of well under a millisecond.
fn checks(id: &str) -> pb::AdjudicateRequest {
    pb::AdjudicateRequest {
        request_id: id.to_string(),
        fen: "4k4/R8/9/9/9/9/9/9/9/3K5 w".into(),
        moves: "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9"
            .split(' ')
            .map(String::from)
            .collect(),
        ..Default::default()
    }
}

/// A `qili serve` child with `stderr` as its log, killed and reaped on drop.
struct Served {
    child: Child,
    addr: String,
}

impl Served {
    fn spawn(addr: &str, stderr: Stdio) -> Served {
        let child = Command::new(serve_bin())
            .args(["serve", "--addr", addr, "--log-format", "json"])
            .args(["--max-concurrent", "2", "--drain-timeout-ms", "3000"])
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("start qili serve");
        Served {
            child,
            addr: addr.to_string(),
        }
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// SIGTERM, then the exit status and how long it took (failing after `limit`).
    fn terminate(&mut self, limit: Duration) -> (ExitStatus, Duration) {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -TERM failed");
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return (status, start.elapsed());
            }
            assert!(
                start.elapsed() < limit,
                "qili serve did not exit within {limit:?} of SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A server whose stderr is a pipe the test reads only its first line from; that line (the
/// "serving" one) says where it listens.
fn with_stalled_pipe() -> (Served, BufReader<ChildStderr>) {
    let mut server = Served::spawn("127.0.0.1:0", Stdio::piped());
    let mut log = BufReader::new(server.child.stderr.take().expect("stderr"));
    let mut first = String::new();
    log.read_line(&mut first).expect("the first log line");
    let line: serde_json::Value = serde_json::from_str(&first).expect("a JSON line");
    assert_eq!(line["message"], "serving", "{first}");
    server.addr = line["addr"].as_str().expect("addr").to_string();
    (server, log)
}

/// `n` unary calls, 16 at a time, half rulings and half health checks: each must succeed within
/// [`CALL_LIMIT`].
async fn calls(url: &str, n: usize) {
    let ch = channel(url).await;
    let (qili, health) = (QiliClient::new(ch.clone()), HealthClient::new(ch));
    let answered = futures::stream::iter(0..n)
        .map(|i| {
            let (mut qili, mut health) = (qili.clone(), health.clone());
            async move {
                let call = async {
                    if i % 2 == 0 {
                        let ruling = qili.adjudicate(checks(&format!("c{i}"))).await?;
                        assert_eq!(ruling.get_ref().verdict, pb::Verdict::RedLoses as i32);
                    } else {
                        health.check(HealthCheckRequest::default()).await?;
                    }
                    Ok::<_, tonic::Status>(())
                };
                match tokio::time::timeout(CALL_LIMIT, call).await {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => panic!("call {i}: {e:?}"),
                    Err(_) => panic!("call {i}: no answer within {CALL_LIMIT:?}"),
                }
            }
        })
        .buffer_unordered(16)
        .count()
        .await;
    assert_eq!(answered, n);
}

/// One `AdjudicateStream` of `n` light requests (one access-log line each), every answer read.
async fn stream(url: &str, n: usize) {
    let mut client = QiliClient::new(channel(url).await);
    let requests = futures::stream::iter((0..n).map(|i| checks(&format!("s{i}"))));
    let mut answers = client
        .adjudicate_stream(requests)
        .await
        .expect("the stream opens")
        .into_inner();
    let mut got = 0;
    while let Some(answer) = tokio::time::timeout(CALL_LIMIT, answers.next())
        .await
        .unwrap_or_else(|_| panic!("no answer within {CALL_LIMIT:?} after {got}"))
    {
        let answer = answer.unwrap_or_else(|e| panic!("after {got} answers: {e:?}"));
        assert!(
            matches!(answer.result, Some(Answer::Ruling(_))),
            "{answer:?}"
        );
        got += 1;
    }
    assert_eq!(got, n);
}

/// A free loopback port (a server whose log cannot be read cannot say where it listens).
fn free_addr() -> String {
    let probe = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    probe.local_addr().expect("addr").to_string()
}

/// stderr is `/dev/full`, as on a full disk: every write of the log fails with ENOSPC. The server
/// used to panic on its first log line (exit 101), and a connection's task on each access line.
#[tokio::test]
async fn a_server_whose_log_is_dev_full_keeps_answering_and_exits_on_sigterm() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let mut server = Served::spawn(&free_addr(), Stdio::from(full));
    calls(&server.url(), 600).await;
    stream(&server.url(), 2_000).await;
    let (status, _) = server.terminate(Duration::from_secs(20));
    assert!(status.success(), "{status}");
}

/// stderr is a pipe nobody reads after the first line: its 64 KiB fill after about 500 calls. The
/// server used to freeze there, calls and SIGTERM alike, until the pipe was read.
#[tokio::test]
async fn a_log_pipe_nobody_reads_holds_up_no_call_and_no_shutdown() {
    let (mut server, _unread) = with_stalled_pipe();
    calls(&server.url(), 3_000).await;
    // More lines than the writer queues: the rest are dropped, not waited for.
    stream(&server.url(), 20_000).await;
    calls(&server.url(), 100).await;
    // Nothing in flight: the drain has nothing to wait for, and neither has the log.
    let (status, took) = server.terminate(Duration::from_secs(20));
    assert!(status.success(), "{status}");
    assert!(took < Duration::from_secs(10), "{took:?}");
}

/// Lines dropped while nobody read the log are counted, and reported in one WARN line once the
/// log is read again.
#[tokio::test]
async fn lost_log_lines_are_counted_and_reported_when_the_sink_recovers() {
    let (mut server, unread) = with_stalled_pipe();
    stream(&server.url(), 20_000).await;
    // Read again: the writer writes what it kept, then says what it lost.
    let (lines, read) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in unread.lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let start = Instant::now();
    let report = loop {
        let line = read
            .recv_timeout(Duration::from_secs(30))
            .expect("a log line");
        let v: serde_json::Value = serde_json::from_str(&line).expect("a JSON line");
        if v["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("log lines lost"))
        {
            break v;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no report");
    };
    assert_eq!(report["level"], "WARN", "{report}");
    // 20 000 answers' lines, of which the pipe (64 KiB) and the queue (16 384 lines) hold at most
    // about 17 000.
    let lost = report["lost_total"].as_u64().expect("lost_total");
    assert!((2_000..=20_000).contains(&lost), "{report}");
    assert_eq!(report["lost"], report["lost_total"], "{report}");
    // Calls go on being logged.
    calls(&server.url(), 10).await;
    let (status, _) = server.terminate(Duration::from_secs(20));
    assert!(status.success(), "{status}");
    let mut tail = Vec::new();
    while let Ok(line) = read.recv_timeout(Duration::from_secs(5)) {
        tail.push(line);
    }
    assert!(
        tail.iter().any(|l| l.contains("\"message\":\"stopped\"")),
        "{tail:#?}"
    );
}
