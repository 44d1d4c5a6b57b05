//! The server: the Qili service with health and reflection, on a listener, until shutdown.

use super::access::AccessLogLayer;
use super::config::ServiceConfig;
use super::failure::reclassify;
use super::handler::QiliService;
use super::pb;
use super::pb::qili_server::QiliServer;
use std::future::Future;
use tokio::net::TcpListener;
use tonic::Status;
use tonic::codegen::http;

/// HTTP/2 receive window of one stream, in bytes (see `serve_with_listener`).
pub const STREAM_WINDOW: u32 = 64 * 1024;

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The reflection service could not read a descriptor set.
    #[error("reflection: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The transport failed.
    #[error("transport: {0}")]
    Transport(#[from] tonic::transport::Error),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Binds `addr` and serves until `shutdown` completes (see [`serve_with_listener`]).
pub async fn serve(
    addr: &str,
    config: ServiceConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: addr.to_string(),
            source,
        })?;
    serve_with_listener(listener, config, shutdown).await
}

/// Serves `qili.v1.Qili`, `grpc.health.v1.Health` and server reflection (v1 and v1alpha) on
/// `listener` until `shutdown` completes; then stops accepting, reports NOT_SERVING, and lets
/// in-flight calls finish for up to `config.drain_timeout` before closing their connections.
pub async fn serve_with_listener(
    listener: TcpListener,
    config: ServiceConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let health = tonic_health::server::HealthReporter::new();
    health.set_serving::<QiliServer<QiliService>>().await;

    let reflection = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
    };
    let reflection_v1 = reflection().build_v1()?;
    let reflection_v1alpha = reflection().build_v1alpha()?;

    let drain = config.drain_timeout;
    let service = QiliService::new(config.clone());
    let health_service = super::health::server(health.clone(), service.clone());
    let qili = QiliServer::new(service.clone()).max_decoding_message_size(config.max_message_bytes);

    let local = listener
        .local_addr()
        .map_or_else(|e| format!("unknown ({e})"), |a| a.to_string());
    tracing::info!(addr = %local, max_message_bytes = config.max_message_bytes,
        max_moves = config.max_moves, max_concurrent = config.max_concurrent,
        max_queue = config.max_queue, max_connections = config.max_connections,
        idle_timeout_ms = u64::try_from(config.idle_timeout.as_millis()).unwrap_or(u64::MAX),
        read_timeout_ms = u64::try_from(config.read_timeout.as_millis()).unwrap_or(u64::MAX),
        write_timeout_ms = u64::try_from(config.write_timeout.as_millis()).unwrap_or(u64::MAX),
        deadline_ms = u64::try_from(config.deadline.as_millis()).unwrap_or(u64::MAX), "serving");

    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let health_on_stop = health.clone();
    let draining = service.clone();
    let signalled = async move {
        shutdown.await;
        tracing::info!("shutting down: draining in-flight calls");
        // Streams stop reading, answer what they read and end; health watches end once they
        // have sent NOT_SERVING (so drain first).
        draining.begin_drain();
        health_on_stop
            .set_service_status("", tonic_health::ServingStatus::NotServing)
            .await;
        health_on_stop
            .set_not_serving::<QiliServer<QiliService>>()
            .await;
        let _ = stop_tx.send(true);
    };

    // HTTP/1.1 on the same port: gRPC-Web, the JSON API and the page (service::http).
    let grpc = tonic::service::Routes::new(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(qili);
    let routes = super::http::routes(grpc, service, &config).prepare();
    let app = tower::ServiceBuilder::new()
        // Outermost, so it sees every call (HTTP ones included) with the status the client gets.
        .layer(AccessLogLayer)
        .layer(tower::util::MapResponseLayer::new(transport_status))
        .service(routes);
    let server = super::connection::serve(listener, app, &config, signalled);

    // Calls still running `drain` after the signal are cut off, so shutdown always ends.
    let mut stop = stop_rx;
    let deadline = async move {
        let _ = stop.wait_for(|s| *s).await;
        tokio::time::sleep(drain).await;
    };
    tokio::select! {
        () = server => {}
        () = deadline => tracing::warn!("drain timeout: closing the remaining connections"),
    }
    tracing::info!("stopped");
    Ok(())
}

/// Rewrites the status of a request the transport rejected before any handler ran (it travels in
/// the response headers): see [`reclassify`]. The handlers themselves never use those codes.
fn transport_status<B>(mut response: http::Response<B>) -> http::Response<B> {
    let fixed = Status::from_header_map(response.headers()).and_then(|s| reclassify(&s));
    if let Some(status) = fixed {
        if status.add_header(response.headers_mut()).is_err() {
            tracing::error!("cannot rewrite a transport status");
        }
        // The access log reads the status from here.
        response.extensions_mut().insert(status);
    }
    response
}
