//! Live games through `qili serve`: `Watch` move by move (the ruling at three, the forbidden move,
//! the loss of a side told to change), malformed streams (a first message that is not an opening,
//! a bad opening, a bad move mid-game, a second opening), the move limit, each detail level,
//! `Status` against the stream's last answer, and a sample of the corpus replayed through `Watch`
//! against `Adjudicate`.

use super::common::{Server, channel};
use qili::service::pb::qili_client::QiliClient;
use qili::service::pb::{self, watch_request::Message};
use qili::service::{FIELD_KEY, PLY_KEY};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Code, Streaming};

/// Red's rook chases black's unprotected cannon between the a- and b-files; black runs.
const CHASE: (&str, &str) = (
    "4k4/9/1c7/9/9/9/R8/9/9/3K5 w",
    "a3b3 b7a7 b3a3 a7b7 a3b3 b7a7 b3a3 a7b7",
);

fn opening(id: &str, fen: &str, moves: &str) -> pb::AdjudicateRequest {
    pb::AdjudicateRequest {
        request_id: id.to_string(),
        fen: fen.to_string(),
        moves: moves.split_whitespace().map(String::from).collect(),
        ..Default::default()
    }
}

fn open(r: pb::AdjudicateRequest) -> pb::WatchRequest {
    pb::WatchRequest {
        message: Some(Message::Open(r)),
    }
}

fn moves(text: &str) -> pb::WatchRequest {
    pb::WatchRequest {
        message: Some(Message::Play(pb::WatchMoves {
            moves: text.split_whitespace().map(String::from).collect(),
        })),
    }
}

/// A Watch stream: the sender of its messages and its answers.
struct Watch {
    send: mpsc::Sender<pb::WatchRequest>,
    answers: Streaming<pb::GameStatus>,
}

impl Watch {
    async fn start(client: &mut QiliClient<Channel>, first: pb::WatchRequest) -> Watch {
        let (send, rx) = mpsc::channel(64);
        send.send(first).await.unwrap();
        let answers = client
            .watch(ReceiverStream::new(rx))
            .await
            .expect("the stream opens")
            .into_inner();
        Watch { send, answers }
    }

    async fn send(&self, m: pb::WatchRequest) {
        self.send.send(m).await.expect("the stream is open");
    }

    async fn next(&mut self) -> pb::GameStatus {
        self.answers
            .message()
            .await
            .expect("an answer")
            .expect("the stream goes on")
    }

    /// The status that ends the stream.
    async fn ends_with(mut self) -> tonic::Status {
        match self.answers.message().await {
            Err(status) => status,
            Ok(other) => panic!("expected the stream to end with an error, got {other:?}"),
        }
    }
}

fn field(status: &tonic::Status) -> Option<&str> {
    status
        .metadata()
        .get(FIELD_KEY)
        .and_then(|v| v.to_str().ok())
}

fn ply(status: &tonic::Status) -> Option<&str> {
    status.metadata().get(PLY_KEY).and_then(|v| v.to_str().ok())
}

async fn client(server: &Server) -> QiliClient<Channel> {
    QiliClient::new(channel(&server.url()).await)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Runtime::new().expect("runtime")
}

#[test]
fn watch_referees_a_game_move_by_move() {
    let server = Server::start();
    runtime().block_on(async {
        let mut client = client(&server).await;
        let mut w = Watch::start(&mut client, open(opening("g-1", CHASE.0, ""))).await;
        let first = w.next().await;
        assert_eq!((first.request_id.as_str(), first.moves_played), ("g-1", 0));
        assert!(first.last_move.is_none());
        assert_eq!(first.to_move, pb::Color::Red as i32);
        let mut statuses = Vec::new();
        for m in CHASE.1.split(' ') {
            w.send(moves(m)).await;
            statuses.push(w.next().await);
        }
        let third = statuses.last().unwrap();
        let played = third.last_move.as_ref().unwrap();
        assert_eq!(
            (played.ply, played.iccs.as_str(), played.chinese.as_str()),
            (7, "a7b7", "炮１平２")
        );
        assert_eq!(third.repetitions, 3);
        let ruling = third.ruling.as_ref().expect("the ruling at three");
        assert_eq!(ruling.verdict, pb::Verdict::RedMustChange as i32);
        assert_eq!(ruling.request_id, "g-1");
        assert_eq!(third.banmoves, "banmoves a3b3");
        let f = &third.forbidden_moves[0];
        assert!(f.loses);
        assert_eq!(f.pattern, pb::Pattern::PerpetualChase as i32);
        assert!(third.told_to_change.unwrap().red);
        let notice = statuses[3].notice.as_ref().expect("a notice at two");
        assert_eq!(notice.forecast, pb::Verdict::RedMustChange as i32);
        // Red chases again: it loses; a message with two moves is answered twice.
        w.send(moves("a3b3 b7a7")).await;
        let lost = w.next().await;
        let end = lost.end.as_ref().expect("red loses");
        assert_eq!(end.kind, pb::GameEndKind::RepetitionLoss as i32);
        assert_eq!((end.winner, end.ply), (pb::Color::Black as i32, Some(8)));
        assert!(end.articles.iter().any(|a| a.id == "4.1.7"));
        let after = w.next().await;
        assert_eq!(after.moves_played, 10);
        assert_eq!(after.end, lost.end, "the end stays the first one");
        // Status on the whole game gives the stream's last answer.
        let mut whole = opening("g-1", CHASE.0, CHASE.1);
        whole.moves.extend(["a3b3".to_string(), "b7a7".to_string()]);
        let status = client.status(whole).await.unwrap().into_inner();
        assert_eq!(status, after);
        drop(w);
    });
}

#[test]
fn malformed_streams_end_or_go_on_as_documented() {
    let server = Server::start();
    runtime().block_on(async {
        let mut client = client(&server).await;
        // Moves before an opening end the stream.
        let w = Watch::start(&mut client, moves("h2e2")).await;
        let status = w.ends_with().await;
        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(field(&status), Some("open"));
        // A bad opening ends it naming the field and ply.
        let w = Watch::start(&mut client, open(opening("g", "4k4/9 w", ""))).await;
        let status = w.ends_with().await;
        assert_eq!(
            (status.code(), field(&status)),
            (Code::InvalidArgument, Some("fen"))
        );
        let w = Watch::start(&mut client, open(opening("g", CHASE.0, "a3b3 b7b0"))).await;
        let status = w.ends_with().await;
        assert_eq!((field(&status), ply(&status)), (Some("moves"), Some("1")));
        let mut bad_option = opening("g", CHASE.0, "");
        bad_option.game = Some(pb::GameOptions {
            rule_at: 1,
            natural_limit: 0,
        });
        let w = Watch::start(&mut client, open(bad_option)).await;
        let status = w.ends_with().await;
        assert_eq!(field(&status), Some("game.rule_at"));
        // A bad move mid-game: an error answer naming its ply, the moves after it not played,
        // and the stream goes on.
        let mut w = Watch::start(&mut client, open(opening("g", CHASE.0, "a3b3"))).await;
        assert_eq!(w.next().await.moves_played, 1);
        w.send(moves("b7a7 a3a9 b3a3")).await;
        assert_eq!(w.next().await.moves_played, 2);
        let bad = w.next().await;
        let e = bad.error.as_ref().expect("an error answer");
        assert_eq!(e.code, pb::ErrorCode::InvalidArgument as i32);
        assert_eq!((e.field.as_str(), e.ply), ("moves", Some(2)));
        assert!(e.message.starts_with("moves[2] \"a3a9\""), "{}", e.message);
        assert_eq!(bad.moves_played, 2, "the game as it was");
        w.send(moves("b3a3")).await;
        assert_eq!(w.next().await.moves_played, 3);
        // A second opening: an error answer, the game goes on.
        w.send(open(opening("other", "", ""))).await;
        let again = w.next().await;
        assert_eq!(again.error.as_ref().map(|e| e.field.as_str()), Some("open"));
        assert_eq!((again.moves_played, again.request_id.as_str()), (3, "g"));
        w.send(moves("a7b7")).await;
        assert_eq!(w.next().await.moves_played, 4);
        // The client finishing ends the stream cleanly.
        drop(w.send);
        assert!(w.answers.message().await.unwrap().is_none());
    });
}

#[test]
fn a_game_is_bounded_by_the_move_limit() {
    let server = Server::start_with(&["--max-moves", "10"]);
    runtime().block_on(async {
        let mut client = client(&server).await;
        let mut w = Watch::start(&mut client, open(opening("g", CHASE.0, CHASE.1))).await;
        assert_eq!(w.next().await.moves_played, 8);
        w.send(moves("a3b3 b7a7 b3a3")).await;
        assert_eq!(w.next().await.moves_played, 9);
        assert_eq!(w.next().await.moves_played, 10);
        let status = w.ends_with().await;
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert_eq!((field(&status), ply(&status)), (Some("moves"), Some("10")));
        // An opening over the limit, through a UCCI string's moves too.
        let ucci = format!("position fen {} moves {} a3b3 b7a7 b3a3", CHASE.0, CHASE.1);
        let w = Watch::start(&mut client, open(opening("g", &ucci, ""))).await;
        assert_eq!(w.ends_with().await.code(), Code::ResourceExhausted);
        let status = client
            .status(opening("g", &ucci, ""))
            .await
            .expect_err("over the limit");
        assert_eq!(status.code(), Code::ResourceExhausted);
    });
}

#[test]
fn each_detail_level_sends_what_the_proto_documents() {
    let server = Server::start();
    runtime().block_on(async {
        let mut client = client(&server).await;
        let ask = |detail: pb::Detail, language: pb::Language| {
            let mut r = opening("d", CHASE.0, CHASE.1);
            r.detail = detail.into();
            r.language = language.into();
            r
        };
        let full = client
            .status(ask(pb::Detail::Full, pb::Language::En))
            .await
            .unwrap()
            .into_inner();
        let f = &full.forbidden_moves[0];
        assert!(!f.articles.is_empty() && f.articles.iter().all(|a| a.zh.is_empty()));
        assert!(f.articles.iter().any(|a| !a.en.is_empty()));
        assert!(full.ruling.as_ref().unwrap().explanation_zh.is_empty());
        assert!(!full.ruling.as_ref().unwrap().explanation_en.is_empty());
        let summary = client
            .status(ask(pb::Detail::Summary, pb::Language::Both))
            .await
            .unwrap()
            .into_inner();
        let f = &summary.forbidden_moves[0];
        assert!(
            f.articles
                .iter()
                .all(|a| a.zh.is_empty() && a.en.is_empty())
        );
        assert_eq!(f.pattern_zh, "长捉");
        let verdict = client
            .status(ask(pb::Detail::Verdict, pb::Language::Both))
            .await
            .unwrap()
            .into_inner();
        let f = &verdict.forbidden_moves[0];
        assert!(f.articles.is_empty() && f.pattern_zh.is_empty());
        assert_eq!(f.pattern, pb::Pattern::Unspecified as i32);
        assert!(verdict.ruling.as_ref().unwrap().moves.is_empty());
        // Every level says the same thing otherwise.
        for s in [&summary, &verdict] {
            assert_eq!(s.banmoves, full.banmoves);
            assert_eq!(s.told_to_change, full.told_to_change);
            assert_eq!(
                s.ruling.as_ref().map(|r| r.verdict),
                full.ruling.as_ref().map(|r| r.verdict)
            );
        }
    });
}

#[test]
fn a_sample_of_the_corpus_through_watch_ends_with_adjudicates_ruling() {
    let server = Server::start();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let cases = qili::corpus::load(&dir).expect("the corpus");
    runtime().block_on(async {
        let mut client = client(&server).await;
        let mut checked = 0;
        for case in cases.iter().step_by(9) {
            let whole = qili::service::convert::case_request(case);
            let mut first = whole.clone();
            first.moves.clear();
            let mut w = Watch::start(&mut client, open(first)).await;
            w.next().await;
            let mut last = None;
            for m in &case.moves {
                w.send(moves(m)).await;
                last = Some(w.next().await);
            }
            let last = last.expect("moves");
            let ruling = client.adjudicate(whole).await.unwrap().into_inner();
            if ruling.repetitions >= 3 {
                assert_eq!(last.ruling.as_ref(), Some(&ruling), "{}", case.id);
                checked += 1;
            }
        }
        assert!(checked >= 20, "only {checked} cases ruled at three");
    });
}

/// Runs the built `qili` with `stdin` as its standard input.
fn qili_with_input(args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(super::common::QILI)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run qili");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.as_bytes()).expect("write the moves");
    drop(input);
    child.wait_with_output().expect("qili ends")
}

#[test]
fn qili_watch_prints_a_line_per_move_and_json_in_the_apis_spelling() {
    let o = qili_with_input(
        &["watch", "--fen", CHASE.0, "--json", "--lang", "en"],
        &format!("{}\n1. a3b3\n", CHASE.1.replace(' ', ",")),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<serde_json::Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect();
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[7]["ruling"]["verdict"], "VERDICT_RED_MUST_CHANGE");
    assert_eq!(lines[7]["forbiddenMoves"][0]["iccs"], "a3b3");
    assert_eq!(lines[7]["banmoves"], "banmoves a3b3");
    assert_eq!(lines[8]["end"]["kind"], "GAME_END_KIND_REPETITION_LOSS");
    assert_eq!(lines[8]["end"]["winner"], "COLOR_BLACK");
    // A record's main line: a line per ply.
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn/ccgc-20.pgn");
    let o = qili_with_input(&["watch", "--record", record, "--lang", "zh"], "");
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().count(), 66);
    assert!(text.contains("局面第2次出现"), "{text}");
    // Bad options and moves exit 2 naming them.
    for (args, input, says) in [
        (
            vec!["watch", "--rule-at", "1"],
            "",
            "--rule-at: 1 is out of range",
        ),
        (
            vec!["watch", "--natural-limit", "5000"],
            "",
            "--natural-limit: 5000",
        ),
        (vec!["watch", "--fen", "4k4 w"], "", "fen: "),
        (vec!["watch"], "h2e2 h9g7 e2e9", "moves[2] \"e2e9\""),
    ] {
        let o = qili_with_input(&args, input);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        let err = super::common::english_line(&err);
        assert!(err.starts_with(&format!("qili: {says}")), "{args:?}: {err}");
    }
}
