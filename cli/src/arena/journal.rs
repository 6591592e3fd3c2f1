//! A results file of JSON lines, one [`GameRecord`] per finished game, written as games end so a
//! killed run can be resumed: [`Journal`].
//!
//! Key invariants: a line is written with a single `write_all` of the record and its newline,
//! then flushed, so after a kill the file holds complete records plus at most one partial last
//! line, which [`Journal::open`] drops; [`Journal::check`] refuses records that do not belong to
//! the schedule being resumed (other engines, colours or openings), so a resumed run never mixes
//! two different matches; while a [`Journal`] is open its file is under an exclusive advisory
//! lock, so two runs never append to one results file.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::arena::record::{GameRecord, RecordError};
use crate::arena::runner::Schedule;
use crate::files::{LockedAppend, RESULTS_LIMIT};

/// An open results file, appending one JSON line per game.
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Opens (or creates) `path`, takes its exclusive lock for as long as the journal is open
    /// (another process writing it is refused at once, naming the file), and returns the records
    /// already in it. A last line without its newline (a write cut off by a kill) is dropped from
    /// the file; any other line that is not a record is an error naming its line number. The
    /// file must be a regular file of at most 1024 MB (checked before it is opened).
    ///
    /// # Errors
    /// A [`JournalError::File`] or [`JournalError::Line`].
    pub fn open(path: &Path) -> Result<(Journal, Vec<GameRecord>), JournalError> {
        let shown = path.display();
        let LockedAppend { file, bytes } = crate::files::open_locked_append(path, RESULTS_LIMIT)
            .map_err(|e| JournalError::File(e.of("results file")))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| JournalError::File(format!("results file {shown} is not UTF-8 text")))?;
        let complete = text.rfind('\n').map_or(0, |end| end + 1);
        let mut records = Vec::new();
        for (number, line) in text[..complete].lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let record = GameRecord::from_json_line(line).map_err(|why| JournalError::Line {
                path: path.to_path_buf(),
                line: number + 1,
                why,
            })?;
            records.push(record);
        }
        if complete < text.len() {
            file.set_len(complete as u64).map_err(|e| {
                JournalError::File(format!("cannot drop the partial last line of {shown}: {e}"))
            })?;
        }
        let journal = Journal {
            file,
            path: path.to_path_buf(),
        };
        Ok((journal, records))
    }

    /// Appends `record` as one line and flushes it.
    pub fn append(&mut self, record: &GameRecord) -> io::Result<()> {
        let mut line = record.to_json_line();
        line.push('\n');
        self.file.write_all(line.as_bytes())?;
        self.file.flush()
    }

    /// The file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Checks that `records` are games of `schedule` played by engines called `names` from
    /// openings written as `openings` (when records carry opening text), each at most once.
    ///
    /// # Errors
    /// A [`JournalError::Mismatch`] naming the first game that does not belong.
    pub fn check(
        records: &[GameRecord],
        schedule: &Schedule,
        names: &[String],
        openings: Option<&[String]>,
    ) -> Result<(), JournalError> {
        Self::check_games(records, schedule, names, openings).map_err(JournalError::Mismatch)
    }

    /// [`Journal::check`], with the reason as text.
    fn check_games(
        records: &[GameRecord],
        schedule: &Schedule,
        names: &[String],
        openings: Option<&[String]>,
    ) -> Result<(), String> {
        let mut seen = vec![false; schedule.len()];
        for record in records {
            let id = record.id;
            let task = schedule.tasks.get(id).ok_or_else(|| {
                format!(
                    "results hold game {id}, beyond the {} scheduled",
                    schedule.len()
                )
            })?;
            if std::mem::replace(&mut seen[id], true) {
                return Err(format!("results hold game {id} twice"));
            }
            let expected: [&str; 2] = task
                .engines
                .map(|e| names.get(e).map_or("?", String::as_str));
            if record.engines != task.engines
                || record.opening != task.opening
                || record.names.iter().zip(expected).any(|(a, b)| a != b)
            {
                return Err(format!(
                    "results game {id} is {} vs {} on opening {}, but this run schedules {} vs {} on \
                     opening {} (another match's results?)",
                    record.names[0],
                    record.names[1],
                    record.opening,
                    expected[0],
                    expected[1],
                    task.opening
                ));
            }
            if let (Some(openings), Some(text)) = (openings, &record.opening_position)
                && openings.get(task.opening) != Some(text)
            {
                return Err(format!(
                    "results game {id} started from '{text}', not from this run's opening {}",
                    task.opening
                ));
            }
        }
        Ok(())
    }
}

/// Why a results file cannot be resumed. Displays as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JournalError {
    /// The file cannot be opened, locked, read or cut back (the text names it and says why).
    File(String),
    /// A complete line of the file is not a game record.
    Line {
        /// The file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// Why it is not a record.
        why: RecordError,
    },
    /// The records are not games of this match (another match's results?): why.
    Mismatch(String),
}

impl std::fmt::Display for JournalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JournalError::File(why) | JournalError::Mismatch(why) => f.write_str(why),
            JournalError::Line { path, line, why } => {
                write!(f, "{} line {line}: {why}", path.display())
            }
        }
    }
}

impl std::error::Error for JournalError {}

#[cfg(test)]
mod tests;
