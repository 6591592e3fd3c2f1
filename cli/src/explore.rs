//! `explore`: the opening explorer of the position store. For a position (`--position`,
//! `--moves`), the moves the recorded games (`arena --store`) played there, the most played
//! first, each with its count of games and their results from the view of the side that
//! played it (wins, draws, losses and its score), as a table or one JSON line.
//!
//! Key invariant: the position is keyed as the store keys it (the game's own position text),
//! so a position reached by different move orders shows the games of every order; bad input
//! (a position, a move, a store that is not a plies store) is a one-line error.

use std::io::Write;

use clap::Args;
use plies::Notation;
use serde_json::{Value, json};

use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::position::{PositionArgs, start_position};
use crate::store::StoreArgs;
use crate::store::games::{MoveCount, explore};

/// `explore`.
#[derive(Args, Debug)]
pub(crate) struct ExploreArgs {
    /// The position to explore (default the start position).
    #[command(flatten)]
    pub start: PositionArgs,
    /// The store to read (default: the one in the user's data directory).
    #[command(flatten)]
    pub store: StoreArgs,
    /// End with one JSON line: position, games, moves `[{move, games, wins, draws, losses,
    /// score}]`.
    #[arg(long)]
    pub json: bool,
}

/// The explorer's answer as JSON: `{position, games, moves: [{move, games, wins, draws, losses,
/// score}]}`, `games` the sum of the moves' counts (the games that went on from the position).
pub(crate) fn explore_json(position: &str, counts: &[MoveCount]) -> Value {
    let moves: Vec<Value> = counts
        .iter()
        .map(|count| {
            json!({
                "move": count.played,
                "games": count.games,
                "wins": count.wins,
                "draws": count.draws,
                "losses": count.losses,
                "score": count.score(),
            })
        })
        .collect();
    json!({
        "position": position,
        "games": counts.iter().map(|count| count.games).sum::<u64>(),
        "moves": moves,
    })
}

/// Runs `explore`.
pub(crate) fn run<G: Notation>(
    spec: &GameCli<G>,
    args: &ExploreArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let state: G = start_position(&args.start)?;
    let store = args.store.open_named()?;
    let counts = explore(&store, spec.name, &state)?;
    let position = state.format_position();
    let total: u64 = counts.iter().map(|count| count.games).sum();
    writeln!(
        output,
        "explore: {total} recorded games went on from {position} (store {})",
        store.path().display()
    )?;
    if !counts.is_empty() {
        let width = counts
            .iter()
            .map(|count| count.played.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        writeln!(
            output,
            "{:<width$}  {:>7}  {:>6}  {:>6}  {:>6}  {:>6}",
            "move", "games", "wins", "draws", "losses", "score"
        )?;
        for count in &counts {
            writeln!(
                output,
                "{:<width$}  {:>7}  {:>6}  {:>6}  {:>6}  {:>5.1}%",
                count.played,
                count.games,
                count.wins,
                count.draws,
                count.losses,
                100.0 * count.score()
            )?;
        }
        writeln!(
            output,
            "(wins, draws and losses of the side that played the move)"
        )?;
    }
    if args.json {
        writeln!(output, "{}", explore_json(&position, &counts))?;
    }
    Ok(())
}
