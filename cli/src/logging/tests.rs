//! The subscriber `--log` installs: its filter parsing and the events a command emits.

use std::io;
use std::sync::{Arc, Mutex};

use super::{filter, subscriber};
use crate::test_support::run_ok;

/// A writer into a shared buffer, so a test reads what the subscriber wrote.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl io::Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'w> tracing_subscriber::fmt::MakeWriter<'w> for Buffer {
    type Writer = Buffer;
    fn make_writer(&'w self) -> Buffer {
        self.clone()
    }
}

/// What the toy game's command `args` logged at `level`.
fn logged(level: &str, args: &str) -> String {
    let buffer = Buffer::default();
    let filter = filter(Some(level)).unwrap().expect("a level was given");
    tracing::subscriber::with_default(subscriber(filter, buffer.clone()), || run_ok(args));
    String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap()
}

#[test]
fn debug_shows_each_search_iteration() {
    let text = logged("debug", "analyze --depth 3");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("iteration complete"))
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (depth, line) in (1..=3).zip(&lines) {
        assert!(line.contains(&format!("depth={depth}")), "{line}");
    }
}

#[test]
fn info_hides_search_iterations_but_shows_arena_games() {
    let text = logged(
        "info",
        "arena -e pvs -e alphabeta --depth 2 --openings 2 --concurrency 1",
    );
    assert!(!text.contains("iteration complete"), "{text}");
    let games = text.lines().filter(|l| l.contains("arena game finished"));
    assert_eq!(games.count(), 4, "{text}");
}

#[test]
fn off_writes_nothing() {
    assert_eq!(logged("off", "analyze --depth 2"), "");
}

#[test]
fn a_bad_level_is_a_one_line_error_naming_it() {
    for text in ["loud", "plies=loud", "loud="] {
        let err = filter(Some(text)).expect_err(text).to_string();
        assert!(err.contains("--log") && err.contains(text), "{err}");
        assert!(!err.contains('\n'), "{err}");
    }
    assert!(filter(Some("DEBUG")).unwrap().is_some());
    assert!(
        filter(Some("plies_cli=info,plies::search=debug"))
            .unwrap()
            .is_some()
    );
}
