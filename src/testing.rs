//! Toy games for the core's own unit tests (the real games live in other crates, which unit
//! tests inside `src/` cannot use), and, behind the `testing` feature, for the unit tests of
//! crates built on plies (the command line's, for one).
//!
//! [`Maze`]: a seeded pseudo-random game graph with no end in sight, for tests that need long
//! searches (threads, pondering, time limits).
//!
//! [`TwoPiles`]: two piles of stones; a move takes 1–3 stones from one pile; whoever takes the
//! last stone of all wins; taking exactly 2 from a pile that still has stones gives the mover an
//! **extra turn**, so the side to move does not always alternate. Small enough to solve exactly,
//! full of transpositions (good for catching transposition-table mistakes).

mod maze;

pub use maze::Maze;

use crate::eval::{Evaluator, Score};
use crate::game::{Game, MoveClass, Outcome, Side};
use crate::notation::{Notation, NotationError};
use crate::rng::{SplitMix64, random_keys};

/// The required methods of [`Game`] for a newtype around another game with the same moves
/// (`struct Wrapper(Inner)`), each handed to the inner game (`play` wraps its result again):
/// for a test's toy that changes one thing of a game (a hook, a view) and keeps its rules.
/// Written inside the impl, after `type Move`: `impl Game for Wrapper { type Move = Take;
/// plies::delegate_game!(); }`, followed by any method the wrapper changes.
#[macro_export]
macro_rules! delegate_game {
    () => {
        fn side_to_move(&self) -> $crate::Side {
            $crate::Game::side_to_move(&self.0)
        }
        fn generate_moves(&self, moves: &mut ::std::vec::Vec<Self::Move>) {
            $crate::Game::generate_moves(&self.0, moves);
        }
        fn play(&self, mv: Self::Move) -> Self {
            Self($crate::Game::play(&self.0, mv))
        }
        fn outcome(&self) -> ::std::option::Option<$crate::Outcome> {
            $crate::Game::outcome(&self.0)
        }
        fn hash(&self) -> u64 {
            $crate::Game::hash(&self.0)
        }
        fn hash_from_scratch(&self) -> u64 {
            $crate::Game::hash_from_scratch(&self.0)
        }
        fn move_index(&self, mv: Self::Move) -> usize {
            $crate::Game::move_index(&self.0, mv)
        }
        fn move_index_bound(&self) -> usize {
            $crate::Game::move_index_bound(&self.0)
        }
        fn classify(&self, mv: Self::Move) -> $crate::MoveClass {
            $crate::Game::classify(&self.0, mv)
        }
    };
}

static KEYS: [u64; 2 * 16 + 1] = random_keys(0x0707_11e5);

/// Take `count` stones from pile `pile`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Take {
    /// The pile, 0 or 1.
    pub pile: u8,
    /// Stones taken, 1 to 3.
    pub count: u8,
}

/// The two-piles game state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwoPiles {
    /// The stones left in each pile.
    pub piles: [u8; 2],
    /// The side to move.
    pub to_move: Side,
    /// Who took the last stone (set once both piles are empty).
    pub last_mover: Side,
    hash: u64,
}

impl TwoPiles {
    /// A position with the given pile sizes (each at most 15), `to_move` to play.
    pub fn new(a: u8, b: u8, to_move: Side) -> TwoPiles {
        assert!(a < 16 && b < 16);
        let mut state = TwoPiles {
            piles: [a, b],
            to_move,
            last_mover: to_move.opponent(),
            hash: 0,
        };
        state.hash = state.hash_from_scratch();
        state
    }
}

impl Game for TwoPiles {
    type Move = Take;

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<Take>) {
        for pile in 0..2u8 {
            for count in 1..=3u8.min(self.piles[pile as usize]) {
                moves.push(Take { pile, count });
            }
        }
    }

    fn play(&self, mv: Take) -> TwoPiles {
        let mut next = self.clone();
        let p = mv.pile as usize;
        next.hash ^= KEYS[p * 16 + next.piles[p] as usize];
        next.piles[p] -= mv.count;
        next.hash ^= KEYS[p * 16 + next.piles[p] as usize];
        next.last_mover = self.to_move;
        let extra = mv.count == 2 && next.piles[p] > 0;
        if !extra {
            next.to_move = self.to_move.opponent();
            next.hash ^= KEYS[32];
        }
        next
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.piles == [0, 0]).then_some(Outcome::Win(self.last_mover))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = KEYS[self.piles[0] as usize] ^ KEYS[16 + self.piles[1] as usize];
        if self.to_move == Side::Second {
            h ^= KEYS[32];
        }
        h
    }

    fn move_index(&self, mv: Take) -> usize {
        mv.pile as usize * 3 + mv.count as usize - 1
    }

    fn move_index_bound(&self) -> usize {
        6
    }

    fn classify(&self, mv: Take) -> MoveClass {
        let left = self.piles[0] + self.piles[1] - mv.count;
        if left == 0 {
            MoveClass::Win
        } else if mv.count == 3 {
            MoveClass::Capture
        } else {
            MoveClass::Quiet
        }
    }
}

impl Notation for TwoPiles {
    fn start_position() -> TwoPiles {
        TwoPiles::new(7, 5, Side::First)
    }

    /// `a b side`, e.g. `7 5 1` (side 1 or 2).
    fn parse_position(text: &str) -> Result<TwoPiles, NotationError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() != 3 {
            return Err(NotationError::new(text, "expected '<pile> <pile> <1|2>'"));
        }
        let pile = |w: &str| -> Result<u8, NotationError> {
            w.parse::<u8>()
                .ok()
                .filter(|&n| n < 16)
                .ok_or_else(|| NotationError::new(w, "expected a pile size 0..15"))
        };
        let side = match words[2] {
            "1" => Side::First,
            "2" => Side::Second,
            w => return Err(NotationError::new(w, "expected side 1 or 2")),
        };
        Ok(TwoPiles::new(pile(words[0])?, pile(words[1])?, side))
    }

    fn format_position(&self) -> String {
        let side = if self.to_move == Side::First { 1 } else { 2 };
        format!("{} {} {}", self.piles[0], self.piles[1], side)
    }

    /// `a2` = take 2 from pile a.
    fn parse_move(&self, text: &str) -> Result<Take, NotationError> {
        let t = text.trim().to_ascii_lowercase();
        let mut chars = t.chars();
        let pile = match chars.next() {
            Some('a') => 0,
            Some('b') => 1,
            _ => return Err(NotationError::new(text, "expected pile a or b")),
        };
        let count = chars
            .as_str()
            .parse::<u8>()
            .map_err(|_| NotationError::new(text, "expected a count 1..3"))?;
        let mv = Take { pile, count };
        let mut legal = Vec::new();
        self.generate_moves(&mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err(NotationError::new(text, "illegal here"))
        }
    }

    fn format_move(&self, mv: Take) -> String {
        format!("{}{}", if mv.pile == 0 { 'a' } else { 'b' }, mv.count)
    }
}

/// A deliberately poor evaluator: pile difference from the mover's view.
#[derive(Clone, Copy, Debug, Default)]
pub struct PileDifference;

impl Evaluator<TwoPiles> for PileDifference {
    fn evaluate(&self, state: &TwoPiles) -> Score {
        let diff = i32::from(state.piles[0]) - i32::from(state.piles[1]);
        Score::cp(if state.to_move == Side::First {
            diff
        } else {
            -diff
        })
    }
}

/// [`Cycle`]: a small seeded game graph full of cycles, with a repetition rule: a position
/// occurring for the third time ends the game as [`CycleRule`] says. Position = (node, side to
/// move); each node has 1 to 4 moves; some edges are captures (noisy) and a few nodes are
/// finished games, so quiescence and terminal values are exercised too. With few nodes, lines
/// of a few plies repeat positions often.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The current node of the graph.
    pub node: u64,
    /// The side to move.
    pub to_move: Side,
    /// The number of nodes in the graph.
    pub nodes: u64,
    /// The seed the graph's edges are derived from.
    pub seed: u64,
    /// The repetition rule.
    pub rule: CycleRule,
}

/// What the third occurrence of a [`Cycle`] position does.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum CycleRule {
    /// Nothing (no repetition rule).
    Ignore,
    /// A draw.
    Draw,
    /// The side that made the repeating move loses.
    MoverLoses,
    /// The side that made the repeating move wins.
    MoverWins,
    /// [`Side::First`] wins whoever repeats.
    FirstWins,
}

impl Cycle {
    /// Node `node` of a graph of `nodes` nodes, first player to move.
    pub fn new(node: u64, nodes: u64, seed: u64, rule: CycleRule) -> Cycle {
        Cycle {
            node: node % nodes,
            to_move: Side::First,
            nodes,
            seed,
            rule,
        }
    }

    fn bits(&self) -> u64 {
        SplitMix64::mix(self.node ^ self.seed.rotate_left(23))
    }

    fn edge(&self, mv: u8) -> u64 {
        SplitMix64::mix(self.bits().wrapping_add(u64::from(mv) + 1))
    }

    fn is_terminal(&self) -> bool {
        self.bits() % 100 < 8
    }
}

impl Game for Cycle {
    type Move = u8;

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        if !self.is_terminal() {
            moves.extend(0..(1 + (self.bits() >> 8) % 4) as u8);
        }
    }

    fn play(&self, mv: u8) -> Cycle {
        Cycle {
            node: self.edge(mv) % self.nodes,
            to_move: self.to_move.opponent(),
            ..self.clone()
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.is_terminal().then(|| match (self.bits() >> 4) % 3 {
            0 => Outcome::Win(Side::First),
            1 => Outcome::Win(Side::Second),
            _ => Outcome::Draw,
        })
    }

    fn hash(&self) -> u64 {
        SplitMix64::mix(self.node * 2 + self.to_move.index() as u64 + (self.seed << 24))
    }

    fn hash_from_scratch(&self) -> u64 {
        self.hash()
    }

    fn move_index(&self, mv: u8) -> usize {
        mv as usize
    }

    fn move_index_bound(&self) -> usize {
        4
    }

    fn classify(&self, mv: u8) -> MoveClass {
        if self.play(mv).outcome() == Some(Outcome::Win(self.to_move)) {
            MoveClass::Win
        } else if (self.edge(mv) >> 30).is_multiple_of(3) {
            MoveClass::Capture
        } else {
            MoveClass::Quiet
        }
    }

    fn has_repetition_rule(&self) -> bool {
        self.rule != CycleRule::Ignore
    }

    fn repetition_outcome(&self, mover: Side, occurrences: u32) -> Option<Outcome> {
        if occurrences < 3 {
            return None;
        }
        match self.rule {
            CycleRule::Ignore => None,
            CycleRule::Draw => Some(Outcome::Draw),
            CycleRule::MoverLoses => Some(Outcome::Win(mover.opponent())),
            CycleRule::MoverWins => Some(Outcome::Win(mover)),
            CycleRule::FirstWins => Some(Outcome::Win(Side::First)),
        }
    }
}
