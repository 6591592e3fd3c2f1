//! The events a command emits under a `tracing` subscriber: one debug event per completed
//! search iteration, one info event per arena game, nothing when logging is off.
//!
//! Key invariant: this file holds a single test, so no other thread of the process touches a
//! callsite while the scoped subscribers come and go. `tracing` caches per callsite whether
//! anyone listens; a callsite first reached on another thread while a subscriber is being
//! registered can keep a stale "nobody" answer, which made these checks fail at random when
//! they ran beside the other tests of the crate.

use std::io;
use std::sync::{Arc, Mutex};

use plies::testing::{PileDifference, TwoPiles};
use plies_cli::{GameCli, evaluator, run};
use tracing_subscriber::EnvFilter;

/// A writer into a shared buffer, so the test reads what the subscriber wrote.
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

/// What the toy game's command `args` logged under the filter `level`.
fn logged(level: &str, args: &[&str]) -> String {
    let buffer = Buffer::default();
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::new(level))
        .with_writer(buffer.clone())
        .with_ansi(false)
        .finish();
    let spec = GameCli::new("twopiles", evaluator(PileDifference));
    let argv = std::iter::once("twopiles".to_string()).chain(args.iter().map(|a| a.to_string()));
    tracing::subscriber::with_default(subscriber, || {
        let mut out = Vec::new();
        run::<TwoPiles>(&spec, argv, &mut io::empty(), &mut out)
            .unwrap_or_else(|e| panic!("{args:?} failed: {e}"));
    });
    String::from_utf8(buffer.0.lock().unwrap().clone()).unwrap()
}

#[test]
fn each_level_shows_its_events() {
    // debug: one line per completed iteration, in order.
    let text = logged("debug", &["analyze", "--depth", "3"]);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("iteration complete"))
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    for (depth, line) in (1..=3).zip(&lines) {
        assert!(line.contains(&format!("depth={depth}")), "{line}");
    }

    // info: arena games (two openings, both colours), no search iterations.
    let text = logged(
        "info",
        &[
            "arena",
            "-e",
            "pvs",
            "-e",
            "alphabeta",
            "--depth",
            "2",
            "--openings",
            "2",
            "--concurrency",
            "1",
        ],
    );
    assert!(!text.contains("iteration complete"), "{text}");
    let games = text.lines().filter(|l| l.contains("arena game finished"));
    assert_eq!(games.count(), 4, "{text}");

    // off: nothing at all.
    assert_eq!(logged("off", &["analyze", "--depth", "2"]), "");
}
