//! `qili perft`.

use clap::Args;
use qili::Position;
use std::process::ExitCode;

/// Arguments of `qili perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Depth in plies.
    depth: u32,
    /// Start position (default: the opening position).
    #[arg(long)]
    fen: Option<String>,
    /// Accept pieces on points they can never reach (some published perft positions have them).
    #[arg(long)]
    lenient: bool,
    /// Print the count under each first move before the total.
    #[arg(long)]
    divide: bool,
}

/// Runs perft and prints the leaf count as the last line.
pub fn run(args: PerftArgs) -> Result<ExitCode, String> {
    let fen = args.fen.as_deref().unwrap_or(qili::START_FEN);
    let parsed = if args.lenient {
        Position::from_fen_lenient(fen)
    } else {
        Position::from_fen(fen)
    };
    let pos = parsed.map_err(|e| format!("--fen: {e}"))?;
    if args.divide {
        let mut total = 0;
        for (m, n) in qili::perft::divide(&pos, args.depth) {
            outln!("{m}: {n}");
            total += n;
        }
        outln!("{total}");
    } else {
        outln!("{}", qili::perft(&pos, args.depth));
    }
    Ok(ExitCode::SUCCESS)
}
