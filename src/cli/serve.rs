//! `qili serve`: the gRPC service on one address until SIGINT or SIGTERM.

use clap::{Args, ValueEnum};
use qili::service::{self, ServiceConfig};
use std::process::ExitCode;
use std::time::Duration;

/// Log line format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object a line.
    Json,
}

/// Arguments of `qili serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "QILI_ADDR", default_value = service::DEFAULT_ADDR)]
    addr: String,
    /// Log format (the level is set by RUST_LOG, default info).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Largest request message, in bytes; larger ones get RESOURCE_EXHAUSTED.
    #[arg(long, default_value_t = service::DEFAULT_MAX_MESSAGE_BYTES)]
    max_message_bytes: usize,
    /// Most moves in one request; more get RESOURCE_EXHAUSTED.
    #[arg(long, default_value_t = service::DEFAULT_MAX_MOVES)]
    max_moves: usize,
    /// Most rulings computed at once [default: the number of cores].
    #[arg(long)]
    max_concurrent: Option<usize>,
    /// Deadline of one ruling in milliseconds, waiting included; a shorter client deadline wins.
    #[arg(long, default_value_t = service::DEFAULT_DEADLINE_MS)]
    deadline_ms: u64,
    /// On SIGINT/SIGTERM, how long in-flight calls may take to finish, in milliseconds.
    #[arg(long, default_value_t = service::DEFAULT_DRAIN_MS)]
    drain_timeout_ms: u64,
}

/// Serves until a signal, then drains and exits 0.
pub fn run(args: ServeArgs) -> Result<ExitCode, String> {
    init_logging(args.log_format);
    let max_concurrent = args
        .max_concurrent
        .unwrap_or_else(service::default_concurrency)
        .max(1);
    let config = ServiceConfig {
        max_message_bytes: args.max_message_bytes,
        max_moves: args.max_moves,
        max_concurrent,
        deadline: Duration::from_millis(args.deadline_ms),
        drain_timeout: Duration::from_millis(args.drain_timeout_ms),
    };
    // The blocking pool holds the rulings: one thread per permitted concurrent ruling.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(max_concurrent)
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let shutdown = {
        let _context = runtime.enter();
        shutdown_signal()?
    };
    match runtime.block_on(service::serve(&args.addr, config, shutdown)) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            tracing::error!(error = %e, "server failed");
            eprintln!("qili: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

fn init_logging(format: LogFormat) {
    use std::io::IsTerminal;
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().flatten_event(true).init(),
    }
}

/// Registers the SIGINT (Ctrl-C) and SIGTERM handlers at once, before the server starts (a signal
/// sent as soon as it logs `serving` is then caught, not fatal), and completes on either.
fn shutdown_signal() -> Result<impl std::future::Future<Output = ()>, String> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let listen = |kind: SignalKind, name: &str| {
            signal(kind).map_err(|e| format!("cannot listen for {name}: {e}"))
        };
        let mut interrupt = listen(SignalKind::interrupt(), "SIGINT")?;
        let mut terminate = listen(SignalKind::terminate(), "SIGTERM")?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => tracing::info!("SIGINT received"),
                _ = terminate.recv() => tracing::info!("SIGTERM received"),
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            if tokio::signal::ctrl_c().await.is_ok() {
                tracing::info!("SIGINT received");
            } else {
                std::future::pending::<()>().await;
            }
        })
    }
}
