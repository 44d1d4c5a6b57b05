//! The positions since the last irreversible move (a capture, or a pawn's step forward): the only
//! ones that can come back. Kept as their Zobrist hashes in order, so that counting how often a
//! position has occurred is a scan of a few words, with the board compared only on a hit.

use crate::color::Color;
use crate::moves::Move;
use crate::position::Position;

/// The positions since the last irreversible move, by hash.
#[derive(Clone, Debug)]
pub(crate) struct Stretch {
    /// How many moves had been played when the stretch began: its first position is the game's
    /// position number `first` (0 is the start).
    first: usize,
    /// The stretch's first position.
    start: Position,
    /// `hashes[k]` is the hash of the game's position number `first + k`.
    hashes: Vec<u64>,
    /// Positions (hash, side to move) that occur at least `hot_at` times: one more occurrence
    /// brings them to the count at which the books rule. A move can only be forbidden if it
    /// reaches one of them, so without any the search for forbidden moves is skipped.
    hot: Vec<(u64, Color)>,
    hot_at: u32,
}

/// Whether `m`, legal in `pos`, makes every earlier position unreachable: a capture changes the
/// material, and a pawn never steps back.
pub(crate) fn irreversible(pos: &Position, m: Move) -> bool {
    pos.piece_at(m.to).is_some()
        || pos
            .piece_at(m.from)
            .is_some_and(|p| p.role == crate::piece::Role::Pawn && m.from.rank() != m.to.rank())
}

impl Stretch {
    /// A stretch beginning with `start`, the game's position number `first`; `hot_at` is the
    /// count from which a position is watched (the ruling count less one).
    pub(crate) fn new(start: Position, first: usize, hot_at: u32, capacity: usize) -> Stretch {
        let mut hashes = Vec::with_capacity(capacity.max(16));
        hashes.push(start.hash());
        let mut stretch = Stretch {
            first,
            start,
            hashes,
            hot: Vec::new(),
            hot_at,
        };
        stretch.watch(start.hash(), start.turn(), 1);
        stretch
    }

    /// Begins again after an irreversible move, at `start`, the game's position number `first`.
    /// Keeps the allocations.
    pub(crate) fn restart(&mut self, start: Position, first: usize) {
        self.first = first;
        self.start = start;
        self.hashes.clear();
        self.hashes.push(start.hash());
        self.hot.clear();
        self.watch(start.hash(), start.turn(), 1);
    }

    /// The game's position number of the stretch's first position.
    pub(crate) fn first(&self) -> usize {
        self.first
    }

    /// Adds the game's next position; `moves` are the game's moves (the one that led to `pos`
    /// included). Returns how often `pos` has now occurred in the stretch.
    pub(crate) fn push(&mut self, pos: &Position, moves: &[Move]) -> u32 {
        let h = pos.hash();
        self.hashes.push(h);
        let count = self.count(h, self.hashes.len() - 1, pos, moves);
        self.watch(h, pos.turn(), count);
        count
    }

    /// Notes a position that occurred `count` times, if it is now hot.
    fn watch(&mut self, h: u64, turn: Color, count: u32) {
        if count >= self.hot_at && !self.hot.contains(&(h, turn)) {
            self.hot.push((h, turn));
        }
    }

    /// Whether any position with `turn` to move is hot.
    pub(crate) fn any_hot(&self, turn: Color) -> bool {
        self.hot.iter().any(|&(_, t)| t == turn)
    }

    /// Whether a position with hash `h` is in the stretch.
    pub(crate) fn contains(&self, h: u64) -> bool {
        self.hashes.contains(&h)
    }

    /// Whether the position with hash `h` and `turn` to move is hot.
    pub(crate) fn is_hot(&self, h: u64, turn: Color) -> bool {
        self.hot.contains(&(h, turn))
    }

    /// How often `pos` (hash `h`), the game's position number `first + at`, occurs among the
    /// stretch's positions before index `at` and at it (if it is in the stretch already),
    /// confirmed on the board: a hash alone could collide.
    fn count(&self, h: u64, at: usize, pos: &Position, moves: &[Move]) -> u32 {
        let end = self.hashes.len().min(at + 1);
        // Positions with the same side to move are an even number of plies apart.
        let same_side = |k: usize| (at - k).is_multiple_of(2);
        let hits = (at % 2..end)
            .step_by(2)
            .filter(|&k| self.hashes[k] == h)
            .count();
        if hits == 0 || (hits == 1 && end == at + 1) {
            // None, or only the position itself.
            return u32::try_from(hits).unwrap_or(u32::MAX);
        }
        let mut replayed = self.start;
        let mut count = 0;
        for k in 0..end {
            if k > 0 {
                replayed.play_unchecked(moves[self.first + k - 1]);
            }
            if same_side(k) && self.hashes[k] == h && replayed == *pos {
                count += 1;
            }
        }
        count
    }

    /// How often `after`, a position one move on from the game's last one, has occurred in the
    /// stretch so far.
    pub(crate) fn earlier(&self, after: &Position, moves: &[Move]) -> u32 {
        self.count(after.hash(), self.hashes.len(), after, moves)
    }
}
