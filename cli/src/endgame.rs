//! What a game with endgame tables gives the command line: how to build them for a position,
//! what key positions share them, and which files a build leaves ([`EndgameTables`]). The
//! command line's use of them (the cache, the background builds, the flags) is in `tables`.
//!
//! Key invariant: this module depends on nothing else of the crate, so both the game's
//! description (`GameCli`) and the tables' machinery can name it without a loop.

use std::sync::Arc;

use plies::Game;
use plies::solve::Probe;

/// Builds a game's tables: for the position, the most pieces, a cache directory (the key's
/// own: every table of that key, and only those, go there), threads, and where to tell
/// progress (one line at a time). An error is one line.
pub type TableBuilder<G> = fn(
    position: &G,
    pieces: u8,
    dir: Option<&std::path::Path>,
    threads: usize,
    log: &mut dyn FnMut(&str),
) -> Result<Arc<dyn Probe<G>>, String>;

/// What a game with endgame tables gives the command line ([`GameCli::endgame_tables`](crate::GameCli::endgame_tables)).
pub struct EndgameTables<G: Game> {
    /// The piece count used when `--tables` is not given (what builds in a second or two).
    pub default_pieces: u8,
    /// The fewest and the most pieces `--tables` accepts.
    pub pieces: (u8, u8),
    /// What tables built for a position serve: positions with the same key (Onitama: the
    /// deal) share them, and their files share a directory of the cache.
    pub key: fn(&G) -> String,
    /// Builds the tables for a position's key, reading what its directory holds.
    pub build: TableBuilder<G>,
    /// The names of the files a build of a position's tables up to N pieces leaves in its
    /// directory: when all are there, the tables are read at once instead of built in the
    /// background (none: always built).
    pub files: fn(&G, u8) -> Vec<String>,
    /// A position of every key whose tables `precompute` builds into a shared directory (on a
    /// cluster), in a fixed order: Onitama's canonical card sets. `None`: the game has no
    /// such list.
    pub sets: Option<fn() -> Vec<G>>,
}

impl<G: Game> Clone for EndgameTables<G> {
    fn clone(&self) -> EndgameTables<G> {
        *self
    }
}

impl<G: Game> Copy for EndgameTables<G> {}
