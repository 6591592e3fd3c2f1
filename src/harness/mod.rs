//! The verification harness, usable on anyone's game: perft over data files, the conformance
//! suite of rules invariants, the consistency check of every searcher against plain minimax,
//! random positions and byte-driven property tests.
pub mod conformance;
pub mod consistency;
pub mod perft;
pub mod properties;
pub mod random;
