//! `qili cases`: runs ruling corpora (SPEC §7) and reports each failure.

use clap::Args;
use qili::corpus::{self, CaseResult};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `qili cases`.
#[derive(Args)]
pub struct CasesArgs {
    /// `.jsonl` files, or folders searched for them.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print one JSON object with every result and the counts instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Summary<'a> {
    passed: usize,
    failed: usize,
    results: &'a [CaseResult],
}

/// Runs every case; exit 0 if all passed, 1 if any failed, 2 if a file cannot be read.
pub fn run(args: CasesArgs) -> Result<ExitCode, String> {
    let mut cases = Vec::new();
    for path in &args.paths {
        cases.extend(corpus::load(path).map_err(|e| e.to_string())?);
    }
    let results: Vec<CaseResult> = cases.iter().map(corpus::run).collect();
    let passed = results.iter().filter(|r| r.passed).count();
    let failed = results.len() - passed;
    if args.json {
        let summary = Summary {
            passed,
            failed,
            results: &results,
        };
        let json =
            serde_json::to_string(&summary).map_err(|e| format!("cannot write JSON: {e}"))?;
        println!("{json}");
    } else {
        for r in results.iter().filter(|r| !r.passed) {
            println!("{r}");
        }
        println!("{passed} passed, {failed} failed");
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
