//! What an `arena` run is made of, checked before the first game: the per-move limits, the
//! engines of the `--engine` specs and the openings.
//!
//! Key invariant: everything a worker thread will later rely on (searcher names, limits, opening
//! positions) is validated here, so bad input is a one-line [`CliError`], never a worker panic.

use super::ArenaArgs;
use crate::arena::{AgentFactory, Engine, Sprt, UgiAgent, UgiEngine, random_openings};
use crate::book::{Book, BookAgent, Pick};
use crate::engine::limits;
use crate::error::CliError;
use crate::game_cli::{EngineProtocol, GameCli};
use crate::position::{read_openings_file, start_position};
use crate::tables::{TableSource, TablesAgent, TablesArgs, log_sink, parse_pieces};
use plies::Notation;
use plies::agent::{Agent, RandomAgent, SearchAgent};
use plies::search::{Clock, SearchLimits, SearcherError};
use plies::spec::SearcherSpec;
use std::sync::Arc;
use std::time::Duration;

/// The engines of the `--engine` specs, checked (names made unique with `#2`, `#3`…).
pub(super) fn engines<G: Notation>(
    spec: &GameCli<G>,
    specs: &[String],
    arena_limits: &SearchLimits,
    tables: &TablesArgs,
) -> Result<Vec<Engine<G>>, CliError> {
    // One source per piece count, shared by the engines (and workers) that use it: each deal's
    // tables are built once.
    let arena_tables = TableSource::new(spec, tables, 2)?.with_sink(log_sink());
    let mut sources: Vec<Arc<TableSource<G>>> = Vec::new();
    if specs.len() < 2 {
        return Err(CliError::Invalid(
            "an arena needs at least two --engine".into(),
        ));
    }
    let mut engines: Vec<Engine<G>> = Vec::new();
    for (index, text) in specs.iter().enumerate() {
        let shown = unique_name(&engines, text);
        if let Some(factory) = protocol_engine(spec, text)? {
            engines.push(Engine {
                name: shown,
                factory,
            });
            continue;
        }
        let EngineSpec {
            searcher,
            limits: own,
            ponder,
            weights,
            tables,
            book,
            book_pick,
        } = parse_engine(spec, text)?;
        // Read and checked once now, shared by the engine's workers.
        let book = match &book {
            Some(path) => Some(Arc::new(
                Book::read::<G>(std::path::Path::new(path), spec.name)
                    .map_err(|e| CliError::Invalid(format!("bad --engine '{text}': {e}")))?,
            )),
            None => None,
        };
        let pieces = tables.unwrap_or(arena_tables.pieces());
        let source = match searcher {
            Some(_) if pieces > 0 => Some(shared_source(&arena_tables, &mut sources, pieces)),
            _ => None,
        };
        let engine = match searcher {
            None => {
                let seed = index as u64;
                Engine::new(shown, move || -> Box<dyn Agent<G>> {
                    Box::new(RandomAgent::new(seed))
                })
            }
            Some(searcher) => {
                let bad = |e: String| CliError::Invalid(format!("bad --engine '{text}': {e}"));
                let limits = own.as_ref().unwrap_or(arena_limits);
                if let (Some(depth), false) = (limits.depth, searcher.has_depth()) {
                    return Err(bad(format!(
                        "depth {depth} does not apply to {searcher}: Monte-Carlo tree search \
                         has no search depth; limit it with nodes or time instead"
                    )));
                }
                // Built once now, so that a table the machine cannot hold is refused here,
                // not in a game.
                let trial = spec
                    .evaluator
                    .searcher(&searcher, None)
                    .map_err(|e| bad(e.to_string()))?;
                if source.is_some() && !trial.supports_endgame_tables() {
                    // Only a searcher that uses tables accepts them: asked now, not in a game.
                    let e = SearcherError::NoEndgameTables {
                        searcher: trial.name(),
                    };
                    return Err(bad(format!("{e}; give it tables=off")));
                }
                let evaluator = match &weights {
                    Some(path) => spec
                        .evaluator
                        .with_weights_path(std::path::Path::new(path))
                        .map_err(|e| bad(e.to_string()))?,
                    None => spec.evaluator.clone(),
                };
                let own_seed = index as u64;
                Engine::new(shown, move || -> Box<dyn Agent<G>> {
                    let searcher = evaluator
                        .searcher(&searcher, None)
                        .expect("a factory's own weights were checked");
                    let agent = match &own {
                        Some(limits) => SearchAgent::with_limits(searcher, limits.clone()),
                        None => SearchAgent::new(searcher),
                    };
                    let agent = if ponder { agent.pondering() } else { agent };
                    let agent: Box<dyn Agent<G>> = match &source {
                        Some(source) => Box::new(TablesAgent::new(agent, Arc::clone(source))),
                        None => Box::new(agent),
                    };
                    match &book {
                        Some(book) => {
                            Box::new(BookAgent::new(agent, Arc::clone(book), book_pick, own_seed))
                        }
                        None => agent,
                    }
                })
            }
        };
        engines.push(engine);
    }
    Ok(engines)
}

/// `text`, or `text#2`, `text#3`… when an engine of `engines` has that name already.
fn unique_name<G: Notation>(engines: &[Engine<G>], text: &str) -> String {
    let mut shown = text.to_string();
    let mut copy = 1;
    while engines.iter().any(|e| e.name == shown) {
        copy += 1;
        shown = format!("{text}#{copy}");
    }
    shown
}

/// The agents of an engine spec `PREFIX:REST` of an engine protocol (`ugi:` or one of the
/// game's), or `None` when `text` names no protocol.
fn protocol_engine<G: Notation>(
    spec: &GameCli<G>,
    text: &str,
) -> Result<Option<AgentFactory<G>>, CliError> {
    let ugi = EngineProtocol {
        prefix: "ugi",
        engine: ugi_engine::<G>,
    };
    let Some((prefix, rest)) = text.split_once(':') else {
        return Ok(None);
    };
    match std::iter::once(&ugi)
        .chain(spec.engine_protocols)
        .find(|p| p.prefix == prefix)
    {
        Some(protocol) => (protocol.engine)(rest)
            .map(Some)
            .map_err(|e| CliError::Invalid(format!("bad --engine '{text}': {e}"))),
        None => Ok(None),
    }
}

/// The table source of `pieces` pieces among `sources` (made from `arena_tables` and added
/// when there is none yet), so that engines using the same tables share them.
fn shared_source<G: Notation>(
    arena_tables: &TableSource<G>,
    sources: &mut Vec<Arc<TableSource<G>>>,
    pieces: u8,
) -> Arc<TableSource<G>> {
    if let Some(source) = sources.iter().find(|s| s.pieces() == pieces) {
        return Arc::clone(source);
    }
    let source = Arc::new(arena_tables.with_pieces(pieces));
    sources.push(Arc::clone(&source));
    source
}

/// `--engine ugi:...`, the engine protocol every game speaks: an external UGI engine, checked
/// to start and answer before the first game.
fn ugi_engine<G: Notation>(text: &str) -> Result<AgentFactory<G>, String> {
    let engine = UgiEngine::parse(text).map_err(|e| e.to_string())?;
    engine.check().map_err(|e| e.to_string())?;
    Ok(std::sync::Arc::new(move || -> Box<dyn Agent<G>> {
        Box::new(UgiAgent::new(engine.clone()))
    }))
}

/// One `--engine` spec, parsed.
#[derive(Debug)]
struct EngineSpec {
    /// The searcher and its options; `None` for `random` (uniformly random moves).
    searcher: Option<SearcherSpec>,
    /// Its own limits, if any (otherwise the arena's).
    limits: Option<SearchLimits>,
    /// Think on the opponent's time ([`SearchAgent::pondering`]).
    ponder: bool,
    /// A weights file for its evaluator.
    weights: Option<String>,
    /// Its endgame tables' piece count (0: off), if given (otherwise the arena's).
    tables: Option<u8>,
    /// An opening book file: its moves are played where it has the position.
    book: Option<String>,
    /// How the book picks a move.
    book_pick: Pick,
}

/// The keys of an `--engine` spec that are the engine's rather than its searcher's.
const ENGINE_KEYS: &str = "depth, nodes, time, ponder, weights, tables, book, book-pick";

/// `SEARCHER[:key=value...]`: the searcher's own options ([`SearcherSpec`], e.g. `threads=2`,
/// `quiescence=off`) mixed with the engine's (`depth=D`, `nodes=N`, `time=MS`, `ponder=0|1`,
/// `weights=FILE`, `tables=N|off`, `book=FILE`, `book-pick=weighted|best`), separated by `:`
/// (or `,` between the searcher's).
fn parse_engine<G: Notation>(spec: &GameCli<G>, text: &str) -> Result<EngineSpec, CliError> {
    let invalid = |why: String| CliError::Invalid(format!("bad --engine '{text}': {why}"));
    // The searcher's own `,`-separated options stay with its name: `pvs:tt=64,lmr=off`.
    let mut parts = text.split(':');
    let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
    if name.is_empty() {
        return Err(invalid("no searcher name".into()));
    }
    let random = name == "random";
    let mut searcher = if random {
        None
    } else {
        Some(
            name.parse::<SearcherSpec>()
                .map_err(|e| invalid(e.to_string()))?,
        )
    };
    let (mut depth, mut time, mut nodes) = (None, None, None);
    let mut ponder = false;
    let mut any = false;
    let mut weights = None;
    let mut tables = None;
    let mut book = None;
    let mut book_pick = Pick::default();
    // A file name may hold `,`: only the other parts split at it.
    let items = parts.flat_map(|part| {
        let lower = part.trim_start().to_ascii_lowercase();
        if lower.starts_with("weights=") || lower.starts_with("book=") {
            vec![part]
        } else {
            part.split(',').collect()
        }
    });
    for part in items {
        if part.trim().is_empty() {
            continue;
        }
        let bad = |why: &str| invalid(format!("'{part}' {why}"));
        let (key, value) = part.split_once('=').ok_or_else(|| {
            bad(&format!(
                "is not key=value ({ENGINE_KEYS}, or a searcher option)"
            ))
        })?;
        let key = key.trim().to_ascii_lowercase();
        let number = || -> Result<u64, CliError> {
            value
                .trim()
                .parse()
                .map_err(|_| bad("needs a whole number"))
        };
        match key.as_str() {
            "weights" => {
                if value.trim().is_empty() {
                    return Err(bad("needs a file name"));
                }
                weights = Some(value.trim().to_string());
            }
            "book" => {
                if value.trim().is_empty() {
                    return Err(bad("needs a file name"));
                }
                book = Some(value.trim().to_string());
            }
            "book-pick" => {
                book_pick = Pick::parse(value).ok_or_else(|| bad("needs weighted or best"))?;
            }
            "depth" => {
                depth = Some(u32::try_from(number()?).map_err(|_| bad("is too deep"))?);
                any = true;
            }
            "time" => {
                time = Some(number()?);
                any = true;
            }
            "nodes" => {
                nodes = Some(number()?);
                any = true;
            }
            "tables" => {
                tables = Some(
                    parse_pieces(spec.endgame_tables.as_ref(), value, "tables")
                        .map_err(|e| invalid(e.to_string()))?,
                );
            }
            "ponder" => {
                ponder = match number()? {
                    0 => false,
                    1 => true,
                    _ => return Err(bad("needs 0 or 1")),
                };
            }
            _ => match &mut searcher {
                Some(searcher) => searcher
                    .set(&key, value)
                    .map_err(|e| invalid(e.to_string()))?,
                None => return Err(invalid("random takes no limit or option".into())),
            },
        }
    }
    if random && (any || ponder || weights.is_some() || tables.is_some() || book.is_some()) {
        return Err(invalid("random takes no limit or option".into()));
    }
    let limits = if any {
        Some(limits(depth, time, nodes, &format!("--engine '{text}' "))?)
    } else {
        None
    };
    Ok(EngineSpec {
        searcher,
        limits,
        ponder,
        weights,
        tables,
        book,
        book_pick,
    })
}

/// `count` openings made by `--file-plies` random moves from each of `positions` in turn (the
/// walk of opening `i` seeded by `--seed` and `i`); a position from which every walk ends the
/// game is an error naming it.
fn walks_from<G: Notation>(
    positions: &[G],
    count: usize,
    args: &ArenaArgs,
) -> Result<Vec<G>, CliError> {
    let mut openings = Vec::with_capacity(count);
    for i in 0..count {
        let base = &positions[i % positions.len()];
        let seed = args
            .seed
            .wrapping_add((i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        match random_openings(base, seed, 1, args.file_plies).pop() {
            Some(opening) => openings.push(opening),
            None => {
                return Err(CliError::Invalid(format!(
                    "no openings: every {}-ply walk from {} ends the game",
                    args.file_plies,
                    base.format_position()
                )));
            }
        }
    }
    Ok(openings)
}

/// The openings: from `--openings-file` (with `--file-plies` random moves after each), or
/// seeded random walks from the start position.
pub(super) fn openings<G: Notation>(args: &ArenaArgs) -> Result<Vec<G>, CliError> {
    // Both counts are 1..=their bound (checked by clap).
    let wanted = match (args.openings, args.games) {
        (Some(n), _) => Some(n),
        (None, Some(games)) => Some(games.div_ceil(2)),
        (None, None) => None,
    };
    if let Some(path) = &args.openings_file {
        let mut openings = read_openings_file::<G>(path)?;
        if args.file_plies > 0 {
            openings = walks_from(&openings, wanted.unwrap_or(openings.len()), args)?;
        }
        if let Some(n) = wanted {
            openings.truncate(n);
        }
        if openings.is_empty() {
            return Err(CliError::Invalid(format!(
                "{} holds no position",
                path.display()
            )));
        }
        return Ok(openings);
    }
    let start: G = start_position(&args.start)?;
    if start.outcome().is_some() {
        return Err(CliError::Invalid(
            "no openings: the start position is over".into(),
        ));
    }
    let count = wanted.unwrap_or(10);
    let openings = random_openings(&start, args.seed, count, args.opening_plies);
    if openings.is_empty() {
        return Err(CliError::Invalid(format!(
            "no openings: every {}-ply walk from the start ends the game",
            args.opening_plies
        )));
    }
    Ok(openings)
}

/// `--tc BASE+INC`: the clock both sides start each game with, and the text it was given as.
#[derive(Clone, Debug)]
pub(crate) struct TimeControl {
    /// The text as given (for the summary line).
    pub text: String,
    /// The clock.
    pub clock: Clock,
}

/// `BASE+INC` (or `BASE`) in seconds: the `--tc` parser, for clap.
pub(super) fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |word: &str| -> Result<Duration, String> {
        word.trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && (0.0..=86_400.0).contains(s))
            .map(Duration::from_secs_f64)
            .ok_or_else(|| {
                format!(
                    "'{}' is not seconds (0 to 86400), e.g. 10+0.1",
                    plies::excerpt(word.trim())
                )
            })
    };
    let base = seconds(base)?;
    if base.is_zero() {
        return Err("the base time must be more than 0".to_string());
    }
    Ok(TimeControl {
        text: text.to_string(),
        clock: Clock::new(base, seconds(increment)?),
    })
}

/// `--sprt ELO0,ELO1`: the bounds of a sequential test (ELO0 < ELO1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SprtBounds {
    /// The Elo difference of the null hypothesis.
    pub elo0: f64,
    /// The Elo difference of the alternative.
    pub elo1: f64,
}

/// `ELO0,ELO1` (ELO0 < ELO1): the `--sprt` parser, for clap.
pub(super) fn parse_sprt(text: &str) -> Result<SprtBounds, String> {
    let (a, b) = text
        .split_once(',')
        .ok_or_else(|| "expected ELO0,ELO1, e.g. 0,20".to_string())?;
    let number = |word: &str| -> Result<f64, String> {
        word.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && x.abs() < 2000.0)
            .ok_or_else(|| format!("'{}' is not an Elo value", plies::excerpt(word.trim())))
    };
    let (elo0, elo1) = (number(a)?, number(b)?);
    if elo0 >= elo1 {
        return Err("ELO0 must be below ELO1".to_string());
    }
    Ok(SprtBounds { elo0, elo1 })
}

/// The SPRT of `bounds` for a match of `engines` engines (exactly two).
pub(super) fn sprt(bounds: SprtBounds, engines: usize) -> Result<Sprt, CliError> {
    if engines != 2 {
        return Err(CliError::Invalid(
            "bad --sprt: an SPRT needs exactly two engines".to_string(),
        ));
    }
    Ok(Sprt::new(bounds.elo0, bounds.elo1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::spec;

    #[test]
    fn engine_specs_take_threads_and_ponder() {
        let parsed = parse_engine(&spec(), "PVS:threads=2:ponder=1:depth=3").unwrap();
        let searcher = parsed.searcher.unwrap();
        assert_eq!(searcher.family(), "pvs");
        assert_eq!((searcher.threads(), parsed.ponder), (2, true));
        assert_eq!(parsed.limits.unwrap().depth, Some(3));
        let plain = parse_engine(&spec(), "pvs:threads=1").unwrap();
        assert!(plain.limits.is_none() && !plain.ponder);
        for (text, word) in [
            ("pvs:threads=0", "1..=256"),
            ("pvs:ponder=2", "0 or 1"),
            ("pvs:threads=x", "'threads=x'"),
            ("random:ponder=1", "random"),
        ] {
            let err = parse_engine(&spec(), text).unwrap_err().to_string();
            assert!(err.contains(word) && err.contains(text), "{err}");
        }
        // The searcher checks the count: too many, or threads for a one-thread searcher.
        let specs = |b: &str| vec!["pvs".to_string(), b.to_string()];
        let err = engines(
            &spec(),
            &specs("pvs:threads=999"),
            &SearchLimits::default(),
            &TablesArgs::default(),
        )
        .err()
        .unwrap();
        assert!(err.to_string().contains("1..=256"), "{err}");
        let err = engines(
            &spec(),
            &specs("minimax:threads=2"),
            &SearchLimits::default(),
            &TablesArgs::default(),
        )
        .err()
        .unwrap();
        assert!(err.to_string().contains("one thread"), "{err}");
        assert_eq!(
            engines(
                &spec(),
                &specs("pvs:threads=2:ponder=1"),
                &SearchLimits::default(),
                &TablesArgs::default(),
            )
            .unwrap()
            .len(),
            2
        );
    }

    /// MCTS has no search depth: an arena depth, or the engine's own, is refused for it; its
    /// own node limit replaces the arena's depth.
    #[test]
    fn mcts_engines_refuse_a_depth() {
        let specs = |b: &str| vec!["pvs".to_string(), b.to_string()];
        let depth = limits(Some(3), None, None, "--").unwrap();
        let err = engines(&spec(), &specs("mcts"), &depth, &TablesArgs::default())
            .err()
            .unwrap();
        assert!(err.to_string().contains("'mcts'"), "{err}");
        assert!(err.to_string().contains("depth 3"), "{err}");
        let nodes = limits(None, None, Some(100), "--").unwrap();
        let err = engines(
            &spec(),
            &specs("mcts:depth=2"),
            &nodes,
            &TablesArgs::default(),
        )
        .err()
        .unwrap();
        assert!(err.to_string().contains("depth 2"), "{err}");
        assert!(
            engines(
                &spec(),
                &specs("mcts:nodes=100"),
                &depth,
                &TablesArgs::default()
            )
            .is_ok()
        );
        assert!(engines(&spec(), &specs("mcts"), &nodes, &TablesArgs::default()).is_ok());
    }
}
