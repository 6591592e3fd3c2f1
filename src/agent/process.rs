//! An engine process an agent or a referee drives through a line protocol (UGI, OTEP): the
//! lifecycle both share — start with piped input and output, send a line, read lines until a
//! deadline, let the process go — so each protocol writes only its own words.
//!
//! Key invariants: no call waits past the deadline it is given, whatever the process does
//! (exits, hangs, floods its output, writes lines that are not UTF-8 or are endless); a failure
//! is a [`ProcessError`] saying what happened, never a panic; a process is never left running:
//! [`EngineProcess::quit`] says goodbye and kills it when it lingers, and dropping one that
//! still runs kills and reaps it.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

/// The longest line read from an engine; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 1 << 16;

/// Output lines held for the host before the engine has to wait for it to read them.
const LINES_QUEUED: usize = 4096;

/// How long an ended process is given to be reaped, for its exit status in a message.
const REAP_WAIT: Duration = Duration::from_millis(100);

/// Why an engine process failed. Displays as one line.
#[derive(Debug)]
pub enum ProcessError {
    /// The command line names no program.
    NoCommand,
    /// The program could not be started.
    Spawn {
        /// The command line.
        command: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The process started but its pipes could not be opened.
    Pipes,
    /// The process no longer reads its input (its exit status when it has ended).
    Closed(Option<ExitStatus>),
    /// The process said nothing that was waited for by the deadline: it hangs.
    Timeout,
    /// The process closed its output: it ended (its exit status when known).
    Ended(Option<ExitStatus>),
}

impl std::fmt::Display for ProcessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let status = |status: &Option<ExitStatus>| match status {
            Some(status) => format!(" ({status})"),
            None => String::new(),
        };
        match self {
            ProcessError::NoCommand => f.write_str("no engine command"),
            ProcessError::Spawn { command, error } => {
                write!(f, "cannot start '{command}': {error}")
            }
            ProcessError::Pipes => f.write_str("the engine's pipes could not be opened"),
            ProcessError::Closed(exit) => {
                write!(f, "the engine no longer reads its input{}", status(exit))
            }
            ProcessError::Timeout => f.write_str("the engine said nothing in time (it hangs)"),
            ProcessError::Ended(exit) => write!(f, "the engine ended{}", status(exit)),
        }
    }
}

impl std::error::Error for ProcessError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProcessError::Spawn { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// One engine process: its input, and its output lines arriving on a bounded channel from a
/// reader thread (which ends when the process closes its output).
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The command line, naming the engine in messages and trace events.
    command: String,
}

impl EngineProcess {
    /// Starts `command` (the program, then its arguments) with piped input and output and its
    /// error output discarded.
    ///
    /// # Errors
    /// No program, or one that cannot be started.
    pub fn spawn<S: AsRef<str>>(command: &[S]) -> Result<EngineProcess, ProcessError> {
        let Some((program, args)) = command.split_first() else {
            return Err(ProcessError::NoCommand);
        };
        let text = command
            .iter()
            .map(AsRef::as_ref)
            .collect::<Vec<_>>()
            .join(" ");
        let mut child = Command::new(program.as_ref())
            .args(args.iter().map(AsRef::as_ref))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| ProcessError::Spawn {
                command: text.clone(),
                error,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ProcessError::Pipes);
        };
        // Bounded: an engine flooding its output waits for the host to read it.
        let (sender, lines) = sync_channel(LINES_QUEUED);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                match read_line(&mut reader, &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim_end().to_string();
                        if sender.send(text).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            command: text,
        })
    }

    /// The command line that started the process.
    #[must_use]
    pub fn command(&self) -> &str {
        &self.command
    }

    /// Sends one line.
    ///
    /// # Errors
    /// [`ProcessError::Closed`] when the process no longer reads its input.
    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        tracing::debug!(engine = %self.command, line, "sent");
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| ProcessError::Closed(self.exit_status()))
    }

    /// Drops the lines already waiting (late output of an earlier command), so that what is
    /// read next answers the next command.
    pub fn drain(&mut self) {
        for _ in 0..LINES_QUEUED {
            if self.lines.try_recv().is_err() {
                break;
            }
        }
    }

    /// The next line the process writes, by `deadline`.
    ///
    /// # Errors
    /// [`ProcessError::Timeout`] past the deadline, [`ProcessError::Ended`] when the process
    /// closed its output.
    pub fn next_line(&mut self, deadline: Instant) -> Result<String, ProcessError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                tracing::debug!(engine = %self.command, line = %line, "received");
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(ProcessError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ProcessError::Ended(self.exit_status())),
        }
    }

    /// Reads lines until `pick` takes one, the process ends or `deadline` passes.
    ///
    /// # Errors
    /// As [`EngineProcess::next_line`].
    pub fn wait_for<T>(
        &mut self,
        deadline: Instant,
        mut pick: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, ProcessError> {
        loop {
            if let Some(value) = pick(&self.next_line(deadline)?) {
                return Ok(value);
            }
        }
    }

    /// Sends `farewell` (the protocol's `quit`, `goodbye`) and waits up to `grace` for the
    /// process to end; past it, kills it. The process is reaped either way.
    pub fn quit(&mut self, farewell: &str, grace: Duration) {
        let _ = self.send(farewell);
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        tracing::debug!(engine = %self.command, "the engine lingered after {farewell}: killed");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The exit status once the process has ended (its output just closed: it is given a
    /// moment to be reaped), else `None`.
    fn exit_status(&mut self) -> Option<ExitStatus> {
        let until = Instant::now() + REAP_WAIT;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => return None,
            }
        }
    }
}

impl Drop for EngineProcess {
    /// A process let go without [`EngineProcess::quit`] is killed, never left running.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Reads one line (up to [`MAX_LINE`] bytes of it; the rest is skipped) into `line`; `Ok(0)` at
/// the end of the output.
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<usize> {
    let read = reader
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', line)?;
    if read == MAX_LINE && line.last() != Some(&b'\n') {
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let n = reader
                .by_ref()
                .take(MAX_LINE as u64)
                .read_until(b'\n', &mut rest)?;
            if n == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    Ok(read)
}

#[cfg(all(test, unix))]
mod tests;
