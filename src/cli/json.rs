//! The command line's one JSON dialect, the JSON API's (README, "JSON output"): a ruling or an
//! analysis is the API's message in the proto3 JSON mapping, as `POST /v1/adjudicate` answers
//! it; what a command puts around it (a record's game, a case's outcome) is spelt the same way:
//! lowerCamelCase keys, enum values by their proto names (`VERDICT_RED_LOSES`,
//! `CASE_STATUS_PASSED`), a field without a value left out.

use clap::ValueEnum;
use qili::rules::Ruling;
use qili::service::convert::{self, Wanted};
use qili::service::pb;
use serde::Serialize;

/// How much of each ruling a command's JSON carries, or `qili load` asks for: the API's
/// `Detail`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DetailArg {
    /// Everything (DETAIL_FULL): each move's targets, lines, searches and notes, the articles'
    /// texts, the explanation.
    Full,
    /// The patterns, each move's notation and kind, the articles' ids (DETAIL_SUMMARY).
    Summary,
    /// The verdict, the repetitions and the cycle only (DETAIL_VERDICT).
    Verdict,
}

impl DetailArg {
    /// The API's detail.
    pub fn pb(self) -> pb::Detail {
        match self {
            DetailArg::Full => pb::Detail::Full,
            DetailArg::Summary => pb::Detail::Summary,
            DetailArg::Verdict => pb::Detail::Verdict,
        }
    }

    /// What the API's `detail` and `language` would ask: every move whole at full detail (the
    /// command line does not abridge long cycles as the service does).
    pub fn wanted(self, language: pb::Language) -> Wanted {
        Wanted {
            detail: self.pb(),
            ..Wanted::full(language)
        }
    }
}

/// The API's ruling for `r`, as much of it as `wanted` asks.
pub fn ruling(r: Ruling, wanted: Wanted) -> pb::Ruling {
    convert::reply(r, String::new(), wanted)
}

/// `value` on one line.
pub fn line<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| format!("cannot write JSON: {e}"))
}

/// `value` indented, a field a line.
pub fn pretty<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value).map_err(|e| format!("cannot write JSON: {e}"))
}
