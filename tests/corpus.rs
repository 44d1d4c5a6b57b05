//! Every case under `cases/` must pass (one that cannot run fails too); an empty corpus is a
//! failure too. A case marked with a `known_difference` may differ (it is listed, not failed),
//! but one that now passes must lose its mark.

use qili::corpus::Status;
use std::path::Path;

#[test]
fn every_case_passes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    // Loading checks the format strictly, ids unique included.
    let cases = match qili::corpus::load(&dir) {
        Ok(cases) => cases,
        Err(e) => panic!("cannot read the corpus: {e}"),
    };
    assert!(!cases.is_empty(), "no cases under {}", dir.display());

    let results: Vec<_> = cases.iter().map(qili::corpus::run).collect();
    for r in results
        .iter()
        .filter(|r| r.status == Status::KnownDifference)
    {
        eprintln!("{r}");
    }
    let failures: Vec<String> = results
        .iter()
        .filter(|r| matches!(r.status, Status::Failed | Status::Error | Status::NowPasses))
        .map(|r| r.to_string())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed ({}):\n{}",
        failures.len(),
        cases.len(),
        qili::corpus::Tally::of(&results),
        failures.join("\n")
    );
}

/// Every article a ruling of the corpus cites has its text in both languages.
#[test]
fn every_cited_article_has_its_text() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let cases = qili::corpus::load(&dir).unwrap_or_else(|e| panic!("cannot read the corpus: {e}"));
    let mut cited = std::collections::BTreeSet::new();
    for case in &cases {
        let Ok(ruling) = qili::request::adjudicate(&case.request()) else {
            continue;
        };
        for a in &ruling.articles {
            let text = a.text();
            assert!(
                !text.zh.is_empty() && !text.en.is_empty(),
                "{}: article {} has no text",
                case.id,
                a.id()
            );
            cited.insert(a.id());
        }
    }
    for id in ["25.2", "28.3", "2011 24.13", "2011 24.3", "AXF 7"] {
        assert!(cited.contains(id), "no case cites {id}: {cited:?}");
    }
}
