//! A position: the board, the side to move, and what follows from them.

use crate::attacks::king_attacked;
use crate::board::Board;
use crate::color::Color;
use crate::lang::{Lang, Words, piece_at_zh, point_zh, role_named, side_zh};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::piece::{Piece, Role};
use crate::square::Square;
use crate::zobrist;

/// The standard opening position in FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A legal position: plain data, cheap to copy, with an incrementally kept Zobrist hash.
#[derive(Copy, Clone, Debug)]
pub struct Position {
    board: Board,
    turn: Color,
    kings: [Square; 2],
    hash: u64,
    halfmoves: u16,
    fullmoves: u16,
}

/// What `play_unchecked` needs to be undone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The piece the move captured.
    pub captured: Option<Piece>,
    halfmoves: u16,
    fullmoves: u16,
    /// The hash before the move, restored rather than worked out again.
    hash: u64,
}

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// No piece of the side to move on the starting point.
    NoPiece {
        /// The starting point.
        from: Square,
        /// The side to move.
        turn: Color,
    },
    /// The piece cannot move that way.
    NotAMove {
        /// Kind of the moving piece.
        role: &'static str,
        /// The side to move, whose piece it is.
        turn: Color,
        /// The starting point.
        from: Square,
        /// The destination.
        to: Square,
    },
    /// The move would leave the mover's own king attacked (flying general included).
    KingLeftAttacked {
        /// The move.
        mv: Move,
        /// The side to move.
        turn: Color,
    },
}

impl Words for IllegalMove {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (IllegalMove::NoPiece { from, turn }, Lang::En) => format!("no {turn} piece on {from}"),
            (IllegalMove::NoPiece { from, turn }, Lang::Zh) => {
                format!("{}没有{}棋子", point_zh(*turn, *from), side_zh(*turn))
            }
            (IllegalMove::NotAMove { role, from, to, .. }, Lang::En) => {
                format!("the {role} on {from} cannot move to {to}")
            }
            (
                IllegalMove::NotAMove {
                    role,
                    turn,
                    from,
                    to,
                },
                Lang::Zh,
            ) => match role_named(role) {
                Some(r) => format!(
                    "{}不能走到{}",
                    piece_at_zh(Piece::new(*turn, r), *from),
                    point_zh(*turn, *to)
                ),
                None => format!("{role}({from})不能走到{}", point_zh(*turn, *to)),
            },
            (IllegalMove::KingLeftAttacked { mv, turn }, Lang::En) => {
                format!("{mv} leaves the {turn} king attacked")
            }
            (IllegalMove::KingLeftAttacked { mv, turn }, Lang::Zh) => format!(
                "{mv}走后{}{}被攻击",
                side_zh(*turn),
                Role::King.chinese(*turn)
            ),
        }
    }
}

crate::lang::english_display!(IllegalMove);

/// How a game stands when the side to move has no legal move: it loses (困毙 counts as mate).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is in check with no legal move (将死).
    Checkmate {
        /// The winner.
        winner: Color,
    },
    /// The side to move is not in check but has no legal move (困毙), which also loses.
    Stalemate {
        /// The winner.
        winner: Color,
    },
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl PartialEq for Position {
    /// Equal when pieces and the side to move are equal (the move counters do not matter).
    fn eq(&self, other: &Position) -> bool {
        self.hash == other.hash && self.turn == other.turn && self.board == other.board
    }
}
impl Eq for Position {}

impl Position {
    /// The standard opening position.
    pub fn start() -> Position {
        START_FEN.parse().expect("the start FEN is valid")
    }

    /// Builds a position from parts that the caller has validated (see `fen` for the checks).
    pub(crate) fn from_parts(
        board: Board,
        turn: Color,
        halfmoves: u16,
        fullmoves: u16,
    ) -> Option<Position> {
        let red = board.king(Color::Red)?;
        let black = board.king(Color::Black)?;
        let mut hash = zobrist::turn_key(turn);
        for (sq, p) in board.pieces() {
            hash ^= zobrist::piece_key(p, sq);
        }
        Some(Position {
            board,
            turn,
            kings: [red, black],
            hash,
            halfmoves,
            fullmoves,
        })
    }

    /// The piece placement.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The Zobrist hash of pieces and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Where `color`'s king stands.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// Plies since the last capture (FEN field 5).
    pub fn halfmoves(&self) -> u16 {
        self.halfmoves
    }

    /// The move number (FEN field 6).
    pub fn fullmoves(&self) -> u16 {
        self.fullmoves
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.get(sq)
    }

    /// Whether `color`'s king is attacked.
    #[inline]
    pub fn in_check(&self, color: Color) -> bool {
        king_attacked(&self.board, self.king(color), color)
    }

    /// Whether the side to move is in check (被将).
    #[inline]
    pub fn is_check(&self) -> bool {
        self.in_check(self.turn)
    }

    /// All legal moves of the side to move.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        movegen::legal(&self.board, self.turn, self.king(self.turn), &mut moves);
        moves
    }

    /// The legal captures of the side to move (the enemy king is never a target).
    pub fn legal_captures(&self) -> MoveList {
        let mut moves = MoveList::new();
        movegen::legal_captures(&self.board, self.turn, self.king(self.turn), &mut moves);
        moves
    }

    /// The legal moves of the piece on `from` (empty if it is not the side to move's).
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut moves = MoveList::new();
        if let Some(p) = self.board.get(from).filter(|p| p.color == self.turn) {
            movegen::piece_moves(&self.board, from, p.role, p.color, &mut moves);
            movegen::retain_legal(&self.board, self.turn, self.king(self.turn), &mut moves);
        }
        moves
    }

    /// Number of legal moves of the side to move.
    pub fn count_legal_moves(&self) -> usize {
        movegen::count_legal(&self.board, self.turn, self.king(self.turn))
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        movegen::any_legal(&self.board, self.turn, self.king(self.turn))
    }

    /// Checks `m` for legality, saying why it is not legal.
    pub fn check_legal(&self, m: Move) -> Result<(), IllegalMove> {
        let piece = self
            .board
            .get(m.from)
            .filter(|p| p.color == self.turn)
            .ok_or(IllegalMove::NoPiece {
                from: m.from,
                turn: self.turn,
            })?;
        if !movegen::piece_reaches(&self.board, m.from, piece.role, piece.color, m.to) {
            return Err(IllegalMove::NotAMove {
                role: piece.role.name(),
                turn: self.turn,
                from: m.from,
                to: m.to,
            });
        }
        if !movegen::keeps_king_safe(&self.board, self.turn, self.king(self.turn), m) {
            return Err(IllegalMove::KingLeftAttacked {
                mv: m,
                turn: self.turn,
            });
        }
        Ok(())
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_legal(m).is_ok()
    }

    /// The position after the legal move `m`, or why it is illegal.
    pub fn play(&self, m: Move) -> Result<Position, IllegalMove> {
        self.check_legal(m)?;
        let mut next = *self;
        next.play_unchecked(m);
        Ok(next)
    }

    /// Plays `m`, which must be legal (or at least pseudo-legal), and returns what undoes it.
    /// Inlined everywhere: a caller that drops the undo record then builds none of it.
    #[inline(always)]
    pub fn play_unchecked(&mut self, m: Move) -> Undo {
        let piece = self
            .board
            .get(m.from)
            .expect("a piece on the move's origin");
        let captured = self.board.move_piece(piece, m.from, m.to);
        let undo = Undo {
            captured,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            hash: self.hash,
        };
        let mut hash = self.hash ^ zobrist::BLACK_TO_MOVE;
        if let Some(c) = captured {
            hash ^= zobrist::piece_key(c, m.to);
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.hash = hash ^ zobrist::piece_key(piece, m.from) ^ zobrist::piece_key(piece, m.to);
        if piece.role == Role::King {
            self.kings[piece.color.index()] = m.to;
        }
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        undo
    }

    /// Takes back `m`, played with `play_unchecked` that returned `undo`.
    #[inline(always)]
    pub fn undo(&mut self, m: Move, undo: Undo) {
        self.turn = !self.turn;
        let piece = self
            .board
            .get(m.to)
            .expect("the moved piece on the move's destination");
        self.board.unmove_piece(piece, m.from, m.to, undo.captured);
        if piece.role == Role::King {
            self.kings[piece.color.index()] = m.from;
        }
        self.hash = undo.hash;
        self.halfmoves = undo.halfmoves;
        // Restored, not decremented: the counter saturates at 65535.
        self.fullmoves = undo.fullmoves;
    }

    /// The position with the other side to move and nothing else changed (for "if the mover could
    /// move again" questions). `None` if that would leave the side now not to move in check.
    pub fn with_turn_passed(&self) -> Option<Position> {
        let mut p = *self;
        p.turn = !p.turn;
        p.hash ^= zobrist::BLACK_TO_MOVE;
        if p.in_check(!p.turn) { None } else { Some(p) }
    }

    /// The game's end if the side to move has no legal move.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            return None;
        }
        let winner = !self.turn;
        Some(if self.is_check() {
            Outcome::Checkmate { winner }
        } else {
            Outcome::Stalemate { winner }
        })
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        matches!(self.outcome(), Some(Outcome::Checkmate { .. }))
    }

    /// Whether the side to move has no legal move without being in check (困毙, a loss).
    pub fn is_stalemate(&self) -> bool {
        matches!(self.outcome(), Some(Outcome::Stalemate { .. }))
    }

    /// The same position with colours swapped and the board flipped top to bottom.
    pub fn flip_colors(&self) -> Position {
        Position::from_parts(
            self.board.flip_colors(),
            !self.turn,
            self.halfmoves,
            self.fullmoves,
        )
        .expect("flipping keeps both kings")
    }

    /// The same position mirrored left to right.
    pub fn mirror_files(&self) -> Position {
        Position::from_parts(
            self.board.mirror_files(),
            self.turn,
            self.halfmoves,
            self.fullmoves,
        )
        .expect("mirroring keeps both kings")
    }
}
