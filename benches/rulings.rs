//! Ruling time per corpus case, in-process: the whole corpus as one batch (time per ruling), the
//! slowest cases one by one, a table of every case's median time printed before the runs, and the
//! crowded positions of `tests/data/crowded.txt` (built to make the searches explode) under each
//! rule profile, and the platform mix of `benches/data/platform-mix.jsonl` (a request after every
//! move of 21 real games): every request once, and its rulings that find a repetition (the
//! real-game cycles, crowded middlegames), each with the mean time per ruling printed first.
//!
//! `cargo bench --bench rulings`

#![allow(clippy::unwrap_used)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use qili::corpus::{self, Case};
use qili::rules::{self, Options, Ruleset, Verdict};
use qili::{Move, Position};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

struct Prepared {
    id: String,
    start: Position,
    moves: Vec<Move>,
    options: Options,
}

fn prepare() -> Vec<Prepared> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let cases: Vec<Case> = corpus::load(&dir).expect("the corpus loads");
    cases
        .iter()
        .filter_map(|c| {
            let request = c.request();
            let (start, moves) = request.parse().ok()?;
            Some(Prepared {
                id: c.id.clone(),
                start,
                moves,
                options: request.options,
            })
        })
        .collect()
}

/// The crowded positions under every profile, named `profile/line`.
fn crowded() -> Vec<Prepared> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/crowded.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/crowded.txt");
    let mut out = Vec::new();
    let lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    for (i, line) in lines.enumerate() {
        let (fen, moves) = line.split_once(" | ").expect("FEN | moves");
        for ruleset in Ruleset::ALL {
            let request = qili::request::Request {
                fen: fen.to_string(),
                moves: moves.split(' ').map(String::from).collect(),
                notation: None,
                options: Options {
                    ruleset,
                    ..Options::default()
                },
            };
            let (start, moves) = request.parse().expect("a legal crowded position");
            out.push(Prepared {
                id: format!("{ruleset}/{}", i + 1),
                start,
                moves,
                options: request.options,
            });
        }
    }
    out
}

/// The requests of the platform mix (`AdjudicateRequest`s in the JSON API's form: `fen`, `moves`
/// in ICCS, `ruleset`, empty for the default), named by their `requestId`.
fn platform_mix() -> Vec<Prepared> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/platform-mix.jsonl");
    let text = std::fs::read_to_string(path).expect("benches/data/platform-mix.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON request");
            let text = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            let ruleset = text("ruleset");
            let request = qili::request::Request {
                fen: text("fen"),
                moves: v["moves"]
                    .as_array()
                    .expect("moves")
                    .iter()
                    .map(|m| m.as_str().expect("a move").to_string())
                    .collect(),
                notation: None,
                options: Options {
                    ruleset: if ruleset.is_empty() {
                        Ruleset::default()
                    } else {
                        ruleset.parse().expect("a ruleset")
                    },
                    ..Options::default()
                },
            };
            let (start, moves) = request.parse().expect("a legal request");
            Prepared {
                id: text("requestId"),
                start,
                moves,
                options: request.options,
            }
        })
        .collect()
}

/// Mean time of one ruling over `ps`, each ruled `runs` times.
fn mean_time(ps: &[&Prepared], runs: u32) -> Duration {
    let t = Instant::now();
    for _ in 0..runs {
        for p in ps {
            black_box(rules::rule(&p.start, &p.moves, &p.options));
        }
    }
    t.elapsed() / (runs * ps.len() as u32)
}

/// Median time of one ruling of `p`, over a few runs.
fn median_time(p: &Prepared) -> Duration {
    let mut times: Vec<Duration> = (0..15)
        .map(|_| {
            let t = Instant::now();
            black_box(rules::rule(&p.start, &p.moves, &p.options));
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn rulings(c: &mut Criterion) {
    let cases = prepare();
    let mut timed: Vec<(Duration, &Prepared)> = cases.iter().map(|p| (median_time(p), p)).collect();
    timed.sort_by_key(|(t, _)| *t);
    let median = timed[timed.len() / 2].0;
    println!(
        "corpus: {} cases; median ruling {:?}; slowest:",
        timed.len(),
        median
    );
    for (t, p) in timed.iter().rev().take(5) {
        println!("  {:>10.1?}  {}", t, p.id);
    }

    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("every case once", |b| {
        b.iter(|| {
            for p in &cases {
                black_box(rules::rule(&p.start, &p.moves, &p.options));
            }
        })
    });
    group.finish();

    let slowest = timed;
    let crowded = crowded();
    let mut timed: Vec<(Duration, &Prepared)> =
        crowded.iter().map(|p| (median_time(p), p)).collect();
    timed.sort_by_key(|(t, _)| *t);
    println!("crowded positions: {} rulings; slowest:", timed.len());
    for (t, p) in timed.iter().rev().take(5) {
        println!("  {:>10.1?}  {}", t, p.id);
    }
    let mut group = c.benchmark_group("crowded");
    for (_, p) in timed.iter().rev().take(2) {
        group.bench_with_input(BenchmarkId::from_parameter(&p.id), *p, |b, p| {
            b.iter(|| rules::rule(&p.start, &p.moves, &p.options))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("slowest");
    for (_, p) in slowest.iter().rev().take(3) {
        group.bench_with_input(BenchmarkId::from_parameter(&p.id), p, |b, p| {
            b.iter(|| rules::rule(&p.start, &p.moves, &p.options))
        });
    }
    group.finish();

    let mix = platform_mix();
    let every: Vec<&Prepared> = mix.iter().collect();
    let cycles: Vec<&Prepared> = mix
        .iter()
        .filter(|p| rules::rule(&p.start, &p.moves, &p.options).verdict != Verdict::NoRepetition)
        .collect();
    println!(
        "platform mix: {} requests, mean ruling {:?}; the {} that find a repetition: mean {:?}",
        every.len(),
        mean_time(&every, 5),
        cycles.len(),
        mean_time(&cycles, 20),
    );
    let mut group = c.benchmark_group("platform mix");
    for (name, ps) in [("every request once", &every), ("repetitions", &cycles)] {
        group.throughput(Throughput::Elements(ps.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for p in ps.iter() {
                    black_box(rules::rule(&p.start, &p.moves, &p.options));
                }
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(5)).sample_size(20);
    targets = rulings
}
criterion_main!(benches);
