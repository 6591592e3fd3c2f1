//! Captures of a move, found without playing it: custodial (with hostile corners and throne,
//! armed/unarmed king, Linnaean capture), king capture by strength, and shieldwalls.
//!
//! Key invariant: [`Tafl::captures`] is a pure function of the position and the move, reading
//! the board as it is *after* the piece has moved ([`After`]); only the moving piece captures
//! (moving between two enemies is safe); the king is taken only by [`After::king_taken`] and
//! never by a shieldwall.

use crate::board::{Board, Piece};
use crate::rules::{KingStrength, NONE, Rules, Shieldwall};
use crate::state::Tafl;

/// Whether `a` and `b` are on opposite sides (both non-empty).
#[inline]
pub(crate) fn enemies(a: Piece, b: Piece) -> bool {
    a != Piece::Empty && b != Piece::Empty && ((a == Piece::Attacker) != (b == Piece::Attacker))
}

/// The pieces a move captures: up to three custodial captures, up to two shieldwalls (each a
/// run of squares along the edge, the king in it spared), and the king.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Captures {
    /// Squares of the taflmen captured by custodial capture.
    custodial: [u16; 4],
    /// How many of `custodial` are used.
    n: u8,
    /// Shieldwalls: (first square, direction, length).
    walls: [(u16, u8, u8); 4],
    /// How many of `walls` are used.
    nw: u8,
    /// Whether the king is captured.
    pub king: bool,
}

impl Captures {
    /// Whether anything is captured.
    #[inline]
    pub(crate) fn any(&self) -> bool {
        self.n > 0 || self.nw > 0 || self.king
    }

    /// Calls `visit` for each captured taflman's square (not the king's) on the board as it
    /// stands after the move (`board`, read through `rules`).
    #[inline]
    pub(crate) fn for_each(&self, rules: &Rules, board: &Board, mut visit: impl FnMut(usize)) {
        for &sq in &self.custodial[..usize::from(self.n)] {
            visit(usize::from(sq));
        }
        for &(first, d, len) in &self.walls[..usize::from(self.nw)] {
            let mut s = usize::from(first);
            for _ in 0..len {
                if s != usize::from(board.king) {
                    visit(s);
                }
                s = usize::from(rules.neighbours[s][usize::from(d)]);
            }
        }
    }
}

/// The board after a piece moved from `from` to `to`, read without building it.
pub(crate) struct After<'a> {
    pub board: &'a Board,
    pub rules: &'a Rules,
    pub from: usize,
    pub to: usize,
    pub piece: Piece,
}

impl After<'_> {
    /// The piece on `sq` after the move.
    #[inline]
    pub(crate) fn get(&self, sq: usize) -> Piece {
        if sq == self.to {
            self.piece
        } else if sq == self.from {
            Piece::Empty
        } else {
            let (r, f) = self.rules.coords[sq];
            self.board.at(usize::from(r), usize::from(f), sq)
        }
    }

    /// Whether square `f` closes a capture of `victim` (an enemy of the mover).
    fn hostile(&self, f: usize, victim: Piece) -> bool {
        let r = self.rules;
        let p = self.get(f);
        if p == Piece::Empty {
            return r.empty_hostile(f, victim);
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
        true
    }

    /// Linnaean capture: the king on the throne `k` has attackers on three sides, so the
    /// throne closes a capture of the defender on its fourth side.
    fn linnaean(&self, k: usize) -> bool {
        let r = self.rules;
        let attackers = (0..4)
            .filter(|&d| {
                let s = r.neighbours[k][d];
                s != NONE && self.get(s as usize) == Piece::Attacker
            })
            .count();
        attackers == 3
    }

    /// Whether the king on `k`, just reached by an attacker from direction `d` reversed, is
    /// captured.
    fn king_taken(&self, k: usize, d: usize) -> bool {
        let r = self.rules;
        let near_throne = || {
            r.is_throne(k)
                || (0..4).any(|e| {
                    let s = r.neighbours[k][e];
                    s != NONE && r.is_throne(s as usize)
                })
        };
        let strong = match r.king_strength {
            KingStrength::Strong => true,
            KingStrength::Weak => false,
            KingStrength::Throne => near_throne(),
            KingStrength::Middleweight => {
                return (0..4).all(|e| {
                    let s = r.neighbours[k][e];
                    s == NONE || self.hostile_to_king(s as usize)
                });
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
        match self.get(s) {
            Piece::Attacker => true,
            Piece::Empty => r.empty_hostile(s, Piece::King),
            _ => false,
        }
    }

    /// Shieldwall captures by the piece that arrived on the edge square `to`: along the edge,
    /// a row of 2+ enemies, each with a piece of the mover's side in front (inward),
    /// bracketed at the far end by a piece of the mover's side (or, for strong shieldwalls, a
    /// corner). The king is never captured this way.
    fn shieldwall(&self, out: &mut Captures) {
        let r = self.rules;
        let (to, piece) = (self.to, self.piece);
        let dim = r.dim;
        let (f, rank) = (to % dim, to / dim);
        if (rank == 0 || rank + 1 == dim) && (f == 0 || f + 1 == dim) {
            return; // a corner square: no single edge
        }
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
        for d in along {
            let mut len = 0;
            let mut s = r.neighbours[to][d];
            let mut ok = true;
            while s != NONE && enemies(piece, self.get(s as usize)) {
                let front = r.neighbours[s as usize][inward];
                let fp = if front == NONE {
                    Piece::Empty
                } else {
                    self.get(front as usize)
                };
                if fp == Piece::Empty || enemies(piece, fp) {
                    ok = false;
                    break;
                }
                len += 1;
                s = r.neighbours[s as usize][d];
            }
            if !ok || len < 2 || s == NONE {
                continue;
            }
            let end = s as usize;
            let ep = self.get(end);
            let bracket = if ep == Piece::Empty {
                r.shieldwall == Shieldwall::Strong && r.is_corner(end)
            } else {
                !enemies(piece, ep)
            };
            if !bracket {
                continue;
            }
            out.walls[usize::from(out.nw)] = (r.neighbours[to][d], d as u8, len as u8);
            out.nw += 1;
        }
    }

    /// The inward direction of the edge square `s` (not a corner), or `None` off the edge.
    fn inward(&self, s: usize) -> Option<usize> {
        let dim = self.rules.dim;
        let (f, rank) = (s % dim, s / dim);
        if rank == 0 {
            Some(2)
        } else if rank + 1 == dim {
            Some(3)
        } else if f == 0 {
            Some(0)
        } else if f + 1 == dim {
            Some(1)
        } else {
            None
        }
    }

    /// Without the flanking rule (`swf:n`): walls closed by a piece arriving in front of one
    /// of their members. The run of enemies along the edge through that member, each with a
    /// piece of the mover's side in front, 2 or more long, bracketed at both ends by a piece
    /// of the mover's side (or, for strong shieldwalls, a corner).
    fn front_walls(&self, out: &mut Captures) {
        let r = self.rules;
        let dim = r.dim;
        let piece = self.piece;
        for d in 0..4 {
            let s = r.neighbours[self.to][d];
            if s == NONE {
                continue;
            }
            let s = usize::from(s);
            let (f, rank) = (s % dim, s / dim);
            if (rank == 0 || rank + 1 == dim) && (f == 0 || f + 1 == dim) {
                continue;
            }
            let Some(inward) = self.inward(s) else {
                continue;
            };
            if usize::from(r.neighbours[s][inward]) != self.to || !enemies(piece, self.get(s)) {
                continue;
            }
            let member = |x: u16| -> bool {
                if x == NONE || !enemies(piece, self.get(usize::from(x))) {
                    return false;
                }
                let front = r.neighbours[usize::from(x)][inward];
                front != NONE && {
                    let fp = self.get(usize::from(front));
                    fp != Piece::Empty && !enemies(piece, fp)
                }
            };
            let bracket = |x: u16| -> bool {
                if x == NONE {
                    return false;
                }
                let ep = self.get(usize::from(x));
                if ep == Piece::Empty {
                    r.shieldwall == Shieldwall::Strong && r.is_corner(usize::from(x))
                } else {
                    !enemies(piece, ep)
                }
            };
            let (a, b) = if inward >= 2 { (0, 1) } else { (2, 3) };
            let mut start = s as u16;
            while member(r.neighbours[usize::from(start)][b]) {
                start = r.neighbours[usize::from(start)][b];
            }
            let mut len = 1;
            let mut end = r.neighbours[usize::from(start)][a];
            while member(end) {
                len += 1;
                end = r.neighbours[usize::from(end)][a];
            }
            if len >= 2 && bracket(r.neighbours[usize::from(start)][b]) && bracket(end) {
                out.walls[usize::from(out.nw)] = (start, a as u8, len as u8);
                out.nw += 1;
            }
        }
    }

    /// Everything the move captures.
    fn captures(&self) -> Captures {
        let r = self.rules;
        let mut out = Captures::default();
        if self.piece == Piece::King && !r.king_armed.hammer() {
            return out;
        }
        for d in 0..4 {
            let n = r.neighbours[self.to][d];
            if n == NONE {
                continue;
            }
            let n = n as usize;
            let victim = self.get(n);
            if !enemies(self.piece, victim) {
                continue;
            }
            if victim == Piece::King {
                if self.king_taken(n, d) {
                    out.king = true;
                }
                continue;
            }
            let f = r.neighbours[n][d];
            if f != NONE && self.hostile(f as usize, victim) {
                out.custodial[usize::from(out.n)] = n as u16;
                out.n += 1;
            }
        }
        if r.shieldwall != Shieldwall::None {
            if r.is_edge(self.to) {
                self.shieldwall(&mut out);
            }
            if !r.shieldwall_flank {
                self.front_walls(&mut out);
            }
        }
        out
    }
}

impl Tafl {
    /// What the piece on `from` captures by moving to `to` (a legal move).
    #[inline]
    pub(crate) fn captures(&self, from: usize, to: usize) -> Captures {
        // Every capture takes a piece next to `to`: most moves have no enemy there.
        let rl = self.rules;
        let (r, f) = rl.coords[to];
        let (r, f) = (usize::from(r), usize::from(f));
        let enemy = &self.board.rows[self.side.opponent().index()];
        let bit = 1u32 << f;
        let near = (enemy[r] & ((bit << 1) | (bit >> 1)))
            | (if r > 0 { enemy[r - 1] & bit } else { 0 })
            | (if r + 1 < rl.dim {
                enemy[r + 1] & bit
            } else {
                0
            });
        if near == 0 {
            return Captures::default();
        }
        let after = After {
            board: &self.board,
            rules: self.rules,
            from,
            to,
            piece: self.piece_at(from),
        };
        after.captures()
    }
}
