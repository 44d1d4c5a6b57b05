//! `qili serve`: the gRPC service on one address until SIGINT or SIGTERM.

use super::Said;
use super::log::LogWriter;
use super::render::LangArg;
use clap::{Args, ValueEnum};
use qili::lang::{Lang, Words, io_words};
use qili::service::{self, ServeError, ServiceConfig};
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
    /// Log format.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// What to log: a level (error, warn, info, debug, trace, off) or filter directives
    /// (`info,qili::service::access=warn`). Overrides RUST_LOG [default: RUST_LOG, else info].
    #[arg(long)]
    log_level: Option<String>,
    /// Largest request message, in bytes; larger ones get RESOURCE_EXHAUSTED.
    #[arg(long, default_value_t = service::DEFAULT_MAX_MESSAGE_BYTES)]
    max_message_bytes: usize,
    /// Most moves in one request; more get RESOURCE_EXHAUSTED.
    #[arg(long, default_value_t = service::DEFAULT_MAX_MOVES)]
    max_moves: usize,
    /// Threads of the work pool: most rulings, record readings and sheet renderings computed at
    /// once [default: the number of cores].
    #[arg(long)]
    max_concurrent: Option<usize>,
    /// Most calls waiting for the work pool; more are answered RESOURCE_EXHAUSTED at once.
    #[arg(long, default_value_t = service::DEFAULT_MAX_QUEUE)]
    max_queue: usize,
    /// Deadline of one ruling in milliseconds, waiting included; a shorter client deadline wins.
    #[arg(long, default_value_t = service::DEFAULT_DEADLINE_MS)]
    deadline_ms: u64,
    /// On SIGINT/SIGTERM, how long in-flight calls may take to finish, in milliseconds.
    #[arg(long, default_value_t = service::DEFAULT_DRAIN_MS)]
    drain_timeout_ms: u64,
    /// Most connections open at once; more wait in the listen backlog. Keep it under `ulimit -n`.
    #[arg(long, default_value_t = service::DEFAULT_MAX_CONNECTIONS)]
    max_connections: usize,
    /// A connection with no call in flight for this long is closed, in milliseconds.
    #[arg(long, default_value_t = service::DEFAULT_IDLE_TIMEOUT_MS)]
    idle_timeout_ms: u64,
    /// A request's head (HTTP/1.1) and whole body must arrive within this long, in milliseconds
    /// (the streams' bodies excepted); else the call is refused and the connection closed.
    #[arg(long, default_value_t = service::DEFAULT_READ_TIMEOUT_MS)]
    read_timeout_ms: u64,
    /// A write the client does not take for this long closes the connection, in milliseconds.
    #[arg(long, default_value_t = service::DEFAULT_WRITE_TIMEOUT_MS)]
    write_timeout_ms: u64,
    /// Let pages from ORIGIN (`https://club.example`, scheme, host and port) call the JSON API
    /// and gRPC-Web from a browser (CORS); repeatable, or `*` for every origin [default: none].
    #[arg(long, value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    /// Language of the start-up errors (both: Chinese, then English). The log stays English:
    /// it is read by machines.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub(super) lang: LangArg,
}

/// Serves until a signal, then drains and exits 0.
pub fn run(args: ServeArgs) -> Result<ExitCode, Said> {
    let allow_origins = service::AllowedOrigins::parse(&args.allow_origin).map_err(|e| {
        Said::new(|lang| format!("--allow-origin{}{}", lang.pick("：", ": "), e.words(lang)))
    })?;
    let filter = log_filter(args.log_level.as_deref(), std::env::var_os("RUST_LOG"))?;
    let log = LogWriter::stderr();
    init_logging(args.log_format, filter, &log);
    let max_concurrent = args
        .max_concurrent
        .unwrap_or_else(service::default_concurrency)
        .max(1);
    let config = ServiceConfig {
        max_message_bytes: args.max_message_bytes,
        max_moves: args.max_moves,
        max_concurrent,
        max_queue: args.max_queue.max(1),
        deadline: Duration::from_millis(args.deadline_ms),
        drain_timeout: Duration::from_millis(args.drain_timeout_ms),
        max_connections: args.max_connections.max(1),
        idle_timeout: Duration::from_millis(args.idle_timeout_ms.max(1)),
        read_timeout: Duration::from_millis(args.read_timeout_ms.max(1)),
        write_timeout: Duration::from_millis(args.write_timeout_ms.max(1)),
        allow_origins,
    };
    // The async workers only carry connections; rulings run in the service's work pool.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| {
            Said::new(|lang| match lang {
                Lang::En => format!("cannot start the runtime: {e}"),
                Lang::Zh => format!("无法启动运行时：{}", io_words(&e, lang)),
            })
        })?;
    let served = runtime.block_on(async {
        let shutdown = shutdown_signal();
        service::serve(&args.addr, config, shutdown).await
    });
    let code = match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!(error = %e, "server failed");
            failed(&e).print(args.lang);
            ExitCode::FAILURE
        }
    };
    log.finish();
    Ok(code)
}

/// Why the server failed, in both languages: for the address, the system's reason by its kind
/// (taken, not an address, not this machine's, a privileged port).
fn failed(e: &ServeError) -> Said {
    use std::io::ErrorKind;
    let ServeError::Bind { addr, source } = e else {
        // The transport's and reflection's own words; they do not happen at start-up.
        return Said::from(e.to_string());
    };
    Said::new(|lang| match lang {
        Lang::En => e.to_string(),
        Lang::Zh => {
            let why = match source.kind() {
                ErrorKind::AddrInUse => "端口已被占用（另一个进程在监听它）".to_string(),
                ErrorKind::AddrNotAvailable => "本机没有这个地址".to_string(),
                ErrorKind::PermissionDenied => "没有权限（1024以下的端口需要特权）".to_string(),
                ErrorKind::InvalidInput => {
                    format!("不是地址（应为 主机:端口，如127.0.0.1:50051）（{source}）")
                }
                _ => io_words(source, lang),
            };
            format!("无法在{addr}上监听：{why}")
        }
    })
}

/// The log filter: `--log-level` if given, else `RUST_LOG` if set, else `info`. A bad value is
/// an error naming where it came from.
fn log_filter(
    flag: Option<&str>,
    env: Option<std::ffi::OsString>,
) -> Result<tracing_subscriber::EnvFilter, Said> {
    use tracing_subscriber::EnvFilter;
    use tracing_subscriber::filter::LevelFilter;
    // tracing's reason, after the source named in the language asked.
    let bad = |source: &str, e: &dyn std::fmt::Display| {
        Said::new(|lang| match lang {
            Lang::En => format!("{source}: {e}"),
            Lang::Zh => format!("{source}：无法读取（{e}）"),
        })
    };
    if let Some(flag) = flag {
        // A bare word that is no level would silently mean "everything from a module of that
        // name": take it for the typo it is.
        if !flag.contains('=') && flag.parse::<LevelFilter>().is_err() {
            let flag = qili::service::abridge_text(flag);
            return Err(Said::new(|lang| match lang {
                Lang::En => format!(
                    "--log-level: `{flag}` is not a level (error, warn, info, debug, trace, off) or a \
                     filter such as `info,qili::service::access=warn`"
                ),
                Lang::Zh => format!(
                    "--log-level：`{flag}`不是级别（error、warn、info、debug、trace、off），也不是\
                     `info,qili::service::access=warn`这样的过滤指令"
                ),
            }));
        }
        return EnvFilter::try_new(flag).map_err(|e| bad("--log-level", &e));
    }
    match env {
        None => Ok(EnvFilter::new("info")),
        Some(v) if v.is_empty() => Ok(EnvFilter::new("info")),
        Some(v) => {
            let v = v.into_string().map_err(|_| bad("RUST_LOG", &"not UTF-8"))?;
            EnvFilter::try_new(&v).map_err(|e| bad("RUST_LOG", &e))
        }
    }
}

/// Logs through `log`, which never blocks or fails a call (see [`LogWriter`]).
fn init_logging(format: LogFormat, filter: tracing_subscriber::EnvFilter, log: &LogWriter) {
    use std::io::IsTerminal;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(log.make_writer())
        // Its own failures would go to stderr with `eprintln!`, which panics on a full disk.
        .log_internal_errors(false)
        .with_ansi(std::io::stderr().is_terminal());
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().flatten_event(true).init(),
    }
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM. The handlers are installed at once (within the
/// runtime), not when the future is first polled: a SIGTERM that arrives as soon as the server
/// says it is serving must drain it, not kill it.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let (interrupt, terminate) = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::interrupt()).ok(),
            signal(SignalKind::terminate()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let wait = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = wait(interrupt) => tracing::info!("SIGINT received"),
                () = wait(terminate) => tracing::info!("SIGTERM received"),
            }
        }
        #[cfg(not(unix))]
        {
            if tokio::signal::ctrl_c().await.is_ok() {
                tracing::info!("SIGINT received");
            } else {
                std::future::pending::<()>().await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::log_filter;

    fn filter(flag: Option<&str>, env: Option<&str>) -> Result<String, String> {
        log_filter(flag, env.map(Into::into))
            .map(|f| f.to_string())
            .map_err(|e| e.one(super::LangArg::En).to_string())
    }

    #[test]
    fn the_flag_wins_over_rust_log_which_wins_over_info() {
        assert_eq!(filter(None, None).as_deref(), Ok("info"));
        assert_eq!(filter(None, Some("")).as_deref(), Ok("info"));
        assert_eq!(filter(None, Some("warn")).as_deref(), Ok("warn"));
        assert_eq!(filter(Some("debug"), Some("warn")).as_deref(), Ok("debug"));
        assert_eq!(
            filter(Some("info,qili::service::access=warn"), None).as_deref(),
            Ok("qili::service::access=warn,info")
        );
    }

    #[test]
    fn bad_values_name_their_source() {
        let e = filter(Some("inf"), None).expect_err("typo");
        assert!(e.starts_with("--log-level: `inf` is not a level"), "{e}");
        let e = filter(Some("qili=loud"), None).expect_err("bad level");
        assert!(e.starts_with("--log-level: "), "{e}");
        let e = filter(None, Some("qili=loud")).expect_err("bad RUST_LOG");
        assert!(e.starts_with("RUST_LOG: "), "{e}");
    }
}
