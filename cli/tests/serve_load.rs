//! Load and limit tests of `serve` over loopback: 50 clients at once, each playing a whole
//! Kalah game against the engine through the HTTP API (its own game, its own moves, the engine
//! at a few milliseconds a move), where every game must finish with a result, no request may
//! fail, and the process's memory must stay bounded; 200 analyses at once, each with the
//! largest table the memory budget allows, where the budget holds and `/api/info` answers
//! within a second throughout; and connections that send half a request, or nothing, or go
//! idle, which are closed once the read timeout is up.
//!
//! Key invariant: the server is the real one (`serve --port 0` through `plies_cli::run`, on
//! its own thread, reached over a socket), so its runtime, blocking search threads and limits
//! are what is tested; the clients share one async runtime; the tests run one at a time (the
//! process's memory is measured).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Mutex, MutexGuard, PoisonError, mpsc};
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

/// Held by each test: they run one at a time, so each measures its own memory.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn one_at_a_time() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts the Kalah page on a free port with `serve`'s `options` beside `--port 0`; returns
/// its base URL.
fn start_server(options: &[&str]) -> String {
    let (sender, receiver) = mpsc::channel();
    let mut args: Vec<String> = ["kalah", "serve", "--port", "0"].map(String::from).to_vec();
    args.extend(options.iter().map(|option| option.to_string()));
    std::thread::spawn(move || {
        let spec = GameCli::new("kalah", evaluator(StoreDifference::default()));
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
    let _alone = one_at_a_time();
    let base = start_server(&["--max-games", "100"]);
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
    // up: each finished search's table goes back to the system (`serve` has large blocks
    // mapped on their own; without that glibc kept them in its arenas, 1.0-1.4 GB here), so
    // after the load the process holds well under half a gigabyte more than before.
    if let (Some(before), Some(after)) = (before, resident_kib()) {
        assert!(
            after < before + 512 * 1024,
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

/// Analyses started at once.
const ANALYSES: usize = 200;

/// The memory budget of the analyses test, in MB, and the table each analysis asks for: the
/// largest that lets four run at once.
const BUDGET_MB: usize = 256;
const TABLE_MB: usize = 64;

/// `POST path` with a JSON body: the status and the answer.
async fn post_json(client: &reqwest::Client, url: String, body: Value) -> (u16, Value) {
    match client.post(&url).json(&body).send().await {
        Ok(response) => {
            let status = response.status().as_u16();
            let value = response.json().await.unwrap_or(Value::Null);
            (status, value)
        }
        Err(err) => (0, json!({"error": format!("{url}: {err}")})),
    }
}

#[test]
fn analyses_beyond_the_memory_budget_are_refused_and_the_server_answers() {
    let _alone = one_at_a_time();
    let budget = BUDGET_MB.to_string();
    let games = (ANALYSES + 10).to_string();
    let base = start_server(&["--max-memory", &budget, "--max-games", &games]);
    let before = resident_kib();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap();
        let mut ids = Vec::new();
        for _ in 0..ANALYSES {
            let (status, game) = post_json(&client, format!("{base}/api/games"), json!({})).await;
            assert_eq!(status, 201, "{game}");
            ids.push(game["id"].as_str().unwrap().to_string());
        }
        // Every analysis at once, each asking for the largest table that fits four times, and
        // each running until stopped below: one that ended by itself would give its memory
        // back while later requests are still coming in, and more than four would run.
        let searcher = format!("pvs:tt={TABLE_MB}");
        let tasks: Vec<_> = ids
            .iter()
            .map(|id| {
                let (client, url) = (client.clone(), format!("{base}/api/games/{id}/analyze"));
                let body = json!({"searcher": searcher, "time_ms": 600_000});
                tokio::spawn(async move { post_json(&client, url, body).await })
            })
            .collect();
        // Meanwhile the server answers, and the budget holds.
        let mut worst = Duration::ZERO;
        let watched = Instant::now();
        while watched.elapsed() < Duration::from_secs(3) {
            let asked = Instant::now();
            let info: Value = client
                .get(format!("{base}/api/info"))
                .send()
                .await
                .expect("/api/info answers")
                .json()
                .await
                .unwrap();
            worst = worst.max(asked.elapsed());
            let used = info["memory"]["used_mb"].as_u64().unwrap();
            assert!(used <= BUDGET_MB as u64, "{info}");
            assert_eq!(info["memory"]["limit_mb"], BUDGET_MB, "{info}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(worst < Duration::from_secs(2), "/api/info took {worst:?}");
        let mut accepted = 0;
        for task in tasks {
            let (status, answer) = task.await.unwrap();
            match status {
                202 => accepted += 1,
                503 => {
                    let reason = answer["error"].as_str().unwrap_or_default();
                    assert!(
                        reason.contains(&format!("--max-memory {BUDGET_MB} MB")),
                        "{reason}"
                    );
                }
                _ => panic!("{status}: {answer}"),
            }
        }
        assert!(
            (1..=BUDGET_MB / TABLE_MB).contains(&accepted),
            "{accepted} analyses ran at once"
        );
        // Stopped, they give the memory back.
        for id in &ids {
            let (status, _) =
                post_json(&client, format!("{base}/api/games/{id}/stop"), json!({})).await;
            assert_eq!(status, 200);
        }
        let begun = Instant::now();
        loop {
            let info: Value = client
                .get(format!("{base}/api/info"))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            if info["memory"]["used_mb"] == 0 {
                break;
            }
            assert!(begun.elapsed() < Duration::from_secs(10), "{info}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    if let (Some(before), Some(after)) = (before, resident_kib()) {
        let limit = before + (BUDGET_MB as u64 + 128) * 1024;
        assert!(
            after < limit,
            "memory grew from {before} KiB to {after} KiB"
        );
    }
}

/// Reads from `stream` until the server closes it; how long that took, or `None` if it was
/// still open after `patience`.
fn closed_within(mut stream: TcpStream, patience: Duration) -> Option<Duration> {
    let begun = Instant::now();
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut buffer = [0u8; 4096];
    while begun.elapsed() < patience {
        match stream.read(&mut buffer) {
            Ok(0) => return Some(begun.elapsed()),
            Ok(_) => {}
            Err(err)
                if matches!(
                    err.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return Some(begun.elapsed()), // reset: closed too
        }
    }
    None
}

#[test]
fn half_sent_and_idle_connections_are_closed_after_the_read_timeout() {
    let _alone = one_at_a_time();
    let base = start_server(&["--read-timeout-ms", "500"]);
    let address = base.trim_start_matches("http://").to_string();
    let patience = Duration::from_secs(5);
    // Half a request line.
    let mut half = TcpStream::connect(&address).unwrap();
    half.write_all(b"GET /api/in").unwrap();
    // The headers begun, never ended.
    let mut headers = TcpStream::connect(&address).unwrap();
    write!(
        headers,
        "GET /api/info HTTP/1.1\r\nHost: {address}\r\nAccept: */"
    )
    .unwrap();
    // Nothing at all.
    let silent = TcpStream::connect(&address).unwrap();
    // A whole request, answered, then the kept-alive connection left idle.
    let mut idle = TcpStream::connect(&address).unwrap();
    write!(idle, "GET /api/info HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
    // A body promised and half sent.
    let mut body = TcpStream::connect(&address).unwrap();
    write!(
        body,
        "POST /api/games HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{{\"posi"
    )
    .unwrap();
    for (what, stream) in [
        ("half a request line", half),
        ("unfinished headers", headers),
        ("nothing sent", silent),
        ("an idle kept-alive connection", idle),
        ("half a body", body),
    ] {
        let waited = closed_within(stream, patience)
            .unwrap_or_else(|| panic!("{what}: still open after {patience:?}"));
        assert!(
            waited < Duration::from_secs(3),
            "{what}: closed after {waited:?}"
        );
    }
    // A client that keeps sending in time is served.
    let mut slow = TcpStream::connect(&address).unwrap();
    for part in [
        "GET /api/info HTTP/1.1\r\n",
        &format!("Host: {address}\r\n"),
        "Connection: close\r\n\r\n",
    ] {
        // Three writes well inside the read timeout for the whole head, even on a slow host.
        std::thread::sleep(Duration::from_millis(20));
        slow.write_all(part.as_bytes()).unwrap();
    }
    let mut answer = String::new();
    slow.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // An event stream is a response, not an idle connection: it outlives the timeout and
    // carries the events of a search started later.
    let game = exchange(&address, "POST", "/api/games", "{}");
    let id = game
        .split("\"id\":\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no id in {game}"))
        .to_string();
    let mut events = TcpStream::connect(&address).unwrap();
    write!(
        events,
        "GET /api/games/{id}/events HTTP/1.1\r\nHost: {address}\r\n\r\n"
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let started = exchange(
        &address,
        "POST",
        &format!("/api/games/{id}/analyze"),
        r#"{"time_ms": 50}"#,
    );
    assert!(started.starts_with("HTTP/1.1 202"), "{started}");
    events
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut seen = String::new();
    let mut buffer = [0u8; 4096];
    while !seen.contains("event: done") {
        let read = events
            .read(&mut buffer)
            .expect("the event stream stays open");
        assert!(read > 0, "the event stream was closed: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..read]));
    }
}

/// One request on its own connection (`Connection: close`): the whole answer.
fn exchange(address: &str, method: &str, path: &str, body: &str) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}
