//! Protection (根) of attacked pieces: 有根 / 无根 / 假根 / 少根 / 暗根, from the attack/defence
//! graph and the exchange evaluation (28.16; SPEC §4).

use super::exchange::{Exchange, evaluate_capture, legal_captures};
use super::graph::{AttackGraph, Relation};
use super::kinds::Protection;
use super::report::{Defender, Means, Target};
use super::ruleset::Ruleset;
use super::search::has_mate_in_one;
use super::value::Material;
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;

/// An enemy piece the side to move can capture, judged.
#[derive(Clone, Debug)]
pub struct Assessment {
    /// The attacked point.
    pub square: Square,
    /// Every legal first capture with its exchange, cheapest capturer first.
    pub captures: Vec<Exchange>,
    /// The defenders from the graph, each marked real or not.
    pub defenders: Vec<Defender>,
    /// The protection.
    pub protection: Protection,
    /// The best first capture and its result (the one the protection is judged by).
    pub best: Exchange,
    /// Whether `best` gains under the profile.
    pub gains: bool,
}

impl Assessment {
    /// The mover's pieces that can capture legally.
    pub fn attackers(&self) -> Vec<Square> {
        self.captures.iter().map(|x| x.capture.from).collect()
    }

    /// The report of this attacked piece, not (yet) counted as a chase; `reason` says why in
    /// English and Chinese.
    pub fn target(&self, pos: &Position, piece: Piece, reason: (String, String)) -> Target {
        let sq = self.square;
        Target {
            square: sq,
            piece,
            attackers: self.attackers(),
            defenders: self.defenders.clone(),
            protection: self.protection,
            gain: if self.gains {
                self.best.result.report_value()
            } else {
                0
            },
            means: Means::Capture,
            new: false,
            // The gain comes from numbers, not from a cheaper attacker (联合捉, 2011 24.17).
            joint: self.protection == Protection::InsufficientRoot
                && pos.piece_at(self.best.capture.from).is_some_and(|p| {
                    Material::of(p, self.best.capture.from).score()
                        >= Material::of(piece, sq).score()
                }),
            line: super::report::LineMove::line(pos, &[self.best.capture]),
            participants: vec![self.best.capture.from],
            counted: false,
            reason: reason.0,
            reason_zh: reason.1,
            article: None,
        }
    }
}

/// Judges the enemy piece on `sq`, attacked by the side to move of `pos`. `None` when the side to
/// move has no legal capture of it.
pub fn assess(
    pos: &Position,
    graph: &AttackGraph,
    sq: Square,
    ruleset: Ruleset,
) -> Option<Assessment> {
    let captures: Vec<Exchange> = legal_captures(pos, sq)
        .into_iter()
        .map(|m| evaluate_capture(pos, m))
        .collect();
    let gains = |x: &Exchange| !x.mated_after && x.result.is_gain(ruleset);
    let best = *captures.iter().max_by_key(|x| {
        (
            gains(x),
            x.result.score(),
            std::cmp::Reverse(x.capture.from.index()),
        )
    })?;
    let best_gains = gains(&best);
    let defenders = defenders(pos, graph, best.capture);
    let protection = if defenders.is_empty() {
        Protection::Unprotected
    } else if !best.real_recapture {
        Protection::FalseRoot
    } else if best_gains {
        Protection::InsufficientRoot
    } else if defenders.iter().filter(|d| d.real).all(|d| d.hidden) {
        Protection::HiddenRoot
    } else {
        Protection::Protected
    };
    Some(Assessment {
        square: sq,
        captures,
        defenders,
        protection,
        best,
        gains: best_gains,
    })
}

/// The defenders of the piece that `capture` takes: direct and hidden ones from the graph, plus
/// those the capture itself uncovers; `real` when the recapture is legal and does not let the
/// capturer mate at once.
fn defenders(pos: &Position, graph: &AttackGraph, capture: Move) -> Vec<Defender> {
    let sq = capture.to;
    let mut after = *pos;
    after.play_unchecked(capture);
    let real: Vec<Square> = legal_captures(&after, sq)
        .into_iter()
        .filter(|r| {
            let mut again = after;
            again.play_unchecked(*r);
            !has_mate_in_one(&again)
        })
        .map(|r| r.from)
        .collect();
    let mut out: Vec<Defender> = Vec::new();
    for e in graph.into_square(sq, Relation::Defends) {
        if let Some(piece) = pos.piece_at(e.from) {
            out.push(Defender {
                square: e.from,
                piece,
                hidden: e.hidden,
                real: real.contains(&e.from),
            });
        }
    }
    // A recapture the graph did not foresee (this capture opened the way): hidden protection.
    for from in crate::attacks::attackers(after.board(), sq, after.turn()) {
        if out.iter().any(|d| d.square == from) {
            continue;
        }
        if let Some(piece) = pos.piece_at(from) {
            out.push(Defender {
                square: from,
                piece,
                hidden: true,
                real: real.contains(&from),
            });
        }
    }
    out.sort_by_key(|d| d.square);
    out
}

/// The material the side to move would win on `sq`, if any: its best capture's result when that
/// gains under the profile.
pub fn winnable(pos: &Position, sq: Square, ruleset: Ruleset) -> Option<Material> {
    legal_captures(pos, sq)
        .into_iter()
        .map(|m| evaluate_capture(pos, m))
        .filter(|x| !x.mated_after && x.result.is_gain(ruleset))
        .map(|x| x.result)
        .max_by_key(|r| r.score())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(fen: &str, sq: &str) -> Assessment {
        let pos: Position = fen.parse().expect("valid test FEN");
        let graph = AttackGraph::build(pos.board());
        assess(&pos, &graph, sq.parse().expect("square"), Ruleset::Cxa1999).expect("attacked")
    }

    #[test]
    fn cannon_screen_left_by_the_capturer_is_a_hidden_root() {
        // Red's rook on c7 takes the horse on c6; then black's horse on c8 screens the cannon on c9.
        let a = judge("2c1k4/2n6/2R6/2n6/9/9/9/9/9/3K5 w", "c6");
        assert_eq!(a.protection, Protection::HiddenRoot);
        assert!(!a.gains);
        assert!(
            a.defenders
                .iter()
                .any(|d| d.square.to_string() == "c9" && d.hidden && d.real)
        );
        // The horse on c8 has no defender at all.
        assert_eq!(
            judge("2c1k4/2n6/2R6/2n6/9/9/9/9/9/3K5 w", "c8").protection,
            Protection::Unprotected
        );
    }

    #[test]
    fn pinned_defender_is_a_false_root() {
        // The horse on e8 guards d6 but is pinned to its king by the rook on e1.
        let a = judge("4k4/4n4/9/3c5/9/9/9/3R5/4R4/5K3 w", "d6");
        assert_eq!(a.protection, Protection::FalseRoot);
        assert!(a.gains);
        assert!(
            a.defenders
                .iter()
                .any(|d| d.square.to_string() == "e8" && !d.real)
        );
    }

    #[test]
    fn two_attackers_against_one_defender_is_an_insufficient_root() {
        // Horse and rook on c6, guarded once by the rook on c9: after Nxc6 black's Rxc6 would
        // lose the rook to Rxc6, so black stops and red is a horse up.
        let a = judge("2r1k4/9/9/2n6/9/1N7/9/2R6/9/3K5 w", "c6");
        assert_eq!(a.protection, Protection::InsufficientRoot);
        assert_eq!(
            a.best.result,
            Material {
                pieces: 5,
                pawns: 0
            }
        );
    }

    #[test]
    fn horse_on_a_protected_rook_is_an_insufficient_root() {
        // The horse on b4 attacks the rook on c6, which the rook on c9 guards: +10 −5.
        let a = judge("2r1k4/9/9/2r6/9/1N7/9/9/9/3K5 w", "c6");
        assert_eq!(a.protection, Protection::InsufficientRoot);
        assert_eq!(
            a.best.result,
            Material {
                pieces: 5,
                pawns: 0
            }
        );
    }

    #[test]
    fn equal_trade_is_protected() {
        // Rook takes a rook guarded by a rook: even, so protected.
        let a = judge("2r1k4/9/9/2r6/9/9/9/2R6/9/3K5 w", "c6");
        assert_eq!(a.protection, Protection::Protected);
        assert!(!a.gains);
    }
}
