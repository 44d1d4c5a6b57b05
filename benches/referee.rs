//! The referee of live games, in-process: the cost per move of the real games of `tests/data/pgn`
//! replayed (the move alone, and its whole status with the forbidden moves), and of a move that
//! completes a repetition (the ruling and the forbidden moves' rulings).
//!
//! `cargo bench --bench referee` prints, before criterion's runs, each game's median time per move
//! that reaches no earlier position (each move timed alone, the timer's own cost subtracted) and
//! the median over the games, for the move and for its whole status.
//!
//! `QILI_BENCH_ONCE=1 target/release/deps/referee-* --bench` replays every game once through the
//! referee and exits: the run to count instructions with `valgrind --tool=callgrind` (BENCHMARKS.md,
//! "Live games").

#![allow(clippy::unwrap_used)]

use criterion::{BatchSize, Criterion, Throughput};
use qili::record::Game;
use qili::referee::{GameOptions, Referee};
use qili::rules::Options;
use qili::{Move, Position};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

/// Every game of the real records, with its name.
fn games() -> Vec<(String, Game)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for game in qili::record::read_games(&std::fs::read(&path).unwrap()).unwrap() {
            out.push((name.clone(), game));
        }
    }
    out
}

fn referee(start: Position) -> Referee {
    Referee::new(start, Options::default(), GameOptions::default())
}

/// Replays every game through the referee, a status per move.
fn replay_all(games: &[(String, Game)]) -> usize {
    let mut statuses = 0;
    for (_, g) in games {
        let mut r = referee(g.start);
        for &m in &g.moves {
            black_box(r.play(m).unwrap());
            statuses += 1;
        }
    }
    statuses
}

/// The cost of the timer alone, the median of many.
fn timer_cost() -> Duration {
    let mut t: Vec<Duration> = (0..10_000)
        .map(|_| {
            let s = Instant::now();
            black_box(());
            s.elapsed()
        })
        .collect();
    t.sort();
    t[t.len() / 2]
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// For one game: the median time of a move that reaches no earlier position, played alone
/// (`replay`) and with its whole status (`play`), over `runs` replays.
fn per_move(g: &Game, runs: usize, timer: Duration) -> (usize, Duration, Duration) {
    let mut alone = Vec::new();
    let mut status = Vec::new();
    let mut plain = 0;
    for run in 0..runs {
        let mut a = referee(g.start);
        let mut b = referee(g.start);
        for &m in &g.moves {
            let t = Instant::now();
            a.replay(m).unwrap();
            let ta = t.elapsed();
            let t = Instant::now();
            let s = black_box(b.play(m).unwrap());
            let tb = t.elapsed();
            // Only the moves that reach no earlier position.
            if s.repetitions == 1 {
                alone.push(ta.saturating_sub(timer));
                status.push(tb.saturating_sub(timer));
                plain += usize::from(run == 0);
            }
        }
    }
    (plain, median(alone), median(status))
}

fn print_table(games: &[(String, Game)]) {
    let timer = timer_cost();
    println!(
        "referee: a move that reaches no earlier position, each timed alone ({timer:?} timer cost subtracted)"
    );
    println!(
        "  {:<34} {:>6} {:>6} {:>10} {:>10}",
        "game", "plies", "plain", "move", "status"
    );
    let mut moves = Vec::new();
    let mut statuses = Vec::new();
    for (name, g) in games {
        let (plain, m, s) = per_move(g, 30, timer);
        println!(
            "  {:<34} {:>6} {:>6} {:>10.0?} {:>10.0?}",
            name,
            g.moves.len(),
            plain,
            m,
            s
        );
        moves.push(m);
        statuses.push(s);
    }
    println!(
        "median over the {} games: the move {:.0?}, its whole status {:.0?}",
        games.len(),
        median(moves),
        median(statuses)
    );
}

/// Red's rook chases black's unprotected cannon; the eighth move brings the start back a third
/// time (the ruling, red told to change, red's chase forbidden).
fn before_the_third(moves: &str) -> (Referee, Move) {
    let start = Position::from_fen("4k4/9/1c7/9/9/9/R8/9/9/3K5 w").unwrap();
    let mut r = referee(start);
    let all: Vec<&str> = moves.split(' ').collect();
    let (last, before) = all.split_last().unwrap();
    for m in before {
        r.play_text(m, None).unwrap();
    }
    let m = qili::parse_move(r.position(), last, None).unwrap();
    (r, m)
}

fn benches(c: &mut Criterion) {
    let games = games();
    print_table(&games);
    let total: usize = games.iter().map(|(_, g)| g.moves.len()).sum();

    let mut group = c.benchmark_group("referee/real games");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("every move with its status", |b| {
        b.iter(|| replay_all(&games))
    });
    group.bench_function("every move without a status", |b| {
        b.iter(|| {
            for (_, g) in &games {
                let mut r = referee(g.start);
                for &m in &g.moves {
                    r.replay(m).unwrap();
                }
                black_box(&r);
            }
        })
    });
    group.finish();

    let mut group = c.benchmark_group("referee/repetition");
    let third = before_the_third("a3b3 b7a7 b3a3 a7b7 a3b3 b7a7 b3a3 a7b7");
    group.bench_function("the move that completes the repetition", |b| {
        b.iter_batched_ref(
            || third.clone(),
            |(r, m)| black_box(r.play(*m).unwrap()),
            BatchSize::SmallInput,
        )
    });
    let twice = before_the_third("a3b3 b7a7 b3a3 a7b7");
    group.bench_function("the move that brings a position back twice", |b| {
        b.iter_batched_ref(
            || twice.clone(),
            |(r, m)| black_box(r.play(*m).unwrap()),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn main() {
    if std::env::var_os("QILI_BENCH_ONCE").is_some() {
        let statuses = replay_all(&games());
        println!("{statuses} statuses");
        return;
    }
    let mut c = Criterion::default()
        .measurement_time(Duration::from_secs(5))
        .sample_size(30)
        .configure_from_args();
    benches(&mut c);
    c.final_summary();
}
