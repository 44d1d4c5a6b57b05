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
//!   the real one (`SearchLimits::ruling_nodes`). The searches draw from the account one position
//!   at a time and never look at what is left, so a ruling that ends with positions left drew
//!   exactly what it would have drawn from the real account: it is the real ruling, its search
//!   counts included (only `max_nodes` is set back to the real bound). A ruling that spends the
//!   whole prefix is dropped and made again in the pool with the real account: at most
//!   [`QUICK_NODES`] positions wasted.
//!
//! Together, at most about 0.8 ms of one worker (measured: reading 512 moves in auto-detected
//! notation and ruling them 170 µs; the slowest corpus ruling within 3 200 positions 0.6 ms;
//! BENCHMARKS.md), against the 2 ms to 16 ms a ruling of the pool may take. The bound is where
//! the ruling made twice costs least: at 800 positions 10 % of the corpus's rulings spent the
//! prefix and were made again (on average 180 k instructions a call wasted, more than the
//! hand-offs saved); at 3 200, 1.5 % (BENCHMARKS.md, seventh session). Most calls of a
//! platform that asks after every move are of the first kind (no repetition at all: reading the
//! moves is the whole work), so they cost no hand-off, no pool thread's wake-up and no wake-up of
//! the worker that waits for the answer.

use crate::moves::Move;
use crate::position::Position;
use crate::request::Request;
use crate::rules::{self, Options, Ruling};

/// Most bytes of a request's text (its FEN and its moves) read on the async worker: 2 KiB, a
/// 500-move game in ICCS, a 170-move game in Chinese notation.
pub const QUICK_BYTES: usize = 2048;

/// Longest cycle ruled on the async worker, in moves (the rule books' longest is 12).
pub const QUICK_CYCLE: usize = 16;

/// Most positions the searches of a ruling made on the async worker may visit: a prefix of the
/// real account, see the module doc. The real games' repetitions of the platform mix need 128 to
/// 427 (one 1 676), the corpus's rulings 98.5 % of the time at most 3 200 (90 % at most 800).
pub const QUICK_NODES: u64 = 3200;

/// Whether `request` is small enough to be read on the async worker.
pub fn fits(request: &Request) -> bool {
    fits_text(&request.fen, &request.moves)
}

/// Whether a request of `fen` and `moves` is small enough to be read on the async worker.
pub fn fits_text(fen: &str, moves: &[String]) -> bool {
    let mut bytes = fen.len();
    for m in moves {
        bytes += m.len();
        if bytes > QUICK_BYTES {
            return false;
        }
    }
    bytes <= QUICK_BYTES
}

/// The ruling of `moves` from `start` under `options`, identical to [`rules::rule`]'s, if its
/// cycle is at most [`QUICK_CYCLE`] moves and its searches fit in [`QUICK_NODES`] positions;
/// `None` if not (rule it in the pool).
pub fn rule(start: &Position, moves: &[Move], options: &Options) -> Option<Ruling> {
    // A cycle cannot be longer than the moves: the pass is needed only for longer sequences.
    if moves.len() > QUICK_CYCLE {
        match rules::find_cycle(start, moves) {
            // No repetition: a ruling that says so from the options alone, which ruling no
            // moves gives without a second pass over the positions (the tests compare it).
            None => return Some(rules::rule(start, &[], options)),
            Some(c) if c.length > QUICK_CYCLE => return None,
            Some(_) => {}
        }
    }
    let real = options.limits.ruling_nodes;
    let prefix = real.min(QUICK_NODES);
    let mut probe = *options;
    probe.limits.ruling_nodes = prefix;
    let mut ruling = rules::rule(start, moves, &probe);
    // Spent to the last position: a search may have been cut short that the real account lets
    // run on. Unless the prefix is the real account.
    if ruling.search.budget_exhausted && prefix < real {
        return None;
    }
    ruling.search.max_nodes = real;
    Some(ruling)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus;
    use crate::service::{convert, pb, samples};
    use std::path::PathBuf;

    /// Every corpus case and every call of the platform mix: the cheap path's ruling, when it
    /// gives one, is the pool's, whole.
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
        let (mut quick, mut pool) = (0, 0);
        for (id, request) in &requests {
            let Ok((start, moves)) = request.parse() else {
                continue;
            };
            let real = rules::rule(&start, &moves, &request.options);
            match rule(&start, &moves, &request.options) {
                Some(r) => {
                    quick += 1;
                    assert_eq!(r, real, "{id}");
                }
                None => {
                    pool += 1;
                    assert!(
                        real.search.nodes >= QUICK_NODES || real.cycle_length > QUICK_CYCLE,
                        "{id}"
                    );
                }
            }
        }
        // Both ways are taken, so the comparison above means something.
        assert!(quick > 0 && pool > 0, "{quick} quick, {pool} to the pool");
    }

    #[test]
    fn fits_counts_the_fen_and_the_moves() {
        let mut r = Request {
            fen: String::new(),
            moves: vec!["h2e2".to_string(); QUICK_BYTES / 4],
            notation: None,
            options: Options::default(),
        };
        assert!(fits(&r));
        r.fen = "x".to_string();
        assert!(!fits(&r));
    }
}
