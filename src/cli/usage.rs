//! clap's usage errors (用法错误: an unknown flag, a missing value, a bad value) in the command's
//! language. clap has no translations, but its error carries its kind and context (the argument,
//! the value, the possible values, the usage line): from those the Chinese is written here, in one
//! place; a kind not translated keeps clap's text. `--help` and `--version` are clap's as ever.

use super::render::LangArg;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, ValueEnum};
use std::ffi::OsString;

/// The language of a command line that clap refused: its `--lang` (`--lang X` or `--lang=X`)
/// when that value is one, else the subcommand's default `--lang`, else English. Read from the
/// raw arguments, since clap has not parsed them.
pub fn asked_lang<C: CommandFactory>(args: &[OsString]) -> LangArg {
    let command = C::command();
    // The subcommand is the first argument that is not a flag (the top level has only flags).
    let mut rest = args.iter().skip(1).skip_while(|a| is_flag(a));
    let Some(sub) = rest
        .next()
        .and_then(|a| a.to_str())
        .and_then(|name| command.find_subcommand(name))
    else {
        return LangArg::En;
    };
    let parse = |v: &str| LangArg::from_str(v, false).ok();
    let mut rest = rest.take_while(|a| *a != "--");
    while let Some(arg) = rest.next() {
        let given = match arg.to_str() {
            Some("--lang") => rest.next().and_then(|v| v.to_str()),
            Some(a) => a.strip_prefix("--lang="),
            None => None,
        };
        if let Some(lang) = given.and_then(parse) {
            return lang;
        }
    }
    sub.get_arguments()
        .find(|a| a.get_id() == "lang")
        .and_then(|a| a.get_default_values().first())
        .and_then(|v| v.to_str())
        .and_then(parse)
        .unwrap_or(LangArg::En)
}

fn is_flag(arg: &OsString) -> bool {
    arg.to_str().is_some_and(|a| a.starts_with('-'))
}

/// Prints clap's error `e` as `lang` asks and exits with clap's code: English (and help and
/// version) as clap prints them; Chinese in place of clap's English; both, the Chinese lines
/// before clap's. A kind not translated is clap's text alone.
pub fn exit(e: &clap::Error, lang: LangArg) -> ! {
    let chinese = match (lang, e.kind()) {
        (LangArg::En, _)
        | (
            _,
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand,
        ) => None,
        _ => chinese(e),
    };
    match (chinese, lang) {
        (Some(zh), LangArg::Zh) => {
            let mut text = zh.message;
            if let Some(usage) = zh.usage {
                text.push_str("\n\n");
                text.push_str(&usage);
            }
            text.push_str("\n\n更多信息请用“--help”。\n");
            super::write_stderr(format_args!("{text}"));
            std::process::exit(e.exit_code());
        }
        (Some(zh), _) => {
            super::write_stderr(format_args!("{}\n", zh.message));
            e.exit()
        }
        (None, _) => e.exit(),
    }
}

/// A usage error in Chinese: the message (with its tips) and the usage line.
struct Chinese {
    message: String,
    usage: Option<String>,
}

/// `text` in Chinese quotation marks.
fn quoted(text: &str) -> String {
    format!("“{text}”")
}

/// The context `kind` of `e` when it is one string.
fn one(e: &clap::Error, kind: ContextKind) -> Option<&str> {
    match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s),
        _ => None,
    }
}

/// The context `kind` of `e` when it is a number.
fn number(e: &clap::Error, kind: ContextKind) -> Option<isize> {
    match e.get(kind) {
        Some(ContextValue::Number(n)) => Some(*n),
        _ => None,
    }
}

/// The context `kind` of `e` as a list (one string: a list of one).
fn list(e: &clap::Error, kind: ContextKind) -> Vec<String> {
    match e.get(kind) {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(v)) => v.clone(),
        _ => Vec::new(),
    }
}

/// Why a number did not parse, in Chinese (`None`: another reason, said as clap says it).
fn int_reason(source: &(dyn std::error::Error + 'static)) -> Option<&'static str> {
    use std::num::IntErrorKind;
    let e = source.downcast_ref::<std::num::ParseIntError>()?;
    Some(match e.kind() {
        IntErrorKind::Empty => "空值不是数",
        IntErrorKind::InvalidDigit => "不是整数（有非数字的字符）",
        IntErrorKind::PosOverflow => "数太大",
        IntErrorKind::NegOverflow => "数太小",
        IntErrorKind::Zero => "不能为0",
        _ => return None,
    })
}

/// `e` in Chinese, or `None` for a kind (or a context) not translated here.
fn chinese(e: &clap::Error) -> Option<Chinese> {
    let arg = one(e, ContextKind::InvalidArg);
    let value = one(e, ContextKind::InvalidValue);
    let mut message = match e.kind() {
        ErrorKind::UnknownArgument => format!("未知的参数{}", quoted(arg?)),
        ErrorKind::InvalidValue if value?.is_empty() => {
            format!("{}需要一个值，但没有给出", quoted(arg?))
        }
        ErrorKind::InvalidValue => {
            let mut said = format!("{}的值{}无效", quoted(arg?), quoted(value?));
            let valid = list(e, ContextKind::ValidValue);
            if !valid.is_empty() {
                said.push_str(&format!("\n  [可选的值：{}]", valid.join("、")));
            }
            said
        }
        ErrorKind::ValueValidation => {
            let said = format!("{}的值{}无效", quoted(arg?), quoted(value?));
            match std::error::Error::source(e) {
                Some(source) => match int_reason(source) {
                    Some(reason) => format!("{said}：{reason}"),
                    None => format!("{said}：{source}"),
                },
                None => said,
            }
        }
        ErrorKind::MissingRequiredArgument => {
            let missing = list(e, ContextKind::InvalidArg);
            if missing.is_empty() {
                return None;
            }
            format!("缺少以下必需的参数：\n  {}", missing.join("\n  "))
        }
        ErrorKind::ArgumentConflict => {
            let arg = arg?;
            let prior = list(e, ContextKind::PriorArg);
            match prior.as_slice() {
                [p] if p == arg => format!("参数{}只能给一次", quoted(arg)),
                [] => format!("参数{}不能与其他参数同时使用", quoted(arg)),
                [p] => format!("参数{}不能与{}同时使用", quoted(arg), quoted(p)),
                many => format!(
                    "参数{}不能与以下参数同时使用：\n  {}",
                    quoted(arg),
                    many.join("\n  ")
                ),
            }
        }
        ErrorKind::InvalidSubcommand => {
            format!(
                "没有子命令{}",
                quoted(one(e, ContextKind::InvalidSubcommand)?)
            )
        }
        ErrorKind::TooManyValues => {
            format!("{}多出了值{}，不应再有值", quoted(arg?), quoted(value?))
        }
        ErrorKind::TooFewValues => format!(
            "{}需要{}个值，只给了{}个",
            quoted(arg?),
            number(e, ContextKind::MinValues)?,
            number(e, ContextKind::ActualNumValues)?
        ),
        ErrorKind::WrongNumberOfValues => format!(
            "{}需要{}个值，却给了{}个",
            quoted(arg?),
            number(e, ContextKind::ExpectedNumValues)?,
            number(e, ContextKind::ActualNumValues)?
        ),
        ErrorKind::NoEquals => format!("给{}赋值时须用等号", quoted(arg?)),
        ErrorKind::InvalidUtf8 => "参数中有无效的UTF-8".to_string(),
        _ => return None,
    };
    message.insert_str(0, "错误：");
    let mut tips = Vec::new();
    for (kind, what) in [
        (ContextKind::SuggestedSubcommand, "子命令"),
        (ContextKind::SuggestedArg, "参数"),
        (ContextKind::SuggestedValue, "值"),
    ] {
        let similar = list(e, kind);
        if !similar.is_empty() {
            let names: Vec<String> = similar.iter().map(|s| quoted(s)).collect();
            tips.push(format!("有相似的{what}：{}", names.join("、")));
        }
    }
    // clap's free-form tips (how to pass a value that starts with `-`) stay as clap words them.
    if let Some(ContextValue::StyledStrs(free)) = e.get(ContextKind::Suggested) {
        tips.extend(free.iter().map(ToString::to_string));
    }
    if !tips.is_empty() {
        message.push('\n');
        for tip in tips {
            message.push_str(&format!("\n  提示：{tip}"));
        }
    }
    let usage = match e.get(ContextKind::Usage) {
        Some(ContextValue::StyledStr(usage)) => {
            let usage = usage.to_string();
            Some(match usage.strip_prefix("Usage: ") {
                Some(rest) => format!("用法：{rest}"),
                None => usage,
            })
        }
        _ => None,
    };
    Some(Chinese { message, usage })
}
