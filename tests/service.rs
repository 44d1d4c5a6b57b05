//! The real server on an ephemeral loopback port, called with the generated client: health,
//! reflection, a ruling per verdict, streaming with a bad request in the middle, each error code,
//! and shutdown.

use qili::service::pb::qili_client::QiliClient;
use qili::service::pb::{self, adjudicate_stream_response::Result as Answer};
use qili::service::{FIELD_KEY, PLY_KEY, ServeError, ServiceConfig, serve_with_listener};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;
use tonic::{Code, Request};

/// A running server: its URL, the trigger of its shutdown and its task.
struct Running {
    url: String,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<Result<(), ServeError>>,
}

impl Running {
    async fn start(config: ServiceConfig) -> Running {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().expect("local address");
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(serve_with_listener(listener, config, async {
            let _ = rx.await;
        }));
        Running {
            url: format!("http://{addr}"),
            stop: Some(tx),
            task,
        }
    }

    async fn channel(&self) -> Channel {
        for _ in 0..50 {
            if let Ok(c) = Channel::from_shared(self.url.clone())
                .expect("url")
                .connect()
                .await
            {
                return c;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("cannot connect to {}", self.url);
    }

    async fn client(&self) -> QiliClient<Channel> {
        QiliClient::new(self.channel().await)
    }

    async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let result = tokio::time::timeout(Duration::from_secs(10), self.task)
            .await
            .expect("server stops within 10 s")
            .expect("server task");
        assert!(result.is_ok(), "server ended with {result:?}");
    }
}

fn request(id: &str, fen: &str, moves: &str) -> pb::AdjudicateRequest {
    pb::AdjudicateRequest {
        request_id: id.to_string(),
        fen: fen.to_string(),
        moves: moves.split_whitespace().map(String::from).collect(),
        ..Default::default()
    }
}

/// Red's rook checks on ranks 9 and 8; black's king steps up and down.
const RED_CHECKS: (&str, &str) = (
    "4k4/R8/9/9/9/9/9/9/9/3K5 w",
    "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9",
);
/// Black's rook checks on ranks 0 and 1; red's king steps up and down.
const BLACK_CHECKS: (&str, &str) = (
    "3k5/9/9/9/9/9/9/9/r8/4K4 b",
    "a1a0 e0e1 a0a1 e1e0 a1a0 e0e1 a0a1 e1e0",
);
/// Red's rook follows black's unprotected cannon between the a and b files.
const RED_CHASES: (&str, &str) = (
    "4k4/9/1c7/9/9/9/R8/9/9/3K5 w",
    "a3b3 b7a7 b3a3 a7b7 a3b3 b7a7 b3a3 a7b7",
);
/// The same with colours swapped.
const BLACK_CHASES: (&str, &str) = (
    "5k3/9/9/r8/9/9/9/1C7/9/4K4 b",
    "a6b6 b2a2 b6a6 a2b2 a6b6 b2a2 b6a6 a2b2",
);
/// Both kings step up and down.
const BOTH_IDLE: (&str, &str) = (
    "3k5/9/9/9/9/9/9/9/9/4K4 w",
    "e0e1 d9d8 e1e0 d8d9 e0e1 d9d8 e1e0 d8d9",
);

#[tokio::test]
async fn health_reports_serving_for_the_server_and_the_service() {
    use tonic_health::pb::health_check_response::ServingStatus;
    use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};
    let server = Running::start(ServiceConfig::default()).await;
    let mut health = HealthClient::new(server.channel().await);
    for service in ["", "qili.v1.Qili"] {
        let status = health
            .check(HealthCheckRequest {
                service: service.to_string(),
            })
            .await
            .expect("health check")
            .into_inner()
            .status;
        assert_eq!(status, ServingStatus::Serving as i32, "service {service:?}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn reflection_lists_the_services_in_v1_and_v1alpha() {
    use futures::StreamExt;
    let server = Running::start(ServiceConfig::default()).await;

    use tonic_reflection::pb::v1 as r1;
    let mut v1 = r1::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let ask = r1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(r1::server_reflection_request::MessageRequest::ListServices(
            String::new(),
        )),
    };
    let mut answers = v1
        .server_reflection_info(futures::stream::iter([ask]))
        .await
        .expect("reflection v1")
        .into_inner();
    let answer = answers.next().await.expect("an answer").expect("ok");
    let Some(r1::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        answer.message_response
    else {
        panic!("not a service list: {answer:?}");
    };
    let names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    for name in ["qili.v1.Qili", "grpc.health.v1.Health"] {
        assert!(
            names.iter().any(|n| n == name),
            "{name} missing from {names:?}"
        );
    }

    use tonic_reflection::pb::v1alpha as ra;
    let mut alpha =
        ra::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let ask = ra::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(
            ra::server_reflection_request::MessageRequest::FileContainingSymbol(
                "qili.v1.Qili".into(),
            ),
        ),
    };
    let mut answers = alpha
        .server_reflection_info(futures::stream::iter([ask]))
        .await
        .expect("reflection v1alpha")
        .into_inner();
    let answer = answers.next().await.expect("an answer").expect("ok");
    assert!(
        matches!(
            answer.message_response,
            Some(ra::server_reflection_response::MessageResponse::FileDescriptorResponse(_))
        ),
        "no descriptor: {answer:?}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_ruling_for_every_verdict() {
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;
    let cases = [
        ("red-checks", RED_CHECKS, false, pb::Verdict::RedLoses),
        ("black-checks", BLACK_CHECKS, false, pb::Verdict::BlackLoses),
        ("red-chases", RED_CHASES, false, pb::Verdict::RedMustChange),
        (
            "black-chases",
            BLACK_CHASES,
            false,
            pb::Verdict::BlackMustChange,
        ),
        ("red-chases-told", RED_CHASES, true, pb::Verdict::RedLoses),
        ("both-idle", BOTH_IDLE, false, pb::Verdict::Draw),
    ];
    for (id, (fen, moves), told, verdict) in cases {
        let mut r = request(id, fen, moves);
        r.told_to_change = Some(pb::BySide {
            red: told,
            black: false,
        });
        let ruling = client.adjudicate(r).await.expect(id).into_inner();
        assert_eq!(ruling.verdict(), verdict, "{id}");
        assert_eq!(ruling.request_id, id);
        assert_eq!(ruling.repetitions, 3, "{id}");
        assert_eq!((ruling.cycle_start, ruling.cycle_length), (4, 4), "{id}");
        assert_eq!(ruling.moves.len(), 4, "{id}");
        assert!(!ruling.articles.is_empty(), "{id}");
        assert!(!ruling.explanation_zh.is_empty() && !ruling.explanation_en.is_empty());
    }

    let chase = client
        .adjudicate(request("chase", RED_CHASES.0, RED_CHASES.1))
        .await
        .expect("chase")
        .into_inner();
    let red = chase.red.expect("red side");
    assert_eq!(red.pattern(), pb::Pattern::PerpetualChase);
    assert!(red.forbidden);
    let first = &chase.moves[0];
    assert_eq!(
        (first.iccs.as_str(), first.chinese.as_str()),
        ("a3b3", "车九平八")
    );
    assert_eq!(first.kind(), pb::MoveKind::Chase);
    let target = &first.targets[0];
    assert_eq!(target.square, "b7");
    assert_eq!(target.protection(), pb::Protection::Unprotected);
    assert!(target.counted);

    let none = client
        .adjudicate(request("opening", "", "h2e2 h9g7"))
        .await
        .expect("no repetition")
        .into_inner();
    assert_eq!(none.verdict(), pb::Verdict::NoRepetition);
    assert_eq!(none.cycle_length, 0);
    server.shutdown().await;
}

#[tokio::test]
async fn rulings_in_other_notations_profiles_and_languages() {
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;
    let mut r = request(
        "chinese",
        RED_CHECKS.0,
        "车九进一 将5进1 车九退一 将5退1 车九进一 将5进1 车九退一 将5退1",
    );
    r.notation = pb::Notation::Chinese.into();
    r.ruleset = "axf".into();
    r.language = pb::Language::Zh.into();
    let ruling = client.adjudicate(r).await.expect("ruling").into_inner();
    assert_eq!(ruling.ruleset, "axf");
    assert!(!ruling.explanation_zh.is_empty());
    assert!(
        ruling.explanation_en.is_empty(),
        "English dropped for LANGUAGE_ZH"
    );
    assert!(ruling.moves.iter().all(|m| m.note_en.is_empty()));

    let list = client
        .list_rulesets(pb::ListRulesetsRequest {})
        .await
        .expect("rulesets")
        .into_inner();
    let names: Vec<&str> = list.rulesets.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["cxa1999", "cxa2011", "axf"]);
    assert!(list.rulesets[0].is_default);
    assert!(list.rulesets.iter().all(|r| !r.description.is_empty()));
    server.shutdown().await;
}

#[tokio::test]
async fn analyze_gives_the_graph_and_judges_the_move() {
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;
    let answer = client
        .analyze(pb::AnalyzeRequest {
            request_id: "why".into(),
            fen: RED_CHASES.0.into(),
            r#move: "a3b3".into(),
            ..Default::default()
        })
        .await
        .expect("analysis")
        .into_inner();
    assert_eq!(answer.request_id, "why");
    assert!(
        answer.fen.starts_with("4k4/9/1c7/9/9/9/1R7/9/9/3K5 b"),
        "{}",
        answer.fen
    );
    assert_eq!(answer.pieces.len(), 4);
    assert!(
        answer
            .edges
            .iter()
            .any(|e| e.from == "b3" && e.to == "b7" && e.relation() == pb::Relation::Attacks)
    );
    assert!(answer.attacked.iter().any(|t| t.square == "b7"));
    let mv = answer.r#move.expect("the judged move");
    assert_eq!(mv.kind(), pb::MoveKind::Chase);

    let still = client
        .analyze(pb::AnalyzeRequest {
            fen: RED_CHASES.0.into(),
            ..Default::default()
        })
        .await
        .expect("analysis without a move")
        .into_inner();
    assert!(still.r#move.is_none());

    let bad = client
        .analyze(pb::AnalyzeRequest {
            fen: RED_CHASES.0.into(),
            r#move: "a3b4".into(),
            ..Default::default()
        })
        .await
        .expect_err("illegal move");
    assert_eq!(bad.code(), Code::InvalidArgument);
    assert!(
        bad.message().starts_with("move \"a3b4\""),
        "{}",
        bad.message()
    );
    assert_eq!(field_of(&bad), Some("move".into()));
    server.shutdown().await;
}

#[tokio::test]
async fn a_bad_request_in_a_stream_gets_an_error_answer_and_the_stream_goes_on() {
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;
    let mut bad_ruleset = request("bad-ruleset", BOTH_IDLE.0, BOTH_IDLE.1);
    bad_ruleset.ruleset = "fide".into();
    let requests = vec![
        request("one", RED_CHECKS.0, RED_CHECKS.1),
        request("bad-move", RED_CHECKS.0, "a8a9 e9e8 a9a8 e8e6"),
        bad_ruleset,
        request("too-many", "", &"h2e2 ".repeat(1025)),
        request("two", BOTH_IDLE.0, BOTH_IDLE.1),
    ];
    let answers = stream_all(&mut client, requests).await;
    let ids: Vec<&str> = answers.iter().map(|a| a.request_id.as_str()).collect();
    assert_eq!(ids, ["one", "bad-move", "bad-ruleset", "too-many", "two"]);

    let Some(Answer::Ruling(one)) = &answers[0].result else {
        panic!("{:?}", answers[0]);
    };
    assert_eq!(one.verdict(), pb::Verdict::RedLoses);
    assert_eq!(one.request_id, "one");

    let Some(Answer::Error(e)) = &answers[1].result else {
        panic!("{:?}", answers[1]);
    };
    assert_eq!(e.code(), pb::ErrorCode::InvalidArgument);
    assert_eq!((e.field.as_str(), e.ply), ("moves", Some(3)));
    assert!(e.message.starts_with("moves[3] \"e8e6\""), "{}", e.message);

    let Some(Answer::Error(e)) = &answers[2].result else {
        panic!("{:?}", answers[2]);
    };
    assert_eq!(
        (e.code(), e.field.as_str(), e.ply),
        (pb::ErrorCode::InvalidArgument, "ruleset", None)
    );

    let Some(Answer::Error(e)) = &answers[3].result else {
        panic!("{:?}", answers[3]);
    };
    assert_eq!(
        (e.code(), e.field.as_str()),
        (pb::ErrorCode::ResourceExhausted, "moves")
    );

    let Some(Answer::Ruling(two)) = &answers[4].result else {
        panic!("{:?}", answers[4]);
    };
    assert_eq!(two.verdict(), pb::Verdict::Draw);
    server.shutdown().await;
}

/// Sends `requests` over one `AdjudicateStream` and collects every answer.
async fn stream_all(
    client: &mut QiliClient<Channel>,
    requests: Vec<pb::AdjudicateRequest>,
) -> Vec<pb::AdjudicateStreamResponse> {
    use futures::StreamExt;
    client
        .adjudicate_stream(futures::stream::iter(requests))
        .await
        .expect("stream")
        .into_inner()
        .map(|a| a.expect("answer"))
        .collect()
        .await
}

/// The cases of `cases/`; none if it cannot be read (tests/corpus.rs reports that).
fn corpus() -> Vec<qili::corpus::Case> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    qili::corpus::load(&dir).unwrap_or_default()
}

fn field_of(status: &tonic::Status) -> Option<String> {
    status
        .metadata()
        .get(FIELD_KEY)
        .and_then(|v| v.to_str().ok())
        .map(String::from)
}

#[tokio::test]
async fn invalid_argument_names_the_field_and_the_ply() {
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;

    let e = client
        .adjudicate(request("m", RED_CHECKS.0, "a8a9 e9e8 a9a8 e8e6"))
        .await
        .expect_err("illegal move");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(
        e.message().starts_with("moves[3] \"e8e6\": "),
        "{}",
        e.message()
    );
    assert_eq!(field_of(&e), Some("moves".into()));
    assert_eq!(
        e.metadata().get(PLY_KEY).and_then(|v| v.to_str().ok()),
        Some("3")
    );

    let e = client
        .adjudicate(request("f", "not a fen", "h2e2"))
        .await
        .expect_err("bad FEN");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().starts_with("fen: "), "{}", e.message());
    assert_eq!(field_of(&e), Some("fen".into()));

    let mut r = request("r", "", "h2e2");
    r.ruleset = "fide".into();
    let e = client.adjudicate(r).await.expect_err("unknown ruleset");
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().starts_with("ruleset: "), "{}", e.message());

    let mut r = request("n", "", "h2e2");
    r.notation = 42;
    let e = client.adjudicate(r).await.expect_err("unknown notation");
    assert_eq!(
        (e.code(), field_of(&e)),
        (Code::InvalidArgument, Some("notation".into()))
    );
    server.shutdown().await;
}

#[tokio::test]
async fn resource_exhausted_over_the_move_and_size_limits() {
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;
    let e = client
        .adjudicate(request("many", "", &"h2e2 ".repeat(1025)))
        .await
        .expect_err("too many moves");
    assert_eq!(e.code(), Code::ResourceExhausted);
    assert!(
        e.message().starts_with("moves: 1025 moves"),
        "{}",
        e.message()
    );

    let e = client
        .adjudicate(request("huge", &"x".repeat(2 << 20), "h2e2"))
        .await
        .expect_err("too large");
    assert_eq!(e.code(), Code::ResourceExhausted, "{e:?}");

    // The server still answers after both.
    let ok = client
        .adjudicate(request("after", BOTH_IDLE.0, BOTH_IDLE.1))
        .await
        .expect("still serving");
    assert_eq!(ok.into_inner().verdict(), pb::Verdict::Draw);
    server.shutdown().await;
}

#[tokio::test]
async fn deadline_exceeded_when_the_servers_deadline_passes() {
    let zero = Running::start(ServiceConfig {
        deadline: Duration::ZERO,
        ..ServiceConfig::default()
    })
    .await;
    let mut client = zero.client().await;
    let e = client
        .adjudicate(request("late", RED_CHECKS.0, RED_CHECKS.1))
        .await
        .expect_err("server deadline zero");
    assert_eq!(e.code(), Code::DeadlineExceeded);
    zero.shutdown().await;
}

#[tokio::test]
async fn the_handler_honours_a_shorter_client_deadline() {
    // A tonic client enforces its own deadline locally (and reports CANCELLED), so the header is
    // handed to the handler directly to see what the server answers.
    use qili::service::QiliService;
    use qili::service::pb::qili_server::Qili;
    let service = QiliService::new(ServiceConfig::default());
    let mut r = Request::new(request("hurried", RED_CHECKS.0, RED_CHECKS.1));
    r.metadata_mut()
        .insert("grpc-timeout", "1n".parse().expect("ascii"));
    let e = service
        .adjudicate(r)
        .await
        .expect_err("client deadline 1 ns");
    assert_eq!(e.code(), Code::DeadlineExceeded, "{e:?}");

    let mut r = Request::new(request("patient", RED_CHECKS.0, RED_CHECKS.1));
    r.metadata_mut()
        .insert("grpc-timeout", "10S".parse().expect("ascii"));
    let reply = service.adjudicate(r).await.expect("client deadline 10 s");
    // The server writes the reply; a client reads it as the generated `Ruling`.
    let ruling =
        <pb::Ruling as prost::Message>::decode(reply.into_inner().as_bytes()).expect("a Ruling");
    assert_eq!(ruling.verdict(), pb::Verdict::RedLoses);
}

#[tokio::test]
async fn shutdown_reports_not_serving_and_ends_cleanly() {
    use futures::StreamExt;
    use tonic_health::pb::health_check_response::ServingStatus;
    use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;
    let ruling = client
        .adjudicate(request("before", BOTH_IDLE.0, BOTH_IDLE.1))
        .await
        .expect("ruling before shutdown");
    assert_eq!(ruling.into_inner().verdict(), pb::Verdict::Draw);

    let mut health = HealthClient::new(server.channel().await);
    let mut watch = health
        .watch(HealthCheckRequest {
            service: "qili.v1.Qili".into(),
        })
        .await
        .expect("watch")
        .into_inner();
    let status = |m: Option<Result<tonic_health::pb::HealthCheckResponse, tonic::Status>>| {
        m.expect("a status").expect("ok").status
    };
    assert_eq!(status(watch.next().await), ServingStatus::Serving as i32);

    let Running { stop, task, .. } = server;
    let _ = stop.expect("stop").send(());
    assert_eq!(status(watch.next().await), ServingStatus::NotServing as i32);
    drop(watch);
    drop(client);
    let result = tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .expect("server stops")
        .expect("server task");
    assert!(result.is_ok(), "{result:?}");
}

#[tokio::test]
async fn an_open_stream_ends_cleanly_on_drain_without_waiting_for_the_drain_timeout() {
    use futures::StreamExt;
    let mut server = Running::start(ServiceConfig {
        drain_timeout: Duration::from_secs(20),
        ..ServiceConfig::default()
    })
    .await;
    let mut client = server.client().await;
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    let mut answers = client
        .adjudicate_stream(tokio_stream::wrappers::ReceiverStream::new(rx))
        .await
        .expect("stream")
        .into_inner();
    tx.send(request("first", BOTH_IDLE.0, BOTH_IDLE.1))
        .await
        .expect("send");
    let first = answers.next().await.expect("answer").expect("ok");
    assert_eq!(first.request_id, "first");

    // Shutdown begins with a request in flight: it is answered (if the server had read it), then
    // the stream ends with OK, though the client has not ended its side.
    tx.send(request("in-flight", RED_CHECKS.0, RED_CHECKS.1))
        .await
        .expect("send");
    let stopping = Instant::now();
    let _ = server.stop.take().expect("stop").send(());
    let mut rest = Vec::new();
    while let Some(answer) = tokio::time::timeout(Duration::from_secs(10), answers.next())
        .await
        .expect("the stream ends long before the drain timeout")
    {
        rest.push(answer.expect("answers, then a clean end").request_id);
    }
    assert!(rest.is_empty() || rest == ["in-flight"], "{rest:?}");

    // The server stops as soon as its streams have ended, not after the 20 s drain timeout.
    let result = tokio::time::timeout(Duration::from_secs(10), &mut server.task)
        .await
        .expect("server stops once the stream has ended")
        .expect("server task");
    assert!(result.is_ok(), "{result:?}");
    assert!(stopping.elapsed() < Duration::from_secs(10));
    drop(tx);
}

#[tokio::test]
async fn an_oversized_message_ends_a_stream_with_resource_exhausted() {
    use futures::StreamExt;
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;
    let requests = vec![
        request("ok", BOTH_IDLE.0, BOTH_IDLE.1),
        request("huge", &"x".repeat(2 << 20), "h2e2"),
    ];
    let mut answers = client
        .adjudicate_stream(futures::stream::iter(requests))
        .await
        .expect("stream")
        .into_inner();
    let first = answers.next().await.expect("answer").expect("ok");
    assert_eq!(first.request_id, "ok");
    let end = answers.next().await.expect("an end").expect_err("an error");
    assert_eq!(end.code(), Code::ResourceExhausted, "{end:?}");
    server.shutdown().await;
}

#[tokio::test]
async fn the_corpus_through_one_stream_matches_the_library() {
    let cases = corpus();
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;
    let requests: Vec<pb::AdjudicateRequest> = cases
        .iter()
        .map(qili::service::convert::case_request)
        .collect();
    let answers = stream_all(&mut client, requests).await;
    assert_eq!(answers.len(), cases.len());
    for (case, answer) in cases.iter().zip(&answers) {
        assert_eq!(answer.request_id, case.id);
        // The server answers as the library does (tests/corpus.rs checks the library's answers).
        match (qili::request::adjudicate(&case.request()), &answer.result) {
            (Ok(local), Some(Answer::Ruling(ruling))) => {
                let expected = qili::service::convert::ruling(&local, &case.id, pb::Language::Both);
                assert_eq!(ruling, &expected, "{}", case.id);
            }
            (Err(e), Some(Answer::Error(error))) => {
                assert_eq!(error.message, e.to_string(), "{}", case.id);
                assert_eq!(error.field, e.field(), "{}", case.id);
            }
            (local, remote) => panic!("{}: library {local:?}, server {remote:?}", case.id),
        }
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_string_that_is_not_utf8_is_invalid_argument_naming_the_field() {
    let server = Running::start(ServiceConfig::default()).await;
    // A hand-encoded `AdjudicateRequest`: field 2 (fen), wire type 2 (length-delimited), 2 bytes
    // that are not UTF-8.
    let body = vec![0x12, 0x02, 0xff, 0xfe];
    let e = super::common::raw_unary(server.channel().await, "/qili.v1.Qili/Adjudicate", body)
        .await
        .expect_err("not UTF-8");
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(e.message().starts_with("fen: "), "{}", e.message());
    assert_eq!(field_of(&e), Some("fen".into()));
    server.shutdown().await;
}

/// `request` asking for `detail` in `language`.
fn asking(
    mut r: pb::AdjudicateRequest,
    detail: pb::Detail,
    language: pb::Language,
) -> pb::AdjudicateRequest {
    r.detail = detail.into();
    r.language = language.into();
    r
}

#[tokio::test]
async fn each_detail_level_sends_what_the_proto_documents() {
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;
    let chase = || request("chase", RED_CHASES.0, RED_CHASES.1);
    let mut get =
        async |r: pb::AdjudicateRequest| client.adjudicate(r).await.expect("a ruling").into_inner();
    let full = get(asking(chase(), pb::Detail::Full, pb::Language::Both)).await;
    let summary = get(asking(chase(), pb::Detail::Summary, pb::Language::Both)).await;
    let verdict = get(asking(chase(), pb::Detail::Verdict, pb::Language::Both)).await;

    // Every level: the verdict and the cycle.
    for r in [&full, &summary, &verdict] {
        assert_eq!(r.request_id, "chase");
        assert_eq!(r.verdict(), pb::Verdict::RedMustChange);
        assert_eq!(r.ruleset, "cxa1999");
        assert_eq!(
            (r.repetitions, r.cycle_start, r.cycle_length),
            (3, 4, 4),
            "{r:?}"
        );
        let search = r.search.expect("the ruling's search");
        assert_eq!(search.max_nodes, qili::rules::RULING_NODES);
        assert!(search.nodes > 0 && !search.budget_exhausted, "{search:?}");
    }

    // Full: everything, texts in both languages.
    assert_eq!(
        full.red.as_ref().map(|s| s.pattern()),
        Some(pb::Pattern::PerpetualChase)
    );
    assert!(full.black.is_some());
    assert_eq!(full.moves.len(), 4);
    assert!(!full.moves[0].targets.is_empty(), "the chase's target");
    assert!(!full.moves[0].targets[0].reason.is_empty());
    assert!(!full.moves[0].targets[0].reason_zh.is_empty());
    for m in &full.moves {
        assert!(m.mate_search.is_some(), "{m:?}");
        assert!(!m.note_zh.is_empty() && !m.note_en.is_empty(), "{m:?}");
    }
    assert!(!full.articles.is_empty());
    assert!(
        full.articles
            .iter()
            .any(|a| !a.zh.is_empty() && !a.en.is_empty())
    );
    assert!(!full.explanation_zh.is_empty() && !full.explanation_en.is_empty());

    // Summary: patterns, each move's ply, round, side, notation and kind, the articles' ids.
    assert_eq!(summary.red, full.red);
    assert_eq!(summary.black, full.black);
    assert_eq!(summary.moves.len(), full.moves.len());
    for (s, f) in summary.moves.iter().zip(&full.moves) {
        let kept = pb::MoveReport {
            ply: f.ply,
            round: f.round,
            color: f.color,
            iccs: f.iccs.clone(),
            chinese: f.chinese.clone(),
            kind: f.kind,
            ..pb::MoveReport::default()
        };
        assert_eq!(s, &kept, "no targets, idle kinds, search, line or notes");
        assert!(!s.iccs.is_empty() && !s.chinese.is_empty() && s.round > 0);
    }
    assert_eq!(summary.articles.len(), full.articles.len());
    for (s, f) in summary.articles.iter().zip(&full.articles) {
        assert_eq!(
            (&s.id, &s.edition, &s.number),
            (&f.id, &f.edition, &f.number)
        );
        assert!(
            s.zh.is_empty() && s.en.is_empty(),
            "no article texts: {s:?}"
        );
    }
    assert!(summary.explanation_zh.is_empty() && summary.explanation_en.is_empty());

    // Verdict: nothing else.
    assert_eq!((&verdict.red, &verdict.black), (&None, &None));
    assert!(verdict.moves.is_empty() && verdict.articles.is_empty());
    assert!(verdict.explanation_zh.is_empty() && verdict.explanation_en.is_empty());

    // Full in one language: the other's texts are empty, moves keep their Chinese notation.
    let en = get(asking(chase(), pb::Detail::Full, pb::Language::En)).await;
    assert!(en.explanation_zh.is_empty() && !en.explanation_en.is_empty());
    assert!(
        en.moves
            .iter()
            .all(|m| m.note_zh.is_empty() && !m.note_en.is_empty())
    );
    assert!(en.moves.iter().all(|m| !m.chinese.is_empty()));
    assert!(
        en.moves[0]
            .targets
            .iter()
            .all(|t| t.reason_zh.is_empty() && !t.reason.is_empty())
    );
    assert!(en.articles.iter().all(|a| a.zh.is_empty()));
    let zh = get(asking(chase(), pb::Detail::Full, pb::Language::Zh)).await;
    assert!(!zh.explanation_zh.is_empty() && zh.explanation_en.is_empty());
    assert!(
        zh.moves
            .iter()
            .all(|m| !m.note_zh.is_empty() && m.note_en.is_empty())
    );
    assert!(
        zh.moves[0]
            .targets
            .iter()
            .all(|t| !t.reason_zh.is_empty() && t.reason.is_empty())
    );
    assert!(zh.articles.iter().all(|a| a.en.is_empty()));
    // The texts are said once the reply is built, in the language asked: the library rules
    // without them.
    let (request, _, _) = qili::service::convert::into_request(chase()).expect("reads");
    assert_eq!(request.options.texts, qili::rules::Texts::NONE);

    // An unknown level is refused naming the field.
    let mut bad = chase();
    bad.detail = 7;
    let e = client.adjudicate(bad).await.expect_err("unknown detail");
    assert_eq!(
        (e.code(), field_of(&e)),
        (Code::InvalidArgument, Some("detail".into()))
    );
    assert!(e.message().starts_with("detail: "), "{}", e.message());

    // A stream honours each request's level.
    let both = vec![
        asking(chase(), pb::Detail::Verdict, pb::Language::Both),
        asking(chase(), pb::Detail::Full, pb::Language::Both),
    ];
    let answers = stream_all(&mut client, both).await;
    let rulings: Vec<&pb::Ruling> = answers
        .iter()
        .map(|a| match &a.result {
            Some(Answer::Ruling(r)) => r,
            other => panic!("{other:?}"),
        })
        .collect();
    assert!(rulings[0].moves.is_empty() && rulings[0].red.is_none());
    assert_eq!(rulings[1].moves.len(), 4);
    server.shutdown().await;
}

#[tokio::test]
async fn no_repetition_carries_no_side_patterns_at_any_level() {
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;
    for detail in [pb::Detail::Full, pb::Detail::Summary, pb::Detail::Verdict] {
        let r = asking(
            request("opening", "", "h2e2 h9g7"),
            detail,
            pb::Language::Both,
        );
        let ruling = client.adjudicate(r).await.expect("ruling").into_inner();
        assert_eq!(ruling.verdict(), pb::Verdict::NoRepetition, "{detail:?}");
        assert_eq!((&ruling.red, &ruling.black), (&None, &None), "{detail:?}");
        assert_eq!(ruling.cycle_length, 0);
        assert!(ruling.moves.is_empty() && ruling.articles.is_empty());
        // The proto3 JSON mapping (qili judge --format json) leaves them out too.
        let json = serde_json::to_value(&ruling).expect("JSON");
        assert!(
            json.get("red").is_none() && json.get("black").is_none(),
            "{json}"
        );
    }
    server.shutdown().await;
}

/// The book and number an article id names: `2011 26.5` is the 2011 edition's 26.5, `AXF 27` the
/// Asian rules' 27, the others the 1999 edition's.
fn book_of(id: &str) -> (&str, &str) {
    if let Some(n) = id.strip_prefix("2011 ") {
        ("cxa2011", n)
    } else if let Some(n) = id.strip_prefix("AXF ") {
        ("axf", n)
    } else {
        ("cxa1999", id)
    }
}

#[tokio::test]
async fn every_cited_article_has_its_edition_and_number() {
    let cases = corpus();
    let server = Running::start(ServiceConfig::default()).await;
    let mut client = server.client().await;
    let requests: Vec<pb::AdjudicateRequest> = cases
        .iter()
        .map(|c| {
            asking(
                qili::service::convert::case_request(c),
                pb::Detail::Summary,
                pb::Language::Both,
            )
        })
        .collect();
    let answers = stream_all(&mut client, requests).await;
    let mut cited = 0;
    for answer in &answers {
        let Some(Answer::Ruling(ruling)) = &answer.result else {
            continue;
        };
        for a in &ruling.articles {
            cited += 1;
            let what = format!("{}: {a:?}", answer.request_id);
            assert!(
                ["cxa1999", "cxa2011", "axf"].contains(&a.edition.as_str()),
                "{what}"
            );
            assert!(!a.number.is_empty(), "{what}");
            assert_eq!(
                book_of(&a.id),
                (a.edition.as_str(), a.number.as_str()),
                "{what}"
            );
        }
    }
    assert!(cases.is_empty() || cited > 0, "the corpus cites articles");
    server.shutdown().await;
}

#[test]
fn texts_left_out_change_nothing_else_in_a_ruling() {
    let cases = corpus();
    use qili::rules::Texts;
    for case in &cases {
        let mut request = case.request();
        let Ok(all) = qili::request::adjudicate(&request) else {
            continue;
        };
        for texts in [
            Texts::NONE,
            Texts {
                en: false,
                ..Texts::ALL
            },
            Texts {
                zh: false,
                ..Texts::ALL
            },
            Texts {
                notes: false,
                ..Texts::ALL
            },
        ] {
            request.options.texts = texts;
            let some = qili::request::adjudicate(&request).expect("as before");
            let pick = |keep: bool, s: &str| if keep { s.to_string() } else { String::new() };
            let mut expected = all.clone();
            for m in &mut expected.moves {
                m.note_zh = pick(texts.notes && texts.zh, &m.note_zh);
                m.note_en = pick(texts.notes && texts.en, &m.note_en);
                // The reasons follow the languages too.
                for t in &mut m.targets {
                    t.reason_zh = pick(texts.zh, &t.reason_zh);
                    t.reason = pick(texts.en, &t.reason);
                }
            }
            expected.explanation_zh = pick(texts.explanation && texts.zh, &all.explanation_zh);
            expected.explanation_en = pick(texts.explanation && texts.en, &all.explanation_en);
            assert_eq!(some, expected, "{} {texts:?}", case.id);
        }
    }
}
