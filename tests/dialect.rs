//! One JSON dialect for the command line (README, "JSON output"): the API's spellings in what
//! `judge`, `scan`, `analyze` and `cases` print, and in the case files, which take the API's
//! values as aliases of their own.

use super::cli::{FEN, MOVES, cases_on, qili, stderr, stdout};
use super::common::TempDir;

/// The perpetual-check case of tests/cli.rs written with the API's spellings: values and keys.
fn api_case(id: &str, expected: &str) -> String {
    let moves: Vec<String> = MOVES.split(' ').map(|m| format!("\"{m}\"")).collect();
    format!(
        r#"{{"id":"{id}","fen":"{FEN}","moves":[{}],"toldToChange":{{"black":true}},"expected":{expected}}}"#,
        moves.join(",")
    )
}

#[test]
fn a_case_may_spell_its_values_as_the_api_does() {
    let dir = TempDir::new("api-spellings");
    let passes = api_case(
        "api",
        r#"{"verdict":"VERDICT_RED_LOSES","red":"PATTERN_PERPETUAL_CHECK","black":"PATTERN_IDLE","moves":["MOVE_KIND_CHECK","MOVE_KIND_IDLE","MOVE_KIND_CHECK","MOVE_KIND_IDLE"],"repetitions":3,"cycleStart":4}"#,
    );
    // The case's own spellings beside them, in the same file.
    let own = api_case(
        "own",
        r#"{"verdict":"red_loses","red":"长将","black":"idle","moves":["将","闲","check","idle"],"cycle_start":4}"#,
    );
    let fails = api_case(
        "api-fails",
        r#"{"verdict":"VERDICT_DRAW","moves":["MOVE_KIND_CHASE","MOVE_KIND_IDLE","MOVE_KIND_CHECK","IDLE_KIND_EXCHANGE"]}"#,
    );
    let o = cases_on(&dir, "api.jsonl", &[passes.clone(), own], &[]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(stdout(&o).trim(), "2 passed, 0 failed");
    // A failure says what came out in the words the case used.
    let o = cases_on(&dir, "fails.jsonl", &[passes, fails], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("ply 4 车九进一: expected MOVE_KIND_CHASE, got MOVE_KIND_CHECK"),
        "{text}"
    );
    assert!(
        text.contains("ply 7 将５退１: expected IDLE_KIND_EXCHANGE, got MOVE_KIND_IDLE"),
        "{text}"
    );
    assert_eq!(text.lines().last(), Some("1 passed, 1 failed"), "{text}");
}

#[test]
fn a_misspelt_api_value_is_an_error_naming_file_and_line() {
    let dir = TempDir::new("api-misspelt");
    let good = api_case("good", r#"{"verdict":"VERDICT_RED_LOSES"}"#);
    for (expected, message) in [
        (
            r#"{"verdict":"VERDICT_RED_LOSE"}"#,
            r#"expected.verdict: unknown verdict "VERDICT_RED_LOSE" (one of draw,"#,
        ),
        (
            r#"{"verdict":"verdict_red_loses"}"#,
            r#"expected.verdict: unknown verdict "verdict_red_loses""#,
        ),
        (
            r#"{"verdict":"VERDICT_red_loses"}"#,
            r#"expected.verdict: unknown verdict "VERDICT_red_loses""#,
        ),
        (
            r#"{"verdict":"VERDICT_DRAW","red":"PATTERN_CHASE"}"#,
            r#"expected.red: unknown label "PATTERN_CHASE""#,
        ),
        (
            r#"{"verdict":"VERDICT_DRAW","moves":["MOVE_KIND_EXCHANGE"]}"#,
            r#"expected.moves[0]: unknown move label "MOVE_KIND_EXCHANGE""#,
        ),
        (
            r#"{"verdict":"VERDICT_DRAW","moves":["IDLE_KIND_CHASE"]}"#,
            r#"expected.moves[0]: unknown move label "IDLE_KIND_CHASE""#,
        ),
    ] {
        let o = cases_on(
            &dir,
            "bad.jsonl",
            &[good.clone(), api_case("bad", expected)],
            &[],
        );
        assert_eq!(o.status.code(), Some(2), "{expected}: {}", stdout(&o));
        let err = stderr(&o);
        let want = format!("bad.jsonl:2: {message}");
        assert!(err.contains(&want), "{expected}: wanted {want:?} in {err}");
    }
    // A key given in both spellings is given twice.
    let twice = api_case(
        "twice",
        r#"{"verdict":"VERDICT_DRAW","cycle_start":4,"cycleStart":4}"#,
    );
    let o = cases_on(&dir, "twice.jsonl", &[twice], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("twice.jsonl:1: expected: duplicate field `cycle_start`"),
        "{}",
        stderr(&o)
    );
}

/// 24.3's cannon chasing a horse (README, "The command line"): red must change.
const CHASE_FEN: &str = "4k4/9/6n2/6p2/7P1/9/9/7C1/9/3K5 w";
const CHASE_MOVES: &str = "h2g2 g7h9 g2h2 h9g7 h2g2 g7h9 g2h2 h9g7";

fn json_of(args: &[&str]) -> serde_json::Value {
    let o = qili(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("one JSON value")
}

/// The keys of a JSON object, sorted.
fn keys(v: &serde_json::Value) -> Vec<&str> {
    let mut keys: Vec<&str> = v
        .as_object()
        .unwrap_or_else(|| panic!("an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

#[test]
fn judge_scan_analyze_and_cases_print_one_ruling_alike() {
    let dir = TempDir::new("one-dialect");
    let judged = json_of(&[
        "judge",
        "--fen",
        CHASE_FEN,
        "--moves",
        CHASE_MOVES,
        "--format",
        "json",
    ]);
    // The API's spellings: lowerCamelCase keys, enum values by their proto names.
    assert_eq!(judged["verdict"], "VERDICT_RED_MUST_CHANGE");
    assert_eq!(judged["cycleStart"], 4);
    assert_eq!(judged["red"]["pattern"], "PATTERN_PERPETUAL_CHASE");
    assert_eq!(judged["red"]["patternZh"], "长捉");
    assert_eq!(judged["moves"][0]["kind"], "MOVE_KIND_CHASE");
    assert_eq!(judged["moves"][0]["color"], "COLOR_RED");
    assert_eq!(judged["moves"][0]["targets"][0]["piece"]["chinese"], "马");

    // cases: the case's ruling is judge's, whole; what it expected in the same spellings.
    let moves: Vec<String> = CHASE_MOVES.split(' ').map(|m| format!("\"{m}\"")).collect();
    let case = format!(
        r#"{{"id":"chase","fen":"{CHASE_FEN}","moves":[{}],"expected":{{"verdict":"red_must_change","red":"长捉","moves":["捉","闲","chase","MOVE_KIND_IDLE"],"cycle_start":4}}}}"#,
        moves.join(",")
    );
    let o = cases_on(&dir, "chase.jsonl", &[case], &["--json"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        keys(&report),
        [
            "errors",
            "failed",
            "knownDifferences",
            "nowPassing",
            "passed",
            "results"
        ]
    );
    let result = &report["results"][0];
    assert_eq!(result["status"], "CASE_STATUS_PASSED");
    assert!(result["timeMs"].as_f64().is_some(), "{result}");
    assert_eq!(result["actual"], judged);
    assert_eq!(
        result["expected"],
        serde_json::json!({
            "verdict": "VERDICT_RED_MUST_CHANGE",
            "red": "PATTERN_PERPETUAL_CHASE",
            "moves": ["MOVE_KIND_CHASE", "MOVE_KIND_IDLE", "MOVE_KIND_CHASE", "MOVE_KIND_IDLE"],
            "cycleStart": 4
        })
    );

    // scan: the repetition's ruling, at the move where the position occurs a third time, is
    // judge's there, whole; its moves are the API's played moves.
    let record = dir.0.join("chase.ucci");
    std::fs::write(
        &record,
        format!("position fen {CHASE_FEN} moves {CHASE_MOVES}\n"),
    )
    .expect("write");
    let record = record.to_str().expect("utf-8 path");
    let o = qili(&["scan", "--record", record, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let game: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON line");
    let found = &game["repetitions"][0];
    assert_eq!(found["ruling"], judged, "{found}");
    assert_eq!(
        found["ruledAt"],
        serde_json::json!({"ply": 7, "round": 4, "color": "COLOR_BLACK", "iccs": "h9g7", "chinese": "马８进７"})
    );
    assert_eq!(found["forbiddenMoves"][0]["iccs"], "h2g2");
    assert_eq!(
        found["forbiddenMoves"][0]["verdict"],
        "VERDICT_RED_MUST_CHANGE"
    );
    assert_eq!(found["forbiddenMoves"][0]["loses"], true);
    assert_eq!(
        found["forbiddenMoves"][0]["pattern"],
        "PATTERN_PERPETUAL_CHASE"
    );
    assert!(found.get("threefold").is_some() && found.get("ruled_at").is_none());

    // analyze: the cycle's first move, played from the same position, is judged alike.
    let analysed = json_of(&[
        "analyze", "--fen", CHASE_FEN, "--move", "h2g2", "--format", "json",
    ]);
    let (alone, in_cycle) = (&analysed["move"], &judged["moves"][0]);
    assert_eq!(keys(alone), keys(in_cycle));
    for field in ["color", "iccs", "chinese", "kind", "idleKinds", "targets"] {
        assert_eq!(alone[field], in_cycle[field], "{field}");
    }
}
