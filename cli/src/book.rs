//! Opening books: which moves to play, without searching, in positions the position store's
//! recorded games reached often. `book build` makes a book file from the store (the games the
//! arena recorded with `--store`); `play --book FILE`, the arena's `-e pvs:book=FILE` and the
//! UGI option `Book` play from it, and search as usual out of book.
//!
//! A book file is plain text, JSON lines: a header line `{"plies_book": 1, "game": ...}`, then
//! one line per position and move: `{"position", "move", "games", "wins", "draws", "losses",
//! "weight"}` (results from the view of the side that played the move, as the explorer counts
//! them; `weight` decides how often the move is picked, 0 never). docs/store.md has the format
//! and the rules for users.
//!
//! Key invariants: a book is read whole and checked before it is used (every position parses
//! in the game and every move is legal there, the counts add up, no position or move twice),
//! so a bad file is a one-line [`BookError`] naming its line, never a panic or a wrong move;
//! positions are keyed by the game's own position text, as the store keys them; a pick depends
//! only on the book, the position and the seed ([`Book::pick`]), so seeded runs repeat; a book
//! file is written whole or not at all (a temporary file renamed over it).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use plies::Notation;
use plies::agent::{Agent, AgentError, Choice};
use plies::rng::SplitMix64;
use plies::search::SearchLimits;
use plies::{Game, GameHistory};
use serde_json::{Value, json};

use crate::error::CliError;
use crate::files::FileError;
use crate::game_cli::GameCli;
use crate::position::{PositionArgs, start_position};
use crate::store::StoreArgs;
use crate::store::games::explore;

/// The format version written in a book's header (`plies_book`).
pub(crate) const FORMAT: u64 = 1;

/// The largest book file read: 256 MB (millions of moves).
const BOOK_LIMIT: u64 = 256 * 1024 * 1024;

/// How a book picks among the moves of a position.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Pick {
    /// At random, each move with probability weight / total weight, from a seeded generator.
    #[default]
    Weighted,
    /// The move of the greatest weight (the first of the file among equal weights).
    Best,
}

impl Pick {
    /// `weighted` or `best`.
    pub(crate) fn parse(text: &str) -> Option<Pick> {
        match text.trim().to_ascii_lowercase().as_str() {
            "weighted" => Some(Pick::Weighted),
            "best" => Some(Pick::Best),
            _ => None,
        }
    }
}

impl fmt::Display for Pick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pick::Weighted => "weighted",
            Pick::Best => "best",
        })
    }
}

/// One move of a book position, with the recorded games that played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BookMove {
    /// The move, in the game's notation (as the game writes it).
    pub played: String,
    /// Recorded games that played it here.
    pub games: u64,
    /// Of those, the games its player won.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost.
    pub losses: u64,
    /// How often it is picked, relative to the position's other moves (0: never).
    pub weight: u64,
}

impl BookMove {
    /// The weight `book build` gives a move: the points its player scored in the games that
    /// played it, in half points (a win 2, a draw 1, a loss 0). A popular move that scores
    /// well is picked most; a move that never scored is never picked.
    pub(crate) fn points_weight(wins: u64, draws: u64) -> u64 {
        wins.saturating_mul(2).saturating_add(draws)
    }

    /// `120 games, +70 =5 -45, weight 145`.
    pub(crate) fn describe(&self) -> String {
        format!(
            "{} games, +{} ={} -{}, weight {}",
            self.games, self.wins, self.draws, self.losses, self.weight
        )
    }
}

/// A book: for each position (the game's position text), its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Book {
    /// The game's name (the program's name: `kalah`).
    pub game: String,
    /// The moves of each position, in the file's order.
    positions: HashMap<String, Vec<BookMove>>,
    /// The positions in the file's order (for writing the book back the same).
    order: Vec<String>,
}

/// Why a book file cannot be used. Displays as one line naming the file (and the line).
#[derive(Debug)]
pub(crate) enum BookError {
    /// The file cannot be read (missing, not a regular file, too large, not UTF-8).
    Read(FileError),
    /// The file cannot be written.
    Write(FileError),
    /// A line of the file is wrong.
    Line {
        /// The file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The file is a book of another game.
    OtherGame {
        /// The file.
        path: PathBuf,
        /// The game it is a book of.
        found: String,
        /// The game playing.
        expected: String,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Read(err) | BookError::Write(err) => f.write_str(&err.of("book")),
            BookError::Line { path, line, reason } => {
                write!(f, "book {} line {line}: {reason}", path.display())
            }
            BookError::OtherGame {
                path,
                found,
                expected,
            } => write!(
                f,
                "book {} is a book of {}, not of {expected}",
                path.display(),
                plies::excerpt(found)
            ),
        }
    }
}

impl std::error::Error for BookError {}

impl From<BookError> for CliError {
    fn from(err: BookError) -> CliError {
        CliError::Invalid(err.to_string())
    }
}

/// A header or entry field that must be a whole number.
fn count(value: &Value, key: &str) -> Result<u64, String> {
    match value.get(key) {
        Some(Value::Number(n)) => n
            .as_u64()
            .ok_or_else(|| format!("'{key}' must be a whole number >= 0")),
        Some(_) => Err(format!("'{key}' must be a whole number >= 0")),
        None => Err(format!("no '{key}'")),
    }
}

/// A field that must be text.
fn text<'v>(value: &'v Value, key: &str) -> Result<&'v str, String> {
    match value.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(format!("'{key}' must be text")),
        None => Err(format!("no '{key}'")),
    }
}

/// The fields of an entry line.
const ENTRY_KEYS: [&str; 7] = [
    "position", "move", "games", "wins", "draws", "losses", "weight",
];

impl Book {
    /// An empty book of `game`.
    pub(crate) fn new(game: &str) -> Book {
        Book {
            game: game.to_string(),
            ..Book::default()
        }
    }

    /// The positions the book holds.
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    /// The moves of all positions.
    pub(crate) fn move_count(&self) -> usize {
        self.positions.values().map(Vec::len).sum()
    }

    /// The moves of the position `position` (the game's position text), if the book has it.
    pub(crate) fn moves(&self, position: &str) -> Option<&[BookMove]> {
        self.positions.get(position).map(Vec::as_slice)
    }

    /// Adds the moves of a position not yet in the book.
    fn insert(&mut self, position: String, moves: Vec<BookMove>) {
        if let Entry::Vacant(slot) = self.positions.entry(position.clone()) {
            slot.insert(moves);
            self.order.push(position);
        }
    }

    /// Reads and checks the book file at `path` for the game `G` called `game`.
    pub(crate) fn read<G: Notation>(path: &Path, game: &str) -> Result<Book, BookError> {
        let content = crate::files::read_text(path, BOOK_LIMIT).map_err(BookError::Read)?;
        Book::parse::<G>(&content, path, game)
    }

    /// Reads a book's text (`path` names it in errors). Positions and moves are written back
    /// as the game writes them, so a hand-written variant of a position's text finds it.
    pub(crate) fn parse<G: Notation>(
        content: &str,
        path: &Path,
        game: &str,
    ) -> Result<Book, BookError> {
        let at = |line: usize, reason: String| BookError::Line {
            path: path.to_path_buf(),
            line,
            reason: crate::text::one_line(&reason),
        };
        let mut lines = content
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty());
        let Some((number, header)) = lines.next() else {
            return Err(at(1, "empty: a book starts with its header line".into()));
        };
        let header: Value = serde_json::from_str(header)
            .map_err(|e| at(number, format!("not a book header (JSON): {e}")))?;
        let version = count(&header, "plies_book")
            .map_err(|e| at(number, format!("not a book header: {e}")))?;
        if version != FORMAT {
            return Err(at(
                number,
                format!("book format {version} is not known (this plies reads {FORMAT})"),
            ));
        }
        let found = text(&header, "game").map_err(|e| at(number, e))?;
        if found != game {
            return Err(BookError::OtherGame {
                path: path.to_path_buf(),
                found: found.to_string(),
                expected: game.to_string(),
            });
        }
        let mut book = Book::new(game);
        let mut seen = HashSet::new();
        for (number, line) in lines {
            let (position, entry) = entry::<G>(line).map_err(|e| at(number, e))?;
            if !seen.insert((position.clone(), entry.played.clone())) {
                return Err(at(
                    number,
                    format!(
                        "move '{}' of position '{}' is in the book twice",
                        plies::excerpt(&entry.played),
                        plies::excerpt(&position)
                    ),
                ));
            }
            match book.positions.entry(position.clone()) {
                Entry::Occupied(mut moves) => moves.get_mut().push(entry),
                Entry::Vacant(slot) => {
                    slot.insert(vec![entry]);
                    book.order.push(position);
                }
            }
        }
        Ok(book)
    }

    /// The book as text: its header (with `extra` fields), then one line per move.
    pub(crate) fn to_text(&self, extra: &serde_json::Map<String, Value>) -> String {
        let mut header = serde_json::Map::new();
        header.insert("plies_book".into(), json!(FORMAT));
        header.insert("game".into(), json!(self.game));
        header.extend(extra.clone());
        let mut out = Value::Object(header).to_string();
        out.push('\n');
        for position in &self.order {
            for entry in &self.positions[position] {
                let line = json!({
                    "position": position,
                    "move": entry.played,
                    "games": entry.games,
                    "wins": entry.wins,
                    "draws": entry.draws,
                    "losses": entry.losses,
                    "weight": entry.weight,
                });
                out.push_str(&line.to_string());
                out.push('\n');
            }
        }
        out
    }

    /// The book move for `state`: `None` when the book does not have the position or all its
    /// moves weigh 0. [`Pick::Best`] takes the greatest weight (the first among equal ones);
    /// [`Pick::Weighted`] draws a move with probability weight / total from a generator seeded
    /// by `seed` and the position's text, so the same seed and position give the same move.
    pub(crate) fn pick<G: Notation>(
        &self,
        state: &G,
        pick: Pick,
        seed: u64,
    ) -> Option<(G::Move, &BookMove)> {
        let position = state.format_position();
        let moves = self.moves(&position)?;
        let total: u64 = moves.iter().map(|m| m.weight).sum();
        if total == 0 {
            return None;
        }
        let chosen = match pick {
            Pick::Best => moves
                .iter()
                .reduce(|best, m| if m.weight > best.weight { m } else { best })?,
            Pick::Weighted => {
                let mut rng = SplitMix64::new(seed ^ fnv1a(position.as_bytes()));
                let mut left = rng.next_u64() % total;
                moves.iter().find(|m| {
                    if left < m.weight {
                        true
                    } else {
                        left -= m.weight;
                        false
                    }
                })?
            }
        };
        // Checked when the book was read; a move that no longer reads is out of book.
        let mv = state.parse_move(&chosen.played).ok()?;
        Some((mv, chosen))
    }
}

/// FNV-1a of `bytes`: mixes a position's text into a seed.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One entry line, checked in the game `G`: the position's canonical text and the move.
fn entry<G: Notation>(line: &str) -> Result<(String, BookMove), String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(fields) = &value else {
        return Err("not a JSON object".into());
    };
    if let Some(key) = fields.keys().find(|k| !ENTRY_KEYS.contains(&k.as_str())) {
        return Err(format!("unknown field '{}'", plies::excerpt(key)));
    }
    let position_text = text(&value, "position")?;
    let state = G::parse_position(position_text).map_err(|e| {
        format!(
            "position '{}' does not read: {e}",
            plies::excerpt(position_text)
        )
    })?;
    if state.outcome().is_some() {
        return Err(format!(
            "position '{}' is over: it has no move",
            plies::excerpt(position_text)
        ));
    }
    let move_text = text(&value, "move")?;
    let mv = state.parse_move(move_text).map_err(|e| {
        format!(
            "move '{}' is not a move of position '{}': {e}",
            plies::excerpt(move_text),
            plies::excerpt(position_text)
        )
    })?;
    let (games, wins, draws, losses) = (
        count(&value, "games")?,
        count(&value, "wins")?,
        count(&value, "draws")?,
        count(&value, "losses")?,
    );
    if wins.checked_add(draws).and_then(|s| s.checked_add(losses)) != Some(games) {
        return Err(format!(
            "wins {wins}, draws {draws} and losses {losses} do not add up to games {games}"
        ));
    }
    let weight = count(&value, "weight")?;
    Ok((
        state.format_position(),
        BookMove {
            played: state.format_move(mv),
            games,
            wins,
            draws,
            losses,
            weight,
        },
    ))
}

/// An agent that plays the book's move where the book has the position, and asks `inner`
/// (searching as usual) elsewhere; the arena's engines with `book=FILE`.
pub(crate) struct BookAgent<G: Game> {
    inner: Box<dyn Agent<G>>,
    book: std::sync::Arc<Book>,
    pick: Pick,
    /// The game's seed ([`Agent::new_game`]), mixed with the engine's own.
    seed: u64,
    /// The engine's own seed: engines of one match with books pick differently.
    own: u64,
}

impl<G: Game> BookAgent<G> {
    /// `inner` with `book`, picking by `pick`; `own` is mixed into every game's seed.
    pub(crate) fn new(
        inner: Box<dyn Agent<G>>,
        book: std::sync::Arc<Book>,
        pick: Pick,
        own: u64,
    ) -> BookAgent<G> {
        BookAgent {
            inner,
            book,
            pick,
            seed: own,
            own,
        }
    }
}

impl<G: Notation> Agent<G> for BookAgent<G> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn new_game(&mut self, seed: u64) {
        self.seed = SplitMix64::new(seed ^ self.own.rotate_left(32)).next_u64();
        self.inner.new_game(seed);
    }

    fn prepare(&mut self, start: &G) {
        self.inner.prepare(start);
    }

    fn choose(
        &mut self,
        state: &G,
        history: &GameHistory,
        budget: &SearchLimits,
    ) -> Result<Choice<G::Move>, AgentError> {
        match self.book.pick(state, self.pick, self.seed) {
            Some((mv, _)) => Ok(Choice::bare(mv)),
            None => self.inner.choose(state, history, budget),
        }
    }

    fn observe(&mut self, before: &G, mv: G::Move) {
        self.inner.observe(before, mv);
    }
}

/// `book`.
#[derive(Args, Debug)]
pub(crate) struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The `book` commands.
#[derive(Subcommand, Debug)]
pub(crate) enum BookCommand {
    /// Build a book from the store's recorded games (`arena --store`): every position reached
    /// by at least --min-games games, from the start position on, with the moves played there.
    Build(BuildArgs),
}

/// `book build`.
#[derive(Args, Debug)]
pub(crate) struct BuildArgs {
    /// Where the book starts (default the game's start position).
    #[command(flatten)]
    pub start: PositionArgs,
    /// The store to read (default: the one in the user's data directory).
    #[command(flatten)]
    pub store: StoreArgs,
    /// A position is in the book when at least this many recorded games went on from it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub min_games: u64,
    /// The book covers the first this many plies from the start (its deepest positions are
    /// this many plies minus one from it).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub max_plies: u32,
    /// Moves played in fewer games than this are left out of a book position (default 1:
    /// every move played there).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub min_move_games: u64,
    /// The book file to write (replaced atomically).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// End with one JSON line: positions, moves, games from the start, the file.
    #[arg(long)]
    pub json: bool,
}

/// Runs `book`.
pub(crate) fn run<G: Notation>(
    spec: &GameCli<G>,
    args: &BookArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    match &args.command {
        BookCommand::Build(build_args) => build_command(spec, build_args, output),
    }
}

/// What [`build`] made.
pub(crate) struct Built {
    /// The book.
    pub book: Book,
    /// Recorded games that went on from the start position.
    pub games: u64,
}

/// Builds the book of `build_args` from `store`: a breadth-first walk from the start through
/// the recorded moves; a position is taken when at least `min_games` games went on from it
/// (counted by the explorer, so transpositions merge) and it is fewer than `max_plies` plies
/// from the start; the walk goes on from the positions taken only.
pub(crate) fn build<G: Notation>(
    store: &crate::store::Store,
    game: &str,
    start: &G,
    build_args: &BuildArgs,
) -> Result<Built, CliError> {
    let mut book = Book::new(game);
    let mut seen = HashSet::new();
    seen.insert(start.format_position());
    let mut queue = VecDeque::from([(start.clone(), 0u32)]);
    let mut games = None;
    while let Some((state, ply)) = queue.pop_front() {
        let counts = explore(store, game, &state)?;
        let total: u64 = counts.iter().map(|c| c.games).sum();
        games.get_or_insert(total);
        if total < build_args.min_games {
            continue;
        }
        let mut moves = Vec::new();
        for count in &counts {
            if count.games < build_args.min_move_games {
                continue;
            }
            // The explorer read each move back in the position.
            let Ok(mv) = state.parse_move(&count.played) else {
                continue;
            };
            moves.push(BookMove {
                played: count.played.clone(),
                games: count.games,
                wins: count.wins,
                draws: count.draws,
                losses: count.losses,
                weight: BookMove::points_weight(count.wins, count.draws),
            });
            let next = state.play(mv);
            if ply + 1 < build_args.max_plies
                && next.outcome().is_none()
                && seen.insert(next.format_position())
            {
                queue.push_back((next, ply + 1));
            }
        }
        if !moves.is_empty() {
            book.insert(state.format_position(), moves);
        }
    }
    Ok(Built {
        book,
        games: games.unwrap_or(0),
    })
}

/// Runs `book build`.
fn build_command<G: Notation>(
    spec: &GameCli<G>,
    build_args: &BuildArgs,
    output: &mut dyn Write,
) -> Result<(), CliError> {
    let start: G = start_position(&build_args.start)?;
    if start.outcome().is_some() {
        return Err(CliError::Invalid(
            "the start position is over: no book to build".into(),
        ));
    }
    let store = build_args.store.open_named()?;
    let Built { book, games } = build(&store, spec.name, &start, build_args)?;
    let mut extra = serde_json::Map::new();
    extra.insert("start".into(), json!(start.format_position()));
    extra.insert("min_games".into(), json!(build_args.min_games));
    extra.insert("max_plies".into(), json!(build_args.max_plies));
    extra.insert("games".into(), json!(games));
    extra.insert("built".into(), json!(crate::store::now_ms()));
    crate::files::write_atomic(&build_args.out, book.to_text(&extra).as_bytes())
        .map_err(BookError::Write)?;
    writeln!(
        output,
        "book: {} positions, {} moves from {games} recorded games (at least {} games a \
         position, {} plies) written to {}",
        book.len(),
        book.move_count(),
        build_args.min_games,
        build_args.max_plies,
        build_args.out.display()
    )?;
    if build_args.json {
        writeln!(
            output,
            "{}",
            json!({
                "positions": book.len(),
                "moves": book.move_count(),
                "games": games,
                "min_games": build_args.min_games,
                "max_plies": build_args.max_plies,
                "out": build_args.out.display().to_string(),
            })
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
