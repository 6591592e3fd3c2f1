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
//! Repetition: a position holds no history; a game whose rules decide repeated positions says so
//! through [`Game::has_repetition_rule`] and [`Game::repetition_outcome`], and whoever knows the
//! game's history (a [`GameHistory`]: kept by the arena, handed to every search beside the
//! position) counts the occurrences and asks it.
//!
//! The side to move need not alternate: a move after which the same side moves again (Kalah's
//! extra turn, Yinsh's multi-part turn) is fine, and searchers negate scores only when
//! [`Game::side_to_move`] changes between a position and its child.
//!
//! A pass is an ordinary move: a game whose rules let (or make) a side pass, as Othello does
//! when a side has no placement, generates a pass move like any other, and the outcome is
//! `Some` only when no move at all, pass included, is left. Nothing in the searchers treats a
//! pass specially.

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

    /// The answers to a threat quiescence must look at, for a position where standing pat
    /// would ignore one: when the opponent of the side to move would win at once if it could
    /// move ([`Game::is_threatened`]) and the game can name the moves that may stop it, appends
    /// them (every noisy move among them, see [`Game::generate_noisy_moves`]) and returns
    /// `true`; quiescence then searches exactly those, without standing pat, and a position
    /// with none loses two plies later (every other move lets the opponent win). The default,
    /// `false` (append nothing), keeps standing pat everywhere.
    ///
    /// The game promises that each move it leaves out loses at once; a repetition that such a
    /// move would cause is not looked for (quiescence never looks at quiet repetitions).
    #[inline]
    fn generate_evasions(&self, moves: &mut Vec<Self::Move>) -> bool {
        let _ = moves;
        false
    }

    /// Quiet moves that threaten to win at once (after them the opponent
    /// [`Game::is_threatened`]), appended to `moves`: quiescence plays them at its first ply
    /// besides the noisy moves, so a threat that cannot be answered (two at once) is seen at
    /// the horizon. The default appends none.
    #[inline]
    fn generate_threat_moves(&self, moves: &mut Vec<Self::Move>) {
        let _ = moves;
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

    /// Does this game (this variant) have a repetition rule, so that the history of the
    /// positions played matters? Searchers ask it once per search and, when it says `false`
    /// (the default), skip every repetition look-up: games without the rule pay nothing.
    /// A game that answers `true` implements [`Game::repetition_outcome`].
    #[inline]
    fn has_repetition_rule(&self) -> bool {
        false
    }

    /// What the rules say when the position `self`, just reached by a move of `mover`, now
    /// occurs for the `occurrences`-th time in the game (counting every earlier position with
    /// the same [`Game::hash`], this one included; asked only for 2 and more): `Some` ends the
    /// game there with that outcome (threefold repetition: `Some` from 3 on), `None` lets it go
    /// on. Asked only when [`Game::has_repetition_rule`] is `true`; the default says `None`.
    /// Searchers score a position ended this way like any finished position
    /// ([`crate::eval::Score::terminal`] at its ply).
    #[inline]
    fn repetition_outcome(&self, mover: Side, occurrences: u32) -> Option<Outcome> {
        let _ = (mover, occurrences);
        None
    }
}

/// The positions of one game so far, by [`Game::hash`], oldest first and the current one last:
/// what a game loop keeps to apply the repetition rule ([`Game::repetition_outcome`]) and what it
/// hands to a search beside the position searched ([`crate::search::Searcher::search_with`]), so
/// that searchers count repetitions over the game as well as along their lines.
///
/// Key invariant: it holds exactly the positions recorded since it was made (the start given to
/// [`GameHistory::new`], then one per [`GameHistory::play`] / [`GameHistory::push`]), each once
/// per occurrence, so its counts are the rules' counts. The empty history
/// ([`GameHistory::default`]) is what a search of a position without a known past gets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameHistory {
    hashes: Vec<u64>,
}

impl GameHistory {
    /// A game starting at `start`.
    #[must_use]
    pub fn new<G: Game>(start: &G) -> GameHistory {
        GameHistory {
            hashes: vec![start.hash()],
        }
    }

    /// A history of the given position hashes, oldest first (e.g. read from a game record).
    #[must_use]
    pub fn from_hashes(hashes: Vec<u64>) -> GameHistory {
        GameHistory { hashes }
    }

    /// Records `after`, the position `mover`'s move made, and returns the outcome the rules
    /// give it for its repetition, if any ([`Game::repetition_outcome`], asked only for a game
    /// with the rule, from the second occurrence on, and only when `after` is not finished
    /// already): `Some` means the game ends there.
    pub fn play<G: Game>(&mut self, mover: Side, after: &G) -> Option<Outcome> {
        self.push(after);
        if !after.has_repetition_rule() || after.outcome().is_some() {
            return None;
        }
        let occurrences = self.occurrences(after.hash());
        if occurrences < 2 {
            return None;
        }
        after.repetition_outcome(mover, occurrences)
    }

    /// Records `state` as the next position without asking the repetition rule (for a history
    /// rebuilt along a line whose outcomes are known, such as a pondered variation).
    pub fn push<G: Game>(&mut self, state: &G) {
        self.hashes.push(state.hash());
    }

    /// How many times the position `hash` has occurred.
    #[must_use]
    pub fn occurrences(&self, hash: u64) -> u32 {
        self.hashes.iter().filter(|&&h| h == hash).count() as u32
    }

    /// Every position so far, oldest first, the current one last.
    #[must_use]
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// The number of positions recorded.
    #[must_use]
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// Is nothing recorded (a position searched without its past)?
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// The positions before `state`, oldest first: every recorded position but the last when
    /// the last is `state` (the usual case: the history of the game up to `state`), every one
    /// otherwise (a history that stops just before `state`). What a searcher counts a position's
    /// earlier occurrences in.
    #[must_use]
    pub fn before<G: Game>(&self, state: &G) -> &[u64] {
        match self.hashes.split_last() {
            Some((&last, earlier)) if last == state.hash() => earlier,
            _ => &self.hashes,
        }
    }

    /// The same history ending with `state`: `self` if its last position is `state` already,
    /// otherwise `self` with `state` recorded after it.
    #[must_use]
    pub fn up_to<G: Game>(&self, state: &G) -> GameHistory {
        let mut history = self.clone();
        if history.hashes.last() != Some(&state.hash()) {
            history.push(state);
        }
        history
    }
}
