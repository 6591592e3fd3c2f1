//! The Hus position, relay sowing with captures, and the [`Game`] implementation.
//!
//! Key invariants: the two sides hold 96 seeds together; the hash is Zobrist over (side, pit,
//! seed count), the side to move and the round, and [`Game::play`] keeps it equal to
//! [`Game::hash_from_scratch`]; a move is legal iff its pit holds 2+ seeds and it ends within
//! [`MAX_LAPS`] laps (the infinite-move policy of the crate docs).

use plies::rng::{SplitMix64, random_keys};
use plies::{Game, MoveClass, Outcome, Side};

/// Pits per player.
pub const PITS: usize = 32;
/// Seeds on the board, always.
pub const SEEDS: usize = 96;
/// The most laps (relays and capture re-sows) a move may take; more makes it infinite.
pub const MAX_LAPS: u32 = 200;
/// The fewest captured seeds that make a move [`MoveClass::Capture`]. From round 1 on most Hus
/// moves capture something; calling every one of them noisy would make quiescence search
/// nearly full width, so only captures this large count (smaller ones are quiet).
pub const NOISY_CAPTURE: u32 = 8;
/// The game is drawn once the round counter exceeds this.
pub const MAX_ROUND: u16 = 5000;

const COUNTS: usize = SEEDS + 1;
const SIDE_KEY: usize = 2 * PITS * COUNTS;
static KEYS: [u64; SIDE_KEY + 1] = random_keys(0x6875_7300_0000_0001);
const ROUND_SEED: u64 = 0x6875_7300_726f_756e;

/// A move: the mover's pit to scoop, `0..31` from the mover's view.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Pit(pub u8);

/// A Hus position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hus {
    pits: [[u8; PITS]; 2],
    to_move: Side,
    round: u16,
    hash: u64,
}

/// What a finished sowing did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Sown {
    /// Seeds captured (0: no capture).
    pub captured: u32,
}

#[inline]
fn pit_key(side: usize, pit: usize, seeds: u8) -> u64 {
    KEYS[(side * PITS + pit) * COUNTS + usize::from(seeds)]
}

#[inline]
fn round_key(round: u16) -> u64 {
    SplitMix64::step(ROUND_SEED ^ u64::from(round)).1
}

/// Sows `pit` of `mine` (the mover's row) against `theirs`; `None` if the move is infinite.
/// Captures are allowed when `captures` is set (round > 0).
#[inline]
pub(crate) fn sow(
    mine: &mut [u8; PITS],
    theirs: &mut [u8; PITS],
    pit: usize,
    captures: bool,
) -> Option<Sown> {
    let mut seeds = mine[pit];
    mine[pit] = 0;
    let mut pos = pit;
    let mut laps = 0;
    let mut captured = 0;
    loop {
        while seeds > 0 {
            pos = (pos + 1) & (PITS - 1);
            mine[pos] += 1;
            seeds -= 1;
        }
        if mine[pos] == 1 {
            return Some(Sown { captured });
        }
        if captures && pos >= 16 && theirs[47 - pos] > 0 {
            seeds = theirs[47 - pos] + theirs[pos - 16];
            theirs[47 - pos] = 0;
            theirs[pos - 16] = 0;
            captured += u32::from(seeds);
        } else {
            seeds = mine[pos];
            mine[pos] = 0;
        }
        laps += 1;
        if laps > MAX_LAPS {
            return None;
        }
    }
}

impl Hus {
    /// The start position: pits 0..23 of both players hold 2 seeds, player 0 to move, round 0.
    pub fn start() -> Hus {
        let mut row = [0u8; PITS];
        row[..24].fill(2);
        Hus::from_parts([row, row], Side::First, 0).expect("the start is valid")
    }

    /// A position from both rows (player 0's first), the side to move and the round counter.
    /// Fails unless the rows hold 96 seeds together and `round <= MAX_ROUND + 1`.
    pub fn from_parts(pits: [[u8; PITS]; 2], to_move: Side, round: u16) -> Result<Hus, String> {
        let total: usize = pits.iter().flatten().map(|&s| usize::from(s)).sum();
        if total != SEEDS {
            return Err(format!("{total} seeds on the board, Hus has {SEEDS}"));
        }
        if round > MAX_ROUND + 1 {
            return Err(format!(
                "round {round} is past the last one ({})",
                MAX_ROUND + 1
            ));
        }
        let mut state = Hus {
            pits,
            to_move,
            round,
            hash: 0,
        };
        state.hash = state.hash_from_scratch();
        Ok(state)
    }

    /// The seeds of `side`'s pit `pit` (`0..32`, from that side's view).
    #[inline]
    pub fn seeds(&self, side: Side, pit: usize) -> u8 {
        self.pits[side.index()][pit]
    }

    /// Both rows, player 0's first.
    #[inline]
    pub fn rows(&self) -> &[[u8; PITS]; 2] {
        &self.pits
    }

    /// The round counter (0 on the first move of each player, +1 after each move of player 1).
    #[inline]
    pub fn round(&self) -> u16 {
        self.round
    }

    /// Seeds held by `side`.
    #[inline]
    pub fn total(&self, side: Side) -> u32 {
        self.pits[side.index()].iter().map(|&s| u32::from(s)).sum()
    }

    /// Pits of `side` with 2+ seeds (candidate moves, infinite ones included).
    #[inline]
    pub fn playable_pits(&self, side: Side) -> u32 {
        self.pits[side.index()].iter().filter(|&&s| s >= 2).count() as u32
    }

    /// Sows `pit` for the side to move on a copy of the rows; `None` if the move is infinite.
    #[inline]
    fn simulate(&self, pit: usize) -> Option<([[u8; PITS]; 2], Sown)> {
        let me = self.to_move.index();
        let mut rows = self.pits;
        let (first, second) = rows.split_at_mut(1);
        let (mine, theirs) = if me == 0 {
            (&mut first[0], &mut second[0])
        } else {
            (&mut second[0], &mut first[0])
        };
        let sown = sow(mine, theirs, pit, self.round > 0)?;
        Some((rows, sown))
    }

    /// Does scooping `pit` (2+ seeds, side to move) need more than [`MAX_LAPS`] laps? Such
    /// moves are illegal here (see the crate docs).
    pub fn is_infinite(&self, pit: usize) -> bool {
        self.pits[self.to_move.index()][pit] >= 2 && self.simulate(pit).is_none()
    }

    /// Every pit of the side to move holding 2+ seeds, infinite moves included, ascending.
    pub fn candidate_pits(&self) -> impl Iterator<Item = usize> + '_ {
        let row = &self.pits[self.to_move.index()];
        (0..PITS).filter(move |&p| row[p] >= 2)
    }

    fn has_finite_move(&self) -> bool {
        self.candidate_pits().any(|p| self.simulate(p).is_some())
    }
}

impl Game for Hus {
    type Move = Pit;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<Pit>) {
        if self.round > MAX_ROUND {
            return;
        }
        for pit in self.candidate_pits() {
            if self.simulate(pit).is_some() {
                moves.push(Pit(pit as u8));
            }
        }
    }

    fn play(&self, mv: Pit) -> Hus {
        let (rows, _) = self
            .simulate(usize::from(mv.0))
            .expect("play needs a legal (finite) move");
        let mut hash = self.hash ^ KEYS[SIDE_KEY];
        for (side, (old_row, new_row)) in self.pits.iter().zip(&rows).enumerate() {
            for (pit, (&old, &new)) in old_row.iter().zip(new_row).enumerate() {
                if old != new {
                    hash ^= pit_key(side, pit, old) ^ pit_key(side, pit, new);
                }
            }
        }
        let mut round = self.round;
        if self.to_move == Side::Second {
            round += 1;
            hash ^= round_key(self.round) ^ round_key(round);
        }
        Hus {
            pits: rows,
            to_move: self.to_move.opponent(),
            round,
            hash,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.playable_pits(self.to_move) == 0 {
            Some(Outcome::Win(self.to_move.opponent()))
        } else if self.round > MAX_ROUND || !self.has_finite_move() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut hash = round_key(self.round);
        if self.to_move == Side::Second {
            hash ^= KEYS[SIDE_KEY];
        }
        for (side, row) in self.pits.iter().enumerate() {
            for (pit, &seeds) in row.iter().enumerate() {
                hash ^= pit_key(side, pit, seeds);
            }
        }
        hash
    }

    #[inline]
    fn move_index(&self, mv: Pit) -> usize {
        usize::from(mv.0)
    }

    #[inline]
    fn move_index_bound(&self) -> usize {
        PITS
    }

    fn classify(&self, mv: Pit) -> MoveClass {
        match self.simulate(usize::from(mv.0)) {
            Some((rows, sown)) => {
                let opponent = &rows[self.to_move.opponent().index()];
                if opponent.iter().all(|&s| s < 2) {
                    MoveClass::Win
                } else if sown.captured >= NOISY_CAPTURE {
                    MoveClass::Capture
                } else {
                    MoveClass::Quiet
                }
            }
            None => MoveClass::Quiet,
        }
    }
}

#[cfg(test)]
mod tests;
