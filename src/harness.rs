//! The verification harness, usable on anyone's game: perft over data files, the conformance
//! suite of rules invariants, the consistency check of every searcher against plain minimax,
//! random positions and byte-driven property tests.
//!
//! A new game is checked in three steps (the Kalah tutorial, `games/kalah/TUTORIAL.md`, does all three):
//! 1. [`check_conformance`] on a few start positions: hash, move generation,
//!    classification, move indices and notation, at every position of seeded random games;
//! 2. perft numbers against published tables or an independent slow move generator;
//! 3. [`check_consistency`] on [`random_playout_positions`] with the game's
//!    evaluator and with [`HashEvaluator`]: every searcher configuration must
//!    return plain minimax's value and one of its best moves.
//!
//! # The consistency check
//!
//! For every position and every depth, [`check_consistency`] computes the value of each root
//! move with [`crate::search::Minimax::root_values`] (no pruning, no tables, no ordering) and asks each searcher,
//! cleared first, for a fixed-depth search. The searcher must return
//! - exactly the minimax root value (heuristic values, draws and win/loss distances alike),
//! - a best move that is one of minimax's best moves (ties are common on purpose),
//! - the requested depth as its completed depth, and a principal variation that starts with the
//!   best move and is legal move after move.
//!
//! A second, *warm* pass repeats every search without clearing the searcher, so transposition
//! tables, killers and history carry over from all earlier searches; it must give the same
//! answers. Its configurations are reported as `<name> (warm)`.
//!
//! [`HashEvaluator`] makes the check sharp: its values are a pseudo-random function of the
//! position's hash over a small range, so positions are scored unlike any real evaluator would
//! (nothing is "obviously" best) and ties between moves are frequent, which is where move
//! ordering, pruning windows and table bounds go wrong.
//!
//! ## What is value-exact, and what is compared against what instead
//!
//! Value-exact against plain minimax (checked here): alpha-beta, principal variation search with
//! null windows and re-searches, transposition tables whose cutoffs only use entries of exactly
//! the remaining depth (`tt_exact_depth = true`) with bounds respected and win/loss distances
//! stored relative to the node, move ordering of every kind (TT move, noisy first, killers,
//! history), iterative deepening with a fixed depth limit, extra turns.
//!
//! Not value-exact, and checked otherwise:
//! - **Quiescence search** changes the values by design; it is compared against minimax with the
//!   same quiescence at the leaves (a minimax reference that calls the same quiescence routine),
//!   not against plain minimax. Configurations with quiescence do not belong in the searcher
//!   list given to [`check_consistency`].
//! - **Transposition-table cutoffs from deeper entries** (`tt_exact_depth = false`,
//!   `PvsConfig::full()`) return a deeper, better-informed value than a `d`-ply minimax would,
//!   and the mix of depths is not bounded by the minimax values of any range of depths. Checked
//!   for soundness instead ([`property_search_is_sound`]): the move
//!   and the principal variation are legal, every win or loss minimax sees at depth `d` is also
//!   one for the searcher, and a win or loss the searcher claims in `n` plies is confirmed by
//!   minimax at depth `n`.
//! - **Aspiration windows** are value-exact when every fail-high/fail-low is re-searched with a
//!   wider window, so a fixed-depth search with them enabled can stay in this check; if a
//!   configuration keeps a fail-soft bound instead, only the move is compared.
//! - **Threads** (Lazy SMP, `PvsConfig::threads`): still value-exact. Every table entry is a true
//!   bound of its position at its depth whichever thread stored it (an interrupted search stores
//!   nothing), so every thread's completed iteration has the exact fixed-depth value, and the
//!   answer is one of them. What timing changes is only the node count and, among moves of equal
//!   value, which one is played: [`threaded_searchers`] gives the ladders with several threads,
//!   checked here like one thread. At full strength (deeper entries cut), several threads are
//!   checked for soundness like one (a legal move and PV, the requested depth completed).
//! - **MCTS** has no minimax value: it is checked for legal moves, for finding forced wins in
//!   one, and by playing strength in the arena.
//! - **Time-limited searches** are not deterministic: the result must be that of a completed
//!   iteration, so its value must equal the fixed-depth value at the reported depth.
//!
//! # Endgame tables
//!
//! Tables built by [`crate::solve`] are checked by their successors
//! ([`check_table_successors`]), by a value-exact search without them to the tables' distance
//! ([`check_table_against_search`], where the tables are the oracle for positions deeper than
//! plain minimax reaches), and by play ([`check_table_conversion`]).
//!
//! Every item is at `plies::harness::NAME`; the modules that hold them are private.
//!
//! Key invariant: everything here is deterministic in its seed, so any failure replays.
mod bench;
mod conformance;
mod consistency;
mod perft;
mod picker;
mod properties;
mod random;
mod tables;

pub use bench::{BenchProof, BenchSignature, BenchSuite};
pub use conformance::{Check, ConformanceFailure, ConformanceReport, check_conformance};
pub use consistency::{
    ConsistencyFailure, ConsistencyOptions, ConsistencyReport, HashEvaluator, Mismatch,
    check_consistency, check_consistency_with, quiescence_searchers, standard_searchers,
    threaded_searchers,
};
pub use perft::{
    ConventionError, PerftConvention, PerftError, PerftReport, perft, perft_divide, run_perft_file,
};
pub use picker::{PickerError, picker_perft};
pub use properties::{
    property_hash_consistent, property_notation_round_trip, property_outcome_iff_no_moves,
    property_search_is_sound, property_search_matches_minimax, reached_position,
};
pub use random::{
    play_picks, random_game, random_playout_positions, random_playout_positions_with_finished,
};
pub use tables::{
    TableCheck, TableCheckError, check_table_against_search, check_table_conversion,
    check_table_successors,
};
