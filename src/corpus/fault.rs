//! Why a corpus cannot be read (案例文件错误): the file, the line and a typed reason, said in
//! either language (the English as `Display`).

use crate::lang::{Lang, Words, english_display, io_words};
use crate::rules::{Pattern, UnknownRuleset, Verdict};
use std::cell::RefCell;
use std::path::PathBuf;

/// Why a corpus could not be read: names the file, and the line for a bad case.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// The file or folder cannot be read.
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not a valid case.
    Case {
        /// The file.
        path: PathBuf,
        /// The line number (1-based).
        line: usize,
        /// What is wrong.
        fault: Box<CaseFault>,
    },
    /// Two cases have the same id.
    DuplicateId {
        /// The id.
        id: String,
        /// Where it first appears (`file:line`).
        first: String,
        /// Where it appears again.
        second: String,
    },
}

english_display!(CorpusError, CaseFault, JsonFault);

impl Words for CorpusError {
    fn words(&self, lang: Lang) -> String {
        let colon = lang.pick("：", ": ");
        match self {
            CorpusError::Io { path, source } => {
                format!("{}{colon}{}", path.display(), io_words(source, lang))
            }
            CorpusError::Case { path, line, fault } => {
                format!("{}:{line}{colon}{}", path.display(), fault.words(lang))
            }
            CorpusError::DuplicateId { id, first, second } => match lang {
                Lang::En => format!("{second}: duplicate id {id:?} (first at {first})"),
                Lang::Zh => format!("{second}：id {id:?}重复（首次出现于{first}）"),
            },
        }
    }
}

/// What is wrong with one line of a corpus (案例行错误).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseFault {
    /// 不是UTF-8: the file's bytes are not UTF-8 here.
    NotUtf8(std::str::Utf8Error),
    /// serde could not read the case: at the key `path` (empty: the case itself), for `reason`,
    /// at `column` of the line.
    Json {
        /// The key's path (`expected.moves[1]`).
        path: String,
        /// Why.
        reason: JsonFault,
        /// The column serde stopped at.
        column: Option<usize>,
    },
    /// `id` is empty.
    EmptyId,
    /// `known_difference` is empty.
    EmptyKnownDifference,
}

impl Words for CaseFault {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (CaseFault::NotUtf8(e), Lang::En) => format!("not UTF-8: {e}"),
            (CaseFault::NotUtf8(e), Lang::Zh) => format!("不是UTF-8：{e}"),
            (CaseFault::EmptyId, Lang::En) => "id is empty".to_string(),
            (CaseFault::EmptyId, Lang::Zh) => "id为空".to_string(),
            (CaseFault::EmptyKnownDifference, Lang::En) => {
                "known_difference is empty: say why qili differs, naming the docs/rules.md section"
                    .to_string()
            }
            (CaseFault::EmptyKnownDifference, Lang::Zh) => {
                "known_difference为空：请说明qili为何不同，并指明docs/rules.md的章节".to_string()
            }
            (
                CaseFault::Json {
                    path,
                    reason,
                    column,
                },
                lang,
            ) => {
                let mut out = match path.as_str() {
                    "" => reason.words(lang),
                    path => format!("{path}{}{}", lang.pick("：", ": "), reason.words(lang)),
                };
                if let Some(column) = column {
                    out.push_str(&match lang {
                        Lang::En => format!(" (column {column})"),
                        Lang::Zh => format!("（第{column}列）"),
                    });
                }
                out
            }
        }
    }
}

/// Why serde could not read a case: its own reasons by kind (their English is serde's), and the
/// values of ours it refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonFault {
    /// 未知的键: a key the case's format does not have.
    UnknownKey {
        /// The key.
        key: String,
        /// The keys allowed there.
        known: Vec<String>,
        /// serde's words.
        serde: String,
    },
    /// 缺少键: a key the case must have.
    MissingKey {
        /// The key.
        key: String,
        /// serde's words.
        serde: String,
    },
    /// 无效值: a value that names nothing qili knows.
    Value(BadValue),
    /// 不是有效的JSON: the line's syntax (serde's words).
    Syntax(String),
    /// 值的类型不对: a value of the wrong type or shape (serde's words).
    Data(String),
}

impl Words for JsonFault {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (JsonFault::Value(v), lang) => v.words(lang),
            (
                JsonFault::UnknownKey { serde, .. }
                | JsonFault::MissingKey { serde, .. }
                | JsonFault::Syntax(serde)
                | JsonFault::Data(serde),
                Lang::En,
            ) => serde.clone(),
            (JsonFault::UnknownKey { key, known, .. }, Lang::Zh) => {
                let known: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
                match known.as_slice() {
                    [] => format!("未知的键`{key}`"),
                    known => format!("未知的键`{key}`，应为{}之一", known.join("、")),
                }
            }
            (JsonFault::MissingKey { key, .. }, Lang::Zh) => format!("缺少键`{key}`"),
            (JsonFault::Syntax(serde), Lang::Zh) => format!("不是有效的JSON（{serde}）"),
            (JsonFault::Data(serde), Lang::Zh) => format!("值的类型不对（{serde}）"),
        }
    }
}

impl JsonFault {
    /// The reason of serde's `e` (its words without the position): a value of ours it refused
    /// (as the refusing deserializer left it), else serde's own reason by kind.
    pub(super) fn of(e: &serde_json::Error, words: String) -> JsonFault {
        if let Some(value) = REFUSED.with(|r| r.borrow_mut().take()) {
            return JsonFault::Value(value);
        }
        let quoted = |rest: &str| rest.split('`').next().unwrap_or_default().to_string();
        if let Some(rest) = words.strip_prefix("unknown field `") {
            // serde lists the keys allowed in backquotes after the key.
            let known = rest
                .split('`')
                .skip(2)
                .step_by(2)
                .map(str::to_string)
                .collect();
            return JsonFault::UnknownKey {
                key: quoted(rest),
                known,
                serde: words,
            };
        }
        if let Some(rest) = words.strip_prefix("missing field `") {
            return JsonFault::MissingKey {
                key: quoted(rest),
                serde: words,
            };
        }
        match e.classify() {
            serde_json::error::Category::Data => JsonFault::Data(words),
            _ => JsonFault::Syntax(words),
        }
    }
}

/// A value of a case that names nothing qili knows (its key's path is beside it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadValue {
    /// 未知的裁决: `expected.verdict`.
    Verdict(String),
    /// 未知的局面类型 (长将, …): `expected.red`, `expected.black`.
    Label(String),
    /// 未知的着法类型 (捉, …): an item of `expected.moves`.
    MoveLabel(String),
    /// 未知的规则: `ruleset`.
    Ruleset(UnknownRuleset),
}

english_display!(BadValue);

impl Words for BadValue {
    fn words(&self, lang: Lang) -> String {
        match (self, lang) {
            (BadValue::Ruleset(e), lang) => e.words(lang),
            (BadValue::Verdict(name), lang) => {
                let names: Vec<&str> = Verdict::ALL.iter().map(|v| v.name()).collect();
                let api: Vec<String> = names
                    .iter()
                    .map(|n| super::api_spelling("VERDICT_", n))
                    .collect();
                match lang {
                    Lang::En => format!(
                        "unknown verdict {name:?} (one of {}; or as the API spells them: {})",
                        names.join(", "),
                        api.join(", ")
                    ),
                    Lang::Zh => format!(
                        "未知的裁决{name:?}（应为{}之一；或按API的写法：{}）",
                        names.join("、"),
                        api.join("、")
                    ),
                }
            }
            (BadValue::Label(name), lang) => {
                let names: Vec<String> = Pattern::ALL
                    .iter()
                    .map(|p| format!("{} {}", p.name(), p.chinese()))
                    .collect();
                match lang {
                    Lang::En => format!(
                        "unknown label {name:?} (one of {}; or as the API spells them: PATTERN_…, \
                         PATTERN_PERPETUAL_CHECK for perpetual_check)",
                        names.join(", ")
                    ),
                    Lang::Zh => format!(
                        "未知的局面类型{name:?}（应为{}之一；或按API的写法：PATTERN_…，如perpetual_check写作PATTERN_PERPETUAL_CHECK）",
                        names.join("、")
                    ),
                }
            }
            (BadValue::MoveLabel(text), Lang::En) => format!(
                "unknown move label {text:?} (将 杀 捉 闲 兑 献 拦 跟, or check mate_threat \
                 chase idle exchange sacrifice block follow, or as the API spells them: \
                 MOVE_KIND_CHECK MOVE_KIND_MATE_THREAT MOVE_KIND_CHASE MOVE_KIND_IDLE \
                 IDLE_KIND_EXCHANGE IDLE_KIND_SACRIFICE IDLE_KIND_BLOCK IDLE_KIND_FOLLOW)"
            ),
            (BadValue::MoveLabel(text), Lang::Zh) => format!(
                "未知的着法类型{text:?}（应为将 杀 捉 闲 兑 献 拦 跟，或check mate_threat \
                 chase idle exchange sacrifice block follow，或按API的写法：\
                 MOVE_KIND_CHECK MOVE_KIND_MATE_THREAT MOVE_KIND_CHASE MOVE_KIND_IDLE \
                 IDLE_KIND_EXCHANGE IDLE_KIND_SACRIFICE IDLE_KIND_BLOCK IDLE_KIND_FOLLOW）"
            ),
        }
    }
}

thread_local! {
    /// The value a case's deserializer last refused: serde keeps only an error's text, so the
    /// typed reason waits here for [`JsonFault::of`] on the same thread.
    static REFUSED: RefCell<Option<BadValue>> = const { RefCell::new(None) };
}

/// serde's error for `value`, its typed reason kept for [`JsonFault::of`].
pub(super) fn refuse<E: serde::de::Error>(value: BadValue) -> E {
    let e = E::custom(&value);
    REFUSED.with(|r| *r.borrow_mut() = Some(value));
    e
}

/// Forgets a refused value that serde recovered from (an untagged or optional reading).
pub(super) fn forget_refused() {
    REFUSED.with(|r| r.borrow_mut().take());
}
