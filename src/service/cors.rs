//! Cross-origin calls (CORS) from browsers: the pages of which origins may call the JSON API and
//! gRPC-Web (`qili serve --allow-origin`). Off by default: a browser then lets only the consult
//! page, served by qili itself, read qili's answers.

use super::failure::{FIELD_KEY, PLY_KEY};
use crate::lang::{Lang, Words, english_display};
use std::time::Duration;
use tonic::codegen::http::{HeaderName, HeaderValue, Method, header};
use tower_http::cors::{AllowOrigin, CorsLayer};

/// How long a browser may keep a preflight's answer.
const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(600);

/// Origins whose pages may call qili from a browser.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum AllowedOrigins {
    /// None (the default): same-origin calls only.
    #[default]
    None,
    /// Every origin (`*`).
    Any,
    /// These origins (`scheme://host[:port]`, lowercase).
    List(Vec<String>),
}

/// A bad `--allow-origin` value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OriginError {
    /// Not of the form `scheme://host[:port]` (不是来源).
    NotAnOrigin(String),
    /// `*` given beside other origins.
    AnyWithOthers,
}

impl Words for OriginError {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (OriginError::NotAnOrigin(v), Lang::En) => format!(
                "`{v}` is not an origin: expected http:// or https://, a host and an optional port, with no path (e.g. https://club.example:8443), or `*`"
            ),
            (OriginError::NotAnOrigin(v), Lang::Zh) => format!(
                "`{v}`不是来源：应为http://或https://、主机和可选的端口，不带路径（如https://club.example:8443），或`*`"
            ),
            (OriginError::AnyWithOthers, Lang::En) => {
                "`*` allows every origin: give it alone".to_string()
            }
            (OriginError::AnyWithOthers, Lang::Zh) => "`*`允许所有来源：请单独给出".to_string(),
        }
    }
}

english_display!(OriginError);

impl AllowedOrigins {
    /// The origins given (each an origin or `*`), checked: `scheme://host[:port]` with no path.
    pub fn parse<S: AsRef<str>>(values: &[S]) -> Result<AllowedOrigins, OriginError> {
        let values: Vec<&str> = values.iter().map(|v| v.as_ref().trim()).collect();
        if values.is_empty() {
            return Ok(AllowedOrigins::None);
        }
        if values.contains(&"*") {
            return if values.len() == 1 {
                Ok(AllowedOrigins::Any)
            } else {
                Err(OriginError::AnyWithOthers)
            };
        }
        let mut list = Vec::with_capacity(values.len());
        for value in values {
            let origin = origin(value)
                .ok_or_else(|| OriginError::NotAnOrigin(super::abridge_text(value).into_owned()))?;
            if !list.contains(&origin) {
                list.push(origin);
            }
        }
        Ok(AllowedOrigins::List(list))
    }

    /// The layer that answers preflights and marks answers readable by these origins; `None`
    /// when no origin is allowed (preflights then get the 405 of any `OPTIONS`).
    pub(super) fn layer(&self) -> Option<CorsLayer> {
        let allow = match self {
            AllowedOrigins::None => return None,
            AllowedOrigins::Any => AllowOrigin::any(),
            AllowedOrigins::List(list) => AllowOrigin::list(
                list.iter()
                    .filter_map(|o| HeaderValue::from_str(o).ok())
                    .collect::<Vec<_>>(),
            ),
        };
        let header = HeaderName::from_static;
        Some(
            CorsLayer::new()
                .allow_origin(allow)
                .allow_methods([Method::GET, Method::POST])
                // The JSON API's and gRPC-Web's request headers.
                .allow_headers([
                    header::CONTENT_TYPE,
                    header("grpc-timeout"),
                    header("x-grpc-web"),
                    header("x-user-agent"),
                ])
                // gRPC-Web's status in a trailers-only answer, with the bad field and ply.
                .expose_headers([
                    header("grpc-status"),
                    header("grpc-message"),
                    header("grpc-status-details-bin"),
                    header(FIELD_KEY),
                    header(PLY_KEY),
                ])
                .max_age(PREFLIGHT_MAX_AGE),
        )
    }
}

/// `value` as a browser sends it in `Origin` (lowercase), if it is one.
fn origin(value: &str) -> Option<String> {
    let lower = value.to_ascii_lowercase();
    let (scheme, rest) = lower.split_once("://")?;
    if !matches!(scheme, "http" | "https") {
        return None;
    }
    let (host, port) = match rest.rsplit_once(':') {
        // An IPv6 literal's colons are inside its brackets.
        Some((host, port)) if !port.contains(']') => (host, Some(port)),
        _ => (rest, None),
    };
    let host_ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']' | ':'));
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.parse::<u16>().is_ok());
    (host_ok && port_ok && HeaderValue::from_str(&lower).is_ok()).then_some(lower)
}

#[cfg(test)]
mod tests {
    use super::{AllowedOrigins, OriginError};

    #[test]
    fn origins_are_checked_and_lowercased() {
        assert_eq!(AllowedOrigins::parse::<&str>(&[]), Ok(AllowedOrigins::None));
        assert_eq!(AllowedOrigins::parse(&["*"]), Ok(AllowedOrigins::Any));
        assert_eq!(
            AllowedOrigins::parse(&["https://Club.example:8443", "http://127.0.0.1:8000"]),
            Ok(AllowedOrigins::List(vec![
                "https://club.example:8443".to_string(),
                "http://127.0.0.1:8000".to_string()
            ]))
        );
        assert!(AllowedOrigins::parse(&["http://[::1]:80"]).is_ok());
        for bad in [
            "club.example",
            "https://club.example/",
            "https://club.example/desk",
            "ftp://club.example",
            "https://",
            "https://club.example:",
            "https://club.example:99999",
            "https://club example",
        ] {
            assert!(
                matches!(
                    AllowedOrigins::parse(&[bad]),
                    Err(OriginError::NotAnOrigin(_))
                ),
                "{bad}"
            );
        }
        assert_eq!(
            AllowedOrigins::parse(&["*", "https://club.example"]),
            Err(OriginError::AnyWithOthers)
        );
    }
}
