//! [`Maze`]: a seeded pseudo-random game graph for the unit tests of threads and pondering, which
//! need searches long enough for threads to overlap (the other toy games of [`crate::testing`] are
//! solved in a few thousand nodes).
//!
//! A position is a node of a graph of `nodes` nodes plus the side to move. Each node has 2 to 6
//! moves; a quarter of the edges give the mover an extra turn and a fifth are captures (noisy);
//! `terminal` percent of the nodes are finished games (won by either side or drawn). With many
//! nodes the graph has no transpositions and no end in sight; with few it has many. Position
//! text: `node nodes terminal f|s`, moves are their number (`0`..).
//!
//! Key invariant: everything is a pure function of the node number (and a fixed seed mixed into
//! it), so positions, hashes and outcomes are the same in every run and every thread.

use crate::game::{Game, MoveClass, Outcome, Side};
use crate::notation::{Notation, NotationError};
use crate::rng::SplitMix64;

/// Mixed into every node number.
const SEED: u64 = 0x5eed_0f3a_2e00_0001;

/// A position of the random game graph (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maze {
    node: u64,
    to_move: Side,
    nodes: u64,
    terminal: u64,
}

impl Maze {
    /// Node `node` of a graph of `nodes` nodes of which `terminal` percent are finished games,
    /// first player to move.
    pub fn new(node: u64, nodes: u64, terminal: u64) -> Maze {
        Maze {
            node: node % nodes,
            to_move: Side::First,
            nodes,
            terminal,
        }
    }

    /// The same node with `side` to move.
    #[must_use]
    pub fn with_side(mut self, side: Side) -> Maze {
        self.to_move = side;
        self
    }

    /// The node number.
    pub fn node(&self) -> u64 {
        self.node
    }

    fn bits(&self) -> u64 {
        SplitMix64::mix(self.node ^ SEED)
    }

    fn edge(&self, mv: u8) -> u64 {
        SplitMix64::mix(self.bits().wrapping_add(u64::from(mv) + 1))
    }

    fn branching(&self) -> u8 {
        2 + ((self.bits() >> 8) % 5) as u8
    }
}

impl Game for Maze {
    type Move = u8;

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        if self.outcome().is_none() {
            moves.extend(0..self.branching());
        }
    }

    fn play(&self, mv: u8) -> Maze {
        let edge = self.edge(mv);
        let extra_turn = (edge >> 20).is_multiple_of(4);
        Maze {
            node: edge % self.nodes,
            to_move: if extra_turn {
                self.to_move
            } else {
                self.to_move.opponent()
            },
            ..self.clone()
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let bits = self.bits();
        if bits % 100 >= self.terminal {
            return None;
        }
        Some(match (bits >> 32) % 3 {
            0 => Outcome::Win(Side::First),
            1 => Outcome::Win(Side::Second),
            _ => Outcome::Draw,
        })
    }

    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }

    fn hash_from_scratch(&self) -> u64 {
        SplitMix64::mix(self.node.wrapping_mul(2) + u64::from(self.to_move == Side::Second))
    }

    fn move_index(&self, mv: u8) -> usize {
        usize::from(mv)
    }

    fn move_index_bound(&self) -> usize {
        6
    }

    fn classify(&self, mv: u8) -> MoveClass {
        let child = self.play(mv);
        match child.outcome() {
            Some(Outcome::Win(side)) if side == self.to_move => MoveClass::Win,
            _ if (self.edge(mv) >> 40).is_multiple_of(5) => MoveClass::Capture,
            _ => MoveClass::Quiet,
        }
    }
}

impl Notation for Maze {
    fn start_position() -> Maze {
        Maze::new(1, 1 << 40, 5)
    }

    fn parse_position(text: &str) -> Result<Maze, NotationError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [node, nodes, terminal, side] = words[..] else {
            return Err(NotationError::new(
                text,
                "expected: node nodes terminal f|s",
            ));
        };
        let number = |word: &str| {
            word.parse::<u64>()
                .map_err(|_| NotationError::new(word, "expected a whole number"))
        };
        let (node, nodes, terminal) = (number(node)?, number(nodes)?, number(terminal)?);
        if nodes == 0 || terminal > 100 {
            return Err(NotationError::new(text, "nodes >= 1, terminal <= 100"));
        }
        let to_move = match side {
            "f" => Side::First,
            "s" => Side::Second,
            _ => return Err(NotationError::new(side, "expected f or s")),
        };
        Ok(Maze {
            to_move,
            ..Maze::new(node, nodes, terminal)
        })
    }

    fn format_position(&self) -> String {
        let side = if self.to_move == Side::First {
            "f"
        } else {
            "s"
        };
        format!("{} {} {} {side}", self.node, self.nodes, self.terminal)
    }

    fn parse_move(&self, text: &str) -> Result<u8, NotationError> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        text.trim()
            .parse::<u8>()
            .ok()
            .filter(|mv| moves.contains(mv))
            .ok_or_else(|| NotationError::new(text, "not a legal move here"))
    }

    fn format_move(&self, mv: u8) -> String {
        mv.to_string()
    }
}

#[cfg(test)]
mod tests;
