//! Captures after a move: custodial (with hostile corners and throne, armed/unarmed king,
//! Linnaean capture), king capture by strength, and shieldwalls.
//!
//! Key invariant: only the moving piece captures (moving between two enemies is safe); the
//! king is removed only by [`Tafl::king_taken`] and never by a shieldwall.

use crate::board::Piece;
use crate::rules::{KingStrength, NONE, Shieldwall};
use crate::state::Tafl;

/// Whether `a` and `b` are on opposite sides (both non-empty).
#[inline]
fn enemies(a: Piece, b: Piece) -> bool {
    a != Piece::Empty && b != Piece::Empty && ((a == Piece::Attacker) != (b == Piece::Attacker))
}

impl Tafl {
    /// Removes what the piece `piece` that just arrived on `to` captures.
    pub(crate) fn resolve_captures(&mut self, to: usize, piece: Piece) {
        let r = self.rules;
        if piece == Piece::King && !r.king_armed.hammer() {
            return;
        }
        for d in 0..4 {
            let n = r.neighbours[to][d];
            if n == NONE {
                continue;
            }
            let n = n as usize;
            let victim = self.board.get(n);
            if !enemies(piece, victim) {
                continue;
            }
            if victim == Piece::King {
                if self.king_taken(n, d) {
                    self.capture(n);
                    self.king = NONE;
                }
                continue;
            }
            let f = r.neighbours[n][d];
            if f != NONE && self.hostile(f as usize, victim, piece) {
                self.capture(n);
            }
        }
        if r.shieldwall != Shieldwall::None && r.is_edge(to) {
            self.shieldwall(to, piece);
        }
    }

    /// Whether square `f` closes a capture of `victim` by the side of `mover`.
    fn hostile(&self, f: usize, victim: Piece, mover: Piece) -> bool {
        let r = self.rules;
        let p = self.board.get(f);
        if p == Piece::Empty {
            return (r.is_corner(f) && r.corner_hostile.contains(victim))
                || (r.is_throne(f)
                    && (r.throne_hostile_empty.contains(victim)
                        || r.throne_hostile.contains(victim)));
        }
        if !enemies(p, victim) {
            // The victim's own side: only an occupied throne can be hostile.
            if r.is_throne(f) && r.throne_hostile.contains(victim) {
                return true;
            }
            return r.linnaean && p == Piece::King && r.is_throne(f) && self.linnaean(f);
        }
        if p == Piece::King && !r.king_armed.anvil() {
            return r.is_throne(f) && r.throne_hostile.contains(victim);
        }
        let _ = mover;
        true
    }

    /// Linnaean capture: the king on the throne `k` has attackers on three sides, so the
    /// throne closes a capture of the defender on its fourth side.
    fn linnaean(&self, k: usize) -> bool {
        let r = self.rules;
        let attackers = (0..4)
            .filter(|&d| {
                let s = r.neighbours[k][d];
                s != NONE && self.board.get(s as usize) == Piece::Attacker
            })
            .count();
        attackers == 3
    }

    /// Whether the king on `k`, just reached by an attacker from direction `d` reversed, is
    /// captured.
    fn king_taken(&self, k: usize, d: usize) -> bool {
        let r = self.rules;
        let strong = match r.king_strength {
            KingStrength::Strong => true,
            KingStrength::Weak => false,
            KingStrength::Throne => {
                r.is_throne(k)
                    || (0..4).any(|e| {
                        let s = r.neighbours[k][e];
                        s != NONE && r.is_throne(s as usize)
                    })
            }
        };
        if strong {
            (0..4).all(|e| {
                let s = r.neighbours[k][e];
                s != NONE && self.hostile_to_king(s as usize)
            })
        } else {
            let f = r.neighbours[k][d];
            f != NONE && self.hostile_to_king(f as usize)
        }
    }

    fn hostile_to_king(&self, s: usize) -> bool {
        let r = self.rules;
        match self.board.get(s) {
            Piece::Attacker => true,
            Piece::Empty => {
                (r.is_corner(s) && r.corner_hostile.contains(Piece::King))
                    || (r.is_throne(s)
                        && (r.throne_hostile_empty.contains(Piece::King)
                            || r.throne_hostile.contains(Piece::King)))
            }
            _ => false,
        }
    }

    /// Shieldwall captures by the piece that just arrived on the edge square `to`: along the
    /// edge, a row of 2+ enemies, each with a piece of the mover's side in front (inward),
    /// bracketed at the far end by a piece of the mover's side (or, for strong shieldwalls, a
    /// corner). The king is never captured this way.
    fn shieldwall(&mut self, to: usize, piece: Piece) {
        let r = self.rules;
        let dim = r.dim;
        let (f, rank) = (to % dim, to / dim);
        let inward = if rank == 0 {
            2
        } else if rank + 1 == dim {
            3
        } else if f == 0 {
            0
        } else {
            1
        };
        let along: [usize; 2] = if inward >= 2 { [0, 1] } else { [2, 3] };
        if (rank == 0 || rank + 1 == dim) && (f == 0 || f + 1 == dim) {
            return; // a corner square: no single edge
        }
        for d in along {
            let mut row = [0usize; 19];
            let mut len = 0;
            let mut s = r.neighbours[to][d];
            let mut ok = true;
            while s != NONE && enemies(piece, self.board.get(s as usize)) {
                let front = r.neighbours[s as usize][inward];
                let fp = if front == NONE {
                    Piece::Empty
                } else {
                    self.board.get(front as usize)
                };
                if fp == Piece::Empty || enemies(piece, fp) {
                    ok = false;
                    break;
                }
                row[len] = s as usize;
                len += 1;
                s = r.neighbours[s as usize][d];
            }
            if !ok || len < 2 || s == NONE {
                continue;
            }
            let end = s as usize;
            let ep = self.board.get(end);
            let bracket = if ep == Piece::Empty {
                r.shieldwall == Shieldwall::Strong && r.is_corner(end)
            } else {
                !enemies(piece, ep)
            };
            if !bracket {
                continue;
            }
            for &sq in &row[..len] {
                if self.board.get(sq) != Piece::King {
                    self.capture(sq);
                }
            }
        }
    }
}
