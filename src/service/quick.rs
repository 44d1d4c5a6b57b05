//! The cheap path (快速通道): a ruling whose whole work is provably small is made on the async
//! worker that took the call, with no hand-off to the work pool, and is the same ruling the pool
//! would have made.
//!
//! What "provably small" means, and so how long a worker can be held:
//! - the request's text (its FEN and its moves) is at most [`QUICK_BYTES`], so reading it plays
//!   at most 512 moves (an ICCS move is at least 4 bytes);
//! - finding the cycle is one pass over the positions played;
//! - a cycle is at most [`QUICK_CYCLE`] moves long (classifying a move costs whatever its
//!   searches draw, and a few µs besides);
//! - a ruling that finds a cycle gets a search account of [`QUICK_NODES`] positions, a prefix of
//!   the real one (`SearchLimits::ruling_nodes`), and is made one step at a time (a move of the
//!   cycle, then the second look at mutual attacks: [`rules::rule_within`]). The searches draw
//!   from the account one position at a time and never look at what is left, so a ruling that
//!   ends with positions left drew exactly what it would have drawn from the real account: it is
//!   the real ruling, its search counts included. A step that spends the whole prefix is undone
//!   (the accounts and the remembered answers that change what the searches count put back) and
//!   the ruling goes on in the pool from that step with the real account, its context handed
//!   over: the steps made on the worker are not made again, and at most [`QUICK_NODES`]
//!   positions are searched twice (those of the step undone). Undoing a step puts back at most
//!   one journal entry a position searched and one a whole mate search. A move of the cycle is
//!   started on the worker only while at most [`QUICK_OPEN`] positions are spent: past that the
//!   pool takes the ruling before the move, with nothing undone (a move started with less of the
//!   prefix left is the likelier to spend it and be made twice).
//!
//! Together, at most about 0.8 ms of one worker (measured: reading 512 moves in auto-detected
//! notation and ruling them 170 µs; the slowest corpus ruling within 3 200 positions 0.6 ms;
//! BENCHMARKS.md), against the 2 ms to 16 ms a ruling of the pool may take. A ruling that spends
//! the prefix stops at the step that spends it instead of running its later steps with every
//! search cut short. The bound was re-tuned once only the step undone was made twice (ninth
//! session, BENCHMARKS.md: server instructions per corpus call at full detail, and the hold):
//! 1 600 positions 975 k (0.31 ms), 3 200 959 k (0.57 ms), 6 400 971 k (1.6 ms), 12 800 942 k
//! (3.1 ms), no prefix 929 k. 3 200 is the cheapest below 12 800, whose 2 % less (the corpus
//! only: the platform mix costs the same from 1 600 up) would hold a worker five times as long.
//! Then [`QUICK_OPEN`] (same measure, moves started on the worker only while at most so many
//! positions are spent; with the cheaper reply): 3 200 (always) 945 k, 1 200 940 k, 800 937 k,
//! 400 947 k, 100 972 k.
//! Most calls of a platform that asks after every move are of the first kind (no repetition at
//! all: reading the moves is the whole work), so they cost no hand-off, no pool thread's wake-up
//! and no wake-up of the worker that waits for the answer.

use crate::moves::Move;
use crate::position::Position;
use crate::request::{Moves, Request};
use crate::rules::{self, Options, Ruling, Suspended};

/// Most bytes of a request's text (its FEN and its moves) read on the async worker: 2 KiB, a
/// 500-move game in ICCS, a 170-move game in Chinese notation.
pub const QUICK_BYTES: usize = 2048;

/// Longest cycle ruled on the async worker, in moves (the rule books' longest is 12).
pub const QUICK_CYCLE: usize = 16;

/// Most positions the searches of a ruling made on the async worker may visit: a prefix of the
/// real account, see the module doc. The real games' repetitions of the platform mix need 128 to
/// 427 (one 1 676), the corpus's rulings 98.5 % of the time at most 3 200 (90 % at most 800).
pub const QUICK_NODES: u64 = 3200;

/// Most positions of the prefix spent at which the next move of the cycle is still classified
/// on the worker; past it the pool classifies it: a move started with less than
/// `QUICK_NODES - QUICK_OPEN` positions left may spend them and be made again (see the module
/// doc).
pub const QUICK_OPEN: u64 = 800;

/// Whether `request` is small enough to be read on the async worker.
pub fn fits(request: &Request) -> bool {
    fits_text(&request.fen, &request.moves)
}

/// Whether a request of `fen` and `moves` is small enough to be read on the async worker.
pub fn fits_text(fen: &str, moves: &Moves) -> bool {
    fen.len() + moves.text_len() <= QUICK_BYTES
}

/// What the cheap path made of a ruling.
#[derive(Debug)]
pub enum Quick {
    /// The ruling, identical to [`rules::rule`]'s.
    Ruled(Ruling),
    /// Its cycle is longer than [`QUICK_CYCLE`]: the pool rules it.
    Long,
    /// Its searches spend more than [`QUICK_NODES`] positions: the pool finishes it
    /// ([`Suspended::finish`]).
    Suspended(Box<Suspended>),
}

/// The ruling of `moves` from `start` under `options`, identical to [`rules::rule`]'s, if its
/// cycle is at most [`QUICK_CYCLE`] moves and its searches fit in [`QUICK_NODES`] positions;
/// else what the pool is to do with it.
pub fn rule(start: &Position, moves: &[Move], options: &Options) -> Quick {
    // A cycle cannot be longer than the moves: the pass is needed only for longer sequences.
    if moves.len() > QUICK_CYCLE {
        match rules::find_cycle(start, moves) {
            // No repetition: a ruling that says so from the options alone, which ruling no
            // moves gives without a second pass over the positions (the tests compare it).
            None => return Quick::Ruled(rules::rule(start, &[], options)),
            Some(c) if c.length > QUICK_CYCLE => return Quick::Long,
            Some(_) => {}
        }
    }
    match rules::rule_within(start, moves, options, QUICK_NODES, QUICK_OPEN) {
        Ok(ruling) => Quick::Ruled(ruling),
        Err(suspended) => Quick::Suspended(suspended),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus;
    use crate::service::{convert, pb, samples};
    use std::path::PathBuf;

    /// Every corpus case and every call of the platform mix: the cheap path's ruling, when it
    /// gives one, is the pool's, whole; and so is the pool's finishing of one it stopped.
    #[test]
    fn the_prefix_ruling_is_the_real_ruling() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let mut requests: Vec<(String, Request)> = corpus::load_all(&samples::corpus_files())
            .expect("the corpus")
            .iter()
            .map(|c| (c.id.clone(), c.request()))
            .collect();
        let mix = std::fs::read_to_string(root.join("benches/data/platform-mix.jsonl"))
            .expect("the platform mix");
        for line in mix.lines() {
            let r: pb::AdjudicateRequest =
                crate::service::decode_json(line.as_bytes()).expect("a request");
            let (request, id, _) = convert::into_request(r).expect("a request");
            requests.push((id, request));
        }
        let (mut quick, mut pool, mut finished) = (0, 0, 0);
        for (id, request) in &requests {
            let Ok((start, moves)) = request.parse() else {
                continue;
            };
            let real = rules::rule(&start, &moves, &request.options);
            match rule(&start, &moves, &request.options) {
                Quick::Ruled(r) => {
                    quick += 1;
                    assert_eq!(r, real, "{id}");
                }
                Quick::Long => {
                    pool += 1;
                    assert!(real.cycle_length > QUICK_CYCLE, "{id}");
                }
                Quick::Suspended(s) => {
                    finished += 1;
                    assert!(real.search.nodes > QUICK_OPEN, "{id}");
                    assert_eq!(s.finish(&moves, &request.options), real, "{id}");
                }
            }
            // Other prefixes stop rulings at other steps (the second look's included; those of
            // the re-tuning, BENCHMARKS.md ninth session): finished, each is the real ruling.
            for prefix in [1, 100, 800, 6400, 12_800] {
                // Stopped only where a step spends the prefix, and also before a move once
                // `open` positions are spent (the cheap path's cut, at other points).
                for open in [prefix, 0, prefix / 4] {
                    let made =
                        match rules::rule_within(&start, &moves, &request.options, prefix, open) {
                            Ok(r) => r,
                            Err(s) => s.finish(&moves, &request.options),
                        };
                    assert_eq!(made, real, "{id}, prefix {prefix}, open {open}");
                }
            }
        }
        // Both the rulings made here and those finished in the pool are met, so the comparisons
        // above mean something (no cycle of these is longer than the bound: see the next test).
        assert!(
            quick > 0 && finished > 0,
            "{quick} quick, {pool} to the pool, {finished} finished there"
        );
    }

    /// A 20-move cycle (each rook five steps out and back) is not ruled on the worker.
    #[test]
    fn a_cycle_longer_than_the_bound_goes_to_the_pool() {
        let start = Position::from_fen("4k3r/9/9/9/9/9/9/9/9/R2K5 w").expect("a FEN");
        let text = "a0a1 i9i8 a1a2 i8i7 a2a3 i7i6 a3a4 i6i5 a4a5 i5i4 \
                    a5a4 i4i5 a4a3 i5i6 a3a2 i6i7 a2a1 i7i8 a1a0 i8i9";
        let texts: Vec<&str> = text.split_whitespace().collect();
        let moves = crate::request::parse_moves(&start, &texts, None).expect("legal moves");
        let cycle = rules::find_cycle(&start, &moves).expect("a cycle");
        assert!(cycle.length > QUICK_CYCLE);
        assert!(matches!(
            rule(&start, &moves, &Options::default()),
            Quick::Long
        ));
    }

    #[test]
    fn fits_counts_the_fen_and_the_moves() {
        let mut r = Request {
            fen: String::new(),
            moves: vec!["h2e2"; QUICK_BYTES / 4].into(),
            notation: None,
            options: Options::default(),
        };
        assert!(fits(&r));
        r.fen = "x".to_string();
        assert!(!fits(&r));
    }
}
