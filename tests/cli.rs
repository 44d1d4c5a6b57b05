//! The built `qili` binary: judge (text and JSON), bad input (exit 2 naming the field), cases,
//! perft, and serve until SIGTERM.

use super::common::{QILI, Server, TempDir, english_line};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

/// Red's rook checks on ranks 9 and 8; black's king steps up and down: red loses.
pub(super) const FEN: &str = "4k4/R8/9/9/9/9/9/9/9/3K5 w";
pub(super) const MOVES: &str = "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9";

pub(super) fn qili(args: &[&str]) -> Output {
    Command::new(QILI).args(args).output().expect("run qili")
}

pub(super) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub(super) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn judge_prints_the_board_the_cycle_and_the_verdict() {
    let o = qili(&["judge", "--fen", FEN, "--moves", MOVES]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for needle in [
        "[将]",
        "(车)",
        "(帅)",
        "楚 河",
        "车九进一",
        "a8a9",
        "将 check",
        "闲 idle",
        "第3回合 round 3",
        "长将 perpetual check — 禁止 forbidden",
        "裁决 Verdict: 红方判负 red loses",
        "24.1",
        "说明：",
        "Explanation: ",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
}

#[test]
fn judge_reads_other_notations_and_language_choices() {
    let o = qili(&[
        "judge",
        "--fen",
        FEN,
        "--moves",
        "车九进一 将5进1 车九退一 将5退1 车九进一 将5进1 车九退一 将5退1",
        "--notation",
        "chinese",
        "--lang",
        "en",
        "--ruleset",
        "wxf",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Rules: axf"), "{text}");
    assert!(text.contains("Explanation: "), "{text}");
    assert!(!text.contains("说明："), "{text}");
}

#[test]
fn judge_json_is_the_apis_ruling() {
    let o = qili(&["judge", "--fen", FEN, "--moves", MOVES, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["verdict"], "VERDICT_RED_LOSES");
    assert_eq!(v["ruleset"], "cxa1999");
    assert_eq!(v["repetitions"], 3);
    assert_eq!(v["cycleStart"], 4);
    assert_eq!(v["red"]["pattern"], "PATTERN_PERPETUAL_CHECK");
    assert_eq!(v["red"]["forbidden"], true);
    assert_eq!(v["moves"][0]["chinese"], "车九进一");
    assert_eq!(v["moves"][0]["kind"], "MOVE_KIND_CHECK");
    assert!(v["explanationZh"].as_str().is_some_and(|s| !s.is_empty()));

    // The JSON reads back into the API's message.
    let ruling: qili::service::pb::Ruling = serde_json::from_slice(&o.stdout).expect("a Ruling");
    assert_eq!(ruling.moves.len(), 4);
}

#[test]
fn judge_rejects_bad_input_with_exit_2_naming_the_field() {
    let bad_fen = qili(&["judge", "--fen", "4k4/R8/9 w", "--moves", "a8a9"]);
    assert_eq!(bad_fen.status.code(), Some(2));
    // Both languages (the default): the Chinese line, then the English.
    let err = stderr(&bad_fen);
    assert!(err.starts_with("qili: fen: FEN的棋盘"), "{err}");
    assert!(english_line(&err).starts_with("qili: fen: "), "{err}");

    let bad_move = qili(&["judge", "--fen", FEN, "--moves", "a8a9 e9e8 a9a8 e8e6"]);
    assert_eq!(bad_move.status.code(), Some(2));
    let err = stderr(&bad_move);
    let err = english_line(&err);
    assert!(err.starts_with("qili: moves[3] \"e8e6\": "), "{err}");
    assert!(bad_move.stdout.is_empty());

    let bad_ruleset = qili(&["judge", "--moves", "h2e2", "--ruleset", "fide"]);
    assert_eq!(bad_ruleset.status.code(), Some(2));
    assert!(english_line(&stderr(&bad_ruleset)).starts_with("qili: --ruleset: "));
}

#[test]
fn judge_reads_a_game_record() {
    let dir = TempDir::new("pgn");
    let file = dir.0.join("game.pgn");
    let record = format!(
        "[Game \"Chinese Chess\"]\n[FEN \"{FEN} - - 0 1\"]\n\
         1. 车九进一 将５进１ 2. 车九退一 将５退１\n3. 车九进一 将５进１ 4. 车九退一 将５退１ *\n"
    );
    std::fs::write(&file, record).expect("write");
    // --pgn is the old name of --record.
    for flag in ["--record", "--pgn"] {
        let o = qili(&["judge", flag, file.to_str().expect("utf-8 path")]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("红方判负 red loses"), "{}", stdout(&o));
    }

    // The other formats, told apart by content.
    let xqf = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/samples/perpetual-check.xqf"
    );
    let dhtmlxq = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/dhtmlxq/black-first.txt"
    );
    for (path, verdict) in [
        (xqf, "Verdict: red loses"),
        (dhtmlxq, "Verdict: black loses"),
    ] {
        let o = qili(&["judge", "--record", path, "--lang", "en"]);
        assert!(o.status.success(), "{path}: {}", stderr(&o));
        assert!(stdout(&o).contains(verdict), "{path}: {}", stdout(&o));
    }
    // A UCCI position string in --fen needs no --moves.
    let ucci = format!("position fen {FEN} moves {MOVES}");
    let o = qili(&["judge", "--fen", &ucci, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["verdict"], "VERDICT_RED_LOSES");

    let broken = dir.0.join("broken.pgn");
    std::fs::write(&broken, "1. 车九进一 将５进５ *\n").expect("write");
    let o = qili(&["judge", "--record", broken.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let err = english_line(&err);
    assert!(err.starts_with("qili: --record "), "{err}");
    assert!(err.contains(": PGN: game 1, line 1: move 1"), "{err}");
}

fn case(id: &str, verdict: &str) -> String {
    let moves: Vec<String> = MOVES.split(' ').map(|m| format!("\"{m}\"")).collect();
    format!(
        r#"{{"id":"{id}","fen":"{FEN}","moves":[{}],"expected":{{"verdict":"{verdict}","red":"perpetual_check"}},"article":"24.1","source":"test"}}"#,
        moves.join(",")
    )
}

#[test]
fn cases_reports_failures_and_the_count() {
    let dir = TempDir::new("cases");
    let nested = dir.0.join("more");
    std::fs::create_dir_all(&nested).expect("mkdir");
    std::fs::write(dir.0.join("a.jsonl"), case("passes", "red_loses") + "\n\n").expect("write");
    std::fs::write(nested.join("b.jsonl"), case("fails", "draw") + "\n").expect("write");
    std::fs::write(dir.0.join("ignored.txt"), "not a case").expect("write");

    let o = qili(&["cases", dir.0.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.lines().last(), Some("1 passed, 1 failed"), "{text}");
    let failure = text.lines().next().expect("a failure line");
    assert!(failure.starts_with("FAIL fails ("), "{failure}");
    assert!(
        failure.contains("expected verdict=draw red=perpetual_check"),
        "{failure}"
    );
    assert!(failure.contains("actual verdict=red_loses"), "{failure}");
    assert!(
        !text.contains("passes"),
        "passing cases are not listed: {text}"
    );

    let o = qili(&["cases", "--json", dir.0.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        (v["passed"].as_u64(), v["failed"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(v["results"][1]["id"], "fails");
    assert_eq!(v["results"][1]["actual"]["verdict"], "VERDICT_RED_LOSES");

    let one = dir.0.join("a.jsonl");
    let o = qili(&["cases", one.to_str().expect("utf-8 path")]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), "1 passed, 0 failed");
}

#[test]
fn cases_names_the_file_and_line_of_a_bad_case() {
    let dir = TempDir::new("bad-cases");
    let file = dir.0.join("bad.jsonl");
    let text = format!(
        "{}\n{{\"id\":\"x\",\"moves\":[],\"expected\":{{\"verdict\":\"win\"}}}}\n",
        case("ok", "red_loses")
    );
    std::fs::write(&file, text).expect("write");
    let o = qili(&["cases", file.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("bad.jsonl:2: "), "{err}");
    assert!(err.contains("unknown verdict \"win\""), "{err}");

    let o = qili(&["cases", "/nonexistent/qili-cases"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn perft_counts_the_opening() {
    let o = qili(&["perft", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("79666"));
}

#[test]
fn serve_answers_and_exits_0_on_sigterm() {
    let mut server = Server::start();
    let addr = server.addr.clone();

    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let names = runtime.block_on(async {
        use qili::service::pb::{ListRulesetsRequest, qili_client::QiliClient};
        let mut client = QiliClient::connect(format!("http://{addr}"))
            .await
            .expect("connect");
        let list = client
            .list_rulesets(ListRulesetsRequest {})
            .await
            .expect("call");
        list.into_inner().rulesets.len()
    });
    assert_eq!(names, 3);

    server.terminate();
    let (status, log) = server.wait_exit(Duration::from_secs(15));
    assert!(status.success(), "exit status {status}");
    assert!(log.iter().any(|l| l.contains("SIGTERM")), "{log:?}");
}

/// Runs qili with its standard output already closed at the far end (the reader of the pipe is
/// gone before qili writes), as `qili … | head -1` leaves it once head has exited.
fn qili_into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Command::new(QILI)
        .args(args)
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("run qili")
}

#[test]
fn every_command_exits_0_quietly_when_stdout_is_closed() {
    let dir = TempDir::new("pipe");
    let file = dir.0.join("a.jsonl");
    std::fs::write(&file, case("passes", "red_loses") + "\n").expect("write");
    let cases = file.to_str().expect("utf-8 path");
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn/ccgc-20.pgn");
    let commands: [&[&str]; 8] = [
        &["judge", "--fen", FEN, "--moves", MOVES],
        &["watch", "--record", record, "--json"],
        &["judge", "--fen", FEN, "--moves", MOVES, "--format", "json"],
        &["cases", cases],
        &["cases", "--json", cases],
        &["perft", "2", "--divide"],
        &["perft", "1"],
        &["--help"],
    ];
    for args in commands {
        let o = qili_into_closed_pipe(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?} wrote to stderr");
    }
}

#[test]
fn a_pipe_into_head_ends_with_exit_0() {
    // The corpus as JSON is far more than a pipe holds, so qili is still writing when head exits.
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/cases");
    for command in [
        format!("\"$QILI\" cases --json {corpus} | head -c 100 >/dev/null"),
        format!(
            "\"$QILI\" judge --fen '{FEN}' --moves '{MOVES}' --format json | head -1 >/dev/null"
        ),
    ] {
        let o = Command::new("bash")
            .args(["-c", &format!("set -o pipefail; {command}")])
            .env("QILI", QILI)
            .output()
            .expect("run bash");
        assert_eq!(o.status.code(), Some(0), "{command}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{command}");
    }
}

/// Writes `lines` as `name` in `dir` and runs `qili cases` on it with `extra` options.
pub(super) fn cases_on(dir: &TempDir, name: &str, lines: &[String], extra: &[&str]) -> Output {
    let file = dir.0.join(name);
    std::fs::write(&file, lines.join("\n") + "\n").expect("write");
    let mut args = vec!["cases"];
    args.extend_from_slice(extra);
    args.push(file.to_str().expect("utf-8 path"));
    qili(&args)
}

/// The case of `case()` with `field` (a JSON member, `"key":value`) added at the top level.
fn case_with(id: &str, field: &str) -> String {
    let c = case(id, "red_loses");
    format!("{},{field}}}", &c[..c.len() - 1])
}

#[test]
fn every_case_file_mistake_is_an_error_naming_file_and_line() {
    let dir = TempDir::new("strict");
    let moves = r#""moves":["h2e2"]"#;
    let mistakes: [(String, &str); 11] = [
        (
            format!(r#"{{"id":"x","rulset":"axf",{moves},"expected":{{"verdict":"draw"}}}}"#),
            "unknown field `rulset`, expected one of `id`, `ruleset`",
        ),
        (
            format!(
                r#"{{"id":"x","told_to_chnage":{{"red":true}},{moves},"expected":{{"verdict":"draw"}}}}"#
            ),
            "unknown field `told_to_chnage`, expected one of",
        ),
        (
            format!(
                r#"{{"id":"x","told_to_change":{{"rde":true}},{moves},"expected":{{"verdict":"draw"}}}}"#
            ),
            "told_to_change: unknown field `rde`, expected `red` or `black`",
        ),
        (
            format!(r#"{{"id":"x",{moves},"expected":{{"verdict":"draw","rde":"idle"}}}}"#),
            "expected: unknown field `rde`, expected one of `verdict`, `red`",
        ),
        (
            format!(r#"{{"id":"x",{moves},"expected":{{}}}}"#),
            "expected: missing field `verdict`",
        ),
        (
            format!(r#"{{"id":"x",{moves},"expected":{{"red":"idle"}}}}"#),
            "expected: missing field `verdict`",
        ),
        (
            format!(r#"{{"id":"x",{moves},"expected":{{"verdict":"win"}}}}"#),
            r#"expected.verdict: unknown verdict "win" (one of draw, red_loses,"#,
        ),
        (
            format!(r#"{{"id":"x","fen":"","fen":"",{moves},"expected":{{"verdict":"draw"}}}}"#),
            "duplicate field `fen`",
        ),
        (
            format!(r#"{{"id":"x",{moves},"expected":{{"verdict":"draw","moves":["捉","hop"]}}}}"#),
            r#"expected.moves[1]: unknown move label "hop""#,
        ),
        (
            format!(
                r#"{{"id":"x",{moves},"expected":{{"verdict":"draw"}},"known_difference":" "}}"#
            ),
            "known_difference is empty",
        ),
        (
            format!(r#"{{"id":"",{moves},"expected":{{"verdict":"draw"}}}}"#),
            "id is empty",
        ),
    ];
    for (n, (line, message)) in mistakes.iter().enumerate() {
        let name = format!("m{n}.jsonl");
        // The mistake is on line 2, after a good case.
        let o = cases_on(&dir, &name, &[case("ok", "red_loses"), line.clone()], &[]);
        assert_eq!(o.status.code(), Some(2), "{line}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.starts_with("qili: "), "{err}");
        assert!(
            err.contains(&format!("{name}:2: {message}")),
            "{line}\n{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(o.stdout.is_empty(), "nothing runs: {}", stdout(&o));
    }
}

#[test]
fn duplicate_ids_are_an_error_naming_both_lines() {
    let dir = TempDir::new("dupes");
    let o = cases_on(
        &dir,
        "a.jsonl",
        &[
            case("same", "red_loses"),
            case("other", "red_loses"),
            case("same", "draw"),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("a.jsonl:3: duplicate id \"same\" (first at "),
        "{err}"
    );
    assert!(err.contains("a.jsonl:1)"), "{err}");

    // Across the files of a run too.
    std::fs::write(dir.0.join("b.jsonl"), case("other", "draw") + "\n").expect("write");
    std::fs::write(dir.0.join("a.jsonl"), case("other", "draw") + "\n").expect("write");
    let o = qili(&["cases", dir.0.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("b.jsonl:1: duplicate id \"other\" (first at "),
        "{err}"
    );
    assert!(err.contains("a.jsonl:1)"), "{err}");
}

#[test]
fn an_empty_selection_is_an_error_unless_allowed() {
    let dir = TempDir::new("empty");
    let empty = dir.0.join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let folder = empty.to_str().expect("utf-8 path");
    let o = qili(&["cases", folder]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("qili: no cases in "),
        "{}",
        stderr(&o)
    );
    let o = qili(&["cases", "--allow-empty", folder]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "0 passed, 0 failed");

    let blank = dir.0.join("blank.jsonl");
    std::fs::write(&blank, "\n\n").expect("write");
    let o = qili(&["cases", blank.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));

    let o = cases_on(
        &dir,
        "one.jsonl",
        &[case("one", "red_loses")],
        &["--filter", "nomatch"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--filter \"nomatch\": no case id contains it"),
        "{}",
        stderr(&o)
    );
    let o = cases_on(
        &dir,
        "one.jsonl",
        &[case("one", "red_loses")],
        &["--filter", "nomatch", "--allow-empty"],
    );
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn filter_selects_cases_by_id() {
    let dir = TempDir::new("filter");
    let lines = [
        case("check-a", "red_loses"),
        case("check-b", "draw"),
        case("chase-c", "draw"),
    ];
    let o = cases_on(&dir, "f.jsonl", &lines, &["--filter", "check-a"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o).trim(), "1 passed, 0 failed");
    let o = cases_on(&dir, "f.jsonl", &lines, &["--filter", "check", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let ids: Vec<&str> = v["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, ["check-a", "check-b"]);
    let o = cases_on(&dir, "f.jsonl", &lines, &["--filter=-a", "--filter=-c"]);
    assert_eq!(stdout(&o).lines().last(), Some("1 passed, 1 failed"));
}

#[test]
fn json_results_carry_their_time_and_status() {
    let dir = TempDir::new("json-time");
    let o = cases_on(
        &dir,
        "t.jsonl",
        &[case("a", "red_loses"), case("b", "draw")],
        &["--json"],
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        (v["passed"].as_u64(), v["failed"].as_u64()),
        (Some(1), Some(1))
    );
    for r in v["results"].as_array().expect("results") {
        let ms = r["timeMs"].as_f64().expect("timeMs");
        assert!(ms > 0.0 && ms < 60_000.0, "{r}");
    }
    assert_eq!(v["results"][0]["status"], "CASE_STATUS_PASSED");
    assert_eq!(v["results"][1]["status"], "CASE_STATUS_FAILED");
    assert_eq!(
        v["results"][1]["differences"][0],
        "verdict: expected draw, got red_loses"
    );
}

#[test]
fn repeat_rules_each_case_again_and_reports_the_same_results() {
    let dir = TempDir::new("repeat");
    let lines = [case("a", "red_loses"), case("b", "draw")];
    // Everything but the times, which differ from run to run.
    let without_time = |o: &Output| {
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        for r in v["results"].as_array_mut().expect("results") {
            let ms = r["timeMs"].take().as_f64().expect("timeMs");
            assert!(ms > 0.0 && ms < 60_000.0, "{r}");
        }
        v
    };
    let once = cases_on(&dir, "r.jsonl", &lines, &["--json"]);
    let thrice = cases_on(&dir, "r.jsonl", &lines, &["--json", "--repeat", "3"]);
    assert_eq!(thrice.status.code(), Some(1), "{}", stderr(&thrice));
    assert_eq!(without_time(&once), without_time(&thrice));
    let text = cases_on(&dir, "r.jsonl", &lines, &["--repeat", "2"]);
    assert_eq!(stdout(&text).lines().last(), Some("1 passed, 1 failed"));

    let zero = cases_on(&dir, "r.jsonl", &lines, &["--repeat", "0"]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(stderr(&zero).contains("--repeat"), "{}", stderr(&zero));
}

/// A small JUnit reader over quick-xml: each element's name, attributes and children.
#[derive(Debug, Default)]
struct Element {
    name: String,
    attrs: std::collections::HashMap<String, String>,
    children: Vec<Element>,
}

impl Element {
    fn parse(xml: &str) -> Element {
        use quick_xml::events::{BytesStart, Event};
        let element = |e: &BytesStart| Element {
            name: e.name().as_ref().to_string(),
            attrs: e
                .attributes()
                .map(|a| {
                    let a = a.expect("a well-formed attribute");
                    let key = a.key.as_ref().to_string();
                    let value = a
                        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .expect("escaped value");
                    (key, value.into_owned())
                })
                .collect(),
            children: Vec::new(),
        };
        let mut reader = quick_xml::Reader::from_str(xml);
        let mut stack = vec![Element::default()];
        loop {
            match reader.read_event().expect("well-formed XML") {
                Event::Start(e) => stack.push(element(&e)),
                Event::Empty(e) => {
                    let done = element(&e);
                    stack.last_mut().expect("a parent").children.push(done);
                }
                Event::End(_) => {
                    let done = stack.pop().expect("an open element");
                    stack.last_mut().expect("a parent").children.push(done);
                }
                Event::Eof => break,
                _ => {}
            }
        }
        assert_eq!(stack.len(), 1, "every element is closed");
        stack.pop().expect("the document")
    }

    fn all(&self, name: &str) -> Vec<&Element> {
        let mut out = Vec::new();
        if self.name == name {
            out.push(self);
        }
        for c in &self.children {
            out.extend(c.all(name));
        }
        out
    }

    fn attr(&self, key: &str) -> &str {
        self.attrs.get(key).map_or("", String::as_str)
    }
}

#[test]
fn junit_has_a_testcase_per_case_with_failures_and_known_differences() {
    let dir = TempDir::new("junit");
    let known = case_with(
        "known",
        r#""known_difference":"the book reads it otherwise (docs/rules.md, X)""#,
    )
    .replace("red_loses", "draw");
    let lines = [case("passes", "red_loses"), case("fails", "draw"), known];
    let xml_path = dir.0.join("out.xml");
    let xml_arg = xml_path.to_str().expect("utf-8 path");
    let o = cases_on(&dir, "j.jsonl", &lines, &["--junit", xml_arg]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert_eq!(
        stdout(&o).lines().last(),
        Some("1 passed, 1 failed, 1 known differences")
    );

    let doc = Element::parse(&std::fs::read_to_string(&xml_path).expect("JUnit written"));
    let suites = doc.all("testsuites");
    assert_eq!(suites.len(), 1);
    assert_eq!(
        (
            suites[0].attr("tests"),
            suites[0].attr("failures"),
            suites[0].attr("skipped")
        ),
        ("3", "1", "1")
    );
    let suite = &doc.all("testsuite")[0];
    assert!(suite.attr("name").ends_with("j.jsonl"), "{suite:?}");
    let cases = doc.all("testcase");
    let names: Vec<&str> = cases.iter().map(|c| c.attr("name")).collect();
    assert_eq!(names, ["passes", "fails", "known"]);
    for (c, line) in cases.iter().zip(["1", "2", "3"]) {
        assert_eq!(c.attr("line"), line);
        assert!(c.attr("file").ends_with("j.jsonl"));
        assert!(
            c.attr("time").parse::<f64>().is_ok_and(|t| t > 0.0),
            "{c:?}"
        );
    }
    assert!(cases[0].children.is_empty());
    let failure = &cases[1].all("failure")[0];
    assert_eq!(
        failure.attr("message"),
        "expected verdict=draw red=perpetual_check; actual verdict=red_loses red=perpetual_check black=idle"
    );
    let skipped = &cases[2].all("skipped")[0];
    assert_eq!(
        skipped.attr("message"),
        "known difference: the book reads it otherwise (docs/rules.md, X)"
    );
}

#[test]
fn github_actions_get_error_lines_with_file_and_line() {
    let dir = TempDir::new("gha");
    let file = dir.0.join("g.jsonl");
    std::fs::write(
        &file,
        [case("passes", "red_loses"), case("fails", "draw")].join("\n"),
    )
    .expect("write");
    let path = file.to_str().expect("utf-8 path");
    let run = |github: Option<&str>| {
        let mut c = Command::new(QILI);
        c.args(["cases", path]).env_remove("GITHUB_ACTIONS");
        if let Some(v) = github {
            c.env("GITHUB_ACTIONS", v);
        }
        c.output().expect("run qili")
    };
    let o = run(Some("true"));
    let text = stdout(&o);
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("::error ")).collect();
    assert_eq!(errors.len(), 1, "{text}");
    assert!(
        errors[0].starts_with(&format!(
            "::error file={path},line=2,title=fails::fails: expected verdict=draw"
        )),
        "{}",
        errors[0]
    );
    assert_eq!(text.lines().last(), Some("1 passed, 1 failed"));
    assert!(!stdout(&run(None)).contains("::error"));
    assert!(!stdout(&run(Some("false"))).contains("::error"));
    assert!(stdout(&run(Some("1"))).contains("::error"));
}

#[test]
fn expected_moves_are_checked_move_by_move() {
    let dir = TempDir::new("moves");
    // The cycle: red's rook checks (plies 4 and 6), black's king steps (5 and 7).
    let with = |id: &str, labels: &str| {
        case(id, "red_loses").replace(
            r#""red":"perpetual_check"}"#,
            &format!(r#""red":"perpetual_check","moves":{labels}}}"#),
        )
    };
    let lines = [
        with("right", r#"["将","闲","check","idle"]"#),
        with("wrong", r#"["捉","兑","将","idle"]"#),
        with("short", r#"["将","闲"]"#),
    ];
    let o = cases_on(&dir, "m.jsonl", &lines, &[]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert_eq!(text.lines().last(), Some("1 passed, 2 failed"), "{text}");
    assert!(text.contains("FAIL wrong ("), "{text}");
    assert!(
        text.contains("\n  ply 4 车九进一: expected 捉, got 将\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  ply 5 将５进１: expected 兑, got 闲\n"),
        "{text}"
    );
    assert!(
        !text.contains("ply 6"),
        "only the moves that differ: {text}"
    );
    assert!(!text.contains("ply 7"), "{text}");
    assert!(
        text.contains("\n  moves: expected 2 labels, but the cycle has 4 moves"),
        "{text}"
    );
    assert!(!text.contains("FAIL right"), "{text}");
}

#[test]
fn known_differences_are_reported_apart() {
    let dir = TempDir::new("known");
    let why = r#""known_difference":"docs/gain.md §6 reading (docs/rules.md §10)""#;
    let still = case_with("still-differs", why).replace("red_loses", "draw");
    let fixed = case_with("now-fixed", why);
    let o = cases_on(&dir, "k.jsonl", std::slice::from_ref(&still), &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "a known difference does not fail the run"
    );
    let text = stdout(&o);
    assert!(text.starts_with("KNOWN still-differs ("), "{text}");
    assert!(
        text.contains("known difference: docs/gain.md §6 reading"),
        "{text}"
    );
    assert_eq!(
        text.lines().last(),
        Some("0 passed, 0 failed, 1 known differences")
    );

    let o = cases_on(
        &dir,
        "k.jsonl",
        &[still, fixed, case("plain", "red_loses")],
        &[],
    );
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(
        text.contains("NOW PASSES now-fixed (") && text.contains("remove the mark"),
        "{text}"
    );
    assert_eq!(
        text.lines().last(),
        Some("2 passed, 0 failed, 1 known differences")
    );
}

/// Two games in one record: the rook's checks four times (the final position occurs three times),
/// and the same for three rounds only (twice).
fn two_game_record(dir: &TempDir) -> PathBuf {
    let file = dir.0.join("two.pgn");
    let head = format!("[Game \"Chinese Chess\"]\n[FEN \"{FEN} - - 0 1\"]\n");
    let record = format!(
        "{head}[Red \"甲\"]\n1. 车九进一 将５进１ 2. 车九退一 将５退１\n3. 车九进一 将５进１ 4. 车九退一 将５退１ 1-0\n\n\
         {head}[Red \"乙\"]\n1. 车九进一 将５进１ 2. 车九退一 将５退１ 3. 车九进一 将５进１ *\n"
    );
    std::fs::write(&file, record).expect("write");
    file
}

#[test]
fn judge_lang_zh_is_all_chinese_and_en_all_english() {
    let zh = qili(&["judge", "--fen", FEN, "--moves", MOVES, "--lang", "zh"]);
    assert!(zh.status.success(), "{}", stderr(&zh));
    let text = stdout(&zh);
    for needle in [
        "第3回合",
        "红方",
        "长将",
        "禁止",
        "裁决：红方判负",
        "规则：",
        "说明：",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
    for english in [
        "round",
        "Round",
        "verdict",
        "Verdict",
        "cycle",
        "red",
        "black",
        "forbidden",
        "allowed",
        "Rules",
        "Explanation",
        "check",
        "idle",
        "to move",
        "pieces",
    ] {
        assert!(!text.contains(english), "{english:?} in --lang zh:\n{text}");
    }
    let en = qili(&["judge", "--fen", FEN, "--moves", MOVES, "--lang", "en"]);
    assert!(en.status.success(), "{}", stderr(&en));
    let text = stdout(&en);
    for needle in [
        "round 3",
        "The cycle starts with round 3, red 车九进一 (a8a9)",
        "perpetual check — forbidden",
        "Verdict: red loses",
        "Explanation: ",
    ] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
    for chinese in [
        "回合",
        "裁决",
        "循环",
        "红方",
        "黑方",
        "禁止",
        "允许",
        "说明",
        "规则",
        "走棋方",
        "长将",
    ] {
        assert!(!text.contains(chinese), "{chinese:?} in --lang en:\n{text}");
    }
}

/// The text a reader sees in `html`: no tags, style or script.
fn visible_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    for block in ["style", "script"] {
        let (open, close) = (format!("<{block}>"), format!("</{block}>"));
        while let (Some(a), Some(b)) = (rest.find(&open), rest.find(&close)) {
            out.push_str(&rest[..a]);
            rest = &rest[b + close.len()..];
        }
    }
    out.push_str(rest);
    let mut text = String::new();
    let mut in_tag = false;
    for c in out.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

#[test]
fn judge_html_is_one_printable_page_with_a_diagram_per_cycle_move() {
    let o = qili(&["judge", "--fen", FEN, "--moves", MOVES, "--format", "html"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = stdout(&o);
    assert!(html.starts_with("<!doctype html>"), "{html}");
    assert!(html.contains("data-verdict=\"red_loses\""));
    // The cycle's start and its four moves, each a board with the river and piece discs.
    assert_eq!(html.matches("<svg").count(), 5, "{html}");
    assert!(html.contains("楚河") && html.contains(">帅<") && html.contains(">将<"));
    assert!(html.contains("class=\"arrow check\""), "checks are drawn");
    assert!(html.contains("@media print"));
    // Self-contained: nothing is fetched from elsewhere.
    for remote in ["src=\"http", "href=\"http", "@import", "url("] {
        assert!(!html.contains(remote), "{remote} in the page");
    }
    assert!(html.contains("第3回合"));
    let en = visible_text(&stdout(&qili(&[
        "judge", "--fen", FEN, "--moves", MOVES, "--format", "html", "--lang", "en",
    ])));
    for chinese in ["裁决", "循环", "回合", "说明", "上一着", "红方"] {
        assert!(!en.contains(chinese), "{chinese} in the English page");
    }
    assert!(en.contains("Verdict") && en.contains("round 3"));
    let zh = visible_text(&stdout(&qili(&[
        "judge", "--fen", FEN, "--moves", MOVES, "--format", "html", "--lang", "zh",
    ])));
    for english in [
        "Verdict",
        "Cycle",
        "round",
        "previous",
        "Explanation",
        "forbidden",
    ] {
        assert!(!zh.contains(english), "{english} in the Chinese page");
    }
}

#[test]
fn judge_without_a_repetition_shows_no_side_patterns() {
    for (format, side) in [("text", "长将"), ("html", "class=\"sides\"")] {
        let o = qili(&["judge", "--moves", "h2e2 h9g7", "--format", format]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("局面未重复"), "{out}");
        assert!(!out.contains(side), "{format}: {out}");
        assert!(!out.contains("闲 idle"), "{format}: {out}");
    }
}

#[test]
fn judge_shows_the_mating_line_of_a_mate_threat() {
    let fen = "3a5/5k3/5a3/C8/9/9/6R2/9/3K5/9 w";
    let moves = "a6a9 d9e8 a9a6 e8d9 a6a9 d9e8 a9a6 e8d9";
    let o = qili(&["judge", "--fen", fen, "--moves", moves, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let threats: Vec<&serde_json::Value> = v["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter(|m| m["kind"] == "MOVE_KIND_MATE_THREAT")
        .collect();
    assert!(!threats.is_empty(), "{v}");
    let text = stdout(&qili(&[
        "judge", "--fen", fen, "--moves", moves, "--lang", "zh",
    ]));
    let html = stdout(&qili(&[
        "judge", "--fen", fen, "--moves", moves, "--format", "html",
    ]));
    for m in threats {
        let line = m["mateLine"]["chinese"].as_array().expect("a mating line");
        let first = line.first().and_then(|x| x.as_str()).expect("a move");
        assert!(text.contains(&format!("杀着：{first}")), "{text}");
        assert!(html.contains("mate-line") && html.contains(first), "{html}");
    }
}

#[test]
fn judge_chooses_the_game_and_the_moment_of_a_record() {
    let dir = TempDir::new("games");
    let file = two_game_record(&dir);
    let path = file.to_str().expect("utf-8 path");

    let o = qili(&["judge", "--pgn", path]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let err = english_line(&err);
    assert!(
        err.contains("holds 2 games; choose one with --game N: 1. 甲"),
        "{err}"
    );
    assert!(err.contains("; 2. 乙"), "{err}");

    let o = qili(&["judge", "--record", path, "--game", "3"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(english_line(&err).starts_with("qili: --game: game 3: the record holds 2 game(s)"));

    let o = qili(&["judge", "--pgn", path, "--game", "2", "--lang", "en"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("The rule books rule when it occurs a third time"),
        "{text}"
    );
    assert!(text.contains("Game: two.pgn · game 2 of 2 — 乙"), "{text}");

    // After round 2 the start position is back for the first time: ply 3, twice.
    let o = qili(&[
        "judge", "--pgn", path, "--game", "1", "--at", "2", "--format", "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["repetitions"], 2, "{v}");
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(4));
    let o = qili(&[
        "judge", "--pgn", path, "--game", "1", "--at", "2b", "--lang", "zh",
    ]);
    assert!(
        stdout(&o).contains("裁决时刻：第2回合 黑 将５退１（全局共8着）"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("只出现了两次"), "{}", stdout(&o));
    let whole = qili(&["judge", "--pgn", path, "--game", "1", "--format", "json"]);
    let at_end = qili(&[
        "judge", "--pgn", path, "--game", "1", "--at", "ply:7", "--format", "json",
    ]);
    assert_eq!(whole.stdout, at_end.stdout);

    for (at, says) in [
        (
            "9",
            "qili: --at: round 9: the game has 8 moves (plies), ending in round 4",
        ),
        ("ply:8", "qili: --at: ply 8: the game has 8 moves"),
        ("soon", "qili: --at: \"soon\" is not a moment of the game"),
    ] {
        let o = qili(&["judge", "--pgn", path, "--game", "1", "--at", at]);
        assert_eq!(o.status.code(), Some(2), "{at}");
        let err = stderr(&o);
        assert!(english_line(&err).starts_with(says), "{at}: {err}");
    }
}

#[test]
fn scan_reports_every_repetition_with_its_round_cycle_and_ruling() {
    let dir = TempDir::new("scan");
    let file = two_game_record(&dir);
    let path = file.to_str().expect("utf-8 path");
    let o = qili(&["scan", "--pgn", path, "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let games: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(games.len(), 2);
    let first = &games[0]["repetitions"][0];
    assert_eq!(first["first"]["ply"], 3, "{first}");
    assert_eq!(first["threefold"]["ply"], 7, "{first}");
    assert_eq!(first["threefold"]["round"], 4, "{first}");
    assert_eq!(first["ruledAt"]["ply"], 7);
    assert_eq!(first["ruling"]["repetitions"], 3);
    // The scan's ruling is judge's at the same moment, whole.
    let judged = qili(&[
        "judge", "--pgn", path, "--game", "1", "--at", "ply:7", "--format", "json",
    ]);
    let judged: serde_json::Value = serde_json::from_slice(&judged.stdout).expect("JSON");
    assert_eq!(first["ruling"], judged, "{first}");
    let second = &games[1]["repetitions"][0];
    assert!(second.get("threefold").is_none(), "{second}");
    assert_eq!(second["ruling"]["repetitions"], 2);

    let o = qili(&["scan", "--record", path, "--lang", "zh"]);
    let text = stdout(&o);
    assert!(text.contains("[1] 第2回合 黑 将５退１起重复"), "{text}");
    assert!(
        text.contains("第4回合 黑 将５退１：同一局面第三次出现"),
        "{text}"
    );
    assert!(
        text.contains(&format!("qili judge --record {path} --game 1 --at 4b")),
        "{text}"
    );
    assert!(
        text.contains("只出现了两次"),
        "the second game is a forecast: {text}"
    );
    assert!(
        text.trim_end().ends_with("共2局，2处重复，其中1处达三次。"),
        "{text}"
    );

    let o = qili(&["scan", "--pgn", path, "--game", "5"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(english_line(&err).starts_with("qili: --game: "), "{err}");
}

#[test]
fn scan_reads_the_gbk_records() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn");
    let mut found = 0;
    for entry in std::fs::read_dir(&data).expect("tests/data/pgn") {
        let path = entry.expect("entry").path();
        let o = qili(&[
            "scan",
            "--pgn",
            path.to_str().expect("utf-8"),
            "--format",
            "json",
        ]);
        assert!(o.status.success(), "{}: {}", path.display(), stderr(&o));
        let game: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        for r in game["repetitions"].as_array().expect("list") {
            found += 1;
            let (first, ruled) = (&r["first"], &r["ruledAt"]);
            assert!(first["round"].as_u64() > Some(0), "{r}");
            assert!(
                first["chinese"].as_str().is_some_and(|s| !s.is_empty()),
                "{r}"
            );
            assert!(r["ruling"]["repetitions"].as_u64() >= Some(2), "{r}");
            assert!(ruled["ply"].as_u64() >= first["ply"].as_u64(), "{r}");
        }
    }
    assert!(found > 0, "the records hold repetitions");
    let o = qili(&[
        "scan",
        "--pgn",
        data.join("ccgc-01.pgn").to_str().expect("utf-8"),
        "--lang",
        "en",
    ]);
    assert!(
        stdout(&o).contains("no repeated position"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("宝岛一号"),
        "GBK tags decoded: {}",
        stdout(&o)
    );
}

#[test]
fn analyze_prints_the_graph_the_protection_and_the_move() {
    let args = ["analyze", "--fen", FEN, "--move", "a8a9"];
    let o = qili(&[&args[..], &["--format", "json"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["move"]["kind"], "MOVE_KIND_CHECK");
    assert_eq!(
        v["fen"].as_str().map(|f| f.starts_with("R3k4/9/")),
        Some(true),
        "{v}"
    );
    assert_eq!(v["pieces"].as_array().map(Vec::len), Some(3));
    let text = stdout(&qili(&[&args[..], &["--lang", "zh"]].concat()));
    for needle in ["第1回合 红 车九进一", "将", "受攻击的棋子", "攻防关系"] {
        assert!(text.contains(needle), "{needle:?} missing from:\n{text}");
    }
    let html = stdout(&qili(&[&args[..], &["--format", "html"]].concat()));
    assert!(
        html.contains("<svg") && html.contains("class=\"arrow check\""),
        "{html}"
    );

    let o = qili(&["analyze", "--fen", FEN, "--move", "a8b7"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        english_line(&err).starts_with("qili: move \"a8b7\": "),
        "{err}"
    );
    let o = qili(&["analyze", "--fen", "9/9 w"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("qili: fen: "), "{}", stderr(&o));
}

#[test]
fn a_case_file_with_a_byte_order_mark_loads() {
    let dir = TempDir::new("bom");
    let file = dir.0.join("bom.jsonl");
    let text = format!(
        "\u{feff}{}\n{}\n",
        case("first", "red_loses"),
        case("second", "red_loses")
    );
    std::fs::write(&file, text).expect("write");
    let o = qili(&["cases", file.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().last(), Some("2 passed, 0 failed"));
    // Not UTF-8: the line of the first bad byte is named.
    std::fs::write(
        &file,
        [case("ok", "red_loses").as_bytes(), b"\n{\"id\":\"\xff\"}\n"].concat(),
    )
    .expect("write");
    let o = qili(&["cases", file.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bom.jsonl:2: not UTF-8"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn side_labels_may_be_the_chinese_terms() {
    let dir = TempDir::new("zh-labels");
    let zh = case("zh", "red_loses").replace(
        r#""red":"perpetual_check"}"#,
        r#""red":"长将","black":"闲"}"#,
    );
    let wrong =
        case("zh-wrong", "red_loses").replace(r#""red":"perpetual_check"}"#, r#""red":"长捉"}"#);
    let o = cases_on(&dir, "zh.jsonl", &[zh, wrong], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.lines().last(), Some("1 passed, 1 failed"), "{text}");
    assert!(text.contains("FAIL zh-wrong ("), "{text}");
    assert!(
        text.contains("expected verdict=red_loses red=perpetual_chase;"),
        "{text}"
    );
    let bad = case("bad", "red_loses").replace("perpetual_check", "长长将");
    let o = cases_on(&dir, "bad.jsonl", &[bad], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            r#"bad.jsonl:1: expected.red: unknown label "长长将" (one of perpetual_check 长将,"#
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_case_can_pin_the_repetitions_and_the_cycle_start() {
    let dir = TempDir::new("pins");
    // The final position occurs three times; the cycle starts with red's fifth move (ply 4).
    let pinned = |id: &str, pins: &str| {
        case(id, "red_loses").replace(
            r#""red":"perpetual_check"}"#,
            &format!(r#""red":"perpetual_check",{pins}}}"#),
        )
    };
    let lines = [
        pinned("right", r#""repetitions":3,"cycle_start":4"#),
        pinned("wrong", r#""repetitions":4,"cycle_start":0"#),
    ];
    let o = cases_on(&dir, "p.jsonl", &lines, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.lines().last(), Some("1 passed, 1 failed"), "{text}");
    assert!(
        text.contains("FAIL wrong (") && text.contains("repetitions=4 cycle_start=0; actual"),
        "{text}"
    );
    assert!(
        text.contains("\n  repetitions: expected 4, got 3\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  cycle_start: expected 0, got 4\n"),
        "{text}"
    );
    let o = cases_on(&dir, "p.jsonl", &lines, &["--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(json["results"][0]["expected"]["repetitions"], 3);
    assert_eq!(json["results"][0]["actual"]["cycleStart"], 4);
}

#[test]
fn a_case_that_cannot_run_is_an_error_not_a_failure() {
    let dir = TempDir::new("broken");
    let bad_fen = case("bad-fen", "red_loses").replace(FEN, "4k4/R8/9 w");
    // The king cannot step two points: moves[1] is illegal.
    let illegal = case("illegal", "red_loses").replace(r#""e9e8","a9a8""#, r#""e9e7","a9a8""#);
    let lines = [
        case("passes", "red_loses"),
        case("fails", "draw"),
        bad_fen,
        illegal,
    ];
    let xml_path = dir.0.join("out.xml");
    let xml_arg = xml_path.to_str().expect("utf-8 path");
    let o = cases_on(&dir, "e.jsonl", &lines, &["--junit", xml_arg]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(
        text.lines().last(),
        Some("1 passed, 1 failed, 2 errors"),
        "{text}"
    );
    assert!(
        text.contains("ERROR bad-fen (") && text.contains("cannot run: fen: FEN board has 3 ranks"),
        "{text}"
    );
    assert!(
        text.contains("ERROR illegal (") && text.contains("cannot run: moves[1]"),
        "{text}"
    );

    let doc = Element::parse(&std::fs::read_to_string(&xml_path).expect("JUnit written"));
    let suites = &doc.all("testsuites")[0];
    assert_eq!(
        (
            suites.attr("tests"),
            suites.attr("failures"),
            suites.attr("errors")
        ),
        ("4", "1", "2")
    );
    let cases = doc.all("testcase");
    assert_eq!(cases[1].all("failure").len(), 1);
    for c in &cases[2..] {
        assert!(c.all("failure").is_empty(), "{c:?}");
        let error = &c.all("error")[0];
        assert!(error.attr("message").contains("cannot run: "), "{error:?}");
    }

    let o = cases_on(&dir, "e.jsonl", &lines, &["--json"]);
    assert_eq!(o.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(
        (json["failed"].as_u64(), json["errors"].as_u64()),
        (Some(1), Some(2))
    );
    let statuses: Vec<&str> = json["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["status"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        statuses,
        [
            "CASE_STATUS_PASSED",
            "CASE_STATUS_FAILED",
            "CASE_STATUS_ERROR",
            "CASE_STATUS_ERROR"
        ]
    );
}

#[test]
fn version_names_the_release_and_the_commit() {
    let o = qili(&["--version"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let prefix = format!("qili {} (commit ", env!("CARGO_PKG_VERSION"));
    let commit = text
        .trim_end()
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{text:?}"));
    assert!(
        commit == "unknown"
            || (commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit())),
        "{text:?}"
    );
    // Built from a git checkout, it is the checkout's HEAD (build.rs reruns when HEAD moves).
    let root = env!("CARGO_MANIFEST_DIR");
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let own = git(&["rev-parse", "--show-toplevel"])
        .is_some_and(|top| std::fs::canonicalize(top).ok() == std::fs::canonicalize(root).ok());
    if own && let Some(head) = git(&["rev-parse", "--short=12", "HEAD"]) {
        assert_eq!(commit, head);
    }
}
