//! Answers remembered within one ruling. The classification of a cycle asks the same questions of
//! the same positions many times over (a mate search is made after every capture of every gain
//! search, in the positions before and after each move), so a ruling keeps small tables of
//! answers, keyed by the position's hash, in its [`Context`](super::context::Context). A new
//! ruling forgets the last one's answers (a new generation), so no request is answered from
//! another's work; the tables themselves are kept for the next ruling, not allocated anew.

use crate::moves::{Move, MoveList};
use crate::square::Square;
use arrayvec::ArrayVec;

/// Entries per table (direct-mapped: a newer answer replaces an older one on the same slot).
const SLOTS: usize = 1 << 13;

#[derive(Clone)]
struct Slot<T> {
    generation: u32,
    key: u64,
    value: T,
}

/// A direct-mapped table of `N` slots (a power of two), [`SLOTS`] unless said otherwise.
struct Table<T: Clone, const N: usize = SLOTS> {
    slots: Vec<Option<Slot<T>>>,
}

impl<T: Clone, const N: usize> Table<T, N> {
    fn new() -> Table<T, N> {
        Table {
            slots: vec![None; N],
        }
    }

    /// A table with no slots, holding nothing (allocates nothing).
    const fn empty() -> Table<T, N> {
        Table { slots: Vec::new() }
    }

    #[inline]
    fn get(&self, generation: u32, key: u64) -> Option<T> {
        self.peek(generation, key).cloned()
    }

    /// The value stored under `key` in this generation, borrowed.
    #[inline]
    fn peek(&self, generation: u32, key: u64) -> Option<&T> {
        match &self.slots[(key as usize) & (N - 1)] {
            Some(s) if s.generation == generation && s.key == key => Some(&s.value),
            _ => None,
        }
    }

    #[inline]
    fn put(&mut self, generation: u32, key: u64, value: T) {
        self.slots[(key as usize) & (N - 1)] = Some(Slot {
            generation,
            key,
            value,
        });
    }

    /// What [`put`](Self::put) under `key` would overwrite: the slot's index and content.
    #[inline]
    fn before_put(&self, key: u64) -> (usize, Option<Slot<T>>) {
        let i = (key as usize) & (N - 1);
        (i, self.slots[i].clone())
    }
}

/// A slot of a table that changes the searches' counts, as it was before a write (see
/// [`Memo::journal`]).
enum Undo {
    Mated(usize, Option<Slot<(u8, bool)>>),
    Root(usize, Option<Slot<Root>>),
    Escape(usize, (u32, Move)),
}

/// What one whole mate search found from a position, the attacker to move.
#[derive(Clone, Copy)]
struct Root {
    /// Its depth in plies.
    plies: u32,
    /// The positions it had room for.
    room: u64,
    /// The mating move it found.
    mate: Option<Move>,
    /// It ran out of room without finding a mate.
    cut: bool,
}

/// What a whole mate search remembered for this ruling says of a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// A mate, starting with this move, within the plies asked for.
    Mate(Move),
    /// No mate within the plies asked for.
    NoMate,
    /// A search no deeper, with at least as much room, ran out before finding one: so would
    /// this one.
    Cut,
}

/// Most moves of a remembered list (longer ones, rare, are generated again each time).
pub const GENERATED: usize = 24;

/// What a net-gain search generated at one position, in one cache line (the table is read at
/// every node of those searches, mostly at positions met before: a slot split over two lines
/// cost a second miss). The searches of one ruling meet the same positions again and again (one
/// search a target, a frame, a first move), and generating the moves costs more than the rest of
/// a position's work.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Generated {
    key: u64,
    /// The ruling it belongs to; 0 for an empty slot (generations start at 1).
    generation: u32,
    len: u8,
    /// [`IN_CHECK`] and [`ANY_LEGAL`].
    flags: u8,
    /// The side to move's captures, or every legal move when in check.
    moves: [Move; GENERATED],
}

/// The side to move is in check.
const IN_CHECK: u8 = 1;
/// It has a legal move at all.
const ANY_LEGAL: u8 = 2;

impl Generated {
    const EMPTY: Generated = Generated {
        key: 0,
        generation: 0,
        len: 0,
        flags: 0,
        moves: [Move::new(Square::new(0, 0), Square::new(0, 0)); GENERATED],
    };

    /// Whether the side to move is in check and has any legal move.
    fn status(&self) -> (bool, bool) {
        (self.flags & IN_CHECK != 0, self.flags & ANY_LEGAL != 0)
    }
}

/// Most checks of a remembered list of checking moves (longer ones are generated again).
pub const CHECKS: usize = 16;

/// Slots of the table of checking moves: the gain searches look for quiet checks, and the mate
/// searches start from, a few hundred positions of a ruling, each several times (4× the slots
/// saved 0.5 % more instructions on 图9: not worth the memory).
const CHECK_SLOTS: usize = 1 << 11;

/// The answers one ruling remembers: what the mate searches proved (by position), the whole mate
/// searches' results, the moves the gain searches generated and the checks they looked for.
pub struct Memo {
    generation: u32,
    mated: Table<(u8, bool)>,
    roots: Table<Root>,
    generated: Vec<Generated>,
    checks: Table<ArrayVec<Move, CHECKS>, CHECK_SLOTS>,
    /// What the writes since the last [`Memo::journal`] overwrote, when kept.
    journal: Option<Vec<Undo>>,
    /// The defender's reply that last escaped a mate search with so many plies left, by the
    /// point of the check (slots of other rulings told apart by their generation).
    escapes: Vec<(u32, Move)>,
}

/// Plies with a remembered escaping reply (deeper defences try none first).
const ESCAPE_PLIES: usize = 32;

impl Memo {
    /// Empty tables, of generation `generation`.
    pub fn new(generation: u32) -> Memo {
        Memo {
            generation,
            mated: Table::new(),
            roots: Table::new(),
            generated: vec![Generated::EMPTY; SLOTS],
            checks: Table::new(),
            journal: None,
            escapes: vec![(0, Move::new(Square::new(0, 0), Square::new(0, 0))); ESCAPE_PLIES * 90],
        }
    }

    /// No tables at all (what a context leaves behind when it hands its tables on).
    pub const fn empty() -> Memo {
        Memo {
            generation: 0,
            mated: Table::empty(),
            roots: Table::empty(),
            generated: Vec::new(),
            checks: Table::empty(),
            journal: None,
            escapes: Vec::new(),
        }
    }

    /// Whether the tables are there (not [`Memo::empty`]).
    pub fn is_allocated(&self) -> bool {
        !self.mated.slots.is_empty()
    }

    /// Forgets every remembered answer: a new generation (and no journal).
    pub fn forget(&mut self) {
        self.journal = None;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 rulings, clear for real rather than confuse old entries with new ones.
            *self = Memo::new(1);
        }
    }

    /// Starts (or starts again) a journal of the writes to the tables whose answers change what
    /// the searches count: the proven results, the whole mate searches' results and the
    /// escaping replies (the order the defences are tried in). The generated moves and the
    /// checks are the same whenever they are found, so are not kept. [`Memo::roll_back`] undoes
    /// the writes since; the journal holds one entry a write, at most two a position searched
    /// and one a whole mate search.
    pub(crate) fn journal(&mut self) {
        match &mut self.journal {
            Some(j) => j.clear(),
            None => self.journal = Some(Vec::new()),
        }
    }

    /// Puts back, newest first, what the writes since [`Memo::journal`] overwrote: the tables
    /// that change the searches' counts are as they were then.
    pub(crate) fn roll_back(&mut self) {
        let Some(journal) = &mut self.journal else {
            return;
        };
        while let Some(undo) = journal.pop() {
            match undo {
                Undo::Mated(i, old) => self.mated.slots[i] = old,
                Undo::Root(i, old) => self.roots.slots[i] = old,
                Undo::Escape(i, old) => self.escapes[i] = old,
            }
        }
    }

    /// Stops the journal.
    pub(crate) fn end_journal(&mut self) {
        self.journal = None;
    }

    /// The reply that last escaped a mate search of this ruling with `plies` left, from a check
    /// to the point `to`, if any.
    #[inline]
    pub fn escape(&self, (plies, to): (u32, Square)) -> Option<Move> {
        let &(generation, r) = self.escapes.get(escape_slot(plies, to)?)?;
        (generation == self.generation).then_some(r)
    }

    /// Remembers `r` as the reply that escaped a mate search with `plies` left from a check to
    /// the point `to`.
    #[inline]
    pub fn set_escape(&mut self, (plies, to): (u32, Square), r: Move) {
        let generation = self.generation;
        let Some(i) = escape_slot(plies, to).filter(|&i| i < self.escapes.len()) else {
            return;
        };
        if let Some(j) = &mut self.journal {
            j.push(Undo::Escape(i, self.escapes[i]));
        }
        self.escapes[i] = (generation, r);
    }

    /// The mate searches' proven results, borrowed for the length of one search.
    pub fn proven(&mut self) -> Proven<'_> {
        Proven {
            generation: self.generation,
            table: &mut self.mated,
            journal: self.journal.as_mut(),
        }
    }

    /// What an earlier whole mate search of this ruling from the position keyed `key` says of one
    /// within `plies` plies and `room` positions, if anything.
    pub fn root_mate(&self, key: u64, plies: u32, room: u64) -> Option<Known> {
        let r = self.roots.get(self.generation, key)?;
        match r.mate {
            Some(m) if r.plies <= plies => Some(Known::Mate(m)),
            None if !r.cut && r.plies >= plies => Some(Known::NoMate),
            // A shallower search with more room was cut: this deeper or equal one would be.
            None if r.cut && r.plies <= plies && r.room >= room => Some(Known::Cut),
            _ => None,
        }
    }

    /// Records what a whole mate search from the position keyed `key` found within `plies` plies
    /// and `room` positions: the mating move, or none, and whether it ran out of room.
    pub fn set_root_mate(
        &mut self,
        key: u64,
        plies: u32,
        room: u64,
        mate: Option<Move>,
        cut: bool,
    ) {
        if let Some(j) = &mut self.journal {
            let (i, old) = self.roots.before_put(key);
            j.push(Undo::Root(i, old));
        }
        self.roots.put(
            self.generation,
            key,
            Root {
                plies,
                room,
                mate,
                cut,
            },
        );
    }

    /// The slot of the position with hash `hash` in the table of generated moves, if it holds
    /// that position's moves of this ruling.
    #[inline]
    fn generated_slot(&self, hash: u64) -> Option<&Generated> {
        let g = &self.generated[(hash as usize) & (SLOTS - 1)];
        (g.generation == self.generation && g.key == hash).then_some(g)
    }

    /// The moves generated at the position with hash `hash` earlier in this ruling, if
    /// remembered: appended to `moves` (a fresh list), with whether the side to move is in check and has any
    /// legal move.
    #[inline]
    pub fn generated(&self, hash: u64, moves: &mut MoveList) -> Option<(bool, bool)> {
        let g = self.generated_slot(hash)?;
        // One copy of the slice (`extend` pushes move by move, testing the room each time); the
        // callers pass a fresh list, whose room a remembered list never exceeds.
        let fits = moves.try_extend_from_slice(&g.moves[..usize::from(g.len)]);
        debug_assert!(fits.is_ok(), "a remembered list fits a fresh one");
        Some(g.status())
    }

    /// Whether the side to move is in check and has any legal move at the position with hash
    /// `hash`, if its moves are remembered.
    #[inline]
    pub fn generated_status(&self, hash: u64) -> Option<(bool, bool)> {
        self.generated_slot(hash).map(Generated::status)
    }

    /// The checking moves of the side to move at the position with hash `hash`, if remembered:
    /// appended to `moves` (a fresh list; in the generator's order). Whether they were.
    #[inline]
    pub fn checks(&self, hash: u64, moves: &mut MoveList) -> bool {
        match self.checks.peek(self.generation, hash) {
            Some(c) => {
                // As in `generated`: one copy, into a fresh list.
                let fits = moves.try_extend_from_slice(c);
                debug_assert!(fits.is_ok(), "remembered checks fit a fresh list");
                true
            }
            None => false,
        }
    }

    /// Remembers the checking moves at the position with hash `hash` (not when there are more
    /// than [`CHECKS`]).
    #[inline]
    pub fn set_checks(&mut self, hash: u64, moves: &[Move]) {
        if let Ok(c) = ArrayVec::try_from(moves) {
            self.checks.put(self.generation, hash, c);
        }
    }

    /// Remembers the moves generated at the position with hash `hash` (the side to move's
    /// captures, or every legal move when in check), whether it is in check and whether it has
    /// any legal move; not when there are more than [`GENERATED`] moves.
    #[inline]
    pub fn set_generated(&mut self, hash: u64, in_check: bool, any_legal: bool, moves: &[Move]) {
        if moves.len() > GENERATED {
            return;
        }
        let g = &mut self.generated[(hash as usize) & (SLOTS - 1)];
        g.key = hash;
        g.generation = self.generation;
        g.len = moves.len() as u8;
        g.flags = (u8::from(in_check) * IN_CHECK) | (u8::from(any_legal) * ANY_LEGAL);
        g.moves[..moves.len()].copy_from_slice(moves);
    }
}

/// The slot of the escaping reply with `plies` left from a check to `to` (none that deep).
fn escape_slot(plies: u32, to: Square) -> Option<usize> {
    let plies = usize::try_from(plies).ok().filter(|&p| p < ESCAPE_PLIES)?;
    Some(plies * 90 + to.index())
}

/// The mate searches' proven results of this ruling (mated within so many plies, or not, by
/// position), borrowed for the length of one search.
pub struct Proven<'a> {
    generation: u32,
    table: &'a mut Table<(u8, bool)>,
    journal: Option<&'a mut Vec<Undo>>,
}

impl Proven<'_> {
    /// What the searches found out about the defender (to move) in the position with hash
    /// `hash`: mated within `plies` plies (`Some(true)`), known not to be (`Some(false)`), or
    /// not known.
    #[inline]
    pub fn mated_within(&self, hash: u64, plies: u32) -> Option<bool> {
        let (p, mated) = self.table.get(self.generation, hash)?;
        let p = u32::from(p);
        // Mated within p plies means mated within more; not mated within p means not within fewer.
        if mated && p <= plies {
            Some(true)
        } else if !mated && p >= plies {
            Some(false)
        } else {
            None
        }
    }

    /// Records that the defender in the position with hash `hash` is (or is not) mated within
    /// `plies` plies by checks.
    #[inline]
    pub fn set_mated_within(&mut self, hash: u64, plies: u32, mated: bool) {
        // Deeper searches than a byte counts are not remembered (the bounds stay far below).
        if let Ok(p) = u8::try_from(plies) {
            if let Some(j) = &mut self.journal {
                let (i, old) = self.table.before_put(hash);
                j.push(Undo::Mated(i, old));
            }
            self.table.put(self.generation, hash, (p, mated));
        }
    }
}
