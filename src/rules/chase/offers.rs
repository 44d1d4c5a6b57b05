//! Same-type offers (兑, 2011 26.9–26.10): the pairs of one kind that can take each other after
//! the move, and whether the opponent can accept.

use super::Scene;
use super::won::search;
use crate::moves::Move;
use crate::piece::Role;
use crate::rules::protection::{assess, legal_captures};
use crate::rules::report::Defender;
use crate::rules::tactics::context::Context;
use crate::rules::tactics::gain::{GainLimits, Query};
use crate::rules::tactics::value::{Arithmetic, Material};
use crate::square::Square;

/// A pair of pieces of one kind, the mover's and the opponent's, that can take each other after
/// the move (兑, 2011 26.9–26.10).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The mover's piece.
    pub mine: Square,
    /// The opponent's piece offered the trade.
    pub theirs: Square,
    /// The opponent can accept (take first) without being mated or losing material.
    pub accepted: bool,
    /// The opponent's piece has a real root in A.
    pub protected: bool,
}

/// The pairs of one kind that can take each other in A (the mover's piece takes in A, the
/// opponent's in `after`), with the acceptance test of 2011 26.9: the opponent takes first and
/// the mover answers; accepted when the opponent is then neither mated nor down material.
pub(super) fn same_type_pairs(
    scene: &Scene,
    material: Arithmetic,
    limits: GainLimits,
    cx: &mut Context,
) -> Vec<Offer> {
    let a = &scene.again;
    let after = &scene.after;
    let mover = a.turn();
    let mut out = Vec::new();
    for (theirs, o) in a.board().pieces_of(!mover) {
        if !Material::is_material(o, theirs) || o.role == Role::Pawn {
            continue;
        }
        for take in legal_captures(a, theirs) {
            let Some(mine) = a.piece_at(take.from) else {
                continue;
            };
            if mine.role != o.role {
                continue;
            }
            let back = Move::new(theirs, take.from);
            if !after.is_legal(back) {
                continue;
            }
            let g = search(cx, after, &Query::new(material, limits).starting(back));
            let accepted = g.value >= 0 && !g.mates();
            let protected = assess(cx, a, theirs, material, limits)
                .is_some_and(|x| x.defenders.iter().any(|d: &Defender| d.real));
            out.push(Offer {
                mine: take.from,
                theirs,
                accepted,
                protected,
            });
        }
    }
    out
}
