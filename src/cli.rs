//! The generic command line: one call gives any game perft, analyze, play and bench.
