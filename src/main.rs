//! The `qili` command: the service, the arbiter's tools and perft, over the library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
