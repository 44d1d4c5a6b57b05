//! Move-generation speed: perft from the start position and from a midgame position, reported
//! in leaf nodes per second. Run with `cargo bench --bench perft`.

#![allow(clippy::unwrap_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qili::{Position, perft};
use std::hint::black_box;
use std::time::Duration;

const MIDGAME: &str = "rnbakabr1/9/9/p1p1n3p/6p2/2P6/Pc2P1PcP/1CN3N2/9/R1BAKABR1 w - - 0 7";

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    // Short runs: the machine is small and shared.
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));

    let start = Position::start();
    group.throughput(Throughput::Elements(3_290_240));
    group.bench_function("start_depth4", |b| b.iter(|| perft(black_box(&start), 4)));

    let midgame = match Position::from_fen(MIDGAME) {
        Ok(p) => p,
        Err(e) => panic!("{MIDGAME}: {e}"),
    };
    group.throughput(Throughput::Elements(38_825));
    group.bench_function("midgame_depth3", |b| {
        b.iter(|| perft(black_box(&midgame), 3))
    });
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
