//! Profile `axf` (alias `wxf`): the Asian Xiangqi Federation rules, as docs/profiles/axf.md reads
//! them. Articles are numbered as in Eric Wu's English translation of the rules (rules 1–40 and
//! the appendix); the chase is judged on the target's own point (`chase`), with the rooks the
//! rules treat apart (`pins`: confined by a cannon, rule 27; held by a horse, rule 19).

mod chase;
mod pins;

pub(crate) use chase::chases;

use super::{
    BothForbidden, ChaseArticles, ChaseTest, Citations, ClaimantChecks, FreeCaptures, FreePieces,
    GameRules, NaturalLimitRule, Offers, Profile, StandingThreats, VerdictTable, ZhCitation,
};
use crate::rules::article::articles;
use crate::rules::kinds::Pattern;
use crate::rules::ruleset::Ruleset;
use crate::rules::tactics::value::Arithmetic;

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
    // The appendix (附例) and the summary of the thumb rules (摘要) by name.
    cite_zh: ZhCitation {
        before: "亚洲规则第",
        after: "条",
        prefixed: None,
        named: &[("appendix", "亚洲规则附例"), ("summary", "亚洲规则摘要")],
    },
    articles: ARTICLES,

    material: Arithmetic {
        pawn_for_rook: false,
        guard_for_pawns: false,
        late_pawn_kept: false,
    },
    // A chase is judged by its target, on the target's own point (`chase`): no net-gain search,
    // so the net-gain settings below (checks, free captures, offers) are not read.
    chase_test: ChaseTest::OnPoint,
    // A chase is a threat to capture next move, not a gain at the end of a series of checks.
    gains_by_checks: false,
    pawn_move_gains_by_checks: false,
    // Kings and pawns chase freely (rules 28, 29): the on-point test leaves their captures out.
    free_captures: FreeCaptures {
        pieces: FreePieces::None,
        unless_moved_piece_attacks: false,
        unless_pawn_checks: false,
        unless_pawn_takes_rook: false,
        pawn_after_check: false,
    },
    // Rule 36: a chase that is also an exchange offer is still a chase; the pair's own capture
    // is judged by rule 24 in the on-point test.
    offers: Offers::Chase,
    standing_threats: StandingThreats::OnTheBoard,
    // The Asian rules have no defensive key point (docs/profiles/axf.md).
    key_point: None,
    king_answering_check: None,
    // No 自毙 article: a kill made by answering a check is judged as any move's.
    self_inflicted_check: false,
    pinned_rook: Some(A27),
    // The on-point test cites the rule of each target's kind (rules 15, 18, 19, 23, 24, 25, 27);
    // `chase` is the general one, for an unprotected piece.
    chase_articles: ChaseArticles {
        chase: A25,
        by_checks: A25,
        not_new: APPENDIX,
    },
    // The Asian rules forbid no mate threat: a move that threatens mate and chases is a chase.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::kinds::Verdict;
    use crate::rules::options::BySide;
    use crate::rules::verdict::{SideSummary, decide};

    fn side(pattern: Pattern) -> SideSummary {
        SideSummary {
            pattern,
            forbidden: PROFILE.forbids(pattern),
            primary: true,
        }
    }

    fn verdict(red: Pattern, black: Pattern, told: BySide<bool>) -> Verdict {
        decide(&PROFILE, side(red), side(black), told).verdict
    }

    /// Perpetual check against perpetual chase: the checker must change (the summary of the
    /// thumb rules; rule 8), and loses once told; both sides checking, or both chasing: a draw
    /// (rule 7, the summary). No legal cycle of the corpus shows the first shape: the chaser
    /// answers a check every move, and an interposed piece may only take the checker.
    #[test]
    fn the_checker_changes_against_a_perpetual_chase() {
        let (check, chase) = (Pattern::PerpetualCheck, Pattern::PerpetualChase);
        let none = BySide::default();
        assert_eq!(verdict(check, chase, none), Verdict::RedMustChange);
        assert_eq!(verdict(chase, check, none), Verdict::BlackMustChange);
        let red_told = BySide {
            red: true,
            black: false,
        };
        assert_eq!(verdict(check, chase, red_told), Verdict::RedLoses);
        assert_eq!(verdict(check, check, none), Verdict::Draw);
        assert_eq!(verdict(chase, chase, none), Verdict::Draw);
    }
}
