//! `qili load` against a real `qili serve` child on a loopback port, and its refusal of
//! non-loopback addresses.

use super::common::{QILI, Server};
use std::process::Command;
use std::time::{Duration, Instant};

/// The number after `label: ` on its own line of `out`.
fn figure(out: &str, label: &str) -> u64 {
    let prefix = format!("{label}: ");
    out.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no `{label}` line in:\n{out}"))
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("`{label}` is not a number ({e}) in:\n{out}"))
}

#[test]
fn load_runs_each_rpc_against_serve_and_reports_ok_calls() {
    let server = Server::start();
    let cases = concat!(env!("CARGO_MANIFEST_DIR"), "/cases");
    let records = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn");
    for (rpc, detail) in [
        ("adjudicate", "full"),
        ("health", "full"),
        ("stream", "verdict"),
        ("status", "full"),
        ("watch", "summary"),
    ] {
        let started = Instant::now();
        let out = Command::new(QILI)
            .args([
                "load",
                "--addr",
                &server.addr,
                "--rpc",
                rpc,
                "--detail",
                detail,
            ])
            .args(["--concurrency", "4", "--duration", "1", "--cases", cases])
            .args(["--records", records])
            .output()
            .expect("run qili load");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{rpc}: {stdout}\n{stderr}");
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{rpc}: load did not stop by itself"
        );
        let ok = figure(&stdout, "ok");
        assert!(ok > 0, "{rpc}: {stdout}");
        assert_eq!(figure(&stdout, "errors"), 0, "{rpc}: {stdout}");
        assert_eq!(figure(&stdout, "requests"), ok, "{rpc}: {stdout}");
        assert!(stdout.contains("requests/s: "), "{rpc}: {stdout}");
        assert!(
            stdout.contains("p50 ") && stdout.contains("p99 "),
            "{rpc}: {stdout}"
        );
        assert!(stdout.contains(&format!("rpc: {rpc}")), "{rpc}: {stdout}");
        let bytes: u64 = stdout
            .lines()
            .find_map(|l| l.strip_prefix("reply bytes: "))
            .and_then(|l| l.split(' ').next()?.parse().ok())
            .unwrap_or_else(|| panic!("{rpc}: no reply bytes in {stdout}"));
        assert!(bytes > 0, "{rpc}: {stdout}");
    }
    drop(server);
}

#[test]
fn load_refuses_a_non_loopback_address_without_connecting() {
    for addr in [
        "10.0.0.1:50051",
        "http://10.0.0.1:50051",
        "example.com:50051",
    ] {
        let started = Instant::now();
        let out = Command::new(QILI)
            .args(["load", "--addr", addr, "--duration", "1"])
            .output()
            .expect("run qili load");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{addr}: {stderr}");
        assert!(stderr.contains("loopback"), "{addr}: {stderr}");
        assert!(out.stdout.is_empty(), "{addr}: nothing is reported");
        // Refused before reading cases or connecting: no connect timeout, no run.
        assert!(started.elapsed() < Duration::from_secs(2), "{addr}");
    }
}

#[test]
fn the_platform_mix_is_what_qili_load_makes_and_it_runs_against_serve() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mix = format!("{root}/benches/data/platform-mix.jsonl");
    let made = Command::new(QILI)
        .args(["load", "--platform-mix", &format!("{root}/tests/data/pgn")])
        .output()
        .expect("run qili load --platform-mix");
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let file = std::fs::read_to_string(&mix).expect("benches/data/platform-mix.jsonl");
    assert!(
        String::from_utf8_lossy(&made.stdout) == file,
        "benches/data/platform-mix.jsonl is out of date: qili load --platform-mix tests/data/pgn > \
         benches/data/platform-mix.jsonl"
    );
    // A call after every move, and the cycles played on to a ruling.
    assert!(file.lines().count() > 1_900);
    assert_eq!(file.lines().filter(|l| l.contains("played on")).count(), 12);
    let server = Server::start();
    let out = Command::new(QILI)
        .args([
            "load",
            "--addr",
            &server.addr,
            "--rpc",
            "adjudicate",
            "--detail",
            "verdict",
        ])
        .args(["--concurrency", "4", "--duration", "1", "--cases", &mix])
        .output()
        .expect("run qili load");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(figure(&stdout, "ok") > 0, "{stdout}");
    assert_eq!(figure(&stdout, "errors"), 0, "{stdout}");
    assert!(stdout.contains("cases: 2003"), "{stdout}");
    // A platform polling its live games: Status after every move.
    let out = Command::new(QILI)
        .args(["load", "--addr", &server.addr, "--rpc", "status"])
        .args(["--concurrency", "4", "--duration", "1", "--cases", &mix])
        .output()
        .expect("run qili load");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("rpc: status, detail full"), "{stdout}");
    let ok = figure(&stdout, "ok");
    assert!(ok > 0, "{stdout}");
    assert_eq!(figure(&stdout, "errors"), 0, "{stdout}");
    assert_eq!(figure(&stdout, "requests"), ok, "{stdout}");
}

#[test]
fn load_runs_from_any_directory_and_rules_in_process() {
    // No cases/ where it runs: the checkout's are used.
    let elsewhere = std::env::temp_dir();
    let out = Command::new(QILI)
        .current_dir(&elsewhere)
        .args([
            "load",
            "--rpc",
            "in-process",
            "--duration",
            "1",
            "--max-requests",
            "300",
        ])
        .output()
        .expect("run qili load");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(figure(&stdout, "errors"), 0, "{stdout}");
    assert!(figure(&stdout, "ok") > 0, "{stdout}");
    let cpu = stdout
        .lines()
        .find_map(|l| l.strip_prefix("cpu per call: "))
        .and_then(|l| l.strip_suffix(" us")?.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no cpu per call in {stdout}"));
    assert!(cpu > 0.0, "{stdout}");
    // Named files that are not there are the user's error, named.
    let out = Command::new(QILI)
        .current_dir(&elsewhere)
        .args([
            "load",
            "--rpc",
            "in-process",
            "--duration",
            "1",
            "--cases",
            "no-such.jsonl",
        ])
        .output()
        .expect("run qili load");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such.jsonl"));
}
