//! Profile `axf` (alias `wxf`): the Asian Xiangqi Federation rules, as docs/profiles/axf.md reads
//! them, and the tests of their own: the chase on the target's own point (`wins`), its targets,
//! a rook pinned by a cannon moving along the pin line (AXF 8) and a rook tied by a horse (AXF 19).

use super::{
    BothForbidden, ChaseArticles, ChaseTest, Citations, ClaimantChecks, FreeCaptures, FreePieces,
    GameRules, NaturalLimitRule, Offers, Profile, StandingThreats, VerdictTable,
};
use crate::attacks::king_attacked;
use crate::moves::Move;
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::rules::article::articles;
use crate::rules::chase::{Best, Won, excluded, search};
use crate::rules::kinds::{Pattern, Protection};
use crate::rules::protection::{Assessment, legal_captures};
use crate::rules::ruleset::Ruleset;
use crate::rules::tactics::context::Context;
use crate::rules::tactics::gain::Query;
use crate::rules::tactics::value::Arithmetic;
use crate::square::Square;

articles! { Ruleset::Axf;
    // The general rules 1–5 of the Asian rules (chapter 4, section 3 of the HKCCA book; Eric Wu's
    // English translation), numbered apart from qili's own summaries above and below.
    GENERAL1 = "general 1",
        "先吃掉对方将（帅）者胜",
        "the side that captures the other's king first wins";
    GENERAL2 = "general 2",
        "使对方无子可走者胜",
        "the side that leaves the other no legal move wins";
    GENERAL3 = "general 3",
        "犯例方经裁判要求变着而仍重复违例者判负",
        "a side that breaks a rule, is asked by the referee to change and repeats the violation loses";
    GENERAL4 = "general 4",
        "双方均无取胜可能、一方提和另一方同意，或裁判宣布，为和棋",
        "a draw when neither side can win, when one side offers and the other agrees, or when the referee declares it";
    GENERAL5 = "general 5",
        "双方循环反复而均未犯例、且都不愿变着，可判和棋",
        "a cycle repeated with no rule broken and neither side willing to change may be ruled a draw";
    A7 = "7",
        "被捉之子须为无根子，或被马炮攻击的车；同兵种互吃属兑子",
        "a chase counts against an unprotected piece, or a rook attacked by a horse or cannon; same-type pieces that can take each other offer an exchange";
    A1 = "1",
        "犯规方不变着判负",
        "a side that must change and does not loses";
    A2 = "2",
        "双方同为长将或同为长捉，作和",
        "both sides checking, or both chasing: draw";
    A3 = "3",
        "长将须变着；长将对长捉，长将方变着",
        "perpetual check must change; check against chase: the checker changes";
    A4 = "4",
        "长捉同一子须变着",
        "perpetual chase of the same piece must change";
    A5 = "5",
        "其余着法（一将一捉、长杀、一将一闲等）均允许，不变作和",
        "everything else (one check one chase, mate threats, check and idle …) is allowed: draw";
    A8 = "8",
        "被炮牵制的车沿牵制线走动，其本身的攻击不算捉",
        "a rook pinned along a line by a cannon is not chasing when it moves along that line: its own attacks are not chases";
    A6 = "6",
        "一子轮捉两子或多子，允许；二子或多子轮捉一子（帅、兵除外），禁止",
        "one piece chasing several pieces in turn is allowed; several pieces taking turns on one piece are not (unless a king or pawn)";
}

/// The Asian rules.
pub const PROFILE: Profile = Profile {
    ruleset: Ruleset::Axf,
    name: "axf",
    alias: Some("wxf"),
    also: &["asian"],
    description: "Asian Xiangqi Federation rules (WXF 2018 improves on them): only perpetual check and perpetual chase of one piece are forbidden; mixed patterns and mate threats are allowed",
    cite_prefix: "AXF ",
    articles: ARTICLES,

    material: Arithmetic {
        pawn_for_rook: false,
    },
    // A chase is judged by its target, on the target's own point (`wins` below).
    chase_test: ChaseTest::OnPoint,
    // A chase is a threat to capture next move, not a gain at the end of a series of checks.
    gains_by_checks: false,
    pawn_move_gains_by_checks: false,
    // Kings and pawns chase freely: the chase test leaves them out (`wins`), not the search.
    free_captures: FreeCaptures {
        pieces: FreePieces::None,
        unless_moved_piece_attacks: false,
        unless_pawn_checks: false,
        unless_pawn_takes_rook: false,
    },
    // Only the pair's own capture is the offer: any other attacker still chases.
    offers: Offers::Exchange {
        protected_barred_for_all: false,
    },
    standing_threats: StandingThreats::OnTheBoard,
    // The Asian rules have no defensive key point (docs/profiles/axf.md).
    key_point: None,
    king_answering_check: None,
    pinned_rook: Some(A8),
    chase_articles: ChaseArticles {
        chase: A7,
        by_checks: A7,
        not_new: A7,
    },
    // AXF forbids no mate threat: a move that threatens mate and chases is a chase.
    mate_threat_outranks_chase: false,

    same_piece: Some(A6),
    pawns_chase_in_mutual_attack: None,
    verdicts: VerdictTable {
        forbidden: &[Pattern::PerpetualCheck, Pattern::PerpetualChase],
        lone_perpetual_check_loses: None,
        both_forbidden: BothForbidden::CheckerChanges {
            checker: A3,
            draw: A2,
        },
        both_allowed: A5,
        one_forbidden_check: &[A3],
        one_forbidden: &[A4],
        told_loses: A1,
    },
    citations: Citations {
        patterns: None,
        check: None,
        mate_threat: None,
    },
    game: GameRules {
        checkmate: &[GENERAL1],
        stalemate: &[GENERAL2],
        told_repeats: &[A1, GENERAL3],
        repetition_draw: &[GENERAL5],
        // The claim as the Asian rules' summaries state it: no capture and at most ten of the
        // claimant's checks within the latest 60 rounds (docs/rules.md, "Live games").
        natural_limit: NaturalLimitRule {
            rounds: 60,
            claimant_checks: ClaimantChecks::AtMostInWindow(10),
            articles: &[GENERAL4],
        },
    },
};

/// The AXF chase test: the line by which the side to move of `pos` wins the piece on `sq` (judged
/// `x`) under `q`: the best of its captures of the piece that make it a chase target (`counts`),
/// kings' and pawns' aside (they chase freely). `after` is the position after the move judged,
/// the opponent to move.
pub(crate) fn wins(
    pos: &Position,
    sq: Square,
    q: &Query,
    x: &Assessment,
    after: &Position,
    cx: &mut Context,
) -> Option<Won> {
    let mut best = Best::new(pos);
    for &(c, _) in &x.captures {
        // Kings and pawns chase freely (docs/profiles/axf.md); only other pieces' captures count.
        let free_piece = pos
            .piece_at(c.from)
            .is_some_and(|p| matches!(p.role, Role::King | Role::Pawn));
        if free_piece || !counts(pos, sq, c, x, after) || excluded(q, sq, c) {
            continue;
        }
        let g = search(cx, pos, &q.starting(c));
        if g.gains() {
            best.keep(g);
        }
    }
    best.line()
}

/// Whether capturing the piece on `sq` of `pos` with `c` makes it a chase target: it is
/// unprotected after the capture, or a rook attacked by a horse or a cannon, or a rook that
/// cannot move for a horse check (AXF 19); a piece of the same kind only if unprotected and
/// unable to take back (in `after`, the opponent to move).
fn counts(pos: &Position, sq: Square, c: Move, x: &Assessment, after: &Position) -> bool {
    let (Some(capturer), Some(victim)) = (pos.piece_at(c.from), pos.piece_at(sq)) else {
        return false;
    };
    let unprotected = matches!(
        x.protection,
        Protection::Unprotected | Protection::FalseRoot
    ) || !recapturable(pos, c);
    if capturer.role == victim.role {
        let back = Move::new(sq, c.from);
        return unprotected && !after.is_legal(back);
    }
    unprotected
        || (victim.role == Role::Rook
            && (matches!(capturer.role, Role::Horse | Role::Cannon) || rook_tied_by_horse(pos, sq)))
}

/// Whether the defender can legally take back after the capture `c`.
fn recapturable(pos: &Position, c: Move) -> bool {
    let mut after = *pos;
    after.play_unchecked(c);
    !legal_captures(&after, c.to).is_empty()
}

/// AXF: "a rook pinned along a line by a cannon is not chasing when it moves along that line". The
/// piece moved by `m` in `before` is a rook, and on the file or rank of the move it is one of
/// exactly two pieces standing between an enemy cannon and a piece of its own side: its king
/// (absolute pin, taking the rook off the line would let the cannon check) or any other own piece
/// (relative pin, the cannon could then capture it). The order is cannon – screen – rook – own
/// piece or cannon – rook – screen – own piece; the screen may be of either side. A rook move stays
/// on that line exactly when it keeps to the file or rank, and then it still stands between them.
/// Returns the cannon's point.
pub(crate) fn rook_pinned_by_cannon(before: &Position, m: Move) -> Option<Square> {
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

/// AXF 19: the opponent's rook on `sq` of `pos` (the mover to move) cannot leave its point because
/// it stands on the leg of one of the mover's horses aimed at the opponent's king: leaving would
/// let the horse check. Such a rook may not be chased perpetually, protected or not.
pub(crate) fn rook_tied_by_horse(pos: &Position, sq: Square) -> bool {
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
