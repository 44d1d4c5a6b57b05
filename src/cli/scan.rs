//! `qili scan`: every repetition in the games of a record, each with its round, its cycle and its
//! ruling — the after-the-fact check an arbiter or a platform's moderation runs.
//!
//! A repetition is a run of consecutive moves that each bring back an earlier position. Each run
//! is ruled once: after the first move whose position occurs for the third time (where the rule
//! books rule), or, if no position comes back a third time, after its first move (twice: a
//! forecast, said as such).

use super::json::{self, DetailArg};
use super::judge::{game_number, open_record, record_name, record_said, ruleset};
use super::render::LangArg;
use super::watch::forbidden_line;
use super::{EXIT_BAD_INPUT, Said};
use clap::{Args, ValueEnum};
use qili::lang::{Words, io_words};
use qili::notation::{Notation, write_move};
use qili::record::dispute::{self, DisputeError, Repetition, repetitions, round_of};
use qili::record::{Format, Game, GameReader, RecordError};
use qili::referee::{GameOptions, Referee};
use qili::rules::{self, Options, Ruling, Texts};
use qili::service::{convert, pb};
use qili::sheet::{Lang, words};
use qili::{Color, Move, Position};
use serde::Serialize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use unicode_width::UnicodeWidthStr;

/// Output format of `qili scan`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScanFormat {
    /// A block per game, a few lines per repetition.
    Text,
    /// One JSON object per game and line, its repetitions in a list, each with the API's
    /// `Ruling` (README, "JSON output").
    Json,
}

/// Arguments of `qili scan`.
#[derive(Args)]
pub struct ScanArgs {
    /// The game record: PGN (UTF-8 or GBK), XQF, DhtmlXQ or UCCI position strings; or a
    /// directory: each file in it (not in its subdirectories), in name order.
    #[arg(long, visible_alias = "pgn", value_name = "FILE|DIR")]
    record: PathBuf,
    /// Only this game of the record, from 1 (default: every game).
    #[arg(long)]
    game: Option<OsString>,
    /// Rule profile: cxa1999, cxa2011, axf (alias wxf).
    #[arg(long, default_value = "cxa1999")]
    ruleset: OsString,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ScanFormat::Text)]
    format: ScanFormat,
    /// How much of each ruling `--format json` carries, as the API's `detail`.
    #[arg(long, value_enum, default_value_t = DetailArg::Full)]
    detail: DetailArg,
    /// Language of the text, and of the texts of `--detail full` (zh: all Chinese, en: all
    /// English).
    #[arg(long, value_enum, default_value_t = LangArg::Both)]
    pub(super) lang: LangArg,
}

/// A move of the game, for both outputs.
struct MoveAt {
    ply: usize,
    round: u32,
    color: Color,
    chinese: String,
    iccs: String,
}

impl MoveAt {
    fn new(game: &Game, positions: &[Position], ply: usize) -> MoveAt {
        let (round, color) = round_of(&game.start, ply);
        MoveAt {
            ply,
            round,
            color,
            chinese: write_move(&positions[ply], game.moves[ply], Notation::Chinese),
            iccs: game.moves[ply].to_string(),
        }
    }

    fn text(&self, lang: Lang) -> String {
        words::move_at(lang, self.round, self.color, &self.chinese, &self.iccs)
    }

    /// The API's played move.
    fn api(self) -> pb::PlayedMove {
        pb::PlayedMove {
            ply: u32::try_from(self.ply).unwrap_or(u32::MAX),
            round: self.round,
            color: convert::color(self.color).into(),
            iccs: self.iccs,
            chinese: self.chinese,
        }
    }
}

/// One repetition of a game with its ruling, and the game's referee at that moment (what the
/// side to move may then no longer play).
struct Found {
    run: Repetition,
    ruling: Ruling,
    referee: Referee,
}

/// The referee of a game from `start` after `moves` (legal), ruling without texts.
fn referee_after(start: Position, moves: &[Move], options: Options) -> Referee {
    let options = Options {
        texts: Texts::NONE,
        ..options
    };
    let mut referee = Referee::new(start, options, GameOptions::default());
    for &m in moves {
        if referee.replay(m).is_err() {
            break;
        }
    }
    referee
}

/// A game of `--format json`: the record and the game's number, title and length, and each
/// repetition.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GameJson<'a> {
    record: &'a str,
    game: usize,
    title: String,
    plies: usize,
    repetitions: Vec<RepetitionJson>,
}

/// A repetition of `--format json`: the moves where it begins (the position occurs twice),
/// where a position first occurs a third time (left out if none does), where it ends and where
/// it is ruled; how often a position occurs at most; the ruling there (the API's `Ruling`) and
/// the moves the side to move may then no longer play (the API's `ForbiddenMove`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RepetitionJson {
    first: pb::PlayedMove,
    #[serde(skip_serializing_if = "Option::is_none")]
    threefold: Option<pb::PlayedMove>,
    last: pb::PlayedMove,
    ruled_at: pb::PlayedMove,
    most: u32,
    ruling: pb::Ruling,
    forbidden_moves: Vec<pb::ForbiddenMove>,
}

/// A game (or a directory's file: no `game`) of `--format json` that cannot be read.
#[derive(Serialize)]
struct Unread<'a> {
    record: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<usize>,
    error: &'a str,
}

/// The record files `--record` names: the file, or each file of the directory (not those in
/// its subdirectories), in name order.
fn record_files(path: &Path) -> Result<Vec<PathBuf>, Said> {
    let said = |e: std::io::Error| Said::new(|lang| record_said(path, &io_words(&e, lang), lang));
    let meta = std::fs::metadata(path).map_err(said)?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path).map_err(said)?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(said)?;
        if entry.file_type().is_ok_and(|t| t.is_file()) {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

/// How many games the record at `path` holds (its games passed over, not read).
fn count_games(path: &Path) -> Result<usize, Said> {
    let (_, file) = open_record(path)?;
    let said = |e: RecordError| Said::new(|lang| record_said(path, &e.words(lang), lang));
    let mut games = GameReader::new(file).map_err(said)?;
    let mut count = 0;
    while let Some(read) = games.pass() {
        read.map_err(said)?;
        count += 1;
    }
    Ok(count)
}

/// Why game `number` of the record at `path` cannot be read, naming the game.
fn game_error(path: &Path, number: usize, e: &RecordError) -> Said {
    Said::new(|lang| {
        let said = e.words(lang);
        match (e.format(), lang) {
            // Their messages name the game (or block) and line already.
            (Some(Format::Pgn | Format::DhtmlXq), _) => record_said(path, &said, lang),
            (_, qili::lang::Lang::En) => record_said(path, &format!("game {number}: {said}"), lang),
            (_, qili::lang::Lang::Zh) => record_said(path, &format!("第{number}局：{said}"), lang),
        }
    })
}

/// Scans the chosen games and prints what it finds. A game (or a file of a directory) that cannot
/// be read is reported on standard error, with its number and why, and the others are scanned:
/// the exit status is then 2.
pub fn run(args: ScanArgs) -> Result<ExitCode, Said> {
    let wanted = args.detail.wanted(args.lang.language());
    let options = Options {
        ruleset: ruleset(&args.ruleset)?,
        // The text says the ruling itself; JSON has texts at full detail only.
        texts: if args.format == ScanFormat::Json && args.detail == DetailArg::Full {
            args.lang.texts()
        } else {
            Texts::NONE
        },
        ..Options::default()
    };
    let only = game_number(args.game.as_ref())?;
    let lang = args.lang.lang();
    let files = record_files(&args.record)?;
    let directory = files.len() != 1 || files[0] != args.record;
    let (mut scanned, mut total, mut threefold, mut unread) = (0, 0, 0, 0);
    let mut report = |said: Said, name: &str, number: Option<usize>| {
        unread += 1;
        if args.format == ScanFormat::Json {
            let unread = Unread {
                record: name,
                game: number,
                error: said.one(args.lang),
            };
            // Three strings and a number always make JSON.
            if let Ok(line) = json::line(&unread) {
                outln!("{line}");
            }
        }
        said.print(args.lang);
    };
    for path in &files {
        let name = record_name(path);
        // A directory's file that is no record is reported and passed over; a record named
        // alone that cannot be opened at all is the command's error.
        let opened = count_games(path).and_then(|count| {
            let (_, file) = open_record(path)?;
            let games = GameReader::new(file)
                .map_err(|e| Said::new(|lang| record_said(path, &e.words(lang), lang)))?;
            Ok((count, games))
        });
        let (count, games) = match opened {
            Ok(opened) => opened,
            Err(message) if directory => {
                report(message, &name, None);
                continue;
            }
            Err(message) => return Err(message),
        };
        if let Some(n) = only.filter(|n| *n > count) {
            let no_such = DisputeError::NoSuchGame { number: n, count };
            let message = |lang: qili::lang::Lang| {
                let colon = lang.pick("：", ": ");
                format!("--game{colon}{}", no_such.words(lang))
            };
            if directory {
                let said = Said::new(|lang| {
                    let colon = lang.pick("：", ": ");
                    format!("{}{colon}{}", path.display(), message(lang))
                });
                report(said, &name, Some(n));
                continue;
            }
            return Err(Said::new(message));
        }
        let display = path.display().to_string();
        let mut games = games;
        let mut number = 0;
        loop {
            number += 1;
            // The games before the one asked for are passed over, not read.
            if only.is_some_and(|n| number < n) {
                match games.pass() {
                    Some(Ok(())) => continue,
                    Some(Err(e)) => report(game_error(path, number, &e), &name, Some(number)),
                    None => {}
                }
                break;
            }
            let game = match games.next() {
                None => break,
                Some(Ok(game)) => game,
                Some(Err(e)) => {
                    report(game_error(path, number, &e), &name, Some(number));
                    if only.is_some() {
                        break;
                    }
                    continue;
                }
            };
            let found = scan_game(&game, options);
            scanned += 1;
            total += found.len();
            threefold += found.iter().filter(|f| f.run.threefold.is_some()).count();
            match args.format {
                ScanFormat::Json => {
                    outln!(
                        "{}",
                        json::line(&game_json(&name, number, game, found, wanted))?
                    )
                }
                ScanFormat::Text => out!(
                    "{}",
                    game_text(&name, &display, number, count, &game, &found, lang)
                ),
            }
            if only.is_some() {
                break;
            }
        }
    }
    if args.format == ScanFormat::Text {
        outln!(
            "{}",
            lang.label(
                &format!("共{scanned}局，{total}处重复，其中{threefold}处达三次。"),
                &format!(
                    "{scanned} game(s), {total} repetition(s), {threefold} reaching three occurrences."
                ),
            )
        );
    }
    if unread > 0 {
        let what = if unread == 1 {
            "game or file"
        } else {
            "games or files"
        };
        Said::new(|lang| match lang {
            qili::lang::Lang::En => {
                format!("{unread} {what} could not be read (the others are scanned above)")
            }
            qili::lang::Lang::Zh => format!("{unread}个棋局或文件无法读取（其余的已在上面扫描）"),
        })
        .print(args.lang);
        return Ok(ExitCode::from(EXIT_BAD_INPUT));
    }
    Ok(ExitCode::SUCCESS)
}

/// Every repetition of `game`, each ruled, with the forbidden moves at that moment.
fn scan_game(game: &Game, options: Options) -> Vec<Found> {
    repetitions(&game.start, &game.moves)
        .into_iter()
        .map(|run| {
            let moves = &game.moves[..=run.ruled_at];
            Found {
                ruling: rules::rule(&game.start, moves, &options),
                referee: referee_after(game.start, moves, options),
                run,
            }
        })
        .collect()
}

fn sides_text(r: &Ruling, lang: Lang) -> String {
    [&r.red, &r.black]
        .iter()
        .map(|s| {
            let (side, pattern, status) = (
                words::side(lang, s.color),
                words::pattern(lang, s.pattern),
                words::allowed(lang, s.forbidden),
            );
            if lang == Lang::Zh {
                format!("{side} {pattern}（{status}）")
            } else {
                format!("{side} {pattern} ({status})")
            }
        })
        .collect::<Vec<_>>()
        .join(if lang == Lang::Zh { "，" } else { "; " })
}

fn game_text(
    name: &str,
    path: &str,
    number: usize,
    count: usize,
    game: &Game,
    found: &[Found],
    lang: Lang,
) -> String {
    let positions = game.positions();
    let mut out = format!(
        "{name} · {} — {}\n",
        lang.label(
            &format!("第{number}局（共{count}局）"),
            &format!("game {number} of {count}")
        ),
        words::game_title(lang, &dispute::Title::of(game), game.moves.len())
    );
    if found.is_empty() {
        out.push_str(&format!(
            "  {}\n\n",
            lang.label("无重复局面", "no repeated position")
        ));
        return out;
    }
    for (k, f) in found.iter().enumerate() {
        let first = MoveAt::new(game, &positions, f.run.first);
        let mark = format!("  [{}] ", k + 1);
        let indent = " ".repeat(mark.width());
        let begins = lang.label(
            &format!("{}起重复（局面出现两次）", first.text(lang)),
            &format!(
                "repeats from {} (the position occurs twice)",
                first.text(Lang::En)
            ),
        );
        out.push_str(&format!("{mark}{begins}\n"));
        if let Some(p) = f.run.threefold {
            let at = MoveAt::new(game, &positions, p);
            out.push_str(&format!(
                "{indent}{}\n",
                lang.label(
                    &format!("{}：同一局面第三次出现", at.text(lang)),
                    &format!("three times after {}", at.text(Lang::En)),
                )
            ));
        }
        let r = &f.ruling;
        if let Some(first_move) = r.moves.first() {
            let summary = words::cycle_summary(
                lang,
                (
                    first_move.round,
                    first_move.color,
                    &first_move.chinese,
                    &first_move.iccs,
                ),
                r.cycle_length,
                r.repetitions,
            );
            for line in summary {
                out.push_str(&format!("{indent}{line}\n"));
            }
        }
        out.push_str(&format!(
            "{indent}{}{}{}\n",
            lang.label("裁决", "verdict"),
            words::colon(lang),
            words::verdict(lang, r.verdict)
        ));
        if r.verdict != rules::Verdict::NoRepetition {
            out.push_str(&format!("{indent}{}\n", sides_text(r, lang)));
        }
        let (to_move, forbidden) = (f.referee.position().turn(), f.referee.forbidden_moves());
        if let Some(line) = forbidden_line(lang, to_move, &forbidden) {
            out.push_str(&format!("{indent}{line}\n"));
        }
        if f.run.threefold.is_none() {
            for line in words::two_occurrences(lang) {
                out.push_str(&format!("{indent}{line}\n"));
            }
        }
        if f.run.most > 3 || f.run.last > f.run.ruled_at {
            let last = MoveAt::new(game, &positions, f.run.last);
            out.push_str(&format!(
                "{indent}{}\n",
                lang.label(
                    &format!(
                        "重复持续到{}，同一局面最多出现{}次",
                        last.text(lang),
                        f.run.most
                    ),
                    &format!(
                        "the run goes on to {}; one position occurs up to {} times",
                        last.text(Lang::En),
                        f.run.most
                    ),
                )
            ));
        }
        let at = MoveAt::new(game, &positions, f.run.ruled_at);
        let side = if at.color == Color::Red { 'r' } else { 'b' };
        out.push_str(&format!(
            "{indent}qili judge --record {path} --game {number} --at {}{side}\n",
            at.round
        ));
    }
    out.push('\n');
    out
}

/// A game for `--format json`, its rulings and forbidden moves as much as `wanted` asks.
fn game_json<'a>(
    name: &'a str,
    number: usize,
    game: Game,
    found: Vec<Found>,
    wanted: convert::Wanted,
) -> GameJson<'a> {
    let positions = game.positions();
    let at = |p: usize| MoveAt::new(&game, &positions, p).api();
    let repetitions = found
        .into_iter()
        .map(|f| RepetitionJson {
            first: at(f.run.first),
            threefold: f.run.threefold.map(at),
            last: at(f.run.last),
            ruled_at: at(f.run.ruled_at),
            most: f.run.most,
            forbidden_moves: convert::game_status(f.referee.status(), String::new(), wanted)
                .forbidden_moves,
            ruling: json::ruling(f.ruling, wanted),
        })
        .collect();
    GameJson {
        record: name,
        game: number,
        title: dispute::title(&game),
        plies: game.moves.len(),
        repetitions,
    }
}
