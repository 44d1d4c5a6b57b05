//! Rule profiles: the one place where the Chinese and Asian rules differ.

use std::fmt;
use std::str::FromStr;

/// A rule profile (棋例规则). The analysis consults it instead of scattering `if`s.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ruleset {
    /// Chinese Xiangqi Association rules, 1999 edition (the default).
    #[default]
    Cxa1999,
    /// CXA rules, 2011 edition (current Chinese practice).
    Cxa2011,
    /// Asian Xiangqi Federation rules (`wxf` is an alias).
    Axf,
}

/// An unknown profile name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset {0:?}; expected one of cxa1999, cxa2011, axf (alias wxf)")]
pub struct UnknownRuleset(pub String);

impl Ruleset {
    /// Every profile, default first.
    pub const ALL: [Ruleset; 3] = [Ruleset::Cxa1999, Ruleset::Cxa2011, Ruleset::Axf];

    /// The profile's name as used in requests and cases.
    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::Cxa1999 => "cxa1999",
            Ruleset::Cxa2011 => "cxa2011",
            Ruleset::Axf => "axf",
        }
    }

    /// One line describing the profile.
    pub const fn description(self) -> &'static str {
        match self {
            Ruleset::Cxa1999 => {
                "Chinese Xiangqi Association rules, 1999 edition (中国象棋竞赛规则1999): perpetual check, mate threats, chases and their mixtures are forbidden"
            }
            Ruleset::Cxa2011 => {
                "Chinese Xiangqi Association rules, 2011 edition: as 1999, with kings and pawns free to chase, protector/pinned-piece chases weighed by the exchange, and primary/secondary forbidden patterns when both sides offend"
            }
            Ruleset::Axf => {
                "Asian Xiangqi Federation rules (WXF 2018 improves on them): only perpetual check and perpetual chase of one piece are forbidden; mixed patterns and mate threats are allowed"
            }
        }
    }
}

impl FromStr for Ruleset {
    type Err = UnknownRuleset;
    fn from_str(s: &str) -> Result<Ruleset, UnknownRuleset> {
        match s.trim().to_ascii_lowercase().as_str() {
            "" | "cxa1999" | "cxa" | "1999" => Ok(Ruleset::Cxa1999),
            "cxa2011" | "2011" => Ok(Ruleset::Cxa2011),
            "axf" | "wxf" | "asian" => Ok(Ruleset::Axf),
            _ => Err(UnknownRuleset(s.to_string())),
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
