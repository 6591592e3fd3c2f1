//! Recording the games of the commands that play many (the arena, the tuner): their
//! `--store` options ([`RecordArgs`]), the store row of a played game ([`played_row`]) and a
//! recorder that turns every failure into a warning ([`GameRecorder`]).
//!
//! Key invariant: recording never stops or changes play. The command's own file (the arena's
//! results, the tuner's games files) takes each game first and stays the one to resume from;
//! a game the store refuses or cannot take is one warning line, and a store over its limit is
//! said once.

use std::ffi::OsString;

use clap::Args;
use plies::{Notation, Outcome, Side};

use super::games::{self, GameRow, RecordGameError, Recorded};
use super::{DEFAULT_LIMIT, Store, StoreError, StoreLocation, now_ms};
use crate::arena::{GameRecord, GameResult};
use crate::tables::ByteSize;

/// `--store` and `--store-limit` of a command that records the games it plays.
#[derive(Args, Debug, Clone)]
pub(crate) struct RecordArgs {
    /// Also record every finished game in this position store (an SQLite file or a
    /// `postgres://` URL, as `analyze --store` takes; `explore` and `book build` read the
    /// games), or `off` (the default). The command's own files stay the ones to resume from; a
    /// game the store fails to take is a one-line warning.
    #[arg(long, value_name = "PATH|URL|off", value_parser = clap::value_parser!(StoreLocation))]
    pub store: Option<StoreLocation>,
    /// The most the store may take: a game is not recorded (with a warning) while its files
    /// hold this much. Bytes, or with K, M, G or T (powers of 1024).
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_LIMIT,
          value_parser = clap::value_parser!(ByteSize))]
    pub store_limit: ByteSize,
}

impl RecordArgs {
    /// The arguments that name the same store to a child process of this program, or none.
    pub(crate) fn child_arguments(&self) -> Vec<OsString> {
        let location: OsString = match &self.store {
            None | Some(StoreLocation::Off) => return Vec::new(),
            Some(StoreLocation::File(path)) => path.clone().into(),
            // The URL whole: its password too (Display hides it).
            Some(StoreLocation::Postgres(url)) => url.into(),
        };
        vec![
            "--store".into(),
            location,
            "--store-limit".into(),
            self.store_limit.0.to_string().into(),
        ]
    }
}

/// Records finished games in a store, turning every failure into a warning line.
pub(crate) struct GameRecorder {
    store: Store,
    over_limit_said: bool,
}

impl GameRecorder {
    /// Opens the store `args` names; none without one (or with `off`).
    pub(crate) fn open(args: &RecordArgs) -> Result<Option<GameRecorder>, StoreError> {
        match &args.store {
            None | Some(StoreLocation::Off) => Ok(None),
            Some(location) => Ok(Some(GameRecorder {
                store: Store::open_location(location, args.store_limit.0)?,
                over_limit_said: false,
            })),
        }
    }

    /// Records `row` (of the game `G`); the warning to show, if any: the store failed (`what`
    /// names the game in it), or it is over its limit (said once per recorder).
    pub(crate) fn record<G: Notation>(&mut self, row: &GameRow, what: &str) -> Option<String> {
        let result = games::record::<G>(&mut self.store, row);
        if let Ok(Recorded::OverLimit { .. }) = result {
            if self.over_limit_said {
                return None;
            }
            self.over_limit_said = true;
        }
        not_recorded(&self.store, result, what)
    }
}

/// The warning line for a game `result` says `store` did not take (`what` names the game), or
/// `None` when it took it.
pub(crate) fn not_recorded(
    store: &Store,
    result: Result<Recorded, RecordGameError>,
    what: &str,
) -> Option<String> {
    match result {
        Ok(Recorded::Stored(_)) => None,
        Ok(Recorded::OverLimit { size }) => Some(format!(
            "warning: store {} holds {size} bytes, at or over its limit of {} \
             (--store-limit): games are not recorded",
            store.path().display(),
            store.limit()
        )),
        Err(err) => Some(format!("warning: {what}: {err}")),
    }
}

/// The store's row of the game `record` of the game `game` (the program's name), played from
/// `start` under `settings`, recorded by `source` (`arena`, `tune`).
pub(crate) fn played_row(
    game: &str,
    record: &GameRecord,
    start: String,
    settings: &str,
    source: &str,
) -> GameRow {
    GameRow {
        game: game.to_string(),
        variant: game.to_string(),
        start,
        players: record.names.clone(),
        settings: settings.to_string(),
        result: match record.result {
            GameResult::FirstWins => Outcome::Win(Side::First),
            GameResult::SecondWins => Outcome::Win(Side::Second),
            GameResult::Draw => Outcome::Draw,
        },
        termination: record.termination.describe(),
        moves: record.moves.clone(),
        source: source.to_string(),
        played: now_ms(),
    }
}
