//! `qili judge`: rules on one dispute given as a FEN and moves, or as a game record (one game of
//! it, at its last move or at the disputed moment).

use super::Said;
use super::render::{self, LangArg};
use super::watch::forbidden_line;
use clap::{Args, ValueEnum};
use qili::lang::{Lang, Words, io_words};
use qili::notation::Notation;
use qili::record::dispute::{At, Dispute, DisputeError, split_moves};
use qili::referee::forbidden_after;
use qili::request::Request;
use qili::rules::{self, BySide, Options, Ruleset, Texts};
use qili::service::{Failure, abridge, convert};
use qili::sheet::Paperwork;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Output format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For a person: board, cycle table, verdict, explanation.
    Text,
    /// The API's `Ruling` message in the proto3 JSON mapping.
    Json,
    /// One self-contained, printable HTML page with a board diagram of every cycle move.
    Html,
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

impl NotationArg {
    /// The library's notation (`None`: detect per move).
    pub fn notation(self) -> Option<Notation> {
        match self {
            NotationArg::Auto => None,
            NotationArg::Iccs => Some(Notation::Iccs),
            NotationArg::Wxf => Some(Notation::Wxf),
            NotationArg::Chinese => Some(Notation::Chinese),
        }
    }
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
    /// A game record to rule on instead of --fen/--moves: PGN, XQF, DhtmlXQ or a UCCI position
    /// string, told apart by content (UTF-8 or GBK).
    #[arg(long, visible_alias = "pgn", value_name = "FILE")]
    record: Option<PathBuf>,
    /// The game of the record to rule on, from 1 (needed when the record holds several).
    #[arg(long, requires = "record")]
    game: Option<OsString>,
    /// Rule after this moment of the record instead of its last move: a round (`32`: after its
    /// last move), one side's move of a round (`32r`, `32b`), or a ply (`ply:63`, as in JSON).
    #[arg(long, requires = "record")]
    at: Option<OsString>,
    /// Notation of --moves.
    #[arg(long, value_enum, default_value_t = NotationArg::Auto)]
    notation: NotationArg,
    #[command(flatten)]
    rules: RulingArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Language of everything printed (zh: all Chinese, en: all English).
    #[arg(long, value_enum, default_value_t = LangArg::Both)]
    pub(super) lang: LangArg,
}

/// The options of a ruling that `judge` and `watch` both take (规则与已知情形: the profile, the
/// sides told to change, the sides defending a key point).
#[derive(Args)]
pub struct RulingArgs {
    /// Rule profile: cxa1999, cxa2011, axf (alias wxf).
    #[arg(long, default_value = "cxa1999")]
    ruleset: OsString,
    /// A side the arbiter has already told to change (repeat for both).
    #[arg(long, value_enum)]
    told_to_change: Vec<Side>,
    /// A side asserted to defend a key point (repeat for both).
    #[arg(long = "key-point", value_enum)]
    key_point: Vec<Side>,
}

impl RulingArgs {
    /// The ruling's options they give (the texts left as the default).
    pub fn options(&self) -> Result<Options, Said> {
        Ok(Options {
            ruleset: ruleset(&self.ruleset)?,
            told_to_change: sides(&self.told_to_change),
            defensive_key_point: sides(&self.key_point),
            ..Options::default()
        })
    }
}

/// The sides named by a repeated option.
pub fn sides(list: &[Side]) -> BySide<bool> {
    BySide {
        red: list.contains(&Side::Red),
        black: list.contains(&Side::Black),
    }
}

/// The text of an argument, or an error naming `field` if it is not UTF-8 (clap's own message
/// would not say which argument).
pub fn utf8(field: &str, value: Option<&OsString>) -> Result<String, Said> {
    let Some(value) = value else {
        return Ok(String::new());
    };
    value.to_str().map(str::to_string).ok_or_else(|| {
        let lossy = value.to_string_lossy();
        Said::new(|lang| {
            let said = match lang {
                Lang::En => format!("{field}: not UTF-8: {lossy:?}"),
                Lang::Zh => format!("{field}：不是UTF-8：{lossy:?}"),
            };
            abridge(&said, &lossy)
        })
    })
}

/// `--record PATH: reason` in `lang`.
pub fn record_said(path: &Path, reason: &str, lang: Lang) -> String {
    format!(
        "--record {}{}{reason}",
        path.display(),
        lang.pick("：", ": ")
    )
}

/// The rule profile of `--ruleset`.
pub fn ruleset(value: &OsString) -> Result<Ruleset, Said> {
    let name = utf8("--ruleset", Some(value))?;
    name.parse::<Ruleset>()
        .map_err(|e| Said::new(|lang| abridge(&format!("--ruleset: {}", e.words(lang)), &name)))
}

/// The game number of `--game`, from 1.
pub fn game_number(value: Option<&OsString>) -> Result<Option<usize>, Said> {
    let Some(value) = value else { return Ok(None) };
    let text = utf8("--game", Some(value))?;
    match text.trim().parse::<usize>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        _ => Err(Said::new(|lang| {
            let said = match lang {
                Lang::En => format!("--game: {text:?} is not a game number (1, 2, …)"),
                Lang::Zh => format!("--game：{text:?}不是棋局编号（1、2……）"),
            };
            abridge(&said, &text)
        })),
    }
}

/// Opens a record file, to be read game by game: the file and the name the sheet shows.
pub fn open_record(path: &Path) -> Result<(String, std::fs::File), Said> {
    let file = std::fs::File::open(path)
        .map_err(|e| Said::new(|lang| record_said(path, &io_words(&e, lang), lang)))?;
    Ok((record_name(path), file))
}

/// The name a sheet shows for the record at `path`: its file name.
pub fn record_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The dispute in the record at `path`: game `--game` (the only one when `None`), up to `at` (its
/// last move when `None`); read game by game, so a large record costs the memory of one game.
pub fn record_dispute(
    path: &Path,
    game: Option<&OsString>,
    at: Option<At>,
) -> Result<Dispute, Said> {
    let number = game_number(game)?;
    let (name, file) = open_record(path)?;
    Dispute::from_reader(&name, file, number, at)
        .map_err(|e| Said::new(|lang| dispute_error(path, &e, lang)))
}

/// The message of a dispute that cannot be taken from the record at `path`, naming the option,
/// in `lang`.
pub fn dispute_error(path: &Path, e: &DisputeError, lang: Lang) -> String {
    let (colon, said) = (lang.pick("：", ": "), e.words(lang));
    match e {
        DisputeError::NoSuchGame { .. } => format!("--game{colon}{said}"),
        DisputeError::NotInGame { .. } => format!("--at{colon}{said}"),
        _ => record_said(path, &said, lang),
    }
}

/// Rules and prints; bad input is an error naming the field (and the move's index).
pub fn run(args: JudgeArgs) -> Result<ExitCode, Said> {
    let options = args.rules.options()?;
    let dispute = match &args.record {
        Some(path) => {
            let at = match args.at.as_ref() {
                None => None,
                Some(v) => {
                    let text = utf8("--at", Some(v))?;
                    Some(text.parse::<At>().map_err(|e| {
                        Said::new(|lang| {
                            let colon = lang.pick("：", ": ");
                            abridge(&format!("--at{colon}{}", e.words(lang)), &text)
                        })
                    })?)
                }
            };
            record_dispute(path, args.game.as_ref(), at)?
        }
        None => {
            let request = Request {
                fen: utf8("fen", args.fen.as_ref())?,
                moves: split_moves(&utf8("moves", args.moves.as_ref())?).into(),
                notation: args.notation.notation(),
                options,
            };
            // The service's message: the field and move first, a huge text cut short.
            let (start, moves) = request
                .parse()
                .map_err(|e| Said::new(|lang| Failure::request(&e, lang).message))?;
            Dispute {
                start,
                moves,
                source: None,
            }
        }
    };
    // The text and the sheet say the ruling's sentences themselves, in the language asked.
    let options = Options {
        texts: if args.format == Format::Json {
            args.lang.texts()
        } else {
            Texts::NONE
        },
        ..options
    };
    let ruling = rules::rule(&dispute.start, &dispute.moves, &options);
    let lang = args.lang.lang();
    match args.format {
        Format::Json => {
            let message = convert::ruling(&ruling, "", args.lang.language());
            outln!("{}", super::json::pretty(&message)?);
        }
        Format::Text => {
            out!("{}", render::ruling(&ruling, &dispute, lang));
            // What the side to move may no longer play, now that the ruling is made.
            let (to_move, forbidden) = forbidden_after(dispute.start, &dispute.moves, options)
                .map_err(|e| e.to_string())?;
            if let Some(line) = forbidden_line(lang, to_move, &forbidden) {
                outln!("\n{line}");
            }
        }
        Format::Html => {
            let (_, forbidden) = forbidden_after(dispute.start, &dispute.moves, options)
                .map_err(|e| e.to_string())?;
            out!(
                "{}",
                qili::sheet::ruling_document(
                    &ruling,
                    &dispute,
                    &Paperwork::default(),
                    &forbidden,
                    qili::sheet::Diagrams::ALL,
                    lang
                )
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
