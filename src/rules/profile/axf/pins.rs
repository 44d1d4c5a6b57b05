//! Rooks the Asian rules treat apart: a rook confined to a line by a cannon (rule 27) and a rook
//! held by a horse (rule 19), read on the board (docs/profiles/axf.md).

use crate::attacks::{attackers, king_attacked};
use crate::board::Board;
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;

/// A line through a point: along its file or along its rank.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// The file (up and down).
    File,
    /// The rank (left and right).
    Rank,
}

impl Line {
    /// The line a move keeps to, if it keeps to one.
    pub(crate) fn of(m: Move) -> Option<Line> {
        if m.from.file() == m.to.file() {
            Some(Line::File)
        } else if m.from.rank() == m.to.rank() {
            Some(Line::Rank)
        } else {
            None
        }
    }

    fn step(self) -> (i32, i32) {
        match self {
            Line::File => (0, 1),
            Line::Rank => (1, 0),
        }
    }
}

/// Rule 27: the enemy cannon that confines the rook on `sq` of `pos` to `line`: on that line the
/// rook is one of exactly two pieces between an enemy cannon and a piece of its own side, its king
/// (leaving would let the cannon check) or another piece (leaving would let the cannon take it).
/// The order is cannon – screen – rook – own piece or cannon – rook – screen – own piece; the
/// screen may be of either side. A rook that moves along the line still stands between them.
pub(crate) fn confining_cannon(pos: &Position, sq: Square, line: Line) -> Option<Square> {
    let rook = pos.piece_at(sq).filter(|p| p.role == Role::Rook)?;
    let (df, dr) = line.step();
    // The first two pieces on each side of the rook along the line.
    let near = |df: i32, dr: i32| {
        let mut out = [None; 2];
        let mut n = 0;
        let mut at = sq;
        while n < 2 {
            let Some(next) = at.offset(df, dr) else { break };
            at = next;
            if let Some(p) = pos.piece_at(at) {
                out[n] = Some((at, p));
                n += 1;
            }
        }
        out
    };
    let enemy_cannon = |x: Option<(Square, Piece)>| {
        x.filter(|(_, p)| p.color != rook.color && p.role == Role::Cannon)
            .map(|(at, _)| at)
    };
    let own = |x: Option<(Square, Piece)>| x.is_some_and(|(_, p)| p.color == rook.color);
    let (up, down) = (near(df, dr), near(-df, -dr));
    [(up, down), (down, up)]
        .into_iter()
        .find_map(|(towards, away)| {
            // cannon – screen – rook – own piece
            let screened =
                enemy_cannon(towards[1]).filter(|_| towards[0].is_some() && own(away[0]));
            // cannon – rook – screen – own piece
            screened
                .or_else(|| enemy_cannon(towards[0]).filter(|_| away[0].is_some() && own(away[1])))
        })
}

/// The line the rook on `sq` of `pos` is confined to by a cannon (rule 27), with the cannon.
pub(crate) fn confinement(pos: &Position, sq: Square) -> Option<(Line, Square)> {
    [Line::File, Line::Rank]
        .into_iter()
        .find_map(|line| confining_cannon(pos, sq, line).map(|c| (line, c)))
}

/// Rule 27: the move `m` of `before` is a rook's move along the line a cannon confines it to
/// (it keeps to the file or rank it is confined on). Returns the cannon's point.
pub(crate) fn rook_pinned_by_cannon(before: &Position, m: Move) -> Option<Square> {
    confining_cannon(before, m.from, Line::of(m)?)
}

/// Rule 19: the opponent's rook on `sq` of `pos` (the mover to move) cannot leave its point
/// because it stands on the leg of one of the mover's horses aimed at the opponent's king:
/// leaving would let the horse check.
pub(crate) fn rook_held_by_horse(pos: &Position, sq: Square) -> bool {
    let Some(rook) = pos.piece_at(sq).filter(|p| p.role == Role::Rook) else {
        return false;
    };
    let king = pos.king(rook.color);
    let mut board = *pos.board();
    board.set(sq, None);
    let mover = !rook.color;
    // Only a horse can be uncovered by a piece leaving its leg.
    let horses_check = |b: &Board| {
        attackers(b, king, mover)
            .iter()
            .any(|s| b.get(*s).is_some_and(|p| p.role == Role::Horse))
    };
    !horses_check(pos.board()) && horses_check(&board) && king_attacked(&board, king, rook.color)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin(fen: &str, from: &str, to: &str) -> Option<String> {
        let pos: Position = fen.parse().expect("valid test FEN");
        let m = Move::new(from.parse().expect("square"), to.parse().expect("square"));
        rook_pinned_by_cannon(&pos, m).map(|s| s.to_string())
    }

    #[test]
    fn rook_pinned_by_a_cannon_moving_along_the_line() {
        // Cannon d9 – rook d5 – advisor d2 – king d1.
        let fen = "3ck4/9/9/9/C2R5/C5n2/9/3A5/3K5/9 w";
        assert_eq!(pin(fen, "d5", "d4").as_deref(), Some("d9"));
        assert_eq!(pin(fen, "d5", "d7").as_deref(), Some("d9"));
        // Cannon d9 – horse d7 – rook d5 – king d1: the screen may stand between cannon and rook.
        assert_eq!(
            pin("3ck4/9/3n5/9/3R5/9/9/9/3K5/9 w", "d5", "d4").as_deref(),
            Some("d9")
        );
    }

    #[test]
    fn rook_pinned_to_another_own_piece() {
        // Relative pin: cannon d9 – pawn d7 – rook d5 – horse d2, the king on e0.
        let fen = "3c1k3/9/3P5/9/3R5/6c2/9/3N5/9/4K4 w";
        assert_eq!(pin(fen, "d5", "d4").as_deref(), Some("d9"));
        assert_eq!(pin(fen, "d5", "d6").as_deref(), Some("d9"));
        // Leaving the file is not moving along the pin line.
        assert_eq!(pin(fen, "d5", "e5"), None);
        // Along a rank: cannon a5 – rook c5 – black pawn e5 – horse g5.
        let fen = "3k5/9/9/9/c1R1p1N2/9/9/9/9/4K4 w";
        assert_eq!(pin(fen, "c5", "b5").as_deref(), Some("a5"));
        assert_eq!(pin(fen, "c5", "d5").as_deref(), Some("a5"));
    }

    #[test]
    fn rook_not_pinned_by_a_cannon() {
        // No second piece between cannon and king: the rook is the cannon's screen, not pinned.
        assert_eq!(pin("3ck4/9/9/9/3R5/9/9/9/3K5/9 w", "d5", "d4"), None);
        // Three pieces between: taking the rook off leaves two screens.
        assert_eq!(pin("3ck4/3n5/3n5/9/3R5/9/9/3A5/3K5/9 w", "d5", "d4"), None);
        // A rook on the line, not a cannon.
        assert_eq!(pin("3rk4/9/9/9/3R5/9/9/3A5/3K5/9 w", "d5", "d4"), None);
        // The same rook moving along the rank is not moving along the pin line.
        assert_eq!(pin("3ck4/9/9/9/C2R5/C5n2/9/3A5/3K5/9 w", "d5", "e5"), None);
        // The piece behind is the enemy's: nothing of the rook's side is exposed.
        assert_eq!(pin("3c1k3/9/3P5/9/3R5/9/9/3n5/9/4K4 w", "d5", "d4"), None);
        // Cannon d9 – pawn d7 – rook d5 – black pawn d3 – horse d2: three pieces before the horse.
        assert_eq!(pin("3c1k3/9/3P5/9/3R5/9/3p5/3N5/9/4K4 w", "d5", "d4"), None);
        // A red cannon is no pin of a red rook.
        assert_eq!(pin("3C1k3/9/3P5/9/3R5/9/3N5/9/9/4K4 w", "d5", "d4"), None);
    }

    #[test]
    fn a_confined_rook_names_its_line() {
        let pos: Position = "3ck4/9/9/9/C2R5/C5n2/9/3A5/3K5/9 w".parse().expect("FEN");
        let d5 = "d5".parse().expect("square");
        assert_eq!(
            confinement(&pos, d5).map(|(l, c)| (l, c.to_string())),
            Some((Line::File, "d9".to_string()))
        );
        let free: Position = "3ck4/9/9/9/3R5/9/9/9/3K5/9 w".parse().expect("FEN");
        assert_eq!(confinement(&free, d5), None);
    }

    #[test]
    fn a_rook_on_the_leg_of_a_horse_aimed_at_its_king_is_held() {
        // Black rook f8 on the leg of the red horse g8, which would check the king e9.
        let pos: Position = "2bak4/RC2arN2/4b1n2/2p5p/6p2/2P6/4p1P1c/4B4/4A4/4KAB2 w"
            .parse()
            .expect("FEN");
        assert!(rook_held_by_horse(&pos, "f8".parse().expect("square")));
        assert!(!rook_held_by_horse(&pos, "a8".parse().expect("square")));
    }
}
