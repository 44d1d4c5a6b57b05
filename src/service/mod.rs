//! The gRPC service `qili.v1.Qili`: generated types, conversion from the library's rulings, and the
//! server with its limits, health and reflection.

mod access;
mod config;
mod connection;
pub mod convert;
mod cors;
mod failure;
mod handler;
mod health;
mod http;
pub mod pb;
mod pool;
mod quick;
mod server;
mod spare;
mod timeout;
mod watch;

#[cfg(test)]
mod samples;

pub use access::{AccessLog, AccessLogLayer, CallNote};
pub use config::{
    DEFAULT_ADDR, DEFAULT_DEADLINE_MS, DEFAULT_DRAIN_MS, DEFAULT_IDLE_TIMEOUT_MS,
    DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_MOVES, DEFAULT_MAX_QUEUE,
    DEFAULT_READ_TIMEOUT_MS, DEFAULT_WRITE_TIMEOUT_MS, ServiceConfig, default_concurrency,
};
pub use cors::{AllowedOrigins, OriginError};
pub use failure::{FIELD_KEY, Failure, Limit, PLY_KEY, abridge, abridge_text};
pub use handler::{QiliService, STREAM_INTAKE_BYTES, Taken};
pub use http::decode_json;
pub use pool::{Lane, WorkPool};
pub use server::{ServeError, serve, serve_with_listener};
pub use timeout::parse_grpc_timeout;
pub use watch::GameStream;
