//! Net material gain (得子): what the side to move can win by a short forcing line in which the
//! opponent answers anywhere (docs/gain.md §1). The mover plays captures and checks; the opponent
//! recaptures, takes what the line leaves hanging, checks back or mates; either side may stop when
//! stopping is better (stand pat). A forced mate by checks ends a line as a loss for the mated side.
//!
//! One search answers every material question of a ruling: the exchange on one point (a query
//! restricted to that point), what a piece's capture nets after the opponent's best answer
//! anywhere, gains by a series of checks, discovered and forking captures (抽吃), combinations
//! across points, and the same questions in the position before a move. Bounded by
//! [`GainLimits`]: plies, checks per side and positions; a search that runs out of positions
//! answers with what it has seen, which can only understate the gain. A line that reaches the
//! plies right after a capture goes on, captures on that point only, until the exchange there
//! is complete or [`MAX_PLY`]: the side that moves last must not keep a capture the other could
//! take back.

use super::context::Context;
use super::mate::{Budget, mate_avoiding, remembered_checks};
use super::memo::Memo;
use super::value::{Arithmetic, Material, capture_order};
use crate::attacks::{attackers, gives_check};
use crate::color::Color;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::piece::Role;
use crate::position::{Position, Undo};
use crate::square::Square;
use arrayvec::ArrayVec;

/// Longest line the search follows.
pub const MAX_PLY: usize = 16;

/// A line of play.
pub type Line = ArrayVec<Move, MAX_PLY>;

/// Score of a forced mate, less the plies to it.
pub const MATE: i32 = 10_000;

/// Bounds of one net-gain search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GainLimits {
    /// Most plies of a line, before the exchange on the point of its last capture is completed
    /// (captures on that point only, to [`MAX_PLY`]).
    pub plies: u8,
    /// Most non-capturing checks of the side to move in a line (a series of checks, 连续照将).
    pub checks: u8,
    /// Most non-capturing checks of the opponent in a line (checks played back).
    pub counter_checks: u8,
    /// Plies of the mate searches made inside a line.
    pub mate_plies: u32,
    /// Positions of each such mate search.
    pub mate_nodes: u64,
    /// Most positions one gain search visits.
    pub nodes: u64,
}

impl Default for GainLimits {
    fn default() -> GainLimits {
        GainLimits {
            plies: 10,
            checks: 3,
            counter_checks: 2,
            mate_plies: 7,
            mate_nodes: 2_000,
            nodes: 6_000,
        }
    }
}

/// Which position a search judges, and so which of the opponent's answers count (docs/gain.md
/// §2).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Frame {
    /// The position before a move: every answer of the opponent counts.
    #[default]
    Before,
    /// Some of the opponent's answers are threats it has anyway, not answers to the line: taking
    /// a piece that one of its captures in `standing` already threatened is not subtracted
    /// (whatever the route, say a check first) while the line has not touched that piece, and, when `old_mates`, neither are its mates that were already on the board
    /// before the line's last move. After a move (its mover to move again) these are the threats
    /// the opponent had before the line and its captures of the piece just moved (taking an
    /// offered piece answers a chase, it does not refute it); before a move, the threats it has
    /// both before and after the move.
    Standing {
        /// The opponent's captures that do not count while untouched.
        standing: ArrayVec<Move, 48>,
        /// Whether the opponent's mates already on the board do not count.
        old_mates: bool,
    },
}

/// One net-gain question about a position, for its side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    /// The pawn arithmetic.
    pub arithmetic: Arithmetic,
    /// Before or after a move.
    pub frame: Frame,
    /// Credit a gain only if the piece now on this point is captured in the line.
    pub target: Option<Square>,
    /// Pieces the side to move may not capture (a threat resting on taking an offered piece is
    /// discounted, 2011 26.9).
    pub forbid: ArrayVec<Forbid, 4>,
    /// Only captures on this point, no checks: the exchange on one point (docs/spec.md §4).
    pub square: Option<Square>,
    /// On one point, the opponent may still give check and take the capturer where its answer
    /// put it: whether a capture wins once the other side's way to win the capturer back by
    /// checks is counted (docs/rules.md §4, threats already there).
    pub square_counter_checks: bool,
    /// The line must start with this move.
    pub first: Option<Move>,
    /// The opponent's answer to the first move must be this one (a fork's answers judged one
    /// by one).
    pub answer: Option<Move>,
    /// The opponent answers only by recapturing pieces the line moved (and by evading checks):
    /// no counter-checks, no captures elsewhere, no mates. What the side to move's own pieces
    /// achieve, for telling which of them take part in a gain.
    pub recaptures_only: bool,
    /// A piece of the side to move that may not move in the line (its body still blocks).
    pub frozen: Option<Square>,
    /// The side to move never gives check, capturing or not: what it wins without checks.
    pub checkless: bool,
    /// Captures of the side to move that win nothing while the line has touched neither point
    /// (a king's or a pawn's own threats, 1999 27.1–27.2, 2011 26.1).
    pub free: ArrayVec<Move, 8>,
    /// A pawn's capture of the side to move made right after the opponent answered one of its
    /// checks without capturing wins nothing, wherever in the line, unless it gives check or
    /// takes a rook (借子抽吃, 2011 26.7).
    pub free_after_check: bool,
    /// The search's bounds.
    pub limits: GainLimits,
}

impl Query {
    /// The plain question: the side to move's best net gain, every answer counted.
    pub fn new(arithmetic: Arithmetic, limits: GainLimits) -> Query {
        Query {
            arithmetic,
            frame: Frame::Before,
            target: None,
            forbid: ArrayVec::new(),
            square: None,
            square_counter_checks: false,
            first: None,
            answer: None,
            recaptures_only: false,
            frozen: None,
            checkless: false,
            free: ArrayVec::new(),
            free_after_check: false,
            limits,
        }
    }

    /// The same question, crediting only lines that capture the piece on `sq`.
    pub fn targeting(&self, sq: Square) -> Query {
        Query {
            target: Some(sq),
            ..self.clone()
        }
    }

    /// The same question, the line starting with `m`.
    pub fn starting(&self, m: Move) -> Query {
        Query {
            first: Some(m),
            ..self.clone()
        }
    }
}

/// A capture the side to move may not make: of the opponent's piece now on `victim` while it
/// stays there, by the piece now on `by`, or by any piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Forbid {
    /// The opponent's piece.
    pub victim: Square,
    /// The capturer, if only one is barred.
    pub by: Option<Square>,
}

/// The answer: the best line for the side to move and what it is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gain {
    /// The line's worth in half units (see [`Material::score`]): positive when it wins under
    /// the profile's arithmetic, `MATE`-sized for a forced mate, zero for standing pat.
    pub value: i32,
    /// The material balance at the line's end, for the side to move.
    pub material: Material,
    /// The principal line (empty when standing pat is best).
    pub line: Line,
    /// Positions visited.
    pub nodes: u64,
    /// The position budget ran out (the value may then understate the gain).
    pub exhausted: bool,
}

impl Gain {
    /// Whether the side to move comes out ahead (or mates) by the line.
    pub fn gains(&self) -> bool {
        self.value > 0
    }

    /// Whether the line ends in a forced mate.
    pub fn mates(&self) -> bool {
        self.value.abs() > MATE / 2
    }
}

#[derive(Copy, Clone)]
struct State {
    /// Balance for the root side.
    bal: Material,
    /// The root side's crossed pawns taken after its gain that had not captured in the line
    /// (2011 26.6: they do not void the gain; counted only under `Arithmetic::late_pawn_kept`).
    late: Material,
    /// The target's point, `None` once it has been captured.
    target: Option<Square>,
    /// Which pieces of `Query::forbid` (bit `i` for entry `i`) still stand on their points:
    /// cleared once they move (a bit, not their points: they never stand anywhere else).
    forbid: u8,
    /// Points the line's moves have left or entered.
    touched: u128,
    checks: u8,
    counter_checks: u8,
    /// The last move captured: only then can it have let the side to move mate (a capture that
    /// gets the capturer mated, a recapture that lets the capturer mate).
    captured: bool,
    /// The last move was the opponent's answer to a check of the root side, capturing nothing.
    answered: bool,
}

struct Searcher<'q, 'c> {
    q: &'q Query,
    cx: &'c mut Context,
    root: Color,
    budget: Budget,
    /// The points of `Query::forbid`'s pieces.
    forbid_at: u128,
    /// The points the opponent's standing captures of the frame (`Frame::Standing`) are on.
    standing_to: u128,
    pv: [Line; MAX_PLY + 1],
    /// The move that last cut the search off at each ply, tried first at the next position there
    /// (the same refutation usually works again; the order changes no value).
    killers: [Option<Move>; MAX_PLY + 1],
}

/// Searches `pos` for the side to move's best net gain under `q`.
pub fn gain(cx: &mut Context, pos: &Position, q: &Query) -> Gain {
    gain_above(cx, pos, q, -MATE - 1)
}

/// As [`gain`] when the gain is above `floor`, found with fewer positions; otherwise some value
/// at most `floor` and its line. Used once [`gains`] has said the gain is above zero.
pub fn gain_above(cx: &mut Context, pos: &Position, q: &Query, floor: i32) -> Gain {
    let mut g = search_above(cx, pos, q, floor);
    if g.value <= 0 && forks(q) {
        let mut spent = Spent::of(&g);
        if let Some(f) = fork(cx, pos, q, &mut spent) {
            g = f;
        }
        (g.nodes, g.exhausted) = (spent.nodes, spent.exhausted);
    }
    g
}

/// The search behind [`gain_above`], without a fork's answers.
fn search_above(cx: &mut Context, pos: &Position, q: &Query, floor: i32) -> Gain {
    let mut s = Searcher::new(cx, pos, q);
    let mut p = *pos;
    let value = s.node(&mut p, None, root_state(q), 0, floor, MATE + 1);
    let line = s.pv[0].clone();
    Gain {
        value,
        material: line_material(pos, &line),
        line,
        nodes: s.budget.nodes,
        exhausted: s.budget.exhausted,
    }
}

/// Whether the side to move of `pos` comes out ahead under `q`, without the line or its value:
/// a null-window search (is the value above zero?), which cuts far more than [`gain`]. The
/// answer is the one `gain(pos, q).gains()` gives whenever neither search runs out of positions.
pub fn gains(cx: &mut Context, pos: &Position, q: &Query) -> Probe {
    gains_or_fork(cx, pos, q).0
}

/// As [`gains`], with the value of the fork's line when the gain is a fork's (a fork by check):
/// the value [`gain`] finds then, whenever neither search runs out of positions.
pub fn gains_or_fork(cx: &mut Context, pos: &Position, q: &Query) -> (Probe, Option<i32>) {
    let p = gains_above(cx, pos, q, 0);
    if p.gains || !forks(q) {
        return (p, None);
    }
    let mut spent = Spent {
        nodes: p.nodes,
        exhausted: p.exhausted,
    };
    let fork = fork(cx, pos, q, &mut spent);
    let probe = Probe {
        gains: fork.is_some(),
        nodes: spent.nodes,
        exhausted: spent.exhausted,
    };
    (probe, fork.map(|f| f.value))
}

/// Whether the side to move of `pos` wins more than `floor` under `q`, without a fork's
/// answers: a null-window search around `floor`, whose answer is whether the value of the
/// search behind [`gain_above`] is above `floor`, whenever neither runs out of positions.
pub fn gains_above(cx: &mut Context, pos: &Position, q: &Query, floor: i32) -> Probe {
    let mut s = Searcher::new(cx, pos, q);
    let mut p = *pos;
    let value = s.node(&mut p, None, root_state(q), 0, floor, floor + 1);
    Probe {
        gains: value > floor,
        nodes: s.budget.nodes,
        exhausted: s.budget.exhausted,
    }
}

/// Positions a search and the searches after it have visited, against the first one's bound.
struct Spent {
    nodes: u64,
    exhausted: bool,
}

impl Spent {
    fn of(g: &Gain) -> Spent {
        Spent {
            nodes: g.nodes,
            exhausted: g.exhausted,
        }
    }

    /// `q` bounded by what is left of its own positions.
    fn bound(&self, q: &Query) -> Query {
        let mut q = q.clone();
        q.limits.nodes = q.limits.nodes.saturating_sub(self.nodes);
        q
    }

    fn add(&mut self, nodes: u64, exhausted: bool) {
        self.nodes += nodes;
        self.exhausted |= exhausted;
    }
}

/// Whether a targeted question may be answered by a fork by check (see [`fork`]).
fn forks(q: &Query) -> bool {
    q.target.is_some()
        && q.answer.is_none()
        && q.square.is_none()
        && !q.checkless
        && q.limits.checks > 0
}

/// A fork by check (抽吃 with several targets, 2011 24.3): the side to move checks with a move
/// that itself attacks the target (and other pieces); the opponent answers the check and can
/// save only some of them. The target is won when one of the opponent's best answers (those
/// that lose no more than the check's value, searched without a target) leaves a line that
/// takes it with a gain: which of the forked pieces falls is the opponent's choice, so each one
/// it may give up is won, not only the one a principal line happens to take, nor none because
/// each alone could be saved. Only a quiet check as the line's first move is judged so. The
/// fork is worth what the mover is sure of (GAIN.md §1–2): the least, over the best answers
/// that give the target up, of the line that takes it, and of the checks the one worth most;
/// so neither the order of the checks nor of the answers decides it (a colour-swapped board
/// once followed another equal answer and read 3 for 23). The line returned is that check,
/// that answer and the line that takes the target. Every search here draws on the position
/// bound of the query (`spent` counts them).
fn fork(cx: &mut Context, pos: &Position, q: &Query, spent: &mut Spent) -> Option<Gain> {
    let target = q.target?;
    let us = pos.turn();
    let mut checks = MoveList::new();
    remembered_checks(&mut cx.memo, pos, &mut checks);
    let open = Query {
        target: None,
        ..q.clone()
    };
    let before = attackers(pos.board(), target, us);
    let mut best: Option<Gain> = None;
    for &m in &checks {
        if pos.piece_at(m.to).is_some()
            || q.first.is_some_and(|f| f != m)
            || (q.frozen == Some(m.from))
        {
            continue;
        }
        // The check itself must attack the target: the checking piece, or a piece it uncovers.
        let mut after = *pos;
        after.play_unchecked(m);
        if attackers(after.board(), target, us)
            .iter()
            .all(|sq| before.contains(sq))
        {
            continue;
        }
        if spent.nodes >= q.limits.nodes {
            return None;
        }
        // The check's value, every answer searched, without a target (a check that wins
        // nothing forks nothing), searched only once an answer gives the target up: most
        // checks fork nothing (on 图9 that search was 9 % of the ruling's positions and no
        // answer needed it).
        let mut value = None;
        // The least this check is sure to win the target for.
        let mut least: Option<Gain> = None;
        for a in after.legal_moves() {
            if spent.nodes >= q.limits.nodes {
                return None;
            }
            let taken = Query {
                first: Some(m),
                answer: Some(a),
                ..q.clone()
            };
            let p = gains_above(cx, pos, &spent.bound(&taken), 0);
            spent.add(p.nodes, p.exhausted);
            if !p.gains {
                continue;
            }
            let value = match value {
                Some(v) => v,
                None => {
                    let check = search_above(cx, pos, &spent.bound(&open.starting(m)), 0);
                    spent.add(check.nodes, check.exhausted);
                    *value.insert(check.value)
                }
            };
            if value <= 0 {
                break;
            }
            // This answer's value without a target: one of the best answers?
            let this = Query {
                answer: Some(a),
                ..open.starting(m)
            };
            let worse = gains_above(cx, pos, &spent.bound(&this), value);
            spent.add(worse.nodes, worse.exhausted);
            if worse.gains {
                continue;
            }
            let g = search_above(cx, pos, &spent.bound(&taken), 0);
            spent.add(g.nodes, g.exhausted);
            if g.gains() && least.as_ref().is_none_or(|l| g.value < l.value) {
                least = Some(g);
            }
        }
        if let Some(l) = least
            && best.as_ref().is_none_or(|b| l.value > b.value)
        {
            best = Some(l);
        }
    }
    best
}

/// The answer of [`gains`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The side to move comes out ahead (or mates).
    pub gains: bool,
    /// Positions visited.
    pub nodes: u64,
    /// The position budget ran out.
    pub exhausted: bool,
}

fn root_state(q: &Query) -> State {
    let forbid = (1u8 << q.forbid.len()) - 1;
    State {
        bal: Material::ZERO,
        late: Material::ZERO,
        target: q.target,
        forbid,
        touched: 0,
        checks: 0,
        counter_checks: 0,
        captured: false,
        answered: false,
    }
}

/// The material the side to move of `pos` wins along `line`.
pub fn line_material(pos: &Position, line: &[Move]) -> Material {
    let us = pos.turn();
    let mut p = *pos;
    let mut bal = Material::ZERO;
    for &m in line {
        if let Some(v) = p.piece_at(m.to) {
            let w = Material::of(v, m.to);
            bal = if p.turn() == us { bal + w } else { bal - w };
        }
        p.play_unchecked(m);
    }
    bal
}

/// The worth of a balance under a profile's pawn arithmetic: a gain or a loss counts its
/// score; pawns against pieces, either way, count nothing (25.3 "一兵换取数子或一子换取数兵均
/// 不算得子").
pub fn worth(bal: Material, arithmetic: Arithmetic) -> i32 {
    // A gain is worth something whatever the weights say (an advisor won for two pawns), and a
    // loss costs something.
    if bal.is_gain(arithmetic) {
        bal.score().max(1)
    } else if (-bal).is_gain(arithmetic) {
        bal.score().min(-1)
    } else {
        0
    }
}

/// Whether the side to move is in check and whether it has a legal move at all, with its
/// captures (every legal move when in check: out of check the checks come from their own
/// generator and quiet moves are never listed) put in `moves`; remembered for the ruling.
fn generate(memo: &mut Memo, pos: &Position, moves: &mut MoveList) -> (bool, bool) {
    let hash = pos.hash();
    if let Some(known) = memo.generated(hash, moves) {
        return known;
    }
    let us = pos.turn();
    let (in_check, any_legal) = movegen::captures_or_evasions(pos.board(), us, pos.king(us), moves);
    memo.set_generated(hash, in_check, any_legal, moves);
    (in_check, any_legal)
}

/// Whether the side to move is in check and whether it has a legal move at all, from the moves
/// remembered for the position if any.
fn status(memo: &Memo, pos: &Position) -> (bool, bool) {
    let hash = pos.hash();
    if let Some(known) = memo.generated_status(hash) {
        return known;
    }
    let us = pos.turn();
    movegen::status(pos.board(), us, pos.king(us))
}

impl<'q, 'c> Searcher<'q, 'c> {
    /// A search of `pos` under `q`, with its own position budget.
    fn new(cx: &'c mut Context, pos: &Position, q: &'q Query) -> Searcher<'q, 'c> {
        Searcher {
            q,
            cx,
            root: pos.turn(),
            budget: Budget::new(q.limits.nodes),
            forbid_at: q.forbid.iter().fold(0, |m, f| m | f.victim.mask()),
            standing_to: match &q.frame {
                Frame::Before => 0,
                Frame::Standing { standing, .. } => standing.iter().fold(0, |m, t| m | t.to.mask()),
            },
            pv: Default::default(),
            killers: [None; MAX_PLY + 1],
        }
    }

    /// The value for the root side of a line ending with `state`.
    fn leaf(&self, state: &State) -> i32 {
        let v = worth(state.bal + state.late, self.q.arithmetic);
        if state.target.is_some() { v.min(0) } else { v }
    }

    /// Negamax: the value for the side to move. `last` is the last move and what undoes it (the
    /// position before it is rebuilt only when a mate test needs it).
    fn node(
        &mut self,
        pos: &mut Position,
        last: Option<(Move, Undo)>,
        state: State,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv[ply].clear();
        let us = pos.turn();
        let ours = us == self.root;
        let sign = if ours { 1 } else { -1 };
        let stand = sign * self.leaf(&state);
        if !self.budget.tick(&mut self.cx.left) {
            return stand;
        }
        let plies = usize::from(self.q.limits.plies).min(MAX_PLY);
        // Beyond the plies a line goes on only to complete the exchange on the point of its last
        // capture (2011 24.3: net after a complete exchange): no line ends on a capture that the
        // other side could answer there with a winning recapture.
        let completing = if ply >= plies && ply < MAX_PLY && state.captured {
            last.map(|(m, _)| m.to)
        } else {
            None
        };
        let horizon = ply >= plies && completing.is_none();
        let mut moves = MoveList::new();
        // The last ply needs no moves, only whether there are any.
        let (in_check, any_legal) = if horizon {
            status(&self.cx.memo, pos)
        } else {
            generate(&mut self.cx.memo, pos, &mut moves)
        };
        if !any_legal {
            // Mated, or stalemated (困毙), which also loses; a mate of the opponent is no capture
            // of a target (杀 is judged on its own).
            if !ours && state.target.is_some() {
                return stand;
            }
            return -(MATE - ply as i32);
        }
        let mut best = -MATE - 1;
        // Whether a mate by checks of the side to move would end the line here: tested after
        // the moves, and only when they do not already refute the line (a fail-high bound is
        // as good as the mate's), since the test costs more than most of these nodes.
        let mut mate_ends = false;
        // Completing an exchange beyond the plies, either side may stop, in check or not (the
        // line's end, as at the last ply).
        if (!in_check || completing.is_some()) && ply > 0 {
            best = stand;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            let credited = (!ours && !self.q.recaptures_only) || (ours && state.target.is_none());
            mate_ends = !in_check && credited && state.captured;
        } else if !in_check && self.q.first.is_none() {
            // At the root standing pat is worth nothing, target or not.
            best = 0.min(stand);
            alpha = alpha.max(best);
        }
        // While the target stands a line is worth nothing to the root side (its leaves count at
        // most zero, its mates do not count), so near the end of the plies only taking it can
        // lift a line above zero.
        let hunting = state.target.is_some();
        // The opponent in check with only the root side's last position to come: an evasion
        // that takes nothing leaves it where it stands and ends the line (the root side then
        // has no mate to count, and leaving it without a move only helps the opponent); so it
        // stands at least there. (An evasion that captures does not end the line: the root side
        // may answer it on its point.)
        if !ours
            && in_check
            && ply + 1 >= plies
            && stand >= beta
            && moves.iter().any(|m| pos.piece_at(m.to).is_none())
        {
            return stand;
        }
        // The root side's last move, the line below zero counting as zero: only a capture of
        // the target can rise above it; the other moves are worth at most zero. (A recapture
        // completing an exchange beyond the plies can take the target only where it has just
        // captured, which the opponent need not do unless a check leaves it no other answer;
        // that line is not searched, so the cut can only understate.)
        let last_chance = hunting && ours && ply + 2 >= plies && alpha >= 0;
        if horizon {
            if mate_ends && self.mates(pos, last, ours, self.forbidden(&state)) {
                return MATE - ply as i32 - 1;
            }
            return if in_check { stand } else { best };
        }
        let mut candidates = ArrayVec::new();
        let node = (ply, in_check, ours, last_chance);
        let mut wants_checks = self.candidates(pos, &moves, &state, node, &mut candidates);
        if let Some(point) = completing {
            candidates.retain(|&mut (_, m)| m.to == point && pos.piece_at(m.to).is_some());
            wants_checks = false;
        }
        if last_chance {
            best = best.max(0);
        }
        // Answering a given first move, of two answers worth the same the one elsewhere is
        // shown: whether the first move's loss comes from what it exposed must not go by the
        // order of the points (see `chase/won.rs`, `net_gain_wins`).
        if ply == 1
            && let Some(f) = self.q.first
        {
            candidates.sort_by_key(|&(_, m)| m.to == f.to);
        }
        // The killer first, wherever it would stand; a check among the checks, which come
        // after every capture and are generated only if no capture cuts the search off.
        let mut killer_check = None;
        if let Some(k) = self.killers[ply] {
            if let Some(i) = candidates.iter().position(|&(_, m)| m == k) {
                candidates[..=i].rotate_right(1);
            } else if wants_checks
                && self.is_quiet_check(pos, k, &state, ours)
                && candidates.try_insert(0, (0, k)).is_ok()
            {
                killer_check = Some(k);
            }
        }
        let mut bounds = (best, alpha);
        let node = (ply, in_check, ours);
        let mut done = false;
        for &(_, m) in &candidates {
            if self.try_move(pos, m, &state, node, &mut bounds, beta) {
                done = true;
                break;
            }
        }
        if wants_checks && !done {
            let mut checks = MoveList::new();
            remembered_checks(&mut self.cx.memo, pos, &mut checks);
            for &m in &checks {
                if Some(m) == killer_check || !self.quiet_check_counts(pos, m, &state, ours) {
                    continue;
                }
                if self.try_move(pos, m, &state, node, &mut bounds, beta) {
                    break;
                }
            }
        }
        let (best, _) = bounds;
        if mate_ends && best < beta && self.mates(pos, last, ours, self.forbidden(&state)) {
            self.pv[ply].clear();
            return MATE - ply as i32 - 1;
        }
        if best == -MATE - 1 {
            // In check with no evasion the query allows: the line fails for the side to move
            // (or the first move given was not legal).
            return if ply == 0 {
                stand
            } else {
                -(MATE - ply as i32)
            };
        }
        best
    }

    /// Searches `m` at the node of `state` (`(ply, in_check, ours)`), raising `bounds` (the best
    /// value and alpha) and the principal line; true when the search stops there (a cutoff, or
    /// the budget spent).
    fn try_move(
        &mut self,
        pos: &mut Position,
        m: Move,
        state: &State,
        (ply, in_check, ours): (usize, bool, bool),
        (best, alpha): &mut (i32, i32),
        beta: i32,
    ) -> bool {
        let mut next = *state;
        next.captured = pos.piece_at(m.to).is_some();
        next.answered = !ours && in_check && !next.captured;
        let a = self.q.arithmetic;
        if let Some(v) = pos.piece_at(m.to) {
            let w = Material::of(v, m.to);
            next.bal = if ours { next.bal + w } else { next.bal - w };
            if ours && state.target == Some(m.to) {
                next.target = None;
            }
            // A crossed pawn of the root side lost after its gain, not having captured.
            if !ours
                && a.late_pawn_kept
                && w.pieces == 0
                && w.pawns > 0
                && state.bal.pieces > 0
                && state.touched & m.to.mask() == 0
            {
                next.late = next.late + w;
            }
        } else if !in_check {
            if ours {
                next.checks += 1;
            } else {
                next.counter_checks += 1;
            }
        }
        if !ours {
            if state.target == Some(m.from) {
                next.target = Some(m.to);
            }
            // An offered piece that moves away is no longer the piece offered.
            if next.forbid != 0 && self.forbid_at & m.from.mask() != 0 {
                for (i, f) in self.q.forbid.iter().enumerate() {
                    if f.victim == m.from {
                        next.forbid &= !(1 << i);
                    }
                }
            }
        }
        next.touched |= m.from.mask() | m.to.mask();
        let undo = pos.play_unchecked(m);
        let v = -self.node(pos, Some((m, undo)), next, ply + 1, -beta, -*alpha);
        pos.undo(m, undo);
        if v > *best {
            *best = v;
            let (head, tail) = self.pv.split_at_mut(ply + 1);
            head[ply].clear();
            head[ply].push(m);
            let below = &tail[0][..tail[0].len().min(MAX_PLY - 1)];
            // Cannot fail: the line holds one move.
            let _ = head[ply].try_extend_from_slice(below);
            *alpha = (*alpha).max(v);
            if *alpha >= beta {
                self.killers[ply] = Some(m);
                return true;
            }
        }
        self.budget.exhausted
    }

    /// Whether the check `m` (a legal move) is one the node searches: a quiet one (checks that
    /// capture are among the captures), not of the frozen piece.
    fn quiet_check_counts(&self, pos: &Position, m: Move, state: &State, ours: bool) -> bool {
        pos.piece_at(m.to).is_none() && !self.frozen(m, state, ours)
    }

    /// Whether `m` moves the piece the query freezes (the side to move's, while the line has
    /// not touched its point).
    fn frozen(&self, m: Move, state: &State, ours: bool) -> bool {
        ours && self.q.frozen == Some(m.from) && state.touched & m.from.mask() == 0
    }

    /// Whether `m` is a legal quiet check the node searches (a killer met among the checks).
    fn is_quiet_check(&self, pos: &Position, m: Move, state: &State, ours: bool) -> bool {
        let king = pos.king(!pos.turn());
        pos.piece_at(m.to).is_none()
            && pos.is_legal(m)
            && gives_check(pos.board(), m.from, m.to, king)
            && self.quiet_check_counts(pos, m, state, ours)
    }

    /// The captures searched at a node, best-looking first, put in `out`: every evasion when in
    /// check, else the captures the frame counts; only the captures of the target when
    /// `target_only`. Whether the side's quiet checks are searched too, after them.
    fn candidates(
        &self,
        pos: &Position,
        moves: &MoveList,
        state: &State,
        (ply, in_check, ours, target_only): (usize, bool, bool, bool),
        out: &mut ArrayVec<(i32, Move), 128>,
    ) -> bool {
        if ply == 0
            && let Some(f) = self.q.first
        {
            if pos.is_legal(f) {
                out.push((0, f));
            }
            return false;
        }
        if ply == 1
            && let Some(a) = self.q.answer
        {
            if pos.is_legal(a) {
                out.push((0, a));
            }
            return false;
        }
        let checks_left = if ours {
            state.checks < self.q.limits.checks
        } else {
            !self.q.recaptures_only && state.counter_checks < self.q.limits.counter_checks
        };
        let wants_checks = !in_check
            && checks_left
            && !target_only
            && (self.q.square.is_none() || (!ours && self.q.square_counter_checks))
            && !(ours && self.q.checkless);
        let king = pos.king(!pos.turn());
        for &m in moves {
            if target_only && state.target != Some(m.to) {
                continue;
            }
            if self.frozen(m, state, ours) {
                continue;
            }
            if ours && self.q.checkless && gives_check(pos.board(), m.from, m.to, king) {
                continue;
            }
            let victim = pos.piece_at(m.to);
            match victim {
                Some(v) => {
                    if v.role == Role::King {
                        continue;
                    }
                    // A barred capture stays barred even as the way out of a check: a gain that
                    // needs it rests on taking the offered piece (2011 26.9, docs/rules.md §10).
                    if (!in_check && !self.capture_counts(m, ours, state))
                        || (ours && self.barred(m, state))
                        || (ours
                            && !in_check
                            && state.answered
                            && self.borrowed(pos, m, v.role, king))
                    {
                        continue;
                    }
                    let order = 100 * Material::of(v, m.to).score()
                        - pos
                            .piece_at(m.from)
                            .map_or(0, |p| i32::from(capture_order(p.role)));
                    out.push((order, m));
                }
                // Out of check `moves` holds captures only.
                None => out.push((-1000, m)),
            }
        }
        out.sort_by_key(|(o, _)| -o);
        wants_checks
    }

    /// Whether the capture `m` belongs to the line in this query.
    fn capture_counts(&self, m: Move, ours: bool, state: &State) -> bool {
        let untouched = |sq: Square| state.touched & sq.mask() == 0;
        // On one point: captures there, and recaptures of pieces a check evasion moved.
        if self
            .q
            .square
            .is_some_and(|sq| sq != m.to && untouched(m.to))
        {
            return false;
        }
        let fresh = untouched(m.from) && untouched(m.to);
        if ours {
            return !(self.barred(m, state) || (fresh && self.q.free.contains(&m)));
        }
        if self.q.recaptures_only && untouched(m.to) {
            return false;
        }
        match &self.q.frame {
            Frame::Before => true,
            // A piece the opponent already threatened stays threatened, by whatever route.
            Frame::Standing { .. } => !(untouched(m.to) && self.standing_to & m.to.mask() != 0),
        }
    }

    /// Whether the side to move's capture `m` of a `victim` answers the opponent's answer to a
    /// check with a pawn's capture that wins nothing: the pawn borrows another piece's check
    /// (借子抽吃, 2011 26.7), unless its capture gives check itself or takes a rook.
    fn borrowed(&self, pos: &Position, m: Move, victim: Role, king: Square) -> bool {
        self.q.free_after_check
            && victim != Role::Rook
            && pos.piece_at(m.from).is_some_and(|p| p.role == Role::Pawn)
            && !gives_check(pos.board(), m.from, m.to, king)
    }

    /// Whether the query bars the side to move's capture `m` (an offered piece, 26.9).
    fn barred(&self, m: Move, state: &State) -> bool {
        let untouched = |sq: Square| state.touched & sq.mask() == 0;
        state.forbid != 0
            && self.q.forbid.iter().enumerate().any(|(i, f)| {
                state.forbid & (1 << i) != 0
                    && f.victim == m.to
                    && f.by.is_none_or(|by| by == m.from && untouched(by))
            })
    }

    /// The points of the pieces the side to move may not capture that still stand there (every
    /// one of them: a mate resting on any offered piece is not counted).
    fn forbidden(&self, state: &State) -> u128 {
        self.q
            .forbid
            .iter()
            .enumerate()
            .filter(|&(i, _)| state.forbid & (1 << i) != 0)
            .fold(0, |m, (_, f)| m | f.victim.mask())
    }

    /// Whether the side to move forces mate by checks here, and the mate is the line's doing:
    /// it did not exist in the position before the last move with this side to move (a mate
    /// already on the board is not the last move's doing). In the frame before a move the
    /// opponent's mates count whenever they exist.
    fn mates(
        &mut self,
        pos: &Position,
        last: Option<(Move, Undo)>,
        ours: bool,
        forbid: u128,
    ) -> bool {
        // The side to move's mates never rest on taking a barred piece (2011 26.9).
        let forbid = if ours { forbid } else { 0 };
        if !self.mate(pos, forbid) {
            return false;
        }
        let old_mates = matches!(
            self.q.frame,
            Frame::Standing {
                old_mates: true,
                ..
            }
        );
        if !ours && !old_mates {
            return true;
        }
        let prev = last.and_then(|(m, undo)| {
            let mut p = *pos;
            p.undo(m, undo);
            p.with_turn_passed()
        });
        match prev {
            Some(prev) => !self.mate(&prev, forbid),
            None => true,
        }
    }

    /// A mate search by checks from `pos`, its positions taken from this search's budget.
    fn mate(&mut self, pos: &Position, forbid: u128) -> bool {
        let lim = self.q.limits;
        let left = self.budget.max_nodes.saturating_sub(self.budget.nodes);
        let mut b = Budget::new(lim.mate_nodes.min(left));
        let found = mate_avoiding(self.cx, pos, lim.mate_plies, &mut b, forbid).is_some();
        self.budget.nodes += b.nodes;
        self.budget.exhausted |= b.exhausted && b.max_nodes < lim.mate_nodes;
        found
    }
}
