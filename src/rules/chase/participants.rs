//! The mover's pieces that take part in a chase (联合捉, 2011 24.17; docs/gain.md §3): the
//! capturer, the attackers the gain needs, the pieces that hold a defender on its line and the
//! pieces that guard their own cannon's screen against the chased piece.

use super::Judge;
use crate::attacks::{attackers, targets};
use crate::board::Board;
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::rules::protection::exchange;
use crate::rules::report::Defender;
use crate::rules::tactics::context::Context;
use crate::rules::tactics::gain::Query;
use crate::square::Square;

impl Judge<'_> {
    /// The mover's pieces that take part in winning the piece on `sq` (联合捉, 2011 24.17): its
    /// capturer; if no attacker wins it alone, every attacker the gain needs (more attackers
    /// than roots); pieces that hold one of its defenders on its line (making a root false);
    /// pieces that guard a participating cannon's own screen against it. A piece that only moves
    /// out of a line, lends its body as a screen or blocks a root by standing in its way (断根)
    /// does not make a chase joint (2011 figures 10, 26, 28). Each piece's part is judged with
    /// its attacks taken away and its body left standing; the opponent only recaptures.
    pub(super) fn participants(
        &self,
        sq: Square,
        line: &[Move],
        defenders: &[Defender],
        cx: &mut Context,
    ) -> Vec<Square> {
        let a = &self.scene.again;
        let mover = a.turn();
        let own = Query {
            recaptures_only: true,
            ..self.qa.targeting(sq)
        };
        let wins = |pos: Option<Position>, cx: &mut Context| {
            pos.is_some_and(|p| cx.gains_in_move(&p, &own))
        };
        let mut attackers: Vec<Square> = attackers(a.board(), sq, mover).into_iter().collect();
        let capturer = capturer_of(a, line, sq);
        match capturer {
            Some(c) => {
                attackers.retain(|x| *x != c);
                attackers.insert(0, c);
            }
            None if attackers.is_empty() => return Vec::new(),
            None => {}
        }
        let all_but =
            |p: Square| -> Vec<Square> { attackers.iter().copied().filter(|x| *x != p).collect() };
        // One attacker alone, the others' attacks taken away?
        let alone = attackers
            .iter()
            .copied()
            .find(|&p| wins(inert(a, &all_but(p), sq), cx));
        let (base, mut out) = match alone {
            Some(p) => (inert(a, &all_but(p), sq).unwrap_or(*a), vec![p]),
            None => {
                let needed = attackers
                    .iter()
                    .copied()
                    .filter(|&p| !wins(inert(a, &[p], sq), cx))
                    .collect();
                (*a, needed)
            }
        };
        // Pieces that hold a defender on its line (pin it, or attack where it would recapture):
        // on its file or rank, not between it and the chased piece, and the gain needs their
        // attacks where they stand. Their bodies are left standing, so a piece that only blocks
        // a root (断根: on a horse's leg, an elephant's eye, a rook's line) is no participant.
        for (p, piece) in base.board().pieces_of(mover) {
            if piece.role == Role::King || out.contains(&p) || attackers.contains(&p) {
                continue;
            }
            let on_a_line = defenders
                .iter()
                .any(|d| on_line(p, d.square) && !between(p, d.square, sq));
            if on_a_line && !wins(powerless(&base, p, sq), cx) {
                out.push(p);
            }
        }
        for g in self.screen_guards(sq, &out, cx) {
            if !out.contains(&g) {
                out.push(g);
            }
        }
        // 抽吃 by another piece: a line of checks whose capture another piece makes needs the
        // moved piece (its check) and the capturer.
        let moved = self.scene.m.to;
        let by_checks = line.first().is_some_and(|m| m.to != sq);
        if by_checks && capturer.is_some_and(|c| c != moved) && !out.contains(&moved) {
            out.push(moved);
        }
        out.sort();
        out
    }

    /// The mover's pieces that guard the screen of a participating cannon against the chased
    /// piece on `sq` (24.17): the screen is the mover's own piece, the chased piece taking it
    /// (breaking the cannon's attack) loses material in the exchange on the screen's point, and
    /// would not with the guard's attacks taken away (its body left standing).
    fn screen_guards(&self, sq: Square, out: &[Square], cx: &mut Context) -> Vec<Square> {
        let a = &self.scene.again;
        let board = a.board();
        let mover = a.turn();
        let cannon = Piece::new(mover, Role::Cannon);
        let arithmetic = self.profile.material;
        // Whether the opponent, to move on the board of `pos`, loses material by taking the
        // screen on `s` with the chased piece.
        let loses = |pos: Option<Position>, s: Square, cx: &mut Context| {
            pos.and_then(|p| Position::from_parts(*p.board(), !mover, 0, 1))
                .filter(|p| p.is_legal(Move::new(sq, s)))
                .is_some_and(|p| {
                    exchange(cx, &p, Move::new(sq, s), arithmetic, self.limits).value < 0
                })
        };
        let mut guards = Vec::new();
        for &c in out.iter().filter(|&&c| board.get(c) == Some(cannon)) {
            let Some(s) =
                screen(board, c, sq).filter(|&s| board.get(s).is_some_and(|x| x.color == mover))
            else {
                continue;
            };
            if !loses(Some(*a), s, cx) {
                continue;
            }
            for g in attackers(board, s, mover) {
                let role = board.get(g).map(|x| x.role);
                if role == Some(Role::King) || out.contains(&g) || guards.contains(&g) {
                    continue;
                }
                if !loses(powerless(a, g, s), s, cx) {
                    guards.push(g);
                }
            }
        }
        guards
    }
}

/// `pos` with the mover's pieces on `gone` stripped of their attacks: each replaced by a body of
/// its side that reaches neither `sq` nor any enemy piece (an advisor, which attacks nothing off
/// a palace, else a pawn), so that it still blocks lines, legs and eyes and screens cannons;
/// `None` if no such body fits.
fn inert(pos: &Position, gone: &[Square], sq: Square) -> Option<Position> {
    let mover = pos.turn();
    let mut board = *pos.board();
    for &g in gone {
        let body = [Role::Advisor, Role::Pawn].into_iter().find_map(|role| {
            let mut b = board;
            b.set(g, Some(Piece { color: mover, role }));
            targets(&b, g)
                .into_iter()
                .all(|t| t != sq && b.get(t).is_none_or(|x| x.color == mover))
                .then_some(b)
        });
        board = body?;
    }
    Position::from_parts(board, mover, 0, 1)
}

/// Where the piece that captures the one on `sq` along `line` stands at the line's start.
fn capturer_of(pos: &Position, line: &[Move], sq: Square) -> Option<Square> {
    let mover = pos.turn();
    let mut p = *pos;
    let mut target = sq;
    // Where each of the mover's pieces of the start now stands: (start, now).
    let mut track: Vec<(Square, Square)> =
        pos.board().pieces_of(mover).map(|(s, _)| (s, s)).collect();
    for &m in line {
        if p.turn() == mover {
            if m.to == target {
                return track
                    .iter()
                    .find(|(_, now)| *now == m.from)
                    .map(|(s, _)| *s);
            }
            for t in &mut track {
                if t.1 == m.from {
                    t.1 = m.to;
                }
            }
        } else {
            track.retain(|(_, now)| *now != m.to);
            if m.from == target {
                target = m.to;
            }
        }
        p.play_unchecked(m);
    }
    None
}

/// Whether two points share a file or a rank.
fn on_line(a: Square, b: Square) -> bool {
    a.file() == b.file() || a.rank() == b.rank()
}

/// Whether `p` stands between `a` and `b` on their file or rank.
fn between(p: Square, a: Square, b: Square) -> bool {
    let within = |x: u8, y: u8, z: u8| x.min(z) < y && y < x.max(z);
    (a.file() == b.file() && p.file() == a.file() && within(a.rank(), p.rank(), b.rank()))
        || (a.rank() == b.rank() && p.rank() == a.rank() && within(a.file(), p.file(), b.file()))
}

/// `pos` with the mover's piece on `p` stripped of its attacks (see [`inert`]), or, where no
/// body fits, the point emptied.
fn powerless(pos: &Position, p: Square, at: Square) -> Option<Position> {
    inert(pos, &[p], at).or_else(|| {
        let mut board = *pos.board();
        board.set(p, None);
        Position::from_parts(board, pos.turn(), 0, 1)
    })
}

/// The one piece between the cannon on `c` and the point `sq` on its file or rank: its screen.
fn screen(board: &Board, c: Square, sq: Square) -> Option<Square> {
    let step = |from: u8, to: u8| (i32::from(to) - i32::from(from)).signum();
    let (df, dr) = (step(c.file(), sq.file()), step(c.rank(), sq.rank()));
    if df != 0 && dr != 0 {
        return None;
    }
    let mut at = c;
    let mut found = None;
    loop {
        at = at.offset(df, dr)?;
        if at == sq {
            return found;
        }
        if !board.is_empty(at) {
            if found.is_some() {
                return None;
            }
            found = Some(at);
        }
    }
}
