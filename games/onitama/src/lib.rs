//! # plies-onitama
//!
//! Onitama for plies: bitboard rules (base game and the Sensei's Path cards), the project
//! notation, evaluators and perft.
//!
//! - Board: 25 squares, `a1 = 0 .. e5 = 24` (index `= 5 * (rank - 1) + file`, see [`square`]);
//!   sets of squares are 25-bit [`Bitboard`]s. Red ([`plies::Side::First`]) starts on rank 1,
//!   blue ([`plies::Side::Second`]) on rank 5.
//! - Cards: ids `0..32` ([`Card`], [`card::CARDS`]); target masks per (card, player, square)
//!   are built at compile time.
//! - [`Onitama`] is the position (`Copy`, 40 bytes, incremental Zobrist hash over pieces, cards
//!   and side to move); it implements [`plies::Game`] and [`plies::Notation`].
//! - Draws: the rulebook has no draw rule and neither has this crate; agents and the arena
//!   apply a ply cap where they need one. No repetition rule either: the search ignores the
//!   game history ([`plies::Game::has_repetition_rule`] is `false`).
//!
//! ```
//! use plies::{Game, Notation};
//! use plies::harness::PerftConvention;
//! use plies_onitama::Onitama;
//!
//! let start = Onitama::start_position();
//! assert_eq!(start.format_position(), "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon");
//! let deal = Onitama::parse_position("bbBbb/5/5/5/rrRrr b horse,elephant ox,boar crab").unwrap();
//! assert_eq!(deal.perft(3, PerftConvention::Leaf), 1_989);
//! let next = start.play_line("monkey b1-c2 tiger b5-b3").unwrap();
//! assert_eq!(next.format_position(), "b1Bbb/5/1b3/2r2/r1Rrr r crane,dragon crab,monkey tiger");
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bench;
pub mod bitboard;
pub mod card;
pub mod eval;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod rules;
pub mod square;
pub mod state;
pub mod tables;
mod view;
mod zobrist;

pub use bench::{BENCH_DEALS, BENCH_DEPTH, BENCH_SUITE, SAMPLE_POSITION};
pub use bitboard::Bitboard;
pub use card::{Card, CardSpec};
pub use eval::{CardTables, MaterialEvaluator, PstEvaluator, PstWeights, TUNED_WEIGHTS};
pub use moves::Move;
pub use notation::START_POSITION;
pub use square::Square;
pub use state::{Onitama, Piece};
