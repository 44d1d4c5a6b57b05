//! The names of the rule profiles (and of their books): what requests, cases and the API say.
//! Each name's reading is its profile (`profile/`).

use super::profile::{PROFILES, Profile};
use std::fmt;
use std::str::FromStr;

/// A rule profile's name (棋例规则), and the rule book it reads.
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
pub struct UnknownRuleset(pub String);

impl crate::lang::Words for UnknownRuleset {
    fn words(&self, lang: crate::lang::Lang) -> String {
        let name = &self.0;
        lang.pick(
            format!("未知的规则{name:?}；应为{}之一", names()),
            format!("unknown ruleset {name:?}; expected one of {}", names()),
        )
    }
}

crate::lang::english_display!(UnknownRuleset);

/// Every profile's name, with its alias: `cxa1999, cxa2011, axf (alias wxf)`.
fn names() -> String {
    let named: Vec<String> = PROFILES
        .iter()
        .map(|p| match p.alias {
            Some(a) => format!("{} (alias {a})", p.name),
            None => p.name.to_string(),
        })
        .collect();
    named.join(", ")
}

impl Ruleset {
    /// Every profile, default first (the order of `profile::PROFILES`).
    pub const ALL: [Ruleset; PROFILES.len()] = {
        let mut all = [Ruleset::Cxa1999; PROFILES.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = PROFILES[i].ruleset;
            i += 1;
        }
        all
    };

    /// The profile: how this book is read.
    pub const fn profile(self) -> &'static Profile {
        PROFILES[self as usize]
    }

    /// The profile's name as used in requests and cases.
    pub const fn name(self) -> &'static str {
        self.profile().name
    }

    /// One line describing the profile.
    pub const fn description(self) -> &'static str {
        self.profile().description
    }
}

impl FromStr for Ruleset {
    type Err = UnknownRuleset;
    fn from_str(s: &str) -> Result<Ruleset, UnknownRuleset> {
        let name = s.trim().to_ascii_lowercase();
        PROFILES
            .iter()
            .find(|p| {
                p.name == name || p.alias == Some(name.as_str()) || p.also.contains(&name.as_str())
            })
            .map(|p| p.ruleset)
            .ok_or_else(|| UnknownRuleset(s.to_string()))
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
