//! Hostile input (issue 6 item 4), through a real `qili serve` child and through `qili judge`: bad
//! FENs, illegal and ambiguous moves in each notation, unknown names, too many moves, oversized and
//! non-UTF-8 strings, an empty request, and positions built to make the mate-threat search explode.
//! Every one gets the documented code and a message naming the field (and the move), the CLI exits
//! 2 with one line naming the field, nothing panics, and health stays SERVING throughout.

use super::common::{HealthWatch, QILI, RawCodec, Server, channel, raw_unary};
use qili::rules::{self, Options, Ruleset};
use qili::service::pb::qili_client::QiliClient;
use qili::service::pb::{self, adjudicate_stream_response::Result as Answer};
use qili::service::{FIELD_KEY, PLY_KEY};
use std::process::{Command, Output};
use tonic::{Code, Request, Status};

/// Red's rook checks on ranks 9 and 8; black's king steps up and down.
const CHECKS: &str = "4k4/R8/9/9/9/9/9/9/9/3K5 w";
/// Two red rooks on file h (red's file 2): `R2.5` and `车二平五` could be either.
const TWO_ROOKS: &str = "4k4/9/9/9/9/9/9/7R1/9/3K3R1 w";
/// Crossed red soldiers on two files: `前兵` could be the front one of either.
const TWO_FILES: &str = "4k4/9/6P2/2P3P2/2P3P2/9/9/9/9/3K5 w";

/// A request the server and the CLI must refuse: where it is at fault and how the reason begins.
struct Bad {
    name: &'static str,
    fen: String,
    moves: Vec<String>,
    /// `--notation` / `notation` (None: detect).
    notation: Option<pb::Notation>,
    ruleset: &'static str,
    field: &'static str,
    ply: Option<u32>,
    /// The message begins with this.
    prefix: String,
}

fn bad_fen(name: &'static str, fen: &str) -> Bad {
    Bad {
        name,
        fen: fen.to_string(),
        moves: vec!["h2e2".into()],
        notation: None,
        ruleset: "",
        field: "fen",
        ply: None,
        prefix: "fen: ".into(),
    }
}

fn bad_move(
    name: &'static str,
    fen: &str,
    moves: &str,
    notation: Option<pb::Notation>,
    ply: u32,
) -> Bad {
    let moves: Vec<String> = moves.split_whitespace().map(String::from).collect();
    let text = &moves[ply as usize];
    Bad {
        name,
        fen: fen.to_string(),
        prefix: format!("moves[{ply}] {text:?}: "),
        moves,
        notation,
        ruleset: "",
        field: "moves",
        ply: Some(ply),
    }
}

/// The refusals both front ends share.
fn bad_requests() -> Vec<Bad> {
    use pb::Notation::{Chinese, Iccs, Wxf};
    vec![
        bad_fen("empty board", "9/9/9/9/9/9/9/9/9/9 w"),
        bad_fen("only the side", "w"),
        bad_fen("too few ranks", "4k4/9/9 w"),
        bad_fen("too many ranks", "4k4/9/9/9/9/9/9/9/9/9/3K5 w"),
        bad_fen("rank too wide", "4k5/9/9/9/9/9/9/9/9/3K5 w"),
        bad_fen("bad piece letter", "4k4/9/9/9/9/9/9/9/9/3K4x w"),
        bad_fen("full-width digit", "４k４/9/9/9/9/9/9/9/9/3K5 w"),
        bad_fen("control character", "4k4/9/9/9/9/9/9/9/9/3K4\u{0} w"),
        bad_fen("two red kings", "4k4/9/9/9/9/9/9/9/9/3KK4 w"),
        bad_fen("no black king", "9/9/9/9/9/9/9/9/9/3K5 w"),
        bad_fen("king outside the palace", "4k4/9/9/9/9/9/9/9/9/K8 w"),
        bad_fen("kings facing", "4k4/9/9/9/9/9/9/9/9/4K4 w"),
        bad_fen("pawn behind its start", "4k4/9/9/9/9/9/9/9/4P4/3K5 w"),
        bad_fen("pawn off its file", "4k4/9/9/9/9/9/1P7/9/9/3K5 w"),
        bad_fen("elephant off its points", "4k4/9/9/9/9/9/9/9/4B4/3K5 w"),
        bad_fen("side field garbage", "4k4/9/9/9/9/9/9/9/9/3K5 x"),
        bad_fen("no side field", "4k4/9/9/9/9/9/9/9/9/3K5"),
        bad_fen("counters garbage", "4k4/9/9/9/9/9/9/9/9/3K5 w - - z 1"),
        bad_fen("too many fields", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 7"),
        bad_fen("side not to move in check", "4k4/4R4/9/9/9/9/9/9/9/3K5 w"),
        bad_move("ICCS illegal", CHECKS, "a8a9 e9e8 a9b8", Some(Iccs), 2),
        bad_move("ICCS illegal, detected", CHECKS, "a8a9 e9e8 a9b8", None, 2),
        bad_move("ICCS off the board", CHECKS, "a8a9 z9z9", None, 1),
        bad_move("ICCS wrong side", CHECKS, "e9e8", Some(Iccs), 0),
        bad_move("ICCS into check", CHECKS, "a8a9 e9f9", Some(Iccs), 1),
        bad_move("ICCS too long", CHECKS, "a8a9a9", Some(Iccs), 0),
        bad_move("ICCS half", CHECKS, "a8", None, 0),
        bad_move("WXF ambiguous", TWO_ROOKS, "K6+1 k5+1 R2.5", Some(Wxf), 2),
        bad_move("WXF ambiguous, detected", TWO_ROOKS, "R2.5", None, 0),
        bad_move("WXF ambiguous piece", TWO_FILES, "P+.4", Some(Wxf), 0),
        bad_move("WXF illegal", CHECKS, "R9+1 K5.4", Some(Wxf), 1),
        bad_move("WXF garbage", CHECKS, "R9+1 ?!", Some(Wxf), 1),
        bad_move(
            "Chinese ambiguous",
            TWO_ROOKS,
            "帅六进一 将5进1 车二平五",
            None,
            2,
        ),
        bad_move(
            "Chinese ambiguous piece",
            TWO_FILES,
            "前兵平四",
            Some(Chinese),
            0,
        ),
        bad_move(
            "Chinese no such piece",
            CHECKS,
            "炮二平五",
            Some(Chinese),
            0,
        ),
        bad_move(
            "Chinese illegal",
            CHECKS,
            "车九进一 将5进3",
            Some(Chinese),
            1,
        ),
        bad_move("Chinese garbage", CHECKS, "马马马马", Some(Chinese), 0),
        bad_move("notation mismatch", CHECKS, "车九进一", Some(Iccs), 0),
        Bad {
            name: "unknown ruleset",
            fen: CHECKS.into(),
            moves: vec!["a8a9".into()],
            notation: None,
            ruleset: "fide",
            field: "ruleset",
            ply: None,
            prefix: "ruleset: ".into(),
        },
    ]
}

// ---------------------------------------------------------------------------------------------
// Through the server.
// ---------------------------------------------------------------------------------------------

fn request(b: &Bad) -> pb::AdjudicateRequest {
    pb::AdjudicateRequest {
        request_id: b.name.to_string(),
        fen: b.fen.clone(),
        moves: b.moves.iter().collect(),
        notation: b.notation.unwrap_or(pb::Notation::Auto).into(),
        ruleset: b.ruleset.to_string(),
        ..Default::default()
    }
}

fn metadata(status: &Status, key: &str) -> Option<String> {
    status
        .metadata()
        .get(key)
        .and_then(|v| v.to_str().ok())
        .map(String::from)
}

/// The status has `code`, names `field` (message and trailer) and `ply` (message and trailer).
fn assert_status(name: &str, status: &Status, code: Code, field: &str, ply: Option<u32>) {
    assert_eq!(status.code(), code, "{name}: {status:?}");
    let message = status.message();
    assert!(
        message.starts_with(field),
        "{name}: message does not name {field}: {message}"
    );
    assert!(
        !message.contains("panicked"),
        "{name}: a panic is reported: {message}"
    );
    assert_eq!(
        metadata(status, FIELD_KEY).as_deref(),
        Some(field),
        "{name}: field trailer of {status:?}"
    );
    assert_eq!(
        metadata(status, PLY_KEY),
        ply.map(|p| p.to_string()),
        "{name}: ply trailer of {status:?}"
    );
    if let Some(ply) = ply {
        assert!(
            message.starts_with(&format!("{field}[{ply}] ")),
            "{name}: message does not name the move: {message}"
        );
    }
}

fn assert_no_panic(server: &Server) {
    let log = server.log();
    assert!(
        !log.iter().any(|l| l.contains("panicked")),
        "the server panicked: {log:#?}"
    );
}

#[tokio::test]
async fn the_server_refuses_bad_requests_naming_the_field_and_the_move() {
    use futures::StreamExt;
    let server = Server::start();
    let health = HealthWatch::start(&server.url()).await;
    let mut client = QiliClient::new(channel(&server.url()).await);
    let bad = bad_requests();
    for b in &bad {
        let e = client.adjudicate(request(b)).await.expect_err(b.name);
        assert_status(b.name, &e, Code::InvalidArgument, b.field, b.ply);
        assert!(
            e.message().starts_with(&b.prefix),
            "{}: {:?} does not begin with {:?}",
            b.name,
            e.message(),
            b.prefix
        );
    }

    // The same through one stream: an error answer each, in order, and the stream goes on.
    let answers: Vec<pb::AdjudicateStreamResponse> = client
        .adjudicate_stream(futures::stream::iter(
            bad.iter().map(request).collect::<Vec<_>>(),
        ))
        .await
        .expect("stream")
        .into_inner()
        .map(|a| a.expect("an answer"))
        .collect()
        .await;
    assert_eq!(answers.len(), bad.len());
    for (b, a) in bad.iter().zip(&answers) {
        assert_eq!(a.request_id, b.name);
        let Some(Answer::Error(e)) = &a.result else {
            panic!("{}: {a:?}", b.name);
        };
        assert_eq!(e.code(), pb::ErrorCode::InvalidArgument, "{}", b.name);
        assert_eq!((e.field.as_str(), e.ply), (b.field, b.ply), "{}", b.name);
        assert!(
            e.message.starts_with(&b.prefix),
            "{}: {}",
            b.name,
            e.message
        );
    }

    // Analyze reads FENs and its one move the same way (its move field is `move`).
    for b in bad.iter().filter(|b| b.field == "fen") {
        let e = client
            .analyze(pb::AnalyzeRequest {
                fen: b.fen.clone(),
                ..Default::default()
            })
            .await
            .expect_err(b.name);
        assert_status(b.name, &e, Code::InvalidArgument, "fen", None);
    }
    for b in bad
        .iter()
        .filter(|b| b.field == "moves" && b.ply == Some(0))
    {
        let e = client
            .analyze(pb::AnalyzeRequest {
                fen: b.fen.clone(),
                r#move: b.moves[0].clone(),
                notation: b.notation.unwrap_or(pb::Notation::Auto).into(),
                ..Default::default()
            })
            .await
            .expect_err(b.name);
        assert_status(b.name, &e, Code::InvalidArgument, "move", None);
    }

    // Unknown enum values and names.
    let mut r = request(&bad[0]);
    r.fen = CHECKS.into();
    r.notation = 42;
    let e = client.adjudicate(r.clone()).await.expect_err("notation 42");
    assert_status("notation 42", &e, Code::InvalidArgument, "notation", None);
    r.notation = 0;
    r.language = -1;
    let e = client.adjudicate(r.clone()).await.expect_err("language -1");
    assert_status("language -1", &e, Code::InvalidArgument, "language", None);
    let e = client
        .analyze(pb::AnalyzeRequest {
            ruleset: "fide".into(),
            ..Default::default()
        })
        .await
        .expect_err("analyze ruleset");
    assert_status(
        "analyze ruleset",
        &e,
        Code::InvalidArgument,
        "ruleset",
        None,
    );

    health.finish().await;
    assert_no_panic(&server);
}

/// `n` legal moves from the opening: both sides' horses shuttle out and back.
fn shuttle(n: usize) -> Vec<String> {
    ["b0c2", "b9c7", "c2b0", "c7b9"]
        .iter()
        .cycle()
        .take(n)
        .map(|m| m.to_string())
        .collect()
}

#[tokio::test]
async fn the_server_refuses_oversized_requests_and_answers_empty_ones() {
    let server = Server::start();
    let health = HealthWatch::start(&server.url()).await;
    let mut client = QiliClient::new(channel(&server.url()).await);

    // 10 000 moves: over --max-moves (1024), legal or not.
    for (name, moves) in [
        ("10 000 legal moves", shuttle(10_000)),
        ("10 000 bad moves", vec!["??".to_string(); 10_000]),
    ] {
        let e = client
            .adjudicate(pb::AdjudicateRequest {
                moves: moves.into(),
                ..Default::default()
            })
            .await
            .expect_err(name);
        assert_status(name, &e, Code::ResourceExhausted, "moves", None);
        assert!(
            e.message()
                .starts_with("moves: 10000 moves, more than the limit of 1024"),
            "{name}: {}",
            e.message()
        );
    }
    // Exactly the limit is ruled on.
    let ruling = client
        .adjudicate(pb::AdjudicateRequest {
            moves: shuttle(1024).into(),
            ..Default::default()
        })
        .await
        .expect("1024 moves")
        .into_inner();
    assert_eq!(ruling.verdict(), pb::Verdict::Draw);

    // A 1 MiB string makes the message larger than --max-message-bytes, whatever the field.
    let mib = "x".repeat(1 << 20);
    for (name, r) in [
        (
            "1 MiB request_id",
            pb::AdjudicateRequest {
                request_id: mib.clone(),
                ..Default::default()
            },
        ),
        (
            "1 MiB fen",
            pb::AdjudicateRequest {
                fen: mib.clone(),
                ..Default::default()
            },
        ),
        (
            "1 MiB move",
            pb::AdjudicateRequest {
                moves: [&mib].into_iter().collect(),
                ..Default::default()
            },
        ),
    ] {
        let e = client.adjudicate(r).await.expect_err(name);
        assert_eq!(e.code(), Code::ResourceExhausted, "{name}: {e:?}");
        assert!(
            e.message().starts_with("request: ") && e.message().contains("1048576"),
            "{name}: {}",
            e.message()
        );
        assert!(
            e.message().ends_with("(qili serve --max-message-bytes)"),
            "{name}: {}",
            e.message()
        );
    }

    // Just under the limit, a huge bad field is refused as bad (not echoed back whole).
    let big = "x".repeat((1 << 20) - 1024);
    for (name, r, field, ply) in [
        (
            "big fen",
            pb::AdjudicateRequest {
                fen: big.clone(),
                ..Default::default()
            },
            "fen",
            None,
        ),
        (
            "big move",
            pb::AdjudicateRequest {
                moves: ["h2e2", big.as_str()].into_iter().collect(),
                ..Default::default()
            },
            "moves",
            Some(1),
        ),
        (
            "big ruleset",
            pb::AdjudicateRequest {
                ruleset: big.clone(),
                ..Default::default()
            },
            "ruleset",
            None,
        ),
    ] {
        let e = client.adjudicate(r).await.expect_err(name);
        assert_status(name, &e, Code::InvalidArgument, field, ply);
        assert!(
            e.message().len() < 4096,
            "{name}: a {} byte message",
            e.message().len()
        );
    }
    // A big request id is only echoed back.
    let ruling = client
        .adjudicate(pb::AdjudicateRequest {
            request_id: big.clone(),
            fen: CHECKS.into(),
            moves: "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9"
                .split(' ')
                .map(String::from)
                .collect(),
            ..Default::default()
        })
        .await
        .expect("big request id")
        .into_inner();
    assert_eq!(ruling.request_id.len(), big.len());
    assert_eq!(ruling.verdict(), pb::Verdict::RedLoses);

    // The empty request is the opening position with no moves; an empty analysis is the opening.
    let ruling = client
        .adjudicate(pb::AdjudicateRequest::default())
        .await
        .expect("empty request")
        .into_inner();
    assert_eq!(ruling.verdict(), pb::Verdict::NoRepetition);
    let analysis = client
        .analyze(pb::AnalyzeRequest::default())
        .await
        .expect("empty analysis")
        .into_inner();
    assert_eq!(analysis.pieces.len(), 32);

    health.finish().await;
    assert_no_panic(&server);
}

/// The same message as `AdjudicateRequest` on the wire, with every string field as `bytes`, so
/// that prost encodes bytes that are not UTF-8.
#[derive(Clone, PartialEq, prost::Message)]
struct RawAdjudicateRequest {
    #[prost(bytes = "vec", tag = "1")]
    request_id: Vec<u8>,
    #[prost(bytes = "vec", tag = "2")]
    fen: Vec<u8>,
    #[prost(bytes = "vec", repeated, tag = "3")]
    moves: Vec<Vec<u8>>,
    #[prost(bytes = "vec", tag = "5")]
    ruleset: Vec<u8>,
}

#[tokio::test]
async fn bytes_that_are_not_a_valid_message_are_invalid_argument() {
    use prost::Message;
    let server = Server::start();
    let health = HealthWatch::start(&server.url()).await;
    let ch = channel(&server.url()).await;
    let not_utf8 = vec![b'h', 0xff, 0xfe, b'2'];
    let ok = |s: &str| s.as_bytes().to_vec();
    let cases = [
        (
            "request_id",
            RawAdjudicateRequest {
                request_id: not_utf8.clone(),
                ..Default::default()
            },
        ),
        (
            "fen",
            RawAdjudicateRequest {
                fen: not_utf8.clone(),
                ..Default::default()
            },
        ),
        (
            "moves",
            RawAdjudicateRequest {
                fen: ok(CHECKS),
                moves: vec![ok("a8a9"), not_utf8.clone()],
                ..Default::default()
            },
        ),
        (
            "ruleset",
            RawAdjudicateRequest {
                ruleset: not_utf8.clone(),
                ..Default::default()
            },
        ),
    ];
    for (field, message) in &cases {
        let e = raw_unary(
            ch.clone(),
            "/qili.v1.Qili/Adjudicate",
            message.encode_to_vec(),
        )
        .await
        .expect_err(field);
        assert_status(field, &e, Code::InvalidArgument, field, None);
    }

    // Bytes that are not protobuf at all: a field with wire type 7 (there is none).
    for body in [vec![0x0f], vec![0x12, 0x7f, b'x'], vec![0xff; 12]] {
        let e = raw_unary(ch.clone(), "/qili.v1.Qili/Adjudicate", body.clone())
            .await
            .expect_err("garbage");
        assert_eq!(e.code(), Code::InvalidArgument, "{body:?}: {e:?}");
        assert!(!e.message().contains("panicked"), "{e:?}");
    }

    // An empty body is the empty message: the opening position, nothing to rule on.
    let answer = raw_unary(ch.clone(), "/qili.v1.Qili/Adjudicate", Vec::new())
        .await
        .expect("empty body");
    let ruling = pb::Ruling::decode(answer.as_slice()).expect("a Ruling");
    assert_eq!(ruling.verdict(), pb::Verdict::NoRepetition);

    // In a stream, an undecodable message ends the stream with the same status.
    let first = RawAdjudicateRequest {
        request_id: ok("fine"),
        ..Default::default()
    };
    let second = RawAdjudicateRequest {
        fen: not_utf8.clone(),
        ..Default::default()
    };
    let mut answers = raw_stream(ch.clone(), [first, second]).await;
    let one = answers.message().await.expect("first answer").expect("one");
    let one = pb::AdjudicateStreamResponse::decode(one.as_slice()).expect("an answer");
    assert_eq!(one.request_id, "fine");
    let end = answers.message().await.expect_err("the stream ends");
    assert_status("stream fen", &end, Code::InvalidArgument, "fen", None);

    health.finish().await;
    assert_no_panic(&server);
}

/// Opens an `AdjudicateStream` that sends `messages` as they are encoded (bytes a typed client
/// would refuse to send) and returns its answers, undecoded.
async fn raw_stream(
    ch: tonic::transport::Channel,
    messages: [RawAdjudicateRequest; 2],
) -> tonic::Streaming<Vec<u8>> {
    use prost::Message;
    let mut grpc = tonic::client::Grpc::new(ch);
    grpc.ready().await.expect("ready");
    let path =
        tonic::codegen::http::uri::PathAndQuery::from_static("/qili.v1.Qili/AdjudicateStream");
    let messages = messages.map(|m| m.encode_to_vec());
    grpc.streaming(
        Request::new(futures::stream::iter(messages)),
        path,
        RawCodec,
    )
    .await
    .expect("stream")
    .into_inner()
}

/// Sends `body` as it is (no framing added) to `rpc` over gRPC (HTTP/2) and returns the call's
/// status, from the answer's head or its trailers.
async fn grpc_bytes(ch: tonic::transport::Channel, rpc: &str, body: Vec<u8>) -> Status {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let request = tonic::codegen::http::Request::builder()
        .method("POST")
        .uri(rpc)
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(tonic::body::Body::new(http_body_util::Full::new(
            tonic::codegen::Bytes::from(body),
        )))
        .expect("request");
    let call = async {
        let response = ch.oneshot(request).await.expect("an answer");
        if let Some(status) = Status::from_header_map(response.headers()) {
            return status;
        }
        let answer = response.into_body().collect().await.expect("the body");
        let trailers = answer.trailers().expect("trailers");
        Status::from_header_map(trailers).expect("grpc-status")
    };
    tokio::time::timeout(std::time::Duration::from_secs(30), call)
        .await
        .expect("an answer within 30 s")
}

/// Sends `body` to `rpc` over gRPC-Web (HTTP/1.1) as `content_type` and returns the gRPC code of
/// the answer, from its head (an error answered at once) or its trailer frame.
async fn grpc_web_code(addr: &str, rpc: &str, content_type: &str, body: &[u8]) -> i32 {
    use base64::Engine;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut raw = format!(
        "POST {rpc} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\ncontent-type: \
         {content_type}\r\nx-grpc-web: 1\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    raw.extend_from_slice(body);
    let mut socket = tokio::net::TcpStream::connect(addr).await.expect("connect");
    socket.write_all(&raw).await.expect("write");
    let mut answer = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(30),
        socket.read_to_end(&mut answer),
    )
    .await
    .expect("an answer within 30 s")
    .expect("read");
    let at = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&answer[..at]).to_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let mut rest = answer[at + 4..].to_vec();
    if content_type.contains("text") {
        rest = base64::engine::general_purpose::STANDARD
            .decode(&rest)
            .unwrap_or(rest);
    }
    let trailers = String::from_utf8_lossy(&rest).to_lowercase();
    let code = [head.as_str(), trailers.as_ref()]
        .into_iter()
        .find_map(|text| {
            let at = text.find("grpc-status:")?;
            let digits: String = text[at + 12..]
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().ok()
        });
    code.unwrap_or_else(|| panic!("no grpc-status: {head} {trailers}"))
}

/// 23.8: broken framing is the client's mistake, not a fault of the server: a truncated frame,
/// no frame, a compressed flag without `grpc-encoding`, gRPC-Web text that is not base64 are
/// INVALID_ARGUMENT (tonic says INTERNAL) over gRPC and gRPC-Web, logged at INFO.
#[tokio::test]
async fn broken_frames_are_invalid_argument_at_info_over_grpc_and_grpc_web() {
    use base64::Engine;
    let server = Server::start();
    let ch = channel(&server.url()).await;
    let frame = |flag: u8, len: u32, body: &[u8]| {
        let mut bytes = vec![flag];
        bytes.extend_from_slice(&len.to_be_bytes());
        bytes.extend_from_slice(body);
        bytes
    };
    let unary = "/qili.v1.Qili/Adjudicate";
    let stream = "/qili.v1.Qili/AdjudicateStream";
    let cases = [
        ("truncated", frame(0, 16, b"\x0a\x02id"), true),
        ("compressed flag, no grpc-encoding", frame(1, 0, b""), true),
        // No frame at all: a unary call without its message (a stream may carry none).
        ("no frame", Vec::new(), false),
    ];
    let mut calls = 0;
    for (name, body, in_stream) in &cases {
        let status = grpc_bytes(ch.clone(), unary, body.clone()).await;
        assert_eq!(
            status.code(),
            Code::InvalidArgument,
            "gRPC {name}: {status:?}"
        );
        assert!(status.message().starts_with("request: "), "{status:?}");
        calls += 1;
        if *in_stream {
            let status = grpc_bytes(ch.clone(), stream, body.clone()).await;
            assert_eq!(
                status.code(),
                Code::InvalidArgument,
                "stream {name}: {status:?}"
            );
            calls += 1;
        }
        let web = grpc_web_code(&server.addr, unary, "application/grpc-web+proto", body).await;
        assert_eq!(web, Code::InvalidArgument as i32, "gRPC-Web {name}");
        calls += 1;
    }
    // gRPC-Web text: the same frames in base64, and text that is not base64.
    let encoded = cases.map(|(name, body, _)| {
        let text = base64::engine::general_purpose::STANDARD.encode(body);
        (name.to_string(), text)
    });
    let not_base64 = ["AAAA*AAA", "AAAAAA=A"].map(|bad| (format!("{bad:?}"), bad.to_string()));
    for (name, text) in encoded.into_iter().chain(not_base64) {
        let web = grpc_web_code(
            &server.addr,
            unary,
            "application/grpc-web-text",
            text.as_bytes(),
        )
        .await;
        assert_eq!(web, Code::InvalidArgument as i32, "gRPC-Web text {name}");
        calls += 1;
    }

    // A client's short deadline (1 ms) is DEADLINE_EXCEEDED at INFO over gRPC and JSON alike
    // (the JSON call's 504 was at ERROR).
    let late = pb::AdjudicateRequest {
        fen: CHECKS.into(),
        moves: shuttle_checks().into(),
        ..Default::default()
    };
    let mut request = Request::new(late.clone());
    request.set_timeout(std::time::Duration::from_millis(1));
    let status = QiliClient::new(ch.clone())
        .adjudicate(request)
        .await
        .expect_err("too late");
    assert!(
        matches!(status.code(), Code::DeadlineExceeded | Code::Cancelled),
        "{status:?}"
    );
    let json = serde_json::to_string(&late).expect("JSON");
    let raw = format!(
        "POST /v1/adjudicate HTTP/1.1\r\nhost: {}\r\nconnection: close\r\ncontent-type: \
         application/json\r\ngrpc-timeout: 1m\r\ncontent-length: {}\r\n\r\n{json}",
        server.addr,
        json.len()
    );
    let answer = {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut socket = tokio::net::TcpStream::connect(&server.addr)
            .await
            .expect("connect");
        socket.write_all(raw.as_bytes()).await.expect("write");
        let mut answer = Vec::new();
        socket.read_to_end(&mut answer).await.expect("read");
        String::from_utf8_lossy(&answer).into_owned()
    };
    assert!(answer.starts_with("HTTP/1.1 504"), "{answer}");

    // One line a call, at INFO with its code; nothing in the log above INFO.
    let lines = server.calls(calls + 2, std::time::Duration::from_secs(10));
    let broken: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["code"] == "INVALID_ARGUMENT" && l["level"] == "INFO")
        .collect();
    assert_eq!(broken.len(), calls, "{lines:#?}");
    let late: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["code"] == "DEADLINE_EXCEEDED" || l["code"] == "CANCELLED")
        .collect();
    assert_eq!(late.len(), 2, "{lines:#?}");
    assert!(late.iter().any(|l| l["http_status"] == 504), "{late:#?}");
    let loud: Vec<String> = server
        .log()
        .into_iter()
        .filter(|l| !l.contains("\"level\":\"INFO\""))
        .collect();
    assert!(loud.is_empty(), "{loud:#?}");
    assert_no_panic(&server);
}

// ---------------------------------------------------------------------------------------------
// The access log: every rejected call is logged, those refused while decoding included.
// ---------------------------------------------------------------------------------------------

/// The one access-log line of `calls` with `rpc` and `code` for which `pick` holds; fails unless
/// there is exactly one, and unless it is at INFO with a latency.
fn one_line<'a>(
    calls: &'a [serde_json::Value],
    rpc: &str,
    code: &str,
    pick: impl Fn(&serde_json::Value) -> bool,
) -> &'a serde_json::Value {
    let found: Vec<&serde_json::Value> = calls
        .iter()
        .filter(|v| v["rpc"] == rpc && v["code"] == code && pick(v))
        .collect();
    assert_eq!(found.len(), 1, "{rpc} {code}: {found:#?} in {calls:#?}");
    let line = found[0];
    assert_eq!(line["level"], "INFO", "{line}");
    assert!(line["latency_us"].is_u64(), "{line}");
    line
}

#[tokio::test]
async fn every_rejected_call_is_logged_once_at_info_with_its_code() {
    use prost::Message;
    let server = Server::start();
    let ch = channel(&server.url()).await;
    let mut client = QiliClient::new(ch.clone());
    let adjudicate = "/qili.v1.Qili/Adjudicate";
    let ask = |id: &str, fen: &str, moves: Vec<String>, ruleset: &str| pb::AdjudicateRequest {
        request_id: id.into(),
        fen: fen.into(),
        moves: moves.into(),
        ruleset: ruleset.into(),
        ..Default::default()
    };

    // Refused by the handler.
    let mut moves = shuttle_checks();
    moves[3] = "e8e6".into();
    let bad_move = ask("log-move", CHECKS, moves[..4].to_vec(), "");
    client.adjudicate(bad_move).await.expect_err("bad move");
    let bad_ruleset = ask("log-ruleset", "", Vec::new(), "fide");
    client
        .adjudicate(bad_ruleset)
        .await
        .expect_err("bad ruleset");
    let many = ask("log-many", "", shuttle(2000), "");
    client.adjudicate(many).await.expect_err("too many moves");
    // Refused while decoding, before any handler ran: too large, not UTF-8, not protobuf.
    let huge = ask("log-huge", &"x".repeat(2 << 20), Vec::new(), "");
    client.adjudicate(huge).await.expect_err("too large");
    let not_utf8 = RawAdjudicateRequest {
        fen: vec![0xff, 0xfe],
        ..Default::default()
    };
    raw_unary(ch.clone(), adjudicate, not_utf8.encode_to_vec())
        .await
        .expect_err("not UTF-8");
    raw_unary(ch.clone(), adjudicate, vec![0x0f])
        .await
        .expect_err("not protobuf");
    // No such method.
    raw_unary(ch.clone(), "/qili.v1.Qili/Nothing", Vec::new())
        .await
        .expect_err("unimplemented");
    // A stream whose second message is not UTF-8: one answer, then the stream ends.
    let fine = RawAdjudicateRequest {
        request_id: b"log-fine".to_vec(),
        ..Default::default()
    };
    let mut answers = raw_stream(ch.clone(), [fine, not_utf8]).await;
    answers.message().await.expect("first answer");
    answers.message().await.expect_err("the stream ends");
    // And one that is ruled on.
    let (fen, moves) = (CHECKS, shuttle_checks());
    client
        .adjudicate(ask("log-ok", fen, moves, ""))
        .await
        .expect("a ruling");

    // The same over the JSON API: its lines have the request id, the verdict and the code too.
    let (fen, moves) = (CHECKS, shuttle_checks());
    let ok = serde_json::json!({"requestId": "log-json", "fen": fen, "moves": moves});
    let answer = json_post(&server.addr, "/v1/adjudicate", &ok).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let mut moves = shuttle_checks();
    moves[3] = "e8e6".into();
    let bad = serde_json::json!({"requestId": "log-json-bad", "fen": fen, "moves": &moves[..4]});
    let answer = json_post(&server.addr, "/v1/adjudicate", &bad).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");

    let calls = server.calls(11, std::time::Duration::from_secs(10));
    let id = |id: &'static str| move |v: &serde_json::Value| v["request_id"] == id;
    let line = one_line(&calls, "/v1/adjudicate", "OK", id("log-json"));
    assert_eq!(
        (&line["verdict"], &line["http_status"]),
        (&"red_loses".into(), &200.into())
    );
    let line = one_line(
        &calls,
        "/v1/adjudicate",
        "INVALID_ARGUMENT",
        id("log-json-bad"),
    );
    assert_eq!(
        (&line["field"], &line["ply"], &line["http_status"]),
        (&"moves".into(), &3.into(), &400.into())
    );
    let line = one_line(&calls, adjudicate, "INVALID_ARGUMENT", id("log-move"));
    assert_eq!((&line["field"], &line["ply"]), (&"moves".into(), &3.into()));
    assert!(
        line["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("moves[3] \"e8e6\""))
    );
    let line = one_line(&calls, adjudicate, "INVALID_ARGUMENT", id("log-ruleset"));
    assert_eq!(line["field"], "ruleset");
    let line = one_line(&calls, adjudicate, "RESOURCE_EXHAUSTED", id("log-many"));
    assert_eq!(line["field"], "moves");
    // A message refused while decoding has no request id: the handler never saw it.
    let no_id = |v: &serde_json::Value| v.get("request_id").is_none();
    let line = one_line(&calls, adjudicate, "RESOURCE_EXHAUSTED", no_id);
    assert!(
        line["error"]
            .as_str()
            .is_some_and(|e| e.contains("--max-message-bytes")),
        "{line}"
    );
    one_line(&calls, adjudicate, "INVALID_ARGUMENT", |v| {
        no_id(v) && v["field"] == "fen"
    });
    one_line(&calls, adjudicate, "INVALID_ARGUMENT", |v| {
        no_id(v) && v.get("field").is_none()
    });
    one_line(&calls, "/qili.v1.Qili/Nothing", "UNIMPLEMENTED", no_id);
    let line = one_line(
        &calls,
        "/qili.v1.Qili/AdjudicateStream",
        "INVALID_ARGUMENT",
        no_id,
    );
    assert_eq!(line["field"], "fen");
    let line = one_line(&calls, adjudicate, "OK", id("log-ok"));
    assert_eq!(line["verdict"], "red_loses");
    assert_eq!(calls.len(), 11, "one line a call: {calls:#?}");
    // The stream's answer has its own line.
    let answers: Vec<serde_json::Value> = server
        .log()
        .iter()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["message"] == "message")
        .collect();
    assert_eq!(answers.len(), 1, "{answers:#?}");
    assert_eq!(
        (&answers[0]["request_id"], &answers[0]["code"]),
        (&"log-fine".into(), &"OK".into())
    );
    // Client mistakes are no faults of the server: nothing above INFO.
    let loud: Vec<String> = server
        .log()
        .into_iter()
        .filter(|l| !l.contains("\"level\":\"INFO\""))
        .collect();
    assert!(loud.is_empty(), "{loud:#?}");
    assert_no_panic(&server);
}

/// POSTs `body` as JSON to `path` over HTTP/1.1 and returns the whole answer.
async fn json_post(addr: &str, path: &str, body: &serde_json::Value) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = body.to_string();
    let raw = format!(
        "POST {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\ncontent-type: \
         application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut socket = tokio::net::TcpStream::connect(addr).await.expect("connect");
    socket.write_all(raw.as_bytes()).await.expect("write");
    let mut answer = Vec::new();
    socket.read_to_end(&mut answer).await.expect("read");
    String::from_utf8_lossy(&answer).into_owned()
}

/// Red's rook checks on ranks 9 and 8 while black's king steps up and down, from [`CHECKS`].
fn shuttle_checks() -> Vec<String> {
    "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9"
        .split(' ')
        .map(String::from)
        .collect()
}

/// Runs `qili serve` with `flags` and `RUST_LOG`, makes one health check, stops it and returns
/// its log.
async fn serve_one_call(flags: &[&str], rust_log: &str) -> Vec<String> {
    use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};
    // A short drain: the client's connection may outlive it by a moment.
    let flags = [flags, &["--drain-timeout-ms", "200"]].concat();
    let mut server = Server::start_logging(&flags, rust_log);
    let mut health = HealthClient::new(channel(&server.url()).await);
    health
        .check(HealthCheckRequest::default())
        .await
        .expect("health");
    drop(health);
    server.terminate();
    let (status, log) = server.wait_exit(std::time::Duration::from_secs(15));
    assert!(status.success(), "{status}: {log:#?}");
    log
}

#[tokio::test]
async fn rust_log_and_log_level_both_set_what_is_logged_and_the_flag_wins() {
    let is_call = |l: &String| l.contains("\"message\":\"call\"");
    // RUST_LOG alone: the access log off, the rest on.
    let log = serve_one_call(&[], "info,qili::service::access=off").await;
    assert!(!log.iter().any(is_call), "{log:#?}");
    assert!(
        log.iter().any(|l| l.contains("SIGTERM received")),
        "{log:#?}"
    );
    // --log-level over RUST_LOG.
    let log = serve_one_call(&["--log-level", "info"], "off").await;
    assert_eq!(log.iter().filter(|l| is_call(l)).count(), 1, "{log:#?}");
    let log = serve_one_call(&["--log-level", "info,qili::service::access=off"], "debug").await;
    assert!(!log.iter().any(is_call), "{log:#?}");
    assert!(!log.iter().any(|l| l.contains("DEBUG")), "{log:#?}");

    // A bad value is refused at once, naming where it came from.
    for (flags, rust_log, source) in [
        (&["--log-level", "inf"][..], "info", "--log-level: "),
        (&[][..], "qili=loud", "RUST_LOG: "),
    ] {
        let out = Command::new(QILI)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(flags)
            .env("RUST_LOG", rust_log)
            .output()
            .expect("run qili serve");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.starts_with(&format!("qili: {source}")), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

// ---------------------------------------------------------------------------------------------
// Positions built to make the mate-threat search explode.
// ---------------------------------------------------------------------------------------------

/// The crowded positions of `tests/data/crowded.txt`: FEN and moves.
fn crowded() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/crowded.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/crowded.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (fen, moves) = l.split_once(" | ").expect("FEN | moves");
            (fen.to_string(), moves.to_string())
        })
        .collect()
}

/// A move's search stays within the limits. `nodes` adds up the two searches a mate threat needs
/// (after the move, and before it to see whether the threat is new), each bounded by `max_nodes`,
/// so it can reach twice the limit (see `search_report_nodes_exceed_max_nodes` in
/// tests/properties.rs).
fn within_bounds(what: &str, m: &pb::MoveReport) {
    let s = m.mate_search.as_ref().expect("mate_search");
    let limits = rules::SearchLimits::default();
    assert_eq!(
        (s.max_plies, s.max_nodes),
        (limits.mate_plies, limits.mate_nodes),
        "{what}"
    );
    assert!(
        s.nodes <= 2 * s.max_nodes,
        "{what} ply {}: {} nodes, limit {} per search",
        m.ply,
        s.nodes,
        s.max_nodes
    );
}

#[tokio::test]
async fn crowded_positions_stay_within_the_search_bounds() {
    let server = Server::start();
    let health = HealthWatch::start(&server.url()).await;
    let mut client = QiliClient::new(channel(&server.url()).await);
    let positions = crowded();
    assert!(positions.len() >= 6, "{positions:?}");
    for (fen, moves) in &positions {
        for ruleset in Ruleset::ALL {
            let what = format!("{ruleset} {fen} {moves}");
            // The library, without any deadline.
            let request = crowded_request(
                fen,
                moves,
                Options {
                    ruleset,
                    ..Options::default()
                },
            );
            let local = qili::request::adjudicate(&request).expect("legal");
            // The ruling's account bounds them all together.
            assert!(
                local.search.nodes <= local.search.max_nodes,
                "{what}: {:?}",
                local.search
            );
            let local = qili::service::convert::ruling(&local, "", pb::Language::En);
            assert_eq!(local.moves.len(), 4, "{what}");
            local.moves.iter().for_each(|m| within_bounds(&what, m));

            // The server answers within its 2 s deadline (generous limit only against a hang).
            let call = client.adjudicate(pb::AdjudicateRequest {
                fen: fen.to_string(),
                moves: request.moves.clone(),
                ruleset: ruleset.name().to_string(),
                ..Default::default()
            });
            match tokio::time::timeout(std::time::Duration::from_secs(30), call)
                .await
                .expect("the call returns")
            {
                Ok(r) => {
                    let r = r.into_inner();
                    r.moves.iter().for_each(|m| within_bounds(&what, m));
                    assert_eq!(r.verdict, local.verdict, "{what}");
                }
                Err(e) => assert_eq!(e.code(), Code::DeadlineExceeded, "{what}: {e:?}"),
            }
        }
    }
    health.finish().await;
    assert_no_panic(&server);
}

/// The request for `fen` and the space-separated `moves` under `options`.
fn crowded_request(fen: &str, moves: &str, options: Options) -> qili::request::Request {
    qili::request::Request {
        fen: fen.to_string(),
        moves: moves.split(' ').map(String::from).collect(),
        notation: None,
        options,
    }
}

/// A ruling asked for with search limits `limits`.
fn limited(fen: &str, moves: &str, limits: rules::SearchLimits) -> rules::Ruling {
    let options = Options {
        limits,
        ..Options::default()
    };
    qili::request::adjudicate(&crowded_request(fen, moves, options)).expect("legal")
}

/// One account bounds all the searches of a ruling: a ruling that reaches it says so, in its
/// search report and its explanation, and the account closes with the ruling.
#[test]
fn one_account_bounds_all_the_searches_of_a_ruling() {
    let defaults = rules::SearchLimits::default;
    for (fen, moves) in crowded() {
        let r = limited(&fen, &moves, defaults());
        assert_eq!(r.search.max_nodes, rules::RULING_NODES);
        assert!(
            r.search.nodes <= r.search.max_nodes,
            "{fen}: {:?}",
            r.search
        );
        if r.search.budget_exhausted {
            assert!(
                r.explanation_en.contains("reached their bound"),
                "{}",
                r.explanation_en
            );
            assert!(
                r.explanation_zh.contains("搜索达到了上限"),
                "{}",
                r.explanation_zh
            );
        }
    }
    // The positions are built to need more than the bound.
    let (fen, moves) = &crowded()[0];
    assert!(limited(fen, moves, defaults()).search.budget_exhausted);

    // A mate threat (车炮 against a lone king) is found with the default account; ten positions
    // run out and say so; and the next search on the thread, outside a ruling, has its own
    // budget again.
    let fen = "3a5/5k3/5a3/C8/9/9/6R2/9/3K5/9 w";
    let moves = "a6a9 d9e8 a9a6 e8d9 a6a9 d9e8 a9a6 e8d9";
    let threat = |r: &rules::Ruling| {
        r.moves
            .iter()
            .any(|m| m.kind == rules::MoveKind::MateThreat)
    };
    let full = limited(fen, moves, defaults());
    assert!(
        threat(&full) && !full.search.budget_exhausted,
        "{:?}",
        full.search
    );
    let tiny = limited(
        fen,
        moves,
        rules::SearchLimits {
            ruling_nodes: 10,
            ..defaults()
        },
    );
    assert!(
        tiny.search.budget_exhausted && tiny.search.nodes <= 10,
        "{:?}",
        tiny.search
    );
    // The moves judged after the account ran out show their searches cut.
    let last = tiny.moves.last().expect("moves");
    assert!(last.gain_search.budget_exhausted, "{last:?}");
    let mut after: qili::Position = fen.parse().expect("FEN");
    let sq = |s: &str| s.parse::<qili::Square>().expect("square");
    after.play_unchecked(qili::Move::new(sq("a6"), sq("a9")));
    let again = after.with_turn_passed().expect("no check on the mover");
    let mut budget = rules::Budget::new(20_000);
    let mut cx = rules::Context::new(u64::MAX);
    assert!(rules::mate_by_checks(&mut cx, &again, 13, &mut budget).is_some());
}

// ---------------------------------------------------------------------------------------------
// Through the command line.
// ---------------------------------------------------------------------------------------------

fn judge(args: &[&str]) -> Output {
    Command::new(QILI)
        .arg("judge")
        .args(args)
        .output()
        .expect("run qili judge")
}

/// Exit 2, one line on stderr beginning `qili: ` and `field`, nothing on stdout, no panic.
fn assert_refused(name: &str, o: &Output, field: &str) {
    let both = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{name}: {both}");
    assert!(!both.contains("panicked"), "{name}: {both}");
    // The Chinese line, then the English (`--lang both`, the default).
    let err = super::common::english_line(&both);
    assert!(
        err.starts_with(&format!("qili: {field}")),
        "{name}: stderr does not name {field}: {err}"
    );
    assert!(o.stdout.is_empty(), "{name}: printed something");
}

#[test]
fn judge_refuses_bad_input_with_exit_2_naming_the_field() {
    // A NUL cannot be passed in an argument at all.
    for b in bad_requests().into_iter().filter(|b| !b.fen.contains('\0')) {
        let moves = b.moves.join(" ");
        let mut args = vec!["--fen", b.fen.as_str(), "--moves", moves.as_str()];
        let notation = b.notation.map(|n| match n {
            pb::Notation::Auto => "auto",
            pb::Notation::Iccs => "iccs",
            pb::Notation::Wxf => "wxf",
            pb::Notation::Chinese => "chinese",
        });
        if let Some(n) = notation {
            args.extend(["--notation", n]);
        }
        if !b.ruleset.is_empty() {
            args.extend(["--ruleset", b.ruleset]);
        }
        let o = judge(&args);
        let field = match b.field {
            "ruleset" => "--ruleset: ",
            _ => &b.prefix,
        };
        assert_refused(b.name, &o, field);
    }
}

fn judge_os(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(QILI)
        .arg("judge")
        .args(args)
        .output()
        .expect("run qili judge")
}

#[test]
fn judge_names_an_argument_that_is_not_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let bad = OsStr::from_bytes(b"h2\xffe2");
    let ok = |s: &'static str| OsStr::new(s);
    for (args, field) in [
        (vec![ok("--fen"), bad, ok("--moves"), ok("h2e2")], "fen: "),
        (vec![ok("--moves"), bad], "moves: "),
        (
            vec![ok("--ruleset"), bad, ok("--moves"), ok("h2e2")],
            "--ruleset: ",
        ),
    ] {
        assert_refused(field, &judge_os(&args), field);
    }
}

#[test]
fn judge_rules_on_10_000_moves_and_cuts_huge_texts_short() {
    let moves = shuttle(10_000).join(" ");
    let o = judge(&["--moves", &moves, "--format", "json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["verdict"], "VERDICT_DRAW");
    assert_eq!(v["repetitions"], 2501);

    let mut bad = shuttle(10_000);
    bad[9_999] = "c7c0".into();
    let o = judge(&["--moves", &bad.join(" ")]);
    assert_refused("bad 10 000th move", &o, "moves[9999] \"c7c0\": ");

    // 100 000 bytes (an argument can hold at most 128 KiB): refused, the text not echoed whole.
    let huge = "x".repeat(100_000);
    for (args, field) in [
        (vec!["--fen", huge.as_str(), "--moves", "h2e2"], "fen: "),
        (vec!["--moves", huge.as_str()], "moves[0] "),
        (
            vec!["--ruleset", huge.as_str(), "--moves", "h2e2"],
            "--ruleset: ",
        ),
    ] {
        let o = judge(&args);
        assert_refused(field, &o, field);
        assert!(o.stderr.len() < 4096, "{field}: {} bytes", o.stderr.len());
    }
}
