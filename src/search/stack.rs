//! The per-ply stack frames of the alpha-beta searchers ([`crate::search::AlphaBeta`],
//! [`crate::search::Pvs`] and its quiescence search) and the depth constants their sizes follow.
//!
//! Key invariant: every buffer a node needs (its moves, their ordering scores, its principal
//! variation, the moves it puts off) lives in the frame of its ply, built with its capacity when
//! the search starts: the node loop reuses them and allocates nothing. A node takes only its
//! move [`Buffers`] out of its frame while it recurses; its PV stays in place, so no node copies
//! a frame's inline PV storage.

/// The deepest iteration when no depth limit is given (and the deepest any iteration goes).
pub const MAX_DEPTH: u32 = 120;

/// The most plies quiescence search goes below the horizon (see
/// [`crate::search::Minimax::with_quiescence`]); minimax-with-quiescence and PVS use the same
/// cap.
pub const QUIESCENCE_PLIES: u32 = 16;

/// Quiescence answers threats ([`crate::Game::generate_evasions`]) only this many plies below
/// the horizon; deeper, a threatened side stands pat like any other (an escape threat answered
/// by every move of a crowded board would otherwise multiply the tree at each capture).
pub const QUIESCENCE_EVASION_PLIES: u32 = 4;

use crate::search::searcher::Pv;

/// Room each move buffer starts with (more than most games' move count).
const MOVES_CAPACITY: usize = 64;

/// The plies a search to `depth` can reach: threat extensions (granted only while `ply` is below
/// the nominal depth, one ply each) can double a line, then quiescence adds its own plies, plus
/// the root and a spare.
#[must_use]
pub const fn stack_plies(depth: u32) -> usize {
    2 * depth as usize + QUIESCENCE_PLIES as usize + 2
}

/// A move handed out by a move picker, with what the search decides by: its place in the
/// node's order (1 for the first) and whether it is a plain quiet move (no table move, noisy
/// move or killer), which late-move reductions look at.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pick<M> {
    /// The move.
    pub mv: M,
    /// Its place in the order the node searches its moves, from 1.
    pub order: usize,
    /// Is it a plain quiet move?
    pub plain_quiet: bool,
}

/// The buffers of one node, at one ply of the line being searched.
#[derive(Clone, Debug)]
pub struct Frame<M> {
    /// The buffers the node's move loop works in (taken out of the frame for the loop).
    pub buffers: Buffers<M>,
    /// The principal variation from this node (triangular: built from the child's by
    /// [`record_pv`]; it stays in place, so a node never moves its inline storage).
    pub pv: Pv<M>,
}

/// The move buffers of one node: three vectors, cheap to take out of the frame and put back
/// while the node's loop recurses into the frames below.
#[derive(Clone, Debug)]
pub struct Buffers<M> {
    /// The node's moves (generated into, in the picker's stages).
    pub moves: Vec<M>,
    /// The ordering scores of `moves`.
    pub scores: Vec<i32>,
    /// Moves put off because another thread is searching them (threaded searches only).
    pub deferred: Vec<Pick<M>>,
}

impl<M> Default for Buffers<M> {
    fn default() -> Buffers<M> {
        Buffers {
            moves: Vec::new(),
            scores: Vec::new(),
            deferred: Vec::new(),
        }
    }
}

/// One frame per ply, `plies` of them, each with its buffers' capacity reserved.
#[must_use]
pub fn frames<M>(plies: usize) -> Vec<Frame<M>> {
    (0..plies)
        .map(|_| Frame {
            buffers: Buffers {
                moves: Vec::with_capacity(MOVES_CAPACITY),
                scores: Vec::with_capacity(MOVES_CAPACITY),
                deferred: Vec::with_capacity(MOVES_CAPACITY),
            },
            pv: Pv::with_capacity(plies),
        })
        .collect()
}

/// The node at `ply` found its best move so far, `mv`: its PV becomes `mv` followed by the PV
/// of the child at `ply + 1`.
#[inline]
pub fn record_pv<M: Copy>(frames: &mut [Frame<M>], ply: usize, mv: M) {
    let (node, below) = frames.split_at_mut(ply + 1);
    let pv = &mut node[ply].pv;
    pv.clear();
    pv.push(mv);
    pv.extend_from_slice(&below[0].pv);
}
