//! Tests of books on the toy game: building one from a store of known games, reading and
//! refusing files, picking, and the book played by `play` and the arena.

use std::path::{Path, PathBuf};

use plies::testing::TwoPiles;
use plies::{Notation, Outcome, Side};

use super::*;
use crate::store::Store;
use crate::store::games::{GameRow, Recorded, record};
use crate::test_support::{last_json, run_invalid, run_ok};

/// A directory of its own for the test `name`, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("plies-book-unit-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Records a finished toy game from the start position.
fn recorded(store: &mut Store, moves: &str, result: Outcome) {
    let row = GameRow {
        game: "twopiles".into(),
        variant: "twopiles".into(),
        start: "7 5 1".into(),
        players: ["pvs".into(), "pvs".into()],
        settings: "depth 2 per move, cap 200 plies".into(),
        result,
        termination: "rules".into(),
        moves: moves.split_whitespace().map(str::to_string).collect(),
        source: "test".into(),
        played: 1_700_000_000_000,
    };
    let done = record::<TwoPiles>(store, &row).unwrap();
    assert!(matches!(done, Recorded::Stored(_)), "{done:?}");
}

/// The position text after `line` from the start.
fn after(line: &str) -> String {
    TwoPiles::start_position()
        .play_line(line)
        .unwrap()
        .format_position()
}

/// (move, games, wins, draws, losses, weight) of a book position.
fn rows(book: &Book, position: &str) -> Vec<(String, u64, u64, u64, u64, u64)> {
    book.moves(position)
        .unwrap_or_else(|| panic!("{position} is not in the book"))
        .iter()
        .map(|m| {
            (
                m.played.clone(),
                m.games,
                m.wins,
                m.draws,
                m.losses,
                m.weight,
            )
        })
        .collect()
}

fn row(
    m: &str,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
) -> (String, u64, u64, u64, u64, u64) {
    (m.to_string(), games, wins, draws, losses, 2 * wins + draws)
}

/// A book built from four known games holds every position at least --min-games of them went
/// on from (transpositions merged), with the moves' counts and results from the mover's view,
/// and no other; --max-plies cuts it; the file is what `Book::read` reads back.
#[test]
fn a_book_is_built_from_the_recorded_games() {
    let dir = TempDir::new("build");
    let store_path = dir.file("s.sqlite");
    let mut store = Store::open(Path::new(&store_path), 1 << 30).unwrap();
    // a1 b1 and b1 a1 transpose.
    recorded(&mut store, "a1 b1 a3", Outcome::Win(Side::First));
    recorded(&mut store, "b1 a1 b3", Outcome::Win(Side::Second));
    recorded(&mut store, "a1 b1 a3 b3", Outcome::Draw);
    recorded(&mut store, "a1 b2", Outcome::Win(Side::Second));
    drop(store);
    let out_path = dir.file("book.jsonl");
    let out = run_ok(&format!(
        "book build --min-games 2 --store {store_path} --out {out_path} --json"
    ));
    let summary = last_json(&out);
    assert_eq!(summary["games"], 4, "{out}");
    let book = Book::read::<TwoPiles>(Path::new(&out_path), "twopiles").unwrap();
    assert_eq!(
        rows(&book, "7 5 1"),
        [row("a1", 3, 1, 1, 1), row("b1", 1, 0, 0, 1)],
        "the start: the most played first"
    );
    // After a1 (3 games): b1 twice (the second player lost one, drew one), b2 once (won).
    assert_eq!(
        rows(&book, &after("a1")),
        [row("b1", 2, 0, 1, 1), row("b2", 1, 1, 0, 0)]
    );
    // After a1 b1 or b1 a1: the three games that reached it.
    assert_eq!(
        rows(&book, &after("b1 a1")),
        [row("a3", 2, 1, 1, 0), row("b3", 1, 0, 0, 1)]
    );
    // Reached by one game each: b1, a1 b2, and a1 b1 a3 (one game went on from it).
    assert!(book.moves(&after("b1")).is_none());
    assert!(book.moves(&after("a1 b2")).is_none());
    let deep = after("a1 b1 a3");
    assert_eq!(
        book.moves(&deep).map(|m| m.len()),
        None,
        "one game went on from {deep}"
    );
    assert_eq!(book.len(), 3, "{book:?}");
    assert_eq!(summary["positions"], 3, "{out}");
    assert_eq!(summary["moves"], 6, "{out}");
    // The header names the game and the settings.
    let text = std::fs::read_to_string(&out_path).unwrap();
    let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["plies_book"], 1);
    assert_eq!(header["game"], "twopiles");
    assert_eq!(header["min_games"], 2);
    // --max-plies 1: the start only; --min-games 4: the start only; 5: nothing.
    for (options, positions) in [
        ("--min-games 2 --max-plies 1", 1),
        ("--min-games 4", 1),
        ("--min-games 5", 0),
        ("--min-games 3", 3),
    ] {
        let out = run_ok(&format!(
            "book build {options} --store {store_path} --out {out_path} --json"
        ));
        assert_eq!(last_json(&out)["positions"], positions, "{options}: {out}");
        let book = Book::read::<TwoPiles>(Path::new(&out_path), "twopiles").unwrap();
        assert_eq!(book.len(), positions, "{options}");
    }
    // --min-move-games 2 leaves the moves of one game out.
    let out = run_ok(&format!(
        "book build --min-games 2 --min-move-games 2 --store {store_path} --out {out_path} --json"
    ));
    assert_eq!(last_json(&out)["moves"], 3, "{out}");
    // No book from a file that is not a store, and no book of an over position.
    std::fs::write(dir.file("junk"), [7u8; 4096]).unwrap();
    let err = run_invalid(&format!(
        "book build --min-games 1 --store {} --out {out_path}",
        dir.file("junk")
    ));
    assert!(err.contains("not an SQLite database"), "{err}");
    let err = run_invalid(&format!(
        "book build --min-games 1 --store {store_path} --out {out_path} --position \"0 0 1\""
    ));
    assert!(err.contains("over"), "{err}");
}

/// A book of one position with the moves `moves` (text, weight), games and wins made up.
fn book_text(position: &str, moves: &[(&str, u64)]) -> String {
    let mut text = String::from("{\"plies_book\":1,\"game\":\"twopiles\"}\n");
    for (played, weight) in moves {
        text.push_str(&format!(
            "{{\"position\":\"{position}\",\"move\":\"{played}\",\"games\":3,\"wins\":1,\
             \"draws\":1,\"losses\":1,\"weight\":{weight}}}\n"
        ));
    }
    text
}

/// Bad files are refused with one line naming the file's line; good ones read back the same.
#[test]
fn bad_book_files_are_refused_naming_the_line() {
    let path = Path::new("b.jsonl");
    let read = |text: &str| Book::parse::<TwoPiles>(text, path, "twopiles");
    let good = book_text("7 5 1", &[("a1", 3), ("b1", 0)]);
    let book = read(&good).unwrap();
    assert_eq!(book.move_count(), 2);
    assert_eq!(
        Book::parse::<TwoPiles>(&book.to_text(&serde_json::Map::new()), path, "twopiles").unwrap(),
        book
    );
    let entry = good.lines().nth(1).unwrap();
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "line 1: empty"),
        ("not json\n".into(), "line 1: not a book header"),
        ("{\"game\":\"twopiles\"}\n".into(), "no 'plies_book'"),
        (
            "{\"plies_book\":2,\"game\":\"twopiles\"}\n".into(),
            "book format 2 is not known",
        ),
        (
            "{\"plies_book\":1,\"game\":\"kalah\"}\n".into(),
            "is a book of kalah, not of twopiles",
        ),
        (format!("{good}{{\"position\":\n"), "line 4: not JSON"),
        (good.replace("\"a1\"", "\"z9\""), "line 2: move 'z9'"),
        (good.replace("7 5 1", "7 x 1"), "line 2: position '7 x 1'"),
        (good.replace("7 5 1", "0 0 1"), "is over"),
        (good.replace("\"wins\":1", "\"wins\":2"), "do not add up"),
        (
            good.replace("\"weight\":3", "\"weight\":-3"),
            "'weight' must be",
        ),
        (good.replace("\"games\":3,", ""), "line 2: no 'games'"),
        (format!("{good}{entry}\n"), "line 4: move 'a1' of position"),
        (
            good.replace("\"weight\":0", "\"weight\":0,\"colour\":1"),
            "line 3: unknown field 'colour'",
        ),
    ];
    for (text, expected) in cases {
        let err = read(&text).unwrap_err().to_string();
        assert!(err.contains(expected), "{text:?}: {err}");
        assert!(err.starts_with("book b.jsonl"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // Through the arena and play: one line, the engine named.
    let dir = TempDir::new("bad");
    let file = dir.file("bad.jsonl");
    std::fs::write(&file, good.replace("\"a1\"", "\"z9\"")).unwrap();
    let err = run_invalid(&format!(
        "arena -e pvs:book={file} -e pvs --depth 1 --openings 1"
    ));
    assert!(err.contains("--engine") && err.contains("line 2"), "{err}");
    let err = run_invalid(&format!("play --human none --depth 1 --book {file}"));
    assert!(err.contains("line 2"), "{err}");
    let err = run_invalid(&format!(
        "arena -e pvs:book={} -e pvs --depth 1 --openings 1",
        dir.file("missing")
    ));
    assert!(err.contains("missing"), "{err}");
    let err = run_invalid(&format!(
        "arena -e pvs:book={file}:book-pick=worst -e pvs --depth 1 --openings 1"
    ));
    assert!(err.contains("weighted or best"), "{err}");
}

/// Picks: a move of weight 0 never, the same seed the same move, every weighted move under some
/// seed and about as often as its weight says; `best` the greatest weight.
#[test]
fn picks_follow_the_weights_and_the_seed() {
    let book = Book::parse::<TwoPiles>(
        &book_text("7 5 1", &[("a1", 1), ("b1", 3), ("a2", 0)]),
        Path::new("b"),
        "twopiles",
    )
    .unwrap();
    let start = TwoPiles::start_position();
    let mut counts = HashMap::new();
    for seed in 0..4000 {
        let (mv, entry) = book.pick(&start, Pick::Weighted, seed).unwrap();
        assert_eq!(start.format_move(mv), entry.played);
        assert_eq!(book.pick(&start, Pick::Weighted, seed).unwrap().1, entry);
        *counts.entry(entry.played.clone()).or_insert(0u32) += 1;
    }
    assert_eq!(counts.get("a2"), None, "{counts:?}");
    let (a1, b1) = (counts["a1"], counts["b1"]);
    assert!(
        (800..1200).contains(&a1) && (2800..3200).contains(&b1),
        "{counts:?}"
    );
    assert_eq!(book.pick(&start, Pick::Best, 5).unwrap().1.played, "b1");
    // Out of book: another position, or one whose moves all weigh 0.
    assert!(
        book.pick(&start.play_line("a1").unwrap(), Pick::Weighted, 1)
            .is_none()
    );
    let zero = Book::parse::<TwoPiles>(
        &book_text("7 5 1", &[("a1", 0)]),
        Path::new("b"),
        "twopiles",
    )
    .unwrap();
    assert!(zero.pick(&start, Pick::Best, 1).is_none());
}

/// The first move of each game the engine `engine` played first, from a results file.
fn first_moves(results: &str, engine: u64) -> Vec<String> {
    std::fs::read_to_string(results)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|game| game["engines"][0] == engine)
        .map(|game| game["moves"][0].as_str().unwrap().to_string())
        .collect()
}

/// The arena's engine with `book=FILE` plays the book's move in the start position, whatever
/// move the book holds, and searches out of book; without it the same engine searches.
#[test]
fn the_arena_engine_plays_its_book_moves() {
    let dir = TempDir::new("arena");
    let mut seen = Vec::new();
    for played in ["a2", "b3"] {
        let file = dir.file(&format!("{played}.jsonl"));
        std::fs::write(&file, book_text("7 5 1", &[(played, 1)])).unwrap();
        let results = dir.file(&format!("{played}.results"));
        let out = run_ok(&format!(
            "arena -e pvs:book={file} -e pvs --depth 3 --opening-plies 0 --no-progress --json \
             --results {results}"
        ));
        assert_eq!(last_json(&out)["games"], 2, "{out}");
        assert_eq!(first_moves(&results, 0), [played], "{out}");
        // The engine without a book, first in the other game, searched its first move.
        seen.push(first_moves(&results, 1));
    }
    assert_eq!(seen[0], seen[1], "the engine without a book plays the same");
    // `book-pick=best` and a weighted book of two moves: the heavier with best.
    let file = dir.file("two.jsonl");
    std::fs::write(&file, book_text("7 5 1", &[("a2", 1), ("b3", 5)])).unwrap();
    let results = dir.file("two.results");
    run_ok(&format!(
        "arena -e pvs:book={file}:book-pick=best -e pvs --depth 2 --opening-plies 0 \
         --no-progress --results {results}"
    ));
    assert_eq!(first_moves(&results, 0), ["b3"]);
}

/// `play --book` plays the book's move, says so, and searches out of book.
#[test]
fn play_plays_book_moves() {
    let dir = TempDir::new("play");
    let file = dir.file("b.jsonl");
    std::fs::write(&file, book_text("7 5 1", &[("b3", 2)])).unwrap();
    let out = run_ok(&format!(
        "play --human none --depth 2 --book {file} --book-pick best"
    ));
    let engine: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("(engine) plays"))
        .collect();
    assert!(
        engine[0].contains("plays b3  [book: 3 games, +1 =1 -1, weight 2]"),
        "{out}"
    );
    assert!(engine[1].contains("[score"), "searched out of book: {out}");
}

/// Games recorded by the arena (`--store`) make a book whose start position holds every game
/// the arena played, move by move as the explorer counts them; the engine with that book then
/// plays one of the book's moves at the start.
#[test]
fn a_book_from_arena_games_counts_every_game() {
    let dir = TempDir::new("from-arena");
    let store = dir.file("s.sqlite");
    let mut played = 0;
    for seed in 1..=3 {
        let out = run_ok(&format!(
            "arena -e pvs -e random --depth 2 --opening-plies 0 --seed {seed} --no-progress \
             --json --store {store}"
        ));
        played += last_json(&out)["games"].as_u64().unwrap();
    }
    let file = dir.file("book.jsonl");
    let out = run_ok(&format!(
        "book build --min-games 1 --max-plies 2 --store {store} --out {file} --json"
    ));
    assert_eq!(last_json(&out)["games"].as_u64(), Some(played), "{out}");
    let book = Book::read::<TwoPiles>(Path::new(&file), "twopiles").unwrap();
    let start = book.moves("7 5 1").unwrap();
    assert_eq!(start.iter().map(|m| m.games).sum::<u64>(), played);
    let explored = last_json(&run_ok(&format!("explore --store {store} --json")));
    let counts: Vec<(String, u64)> = explored["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["games"].as_u64().unwrap(),
            )
        })
        .collect();
    let in_book: Vec<(String, u64)> = start.iter().map(|m| (m.played.clone(), m.games)).collect();
    assert_eq!(in_book, counts);
    let results = dir.file("results");
    run_ok(&format!(
        "arena -e pvs:book={file} -e pvs --depth 2 --opening-plies 0 --no-progress \
         --results {results}"
    ));
    let first = &first_moves(&results, 0)[0];
    assert!(
        start.iter().any(|m| &m.played == first && m.weight > 0),
        "{first} {start:?}"
    );
}
