//! The kings' and pawns' own captures that win nothing in the chase test (1999 27.1–27.2; 2011
//! 26.1, 26.6, 26.7), as the profile's `free_captures` says.

use super::{Scene, Switches};
use crate::attacks::targets;
use crate::moves::Move;
use crate::piece::Role;
use crate::position::Position;
use crate::rules::profile::{FreePieces, Profile};
use crate::square::Square;
use arrayvec::ArrayVec;

/// The mover's captures in A that win nothing by themselves: the king's and pawns' own threats,
/// as the profile's `free_captures` says (1999 27.1–27.2: the moved king or pawn; 2011 26.1: any
/// king or pawn, unless the moved piece attacks the same piece, the pawn's capture uncovers a
/// check (26.7) or, made possible by another piece's move, takes a rook (26.6)). AXF: none here;
/// its own chase test leaves kings and pawns out.
pub(super) fn free_captures(
    scene: &Scene,
    profile: &Profile,
    switches: Switches,
) -> ArrayVec<Move, 8> {
    let rule = profile.free_captures;
    let a = &scene.again;
    let mut out = ArrayVec::new();
    let moved_attacks = |sq: Square| targets(a.board(), scene.m.to).contains(&sq);
    for (from, piece) in a.board().pieces_of(a.turn()) {
        let free_kind = match piece.role {
            Role::King => true,
            Role::Pawn => !switches.pawns_chase,
            _ => false,
        };
        if !free_kind {
            continue;
        }
        let applies = match rule.pieces {
            FreePieces::None => false,
            FreePieces::Moved => from == scene.m.to,
            FreePieces::Any => true,
        };
        if !applies {
            continue;
        }
        for m in a.legal_moves_from(from) {
            let Some(victim) = a.piece_at(m.to) else {
                continue;
            };
            if victim.color == a.turn() {
                continue;
            }
            if rule.unless_moved_piece_attacks && from != scene.m.to && moved_attacks(m.to) {
                continue;
            }
            // A pawn's capture that uncovers a check (26.7), or, made possible by another piece's
            // move, gives the pawn for a rook (26.6), is no longer the pawn's free threat; the
            // moved pawn's own threat on a rook stays free (figure 14).
            if piece.role == Role::Pawn
                && ((rule.unless_pawn_checks && gives_check(a, m))
                    || (rule.unless_pawn_takes_rook
                        && victim.role == Role::Rook
                        && from != scene.m.to))
            {
                continue;
            }
            let _ = out.try_push(m);
        }
    }
    out
}

fn gives_check(pos: &Position, m: Move) -> bool {
    let mut p = *pos;
    p.play_unchecked(m);
    p.is_check()
}
