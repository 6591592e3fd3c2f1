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

    /// Encirclement: no defender (king included) is connected to the board edge through
    /// squares free of attackers.
    pub(crate) fn encircled(&self) -> bool {
        let r = self.rules;
        let n = r.dim * r.dim;
        let mut seen = [false; MAX_SQUARES];
        let mut stack = [0u16; MAX_SQUARES];
        let mut top = 0;
        for (sq, seen_sq) in seen.iter_mut().enumerate().take(n) {
            if r.is_edge(sq) {
                match self.board.get(sq) {
                    Piece::Attacker => {}
                    Piece::Empty => {
                        *seen_sq = true;
                        stack[top] = sq as u16;
                        top += 1;
                    }
                    _ => return false,
                }
            }
        }
        while top > 0 {
            top -= 1;
            let s = stack[top] as usize;
            for d in 0..4 {
                let nb = r.neighbours[s][d];
                if nb == NONE || seen[nb as usize] {
                    continue;
                }
                match self.board.get(nb as usize) {
                    Piece::Attacker => {}
                    Piece::Empty => {
                        seen[nb as usize] = true;
                        stack[top] = nb;
                        top += 1;
                    }
                    _ => return false,
                }
            }
        }
        true
    }
}
