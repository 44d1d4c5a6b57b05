//! The Asian rules' own tests (axf.md): a rook pinned by a cannon moving along the pin line
//! (AXF 8) and a rook tied by a horse (AXF 19).

use crate::attacks::king_attacked;
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::square::Square;

/// AXF: "a rook pinned along a line by a cannon is not chasing when it moves along that line". The
/// piece moved by `m` in `before` is a rook, and on the file or rank of the move it is one of
/// exactly two pieces standing between an enemy cannon and a piece of its own side: its king
/// (absolute pin, taking the rook off the line would let the cannon check) or any other own piece
/// (relative pin, the cannon could then capture it). The order is cannon – screen – rook – own
/// piece or cannon – rook – screen – own piece; the screen may be of either side. A rook move stays
/// on that line exactly when it keeps to the file or rank, and then it still stands between them.
/// Returns the cannon's point.
pub fn rook_pinned_by_cannon(before: &Position, m: Move) -> Option<Square> {
    let rook = before.piece_at(m.from)?;
    if rook.role != Role::Rook {
        return None;
    }
    let (df, dr) = if m.from.file() == m.to.file() {
        (0, 1)
    } else if m.from.rank() == m.to.rank() {
        (1, 0)
    } else {
        return None;
    };
    // The first two pieces on each side of the rook along the line.
    let near = |df: i32, dr: i32| {
        let mut out = [None; 2];
        let mut n = 0;
        let mut sq = m.from;
        while n < 2 {
            let Some(next) = sq.offset(df, dr) else { break };
            sq = next;
            if let Some(p) = before.piece_at(sq) {
                out[n] = Some((sq, p));
                n += 1;
            }
        }
        out
    };
    let enemy_cannon = |x: Option<(Square, Piece)>| {
        x.filter(|(_, p)| p.color != rook.color && p.role == Role::Cannon)
            .map(|(sq, _)| sq)
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

/// The reason given on a target that only the pinned rook itself attacks after its move along its
/// pin line (AXF 8).
pub fn pinned_rook_reason(cannon: Square) -> (String, String, &'static str) {
    (
        format!(
            "the rook is pinned by the cannon on {cannon} and moves along this line: its own attacks are not a chase (AXF)"
        ),
        format!("车被{cannon}炮牵制，沿牵制线走动，其本身的攻击不算捉（亚洲规则）"),
        "AXF 8",
    )
}

/// AXF 19: the opponent's rook on `sq` of `pos` (the mover to move) cannot leave its point because
/// it stands on the leg of one of the mover's horses aimed at the opponent's king: leaving would
/// let the horse check. Such a rook may not be chased perpetually, protected or not.
pub fn rook_tied_by_horse(pos: &Position, sq: Square) -> bool {
    let Some(rook) = pos.piece_at(sq) else {
        return false;
    };
    if rook.role != Role::Rook {
        return false;
    }
    let king = pos.king(rook.color);
    let mut board = *pos.board();
    board.set(sq, None);
    let mover = !rook.color;
    // Only a horse can be uncovered by a piece leaving its leg.
    let horses_check = |b: &crate::board::Board| {
        crate::attacks::attackers(b, king, mover)
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
        assert_eq!(pin("3C1k3/9/3P5/9/3R5/9/9/3N5/9/4K4 w", "d5", "d4"), None);
    }
}
