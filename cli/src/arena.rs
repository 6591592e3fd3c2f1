//! The arena: matches between engine configurations, with results, Elo and a table.
//!
//! - `runner`: engines as named factories ([`Engine`]), a [`Schedule`] (each opening played
//!   twice with colours swapped, for one pairing or a round robin), and an [`Arena`] that plays
//!   it on N worker threads and can resume from the records of an interrupted run;
//! - `play`: one game ([`play_game`]): asks the agent whose side is to move (extra turns
//!   included), checks legality, applies the ply cap;
//! - `record`: the serde-serializable [`GameRecord`] (JSON lines);
//! - `standings`: W/D/L, score and Elo per engine and pairing, the printable table;
//! - `journal`: the JSON-lines results file that lets a killed run resume;
//! - `elo`: the Elo formula and its 95% interval (documented there);
//! - `openings`: seeded random openings;
//! - `sprt`: the sequential probability ratio test (to stop a match once it is decided);
//! - `external`: an engine process speaking UGI as an agent ([`UgiAgent`], [`UgiEngine`]),
//!   plies the arbiter.
//!
//! **Draw rule.** Games such as Onitama have no draw rule; the arena's is a ply cap
//! ([`ArenaConfig::max_plies`]): a game that reaches it without an outcome is a draw
//! ([`Termination::PlyCap`]).
//!
//! Key invariant: with depth or node limits, the records (results and moves) of a run are the
//! same every time, whatever the number of workers.
//!
//! ```
//! use plies::agent::{Agent, RandomAgent, SearchAgent};
//! use plies_cli::arena::{Arena, ArenaConfig, Engine, Standings};
//! use plies::search::SearchLimits;
//! use plies::spec::SearcherSpec;
//! # use plies::{Evaluator, Game, Score, Side, Outcome, MoveClass};
//! # #[derive(Clone, Debug)] struct Nim(u8, Side);
//! # impl Game for Nim {
//! #     type Move = u8;
//! #     fn side_to_move(&self) -> Side { self.1 }
//! #     fn generate_moves(&self, m: &mut Vec<u8>) { m.extend((1..=self.0.min(3)).rev()) }
//! #     fn play(&self, n: u8) -> Nim { Nim(self.0 - n, self.1.opponent()) }
//! #     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then(|| Outcome::Win(self.1.opponent())) }
//! #     fn hash(&self) -> u64 { u64::from(self.0) * 2 + self.1.index() as u64 }
//! #     fn hash_from_scratch(&self) -> u64 { self.hash() }
//! #     fn move_index(&self, n: u8) -> usize { usize::from(n) }
//! #     fn move_index_bound(&self) -> usize { 4 }
//! #     fn classify(&self, _: u8) -> MoveClass { MoveClass::Quiet }
//! # }
//! # struct Zero; impl Evaluator<Nim> for Zero { fn evaluate(&self, _: &Nim) -> Score { Score::DRAW } }
//! // Nim: take 1-3 of the stones, taking the last one wins.
//! let engines = vec![
//!     Engine::new("alphabeta", || -> Box<dyn Agent<Nim>> {
//!         Box::new(SearchAgent::new(SearcherSpec::AlphaBeta.build(Zero).expect("no table")))
//!     }),
//!     Engine::new("random", || -> Box<dyn Agent<Nim>> { Box::new(RandomAgent::new(1)) }),
//! ];
//! let openings = vec![Nim(13, Side::First), Nim(14, Side::First), Nim(15, Side::First)];
//! let config = ArenaConfig { limits: SearchLimits::depth(20), ..ArenaConfig::default() };
//! let arena = Arena::new(engines, openings, config);
//! let records = arena.run(&arena.head_to_head(), &[], &mut |_, _| {});
//! let standings = Standings::new(&arena.names(), &records);
//! // From 13, 14 and 15 stones the first player wins with perfect play; the searcher wins all
//! // three games where it moves first and at least one of the others.
//! assert!(standings.engines[0].wdl.wins >= 4);
//! println!("{}", standings.table());
//! ```

mod elo;
mod external;
mod journal;
mod openings;
mod play;
mod record;
mod runner;
mod sprt;
mod standings;

pub use elo::{EloEstimate, Wdl, elo_of_score};
pub use external::{Restart, UgiAgent, UgiEngine, UgiEngineError};
pub use journal::{Journal, JournalError};
pub use openings::random_openings;
pub use play::{GameSpec, GameTask, TextHooks, play_game};
pub use record::{GameRecord, GameResult, RecordError, SideName, SideStats, Termination};
pub use runner::{AgentFactory, Arena, ArenaConfig, Engine, Progress, Schedule};
pub use sprt::{Sprt, SprtVerdict};
pub use standings::{EngineLine, Standings};
