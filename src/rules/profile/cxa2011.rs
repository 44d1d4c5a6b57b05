//! Profile `cxa2011`: the Chinese Xiangqi Association rules, 2011 edition, as
//! docs/profiles/cxa2011.md reads them.

use super::cxa1999::{A4_1_1, A4_1_3, A4_1_7, A4_2_3, A4_2_4, A23_2, A23_3};
use super::{
    BothForbidden, ChaseArticles, ChaseTest, Citations, ClaimantChecks, FreeCaptures, FreePieces,
    GameRules, KeyPoint, NaturalLimitRule, Offers, Profile, ProtectorChase, StandingThreats,
    VerdictTable, ZhCitation,
};
use crate::rules::article::articles;
use crate::rules::kinds::Pattern;
use crate::rules::ruleset::Ruleset;
use crate::rules::tactics::value::Arithmetic;

articles! { Ruleset::Cxa2011;
    A23_5_2 = "23.5.2",
        "其余情况，犯例方须在两个回合内变着",
        "otherwise the side concerned must change within two rounds";
    A24_3 = "24.3",
        "走子后，所走之子或因此走动而显露之子下一着能吃子或得子，称为捉",
        "a move after which the moved piece, or one it uncovered, could next move capture or win material is a chase";
    A24_13 = "24.13",
        "长将、长杀、长捉、一将一杀、一将一捉、一杀一捉等单方面循环攻击为禁止着法",
        "one side's cyclic attacks (perpetual check, mate threat, chase and their mixtures) are forbidden";
    A26_1_2 = "26.1.2",
        "应将时帅（将）本身捉子或造成杀势按闲处理",
        "a chase or mate threat made by the king itself while answering a check is idle";
    A26_1 = "26.1",
        "帅（将）、兵（卒）本身长捉按闲处理",
        "the king and pawns may chase by themselves: idle";
    A26_2 = "26.2",
        "占据守和要点，附带捉士相按闲处理",
        "holding the key drawing point: incidental attacks on advisors and elephants are idle";
    A26_5 = "26.5",
        "作根之子或被牵制之子捉子，交换后须不失子方为捉",
        "a chase by a protector or a pinned piece counts only if the exchange that follows is even or better";
    A26_7 = "26.7",
        "兵（卒）走动借他子闪击或双击得子，按闲处理",
        "a pawn move that wins only through another piece's discovered or forking attack is idle";
    A26_9 = "26.9",
        "同兵种邀兑，接受后不致被将死或失子者，按闲处理",
        "a same-type exchange offer that the opponent can accept without loss is idle";
    A23_5_1 = "23.5.1",
        "单方长将立即判负",
        "unilateral perpetual check loses at once";
    A25_2 = "25.2",
        "双方均为允许着法，作和",
        "both sides allowed: draw";
    A25_3 = "25.3",
        "一方禁止、一方允许，禁止方必须变着",
        "forbidden against allowed: the forbidden side must change";
    A26_8 = "26.8",
        "双方均为禁止着法：主要禁例对次要禁例，主要方变着；其余作和",
        "both forbidden: a primary forbidden pattern against a secondary one must change; otherwise draw";
}

/// The 2011 rules.
pub const PROFILE: Profile = Profile {
    ruleset: Ruleset::Cxa2011,
    name: "cxa2011",
    alias: None,
    also: &["2011"],
    description: "Chinese Xiangqi Association rules, 2011 edition: as 1999, with kings and pawns free to chase, protector/pinned-piece chases weighed by the exchange, and primary/secondary forbidden patterns when both sides offend",
    cite_prefix: "2011 ",
    cite_zh: ZhCitation {
        before: "2011年规则",
        after: "",
        prefixed: None,
        named: &[],
    },
    articles: ARTICLES,

    // 26.6: a pawn given for a rook is a gain, an advisor or elephant given for pawns a loss, a
    // pawn lost after the gain does not void it.
    material: Arithmetic {
        pawn_for_rook: true,
        guard_for_pawns: true,
        late_pawn_kept: true,
    },
    // 24.3; 26.5: a protector's or pinned piece's chase counts if the exchange is even or better.
    chase_test: ChaseTest::NetGain(ProtectorChase::IfEven),
    gains_by_checks: true,
    // 26.7: a pawn move that wins only through another piece's check is idle.
    pawn_move_gains_by_checks: false,
    // 26.1, 26.1.1, 26.6, 26.7.
    free_captures: FreeCaptures {
        pieces: FreePieces::Any,
        unless_moved_piece_attacks: true,
        unless_pawn_checks: true,
        unless_pawn_takes_rook: true,
        pawn_after_check: true,
    },
    // 26.9–26.10.
    offers: Offers::Exchange {
        protected_barred_for_all: true,
    },
    standing_threats: StandingThreats::AlreadyThere,
    // 26.2, also where the position makes it plain.
    key_point: Some(KeyPoint {
        article: A26_2,
        plain_from_position: true,
    }),
    king_answering_check: Some(A26_1_2),
    // 24.18, 26.3.
    self_inflicted_check: true,
    pinned_rook: None,
    chase_articles: ChaseArticles {
        chase: A24_3,
        by_checks: A24_3,
        not_new: A24_3,
    },
    mate_threat_outranks_chase: true,

    same_piece: None,
    pawns_chase_in_mutual_attack: None,
    verdicts: VerdictTable {
        // 24.13: every one-sided cyclic attack.
        forbidden: &[
            Pattern::PerpetualCheck,
            Pattern::PerpetualMateThreat,
            Pattern::PerpetualChase,
            Pattern::CheckAndMateThreat,
            Pattern::CheckAndChase,
            Pattern::MateThreatAndChase,
            Pattern::PerpetualAttack,
        ],
        lone_perpetual_check_loses: Some(&[A23_5_1, A26_8]),
        both_forbidden: BothForbidden::PrimaryChanges(A26_8),
        both_allowed: A25_2,
        one_forbidden_check: &[A25_3],
        one_forbidden: &[A25_3],
        told_loses: A4_1_7,
    },
    citations: Citations {
        patterns: Some(A24_13),
        check: None,
        mate_threat: None,
    },
    // The results and the natural limit as in 1999 (the 2011 book keeps them; docs/rules.md,
    // "Live games", says what could not be checked against its text).
    game: GameRules {
        checkmate: &[A4_1_1],
        stalemate: &[A4_1_3],
        told_repeats: &[A4_1_7, A23_5_2],
        repetition_draw: &[A4_2_3, A23_2],
        natural_limit: NaturalLimitRule {
            rounds: 60,
            claimant_checks: ClaimantChecks::CountedUpTo(10),
            articles: &[A4_2_4, A23_3],
        },
    },
};
