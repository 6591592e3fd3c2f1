//! Every OTEP line the engine receives and sends is a `tracing` debug event: a minimal
//! subscriber written here records the events of one engine session and the test compares
//! them with the session's input and output.
//!
//! Key invariant: the expected lines are the test's own input and the engine's actual output
//! (read from its output buffer), never the event list itself.

use std::io::Cursor;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use plies_tafl_otep::engine::run_engine;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// One recorded event: its message and its `line` field.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Seen {
    message: String,
    line: String,
}

impl Visit for Seen {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "message" => self.message = value.to_string(),
            "line" => self.line = value.to_string(),
            _ => {}
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        match field.name() {
            "message" => self.message = format!("{value:?}"),
            "line" => self.line = format!("{value:?}"),
            _ => {}
        }
    }
}

/// Records every event at debug level or above; spans are ignored.
struct Recorder {
    events: Arc<Mutex<Vec<Seen>>>,
}

impl Subscriber for Recorder {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() <= tracing::Level::DEBUG
    }

    fn new_span(&self, _span: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _span: &Id, _values: &Record<'_>) {}

    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut seen = Seen::default();
        event.record(&mut seen);
        self.events.lock().unwrap().push(seen);
    }

    fn enter(&self, _span: &Id) {}

    fn exit(&self, _span: &Id) {}
}

#[test]
fn engine_traces_every_line_received_and_sent() {
    let events = Arc::new(Mutex::new(Vec::new()));
    let recorder = Recorder {
        events: Arc::clone(&events),
    };
    let input = "no-such-command 1 2\ngoodbye\n";
    let mut output = Vec::new();
    tracing::subscriber::with_default(recorder, || {
        run_engine(
            Cursor::new(input.as_bytes()),
            &mut output,
            Duration::from_millis(10),
        )
        .expect("the engine runs");
    });
    let output = String::from_utf8(output).expect("the engine writes UTF-8");
    let events = events.lock().unwrap().clone();
    let lines = |message: &str| -> Vec<String> {
        events
            .iter()
            .filter(|e| e.message == message)
            .map(|e| e.line.clone())
            .collect()
    };
    let received: Vec<String> = input.lines().map(str::to_string).collect();
    let sent: Vec<String> = output.lines().map(str::to_string).collect();
    assert_eq!(lines("otep received"), received);
    assert_eq!(lines("otep sent"), sent);
    assert!(sent.len() >= 2, "hello and an error reply: {sent:?}");
}
