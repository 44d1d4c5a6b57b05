//! `qili analyze`: the Analyze RPC's answer for a position (optionally after one move): the
//! attack/defence graph, every attacked piece's protection and the move's kind, as a table, JSON
//! or a printable HTML page.

use super::Said;
use super::judge::{NotationArg, ruleset, sides, utf8};
use super::render::{self, LangArg};
use clap::{Args, ValueEnum};
use qili::Position;
use qili::lang::Words;
use qili::request::RequestError;
use qili::rules::{self, Options};
use qili::service::{Failure, abridge, convert};
use std::ffi::OsString;
use std::process::ExitCode;

/// Output format of `qili analyze`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum AnalyzeFormat {
    /// Tables for a person.
    Text,
    /// The API's `AnalyzeResponse` in the proto3 JSON mapping.
    Json,
    /// One self-contained HTML page with the board diagram.
    Html,
}

/// Arguments of `qili analyze`.
#[derive(Args)]
pub struct AnalyzeArgs {
    /// The position in FEN (before --move, if given; default: the opening position).
    #[arg(long)]
    fen: Option<OsString>,
    /// A move played in that position: the analysis is then of the position after it, and the
    /// move is judged (kind, targets, mating line).
    #[arg(long = "move")]
    mv: Option<OsString>,
    /// Notation of --move.
    #[arg(long, value_enum, default_value_t = NotationArg::Auto)]
    notation: NotationArg,
    /// Rule profile: cxa1999, cxa2011, axf (alias wxf).
    #[arg(long, default_value = "cxa1999")]
    ruleset: OsString,
    /// A side asserted to defend a key point (repeat for both).
    #[arg(long = "key-point", value_enum)]
    key_point: Vec<super::judge::Side>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AnalyzeFormat::Text)]
    format: AnalyzeFormat,
    /// Language of everything printed.
    #[arg(long, value_enum, default_value_t = LangArg::Both)]
    pub(super) lang: LangArg,
}

/// Analyses and prints; a bad FEN or move is an error naming it.
pub fn run(args: AnalyzeArgs) -> Result<ExitCode, Said> {
    let options = Options {
        ruleset: ruleset(&args.ruleset)?,
        defensive_key_point: sides(&args.key_point),
        ..Options::default()
    };
    let fen = utf8("fen", args.fen.as_ref())?;
    let position = if fen.trim().is_empty() {
        Position::start()
    } else {
        Position::from_fen(&fen).map_err(|e| {
            let e = RequestError::from(e);
            Said::new(|lang| Failure::request(&e, lang).message)
        })?
    };
    let text = utf8("move", args.mv.as_ref())?;
    // The move's error names it: `move "h2e9": …`.
    let of_move = |text: &str, reason: &dyn Words| {
        Said::new(|lang| {
            let colon = lang.pick("：", ": ");
            abridge(&format!("move {text:?}{colon}{}", reason.words(lang)), text)
        })
    };
    let mv = if text.trim().is_empty() {
        None
    } else {
        let moves = qili::request::parse_moves(&position, [text.trim()], args.notation.notation())
            .map_err(|e| match &e {
                RequestError::Move { text, reason, .. } => of_move(text, reason),
                other => Said::of(other),
            })?;
        moves.first().copied()
    };
    if let Some(m) = mv {
        position.play(m).map_err(|e| of_move(&text, &e))?;
    }
    let analysis = rules::analyze(&position, mv, &options);
    let lang = args.lang.lang();
    match args.format {
        AnalyzeFormat::Json => {
            let message = convert::analysis(analysis, String::new(), args.lang.language());
            outln!("{}", super::json::pretty(&message)?);
        }
        AnalyzeFormat::Text => out!("{}", render::analysis(&analysis, lang)),
        AnalyzeFormat::Html => out!("{}", qili::sheet::analysis_document(&analysis, lang)),
    }
    Ok(ExitCode::SUCCESS)
}
