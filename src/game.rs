//! The rules of a two-player game: the [`Game`] trait and its vocabulary types.
//!
//! A game crate implements [`Game`] for its state type; every searcher, the harness and the
//! command line work through this trait only.
//!
//! Key invariants a [`Game`] must keep (the conformance suite in
//! [`crate::harness::conformance`] checks every one of them):
//! - [`Game::outcome`] is `Some` exactly when [`Game::generate_moves`] produces no move;
//! - [`Game::hash`] (kept incrementally) always equals [`Game::hash_from_scratch`];
//! - [`Game::move_index`] is below [`Game::move_index_bound`] and differs for distinct legal moves
//!   of one position;
//! - every noisy move ([`Game::generate_noisy_moves`]) is also a legal move, and the noisy and
//!   quiet moves ([`Game::generate_quiet_moves`]) together are exactly the legal moves.
//!
//! The side to move need not alternate: a move after which the same side moves again (Kalah's
//! extra turn, Yinsh's multi-part turn) is fine, and searchers negate scores only when
//! [`Game::side_to_move`] changes between a position and its child.

use std::fmt::Debug;
use std::hash::Hash;

/// One of the two players. `First` is whoever the game's rules call the first player
/// (Onitama: red; Kalah: south); which side actually moves first in a position is up to the game.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Side {
    /// The first player.
    First,
    /// The second player.
    Second,
}

impl Side {
    /// Both sides, first then second.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for [`Side::First`], 1 for [`Side::Second`]; handy for indexing per-side arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }
}

/// How a finished game ended.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The given side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    #[inline]
    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(side) => Some(side),
            Outcome::Draw => None,
        }
    }
}

/// What a move does, for quiescence search and move ordering.
///
/// Ordered by how forcing the move is: `Quiet < Capture < Win`.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum MoveClass {
    /// Changes nothing tactical.
    Quiet,
    /// Removes enemy material (or is otherwise forcing enough to be searched in quiescence).
    Capture,
    /// Ends the game at once in the mover's favour.
    Win,
}

impl MoveClass {
    /// Captures and wins are noisy: quiescence search looks at them, ordering tries them early.
    #[inline]
    #[must_use]
    pub const fn is_noisy(self) -> bool {
        !matches!(self, MoveClass::Quiet)
    }
}

/// The bounds every move type meets: a small `Copy` value that can be compared, hashed,
/// printed for debugging and sent between threads.
pub trait MoveBounds: Copy + Eq + Hash + Debug + Send + Sync + 'static {}

impl<T: Copy + Eq + Hash + Debug + Send + Sync + 'static> MoveBounds for T {}

/// The rules of a two-player, perfect-information game, seen from one position.
///
/// States are values: [`Game::play`] returns the child position and leaves `self` untouched
/// (copy-make). Positions of the games plies targets are tens of bytes, so copying is cheaper
/// than undoing.
///
/// Move buffers belong to the caller: generation *appends* to a `Vec` that the searcher keeps
/// per ply and clears itself, so no heap allocation happens in the node loop once the buffers
/// have grown to the game's largest move count.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move: a small `Copy` value. Moves are only meaningful in the position that generated
    /// them.
    type Move: MoveBounds;

    /// The side to move. A finished position still names a side (usually the one that would
    /// move next): searchers score a finished position from that side's view and negate as
    /// usual, so any fixed choice gives the same values.
    fn side_to_move(&self) -> Side;

    /// Appends every legal move to `moves` (which is not cleared first). Appends nothing exactly
    /// when the game is over. Each legal move appears once.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// Appends the noisy moves (captures and wins, see [`Game::classify`]) to `moves`.
    ///
    /// The default generates all moves and keeps the noisy ones; games override it with
    /// something faster when quiescence search matters.
    fn generate_noisy_moves(&self, moves: &mut Vec<Self::Move>) {
        let start = moves.len();
        self.generate_moves(moves);
        let mut keep = start;
        for i in start..moves.len() {
            let mv = moves[i];
            if self.classify(mv).is_noisy() {
                moves[keep] = mv;
                keep += 1;
            }
        }
        moves.truncate(keep);
    }

    /// Appends the quiet moves (every legal move that is not noisy) to `moves`: together with
    /// [`Game::generate_noisy_moves`] exactly the legal moves, each once.
    ///
    /// The default generates all moves and keeps the quiet ones; games override it so a staged
    /// move picker can search the noisy moves before the quiet ones are even generated.
    fn generate_quiet_moves(&self, moves: &mut Vec<Self::Move>) {
        let start = moves.len();
        self.generate_moves(moves);
        let mut keep = start;
        for i in start..moves.len() {
            let mv = moves[i];
            if !self.classify(mv).is_noisy() {
                moves[keep] = mv;
                keep += 1;
            }
        }
        moves.truncate(keep);
    }

    /// The position after `mv`, which must be a legal move of this position.
    fn play(&self, mv: Self::Move) -> Self;

    /// `Some` once the game is over, `None` while moves remain.
    fn outcome(&self) -> Option<Outcome>;

    /// The Zobrist hash of this position, kept incrementally by [`Game::play`]. Covers everything
    /// that decides the legal moves and their results (board, side to move, cards, counters…).
    fn hash(&self) -> u64;

    /// The same hash computed from nothing but the position; used to check [`Game::hash`].
    fn hash_from_scratch(&self) -> u64;

    /// A dense index of `mv` for history and killer tables: below [`Game::move_index_bound`]
    /// and distinct for distinct legal moves of this position.
    fn move_index(&self, mv: Self::Move) -> usize;

    /// An upper bound (exclusive) of [`Game::move_index`] that is the same for every position
    /// reachable from this one (it may depend on a variant, such as a board size).
    fn move_index_bound(&self) -> usize;

    /// What `mv` does: quiet, capture or immediate win.
    fn classify(&self, mv: Self::Move) -> MoveClass;

    /// Would the opponent of the side to move win at once if it could move now (chess: "in
    /// check")? Searchers extend such positions by a ply and never reduce them, so forced
    /// sequences are seen sooner. Only a hint for the search (the default, `false`, is always
    /// safe); a finished position may answer anything.
    #[inline]
    fn is_threatened(&self) -> bool {
        false
    }

    /// The fewest plies left at which a table-using searcher probes and writes its
    /// transposition table (at least 1: every node above the horizon). A game whose positions
    /// are very cheap to make and evaluate can lose more to the table's cache misses one ply
    /// above the horizon, its most numerous nodes, than their entries save, and answer 2. Only
    /// a speed hint, asked once per search thread of the root position; a searcher's own setting
    /// ([`crate::search::PvsConfig::tt_min_depth`]) overrides it.
    #[inline]
    fn table_min_depth(&self) -> u32 {
        1
    }

    /// The legal move of this position whose [`Game::move_index`] is `index`, found without
    /// generating every move, or `None` if there is none **or the game does not support the
    /// look-up** (the default). Searchers use it to try a transposition-table move before
    /// generating the others; a game that answers must answer exactly: `Some(mv)` only for a
    /// legal `mv` with that index (the conformance suite can check it against generation).
    /// Searchers also call [`Game::move_index`] on a move of *another* position (a killer) to
    /// look it up here, so `move_index` must not panic on such a move.
    #[inline]
    fn move_from_index(&self, index: usize) -> Option<Self::Move> {
        let _ = index;
        None
    }
}
