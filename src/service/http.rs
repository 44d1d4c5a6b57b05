//! HTTP/1.1 beside gRPC on the same port: gRPC-Web for browsers, the JSON API (the proto3 JSON
//! mapping of the gRPC messages, answered by the same `Qili` handlers, so limits, deadlines,
//! errors and logs are the same), board diagrams as SVG, and the consult page at `/`.
//!
//! | route | what |
//! |---|---|
//! | `POST /v1/adjudicate` | `AdjudicateRequest` → `Ruling` |
//! | `POST /v1/status` | `AdjudicateRequest` → `GameStatus` (live games) |
//! | `POST /v1/analyze` | `AnalyzeRequest` → `AnalyzeResponse` |
//! | `GET /v1/rulesets` | `ListRulesetsResponse` |
//! | `GET /v1/board.svg?fen=…&move=…&lang=…` | the position (after the move, with its checks and chases drawn) |
//! | `GET /` | the consult page; `POST /desk/record` and `POST /desk/ruling` serve it |
//!
//! Errors are the proto's `Error` message in JSON (`code`, `field`, `ply`, `message`) with HTTP
//! 400 (INVALID_ARGUMENT), 415 (INVALID_ARGUMENT: the body is not `application/json`), 413
//! (RESOURCE_EXHAUSTED: over a limit), 429 (RESOURCE_EXHAUSTED: the server is saturated), 504
//! (DEADLINE_EXCEEDED), 404 (NOT_FOUND), 405 (UNIMPLEMENTED) or 500 (INTERNAL).

use super::access::{CallNote, WebCodeLayer};
use super::config::ServiceConfig;
use super::connection::BodyTimeout;
use super::convert;
use super::failure::{FIELD_KEY, Failure, PLY_KEY, abridge};
use super::handler::{Finish, QiliService, Ruled};
use super::pb;
use super::pb::qili_server::Qili;
use super::pool::Lane;
use crate::lang::{Lang as Said, Words};
use crate::position::Position;
use crate::record::dispute::{At, Dispute, Title, round_of, split_moves};
use crate::referee::forbidden_after;
use crate::request::RequestError;
use crate::sheet::{self, Lang};
use axum::Router;
use axum::body::Bytes;
use axum::extract::FromRequest;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Extension, Query, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use serde::Deserialize;
use std::time::Instant;
use tonic::Code;
use tonic::codegen::http::{HeaderMap, HeaderValue, StatusCode, header};
use tonic::service::Routes;

/// The access log's note of an HTTP call (the layer puts one in every request).
type Note = Extension<CallNote>;

const PAGE: &str = include_str!("page/index.html");
const PAGE_STYLE: &str = include_str!("page/desk.css");
const PAGE_SCRIPT: &str = include_str!("page/desk.js");

/// Most cycle diagrams in one sheet the page asks for (`/desk/ruling`); the others come on
/// request (`diagrams_from`). A diagram is about 9 KB: a 480-ply cycle's sheet was 4.4 MB.
pub const SHEET_DIAGRAMS: usize = 32;

/// Most games of a record listed in one answer of `/desk/record`; the others come on request
/// (`games_from`). A 780 KB record of 27 857 games was a 1.5 MB list.
pub const LISTED_GAMES: usize = 1000;

/// The page's content security policy, sent with every HTTP answer: scripts, styles and images
/// only from this server (no inline script, so markup that slipped into a sheet could not run),
/// calls only to it, and no framing by another site (clickjacking).
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; form-action 'none'; base-uri 'none'; \
     frame-ancestors 'none'";

/// The gRPC `routes` (wrapped for gRPC-Web) together with the HTTP routes of this module.
pub fn routes(grpc: Routes, service: QiliService, config: &ServiceConfig) -> Routes {
    let grpc = grpc
        .into_axum_router()
        .layer(WebCodeLayer)
        .layer(tonic_web::GrpcWebLayer::new());
    let http = Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", PAGE) }),
        )
        .route(
            "/desk.css",
            get(|| async { asset("text/css; charset=utf-8", PAGE_STYLE) }),
        )
        .route(
            "/desk.js",
            get(|| async { asset("text/javascript; charset=utf-8", PAGE_SCRIPT) }),
        )
        .route(
            "/sheet.css",
            get(|| async { asset("text/css; charset=utf-8", sheet::STYLE) }),
        )
        .route(
            "/steps.js",
            get(|| async { asset("text/javascript; charset=utf-8", sheet::SCRIPT) }),
        )
        .route("/v1/adjudicate", post(adjudicate))
        .route("/v1/status", post(status))
        .route("/v1/analyze", post(analyze))
        .route("/v1/rulesets", get(rulesets))
        .route("/v1/board.svg", get(board))
        .route("/desk/record", post(record))
        .route("/desk/ruling", post(desk_ruling))
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(config.max_message_bytes))
        .layer(security_headers())
        .with_state(service);
    let not_found = axum::handler::Handler::<_, ()>::layer(not_found, security_headers());
    let router = grpc.merge(http).fallback(not_found);
    // Outside gRPC-Web and the JSON API, so that it answers their preflights.
    match config.allow_origins.layer() {
        Some(cors) => Routes::from(router.layer(cors)),
        None => Routes::from(router),
    }
}

/// The headers of every HTTP answer (not the gRPC ones): the content security policy, no MIME
/// sniffing, no referrer.
fn security_headers() -> tower::util::MapResponseLayer<fn(Response) -> Response> {
    fn add(mut response: Response) -> Response {
        let headers = response.headers_mut();
        for (name, value) in [
            (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::REFERRER_POLICY, "no-referrer"),
        ] {
            headers
                .entry(name)
                .or_insert(HeaderValue::from_static(value));
        }
        response
    }
    tower::util::MapResponseLayer::new(add)
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// A failed HTTP call: its gRPC code and the proto's `Error` message.
pub struct HttpError {
    code: Code,
    error: pb::Error,
    /// The HTTP status, when the code's usual one does not fit (415).
    http: Option<StatusCode>,
}

impl HttpError {
    fn new(code: Code, field: &str, ply: Option<usize>, message: String) -> HttpError {
        let pb_code = match code {
            Code::InvalidArgument => pb::ErrorCode::InvalidArgument,
            Code::DeadlineExceeded => pb::ErrorCode::DeadlineExceeded,
            Code::ResourceExhausted => pb::ErrorCode::ResourceExhausted,
            Code::NotFound => pb::ErrorCode::NotFound,
            Code::Unimplemented => pb::ErrorCode::Unimplemented,
            _ => pb::ErrorCode::Internal,
        };
        HttpError {
            code,
            http: None,
            error: pb::Error {
                code: pb_code.into(),
                field: field.to_string(),
                ply: ply.map(|p| u32::try_from(p).unwrap_or(u32::MAX)),
                message,
            },
        }
    }

    fn invalid(field: &str, message: String) -> HttpError {
        HttpError::new(Code::InvalidArgument, field, None, message)
    }

    /// The error of a `Qili` handler, with the field and ply its trailers carry.
    fn from_status(status: &tonic::Status) -> HttpError {
        let meta = status.metadata();
        let field = meta
            .get(FIELD_KEY)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let ply = meta
            .get(PLY_KEY)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok());
        HttpError::new(status.code(), field, ply, status.message().to_string())
    }

    fn status(&self) -> StatusCode {
        if let Some(status) = self.http {
            return status;
        }
        match self.code {
            Code::InvalidArgument | Code::OutOfRange | Code::FailedPrecondition => {
                StatusCode::BAD_REQUEST
            }
            Code::ResourceExhausted => StatusCode::PAYLOAD_TOO_LARGE,
            Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
            Code::NotFound => StatusCode::NOT_FOUND,
            Code::Unimplemented => StatusCode::METHOD_NOT_ALLOWED,
            Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<Failure> for HttpError {
    /// The failure as it is; a saturated server is 429, the other RESOURCE_EXHAUSTED 413.
    fn from(f: Failure) -> HttpError {
        let http = f.is_saturated().then_some(StatusCode::TOO_MANY_REQUESTS);
        HttpError {
            http,
            ..HttpError::new(f.code, f.field.unwrap_or_default(), f.ply, f.message)
        }
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let mut response = json(self.status(), &self.error);
        // The access log reads the code, field and ply from the status, as for a gRPC call.
        let mut status = tonic::Status::new(self.code, self.error.message.clone());
        if !self.error.field.is_empty()
            && let Ok(field) = self.error.field.parse()
        {
            status.metadata_mut().insert(FIELD_KEY, field);
        }
        if let Some(ply) = self.error.ply {
            status.metadata_mut().insert(PLY_KEY, ply.into());
        }
        response.extensions_mut().insert(status);
        response
    }
}

fn json(status: StatusCode, body: &impl serde::Serialize) -> Response {
    match serde_json::to_vec(body) {
        Ok(bytes) => (
            status,
            [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
            bytes,
        )
            .into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot write JSON: {e}"),
        )
            .into_response(),
    }
}

/// The language a request asks for its errors when no field of it says: Chinese when its
/// `Accept-Language` ranks a Chinese tag (`zh`, `zh-CN`, …) first, else English.
fn asked(headers: &HeaderMap) -> Said {
    let mut best: Option<(f32, bool)> = None;
    let ranges = headers
        .get_all(header::ACCEPT_LANGUAGE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','));
    for range in ranges {
        let mut parts = range.split(';');
        let tag = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if !tag.is_empty() && best.is_none_or(|(top, _)| q > top) {
            best = Some((q, tag == "zh" || tag.starts_with("zh-")));
        }
    }
    if best.is_some_and(|(_, zh)| zh) {
        Said::Zh
    } else {
        Said::En
    }
}

async fn not_found(uri: tonic::codegen::http::Uri, headers: HeaderMap) -> HttpError {
    let path = uri.path();
    let calls = "GET /, POST /v1/adjudicate, POST /v1/status, POST /v1/analyze, GET /v1/rulesets, GET /v1/board.svg";
    let said = match asked(&headers) {
        Said::En => format!(
            "no such page or call: {path:?}; see GET / (the page), POST /v1/adjudicate, POST /v1/status, POST /v1/analyze, GET /v1/rulesets, GET /v1/board.svg"
        ),
        Said::Zh => format!("没有这个页面或调用：{path:?}；请见{calls}（GET /是页面）"),
    };
    HttpError::new(Code::NotFound, "", None, abridge(&said, path))
}

async fn wrong_method(
    method: tonic::codegen::http::Method,
    uri: tonic::codegen::http::Uri,
    headers: HeaderMap,
) -> HttpError {
    let path = uri.path();
    let said = match asked(&headers) {
        Said::En => format!(
            "{method} {path:?}: not allowed here (the /v1 calls that take a body are POST, the others GET)"
        ),
        Said::Zh => {
            format!("{method} {path:?}：此处不允许这种方法（/v1中带请求体的调用用POST，其余用GET）")
        }
    };
    HttpError::new(Code::Unimplemented, "", None, abridge(&said, path))
}

/// The body, or RESOURCE_EXHAUSTED when it is over the size limit; errors in `said`.
fn body(body: Result<Bytes, BytesRejection>, said: Said) -> Result<Bytes, HttpError> {
    let request = said.pick("request：", "request: ");
    body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large(said)
        } else if let Some(late) = timed_out(&e) {
            let message = format!("{request}{}", late.words(said));
            HttpError {
                http: Some(StatusCode::REQUEST_TIMEOUT),
                ..HttpError::new(Code::DeadlineExceeded, "", None, message)
            }
        } else {
            let why = said.pick("无法读取请求体", "cannot read the body");
            HttpError::invalid("", format!("{request}{why}{}{e}", said.pick("：", ": ")))
        }
    })
}

/// The read timeout's error, if that is why the body could not be read.
impl Words for BodyTimeout {
    fn words(&self, lang: Said) -> String {
        match lang {
            Said::En => self.to_string(),
            Said::Zh => format!(
                "请求体未在{}毫秒内到达（qili serve --read-timeout-ms）",
                self.0
            ),
        }
    }
}

fn timed_out(e: &BytesRejection) -> Option<&BodyTimeout> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(error) = source {
        if let Some(late) = error.downcast_ref::<BodyTimeout>() {
            return Some(late);
        }
        source = error.source();
    }
    None
}

fn too_large(said: Said) -> HttpError {
    HttpError::new(
        Code::ResourceExhausted,
        "",
        None,
        said.pick(
            "request：请求体超过上限（qili serve --max-message-bytes）",
            "request: the body is larger than the limit (qili serve --max-message-bytes)",
        )
        .to_string(),
    )
}

/// The body of a JSON call: `content-type: application/json` (else 415, so that a cross-site form
/// or `text/plain` post cannot make the server compute), at most `--max-message-bytes` (else 413),
/// one JSON value with nothing after it, decoded with `null` read as the field's default (the
/// proto3 JSON mapping) and a bad field named (400).
pub struct JsonBody<T>(pub T);

impl<T> FromRequest<QiliService> for JsonBody<T>
where
    T: serde::de::DeserializeOwned,
{
    type Rejection = HttpError;

    async fn from_request(
        request: axum::extract::Request,
        service: &QiliService,
    ) -> Result<Self, HttpError> {
        let json = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        let said = asked(request.headers());
        if !json {
            return Err(HttpError {
                http: Some(StatusCode::UNSUPPORTED_MEDIA_TYPE),
                ..HttpError::invalid(
                    "",
                    said.pick(
                        "request：请求体须为JSON，以content-type: application/json发送",
                        "request: the body must be JSON, sent with content-type: application/json",
                    )
                    .to_string(),
                )
            });
        }
        // A declared length over the limit is refused before the body is read.
        let declared = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        let limit = service.config().max_message_bytes;
        if declared.is_some_and(|n| n > u64::try_from(limit).unwrap_or(u64::MAX)) {
            return Err(too_large(said));
        }
        let bytes = body(Bytes::from_request(request, service).await, said)?;
        decode(&bytes, said).map(JsonBody)
    }
}

/// The JSON API's reading of a request body (what its extractor does once the content type and size
/// are checked): the message, or the error answer the call gets (code, field, ply, message).
pub fn decode_json<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, pb::Error> {
    decode(bytes, Said::En).map_err(|e| e.error)
}

/// A message from its JSON (proto3 mapping, or the page's own requests); a bad one is
/// INVALID_ARGUMENT naming the field (`moves` and its index for a bad move), in the language the
/// body asks for (`language`, or the page's `lang`), else in `said` (serde's reason stays English).
fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8], said: Said) -> Result<T, HttpError> {
    // `from_slice` rejects anything after the value.
    let mut value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| {
        let message = match said {
            Said::En => format!("request: not one JSON value: {e}"),
            Said::Zh => format!("request：不是一个JSON值：{e}"),
        };
        HttpError::invalid("", abridge(&message, ""))
    })?;
    let zh = matches!(value.get("language"), Some(l) if *l == "LANGUAGE_ZH" || *l == 1)
        || value.get("lang").is_some_and(|l| l == "zh");
    let said = if zh { Said::Zh } else { said };
    drop_nulls(&mut value);
    serde_path_to_error::deserialize(value).map_err(|e| {
        let mut segments = e.path().iter();
        let field = match segments.next() {
            Some(serde_path_to_error::Segment::Map { key }) => snake_case(key),
            _ => String::new(),
        };
        let ply = match segments.next() {
            Some(serde_path_to_error::Segment::Seq { index }) => Some(*index),
            _ => None,
        };
        let inner = e.into_inner();
        let name = if field.is_empty() { "request" } else { &field };
        let at = ply.map_or(String::new(), |p| format!("[{p}]"));
        let message = match said {
            Said::En => format!("{name}{at}: {inner}"),
            Said::Zh => format!("{name}{at}：无法读取（{inner}）"),
        };
        let message = abridge(&message, "");
        HttpError::new(Code::InvalidArgument, &field, ply, message)
    })
}

/// Removes the object members whose value is `null`, at any depth: in the proto3 JSON mapping a
/// `null` field is the field's default, which is what an absent one is.
fn drop_nulls(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(drop_nulls);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

/// `toldToChange` → `told_to_change`: errors name fields as the proto does.
fn snake_case(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    abridge(&out, &out)
}

/// The language a JSON API call's limits (a full queue, the deadline, too many moves) are said
/// in: the body's `language`, else as the headers ask.
fn limits_said(language: i32, headers: &HeaderMap) -> Said {
    match pb::Language::try_from(language) {
        Ok(pb::Language::Zh) => Said::Zh,
        Ok(pb::Language::En) => Said::En,
        _ => asked(headers),
    }
}

/// The gRPC request of an HTTP call: its message, the client's `grpc-timeout` header, and the
/// access log's note, so that the call's line has the request id and verdict as over gRPC.
fn grpc_request<T>(message: T, headers: &HeaderMap, note: Option<Note>) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    if let Some(Extension(note)) = note {
        request.extensions_mut().insert(note);
    }
    if let Some(v) = headers
        .get("grpc-timeout")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
    {
        request.metadata_mut().insert("grpc-timeout", v);
    }
    request
}

async fn adjudicate(
    State(service): State<QiliService>,
    headers: HeaderMap,
    note: Option<Note>,
    JsonBody(request): JsonBody<pb::AdjudicateRequest>,
) -> Result<Response, HttpError> {
    let said = limits_said(request.language, &headers);
    let ruling = service
        .adjudicate_then(
            grpc_request(request, &headers, note),
            (Finish::Light, Ruled::reply),
        )
        .await
        .map_err(|f| HttpError::from(f.said(said)))?;
    Ok(json(StatusCode::OK, &ruling))
}

async fn status(
    State(service): State<QiliService>,
    headers: HeaderMap,
    note: Option<Note>,
    JsonBody(request): JsonBody<pb::AdjudicateRequest>,
) -> Result<Response, HttpError> {
    let said = limits_said(request.language, &headers);
    let answer =
        super::watch::status::<pb::GameStatus>(&service, grpc_request(request, &headers, note))
            .await
            .map_err(|f| HttpError::from(f.said(said)))?;
    Ok(json(StatusCode::OK, answer.get_ref()))
}

async fn analyze(
    State(service): State<QiliService>,
    headers: HeaderMap,
    note: Option<Note>,
    JsonBody(request): JsonBody<pb::AnalyzeRequest>,
) -> Result<Response, HttpError> {
    let said = limits_said(request.language, &headers);
    let answer = service
        .analyze_then(grpc_request(request, &headers, note), convert::analysis)
        .await
        .map_err(|f| HttpError::from(f.said(said)))?;
    Ok(json(StatusCode::OK, &answer))
}

async fn rulesets(State(service): State<QiliService>) -> Result<Response, HttpError> {
    let answer = Qili::list_rulesets(&service, tonic::Request::new(pb::ListRulesetsRequest {}))
        .await
        .map_err(|s| HttpError::from_status(&s))?;
    Ok(json(StatusCode::OK, answer.get_ref()))
}

/// The language named in a query or form (`zh`, `en`, `both`; empty: both); an unknown one is
/// refused in `said`.
fn lang(name: &str, said: Said) -> Result<(Lang, pb::Language), HttpError> {
    match name.trim() {
        "" | "both" => Ok((Lang::Both, pb::Language::Both)),
        "zh" => Ok((Lang::Zh, pb::Language::Zh)),
        "en" => Ok((Lang::En, pb::Language::En)),
        other => {
            let message = match said {
                Said::En => format!("lang: unknown language {other:?}: expected zh, en or both"),
                Said::Zh => format!("lang：未知的语言{other:?}：应为zh、en或both"),
            };
            Err(HttpError::invalid("lang", abridge(&message, other)))
        }
    }
}

/// The notation named in a query (`auto`, `iccs`, `wxf`, `chinese`; empty: auto).
fn notation(name: &str, said: Said) -> Result<pb::Notation, HttpError> {
    match name.trim() {
        "" | "auto" => Ok(pb::Notation::Auto),
        "iccs" => Ok(pb::Notation::Iccs),
        "wxf" => Ok(pb::Notation::Wxf),
        "chinese" => Ok(pb::Notation::Chinese),
        other => {
            let message = match said {
                Said::En => format!(
                    "notation: unknown notation {other:?}: expected auto, iccs, wxf or chinese"
                ),
                Said::Zh => {
                    format!("notation：未知的记谱法{other:?}：应为auto、iccs、wxf或chinese")
                }
            };
            Err(HttpError::invalid("notation", abridge(&message, other)))
        }
    }
}

/// The query of `GET /v1/board.svg`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct BoardQuery {
    fen: String,
    #[serde(rename = "move")]
    mv: String,
    notation: String,
    ruleset: String,
    lang: String,
}

async fn board(
    State(service): State<QiliService>,
    headers: HeaderMap,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> Result<Response, HttpError> {
    let said = asked(&headers);
    let Query(q) = query.map_err(|e| {
        let message = match said {
            Said::En => format!("request: bad query: {e}"),
            Said::Zh => format!("request：查询串有误：{e}"),
        };
        HttpError::invalid("", message)
    })?;
    let (lang, language) = lang(&q.lang, said)?;
    let said = match lang {
        Lang::Zh => Said::Zh,
        Lang::En => Said::En,
        Lang::Both => said,
    };
    let svg = if q.mv.trim().is_empty() {
        let position = if q.fen.trim().is_empty() {
            Position::start()
        } else {
            Position::from_fen(&q.fen)
                .map_err(|e| HttpError::from(Failure::from(RequestError::from(e))))?
        };
        crate::diagram::Diagram::new(&position).title(&q.fen).svg()
    } else {
        let request = pb::AnalyzeRequest {
            request_id: String::new(),
            fen: q.fen,
            r#move: q.mv,
            notation: notation(&q.notation, said)?.into(),
            ruleset: q.ruleset,
            defensive_key_point: None,
            language: language.into(),
        };
        service
            .analyze_then(
                grpc_request(request, &headers, None),
                move |a, _, _| match &a.mv {
                    Some(m) => sheet::move_diagram(&a.position, m, lang).svg(),
                    None => crate::diagram::Diagram::new(&a.position).svg(),
                },
            )
            .await
            .map_err(HttpError::from)?
    };
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("image/svg+xml; charset=utf-8"),
        )],
        svg,
    )
        .into_response())
}

/// A yes/no per side, as the page sends it.
#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
struct Sides {
    red: bool,
    black: bool,
}

impl From<Sides> for pb::BySide {
    fn from(s: Sides) -> pb::BySide {
        pb::BySide {
            red: s.red,
            black: s.black,
        }
    }
}

/// What the consult page sends: a record (base64 of its bytes, any encoding) or a FEN and
/// moves, and the options.
#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct DeskRequest {
    fen: String,
    moves: String,
    record: String,
    name: String,
    game: Option<usize>,
    at: String,
    ruleset: String,
    told_to_change: Sides,
    key_point: Sides,
    lang: String,
    /// The paperwork the arbiter typed (event, round, board, players, time, arbiter).
    paperwork: sheet::Paperwork,
    /// The sheet's first diagram (0: the cycle's start); at most [`SHEET_DIAGRAMS`] are drawn.
    diagrams_from: usize,
    /// The number of the first game listed (from 1; 0 or absent: 1); at most [`LISTED_GAMES`].
    games_from: usize,
}

fn record_bytes(text: &str, said: Said) -> Result<Vec<u8>, HttpError> {
    base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| {
            let message = match said {
                Said::En => format!("record: not base64: {e}"),
                Said::Zh => format!("record：不是base64：{e}"),
            };
            HttpError::invalid("record", message)
        })
}

fn record_name(name: &str) -> String {
    let name = name.trim();
    if name.is_empty() {
        "record".to_string()
    } else {
        super::failure::abridge_text(name).into_owned()
    }
}

/// Runs `work` (reading a record, rendering a sheet) in the bulk lane of the work pool, under the
/// call's deadline (the server's, or the `grpc-timeout` header's if shorter), like a ruling.
async fn in_pool<T: Send + 'static>(
    service: &QiliService,
    start: Instant,
    headers: &HeaderMap,
    said: Said,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, HttpError> {
    let deadline = service.deadline_with(
        start,
        headers.get("grpc-timeout").and_then(|v| v.to_str().ok()),
    );
    service
        .pool()
        .run_in(Lane::Bulk, start, deadline, work)
        .await
        .map_err(|f| HttpError::from(f.said(said)))
}

/// The games of a record, for the page's game list.
#[derive(serde::Serialize)]
struct GameInfo {
    number: usize,
    title: String,
    plies: usize,
    last_round: u32,
}

async fn record(
    State(service): State<QiliService>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<DeskRequest>,
) -> Result<Response, HttpError> {
    let start = Instant::now();
    // The titles and the error in the page's language (a page in both languages: English).
    let said = lang(&request.lang, asked(&headers))?.0.once();
    let bytes = record_bytes(&request.record, said)?;
    let skip = request.games_from.saturating_sub(1);
    let (list, total) = in_pool(&service, start, &headers, said, move || {
        let games = crate::record::read_games(&bytes)?;
        let list = games
            .iter()
            .enumerate()
            .skip(skip)
            .take(LISTED_GAMES)
            .map(|(i, g)| GameInfo {
                number: i + 1,
                title: Title::of(g).words(said),
                plies: g.moves.len(),
                last_round: g
                    .moves
                    .len()
                    .checked_sub(1)
                    .map_or(0, |p| round_of(&g.start, p).0),
            })
            .collect::<Vec<_>>();
        Ok::<_, crate::record::RecordError>((list, games.len()))
    })
    .await?
    .map_err(|e| {
        let colon = said.pick("：", ": ");
        HttpError::invalid("record", format!("record{colon}{}", e.words(said)))
    })?;
    Ok(json(
        StatusCode::OK,
        &serde_json::json!({ "games": list, "total": total }),
    ))
}

/// Rules on what the page sent and answers the ruling sheet as an HTML fragment.
async fn desk_ruling(
    State(service): State<QiliService>,
    headers: HeaderMap,
    note: Option<Note>,
    JsonBody(q): JsonBody<DeskRequest>,
) -> Result<Response, HttpError> {
    let start = Instant::now();
    let (lang, language) = lang(&q.lang, asked(&headers))?;
    let said = lang.once();
    let colon = said.pick("：", ": ");
    let from_record = !q.record.trim().is_empty();
    let dispute = if from_record {
        let at = match q.at.trim() {
            "" => None,
            text => Some(text.parse::<At>().map_err(|e| {
                HttpError::invalid("at", abridge(&format!("at{colon}{}", e.words(said)), text))
            })?),
        };
        let bytes = record_bytes(&q.record, said)?;
        let (name, game) = (record_name(&q.name), q.game);
        let read = in_pool(&service, start, &headers, said, move || {
            Dispute::from_record(&name, &bytes, game, at)
        })
        .await?;
        let dispute = read.map_err(|e| {
            let field = match e {
                crate::record::dispute::DisputeError::Record(_) => "record",
                crate::record::dispute::DisputeError::NotInGame { .. } => "at",
                _ => "game",
            };
            HttpError::invalid(
                field,
                abridge(&format!("{field}{colon}{}", e.words(said)), ""),
            )
        })?;
        Some(dispute)
    } else if !q.at.trim().is_empty() {
        return Err(HttpError::invalid(
            "at",
            said.pick(
                "at：只用于棋谱；输入着法时，请只输入到争议时刻为止的着法",
                "at: applies to a record; with typed moves, type the moves up to the disputed moment",
            )
            .to_string(),
        ));
    } else {
        None
    };
    let request = pb::AdjudicateRequest {
        request_id: String::new(),
        fen: dispute
            .as_ref()
            .map_or_else(|| q.fen.clone(), |d| d.start.fen()),
        moves: dispute
            .as_ref()
            .map_or_else(|| split_moves(&q.moves), Dispute::iccs)
            .into(),
        notation: if from_record {
            pb::Notation::Iccs
        } else {
            pb::Notation::Auto
        }
        .into(),
        ruleset: q.ruleset.clone(),
        told_to_change: Some(q.told_to_change.into()),
        defensive_key_point: Some(q.key_point.into()),
        language: language.into(),
        detail: pb::Detail::Full.into(),
        game: None,
    };
    let paperwork = q.paperwork;
    let diagrams = sheet::Diagrams {
        from: q.diagrams_from,
        most: SHEET_DIAGRAMS,
    };
    // The options the ruling is made with, for the forbidden moves shown beside it.
    let options = convert::into_request(request.clone()).map(|(r, _, _)| r.options);
    // The sheet is written where the ruling was made, from the moves the handler read.
    let html = service
        .adjudicate_then(
            grpc_request(request, &headers, note),
            (Finish::Heavy, move |ruled: Ruled| {
                let dispute = dispute.unwrap_or(Dispute {
                    start: ruled.start,
                    moves: ruled.moves,
                    source: None,
                });
                let forbidden = options
                    .ok()
                    .and_then(|o| forbidden_after(dispute.start, &dispute.moves, o).ok())
                    .map(|(_, list)| list)
                    .unwrap_or_default();
                sheet::ruling_fragment(
                    &ruled.ruling,
                    &dispute,
                    &paperwork,
                    &forbidden,
                    diagrams,
                    lang,
                )
            }),
        )
        .await
        .map_err(|f| HttpError::from(f.said(said)))?;
    Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response())
}
