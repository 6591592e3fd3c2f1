//! [`GameCli`]: what a game hands to the command line.
//!
//! Key invariant: everything the generic commands need from a game is here; nothing else in
//! this crate names a game. A game sets the fields it needs and takes the rest from
//! [`GameCli::new`].

use plies::harness::bench::BenchSuite;
use plies::notation::Notation;

use crate::engine::EvaluatorFactory;
use crate::extension::{EvaluatorPreset, GameCommand, PositionOptions};

/// What a game supplies to get its command line, built as a struct literal ending in
/// `..GameCli::new(name, evaluator)`.
pub struct GameCli<G: Notation> {
    /// The program name shown in help and usage text.
    pub name: &'static str,
    /// The evaluator the searchers use. A game whose evaluator is not tunable
    /// ([`crate::evaluator`]) gets no `tune` command and no `--weights`.
    pub evaluator: EvaluatorFactory<G>,
    /// The positions `bench` searches, in the game's notation (default none).
    pub bench_positions: &'static [&'static str],
    /// The depth `bench` searches them to (default 1).
    pub bench_depth: u32,
    /// The whole benchmark: the depth ladder and proofs of `bench --full`, and the node totals
    /// every `bench` checks (default the empty suite: nothing checked).
    pub bench: BenchSuite,
    /// Options added to every command that takes `--position` (default none).
    pub position_options: Option<&'static dyn PositionOptions>,
    /// The evaluators `--eval NAME` picks from instead of `evaluator` (default none: no
    /// `--eval`).
    pub presets: &'static [EvaluatorPreset<G>],
    /// The game's own commands beside the generic ones (default none).
    pub commands: &'static [GameCommand<G>],
}

impl<G: Notation> GameCli<G> {
    /// A command line called `name` with `evaluator`, no bench positions and the empty suite.
    #[must_use]
    pub fn new(name: &'static str, evaluator: EvaluatorFactory<G>) -> GameCli<G> {
        GameCli {
            name,
            evaluator,
            bench_positions: &[],
            bench_depth: 1,
            bench: BenchSuite::new(),
            position_options: None,
            presets: &[],
            commands: &[],
        }
    }
}

impl<G: Notation> Clone for GameCli<G> {
    fn clone(&self) -> GameCli<G> {
        GameCli {
            name: self.name,
            evaluator: self.evaluator.clone(),
            bench_positions: self.bench_positions,
            bench_depth: self.bench_depth,
            bench: self.bench,
            position_options: self.position_options,
            presets: self.presets,
            commands: self.commands,
        }
    }
}
