//! Whether a chase is new (从没捉到捉; item 2, item 6; docs/gain.md §2): the piece could not be
//! won in B, nor, when the mover was in check, before the opponent's checking move.

use super::won::settled;
use super::{Judge, Judged};
use crate::position::Position;
use crate::rules::protection::assess;
use crate::rules::tactics::context::Context;
use crate::rules::tactics::gain::Query;
use crate::rules::tactics::graph::AttackGraph;
use crate::square::Square;

impl Judge<'_> {
    /// Whether the gain on the piece on `sq`, worth `a_value` in A, is new: the piece could not
    /// be won in B, nor, when the mover was in check there, before the opponent's checking move
    /// (从捉到捉, item 6; an attack suspended by a check). A gain in B reached through checks has
    /// no fixed target until played, so it is compared by value: A's line must win more
    /// (docs/gain.md §2). Values are the searches', so a line ending in mate outweighs any material
    /// (the material along it says nothing of the mate).
    pub(super) fn is_new(&self, sq: Square, a_value: i32, cx: &mut Context) -> bool {
        let old = |pos: &Position, sq: Square, cx: &mut Context| {
            if pos.piece_at(sq).is_none_or(|p| p.color == pos.turn()) {
                return false;
            }
            let graph = AttackGraph::build(pos.board());
            let x = assess(cx, pos, &graph, sq, self.profile.material, self.limits);
            match self.wins(pos, sq, &self.qb, x.as_ref(), Judged::BEFORE, cx) {
                None => false,
                Some(b) => {
                    // Won without a series of checks: the same threat. Only through checks:
                    // compared by value.
                    let plain = Query {
                        checkless: true,
                        ..self.qb.targeting(sq)
                    };
                    cx.gains_in_move(pos, &plain) || settled(b.value) >= settled(a_value)
                }
            }
        };
        if old(&self.scene.before, sq, cx) {
            return false;
        }
        if let Some((earlier, check)) = &self.scene.suspended {
            let sq = if check.to == sq { check.from } else { sq };
            return !old(earlier, sq, cx);
        }
        true
    }
}
