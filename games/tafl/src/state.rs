//! The tafl position [`Tafl`], its move [`TaflMove`], and the [`plies::Game`] implementation:
//! move generation on row bitboards, copy-make play, game end.
//!
//! Key invariants: [`Side::First`] is always the attackers (even with `atkf:n`, where the
//! defenders happen to move first); `outcome` is decided in [`Game::play`] (and for parsed
//! positions by [`Tafl::new`]) and is `Some` exactly when the side to move has no move; the
//! hash covers board and side to move and is kept incrementally. Repetition is *not* part of a
//! position (see [`crate::record`] for how threefold repetition is applied).
#![allow(clippy::needless_range_loop)] // row bitboards are indexed by rank

use std::fmt;

use plies::bits::{bit_span, highest, lowest, set_bits};
use plies::{Game, MoveClass, Outcome, Side};

use crate::board::{Board, NO_SQUARE, Piece};
use crate::rules::{Repetition, Rules};
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
    pub(crate) side: Side,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) hash: u64,
    /// Pieces per side (attackers, defenders with the king), kept by [`Tafl::capture`].
    pub(crate) counts: [u16; 2],
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
        assert_eq!(board.dim(), rules.dim, "board and rules sizes differ");
        let mut state = Tafl {
            rules,
            board,
            side,
            outcome: None,
            hash: 0,
            counts: [0, 0],
        };
        for s in 0..2 {
            state.counts[s] = board.rows[s].iter().map(|r| r.count_ones() as u16).sum();
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
        self.board.king()
    }

    /// The king's square or [`NO_SQUARE`].
    #[inline]
    pub(crate) fn king(&self) -> u16 {
        self.board.king
    }

    /// The piece on `sq` (through the rules' coordinate table: no division).
    #[inline]
    pub(crate) fn piece_at(&self, sq: usize) -> Piece {
        let (r, f) = self.rules.coords[sq];
        self.board.at(usize::from(r), usize::from(f), sq)
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

    /// Whether the king on `k` has escaped.
    #[inline]
    pub(crate) fn escaped(&self, k: usize) -> bool {
        let r = self.rules;
        if r.edge_escape {
            r.is_edge(k)
        } else {
            r.is_corner(k)
        }
    }

    fn static_outcome(&self) -> Option<Outcome> {
        let r = self.rules;
        if self.king() == NO_SQUARE {
            return Some(Outcome::Win(Side::First));
        }
        let k = self.king() as usize;
        if self.escaped(k) {
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

    /// The squares of rank index `r` that the piece of kind `piece` on file `f` there may
    /// stop on, moving along the rank.
    #[inline]
    fn rank_targets(&self, r: usize, f: usize, piece: Piece) -> u32 {
        let rl = self.rules;
        let occ = self.board.rows[0][r] | self.board.rows[1][r];
        let block = occ | rl.no_pass[piece as usize][r];
        let dim = rl.dim as u32;
        let f = f as u32;
        let above = block & (u32::MAX << (f + 1));
        let right_end = match lowest(above) {
            None => dim,
            Some(b) if occ & (1 << b) == 0 => b + 1,
            Some(b) => b,
        };
        let below = block & ((1u32 << f) - 1);
        let left_start = match highest(below) {
            None => 0,
            Some(b) if occ & (1 << b) == 0 => b,
            Some(b) => b + 1,
        };
        let mut targets = (bit_span::<u32>(f + 1, right_end) | bit_span::<u32>(left_start, f))
            & !rl.no_stop[piece as usize][r]
            & !occ;
        if let Some(limit) = rl.speed[usize::from(piece != Piece::Attacker)] {
            let limit = u32::from(limit);
            targets &= bit_span::<u32>(f.saturating_sub(limit), (f + limit + 1).min(dim));
        }
        targets
    }

    /// Calls `visit(to)` for each square the piece `piece` on `from` may stop on; stops early
    /// when `visit` returns `false` (and then returns `false`).
    #[inline]
    pub(crate) fn for_each_target(
        &self,
        from: usize,
        piece: Piece,
        mut visit: impl FnMut(usize) -> bool,
    ) -> bool {
        let rl = self.rules;
        let dim = rl.dim;
        let (r, f) = rl.coords[from];
        let (r, f) = (usize::from(r), usize::from(f));
        let base = r * dim;
        for t in set_bits(self.rank_targets(r, f, piece)) {
            if !visit(base + t as usize) {
                return false;
            }
        }
        let bit = 1u32 << f;
        let no_stop = &rl.no_stop[piece as usize];
        let no_pass = &rl.no_pass[piece as usize];
        let rows = &self.board.rows;
        let reach = rl.speed[usize::from(piece != Piece::Attacker)].map_or(dim, usize::from);
        let mut s = r + 1;
        while s < dim && s <= r + reach && (rows[0][s] | rows[1][s]) & bit == 0 {
            if no_stop[s] & bit == 0 && !visit(s * dim + f) {
                return false;
            }
            if no_pass[s] & bit != 0 {
                break;
            }
            s += 1;
        }
        let mut s = r;
        while s > 0 && s + reach > r && (rows[0][s - 1] | rows[1][s - 1]) & bit == 0 {
            s -= 1;
            if no_stop[s] & bit == 0 && !visit(s * dim + f) {
                return false;
            }
            if no_pass[s] & bit != 0 {
                break;
            }
        }
        true
    }

    /// Removes a captured piece, keeping hash and counts.
    #[inline]
    pub(crate) fn capture(&mut self, sq: usize) {
        let piece = self.piece_at(sq);
        let (r, f) = self.rules.coords[sq];
        self.counts[usize::from(piece != Piece::Attacker)] -= 1;
        self.hash ^= piece_key(piece as u8, sq);
        self.board.remove(usize::from(r), usize::from(f), sq);
    }

    /// The squares whose pieces `mv` captures (for full OTN moves and record checks).
    #[must_use]
    pub fn captured_by(&self, mv: TaflMove) -> Vec<usize> {
        let caps = self.captures(mv.from as usize, mv.to as usize);
        let mut out = Vec::new();
        caps.for_each(self.rules, &self.board, |sq| out.push(sq));
        if caps.king {
            out.push(self.king() as usize);
        }
        out.sort_unstable();
        out
    }

    /// Whether the move from `from` to `to` wins at once, found by playing it.
    pub(crate) fn wins_by_playing(&self, mv: TaflMove) -> bool {
        self.play(mv).outcome == Some(Outcome::Win(self.side))
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
        self.for_each_move(|mv, _| moves.push(mv));
    }

    fn generate_noisy_moves(&self, moves: &mut Vec<TaflMove>) {
        self.generate_split(moves, true);
    }

    fn generate_quiet_moves(&self, moves: &mut Vec<TaflMove>) {
        self.generate_split(moves, false);
    }

    fn play(&self, mv: TaflMove) -> Tafl {
        let mut next = *self;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let piece = self.piece_at(from);
        let caps = self.captures(from, to);
        let rl = self.rules;
        let (fr, ff) = rl.coords[from];
        let (tr, tf) = rl.coords[to];
        next.board.remove(usize::from(fr), usize::from(ff), from);
        next.board.put(usize::from(tr), usize::from(tf), to, piece);
        next.hash ^= piece_key(piece as u8, from) ^ piece_key(piece as u8, to);
        let board = next.board;
        caps.for_each(rl, &board, |sq| next.capture(sq));
        if caps.king {
            next.capture(next.king() as usize);
        }
        let mover = self.side;
        next.side = mover.opponent();
        next.hash ^= defenders_to_move_key();
        next.outcome = if mover == Side::Second {
            let escaped = piece == Piece::King && next.escaped(to);
            (escaped || (rl.edge_fort && next.edge_fort())).then_some(Outcome::Win(Side::Second))
        } else {
            let encircled = rl.surround_fatal
                && !caps.king
                && (caps.any() || next.may_close_ring(to))
                && next.encircled();
            (caps.king || encircled).then_some(Outcome::Win(Side::First))
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
            let piece = self.board.get(sq);
            if piece != Piece::Empty {
                h ^= piece_key(piece as u8, sq);
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

    fn move_from_index(&self, index: usize) -> Option<TaflMove> {
        let dim = self.rules.dim;
        if self.outcome.is_some() || index >= self.move_index_bound() {
            return None;
        }
        let from = index / (2 * dim);
        let lane = index % (2 * dim);
        let (fr, ff) = (from / dim, from % dim);
        let to = if lane < dim {
            fr * dim + lane
        } else {
            (lane - dim) * dim + ff
        };
        let piece = self.piece_at(from);
        if to == from || !owns(self.side, piece) {
            return None;
        }
        let mut found = false;
        self.for_each_target(from, piece, |t| {
            found = t == to;
            !found
        });
        found.then_some(TaflMove {
            from: from as u16,
            to: to as u16,
        })
    }

    fn classify(&self, mv: TaflMove) -> MoveClass {
        self.classify_one(mv)
    }

    fn is_threatened(&self) -> bool {
        self.outcome.is_none() && self.side == Side::First && self.king_sees_escape()
    }

    /// The attackers facing a king who sees an escape answer with a move onto one of his
    /// lanes (`Tafl::escape_lanes`) or a noisy move (a capture, the king's among them, or a
    /// win); any other move lets him escape.
    fn generate_evasions(&self, moves: &mut Vec<TaflMove>) -> bool {
        if self.outcome.is_some() || self.side != Side::First {
            return false;
        }
        // The lanes are empty exactly when the king sees no escape (not threatened).
        let lanes = self.escape_lanes();
        if lanes.iter().all(|&row| row == 0) {
            return false;
        }
        // Appended after what the buffer holds: only the noisy moves are looked at again.
        let start = moves.len();
        self.generate_noisy_moves(moves);
        let noisy = moves.len();
        self.for_each_move(|mv, _| {
            let (r, f) = self.rules.coords[usize::from(mv.to)];
            if lanes[usize::from(r)] & (1 << f) != 0 && !moves[start..noisy].contains(&mv) {
                moves.push(mv);
            }
        });
        true
    }

    /// The king's quiet moves to a square from which he sees an escape.
    fn generate_threat_moves(&self, moves: &mut Vec<TaflMove>) {
        let k = self.king();
        if self.outcome.is_some() || self.side != Side::Second || k == NO_SQUARE {
            return;
        }
        self.for_each_target(usize::from(k), Piece::King, |to| {
            let mv = TaflMove {
                from: k,
                to: to as u16,
            };
            if self.classify_one(mv) == MoveClass::Quiet && self.play(mv).is_threatened() {
                moves.push(mv);
            }
            true
        });
    }

    #[inline]
    fn has_repetition_rule(&self) -> bool {
        self.rules.repetition != Repetition::Ignore
    }

    /// Threefold repetition per `tfr` (and the official Copenhagen rule): the third occurrence
    /// of a position (board and side to move) ends the game; `d` draws, `w` makes the mover
    /// lose, `l` makes the mover win, the Copenhagen rule makes the defenders lose whoever
    /// repeats, `i` ignores it. A finished position keeps its own outcome.
    fn repetition_outcome(&self, mover: Side, occurrences: u32) -> Option<Outcome> {
        if occurrences < 3 || self.outcome.is_some() {
            return None;
        }
        match self.rules.repetition {
            Repetition::Ignore => None,
            Repetition::Draw => Some(Outcome::Draw),
            Repetition::MoverLoses => Some(Outcome::Win(mover.opponent())),
            Repetition::MoverWins => Some(Outcome::Win(mover)),
            Repetition::DefendersLose => Some(Outcome::Win(Side::First)),
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
