//! `plies-test-child`: the child process of this package's tests (a game's command line, a
//! scripted UGI engine, a position-store writer; see the library's docs for the arguments).
//!
//! Key invariant: it exits 0 when its work succeeded, 1 with the error on standard error when
//! it failed, and 2 on arguments that name no child; the tests read nothing else into it.
#![deny(missing_docs)]

use std::process::ExitCode;

use plies_process_tests::{Child, ChildError};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match Child::parse(&args).and_then(|child| child.run()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err @ ChildError::Usage(_)) => {
            eprintln!("plies-test-child: {err}");
            ExitCode::from(2)
        }
        Err(err) => {
            eprintln!("{err}");
            ExitCode::FAILURE
        }
    }
}
