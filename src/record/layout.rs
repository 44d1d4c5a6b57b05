//! The 32-slot piece layout that XQF and DhtmlXQ share: for each side, in this order, rook,
//! horse, elephant, advisor, king, advisor, elephant, horse, rook, two cannons and five soldiers
//! (red's sixteen, then black's), each on a point or absent. The formats differ only in how they
//! write a point.

use crate::board::Board;
use crate::color::Color;
use crate::fen::FenError;
use crate::lang::{point_zh, role_zh};
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;

/// The kind of each of a side's sixteen slots.
pub const ROLES: [Role; 16] = [
    Role::Rook,
    Role::Horse,
    Role::Elephant,
    Role::Advisor,
    Role::King,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Rook,
    Role::Cannon,
    Role::Cannon,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
];

/// The piece of slot `slot` (0–31).
pub fn piece(slot: usize) -> Piece {
    let color = if slot < 16 { Color::Red } else { Color::Black };
    Piece::new(color, ROLES[slot % 16])
}

/// Two slots name the same point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SamePoint {
    /// The point.
    pub square: Square,
    /// The first slot on it (0–31).
    pub first: usize,
    /// The second.
    pub second: usize,
}

/// Two slots (from 1) on one point, in a Chinese text: `第1、第2个棋子（从1数起：红车、红马）同在九路(a0)`.
pub fn same_point_zh(square: Square, first: usize, second: usize) -> String {
    let [a, b] = [first, second].map(|n| piece(n.saturating_sub(1) % 32));
    format!(
        "第{first}、第{second}个棋子（从1数起：{}、{}）同在{}",
        role_zh(a.color, a.role),
        role_zh(b.color, b.role),
        point_zh(a.color, square)
    )
}

/// The board the slots describe.
pub fn board(slots: &[Option<Square>; 32]) -> Result<Board, SamePoint> {
    let mut board = Board::empty();
    let mut owner = [None; Square::COUNT];
    for (slot, sq) in slots.iter().enumerate() {
        let Some(sq) = *sq else { continue };
        if let Some(first) = owner[sq.index()] {
            return Err(SamePoint {
                square: sq,
                first,
                second: slot,
            });
        }
        owner[sq.index()] = Some(slot);
        board.set(sq, Some(piece(slot)));
    }
    Ok(board)
}

/// The slots of `board`, each side's pieces of a kind taken from its own right (red from file
/// i, black from file a), as XQStudio and dpxq.com write the opening. A valid position has no
/// more pieces of a kind than there are slots for it.
pub fn slots(board: &Board) -> [Option<Square>; 32] {
    let mut out = [None; 32];
    for (base, color) in [(0, Color::Red), (16, Color::Black)] {
        let mut pieces: Vec<(Square, Role)> =
            board.pieces_of(color).map(|(sq, p)| (sq, p.role)).collect();
        pieces.sort_by_key(|&(sq, _)| match color {
            Color::Red => (8 - sq.file(), sq.rank()),
            Color::Black => (sq.file(), 9 - sq.rank()),
        });
        for (sq, role) in pieces {
            let free = (0..16).find(|&i| ROLES[i] == role && out[base + i].is_none());
            if let Some(i) = free {
                out[base + i] = Some(sq);
            }
        }
    }
    out
}

/// The position of `board` with `turn` to move, checked as a FEN is.
pub fn position(board: &Board, turn: Color) -> Result<Position, FenError> {
    let mut fen = String::with_capacity(100);
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            match board.get(Square::new(file, rank)) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(p.char());
                }
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push(' ');
    fen.push(turn.fen_char());
    Position::from_fen(&fen)
}

/// The side to move at the start of a record that does not say: the owner of the piece the first
/// move takes, else `fallback` if that is a valid position, else the other side (the side not to
/// move may not be in check).
pub fn turn(board: &Board, first_from: Option<Square>, fallback: Color) -> Color {
    if let Some(p) = first_from.and_then(|sq| board.get(sq)) {
        return p.color;
    }
    match position(board, fallback) {
        Err(FenError::OppositeCheck(_)) => !fallback,
        _ => fallback,
    }
}
