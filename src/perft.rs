//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.

use crate::position::Position;

/// The number of legal move sequences of length `depth` from `pos`.
///
/// ```
/// let start = qili::Position::start();
/// assert_eq!(qili::perft(&start, 2), 1920);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut pos = *pos;
    perft_inner(&mut pos, depth)
}

fn perft_inner(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut nodes = 0;
            for m in pos.legal_moves() {
                let undo = pos.play_unchecked(m);
                nodes += perft_inner(pos, depth - 1);
                pos.undo(m, undo);
            }
            nodes
        }
    }
}

/// Perft split by first move, for locating a move-generation difference against another program.
pub fn divide(pos: &Position, depth: u32) -> Vec<(crate::Move, u64)> {
    let mut pos = *pos;
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    for m in pos.legal_moves() {
        let undo = pos.play_unchecked(m);
        out.push((m, perft_inner(&mut pos, depth - 1)));
        pos.undo(m, undo);
    }
    out
}
