//! The command line's grammar, declared with clap's derive: one struct per command.
//!
//! Key invariant: this file only describes the arguments; every check that needs the game
//! (positions, moves) or a range (depth at least 1) happens in the command's own module and is
//! reported as a one-line [`super::CliError`].

use clap::{Parser, Subcommand};

/// The whole command line: one command.
#[derive(Parser, Debug)]
#[command(version, about = "Perft, analysis, play and bench for a plies game")]
pub(crate) struct Cli {
    /// Use the evaluator weights of this weights file (as `tune` writes them) in every engine
    /// of the command; for games with a tunable evaluator.
    #[arg(long, global = true, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
    /// Write diagnostic events to stderr at this level: off, error, warn, info (arena games,
    /// long runs), debug (also every search iteration and OTEP line), trace; or
    /// `target=level,...`. Without it, `RUST_LOG` is read the same way.
    #[arg(long, global = true, value_name = "LEVEL")]
    pub log: Option<String>,
    /// Use the game's evaluator preset NAME instead of its default evaluator (games with
    /// presets only).
    #[arg(long, global = true, value_name = "NAME", hide = true)]
    pub eval: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Count the leaf positions of the move tree to a depth.
    Perft(crate::perft::PerftArgs),
    /// Search a position and report each completed iteration.
    Analyze(crate::analyze::AnalyzeArgs),
    /// Play in the terminal: human against engine, or engine against engine.
    Play(crate::play::PlayArgs),
    /// Search the game's fixed bench positions to a fixed depth; the total node count is a
    /// signature of the search.
    Bench(crate::bench::BenchArgs),
    /// Play a match (two engines) or a round robin (more) over openings, each played twice
    /// with colours swapped; prints each game and a results table with Elo and its 95% interval.
    Arena(crate::arena_command::ArenaArgs),
    /// Tune the evaluator's weights by SPSA over games: resumable, and sharded over processes
    /// or a scheduler's job array (`tune init`, `run`, `play --shard K/N`, `merge`, `status`).
    Tune(crate::tune::TuneArgs),
    /// Serve the game's web page: play against the engine by clicking, analyse, navigate.
    #[cfg(feature = "serve")]
    Serve(crate::serve::ServeArgs),
    /// Build the endgame tables of every card set (or key) a game lists into one shared
    /// directory, a shard at a time, as a cluster's job array does (`precompute sets`, `run
    /// --shard K/N`, `verify`, `manifest`).
    Precompute(crate::tables::precompute::PrecomputeArgs),
    /// Run as an engine speaking UGI (the Universal Game Interface) on stdin and stdout, for
    /// GUIs and tournament managers: one process for a whole match.
    Ugi(crate::ugi::UgiArgs),
    /// The position store of analyses (`analyze` writes to it and answers from it): counts
    /// and size, export and import as JSON lines, prune to a size (`store stats`, `export`,
    /// `import`, `prune`).
    Store(crate::store::command::StoreCommandArgs),
    /// The opening explorer: the moves recorded games (`arena --store`) played in a position,
    /// with their counts and results from the mover's view.
    Explore(crate::explore::ExploreArgs),
    /// Opening books from the store's recorded games (`book build --min-games N --out FILE`),
    /// for `play --book`, the arena's `-e pvs:book=FILE` and UGI's `Book` option.
    Book(crate::book::BookArgs),
}

impl Command {
    /// The command's `--position`/`--moves` arguments, for the commands that take them.
    pub fn start_mut(&mut self) -> Option<&mut crate::position::PositionArgs> {
        use crate::tune::TuneCommand;
        match self {
            Command::Perft(args) => Some(&mut args.start),
            Command::Analyze(args) => Some(&mut args.start),
            Command::Play(args) => Some(&mut args.start),
            Command::Bench(args) => Some(&mut args.start),
            Command::Arena(args) => Some(&mut args.start),
            #[cfg(feature = "serve")]
            Command::Serve(args) => Some(&mut args.start),
            Command::Explore(args) => Some(&mut args.start),
            Command::Book(book) => match &mut book.command {
                crate::book::BookCommand::Build(args) => Some(&mut args.start),
            },
            Command::Tune(tune) => match &mut tune.command {
                TuneCommand::Init(args) => Some(&mut args.start),
                TuneCommand::Positions(args) => Some(&mut args.start),
                _ => None,
            },
            // Positions come over the protocol; the sets are the game's own.
            Command::Ugi(_) | Command::Precompute(_) | Command::Store(_) => None,
        }
    }
}
