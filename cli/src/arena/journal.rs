//! A results file of JSON lines, one [`GameRecord`] per finished game, written as games end so a
//! killed run can be resumed: [`Journal`].
//!
//! Key invariants: a line is written with a single `write_all` of the record and its newline,
//! then flushed, so after a kill the file holds complete records plus at most one partial last
//! line, which [`Journal::open`] drops; [`Journal::check`] refuses records that do not belong to
//! the schedule being resumed (other engines, colours or openings), so a resumed run never mixes
//! two different matches.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::arena::record::GameRecord;
use crate::arena::runner::Schedule;

/// An open results file, appending one JSON line per game.
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Opens (or creates) `path` and returns the records already in it. A last line without its
    /// newline (a write cut off by a kill) is dropped from the file; any other line that is not a
    /// record is an error naming its line number.
    pub fn open(path: &Path) -> Result<(Journal, Vec<GameRecord>), String> {
        let shown = path.display();
        let mut text = String::new();
        if path.exists() {
            File::open(path)
                .and_then(|mut f| f.read_to_string(&mut text))
                .map_err(|e| format!("cannot read results file {shown}: {e}"))?;
        }
        let complete = text.rfind('\n').map_or(0, |end| end + 1);
        let mut records = Vec::new();
        for (number, line) in text[..complete].lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let record = GameRecord::from_json_line(line)
                .map_err(|e| format!("{shown} line {}: {e}", number + 1))?;
            records.push(record);
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open results file {shown}: {e}"))?;
        if complete < text.len() {
            file.set_len(complete as u64)
                .map_err(|e| format!("cannot drop the partial last line of {shown}: {e}"))?;
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
    pub fn check(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::record::{GameResult, SideStats, Termination};

    fn record(id: usize, engines: [usize; 2]) -> GameRecord {
        let names = ["a".to_string(), "b".to_string()];
        GameRecord {
            id,
            opening: id / 2,
            opening_position: Some(format!("pos{}", id / 2)),
            engines,
            names: engines.map(|e| names[e].clone()),
            result: GameResult::Draw,
            termination: Termination::Rules,
            plies: 3,
            moves: vec!["x".into()],
            stats: [SideStats::default(); 2],
        }
    }

    fn temp(name: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("plies-journal-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    #[test]
    fn appended_records_come_back_and_a_cut_line_is_dropped() {
        let path = temp("cut");
        let (mut journal, old) = Journal::open(&path).unwrap();
        assert!(old.is_empty());
        journal.append(&record(0, [0, 1])).unwrap();
        journal.append(&record(1, [1, 0])).unwrap();
        drop(journal);
        // A kill in the middle of the third line.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"{\"id\":2,\"open").unwrap();
        drop(file);
        let (mut journal, old) = Journal::open(&path).unwrap();
        assert_eq!(old, vec![record(0, [0, 1]), record(1, [1, 0])]);
        journal.append(&record(2, [0, 1])).unwrap();
        drop(journal);
        let (_, all) = Journal::open(&path).unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[2], record(2, [0, 1]));
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_broken_middle_line_is_an_error_naming_it() {
        let path = temp("bad");
        std::fs::write(&path, "not json\n{}\n").unwrap();
        let err = Journal::open(&path).err().unwrap();
        assert!(err.contains("line 1"), "{err}");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn records_of_another_schedule_are_refused() {
        let schedule = Schedule::head_to_head(2);
        let names = ["a".to_string(), "b".to_string()];
        let openings = ["pos0".to_string(), "pos1".to_string()];
        let good = [record(0, [0, 1]), record(3, [1, 0])];
        assert!(Journal::check(&good, &schedule, &names, Some(&openings)).is_ok());
        let swapped = [record(0, [1, 0])];
        assert!(Journal::check(&swapped, &schedule, &names, None).is_err());
        let twice = [record(1, [1, 0]), record(1, [1, 0])];
        assert!(
            Journal::check(&twice, &schedule, &names, None)
                .unwrap_err()
                .contains("twice")
        );
        let beyond = [record(4, [0, 1])];
        assert!(Journal::check(&beyond, &schedule, &names, None).is_err());
        let renamed = ["a".to_string(), "c".to_string()];
        assert!(Journal::check(&good, &schedule, &renamed, None).is_err());
        let moved = ["pos0".to_string(), "other".to_string()];
        let err = Journal::check(&good, &schedule, &names, Some(&moved)).unwrap_err();
        assert!(err.contains("game 3"), "{err}");
    }
}
