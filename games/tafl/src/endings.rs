//! Game ends that need a look at the whole board: the defenders' edge (exit) fort and the
//! attackers' encirclement.
//!
//! Key invariant: both are pure functions of the board (no history); flood fills use a
//! fixed-size stack array, no heap.

use crate::board::{MAX_SQUARES, Piece};
use crate::rules::NONE;
use crate::state::Tafl;

impl Tafl {
    /// Edge fort: the king is on the edge, can move, and the empty region around him (flood
    /// through empty squares) holds no attacker and is walled by defenders none of which can
    /// ever be captured (each, on both axes, has a neighbour off the board, inside the region
    /// or another such defender).
    pub(crate) fn edge_fort(&self) -> bool {
        let r = self.rules;
        if self.king == NONE || !r.is_edge(self.king as usize) {
            return false;
        }
        let k = self.king as usize;
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
                match self.board.get(nb) {
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
            *s = self.board.get(sq) == Piece::Defender;
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
                if nb != NONE
                    && self.board.get(nb as usize) == Piece::Defender
                    && !safe[nb as usize]
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
        let attacker = |s: u16| s != NONE && self.board.get(s as usize) == Piece::Attacker;
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
    /// squares free of attackers. Searches from the defenders outwards and stops at the first
    /// edge square reached (usually after a few steps).
    pub(crate) fn encircled(&self) -> bool {
        let r = self.rules;
        let n = r.dim * r.dim;
        // Fast exit: the king sees the edge along a rank or file.
        if self.king != NONE {
            let k = self.king as usize;
            let sees_edge = (0..4).any(|d| {
                let mut s = k;
                loop {
                    if r.edge[s] {
                        return true;
                    }
                    let nb = r.neighbours[s][d];
                    if nb == NONE || self.board.get(nb as usize) == Piece::Attacker {
                        return false;
                    }
                    s = nb as usize;
                }
            });
            if sees_edge {
                return false;
            }
        }
        let mut seen = [false; MAX_SQUARES];
        let mut stack = [0u16; MAX_SQUARES];
        // Start from the king first: he is the likeliest to have open lines.
        let starts = std::iter::once(self.king as usize)
            .filter(|&k| k < n)
            .chain((0..n).filter(|&sq| self.board.get(sq) == Piece::Defender));
        for start in starts {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            let mut top = 1;
            stack[0] = start as u16;
            while top > 0 {
                top -= 1;
                let s = stack[top] as usize;
                if r.is_edge(s) {
                    return false;
                }
                for d in 0..4 {
                    let nb = r.neighbours[s][d];
                    if nb == NONE || seen[nb as usize] {
                        continue;
                    }
                    if self.board.get(nb as usize) != Piece::Attacker {
                        seen[nb as usize] = true;
                        stack[top] = nb;
                        top += 1;
                    }
                }
            }
        }
        true
    }
}
