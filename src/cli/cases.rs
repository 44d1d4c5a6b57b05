//! `qili cases`: runs ruling corpora (README.md, "Cases") and reports each failure.

use clap::Args;
use qili::corpus::{self, CaseResult, Status, Tally};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `qili cases`.
#[derive(Args)]
pub struct CasesArgs {
    /// `.jsonl` files, or folders searched for them.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print one JSON object with every result (and its time) and the counts instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the results as JUnit XML to FILE (one testcase per case).
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Run only the cases whose id contains PATTERN, a plain substring (repeat for several).
    #[arg(long, value_name = "PATTERN")]
    filter: Vec<String>,
    /// Succeed when no case is selected (by default an empty selection is an error, exit 2).
    #[arg(long)]
    allow_empty: bool,
}

#[derive(serde::Serialize)]
struct Summary<'a> {
    #[serde(flatten)]
    tally: Tally,
    results: &'a [CaseResult],
}

/// Runs every selected case; exit 0 if none failed, 1 if any failed or cannot run, 2 if a file
/// cannot be read or nothing is selected.
pub fn run(args: CasesArgs) -> Result<ExitCode, String> {
    let mut cases = corpus::load_all(&args.paths).map_err(|e| e.to_string())?;
    let loaded = cases.len();
    if !args.filter.is_empty() {
        cases.retain(|c| args.filter.iter().any(|p| c.id.contains(p.as_str())));
    }
    if cases.is_empty() && !args.allow_empty {
        let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        return Err(if loaded == 0 {
            format!(
                "no cases in {} (--allow-empty to accept that)",
                paths.join(" ")
            )
        } else {
            format!(
                "--filter {:?}: no case id contains it among the {loaded} cases of {} \
                 (--allow-empty to accept that)",
                args.filter.join("\" \""),
                paths.join(" ")
            )
        });
    }
    let results: Vec<CaseResult> = cases.iter().map(corpus::run).collect();
    let tally = Tally::of(&results);
    if let Some(path) = &args.junit {
        std::fs::write(path, corpus::junit(&results))
            .map_err(|e| format!("--junit {}: {e}", path.display()))?;
    }
    // GitHub Actions sets it to "true"; any value but an empty one or "false" counts.
    let annotate =
        std::env::var_os("GITHUB_ACTIONS").is_some_and(|v| !v.is_empty() && v != "false");
    if args.json {
        let summary = Summary {
            tally,
            results: &results,
        };
        let json =
            serde_json::to_string(&summary).map_err(|e| format!("cannot write JSON: {e}"))?;
        outln!("{json}");
        if annotate {
            // Standard output holds the JSON alone; the runner reads commands on stderr too.
            for line in results.iter().filter_map(corpus::github_annotation) {
                eprintln!("{line}");
            }
        }
    } else {
        for r in results.iter().filter(|r| r.status != Status::Passed) {
            outln!("{r}");
        }
        if annotate {
            for line in results.iter().filter_map(corpus::github_annotation) {
                outln!("{line}");
            }
        }
        outln!("{tally}");
    }
    Ok(if tally.failed == 0 && tally.errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
