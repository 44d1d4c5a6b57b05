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

/// The mate-threat bound is what finds the long mates of 杀 (2011 24.2, 1999 28.2: a mate by a
/// series of checks, no length given): the moves whose mates need the full 13 plies (seven
/// checks) are no mate threats under a bound of 11, and the cases built on them rule a draw.
#[test]
fn the_mate_bound_reaches_mates_by_seven_checks() {
    use qili::rules::{MoveKind, Verdict};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let cases = qili::corpus::load(&dir).unwrap_or_else(|e| panic!("cannot read the corpus: {e}"));
    let long = [
        "c11-24.2-mate-by-seven-checks-2011",
        "c11-24.2-mate-by-seven-checks-1999",
        "c11-fig17-king-answering-check-makes-a-mate-threat",
    ];
    for id in long {
        let case = cases
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("no case {id}"));
        let mut request = case.request();
        assert_eq!(request.options.limits.mate_plies, 13);
        let full = qili::request::adjudicate(&request).unwrap();
        request.options.limits.mate_plies = 11;
        let short = qili::request::adjudicate(&request).unwrap();
        let threats = |r: &qili::rules::Ruling| {
            r.moves
                .iter()
                .filter(|m| m.kind == MoveKind::MateThreat)
                .count()
        };
        assert!(threats(&full) > 0, "{id}");
        assert_eq!(threats(&short), 0, "{id}: 11 plies find a mate");
        assert_eq!(full.verdict, case.expected.verdict, "{id}");
        if id.contains("seven-checks") {
            assert_eq!(short.verdict, Verdict::Draw, "{id}");
        }
    }
}

/// Every corpus ruling, in full (the library's `Ruling` as JSON: moves, kinds, targets, lines,
/// reasons, articles, search counts), is the one recorded in `tests/data/rulings.digest`, by a
/// 64-bit FNV-1a digest per case. The corpus's own `expected` fields pin verdicts and labels;
/// this pins the rest, so a change, or a build, that rules any case otherwise fails (one release
/// build once ruled two cases otherwise than the debug build of the same source: BENCHMARKS.md,
/// "Cheaper positions", step 4). After a deliberate ruling change (CHANGELOG's "Ruling
/// changes"), write the file again with `QILI_BLESS_DIGESTS=1 cargo test --release --test it
/// every_ruling_is_the_one_recorded` and review its diff.
#[test]
fn every_ruling_is_the_one_recorded() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = qili::corpus::load(&root.join("cases"))
        .unwrap_or_else(|e| panic!("cannot read the corpus: {e}"));
    let digest = |text: &str| {
        text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    };
    let actual: String = cases
        .iter()
        .map(|c| {
            let r = qili::corpus::run(c);
            let json = serde_json::to_string(&r.ruling).expect("a ruling serialises");
            format!("{} {:016x}\n", r.id, digest(&json))
        })
        .collect();
    let path = root.join("tests/data/rulings.digest");
    if std::env::var_os("QILI_BLESS_DIGESTS").is_some() {
        std::fs::write(&path, &actual).expect("write tests/data/rulings.digest");
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap_or_default();
    let recorded: std::collections::BTreeMap<&str, &str> =
        recorded.lines().filter_map(|l| l.split_once(' ')).collect();
    let moved: Vec<&str> = actual
        .lines()
        .filter(|l| {
            l.split_once(' ')
                .is_none_or(|(id, d)| recorded.get(id) != Some(&d))
        })
        .collect();
    assert!(
        moved.is_empty() && recorded.len() == cases.len(),
        "{} of {} rulings differ from tests/data/rulings.digest ({} recorded); if the change is \
         meant, bless with QILI_BLESS_DIGESTS=1 (see this test's doc):\n{}",
        moved.len(),
        cases.len(),
        recorded.len(),
        moved.join("\n")
    );
}
