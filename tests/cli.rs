//! The built `qili` binary: judge (text and JSON), bad input (exit 2 naming the field), cases,
//! perft, and serve until SIGTERM.

mod common;

use common::{QILI, Server};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

/// Red's rook checks on ranks 9 and 8; black's king steps up and down: red loses.
const FEN: &str = "4k4/R8/9/9/9/9/9/9/9/3K5 w";
const MOVES: &str = "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9";

fn qili(args: &[&str]) -> Output {
    Command::new(QILI).args(args).output().expect("run qili")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh directory under the system's temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("qili-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
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
        "长将 perpetual_check — 禁止 forbidden",
        "裁决 verdict: 红方判负 red_loses",
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
    assert!(text.contains("ruleset: axf"), "{text}");
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
    let err = stderr(&bad_fen);
    assert!(err.starts_with("qili: fen: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    let bad_move = qili(&["judge", "--fen", FEN, "--moves", "a8a9 e9e8 a9a8 e8e6"]);
    assert_eq!(bad_move.status.code(), Some(2));
    let err = stderr(&bad_move);
    assert!(err.starts_with("qili: moves[3] \"e8e6\": "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(bad_move.stdout.is_empty());

    let bad_ruleset = qili(&["judge", "--moves", "h2e2", "--ruleset", "fide"]);
    assert_eq!(bad_ruleset.status.code(), Some(2));
    assert!(stderr(&bad_ruleset).starts_with("qili: --ruleset: "));
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
        assert!(stdout(&o).contains("red_loses"), "{}", stdout(&o));
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
    for (path, verdict) in [(xqf, "red_loses"), (dhtmlxq, "black_loses")] {
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
    assert!(err.starts_with("qili: --record "), "{err}");
    assert!(err.contains(": PGN: game 1, line 1: move 1"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
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
    assert_eq!(v["results"][1]["actual"]["verdict"], "red_loses");

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
    let commands: [&[&str]; 7] = [
        &["judge", "--fen", FEN, "--moves", MOVES],
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
fn cases_on(dir: &TempDir, name: &str, lines: &[String], extra: &[&str]) -> Output {
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
            r#"unknown key "rulset""#,
        ),
        (
            format!(
                r#"{{"id":"x","told_to_chnage":{{"red":true}},{moves},"expected":{{"verdict":"draw"}}}}"#
            ),
            r#"unknown key "told_to_chnage""#,
        ),
        (
            format!(
                r#"{{"id":"x","told_to_change":{{"rde":true}},{moves},"expected":{{"verdict":"draw"}}}}"#
            ),
            r#"unknown key "rde" in told_to_change"#,
        ),
        (
            format!(r#"{{"id":"x",{moves},"expected":{{"verdict":"draw","rde":"idle"}}}}"#),
            r#"unknown key "rde" in expected"#,
        ),
        (
            format!(r#"{{"id":"x",{moves},"expected":{{}}}}"#),
            "expected names no verdict",
        ),
        (
            format!(r#"{{"id":"x",{moves},"expected":{{"red":"idle"}}}}"#),
            "expected names no verdict",
        ),
        (
            format!(r#"{{"id":"x",{moves},"expected":{{"verdict":"win"}}}}"#),
            r#"unknown verdict "win""#,
        ),
        (
            format!(r#"{{"id":"x","fen":"","fen":"",{moves},"expected":{{"verdict":"draw"}}}}"#),
            "duplicate field `fen`",
        ),
        (
            format!(r#"{{"id":"x",{moves},"expected":{{"verdict":"draw","moves":["捉","hop"]}}}}"#),
            r#"unknown move label "hop""#,
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
        let ms = r["time_ms"].as_f64().expect("time_ms");
        assert!(ms > 0.0 && ms < 60_000.0, "{r}");
    }
    assert_eq!(v["results"][0]["status"], "passed");
    assert_eq!(v["results"][1]["status"], "failed");
    assert_eq!(
        v["results"][1]["differences"][0],
        "verdict: expected draw, got red_loses"
    );
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
    let why = r#""known_difference":"GAIN.md §6 reading (docs/rules.md, Contradictions)""#;
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
        text.contains("known difference: GAIN.md §6 reading"),
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
