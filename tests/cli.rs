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
    let o = qili(&["judge", "--pgn", file.to_str().expect("utf-8 path")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("red_loses"), "{}", stdout(&o));

    let broken = dir.0.join("broken.pgn");
    std::fs::write(&broken, "1. 车九进一 将５进５ *\n").expect("write");
    let o = qili(&["judge", "--pgn", broken.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("qili: --pgn "), "{}", stderr(&o));
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
