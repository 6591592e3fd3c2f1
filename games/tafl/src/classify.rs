//! Move classification without playing: the per-node [`Facts`], the candidate squares a
//! noisy move must reach, and the split noisy / quiet generation built on them.
//!
//! Key invariant: [`Tafl::classify_with`] equals the definition by playing (win = the game
//! ends at once for the mover, capture = the opponent loses a piece) for every legal move;
//! it plays the move itself only when a rare game end (edge fort, the opponent left without
//! a move, encirclement along the one path the defenders depend on) is possible. `tests/classify.rs` checks this
//! on every position of the real Copenhagen records and on random games.
#![allow(clippy::needless_range_loop)] // row bitboards are indexed by rank

use plies::bits::set_bits;
use plies::{MoveClass, Side};

use crate::board::{MAX_DIM, NO_SQUARE, Piece, Rows};
use crate::rules::Shieldwall;
use crate::state::{Tafl, TaflMove};

/// Facts about a position that make classifying its moves cheap (found once per node).
pub(crate) struct Facts {
    /// The squares a move must reach to possibly leave the opponent without a legal move
    /// ([`Tafl::no_move_squares`]); usually none.
    pub no_move_squares: Rows,
    /// Attackers to move under `surf`: the squares of a path from the defenders to the edge
    /// that every encircling move must block (`None`: not known, check each candidate).
    pub ring_path: Option<Rows>,
}

impl Tafl {
    /// Appends the noisy moves (`noisy`) or the quiet ones. Only moves to a square of
    /// [`Tafl::candidates`] and king moves can be noisy, so only those are classified.
    pub(crate) fn generate_split(&self, moves: &mut Vec<TaflMove>, noisy: bool) {
        if self.outcome.is_some() {
            return;
        }
        let facts = self.facts();
        let candidates = self.candidates(&facts);
        self.for_each_move(|mv, piece| {
            let (tr, tf) = self.rules.coords[usize::from(mv.to)];
            let maybe = piece == Piece::King || candidates[usize::from(tr)] & (1 << tf) != 0;
            let is_noisy = maybe && self.classify_with(mv, &facts).is_noisy();
            if is_noisy == noisy {
                moves.push(mv);
            }
        });
    }

    /// Calls `visit` with every move of the side to move and the piece that makes it (the game
    /// must not be over): each piece of the side, in square order, then its slides.
    #[inline]
    pub(crate) fn for_each_move(&self, mut visit: impl FnMut(TaflMove, Piece)) {
        let dim = self.rules.dim;
        let own = &self.board.rows[self.side.index()];
        let king = self.king() as usize;
        for r in 0..dim {
            for f in set_bits(own[r]) {
                let f = f as usize;
                let from = r * dim + f;
                let piece = match self.side {
                    Side::First => Piece::Attacker,
                    Side::Second if from == king => Piece::King,
                    Side::Second => Piece::Defender,
                };
                self.for_each_target(from, piece, |to| {
                    let mv = TaflMove {
                        from: from as u16,
                        to: to as u16,
                    };
                    visit(mv, piece);
                    true
                });
            }
        }
    }

    /// The squares a non-king move must reach to be noisy in this position: next to an enemy
    /// (every capture takes a piece next to the arrival square), on the encirclement path,
    /// or anywhere when the opponent may run out of moves or an edge fort may form.
    fn candidates(&self, facts: &Facts) -> Rows {
        let rl = self.rules;
        let dim = rl.dim;
        let all = [rl.row_mask; MAX_DIM];
        if self.side == Side::Second {
            let k = self.king();
            if rl.edge_fort && k != NO_SQUARE && rl.is_edge(k as usize) {
                return all;
            }
        }
        let rows = &self.board.rows;
        let enemy = &rows[self.side.opponent().index()];
        let own = &rows[self.side.index()];
        // Custodial captures: an enemy next to the arrival square and, beyond it, something
        // that may close the capture (an own piece, a corner or a throne).
        let mut anvil = [0u32; MAX_DIM];
        for r in 0..dim {
            anvil[r] = own[r] | rl.corner_rows[r] | rl.throne_rows[r] | rl.fort_rows[r];
        }
        let mut out = [0u32; MAX_DIM];
        for r in 0..dim {
            let mut x = ((enemy[r] >> 1) & (anvil[r] >> 2)) | ((enemy[r] << 1) & (anvil[r] << 2));
            if r + 2 < dim {
                x |= enemy[r + 1] & anvil[r + 2];
            }
            if r >= 2 {
                x |= enemy[r - 1] & anvil[r - 2];
            }
            out[r] = x & rl.row_mask;
        }
        let k = self.king();
        if self.side == Side::First && k != NO_SQUARE {
            // Around the king (his capture may need any side closed).
            let (kr, kf) = rl.coords[k as usize];
            let (kr, kf) = (usize::from(kr), usize::from(kf));
            out[kr] |= ((1 << kf) << 1 | (1 << kf) >> 1) & rl.row_mask;
            if kr > 0 {
                out[kr - 1] |= 1 << kf;
            }
            if kr + 1 < dim {
                out[kr + 1] |= 1 << kf;
            }
        }
        if rl.shieldwall != Shieldwall::None {
            // Shieldwalls: edge squares next to an enemy; without the flanking rule also
            // the squares in front of an enemy on the edge.
            let near = crate::bits::neighbours(enemy, dim, rl.row_mask);
            for r in 0..dim {
                out[r] |= near[r] & rl.edge_rows[r];
            }
            if !rl.shieldwall_flank {
                let mut on_edge = [0u32; MAX_DIM];
                for r in 0..dim {
                    on_edge[r] = enemy[r] & rl.edge_rows[r];
                }
                let front = crate::bits::neighbours(&on_edge, dim, rl.row_mask);
                for r in 0..dim {
                    out[r] |= front[r];
                }
            }
        }
        for r in 0..dim {
            out[r] |= facts.no_move_squares[r];
        }
        if self.side == Side::First && rl.surround_fatal {
            match &facts.ring_path {
                Some(path) => {
                    for r in 0..dim {
                        out[r] |= path[r];
                    }
                }
                None => return all,
            }
        }
        out
    }

    /// Whether square `sq` is set in `rows`.
    #[inline]
    fn on(rows: &Rows, rl: &crate::rules::Rules, sq: usize) -> bool {
        let (r, f) = rl.coords[sq];
        rows[usize::from(r)] & (1 << f) != 0
    }

    /// The squares a move must reach to possibly leave the opponent without a legal move.
    /// An opponent piece next to an empty plain square keeps that move unless the arriving
    /// piece fills the square or captures it, and captures take only pieces next to the
    /// arrival square (or, with shieldwalls, on the edge): so the move must land next to
    /// every such piece (edge pieces excepted under shieldwalls). Empty when 5 or more inner
    /// pieces are mobile (no square is next to all of them).
    pub(crate) fn no_move_squares(&self) -> Rows {
        let rl = self.rules;
        let dim = rl.dim;
        let opp = self.side.opponent();
        let mut cand = [0u32; MAX_DIM];
        if self.inner_mobile(opp, 5) >= 5 {
            return cand;
        }
        for row in cand.iter_mut().take(dim) {
            *row = rl.row_mask;
        }
        let rows = &self.board.rows;
        let free = |r: usize| !(rows[0][r] | rows[1][r]) & rl.plain_rows[r];
        let walls = rl.shieldwall != Shieldwall::None;
        for r in 0..dim {
            for f in set_bits(rows[opp.index()][r]) {
                let f = f as usize;
                let bit = 1u32 << f;
                let mut near = free(r) & ((bit << 1) | (bit >> 1));
                if r > 0 {
                    near |= free(r - 1) & bit;
                }
                if r + 1 < dim {
                    near |= free(r + 1) & bit;
                }
                if near == 0 || (walls && rl.is_edge(r * dim + f)) {
                    continue;
                }
                for (i, row) in cand.iter_mut().enumerate().take(dim) {
                    *row &= if i == r {
                        (bit << 1) | (bit >> 1)
                    } else if i + 1 == r || i == r + 1 {
                        bit
                    } else {
                        0
                    };
                }
                if !crate::bits::any(&cand, dim) {
                    return cand;
                }
            }
        }
        cand
    }

    /// [`Game::classify`] of one move: the [`Facts`] without the ring search, which pays off
    /// only when a whole node's moves are classified.
    pub(crate) fn classify_one(&self, mv: TaflMove) -> MoveClass {
        let facts = Facts {
            no_move_squares: self.no_move_squares(),
            ring_path: None,
        };
        self.classify_with(mv, &facts)
    }

    /// The [`Facts`] of this position.
    pub(crate) fn facts(&self) -> Facts {
        Facts {
            no_move_squares: self.no_move_squares(),
            ring_path: if self.side == Side::First && self.rules.surround_fatal {
                self.ring_candidates()
            } else {
                None
            },
        }
    }

    /// [`Game::classify`] with the position's [`Facts`]: exact, and playing the move only
    /// when a rare game end is possible.
    #[inline]
    pub(crate) fn classify_with(&self, mv: TaflMove, facts: &Facts) -> MoveClass {
        let rl = self.rules;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let piece = self.piece_at(from);
        let caps = self.captures(from, to);
        let class = if caps.any() {
            MoveClass::Capture
        } else {
            MoveClass::Quiet
        };
        if self.side == Side::Second {
            if piece == Piece::King && self.escaped(to) {
                return MoveClass::Win;
            }
            let king_after = if piece == Piece::King {
                to
            } else {
                self.king() as usize
            };
            let fort_possible = rl.edge_fort && rl.is_edge(king_after);
            if fort_possible || Self::on(&facts.no_move_squares, rl, to) {
                return if self.wins_by_playing(mv) {
                    MoveClass::Win
                } else {
                    class
                };
            }
            return class;
        }
        if caps.king {
            return MoveClass::Win;
        }
        let ring_possible = rl.surround_fatal
            && (caps.any()
                || match &facts.ring_path {
                    Some(path) => {
                        let (r, f) = rl.coords[to];
                        path[usize::from(r)] & (1 << f) != 0
                    }
                    None => self.may_close_ring(to),
                });
        if ring_possible || Self::on(&facts.no_move_squares, rl, to) {
            return if self.wins_by_playing(mv) {
                MoveClass::Win
            } else {
                class
            };
        }
        class
    }
}
