//! One JSON dialect for the command line (README, "JSON output"): the API's spellings in what
//! `judge`, `scan`, `analyze` and `cases` print, and in the case files, which take the API's
//! values as aliases of their own.

use super::cli::{FEN, MOVES, TempDir, cases_on, stderr, stdout};

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
