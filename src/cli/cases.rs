//! `qili cases`: runs ruling corpora (README.md, "Cases") and reports each failure.

use super::Said;
use super::json::{self, DetailArg};
use super::render::LangArg;
use clap::Args;
use qili::corpus::{self, CaseResult, Expected, Status, Tally};
use qili::lang::{Lang, Words};
use qili::service::convert::{self, Wanted};
use qili::service::pb;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `qili cases`.
#[derive(Args)]
pub struct CasesArgs {
    /// `.jsonl` files, or folders searched for them.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print one JSON object with every result (and its time) and the counts instead of text
    /// (README, "JSON output").
    #[arg(long)]
    json: bool,
    /// How much of each ruling `--json` carries, as the API's `detail` (texts in both
    /// languages at full detail).
    #[arg(long, value_enum, default_value_t = DetailArg::Full, requires = "json")]
    detail: DetailArg,
    /// Also write the results as JUnit XML to FILE (one testcase per case).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Run only the cases whose id contains PATTERN, a plain substring (repeat for several).
    #[arg(long, value_name = "PATTERN")]
    filter: Vec<String>,
    /// Rule each case N times in a row and report the mean time of the N rulings (`timeMs`), as
    /// a benchmark's loop does (the first ruling is the one compared and printed).
    #[arg(long, value_name = "N", default_value = "1")]
    repeat: std::num::NonZeroU32,
    /// Succeed when no case is selected (by default an empty selection is an error, exit 2).
    #[arg(long)]
    allow_empty: bool,
    /// Language of the report and the errors (both: each line in Chinese, then in English).
    /// English by default, as CI reads it; `--json`, the JUnit XML and the GitHub annotations
    /// stay English.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub(super) lang: LangArg,
}

/// `--json`: the counts and every result.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Report<'a> {
    passed: usize,
    failed: usize,
    errors: usize,
    known_differences: usize,
    now_passing: usize,
    results: Vec<ResultJson<'a>>,
}

/// A case's outcome in `--json`: `actual` is the API's `Ruling` (left out when the case cannot
/// run: `error` says why), `expected` the case's expectation in the API's spellings.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultJson<'a> {
    id: &'a str,
    origin: &'a str,
    passed: bool,
    status: &'static str,
    expected: ExpectedJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    actual: Option<pb::Ruling>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    differences: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    known_difference: Option<&'a str>,
    time_ms: f64,
}

/// What a case expects, spelt as the API spells a ruling (`VERDICT_RED_LOSES`,
/// `PATTERN_PERPETUAL_CHASE`, `MOVE_KIND_CHASE`; `IDLE_KIND_EXCHANGE` for 兑), the fields it
/// does not pin left out.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ExpectedJson {
    verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    red: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    black: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    repetitions: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cycle_start: Option<usize>,
}

impl ExpectedJson {
    fn of(e: &Expected) -> ExpectedJson {
        let pattern = |p| convert::pattern(p).as_str_name();
        ExpectedJson {
            verdict: convert::verdict(e.verdict).as_str_name(),
            red: e.red.map(pattern),
            black: e.black.map(pattern),
            moves: e
                .moves
                .as_ref()
                .map(|labels| labels.iter().map(|l| l.api_name()).collect()),
            repetitions: e.repetitions,
            cycle_start: e.cycle_start,
        }
    }
}

/// A case's status as an enum value of the API would be spelt.
fn status_name(status: Status) -> &'static str {
    match status {
        Status::Passed => "CASE_STATUS_PASSED",
        Status::Failed => "CASE_STATUS_FAILED",
        Status::Error => "CASE_STATUS_ERROR",
        Status::KnownDifference => "CASE_STATUS_KNOWN_DIFFERENCE",
        Status::NowPasses => "CASE_STATUS_NOW_PASSES",
    }
}

impl<'a> Report<'a> {
    fn of(tally: Tally, results: &'a [CaseResult], wanted: Wanted) -> Report<'a> {
        let results = results
            .iter()
            .map(|r| ResultJson {
                id: &r.id,
                origin: &r.origin,
                passed: r.passed,
                status: status_name(r.status),
                expected: ExpectedJson::of(&r.expected),
                actual: r.ruling.clone().map(|ruling| json::ruling(ruling, wanted)),
                error: r.error.as_ref().map(ToString::to_string),
                differences: r.differences.iter().map(ToString::to_string).collect(),
                known_difference: r.known_difference.as_deref(),
                time_ms: r.time_ms,
            })
            .collect();
        Report {
            passed: tally.passed,
            failed: tally.failed,
            errors: tally.errors,
            known_differences: tally.known_differences,
            now_passing: tally.now_passing,
            results,
        }
    }
}

/// Runs every selected case; exit 0 if none failed, 1 if any failed or cannot run, 2 if a file
/// cannot be read or nothing is selected.
pub fn run(args: CasesArgs) -> Result<ExitCode, Said> {
    let mut cases = corpus::load_all(&args.paths).map_err(|e| Said::of(&e))?;
    let loaded = cases.len();
    if !args.filter.is_empty() {
        cases.retain(|c| args.filter.iter().any(|p| c.id.contains(p.as_str())));
    }
    if cases.is_empty() && !args.allow_empty {
        let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        let paths = paths.join(" ");
        let filter = args.filter.join("\" \"");
        return Err(Said::new(|lang| match (loaded, lang) {
            (0, Lang::En) => format!("no cases in {paths} (--allow-empty to accept that)"),
            (0, Lang::Zh) => format!("{paths}中没有案例（用--allow-empty接受这种情况）"),
            (_, Lang::En) => format!(
                "--filter {filter:?}: no case id contains it among the {loaded} cases of {paths} \
                 (--allow-empty to accept that)"
            ),
            (_, Lang::Zh) => format!(
                "--filter {filter:?}：{paths}的{loaded}个案例中没有id含有它的（用--allow-empty接受这种情况）"
            ),
        }));
    }
    let results: Vec<CaseResult> = cases
        .iter()
        .map(|c| corpus::run_repeated(c, args.repeat))
        .collect();
    let tally = Tally::of(&results);
    if let Some(path) = &args.junit {
        std::fs::write(path, corpus::junit(&results)).map_err(|e| {
            Said::new(|lang| {
                let colon = lang.pick("：", ": ");
                format!(
                    "--junit {}{colon}{}",
                    path.display(),
                    qili::lang::io_words(&e, lang)
                )
            })
        })?;
    }
    // GitHub Actions sets it to "true"; any value but an empty one or "false" counts.
    let annotate =
        std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| !v.is_empty() && v != "false");
    if args.json {
        let wanted = args.detail.wanted(pb::Language::Both);
        outln!("{}", json::line(&Report::of(tally, &results, wanted))?);
        if annotate {
            // Standard output holds the JSON alone; the runner reads commands on stderr too.
            for line in results.iter().filter_map(corpus::github_annotation) {
                eprintln!("{line}");
            }
        }
    } else {
        let langs = match args.lang {
            LangArg::Zh => &Lang::BOTH[..1],
            LangArg::En => &Lang::BOTH[1..],
            LangArg::Both => &Lang::BOTH[..],
        };
        for r in results.iter().filter(|r| r.status != Status::Passed) {
            for &lang in langs {
                outln!("{}", r.words(lang));
            }
        }
        if annotate {
            for line in results.iter().filter_map(corpus::github_annotation) {
                outln!("{line}");
            }
        }
        for &lang in langs {
            outln!("{}", tally.words(lang));
        }
    }
    Ok(if tally.failed == 0 && tally.errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
