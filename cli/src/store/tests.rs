//! Unit tests of the store: the file checks, the schema, the keep rule, the records; and
//! `analyze` and `store` on the toy game, each with a store file of its own.

use std::path::{Path, PathBuf};

use plies::Score;
use plies::testing::TwoPiles;

use super::db::{APPLICATION_ID, MIGRATIONS, Put, schema_version};
use super::record::{Analysis, AnalysisLine, Bound};
use super::*;
use crate::test_support::{last_json, run_invalid, run_ok};

/// A directory of its own for the test `name`, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("plies-store-unit-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An analysis of the toy game's position `position` at `depth`, written at `written`.
fn analysis(position: &str, depth: u32, written: i64) -> Analysis {
    Analysis {
        game: "twopiles".into(),
        variant: "twopiles".into(),
        position: position.into(),
        family: "pvs".into(),
        depth,
        score: Score::cp(i32::try_from(depth).unwrap()),
        bound: Bound::Exact,
        best: "a1".into(),
        pv: "a1".into(),
        nodes: 100,
        engine: "twopiles".into(),
        version: "0.1.0".into(),
        searcher: "pvs".into(),
        written,
    }
}

fn open(path: &Path) -> Store {
    Store::open(path, 1 << 30).unwrap()
}

#[test]
fn locations_read_off_paths_and_postgres_urls() {
    assert_eq!("off".parse(), Ok(StoreLocation::Off));
    assert_eq!("OFF".parse(), Ok(StoreLocation::Off));
    assert_eq!(
        "a/b.sqlite".parse(),
        Ok(StoreLocation::File(PathBuf::from("a/b.sqlite")))
    );
    assert_eq!(
        "postgres://ann@host/db".parse(),
        Ok(StoreLocation::Postgres("postgres://ann@host/db".into()))
    );
    assert_eq!(
        "PostgreSQL://host/db".parse(),
        Ok(StoreLocation::Postgres("PostgreSQL://host/db".into()))
    );
    let err = "mysql://ann:pw@host/db"
        .parse::<StoreLocation>()
        .unwrap_err();
    assert!(err.to_string().contains("postgres://"), "{err}");
    assert!(!err.to_string().contains("pw"), "{err}");
}

#[test]
fn times_are_written_as_utc_dates() {
    assert_eq!(utc_text(0), "1970-01-01 00:00:00 UTC");
    assert_eq!(utc_text(951_782_400_000), "2000-02-29 00:00:00 UTC");
    assert_eq!(utc_text(1_795_817_395_968), "2026-11-27 22:09:55 UTC");
    assert_eq!(utc_text(-1000), "1969-12-31 23:59:59 UTC");
}

/// A new file gets the whole schema, the plies application id and WAL mode.
#[test]
fn a_new_store_is_created_and_marked() {
    let dir = TempDir::new("new");
    let path = dir.file("s.sqlite");
    drop(open(&path));
    let connection = rusqlite::Connection::open(&path).unwrap();
    let id: i32 = connection
        .pragma_query_value(None, "application_id", |r| r.get(0))
        .unwrap();
    let version: i64 = connection
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    let mode: String = connection
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(id, APPLICATION_ID);
    assert_eq!(version, MIGRATIONS.len() as i64);
    assert_eq!(version, schema_version());
    assert_eq!(mode, "wal");
    // Opened again: nothing to migrate, the same store.
    drop(open(&path));
    // An empty file is a new store too.
    let empty = dir.file("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    drop(open(&empty));
}

/// Not SQLite, another application's database (by its id or by its tables), a newer schema, a
/// directory: each refused with its own one-line error, and the foreign file left as it was.
#[test]
fn files_that_are_not_plies_stores_are_refused() {
    let dir = TempDir::new("refused");
    let text = dir.file("notes.txt");
    std::fs::write(&text, "hello, not a database at all, but long enough").unwrap();
    let err = Store::open(&text, 1 << 30).err().unwrap();
    assert!(matches!(err, StoreError::NotSqlite { .. }), "{err}");
    assert!(err.to_string().contains("not an SQLite database"), "{err}");

    let foreign = dir.file("foreign.sqlite");
    rusqlite::Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    let before = std::fs::read(&foreign).unwrap();
    let err = Store::open(&foreign, 1 << 30).err().unwrap();
    assert!(matches!(err, StoreError::Foreign { .. }), "{err}");
    assert!(err.to_string().contains("another application"), "{err}");
    assert_eq!(std::fs::read(&foreign).unwrap(), before, "left untouched");

    let other_id = dir.file("other-id.sqlite");
    let connection = rusqlite::Connection::open(&other_id).unwrap();
    connection
        .pragma_update(None, "application_id", 42)
        .unwrap();
    drop(connection);
    let err = Store::open(&other_id, 1 << 30).err().unwrap();
    assert!(matches!(err, StoreError::Foreign { .. }), "{err}");

    let newer = dir.file("newer.sqlite");
    drop(open(&newer));
    rusqlite::Connection::open(&newer)
        .unwrap()
        .pragma_update(None, "user_version", schema_version() + 1)
        .unwrap();
    let err = Store::open(&newer, 1 << 30).err().unwrap();
    assert!(matches!(err, StoreError::Newer { .. }), "{err}");

    let err = Store::open(&dir.0, 1 << 30).err().unwrap();
    assert!(matches!(err, StoreError::NotAFile { .. }), "{err}");
    for err in [err, StoreError::Off, StoreError::NoDataDirectory] {
        assert_eq!(err.to_string().lines().count(), 1, "{err}");
    }
}

/// The deepest analysis of a key is kept; as deep, the newer one replaces the older.
#[test]
fn the_deepest_then_newest_analysis_is_kept() {
    let dir = TempDir::new("keep");
    let mut store = open(&dir.file("s.sqlite"));
    let get = |store: &Store| {
        store
            .get("twopiles", "twopiles", "7 5 1", "pvs")
            .unwrap()
            .unwrap()
    };
    assert_eq!(store.put(&analysis("7 5 1", 5, 10)).unwrap(), Put::Written);
    assert_eq!(store.put(&analysis("7 5 1", 4, 20)).unwrap(), Put::Kept);
    assert_eq!(get(&store).depth, 5);
    assert_eq!(store.put(&analysis("7 5 1", 5, 5)).unwrap(), Put::Kept);
    assert_eq!(get(&store).written, 10);
    assert_eq!(store.put(&analysis("7 5 1", 5, 30)).unwrap(), Put::Written);
    assert_eq!(get(&store).written, 30);
    assert_eq!(store.put(&analysis("7 5 1", 9, 1)).unwrap(), Put::Written);
    assert_eq!(get(&store).depth, 9);
    // Another family of the same position is a row of its own.
    let mut other = analysis("7 5 1", 2, 1);
    other.family = "alphabeta".into();
    assert_eq!(store.put(&other).unwrap(), Put::Written);
    assert_eq!(store.all("twopiles").unwrap().len(), 2);
    assert_eq!(get(&store).depth, 9);
}

/// At the size limit a write is skipped and said to be.
#[test]
fn writes_stop_at_the_size_limit() {
    let dir = TempDir::new("limit");
    let path = dir.file("s.sqlite");
    drop(open(&path));
    let mut store = Store::open(&path, 1024).unwrap();
    assert!(matches!(
        store.put(&analysis("7 5 1", 5, 1)).unwrap(),
        Put::OverLimit { .. }
    ));
    assert!(store.all("twopiles").unwrap().is_empty());
}

/// A line is checked against the game: each wrong field is named.
#[test]
fn import_lines_are_checked() {
    let good = AnalysisLine::from(&analysis("7 5 1", 3, 1));
    assert_eq!(
        good.clone().check::<TwoPiles>("twopiles").unwrap(),
        analysis("7 5 1", 3, 1)
    );
    let bad = |change: fn(&mut AnalysisLine)| {
        let mut line = good.clone();
        change(&mut line);
        line.check::<TwoPiles>("twopiles").unwrap_err()
    };
    assert!(bad(|l| l.game = "onitama".into()).contains("onitama"));
    assert!(bad(|l| l.position = "7 x 1".into()).contains("position"));
    assert!(bad(|l| l.position = "0 0 1".into()).contains("over"));
    assert!(bad(|l| l.depth = 0).contains("depth 0"));
    assert!(bad(|l| l.best = "c9".into()).contains("best"));
    assert!(bad(|l| l.pv = "a1 c9".into()).contains("pv"));
    assert!(bad(|l| l.pv = "b1".into()).contains("first move"));
    assert!(bad(|l| l.bound = "maybe".into()).contains("bound"));
    assert!(bad(|l| l.engine = " ".into()).contains("engine"));
    assert!(bad(|l| l.score = [("mate".to_string(), 3)].into()).contains("mate"));
    assert!(bad(|l| l.score = [("cp".to_string(), 1 << 40)].into()).contains("range"));
    assert!(bad(|l| l.score = Default::default()).contains("expected one of"));
}

/// `analyze` writes its answer, and a second one at that depth or less answers from the
/// store without searching; `--no-store-read` and a deeper `--depth` search again.
#[test]
fn analyze_answers_from_the_store() {
    let dir = TempDir::new("analyze");
    let store = dir.file("s.sqlite");
    let store = store.to_str().unwrap();
    let analyze_at = |position: &str, extra: &str| {
        let out = run_ok(&format!(
            "analyze --position \"{position}\" --store {store} --json {extra}"
        ));
        (last_json(&out), out)
    };
    let analyze = |extra: &str| analyze_at("7 5 1", extra);
    let (first, _) = analyze("--depth 4");
    assert_eq!(first["source"], "search");
    let (second, out) = analyze("--depth 4");
    assert_eq!(second["source"], "store", "{out}");
    assert!(out.contains("from the store: depth 4"), "{out}");
    for key in ["depth", "score", "best", "pv", "nodes"] {
        assert_eq!(first[key], second[key], "{key}: {out}");
    }
    assert_eq!(analyze("--depth 3").0["source"], "store");
    assert_eq!(analyze("--depth 4 --no-store-read").0["source"], "search");
    assert_eq!(analyze("--depth 5").0["source"], "search");
    assert_eq!(analyze("--depth 5").0["depth"], 5);
    // One line per family: alphabeta searches for itself.
    assert_eq!(
        analyze("--depth 4 --searcher alphabeta").0["source"],
        "search"
    );
    assert_eq!(
        analyze("--depth 4 --searcher alphabeta").0["source"],
        "store"
    );
    // Several lines are not stored; a search stopped before depth 1 stores nothing.
    assert_eq!(analyze("--depth 2 --multipv 2").0["source"], "search");
    let (_, out) = analyze_at("7 7 1", "--depth 30 --nodes 5");
    assert!(out.contains("depth 0"), "{out}");
    let (again, _) = analyze_at("7 7 1", "--depth 1");
    assert_eq!(again["source"], "search");
    // Without --store (and in tests, never the user's), nothing is stored.
    let out = run_ok("analyze --position \"7 5 1\" --depth 4 --json");
    assert_eq!(last_json(&out)["source"], "search");
    let out = run_ok(&format!("store stats --store {store} --json"));
    assert_eq!(last_json(&out)["analyses"], 3, "{out}");
}

/// A proven result answers any depth: deepening would stop there.
#[test]
fn a_proven_result_answers_any_depth() {
    let dir = TempDir::new("proven");
    let store = dir.file("s.sqlite");
    let store = store.to_str().unwrap();
    let out = run_ok(&format!(
        "analyze --position \"0 2 2\" --depth 6 --store {store} --json"
    ));
    assert_eq!(last_json(&out)["score"]["win_in"], 1, "{out}");
    let out = run_ok(&format!(
        "analyze --position \"0 2 2\" --depth 40 --store {store} --json"
    ));
    assert_eq!(last_json(&out)["source"], "store", "{out}");
}

/// Store commands refuse `--store off`, a foreign file, and a bad import line by number.
#[test]
fn store_commands_refuse_what_they_cannot_use() {
    let err = run_invalid("store stats --store off");
    assert!(err.contains("off"), "{err}");
    let dir = TempDir::new("commands");
    let junk = dir.file("junk");
    std::fs::write(&junk, [7u8; 4096]).unwrap();
    let err = run_invalid(&format!(
        "analyze --depth 2 --store {}",
        junk.to_str().unwrap()
    ));
    assert!(err.contains("not an SQLite database"), "{err}");
    let lines = dir.file("lines.jsonl");
    let good = serde_json::to_string(&AnalysisLine::from(&analysis("7 5 1", 3, 1))).unwrap();
    std::fs::write(&lines, format!("{good}\n\n{{\"game\": 1}}\n")).unwrap();
    let store = dir.file("s.sqlite");
    let err = run_invalid(&format!(
        "store import {} --store {}",
        lines.to_str().unwrap(),
        store.to_str().unwrap()
    ));
    assert!(err.contains("line 3"), "{err}");
    let out = run_ok(&format!(
        "store stats --store {} --json",
        store.to_str().unwrap()
    ));
    assert_eq!(last_json(&out)["all"], 0, "nothing imported: {out}");
}

/// A finished toy game from the start position: `moves`, won by `result`.
fn game_row(moves: &str, result: plies::Outcome) -> games::GameRow {
    games::GameRow {
        game: "twopiles".into(),
        variant: "twopiles".into(),
        start: "7 5 1".into(),
        players: ["pvs".into(), "random".into()],
        settings: "depth 2 per move, cap 200 plies".into(),
        result,
        termination: "rules".into(),
        moves: moves.split_whitespace().map(str::to_string).collect(),
        source: "test".into(),
        played: 1_700_000_000_000,
    }
}

/// Records `row` in `store`, expecting it stored.
fn recorded(store: &mut Store, row: &games::GameRow) {
    let done = games::record::<TwoPiles>(store, row).unwrap();
    assert!(matches!(done, games::Recorded::Stored(_)), "{done:?}");
}

/// A store of schema version 1 (analyses only, as the first release wrote it) is migrated to
/// the current schema on opening: its analyses stay, and games can be recorded.
#[test]
fn a_version_1_store_is_migrated_and_keeps_its_analyses() {
    let dir = TempDir::new("migrate");
    let path = dir.file("old.sqlite");
    {
        let connection = rusqlite::Connection::open(&path).unwrap();
        connection.execute_batch(MIGRATIONS[0]).unwrap();
        connection.pragma_update(None, "user_version", 1).unwrap();
        connection
            .pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        connection
            .execute(
                "INSERT INTO analyses VALUES ('twopiles', 'twopiles', '7 5 1', 'pvs', 3, 'cp', \
                 7, 'exact', 'a1', 'a1 b1', 10, 'twopiles', '0.1.0', 'pvs', 5)",
                [],
            )
            .unwrap();
        let tables: i64 = connection
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name = 'games'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 0, "version 1 has no games table");
    }
    let mut store = open(&path);
    let version: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, schema_version());
    assert!(schema_version() >= 2);
    let kept = store.get("twopiles", "twopiles", "7 5 1", "pvs").unwrap();
    assert_eq!(
        kept.map(|a| (a.depth, a.pv)),
        Some((3, "a1 b1".to_string()))
    );
    recorded(&mut store, &game_row("a1 b1", plies::Outcome::Draw));
    assert_eq!(store.game_count("twopiles").unwrap(), 1);
    drop(store);
    // Opened again: nothing to migrate, the game still there.
    assert_eq!(open(&path).game_count("twopiles").unwrap(), 1);
}

/// The explorer counts each game once per position, from the mover's view, and merges
/// transpositions: two orders reaching one position show both games' moves there.
#[test]
fn the_explorer_counts_games_per_position_and_merges_transpositions() {
    use plies::{Notation, Outcome, Side};
    let dir = TempDir::new("explore");
    let mut store = open(&dir.file("s.sqlite"));
    // a1 then b1, and b1 then a1, reach "6 4 1"; then a3 and b3 are played there.
    recorded(&mut store, &game_row("a1 b1 a3", Outcome::Win(Side::First)));
    recorded(
        &mut store,
        &game_row("b1 a1 b3", Outcome::Win(Side::Second)),
    );
    recorded(&mut store, &game_row("a1 b1 a3 b3", Outcome::Draw));
    let start = TwoPiles::start_position();
    let counts = games::explore(&store, "twopiles", &start).unwrap();
    let total: u64 = counts.iter().map(|c| c.games).sum();
    assert_eq!(total, store.game_count("twopiles").unwrap());
    assert_eq!(counts[0].played, "a1", "the most played first: {counts:?}");
    assert_eq!(
        (
            counts[0].games,
            counts[0].wins,
            counts[0].draws,
            counts[0].losses
        ),
        (2, 1, 1, 0)
    );
    assert_eq!(
        (counts[1].played.as_str(), counts[1].wins, counts[1].losses),
        ("b1", 0, 1),
        "First played b1 and lost: {counts:?}"
    );
    let merged = start.play_line("a1 b1").unwrap();
    assert_eq!(
        merged.format_position(),
        start.play_line("b1 a1").unwrap().format_position()
    );
    let there = games::explore(&store, "twopiles", &merged).unwrap();
    let moves: Vec<(&str, u64)> = there.iter().map(|c| (c.played.as_str(), c.games)).collect();
    assert_eq!(moves, [("a3", 2), ("b3", 1)]);
    // A game whose moves do not replay is refused, and nothing of it written.
    let err = games::record::<TwoPiles>(&mut store, &game_row("a1 z9", Outcome::Draw))
        .unwrap_err()
        .to_string();
    assert!(err.contains("move 2 'z9'"), "{err}");
    assert_eq!(store.game_count("twopiles").unwrap(), 3);
}

/// Rows changed by hand to values plies does not write are refused with one line naming the
/// store as damaged, never shown.
#[test]
fn damaged_game_rows_are_refused() {
    use plies::{Notation, Outcome, Side};
    let dir = TempDir::new("damaged-games");
    let path = dir.file("s.sqlite");
    let mut store = open(&path);
    recorded(&mut store, &game_row("a1 b1", Outcome::Win(Side::First)));
    let start = TwoPiles::start_position();
    assert_eq!(games::explore(&store, "twopiles", &start).unwrap().len(), 1);
    let tamper = |sql: &str| {
        let connection = rusqlite::Connection::open(&path).unwrap();
        connection
            .execute_batch(&format!("PRAGMA ignore_check_constraints = ON; {sql}"))
            .unwrap();
    };
    let one_line_damaged = |err: StoreError| {
        let text = err.to_string();
        assert!(matches!(err, StoreError::Damaged { .. }), "{text}");
        assert!(text.contains("damaged") && !text.contains('\n'), "{text}");
    };
    // A move that is not a move of its position.
    tamper("UPDATE game_moves SET move = 'b9' WHERE ply = 0");
    one_line_damaged(games::explore(&store, "twopiles", &start).unwrap_err());
    tamper("UPDATE game_moves SET move = 'a1' WHERE ply = 0");
    assert!(games::explore(&store, "twopiles", &start).is_ok());
    // A result plies does not write.
    tamper("UPDATE game_moves SET mover_result = 'maybe' WHERE ply = 0");
    one_line_damaged(games::explore(&store, "twopiles", &start).unwrap_err());
    // A game's result, and a ply count that disagrees with its moves.
    assert_eq!(store.games("twopiles").unwrap().len(), 1);
    tamper("UPDATE games SET result = '2-0'");
    one_line_damaged(store.games("twopiles").unwrap_err());
    tamper("UPDATE games SET result = '1-0', plies = 5");
    one_line_damaged(store.games("twopiles").unwrap_err());
}

/// An arena match with `--store` records every game; the explorer's counts for the start
/// position equal the games recorded, each move's results sum to its count, and the counts
/// agree with the games `store export --games` writes.
#[test]
fn an_arena_records_its_games_for_the_explorer() {
    let dir = TempDir::new("arena");
    let store = dir.file("s.sqlite");
    let store = store.to_str().unwrap();
    // From the start position (no opening moves) there is one opening; three matches with
    // other seeds (the random engine's moves) into the same store.
    let mut played = 0;
    for seed in 1..=3 {
        let out = run_ok(&format!(
            "arena -e pvs -e random --depth 2 --opening-plies 0 --concurrency 2 --seed {seed} \
             --no-progress --json --store {store}"
        ));
        played += last_json(&out)["games"].as_u64().unwrap();
    }
    assert!(played >= 6, "{played}");
    let stats = last_json(&run_ok(&format!("store stats --store {store} --json")));
    assert_eq!(stats["recorded_games"].as_u64(), Some(played), "{stats}");
    let out = run_ok(&format!("explore --store {store} --json"));
    let explored = last_json(&out);
    assert_eq!(explored["position"], "7 5 1", "{out}");
    assert_eq!(explored["games"].as_u64(), Some(played), "{out}");
    let moves = explored["moves"].as_array().unwrap();
    let sum: u64 = moves.iter().map(|m| m["games"].as_u64().unwrap()).sum();
    assert_eq!(sum, played, "{out}");
    for entry in moves {
        let results: u64 = ["wins", "draws", "losses"]
            .iter()
            .map(|key| entry[key].as_u64().unwrap())
            .sum();
        assert_eq!(results, entry["games"].as_u64().unwrap(), "{entry}");
    }
    assert!(out.contains("recorded games went on from 7 5 1"), "{out}");
    // The same counts from the games themselves: each game's first move.
    let export = run_ok(&format!("store export --games --store {store}"));
    let mut firsts = std::collections::BTreeMap::<String, u64>::new();
    for line in export.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["start"], "7 5 1", "{line}");
        assert_eq!(game["source"], "arena", "{line}");
        let first = game["moves"][0].as_str().unwrap();
        *firsts.entry(first.to_string()).or_default() += 1;
    }
    assert_eq!(firsts.values().sum::<u64>(), played);
    for entry in moves {
        assert_eq!(
            firsts.get(entry["move"].as_str().unwrap()).copied(),
            entry["games"].as_u64(),
            "{out}"
        );
    }
    // A store the arena cannot use is refused before the first game, in one line.
    let junk = dir.file("junk");
    std::fs::write(&junk, [7u8; 4096]).unwrap();
    let err = run_invalid(&format!(
        "arena -e pvs -e random --depth 1 --openings 1 --store {}",
        junk.to_str().unwrap()
    ));
    assert!(err.contains("not an SQLite database"), "{err}");
    let err = run_invalid(&format!("explore --store {store} --moves z9"));
    assert!(err.contains("--moves"), "{err}");
}
