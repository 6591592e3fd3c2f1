//! A load test of `serve` over loopback: 50 clients at once, each playing a whole Kalah game
//! against the engine through the HTTP API (its own game, its own moves, the engine at a few
//! milliseconds a move). Every game must finish with a result, no request may fail, and the
//! process's memory must stay bounded.
//!
//! Key invariant: the server is the real one (`serve --port 0` through `plies_cli::run`, on
//! its own thread, reached over a socket), so its runtime, blocking search threads and limits
//! are what is tested; the clients share one async runtime.

use std::io::Write;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use plies_cli::{GameCli, evaluator, run};
use plies_kalah::StoreDifference;
use serde_json::{Value, json};

/// Clients playing at once.
const CLIENTS: usize = 50;

/// Plies after which a game is a failure (Kalah(6,4) games last well under 100).
const MAX_PLIES: usize = 400;

/// Passes what the server prints (its URL line) to the test.
struct Lines(mpsc::Sender<String>);

impl Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let _ = self.0.send(String::from_utf8_lossy(bytes).into_owned());
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Starts the Kalah page on a free port; returns its base URL.
fn start_server() -> String {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let spec = GameCli::new("kalah", evaluator(StoreDifference::default()));
        let args = ["kalah", "serve", "--port", "0", "--max-games", "100"].map(String::from);
        let mut output = Lines(sender);
        let mut input = std::io::empty();
        if let Err(err) = run(&spec, args, &mut input, &mut output) {
            let _ = output.0.send(format!("server failed: {err}"));
        }
    });
    let mut printed = String::new();
    while !printed.contains('\n') {
        let more = receiver
            .recv_timeout(Duration::from_secs(30))
            .expect("the server prints its address");
        printed.push_str(&more);
    }
    let url = printed
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {printed:?}"));
    url.trim_end_matches('/').to_string()
}

/// The resident memory of this process, in KiB (Linux).
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// One client: a new game, then its own move (the first legal one) and the engine's in turn
/// until the game ends. Returns the outcome text and the plies played.
async fn play_one(
    client: reqwest::Client,
    base: String,
    client_no: usize,
) -> Result<(String, usize), String> {
    let post = |path: String, body: Value| {
        let client = client.clone();
        async move {
            let response = client
                .post(&path)
                .json(&body)
                .send()
                .await
                .map_err(|e| format!("{path}: {e}"))?;
            let status = response.status();
            let value: Value = response.json().await.map_err(|e| format!("{path}: {e}"))?;
            if !status.is_success() {
                return Err(format!("{path}: {status} {value}"));
            }
            Ok::<Value, String>(value)
        }
    };
    let mut game = post(format!("{base}/api/games"), json!({})).await?;
    let id = game["id"].as_str().ok_or("no id")?.to_string();
    // Half the clients let the engine open.
    let human = if client_no.is_multiple_of(2) {
        "first"
    } else {
        "second"
    };
    while game["outcome"].is_null() {
        let plies = game["moves"].as_array().map_or(0, Vec::len);
        if plies > MAX_PLIES {
            return Err(format!("game {id} not over after {plies} plies"));
        }
        game = if game["to_move"] == human {
            let mv = game["legal"][0]["move"]
                .as_str()
                .ok_or("no legal move")?
                .to_string();
            post(format!("{base}/api/games/{id}/move"), json!({"move": mv})).await?
        } else {
            post(
                format!("{base}/api/games/{id}/engine"),
                json!({"time_ms": 5}),
            )
            .await?
        };
    }
    let plies = game["moves"].as_array().map_or(0, Vec::len);
    Ok((
        game["outcome"].as_str().unwrap_or_default().to_string(),
        plies,
    ))
}

#[test]
fn fifty_clients_each_finish_a_game() {
    let base = start_server();
    let before = resident_kib();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let begun = Instant::now();
    let results = runtime.block_on(async {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(120))
            .build()
            .unwrap();
        let tasks: Vec<_> = (0..CLIENTS)
            .map(|n| tokio::spawn(play_one(client.clone(), base.clone(), n)))
            .collect();
        let mut results = Vec::new();
        for task in tasks {
            results.push(task.await.expect("a client task"));
        }
        results
    });
    let errors: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(
        errors.is_empty(),
        "{} clients failed: {errors:?}",
        errors.len()
    );
    for (outcome, plies) in results.iter().flatten() {
        assert!(
            outcome.ends_with("won") || outcome == "draw",
            "{outcome:?} after {plies} plies"
        );
    }
    // Fifty games and their searches (a 16 MB table each, allocated per search) must not pile
    // up: the process stays well under a gigabyte more than before.
    if let (Some(before), Some(after)) = (before, resident_kib()) {
        assert!(
            after < before + 1024 * 1024,
            "memory grew from {before} KiB to {after} KiB"
        );
    }
    // Bounded: the whole load ends long before the clients' own timeouts.
    assert!(
        begun.elapsed() < Duration::from_secs(300),
        "took {:?}",
        begun.elapsed()
    );
}
