//! # plies-tafl
//!
//! Tafl for plies: one rules engine configured by OpenTafl rules strings (OTN), every
//! built-in OpenTafl variant plus Brandubh "federation" and official-repetition Copenhagen,
//! OTN positions and moves, game records with threefold repetition, and a tunable evaluator.
//!
//! - Board: up to 19x19, square `= (rank - 1) * dim + file`, `a1 = 0`; row bitboards (one
//!   `u32` per rank and side, [`Board`]), so [`Tafl`] is `Copy` (about 190 bytes) with no heap.
//!   Captures and most game ends are found without playing a move (`classify`).
//! - Rules: [`Rules`] parsed from the OTN string and interned, so a position carries a
//!   `&'static Rules` (one pointer; equal rules share one copy).
//! - Sides: [`plies::Side::First`] = attackers, [`plies::Side::Second`] = defenders.
//! - Repetition: positions carry no history; the `tfr` rule (and the official Copenhagen
//!   defenders-lose rule) is the [`plies::Game::repetition_outcome`] hook, which [`GameRecord`]
//!   applies when games are played or replayed, and which the searches apply too when given the
//!   game's history ([`plies::GameHistory`], [`plies::search::Searcher::search_in`]; [`GameRecord::history`], the arena, `play`
//!   and the OTEP engine pass it): a line that repeats a position the third time ends there as
//!   the rule says, so the search avoids (or seeks) such repetitions.
//! - Supported beyond the built-ins: middleweight king (`ks:m`), speed limits (`spd:n` or
//!   `spd:attackers,defenders,`), shieldwalls without the flanking rule (`swf:n`), attacker
//!   and defender fortress squares (`afor`/`dfor` and their `h`/`p`/`s` sets).
//! - Unsupported (rejected with an error naming the key or piece; no built-in variant needs
//!   them): berserk pieces and moves (`ber`, pieces `c n m g`), king jumps (`kj`), per-piece-type
//!   speed lists.
//!
//! ```
//! use plies::{Game, Notation};
//! use plies::harness::{perft, PerftConvention};
//! use plies_tafl::Tafl;
//!
//! let brandub = Tafl::parse_position("brandub").unwrap();
//! assert_eq!(perft(&brandub, 2, PerftConvention::Leaf), 960);
//! let next = brandub.play_line("d7-c7").unwrap();
//! assert_eq!(next.format_move(next.parse_move("d5-c5").unwrap()), "d5-c5");
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod bits;
pub mod board;
mod capture;
mod classify;
mod describe;
mod endings;
pub mod eval;
pub mod notation;
pub mod record;
pub mod rules;
mod rules_otn;
pub mod state;
pub mod suite;
pub mod variants;
mod view;
mod zobrist;

pub use board::{Board, Piece};
pub use eval::{EVALUATOR_NAMES, TaflEvaluator};
pub use record::{GameRecord, RecordError};
pub use rules::Rules;
pub use rules_otn::KNOWN_KEYS;
pub use state::{Tafl, TaflMove};
pub use variants::{
    VARIANTS, Variant, from_rules, start_of, variant, variant_of_rules, variant_starts,
};
