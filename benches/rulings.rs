//! Ruling time per corpus case, in-process: the whole corpus as one batch (time per ruling), the
//! slowest cases one by one, and a table of every case's median time printed before the runs.
//!
//! `cargo bench --bench rulings`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use qili::corpus::{self, Case};
use qili::rules::{self, Options};
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

    let mut group = c.benchmark_group("slowest");
    for (_, p) in timed.iter().rev().take(3) {
        group.bench_with_input(BenchmarkId::from_parameter(&p.id), p, |b, p| {
            b.iter(|| rules::rule(&p.start, &p.moves, &p.options))
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
