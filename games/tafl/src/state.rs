//! The tafl position [`Tafl`], its move [`TaflMove`], and the [`plies::Game`] implementation:
//! move generation, copy-make play, game end.
//!
//! Key invariants: [`Side::First`] is always the attackers (even with `atkf:n`, where the
//! defenders happen to move first); `outcome` is decided in [`Game::play`] (and for parsed
//! positions by [`Tafl::new`]) and is `Some` exactly when the side to move has no move; the
//! hash covers board and side to move and is kept incrementally. Repetition is *not* part of a
//! position (see [`crate::record`] for how threefold repetition is applied).

use std::fmt;

use plies::{Game, MoveClass, Outcome, Side};

use crate::board::{Board, Piece};
use crate::rules::{NONE, Rules};
use crate::zobrist::{defenders_to_move_key, piece_key};

/// A move: one piece slides from `from` to `to` along a rank or file.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct TaflMove {
    /// Square index the piece leaves.
    pub from: u16,
    /// Square index it stops on.
    pub to: u16,
}

/// A tafl position under a variant's [`Rules`]: `Copy`, no heap.
#[derive(Copy, Clone)]
pub struct Tafl {
    pub(crate) rules: &'static Rules,
    pub(crate) board: Board,
    /// The king's square, `NONE` once captured (or when the position has no king).
    pub(crate) king: u16,
    pub(crate) side: Side,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) hash: u64,
    /// Pieces per side (attackers, defenders with the king), kept by [`Tafl::capture`].
    pub(crate) counts: [u16; 2],
    /// Per side, a square whose piece recently had a legal move (a hint for
    /// [`Tafl::has_any_move`]; not part of the position).
    pub(crate) witness: [u16; 2],
}

/// Whether `piece` belongs to `side` (attackers are [`Side::First`]).
#[inline]
pub(crate) fn owns(side: Side, piece: Piece) -> bool {
    match side {
        Side::First => piece == Piece::Attacker,
        Side::Second => piece.is_defending(),
    }
}

impl Tafl {
    /// The position with `board` and `side` to move under `rules`; decides whether the game is
    /// already over (king gone, king escaped, edge fort, encirclement, no move).
    #[must_use]
    pub fn new(rules: &'static Rules, board: Board, side: Side) -> Tafl {
        let n = rules.dim * rules.dim;
        let king = (0..n)
            .find(|&sq| board.get(sq) == Piece::King)
            .map_or(NONE, |sq| sq as u16);
        let mut state = Tafl {
            rules,
            board,
            king,
            side,
            outcome: None,
            hash: 0,
            counts: [0, 0],
            witness: [NONE, NONE],
        };
        for sq in 0..n {
            let piece = board.get(sq);
            if piece != Piece::Empty {
                state.counts[usize::from(piece != Piece::Attacker)] += 1;
            }
        }
        state.hash = state.hash_from_scratch();
        state.outcome = state.static_outcome();
        state
    }

    /// The variant's rules.
    #[must_use]
    pub fn rules(&self) -> &'static Rules {
        self.rules
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The king's square, if the king is on the board.
    #[must_use]
    pub fn king_square(&self) -> Option<usize> {
        (self.king != NONE).then_some(self.king as usize)
    }

    /// The same board and side under a decided `outcome` (used by game records to end a game
    /// by repetition).
    #[must_use]
    pub fn with_outcome(&self, outcome: Outcome) -> Tafl {
        Tafl {
            outcome: Some(outcome),
            ..*self
        }
    }

    fn static_outcome(&mut self) -> Option<Outcome> {
        let r = self.rules;
        if self.king == NONE {
            return Some(Outcome::Win(Side::First));
        }
        let k = self.king as usize;
        if (r.edge_escape && r.is_edge(k)) || (!r.edge_escape && r.is_corner(k)) {
            return Some(Outcome::Win(Side::Second));
        }
        if r.edge_fort && self.edge_fort() {
            return Some(Outcome::Win(Side::Second));
        }
        if r.surround_fatal && self.encircled() {
            return Some(Outcome::Win(Side::First));
        }
        if !self.has_any_move(self.side) {
            return Some(Outcome::Win(self.side.opponent()));
        }
        None
    }

    /// Calls `visit(to)` for each square the piece on `from` may stop on; stops early when
    /// `visit` returns `false` (and then returns `false`).
    #[inline]
    fn for_each_target(
        &self,
        from: usize,
        piece: Piece,
        mut visit: impl FnMut(usize) -> bool,
    ) -> bool {
        let r = self.rules;
        for d in 0..4 {
            let mut s = r.neighbours[from][d];
            while s != NONE && self.board.0[s as usize] == 0 {
                let sq = s as usize;
                let role = r.roles[sq];
                if role == 0 {
                    if !visit(sq) {
                        return false;
                    }
                } else {
                    let corner = r.is_corner(sq);
                    let throne = r.is_throne(sq);
                    let stop = (!corner || r.corner_stop.contains(piece))
                        && (!throne || r.throne_stop.contains(piece));
                    if stop && !visit(sq) {
                        return false;
                    }
                    let pass = (!corner || r.corner_pass.contains(piece))
                        && (!throne || r.throne_pass.contains(piece));
                    if !pass {
                        break;
                    }
                }
                s = r.neighbours[sq][d];
            }
        }
        true
    }

    /// Whether `side` has at least one legal move on this board. Tries the remembered
    /// witness (a square whose piece had a move, `witness[side]`) first, and remembers the
    /// piece found by a scan; the witness is only a hint, checked every time.
    pub(crate) fn has_any_move(&mut self, side: Side) -> bool {
        let movable = |state: &Tafl, sq: usize| {
            let piece = state.board.get(sq);
            owns(side, piece) && !state.for_each_target(sq, piece, |_| false)
        };
        let w = self.witness[side.index()] as usize;
        if w < self.rules.dim * self.rules.dim && movable(self, w) {
            return true;
        }
        if side == Side::Second && self.king != NONE && movable(self, self.king as usize) {
            self.witness[1] = self.king;
            return true;
        }
        let n = self.rules.dim * self.rules.dim;
        match (0..n).find(|&sq| movable(self, sq)) {
            Some(sq) => {
                self.witness[side.index()] = sq as u16;
                true
            }
            None => false,
        }
    }

    /// Empties `sq`, keeping the hash (not the counts: see [`Tafl::capture`]).
    #[inline]
    pub(crate) fn lift(&mut self, sq: usize) {
        let code = self.board.0[sq];
        self.hash ^= piece_key(code, sq);
        self.board.0[sq] = 0;
    }

    /// Removes a captured piece, keeping hash and counts.
    #[inline]
    pub(crate) fn capture(&mut self, sq: usize) {
        let code = self.board.0[sq];
        self.counts[usize::from(code != Piece::Attacker as u8)] -= 1;
        self.lift(sq);
    }

    #[inline]
    fn put(&mut self, sq: usize, code: u8) {
        self.hash ^= piece_key(code, sq);
        self.board.0[sq] = code;
    }

    /// The squares whose pieces `mv` captures, in the position after it (for full OTN moves
    /// and record checks).
    #[must_use]
    pub fn captured_by(&self, mv: TaflMove) -> Vec<usize> {
        let next = self.play(mv);
        let n = self.rules.dim * self.rules.dim;
        (0..n)
            .filter(|&sq| sq != mv.from as usize && self.board.0[sq] != 0 && next.board.0[sq] == 0)
            .collect()
    }
}

impl Game for Tafl {
    type Move = TaflMove;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, moves: &mut Vec<TaflMove>) {
        if self.outcome.is_some() {
            return;
        }
        let n = self.rules.dim * self.rules.dim;
        for from in 0..n {
            let piece = self.board.get(from);
            if owns(self.side, piece) {
                self.for_each_target(from, piece, |to| {
                    moves.push(TaflMove {
                        from: from as u16,
                        to: to as u16,
                    });
                    true
                });
            }
        }
    }

    fn play(&self, mv: TaflMove) -> Tafl {
        let mut next = *self;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let code = self.board.0[from];
        let piece = Piece::from_code(code);
        next.lift(from);
        next.put(to, code);
        if piece == Piece::King {
            next.king = to as u16;
        }
        next.resolve_captures(to, piece);
        let mover = self.side;
        next.side = mover.opponent();
        next.hash ^= defenders_to_move_key();
        let r = self.rules;
        next.outcome = if mover == Side::Second {
            let escaped = piece == Piece::King
                && ((r.edge_escape && r.is_edge(to)) || (!r.edge_escape && r.is_corner(to)));
            (escaped || (r.edge_fort && next.edge_fort())).then_some(Outcome::Win(Side::Second))
        } else {
            let captured = next.counts[1] != self.counts[1];
            let encircled =
                r.surround_fatal && (captured || next.may_close_ring(to)) && next.encircled();
            (next.king == NONE || encircled).then_some(Outcome::Win(Side::First))
        };
        if next.outcome.is_none() && !next.has_any_move(next.side) {
            next.outcome = Some(Outcome::Win(mover));
        }
        next
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let n = self.rules.dim * self.rules.dim;
        let mut h = if self.side == Side::Second {
            defenders_to_move_key()
        } else {
            0
        };
        for sq in 0..n {
            let code = self.board.0[sq];
            if code != 0 {
                h ^= piece_key(code, sq);
            }
        }
        h
    }

    #[inline]
    fn move_index(&self, mv: TaflMove) -> usize {
        let dim = self.rules.dim;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let lane = if from / dim == to / dim {
            to % dim
        } else {
            dim + to / dim
        };
        from * 2 * dim + lane
    }

    fn move_index_bound(&self) -> usize {
        let dim = self.rules.dim;
        dim * dim * 2 * dim
    }

    fn classify(&self, mv: TaflMove) -> MoveClass {
        let next = self.play(mv);
        if next.outcome == Some(Outcome::Win(self.side)) {
            return MoveClass::Win;
        }
        let them = self.side.opponent().index();
        if next.counts[them] < self.counts[them] {
            MoveClass::Capture
        } else {
            MoveClass::Quiet
        }
    }
}

impl Tafl {
    /// The number of pieces of `side` (the king counts for the defenders).
    #[must_use]
    pub fn piece_count(&self, side: Side) -> usize {
        usize::from(self.counts[side.index()])
    }
}

impl fmt::Debug for Tafl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tafl({} {} {:?})",
            self.board.to_otn(self.rules.dim),
            if self.side == Side::First { "a" } else { "d" },
            self.outcome
        )
    }
}
