//! qili (棋例): adjudicates repetition disputes in Xiangqi under the Chinese and Asian rules.
//!
//! The crate is layered, each layer importing only those before it:
//! 1. the board and its rules of movement (`square`, `piece`, `board`, `position`, `movegen`,
//!    `attacks`) and the notations of positions and moves (`fen`, `notation`);
//! 2. the rulings (`rules`), on positions and legal moves only;
//! 3. game records and disputes (`record`: PGN, XQF, DhtmlXQ, UCCI, and the dispute cut from a
//!    game);
//! 4. the request as callers send it (`request`: text, read with `notation` and `record::ucci`,
//!    ruled by `rules`);
//! 5. the referee of live games (`referee`: a game in progress, move by move, ruled by `rules`);
//! 6. what is built on them: the printed sheet (`sheet`, `diagram`), the case corpus (`corpus`),
//!    the service (`service`).
//!
//! The service and the `qili` command are the cargo features `service` and `cli` (both on by
//! default); `default-features = false` builds the library alone, without tonic, axum, hyper,
//! tokio or clap.
#![warn(missing_docs)]

pub mod attacks;
pub mod board;
pub mod color;
pub mod corpus;
pub mod diagram;
pub mod fen;
pub mod lang;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod record;
pub mod referee;
pub mod request;
pub mod rules;
#[cfg(feature = "service")]
pub mod service;
pub mod sheet;
pub mod square;
mod tables;
pub mod zobrist;

/// qili's version and the commit it was built from (`0.2.0 (commit 1a2b3c4d5e6f)`; the commit
/// is "unknown" for a build outside a git checkout). The minor version changes whenever a ruling
/// changes (CHANGELOG.md, "Ruling changes").
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("QILI_COMMIT"),
    ")"
);

pub use board::Board;
pub use color::Color;
pub use fen::FenError;
pub use moves::{Move, MoveList};
pub use notation::{Notation, parse_move, write_move};
pub use perft::perft;
pub use piece::{Piece, Role};
pub use position::{IllegalMove, Outcome, Position, START_FEN, Undo};
pub use square::Square;
