//! The `qili` command: the service, the arbiter's tools and perft, over the library.
// `println!` panics when the reader of a pipe goes away; the commands print with `out!`/`outln!`.
#![deny(clippy::print_stdout)]

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
