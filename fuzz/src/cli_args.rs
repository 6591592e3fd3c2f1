//! Command lines for the game bots, generated from a seed by walking the grammar the bot itself
//! parses ([`plies_cli::command`], see [`grammar`]): every command of the generic command line
//! (`perft`, `analyze`, `play`, `bench`, `arena`, every `tune` subcommand, `--help`…), its
//! flags with valid, edge and nonsense values, positions and moves of the game (real ones, and
//! mutants of them), weights files (`--weights`, the arena's `weights=`), tuning run directories
//! and positions files (real content and mutants, see `tune`), file inputs that are FIFOs,
//! links to `/dev/zero`, huge sparse files or unreadable ([`OddFile`]: weights, openings,
//! results, positions files and table directories), arguments that are not UTF-8, and stdin
//! for `play`. Used in process (the `*-cli` targets, through [`plies_cli::run`]) and
//! as processes ([`crate::process`]).
//!
//! Key invariants: no flag or subcommand is written here (they come from the `clap::Command`);
//! this module knows only what the grammar cannot (the `Bot` knowledge). Every invocation
//! carries a budget that keeps a correct program fast (search
//! time, node, game and ply caps appended last and never mutated; work-setting numbers such as a
//! perft depth, and those of a tuning run's files, are drawn only from cheap or out-of-range
//! values), so an invocation that runs past the time limit is a hang of the program, not of the
//! fuzzer's choice. Every path an invocation names lies in its own scratch directory, and the
//! paths a program writes to (`tune init --dir`, `--out`) are in the budget, never mutated, so a
//! run writes nowhere else; [`Invocation::clean_up`] removes it all.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use plies_cli::{EvaluatorFactory, GameCli, evaluator, tunable_evaluator};

use crate::driver::Target;
use crate::mutate::{BAD_UTF8, Rng, mutate, pick};

pub mod grammar;
mod tune_files;

use grammar::{Choice, Knowledge};

/// A game whose command line is fuzzed in process: the evaluator its bot uses.
pub trait BotGame: plies_view::View {
    /// The evaluator factory of the game's bot (tunable, as the bot's, except Kalah's).
    fn bot_evaluator() -> EvaluatorFactory<Self>;

    /// The files a build of `position`'s endgame tables up to `pieces` pieces reads from a
    /// `--tables-dir`, relative to it (none for a game without tables).
    fn table_files(position: &Self, pieces: u8) -> Vec<String> {
        let _ = (position, pieces);
        Vec::new()
    }
}

/// The `--tables` piece count of generated invocations: masters only, built in milliseconds.
const TABLE_PIECES: u8 = 2;

impl BotGame for plies_onitama::Onitama {
    fn bot_evaluator() -> EvaluatorFactory<Self> {
        tunable_evaluator(plies_onitama::PstEvaluator::tuned())
    }

    fn table_files(position: &Self, pieces: u8) -> Vec<String> {
        // In the deal's directory, as the command line keeps them.
        let deal = plies_onitama::tables::deal_key(position).replace(',', "-");
        plies_onitama::tables::files_for(position, pieces)
            .into_iter()
            .map(|name| format!("{deal}/{name}"))
            .collect()
    }
}

impl BotGame for plies_tafl::Tafl {
    fn bot_evaluator() -> EvaluatorFactory<Self> {
        tunable_evaluator(plies_tafl::TaflEvaluator::default())
    }
}

impl BotGame for plies_hus::Hus {
    fn bot_evaluator() -> EvaluatorFactory<Self> {
        tunable_evaluator(plies_hus::HusEvaluator::tuned())
    }
}

impl BotGame for plies_yinsh::Yinsh {
    fn bot_evaluator() -> EvaluatorFactory<Self> {
        tunable_evaluator(plies_yinsh::YinshEvaluator::tuned())
    }
}

impl BotGame for plies_kalah::Kalah {
    fn bot_evaluator() -> EvaluatorFactory<Self> {
        evaluator(plies_kalah::StoreDifference::default())
    }
}

/// One run of a bot: its arguments (program name first), its stdin, and the scratch directories
/// and files it reads or writes, all under the invocation's own scratch directory (the `dir` of
/// [`generate`]).
#[derive(Clone, Debug, Default)]
pub struct Invocation {
    /// The arguments, program name first.
    pub args: Vec<OsString>,
    /// What the program reads on stdin.
    pub stdin: Vec<u8>,
    /// Directories to create before the run (before the files, which may lie in them); removed
    /// after, with whatever they then hold.
    pub dirs: Vec<PathBuf>,
    /// Files to create before the run (and remove after): path and content.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// Paths the program may create (`tune init --dir`, `tune positions --out`): removed after
    /// the run, directory or file.
    pub outputs: Vec<PathBuf>,
    /// Inputs that are not ordinary files, made before the run (after the directories) and
    /// removed after: FIFOs, links to devices, huge sparse files, unreadable files.
    pub odd: Vec<(PathBuf, OddFile)>,
}

/// A file input that is not an ordinary small readable file: a reader must refuse it at once
/// with a one-line error (never block on it, read it without end, or be killed for memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OddFile {
    /// A FIFO no one writes to: opening it for reading blocks.
    Fifo,
    /// A symbolic link to `/dev/zero`: endless bytes.
    DevZero,
    /// A sparse file of [`HUGE_FILE_BYTES`]: larger than any input limit.
    Huge,
    /// A small file with no read permission (readable anyway when run as root).
    Unreadable,
}

/// The size of an [`OddFile::Huge`] file (sparse: no disk is used).
pub const HUGE_FILE_BYTES: u64 = 3 << 30;

impl OddFile {
    /// Every kind.
    pub const ALL: [OddFile; 4] = [
        OddFile::Fifo,
        OddFile::DevZero,
        OddFile::Huge,
        OddFile::Unreadable,
    ];

    /// Makes this kind of file at `path`.
    ///
    /// # Errors
    /// The system refused (on a system without FIFOs or symbolic links, always).
    pub fn make(self, path: &Path) -> std::io::Result<()> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            match self {
                OddFile::Fifo => {
                    let status = std::process::Command::new("mkfifo").arg(path).status()?;
                    if !status.success() {
                        return Err(std::io::Error::other(format!("mkfifo ended with {status}")));
                    }
                }
                OddFile::DevZero => std::os::unix::fs::symlink("/dev/zero", path)?,
                OddFile::Huge => std::fs::File::create(path)?.set_len(HUGE_FILE_BYTES)?,
                OddFile::Unreadable => {
                    std::fs::write(path, "unreadable\n")?;
                    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o000))?;
                }
            }
            Ok(())
        }
        #[cfg(not(unix))]
        {
            let _ = (self, path);
            Err(std::io::Error::other("odd files are made on Unix only"))
        }
    }
}

/// A fresh scratch path (see [`scratch_path`]) that the invocation will find holding an odd
/// file of a random kind; returns the path.
pub fn odd_file(rng: &mut Rng, dir: &Path, inv: &mut Invocation, what: &str) -> PathBuf {
    let path = scratch_path(dir, what);
    inv.odd.push((path.clone(), *pick(rng, &OddFile::ALL)));
    path
}

impl Invocation {
    /// The arguments as one shell-like line (lossy), for reports.
    pub fn describe(&self) -> String {
        self.args
            .iter()
            .map(|a| format!("{:?}", a.to_string_lossy()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Before the run: creates `root` (the invocation's own scratch directory, the `dir` it was
    /// generated with), then the directories, then writes the files.
    ///
    /// # Errors
    /// A directory or file that cannot be written.
    pub fn prepare(&self, root: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(root)?;
        for dir in &self.dirs {
            std::fs::create_dir_all(dir)?;
        }
        for (path, content) in &self.files {
            std::fs::write(path, content)?;
        }
        for (path, kind) in &self.odd {
            kind.make(path)?;
        }
        Ok(())
    }

    /// After the run: the temporary files (`*.tmp`, what an atomic write leaves when it fails
    /// half-way) the run left anywhere under `root`; then removes the files, the directories,
    /// the outputs and `root` with whatever else is in it.
    pub fn clean_up(&self, root: &Path) -> Vec<PathBuf> {
        let mut leftovers = Vec::new();
        temporary_files(root, 4, &mut leftovers);
        for (path, _) in &self.files {
            remove_path(path);
        }
        for (path, _) in &self.odd {
            remove_path(path);
        }
        for path in self.dirs.iter().chain(&self.outputs) {
            remove_path(path);
        }
        remove_path(root);
        leftovers
    }
}

/// Removes `path`, a directory (with its content) or a file; nothing if it does not exist.
fn remove_path(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            let _ = std::fs::remove_dir_all(path);
        }
        Ok(_) => {
            let _ = std::fs::remove_file(path);
        }
        Err(_) => {}
    }
}

/// Pushes the files named `*.tmp` under `dir`, `depth` levels down, to `out`.
fn temporary_files(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            if depth > 0 {
                temporary_files(&path, depth - 1, out);
            }
        } else if path.extension().is_some_and(|e| e == "tmp") {
            out.push(path);
        }
    }
}

/// What the generator knows of one game.
#[derive(Clone, Debug)]
pub struct BotSpec {
    /// The program name.
    pub name: String,
    /// The grammar of the bot's command line, as the bot parses it ([`plies_cli::command`]).
    pub command: clap::Command,
    /// Position texts.
    pub positions: Vec<String>,
    /// Lines of legal moves from the start position.
    pub lines: Vec<String>,
    /// Game-specific flags with their values (the tafl bot's `--variant`, `--rules`…).
    pub game_flags: Vec<(String, Vec<String>)>,
    /// The names and default values of the bot evaluator's weights (`None`: not tunable).
    pub weights: Option<(Vec<String>, Vec<i32>)>,
    /// Whether the invocations run as processes of the bot: only then may `tune run --jobs N`
    /// start copies of the running program (in process that would be the fuzzer).
    pub processes: bool,
    /// The files a `--tables 2` build for the start position reads from its `--tables-dir`
    /// (empty for a game without endgame tables).
    pub table_files: Vec<String>,
}

impl BotSpec {
    /// The generic facts of game `G` under the program name `name`: its start position,
    /// positions and move lines of a fixed random walk, and its bot evaluator's weights.
    pub fn of<G: BotGame>(name: &str) -> BotSpec {
        let mut rng = Rng::new(17);
        let start = G::start_position();
        let mut positions = vec![start.format_position()];
        let mut lines = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..4 {
            let mut state = start.clone();
            let mut line = Vec::new();
            for _ in 0..10 {
                moves.clear();
                state.generate_moves(&mut moves);
                if moves.is_empty() || state.outcome().is_some() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                line.push(state.format_move(mv));
                state = state.play(mv);
            }
            positions.push(state.format_position());
            lines.push(line.join(" "));
        }
        let factory = G::bot_evaluator();
        let weights = factory
            .parameter_names()
            .zip(factory.parameters())
            .map(|(names, values)| (names.to_vec(), values.to_vec()));
        let cli = GameCli::<G>::new("bot", G::bot_evaluator());
        BotSpec {
            name: name.to_string(),
            command: plies_cli::command(&cli),
            positions,
            lines,
            game_flags: Vec::new(),
            weights,
            processes: false,
            table_files: G::table_files(&start, TABLE_PIECES),
        }
    }

    /// This spec for invocations run as processes of the bot.
    pub fn as_processes(mut self) -> BotSpec {
        self.processes = true;
        self
    }

    /// This spec with a game flag and its values.
    pub fn flag(mut self, flag: &str, values: &[&str]) -> BotSpec {
        self.game_flags.push((
            flag.to_string(),
            values.iter().map(|v| v.to_string()).collect(),
        ));
        self
    }
}

/// Searcher names, good and bad.
const SEARCHERS: &[&str] = &[
    "pvs",
    "alphabeta",
    "minimax",
    "mcts",
    "mcts-heavy",
    "PVS",
    "pvs+tt",
    "pvs:ext=off",
    "pvs:quiescence=off,lmr=off",
    "pvs:tt=bad",
    "minimax:threads=2",
    "nosuch",
    "",
    "random",
];

/// Engine options for arena specs: none makes a search slow (own depths stay tiny or are out of
/// range).
const ENGINE_OPTIONS: &[&str] = &[
    "",
    "",
    "",
    "",
    "",
    "",
    ":nodes=50",
    ":depth=1:threads=2",
    ":time=3:ponder=1",
    ":depth=1",
    ":depth=2",
    ":nodes=100",
    ":time=5",
    ":threads=2",
    ":ponder=1",
    ":depth=0",
    ":depth=1000",
    ":depth=99999999999",
    ":nodes=0",
    ":threads=0",
    ":threads=999",
    ":ponder=2",
    ":speed=3",
    ":",
    ":depth",
    ":nodes=x",
    ":time=0",
];

/// Perft depths: cheap, or past the cap.
const PERFT_DEPTHS: &[&str] = &[
    "0",
    "1",
    "2",
    "65",
    "1000",
    "4294967295",
    "4294967296",
    "-1",
    "x",
    "",
];

/// Search depths: a time or node budget always bounds the search they go with.
const SEARCH_DEPTHS: &[&str] = &["1", "2", "5", "0", "999", "1000", "4294967296", "-3", "x"];

/// A fresh scratch path for files of an invocation.
pub fn scratch_path(dir: &Path, what: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!("{}-{n}-{what}", std::process::id()))
}

/// A value of `values`, sometimes mutated.
fn value(rng: &mut Rng, values: &[String], dictionary: &[&str]) -> OsString {
    let text = pick(rng, values).clone();
    if rng.below(5) == 0 {
        let bytes = mutate(rng, text.as_bytes(), dictionary, &[]);
        bytes_to_os(bytes)
    } else {
        text.into()
    }
}

/// Bytes as an argument (any bytes on Unix; lossy elsewhere).
pub fn bytes_to_os(bytes: Vec<u8>) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        OsString::from_vec(bytes)
    }
    #[cfg(not(unix))]
    {
        String::from_utf8_lossy(&bytes).into_owned().into()
    }
}

/// Picks one of `values`: the first (a valid one) half of the time, any of them otherwise, so
/// most command lines get past the argument checks into the commands.
fn one_of(rng: &mut Rng, values: &[&str]) -> Choice {
    let value = if rng.below(2) == 0 {
        values[0]
    } else {
        *pick(rng, values)
    };
    Choice::Values(vec![value.into()])
}

/// What the generator knows of the bot's commands beyond their grammar: the budgets, the values
/// with meaning (positions, moves, searchers, engine specs), cheap values of the numbers that
/// set work, and the files (see [`tune_files`]).
struct Bot<'a> {
    spec: &'a BotSpec,
    dir: &'a Path,
    inv: &'a mut Invocation,
}

impl Knowledge for Bot<'_> {
    fn weight(&self, path: &[String], name: &str) -> usize {
        match (path.len(), name) {
            // A server and a protocol loop wait for input (UGI has targets of its own), and
            // precomputing tables takes minutes.
            (0, "serve" | "ugi" | "precompute") => 0,
            (0, "tune") => 6,
            (0, "bench") => 2,
            (0, "book") => 1,
            _ => 3,
        }
    }

    fn budget(&mut self, rng: &mut Rng, path: &[String]) -> Vec<OsString> {
        let (spec, dir) = (self.spec, self.dir);
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        match path.as_slice() {
            ["analyze"] => os(&["--time", "30"]),
            ["play"] => {
                self.inv.stdin = play_stdin(rng, spec);
                os(&["--time", "5", "--max-plies", "6"])
            }
            ["bench"] => os(&["--depth", "1"]),
            ["arena"] => os(&[
                "--nodes",
                "200",
                "--games",
                "2",
                "--max-plies",
                "8",
                "--concurrency",
                "1",
                "--no-progress",
            ]),
            ["tune", "init"] => {
                let target = tune_files::init_dir(rng, spec, dir, self.inv);
                vec!["--dir".into(), target.into()]
            }
            ["tune", sub @ ("run" | "play" | "merge" | "status")] => {
                let run = tune_files::run_dir(rng, spec, dir, self.inv, *sub == "status");
                vec!["--dir".into(), run.into()]
            }
            ["tune", "positions"] => {
                let out = tune_files::output_path(rng, dir, self.inv, "positions.txt");
                let mut budget = vec!["--out".into(), out.into()];
                budget.extend(os(&["--games", "1", "--depth", "1", "--max-plies", "10"]));
                budget
            }
            ["book", "build"] => {
                let out = tune_files::output_path(rng, dir, self.inv, "book.jsonl");
                let store = scratch_path(dir, "store.sqlite");
                vec!["--out".into(), out.into(), "--store".into(), store.into()]
            }
            ["tune", "texel"] => {
                let out = tune_files::output_path(rng, dir, self.inv, "weights-out.txt");
                let mut budget = vec!["--out".into(), out.into()];
                budget.extend(os(&["--passes", "1"]));
                budget
            }
            _ => Vec::new(),
        }
    }

    fn choose(&mut self, rng: &mut Rng, path: &[String], arg: &clap::Arg) -> Choice {
        let (spec, dir) = (self.spec, self.dir);
        let command = path.join(" ");
        // `tune init` plays nothing: its numbers come from the whole range.
        let init = command == "tune init";
        match arg.get_id().as_str() {
            "position" => Choice::Values(vec![value(rng, &spec.positions, &["/", ",", " "])]),
            "moves" => Choice::Values(vec![value(rng, &spec.lines, &[])]),
            "searcher" => one_of(rng, SEARCHERS),
            "depth" if command == "perft" => one_of(rng, PERFT_DEPTHS),
            "depth" if !init => one_of(rng, SEARCH_DEPTHS),
            "nodes" if !init => one_of(rng, &["50", "1", "5", "100", "0", "-5", "x"]),
            "time" if !init => one_of(rng, &["5", "0", "1", "x"]),
            "threads" => one_of(rng, &["1", "2", "0", "257", "999", "x"]),
            "jobs" if spec.processes => one_of(rng, &["1", "2", "3", "0", "-1", "x", "4294967296"]),
            // `--jobs N` starts N copies of the running program: in process, the fuzzer.
            "jobs" => one_of(rng, &["1", "0", "-1", "x", "4294967296"]),
            "openings" => one_of(rng, &["1", "2", "0", "x", "18446744073709551616"]),
            "opening_plies" => one_of(rng, &["2", "0", "1", "999", "4294967295", "x"]),
            "every" => one_of(rng, &["1", "2", "0", "4294967295", "4294967296", "x"]),
            "file_plies" => one_of(rng, &["0", "1", "2", "999", "x"]),
            "shard" => one_of(rng, SHARDS),
            "sprt" => one_of(
                rng,
                &[
                    "0,20",
                    "-5,5",
                    "20,0",
                    "x",
                    "1,2,3",
                    "nan,1",
                    "",
                    "inf,1e308",
                ],
            ),
            "tc" => one_of(
                rng,
                &["0.05+0.01", "0.02", "0+1", "86401+0", "x", "", "1+x"],
            ),
            "log" => one_of(rng, &["off", "error", "x", "nosuch=debug", "="]),
            "engines" => {
                let engines = (0..(2 + rng.below(2)).min(1 + rng.below(8)))
                    .map(|_| engine(rng, spec, dir, self.inv))
                    .collect();
                Choice::Values(engines)
            }
            "fixed" => Choice::Values(vec![tune_files::fixed(rng, spec).into()]),
            "weights" => Choice::Values(vec![weights_file(rng, spec, dir, self.inv).into()]),
            "openings_file" => Choice::Values(vec![
                tune_files::openings_file(rng, spec, dir, self.inv).into(),
            ]),
            "positions" => Choice::Values(vec![
                tune_files::positions_file(rng, spec, dir, self.inv).into(),
            ]),
            "results" => Choice::Values(vec![results_file(rng, dir, self.inv).into()]),
            "book" => Choice::Values(vec![book_file(rng, spec, dir, self.inv).into()]),
            // A store is a file in the scratch directory, `off`, or a location refused at once
            // (a URL of another scheme, a server nobody listens at, a directory): never a
            // path made up by the grammar, which would be written where the fuzzer runs.
            "store" => Choice::Values(vec![match rng.below(6) {
                0 => "off".into(),
                1 => "http://localhost/store".into(),
                2 => "postgres://plies@127.0.0.1:1/none".into(),
                3 => dir.as_os_str().to_os_string(),
                _ => scratch_path(dir, "store.sqlite").into(),
            }]),
            "tables_dir" if !spec.table_files.is_empty() => {
                Choice::Args(tables(rng, spec, dir, self.inv))
            }
            // Tables are built only into a scratch directory (see `tables_dir`); the whole
            // benchmark runs the game's own depths.
            "tables" | "tables_dir" | "full" => Choice::Skip,
            _ => Choice::Grammar,
        }
    }
}

/// Good, edge and malformed shards `K/N`.
const SHARDS: &[&str] = &[
    "0/1",
    "0/2",
    "1/2",
    "2/2",
    "1/0",
    "0/0",
    " 0 / 1 ",
    "-1/2",
    "0/1/2",
    "x",
    "",
    "0/4294967295",
    "4294967295/4294967296",
    "4294967296/1",
];

/// Lines for `play`'s stdin: moves of the game (sometimes mutated), `moves` and `quit`.
fn play_stdin(rng: &mut Rng, spec: &BotSpec) -> Vec<u8> {
    let mut stdin = Vec::new();
    for _ in 0..rng.below(8) {
        let line = match rng.below(5) {
            0 => "moves".to_string(),
            1 => "quit".to_string(),
            _ => pick(rng, &spec.lines)
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string(),
        };
        let line = if rng.below(3) == 0 {
            mutate(rng, line.as_bytes(), &[], &[])
        } else {
            line.into_bytes()
        };
        stdin.extend(line);
        stdin.push(b'\n');
    }
    stdin
}

/// An arena engine spec: a searcher and options (rarely odd ones), sometimes a weights file.
fn engine(rng: &mut Rng, spec: &BotSpec, dir: &Path, inv: &mut Invocation) -> OsString {
    let names = if rng.below(4) == 0 {
        SEARCHERS.len()
    } else {
        6
    };
    let name = *pick(rng, &SEARCHERS[..names]);
    let options = if rng.below(4) == 0 {
        ENGINE_OPTIONS.len()
    } else {
        12
    };
    let option = *pick(rng, &ENGINE_OPTIONS[..options]);
    let mut engine = format!("{name}{option}");
    if rng.below(6) == 0 {
        let file = weights_file(rng, spec, dir, inv);
        engine.push_str(&format!(":weights={}", file.display()));
    }
    engine.into()
}

/// An arena results file to resume from: one game, sometimes mutated, or an [`OddFile`].
fn results_file(rng: &mut Rng, dir: &Path, inv: &mut Invocation) -> PathBuf {
    if rng.below(3) == 0 {
        return odd_file(rng, dir, inv, "results.jsonl");
    }
    let path = scratch_path(dir, "results.jsonl");
    let line = br#"{"id":0,"opening":0,"engines":[0,1],"names":["pvs","random"],"result":"Draw","termination":"PlyCap","plies":8,"moves":[]}"#;
    let text = if rng.below(2) == 0 {
        mutate(rng, line, &["null", "{", "}", "\"id\""], &[])
    } else {
        line.to_vec()
    };
    inv.files.push((path.clone(), text));
    path
}

/// `--tables 2 --tables-dir D`: a tables directory whose files (those of the start position's
/// deal) are sometimes FIFOs, devices, huge or unreadable.
fn tables(rng: &mut Rng, spec: &BotSpec, dir: &Path, inv: &mut Invocation) -> Vec<OsString> {
    let tables = scratch_path(dir, "tables");
    inv.dirs.push(tables.clone());
    for name in &spec.table_files {
        let file = tables.join(name);
        if let Some(parent) = file.parent()
            && !inv.dirs.iter().any(|d| d == parent)
        {
            inv.dirs.push(parent.to_path_buf());
        }
        if rng.below(2) == 0 {
            inv.odd.push((file, *pick(rng, &OddFile::ALL)));
        }
    }
    let mut args = os(&["--tables", &TABLE_PIECES.to_string(), "--tables-dir"]);
    args.push(tables.into());
    args
}

/// One invocation of the bot described by `spec`, by a walk of its command line's grammar
/// (see [`grammar`]); its scratch files and directories go under `dir`, the invocation's own
/// scratch directory (created by [`Invocation::prepare`]).
pub fn generate(rng: &mut Rng, spec: &BotSpec, dir: &Path) -> Invocation {
    let mut inv = Invocation::default();
    let walk = {
        let mut bot = Bot {
            spec,
            dir,
            inv: &mut inv,
        };
        grammar::walk(rng, &spec.command, &mut bot)
    };
    let mut free = walk.free;
    for (flag, values) in &spec.game_flags {
        if rng.below(4) == 0 {
            free.push(flag.into());
            free.push(value(rng, values, &[":", "dim:", "/"]));
        }
    }
    mutate_args(rng, &mut free);
    inv.args.push(spec.name.clone().into());
    inv.args.extend(walk.words);
    inv.args.extend(free);
    inv.args.extend(walk.budget);
    inv
}

/// Argument-level mutations, in about a quarter of the invocations: a flag or an argument that
/// is not UTF-8, an argument dropped, duplicated or swapped with the next, a junk flag.
fn mutate_args(rng: &mut Rng, free: &mut Vec<OsString>) {
    let mutations = if rng.below(4) == 0 {
        1 + rng.below(2)
    } else {
        0
    };
    for _ in 0..mutations {
        match rng.below(6) {
            0 => {
                let at = rng.below(free.len() + 1);
                let mut bytes = b"--".to_vec();
                let bad: &&[u8] = pick(rng, BAD_UTF8);
                bytes.extend_from_slice(bad);
                free.insert(at, bytes_to_os(bytes));
            }
            1 => {
                let at = rng.below(free.len() + 1);
                free.insert(at, bytes_to_os(pick(rng, BAD_UTF8).to_vec()));
            }
            2 if !free.is_empty() => {
                let at = rng.below(free.len());
                free.remove(at);
            }
            3 if !free.is_empty() => {
                let at = rng.below(free.len());
                let copy = free[at].clone();
                free.insert(at, copy);
            }
            4 if free.len() >= 2 => {
                let at = rng.below(free.len() - 1);
                free.swap(at, at + 1);
            }
            _ => {
                let at = rng.below(free.len() + 1);
                let junk = *pick(
                    rng,
                    &["--", "-", "--nosuch", "-h", "--help", "-V", "=", "-p"],
                );
                free.insert(at, junk.into());
            }
        }
    }
}

/// Words as arguments.
fn os(words: &[&str]) -> Vec<OsString> {
    words.iter().map(OsString::from).collect()
}

/// A weights file for the bot's evaluator, usually written to a scratch file: the defaults with
/// a few weights changed, in file order or shuffled, sometimes mutated; else a path that does
/// not exist, a directory or an [`OddFile`]. Returns the path.
pub fn weights_file(rng: &mut Rng, spec: &BotSpec, dir: &Path, inv: &mut Invocation) -> PathBuf {
    let path = scratch_path(dir, "weights.txt");
    match rng.below(12) {
        0 => return path,
        1 => {
            inv.dirs.push(path.clone());
            return path;
        }
        2 => return odd_file(rng, dir, inv, "weights.txt"),
        _ => {}
    }
    let (names, mut values) = spec
        .weights
        .clone()
        .unwrap_or_else(|| (vec!["weight".to_string()], vec![1]));
    for _ in 0..rng.below(4) {
        let i = rng.below(values.len());
        values[i] = values[i].saturating_add(rng.below(21) as i32 - 10);
    }
    let comment = format!(
        "{} evaluator weights, tuned by plies SPSA: iteration 1 of 1, 2 games.\nproduced by: {} tune init",
        spec.name, spec.name
    );
    let mut text = plies::weights::format_weights(&names, &values, &comment);
    if rng.below(4) == 0 {
        let mut lines: Vec<&str> = text.lines().collect();
        for i in (1..lines.len()).rev() {
            lines.swap(i, rng.below(i + 1));
        }
        text = lines.join("\n");
    }
    let bytes = if rng.below(3) == 0 {
        let mut dictionary: Vec<&str> = names.iter().map(String::as_str).collect();
        dictionary.extend(["#", " ", "\n", "2147483647", "-2147483648", "2147483648"]);
        mutate(rng, text.as_bytes(), &dictionary, &[])
    } else {
        text.into_bytes()
    };
    inv.files.push((path.clone(), bytes));
    path
}

/// A book file (`play --book`): a header and a line of a position and a move of the game
/// (often not a move of that position), sometimes mutated or odd.
fn book_file(rng: &mut Rng, spec: &BotSpec, dir: &Path, inv: &mut Invocation) -> PathBuf {
    if rng.below(4) == 0 {
        return odd_file(rng, dir, inv, "book.jsonl");
    }
    let path = scratch_path(dir, "book.jsonl");
    let position = pick(rng, &spec.positions).clone();
    let played = pick(rng, &spec.lines)
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string();
    let entry = serde_json::json!({
        "position": position, "move": played, "games": 2, "wins": 1, "draws": 0,
        "losses": 1, "weight": 2,
    });
    let text = format!("{{\"plies_book\":1,\"game\":\"{}\"}}\n{entry}\n", spec.name);
    let bytes = if rng.below(3) == 0 {
        mutate(rng, text.as_bytes(), &["\"weight\"", "{", "}", "\n"], &[])
    } else {
        text.into_bytes()
    };
    inv.files.push((path.clone(), bytes));
    path
}

/// The in-process target of game `G`'s command line: the input bytes seed the generator; the
/// invocation runs through [`plies_cli::utf8_args`] and [`plies_cli::run`] in a scratch directory
/// of its own, removed after (errors are fine; panics, errors of more than one line and
/// temporary files left behind are not). With `PLIES_FUZZ_SHOW` set in the environment it
/// prints the invocation and its files to stderr first (to see what a saved input runs).
pub fn target_for<G: BotGame>(name: &'static str) -> Target {
    /// Removes an invocation's scratch directory when dropped, also when the run panicked.
    struct Scratch<'a> {
        inv: &'a Invocation,
        root: PathBuf,
    }
    impl Drop for Scratch<'_> {
        fn drop(&mut self) {
            self.inv.clean_up(&self.root);
        }
    }
    fn run<G: BotGame>(data: &[u8]) {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let seed = data.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        let mut rng = Rng::new(seed);
        let spec = BotSpec::of::<G>("bot");
        let root = std::env::temp_dir().join(format!(
            "plies-fuzz-cli-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let inv = generate(&mut rng, &spec, &root);
        if std::env::var_os("PLIES_FUZZ_SHOW").is_some() {
            eprintln!("{}", inv.describe());
            for dir in &inv.dirs {
                eprintln!("directory {}", dir.display());
            }
            for (path, content) in &inv.files {
                let text = String::from_utf8_lossy(content);
                eprintln!("file {}: {text:?}", path.display());
            }
        }
        let scratch = Scratch {
            inv: &inv,
            root: root.clone(),
        };
        inv.prepare(&root)
            .unwrap_or_else(|e| panic!("cannot write the scratch files: {e}"));
        let cli = GameCli::<G>::new("bot", G::bot_evaluator());
        if let Ok(args) = plies_cli::utf8_args(inv.args.clone()) {
            let mut out = Vec::new();
            let mut input = inv.stdin.as_slice();
            if let Err(e) = plies_cli::run(&cli, args, &mut input, &mut out) {
                let text = e.to_string();
                assert!(
                    text.starts_with("error: ") && !text.contains('\n'),
                    "error is not one line: {text} (by {})",
                    inv.describe()
                );
            }
        }
        let leftovers = inv.clean_up(&root);
        drop(scratch);
        assert!(
            leftovers.is_empty(),
            "temporary files left behind: {leftovers:?} by {}",
            inv.describe()
        );
    }
    Target {
        name,
        about: "the generic command line in process: arguments and stdin generated from the input",
        seeds: || (0u8..16).map(|i| vec![i]).collect(),
        dictionary: &[],
        run: run::<G>,
    }
}

#[cfg(test)]
mod tests;
