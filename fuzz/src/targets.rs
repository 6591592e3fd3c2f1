//! The fuzz targets: one function `fn(&[u8])` per parser of the bundled games, with the seed
//! corpus and dictionary its mutations start from.
//!
//! Parsers fuzzed: every game's position and move text ([`Notation`]: Onitama, tafl, Hus,
//! Yinsh and the Kalah tutorial game), tafl OTN rules strings and `.otg` game records, OTEP
//! lines fed to the engine (one line at a time, and as a whole stdin stream), Yinsh SGF
//! records, Hus game logs (moves from the start, one or more per line), evaluator weights files
//! ([`plies::weights`]), the generic command line of each game, run in process
//! ([`crate::cli_args`]), the web page's HTTP API ([`crate::http_api`]) and UGI host lines
//! fed to an engine ([`crate::ugi_engine`]).
//!
//! Key invariant: a target panics only when the code under test breaks a promise: it panicked
//! itself, or what it accepted does not read back (a formatted position or move that its own
//! parser refuses). Rejecting input is never a failure.

use std::io::Cursor;
use std::time::Duration;

use plies::{Game, Notation};

use plies_kalah::Kalah;

use crate::driver::Target;

/// Every target.
pub fn all() -> Vec<Target> {
    vec![
        Target {
            name: "onitama-notation",
            about: "Onitama position text, then a line of moves",
            seeds: || notation_seeds::<plies_onitama::Onitama>(&onitama_positions()),
            dictionary: &[
                "r", "b", "R", "B", "monkey", "crane", "tiger", "crab", "dragon", "ox", "boar",
                "eel", "cobra", "horse", "mantis", "frog", "rabbit", "goose", "rooster",
                "elephant", "5", "a1", "e5", "c3",
            ],
            run: notation_target::<plies_onitama::Onitama>,
        },
        Target {
            name: "tafl-notation",
            about: "tafl position text (variant name, rules string, record), then moves",
            seeds: || notation_seeds::<plies_tafl::Tafl>(&tafl_positions()),
            dictionary: TAFL_WORDS,
            run: notation_target::<plies_tafl::Tafl>,
        },
        Target {
            name: "tafl-rules",
            about: "OTN rules strings",
            seeds: || {
                plies_tafl::VARIANTS
                    .iter()
                    .map(|v| v.rules.as_bytes().to_vec())
                    .collect()
            },
            dictionary: TAFL_WORDS,
            run: tafl_rules,
        },
        Target {
            name: "tafl-otg",
            about: "OpenTafl .otg game records",
            seeds: otg_seeds,
            dictionary: TAFL_WORDS,
            run: tafl_otg,
        },
        Target {
            name: "otep-engine",
            about: "OTEP host lines fed to the engine (line by line and as a stdin stream)",
            seeds: otep_seeds,
            dictionary: OTEP_WORDS,
            run: otep_engine,
        },
        Target {
            name: "hus-notation",
            about: "Hus position text, then a line of moves",
            seeds: || notation_seeds::<plies_hus::Hus>(&[]),
            dictionary: &["0", "1", "31", "32", "2,2,2", ",,", "96"],
            run: notation_target::<plies_hus::Hus>,
        },
        Target {
            name: "hus-log",
            about: "Hus game logs: pit numbers from the start, any number per line",
            seeds: hus_log_seeds,
            dictionary: &["0", "1", "23", "31", "32", "-1", "\n"],
            run: hus_log,
        },
        Target {
            name: "yinsh-notation",
            about: "Yinsh position text, then a line of moves",
            seeds: || notation_seeds::<plies_yinsh::Yinsh>(&yinsh_positions()),
            dictionary: &[
                "w", "b", "W", "B", "move", "place", "remove", "normal", "blitz", "pass", "x",
                "xe3-e7", "e5", "k11", "a2", "0-0", "3-0",
            ],
            run: notation_target::<plies_yinsh::Yinsh>,
        },
        Target {
            name: "yinsh-sgf",
            about: "Yinsh SGF records (boardspace.net)",
            seeds: || {
                vec![
                    include_bytes!(
                        "../../games/yinsh/tests/data/boardspace/Y-BestBot-BOkpc-2026-03-13-1856.sgf"
                    )
                    .to_vec(),
                    include_bytes!(
                        "../../games/yinsh/tests/data/boardspace/Y-DrMih-Dumbot-2026-02-20-0858.sgf"
                    )
                    .to_vec(),
                ]
            },
            dictionary: &[
                "P0", "P1", "place", "drop", "pick", "move", "remove", "resign", "done", "wr",
                "br", "; ", "[", "]", "(", ")", "GM[24]", "A 1", "K 11",
            ],
            run: yinsh_sgf,
        },
        Target {
            name: "kalah-notation",
            about: "Kalah (tutorial game) position text, then a line of moves",
            seeds: || notation_seeds::<Kalah>(&["4,4,4|0 4,4,4|0 n"]),
            dictionary: &["s", "n", "|", "a", "f", "h", "0", "128", "4,4,4,4,4,4"],
            run: notation_target::<Kalah>,
        },
        Target {
            name: "weights-file",
            about: "evaluator weights files, read against the Onitama and the Hus evaluator",
            seeds: weights_seeds,
            dictionary: WEIGHTS_WORDS,
            run: weights_file,
        },
        crate::cli_args::target_for::<plies_onitama::Onitama>("onitama-cli"),
        crate::cli_args::target_for::<plies_tafl::Tafl>("tafl-cli"),
        crate::cli_args::target_for::<plies_hus::Hus>("hus-cli"),
        crate::cli_args::target_for::<plies_yinsh::Yinsh>("yinsh-cli"),
        crate::cli_args::target_for::<Kalah>("kalah-cli"),
        crate::http_api::target(),
        crate::ugi_engine::target(),
    ]
}

/// Words of the tafl notations.
pub const TAFL_WORDS: &[&str] = &[
    "dim:",
    "dim:7",
    "dim:9",
    "dim:11",
    "dim:13",
    "dim:19",
    "dim:0",
    "dim:255",
    "name:",
    "surf:y",
    "surf:n",
    "atkf:y",
    "atkf:n",
    "ks:w",
    "ks:s",
    "ks:a",
    "ka:y",
    "cenh:",
    "cenhe:",
    "cor:",
    "edge:y",
    "efor:y",
    "shield:y",
    "tfr:w",
    "tfr:d",
    "start:",
    "/",
    "/3t3/",
    "t",
    "T",
    "K",
    "k",
    "copenhagen",
    "brandub",
    "tablut",
    "a",
    "d",
    "x",
    "a1-a3",
    "[Rules \"\"]",
    "1.",
    "---",
];

/// Words of OTEP.
pub const OTEP_WORDS: &[&str] = &[
    "rules",
    "position",
    "side",
    "clock",
    "play",
    "move",
    "opponent-move",
    "error",
    "finish",
    "analyze",
    "goodbye",
    "hello",
    "start",
    "attackers",
    "defenders",
    "1000*",
    "-1",
    "\n",
];

/// Onitama positions: the start and the perft file's deals.
fn onitama_positions() -> Vec<&'static str> {
    let mut out = vec![plies_onitama::START_POSITION];
    for line in include_str!("../../games/onitama/tests/data/perft.txt").lines() {
        let line = line.trim();
        if !line.is_empty() && !line.starts_with('#') {
            out.push(line);
        }
    }
    out
}

/// Tafl positions: every variant by name and by rules string.
fn tafl_positions() -> Vec<&'static str> {
    let mut out = Vec::new();
    for v in plies_tafl::VARIANTS {
        out.push(v.name);
        out.push(v.rules);
    }
    out
}

/// Yinsh positions: the openings of the bot's bench.
fn yinsh_positions() -> Vec<&'static str> {
    vec![
        "..B./......./.....B../W..B...../W..B....../W...B..../W........./W......../......../......./.... w move 0-0 0 normal",
    ]
}

/// Seeds of a notation target: each position (and the start) with a line of legal moves from
/// it, played by a fixed pseudo-random walk.
fn notation_seeds<G: Notation>(positions: &[&str]) -> Vec<Vec<u8>> {
    let mut rng = crate::mutate::Rng::new(1);
    let mut starts: Vec<G> = vec![G::start_position()];
    starts.extend(positions.iter().filter_map(|p| G::parse_position(p).ok()));
    let mut seeds = Vec::new();
    for start in starts {
        let mut state = start.clone();
        let mut line = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..12 {
            moves.clear();
            state.generate_moves(&mut moves);
            if moves.is_empty() || state.outcome().is_some() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            line.push(state.format_move(mv));
            state = state.play(mv);
        }
        seeds.push(format!("{}\n{}", start.format_position(), line.join(" ")).into_bytes());
        seeds.push(state.format_position().into_bytes());
    }
    seeds
}

/// `<position>\n<moves>`: parses the position (the start position if it does not parse), plays
/// the moves, and checks that what was accepted reads back.
fn notation_target<G: Notation>(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (position, moves) = text.split_once('\n').unwrap_or((&text, ""));
    let base = match G::parse_position(position) {
        Ok(state) => {
            check_reads_back(&state);
            state
        }
        Err(e) => {
            let _ = e.to_string();
            G::start_position()
        }
    };
    for word in moves.split_whitespace().take(64) {
        if let Ok(mv) = base.parse_move(word) {
            let _ = base.play(mv);
        }
    }
    if let Ok(end) = base.play_line(moves) {
        check_reads_back(&end);
        let _ = end.display_board();
    }
}

/// A position's text parses back, and each legal move's text parses back to the move.
fn check_reads_back<G: Notation>(state: &G) {
    let text = state.format_position();
    let again = G::parse_position(&text)
        .unwrap_or_else(|e| panic!("formatted position '{text}' does not parse: {e}"));
    assert!(
        again.format_position() == text,
        "position '{text}' reads back as '{}'",
        again.format_position()
    );
    if state.outcome().is_some() {
        return;
    }
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    for &mv in moves.iter().take(400) {
        let word = state.format_move(mv);
        match state.parse_move(&word) {
            Ok(back) => assert!(back == mv, "move '{word}' reads back as another move"),
            Err(e) => panic!("legal move '{word}' of '{text}' does not parse: {e}"),
        }
    }
}

/// An OTN rules string: parsed, and if accepted written out and parsed again.
fn tafl_rules(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok((rules, board)) = plies_tafl::Rules::parse(&text) {
        let otn = rules.to_otn(&board);
        plies_tafl::Rules::parse(&otn)
            .unwrap_or_else(|e| panic!("written rules '{otn}' do not parse: {e}"));
    }
    let _ = plies_tafl::from_rules(&text);
}

/// Seeds of `.otg` records: games of the Copenhagen sample written as records.
fn otg_seeds() -> Vec<Vec<u8>> {
    let start = plies_tafl::start_of("copenhagen").expect("copenhagen is a variant");
    let mut seeds = Vec::new();
    for line in include_str!("../corpus/tafl-games.txt").lines().take(8) {
        let moves = line.split(',').next().unwrap_or("");
        let mut record = plies_tafl::GameRecord::new(start);
        for word in moves.split_whitespace() {
            if record.play_text(word).is_err() {
                break;
            }
        }
        seeds.push(
            record
                .to_otg(&[("Event", "fuzz seed"), ("Result", "?")])
                .into_bytes(),
        );
    }
    seeds
}

/// An `.otg` record: read, and if accepted written out and read again.
fn tafl_otg(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(record) = plies_tafl::GameRecord::from_otg(&text) {
        let otg = record.to_otg(&[]);
        plies_tafl::GameRecord::from_otg(&otg)
            .unwrap_or_else(|e| panic!("written record does not read back: {e}\n{otg}"));
    }
}

/// The host lines after `rules` of the stale-move case: our move is searched, an opponent move
/// changes the board, then the host's `move` confirms a move of the old position.
const STALE_MOVE: &str = "position /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\nplay defenders\n\
                          opponent-move d3-c3\nmove /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\n";

/// Seeds of the OTEP target: the transcript's host lines as sessions, with brandub rules.
pub fn otep_seeds() -> Vec<Vec<u8>> {
    let lines: Vec<&str> = include_str!("../corpus/otep-host-lines.txt")
        .lines()
        .collect();
    let brandub = plies_tafl::variant("brandub").expect("brandub").rules;
    let mut seeds = vec![
        format!("rules {brandub}\nplay attackers\nanalyze 1 0.01\ngoodbye\n").into_bytes(),
        format!("rules {brandub}\nposition /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\nside defenders\nplay defenders\n")
            .into_bytes(),
        // A stored move made stale by an opponent move before the host's `move` (it once
        // panicked in the hashing of the new position).
        format!("rules {brandub}\n{STALE_MOVE}").into_bytes(),
    ];
    for chunk in lines.chunks(5) {
        seeds.push(format!("{}\n", chunk.join("\n")).into_bytes());
    }
    seeds
}

/// The longest think of the fuzzed engine, per move or analysis.
const OTEP_THINK: Duration = Duration::from_millis(2);

/// OTEP lines, each handed to an engine (every reply must be one line), then the whole input
/// as the engine's stdin stream.
fn otep_engine(data: &[u8]) {
    use plies_tafl_otep::engine::{EngineOptions, OtepEngine, run_engine_with};
    let mut engine = OtepEngine::new(OTEP_THINK).with_think_cap(OTEP_THINK);
    for line in data.split(|&b| b == b'\n').take(48) {
        for reply in engine.handle_bytes(line) {
            assert!(
                !reply.contains('\n') && !reply.is_empty(),
                "reply {reply:?} is not one line"
            );
        }
        if engine.finished() {
            break;
        }
    }
    let options = EngineOptions {
        move_time: OTEP_THINK,
        max_time: Some(OTEP_THINK),
    };
    let head = &data[..data.len().min(2048)];
    let mut out = Vec::new();
    run_engine_with(Cursor::new(head), &mut out, options).expect("writing to memory");
    assert!(out.starts_with(b"hello\n"), "the engine did not say hello");
}

/// Seeds of Hus logs: the three seeded random games of the rules document, in part.
fn hus_log_seeds() -> Vec<Vec<u8>> {
    let start = plies_hus::Hus::start_position();
    (1..=3)
        .map(|seed| {
            let (moves, _) = plies_hus::random_game_moves(&start, seed, 40);
            let words: Vec<String> = moves.iter().map(|&m| start.format_move(m)).collect();
            words
                .chunks(2)
                .map(|pair| pair.join(" "))
                .collect::<Vec<_>>()
                .join("\n")
                .into_bytes()
        })
        .collect()
}

/// A Hus game log: moves from the start, whitespace- or line-separated; the game is replayed
/// until the first move that does not parse.
fn hus_log(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut state = plies_hus::Hus::start_position();
    for word in text.split_whitespace().take(2000) {
        match state.parse_move(word) {
            Ok(mv) => state = state.play(mv),
            Err(_) => break,
        }
    }
    check_reads_back(&state);
    let whole = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let _ = plies_hus::Hus::start_position().play_line(&whole);
}

/// Words of weights files: weight names of both evaluators, comments, separators, numbers at
/// the edges of `i32`.
const WEIGHTS_WORDS: &[&str] = &[
    "student",
    "student_a1",
    "student_c3",
    "student_e5",
    "master_a1",
    "master_c3",
    "master_e5",
    "seeds",
    "mobility",
    "threats",
    "#",
    "# ",
    " ",
    "\t",
    "\r\n",
    "\n",
    "2147483647",
    "-2147483648",
    "2147483648",
    "+7",
    "-0",
    "007",
];

/// The evaluators whose weight names the weights files are read against: names and defaults.
fn weight_sets() -> [(Vec<String>, Vec<i32>); 2] {
    use plies::Tunable;
    let onitama = plies_onitama::PstEvaluator::default();
    let hus = plies_hus::HusEvaluator::default();
    [
        (onitama.parameter_names(), onitama.parameters()),
        (hus.parameter_names(), hus.parameters()),
    ]
}

/// Seeds of weights files: each evaluator's defaults as `format_weights` writes them (with the
/// header a tuner writes, or none), and edited files: weights changed (to `±MAX_WEIGHT`
/// too), lines in another order, blank and comment lines between them, CRLF line ends, spaces
/// and tabs around the fields.
fn weights_seeds() -> Vec<Vec<u8>> {
    use plies::weights::format_weights;
    let header = "onitama evaluator weights, tuned by plies SPSA: iteration 200 of 200, 3200 \
                  games.\nproduced by: onitama tune init --dir tune-onitama --depth 3\n\
                  check at iteration 200 against the start: +35 Elo (±40), +12 =3 -9";
    let mut seeds = Vec::new();
    for (names, defaults) in weight_sets() {
        seeds.push(format_weights(&names, &defaults, header).into_bytes());
        seeds.push(format_weights(&names, &defaults, "").into_bytes());
        let mut edited = defaults.clone();
        edited[0] += 7;
        let last = edited.len() - 1;
        edited[last] = -edited[last] - 3;
        seeds.push(format_weights(&names, &edited, "edited by hand").into_bytes());
        let mut edges = defaults.clone();
        // The largest weights a file may hold (the dictionary's i32 edges go beyond them).
        edges[0] = plies::weights::MAX_WEIGHT;
        edges[last] = -plies::weights::MAX_WEIGHT;
        seeds.push(format_weights(&names, &edges, "").into_bytes());
        let text = format_weights(&names, &edited, "reordered");
        let mut lines: Vec<&str> = text.lines().collect();
        lines.reverse();
        let mut spaced = String::new();
        for (i, line) in lines.iter().enumerate() {
            let (name, value) = line.split_once(' ').unwrap_or((line, ""));
            spaced.push_str(&format!("  {name}\t {value} \r\n"));
            if i % 4 == 0 {
                spaced.push_str("\r\n# a note\r\n");
            }
        }
        seeds.push(spaced.into_bytes());
    }
    seeds
}

/// A weights file, read against the Onitama and the Hus evaluator's weight names: what is
/// accepted has one value per weight, and written again by `format_weights` (with the whole
/// input as its comment: a comment never changes what is read) reads back to the same values;
/// what is refused is refused with a one-line error.
fn weights_file(data: &[u8]) {
    use plies::weights::{format_weights, parse_weights};
    let text = String::from_utf8_lossy(data);
    for (names, _) in weight_sets() {
        match parse_weights(&text, &names) {
            Ok(values) => {
                assert_eq!(values.len(), names.len(), "one value per weight");
                for comment in ["", text.as_ref()] {
                    let written = format_weights(&names, &values, comment);
                    match parse_weights(&written, &names) {
                        Ok(back) => assert!(
                            back == values,
                            "weights read back as other values: {values:?} then {back:?}"
                        ),
                        Err(e) => panic!("written weights do not read back: {e}\n{written}"),
                    }
                }
            }
            Err(e) => {
                let e = e.to_string();
                assert!(
                    !e.is_empty() && !e.contains('\n') && !e.contains('\r'),
                    "error is not one line: {e:?}"
                );
            }
        }
    }
}

/// A Yinsh SGF record: read; if accepted, its final position reads back.
fn yinsh_sgf(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(game) = plies_yinsh::read_sgf(&text) {
        check_reads_back(&game.position);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every seed of every parser target runs clean (they are real inputs).
    #[test]
    fn seeds_run_clean() {
        for target in all() {
            if target.name.ends_with("-cli") {
                continue;
            }
            let seeds = (target.seeds)();
            assert!(!seeds.is_empty(), "{}", target.name);
            for seed in seeds {
                (target.run)(&seed);
            }
        }
    }

    /// Every weights file seed is a real file: one of the two evaluators accepts it.
    #[test]
    fn weights_seeds_are_accepted() {
        let sets = weight_sets();
        for seed in weights_seeds() {
            let text = String::from_utf8(seed).expect("UTF-8");
            assert!(
                sets.iter()
                    .any(|(names, _)| plies::weights::parse_weights(&text, names).is_ok()),
                "{text}"
            );
        }
    }
}
