//! The `suite` and `suite-build` commands: a tactics suite of king escapes and captures from
//! finished games ([`plies_tafl::suite`]), built with exhaustive proofs and searched at a fixed
//! time or node count per position.
//!
//! Key invariant: `suite` builds a fresh searcher for each position, so an answer does not
//! depend on the positions searched before it.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{FromArgMatches, Parser};
use plies::search::SearchLimits;
use plies::spec::SearcherSpec;
use plies::{Game, Notation, Outcome, Side};
use plies_cli::{CliError, CommandContext};
use plies_tafl::suite::{Answer, Proof, Tactic, judge, parse_suite, position_text, prove_win_of};
use plies_tafl::{GameRecord, Tafl, start_of};
use plies_tafl_otep::engine::MAX_CLOCK_MS;

use crate::variant::known_variant;

/// Search every position of a tactics suite (king escapes and captures with proven results)
/// within a limit each, and count how many the searcher solves: the winning side finds the
/// win, the losing side sees the loss coming.
#[derive(Parser, Debug)]
pub(crate) struct SuiteArgs {
    /// The suite file (`POSITION | PROOF | SOURCE` lines, as `suite-build` writes).
    #[arg(
        long,
        value_name = "FILE",
        default_value = "games/tafl/suite/escapes.txt"
    )]
    file: PathBuf,
    /// Milliseconds per position.
    #[arg(long, value_name = "MS", conflicts_with = "nodes",
          value_parser = clap::value_parser!(u64).range(1..=MAX_CLOCK_MS))]
    time: Option<u64>,
    /// Positions searched per position of the suite (deterministic).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// The searcher (a spec as in `analyze --searcher`).
    #[arg(long, default_value = "pvs")]
    searcher: String,
    /// Print each position's answer too.
    #[arg(long)]
    verbose: bool,
    /// End with one JSON line of the counts.
    #[arg(long)]
    json: bool,
}

/// Build a tactics suite from finished games: positions a few plies before a king escape or
/// capture whose result an exhaustive search proves, the proof kept on each line.
#[derive(Parser, Debug)]
pub(crate) struct SuiteBuildArgs {
    /// Game records as `moves,attacker_captures,defender_captures,status` lines (the
    /// aagenielsen.dk Copenhagen export), played from the variant's start (repeatable).
    #[arg(long, value_name = "FILE")]
    csv: Vec<PathBuf>,
    /// Games as the arena's `--results` JSON lines (repeatable).
    #[arg(long, value_name = "FILE")]
    arena: Vec<PathBuf>,
    /// The built-in variant of every game read.
    #[arg(long, value_parser = known_variant, default_value = "copenhagen")]
    variant: String,
    /// The longest proof looked for, in plies (positions this close to a game's end or
    /// closer are candidates).
    #[arg(long, value_name = "PLIES", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(2..=9))]
    max_plies: u32,
    /// Positions kept per proof (`win 3`, `win 5`, `loss 2`, `loss 4`, ...; one-ply wins are
    /// left out).
    #[arg(long, value_name = "N", default_value_t = 100)]
    per_class: usize,
    /// Positions the exhaustive proof search of one candidate may make before it gives up.
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    budget: u64,
    /// Where the suite goes (`-` for standard output).
    #[arg(long, value_name = "FILE", default_value = "-")]
    out: PathBuf,
}

fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path)
        .map_err(|e| CliError::Invalid(format!("cannot read {}: {e}", path.display())))
}

/// The counts of one group of positions.
#[derive(Default, Clone, Copy)]
struct Tally {
    positions: usize,
    solved: usize,
    wrong: usize,
}

impl Tally {
    fn add(&mut self, answer: Answer) {
        self.positions += 1;
        self.solved += usize::from(answer == Answer::Solved);
        self.wrong += usize::from(answer == Answer::Wrong);
    }
}

/// `suite`: search each position and count the answers per proof and per side.
pub(crate) fn run(context: CommandContext<'_, Tafl>) -> Result<(), CliError> {
    let args =
        SuiteArgs::from_arg_matches(context.matches).map_err(|e| CliError::Usage(e.to_string()))?;
    let tactics = parse_suite(&read(&args.file)?)
        .map_err(|e| CliError::Invalid(format!("{}: {e}", args.file.display())))?;
    let limits = match (args.time, args.nodes) {
        (Some(ms), None) => SearchLimits::time(Duration::from_millis(ms)),
        (None, Some(nodes)) => SearchLimits::nodes(nodes),
        _ => {
            return Err(CliError::Usage("suite needs --time MS or --nodes N".into()));
        }
    }
    .until_proven();
    let spec: SearcherSpec = args
        .searcher
        .parse()
        .map_err(|e| CliError::Invalid(format!("--searcher: {e}")))?;
    let out = context.output;
    let mut by_proof: BTreeMap<Proof, Tally> = BTreeMap::new();
    let mut by_role = [Tally::default(); 2];
    let mut nodes = 0u64;
    for tactic in &tactics {
        let mut searcher = context
            .game
            .evaluator
            .searcher(&spec, None)
            .map_err(CliError::from)?;
        let result = searcher.search(&tactic.position, &limits);
        nodes += result.stats.nodes;
        let answer = judge(tactic.proof, result.known_score());
        by_proof.entry(tactic.proof).or_default().add(answer);
        by_role[usize::from(matches!(tactic.proof, Proof::Loss(_)))].add(answer);
        if args.verbose {
            writeln!(
                out,
                "{:?} {} | {} | depth {} score {} best {}",
                answer,
                tactic.proof,
                tactic.source,
                result.depth,
                result
                    .known_score()
                    .map_or_else(|| "none".to_string(), |s| s.to_string()),
                result
                    .best_move
                    .map_or("(none)".into(), |m| tactic.position.format_move(m)),
            )?;
        }
    }
    let limit = args.time.map_or_else(
        || format!("{} nodes", args.nodes.unwrap_or(0)),
        |ms| format!("{ms} ms"),
    );
    writeln!(
        out,
        "suite {}: {} positions, {limit} each, {}",
        args.file.display(),
        tactics.len(),
        spec
    )?;
    writeln!(
        out,
        "{:<28} {:>9} {:>7} {:>6}",
        "proof", "positions", "solved", "wrong"
    )?;
    for (proof, tally) in &by_proof {
        let name = proof.to_string();
        writeln!(
            out,
            "{name:<28} {:>9} {:>7} {:>6}",
            tally.positions, tally.solved, tally.wrong
        )?;
    }
    for (role, tally) in [
        "winning side (finds the win)",
        "losing side (sees the loss)",
    ]
    .iter()
    .zip(by_role)
    {
        writeln!(
            out,
            "{role:<28} {:>9} {:>7} {:>6}",
            tally.positions, tally.solved, tally.wrong
        )?;
    }
    writeln!(out, "nodes {nodes}")?;
    if args.json {
        let json = serde_json::json!({
            "positions": tactics.len(),
            "winning": {"positions": by_role[0].positions, "solved": by_role[0].solved,
                        "wrong": by_role[0].wrong},
            "losing": {"positions": by_role[1].positions, "solved": by_role[1].solved,
                       "wrong": by_role[1].wrong},
            "nodes": nodes,
        });
        writeln!(out, "{json}")?;
    }
    Ok(())
}

/// A finished game to take positions from: its record and a name for the suite lines.
struct Source {
    name: String,
    record: GameRecord,
}

/// Replays `moves` (tokens) from `start`; `None` when a move is illegal or the game goes on
/// after it is over (such records are not used).
fn replay(start: Tafl, moves: &[&str]) -> Option<GameRecord> {
    let mut record = GameRecord::new(start);
    for token in moves {
        if record.current().outcome().is_some() {
            return None;
        }
        record.play_text(token).ok()?;
    }
    Some(record)
}

/// The games of `--csv` and `--arena` files that ended by the rules with a winner.
fn sources(args: &SuiteBuildArgs, start: Tafl) -> Result<Vec<Source>, CliError> {
    let mut games = Vec::new();
    for path in &args.csv {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        for (index, line) in read(path)?.lines().enumerate() {
            let moves = line.split(',').next().unwrap_or("");
            let tokens: Vec<&str> = moves.split_whitespace().collect();
            if tokens.contains(&"timeout") {
                continue;
            }
            if let Some(record) = replay(start, &tokens) {
                games.push(Source {
                    name: format!("{name} line {}", index + 1),
                    record,
                });
            }
        }
    }
    for path in &args.arena {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        for (index, line) in read(path)?.lines().enumerate() {
            let bad = |what: &str| {
                CliError::Invalid(format!("{} line {}: {what}", path.display(), index + 1))
            };
            let game: serde_json::Value =
                serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
            let opening = game["opening_position"]
                .as_str()
                .ok_or_else(|| bad("no opening_position"))?;
            let opening = Tafl::parse_position(opening).map_err(|e| bad(&e.to_string()))?;
            if opening.rules().name != start.rules().name {
                return Err(bad(&format!(
                    "a {} game, not {}",
                    opening.rules().name,
                    args.variant
                )));
            }
            let moves: Vec<&str> = game["moves"]
                .as_array()
                .ok_or_else(|| bad("no moves"))?
                .iter()
                .filter_map(|m| m.as_str())
                .collect();
            if let Some(record) = replay(opening, &moves) {
                let id = game["id"].as_u64().unwrap_or(index as u64);
                games.push(Source {
                    name: format!("{name} game {id}"),
                    record,
                });
            }
        }
    }
    games.retain(|game| {
        !game.record.ended_by_repetition()
            && matches!(game.record.current().outcome(), Some(Outcome::Win(_)))
    });
    Ok(games)
}

/// `suite-build`: prove the positions near each game's end and keep up to `--per-class` of
/// each proof.
pub(crate) fn build(context: CommandContext<'_, Tafl>) -> Result<(), CliError> {
    let args = SuiteBuildArgs::from_arg_matches(context.matches)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    if args.csv.is_empty() && args.arena.is_empty() {
        return Err(CliError::Usage(
            "suite-build needs --csv FILE or --arena FILE".into(),
        ));
    }
    let start = start_of(&args.variant).map_err(|e| CliError::Invalid(e.to_string()))?;
    let games = sources(&args, start)?;
    // Every proof kept: win 3, 5, ... and loss 2, 4, ... up to --max-plies (one-ply wins left out).
    let classes = (2..=args.max_plies).count();
    let mut kept: BTreeMap<Proof, Vec<Tactic>> = BTreeMap::new();
    let mut seen = HashSet::new();
    let (mut tried, mut exhausted) = (0usize, 0usize);
    let full = |kept: &BTreeMap<Proof, Vec<Tactic>>| {
        kept.len() == classes && kept.values().all(|class| class.len() >= args.per_class)
    };
    'games: for game in &games {
        let Some(Outcome::Win(winner)) = game.record.current().outcome() else {
            continue;
        };
        let positions = game.record.positions();
        let plies = game.record.moves().len();
        for back in 1..=args.max_plies as usize {
            let Some(ply) = plies.checked_sub(back) else {
                break;
            };
            let state = positions[ply];
            if !seen.insert((state.hash(), state.side_to_move() == Side::First)) {
                continue;
            }
            tried += 1;
            let proof = match prove_win_of(&state, winner, args.max_plies, args.budget) {
                Ok(Some(proof)) => proof,
                Ok(None) => continue,
                Err(_) => {
                    exhausted += 1;
                    continue;
                }
            };
            if proof == Proof::Win(1) {
                continue;
            }
            let class = kept.entry(proof).or_default();
            if class.len() < args.per_class {
                class.push(Tactic {
                    position: state,
                    text: position_text(&args.variant, &state),
                    proof,
                    source: format!("{}, ply {}", game.name, ply),
                });
                if full(&kept) {
                    break 'games;
                }
            }
        }
    }
    let mut text = format!(
        "# Tactics suite: {} positions a few plies before a king escape or capture, each with\n\
         # its shortest forced result for the side to move, proven by exhaustive search.\n\
         # Built by `tafl suite-build --variant {} --max-plies {} --per-class {} --budget {}`\n\
         # from {} finished games of {} ({} candidates tried, {} over the budget).\n\
         # POSITION | PROOF | SOURCE (ply = moves played before the position)\n",
        kept.values().map(Vec::len).sum::<usize>(),
        args.variant,
        args.max_plies,
        args.per_class,
        args.budget,
        games.len(),
        args.csv
            .iter()
            .chain(&args.arena)
            .filter_map(|path| path.file_name())
            .map(|name| name.to_string_lossy())
            .collect::<Vec<_>>()
            .join(", "),
        tried,
        exhausted,
    );
    for tactic in kept.values().flatten() {
        text += &tactic.line();
        text.push('\n');
    }
    if args.out == Path::new("-") {
        write!(context.output, "{text}")?;
    } else {
        std::fs::write(&args.out, &text)
            .map_err(|e| CliError::Invalid(format!("cannot write {}: {e}", args.out.display())))?;
        writeln!(
            context.output,
            "wrote {} positions to {}",
            kept.values().map(Vec::len).sum::<usize>(),
            args.out.display()
        )?;
    }
    Ok(())
}
