//! Profile `axf` (alias `wxf`): the Asian Xiangqi Federation rules, as docs/profiles/axf.md reads
//! them, and the tests of their own: the chase on the target's own point (`wins`), its targets,
//! a rook confined by a cannon moving along its line (rule 27) and a rook tied by a horse (rule
//! 19). Articles are numbered as in Eric Wu's English translation of the rules (rules 1–40 and
//! the appendix).

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
    A1 = "1",
        "先吃掉对方将（帅）者胜",
        "the side that captures the other's king first wins";
    A2 = "2",
        "使对方无子可走者胜",
        "the side that leaves the other no legal move wins";
    A3 = "3",
        "犯例方须变着；经裁判要求变着而仍重复违例者判负",
        "a side that breaks a rule must change; one told by the referee to change that repeats the violation loses";
    A4 = "4",
        "双方均无取胜可能、一方提和另一方同意，或裁判宣布，为和棋",
        "a draw when neither side can win, when one side offers and the other agrees, or when the referee declares it";
    A5 = "5",
        "双方循环反复而均未犯例、且都不愿变着，可判和棋",
        "a cycle repeated with no rule broken and neither side willing to change may be ruled a draw";
    A6 = "6",
        "长将（一子或数子）为禁止着法，长将方须变着",
        "perpetual check, by one piece or several, is forbidden: the checking side must change";
    A7 = "7",
        "双方均长将，作和",
        "both sides checking perpetually: a draw";
    A15 = "15",
        "一炮或两炮不得长捉车，车有根亦然；马攻车同论（第27、36条各图）",
        "one or two cannons may not chase a rook perpetually, even a protected one; a horse's attack on a rook counts the same (the diagrams of rules 27 and 36)";
    A17 = "17",
        "车可长捉有根炮（炮在其中一步有根亦可）；据此，有根子不是捉的对象",
        "a rook may chase a protected cannon perpetually, also one protected on only one of its points; read generally: a piece with a real root is no chase target";
    A18 = "18",
        "车不得长捉无根炮，即使炮长杀、将军或反捉",
        "a rook may not chase an unprotected cannon perpetually, even if the cannon threatens mate, checks or attacks back";
    A19 = "19",
        "车因对方马的牵制不能走动时，对方不得长捉此车",
        "a rook that cannot move because of an enemy horse may not be chased perpetually";
    A23 = "23",
        "车长捉马，马仅反捉一着、将一着或一将一捉，车方仍须变着",
        "a rook chasing a horse perpetually must change, even if the horse chases back once, checks once, or checks and chases once";
    A24 = "24",
        "车与车、炮与炮、马与马可以互吃属兑子（献子），作和；一方不能吃回时，另一方不得长捉",
        "two rooks, two cannons or two horses that can take each other are an exchange offer (a draw); if one of them cannot take back, the other may not chase it perpetually";
    A25 = "25",
        "炮攻击无根的马、士、象或过河兵，仅炮架移动亦算长捉；未过河兵可以长捉；据此，无根子（过河兵在内）都是捉的对象",
        "a cannon attacking an unprotected horse, advisor, elephant or crossed pawn chases it even when only its screen moves, and an uncrossed pawn may be chased; read generally: an unprotected piece, a crossed pawn included, is a chase target";
    A27 = "27",
        "车被炮牵制只能沿线走动时，其沿线走动不算捉；以车攻击此车不算献，不得长捉（此车在其中一步有根除外）；马、炮不得长捉此车",
        "a rook confined to a line by a cannon does not chase by moving along it; a rook's attack on it is no offer and may not go on perpetually (unless it is protected on one of its moves); a horse or cannon may not chase it perpetually";
    A28 = "28",
        "帅（将）可以长捉，也可与他子联合长捉",
        "the king may chase perpetually, alone or together with another piece";
    A29 = "29",
        "兵（卒）可以长捉，一兵或数兵，其中一着有车、马、炮参与亦可",
        "pawns may chase perpetually, one or several, even when a rook, cannon or horse takes part in one of the moves";
    A32 = "32",
        "一子轮捉两子或多子，或两子轮捉两子或多子，均作和",
        "one piece chasing two or more pieces in turn, or two pieces taking turns on two or more: a draw";
    A35 = "35",
        "两子或多子攻击一个有根子，不算长捉",
        "two or more pieces attacking one protected piece do not chase it";
    APPENDIX = "appendix",
        "附例：每着都攻击对方一子而该子既不逃也不求保护，不算长捉；走子使对方子保持无根，算捉",
        "appendix: attacking a piece move after move while it neither flees nor seeks protection is no perpetual chase; moving so as to keep a piece unprotected is a chase";
    SUMMARY = "summary",
        "双方均犯例而都不变着，作和；其中仅一方长将，长将方须变着（亚洲规则摘要）",
        "both sides breaking the rules and neither changing: a draw; if only one of them checks perpetually, the checker must change (summary of the Asian rules)";
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
    pinned_rook: Some(A27),
    // The general rule for an unprotected piece; an attack that already stood is no chase
    // (the appendix).
    chase_articles: ChaseArticles {
        chase: A25,
        by_checks: A25,
        not_new: APPENDIX,
    },
    // AXF forbids no mate threat: a move that threatens mate and chases is a chase.
    mate_threat_outranks_chase: false,

    same_piece: Some(A32),
    pawns_chase_in_mutual_attack: None,
    verdicts: VerdictTable {
        forbidden: &[Pattern::PerpetualCheck, Pattern::PerpetualChase],
        lone_perpetual_check_loses: None,
        both_forbidden: BothForbidden::CheckerChanges {
            checker: &[A6, SUMMARY],
            both_check: A7,
            draw: SUMMARY,
        },
        both_allowed: A5,
        one_forbidden_check: &[A6, A3],
        one_forbidden: &[A3],
        told_loses: A3,
    },
    citations: Citations {
        patterns: None,
        check: None,
        mate_threat: None,
    },
    game: GameRules {
        checkmate: &[A1],
        stalemate: &[A2],
        told_repeats: &[A3],
        repetition_draw: &[A5],
        // The claim as the Asian rules' summaries state it: no capture and at most ten of the
        // claimant's checks within the latest 60 rounds (docs/rules.md, "Live games").
        natural_limit: NaturalLimitRule {
            rounds: 60,
            claimant_checks: ClaimantChecks::AtMostInWindow(10),
            articles: &[A4],
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

/// AXF 27: "a rook pinned along a line by a cannon is not chasing when it moves along that line". The
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
