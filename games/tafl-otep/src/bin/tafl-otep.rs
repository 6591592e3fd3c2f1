//! A standalone OTEP engine binary (`tafl-otep [--move-time MS] [--max-time MS]`), the same
//! engine as `cargo run --example tafl -- otep`; tests drive it through the referee.
//!
//! Key invariant: speaks only OTEP on stdin/stdout; a bad argument (including one that is not
//! UTF-8) is a one-line error on stderr and exit code 2, never a panic.

use std::io;
use std::process::ExitCode;

use plies_tafl_otep::engine::{EngineOptions, run_engine_with};

fn main() -> ExitCode {
    let args = match plies_tafl_otep::engine::utf8_args(std::env::args_os()) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let options = match EngineOptions::parse(&args) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("error: {e}; usage: tafl-otep {}", EngineOptions::USAGE);
            return ExitCode::from(2);
        }
    };
    match run_engine_with(io::stdin().lock(), io::stdout().lock(), options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}
