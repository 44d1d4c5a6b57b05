//! Reports of a corpus run for people and CI: the counts and their summary line, JUnit XML, and
//! GitHub Actions annotations.

use super::{CaseResult, Status};
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::writer::ElementWriter;
use std::fmt;

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

impl fmt::Display for Tally {
    /// `N passed, M failed`, then `, E errors` and `, K known differences` when there are any:
    /// one fixed form (even for 1), since CI and tests grep it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} passed, {} failed", self.passed, self.failed)?;
        if self.errors > 0 {
            write!(f, ", {} errors", self.errors)?;
        }
        match self.known_differences {
            0 => Ok(()),
            k => write!(f, ", {k} known differences"),
        }
    }
}

/// The one-line reason a case failed: what was expected and what came out (or the error).
fn failure_message(r: &CaseResult) -> String {
    match (&r.actual, &r.error) {
        (Some(a), _) => format!("expected {}; actual {a}", r.expected),
        (None, Some(e)) => format!("expected {}; cannot run: {e}", r.expected),
        (None, None) => format!("expected {}; no ruling", r.expected),
    }
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
                    .write_text_content(BytesText::new(
                        "a known difference that now passes; remove the mark",
                    ))
                    .map(|_| ())
            })?;
        }
        Status::Failed => {
            element.write_inner_content(|w| {
                w.create_element("failure")
                    .with_attribute(("message", failure_message(r).as_str()))
                    .with_attribute(("type", "mismatch"))
                    .write_text_content(BytesText::new(&r.to_string()))
                    .map(|_| ())
            })?;
        }
        Status::Error => {
            element.write_inner_content(|w| {
                w.create_element("error")
                    .with_attribute(("message", failure_message(r).as_str()))
                    .with_attribute(("type", "cannot run"))
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
        Status::NowPasses => (
            "warning",
            format!(
                "{}: a known difference that now passes; remove the mark",
                r.id
            ),
        ),
        Status::Passed | Status::KnownDifference => return None,
    };
    let mut details = message;
    for d in r.differences.iter().filter(|d| super::is_detail(d)) {
        details.push('\n');
        details.push_str(d);
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
