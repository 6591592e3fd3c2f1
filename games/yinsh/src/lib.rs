//! Yinsh for plies: the full rules (Blitz included) at the level of single decisions.
//!
//! # Rules
//! 85 points (A2..K10). White ([`plies::Side::First`]) and Black alternately place their five
//! rings; then a turn puts a marker of one's colour in one of one's rings and moves that ring
//! along a line over empty points, possibly jumping one contiguous group of markers (which flip)
//! to the first empty point after them. Five markers of one colour in a line form a row: its
//! owner removes five of them (his choice on longer runs or crossing rows) and then one of his
//! rings. The mover's rows go first, then the opponent's (who then moves). Three rings removed
//! wins (one in Blitz). When the 51 markers are all on the board at the start of a turn the game
//! ends: more rings removed wins, equal is a draw. A side whose rings cannot move passes.
//!
//! **Double-pass policy**: two passes in a row end the game as if the markers had run out.
//! There is no repetition rule (every ring move adds a marker, so no position repeats):
//! searches ignore the game history.
//!
//! # Modelling
//! Each decision — place ring, move ring, pass, remove row, remove ring — is one [`Move`], so
//! the side to move does not strictly alternate ([`plies::Game`] allows that). See
//! the `Notation` impl of [`Yinsh`] for the text formats (GIPF-style moves, a position format)
//! and [`read_sgf`] / [`write_sgf`] for boardspace records (the game's record format), with
//! their variations [`read_sgf_tree`] / [`write_sgf_tree`].
//!
//! Key invariant: no row stands on the board while a ring is to be placed or moved.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod board;
mod eval;
mod moves;
mod notation;
mod rows;
mod sgf;
mod state;
mod view;

pub use eval::YinshEvaluator;
pub use sgf::{MAX_SGF_DEPTH, SgfGame, read_sgf, read_sgf_tree, write_sgf, write_sgf_tree};
pub use state::{MARKERS, Move, Phase, RINGS, Yinsh};
