//! `qili load`: a bounded load generator for a running `qili serve` on loopback. It sends the
//! corpus cases as `Adjudicate` calls over one channel, keeps N calls in flight, stops after S
//! seconds (or a request cap) and prints throughput, errors by gRPC code and latency percentiles.

use clap::Args;
use qili::corpus::{self, Case};
use qili::notation::{Notation, detect};
use qili::service::convert;
use qili::service::pb::{self, qili_client::QiliClient};
use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv6Addr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tonic::transport::{Channel, Endpoint};

/// Arguments of `qili load`.
#[derive(Args)]
pub struct LoadArgs {
    /// Server to call: loopback only (127.0.0.0/8, localhost or [::1]), with or without `http://`.
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    addr: String,
    /// Calls kept in flight (one task each, spread over the connections).
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
    /// The corpus: a .jsonl file or a folder of them.
    #[arg(long, default_value = "cases")]
    cases: PathBuf,
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
fn to_request(case: &Case) -> pb::AdjudicateRequest {
    let mut request = convert::case_request(case);
    if case.moves.iter().all(|m| detect(m) == Some(Notation::Iccs)) {
        request.notation = pb::Notation::Iccs as i32;
    }
    request
}

/// What one worker saw.
#[derive(Default)]
struct Tally {
    ok: u64,
    errors: BTreeMap<String, u64>,
    latencies_us: Vec<u64>,
}

async fn worker(
    mut client: QiliClient<Channel>,
    requests: Arc<Vec<pb::AdjudicateRequest>>,
    start_at: usize,
    deadline: Instant,
    sent: Arc<AtomicU64>,
    max_requests: u64,
) -> Tally {
    let mut tally = Tally::default();
    let mut i = start_at;
    while Instant::now() < deadline {
        if sent.fetch_add(1, Ordering::Relaxed) >= max_requests {
            break;
        }
        let mut request = tonic::Request::new(requests[i % requests.len()].clone());
        request.set_timeout(CALL_TIMEOUT);
        i = i.wrapping_add(1);
        let began = Instant::now();
        let result = client.adjudicate(request).await;
        let micros = u64::try_from(began.elapsed().as_micros()).unwrap_or(u64::MAX);
        tally.latencies_us.push(micros);
        match result {
            Ok(_) => tally.ok += 1,
            Err(status) => {
                *tally
                    .errors
                    .entry(format!("{:?}", status.code()))
                    .or_default() += 1
            }
        }
    }
    tally
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

/// Runs the load and prints the summary.
pub fn run(args: LoadArgs) -> Result<ExitCode, String> {
    let url = loopback_url(&args.addr)?;
    if args.concurrency == 0 {
        return Err("load: --concurrency must be at least 1".to_string());
    }
    if args.duration == 0 {
        return Err("load: --duration must be at least 1 second".to_string());
    }
    let cases = corpus::load(&args.cases)
        .map_err(|e| format!("load: cannot read cases {}: {e}", args.cases.display()))?;
    if cases.is_empty() {
        return Err(format!("load: no cases in {}", args.cases.display()));
    }
    let requests: Arc<Vec<pb::AdjudicateRequest>> =
        Arc::new(cases.iter().map(to_request).collect());

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
        let mut clients = Vec::new();
        for _ in 0..args.connections.clamp(1, args.concurrency) {
            match endpoint.connect().await {
                Ok(channel) => clients.push(QiliClient::new(channel)),
                Err(e) => {
                    eprintln!("qili: load: cannot connect to {url}: {e}");
                    return Ok(ExitCode::FAILURE);
                }
            }
        }
        let sent = Arc::new(AtomicU64::new(0));
        let started = Instant::now();
        let deadline = started + Duration::from_secs(args.duration);
        let stride = requests.len() / args.concurrency.max(1);
        let handles: Vec<_> = (0..args.concurrency)
            .map(|n| {
                tokio::spawn(worker(
                    clients[n % clients.len()].clone(),
                    Arc::clone(&requests),
                    n * stride.max(1),
                    deadline,
                    Arc::clone(&sent),
                    args.max_requests,
                ))
            })
            .collect();
        let mut total = Tally::default();
        let mut panicked = 0u64;
        for handle in handles {
            match handle.await {
                Ok(t) => {
                    total.ok += t.ok;
                    for (code, n) in t.errors {
                        *total.errors.entry(code).or_default() += n;
                    }
                    total.latencies_us.extend(t.latencies_us);
                }
                Err(_) => panicked += 1,
            }
        }
        let elapsed = started.elapsed().as_secs_f64();
        let mut lat = total.latencies_us;
        lat.sort_unstable();
        let requests_sent = lat.len() as u64;
        let errors: u64 = total.errors.values().sum();
        outln!("target: {url}");
        outln!(
            "concurrency: {}, connections: {}, duration: {:.2} s, cases: {}",
            args.concurrency,
            clients.len(),
            elapsed,
            requests.len()
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
