//! Command-line front end: argument parsing and dispatch. Each subcommand is a thin layer over the
//! library.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod perft;

/// qili (棋例): rules repetition disputes in Xiangqi.
#[derive(Parser)]
#[command(name = "qili", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaves of the legal move tree to DEPTH (the last line printed is the count).
    Perft(perft::PerftArgs),
}

/// Exit code for bad input (a one-line reason goes to stderr).
pub const EXIT_BAD_INPUT: u8 = 2;

/// Parses the command line and runs the chosen subcommand.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("qili: {message}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}
