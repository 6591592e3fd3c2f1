//! Game ends that need a look at the whole board: the defenders' edge (exit) fort, the
//! attackers' encirclement, and a side left without a legal move.
//!
//! Key invariant: all are pure functions of the board (no history); flood fills use
//! fixed-size arrays or row bitboards, no heap.
#![allow(clippy::needless_range_loop)] // row bitboards are indexed by rank

use plies::Side;

use crate::bits::{any, path_to_goal, reaches};
use crate::board::{MAX_DIM, MAX_SQUARES, Piece, Rows};
use crate::rules::NONE;
use crate::state::{Tafl, owns};

impl Tafl {
    /// Edge fort: the king is on the edge, can move, and the empty region around him (flood
    /// through empty squares) holds no attacker and is walled by defenders none of which can
    /// ever be captured (each, on both axes, has a neighbour off the board, inside the region
    /// or another such defender).
    pub(crate) fn edge_fort(&self) -> bool {
        let r = self.rules;
        if self.king() == NONE || !r.is_edge(self.king() as usize) {
            return false;
        }
        let k = self.king() as usize;
        let n = r.dim * r.dim;
        let mut inside = [false; MAX_SQUARES];
        let mut stack = [0u16; MAX_SQUARES];
        let mut top = 0;
        inside[k] = true;
        stack[top] = k as u16;
        top += 1;
        let mut king_can_move = false;
        while top > 0 {
            top -= 1;
            let s = stack[top] as usize;
            for d in 0..4 {
                let nb = r.neighbours[s][d];
                if nb == NONE {
                    continue;
                }
                let nb = nb as usize;
                match self.piece_at(nb) {
                    Piece::Attacker => return false,
                    Piece::Empty => {
                        if s == k {
                            king_can_move = true;
                        }
                        if !inside[nb] {
                            inside[nb] = true;
                            stack[top] = nb as u16;
                            top += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
        if !king_can_move {
            return false;
        }
        // Greatest fixpoint of "uncapturable" defenders.
        let mut safe = [false; MAX_SQUARES];
        for (sq, s) in safe.iter_mut().enumerate().take(n) {
            *s = self.piece_at(sq) == Piece::Defender;
        }
        let shelter = |x: u16, safe: &[bool; MAX_SQUARES]| -> bool {
            x == NONE || inside[x as usize] || safe[x as usize]
        };
        loop {
            let mut changed = false;
            for sq in 0..n {
                if !safe[sq] {
                    continue;
                }
                let nb = &r.neighbours[sq];
                let ok = (shelter(nb[0], &safe) || shelter(nb[1], &safe))
                    && (shelter(nb[2], &safe) || shelter(nb[3], &safe));
                if !ok {
                    safe[sq] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // Every wall defender (next to the region) must be safe.
        for (sq, _) in inside.iter().enumerate().take(n).filter(|(_, i)| **i) {
            for d in 0..4 {
                let nb = r.neighbours[sq][d];
                if nb != NONE && self.piece_at(nb as usize) == Piece::Defender && !safe[nb as usize]
                {
                    return false;
                }
            }
        }
        true
    }

    /// Whether an attacker that just arrived on `to` (capturing nothing) may have closed an
    /// encirclement: only if `to` is on the edge or has two or more attackers among its eight
    /// neighbours. Otherwise any defender path to the edge through `to` can step around it
    /// (one of the two arcs of its eight neighbours is free of attackers), so the move cannot
    /// encircle.
    pub(crate) fn may_close_ring(&self, to: usize) -> bool {
        let r = self.rules;
        if r.edge[to] {
            return true;
        }
        let nb = &r.neighbours[to];
        let attacker = |s: u16| s != NONE && self.piece_at(s as usize) == Piece::Attacker;
        let mut count = 0;
        for &s in nb {
            count += usize::from(attacker(s));
        }
        for &side in &nb[..2] {
            if side != NONE {
                count += usize::from(attacker(r.neighbours[side as usize][2]));
                count += usize::from(attacker(r.neighbours[side as usize][3]));
            }
        }
        count >= 2
    }

    /// Encirclement: no defender (king included) is connected to the board edge through
    /// squares free of attackers (a flood fill on row bitboards).
    pub(crate) fn encircled(&self) -> bool {
        let r = self.rules;
        let dim = r.dim;
        let rows = &self.board.rows;
        let mut free = [0u32; MAX_DIM];
        for (i, row) in free.iter_mut().enumerate().take(dim) {
            *row = !rows[0][i] & r.row_mask;
        }
        !reaches(&rows[1], &free, &r.edge_rows, dim)
    }

    /// Attackers to move: the squares one of which an attacker move that captures nothing
    /// must occupy to encircle the defenders. A shortest path of non-attacker squares from
    /// the defenders to the edge; empty when a second path avoids it (then no single square
    /// cuts them off); `None` when the search gives up.
    pub(crate) fn ring_candidates(&self) -> Option<Rows> {
        let r = self.rules;
        let dim = r.dim;
        let rows = &self.board.rows;
        let mut free = [0u32; MAX_DIM];
        for (i, row) in free.iter_mut().enumerate().take(dim) {
            *row = !rows[0][i] & r.row_mask;
        }
        let first = path_to_goal(&rows[1], &free, &r.edge_rows, dim, r.row_mask).ok()??;
        if !any(&first, dim) {
            return Some(first);
        }
        for i in 0..dim {
            free[i] &= !first[i];
        }
        if reaches(&rows[1], &free, &r.edge_rows, dim) {
            Some([0; MAX_DIM])
        } else {
            Some(first)
        }
    }

    /// Whether the king could escape with one move now (a hint for the search).
    pub(crate) fn king_sees_escape(&self) -> bool {
        let k = self.king();
        k != NONE && self.sees_escape_from(usize::from(k))
    }

    /// Whether a king on `square` could reach an escape square with one move on this board
    /// (the board as it is: the king's own square still blocks when he is elsewhere).
    pub(crate) fn sees_escape_from(&self, square: usize) -> bool {
        !self.for_each_target(square, Piece::King, |to| !self.escaped(to))
    }

    /// The squares the king passes through or lands on in each escape he could make with one
    /// move now (none when he has no escape): only a piece arriving on one of them blocks it.
    pub(crate) fn escape_lanes(&self) -> Rows {
        let mut lanes = [0u32; MAX_DIM];
        let k = self.king();
        if k == NONE {
            return lanes;
        }
        let rl = self.rules;
        let (kr, kf) = rl.coords[k as usize];
        self.for_each_target(k as usize, Piece::King, |to| {
            if self.escaped(to) {
                let (tr, tf) = rl.coords[to];
                if tr == kr {
                    let (lo, hi) = if tf < kf { (tf, kf - 1) } else { (kf + 1, tf) };
                    for f in lo..=hi {
                        lanes[usize::from(tr)] |= 1 << f;
                    }
                } else {
                    let (lo, hi) = if tr < kr { (tr, kr - 1) } else { (kr + 1, tr) };
                    for r in lo..=hi {
                        lanes[usize::from(r)] |= 1 << kf;
                    }
                }
            }
            true
        });
        lanes
    }

    /// Whether `side` has at least one legal move on this board: first the bitboard test "a
    /// piece next to an empty plain square", then (rarely) an exact scan.
    pub(crate) fn has_any_move(&self, side: Side) -> bool {
        let rl = self.rules;
        let dim = rl.dim;
        let rows = &self.board.rows;
        let own = &rows[side.index()];
        let free = |r: usize| !(rows[0][r] | rows[1][r]) & rl.plain_rows[r];
        for r in 0..dim {
            if own[r] == 0 {
                continue;
            }
            let mut near = free(r) << 1 | free(r) >> 1;
            if r > 0 {
                near |= free(r - 1);
            }
            if r + 1 < dim {
                near |= free(r + 1);
            }
            if own[r] & near != 0 {
                return true;
            }
        }
        (0..dim * dim).any(|sq| {
            let piece = self.piece_at(sq);
            owns(side, piece) && !self.for_each_target(sq, piece, |_| false)
        })
    }

    /// Counts, up to `enough`, the pieces of `side` off the edge that stand next to an empty
    /// plain square. With 5 or more, no single move of the opponent can leave `side` without a
    /// move (it occupies one square, next to at most 4 pieces, and captures only pieces next
    /// to it or on the edge).
    pub(crate) fn inner_mobile(&self, side: Side, enough: u32) -> u32 {
        let rl = self.rules;
        let dim = rl.dim;
        let rows = &self.board.rows;
        let own = &rows[side.index()];
        let inner = rl.row_mask & !(1 | 1 << (dim - 1));
        let free = |r: usize| !(rows[0][r] | rows[1][r]) & rl.plain_rows[r];
        let mut count = 0;
        for r in 1..dim - 1 {
            let mine = own[r] & inner;
            if mine == 0 {
                continue;
            }
            let near = free(r) << 1 | free(r) >> 1 | free(r - 1) | free(r + 1);
            count += (mine & near).count_ones();
            if count >= enough {
                break;
            }
        }
        count
    }
}
