//! Protection (根) of attacked pieces: 有根 / 无根 / 假根 / 少根 / 暗根 (1999 28.16, 2011 24.15–24.16;
//! docs/spec.md §4), from the attack/defence graph and the exchange on the piece's point, which
//! is the net-gain search restricted to that point.

use super::kinds::Protection;
use super::report::Defender;
use super::tactics::context::Context;
use super::tactics::gain::{Gain, GainLimits, Query, gain, gains};
use super::tactics::graph::AttackGraph;
use super::tactics::mate::{Budget, mate_by_checks};
use super::tactics::value::{Arithmetic, Material, capture_order};
use crate::attacks::attackers;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// An enemy piece the side to move can capture, judged.
#[derive(Clone, Debug)]
pub struct Assessment {
    /// Every legal first capture with what the exchange on the point then nets (half units).
    pub captures: Vec<(Move, i32)>,
    /// The defenders from the graph and those the capture uncovers, each marked real or not.
    pub defenders: Vec<Defender>,
    /// The protection.
    pub protection: Protection,
    /// The best first capture (the one the protection is judged by).
    pub best: Move,
    /// What the exchange after `best` nets for the capturer, in half units (positive: a gain).
    pub value: i32,
    /// The same as material.
    pub material: Material,
}

impl Assessment {
    /// Whether the exchange on the point wins material for the capturer.
    pub fn gains(&self) -> bool {
        self.value > 0
    }

    /// The side to move's pieces that can capture legally.
    pub fn attackers(&self) -> Vec<Square> {
        self.captures.iter().map(|(m, _)| m.from).collect()
    }
}

/// Legal captures of the piece on `sq` by the side to move, cheapest capturer first.
pub fn legal_captures(pos: &Position, sq: Square) -> Vec<Move> {
    if pos.piece_at(sq).is_none_or(|p| p.color == pos.turn()) {
        return Vec::new();
    }
    let mut out: Vec<Move> = attackers(pos.board(), sq, pos.turn())
        .into_iter()
        .map(|from| Move::new(from, sq))
        .filter(|m| pos.is_legal(*m))
        .collect();
    out.sort_by_key(|m| pos.piece_at(m.from).map_or(9, |p| capture_order(p.role)));
    out
}

/// Whether capturing with `m` and going on with the exchange on its point wins for the capturer:
/// each side recaptures or stops, a capture after which the other side forces mate loses, and a
/// recapture after which the capturer forces a mate that was not already on the board is no
/// recapture (假根). A null-window search: the value is not needed, only its sign.
pub fn exchange_wins(
    cx: &mut Context,
    pos: &Position,
    m: Move,
    arithmetic: Arithmetic,
    limits: GainLimits,
) -> bool {
    gains(cx, pos, &exchange_query(m, arithmetic, limits)).gains
}

/// Whether capturing with `m` wins for the capturer once the other side's answers on the point
/// and its way to win the capturer back by checks (a check, then taking the capturer where it
/// stands or where its answer put it) are counted: a threat that really wins (docs/rules.md §4,
/// threats already there).
pub fn capture_wins(
    cx: &mut Context,
    pos: &Position,
    m: Move,
    arithmetic: Arithmetic,
    limits: GainLimits,
) -> bool {
    let q = Query {
        square_counter_checks: true,
        ..exchange_query(m, arithmetic, limits)
    };
    gains(cx, pos, &q).gains
}

/// The question of the exchange on the point of `m`, `m` first.
fn exchange_query(m: Move, arithmetic: Arithmetic, limits: GainLimits) -> Query {
    Query {
        square: Some(m.to),
        first: Some(m),
        ..Query::new(arithmetic, limits)
    }
}

/// The exchange on the point of `m` that `m` starts, with its value and line (see
/// [`exchange_wins`]).
pub fn exchange(
    cx: &mut Context,
    pos: &Position,
    m: Move,
    arithmetic: Arithmetic,
    limits: GainLimits,
) -> Gain {
    gain(cx, pos, &exchange_query(m, arithmetic, limits))
}

/// Judges the enemy piece on `sq`, attacked by the side to move of `pos`. `None` when the side to
/// move has no legal capture of it.
pub fn assess(
    cx: &mut Context,
    pos: &Position,
    sq: Square,
    arithmetic: Arithmetic,
    limits: GainLimits,
) -> Option<Assessment> {
    let exchanges: Vec<(Move, Gain)> = legal_captures(pos, sq)
        .into_iter()
        .map(|m| (m, exchange(cx, pos, m, arithmetic, limits)))
        .collect();
    // The best capture; among equals the cheapest capturer (listed first). Between equal
    // capturers (two cannons, say) the capturer takes the one that leaves the weakest root: the
    // board's order of their points decides nothing (a mirrored board is ruled alike).
    let value = exchanges.iter().map(|(_, g)| g.value).max()?;
    let order = |m: &Move| pos.piece_at(m.from).map_or(9, |p| capture_order(p.role));
    let cheapest = exchanges
        .iter()
        .filter(|(_, g)| g.value == value)
        .map(|(m, _)| order(m))
        .min()?;
    let (best, material, defenders, protection) = exchanges
        .iter()
        .filter(|(m, g)| g.value == value && order(m) == cheapest)
        .map(|(m, g)| {
            let defenders = defenders(cx, pos, *m, limits);
            let protection = protection_of(&defenders, value);
            (*m, g.material, defenders, protection)
        })
        .min_by_key(|(_, _, _, p)| weakness(*p))?;
    let captures = exchanges.iter().map(|(m, g)| (*m, g.value)).collect();
    Some(Assessment {
        captures,
        defenders,
        protection,
        best,
        value,
        material,
    })
}

/// The protection that `defenders` give against a capture whose exchange nets `value`.
fn protection_of(defenders: &[Defender], value: i32) -> Protection {
    if defenders.is_empty() {
        Protection::Unprotected
    } else if defenders.iter().all(|d| !d.real) {
        Protection::FalseRoot
    } else if value > 0 {
        Protection::InsufficientRoot
    } else if defenders.iter().filter(|d| d.real).all(|d| d.hidden) {
        Protection::HiddenRoot
    } else {
        Protection::Protected
    }
}

/// Weakest first: the capturer's preference between captures that net the same.
fn weakness(p: Protection) -> u8 {
    match p {
        Protection::Unprotected => 0,
        Protection::FalseRoot => 1,
        Protection::InsufficientRoot => 2,
        Protection::HiddenRoot => 3,
        Protection::Protected => 4,
    }
}

/// The defenders of the piece that `capture` takes: direct and hidden ones as the attack graph
/// has them ([`AttackGraph::defenders_of`]), plus those the capture itself uncovers; `real` when the recapture is legal and does not let the
/// capturer force a mate that was not already on the board without it.
fn defenders(cx: &mut Context, pos: &Position, capture: Move, limits: GainLimits) -> Vec<Defender> {
    let sq = capture.to;
    let mut after = *pos;
    after.play_unchecked(capture);
    let mut mates = |p: &Position| {
        let mut b = Budget::new(limits.mate_nodes);
        mate_by_checks(cx, p, limits.mate_plies, &mut b).is_some()
    };
    // A mate the capturer has anyway, recapture or not, does not make a recapture false.
    let standing_mate = after.with_turn_passed().is_some_and(|p| mates(&p));
    let real: Vec<Square> = legal_captures(&after, sq)
        .into_iter()
        .filter(|r| {
            let mut again = after;
            again.play_unchecked(*r);
            standing_mate || !mates(&again)
        })
        .map(|r| r.from)
        .collect();
    let mut out: Vec<Defender> = Vec::new();
    for (from, hidden) in AttackGraph::defenders_of(pos.board(), sq) {
        if let Some(piece) = pos.piece_at(from) {
            out.push(Defender {
                square: from,
                piece,
                hidden,
                real: real.contains(&from),
            });
        }
    }
    // A recapture the graph did not foresee (this capture opened the way): hidden protection.
    for from in attackers(after.board(), sq, after.turn()) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(fen: &str, sq: &str) -> Assessment {
        let pos: Position = fen.parse().expect("valid test FEN");
        assess(
            &mut Context::new(u64::MAX),
            &pos,
            sq.parse().expect("square"),
            crate::rules::Ruleset::Cxa1999.profile().material,
            GainLimits::default(),
        )
        .expect("attacked")
    }

    #[test]
    fn cannon_screen_left_by_the_capturer_is_a_hidden_root() {
        // Red's rook on c7 takes the horse on c6; then black's horse on c8 screens the cannon on c9.
        let a = judge("2c1k4/2n6/2R6/2n6/9/9/9/9/9/3K5 w", "c6");
        assert_eq!(a.protection, Protection::HiddenRoot);
        assert!(!a.gains());
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
        assert!(a.gains());
        assert!(
            a.defenders
                .iter()
                .any(|d| d.square.to_string() == "e8" && !d.real)
        );
    }

    #[test]
    fn two_attackers_against_one_defender_is_an_insufficient_root() {
        // Horse and rook on c6, guarded once by the rook on c9: after Nxc6 black's Rxc6 would
        // lose the rook to Rxc6, so black stops and red is a horse up. (The black king stands on
        // f9: on e9 it would hold the e-file and c9d9 would mate the red king on d0.)
        let a = judge("2r2k3/9/9/2n6/9/1N7/9/2R6/9/3K5 w", "c6");
        assert_eq!(a.protection, Protection::InsufficientRoot);
        assert_eq!(a.value, 10);
    }

    #[test]
    fn horse_on_a_protected_rook_is_an_insufficient_root() {
        // The horse on b4 attacks the rook on c6, which the rook on c9 guards: +10 −5.
        let a = judge("2r2k3/9/9/2r6/9/1N7/9/9/9/3K5 w", "c6");
        assert_eq!(a.protection, Protection::InsufficientRoot);
        assert_eq!(a.value, 10);
    }

    #[test]
    fn a_capture_that_walks_into_mate_gains_nothing() {
        // With the black king holding the e-file, Nxc6 lets c9d9 mate the red king on d0: the
        // horse's capture gains nothing and the rook on c6 counts as protected.
        let a = judge("2r1k4/9/9/2r6/9/1N7/9/9/9/3K5 w", "c6");
        assert!(!a.gains());
    }

    #[test]
    fn equal_trade_is_protected() {
        // Rook takes a rook guarded by a rook: even, so protected.
        let a = judge("2r1k4/9/9/2r6/9/9/9/2R6/9/3K5 w", "c6");
        assert_eq!(a.protection, Protection::Protected);
        assert!(!a.gains());
    }
}
