//! `analyze`: iterative search of one position, one Crafty-style line per completed iteration
//! and a summary built from [`SearchStats`].
//!
//! With a position store ([`crate::store`]), a position stored at least as deep as `--depth`
//! is answered from it without a search, and every search's result is written to it.
//!
//! Key invariant: every line is printed from what the searcher reported (the iteration callback
//! and the final [`plies::search::SearchResult`]), or from the stored analysis, said to be one;
//! nothing here recomputes a score or a PV.

use std::io::Write;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::engine::{check_depth, check_mcts_depth, searcher, searcher_threads, time_limit};
use crate::error::CliError;
use crate::game_cli::GameCli;
use crate::position::{PositionArgs, start_position};
use crate::store::lookup::{AnalysisStore, Stored};
use crate::store::{EvaluatorKind, StoreArgs, utc_text};
use crate::tables::{TableSource, TablesArgs, check_searcher, print_notes, tables_now};
use crate::text::{move_texts, outcome_text, score_for, side_name};
use clap::Args;
use plies::GameHistory;
use plies::Notation;
use plies::Score;
use plies::search::{Iteration, RootLine, SearchLimits, SearchResult, SearchStats, Searcher};
use plies::solve::TableValue;
use plies::spec::SearcherSpec;

/// `analyze`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").required(true).multiple(true)
    .args(["depth", "time", "nodes"])))]
pub(crate) struct AnalyzeArgs {
    #[command(flatten)]
    pub start: PositionArgs,
    /// Search to this many plies (1..=999). Not for mcts, which has no search depth.
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=crate::engine::MAX_DEPTH))]
    pub depth: Option<u32>,
    /// Search for at most this many milliseconds. pvs deepens iteratively and reports the last
    /// depth it completed; minimax and alphabeta search one depth (--depth, default 4) and,
    /// stopped by the time before finishing it, report no score (depth 0) and a fallback move;
    /// mcts runs playouts until the time is up. At most 86400000 (one day): more is cut to it.
    #[arg(long, short = 't', value_parser = clap::value_parser!(u64).range(1..=u64::MAX))]
    pub time: Option<u64>,
    /// Search this many positions.
    #[arg(long, short = 'n', value_parser = clap::value_parser!(u64).range(1..=u64::MAX))]
    pub nodes: Option<u64>,
    /// The searcher: minimax, alphabeta or pvs (the full one), a rung of the consistency
    /// ladder such as `pvs+tt`, or mcts / mcts-heavy (Monte-Carlo tree search).
    /// Options as `NAME:key=value,...` (`pvs:tt=64,threads=2`).
    #[arg(long, default_value = "pvs", value_parser = clap::value_parser!(SearcherSpec))]
    pub searcher: SearcherSpec,
    /// Search threads (Lazy SMP; 1 = the deterministic search): the same as the searcher's `threads=` option: given both, they must agree. Without
    /// either, one thread.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Report the N best root moves, each with its line (MultiPV; `pvs` only): each iteration
    /// prints them after its first line (`#2`, `#3`, ...), and `--json` adds `lines`.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub multipv: u16,
    /// End with one JSON line: depth, score, best, pv, nodes, seconds, table_hits (and lines
    /// with --multipv), source (`search`, or `store` for an answer from the store).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub tables: TablesArgs,
    #[command(flatten)]
    pub store: StoreArgs,
    /// Search even when the store holds the position at least as deep as --depth (the result
    /// is still written to the store).
    #[arg(long)]
    pub no_store_read: bool,
    /// Which evaluator the command line set (`--eval`, `--weights`): analyses are stored per
    /// evaluator.
    #[arg(skip)]
    pub evaluator: EvaluatorKind,
}

/// Runs `analyze`.
pub(super) fn run<G: Notation>(
    spec: &GameCli<G>,
    args: &AnalyzeArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let started = std::time::Instant::now();
    let limits = checked_limits(args)?;
    let threads = args.threads.map(usize::from);
    let mut searcher = searcher(&spec.evaluator, &args.searcher, threads)?;
    let state: G = start_position(&args.start)?;
    if let Some(outcome) = state.outcome() {
        return Err(CliError::Invalid(format!(
            "nothing to analyze: the game is over ({})",
            outcome_text::<G>(outcome)
        )));
    }
    let mut store = AnalysisStore::open(&args.store, &args.evaluator, &args.searcher, spec.name)?;
    if let (Some(store), Some(depth)) = (&store, args.depth)
        && !args.no_store_read
        && args.multipv == 1
        && let Some(stored) = store.lookup(&state, depth)?
    {
        let name = searcher.name();
        return print_stored(&state, &name, &stored, args.json, started, output);
    }
    let tables = TableSource::new(
        spec,
        &args.tables,
        searcher_threads(&args.searcher, threads).max(2),
    )?;
    check_searcher(&tables, searcher.as_mut(), &state)?;
    use_tables(&tables, searcher.as_mut(), &state, output)?;
    writeln!(
        output,
        "{} analyzing {} (scores for {}, to move)",
        searcher.name(),
        state.format_position(),
        side_name::<G>(state.side_to_move())
    )?;
    writeln!(
        output,
        "{:>7} {:>9} {:>10} {:>12}  pv",
        "depth", "time", "score", "nodes"
    )?;
    let mut failure = None;
    let mut more_lines = Vec::new();
    let result = searcher.search_with(
        &state,
        &GameHistory::default(),
        &limits,
        &mut |iteration: &Iteration<G::Move>| {
            if failure.is_none() {
                failure = iteration_line(&state, iteration, output).err();
            }
            more_lines.clone_from(&iteration.more_lines);
        },
    );
    if let Some(err) = failure {
        return Err(err.into());
    }
    let best = result.best_move.map(|mv| state.format_move(mv));
    writeln!(
        output,
        "best {} score {} depth {} pv {}",
        best.as_deref().unwrap_or("(none)"),
        score_for::<G>(result.known_score(), state.side_to_move()),
        result.depth,
        state.format_line(&result.pv)
    )?;
    summary(&result.stats, searcher.has_transposition_table(), output)?;
    if args.json {
        writeln!(
            output,
            "{}",
            json_line(&state, &result, &more_lines, args.multipv)
        )?;
    }
    if let Some(store) = &mut store {
        output.flush()?;
        store.save(&state, &result, &searcher.name());
    }
    finish_tables(&tables, &state, output)
}

/// The limits of `args`, checked against the searcher: no `--depth` for MCTS, more than one
/// line (`--multipv`) only from pvs.
fn checked_limits(args: &AnalyzeArgs) -> Result<SearchLimits, CliError> {
    let limits = limits(args)?;
    check_mcts_depth(&args.searcher, &limits)
        .map_err(|e| CliError::Invalid(format!("bad --depth: {e}")))?;
    if args.multipv > 1 && !matches!(args.searcher, SearcherSpec::Pvs(_)) {
        return Err(CliError::Invalid(format!(
            "bad --multipv {}: only pvs reports more than one line, not {}",
            args.multipv, args.searcher
        )));
    }
    Ok(limits)
}

/// Gives the searcher the tables ready now (tables still being built are not waited for,
/// unless asked) and says what they hold for `state`, when they hold it.
fn use_tables<G: Notation>(
    tables: &TableSource<G>,
    searcher: &mut dyn Searcher<G>,
    state: &G,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let probe = tables_now(tables, state, output)?;
    if let Some(probe) = &probe {
        searcher
            .set_endgame_tables(Some(Arc::clone(probe)))
            .map_err(|e| CliError::Invalid(e.to_string()))?;
    }
    if let Some(value) = probe.and_then(|probe| probe.probe(state)) {
        writeln!(
            output,
            "tables: this position is {} (for {}, to move)",
            table_value_text(value),
            side_name::<G>(state.side_to_move())
        )?;
    }
    Ok(())
}

/// The `--json` line of a search's `result` in `state` (with `multipv` lines, the others from
/// `more_lines`, the last completed iteration's).
fn json_line<G: Notation>(
    state: &G,
    result: &SearchResult<G::Move>,
    more_lines: &[RootLine<G::Move>],
    multipv: u16,
) -> Value {
    let stats = &result.stats;
    let pv = move_texts(state, &result.pv);
    let best = result.best_move.map(|mv| state.format_move(mv));
    let score = result.known_score();
    let mut line = json!({
        "depth": result.depth,
        "score": score.map(score_json),
        "best": best,
        "pv": pv,
        "nodes": stats.nodes,
        "seconds": stats.elapsed.as_secs_f64(),
        "table_hits": stats.endgame_hits,
    });
    if multipv > 1 {
        // The first line is the answer's; the others come from the last completed
        // iteration (an iteration a limit cut reports none).
        let first = json!({ "score": score.map(score_json), "pv": pv });
        let others = more_lines.iter().map(|more| {
            json!({
                "score": score_json(more.score),
                "pv": move_texts(state, &more.pv),
            })
        });
        line["lines"] = std::iter::once(first).chain(others).collect();
    }
    line["source"] = "search".into();
    line
}

/// Prints an analysis from the store as a search's answer, said to be from the store: the
/// header, where it comes from, the `best` line and (with `json`) the JSON line, its
/// `source` `store`.
fn print_stored<G: Notation>(
    state: &G,
    searcher: &str,
    stored: &Stored<G>,
    json: bool,
    started: std::time::Instant,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let analysis = &stored.analysis;
    writeln!(
        output,
        "{searcher} analyzing {} (scores for {}, to move)",
        state.format_position(),
        side_name::<G>(state.side_to_move())
    )?;
    writeln!(
        output,
        "from the store: depth {} by {} {} {}, {} nodes, written {} (--no-store-read searches \
         again)",
        analysis.depth,
        analysis.engine,
        analysis.version,
        analysis.searcher,
        analysis.nodes,
        utc_text(analysis.written)
    )?;
    writeln!(
        output,
        "best {} score {} depth {} pv {}",
        state.format_move(stored.best),
        score_for::<G>(Some(analysis.score), state.side_to_move()),
        analysis.depth,
        state.format_line(&stored.pv)
    )?;
    if json {
        let line = json!({
            "depth": analysis.depth,
            "score": score_json(analysis.score),
            "best": state.format_move(stored.best),
            "pv": move_texts(state, &stored.pv),
            "nodes": analysis.nodes,
            "seconds": started.elapsed().as_secs_f64(),
            "source": "store",
            "searcher": analysis.searcher,
            "engine": format!("{} {}", analysis.engine, analysis.version),
            "written": analysis.written,
        });
        writeln!(output, "{line}")?;
    }
    Ok(())
}

/// After the answer: a build the search went without is finished (said in one line), so that
/// the next `analyze` of the position reads its tables.
fn finish_tables<G: Notation>(
    tables: &TableSource<G>,
    state: &G,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    if tables.is_building(state) {
        writeln!(
            output,
            "tables: the search went without them; finishing their build for the next analyze"
        )?;
        output.flush()?;
        // A failure is among the notes.
        let _ = tables.wait(state);
    }
    print_notes(tables, output)?;
    Ok(())
}

/// The search limits asked for; at least one is present (clap enforces it).
fn limits(args: &AnalyzeArgs) -> Result<SearchLimits, CliError> {
    // Analysis ends at a proven win or loss, even before the depth asked.
    let mut limits = SearchLimits::default().until_proven();
    if let Some(depth) = args.depth {
        limits.depth = Some(check_depth(depth)?);
    }
    if let Some(ms) = args.time {
        limits.time = Some(time_limit(ms, "--")?);
    }
    limits.nodes = args.nodes;
    limits.multipv = usize::from(args.multipv);
    Ok(limits)
}

/// One line per completed iteration: `depth/seldepth time score nodes pv`.
fn iteration_line<G: Notation>(
    state: &G,
    iteration: &Iteration<G::Move>,
    output: &mut dyn Write,
) -> std::io::Result<()> {
    let depth = format!("{}/{}", iteration.depth, iteration.seldepth);
    let time = format!("{:.3}s", iteration.stats.elapsed.as_secs_f64());
    writeln!(
        output,
        "{depth:>7} {time:>9} {:>10} {:>12}  {}",
        iteration.score.to_string(),
        iteration.stats.nodes,
        state.format_line(&iteration.pv)
    )?;
    for (number, line) in iteration.more_lines.iter().enumerate() {
        writeln!(
            output,
            "{:>7} {:>9} {:>10} {:>12}  {}",
            format!("#{}", number + 2),
            "",
            line.score.to_string(),
            "",
            state.format_line(&line.pv)
        )?;
    }
    Ok(())
}

/// The closing summary: nodes and speed, then the transposition table's figures (for a
/// searcher that has one, `has_tt`) and ordering figures.
fn summary(stats: &SearchStats, has_tt: bool, output: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        output,
        "nodes {} (quiescence {}), time {:.3} s, {:.0} nodes/s",
        stats.nodes,
        stats.qnodes,
        stats.elapsed.as_secs_f64(),
        stats.nodes_per_second()
    )?;
    let branching = stats
        .branching_factor()
        .map_or_else(|| "n/a".to_string(), |b| format!("{b:.2}"));
    let first_cut = if stats.cutoffs == 0 {
        0.0
    } else {
        stats.first_move_cutoffs as f64 / stats.cutoffs as f64
    };
    if has_tt {
        write!(
            output,
            "tt fill {:.1}%, hit rate {:.1}%, ",
            stats.tt_fill * 100.0,
            stats.tt_hit_rate() * 100.0,
        )?;
    }
    writeln!(
        output,
        "branching factor {branching}, first-move cutoffs {:.1}%",
        first_cut * 100.0
    )?;
    if stats.endgame_hits > 0 {
        writeln!(
            output,
            "endgame tables: {} positions scored from them (exact values)",
            stats.endgame_hits
        )?;
    }
    if let Some((main, helpers)) = stats.thread_nodes.split_first() {
        let helpers: Vec<String> = helpers.iter().map(u64::to_string).collect();
        writeln!(
            output,
            "threads {}: main {main} nodes, helpers {}",
            stats.thread_nodes.len(),
            helpers.join(" ")
        )?;
    }
    Ok(())
}

/// A table value in words.
fn table_value_text(value: TableValue) -> String {
    match value {
        TableValue::Win(d) => format!("a win in {d} plies"),
        TableValue::Loss(d) => format!("a loss in {d} plies"),
        TableValue::Draw => "a draw (neither side can force the end)".to_string(),
        TableValue::Won => "a win (its length is not stored)".to_string(),
        TableValue::Lost => "a loss (its length is not stored)".to_string(),
    }
}

/// `{"cp": n}`, `{"win_in": plies}` or `{"loss_in": plies}`.
pub(super) fn score_json(score: Score) -> Value {
    match score.plies_to_end() {
        Some(plies) if score.is_win() => json!({ "win_in": plies }),
        Some(plies) => json!({ "loss_in": plies }),
        None => json!({ "cp": score.raw() }),
    }
}

#[cfg(test)]
mod tests;
