//! The arbiter's desk through `qili serve`: the JSON API and gRPC-Web over HTTP/1.1 on the gRPC
//! port (status codes, error bodies), and the consult page in headless Chromium (a corpus case,
//! an uploaded GBK record, a record uploaded with the page in Chinese, a bad FEN's field error, a
//! screenshot under target/).
//!
//! The browser tests need Debian's `chromium` and `chromium-driver` (`.ci/run` installs them);
//! without them they fail saying so, unless `QILI_SKIP_BROWSER=1` is set.

use super::common::Server;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use prost::Message;
use prost::bytes::Bytes;
use qili::service::pb;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tonic::codegen::http::{HeaderMap, Method, Request, StatusCode};

/// An HTTP/1.1 client for the server at `addr`.
pub(super) struct Http {
    client: Client<HttpConnector, Full<Bytes>>,
    base: String,
}

/// What came back: status, headers and the whole body.
pub(super) struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl Answer {
    pub(super) fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub(super) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    fn content_type(&self) -> &str {
        self.headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    /// Asserts an error answer: the HTTP status, the proto `Error` code, and the field.
    pub(super) fn assert_error(&self, status: u16, code: &str, field: &str) -> serde_json::Value {
        assert_eq!(self.status.as_u16(), status, "{}", self.text());
        assert!(self.content_type().starts_with("application/json"));
        let e = self.json();
        assert_eq!(e["code"], code, "{e}");
        assert_eq!(e["field"], field, "{e}");
        e
    }
}

impl Http {
    pub(super) fn new(server: &Server) -> Http {
        Http {
            client: Client::builder(TokioExecutor::new()).build_http(),
            base: server.url(),
        }
    }

    async fn send(&self, method: Method, path: &str, content_type: &str, body: Vec<u8>) -> Answer {
        self.send_with(method, path, &[("content-type", content_type)], body)
            .await
    }

    pub(super) async fn send_with(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: Vec<u8>,
    ) -> Answer {
        let mut request = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request.body(Full::new(Bytes::from(body))).expect("request");
        let response = self.client.request(request).await.expect("HTTP/1.1 answer");
        assert_eq!(response.version(), tonic::codegen::http::Version::HTTP_11);
        let status = response.status();
        let headers = response.headers().clone();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        Answer {
            status,
            headers,
            body,
        }
    }

    pub(super) async fn get(&self, path: &str) -> Answer {
        self.send(Method::GET, path, "text/plain", Vec::new()).await
    }

    pub(super) async fn post(&self, path: &str, json: &serde_json::Value) -> Answer {
        self.send(
            Method::POST,
            path,
            "application/json",
            json.to_string().into_bytes(),
        )
        .await
    }
}

fn cases() -> Vec<qili::corpus::Case> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cases");
    qili::corpus::load(&dir).expect("the corpus loads")
}

/// `red_must_change` → `VERDICT_RED_MUST_CHANGE`.
fn verdict_json(v: qili::rules::Verdict) -> String {
    format!("VERDICT_{}", v.name().to_uppercase())
}

#[tokio::test]
async fn the_json_api_rules_every_corpus_case_and_names_the_field_of_bad_input() {
    let server = Server::start();
    let http = Http::new(&server);

    let list = http.get("/v1/rulesets").await;
    assert_eq!(list.status, StatusCode::OK);
    let list = list.json();
    assert_eq!(list["rulesets"][0]["name"], "cxa1999");
    assert_eq!(list["rulesets"][0]["isDefault"], true);

    let cases = cases();
    assert!(!cases.is_empty());
    for case in &cases {
        let request = serde_json::to_value(qili::service::convert::case_request(case))
            .expect("a request in JSON");
        let answer = http.post("/v1/adjudicate", &request).await;
        assert_eq!(
            answer.status,
            StatusCode::OK,
            "{}: {}",
            case.id,
            answer.text()
        );
        let ruling = answer.json();
        assert_eq!(ruling["requestId"], case.id.as_str());
        let v = case.expected.verdict;
        assert_eq!(ruling["verdict"], verdict_json(v).as_str(), "{}", case.id);
        // It reads back into the API's message, as a gRPC client would get it.
        let _: pb::Ruling = serde_json::from_slice(&answer.body).expect("a Ruling");
    }

    let fen = "4k4/9/6n2/6p2/7P1/9/9/7C1/9/3K5 w";
    let bad_fen = http
        .post(
            "/v1/adjudicate",
            &serde_json::json!({"fen": "4k4/9/6n2 w", "moves": ["h2g2"]}),
        )
        .await;
    let e = bad_fen.assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "fen");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("fen: ")),
        "{e}"
    );

    let bad_move = http
        .post(
            "/v1/adjudicate",
            &serde_json::json!({"fen": fen, "moves": ["h2g2", "g7h9", "g2h2", "h9h7"]}),
        )
        .await;
    let e = bad_move.assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "moves");
    assert_eq!(e["ply"], 3, "{e}");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("moves[3] \"h9h7\": "))
    );

    let not_a_string = http
        .post("/v1/adjudicate", &serde_json::json!({"moves": ["h2e2", 7]}))
        .await;
    let e = not_a_string.assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "moves");
    assert_eq!(e["ply"], 1, "{e}");
    for (body, field) in [
        (
            serde_json::json!({"toldToChange": {"red": "yes"}}),
            "told_to_change",
        ),
        (serde_json::json!({"ruleset": "fide"}), "ruleset"),
        (
            serde_json::json!({"language": "LANGUAGE_KLINGON"}),
            "language",
        ),
    ] {
        http.post("/v1/adjudicate", &body).await.assert_error(
            400,
            "ERROR_CODE_INVALID_ARGUMENT",
            field,
        );
    }
    let garbage = http
        .send(
            Method::POST,
            "/v1/adjudicate",
            "application/json",
            b"moves: h2e2".to_vec(),
        )
        .await;
    garbage.assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "");

    let analysis = http
        .post(
            "/v1/analyze",
            &serde_json::json!({"fen": "4k4/R8/9/9/9/9/9/9/9/3K5 w", "move": "a8a9"}),
        )
        .await;
    assert_eq!(analysis.status, StatusCode::OK, "{}", analysis.text());
    assert_eq!(analysis.json()["move"]["kind"], "MOVE_KIND_CHECK");
    http.post("/v1/analyze", &serde_json::json!({"move": "a0a9"}))
        .await
        .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "move");

    let board = http
        .get("/v1/board.svg?fen=4k4/R8/9/9/9/9/9/9/9/3K5%20w&move=a8a9&lang=en")
        .await;
    assert_eq!(board.status, StatusCode::OK, "{}", board.text());
    assert!(board.content_type().starts_with("image/svg+xml"));
    let svg = board.text();
    assert!(
        svg.starts_with("<svg") && svg.contains("class=\"arrow check\""),
        "{svg}"
    );
    let plain = http.get("/v1/board.svg").await;
    assert_eq!(plain.status, StatusCode::OK);
    assert_eq!(plain.text().matches("class=\"piece ").count(), 32);
    http.get("/v1/board.svg?fen=9%20w").await.assert_error(
        400,
        "ERROR_CODE_INVALID_ARGUMENT",
        "fen",
    );
    http.get("/v1/board.svg?lang=fr").await.assert_error(
        400,
        "ERROR_CODE_INVALID_ARGUMENT",
        "lang",
    );
    http.get("/v1/board.svg?move=a0a9").await.assert_error(
        400,
        "ERROR_CODE_INVALID_ARGUMENT",
        "move",
    );

    let wrong = http.get("/v1/adjudicate").await;
    assert_eq!(wrong.status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(
        wrong.json()["message"]
            .as_str()
            .is_some_and(|m| m.contains("POST"))
    );
    let missing = http.get("/v2/nothing").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert!(
        missing.json()["message"]
            .as_str()
            .is_some_and(|m| m.contains("/v2/nothing"))
    );

    let page = http.get("/").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.content_type().starts_with("text/html"));
    assert!(page.text().contains("<form id=\"dispute\""));
    for asset in ["/desk.css", "/desk.js", "/sheet.css", "/steps.js"] {
        assert_eq!(http.get(asset).await.status, StatusCode::OK, "{asset}");
    }

    // The JSON calls are logged as the gRPC ones are, with their HTTP status (the log is read by
    // a thread: wait for it).
    let logged = |l: &String| {
        l.contains("\"rpc\":\"/v1/adjudicate\"")
            && l.contains("\"http_status\":400")
            && l.contains("\"code\":\"INVALID_ARGUMENT\"")
            && l.contains("\"field\":\"fen\"")
    };
    let start = Instant::now();
    while !server.log().iter().any(logged) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no log line for the bad FEN among {} lines",
            server.log().len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn the_json_api_answers_413_and_504_for_the_limits_and_the_deadline() {
    let server = Server::start_with(&["--max-message-bytes", "400", "--max-moves", "4"]);
    let http = Http::new(&server);
    let big = serde_json::json!({"fen": "x".repeat(500)});
    http.post("/v1/adjudicate", &big)
        .await
        .assert_error(413, "ERROR_CODE_RESOURCE_EXHAUSTED", "");
    let many = serde_json::json!({"moves": ["h2e2", "h9g7", "e2h2", "g7h9", "h2e2"]});
    let e = http.post("/v1/adjudicate", &many).await.assert_error(
        413,
        "ERROR_CODE_RESOURCE_EXHAUSTED",
        "moves",
    );
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("--max-moves")),
        "{e}"
    );

    let late = Server::start_with(&["--deadline-ms", "0"]);
    let http = Http::new(&late);
    let e = http
        .post("/v1/adjudicate", &serde_json::json!({"moves": ["h2e2"]}))
        .await
        .assert_error(504, "ERROR_CODE_DEADLINE_EXCEEDED", "");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("deadline")),
        "{e}"
    );
}

#[tokio::test]
async fn the_pages_own_calls_read_records_and_name_the_field_of_bad_input() {
    use base64::Engine;
    let server = Server::start();
    let http = Http::new(&server);
    let encode = |text: &str| base64::engine::general_purpose::STANDARD.encode(text);
    let game = "[FEN \"4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n\
                1. 车九进一 将５进１ 2. 车九退一 将５退１ 3. 车九进一 将５进１ 4. 车九退一 将５退１ *\n";
    let two = format!("{game}\n{game}");
    let list = http
        .post("/desk/record", &serde_json::json!({"record": encode(&two)}))
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text());
    let games = list.json();
    assert_eq!(games["games"].as_array().map(Vec::len), Some(2), "{games}");
    assert_eq!(games["games"][1]["plies"], 8);
    assert_eq!(games["games"][1]["last_round"], 4);

    let sheet = http
        .post(
            "/desk/ruling",
            &serde_json::json!({"record": encode(&two), "game": 2, "at": "ply:7", "lang": "en"}),
        )
        .await;
    assert_eq!(sheet.status, StatusCode::OK, "{}", sheet.text());
    assert!(sheet.content_type().starts_with("text/html"));
    let html = sheet.text();
    assert!(html.starts_with("<article class=\"qili-sheet\""), "{html}");
    assert!(
        html.contains("game 2 of 2") && html.contains("<svg"),
        "{html}"
    );
    // Beside the ruling, what the side to move may no longer play: red's check that would close
    // the cycle again, which loses.
    assert!(
        html.contains("<p class=\"forbidden-moves\">red may not play: 车九进一 (a8a9, loses)</p>"),
        "{html}"
    );

    for (body, field) in [
        (serde_json::json!({"record": "not base64!"}), "record"),
        (serde_json::json!({"record": encode(&two)}), "game"),
        (
            serde_json::json!({"record": encode(game), "at": "99"}),
            "at",
        ),
        (
            serde_json::json!({"record": encode(game), "at": "later"}),
            "at",
        ),
        (
            serde_json::json!({"record": encode("1. 车九进九 *")}),
            "record",
        ),
        (serde_json::json!({"moves": "h2e2", "at": "3"}), "at"),
        (serde_json::json!({"fen": "9 w", "moves": "h2e2"}), "fen"),
        (serde_json::json!({"moves": "h2e2", "lang": "fr"}), "lang"),
        (
            serde_json::json!({"moves": "h2e2", "colour": "red"}),
            "colour",
        ),
    ] {
        let path = if field == "record" && body.get("at").is_none() && body.get("game").is_none() {
            "/desk/record"
        } else {
            "/desk/ruling"
        };
        http.post(path, &body)
            .await
            .assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", field);
    }
}

/// A gRPC-Web body: the message in one data frame.
fn grpc_web_frame(message: &impl Message) -> Vec<u8> {
    let bytes = message.encode_to_vec();
    let mut out = vec![0u8];
    out.extend_from_slice(&u32::try_from(bytes.len()).expect("small").to_be_bytes());
    out.extend_from_slice(&bytes);
    out
}

/// The data frames and the trailers (`name:value` lines) of a gRPC-Web answer.
fn grpc_web_frames(body: &[u8]) -> (Vec<Vec<u8>>, String) {
    let (mut data, mut trailers) = (Vec::new(), String::new());
    let mut rest = body;
    while rest.len() >= 5 {
        let flag = rest[0];
        let len = u32::from_be_bytes([rest[1], rest[2], rest[3], rest[4]]) as usize;
        let frame = &rest[5..5 + len];
        if flag & 0x80 != 0 {
            trailers.push_str(&String::from_utf8_lossy(frame));
        } else {
            data.push(frame.to_vec());
        }
        rest = &rest[5 + len..];
    }
    assert!(rest.is_empty(), "a cut frame");
    (data, trailers)
}

#[tokio::test]
async fn grpc_web_answers_over_http1_on_the_grpc_port() {
    let server = Server::start();
    let http = Http::new(&server);
    let answer = http
        .send(
            Method::POST,
            "/qili.v1.Qili/ListRulesets",
            "application/grpc-web+proto",
            grpc_web_frame(&pb::ListRulesetsRequest {}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer.content_type().starts_with("application/grpc-web"));
    let (data, trailers) = grpc_web_frames(&answer.body);
    assert!(trailers.contains("grpc-status:0"), "{trailers}");
    let list = pb::ListRulesetsResponse::decode(data[0].as_slice()).expect("a message");
    assert_eq!(list.rulesets.len(), 3);

    let bad = pb::AdjudicateRequest {
        fen: "4k4/9 w".into(),
        moves: ["h2e2"].into_iter().collect(),
        ..Default::default()
    };
    let answer = http
        .send(
            Method::POST,
            "/qili.v1.Qili/Adjudicate",
            "application/grpc-web+proto",
            grpc_web_frame(&bad),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    // An error before any message comes as headers only (trailers-only); else as a trailer frame.
    let (data, trailers) = grpc_web_frames(&answer.body);
    assert!(data.is_empty());
    let header = |name: &str| {
        answer
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    let status = header("grpc-status").or_else(|| {
        trailers
            .lines()
            .find_map(|l| l.strip_prefix("grpc-status:").map(|s| s.trim().to_string()))
    });
    assert_eq!(
        status.as_deref(),
        Some("3"),
        "{:?} {trailers}",
        answer.headers
    );
    let field = header("qili-field").or_else(|| {
        trailers
            .lines()
            .find_map(|l| l.strip_prefix("qili-field:").map(|s| s.trim().to_string()))
    });
    assert_eq!(field.as_deref(), Some("fen"));
    // The access log has their codes, the success's from the trailers in its body.
    let calls = server.calls(2, Duration::from_secs(5));
    let code_of = |rpc: &str| {
        calls
            .iter()
            .find(|c| c["rpc"] == rpc)
            .map(|c| (c["code"].clone(), c["level"].clone()))
    };
    assert_eq!(
        code_of("/qili.v1.Qili/ListRulesets"),
        Some(("OK".into(), "INFO".into())),
        "{calls:?}"
    );
    assert_eq!(
        code_of("/qili.v1.Qili/Adjudicate"),
        Some(("INVALID_ARGUMENT".into(), "INFO".into())),
        "{calls:?}"
    );

    // Plain gRPC (HTTP/2) on the same port is unchanged.
    let mut client = pb::qili_client::QiliClient::new(super::common::channel(&server.url()).await);
    let list = client
        .list_rulesets(pb::ListRulesetsRequest {})
        .await
        .expect("gRPC");
    assert_eq!(list.get_ref().rulesets.len(), 3);
}

/// The CORS headers of an answer, by name (`access-control-…`).
fn cors_header(answer: &Answer, name: &str) -> Option<String> {
    answer
        .headers
        .get(format!("access-control-{name}"))
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// POSTs `body` to the JSON API's `/v1/adjudicate` as a page of `origin` would.
async fn post_from(http: &Http, origin: &str, body: Vec<u8>) -> Answer {
    let headers = [("content-type", "application/json"), ("origin", origin)];
    http.send_with(Method::POST, "/v1/adjudicate", &headers, body)
        .await
}

/// The preflight a browser sends from `origin` before a POST to `path` with `headers`.
async fn preflight(http: &Http, path: &str, origin: &str, headers: &str) -> Answer {
    let asked = [
        ("origin", origin),
        ("access-control-request-method", "POST"),
        ("access-control-request-headers", headers),
    ];
    http.send_with(Method::OPTIONS, path, &asked, Vec::new())
        .await
}

#[tokio::test]
async fn other_origins_are_refused_unless_allowed_and_their_preflights_answered() {
    let ruling = serde_json::json!({"fen": "4k4/9/1c7/9/9/9/R8/9/9/3K5 w", "moves": ["a3b3"]});
    let body = ruling.to_string().into_bytes();
    let club = "https://club.example";
    let other = "https://other.example";

    // By default no origin may read an answer, and a preflight is no call qili knows.
    let closed = Server::start();
    let http = Http::new(&closed);
    let answer = post_from(&http, club, body.clone()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(cors_header(&answer, "allow-origin"), None);
    let answer = preflight(&http, "/v1/adjudicate", club, "content-type").await;
    answer.assert_error(405, "ERROR_CODE_UNIMPLEMENTED", "");
    assert_eq!(cors_header(&answer, "allow-origin"), None);

    // With --allow-origin (twice), those origins may, others not.
    let open = Server::start_with(&[
        "--allow-origin",
        club,
        "--allow-origin",
        "http://127.0.0.1:8000",
    ]);
    let http = Http::new(&open);
    let answer = preflight(&http, "/v1/adjudicate", club, "content-type").await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(cors_header(&answer, "allow-origin").as_deref(), Some(club));
    let methods = cors_header(&answer, "allow-methods").unwrap_or_default();
    assert!(methods.contains("POST"), "{methods}");
    let headers = cors_header(&answer, "allow-headers").unwrap_or_default();
    assert!(headers.contains("content-type"), "{headers}");
    assert!(cors_header(&answer, "max-age").is_some());
    let answer = post_from(&http, club, body.clone()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(cors_header(&answer, "allow-origin").as_deref(), Some(club));
    assert_eq!(answer.json()["verdict"], "VERDICT_NO_REPETITION");
    // An error answer is readable too, so the page can show the bad field.
    let answer = post_from(&http, club, br#"{"fen": "4k4 w"}"#.to_vec()).await;
    answer.assert_error(400, "ERROR_CODE_INVALID_ARGUMENT", "fen");
    assert_eq!(cors_header(&answer, "allow-origin").as_deref(), Some(club));
    // Another origin: the preflight grants nothing, the answer carries no permission.
    let answer = preflight(&http, "/v1/adjudicate", other, "content-type").await;
    assert_eq!(cors_header(&answer, "allow-origin"), None);
    let answer = post_from(&http, other, body.clone()).await;
    assert_eq!(cors_header(&answer, "allow-origin"), None);
    // gRPC-Web: its headers allowed, its status exposed.
    let answer = preflight(
        &http,
        "/qili.v1.Qili/ListRulesets",
        club,
        "content-type,x-grpc-web,x-user-agent,grpc-timeout",
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(cors_header(&answer, "allow-origin").as_deref(), Some(club));
    let headers = cors_header(&answer, "allow-headers").unwrap_or_default();
    for name in ["x-grpc-web", "grpc-timeout"] {
        assert!(headers.contains(name), "{name} in {headers}");
    }
    let answer = http
        .send_with(
            Method::POST,
            "/qili.v1.Qili/ListRulesets",
            &[
                ("content-type", "application/grpc-web+proto"),
                ("x-grpc-web", "1"),
                ("origin", club),
            ],
            grpc_web_frame(&pb::ListRulesetsRequest {}),
        )
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(cors_header(&answer, "allow-origin").as_deref(), Some(club));
    let exposed = cors_header(&answer, "expose-headers").unwrap_or_default();
    assert!(exposed.contains("grpc-status"), "{exposed}");

    // `*`: any origin.
    let any = Server::start_with(&["--allow-origin", "*"]);
    let answer = post_from(&Http::new(&any), other, body).await;
    assert_eq!(cors_header(&answer, "allow-origin").as_deref(), Some("*"));
}

#[test]
fn a_bad_origin_is_refused_at_start() {
    for (flags, expected) in [
        (&["--allow-origin", "club.example"][..], "is not an origin"),
        (
            &["--allow-origin", "https://club.example/desk"][..],
            "is not an origin",
        ),
        (
            &[
                "--allow-origin",
                "*",
                "--allow-origin",
                "https://club.example",
            ][..],
            "give it alone",
        ),
    ] {
        let out = std::process::Command::new(super::common::QILI)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(flags)
            .output()
            .expect("run qili serve");
        assert!(!out.status.success(), "{flags:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("--allow-origin: ") && stderr.contains(expected),
            "{flags:?}: {stderr}"
        );
    }
}

/// A 480-ply cycle in 480 moves (3.9 KB of JSON): a red rook tours 16 squares and a black rook 15
/// (rook moves within their corners of the board, touching nothing), so the first position comes
/// back only after lcm(16, 15) = 240 moves each. Every move is idle: a draw.
fn long_cycle() -> (String, Vec<String>) {
    let red = [
        "a1", "a2", "a3", "a4", "b4", "b1", "b2", "b3", "c3", "c1", "c2", "c4", "d4", "d2", "d3",
        "d1",
    ];
    let black = [
        "f5", "f6", "f7", "f8", "g8", "g5", "g6", "g7", "h7", "h5", "h6", "h8", "i8", "i6", "i5",
    ];
    let mut moves = Vec::new();
    for i in 0..240 {
        moves.push(format!("{}{}", red[i % 16], red[(i + 1) % 16]));
        moves.push(format!("{}{}", black[i % 15], black[(i + 1) % 15]));
    }
    ("4k4/9/9/9/5r3/9/9/9/R8/3K5 w".to_string(), moves)
}

/// The `data-step`s of a sheet's diagrams.
fn drawn_steps(html: &str) -> Vec<usize> {
    html.split("<figure class=\"step\" data-step=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next()?.parse().ok())
        .collect()
}

#[tokio::test]
async fn a_long_cycle_and_a_big_record_get_bounded_answers() {
    let server = Server::start();
    let http = Http::new(&server);
    let (fen, moves) = long_cycle();

    // The ruling: the first 64 moves whole, the other 416 as at summary detail.
    let request = serde_json::json!({"fen": fen, "moves": moves});
    let answer = http.post("/v1/adjudicate", &request).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let ruling = answer.json();
    assert_eq!(ruling["verdict"], "VERDICT_DRAW");
    assert_eq!(ruling["cycleLength"], 480);
    let listed = ruling["moves"].as_array().expect("moves");
    assert_eq!(listed.len(), 480);
    assert_eq!(ruling["abridgedMoves"], 416);
    assert!(listed[63]["mateSearch"].is_object() && listed[63]["noteEn"].is_string());
    let empty = |v: &serde_json::Value| v.as_str().is_none_or(str::is_empty);
    assert!(listed[64]["mateSearch"].is_null() && empty(&listed[64]["noteEn"]));
    assert_eq!(listed[479]["kind"], "MOVE_KIND_IDLE");
    assert!(
        answer.body.len() < 160_000,
        "{} bytes for a {}-byte request",
        answer.body.len(),
        request.to_string().len()
    );
    // A short cycle comes whole.
    let short = http
        .post(
            "/v1/adjudicate",
            &serde_json::json!({"fen": "4k4/9/1c7/9/9/9/R8/9/9/3K5 w", "moves": ["a3b3", "b7a7", "b3a3", "a7b7", "a3b3", "b7a7", "b3a3", "a7b7"]}),
        )
        .await
        .json();
    assert_eq!(short["abridgedMoves"].as_u64().unwrap_or(0), 0, "{short}");
    assert!(short["moves"][3]["mateSearch"].is_object(), "{short}");

    // The page's sheet: 32 diagrams at a time, every move in the table, the rest on request.
    let desk = |from: Option<usize>| {
        let mut body = serde_json::json!({"fen": fen, "moves": moves.join(" ")});
        if let Some(from) = from {
            body["diagrams_from"] = from.into();
        }
        body
    };
    let first = http.post("/desk/ruling", &desk(None)).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    let html = first.text();
    assert_eq!(drawn_steps(&html), (0..32).collect::<Vec<_>>());
    assert_eq!(html.matches("<tr data-step=").count(), 480);
    assert!(
        html.contains("class=\"more-diagrams\""),
        "the others are offered"
    );
    assert!(html.contains("data-from=\"32\""));
    assert!(first.body.len() < 1_000_000, "{} bytes", first.body.len());
    let middle = http.post("/desk/ruling", &desk(Some(32))).await.text();
    assert_eq!(drawn_steps(&middle), (32..64).collect::<Vec<_>>());
    assert!(middle.contains("data-from=\"0\"") && middle.contains("data-from=\"64\""));
    // Past the end: the last 32.
    let last = http.post("/desk/ruling", &desk(Some(470))).await.text();
    assert_eq!(drawn_steps(&last), (449..=480).collect::<Vec<_>>());

    // A record of 2 500 games: a thousand listed at a time, with the total.
    let record: String = (1..=2500)
        .map(|i| format!("[Event \"g{i}\"]\n\n1. 炮二平五 马8进7 *\n\n"))
        .collect();
    let base64 = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(record.as_bytes())
    };
    let list = |from: Option<usize>| {
        let mut body = serde_json::json!({"record": base64});
        if let Some(from) = from {
            body["games_from"] = from.into();
        }
        body
    };
    let answer = http.post("/desk/record", &list(None)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let games = answer.json();
    assert_eq!(games["total"], 2500);
    let numbers = |v: &serde_json::Value| -> Vec<u64> {
        v["games"]
            .as_array()
            .expect("games")
            .iter()
            .filter_map(|g| g["number"].as_u64())
            .collect()
    };
    assert_eq!(numbers(&games), (1..=1000).collect::<Vec<_>>());
    let tail = http.post("/desk/record", &list(Some(2001))).await.json();
    assert_eq!(numbers(&tail), (2001..=2500).collect::<Vec<_>>());
    assert_eq!(tail["total"], 2500);
}

// ---- The consult page in headless Chromium ----

/// One browser test at a time: each runs its own Chromium.
static BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A `chromedriver` child on a free loopback port, killed on drop.
struct Driver {
    child: Child,
    port: u16,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // chromedriver leads its own process group, Chromium included: a test that failed before
        // closing its session leaves no browser behind.
        // `-s KILL --`: procps reads `kill -KILL -123` as signal 9 to process group 1 or 12.
        let _ = Command::new("kill")
            .args(["-s", "KILL", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn program(var: &str, default: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| default.to_string())
}

/// `None` when QILI_SKIP_BROWSER is set; else the driver, or a failure saying what to install.
fn driver(name: &str) -> Option<Driver> {
    if std::env::var_os("QILI_SKIP_BROWSER").is_some_and(|v| !v.is_empty() && v != "0") {
        eprintln!("{name}: skipped (QILI_SKIP_BROWSER is set)");
        return None;
    }
    let chromium = program("QILI_CHROMIUM", "/usr/bin/chromium");
    let chromedriver = program("QILI_CHROMEDRIVER", "/usr/bin/chromedriver");
    for path in [&chromium, &chromedriver] {
        assert!(
            Path::new(path).exists(),
            "{path} not found: the browser tests need Debian's chromium and chromium-driver \
             (scripts/test installs them), or set QILI_SKIP_BROWSER=1 to skip them"
        );
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(&chromedriver)
        .arg(format!("--port={port}"))
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let profile = std::env::temp_dir().join(format!("qili-chromium-{}-{port}", std::process::id()));
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "chromedriver did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(Driver {
        child,
        port,
        profile,
    })
}

/// A WebDriver session in headless Chromium with the flags this closed network needs.
async fn browser(driver: &Driver) -> fantoccini::Client {
    let chromium = program("QILI_CHROMIUM", "/usr/bin/chromium");
    // On a loaded machine Chromium may not start within chromedriver's time: try again, each
    // attempt with a profile of its own (a browser that half started may still hold the last).
    let mut attempt = 0;
    loop {
        attempt += 1;
        let profile = driver.profile.join(attempt.to_string());
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".to_string(),
            serde_json::json!({
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--disable-breakpad", "--disable-crash-reporter",
                    "--window-size=1280,2000",
                    format!("--user-data-dir={}", profile.display()),
                ]
            }),
        );
        match fantoccini::ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", driver.port))
            .await
        {
            Ok(client) => return client,
            Err(e) if attempt < 3 => {
                eprintln!("a Chromium session, attempt {attempt} of 3: {e}");
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
            Err(e) => panic!("a Chromium session (3 attempts): {e}"),
        }
    }
}

/// One browser test's world: its turn at the browser, chromedriver, `qili serve` and a Chromium
/// session (dropped in that order, the turn last).
struct Session {
    client: fantoccini::Client,
    server: Server,
    _driver: Driver,
    _turn: tokio::sync::MutexGuard<'static, ()>,
}

/// The session of the browser test `name`, on the page; `None` when the browser tests are skipped.
async fn session(name: &str) -> Option<Session> {
    let turn = BROWSER.lock().await;
    let driver = driver(name)?;
    let server = Server::start();
    let client = browser(&driver).await;
    client.goto(&server.url()).await.expect("open the page");
    Some(Session {
        client,
        server,
        _driver: driver,
        _turn: turn,
    })
}

use fantoccini::Locator;
use fantoccini::wd::{PrintConfiguration, PrintMargins, PrintSize};

/// A Chrome DevTools command sent through chromedriver (`goog/cdp/execute`): print media emulation
/// and the viewport of a printed page, which WebDriver itself cannot set.
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: serde_json::Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (Method, Option<String>) {
        let body = serde_json::json!({"cmd": self.cmd, "params": self.params});
        (Method::POST, Some(body.to_string()))
    }
}

async fn cdp(client: &fantoccini::Client, cmd: &'static str, params: serde_json::Value) {
    client
        .issue_cmd(Cdp { cmd, params })
        .await
        .unwrap_or_else(|e| panic!("{cmd}: {e}"));
}

/// The page margin the print tests use, in centimetres (WebDriver's default).
const PRINT_MARGIN_CM: f64 = 1.0;

/// The pages of a PDF (Chromium writes one `/Type /Page` object per page).
fn pdf_pages(pdf: &[u8]) -> usize {
    let needle = b"/Type /Page";
    pdf.windows(needle.len() + 1)
        .filter(|w| w.starts_with(needle) && !w[needle.len()].is_ascii_alphabetic())
        .count()
}

/// Prints the current page on `paper` (1 cm margins) and writes the PDF to target/tmp/`name`;
/// returns its page count and every element of the sheet that the print layout puts past the
/// page's edge or on it (within 1 px: a border there is cut), laid out as for print on a viewport
/// as wide as the paper inside its margins.
async fn print_on(
    client: &fantoccini::Client,
    paper: PrintSize,
    name: &str,
) -> (usize, Vec<String>) {
    let margins = PrintMargins {
        top: PRINT_MARGIN_CM,
        bottom: PRINT_MARGIN_CM,
        left: PRINT_MARGIN_CM,
        right: PRINT_MARGIN_CM,
    };
    let width_cm = paper.width - 2.0 * PRINT_MARGIN_CM;
    let config = PrintConfiguration::builder()
        .size(paper)
        .margins(margins)
        .build()
        .expect("a print configuration");
    let pdf = client.print(config).await.expect("print");
    assert!(pdf.starts_with(b"%PDF"), "a PDF");
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, &pdf).expect("write the PDF");
    eprintln!("printed: {}", path.display());
    // CSS pixels are 1/96 inch.
    let width = (width_cm / 2.54 * 96.0).floor();
    cdp(
        client,
        "Emulation.setEmulatedMedia",
        serde_json::json!({"media": "print"}),
    )
    .await;
    cdp(
        client,
        "Emulation.setDeviceMetricsOverride",
        serde_json::json!({"width": width, "height": 1100, "deviceScaleFactor": 1, "mobile": false}),
    )
    .await;
    let past = client
        .execute(
            "var out = [], w = document.documentElement.clientWidth;
             document.querySelectorAll('.qili-sheet *').forEach(function (e) {
               var r = e.getBoundingClientRect();
               if (r.width > 0 && r.height > 0 && (r.right > w - 1 || r.left < 1)) {
                 var name = e.tagName.toLowerCase(), c = e.getAttribute('class');
                 out.push(name + (c ? '.' + c : '') + ' [' + Math.round(r.left) + ', '
                   + Math.round(r.right) + '] of ' + w);
               }
             });
             return out;",
            Vec::new(),
        )
        .await
        .expect("measure");
    cdp(
        client,
        "Emulation.clearDeviceMetricsOverride",
        serde_json::json!({}),
    )
    .await;
    cdp(
        client,
        "Emulation.setEmulatedMedia",
        serde_json::json!({"media": ""}),
    )
    .await;
    let past = past
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    (pdf_pages(&pdf), past)
}

/// Waits for the element `css` and clicks it.
async fn click(client: &fantoccini::Client, css: &str) {
    let element = wait_for(client, css).await;
    element
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// Waits for the element `css` and types `text` into it (a file input: the file's path).
async fn type_into(client: &fantoccini::Client, css: &str, text: &str) {
    let element = wait_for(client, css).await;
    element
        .send_keys(text)
        .await
        .unwrap_or_else(|e| panic!("type into {css}: {e}"));
}

/// Chooses a record as the source and uploads the file at `path`.
async fn upload(client: &fantoccini::Client, path: &Path) {
    click(client, "input[name=source][value=record]").await;
    type_into(client, "#record-file", path.to_str().expect("utf-8 path")).await;
}

/// Waits (at most 20 s) for the element `css` and returns it.
async fn wait_for(client: &fantoccini::Client, css: &str) -> fantoccini::elements::Element {
    client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} never appeared: {e}"))
}

async fn attr(client: &fantoccini::Client, css: &str, name: &str) -> Option<String> {
    wait_for(client, css).await.attr(name).await.expect("attr")
}

#[tokio::test]
async fn the_page_rules_a_corpus_case_with_its_diagrams_and_steps_through_the_cycle() {
    let Some(session) = session("the_page_rules_a_corpus_case").await else {
        return;
    };
    let client = &session.client;
    let case = readme_case();
    rule_case_on_the_page(client, &case).await;
    let expected = case.expected.verdict.name();
    let verdict = attr(client, "#result .qili-sheet", "data-verdict").await;
    assert_eq!(verdict.as_deref(), Some(expected));
    let line = wait_for(client, "#result .verdict-line").await;
    assert!(!line.text().await.expect("text").is_empty());
    let boards = client
        .find_all(Locator::Css("#result svg.qili-board"))
        .await
        .expect("diagrams");
    // The cycle's start and each of its moves.
    assert_eq!(boards.len(), 1 + 4);
    let pieces = client
        .find_all(Locator::Css("#result figure.current svg .piece"))
        .await
        .expect("pieces");
    assert!(pieces.len() >= 4, "the diagram shows the pieces");
    // Step to the first cycle move: its diagram and its table row light up.
    click(client, "nav.stepper button.next").await;
    assert_eq!(
        attr(client, "figure.step.current", "data-step")
            .await
            .as_deref(),
        Some("1")
    );
    assert_eq!(
        attr(client, "tr.current", "data-step").await.as_deref(),
        Some("1")
    );
    let arrows = client
        .find_all(Locator::Css("figure.current .arrow.chase"))
        .await
        .expect("arrows");
    assert!(!arrows.is_empty(), "the chase is drawn");
    client
        .execute("window.scrollTo(0, 0)", Vec::new())
        .await
        .expect("scroll");
    let shot = client.screenshot().await.expect("a screenshot");
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("desk-page.png");
    std::fs::write(&path, &shot).expect("write the screenshot");
    assert!(shot.starts_with(b"\x89PNG"), "a PNG");
    eprintln!("screenshot: {}", path.display());
    client.clone().close().await.expect("close");
}

#[tokio::test]
async fn the_page_rules_an_uploaded_gbk_record() {
    let Some(session) = session("the_page_rules_an_uploaded_gbk_record").await else {
        return;
    };
    let client = &session.client;
    let record = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn/ccgc-20.pgn");
    assert!(
        std::str::from_utf8(&std::fs::read(&record).expect("read")).is_err(),
        "the record is GBK"
    );
    upload(client, &record).await;
    let game = wait_for(client, "#game option[value='1']").await;
    assert!(
        game.text().await.expect("text").contains("棋天大圣"),
        "the GBK tags are read"
    );
    type_into(client, "#at", "ply:63").await;
    click(client, "#rule").await;
    let verdict = attr(client, "#result .qili-sheet", "data-verdict")
        .await
        .expect("a verdict");
    // The page's ruling is the API's for the same moves.
    let games =
        qili::record::pgn::read_games(&std::fs::read(&record).expect("read")).expect("a game");
    let moves = games[0].moves[..64]
        .iter()
        .map(ToString::to_string)
        .collect();
    let request = pb::AdjudicateRequest {
        fen: games[0].start.fen(),
        moves,
        ..Default::default()
    };
    let mut grpc =
        pb::qili_client::QiliClient::new(super::common::channel(&session.server.url()).await);
    let ruling = grpc
        .adjudicate(request)
        .await
        .expect("a ruling")
        .into_inner();
    let api = pb::Verdict::try_from(ruling.verdict).expect("a verdict");
    assert_eq!(
        format!("VERDICT_{}", verdict.to_uppercase()),
        api.as_str_name()
    );
    let boards = client
        .find_all(Locator::Css("#result svg.qili-board"))
        .await
        .expect("diagrams");
    assert_eq!(boards.len(), 1 + ruling.moves.len());
    if ruling.repetitions == 2 {
        wait_for(client, "#result .warning").await;
    }
    let facts = wait_for(client, "#result .facts")
        .await
        .text()
        .await
        .expect("text");
    assert!(
        facts.contains("ccgc-20.pgn") && facts.contains("ply 63"),
        "{facts}"
    );
    // The record's tags fill the paperwork.
    let round = wait_for(client, "#result .paperwork .pw-round dd").await;
    assert_eq!(round.text().await.expect("text"), "20");
    let red = wait_for(client, "#result .paperwork .pw-red dd").await;
    assert_eq!(red.text().await.expect("text"), "棋天大圣");
    // The print view: Chromium prints the page to PDF (the form is left out by the print style).
    let pdf = client
        .print(fantoccini::wd::PrintConfiguration::default())
        .await
        .expect("print");
    assert!(pdf.starts_with(b"%PDF"), "a PDF");
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("desk-ruling.pdf");
    std::fs::write(&path, &pdf).expect("write the PDF");
    eprintln!("printed: {}", path.display());
    client.clone().close().await.expect("close");
}

#[tokio::test]
async fn a_record_uploaded_on_the_page_in_chinese_gets_chinese_titles_and_errors() {
    use qili::lang::{Lang, Words};
    let Some(session) = session("a_record_uploaded_on_the_page_in_chinese").await else {
        return;
    };
    let client = &session.client;
    click(client, "#lang option[value=zh]").await;

    // The game list: number, title (the result as 红胜) and length, as the library words them.
    let record = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn/ccgc-20.pgn");
    let games = qili::record::read_games(&std::fs::read(&record).expect("read")).expect("a game");
    let listed = format!(
        "第1局 {}，共{}着",
        qili::record::dispute::Title::of(&games[0]).words(Lang::Zh),
        games[0].moves.len()
    );
    assert!(listed.contains("红胜"), "{listed}");
    upload(client, &record).await;
    let game = wait_for(client, "#game option[value='1']").await;
    assert_eq!(game.text().await.expect("text"), listed);

    // A record with an illegal move: the reader's error in Chinese only (after the API's field name,
    // as every error of the API names its field), on the file field.
    let bad = b"[Event \"x\"]\n[Result \"1-0\"]\n1. h2e2 h9g7 2. h0g2 i9i9 1-0\n";
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("desk-bad-record.pgn");
    std::fs::write(&path, bad).expect("write the record");
    let error = qili::record::read_games(bad).expect_err("an illegal move");
    let expected = format!("record：{}", error.words(Lang::Zh));
    assert!(expected.contains("没有相符的合法着法"), "{expected}");
    upload(client, &path).await;
    let shown = wait_for(client, "#error:not([hidden])").await;
    assert_eq!(shown.text().await.expect("text"), expected);
    assert_eq!(
        attr(client, "#record-file", "aria-invalid")
            .await
            .as_deref(),
        Some("true")
    );
    client.clone().close().await.expect("close");
}

#[tokio::test]
async fn the_page_shows_the_field_error_of_a_bad_fen() {
    let Some(session) = session("the_page_shows_the_field_error_of_a_bad_fen").await else {
        return;
    };
    let client = &session.client;
    type_into(client, "#fen", "4k4/9/6n2 w").await;
    type_into(client, "#moves", "h2g2").await;
    click(client, "#rule").await;
    let error = wait_for(client, "#error:not([hidden])").await;
    let message = error.text().await.expect("text");
    assert!(message.starts_with("fen: "), "{message}");
    assert_eq!(
        attr(client, "#fen", "aria-invalid").await.as_deref(),
        Some("true")
    );
    let sheets = client
        .find_all(Locator::Css("#result .qili-sheet"))
        .await
        .expect("find");
    assert!(sheets.is_empty(), "no ruling is shown");
    client.clone().close().await.expect("close");
}

/// Types the case into the page's form and rules on it; returns when the sheet is shown.
async fn rule_case_on_the_page(client: &fantoccini::Client, case: &qili::corpus::Case) {
    type_into(client, "#fen", &case.fen).await;
    type_into(client, "#moves", &case.moves.join(" ")).await;
    if case.told_to_change.red {
        click(client, "#told-red").await;
    }
    click(client, "#rule").await;
    wait_for(client, "#result .qili-sheet").await;
}

fn readme_case() -> qili::corpus::Case {
    cases()
        .into_iter()
        .find(|c| c.id == "c99-24.3-cannon-chases-horse-told")
        .expect("the README's case")
}

#[tokio::test]
async fn the_printed_sheet_fits_a4_and_letter_and_a_four_ply_cycle_takes_two_a4_pages() {
    let Some(session) = session("the_printed_sheet_fits_a4_and_letter").await else {
        return;
    };
    let client = &session.client;
    let case = readme_case();
    assert_eq!(case.moves.len() % 4, 0);
    for (id, value) in [("#pw-event", "全国象棋个人赛"), ("#pw-board", "3")] {
        type_into(client, id, value).await;
    }
    rule_case_on_the_page(client, &case).await;
    // The paperwork: what the arbiter typed, the time of the ruling, blank lines for the rest.
    let field = |class: &'static str| async move {
        wait_for(client, &format!("#result .paperwork .pw-{class} dd"))
            .await
            .text()
            .await
            .expect("text")
    };
    assert_eq!(field("event").await, "全国象棋个人赛");
    assert_eq!(field("board").await, "3");
    assert!(!field("time").await.is_empty(), "the time of the ruling");
    assert_eq!(field("arbiter").await, "");
    assert_eq!(field("signature").await, "");
    for (paper, name) in [
        (PrintSize::A4, "desk-sheet-a4.pdf"),
        (PrintSize::US_LETTER, "desk-sheet-letter.pdf"),
    ] {
        let (pages, past) = print_on(client, paper.clone(), name).await;
        assert!(past.is_empty(), "{name}: past the page's edge: {past:?}");
        if paper == PrintSize::A4 {
            assert_eq!(pages, 2, "{name}: a 4-ply cycle on two A4 pages");
        }
    }

    // `qili judge --format html`: the same sheet as a file.
    let out = Command::new(super::common::QILI)
        .args([
            "judge",
            "--fen",
            &case.fen,
            "--moves",
            &case.moves.join(" "),
        ])
        .args(["--told-to-change", "red", "--format", "html"])
        .output()
        .expect("qili judge");
    assert!(out.status.success());
    let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("judge-sheet.html");
    std::fs::write(&file, &out.stdout).expect("write the sheet");
    client
        .goto(&format!("file://{}", file.display()))
        .await
        .expect("open the sheet");
    for (paper, name) in [
        (PrintSize::A4, "judge-sheet-a4.pdf"),
        (PrintSize::US_LETTER, "judge-sheet-letter.pdf"),
    ] {
        let (pages, past) = print_on(client, paper.clone(), name).await;
        assert!(past.is_empty(), "{name}: past the page's edge: {past:?}");
        if paper == PrintSize::A4 {
            assert_eq!(pages, 2, "{name}: a 4-ply cycle on two A4 pages");
        }
    }
    client.clone().close().await.expect("close");
}

/// The step the sheet on the page shows.
async fn current_step(client: &fantoccini::Client) -> Option<String> {
    attr(client, "#result figure.step.current", "data-step").await
}

/// Presses `key` where the focus is.
async fn press(client: &fantoccini::Client, key: fantoccini::key::Key) {
    client
        .active_element()
        .await
        .expect("the focused element")
        .send_keys(&char::from(key).to_string())
        .await
        .expect("press");
}

/// Runs `script` (a function body) in the page and returns its JSON result.
async fn js(client: &fantoccini::Client, script: &str) -> serde_json::Value {
    client
        .execute(script, Vec::new())
        .await
        .unwrap_or_else(|e| panic!("{e}: {script}"))
}

#[tokio::test]
async fn the_pages_frictions_are_gone() {
    use fantoccini::key::Key;
    let Some(session) = session("the_pages_frictions_are_gone").await else {
        return;
    };
    let client = &session.client;

    // An empty form asks for the moves, on the moves field.
    click(client, "#rule").await;
    let error = wait_for(client, "#error:not([hidden])").await;
    assert!(error.text().await.expect("text").contains("moves"));
    assert_eq!(
        attr(client, "#moves", "aria-invalid").await.as_deref(),
        Some("true")
    );

    // The profile menu names each profile in words, in the language chosen.
    for (i, r) in qili::rules::Ruleset::ALL.iter().enumerate() {
        let (zh, en) = qili::sheet::words::ruleset_words(*r);
        let option = wait_for(client, &format!("#ruleset option:nth-child({})", i + 1)).await;
        let text = option
            .prop("textContent")
            .await
            .expect("text")
            .unwrap_or_default();
        assert!(text.contains(zh) && text.contains(en), "{text}");
    }

    // The file picker offers XQF and DhtmlXQ (text and web pages) besides PGN.
    let accept = attr(client, "#record-file", "accept")
        .await
        .unwrap_or_default();
    for ext in [".pgn", ".xqf", ".txt", ".htm"] {
        assert!(accept.split(',').any(|a| a == ext), "{ext} in {accept}");
    }

    // The arrow keys step through the diagrams right after a ruling (the focus on the button).
    let case = readme_case();
    rule_case_on_the_page(client, &case).await;
    assert_eq!(current_step(client).await.as_deref(), Some("0"));
    press(client, Key::Right).await;
    assert_eq!(current_step(client).await.as_deref(), Some("1"));
    // At the last diagram (reached with the button, which keeps the focus) they still work.
    for _ in 0..case.moves.len() {
        click(client, "nav.stepper button.next").await;
    }
    assert_eq!(current_step(client).await.as_deref(), Some("4"));
    press(client, Key::Right).await;
    assert_eq!(current_step(client).await.as_deref(), Some("4"));
    press(client, Key::Left).await;
    assert_eq!(current_step(client).await.as_deref(), Some("3"));

    // The cannon's chase arrow (h2g2: g2 over the pawn g6 onto the horse g7) passes beside the
    // screen: no point of the screen's disc is on the arrow's stroke.
    press(client, Key::Left).await;
    press(client, Key::Left).await;
    assert_eq!(current_step(client).await.as_deref(), Some("1"));
    let struck = js(
        client,
        "var fig = document.querySelector('#result figure.step.current');
         var shaft = fig.querySelector('.arrow.chase[data-from=g2] .shaft');
         var disc = fig.querySelector('.piece[data-square=g6] circle:last-of-type');
         if (!shaft || !disc) return 'missing';
         var cx = disc.cx.baseVal.value, cy = disc.cy.baseVal.value, r = 17, hit = [];
         for (var k = 0; k <= 16; k++) {
           var rr = k === 16 ? 0 : r, a = k * Math.PI / 8;
           var p = new DOMPoint(cx + rr * Math.cos(a), cy + rr * Math.sin(a));
           if (shaft.isPointInStroke(p)) hit.push([p.x, p.y]);
         }
         return hit;",
    )
    .await;
    assert_eq!(struck, serde_json::json!([]), "the screen's disc is struck");

    // Pieces on rank 0 (the red king d0) and their rings clear the file numerals.
    let overlaps = js(
        client,
        "var out = [];
         document.querySelectorAll('#result svg.qili-board').forEach(function (svg) {
           var texts = svg.querySelectorAll('g.coordinates text');
           svg.querySelectorAll('.piece[data-square$=\"0\"] circle, .piece[data-square$=\"9\"] circle, circle.mark').forEach(function (c) {
             var a = c.getBBox();
             texts.forEach(function (t) {
               var b = t.getBBox();
               if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
                 out.push(t.textContent);
             });
           });
         });
         return out;",
    )
    .await;
    assert_eq!(overlaps, serde_json::json!([]), "a numeral under a piece");

    // On a 390-px phone the sheet, its table of moves included, fits the screen's width.
    cdp(
        client,
        "Emulation.setDeviceMetricsOverride",
        serde_json::json!({"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true}),
    )
    .await;
    let wide = js(
        client,
        "var w = document.documentElement.clientWidth, out = [];
         document.querySelectorAll('body *').forEach(function (e) {
           var r = e.getBoundingClientRect();
           if (r.width > 0 && r.right > w + 0.5) out.push(e.tagName + '.' + e.getAttribute('class') + ' ' + Math.round(r.right));
         });
         return [w, document.documentElement.scrollWidth, out];",
    )
    .await;
    assert_eq!(wide[0], 390, "{wide}");
    assert_eq!(wide[1], 390, "{wide}");
    assert_eq!(wide[2], serde_json::json!([]), "{wide}");
    cdp(
        client,
        "Emulation.clearDeviceMetricsOverride",
        serde_json::json!({}),
    )
    .await;

    // The language switch re-renders the sheet shown, at the diagram it was at.
    let sheet = attr(client, "#result .qili-sheet", "lang").await;
    assert_eq!(sheet.as_deref(), Some("zh-Hans"));
    click(client, "#lang option[value=en]").await;
    wait_for(client, "#result .qili-sheet[lang=en]").await;
    assert_eq!(current_step(client).await.as_deref(), Some("1"));
    let verdict = wait_for(client, "#result .verdict-line").await;
    assert_eq!(verdict.text().await.expect("text"), "red loses");
    let option = wait_for(client, "#ruleset option[value=cxa2011]").await;
    assert_eq!(
        option.prop("textContent").await.expect("text").as_deref(),
        Some("Chinese Xiangqi Association rules, 2011")
    );

    // An XQF record uploads and lists its game.
    let xqf = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/xqf/ccgc-01.xqf");
    upload(client, &xqf).await;
    wait_for(client, "#game option[value='1']").await;
    client.clone().close().await.expect("close");
}

/// A page server on its own loopback port (another origin than qili's): it answers every request
/// with an empty HTML page, until dropped.
struct OtherOrigin {
    origin: String,
    task: tokio::task::JoinHandle<()>,
}

impl OtherOrigin {
    async fn start() -> OtherOrigin {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free port");
        let port = listener.local_addr().expect("address").port();
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut buf = [0u8; 1024];
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => head.extend_from_slice(&buf[..n]),
                        }
                    }
                    let page = "<!doctype html><title>club</title><p>another site</p>";
                    let answer = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\n\
                         connection: close\r\n\r\n{page}",
                        page.len()
                    );
                    let _ = stream.write_all(answer.as_bytes()).await;
                });
            }
        });
        OtherOrigin {
            origin: format!("http://127.0.0.1:{port}"),
            task,
        }
    }
}

impl Drop for OtherOrigin {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// From the page now open, `fetch`es a ruling from the JSON API at `api`: the verdict, or
/// `refused: …` when the browser does not let the page read the answer.
async fn fetch_ruling(client: &fantoccini::Client, api: &str) -> String {
    let script = "var done = arguments[arguments.length - 1];
        fetch(arguments[0] + '/v1/adjudicate', {
          method: 'POST',
          headers: {'content-type': 'application/json'},
          body: JSON.stringify({fen: '4k4/9/1c7/9/9/9/R8/9/9/3K5 w',
            moves: ['a3b3', 'b7a7', 'b3a3', 'a7b7', 'a3b3', 'b7a7', 'b3a3', 'a7b7']})
        }).then(function (r) { return r.json(); })
          .then(function (j) { done(j.verdict); })
          .catch(function (e) { done('refused: ' + e); });";
    client
        .execute_async(script, vec![serde_json::json!(api)])
        .await
        .expect("the script ran")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn a_page_on_another_origin_calls_the_json_api_only_when_its_origin_is_allowed() {
    let turn = BROWSER.lock().await;
    let Some(driver) = driver("a_page_on_another_origin") else {
        return;
    };
    let page = OtherOrigin::start().await;
    let allowing = Server::start_with(&["--allow-origin", &page.origin]);
    let other = OtherOrigin::start().await;
    let allowing_another = Server::start_with(&["--allow-origin", &other.origin]);
    let closed = Server::start();
    let client = browser(&driver).await;
    client.goto(&page.origin).await.expect("open the page");
    assert_eq!(
        fetch_ruling(&client, &allowing.url()).await,
        "VERDICT_RED_MUST_CHANGE"
    );
    for server in [&allowing_another, &closed] {
        let answer = fetch_ruling(&client, &server.url()).await;
        assert!(answer.starts_with("refused: "), "{answer}");
    }
    // qili's own page needs no permission.
    client.goto(&closed.url()).await.expect("open qili's page");
    assert_eq!(
        fetch_ruling(&client, &closed.url()).await,
        "VERDICT_RED_MUST_CHANGE"
    );
    client.close().await.expect("close");
    drop(turn);
}
