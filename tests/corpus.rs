//! Every case under `cases/` (SPEC §7) must pass; an empty corpus is a failure too.

use std::collections::HashSet;
use std::path::Path;

#[test]
fn every_case_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let cases = match qili::corpus::load(&dir) {
        Ok(cases) => cases,
        Err(e) => panic!("cannot read the corpus: {e}"),
    };
    assert!(!cases.is_empty(), "no cases under {}", dir.display());

    let mut seen = HashSet::new();
    let duplicates: Vec<&str> = cases
        .iter()
        .filter(|c| !seen.insert(c.id.as_str()))
        .map(|c| c.id.as_str())
        .collect();
    assert!(duplicates.is_empty(), "duplicate case ids: {duplicates:?}");

    let failures: Vec<String> = cases
        .iter()
        .map(qili::corpus::run)
        .filter(|r| !r.passed)
        .map(|r| r.to_string())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
