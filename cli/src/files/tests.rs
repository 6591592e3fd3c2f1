//! Unit tests of `files`: limits, non-regular inputs, locks and atomic writes.
//!
//! Key invariant: test code only; every path lies in a scratch directory of its own.

use super::*;
use crate::test_support::when_free;
use std::time::{Duration, Instant};

/// A fresh scratch directory for test `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plies-files-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Makes a FIFO at `path` (with the system's `mkfifo`).
#[cfg(unix)]
fn make_fifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

#[test]
fn a_regular_file_within_its_limit_is_read() {
    let dir = scratch("regular");
    let path = dir.join("a.txt");
    fs::write(&path, "hello\n").unwrap();
    assert_eq!(read_text(&path, 6).unwrap(), "hello\n");
    assert_eq!(read_text_if_exists(&dir.join("none"), 6).unwrap(), None);
    let err = read_text(&path, 5).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{} is larger than 5 bytes", path.display())
    );
    fs::write(&path, [0xff, 0xfe]).unwrap();
    assert!(
        read_text(&path, 6)
            .unwrap_err()
            .to_string()
            .ends_with("is not UTF-8 text")
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_at_once_and_never_opened() {
    let dir = scratch("fifo");
    let fifo = dir.join("pipe");
    make_fifo(&fifo);
    let started = Instant::now();
    let err = read_text(&fifo, WEIGHTS_LIMIT).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{} is not a regular file (a FIFO)", fifo.display())
    );
    let err = open_locked_append(&fifo, RESULTS_LIMIT).err().unwrap();
    assert!(err.to_string().contains("is not a regular file (a FIFO)"));
    assert!(started.elapsed() < Duration::from_secs(2));
    fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn devices_and_directories_are_refused() {
    let err = read_text(Path::new("/dev/zero"), WEIGHTS_LIMIT).unwrap_err();
    assert_eq!(
        err.to_string(),
        "/dev/zero is not a regular file (a character device)"
    );
    let err = open_locked_append(Path::new("/dev/null"), RESULTS_LIMIT)
        .err()
        .unwrap();
    assert!(err.to_string().contains("a character device"), "{err}");
    let dir = scratch("directory");
    let err = read_text(&dir, WEIGHTS_LIMIT).unwrap_err();
    assert!(err.to_string().ends_with("(a directory)"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_huge_file_is_refused_without_being_read() {
    let dir = scratch("huge");
    let path = dir.join("huge.txt");
    // Sparse: the size says 5 GB, nothing is written.
    File::create(&path).unwrap().set_len(5 << 30).unwrap();
    let err = read_text(&path, RESULTS_LIMIT).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{} is larger than 1024 MB", path.display())
    );
    let err = open_locked_append(&path, RESULTS_LIMIT).err().unwrap();
    assert!(err.to_string().contains("is larger than"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_appender_is_refused_while_the_first_holds_the_lock() {
    let dir = scratch("append-lock");
    let path = dir.join("results.jsonl");
    let mut first = open_locked_append(&path, RESULTS_LIMIT).unwrap();
    first.file.write_all(b"one\n").unwrap();
    let err = open_locked_append(&path, RESULTS_LIMIT).err().unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "{} is locked by another process: one writer at a time",
            path.display()
        )
    );
    drop(first);
    let second = when_free(|| open_locked_append(&path, RESULTS_LIMIT));
    assert_eq!(second.bytes, b"one\n");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_lock_names_its_holder() {
    let dir = scratch("dir-lock");
    let held = DirLock::take(&dir).unwrap();
    let err = DirLock::take(&dir).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{} is locked by another process (pid {}): one writer at a time",
            dir.display(),
            std::process::id()
        )
    );
    drop(held);
    when_free(|| DirLock::take(&dir));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_atomic_write_replaces_a_regular_file_and_leaves_no_temporary() {
    let dir = scratch("atomic");
    let path = dir.join("out.txt");
    write_atomic(&path, b"first\n").unwrap();
    write_atomic(&path, b"second\n").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "second\n");
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    let err = write_atomic(&dir, b"x").unwrap_err();
    assert!(err.to_string().ends_with("(a directory)"), "{err}");
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
    fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn an_atomic_write_through_a_link_writes_its_target_and_keeps_the_link() {
    let dir = scratch("link");
    let sub = dir.join("sub");
    fs::create_dir_all(&sub).unwrap();
    let target = sub.join("target.txt");
    fs::write(&target, "old\n").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink("sub/target.txt", &link).unwrap();
    write_atomic(&link, b"new\n").unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "new\n");
    assert_eq!(fs::read_dir(&sub).unwrap().count(), 1, "no temporary left");
    // A dangling link: its target is created.
    let dangling = dir.join("dangling.txt");
    std::os::unix::fs::symlink("sub/made.txt", &dangling).unwrap();
    write_atomic(&dangling, b"made\n").unwrap();
    assert_eq!(fs::read_to_string(sub.join("made.txt")).unwrap(), "made\n");
    assert!(
        fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn an_atomic_write_to_a_device_or_fifo_writes_it_directly() {
    use std::os::unix::fs::FileTypeExt;
    write_atomic(Path::new("/dev/null"), b"gone\n").unwrap();
    assert!(
        fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    // A full device: the write fails and the node stays a device.
    if Path::new("/dev/full").exists() {
        let err = write_atomic(Path::new("/dev/full"), b"x").unwrap_err();
        assert!(
            err.to_string().starts_with("cannot write /dev/full"),
            "{err}"
        );
        assert!(
            fs::metadata("/dev/full")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
    let dir = scratch("fifo-write");
    let fifo = dir.join("pipe");
    make_fifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    write_atomic(&fifo, b"through\n").unwrap();
    assert_eq!(reader.join().unwrap(), "through\n");
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "no temporary left");
    fs::remove_dir_all(&dir).unwrap();
}
