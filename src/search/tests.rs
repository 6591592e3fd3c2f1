//! Unit tests of the searchers together ([`super`]): every exact searcher agrees with plain
//! minimax ([`agreement`]), and with the game's history too ([`repetition`]).
//!
//! Key invariant: the expected values come from plain minimax, the reference, never from the
//! searcher under test.

mod agreement;
mod repetition;
