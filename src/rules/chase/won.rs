//! How the mover wins a piece, and the best of several ways: the Chinese chase test (a net
//! gain that takes the piece, or the 26.5 / item 4 acceptance of a capture that loses only what
//! the capturer's departure exposes).

use super::Judged;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::kinds::Protection;
use crate::rules::profile::{ProtectorChase, StandingThreats};
use crate::rules::protection::{Assessment, capture_wins};
use crate::rules::tactics::context::Context;
use crate::rules::tactics::gain::{Gain, MATE, Query, line_material};
use crate::square::Square;

/// A line that wins a piece, and the search's value for it (half units, `MATE`-sized for a
/// forced mate).
pub(crate) struct Won {
    pub(crate) line: Vec<Move>,
    pub(crate) value: i32,
}

impl From<Gain> for Won {
    fn from(g: Gain) -> Won {
        Won {
            line: g.line.to_vec(),
            value: g.value,
        }
    }
}

/// A search value with every forced mate counted alike: how soon a line mates says nothing of
/// whether it wins more.
pub(super) fn settled(value: i32) -> i32 {
    if value > MATE / 2 { MATE } else { value }
}

/// Whether the side to move of `pos` gains under `q`, with the winning line if so: a null-window
/// search first, the full one only when it gains (and then only above zero); counted in the
/// move's account.
fn winning(cx: &mut Context, pos: &Position, q: &Query) -> Option<Gain> {
    if !cx.gains_in_move(pos, q) {
        return None;
    }
    Some(cx.gain_in_move(pos, q, 0)).filter(Gain::gains)
}

/// One search under `q`, counted in the move's account.
pub(crate) fn search(cx: &mut Context, pos: &Position, q: &Query) -> Gain {
    cx.gain_in_move(pos, q, -MATE - 1)
}

/// The Chinese chase test: the line by which the side to move of `pos` wins the piece on `sq`
/// under `q`: a net gain that takes the piece, or, when `lenient` (the chase being judged, in
/// A), a capture that wins the piece on its point and loses at most what the capturer's
/// departure exposes (2011 26.5: the whole even or better; 1999 item 4: whatever the whole),
/// the best of the captures that qualify. `moved`: the moved piece's point (see
/// [`taken_first`]).
pub(super) fn net_gain_wins(
    pos: &Position,
    (sq, moved): (Square, Square),
    q: &Query,
    assessed: Option<&Assessment>,
    judged: Judged,
    (protector, reading): (ProtectorChase, StandingThreats),
    cx: &mut Context,
) -> Option<Won> {
    let Judged { any_gain, lenient } = judged;
    if any_gain && let Some(g) = winning(cx, pos, &q.targeting(sq)) {
        return Some(taken_first(cx, pos, (sq, moved), q, assessed, g));
    }
    let x = assessed?;
    // Won on its own point: no real root, or the exchange there wins.
    let on_point = x.gains()
        || matches!(
            x.protection,
            Protection::Unprotected | Protection::FalseRoot
        );
    if !(lenient && on_point) {
        return None;
    }
    let mut best = Best::new(pos);
    for &(c, _) in &x.captures {
        if excluded(q, sq, c) {
            continue;
        }
        let g = search(cx, pos, &q.starting(c));
        if g.gains() {
            best.keep(g);
            continue;
        }
        // The loss comes from what the capturer's departure exposes (a root it gave, a line it
        // opened): 2011 26.5 counts the chase if the whole is even, 1999 item 4 whatever the
        // whole.
        if let Some(g) = exposed_answer(cx, pos, c, g, reading, q)
            && (protector == ProtectorChase::Counts || g.value >= 0)
        {
            best.keep(g);
        }
    }
    best.line()
}

/// The line `g` answering the capture `c` from `pos`, or another answer worth as much to the
/// opponent, that takes elsewhere what the capturer's departure exposed; `None` if no best
/// answer does. Of two captures elsewhere worth the same (a piece the departure exposed, one
/// that already hung before the capture) the search shows the one it meets first, which goes
/// by the board's order of points: a colour-swapped board was ruled 捉 one way and 闲 the other
/// (kept in tests/properties.rs). Either way the capture costs the mover no more than what it
/// exposed (2011 26.5: the exchange that follows is even). Bound: one search per capture
/// elsewhere of the opponent's, made only when the answer shown is one that already hung.
fn exposed_answer(
    cx: &mut Context,
    pos: &Position,
    c: Move,
    g: Gain,
    reading: StandingThreats,
    q: &Query,
) -> Option<Gain> {
    let shown = *g.line.get(1)?;
    let mut p = *pos;
    p.play_unchecked(c);
    let elsewhere = |r: Move| r.to != c.to && p.piece_at(r.to).is_some();
    if !elsewhere(shown) {
        return None;
    }
    if !already_won(cx, pos, shown, reading, q) {
        return Some(g);
    }
    for r in p.legal_moves() {
        if r == shown || !elsewhere(r) || already_won(cx, pos, r, reading, q) {
            continue;
        }
        let f = search(
            cx,
            pos,
            &Query {
                answer: Some(r),
                ..q.starting(c)
            },
        );
        if settled(f.value) <= settled(g.value) {
            return Some(f);
        }
    }
    None
}

/// The line `g` that wins the piece on `sq`, or another worth as much that shows the same threat
/// the way the articles name it: the moved piece's own capture of it (24.3: the moved piece can
/// take) before another piece's, a capture of it before a line that takes it after other
/// moves, and of lines through checks one that starts with the moved piece's check. Equal
/// lines differ only in the order the search met them, which goes by the board's order of
/// points and moves: the same moves in another order (a capture that checks, then the
/// piece) must not turn a capture into a series of checks, nor another rook's capture hide the
/// answering piece's own (their newness is judged otherwise; a colour-swapped board was ruled
/// otherwise).
fn taken_first(
    cx: &mut Context,
    pos: &Position,
    (sq, moved): (Square, Square),
    q: &Query,
    assessed: Option<&Assessment>,
    g: Gain,
) -> Won {
    let first = g.line.first().copied();
    let taken = first.is_some_and(|m| m.to == sq);
    let by_moved = taken && first.is_some_and(|m| m.from == moved);
    if by_moved {
        return Won::from(g);
    }
    let captures = assessed.map(|x| x.captures.as_slice()).unwrap_or_default();
    let (mut by_it, mut by_any) = (Best::new(pos), Best::new(pos));
    for &(c, _) in captures {
        if excluded(q, sq, c) || (taken && c.from != moved) {
            continue;
        }
        let f = search(cx, pos, &q.starting(c));
        if settled(f.value) >= settled(g.value) {
            if c.from == moved {
                by_it.keep(f);
            } else {
                by_any.keep(f);
            }
        }
    }
    if let Some(w) = by_it.line() {
        return w;
    }
    if let Some(w) = by_any.line() {
        return w;
    }
    // A line through checks that starts with another piece, while one worth as much starts
    // with the moved piece's check (24.3: the moved piece wins by a series of checks starting
    // next move): shown so, since an answer to a check is judged by whether the answering piece
    // itself makes the threat (docs/rules.md §5, 4). One search per check of the moved piece.
    if !taken && first.is_some_and(|m| m.from != moved) {
        let mut by_it = Best::new(pos);
        for c in pos.legal_moves_from(moved) {
            if !pos.play(c).is_ok_and(|p| p.is_check()) {
                continue;
            }
            let f = search(cx, pos, &q.targeting(sq).starting(c));
            if settled(f.value) >= settled(g.value) {
                by_it.keep(f);
            }
        }
        if let Some(w) = by_it.line() {
            return w;
        }
    }
    Won::from(g)
}

/// Whether the opponent's reply `r` to a capture from `pos` already won before the capture, so
/// that the capturer's departure did not expose it (2011 26.5, read with the threats already
/// there, docs/rules.md §5): judged with the mover's recapture and its way to win the capturer
/// back by checks. Under the older reading every reply elsewhere counts as exposed.
fn already_won(
    cx: &mut Context,
    pos: &Position,
    r: Move,
    reading: StandingThreats,
    q: &Query,
) -> bool {
    if reading != StandingThreats::AlreadyThere {
        return false;
    }
    let Some(before) = pos.with_turn_passed() else {
        return false;
    };
    before.is_legal(r) && capture_wins(cx, &before, r, q.arithmetic, q.limits)
}

/// The best of the winning lines offered to it: every capture is tried and the best line kept,
/// since which of two captures comes first goes by the points' order, and a mirrored board must
/// be ruled alike. Better is a higher search value (every mate alike), then more material.
pub(crate) struct Best<'p> {
    pos: &'p Position,
    best: Option<Won>,
}

impl<'p> Best<'p> {
    /// None yet, for lines from `pos`.
    pub(crate) fn new(pos: &'p Position) -> Best<'p> {
        Best { pos, best: None }
    }

    /// Keeps `g` if it is better than the best so far.
    pub(crate) fn keep(&mut self, g: Gain) {
        let gain = |line: &[Move]| line_material(self.pos, line).report_value();
        let better = self
            .best
            .as_ref()
            .is_none_or(|b| (settled(g.value), gain(&g.line)) > (settled(b.value), gain(&b.line)));
        if better {
            self.best = Some(Won::from(g));
        }
    }

    /// The best line kept, if any.
    pub(crate) fn line(self) -> Option<Won> {
        self.best
    }
}

/// Whether `q` leaves out the capture `c` of the piece on `sq`: the piece is offered (兑) and
/// barred to this capturer, or the capture is a king's or pawn's free one.
pub(crate) fn excluded(q: &Query, sq: Square, c: Move) -> bool {
    q.forbid
        .iter()
        .any(|f| f.victim == sq && f.by.is_none_or(|b| b == c.from))
        || q.free.contains(&c)
}
