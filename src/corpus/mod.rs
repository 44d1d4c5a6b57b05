//! The regression corpus: cases in JSON Lines (the format is in README.md, "Cases"), read
//! strictly, and a runner that rules on each case and compares only the fields the case expects.
//!
//! ```
//! let line = r#"{"id":"x","fen":"","moves":["h2e2"],"expected":{"verdict":"no_repetition"}}"#;
//! let case = qili::corpus::parse_line(line).unwrap();
//! assert!(qili::corpus::run(&case).passed);
//! // The API's spellings are aliases of the case's own.
//! let api = r#"{"id":"y","moves":["h2e2"],"expected":{"verdict":"VERDICT_NO_REPETITION"}}"#;
//! assert!(qili::corpus::run(&qili::corpus::parse_line(api).unwrap()).passed);
//! // A misspelt key is an error, not a default.
//! let typo = r#"{"id":"x","rulset":"axf","moves":[],"expected":{"verdict":"draw"}}"#;
//! let err = qili::corpus::parse_line(typo).unwrap_err().to_string();
//! assert!(err.starts_with("unknown field `rulset`, expected one of `id`, `ruleset`"), "{err}");
//! ```

use crate::lang::Lang;
use crate::request::Request;
use crate::rules::{BySide, IdleKind, MoveKind, Options, Pattern, Ruleset, Ruling, Verdict};
use serde::{Deserialize, Deserializer};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

mod fault;
mod report;

pub use fault::{BadValue, CaseFault, CorpusError, JsonFault};
use fault::{forget_refused, refuse};
pub use report::{Difference, Tally, github_annotation, junit};

/// One case: a request and what its ruling must say. A key it does not know is an error, not a
/// default (`deny_unknown_fields` here, in [`Expected`] and in [`BySide`]).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
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
    #[serde(default, alias = "toldToChange")]
    pub told_to_change: BySide<bool>,
    /// Sides asserted to defend a key point (`{"black": true}`).
    #[serde(default, alias = "defensiveKeyPoint")]
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
    /// Why qili is known to rule otherwise (naming the `docs/rules.md` section): the case still
    /// runs, but a failure is reported apart and does not fail the run.
    #[serde(default, alias = "knownDifference")]
    pub known_difference: Option<String>,
    /// The file and line the case was read from (empty when parsed from a string).
    #[serde(skip)]
    pub origin: String,
}

/// The expected parts of a ruling: the verdict, and optionally the labels and the cycle's kinds.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// The verdict.
    #[serde(deserialize_with = "verdict_name")]
    pub verdict: Verdict,
    /// Red's label (the English name, or the Chinese term: `perpetual_chase` or `长捉`).
    #[serde(default, deserialize_with = "pattern_name")]
    pub red: Option<Pattern>,
    /// Black's label.
    #[serde(default, deserialize_with = "pattern_name")]
    pub black: Option<Pattern>,
    /// The kinds of the cycle's moves, in order.
    #[serde(default)]
    pub moves: Option<Vec<MoveLabel>>,
    /// How often the final position occurs (the ruling's `repetitions`).
    #[serde(default)]
    pub repetitions: Option<u32>,
    /// The index in `moves` of the cycle's first move (the ruling's `cycle_start`).
    #[serde(default, alias = "cycleStart")]
    pub cycle_start: Option<usize>,
}

/// An expected move kind: 将/杀/捉/闲, or an idle kind 兑/献/拦/跟 (which is 闲 showing that kind),
/// or the English names (`check`, `mate_threat`, `chase`, `idle`, `exchange`, …), or the API's
/// (`MOVE_KIND_CHASE`, `IDLE_KIND_EXCHANGE`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLabel {
    /// The kind the move must have.
    pub kind: MoveKind,
    /// For 兑/献/拦/跟: the idle kind the move must show.
    pub idle: Option<IdleKind>,
    /// The label as the case writes it.
    pub text: String,
}

impl MoveLabel {
    /// The label named `text`, Chinese or English.
    pub fn parse(text: &str) -> Option<MoveLabel> {
        let (kind, idle) = match text {
            "将" | "check" | "MOVE_KIND_CHECK" => (MoveKind::Check, None),
            "杀" | "mate_threat" | "MOVE_KIND_MATE_THREAT" => (MoveKind::MateThreat, None),
            "捉" | "chase" | "MOVE_KIND_CHASE" => (MoveKind::Chase, None),
            "闲" | "idle" | "MOVE_KIND_IDLE" => (MoveKind::Idle, None),
            "兑" | "exchange" | "IDLE_KIND_EXCHANGE" => (MoveKind::Idle, Some(IdleKind::Exchange)),
            "献" | "sacrifice" | "IDLE_KIND_SACRIFICE" => {
                (MoveKind::Idle, Some(IdleKind::Sacrifice))
            }
            "拦" | "block" | "IDLE_KIND_BLOCK" => (MoveKind::Idle, Some(IdleKind::Block)),
            "跟" | "follow" | "IDLE_KIND_FOLLOW" => (MoveKind::Idle, Some(IdleKind::Follow)),
            _ => return None,
        };
        Some(MoveLabel {
            kind,
            idle,
            text: text.to_string(),
        })
    }

    /// The label as the API spells it: `MOVE_KIND_CHASE`, or `IDLE_KIND_EXCHANGE` for 兑.
    pub fn api_name(&self) -> String {
        match self.idle {
            Some(k) => api_spelling("IDLE_KIND_", k.name()),
            None => api_spelling("MOVE_KIND_", self.kind.name()),
        }
    }

    /// Whether a move of `kind` showing `idle_kinds` has this label.
    pub fn matches(&self, kind: MoveKind, idle_kinds: &[IdleKind]) -> bool {
        kind == self.kind && self.idle.is_none_or(|k| idle_kinds.contains(&k))
    }
}

impl<'de> Deserialize<'de> for MoveLabel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<MoveLabel, D::Error> {
        let text = String::deserialize(d)?;
        MoveLabel::parse(&text).ok_or_else(|| refuse(BadValue::MoveLabel(text)))
    }
}

/// One move of the ruled cycle, in the terms a case compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActualMove {
    /// Index of the move in the case's moves.
    pub ply: usize,
    /// The move in Chinese notation.
    pub chinese: String,
    /// Its kind.
    pub kind: MoveKind,
    /// The idle kinds it shows.
    pub idle_kinds: Vec<IdleKind>,
}

/// What a ruling said, in the terms a case compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actual {
    /// The verdict.
    pub verdict: Verdict,
    /// Red's label.
    pub red: Pattern,
    /// Black's label.
    pub black: Pattern,
    /// The cycle's moves.
    pub moves: Vec<ActualMove>,
    /// How often the final position occurs.
    pub repetitions: u32,
    /// The index of the cycle's first move.
    pub cycle_start: usize,
}

/// How a case came out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every expected field matched.
    Passed,
    /// Something differs.
    Failed,
    /// The case cannot run: its request is refused (a bad FEN, an illegal move), so there is no
    /// ruling to compare. A broken case, not a wrong ruling (JUnit `<error>`).
    Error,
    /// It differs, as its `known_difference` says it does: not a failure of the run.
    KnownDifference,
    /// It is marked as a known difference but now passes: the mark should go.
    NowPasses,
}

/// The outcome of one case.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// The case's id.
    pub id: String,
    /// Where the case was read from (`file:line`).
    pub origin: String,
    /// Whether every expected field matched.
    pub passed: bool,
    /// Passed, failed, or one of the known-difference outcomes.
    pub status: Status,
    /// What the case expected.
    pub expected: Expected,
    /// What the ruling said, if there was one, in the terms the case compares.
    pub actual: Option<Actual>,
    /// The ruling, if there was one.
    pub ruling: Option<Ruling>,
    /// Why there was no ruling (the request's error).
    pub error: Option<crate::request::RequestError>,
    /// What differs (`ply 4 车九平八: expected 捉, got 闲`).
    pub differences: Vec<Difference>,
    /// The case's known difference, if it is marked with one.
    pub known_difference: Option<String>,
    /// Time spent ruling, in milliseconds.
    pub time_ms: f64,
}

fn ruleset_name<'de, D: Deserializer<'de>>(d: D) -> Result<Ruleset, D::Error> {
    let name = String::deserialize(d)?;
    name.parse().map_err(|e| refuse(BadValue::Ruleset(e)))
}

/// The case spelling of a value the API spells `PREFIX` + its name in capitals
/// (`VERDICT_RED_LOSES`: `red_loses`), so that a value pasted from an API answer reads as the
/// case's own; `None` if `text` is not spelt so.
fn from_api(text: &str, prefix: &str) -> Option<String> {
    let rest = text.strip_prefix(prefix)?;
    rest.bytes()
        .all(|b| b.is_ascii_uppercase() || b == b'_')
        .then(|| rest.to_ascii_lowercase())
}

/// The API's spelling of a value named `name` in the cases (`red_loses`: `VERDICT_RED_LOSES`).
pub(crate) fn api_spelling(prefix: &str, name: &str) -> String {
    format!("{prefix}{}", name.to_ascii_uppercase())
}

fn verdict_name<'de, D: Deserializer<'de>>(d: D) -> Result<Verdict, D::Error> {
    let name = String::deserialize(d)?;
    let own = from_api(&name, "VERDICT_");
    Verdict::from_name(own.as_deref().unwrap_or(&name))
        .ok_or_else(|| refuse(BadValue::Verdict(name)))
}

/// A side's label by its English name, its Chinese term or the API's name.
fn pattern_name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Pattern>, D::Error> {
    let name = String::deserialize(d)?;
    let own = from_api(&name, "PATTERN_");
    let own = own.as_deref().unwrap_or(&name);
    Pattern::ALL
        .into_iter()
        .find(|p| p.name() == own || p.chinese() == own)
        .map(Some)
        .ok_or_else(|| refuse(BadValue::Label(name)))
}

impl Case {
    /// What serde cannot check: values that are there but empty.
    fn check(&self) -> Result<(), CaseFault> {
        if self.id.is_empty() {
            return Err(CaseFault::EmptyId);
        }
        if self
            .known_difference
            .as_deref()
            .is_some_and(|s| s.trim().is_empty())
        {
            return Err(CaseFault::EmptyKnownDifference);
        }
        Ok(())
    }
}

/// Reads one case from a line of JSON; the error says what is wrong and where in the case
/// (`expected: unknown field `rde`, …`); the caller adds the file and line.
pub fn parse_line(line: &str) -> Result<Case, CaseFault> {
    forget_refused();
    let mut json = serde_json::Deserializer::from_str(line);
    let case: Case = serde_path_to_error::deserialize(&mut json).map_err(|e| {
        let path = e.path().to_string();
        let (reason, column) = json_error(e.inner());
        // An unknown key's path ends with the key, which the message names already.
        let path = match &reason {
            JsonFault::UnknownKey { key, .. } => path
                .strip_suffix(key.as_str())
                .map_or(path.as_str(), |parent| parent.trim_end_matches('.')),
            _ => path.as_str(),
        };
        let path = if path == "." { "" } else { path }.to_string();
        CaseFault::Json {
            path,
            reason,
            column,
        }
    })?;
    json.end().map_err(|e| {
        let (reason, column) = json_error(&e);
        CaseFault::Json {
            path: String::new(),
            reason,
            column,
        }
    })?;
    case.check()?;
    Ok(case)
}

/// serde's reason and the column it stopped at (a case is one line; the caller names the line).
fn json_error(e: &serde_json::Error) -> (JsonFault, Option<usize>) {
    let text = e.to_string();
    let (words, column) = match text.rsplit_once(" at line 1 column ") {
        Some((words, column)) => (words.to_string(), column.parse().ok()),
        None => (text, None),
    };
    (JsonFault::of(e, words), column)
}

/// Reads the cases of a `.jsonl` file, or of every `.jsonl` file under a folder (sorted by path).
/// Ids must be unique.
pub fn load(path: &Path) -> Result<Vec<Case>, CorpusError> {
    let cases = load_unchecked(path)?;
    check_unique(&cases)?;
    Ok(cases)
}

/// Reads the cases of every path (files or folders) in turn; ids must be unique across them all.
pub fn load_all(paths: &[PathBuf]) -> Result<Vec<Case>, CorpusError> {
    let mut cases = Vec::new();
    for path in paths {
        cases.extend(load_unchecked(path)?);
    }
    check_unique(&cases)?;
    Ok(cases)
}

fn load_unchecked(path: &Path) -> Result<Vec<Case>, CorpusError> {
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

fn check_unique(cases: &[Case]) -> Result<(), CorpusError> {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for case in cases {
        if let Some(first) = seen.insert(&case.id, &case.origin) {
            return Err(CorpusError::DuplicateId {
                id: case.id.clone(),
                first: first.to_string(),
                second: case.origin.clone(),
            });
        }
    }
    Ok(())
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
    let bad = |line, fault| CorpusError::Case {
        path: path.to_path_buf(),
        line,
        fault: Box::new(fault),
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
        bad(line, CaseFault::NotUtf8(e.utf8_error()))
    })?;
    // A byte-order mark, as some Windows editors write, is not part of the first case.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        if line.trim().is_empty() {
            continue;
        }
        let mut case = parse_line(line).map_err(|e| bad(line_no, e))?;
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
            moves: self.moves.iter().collect(),
            notation: None,
            options: Options {
                ruleset: self.ruleset,
                told_to_change: self.told_to_change,
                defensive_key_point: self.defensive_key_point,
                ..Options::default()
            },
        }
    }

    /// The file and line of the case (`None` when it was not read from a file).
    pub fn file_and_line(&self) -> Option<(&str, usize)> {
        let (file, line) = self.origin.rsplit_once(':')?;
        Some((file, line.parse().ok()?))
    }
}

/// Rules on `case` and compares the fields it expects.
pub fn run(case: &Case) -> CaseResult {
    let started = Instant::now();
    let ruling = crate::request::adjudicate(&case.request());
    let time_ms = started.elapsed().as_secs_f64() * 1000.0;
    let (actual, ruling, error) = match ruling {
        Ok(r) => (
            Some(Actual {
                verdict: r.verdict,
                red: r.red.pattern,
                black: r.black.pattern,
                repetitions: r.repetitions,
                cycle_start: r.cycle_start,
                moves: r
                    .moves
                    .iter()
                    .map(|m| ActualMove {
                        ply: m.ply,
                        chinese: m.chinese.clone(),
                        kind: m.kind,
                        idle_kinds: m.idle_kinds.clone(),
                    })
                    .collect(),
            }),
            Some(r),
            None,
        ),
        Err(e) => (None, None, Some(e)),
    };
    let differences = match &actual {
        Some(a) => differences(&case.expected, a),
        None => Vec::new(),
    };
    let passed = actual.is_some() && differences.is_empty();
    let status = match (passed, case.known_difference.is_some()) {
        _ if actual.is_none() => Status::Error,
        (true, false) => Status::Passed,
        (false, false) => Status::Failed,
        (false, true) => Status::KnownDifference,
        (true, true) => Status::NowPasses,
    };
    CaseResult {
        id: case.id.clone(),
        origin: case.origin.clone(),
        passed,
        status,
        expected: case.expected.clone(),
        actual,
        ruling,
        error,
        differences,
        known_difference: case.known_difference.clone(),
        time_ms,
    }
}

/// Rules on `case` `times` times in a row (at least once) and compares the first ruling's fields
/// as [`run`] does; its `time_ms` is the mean over the rulings, as a benchmark's loop times a
/// function (the caches warm after the first).
pub fn run_repeated(case: &Case, times: std::num::NonZeroU32) -> CaseResult {
    let mut result = run(case);
    let more = times.get() - 1;
    if more > 0 {
        let started = Instant::now();
        for _ in 0..more {
            std::hint::black_box(crate::request::adjudicate(&case.request())).ok();
        }
        let rest = started.elapsed().as_secs_f64() * 1000.0;
        result.time_ms = (result.time_ms + rest) / f64::from(times.get());
    }
    result
}

/// Every way `actual` departs from `expected`: the verdict, the labels, then move by move.
fn differences(expected: &Expected, actual: &Actual) -> Vec<Difference> {
    let mut out = Vec::new();
    if expected.verdict != actual.verdict {
        out.push(Difference::Verdict {
            expected: expected.verdict,
            got: actual.verdict,
        });
    }
    for (side, want, got) in [
        (crate::Color::Red, expected.red, actual.red),
        (crate::Color::Black, expected.black, actual.black),
    ] {
        if let Some(want) = want
            && want != got
        {
            out.push(Difference::Label {
                side,
                expected: want,
                got,
            });
        }
    }
    for (field, want, got) in [
        (
            "repetitions",
            expected.repetitions.map(|n| n as usize),
            actual.repetitions as usize,
        ),
        ("cycle_start", expected.cycle_start, actual.cycle_start),
    ] {
        if let Some(want) = want
            && want != got
        {
            out.push(Difference::Count {
                field,
                expected: want,
                got,
            });
        }
    }
    if let Some(labels) = &expected.moves {
        if labels.len() != actual.moves.len() {
            out.push(Difference::MoveCount {
                labels: labels.len(),
                moves: actual.moves.len(),
            });
        } else {
            for (label, m) in labels.iter().zip(&actual.moves) {
                if !label.matches(m.kind, &m.idle_kinds) {
                    out.push(Difference::Move {
                        ply: m.ply,
                        chinese: m.chinese.clone(),
                        expected: label.text.clone(),
                        got: describe(m, &label.text),
                    });
                }
            }
        }
    }
    out
}

/// A move's kind and idle kinds in the words of the case's `label`: `闲(兑)`, `idle(exchange)`
/// or `MOVE_KIND_IDLE(IDLE_KIND_EXCHANGE)`.
fn describe(m: &ActualMove, label: &str) -> String {
    let api = label.starts_with("MOVE_KIND_") || label.starts_with("IDLE_KIND_");
    let say = |prefix: &str, name: &str, chinese: &str| {
        if api {
            api_spelling(prefix, name)
        } else if label.is_ascii() {
            name.to_string()
        } else {
            chinese.to_string()
        }
    };
    let kind = say("MOVE_KIND_", m.kind.name(), m.kind.chinese());
    if m.idle_kinds.is_empty() {
        return kind;
    }
    let idle: Vec<String> = m
        .idle_kinds
        .iter()
        .map(|k| say("IDLE_KIND_", k.name(), k.chinese()))
        .collect();
    format!("{kind}({})", idle.join(","))
}

impl Expected {
    /// `verdict=red_loses red=perpetual_chase …`, the fields the case pins; in Chinese the labels
    /// by their Chinese terms (`red=长捉`), the keys and the verdict as the case spells them.
    pub fn said(&self, lang: Lang) -> String {
        let mut out = format!("verdict={}", self.verdict.name());
        for (key, pattern) in [("red", self.red), ("black", self.black)] {
            if let Some(p) = pattern {
                out.push_str(&format!(" {key}={}", pattern_said(p, lang)));
            }
        }
        if let Some(labels) = &self.moves {
            let texts: Vec<&str> = labels.iter().map(|l| l.text.as_str()).collect();
            out.push_str(&format!(" moves={}", texts.join(",")));
        }
        if let Some(n) = self.repetitions {
            out.push_str(&format!(" repetitions={n}"));
        }
        if let Some(n) = self.cycle_start {
            out.push_str(&format!(" cycle_start={n}"));
        }
        out
    }
}

impl Actual {
    /// `verdict=draw red=idle black=idle`, in Chinese with the labels' Chinese terms.
    pub fn said(&self, lang: Lang) -> String {
        format!(
            "verdict={} red={} black={}",
            self.verdict.name(),
            pattern_said(self.red, lang),
            pattern_said(self.black, lang)
        )
    }
}

/// A label's name as a case writes it: `perpetual_chase`, in Chinese `长捉`.
pub(crate) fn pattern_said(p: Pattern, lang: Lang) -> &'static str {
    lang.pick(p.chinese(), p.name())
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.said(Lang::En))
    }
}

impl fmt::Display for Actual {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.said(Lang::En))
    }
}
