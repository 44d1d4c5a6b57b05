//! qili (棋例): adjudicates repetition disputes in Xiangqi under the Chinese and Asian rules.
//!
//! The crate is layered: the board and its rules of movement (`square`, `piece`, `board`,
//! `position`, `movegen`, `attacks`), notations and records (`fen`, `notation`, `pgn`, `record`), and the
//! rulings built on them.
#![warn(missing_docs)]

pub mod attacks;
pub mod board;
pub mod color;
pub mod corpus;
pub mod diagram;
pub mod dispute;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod piece;
pub mod position;
pub mod record;
pub mod rules;
pub mod service;
pub mod sheet;
pub mod square;
mod tables;
pub mod zobrist;

pub use board::Board;
pub use color::Color;
pub use fen::FenError;
pub use moves::{Move, MoveList};
pub use notation::{Notation, parse_move, write_move};
pub use perft::perft;
pub use piece::{Piece, Role};
pub use position::{IllegalMove, Outcome, Position, START_FEN, Undo};
pub use square::Square;
