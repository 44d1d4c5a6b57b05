//! Command-line front end: argument parsing and dispatch. Each subcommand is a thin layer over the
//! library.

use clap::{Parser, Subcommand};
use qili::lang::{Lang, Words};
use render::LangArg;
use std::io::Write;
use std::process::ExitCode;

/// `print!` that survives a closed standard output (see [`write_stdout`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!($($arg)*))
    };
}

/// `println!` that survives a closed standard output (see [`write_stdout`]).
macro_rules! outln {
    () => {
        $crate::cli::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod analyze;
mod cases;
mod json;
mod judge;
mod load;
mod log;
mod perft;
mod render;
mod scan;
mod serve;
mod usage;
mod watch;

/// qili (棋例): rules repetition disputes in Xiangqi.
#[derive(Parser)]
#[command(name = "qili", version = qili::VERSION, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serves the gRPC API (qili.v1.Qili, health, reflection) and, on the same port, gRPC-Web,
    /// the JSON API and the consult page, until SIGINT or SIGTERM.
    Serve(serve::ServeArgs),
    /// Rules on one dispute: a start position and the moves, or a game record.
    Judge(judge::JudgeArgs),
    /// Finds every repetition in the games of a record and rules on each.
    Scan(scan::ScanArgs),
    /// Explains a position (after an optional move): attacks, defences, protection, the move's kind.
    Analyze(analyze::AnalyzeArgs),
    /// Runs ruling corpora (.jsonl cases) and prints each failure and `N passed, M failed`.
    Cases(cases::CasesArgs),
    /// Referees a game move by move: moves from standard input (or a record), one status line
    /// (or JSON object) per move: repetitions, the ruling, forbidden moves, the game's end.
    Watch(watch::WatchArgs),
    /// Counts the leaves of the legal move tree to DEPTH (the last line printed is the count).
    Perft(perft::PerftArgs),
    /// Sends corpus rulings (or health checks) to a loopback `qili serve` with N in flight for S
    /// seconds; prints requests/s, latency percentiles, errors by gRPC code and reply size.
    Load(load::LoadArgs),
}

impl Command {
    /// The language of the command's errors (`--lang`; English for the commands without it).
    fn lang(&self) -> LangArg {
        match self {
            Command::Serve(args) => args.lang,
            Command::Judge(args) => args.lang,
            Command::Scan(args) => args.lang,
            Command::Analyze(args) => args.lang,
            Command::Cases(args) => args.lang,
            Command::Watch(args) => args.lang,
            Command::Perft(_) | Command::Load(_) => LangArg::En,
        }
    }
}

/// Exit code for bad input (a one-line reason goes to stderr).
pub const EXIT_BAD_INPUT: u8 = 2;

/// Why a command failed, in both languages; printed as its `--lang` asks (`both`: the Chinese
/// line, then the English one, as a bilingual arbiter reads the rest).
#[derive(Debug)]
pub struct Said {
    zh: String,
    en: String,
}

impl Said {
    /// The error `say` words in each language.
    pub fn new(say: impl Fn(Lang) -> String) -> Said {
        Said {
            zh: say(Lang::Zh),
            en: say(Lang::En),
        }
    }

    /// The error `e` says.
    pub fn of(e: &impl Words) -> Said {
        Said::new(|lang| e.words(lang))
    }

    /// The error in one language: `lang`'s, English for both (a JSON field's).
    pub fn one(&self, lang: LangArg) -> &str {
        match lang {
            LangArg::Zh => &self.zh,
            LangArg::En | LangArg::Both => &self.en,
        }
    }

    /// Prints it on standard error, a line per language `lang` asks, after `qili: `.
    pub fn print(&self, lang: LangArg) {
        for line in self.lines(lang) {
            write_stderr(format_args!("qili: {line}\n"));
        }
    }

    /// Its lines for `lang` (one, when both languages say the same).
    fn lines(&self, lang: LangArg) -> Vec<&str> {
        match lang {
            LangArg::Zh => vec![&self.zh],
            LangArg::En => vec![&self.en],
            LangArg::Both if self.zh == self.en => vec![&self.en],
            LangArg::Both => vec![&self.zh, &self.en],
        }
    }
}

/// A message with no Chinese (`qili load`'s, JSON that cannot be written): English in both.
impl From<String> for Said {
    fn from(en: String) -> Said {
        Said { zh: en.clone(), en }
    }
}

/// Writes to standard output. When its reader has gone (`qili judge … | head -1` closes the pipe)
/// nothing is left to do, so the process exits 0 at once and quietly; `println!` would panic.
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args) {
        stdout_failed(e);
    }
}

/// Writes to standard error; a message that cannot be written (stderr on a full disk or
/// `/dev/full`, or a closed pipe) is lost rather than turned into a panic as `eprintln!` would.
pub fn write_stderr(args: std::fmt::Arguments<'_>) {
    let _ = std::io::stderr().lock().write_fmt(args);
}

fn stdout_failed(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    write_stderr(format_args!("qili: cannot write to standard output: {e}\n"));
    std::process::exit(i32::from(EXIT_BAD_INPUT));
}

/// Parses the command line and runs the chosen subcommand.
pub fn run() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        // The language is the command line's own: clap refused it before parsing `--lang`.
        Err(e) => usage::exit(&e, usage::asked_lang::<Cli>(&args)),
    };
    let lang = cli.command.lang();
    let result = match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Judge(args) => judge::run(args),
        Command::Scan(args) => scan::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Cases(args) => cases::run(args),
        Command::Watch(args) => watch::run(args),
        Command::Perft(args) => perft::run(args).map_err(Said::from),
        Command::Load(args) => load::run(args).map_err(Said::from),
    };
    // Output still buffered must reach the reader, or fail here as a write would.
    if let Err(e) = std::io::stdout().lock().flush() {
        stdout_failed(e);
    }
    match result {
        Ok(code) => code,
        Err(said) => {
            said.print(lang);
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
