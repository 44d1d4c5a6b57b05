//! The mover's pieces that take part in a chase (联合捉, 2011 24.17; docs/gain.md §3): the
//! capturer, the attackers the gain needs, and the pieces that pin or block a defender.

use super::Judge;
use crate::attacks::{attackers, targets};
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::rules::report::Defender;
use crate::rules::tactics::context::Context;
use crate::rules::tactics::gain::Query;
use crate::square::Square;

impl Judge<'_> {
    /// The mover's pieces that take part in winning the piece on `sq` (联合捉, 2011 24.17): its
    /// capturer; if no attacker wins it alone, every attacker the gain needs (more attackers
    /// than roots); and pieces that pin or block one of its defenders (making a root false). A
    /// piece that only moves out of a line, lends its body as a screen or blocks a line by
    /// standing there does not make a chase joint (2011 figures 10, 26, 28). An attacker's part
    /// is judged with the others' attacks taken away and their bodies left standing; the
    /// opponent only recaptures.
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
        // Pieces that pin or block a defender: the gain needs them where they stand.
        for (p, piece) in base.board().pieces_of(mover) {
            if piece.role == Role::King || out.contains(&p) || attackers.contains(&p) {
                continue;
            }
            // A piece on a defender's line beyond it pins it (it may not leave the line); one
            // that only stands in a root's way (断根: between the defender and the piece, or on
            // its leg or eye) blocks, and blocking is no part in the chase (2011 24.17).
            let by_defender = defenders
                .iter()
                .any(|d| on_line(p, d.square) && !between(p, d.square, sq));
            if !by_defender {
                continue;
            }
            let mut board = *base.board();
            board.set(p, None);
            if !wins(Position::from_parts(board, mover, 0, 1), cx) {
                out.push(p);
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
}

/// `pos` with the mover's pieces on `gone` made inert for the point `sq`: each replaced by a
/// body of its side that attacks nothing there (an advisor off its palace, else a pawn), so it
/// still blocks lines, screens cannons and holds legs; `None` if no such body fits. A body never
/// attacks the enemy king: an advisor put in the enemy's palace would take it, a move no legal
/// position has and no search expects.
fn inert(pos: &Position, gone: &[Square], sq: Square) -> Option<Position> {
    let mover = pos.turn();
    let king = pos.king(!mover);
    let mut board = *pos.board();
    for &g in gone {
        let body = [Role::Advisor, Role::Pawn].into_iter().find_map(|role| {
            let mut b = board;
            b.set(g, Some(Piece { color: mover, role }));
            let reach = targets(&b, g);
            (!reach.contains(&sq) && !reach.contains(&king)).then_some(b)
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
