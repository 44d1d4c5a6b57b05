//! The requests the tests of the cheap paths compare (test builds only).

use super::{convert, pb};
use std::path::PathBuf;

/// The corpus's files (`cases/*.jsonl`), in order.
pub(crate) fn corpus_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("cases"))
        .expect("cases/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
}

/// Every corpus case as an `Adjudicate` request (cycles, short and long searches), then every
/// `step`-th request of the platform mix (mostly no cycle).
pub(crate) fn requests(step: usize) -> Vec<pb::AdjudicateRequest> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut requests: Vec<pb::AdjudicateRequest> = crate::corpus::load_all(&corpus_files())
        .expect("the corpus")
        .iter()
        .map(convert::case_request)
        .collect();
    let mix = std::fs::read_to_string(root.join("benches/data/platform-mix.jsonl"))
        .expect("the platform mix");
    for line in mix.lines().step_by(step) {
        requests.push(super::decode_json(line.as_bytes()).expect("a request"));
    }
    requests
}
