//! Profile `cxa1999` (the default): the Chinese Xiangqi Association rules, 1999 edition
//! (中国象棋竞赛规则 1999), as docs/profiles/cxa1999.md reads them.

use super::{
    BothForbidden, ChaseArticles, ChaseTest, Citations, ClaimantChecks, FreeCaptures, FreePieces,
    GameRules, KeyPoint, NaturalLimitRule, Offers, Profile, ProtectorChase, StandingThreats,
    VerdictTable, ZhCitation, ZhPrefixed,
};
use crate::rules::article::articles;
use crate::rules::kinds::Pattern;
use crate::rules::ruleset::Ruleset;
use crate::rules::tactics::value::Arithmetic;

articles! { Ruleset::Cxa1999;
    A4_1_1 = "4.1.1",
        "帅（将）被对方将死者负",
        "a side whose king is checkmated loses";
    A4_1_3 = "4.1.3",
        "被困毙者负",
        "a side that has no legal move (困毙) loses";
    A4_2_3 = "4.2.3",
        "双方走棋出现循环反复三次，符合不变作和规定者为和棋",
        "a cycle that comes round three times and meets the rules of 'neither changes, draw' is a draw";
    A4_2_4 = "4.2.4",
        "连续60个回合中（可按比赛等级酌减）双方都没有吃过一个棋子，为和棋",
        "60 consecutive rounds (fewer if the event says so) without a capture by either side: draw";
    A23_2 = "23.2",
        "循环反复局面达三次后仍在延续，即使双方都没有提和，裁判有权判和",
        "once the cycle has come round three times and goes on, the arbiter may rule a draw even if neither side offers one";
    A23_3 = "23.3",
        "一方提出自然限着作和，裁判审核属实即判和；审核时提出方对非提出方将军的着数最多只计10着",
        "a natural-limit draw is claimed and checked by the arbiter; of the claimant's checks, at most 10 count towards the limit";
    A4_1_7 = "4.1.7",
        "犯禁而不变着者判负",
        "a side that breaks a prohibition and will not change loses";
    A24_1 = "24.1",
        "一方长将立即判负",
        "one side's perpetual check loses at once";
    A24_2 = "24.2",
        "双方均为允许着法或禁止着法，不变作和",
        "both sides allowed or both forbidden: draw";
    A24_3 = "24.3",
        "一方禁止、一方允许，犯禁方必须立即变着，若再重复一次循环即判负",
        "one forbidden, one allowed: the forbidden side must change at once, and loses if the cycle comes round once more";
    A25_2 = "25.2",
        "长将、长杀、长捉、一将一杀、一将一捉、一杀一捉为禁止着法；闲着、数将一闲等为允许着法",
        "perpetual check, mate threat, chase and their mixtures are forbidden; idle moves and attacks with an idle move are allowed";
    A26_1 = "26.1",
        "不允许单方面长将",
        "unilateral perpetual check is never allowed";
    A26_2 = "26.2",
        "双方均为允许着法，不变作和",
        "both sides allowed: draw";
    A26_3 = "26.3",
        "双方均为禁止着法（不包括一方长将），不变作和",
        "both sides forbidden (one-sided perpetual check aside): draw";
    A26_4 = "26.4",
        "一方禁止、一方允许，应由前者变着，不变判负",
        "forbidden against allowed: the forbidden side changes or loses";
    A27_1 = "27.1",
        "帅（将）本身叫吃按闲处理",
        "the king attacking by itself is idle";
    A27_2 = "27.2",
        "兵（卒）本身捉子按闲处理；相互长打时按捉处理",
        "a pawn attacking by itself is idle; in mutual perpetual attack it counts as a chase";
    A27_3 = "27.3",
        "占据防守要点，附带捉士相按闲处理",
        "holding a defensive key point: incidental attacks on advisors and elephants are idle";
    A27_4 = "27.4",
        "走子兼具多种作用，从重称呼和裁处",
        "a move with several effects is judged by the heaviest";
    A28_1 = "28.1",
        "走子直接攻击对方帅（将），称为将",
        "a move that attacks the enemy king is a check";
    A28_2 = "28.2",
        "走子企图在下一着照将或连续照将将死对方，称为杀",
        "a move that threatens mate next move by a check or a series of checks is a mate threat";
    A28_3 = "28.3",
        "走子后下一着能吃掉对方无根子（含连续照将、连续交换），称为捉",
        "a move after which the mover could next move win an unprotected piece (also by a series of checks or exchanges) is a chase";
    A29_1 = "29.1",
        "捉子形式：直接吃子、连续照将吃子、完整交换得子",
        "a chase wins material directly, after a series of checks, or after a complete exchange";
    ITEM6 = "item 6",
        "从捉到捉按闲处理",
        "from chase to chase is idle";
    ITEM7 = "item 7",
        "吃子后立即被将死者，按闲处理",
        "a capture that gets the mover mated at once is no chase";
    ITEM8 = "item 8",
        "双方均为禁止着法（不包括单方面长将），不变作和",
        "both forbidden (except one-sided perpetual check): draw";
    ITEM11 = "item 11",
        "发生互打时，兵（卒）叫吃子均按捉处理",
        "when both sides attack, a pawn's attacks count as chases";
}

/// The 1999 rules.
pub const PROFILE: Profile = Profile {
    ruleset: Ruleset::Cxa1999,
    name: "cxa1999",
    alias: None,
    also: &["", "cxa", "1999"],
    description: "Chinese Xiangqi Association rules, 1999 edition (中国象棋竞赛规则1999): perpetual check, mate threats, chases and their mixtures are forbidden",
    cite_prefix: "",
    // Its articles by number (`25.2`); chapter 7's items as that chapter numbers them.
    cite_zh: ZhCitation {
        before: "",
        after: "",
        prefixed: Some(ZhPrefixed {
            prefix: "item ",
            before: "棋例细则第",
            after: "条",
        }),
        named: &[],
    },
    articles: ARTICLES,

    // 25.3: pawns against pieces, either way, are no gain.
    material: Arithmetic {
        pawn_for_rook: false,
        guard_for_pawns: false,
        late_pawn_kept: false,
    },
    // Item 3: a chase wins material; item 4: a protector's capture is a chase whatever the whole.
    chase_test: ChaseTest::NetGain(ProtectorChase::Counts),
    // 28.3, 29.1: also by a series of checks.
    gains_by_checks: true,
    pawn_move_gains_by_checks: true,
    // 27.1–27.2: the moved king's or pawn's own attacks are idle.
    free_captures: FreeCaptures {
        pieces: FreePieces::Moved,
        unless_moved_piece_attacks: false,
        unless_pawn_checks: false,
        unless_pawn_takes_rook: false,
        pawn_after_check: false,
    },
    // Item 5: an exchange offer that also chases is a chase.
    offers: Offers::Chase,
    standing_threats: StandingThreats::OnTheBoard,
    // 27.3: only when the arbiter asserts it.
    key_point: Some(KeyPoint {
        article: A27_3,
        plain_from_position: false,
    }),
    king_answering_check: None,
    // No 自毙 article: a mate an answer to a check leaves is new when B had none (28.2, item 2).
    self_inflicted_check: false,
    pinned_rook: None,
    chase_articles: ChaseArticles {
        chase: A28_3,
        by_checks: A29_1,
        not_new: ITEM6,
    },
    // 27.4, item 12: the heaviest effect names the move.
    mate_threat_outranks_chase: true,

    same_piece: None,
    pawns_chase_in_mutual_attack: Some(&[A27_2, ITEM11]),
    verdicts: VerdictTable {
        // 25.2: every cyclic attack without an idle move.
        forbidden: &[
            Pattern::PerpetualCheck,
            Pattern::PerpetualMateThreat,
            Pattern::PerpetualChase,
            Pattern::CheckAndMateThreat,
            Pattern::CheckAndChase,
            Pattern::MateThreatAndChase,
            Pattern::PerpetualAttack,
        ],
        lone_perpetual_check_loses: Some(&[A24_1, A26_1]),
        both_forbidden: BothForbidden::Draw(&[A26_3, ITEM8]),
        both_allowed: A26_2,
        one_forbidden_check: &[A26_4, A24_3],
        one_forbidden: &[A26_4, A24_3],
        told_loses: A4_1_7,
    },
    citations: Citations {
        patterns: Some(A25_2),
        check: Some(A28_1),
        mate_threat: Some(A28_2),
    },
    game: GameRules {
        checkmate: &[A4_1_1],
        stalemate: &[A4_1_3],
        // 24.3: must change at once, and loses if the cycle comes round once more.
        told_repeats: &[A4_1_7, A24_3],
        repetition_draw: &[A4_2_3, A23_2],
        natural_limit: NaturalLimitRule {
            rounds: 60,
            claimant_checks: ClaimantChecks::CountedUpTo(10),
            articles: &[A4_2_4, A23_3],
        },
    },
};
