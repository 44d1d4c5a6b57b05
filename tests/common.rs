//! Shared by the integration tests that run the built binary: a `qili serve` child on an ephemeral
//! loopback port, its address read from its first JSON log line, its log kept for inspection, and
//! the child killed and reaped on drop.
// Each test crate uses a different part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The built `qili` binary.
pub const QILI: &str = env!("CARGO_BIN_EXE_qili");

/// The binary `qili serve` runs from: `QILI_SERVE_BIN` if set (to check that a test fails against
/// an older build), else [`QILI`].
pub fn serve_bin() -> String {
    std::env::var("QILI_SERVE_BIN").unwrap_or_else(|_| QILI.to_string())
}

/// A `qili serve` child on `127.0.0.1:0`, killed and reaped on drop.
pub struct Server {
    child: Child,
    /// The bound address (`127.0.0.1:PORT`).
    pub addr: String,
    log: Arc<Mutex<Vec<String>>>,
    reader: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts `qili serve` with the default limits.
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// Starts `qili serve` with `extra` flags (`--max-concurrent 2`, …) and waits for it to listen.
    pub fn start_with(extra: &[&str]) -> Server {
        Server::start_logging(extra, "info")
    }

    /// Starts `qili serve` with `extra` flags and `RUST_LOG` set to `rust_log`, which must let the
    /// "serving" line through.
    pub fn start_logging(extra: &[&str], rust_log: &str) -> Server {
        let mut child = Command::new(serve_bin())
            .args(["serve", "--addr", "127.0.0.1:0", "--log-format", "json"])
            .args(extra)
            .env("RUST_LOG", rust_log)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start qili serve");
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        // The first log line says where it listens.
        let first = lines
            .next()
            .expect("qili serve wrote no log line")
            .expect("read the log");
        let log: serde_json::Value = serde_json::from_str(&first).expect("JSON log line");
        assert_eq!(log["message"], "serving", "{first}");
        let addr = log["addr"].as_str().expect("addr").to_string();
        let kept = Arc::new(Mutex::new(vec![first]));
        // Keep draining the log so the server never blocks on a full pipe.
        let sink = Arc::clone(&kept);
        let reader = std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                sink.lock().expect("log lock").push(line);
            }
        });
        Server {
            child,
            addr,
            log: kept,
            reader: Some(reader),
        }
    }

    /// `http://ADDR`, for a tonic channel.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The child's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The log lines written so far.
    pub fn log(&self) -> Vec<String> {
        self.log.lock().expect("log lock").clone()
    }

    /// The access log's lines (`"message":"call"`), waiting up to `limit` until there are at least
    /// `n` (it is written as each answer ends, a little after the client has it).
    pub fn calls(&self, n: usize, limit: Duration) -> Vec<serde_json::Value> {
        self.calls_of(None, n, limit)
    }

    /// The same, of one RPC (`/qili.v1.Qili/AdjudicateStream`) or of all.
    pub fn calls_of(&self, rpc: Option<&str>, n: usize, limit: Duration) -> Vec<serde_json::Value> {
        let start = Instant::now();
        loop {
            let calls: Vec<serde_json::Value> = self
                .log()
                .iter()
                .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
                .filter(|v| v["message"] == "call" && rpc.is_none_or(|r| v["rpc"] == r))
                .collect();
            if calls.len() >= n || start.elapsed() > limit {
                return calls;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends SIGTERM.
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -TERM failed");
    }

    /// Waits for the child to exit (at most `limit`, only to avoid hanging; panics after it) and
    /// returns its status and the whole log.
    pub fn wait_exit(&mut self, limit: Duration) -> (ExitStatus, Vec<String>) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            assert!(
                start.elapsed() < limit,
                "qili serve did not exit within {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        // The pipe closes with the process: the reader has everything once it ends.
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        (status, self.log())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Connects a tonic channel to `url`, retrying briefly (the server listens before it logs, so the
/// first try normally succeeds).
pub async fn channel(url: &str) -> tonic::transport::Channel {
    for _ in 0..100 {
        if let Ok(c) = tonic::transport::Channel::from_shared(url.to_string())
            .expect("url")
            .connect()
            .await
        {
            return c;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("cannot connect to {url}");
}

/// Threads and open file descriptors of process `pid` (Linux `/proc`); `None` elsewhere.
pub fn threads_and_fds(pid: u32) -> Option<(usize, usize)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let threads = status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))?
        .trim()
        .parse()
        .ok()?;
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count();
    Some((threads, fds))
}

/// Checks health (`""` and `qili.v1.Qili`) in a loop while a test runs; `finish` asserts every
/// answer was SERVING.
pub struct HealthWatch {
    stop: Arc<AtomicBool>,
    task: tokio::task::JoinHandle<(usize, Vec<String>)>,
}

impl HealthWatch {
    pub async fn start(url: &str) -> HealthWatch {
        use tonic_health::pb::health_check_response::ServingStatus;
        use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};
        let mut health = HealthClient::new(channel(url).await);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let task = tokio::spawn(async move {
            let (mut calls, mut wrong) = (0, Vec::new());
            // At least one check, however fast the test is.
            while calls == 0 || !flag.load(Ordering::Relaxed) {
                for service in ["", "qili.v1.Qili"] {
                    let ask = HealthCheckRequest {
                        service: service.into(),
                    };
                    match health.check(ask).await {
                        Ok(r) if r.get_ref().status == ServingStatus::Serving as i32 => {}
                        other => wrong.push(format!("{service:?}: {other:?}")),
                    }
                    calls += 1;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            (calls, wrong)
        });
        HealthWatch { stop, task }
    }

    pub async fn finish(self) {
        self.stop.store(true, Ordering::Relaxed);
        let (calls, wrong) = self.task.await.expect("health task");
        assert!(calls > 0);
        assert!(wrong.is_empty(), "health not SERVING: {wrong:?}");
    }
}

/// Sends the raw bytes `body` as the message of `method`, as a client with broken encoding would.
#[derive(Clone, Copy, Debug, Default)]
pub struct RawCodec;

impl tonic::codec::Codec for RawCodec {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
    type Encoder = RawCodec;
    type Decoder = RawCodec;
    fn encoder(&mut self) -> RawCodec {
        RawCodec
    }
    fn decoder(&mut self) -> RawCodec {
        RawCodec
    }
}

impl tonic::codec::Encoder for RawCodec {
    type Item = Vec<u8>;
    type Error = tonic::Status;
    fn encode(
        &mut self,
        item: Vec<u8>,
        dst: &mut tonic::codec::EncodeBuf<'_>,
    ) -> Result<(), tonic::Status> {
        use prost::bytes::BufMut;
        dst.put_slice(&item);
        Ok(())
    }
}

impl tonic::codec::Decoder for RawCodec {
    type Item = Vec<u8>;
    type Error = tonic::Status;
    fn decode(
        &mut self,
        src: &mut tonic::codec::DecodeBuf<'_>,
    ) -> Result<Option<Vec<u8>>, tonic::Status> {
        use prost::bytes::Buf;
        Ok(Some(src.copy_to_bytes(src.remaining()).to_vec()))
    }
}

/// Calls `method` with the raw bytes `body` as its message and returns the raw answer.
pub async fn raw_unary(
    ch: tonic::transport::Channel,
    method: &'static str,
    body: Vec<u8>,
) -> Result<Vec<u8>, tonic::Status> {
    let mut grpc = tonic::client::Grpc::new(ch);
    grpc.ready().await.expect("ready");
    let path = tonic::codegen::http::uri::PathAndQuery::from_static(method);
    grpc.unary(tonic::Request::new(body), path, RawCodec)
        .await
        .map(|r| r.into_inner())
}

/// A fresh directory under the system's temp dir, removed on drop.
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    /// `qili-test-PID-NAME` in the temp dir, empty.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("qili-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The English line of an error printed in both languages (`--lang both`, the default: the
/// Chinese line, then the English one), checked to be two lines, the first with Chinese in it.
pub fn english_line(stderr: &str) -> &str {
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "not one error in two languages: {stderr}");
    assert!(
        lines[0]
            .chars()
            .any(|c| ('\u{4E00}'..='\u{9FFF}').contains(&c)),
        "the first line is not Chinese: {stderr}"
    );
    lines[1]
}
