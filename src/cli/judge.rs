//! `qili judge`: rules on one dispute given as a FEN and moves, or as a game record.

use super::render::{self, Lang};
use clap::{Args, ValueEnum};
use qili::Position;
use qili::notation::Notation;
use qili::rules::{self, BySide, Options, Request, Ruleset};
use qili::service::{Failure, abridge, convert, pb};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

/// Output format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For a person: board, cycle table, verdict, explanation.
    Text,
    /// The API's `Ruling` message in the proto3 JSON mapping.
    Json,
}

/// A side named on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// Red.
    Red,
    /// Black.
    Black,
}

/// The notation of `--moves`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum NotationArg {
    /// Detect per move.
    Auto,
    /// `h2e2`, `h2-e2`.
    Iccs,
    /// `C2.5`, `H8+7`.
    Wxf,
    /// `炮二平五`.
    Chinese,
}

/// Arguments of `qili judge`.
#[derive(Args)]
pub struct JudgeArgs {
    /// Start position in FEN or a UCCI position string (default: the opening position).
    #[arg(long, conflicts_with = "record")]
    fen: Option<OsString>,
    /// The moves, separated by spaces or commas (move numbers like `1.` are skipped).
    #[arg(long, conflicts_with = "record", required_unless_present_any = ["record", "fen"])]
    moves: Option<OsString>,
    /// A game record to rule on at its last move, instead of --fen/--moves: PGN, XQF, DhtmlXQ or
    /// a UCCI position string, told apart by content (the first game of a file with several).
    #[arg(long, visible_alias = "pgn", value_name = "FILE")]
    record: Option<PathBuf>,
    /// Notation of --moves.
    #[arg(long, value_enum, default_value_t = NotationArg::Auto)]
    notation: NotationArg,
    /// Rule profile: cxa1999, cxa2011, axf (alias wxf).
    #[arg(long, default_value = "cxa1999")]
    ruleset: OsString,
    /// A side the arbiter has already told to change (repeat for both).
    #[arg(long, value_enum)]
    told_to_change: Vec<Side>,
    /// A side asserted to defend a key point (repeat for both).
    #[arg(long = "key-point", value_enum)]
    key_point: Vec<Side>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Language of the explanation.
    #[arg(long, value_enum, default_value_t = Lang::Both)]
    lang: Lang,
}

fn sides(list: &[Side]) -> BySide<bool> {
    BySide {
        red: list.contains(&Side::Red),
        black: list.contains(&Side::Black),
    }
}

/// Splits `--moves` into move texts, dropping move numbers (`1.`, `12...`).
fn split_moves(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '，')
        .filter(|t| !t.is_empty())
        .filter(|t| !is_move_number(t))
        .map(str::to_string)
        .collect()
}

fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    token.ends_with('.') && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The text of an argument, or an error naming `field` if it is not UTF-8 (clap's own message
/// would not say which argument).
fn utf8(field: &str, value: Option<&OsString>) -> Result<String, String> {
    let Some(value) = value else {
        return Ok(String::new());
    };
    value.to_str().map(str::to_string).ok_or_else(|| {
        let lossy = value.to_string_lossy();
        abridge(&format!("{field}: not UTF-8: {lossy:?}"), &lossy)
    })
}

/// Rules and prints; bad input is an error naming the field (and the move's index).
pub fn run(args: JudgeArgs) -> Result<ExitCode, String> {
    let name = utf8("--ruleset", Some(&args.ruleset))?;
    let ruleset: Ruleset = name
        .parse()
        .map_err(|e| abridge(&format!("--ruleset: {e}"), &name))?;
    let options = Options {
        ruleset,
        told_to_change: sides(&args.told_to_change),
        defensive_key_point: sides(&args.key_point),
        ..Options::default()
    };
    let (start, moves) = match &args.record {
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("--record {}: {e}", path.display()))?;
            let game = qili::record::read_game(&bytes)
                .map_err(|e| format!("--record {}: {e}", path.display()))?;
            (game.start, game.moves)
        }
        None => {
            let request = Request {
                fen: utf8("fen", args.fen.as_ref())?,
                moves: split_moves(&utf8("moves", args.moves.as_ref())?),
                notation: match args.notation {
                    NotationArg::Auto => None,
                    NotationArg::Iccs => Some(Notation::Iccs),
                    NotationArg::Wxf => Some(Notation::Wxf),
                    NotationArg::Chinese => Some(Notation::Chinese),
                },
                options,
            };
            // The service's message: the field and move first, a huge text cut short.
            request.parse().map_err(|e| Failure::from(e).message)?
        }
    };
    let ruling = rules::rule(&start, &moves, &options);
    match args.format {
        Format::Json => {
            let language = match args.lang {
                Lang::Zh => pb::Language::Zh,
                Lang::En => pb::Language::En,
                Lang::Both => pb::Language::Both,
            };
            let message = convert::ruling(&ruling, "", language);
            let json = serde_json::to_string_pretty(&message)
                .map_err(|e| format!("cannot write JSON: {e}"))?;
            outln!("{json}");
        }
        Format::Text => {
            let last = final_position(&start, &moves);
            out!("{}", render::ruling(&ruling, &last, args.lang));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The position after `moves` (all legal).
fn final_position(start: &Position, moves: &[qili::Move]) -> Position {
    let mut p = *start;
    for m in moves {
        p.play_unchecked(*m);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::split_moves;

    #[test]
    fn move_lists() {
        assert_eq!(split_moves("h2e2 h9g7,  b0c2"), ["h2e2", "h9g7", "b0c2"]);
        assert_eq!(
            split_moves("1. h2e2 h9g7 2. b0c2"),
            ["h2e2", "h9g7", "b0c2"]
        );
        assert_eq!(split_moves("炮二平五，马８进７"), ["炮二平五", "马８进７"]);
        assert_eq!(split_moves("C2.5 H8+7"), ["C2.5", "H8+7"]);
    }
}
