//! `qili watch`: referees a game move by move — the moves read from standard input as they come
//! (or a record's main line) — and prints one status line per move, or with `--json` one JSON
//! object a line (the API's `GameStatus`, README "JSON output"), for an engine harness or a GUI
//! to pipe moves through.

use super::Said;
use super::json::{self, DetailArg};
use super::judge::{NotationArg, RulingArgs, record_dispute, record_said, utf8};
use super::render::LangArg;
use clap::Args;
use qili::Color;
use qili::lang::{Words, io_words};
use qili::record::dispute::split_moves;
use qili::referee::{EndKind, ForbiddenMove, GameEnd, GameOptions, Referee, Status};
use qili::request::{Moves, Request};
use qili::rules::{Options, Texts};
use qili::service::{Failure, convert};
use qili::sheet::{Lang, words};
use std::ffi::OsString;
use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `qili watch`.
#[derive(Args)]
pub struct WatchArgs {
    /// Start position in FEN, or a UCCI position string whose moves are played first without a
    /// line each (default: the opening position).
    #[arg(long, conflicts_with = "record")]
    fen: Option<OsString>,
    /// Play a game record's main line instead of reading standard input: PGN, XQF, DhtmlXQ or
    /// UCCI, told apart by content.
    #[arg(long, visible_alias = "pgn", value_name = "FILE")]
    record: Option<PathBuf>,
    /// The game of the record, from 1 (needed when the record holds several).
    #[arg(long, requires = "record")]
    game: Option<OsString>,
    /// Notation of the moves read (they may be separated by spaces, commas or lines).
    #[arg(long, value_enum, default_value_t = NotationArg::Auto)]
    notation: NotationArg,
    #[command(flatten)]
    rules: RulingArgs,
    /// The occurrence of a position at which the books rule: 2 to 10.
    #[arg(long, default_value_t = qili::referee::RULE_AT)]
    rule_at: u32,
    /// The natural move limit in rounds without a capture (default: the profile's, 60).
    #[arg(long)]
    natural_limit: Option<u32>,
    /// One JSON object a line: the API's `GameStatus`, as `POST /v1/status` answers it.
    #[arg(long)]
    json: bool,
    /// How much of each ruling and forbidden move `--json` carries, as the API's `detail`.
    #[arg(long, value_enum, default_value_t = DetailArg::Full, requires = "json")]
    detail: DetailArg,
    /// Language of the lines and of the rulings' texts.
    #[arg(long, value_enum, default_value_t = LangArg::Both)]
    pub(super) lang: LangArg,
}

/// Referees the game and prints a line per move; a bad move stops it, naming its index.
pub fn run(args: WatchArgs) -> Result<ExitCode, Said> {
    let lang = args.lang.lang();
    let options = Options {
        texts: Texts {
            zh: lang.zh(),
            en: lang.en(),
            ..Texts::ALL
        },
        ..args.rules.options()?
    };
    let game = GameOptions::new(args.rule_at, args.natural_limit.unwrap_or(0)).map_err(|e| {
        let flag = match e {
            qili::referee::GameOptionsError::RuleAt(_) => "--rule-at",
            qili::referee::GameOptionsError::NaturalLimit(_) => "--natural-limit",
        };
        Said::new(|error_lang| {
            let said = e.words(error_lang);
            // The message names the API's field; the command line names its flag.
            let reason = said
                .split_once(": ")
                .or_else(|| said.split_once('：'))
                .map_or("", |(_, r)| r);
            format!("{flag}: {reason}")
        })
    })?;
    let wanted = args.detail.wanted(args.lang.language());
    let print = |status: &Status| -> Result<(), String> {
        if args.json {
            let message = convert::game_status(status.clone(), String::new(), wanted);
            outln!("{}", json::line(&message)?);
        } else {
            outln!("{}", line(status, lang));
        }
        Ok(())
    };
    if let Some(path) = &args.record {
        let chosen = record_dispute(path, args.game.as_ref(), None)?;
        let mut referee = Referee::new(chosen.start, options, game);
        for &m in &chosen.moves {
            let status = referee
                .play(m)
                .map_err(|e| Said::new(|lang| record_said(path, &e.words(lang), lang)))?;
            print(&status)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let opening = Request {
        fen: utf8("--fen", args.fen.as_ref())?,
        moves: Moves::new(),
        notation: args.notation.notation(),
        options,
    };
    let mut referee = Referee::open(&opening, game)
        .map_err(|e| Said::new(|lang| Failure::request(&e, lang).message))?;
    let stdin = std::io::stdin();
    for read in stdin.lock().lines() {
        let text = read.map_err(|e| {
            Said::new(|lang| {
                let input = lang.pick("标准输入：", "standard input: ");
                format!("{input}{}", io_words(&e, lang))
            })
        })?;
        for mv in split_moves(&text) {
            let status = referee
                .play_text(&mv, opening.notation)
                .map_err(|e| Said::new(|lang| Failure::request(&e, lang).message))?;
            print(&status)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A status as one line: the move, then whatever is to say about the position.
fn line(s: &Status, lang: Lang) -> String {
    let mut parts = Vec::new();
    if let Some(m) = &s.last_move {
        parts.push(words::move_at(
            lang,
            m.round,
            m.color,
            &m.chinese(),
            &m.iccs(),
        ));
    }
    if s.in_check {
        parts.push(lang.label("将军", "check"));
    }
    if s.repetitions >= 2 {
        parts.push(lang.label(
            &format!("局面第{}次出现", s.repetitions),
            &format!("position ×{}", s.repetitions),
        ));
    }
    if let Some(n) = &s.notice {
        parts.push(format!(
            "{}{}{}",
            lang.label("如不变着", "if it goes on"),
            words::colon(lang),
            words::verdict(lang, n.forecast)
        ));
    }
    if let Some(r) = &s.ruling {
        parts.push(format!(
            "{}{}{}",
            lang.label("裁决", "ruling"),
            words::colon(lang),
            words::verdict(lang, r.verdict)
        ));
    }
    for c in Color::ALL {
        if s.told_to_change.get(c) {
            parts.push(lang.label(
                &format!("{}已被要求变着", words::side(Lang::Zh, c)),
                &format!("{} told to change", words::side(Lang::En, c)),
            ));
        }
    }
    if let Some(f) = forbidden_line(lang, s.to_move, &s.forbidden) {
        parts.push(f);
    }
    if let Some(end) = &s.end {
        parts.push(end_text(end, lang));
    }
    if parts.len() == 1 {
        parts.push(lang.label(
            &format!("{}走", words::side(Lang::Zh, s.to_move)),
            &format!("{} to move", words::side(Lang::En, s.to_move)),
        ));
    }
    parts.join(" · ")
}

/// `红方禁着：车九平八（a3b3，判负）` / `red may not play: 车九平八 (a3b3, loses)`; `None` when
/// nothing is forbidden (the sheet's words).
pub fn forbidden_line(lang: Lang, to_move: Color, list: &[ForbiddenMove]) -> Option<String> {
    words::forbidden_moves(lang, to_move, list)
}

/// `对局结束：将死，红方胜` / `game over: checkmate, red wins`.
fn end_text(end: &GameEnd, lang: Lang) -> String {
    let (zh, en) = match end.kind {
        EndKind::Checkmate => ("将死", "checkmate"),
        EndKind::Stalemate => ("困毙", "stalemate (no legal move)"),
        EndKind::RepetitionLoss => ("犯例判负", "lost by the repetition rules"),
        EndKind::RepetitionDraw => ("循环不变作和", "drawn by repetition"),
        EndKind::NaturalLimit => (
            "自然限着，可判和",
            "natural move limit: a draw may be claimed",
        ),
    };
    let (zh_wins, en_wins) = match end.winner {
        Some(c) => (
            format!("，{}胜", words::side(Lang::Zh, c)),
            format!(", {} wins", words::side(Lang::En, c)),
        ),
        None => (String::new(), String::new()),
    };
    lang.label(
        &format!("对局结束：{zh}{zh_wins}"),
        &format!("game over: {en}{en_wins}"),
    )
}
