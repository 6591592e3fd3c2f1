//! The files the `tune` commands of generated command lines read and write: tuning run
//! directories holding a run's files (`tune.json`, `state.json`, games files, `journal.jsonl`,
//! `weights.txt`) as a run writes them, made here from the bot's weight names without running
//! anything, and mutants of them; positions files of the game's real positions and mutants;
//! openings files; output paths. (The flags and their values come from the grammar, see
//! [`super::grammar`].)
//!
//! Key invariants: a correct program finishes every generated `tune` command fast. `run`,
//! `play` and `merge` do the work their run directory's files set, whose work-setting numbers
//! (iterations, games, limits, plies) are drawn only from cheap or out-of-range values, also in
//! mutants (byte-level damage of those files only truncates or inserts a non-digit), and only
//! `status`, which plays nothing, reads freely mutated bytes. Every path lies in the
//! invocation's scratch directory and is one of its directories, files or outputs, so it is
//! removed after the run.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{BotSpec, Invocation, OddFile, odd_file, scratch_path};
use crate::mutate::{Rng, mutate, pick};

/// Words of the tuning files, for the free mutations of files that `status` reads.
const JSON_WORDS: &[&str] = &[
    "null",
    "true",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\"iteration\"",
    "\"theta\"",
    "\"games\"",
    "\"last_check\"",
    "\"names\"",
    "\"initial\"",
    "\"c_end\"",
    "1e999",
    "-1e308",
    "0.5",
];

/// The `--dir` of `tune init`: new, nested in a directory that does not exist, an empty
/// directory, one that holds a run already, or a file.
pub(super) fn init_dir(rng: &mut Rng, spec: &BotSpec, dir: &Path, inv: &mut Invocation) -> PathBuf {
    let path = scratch_path(dir, "tune");
    match rng.below(8) {
        0 => inv.dirs.push(path.clone()),
        1 => {
            inv.dirs.push(path.clone());
            run_files(rng, spec, &path, inv, false);
        }
        2 => inv
            .files
            .push((path.clone(), b"not a directory\n".to_vec())),
        3 => {
            inv.outputs.push(path.clone());
            return path.join("sub").join("run");
        }
        _ => inv.outputs.push(path.clone()),
    }
    path
}

/// The `--dir` of `run`, `play`, `merge` and `status`: a directory that does not exist, an
/// empty one, a file, or (mostly) a directory holding a run's files (freely mutated for
/// `status`, which plays nothing).
pub(super) fn run_dir(
    rng: &mut Rng,
    spec: &BotSpec,
    dir: &Path,
    inv: &mut Invocation,
    status: bool,
) -> PathBuf {
    let path = scratch_path(dir, "run");
    match rng.below(16) {
        0 => {}
        1 => inv.dirs.push(path.clone()),
        2 => inv
            .files
            .push((path.clone(), b"not a directory\n".to_vec())),
        _ => {
            inv.dirs.push(path.clone());
            run_files(rng, spec, &path, inv, status);
        }
    }
    path
}

/// A `--fixed` value of `tune init` and `tune texel`: a weight name, two of them, an unknown
/// name or an empty list.
pub(super) fn fixed(rng: &mut Rng, spec: &BotSpec) -> String {
    let names = spec
        .weights
        .as_ref()
        .map(|(n, _)| n.clone())
        .unwrap_or_default();
    match rng.below(5) {
        0 => "nosuch".to_string(),
        1 => String::new(),
        2 if names.len() >= 2 => format!("{},{}", names[0], names[names.len() - 1]),
        _ if !names.is_empty() => pick(rng, &names).clone(),
        _ => ",".to_string(),
    }
}

/// A path for a command to write: new (mostly), an existing file, an existing directory, or in
/// a directory that does not exist.
pub(super) fn output_path(rng: &mut Rng, dir: &Path, inv: &mut Invocation, what: &str) -> PathBuf {
    let path = scratch_path(dir, what);
    match rng.below(8) {
        0 => {
            inv.dirs.push(path.clone());
            path
        }
        1 => {
            inv.outputs.push(path.clone());
            path.join("nosuch").join(what)
        }
        2 => {
            inv.files.push((path.clone(), b"old content\n".to_vec()));
            path
        }
        _ => {
            inv.outputs.push(path.clone());
            path
        }
    }
}

/// An openings file: positions of the game, sometimes mutated; or a path that does not exist,
/// or an [`OddFile`].
pub(super) fn openings_file(
    rng: &mut Rng,
    spec: &BotSpec,
    dir: &Path,
    inv: &mut Invocation,
) -> PathBuf {
    let path = scratch_path(dir, "openings.txt");
    match rng.below(16) {
        0 | 1 => return path,
        2 => return odd_file(rng, dir, inv, "openings.txt"),
        _ => {}
    }
    let mut text = b"# openings\n".to_vec();
    for _ in 0..(1 + rng.below(3)) {
        let p = pick(rng, &spec.positions).clone();
        let p = if rng.below(3) == 0 {
            mutate(rng, p.as_bytes(), &["#"], &[])
        } else {
            p.into_bytes()
        };
        text.extend(p);
        text.push(b'\n');
    }
    inv.files.push((path.clone(), text));
    path
}

/// A positions file of `tune texel`: a comment, then the game's positions each with a result
/// (as `tune positions` writes them), sometimes mutated; or empty, a path that does not exist,
/// or an [`OddFile`].
pub(super) fn positions_file(
    rng: &mut Rng,
    spec: &BotSpec,
    dir: &Path,
    inv: &mut Invocation,
) -> PathBuf {
    let path = scratch_path(dir, "positions.txt");
    match rng.below(12) {
        0 => return path,
        1 => {
            inv.files.push((path.clone(), Vec::new()));
            return path;
        }
        2 => return odd_file(rng, dir, inv, "positions.txt"),
        _ => {}
    }
    let mut text = format!(
        "# {} positions file: quiet positions of 2 games of pvs against itself (depth 1), each \
         with the result for the side that moves first\n",
        spec.name
    );
    for position in &spec.positions {
        let result = *pick(rng, &["1", "0.5", "0"]);
        text.push_str(&format!("{result} {position}\n"));
    }
    let bytes = if rng.below(3) == 0 {
        mutate(
            rng,
            text.as_bytes(),
            &["1", "0.5", "0", "#", "1.0", "2", "-0", " ", "\n"],
            &[],
        )
    } else {
        text.into_bytes()
    };
    inv.files.push((path.clone(), bytes));
    path
}

/// Writes a tuning run's files into `run` (a directory of `inv`): a cheap run (one or two
/// iterations of two or four games, depth 1 or 50 nodes, ten plies) at a random point of its
/// course, as `tune init` and the merges would have left it, some files missing and some
/// mutated. With `status` (which plays nothing) the files' bytes are also freely mutated.
fn run_files(rng: &mut Rng, spec: &BotSpec, run: &Path, inv: &mut Invocation, status: bool) {
    let (mut config, shape) = run_config(rng, spec, run);
    let RunShape {
        iterations,
        check_games,
        by_nodes,
        ..
    } = shape;
    let initial = spec.weights.clone().unwrap_or_default().1;
    // The iterations merged so far (all of them: the run is finished).
    let done = rng.below(iterations as usize + 1) as u32;
    let mut theta: Vec<f64> = initial.iter().map(|&v| f64::from(v)).collect();
    let mut journal = Vec::new();
    let mut merged = 0u64;
    let mut last_check = Value::Null;
    let shards = 1 + rng.below(2);
    let mut shard_lines: Vec<Vec<Value>> = vec![Vec::new(); shards];
    for k in 0..=done.min(iterations - 1) {
        let lines: Vec<Value> = (0..shape.games_of(k))
            .map(|g| game_line(rng, k, g))
            .collect();
        for (g, line) in lines.iter().enumerate() {
            // The current iteration's games are only partly played.
            if k < done || rng.below(3) != 0 {
                shard_lines[g % shards].push(line.clone());
            }
        }
        if k < done {
            for t in &mut theta {
                *t += (rng.below(5) as f64 - 2.0) * 0.37;
            }
            merged += u64::from(shape.games_of(k));
            if shape.check_due(k) {
                last_check = json!({"iteration": k, "wins": 1, "draws": check_games - 2,
                    "losses": 1});
            }
            let weights: Vec<i32> = theta.iter().map(|t| t.round() as i32).collect();
            journal.push(json!({"iteration": k, "games": lines, "difference": 0.0,
                "weights": weights}));
        }
    }
    let mut state = json!({"iteration": done, "theta": theta, "games": merged,
        "last_check": last_check});
    if rng.below(3) == 0 {
        for _ in 0..(1 + rng.below(2)) {
            mutate_config(rng, spec, &mut config, by_nodes);
        }
    }
    if rng.below(3) == 0 {
        mutate_state(rng, &mut state);
    }
    write_run_files(
        rng,
        spec,
        run,
        inv,
        status,
        RunFiles {
            config,
            state,
            shard_lines,
            journal,
            theta,
        },
    );
}

/// The shape of a generated tuning run: a cheap one (one or two iterations of two or four
/// games, depth 1 or 50 nodes, ten plies).
struct RunShape {
    iterations: u32,
    games: u32,
    check_every: u32,
    check_games: u32,
    by_nodes: bool,
}

impl RunShape {
    /// Whether iteration `k` ends with check games.
    fn check_due(&self, k: u32) -> bool {
        self.check_every > 0
            && self.check_games > 0
            && ((k + 1).is_multiple_of(self.check_every) || k + 1 == self.iterations)
    }

    /// The games of iteration `k`, check games included.
    fn games_of(&self, k: u32) -> u32 {
        self.games
            + if self.check_due(k) {
                self.check_games
            } else {
                0
            }
    }
}

/// A run's `tune.json` (as `tune init` writes it) and its shape.
fn run_config(rng: &mut Rng, spec: &BotSpec, run: &Path) -> (Value, RunShape) {
    let (names, initial) = spec.weights.clone().unwrap_or_default();
    let iterations = 1 + rng.below(2) as u32;
    let games = 2 * (1 + rng.below(2) as u32);
    let check_every = rng.below(3) as u32;
    let check_games = 2 * rng.below(2) as u32;
    let by_nodes = rng.below(3) == 0;
    let (depth, nodes, time) = match rng.below(3) {
        _ if by_nodes => (Value::Null, json!(50), Value::Null),
        0 => (json!(1), Value::Null, json!(5)),
        _ => (json!(1), Value::Null, Value::Null),
    };
    let c_end: Vec<f64> = initial
        .iter()
        .map(|&v| (f64::from(v).abs() / 10.0).max(2.0))
        .collect();
    let openings: Vec<&String> = if rng.below(4) == 0 {
        spec.positions.iter().take(2).collect()
    } else {
        Vec::new()
    };
    let config = json!({
        "game": spec.name,
        "command": format!(
            "{} tune init --dir {} --depth 1 --iterations {iterations} --games {games}",
            spec.name,
            run.display()
        ),
        "searcher": "pvs",
        "depth": depth,
        "nodes": nodes,
        "time_ms": time,
        "games": games,
        "check_every": check_every,
        "check_games": check_games,
        "max_plies": 10,
        "seed": rng.below(100),
        "opening_plies": 4,
        "start": spec.positions[0],
        "openings": openings,
        "names": names,
        "initial": initial,
        "gains": {"iterations": iterations, "c_end": c_end, "r_end": 0.002},
    });
    let shape = RunShape {
        iterations,
        games,
        check_every,
        check_games,
        by_nodes,
    };
    (config, shape)
}

/// The files of a run as written so far: games files by shard, journal lines, current weights.
struct RunFiles {
    config: Value,
    state: Value,
    shard_lines: Vec<Vec<Value>>,
    journal: Vec<Value>,
    theta: Vec<f64>,
}

/// Writes `files` into `run` (a directory of `inv`), some missing, some damaged or odd; with
/// `status` (which plays nothing) also freely mutated.
fn write_run_files(
    rng: &mut Rng,
    spec: &BotSpec,
    run: &Path,
    inv: &mut Invocation,
    status: bool,
    files: RunFiles,
) {
    let RunFiles {
        config,
        state,
        shard_lines,
        journal,
        theta,
    } = files;
    let names = spec.weights.clone().unwrap_or_default().0;
    let shards = shard_lines.len();
    let write = |rng: &mut Rng, name: &str, text: String, inv: &mut Invocation| {
        if rng.below(25) == 0 {
            // A run file that is a FIFO, a device, huge or unreadable.
            inv.odd.push((run.join(name), *pick(rng, &OddFile::ALL)));
            return;
        }
        let bytes = match rng.below(10) {
            0 if status => mutate(rng, text.as_bytes(), JSON_WORDS, &[]),
            0 => damage(rng, text.as_bytes()),
            _ => text.into_bytes(),
        };
        inv.files.push((run.join(name), bytes));
    };
    if rng.below(20) != 0 {
        write(rng, "tune.json", pretty(&config), inv);
    }
    if rng.below(10) != 0 {
        write(rng, "state.json", pretty(&state), inv);
    }
    for (k, mut lines) in shard_lines.into_iter().enumerate() {
        if lines.is_empty() && rng.below(2) == 0 {
            continue;
        }
        if !lines.is_empty() && rng.below(4) == 0 {
            let i = rng.below(lines.len());
            mutate_game_line(rng, &mut lines[i]);
        }
        let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        if rng.below(8) == 0 {
            // A write cut off by a kill: a partial last line.
            text.push_str(r#"{"iteration":0,"ga"#);
        }
        let name = if rng.below(12) == 0 {
            "games-x.jsonl".to_string()
        } else {
            format!("games-{k}-of-{shards}.jsonl")
        };
        write(rng, &name, text, inv);
    }
    if !journal.is_empty() && rng.below(5) != 0 {
        let text: String = journal.iter().map(|l| format!("{l}\n")).collect();
        write(rng, "journal.jsonl", text, inv);
    }
    if rng.below(2) == 0 {
        let values: Vec<i32> = theta.iter().map(|t| t.round() as i32).collect();
        let text = plies::weights::format_weights(
            &names,
            &values,
            &format!("{} evaluator weights, tuned by plies SPSA", spec.name),
        );
        write(rng, "weights.txt", text, inv);
    }
}

/// A value as the run's files hold it: pretty JSON and a newline.
fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("JSON values serialize") + "\n"
}

/// One game of a games file.
fn game_line(rng: &mut Rng, iteration: u32, game: u32) -> Value {
    json!({
        "iteration": iteration,
        "game": game,
        "points": *pick(rng, &[1.0, 0.5, 0.0]),
        "plies": 1 + rng.below(10),
        "termination": *pick(rng, &["rules", "ply-cap", "forfeit: illegal move"]),
    })
}

/// Damage that cannot make a run's work bigger: the text cut short, or a character that is not
/// a digit inserted.
fn damage(rng: &mut Rng, text: &[u8]) -> Vec<u8> {
    let mut out = text.to_vec();
    if rng.below(2) == 0 {
        out.truncate(rng.below(out.len() + 1));
    } else {
        let at = rng.below(out.len() + 1);
        out.insert(at, *pick(rng, b"{}[],\":x\xff\n-"));
    }
    out
}

/// Sets one field of `table` (a JSON pointer and its candidate values) in `value` to one of its
/// values, or removes it one time in `remove_one_in`.
fn set_one(rng: &mut Rng, value: &mut Value, table: &[(&str, Vec<Value>)], remove_one_in: usize) {
    let (pointer, values) = pick(rng, table);
    let new = if rng.below(remove_one_in) == 0 {
        None
    } else {
        Some(pick(rng, values).clone())
    };
    set(value, pointer, new);
}

/// Sets the value at `pointer` (or removes the key, for `None`).
fn set(value: &mut Value, pointer: &str, new: Option<Value>) {
    match new {
        Some(new) => {
            if let Some(slot) = value.pointer_mut(pointer) {
                *slot = new;
            }
        }
        None => {
            let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
            if let Some(Value::Object(map)) = value.pointer_mut(parent) {
                map.remove(key);
            }
        }
    }
}

/// Variants of a list of numbers: one short, one long, empty, and with `edge` first.
fn list_variants(list: &[Value], edge: Value) -> Vec<Value> {
    let mut short = list.to_vec();
    short.pop();
    let mut long = list.to_vec();
    long.push(json!(1));
    let mut edged = list.to_vec();
    if let Some(first) = edged.first_mut() {
        *first = edge;
    }
    vec![
        json!(short),
        json!(long),
        json!([]),
        json!(edged),
        json!("x"),
    ]
}

/// The array at `pointer` of `value`, or none.
fn array(value: &Value, pointer: &str) -> Vec<Value> {
    value
        .pointer(pointer)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// One mutation of `tune.json`: a field set to an edge or nonsense value (never one that makes
/// the run's games many or long), or removed. `by_nodes`: the run is limited by nodes only.
fn mutate_config(rng: &mut Rng, spec: &BotSpec, config: &mut Value, by_nodes: bool) {
    let names = array(config, "/names");
    let mut searchers = vec![json!("nosuch"), json!(""), json!("PVS"), json!("random")];
    if by_nodes {
        searchers.push(json!("mcts"));
    }
    let mut mutated_start = spec.positions[0].clone().into_bytes();
    mutated_start = mutate(rng, &mutated_start, &["/", ",", " "], &[]);
    let mutated_start = json!(String::from_utf8_lossy(&mutated_start));
    let c_end_zero: Vec<f64> = vec![0.0; names.len()];
    let c_end_negative: Vec<f64> = vec![-1.0; names.len()];
    let mut renamed = names.clone();
    if let Some(first) = renamed.first_mut() {
        *first = json!("nosuch");
    }
    let mut table: Vec<(&str, Vec<Value>)> = vec![
        (
            "/game",
            vec![json!("other"), json!(""), json!(spec.name.to_uppercase())],
        ),
        ("/command", vec![json!(""), json!("x\ny"), json!(5)]),
        ("/searcher", searchers),
        (
            "/start",
            vec![mutated_start.clone(), json!(""), json!(spec.positions[1])],
        ),
        (
            "/openings",
            vec![
                json!([]),
                json!(spec.positions),
                json!([mutated_start]),
                json!(["x"]),
                json!("x"),
            ],
        ),
        ("/names", {
            let mut v = list_variants(&names, json!("nosuch"));
            v.push(json!(renamed));
            v
        }),
        (
            "/initial",
            list_variants(&array(config, "/initial"), json!(i32::MAX)),
        ),
        ("/gains/c_end", {
            let mut v = list_variants(&array(config, "/gains/c_end"), json!(1e308));
            v.push(json!(c_end_zero));
            v.push(json!(c_end_negative));
            v
        }),
    ];
    table.extend(number_edits());
    set_one(rng, config, &table, 10);
}

/// Edits of the numbers of `tune.json`: zero, one, past their type's range, negative, text.
/// None sets a work-setting number to more than a cheap run does (out of range is refused).
fn number_edits() -> Vec<(&'static str, Vec<Value>)> {
    vec![
        (
            "/depth",
            vec![
                json!(null),
                json!(0),
                json!(2),
                json!(-1),
                json!(4294967296u64),
                json!("1"),
            ],
        ),
        (
            "/nodes",
            vec![json!(0), json!(1), json!(50), json!(-5), json!("x")],
        ),
        ("/time_ms", vec![json!(0), json!(1), json!(5), json!(-1)]),
        (
            "/games",
            vec![
                json!(0),
                json!(1),
                json!(3),
                json!(4),
                json!(-2),
                json!(4294967296u64),
                json!("2"),
            ],
        ),
        (
            "/check_every",
            vec![
                json!(0),
                json!(1),
                json!(2),
                json!(4294967295u32),
                json!(-1),
            ],
        ),
        (
            "/check_games",
            vec![json!(0), json!(1), json!(3), json!(4), json!(4294967296u64)],
        ),
        (
            "/max_plies",
            vec![json!(0), json!(1), json!(4294967296u64), json!(-1)],
        ),
        (
            "/seed",
            vec![json!(0), json!(u64::MAX), json!(-1), json!(1.5), json!("x")],
        ),
        (
            "/opening_plies",
            vec![json!(0), json!(1), json!(9), json!(4294967296u64)],
        ),
        (
            "/gains/iterations",
            vec![
                json!(0),
                json!(1),
                json!(2),
                json!(4294967296u64),
                json!(-1),
            ],
        ),
        (
            "/gains/r_end",
            vec![
                json!(0.0),
                json!(-1.0),
                json!(1e308),
                json!(1e-300),
                json!("x"),
            ],
        ),
    ]
}

/// One mutation of `state.json`: the iteration, the weights, the games or the last check set to
/// an edge or nonsense value, or removed.
fn mutate_state(rng: &mut Rng, state: &mut Value) {
    let theta = array(state, "/theta");
    let huge: Vec<f64> = vec![1e300; theta.len()];
    let table: Vec<(&str, Vec<Value>)> = vec![
        (
            "/iteration",
            vec![
                json!(1),
                json!(2),
                json!(3),
                json!(u32::MAX),
                json!(-1),
                json!(4294967296u64),
                json!(null),
            ],
        ),
        ("/theta", {
            let mut v = list_variants(&theta, json!(-1e300));
            v.push(json!(huge));
            v
        }),
        ("/games", vec![json!(u64::MAX), json!(-1), json!(1.5)]),
        (
            "/last_check",
            vec![
                json!({"iteration": u32::MAX, "wins": 0, "draws": 0, "losses": 0}),
                json!({"iteration": 0, "wins": u32::MAX, "draws": u32::MAX, "losses": u32::MAX}),
                json!({"iteration": 0, "wins": 0, "draws": 0, "losses": 0}),
                json!({}),
                json!("x"),
            ],
        ),
    ];
    set_one(rng, state, &table, 10);
}

/// One mutation of a games file's line: a field set to an edge or nonsense value, or removed.
fn mutate_game_line(rng: &mut Rng, line: &mut Value) {
    let table: Vec<(&str, Vec<Value>)> = vec![
        ("/iteration", vec![json!(u32::MAX), json!(99), json!(-1)]),
        ("/game", vec![json!(u32::MAX), json!(99), json!(-1)]),
        (
            "/points",
            vec![json!(1.5), json!(-1.0), json!(1e308), json!("x")],
        ),
        ("/plies", vec![json!(-1), json!(4294967296u64)]),
        ("/termination", vec![json!(null), json!(5), json!("")]),
    ];
    set_one(rng, line, &table, 6);
}
