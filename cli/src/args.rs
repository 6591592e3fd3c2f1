//! The command line's grammar, declared with clap's derive: one struct per command.
//!
//! Key invariant: this file only describes the arguments; every check that needs the game
//! (positions, moves) or a range (depth at least 1) happens in the command's own module and is
//! reported as a one-line [`super::CliError`].

use clap::{Args, Parser, Subcommand};

/// The whole command line: one command.
#[derive(Parser, Debug)]
#[command(version, about = "Perft, analysis, play and bench for a plies game")]
pub(crate) struct Cli {
    /// Use the evaluator weights of this weights file (as `tune` writes them) in every engine
    /// of the command; for games with a tunable evaluator.
    #[arg(long, global = true, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Count the leaf positions of the move tree to a depth.
    Perft(PerftArgs),
    /// Search a position and report each completed iteration.
    Analyze(AnalyzeArgs),
    /// Play in the terminal: human against engine, or engine against engine.
    Play(PlayArgs),
    /// Search the game's fixed bench positions to a fixed depth; the total node count is a
    /// signature of the search.
    Bench(super::bench::BenchArgs),
    /// Play a match (two engines) or a round robin (more) over openings, each played twice
    /// with colours swapped; prints each game and a results table with Elo and its 95% interval.
    Arena(super::arena_command::ArenaArgs),
    /// Tune the evaluator's weights by SPSA over games: resumable, and sharded over processes
    /// or a scheduler's job array (`tune init`, `run`, `play --shard K/N`, `merge`, `status`).
    Tune(super::tune::TuneArgs),
}

/// Where a command starts: a position and moves played from it.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct PositionArgs {
    /// Position text in the game's notation (passed as written: case can matter); default the
    /// game's start position.
    #[arg(long, short = 'p')]
    pub position: Option<String>,
    /// Moves to play from the position first, separated by spaces (case-insensitive).
    #[arg(long, short = 'm')]
    pub moves: Option<String>,
}

/// `perft`.
#[derive(Args, Debug)]
pub(crate) struct PerftArgs {
    #[command(flatten)]
    pub start: PositionArgs,
    /// Plies to count (at most 64).
    #[arg(long, short = 'd')]
    pub depth: u32,
    /// How finished games before the last ply count: `leaf` (one leaf at any depth) or `stop`
    /// (only at the full depth).
    #[arg(long, default_value = "leaf")]
    pub convention: String,
    /// Also print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// End with one JSON line: depth, nodes, seconds.
    #[arg(long)]
    pub json: bool,
}

/// `analyze`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true).multiple(true)
    .args(["depth", "time", "nodes"])))]
pub(crate) struct AnalyzeArgs {
    #[command(flatten)]
    pub start: PositionArgs,
    /// Search to this many plies (1..=999). Not for mcts, which has no search depth.
    #[arg(long, short = 'd')]
    pub depth: Option<u32>,
    /// Search for at most this many milliseconds. pvs deepens iteratively and reports the last
    /// depth it completed; minimax and alphabeta search one depth (--depth, default 4) and,
    /// stopped by the time before finishing it, report no score (depth 0) and a fallback move;
    /// mcts runs playouts until the time is up.
    #[arg(long, short = 't')]
    pub time: Option<u64>,
    /// Search this many positions.
    #[arg(long, short = 'n')]
    pub nodes: Option<u64>,
    /// The searcher: minimax, alphabeta or pvs (the full one), a rung of the consistency
    /// ladder such as `pvs+tt`, or mcts / mcts-heavy (Monte-Carlo tree search).
    #[arg(long, default_value = "pvs")]
    pub searcher: String,
    /// Search threads (Lazy SMP; 1 = the deterministic search).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// End with one JSON line: depth, score, best, pv, nodes, seconds.
    #[arg(long)]
    pub json: bool,
}

/// `play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    pub start: PositionArgs,
    /// Which side the human plays: first, second, or none (engine against engine).
    #[arg(long, default_value = "first")]
    pub human: String,
    /// Milliseconds per engine move (default 1000 unless --depth is given). As for `analyze`:
    /// minimax and alphabeta search one depth (--depth, default 4) and, stopped by the time
    /// before finishing it, play a fallback move with no score.
    #[arg(long, short = 't')]
    pub time: Option<u64>,
    /// Plies per engine move (1..=999). Not for mcts, which has no search depth.
    #[arg(long, short = 'd')]
    pub depth: Option<u32>,
    /// End the game as a draw after this many plies (for games without a draw rule).
    #[arg(long, default_value_t = 200)]
    pub max_plies: u32,
    /// The engine's searcher: minimax, alphabeta, pvs or mcts (as for `analyze`).
    #[arg(long, default_value = "pvs")]
    pub searcher: String,
    /// The engine's search threads (Lazy SMP; 1 = the deterministic search).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Let the engine think on the human's time: while the human chooses, it searches the
    /// position after the reply it expects, and keeps that search if the reply comes.
    #[arg(long)]
    pub ponder: bool,
}
