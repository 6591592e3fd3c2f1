//! The position store on a real PostgreSQL server, started by this test binary
//! ([`plies_process_tests::postgres_server`]; one server, a database per test): analyses and
//! games round trip, the explorer's counts, a foreign or newer database refused, writers in
//! several processes at once, bad URLs and servers refused in one line. Where PostgreSQL is
//! not installed each test says so on stderr and passes.
//!
//! Key invariant: every command runs through `plies_cli::run` with string arguments, as from
//! a terminal, with `--store URL`; writer processes are this package's helper binary.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use plies_cli::run;
use plies_process_tests::postgres_server::{PASSWORD, PASSWORD_ROLE, Server};
use serde_json::Value;

/// The helper binary this package builds for its tests.
const CHILD: &str = env!("CARGO_BIN_EXE_plies-test-child");

/// Runs the Kalah command line with `args`; the output, or the error's line.
fn kalah_run(args: &[&str]) -> Result<String, String> {
    let argv = std::iter::once("kalah".to_string()).chain(args.iter().map(|a| a.to_string()));
    let mut out = Vec::new();
    run(
        &plies_process_tests::kalah(),
        argv,
        &mut std::io::empty(),
        &mut out,
    )
    .map_err(|e| e.to_string())?;
    Ok(String::from_utf8(out).expect("UTF-8 output"))
}

fn ok(args: &[&str]) -> String {
    kalah_run(args).unwrap_or_else(|e| panic!("{args:?} failed: {e}"))
}

/// Runs `args` and expects a one-line error; returns it.
fn refused(args: &[&str]) -> String {
    let err = kalah_run(args).expect_err("refused");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    err
}

fn last_json(out: &str) -> Value {
    serde_json::from_str(out.lines().last().expect("output")).expect("a JSON line")
}

/// The test server, or `None` (said on stderr) where PostgreSQL is not installed.
fn server(test: &str) -> Option<&'static Server> {
    match Server::shared() {
        Ok(server) => Some(server),
        Err(why) => {
            eprintln!("{test}: skipped: {why}");
            None
        }
    }
}

fn analyze(store: &str, n: usize, depth: u32) -> Value {
    let position = plies_process_tests::kalah_position(n);
    let depth = depth.to_string();
    last_json(&ok(&[
        "analyze",
        "--position",
        &position,
        "--depth",
        &depth,
        "--store",
        store,
        "--json",
    ]))
}

#[test]
fn analyses_round_trip_and_answer_from_the_store() {
    let Some(server) = server("analyses_round_trip_and_answer_from_the_store") else {
        return;
    };
    let url = server.database("round_trip");
    let first = analyze(&url, 1, 6);
    assert_eq!(first["source"], "search", "{first}");
    let again = analyze(&url, 1, 5);
    assert_eq!(again["source"], "store", "{again}");
    assert_eq!(again["depth"], 6, "{again}");
    assert_eq!(again["best"], first["best"], "{again}");
    for n in 2..6 {
        analyze(&url, n, 3);
    }
    // The Unix socket reaches the same database.
    let socket = server.socket_url("round_trip");
    let export = ok(&["store", "export", "--store", &socket]);
    assert_eq!(export.lines().count(), 5, "{export}");
    // Export, import into another database, export again: the same lines.
    let dir = std::env::temp_dir().join(format!("plies-pg-export-{}", std::process::id()));
    std::fs::write(&dir, &export).unwrap();
    let other = server.database("round_trip_copy");
    let out = ok(&["store", "import", dir.to_str().unwrap(), "--store", &other]);
    assert!(out.contains("5 written"), "{out}");
    assert_eq!(ok(&["store", "export", "--store", &other]), export);
    let _ = std::fs::remove_file(&dir);
    let stats = last_json(&ok(&[
        "store", "stats", "--check", "--json", "--store", &other,
    ]));
    assert_eq!(stats["analyses"], 5, "{stats}");
    assert_eq!(stats["positions"], 5, "{stats}");
    assert!(
        stats["check"].as_str().unwrap().starts_with("ok"),
        "{stats}"
    );
    assert!(stats["size"].as_u64().unwrap() > 0, "{stats}");
    // Prune to a size the empty tables exceed: every analysis goes, and it says so.
    let err = refused(&["store", "prune", "--max-size", "1K", "--store", &other]);
    assert!(err.contains("no analysis left"), "{err}");
    assert_eq!(ok(&["store", "export", "--store", &other]), "");
}

#[test]
fn arena_games_are_counted_by_the_explorer() {
    let Some(server) = server("arena_games_are_counted_by_the_explorer") else {
        return;
    };
    let url = server.database("arena");
    let out = ok(&[
        "arena",
        "-e",
        "pvs",
        "-e",
        "random",
        "--depth",
        "2",
        "--openings",
        "3",
        "--concurrency",
        "2",
        "--no-progress",
        "--json",
        "--store",
        &url,
    ]);
    let played = last_json(&out)["games"].as_u64().unwrap();
    assert!(played >= 6, "{out}");
    let stats = last_json(&ok(&["store", "stats", "--json", "--store", &url]));
    assert_eq!(stats["recorded_games"].as_u64(), Some(played), "{stats}");
    let games = ok(&["store", "export", "--games", "--store", &url]);
    assert_eq!(games.lines().count() as u64, played);
    // Each game's start position: the explorer counts the games that went on from it.
    let mut starts = std::collections::BTreeMap::<String, u64>::new();
    for line in games.lines() {
        let game: Value = serde_json::from_str(line).unwrap();
        *starts
            .entry(game["start"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    for (start, count) in starts {
        let out = ok(&["explore", "--position", &start, "--store", &url, "--json"]);
        let explored = last_json(&out);
        assert_eq!(explored["games"].as_u64(), Some(count), "{out}");
        for entry in explored["moves"].as_array().unwrap() {
            let results: u64 = ["wins", "draws", "losses"]
                .iter()
                .map(|key| entry[key].as_u64().unwrap())
                .sum();
            assert_eq!(results, entry["games"].as_u64().unwrap(), "{entry}");
        }
    }
}

#[test]
fn foreign_and_newer_databases_are_refused() {
    let Some(server) = server("foreign_and_newer_databases_are_refused") else {
        return;
    };
    let url = server.database("foreign");
    let mut client = server.client("foreign").unwrap();
    client
        .batch_execute("CREATE TABLE accounts (id int); INSERT INTO accounts VALUES (1)")
        .unwrap();
    let err = refused(&["store", "stats", "--store", &url]);
    assert!(
        err.contains("a PostgreSQL database of another application"),
        "{err}"
    );
    let tables: i64 = client
        .query_one(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(tables, 1, "nothing created beside the foreign table");

    let url = server.database("newer");
    ok(&["store", "stats", "--store", &url]);
    server
        .client("newer")
        .unwrap()
        .batch_execute("UPDATE plies_store SET value = '99' WHERE key = 'schema_version'")
        .unwrap();
    let err = refused(&["store", "stats", "--store", &url]);
    assert!(err.contains("schema version 99"), "{err}");
}

#[test]
fn concurrent_writers_leave_every_row() {
    let Some(server) = server("concurrent_writers_leave_every_row") else {
        return;
    };
    // A new database: the writers also race to create the schema.
    let url = server.database("writers");
    let writers: Vec<_> = (0..3)
        .map(|w| {
            Command::new(CHILD)
                .args(["store-writer", &url, &(w * 10).to_string(), "10"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("a writer")
        })
        .collect();
    for writer in writers {
        let out = writer.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let export = ok(&["store", "export", "--store", &url]);
    assert_eq!(export.lines().count(), 30, "{export}");
}

#[test]
fn bad_urls_and_servers_fail_in_one_line() {
    // No server needed: a URL that does not read, a port nobody listens on, a server that
    // never answers (a listening socket that accepts nothing).
    let err = refused(&[
        "store",
        "stats",
        "--store",
        "postgres://ann@host:notaport/db",
    ]);
    assert!(err.contains("not a PostgreSQL URL"), "{err}");
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let err = refused(&[
        "store",
        "stats",
        "--store",
        &format!("postgres://ann:pw@127.0.0.1:{port}/db"),
    ]);
    assert!(err.contains("cannot connect to store"), "{err}");
    assert!(!err.contains("pw"), "the password is not shown: {err}");
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let started = Instant::now();
    let err = refused(&[
        "store",
        "stats",
        "--store",
        &format!("postgres://ann@127.0.0.1:{port}/db?connect_timeout=1"),
    ]);
    assert!(started.elapsed() < Duration::from_secs(10), "{err}");
    assert!(err.contains("cannot connect to store"), "{err}");
    drop(silent);

    let Some(server) = server("bad_urls_and_servers_fail_in_one_line (wrong password)") else {
        return;
    };
    server.database("password");
    let err = refused(&[
        "store",
        "stats",
        "--store",
        &format!(
            "postgres://{PASSWORD_ROLE}:wrong@127.0.0.1:{}/password",
            server.port
        ),
    ]);
    assert!(err.contains("password authentication failed"), "{err}");
    assert!(!err.contains("wrong"), "the password is not shown: {err}");
    let err = refused(&["store", "stats", "--store", &server.url("no_such_database")]);
    assert!(err.contains("does not exist"), "{err}");
    // The right password gets in (the role may create tables in its own database).
    server
        .admin()
        .unwrap()
        .batch_execute(&format!("ALTER DATABASE password OWNER TO {PASSWORD_ROLE}"))
        .unwrap();
    let mut client = server.client("password").unwrap();
    client
        .batch_execute(&format!("GRANT ALL ON SCHEMA public TO {PASSWORD_ROLE}"))
        .unwrap();
    ok(&[
        "store",
        "stats",
        "--store",
        &format!(
            "postgres://{PASSWORD_ROLE}:{PASSWORD}@127.0.0.1:{}/password",
            server.port
        ),
    ]);
}
