//! A scripted OTEP engine for tests: `tafl-otep-script TRANSCRIPT SECTION LOG` plays the
//! engine side of one section of a transcript file (see the crate's
//! `tests/data/otep-transcript.txt`): it sends the section's engine lines that come before
//! its first `host>` line, then, for each line it receives, the engine lines that follow the
//! next `host>` line. Every received line is appended to LOG, so a test can compare what a
//! host sent with the transcript.
//!
//! `late>` lines behave like OpenTafl's engine printing search statistics after its move: each
//! is written [`LATE_GAP`] after the line before it, and a host line that arrives before the
//! last of them is out makes the script exit at once with code 1, without answering (OpenTafl
//! crashes when it is told to play meanwhile).
//!
//! Key invariant: it never judges what it receives (the test does, from LOG); it exits after
//! `goodbye` or at the end of input, with code 1 when interrupted while late, and with code 2
//! on bad arguments (one that is not UTF-8 included) or an unreadable file.

use std::fs::File;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::Duration;

use plies_tafl_otep::engine::{TranscriptLine, transcript_section, utf8_args};

/// The pause before each `late>` line.
const LATE_GAP: Duration = Duration::from_millis(50);

/// How a run of engine lines ended.
enum Spoke {
    /// All written.
    Done,
    /// A host line arrived while late lines were due: the script crashes.
    Interrupted,
}

/// Writes the engine lines of `script` from `next` up to the next host line; a line received
/// meanwhile is logged.
fn speak(
    script: &[TranscriptLine],
    next: &mut usize,
    out: &mut dyn Write,
    input: &Receiver<String>,
    log: &mut File,
) -> io::Result<Spoke> {
    loop {
        match script.get(*next) {
            Some(TranscriptLine::Engine(line)) => writeln!(out, "{line}")?,
            Some(TranscriptLine::Late(line)) => {
                out.flush()?;
                thread::sleep(LATE_GAP);
                if let Ok(early) = input.try_recv() {
                    writeln!(log, "{early}")?;
                    return Ok(Spoke::Interrupted);
                }
                writeln!(out, "{line}")?;
            }
            Some(TranscriptLine::Host(_)) | None => break,
        }
        *next += 1;
    }
    out.flush()?;
    Ok(Spoke::Done)
}

fn main() -> ExitCode {
    let args = match utf8_args(std::env::args_os()) {
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
    let (tx, input) = channel();
    thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut next = 0;
    let mut spoke = speak(&script, &mut next, &mut out, &input, &mut log);
    loop {
        match spoke {
            Ok(Spoke::Done) => {}
            Ok(Spoke::Interrupted) => {
                eprintln!("interrupted while late: crashing");
                return ExitCode::FAILURE;
            }
            Err(_) => return ExitCode::FAILURE,
        }
        let Ok(line) = input.recv() else { break };
        if writeln!(log, "{line}").is_err() {
            return ExitCode::FAILURE;
        }
        if line.trim() == "goodbye" {
            break;
        }
        if next < script.len() {
            next += 1; // the host line this answers
        }
        spoke = speak(&script, &mut next, &mut out, &input, &mut log);
    }
    ExitCode::SUCCESS
}
