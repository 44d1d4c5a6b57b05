//! Move generation: pseudo-legal moves by the rules of movement, then the king-safety filter.

use crate::attacks::king_attacked;
use crate::board::Board;
use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::piece::Role;
use crate::square::Square;
use crate::tables::{ADVISOR, DIRECTIONS, ELEPHANT, HORSE, KING, PAWN, Steps};

/// Appends every move of `us`'s pieces that obeys the rules of movement (horse leg, elephant eye and
/// river, palace, cannon screen, pawns), ignoring whether it leaves the own king attacked.
pub fn pseudo_legal(board: &Board, us: Color, out: &mut MoveList) {
    for from in Square::all() {
        let Some(piece) = board.get(from) else {
            continue;
        };
        if piece.color != us {
            continue;
        }
        piece_moves(board, from, piece.role, us, out);
    }
}

/// Appends the pseudo-legal moves of the piece of `role` and `us` on `from`.
pub fn piece_moves(board: &Board, from: Square, role: Role, us: Color, out: &mut MoveList) {
    match role {
        Role::Rook => slide(board, from, us, false, out),
        Role::Cannon => slide(board, from, us, true, out),
        Role::Horse | Role::Elephant => {
            let table = if role == Role::Horse {
                &HORSE
            } else {
                &ELEPHANT
            };
            steps(board, from, us, &table[from.index()], true, out)
        }
        Role::Advisor => steps(board, from, us, &ADVISOR[from.index()], false, out),
        Role::King => steps(board, from, us, &KING[from.index()], false, out),
        Role::Pawn => steps(board, from, us, &PAWN[us.index()][from.index()], false, out),
    }
}

#[inline]
fn steps(
    board: &Board,
    from: Square,
    us: Color,
    table: &Steps,
    blockable: bool,
    out: &mut MoveList,
) {
    for (to, block) in table.iter() {
        if blockable && !board.is_empty(block) {
            continue;
        }
        if board.get(to).is_none_or(|p| p.color != us) {
            out.push(Move::new(from, to));
        }
    }
}

#[inline]
fn slide(board: &Board, from: Square, us: Color, cannon: bool, out: &mut MoveList) {
    for (df, dr) in DIRECTIONS {
        let mut sq = from;
        let mut screened = false;
        while let Some(next) = sq.offset(df, dr) {
            sq = next;
            match board.get(sq) {
                None => {
                    if !screened {
                        out.push(Move::new(from, sq));
                    }
                }
                Some(p) => {
                    if !cannon {
                        if p.color != us {
                            out.push(Move::new(from, sq));
                        }
                        break;
                    }
                    if screened {
                        if p.color != us {
                            out.push(Move::new(from, sq));
                        }
                        break;
                    }
                    screened = true;
                }
            }
        }
    }
}

/// Whether a move could change the attacks on the king at `king`: it moves the king, or touches
/// the king's file or rank (lines, screens, pawns), or a point diagonally next to it (horse legs).
#[inline]
fn may_expose(king: Square, m: Move) -> bool {
    let touches = |sq: Square| {
        sq.file() == king.file()
            || sq.rank() == king.rank()
            || (sq.file().abs_diff(king.file()) == 1 && sq.rank().abs_diff(king.rank()) == 1)
    };
    m.from == king || touches(m.from) || touches(m.to)
}

/// Whether playing the pseudo-legal `m` leaves `us`'s king safe. `board` is restored afterwards.
#[inline]
pub fn keeps_king_safe(board: &mut Board, us: Color, king: Square, m: Move) -> bool {
    let moving = board.get(m.from);
    let captured = board.get(m.to);
    board.set(m.to, moving);
    board.set(m.from, None);
    let k = if m.from == king { m.to } else { king };
    let safe = !king_attacked(board, k, us);
    board.set(m.from, moving);
    board.set(m.to, captured);
    safe
}

/// Keeps only the moves of `moves` that leave `us`'s king (on `king`) safe.
pub fn retain_legal(board: &Board, us: Color, king: Square, moves: &mut MoveList) {
    let mut scratch = *board;
    let in_check = king_attacked(board, king, us);
    moves.retain(|m| {
        (!in_check && !may_expose(king, *m)) || keeps_king_safe(&mut scratch, us, king, *m)
    });
}

/// Counts the legal moves without storing them (perft's last ply).
pub fn count_legal(board: &Board, us: Color, king: Square) -> usize {
    let mut moves = MoveList::new();
    pseudo_legal(board, us, &mut moves);
    let mut scratch = *board;
    let in_check = king_attacked(board, king, us);
    moves
        .iter()
        .filter(|m| {
            (!in_check && !may_expose(king, **m)) || keeps_king_safe(&mut scratch, us, king, **m)
        })
        .count()
}
