//! Attack queries on a board: who can capture on a point, what a piece can capture.
//!
//! Everything here is pseudo-legal (own-king safety is the position's business) and treats the
//! queried point as occupied, so the same query answers "who attacks this piece" and "who could
//! recapture here".

use crate::board::Board;
use crate::color::Color;
use crate::piece::{Piece, Role};
use crate::square::Square;
use crate::tables::{ADVISOR, DIRECTIONS, ELEPHANT, HORSE, HORSE_ATTACKERS, KING, PAWN};
use arrayvec::ArrayVec;

/// A short list of squares, kept on the stack (at most 16 pieces of a side, 17 line points).
pub type SquareList = ArrayVec<Square, 24>;

/// Whether `color`'s king on `king` is attacked (将) on `board`, flying general included.
#[inline]
pub fn king_attacked(board: &Board, king: Square, color: Color) -> bool {
    let them = !color;
    for (df, dr) in DIRECTIONS {
        let mut sq = king;
        let mut screens = 0;
        while let Some(next) = sq.offset(df, dr) {
            sq = next;
            if let Some(p) = board.get(sq) {
                if screens == 0 {
                    if p.color == them {
                        match p.role {
                            Role::Rook | Role::King => return true,
                            _ => {}
                        }
                    }
                    screens = 1;
                } else {
                    if p.color == them && p.role == Role::Cannon {
                        return true;
                    }
                    break;
                }
            }
        }
    }
    // Enemy pawns: straight ahead of the king (from the pawn's view, in front of it) or beside it.
    let ahead = king.offset(0, color.forward());
    for sq in [ahead, king.offset(1, 0), king.offset(-1, 0)]
        .into_iter()
        .flatten()
    {
        if board.get(sq) == Some(Piece::new(them, Role::Pawn)) && pawn_reaches(sq, king, them) {
            return true;
        }
    }
    let horse = Some(Piece::new(them, Role::Horse));
    for (h, leg) in HORSE_ATTACKERS[king.index()].iter() {
        if board.get(h) == horse && board.is_empty(leg) {
            return true;
        }
    }
    false
}

#[inline]
fn pawn_reaches(from: Square, to: Square, color: Color) -> bool {
    PAWN[color.index()][from.index()]
        .iter()
        .any(|(t, _)| t == to)
}

/// The pieces of `by` that could capture on `target` if an enemy piece stood there.
///
/// Kings count on their palace steps, and on the flying-general line when `target` holds a king.
pub fn attackers(board: &Board, target: Square, by: Color) -> SquareList {
    let mut out = SquareList::new();
    let target_is_king = board.get(target).is_some_and(|p| p.role == Role::King);
    for (df, dr) in DIRECTIONS {
        let mut sq = target;
        let mut screens = 0;
        let mut dist = 0;
        while let Some(next) = sq.offset(df, dr) {
            sq = next;
            dist += 1;
            let Some(p) = board.get(sq) else { continue };
            if screens == 0 {
                if p.color == by {
                    let hit = match p.role {
                        Role::Rook => true,
                        Role::King => {
                            (dist == 1 && KING[sq.index()].iter().any(|(t, _)| t == target))
                                || (target_is_king && df == 0)
                        }
                        Role::Pawn => dist == 1 && pawn_reaches(sq, target, by),
                        _ => false,
                    };
                    if hit {
                        out.push(sq);
                    }
                }
                screens = 1;
            } else {
                if p.color == by && p.role == Role::Cannon {
                    out.push(sq);
                }
                break;
            }
        }
    }
    for (h, leg) in HORSE_ATTACKERS[target.index()].iter() {
        if board.get(h) == Some(Piece::new(by, Role::Horse)) && board.is_empty(leg) {
            out.push(h);
        }
    }
    for (a, _) in ADVISOR[target.index()].iter() {
        if board.get(a) == Some(Piece::new(by, Role::Advisor)) && a.in_palace(by) {
            out.push(a);
        }
    }
    for (e, eye) in ELEPHANT[target.index()].iter() {
        if board.get(e) == Some(Piece::new(by, Role::Elephant))
            && board.is_empty(eye)
            && target.on_own_half(by)
        {
            out.push(e);
        }
    }
    out
}

/// The occupied points the piece on `from` could capture on (whatever their colour), so that one
/// query gives both what it attacks and what it protects. Empty if `from` is empty.
pub fn targets(board: &Board, from: Square) -> SquareList {
    let mut out = SquareList::new();
    let Some(piece) = board.get(from) else {
        return out;
    };
    let steps = match piece.role {
        Role::Rook | Role::Cannon => {
            line_targets(board, from, piece.role == Role::Cannon, &mut out);
            return out;
        }
        Role::King => {
            // The flying general: the enemy king straight along the file.
            for dr in [1, -1] {
                let mut sq = from;
                while let Some(next) = sq.offset(0, dr) {
                    sq = next;
                    if let Some(p) = board.get(sq) {
                        if p.role == Role::King && p.color != piece.color {
                            out.push(sq);
                        }
                        break;
                    }
                }
            }
            &KING[from.index()]
        }
        Role::Advisor => &ADVISOR[from.index()],
        Role::Elephant => &ELEPHANT[from.index()],
        Role::Horse => &HORSE[from.index()],
        Role::Pawn => &PAWN[piece.color.index()][from.index()],
    };
    for (to, block) in steps.iter() {
        let blocked = matches!(piece.role, Role::Horse | Role::Elephant) && !board.is_empty(block);
        if !blocked && !board.is_empty(to) && !out.contains(&to) {
            out.push(to);
        }
    }
    out
}

fn line_targets(board: &Board, from: Square, cannon: bool, out: &mut SquareList) {
    for (df, dr) in DIRECTIONS {
        let mut sq = from;
        let mut screened = false;
        while let Some(next) = sq.offset(df, dr) {
            sq = next;
            if board.is_empty(sq) {
                continue;
            }
            if !cannon || screened {
                out.push(sq);
                break;
            }
            screened = true;
        }
    }
}
