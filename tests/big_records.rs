//! The CLI on large and broken records: a record of 30 000 games named without `--game` (a short
//! error), a 50 MB record read game by game (bounded memory), `scan` past a broken game, and
//! `scan` over a directory.

use super::common::QILI;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn qili(args: &[&str]) -> Output {
    Command::new(QILI).args(args).output().expect("run qili")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory under the system's temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("qili-big-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("write");
        path.to_str().expect("a UTF-8 path").to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A short game numbered `n`; `bad` makes its first move one that cannot be played.
fn tiny_game(n: usize, bad: bool) -> String {
    let first = if bad { "炮二进九" } else { "炮二平五" };
    format!("[Game \"{n}\"]\n[Red \"甲{n}\"]\n1. {first} 马８进７ *\n")
}

/// The real games of tests/data/pgn (GBK, CRLF), in name order.
fn real_records() -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data/pgn")
        .map(|e| e.expect("an entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("read");
            (p, bytes)
        })
        .collect()
}

#[test]
fn judge_names_a_few_of_30000_games_in_under_1_kib() {
    let dir = TempDir::new("many");
    let record: String = (1..=30_000).map(|n| tiny_game(n, false)).collect();
    let path = dir.file("many.pgn", record.as_bytes());
    let o = qili(&["judge", "--record", &path]);
    assert_eq!(o.status.code(), Some(2));
    let both = text(&o.stderr);
    // Each language's line is under 1 KiB.
    assert!(both.lines().all(|l| l.len() <= 1024), "{both}");
    let err = super::common::english_line(&both);
    for needle in [
        "30000 games",
        "--game N",
        "1. 甲1",
        "qili scan lists all 30000",
    ] {
        assert!(err.contains(needle), "{needle:?} not in {err}");
    }
    // Chosen, the last game is found.
    let o = qili(&[
        "judge", "--record", &path, "--game", "30000", "--format", "json",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = qili(&["judge", "--record", &path, "--game", "30001"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("the record holds 30000 game(s)"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn judge_reads_a_50_mb_record_game_by_game_in_bounded_memory() {
    let dir = TempDir::new("50mb");
    let records = real_records();
    let round: Vec<u8> = records
        .iter()
        .flat_map(|(_, b)| b.iter().copied().chain(*b"\r\n"))
        .collect();
    let rounds = (50 << 20) / round.len() + 1;
    let mut big = Vec::with_capacity(round.len() * rounds);
    for _ in 0..rounds {
        big.extend_from_slice(&round);
    }
    let path = dir.file("big.pgn", &big);
    drop(big);
    let games = rounds * records.len();
    // The last game of the big record rules as its own file does; the process may not map more
    // than 256 MiB (reading every game took 457 MB).
    let (last, _) = &records[records.len() - 1];
    let alone = qili(&[
        "judge",
        "--record",
        last.to_str().expect("utf-8"),
        "--format",
        "json",
    ]);
    assert!(alone.status.success(), "{}", text(&alone.stderr));
    let game = games.to_string();
    let bounded = Command::new("sh")
        .args(["-c", "ulimit -v 262144 && exec \"$0\" \"$@\"", QILI])
        .args([
            "judge", "--record", &path, "--game", &game, "--format", "json",
        ])
        .output()
        .expect("run qili under a memory limit");
    assert!(bounded.status.success(), "{}", text(&bounded.stderr));
    assert_eq!(text(&bounded.stdout), text(&alone.stdout));
    // And the game count reaches the end: one more is not there.
    let beyond = (games + 1).to_string();
    let o = qili(&["judge", "--record", &path, "--game", &beyond]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains(&format!("the record holds {games} game(s)")),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn scan_rules_the_good_games_and_reports_the_broken_one() {
    let dir = TempDir::new("broken");
    let record = format!(
        "{}{}{}",
        tiny_game(1, false),
        tiny_game(2, true),
        tiny_game(3, false)
    );
    let path = dir.file("broken.pgn", record.as_bytes());
    let o = qili(&["scan", "--record", &path, "--lang", "en"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains("game 1 of 3") && out.contains("game 3 of 3"),
        "{out}"
    );
    assert!(!out.contains("game 2 of 3"), "{out}");
    assert!(out.contains("2 game(s), 0 repetition(s)"), "{out}");
    let err = text(&o.stderr);
    assert!(
        err.contains("game 2, line 6") && err.contains("炮二进九"),
        "the bad game's number, line and move: {err}"
    );
    assert!(err.contains("1 game or file could not be read"), "{err}");
    // In JSON, a line for the broken game says why.
    let o = qili(&["scan", "--record", &path, "--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
    let lines: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["game"], 2);
    assert!(
        lines[1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("炮二进九"))
    );
    assert_eq!(
        (lines[0]["game"].clone(), lines[2]["game"].clone()),
        (1.into(), 3.into())
    );
    // A broken game asked for alone is the command's error; a good one is scanned.
    let o = qili(&["scan", "--record", &path, "--game", "3"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = qili(&["scan", "--record", &path, "--game", "2"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn scan_takes_a_directory() {
    let dir = TempDir::new("dir");
    let records = real_records();
    for (p, bytes) in records.iter().take(3) {
        dir.file(&p.file_name().expect("a name").to_string_lossy(), bytes);
    }
    let o = qili(&[
        "scan",
        "--record",
        dir.0.to_str().expect("utf-8"),
        "--lang",
        "en",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let names: Vec<String> = records
        .iter()
        .take(3)
        .map(|(p, _)| {
            p.file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let at: Vec<usize> = names
        .iter()
        .map(|n| {
            out.find(&format!("{n} · game 1 of 1"))
                .unwrap_or_else(|| panic!("{n}: {out}"))
        })
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "in name order: {out}");
    assert!(out.contains("3 game(s)"), "{out}");
    // A file that is no record is reported, and the others are still scanned.
    dir.file("notes.zip", b"PK\x03\x04 not a record");
    let o = qili(&[
        "scan",
        "--record",
        dir.0.to_str().expect("utf-8"),
        "--lang",
        "en",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stdout).contains("3 game(s)"));
    assert!(
        text(&o.stderr).contains("notes.zip: this looks like a ZIP archive"),
        "{}",
        text(&o.stderr)
    );
}
