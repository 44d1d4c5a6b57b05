//! The server's limits and their defaults.

use super::cors::AllowedOrigins;
use std::time::Duration;

/// Default address `qili serve` listens on.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50051";
/// Default largest request message, in bytes (1 MiB).
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 1 << 20;
/// Default most moves in one request.
pub const DEFAULT_MAX_MOVES: usize = 1024;
/// Default deadline of one ruling, in milliseconds (a shorter client deadline wins).
pub const DEFAULT_DEADLINE_MS: u64 = 2_000;
/// Default most calls waiting for the work pool; more are refused with RESOURCE_EXHAUSTED.
pub const DEFAULT_MAX_QUEUE: usize = 1024;
/// Default most connections open at once; more wait in the listen backlog.
pub const DEFAULT_MAX_CONNECTIONS: usize = 1000;
/// Default time, in milliseconds, a connection may stay open with no call in flight.
pub const DEFAULT_IDLE_TIMEOUT_MS: u64 = 60_000;
/// Default time, in milliseconds, a request's head (HTTP/1.1) and its body (unary calls, the JSON
/// API) may take to arrive.
pub const DEFAULT_READ_TIMEOUT_MS: u64 = 10_000;
/// Default time, in milliseconds, a write may wait for the client to take the bytes.
pub const DEFAULT_WRITE_TIMEOUT_MS: u64 = 10_000;
/// Default time, in milliseconds, that shutdown waits for in-flight calls before closing them.
pub const DEFAULT_DRAIN_MS: u64 = 10_000;

/// Limits of a running server. `Default` gives the documented defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceConfig {
    /// Largest request message accepted, in bytes; larger ones get RESOURCE_EXHAUSTED.
    pub max_message_bytes: usize,
    /// Most moves in one request; more get RESOURCE_EXHAUSTED.
    pub max_moves: usize,
    /// Threads of the work pool: most rulings (and record readings, sheet renderings) computed
    /// at once; further calls wait in the queue until their deadline.
    pub max_concurrent: usize,
    /// Most calls waiting for the work pool; a call that finds the queue full is answered
    /// RESOURCE_EXHAUSTED at once (the server is saturated).
    pub max_queue: usize,
    /// Deadline of one ruling, waiting included; the client's `grpc-timeout` applies if shorter.
    /// Zero makes every ruling miss its deadline (for tests).
    pub deadline: Duration,
    /// On shutdown, how long in-flight calls may take to finish before their connections close.
    pub drain_timeout: Duration,
    /// Most connections open at once; further clients wait in the listen backlog until one
    /// closes. Keep it under the process's file-descriptor limit (`ulimit -n`).
    pub max_connections: usize,
    /// A connection with no call in flight for this long is closed (HTTP/2 peers are also pinged
    /// this often and dropped if they do not answer within `write_timeout`).
    pub idle_timeout: Duration,
    /// A request's head (HTTP/1.1) and its whole body must arrive within this long, else the call
    /// is refused and its connection closed; the bodies of `AdjudicateStream`, `Watch` and
    /// reflection, streams of messages, are exempt.
    pub read_timeout: Duration,
    /// A write that the client does not take for this long closes the connection.
    pub write_timeout: Duration,
    /// Origins whose pages may call the JSON API and gRPC-Web from a browser (CORS); none by
    /// default.
    pub allow_origins: AllowedOrigins,
}

impl Default for ServiceConfig {
    fn default() -> ServiceConfig {
        ServiceConfig {
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            max_moves: DEFAULT_MAX_MOVES,
            max_concurrent: default_concurrency(),
            max_queue: DEFAULT_MAX_QUEUE,
            deadline: Duration::from_millis(DEFAULT_DEADLINE_MS),
            drain_timeout: Duration::from_millis(DEFAULT_DRAIN_MS),
            max_connections: DEFAULT_MAX_CONNECTIONS,
            idle_timeout: Duration::from_millis(DEFAULT_IDLE_TIMEOUT_MS),
            read_timeout: Duration::from_millis(DEFAULT_READ_TIMEOUT_MS),
            write_timeout: Duration::from_millis(DEFAULT_WRITE_TIMEOUT_MS),
            allow_origins: AllowedOrigins::None,
        }
    }
}

/// The number of cores, the default for concurrent rulings.
pub fn default_concurrency() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
