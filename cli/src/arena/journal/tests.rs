use super::*;
use crate::arena::record::{GameResult, SideStats, Termination};
use std::fs::OpenOptions;

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
    let path = std::env::temp_dir().join(format!("plies-journal-{}-{name}", std::process::id()));
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
fn a_second_writer_is_refused_while_the_first_has_the_file_open() {
    let path = temp("locked");
    let (mut first, _) = Journal::open(&path).unwrap();
    first.append(&record(0, [0, 1])).unwrap();
    let err = Journal::open(&path).err().unwrap().to_string();
    assert_eq!(
        err,
        format!(
            "results file {} is locked by another process: one writer at a time",
            path.display()
        )
    );
    drop(first);
    let (_, all) = crate::test_support::when_free(|| Journal::open(&path));
    assert_eq!(all, vec![record(0, [0, 1])]);
    let _ = std::fs::remove_file(&path);
}

#[cfg(unix)]
#[test]
fn a_device_or_fifo_is_refused_as_a_results_file() {
    let err = Journal::open(Path::new("/dev/zero"))
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        err,
        "results file /dev/zero is not a regular file (a character device)"
    );
}

#[test]
fn a_broken_middle_line_is_an_error_naming_it() {
    let path = temp("bad");
    std::fs::write(&path, "not json\n{}\n").unwrap();
    let err = Journal::open(&path).err().unwrap().to_string();
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
            .to_string()
            .contains("twice")
    );
    let beyond = [record(4, [0, 1])];
    assert!(Journal::check(&beyond, &schedule, &names, None).is_err());
    let renamed = ["a".to_string(), "c".to_string()];
    assert!(Journal::check(&good, &schedule, &renamed, None).is_err());
    let moved = ["pos0".to_string(), "other".to_string()];
    let err = Journal::check(&good, &schedule, &names, Some(&moved))
        .unwrap_err()
        .to_string();
    assert!(err.contains("game 3"), "{err}");
}
