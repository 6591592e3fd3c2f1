//! A standalone OTEP engine binary (`tafl-otep [--move-time MS]`), the same engine as
//! `cargo run --example tafl -- otep`; tests drive it through the referee.
//!
//! Key invariant: speaks only OTEP on stdin/stdout; a bad argument exits with code 2.

use std::io;
use std::process::ExitCode;
use std::time::Duration;

use plies_tafl::otep::run_engine;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let move_ms = match args.as_slice() {
        [] => 1000,
        [flag, v] if flag == "--move-time" => match v.parse() {
            Ok(ms) => ms,
            Err(_) => {
                eprintln!("--move-time '{v}': expected milliseconds");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("usage: tafl-otep [--move-time MS]");
            return ExitCode::from(2);
        }
    };
    match run_engine(
        io::stdin().lock(),
        io::stdout().lock(),
        Duration::from_millis(move_ms),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}
