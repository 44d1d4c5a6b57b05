//! Reports of a corpus run for people and CI: the counts and their summary line, JUnit XML, and
//! GitHub Actions annotations.

use super::{CaseResult, Status, pattern_said};
use crate::Color;
use crate::lang::{Lang, Words, english_display};
use crate::rules::{Pattern, Verdict};
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::writer::ElementWriter;

/// The counts of a run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases that matched (known differences that now pass included).
    pub passed: usize,
    /// Cases that did not match and are not marked as known differences.
    pub failed: usize,
    /// Cases that cannot run (their request is refused): broken cases, failing the run too.
    pub errors: usize,
    /// Marked cases that still differ: reported apart, not failures.
    pub known_differences: usize,
    /// Marked cases that now pass: their mark should go.
    pub now_passing: usize,
}

impl Tally {
    /// Counts `results`.
    pub fn of<'a>(results: impl IntoIterator<Item = &'a CaseResult>) -> Tally {
        let mut t = Tally::default();
        for r in results {
            match r.status {
                Status::Passed => t.passed += 1,
                Status::Failed => t.failed += 1,
                Status::Error => t.errors += 1,
                Status::KnownDifference => t.known_differences += 1,
                Status::NowPasses => {
                    t.passed += 1;
                    t.now_passing += 1;
                }
            }
        }
        t
    }
}

impl Words for Tally {
    /// `N passed, M failed`, then `, E errors` and `, K known differences` when there are any:
    /// one fixed form (even for 1), since CI and tests grep it; in Chinese `通过N个，未通过M个` ….
    fn words(&self, lang: Lang) -> String {
        let (passed, failed) = (self.passed, self.failed);
        let mut out = match lang {
            Lang::En => format!("{passed} passed, {failed} failed"),
            Lang::Zh => format!("通过{passed}个，未通过{failed}个"),
        };
        if self.errors > 0 {
            out.push_str(&lang.pick(
                format!("，无法运行{}个", self.errors),
                format!(", {} errors", self.errors),
            ));
        }
        if self.known_differences > 0 {
            let k = self.known_differences;
            out.push_str(&lang.pick(
                format!("，已知差异{k}个"),
                format!(", {k} known differences"),
            ));
        }
        out
    }
}

/// One way a ruling departs from what its case expects (与预期不符之处).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// The verdict.
    Verdict {
        /// The case's.
        expected: Verdict,
        /// The ruling's.
        got: Verdict,
    },
    /// A side's label.
    Label {
        /// The side.
        side: Color,
        /// The case's.
        expected: Pattern,
        /// The ruling's.
        got: Pattern,
    },
    /// `repetitions` or `cycle_start`.
    Count {
        /// The key.
        field: &'static str,
        /// The case's.
        expected: usize,
        /// The ruling's.
        got: usize,
    },
    /// The number of move labels against the cycle's length.
    MoveCount {
        /// The case's labels.
        labels: usize,
        /// The cycle's moves.
        moves: usize,
    },
    /// A move's kind.
    Move {
        /// The index of the move in the case's moves.
        ply: usize,
        /// The move in Chinese notation.
        chinese: String,
        /// The label as the case writes it.
        expected: String,
        /// The move's kind in the label's spelling.
        got: String,
    },
}

impl Difference {
    /// Whether the summaries (`expected …; actual …`) do not show it: about the moves, the
    /// repetitions or the cycle's start; the verdict and labels are in the summaries.
    pub fn is_detail(&self) -> bool {
        !matches!(self, Difference::Verdict { .. } | Difference::Label { .. })
    }
}

impl Words for Difference {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (Difference::Verdict { expected, got }, Lang::En) => {
                format!("verdict: expected {}, got {}", expected.name(), got.name())
            }
            (Difference::Verdict { expected, got }, Lang::Zh) => {
                format!("verdict：应为{}，实为{}", expected.name(), got.name())
            }
            (
                Difference::Label {
                    side,
                    expected,
                    got,
                },
                lang,
            ) => match lang {
                Lang::En => format!(
                    "{}: expected {}, got {}",
                    side.name(),
                    expected.name(),
                    got.name()
                ),
                Lang::Zh => format!(
                    "{}：应为{}，实为{}",
                    crate::lang::side_zh(*side),
                    pattern_said(*expected, lang),
                    pattern_said(*got, lang)
                ),
            },
            (
                Difference::Count {
                    field,
                    expected,
                    got,
                },
                lang,
            ) => lang.pick(
                format!("{field}：应为{expected}，实为{got}"),
                format!("{field}: expected {expected}, got {got}"),
            ),
            (Difference::MoveCount { labels, moves }, lang) => lang.pick(
                format!("moves：应有{labels}个标记，但循环有{moves}着"),
                format!("moves: expected {labels} labels, but the cycle has {moves} moves"),
            ),
            (
                Difference::Move {
                    ply,
                    chinese,
                    expected,
                    got,
                },
                lang,
            ) => lang.pick(
                format!("moves[{ply}] {chinese}：应为{expected}，实为{got}"),
                format!("ply {ply} {chinese}: expected {expected}, got {got}"),
            ),
        }
    }
}

impl Words for CaseResult {
    /// `PASS id`, or `FAIL id (file:line): expected …; actual …` (or the error) with each move
    /// that differs on a line of its own; `KNOWN` and `NOW PASSES` for marked cases. In Chinese
    /// 通过, 未通过, 出错, 已知差异 and 已知差异现已通过.
    fn words(&self, lang: Lang) -> String {
        let status = match (self.status, lang) {
            (Status::Passed, Lang::En) => "PASS",
            (Status::Failed, Lang::En) => "FAIL",
            (Status::Error, Lang::En) => "ERROR",
            (Status::KnownDifference, Lang::En) => "KNOWN",
            (Status::NowPasses, Lang::En) => "NOW PASSES",
            (Status::Passed, Lang::Zh) => "通过",
            (Status::Failed, Lang::Zh) => "未通过",
            (Status::Error, Lang::Zh) => "出错",
            (Status::KnownDifference, Lang::Zh) => "已知差异",
            (Status::NowPasses, Lang::Zh) => "已知差异现已通过",
        };
        let colon = lang.pick("：", ": ");
        let mut out = format!("{status} {}", self.id);
        if !self.origin.is_empty() {
            out.push_str(&format!(" ({})", self.origin));
        }
        if self.status == Status::NowPasses {
            out.push_str(&format!("{colon}{}", now_passes(lang)));
        }
        if !self.passed {
            out.push_str(&format!("{colon}{}", summary(self, lang)));
            for d in self.differences.iter().filter(|d| d.is_detail()) {
                out.push_str(&format!("\n  {}", d.words(lang)));
            }
        }
        if let (Status::KnownDifference, Some(why)) = (self.status, &self.known_difference) {
            let known = lang.pick("已知差异：", "known difference: ");
            out.push_str(&format!("\n  {known}{why}"));
        }
        out
    }
}

english_display!(CaseResult, Tally, Difference);

/// What a marked case that now passes is told.
fn now_passes(lang: Lang) -> &'static str {
    lang.pick(
        "已知差异现已通过；请去掉该标记",
        "a known difference that now passes; remove the mark",
    )
}

/// The one-line reason a case failed: what was expected and what came out (or the error).
fn summary(r: &CaseResult, lang: Lang) -> String {
    let expected = r.expected.said(lang);
    let outcome = match (&r.actual, &r.error, lang) {
        (Some(a), _, Lang::En) => format!("actual {}", a.said(lang)),
        (Some(a), _, Lang::Zh) => format!("实为 {}", a.said(lang)),
        (None, Some(e), Lang::En) => format!("cannot run: {}", e.words(lang)),
        (None, Some(e), Lang::Zh) => format!("无法运行：{}", e.words(lang)),
        (None, None, lang) => lang.pick("没有裁决", "no ruling").to_string(),
    };
    lang.pick(
        format!("应为 {expected}；{outcome}"),
        format!("expected {expected}; {outcome}"),
    )
}

/// The one-line reason a case failed, in English (JUnit and the annotations are for CI).
fn failure_message(r: &CaseResult) -> String {
    summary(r, Lang::En)
}

/// The file a case came from (`cases/axf.jsonl`), for grouping; empty if parsed from a string.
fn file_of(r: &CaseResult) -> &str {
    r.origin
        .rsplit_once(':')
        .map_or(r.origin.as_str(), |(file, _)| file)
}

fn line_of(r: &CaseResult) -> Option<&str> {
    r.origin.rsplit_once(':').map(|(_, line)| line)
}

/// The run as JUnit XML: a `testsuite` per file, a `testcase` per case (with its file, line and
/// time), a `failure` naming what was expected and what came out, an `error` for a case that
/// cannot run (why its request was refused), and a `skipped` with the reason for a known
/// difference.
pub fn junit(results: &[CaseResult]) -> String {
    let mut files: Vec<&str> = Vec::new();
    for r in results {
        if !files.contains(&file_of(r)) {
            files.push(file_of(r));
        }
    }
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    let written: std::io::Result<()> = (|| {
        w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
        let all: Vec<&CaseResult> = results.iter().collect();
        with_counts(w.create_element("testsuites"), "qili cases", &all).write_inner_content(
            |w| {
                for file in &files {
                    let cases: Vec<&CaseResult> =
                        results.iter().filter(|r| file_of(r) == *file).collect();
                    with_counts(w.create_element("testsuite"), file, &cases).write_inner_content(
                        |w| {
                            for r in &cases {
                                testcase(w, r)?;
                            }
                            Ok(())
                        },
                    )?;
                }
                Ok(())
            },
        )?;
        Ok(())
    })();
    // Writing into a Vec cannot fail.
    debug_assert!(written.is_ok());
    let mut text = String::from_utf8_lossy(&w.into_inner()).into_owned();
    text.push('\n');
    text
}

/// Seconds, as JUnit writes times.
fn seconds(ms: f64) -> String {
    format!("{:.6}", ms / 1000.0)
}

/// A `testsuites` or `testsuite` element with its name, counts and time.
fn with_counts<'a>(
    element: ElementWriter<'a, Vec<u8>>,
    name: &str,
    cases: &[&CaseResult],
) -> ElementWriter<'a, Vec<u8>> {
    let t = Tally::of(cases.iter().copied());
    let ms: f64 = cases.iter().map(|r| r.time_ms).sum();
    element
        .with_attribute(("name", name))
        .with_attribute(("tests", cases.len().to_string().as_str()))
        .with_attribute(("failures", t.failed.to_string().as_str()))
        .with_attribute(("skipped", t.known_differences.to_string().as_str()))
        .with_attribute(("errors", t.errors.to_string().as_str()))
        .with_attribute(("time", seconds(ms).as_str()))
}

fn testcase(w: &mut Writer<Vec<u8>>, r: &CaseResult) -> std::io::Result<()> {
    let mut element = w
        .create_element("testcase")
        .with_attribute(("name", r.id.as_str()))
        .with_attribute(("classname", file_of(r)))
        .with_attribute(("time", seconds(r.time_ms).as_str()));
    if !r.origin.is_empty() {
        element = element.with_attribute(("file", file_of(r)));
    }
    if let Some(line) = line_of(r) {
        element = element.with_attribute(("line", line));
    }
    match r.status {
        Status::Passed => {
            element.write_empty()?;
        }
        Status::NowPasses => {
            element.write_inner_content(|w| {
                w.create_element("system-out")
                    .write_text_content(BytesText::new(now_passes(Lang::En)))
                    .map(|_| ())
            })?;
        }
        Status::Failed | Status::Error => {
            // A wrong ruling is a JUnit failure; a case that cannot run, an error.
            let (tag, kind) = match r.status {
                Status::Failed => ("failure", "mismatch"),
                _ => ("error", "cannot run"),
            };
            element.write_inner_content(|w| {
                w.create_element(tag)
                    .with_attribute(("message", failure_message(r).as_str()))
                    .with_attribute(("type", kind))
                    .write_text_content(BytesText::new(&r.to_string()))
                    .map(|_| ())
            })?;
        }
        Status::KnownDifference => {
            let why = r.known_difference.as_deref().unwrap_or_default();
            element.write_inner_content(|w| {
                w.create_element("skipped")
                    .with_attribute(("message", format!("known difference: {why}").as_str()))
                    .write_text_content(BytesText::new(&r.to_string()))
                    .map(|_| ())
            })?;
        }
    }
    Ok(())
}

/// A GitHub Actions workflow command for a failed case (`::error file=…,line=…,title=…::…`) or for
/// a known difference that now passes (`::warning …`); `None` for the others.
pub fn github_annotation(r: &CaseResult) -> Option<String> {
    let (level, message) = match r.status {
        Status::Failed | Status::Error => ("error", format!("{}: {}", r.id, failure_message(r))),
        Status::NowPasses => ("warning", format!("{}: {}", r.id, now_passes(Lang::En))),
        Status::Passed | Status::KnownDifference => return None,
    };
    let mut details = message;
    for d in r.differences.iter().filter(|d| d.is_detail()) {
        details.push('\n');
        details.push_str(&d.to_string());
    }
    let mut properties = Vec::new();
    if !r.origin.is_empty() {
        properties.push(format!("file={}", escape_property(file_of(r))));
    }
    if let Some(line) = line_of(r) {
        properties.push(format!("line={}", escape_property(line)));
    }
    properties.push(format!("title={}", escape_property(&r.id)));
    Some(format!(
        "::{level} {}::{}",
        properties.join(","),
        escape_data(&details)
    ))
}

/// The escaping GitHub's workflow commands use for the message.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// The escaping for a property value (`file=…`), which also may not hold `:` or `,`.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}
