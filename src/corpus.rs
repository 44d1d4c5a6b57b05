//! The regression corpus (SPEC §7): cases in JSON Lines, and a runner that rules on each case and
//! compares only the fields the case expects.
//!
//! ```
//! let line = r#"{"id":"x","fen":"","moves":["h2e2"],"expected":{"verdict":"no_repetition"}}"#;
//! let case = qili::corpus::parse_line(line).unwrap();
//! assert!(qili::corpus::run(&case).passed);
//! ```

use crate::rules::{self, BySide, Options, Pattern, Request, Ruleset, Verdict};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// One case: a request and what its ruling must say.
#[derive(Clone, Debug, Deserialize)]
pub struct Case {
    /// Unique name of the case.
    pub id: String,
    /// Rule profile (default `cxa1999`).
    #[serde(default, deserialize_with = "ruleset_name")]
    pub ruleset: Ruleset,
    /// Start position in FEN (empty: the opening position).
    #[serde(default)]
    pub fen: String,
    /// The moves (ICCS; other notations are detected too).
    pub moves: Vec<String>,
    /// What the ruling must say.
    pub expected: Expected,
    /// Sides already told to change (`{"red": true}`).
    #[serde(default)]
    pub told_to_change: BySide<bool>,
    /// Sides asserted to defend a key point (`{"black": true}`).
    #[serde(default)]
    pub defensive_key_point: BySide<bool>,
    /// The article the case illustrates.
    #[serde(default)]
    pub article: Option<String>,
    /// Where the case comes from.
    #[serde(default)]
    pub source: Option<String>,
    /// A note for readers.
    #[serde(default)]
    pub note: Option<String>,
    /// The file and line the case was read from (empty when parsed from a string).
    #[serde(skip)]
    pub origin: String,
}

/// The expected parts of a ruling; absent fields are not compared.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// The verdict.
    #[serde(
        default,
        deserialize_with = "verdict_name",
        skip_serializing_if = "Option::is_none"
    )]
    pub verdict: Option<Verdict>,
    /// Red's label.
    #[serde(
        default,
        deserialize_with = "pattern_name",
        skip_serializing_if = "Option::is_none"
    )]
    pub red: Option<Pattern>,
    /// Black's label.
    #[serde(
        default,
        deserialize_with = "pattern_name",
        skip_serializing_if = "Option::is_none"
    )]
    pub black: Option<Pattern>,
}

/// What a ruling said, in the terms a case compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Actual {
    /// The verdict.
    pub verdict: Verdict,
    /// Red's label.
    pub red: Pattern,
    /// Black's label.
    pub black: Pattern,
}

/// The outcome of one case.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// The case's id.
    pub id: String,
    /// Where the case was read from (`file:line`).
    pub origin: String,
    /// Whether every expected field matched.
    pub passed: bool,
    /// What the case expected.
    pub expected: Expected,
    /// What the ruling said, if there was one.
    pub actual: Option<Actual>,
    /// Why there was no ruling (the request's error).
    pub error: Option<String>,
}

/// Why a corpus could not be read: names the file, and the line for a bad case.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// The file or folder cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a valid case.
    #[error("{path}:{line}: {message}")]
    Case {
        /// The file.
        path: PathBuf,
        /// The line number (1-based).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

fn ruleset_name<'de, D: Deserializer<'de>>(d: D) -> Result<Ruleset, D::Error> {
    let name = String::deserialize(d)?;
    name.parse().map_err(serde::de::Error::custom)
}

fn verdict_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Verdict>, D::Error> {
    let name = String::deserialize(d)?;
    Verdict::from_name(&name)
        .map(Some)
        .ok_or_else(|| serde::de::Error::custom(format!("unknown verdict {name:?}")))
}

fn pattern_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Pattern>, D::Error> {
    let name = String::deserialize(d)?;
    Pattern::from_name(&name)
        .map(Some)
        .ok_or_else(|| serde::de::Error::custom(format!("unknown label {name:?}")))
}

/// Reads one case from a line of JSON.
pub fn parse_line(line: &str) -> Result<Case, serde_json::Error> {
    serde_json::from_str(line)
}

/// Reads the cases of a `.jsonl` file, or of every `.jsonl` file under a folder (sorted by path).
pub fn load(path: &Path) -> Result<Vec<Case>, CorpusError> {
    let io = |source| CorpusError::Io {
        path: path.to_path_buf(),
        source,
    };
    if path.is_dir() {
        let mut files = Vec::new();
        collect_jsonl(path, &mut files)?;
        files.sort();
        let mut cases = Vec::new();
        for file in files {
            cases.extend(load_file(&file)?);
        }
        Ok(cases)
    } else {
        std::fs::metadata(path).map_err(io)?;
        load_file(path)
    }
}

fn collect_jsonl(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), CorpusError> {
    let io = |source| CorpusError::Io {
        path: dir.to_path_buf(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.is_dir() {
            collect_jsonl(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            out.push(path);
        }
    }
    Ok(())
}

fn load_file(path: &Path) -> Result<Vec<Case>, CorpusError> {
    let bytes = std::fs::read(path).map_err(|source| CorpusError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let bad = |line, message| CorpusError::Case {
        path: path.to_path_buf(),
        line,
        message,
    };
    let text = String::from_utf8(bytes).map_err(|e| bad(0, format!("not UTF-8: {e}")))?;
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        if line.trim().is_empty() {
            continue;
        }
        let mut case = parse_line(line).map_err(|e| bad(line_no, e.to_string()))?;
        case.origin = format!("{}:{line_no}", path.display());
        cases.push(case);
    }
    Ok(cases)
}

impl Case {
    /// The ruling request the case describes.
    pub fn request(&self) -> Request {
        Request {
            fen: self.fen.clone(),
            moves: self.moves.clone(),
            notation: None,
            options: Options {
                ruleset: self.ruleset,
                told_to_change: self.told_to_change,
                defensive_key_point: self.defensive_key_point,
                ..Options::default()
            },
        }
    }
}

/// Rules on `case` and compares the fields it expects.
pub fn run(case: &Case) -> CaseResult {
    let (actual, error) = match rules::adjudicate(&case.request()) {
        Ok(r) => (
            Some(Actual {
                verdict: r.verdict,
                red: r.red.pattern,
                black: r.black.pattern,
            }),
            None,
        ),
        Err(e) => (None, Some(e.to_string())),
    };
    let e = &case.expected;
    let passed = actual.is_some_and(|a| {
        e.verdict.is_none_or(|v| v == a.verdict)
            && e.red.is_none_or(|p| p == a.red)
            && e.black.is_none_or(|p| p == a.black)
    });
    CaseResult {
        id: case.id.clone(),
        origin: case.origin.clone(),
        passed,
        expected: case.expected.clone(),
        actual,
        error,
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(v) = self.verdict {
            parts.push(format!("verdict={}", v.name()));
        }
        if let Some(p) = self.red {
            parts.push(format!("red={}", p.name()));
        }
        if let Some(p) = self.black {
            parts.push(format!("black={}", p.name()));
        }
        f.write_str(&parts.join(" "))
    }
}

impl fmt::Display for Actual {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "verdict={} red={} black={}",
            self.verdict.name(),
            self.red.name(),
            self.black.name()
        )
    }
}

impl fmt::Display for CaseResult {
    /// `PASS id` or `FAIL id (file:line): expected …; actual …` (or the error).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = if self.passed { "PASS" } else { "FAIL" };
        write!(f, "{status} {}", self.id)?;
        if !self.origin.is_empty() {
            write!(f, " ({})", self.origin)?;
        }
        if !self.passed {
            write!(f, ": expected {}; ", self.expected)?;
            match (&self.actual, &self.error) {
                (Some(a), _) => write!(f, "actual {a}")?,
                (None, Some(e)) => write!(f, "error {e}")?,
                (None, None) => f.write_str("no ruling")?,
            }
        }
        Ok(())
    }
}
