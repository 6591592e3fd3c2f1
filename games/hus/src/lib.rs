//! Hus, the 4x16 mancala of McGill's COMP 424 (2016) course project, for plies.
//!
//! # Rules (as in the course's `HusBoardState.java`)
//! - Two players; player 0 ([`plies::Side::First`]) moves first. Each owns 32 pits, indexed
//!   0..31 from its own view: 0..15 the outer row, 16..31 the inner row running back, so sowing
//!   goes round by `index + 1 mod 32`. The mover's inner pit `i` faces the opponent's inner pit
//!   `47 − i` and the opponent's outer pit `i − 16`.
//! - Start: pits 0..23 hold 2 seeds each, 24..31 are empty (96 seeds in all, always).
//! - A move scoops one of the mover's pits holding 2+ seeds and sows one seed per pit forward.
//!   If the last pit sown was empty the move ends. Otherwise, from round 1 on, if it is an inner
//!   pit whose facing opponent inner pit is non-empty, the seeds of both facing opponent pits
//!   are captured and sown on from the pit after the last one; else the last pit is scooped and
//!   sown on (relay). Repeat.
//! - The round counter starts at 0 and grows after player 1's move.
//! - After a move, if the opponent has no pit with 2+ seeds, the mover wins; otherwise the game
//!   is drawn once the round counter exceeds 5,000. There is no repetition rule (the round
//!   counter is part of a position, so none repeats): searches ignore the game history.
//!
//! # Infinite-move policy
//! A move needing more than [`MAX_LAPS`] laps (each relay or capture re-sow is one lap) never
//! ends; the course cancelled such games. Here such a move is **illegal**: it is not generated
//! and cannot be parsed. A position whose side to move has pits with 2+ seeds but only infinite
//! moves is **over, as a draw** (the cancelled game scores nothing for either side). See
//! [`Hus::is_infinite`] and `tests/infinite.rs`.
//!
//! # Engine view
//! - Hash: Zobrist over (player, pit, seeds), the side to move and the round counter.
//! - [`plies::Game::classify`]: a move leaving the opponent without a 2+ pit is a win; a move
//!   capturing [`NOISY_CAPTURE`] or more seeds is a capture; everything else is quiet (most
//!   moves capture a little, and quiescence over all of them would be nearly full width).
//! - Evaluators: [`SeedDifference`], [`Mobility`], [`CaptureThreats`], and their weighted sum
//!   [`HusEvaluator`] (the default of the `hus` example).
//!
//! # Notation
//! - Move: the pit index `0..31`, e.g. `14`.
//! - Position: `<player 0's 32 pits> <player 1's 32 pits> <side to move 0|1> <round>`, the pits
//!   comma-separated from index 0, e.g. the start is
//!   `2,2,…,2,0,0,0,0,0,0,0,0 2,2,…,0 0 0` (see [`Hus::start`]).
//! - Game records ([`plies::Notation::write_record`]): the COMP 424 server's logs, one
//!   `PIT <player> <pit>` line per move after `START` lines, ending `GAMEOVER WINNER <id>`.
//!
//! Key invariant: both sides together always hold 96 seeds, and `hash == hash_from_scratch()`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod eval;
mod lcg;
mod log;
mod notation;
mod state;
mod view;

pub use eval::{CaptureThreats, HusEvaluator, Mobility, SeedDifference};
pub use lcg::{HusLcg, random_game_moves};
pub use state::{Hus, MAX_LAPS, MAX_ROUND, NOISY_CAPTURE, PITS, Pit, SEEDS};
