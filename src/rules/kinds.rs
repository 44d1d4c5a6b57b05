//! The vocabulary of rulings: move kinds, idle kinds, protection, patterns, verdicts.

use serde::Serialize;

/// What a move is (1999 art. 28; docs/spec.md §3). Ordered lightest to heaviest, so `max` names a
/// move with several effects by the heaviest (27.4, item 12).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// 闲: none of the attacks below.
    Idle,
    /// 捉: threatens to win material next move (28.3, 29).
    Chase,
    /// 杀: threatens mate by a check or a series of checks next move (28.2).
    MateThreat,
    /// 将: attacks the enemy king (28.1).
    Check,
}

impl MoveKind {
    /// Snake-case name used in JSON and cases.
    pub const fn name(self) -> &'static str {
        match self {
            MoveKind::Idle => "idle",
            MoveKind::Chase => "chase",
            MoveKind::MateThreat => "mate_threat",
            MoveKind::Check => "check",
        }
    }

    /// 闲 / 捉 / 杀 / 将.
    pub const fn chinese(self) -> &'static str {
        match self {
            MoveKind::Idle => "闲",
            MoveKind::Chase => "捉",
            MoveKind::MateThreat => "杀",
            MoveKind::Check => "将",
        }
    }
}

/// The kinds of idle move (28.5–28.8), reported for the arbiter; they never change a ruling.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IdleKind {
    /// 兑: offers a trade of equal material.
    Exchange,
    /// 献: offers an unprotected piece that the enemy can take without loss.
    Sacrifice,
    /// 拦: blocks an enemy piece's line, leg or eye without attacking.
    Block,
    /// 跟: shadows or pins a protected enemy piece without gain.
    Follow,
}

impl IdleKind {
    /// Snake-case name.
    pub const fn name(self) -> &'static str {
        match self {
            IdleKind::Exchange => "exchange",
            IdleKind::Sacrifice => "sacrifice",
            IdleKind::Block => "block",
            IdleKind::Follow => "follow",
        }
    }

    /// 兑 / 献 / 拦 / 跟.
    pub const fn chinese(self) -> &'static str {
        match self {
            IdleKind::Exchange => "兑",
            IdleKind::Sacrifice => "献",
            IdleKind::Block => "拦",
            IdleKind::Follow => "跟",
        }
    }
}

/// How well an attacked piece is protected (28.16; docs/spec.md §4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Protection {
    /// 有根: the exchange on its square does not gain for the attacker.
    Protected,
    /// 无根: no defender.
    Unprotected,
    /// 假根: defenders exist but none can legally recapture (pinned, or the recapture gets mated).
    FalseRoot,
    /// 少根: real defenders, but the complete exchange still gains for the attacker.
    InsufficientRoot,
    /// 暗根: protected only by a defender that appears after the capture; real protection.
    HiddenRoot,
}

impl Protection {
    /// Snake-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Protection::Protected => "protected",
            Protection::Unprotected => "unprotected",
            Protection::FalseRoot => "false_root",
            Protection::InsufficientRoot => "insufficient_root",
            Protection::HiddenRoot => "hidden_root",
        }
    }

    /// 有根 / 无根 / 假根 / 少根 / 暗根.
    pub const fn chinese(self) -> &'static str {
        match self {
            Protection::Protected => "有根",
            Protection::Unprotected => "无根",
            Protection::FalseRoot => "假根",
            Protection::InsufficientRoot => "少根",
            Protection::HiddenRoot => "暗根",
        }
    }

    /// Whether the piece counts as unprotected for a chase (false and insufficient roots do).
    pub const fn counts_as_unprotected(self) -> bool {
        matches!(
            self,
            Protection::Unprotected | Protection::FalseRoot | Protection::InsufficientRoot
        )
    }
}

/// A side's pattern over the cycle (docs/spec.md §5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// 长将: every move a check.
    PerpetualCheck,
    /// 长杀: every move a mate threat.
    PerpetualMateThreat,
    /// 长捉: every move a chase.
    PerpetualChase,
    /// 一将一杀: checks and mate threats only.
    CheckAndMateThreat,
    /// 一将一捉: checks and chases only.
    CheckAndChase,
    /// 一杀一捉: mate threats and chases only.
    MateThreatAndChase,
    /// 长打: checks, mate threats and chases.
    PerpetualAttack,
    /// 数将一闲 / 数捉一闲 …: attacks with at least one idle move.
    AttacksWithIdle,
    /// 闲: every move idle.
    Idle,
}

impl Pattern {
    /// Every pattern, in table order.
    pub const ALL: [Pattern; 9] = [
        Pattern::PerpetualCheck,
        Pattern::PerpetualMateThreat,
        Pattern::PerpetualChase,
        Pattern::CheckAndMateThreat,
        Pattern::CheckAndChase,
        Pattern::MateThreatAndChase,
        Pattern::PerpetualAttack,
        Pattern::AttacksWithIdle,
        Pattern::Idle,
    ];

    /// The label of a side whose cycle moves have these kinds.
    pub fn from_kinds(kinds: &[MoveKind]) -> Pattern {
        let has = |k| kinds.contains(&k);
        let (check, mate, chase, idle) = (
            has(MoveKind::Check),
            has(MoveKind::MateThreat),
            has(MoveKind::Chase),
            has(MoveKind::Idle),
        );
        match (check, mate, chase, idle) {
            (_, _, _, true) if check || mate || chase => Pattern::AttacksWithIdle,
            (_, _, _, true) => Pattern::Idle,
            (true, false, false, false) => Pattern::PerpetualCheck,
            (false, true, false, false) => Pattern::PerpetualMateThreat,
            (false, false, true, false) => Pattern::PerpetualChase,
            (true, true, false, false) => Pattern::CheckAndMateThreat,
            (true, false, true, false) => Pattern::CheckAndChase,
            (false, true, true, false) => Pattern::MateThreatAndChase,
            (true, true, true, false) => Pattern::PerpetualAttack,
            (false, false, false, false) => Pattern::Idle,
        }
    }

    /// Snake-case name used in JSON and cases.
    pub const fn name(self) -> &'static str {
        match self {
            Pattern::PerpetualCheck => "perpetual_check",
            Pattern::PerpetualMateThreat => "perpetual_mate_threat",
            Pattern::PerpetualChase => "perpetual_chase",
            Pattern::CheckAndMateThreat => "check_and_mate_threat",
            Pattern::CheckAndChase => "check_and_chase",
            Pattern::MateThreatAndChase => "mate_threat_and_chase",
            Pattern::PerpetualAttack => "perpetual_attack",
            Pattern::AttacksWithIdle => "attacks_with_idle",
            Pattern::Idle => "idle",
        }
    }

    /// The Chinese term.
    pub const fn chinese(self) -> &'static str {
        match self {
            Pattern::PerpetualCheck => "长将",
            Pattern::PerpetualMateThreat => "长杀",
            Pattern::PerpetualChase => "长捉",
            Pattern::CheckAndMateThreat => "一将一杀",
            Pattern::CheckAndChase => "一将一捉",
            Pattern::MateThreatAndChase => "一杀一捉",
            Pattern::PerpetualAttack => "长打",
            Pattern::AttacksWithIdle => "数打一闲",
            Pattern::Idle => "闲",
        }
    }

    /// English description.
    pub const fn english(self) -> &'static str {
        match self {
            Pattern::PerpetualCheck => "perpetual check",
            Pattern::PerpetualMateThreat => "perpetual mate threat",
            Pattern::PerpetualChase => "perpetual chase",
            Pattern::CheckAndMateThreat => "check and mate threat alternating",
            Pattern::CheckAndChase => "check and chase alternating",
            Pattern::MateThreatAndChase => "mate threat and chase alternating",
            Pattern::PerpetualAttack => "perpetual attack (checks, mate threats and chases)",
            Pattern::AttacksWithIdle => "attacks with an idle move among them",
            Pattern::Idle => "idle moves",
        }
    }

    /// Whether every move of the pattern is an attack (长打).
    pub const fn all_attacks(self) -> bool {
        !matches!(self, Pattern::AttacksWithIdle | Pattern::Idle)
    }
}

/// The ruling (docs/spec.md §6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// 不变作和: neither side need change; the game is drawn if both go on.
    Draw,
    /// Red loses.
    RedLoses,
    /// Black loses.
    BlackLoses,
    /// Red must change (and loses if it does not).
    RedMustChange,
    /// Black must change (and loses if it does not).
    BlackMustChange,
    /// The final position never occurred before: nothing to rule.
    NoRepetition,
}

impl Verdict {
    /// Every verdict.
    pub const ALL: [Verdict; 6] = [
        Verdict::Draw,
        Verdict::RedLoses,
        Verdict::BlackLoses,
        Verdict::RedMustChange,
        Verdict::BlackMustChange,
        Verdict::NoRepetition,
    ];

    /// Snake-case name used in JSON and cases.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Draw => "draw",
            Verdict::RedLoses => "red_loses",
            Verdict::BlackLoses => "black_loses",
            Verdict::RedMustChange => "red_must_change",
            Verdict::BlackMustChange => "black_must_change",
            Verdict::NoRepetition => "no_repetition",
        }
    }

    /// The verdict named `name`.
    pub fn from_name(name: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The verdict with colours swapped.
    pub const fn flip_colors(self) -> Verdict {
        match self {
            Verdict::RedLoses => Verdict::BlackLoses,
            Verdict::BlackLoses => Verdict::RedLoses,
            Verdict::RedMustChange => Verdict::BlackMustChange,
            Verdict::BlackMustChange => Verdict::RedMustChange,
            v => v,
        }
    }
}

impl Pattern {
    /// The pattern named `name`.
    pub fn from_name(name: &str) -> Option<Pattern> {
        Pattern::ALL.into_iter().find(|p| p.name() == name)
    }
}
