//! Why a call got no ruling, in one shape for both the unary status and the streamed error answer.

use super::pb;
use crate::lang::{Lang, Words};
use crate::request::RequestError;
use std::borrow::Cow;
use tonic::{Code, Status};

/// Metadata key of a failed call's status naming the request field at fault.
pub const FIELD_KEY: &str = "qili-field";
/// Metadata key of a failed call's status giving the index of the move at fault.
pub const PLY_KEY: &str = "qili-ply";

/// How prost's decoding errors begin (tonic reports them as INTERNAL).
const DECODE_PREFIX: &str = "failed to decode Protobuf message: ";

/// Broken framing from a client, as tonic and tonic-web report it (INTERNAL, though the fault is
/// the client's): how their message begins, and what qili says instead.
const FRAMING: [(&str, &str); 6] = [
    (
        "Unexpected EOF decoding stream",
        "the message is cut short: its frame announces more bytes than the body holds",
    ),
    (
        "Missing request message",
        "the body holds no message (a unary call sends one gRPC frame)",
    ),
    (
        "protocol error: received message with compressed-flag but no grpc-encoding",
        "a message is flagged compressed but the call names no grpc-encoding",
    ),
    (
        "protocol error: received message with invalid compression flag",
        "a message's compression flag is neither 0 nor 1",
    ),
    (
        "tonic-web: malformed base64",
        "the gRPC-Web text body is not base64",
    ),
    // The base64 decoder's own errors (`Invalid symbol 42, offset 4.`, `Invalid padding`, …).
    (
        "tonic-web: Invalid ",
        "the gRPC-Web text body is not base64",
    ),
];

/// The status a client should see for one the transport made with a code meant for other things:
/// a message over the size limit (tonic: OUT_OF_RANGE) is RESOURCE_EXHAUSTED; a message that
/// cannot be decoded, such as a string that is not UTF-8 (tonic: INTERNAL), is INVALID_ARGUMENT
/// naming the field; broken framing — a truncated frame, no frame, a compressed flag without
/// `grpc-encoding`, gRPC-Web text that is not base64 (tonic: INTERNAL) — is INVALID_ARGUMENT.
/// `None` when `status` needs no change.
pub fn reclassify(status: &Status) -> Option<Status> {
    match status.code() {
        // tonic's message says how large the message was; name what is at fault and the flag.
        Code::OutOfRange => Some(Status::resource_exhausted(format!(
            "request: {} (qili serve --max-message-bytes)",
            status.message()
        ))),
        Code::Internal => {
            let message = status.message();
            if let Some((_, reason)) = FRAMING.iter().find(|(p, _)| message.starts_with(p)) {
                return Some(Status::invalid_argument(abridge(
                    &format!("request: {reason} ({message})"),
                    "",
                )));
            }
            let detail = message.strip_prefix(DECODE_PREFIX)?;
            // prost names the path as `Message.field: ` before the reason.
            let (path, reason) = detail.split_once(": ").unwrap_or(("", detail));
            let field = path.split_once('.').map(|(_, f)| f).filter(|f| {
                !f.is_empty() && f.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            });
            let mut fixed = match field {
                Some(field) => Status::invalid_argument(format!("{field}: {reason}")),
                None => Status::invalid_argument(format!("request: cannot be decoded: {detail}")),
            };
            if let Some(value) = field.and_then(|f| f.parse().ok()) {
                fixed.metadata_mut().insert(FIELD_KEY, value);
            }
            Some(fixed)
        }
        _ => None,
    }
}

/// Longest caller text a message quotes whole: a longer one is cut, so that a huge move, name or
/// request id does not come back whole (twice) in the status message, its trailers and the log.
const ECHO_MAX: usize = 64;
/// Longest message a failure carries, in bytes.
const MESSAGE_MAX: usize = 1024;

/// `text` cut to a few dozen bytes (on a character boundary) if it is long.
fn cut(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `message` with each quotation of the caller's `text` (as `{:?}` prints it) cut short when `text`
/// is long, and the whole at most 1024 bytes: a message names the field first, so the cut keeps it.
pub fn abridge(message: &str, text: &str) -> String {
    let mut out = if text.len() > ECHO_MAX {
        let short = format!("{:?}… ({} bytes)", cut(text, ECHO_MAX / 2), text.len());
        message.replace(&format!("{text:?}"), &short)
    } else {
        message.to_string()
    };
    if out.len() > MESSAGE_MAX {
        out = format!("{}…", cut(&out, MESSAGE_MAX));
    }
    out
}

/// A caller's text for a log line: as is if short (not copied), else its first bytes and its length.
pub fn abridge_text(text: &str) -> Cow<'_, str> {
    if text.len() > ECHO_MAX {
        Cow::Owned(format!(
            "{}… ({} bytes)",
            cut(text, ECHO_MAX / 2),
            text.len()
        ))
    } else {
        Cow::Borrowed(text)
    }
}

/// A limit of the server that a call ran into (服务器限额): said in the request's language once it
/// is known, which the pool that finds a queue full or a deadline passed does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// 服务器满负荷: the queue of `max_queue` waiting calls is full (`--max-queue`).
    Saturated {
        /// The queue's length.
        max_queue: usize,
    },
    /// 超时: no ruling within the deadline, `elapsed_ms` after the call began.
    Deadline {
        /// Milliseconds since the call began.
        elapsed_ms: u128,
    },
    /// 着数超限: a request of `moves` moves, over the limit of `max_moves` (`--max-moves`).
    Moves {
        /// The request's moves.
        moves: usize,
        /// The limit.
        max_moves: usize,
    },
    /// 对局着数已满: a live game of `max_moves` moves sent one more, `text`, as its move `ply`.
    GameFull {
        /// The index of the refused move.
        ply: usize,
        /// The refused move as sent.
        text: String,
        /// The limit.
        max_moves: usize,
    },
}

impl Words for Limit {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (Limit::Saturated { max_queue }, Lang::En) => format!(
                "the server is saturated: {max_queue} calls are already waiting (qili serve --max-queue); retry later"
            ),
            (Limit::Saturated { max_queue }, Lang::Zh) => format!(
                "服务器满负荷：已有{max_queue}个调用在等待（qili serve --max-queue）；请稍后重试"
            ),
            (Limit::Deadline { elapsed_ms }, Lang::En) => {
                format!("no ruling within the deadline ({elapsed_ms} ms elapsed)")
            }
            (Limit::Deadline { elapsed_ms }, Lang::Zh) => {
                format!("未能在时限内作出裁决（已用{elapsed_ms}毫秒）")
            }
            (Limit::Moves { moves, max_moves }, Lang::En) => format!(
                "moves: {moves} moves, more than the limit of {max_moves} (qili serve --max-moves)"
            ),
            (Limit::Moves { moves, max_moves }, Lang::Zh) => {
                format!("moves：共{moves}着，超过上限{max_moves}着（qili serve --max-moves）")
            }
            (
                Limit::GameFull {
                    ply,
                    text,
                    max_moves,
                },
                lang,
            ) => {
                let message = match lang {
                    Lang::En => format!(
                        "moves[{ply}] {text:?}: the game has reached the limit of {max_moves} moves (qili serve --max-moves)"
                    ),
                    Lang::Zh => format!(
                        "moves[{ply}] {text:?}：本局已达{max_moves}着的上限（qili serve --max-moves）"
                    ),
                };
                abridge(&message, text)
            }
        }
    }
}

/// A failed call: its gRPC code, the field and move at fault, and a one-line reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The gRPC status code.
    pub code: Code,
    /// The request field at fault, if any.
    pub field: Option<&'static str>,
    /// The index of the move at fault, if any.
    pub ply: Option<usize>,
    /// The reason, naming the field (and ply) first.
    pub message: String,
    /// The server's limit it ran into, if that is why (its message is then said again in the
    /// request's language by [`Failure::said`]).
    pub limit: Option<Limit>,
}

impl Failure {
    /// INVALID_ARGUMENT for `field`; `message` should start with the field's name.
    pub fn invalid(field: &'static str, message: String) -> Failure {
        Failure {
            code: Code::InvalidArgument,
            field: Some(field),
            ply: None,
            message,
            limit: None,
        }
    }

    /// The failure of a call that ran into `limit`, its message in English until
    /// [`said`](Self::said): RESOURCE_EXHAUSTED, or DEADLINE_EXCEEDED for the deadline.
    pub fn limit(limit: Limit) -> Failure {
        let (code, field, ply) = match &limit {
            Limit::Saturated { .. } => (Code::ResourceExhausted, None, None),
            Limit::Deadline { .. } => (Code::DeadlineExceeded, None, None),
            Limit::Moves { .. } => (Code::ResourceExhausted, Some("moves"), None),
            Limit::GameFull { ply, .. } => (Code::ResourceExhausted, Some("moves"), Some(*ply)),
        };
        Failure {
            code,
            field,
            ply,
            message: limit.words(Lang::En),
            limit: Some(limit),
        }
    }

    /// RESOURCE_EXHAUSTED: the server is saturated (its queue of `max_queue` waiting calls is
    /// full); the call was not started, and a retry after a short back-off may succeed.
    pub fn saturated(max_queue: usize) -> Failure {
        Failure::limit(Limit::Saturated { max_queue })
    }

    /// DEADLINE_EXCEEDED after `elapsed_ms`.
    pub fn deadline(elapsed_ms: u128) -> Failure {
        Failure::limit(Limit::Deadline { elapsed_ms })
    }

    /// Whether the server is saturated (HTTP answers it 429, not 413).
    pub fn is_saturated(&self) -> bool {
        matches!(self.limit, Some(Limit::Saturated { .. }))
    }

    /// The failure with its message in `lang` when it is a limit of the server (the others are
    /// said in the request's language where they are made).
    pub fn said(mut self, lang: Lang) -> Failure {
        if let Some(limit) = &self.limit {
            self.message = limit.words(lang);
        }
        self
    }

    /// INTERNAL: a fault of the server.
    pub fn internal(message: String) -> Failure {
        Failure {
            code: Code::Internal,
            field: None,
            ply: None,
            message,
            limit: None,
        }
    }

    /// Renames the field at fault (Analyze's single move is `move`, not `moves`).
    pub fn in_field(mut self, field: &'static str) -> Failure {
        self.field = Some(field);
        self
    }

    /// The status of a unary call; the field and ply also go into the metadata.
    pub fn to_status(&self) -> Status {
        let mut status = Status::new(self.code, self.message.clone());
        if let Some(field) = self.field {
            status.metadata_mut().insert(
                FIELD_KEY,
                tonic::metadata::MetadataValue::from_static(field),
            );
        }
        if let Some(ply) = self.ply {
            status.metadata_mut().insert(PLY_KEY, ply.into());
        }
        status
    }

    /// The error answer of a streamed request.
    pub fn to_pb(&self) -> pb::Error {
        let code = match self.code {
            Code::InvalidArgument => pb::ErrorCode::InvalidArgument,
            Code::DeadlineExceeded => pb::ErrorCode::DeadlineExceeded,
            Code::ResourceExhausted => pb::ErrorCode::ResourceExhausted,
            _ => pb::ErrorCode::Internal,
        };
        pb::Error {
            code: code.into(),
            field: self.field.unwrap_or_default().to_string(),
            ply: self.ply.map(|p| u32::try_from(p).unwrap_or(u32::MAX)),
            message: self.message.clone(),
        }
    }
}

impl From<RequestError> for Failure {
    /// The failure in English.
    fn from(e: RequestError) -> Failure {
        Failure::request(&e, Lang::En)
    }
}

impl Failure {
    /// INVALID_ARGUMENT for a request that cannot be read, its message in `lang`.
    pub fn request(e: &RequestError, lang: Lang) -> Failure {
        let text = match e {
            RequestError::Move { text, .. } => text.as_str(),
            RequestError::Fen(_) => "",
        };
        Failure {
            code: Code::InvalidArgument,
            field: Some(e.field()),
            ply: e.ply(),
            message: abridge(&e.words(lang), text),
            limit: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abridge_cuts_long_quotations_and_long_messages() {
        assert_eq!(
            abridge("moves[0] \"h2e2\": bad", "h2e2"),
            "moves[0] \"h2e2\": bad"
        );
        let long = "車".repeat(1000);
        let message = format!("moves[0] {long:?}: cannot read move {long:?}: no");
        let short = abridge(&message, &long);
        assert!(short.starts_with("moves[0] \"車"), "{short}");
        assert!(
            short.contains("… (3000 bytes): cannot read move \"車"),
            "{short}"
        );
        assert!(short.ends_with(": no"), "{short}");
        let unquoted = abridge(&"x".repeat(5000), "");
        assert!(unquoted.len() <= MESSAGE_MAX + '…'.len_utf8());
        assert_eq!(abridge_text("id-7"), "id-7");
        assert!(abridge_text(&long).ends_with("… (3000 bytes)"));
    }
}
