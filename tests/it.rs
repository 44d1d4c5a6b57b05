//! Every integration test, one binary (ripgrep's layout): a module per area.

// Tests may unwrap: a panic is how they fail.
#![allow(clippy::unwrap_used)]

mod big_records;
mod chinese;
mod cli;
mod common;
mod corpus;
mod desk;
mod dialect;
mod edge;
mod faults;
mod fen;
mod fuzz_regressions;
mod gain;
mod hostile;
mod load;
mod logs;
mod metamorphic;
mod movegen;
mod notation;
mod perft;
mod pgn;
mod properties;
mod readme;
mod records;
mod referee;
mod reply;
mod service;
mod watch;
