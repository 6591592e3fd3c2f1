//! A scripted OTEP engine for tests: `tafl-otep-script TRANSCRIPT SECTION LOG` plays the
//! engine side of one section of a transcript file (see the crate's
//! `tests/data/otep-transcript.txt`): it sends the section's `engine>` lines that come before
//! its first `host>` line, then, for each line it receives, the `engine>` lines that follow
//! the next `host>` line. Every received line is appended to LOG, so a test can compare what a
//! host sent with the transcript.
//!
//! Key invariant: it never judges what it receives (the test does, from LOG); it exits after
//! `goodbye` or at the end of input, and with code 2 on bad arguments (one that is not UTF-8
//! included) or an unreadable file.

use std::fs::File;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use plies_tafl_otep::engine::transcript_section;

fn main() -> ExitCode {
    let args = match plies_tafl_otep::engine::utf8_args(std::env::args_os()) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let [path, name, log] = args.as_slice() else {
        eprintln!("usage: tafl-otep-script TRANSCRIPT SECTION LOG");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(script) = transcript_section(&text, name) else {
        eprintln!("no section '{name}' in {path}");
        return ExitCode::from(2);
    };
    let mut log = match File::create(log) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cannot write {log}: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut next = 0;
    // Sends the engine lines from `next` up to the next host line.
    let speak = |next: &mut usize, out: &mut dyn Write| -> io::Result<()> {
        while let Some((false, line)) = script.get(*next) {
            writeln!(out, "{line}")?;
            *next += 1;
        }
        out.flush()
    };
    if speak(&mut next, &mut out).is_err() {
        return ExitCode::FAILURE;
    }
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if writeln!(log, "{line}").is_err() {
            return ExitCode::FAILURE;
        }
        if next < script.len() {
            next += 1; // the host line this answers
        }
        if speak(&mut next, &mut out).is_err() || line.trim() == "goodbye" {
            break;
        }
    }
    ExitCode::SUCCESS
}
