//! `play`: a game in the terminal, human against engine or engine against engine.
//!
//! With `--ponder` the engine thinks while the human chooses: after its move it searches the
//! position after the reply its principal variation expects ([`Ponderer`]); if the human plays
//! that reply the search goes on within the engine's budget (`[ponder hit]`), otherwise it starts
//! afresh with what it learnt (`[ponder miss]`).
//!
//! Key invariant: only legal moves are ever played (human text goes through
//! [`Notation::parse_move`], which checks legality; a rejected move is re-prompted with the
//! reason), and the loop always ends: by the game's outcome, the `--max-plies` cap, `quit`, or
//! the end of the input (a background ponder search is stopped on every way out). The engine
//! searches with the game's history, and the repetition rule of a game that has one ends the
//! game ([`GameHistory`]).

use std::io::{BufRead, Write};
use std::time::Duration;

use crate::book::{Book, Pick};
use crate::engine::{check_depth, check_mcts_depth, searcher, searcher_threads, time_limit};
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::position::{PositionArgs, start_position};
use crate::tables::{TableSource, TablesArgs, check_searcher, tables_now};
use crate::text::{outcome_text, score_for, side_name};
use clap::Args;
use plies::Notation;
use plies::search::{PonderOutcome, Ponderer, SearchLimits};
use plies::spec::SearcherSpec;
use plies::{GameHistory, Side};

/// The side the human plays in `play`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Human {
    /// The side that moves first.
    First,
    /// The side that moves second.
    Second,
    /// Neither: the engine plays itself.
    None,
}

/// `play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    pub start: PositionArgs,
    /// Which side the human plays: first, second, or none (engine against engine).
    #[arg(long, value_enum, default_value_t = Human::First, ignore_case = true)]
    pub human: Human,
    /// Milliseconds per engine move (default 1000 unless --depth is given). As for `analyze`:
    /// minimax and alphabeta search one depth (--depth, default 4) and, stopped by the time
    /// before finishing it, play a fallback move with no score. At most 86400000 (one day): more
    /// is cut to it.
    #[arg(long, short = 't', value_parser = clap::value_parser!(u64).range(1..=u64::MAX))]
    pub time: Option<u64>,
    /// Plies per engine move (1..=999). Not for mcts, which has no search depth.
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=crate::engine::MAX_DEPTH))]
    pub depth: Option<u32>,
    /// End the game as a draw after this many plies (for games without a draw rule).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=i64::from(u32::MAX)))]
    pub max_plies: u32,
    /// The engine's searcher: minimax, alphabeta, pvs or mcts (as for `analyze`).
    /// Options as `NAME:key=value,...` (`pvs:tt=64,threads=2`).
    #[arg(long, default_value = "pvs", value_parser = clap::value_parser!(SearcherSpec))]
    pub searcher: SearcherSpec,
    /// The engine's search threads (Lazy SMP; 1 = the deterministic search): the same as the searcher's `threads=` option: given both, they must agree. Without
    /// either, one thread.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Let the engine think on the human's time: while the human chooses, it searches the
    /// position after the reply it expects, and keeps that search if the reply comes.
    #[arg(long)]
    pub ponder: bool,
    #[command(flatten)]
    pub tables: TablesArgs,
    /// An opening book (`book build`): where it has the position, the engine plays its move
    /// without searching (said as `[book: ...]`).
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,
    /// How the book picks among a position's moves: weighted (at random, by weight, from
    /// --seed) or best (the greatest weight).
    #[arg(long, value_enum, default_value_t = Pick::Weighted, ignore_case = true)]
    pub book_pick: Pick,
    /// The seed of the book's weighted picks: the same seed plays the same book moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `play`.
pub(super) fn run<G: Notation>(
    spec: &GameCli<G>,
    args: &PlayArgs,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let human = match args.human {
        Human::First => Some(Side::First),
        Human::Second => Some(Side::Second),
        Human::None => None,
    };
    let limits = limits(args)?;
    check_mcts_depth(&args.searcher, &limits)
        .map_err(|e| CliError::Invalid(format!("bad --depth: {e}")))?;
    let threads = args.threads.map(usize::from);
    let mut searcher = searcher(&spec.evaluator, &args.searcher, threads)?;
    let mut state: G = start_position(&args.start)?;
    let book = match &args.book {
        Some(path) => Some(Book::read::<G>(path, spec.name)?),
        None => None,
    };
    // The tables of the game's key: read now when cached, else built in the background.
    let tables = TableSource::new(
        spec,
        &args.tables,
        searcher_threads(&args.searcher, threads).max(2),
    )?;
    check_searcher(&tables, searcher.as_mut(), &state)?;
    // Whether the engine has the tables of the game's key (they come when ready).
    let probe = tables_now(&tables, &state, output)?;
    // What the engine has: the key's tables, and the upgrade's once ready (`--tables N,M`).
    let mut equipped = probe.as_ref().and_then(|_| tables.label(&state));
    searcher
        .set_endgame_tables(probe)
        .map_err(|e| CliError::Invalid(e.to_string()))?;
    let mut engine = Ponderer::new(searcher);
    let mut record: Vec<String> = Vec::new();
    let mut history = GameHistory::new(&state);
    writeln!(output, "{}", state.display_board())?;
    loop {
        if let Some(outcome) = state.outcome() {
            writeln!(output, "game over: {}", outcome_text::<G>(outcome))?;
            break;
        }
        if record.len() >= args.max_plies as usize {
            writeln!(output, "game over: draw by the {}-ply cap", args.max_plies)?;
            break;
        }
        let side = state.side_to_move();
        let mv = if human == Some(side) {
            match human_move(&state, record.len(), input, output)? {
                Some(mv) => mv,
                None => return Ok(()),
            }
        } else if let Some((mv, entry)) = book
            .as_ref()
            .and_then(|book| book.pick(&state, args.book_pick, args.seed))
        {
            writeln!(
                output,
                "{} (engine) plays {}  [book: {}]",
                side_name::<G>(side),
                state.format_move(mv),
                entry.describe()
            )?;
            mv
        } else {
            take_new_tables(&tables, &state, &mut equipped, &mut engine, output)?;
            let result = engine.search_in(&state, &history, &limits);
            let Some(mv) = result.best_move else {
                return Err(CliError::Invalid("the engine found no move".into()));
            };
            let pondered = match engine.last_outcome() {
                PonderOutcome::Idle => "",
                PonderOutcome::Hit => " [ponder hit]",
                PonderOutcome::Miss => " [ponder miss]",
            };
            writeln!(
                output,
                "{} (engine) plays {}  [score {}, depth {}, {} nodes, {:.2} s]{pondered}",
                side_name::<G>(side),
                state.format_move(mv),
                score_for::<G>(result.known_score(), side),
                result.depth,
                result.stats.nodes,
                result.stats.elapsed.as_secs_f64()
            )?;
            // Think on the human's time (the ponderer declines when no reply is predicted).
            if args.ponder && human.is_some() && result.pv.first() == Some(&mv) {
                engine.ponder(&state, &result.pv);
            }
            mv
        };
        record.push(state.format_move(mv));
        state = state.play(mv);
        writeln!(output, "{}", state.display_board())?;
        if let Some(outcome) = history.play(side, &state) {
            writeln!(
                output,
                "game over by repetition: {}",
                outcome_text::<G>(outcome)
            )?;
            break;
        }
    }
    writeln!(output, "moves: {}", record.join(" "))?;
    writeln!(output, "final position: {}", state.format_position())?;
    Ok(())
}

/// Gives the engine the tables built since it was last equipped (`equipped`: the label of
/// what it has), before a move's search, never during one; or asks for the upgrade (if any)
/// once the first tables are there.
fn take_new_tables<G: Notation>(
    tables: &TableSource<G>,
    state: &G,
    equipped: &mut Option<String>,
    engine: &mut Ponderer<G>,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let wanted = tables.label(state);
    if *equipped != wanted
        && let Some(probe) = tables_now(tables, state, output)?
    {
        engine
            .searcher()
            .set_endgame_tables(Some(probe))
            .map_err(|e| CliError::Invalid(e.to_string()))?;
        *equipped = tables.label(state);
    } else if equipped.is_some() {
        tables.request(state);
    }
    Ok(())
}

/// The engine's limits per move: `--depth`, `--time`, or one second.
fn limits(args: &PlayArgs) -> Result<SearchLimits, CliError> {
    let mut limits = SearchLimits::default();
    if let Some(depth) = args.depth {
        limits.depth = Some(check_depth(depth)?);
    }
    match args.time {
        Some(ms) => limits.time = Some(time_limit(ms, "--")?),
        None if args.depth.is_none() => limits.time = Some(Duration::from_millis(1000)),
        None => {}
    }
    Ok(limits)
}

/// Reads the human's move, re-prompting on bad text. `None` when the human quits or the input
/// ends.
fn human_move<G: Notation>(
    state: &G,
    ply: usize,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<Option<G::Move>, CliError> {
    loop {
        write!(
            output,
            "ply {} ({}) - your move, 'moves' or 'quit': ",
            ply + 1,
            side_name::<G>(state.side_to_move())
        )?;
        output.flush()?;
        let mut bytes = Vec::new();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            writeln!(output)?;
            writeln!(output, "end of input: leaving the game")?;
            return Ok(None);
        }
        // A stray byte that is not UTF-8 (a mistyped key) is a bad move, not the end of the game.
        let Ok(line) = String::from_utf8(bytes) else {
            writeln!(output, "bad move: the line is not UTF-8 text")?;
            continue;
        };
        let text = line.trim();
        match text.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "exit" => {
                writeln!(output, "bye")?;
                return Ok(None);
            }
            "moves" | "help" | "?" => {
                let mut moves = Vec::new();
                state.generate_moves(&mut moves);
                let texts: Vec<String> = moves.iter().map(|&m| state.format_move(m)).collect();
                writeln!(output, "legal moves: {}", texts.join(", "))?;
                continue;
            }
            _ => {}
        }
        match state.parse_move(text) {
            Ok(mv) => return Ok(Some(mv)),
            Err(err) => writeln!(output, "bad move {err}")?,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::{run_invalid, run_ok, run_usage, run_with};

    #[test]
    fn human_bad_move_then_quit() {
        let out = run_with("play --depth 3", "c1\n\nA1\nmoves\nquit\n").unwrap();
        assert!(out.starts_with("7 5 1\n"), "{out}");
        assert!(out.contains("bad move 'c1': expected pile a or b"), "{out}");
        // A1 is played (case-insensitive), then the engine answers and the human is asked again.
        assert!(out.contains("6 5 2\n"), "{out}");
        assert!(out.contains("second player (engine) plays"), "{out}");
        assert!(out.contains("legal moves: a1, "), "{out}");
        assert!(out.trim_end().ends_with("bye"), "{out}");
    }

    #[test]
    fn end_of_input_leaves_cleanly() {
        let out = run_with("play --human second --depth 2 --position \"3 3 2\"", "").unwrap();
        assert!(out.contains("end of input"), "{out}");
    }

    #[test]
    fn engine_against_engine_finishes() {
        let out = run_ok("play --human none --depth 4 --searcher minimax");
        assert!(out.contains("game over: "), "{out}");
        assert!(out.contains("player won"), "{out}");
        let record = out.lines().find(|l| l.starts_with("moves: ")).unwrap();
        // The record replays to a finished game.
        let replay = run_ok(&format!("perft --depth 1 --moves \"{}\"", &record[7..]));
        assert!(
            replay.contains(": 0 nodes") || replay.contains(": 1 nodes"),
            "{replay}"
        );
    }

    #[test]
    fn ply_cap_draws() {
        let out = run_ok("play --human none --depth 2 --max-plies 3");
        assert!(out.contains("draw by the 3-ply cap"), "{out}");
        assert_eq!(
            out.lines()
                .find(|l| l.starts_with("moves: "))
                .unwrap()
                .split(' ')
                .count(),
            4
        );
    }

    #[test]
    fn bad_options() {
        assert!(run_usage("play --human both").contains("both"));
        assert!(run_usage("play --depth 0").contains("--depth"));
        assert!(run_usage("play --threads 0").contains("--threads"));
        let err = run_invalid("play --threads 2 --searcher minimax");
        assert!(err.contains("one thread"), "{err}");
    }

    /// The engine ponders on the human's time: its answers to the human's moves are marked as
    /// a hit or a miss of its prediction, and threads are accepted.
    #[test]
    fn pondering_engine_marks_its_answers() {
        let out = run_with(
            "play --depth 4 --ponder --threads 2 --position \"7 5 1\"",
            "a1\nb1\nquit\n",
        )
        .unwrap();
        let engine: Vec<&str> = out.lines().filter(|l| l.contains("(engine)")).collect();
        assert!(!engine[0].contains("[ponder"), "{out}");
        assert!(
            engine[1..]
                .iter()
                .any(|l| l.ends_with("[ponder hit]") || l.ends_with("[ponder miss]")),
            "{out}"
        );
        // Without --ponder nothing is marked.
        let out = run_with("play --depth 4 --position \"7 5 1\"", "a1\nb1\nquit\n").unwrap();
        assert!(!out.contains("[ponder"), "{out}");
    }
}
