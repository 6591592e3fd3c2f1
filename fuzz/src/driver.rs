//! The in-process driver: runs a [`Target`] on its seeds and then on mutants of them, catching
//! panics (in any thread, through a panic hook) and hangs (an input still running after the
//! time limit), and writes every failing input to a file.
//!
//! Key invariant: each input runs on a worker thread watched by the caller, so a hang is
//! reported (and that worker abandoned) instead of stopping the run; the counts in a [`Report`]
//! are exactly the inputs run, the panics and the hangs.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Mutex, Once};
use std::time::Duration;

use crate::mutate::{Rng, mutate, pick};

/// One fuzz target.
pub struct Target {
    /// Its name (`--target NAME`).
    pub name: &'static str,
    /// What it parses.
    pub about: &'static str,
    /// Real inputs the mutations start from.
    pub seeds: fn() -> Vec<Vec<u8>>,
    /// Words that mean something to the parser.
    pub dictionary: &'static [&'static str],
    /// Runs one input; panics on a broken promise.
    pub run: fn(&[u8]),
}

/// What a run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Inputs run.
    pub inputs: u64,
    /// Inputs that panicked.
    pub panics: u64,
    /// Inputs that ran past the time limit.
    pub hangs: u64,
    /// Processes that exited with code 0 (the process driver only): how many command lines
    /// got through every check.
    pub exit_zero: u64,
    /// One line per failure: kind, file written, message.
    pub failures: Vec<String>,
}

impl Report {
    /// Adds `other`'s counts and failures.
    pub fn merge(&mut self, other: &Report) {
        self.inputs += other.inputs;
        self.panics += other.panics;
        self.hangs += other.hangs;
        self.exit_zero += other.exit_zero;
        self.failures.extend(other.failures.iter().cloned());
    }
}

/// How to run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Inputs per target (seeds included).
    pub inputs: u64,
    /// The mutation seed.
    pub seed: u64,
    /// The time limit per input.
    pub time_limit: Duration,
    /// Where failing inputs are written.
    pub out_dir: PathBuf,
}

/// Panic messages from any thread since the hook was installed.
static PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Installs (once) a panic hook that records each panic's message and place instead of
/// printing it.
pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let place = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".into());
            let mut panics = PANICS.lock().unwrap_or_else(|e| e.into_inner());
            panics.push(format!("{place}: {message}"));
        }));
    });
}

/// Takes the panic messages recorded so far.
fn take_panics() -> Vec<String> {
    std::mem::take(&mut *PANICS.lock().unwrap_or_else(|e| e.into_inner()))
}

/// A worker thread running inputs of one target.
struct Worker {
    inputs: Sender<Vec<u8>>,
    done: Receiver<bool>,
}

impl Worker {
    fn spawn(run: fn(&[u8])) -> Worker {
        let (inputs, rx) = channel::<Vec<u8>>();
        let (tx, done) = channel();
        std::thread::spawn(move || {
            for input in rx {
                let ok = catch_unwind(AssertUnwindSafe(|| run(&input))).is_ok();
                if tx.send(ok).is_err() {
                    break;
                }
            }
        });
        Worker { inputs, done }
    }
}

/// Writes a failing input; returns the file name.
fn save(out_dir: &Path, target: &str, kind: &str, index: u64, input: &[u8]) -> String {
    let path = out_dir.join(format!("{target}-{kind}-{index}.bin"));
    let _ = std::fs::create_dir_all(out_dir);
    match std::fs::write(&path, input) {
        Ok(()) => path.display().to_string(),
        Err(e) => format!("(not written: {e})"),
    }
}

/// Runs `target` on `settings.inputs` inputs: its seeds, then mutants of seeds.
pub fn run_target(target: &Target, settings: &Settings) -> Report {
    install_panic_hook();
    let seeds = (target.seeds)();
    let mut rng = Rng::new(settings.seed ^ name_hash(target.name));
    let mut worker = Worker::spawn(target.run);
    let mut report = Report::default();
    let _ = take_panics();
    for index in 0..settings.inputs {
        let input = match seeds.get(index as usize) {
            Some(seed) => seed.clone(),
            None if seeds.is_empty() => Vec::new(),
            None => {
                let seed = pick(&mut rng, &seeds).clone();
                mutate(&mut rng, &seed, target.dictionary, &seeds)
            }
        };
        report.inputs += 1;
        if worker.inputs.send(input.clone()).is_err() {
            worker = Worker::spawn(target.run);
            let _ = worker.inputs.send(input.clone());
        }
        match worker.done.recv_timeout(settings.time_limit) {
            Ok(ok) => {
                let panics = take_panics();
                if !ok || !panics.is_empty() {
                    report.panics += 1;
                    let file = save(&settings.out_dir, target.name, "panic", index, &input);
                    report.failures.push(format!(
                        "{} panic: {} (input {file})",
                        target.name,
                        panics.join(" | ")
                    ));
                }
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                report.hangs += 1;
                let file = save(&settings.out_dir, target.name, "hang", index, &input);
                report.failures.push(format!(
                    "{} hang: over {:?} (input {file})",
                    target.name, settings.time_limit
                ));
                // Abandon the stuck worker.
                worker = Worker::spawn(target.run);
            }
        }
    }
    report
}

/// Replays one saved input on `target`; `Err` with the panic message if it panics.
pub fn replay(target: &Target, input: &[u8]) -> Result<(), String> {
    install_panic_hook();
    let _ = take_panics();
    let ok = catch_unwind(AssertUnwindSafe(|| (target.run)(input))).is_ok();
    let panics = take_panics();
    if ok && panics.is_empty() {
        Ok(())
    } else {
        Err(panics.join(" | "))
    }
}

/// A stable hash of a name (FNV-1a), so each target mutates from its own stream.
pub fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(inputs: u64, ms: u64) -> Settings {
        Settings {
            inputs,
            seed: 1,
            time_limit: Duration::from_millis(ms),
            out_dir: std::env::temp_dir().join("plies-fuzz-driver-test"),
        }
    }

    fn target(run: fn(&[u8])) -> Target {
        Target {
            name: "test",
            about: "",
            seeds: || vec![b"ab".to_vec(), b"cd".to_vec()],
            dictionary: &[],
            run,
        }
    }

    /// The driver does report panics (also from other threads) and hangs, and counts inputs.
    #[test]
    fn panics_and_hangs_are_found() {
        let clean = run_target(&target(|_| {}), &settings(50, 1000));
        assert_eq!((clean.inputs, clean.panics, clean.hangs), (50, 0, 0));
        let panicky = run_target(
            &target(|d| assert!(d != b"cd", "found cd")),
            &settings(2, 1000),
        );
        assert_eq!(panicky.panics, 1);
        assert!(panicky.failures[0].contains("found cd"), "{panicky:?}");
        let threaded = run_target(
            &target(|d| {
                if d == b"ab" {
                    let _ = std::thread::spawn(|| panic!("in a thread")).join();
                }
            }),
            &settings(2, 1000),
        );
        assert_eq!(threaded.panics, 1, "{threaded:?}");
        let hangs = run_target(
            &target(|d| {
                if d == b"ab" {
                    std::thread::sleep(Duration::from_secs(2));
                }
            }),
            &settings(2, 100),
        );
        assert_eq!((hangs.inputs, hangs.hangs, hangs.panics), (2, 1, 0));
        // The failing inputs it saved.
        let _ = std::fs::remove_dir_all(settings(0, 0).out_dir);
    }
}
