//! Kalah, written from scratch against the public traits of plies only ([`Game`], [`Notation`],
//! [`Evaluator`]): the tutorial game (see `TUTORIAL.md` in this crate). The bot is
//! `examples/kalah.rs` at the workspace root.
//!
//! # Rules: Kalah(pits, seeds), standard Kalah(6,4) by default
//! - Each side has `pits` pits in a row and a store on its right; every pit starts with `seeds`
//!   seeds. South ([`Side::First`]) moves first.
//! - A move takes all seeds of one of the mover's non-empty pits and sows them one by one
//!   counter-clockwise into the following pits and the mover's own store, **skipping the
//!   opponent's store**.
//! - **Extra turn**: if the last seed lands in the mover's own store, the mover moves again.
//! - **Capture** ([`CaptureRule::Opposite`], the default): if the last seed lands in one of the
//!   mover's own pits that was empty *and the opposite pit holds seeds*, that seed and all seeds
//!   of the opposite pit go to the mover's store. If the opposite pit is empty nothing is
//!   captured and the seed stays. With [`CaptureRule::Empty`] (the "empty capture" variant) the
//!   last seed in an own empty pit is captured even when the opposite pit is empty: it goes to
//!   the store alone.
//! - **End**: the game ends when the side to move has no seed in its pits. Every seed still in
//!   a pit then goes to the store of that pit's owner (so the *other* side sweeps its own row).
//!   The larger store wins; equal stores are a draw.
//!
//! # Notation (case-insensitive, errors name the token)
//! - Move: one letter, the pit counted from the mover's side: `a` is the mover's pit farthest
//!   from its store, `f` (in Kalah(6,4)) the one next to it. `A` reads the same as `a`.
//! - Position: `<south row> <north row> <side to move>`, a row being its pit counts from `a`
//!   onwards separated by commas, then `|` and the store; the side is `s` or `n`. The start:
//!   `4,4,4,4,4,4|0 4,4,4,4,4,4|0 s`. The number of pits is the length of the rows. The empty
//!   capture variant adds a fourth word, `empty-capture`: `4,4,4,4,4,4|0 4,4,4,4,4,4|0 s
//!   empty-capture`; without it the rules are the default.
//!
//! # Engine view
//! - Hash: Zobrist, one key per (slot, seed count), one for North to move, one per board size,
//!   one for the empty capture rule; [`Game::play`] updates it seed by seed.
//! - [`Game::classify`]: a move that ends the game with the mover ahead is a win; a capture is
//!   a capture; everything else, extra turns included, is quiet (an extra turn keeps the same
//!   side to move, so quiescence would gain nothing from it but length).
//! - [`StoreDifference`]: the store difference, plus a little for seeds on one's own side.
//!
//! Key invariant: `hash == hash_from_scratch()` after every move, and a finished position has
//! every seed in a store.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use plies::rng::random_keys;
use plies::{Evaluator, Game, MoveClass, Notation, NotationError, Outcome, Score, Side};

pub mod solve;
mod view;

/// The most pits per side.
pub const MAX_PITS: usize = 8;
/// The most seeds on the board.
pub const MAX_SEEDS: usize = 128;
const SLOTS: usize = 2 * MAX_PITS + 2;
const COUNTS: usize = MAX_SEEDS + 1;
const SIDE_KEY: usize = SLOTS * COUNTS;
const SIZE_KEY: usize = SIDE_KEY + 1;
const RULE_KEY: usize = SIZE_KEY + MAX_PITS + 1;
static KEYS: [u64; RULE_KEY + 1] = random_keys(0x6b61_6c61_6800_0001);

/// What the last seed sown into one of the mover's own empty pits captures.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum CaptureRule {
    /// That seed and the opposite pit's seeds, only when the opposite pit holds seeds (plies'
    /// default); otherwise the seed stays.
    #[default]
    Opposite,
    /// The "empty capture" variant: that seed and the opposite pit's seeds, also when the
    /// opposite pit is empty (then the seed goes to the store alone).
    Empty,
}

impl CaptureRule {
    /// The word position text names the rule with (none for the default).
    pub const EMPTY_WORD: &'static str = "empty-capture";
}

/// Sow from one of the mover's pits: 0 is pit `a`, the farthest from the mover's store.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Sow(pub u8);

const _: () = assert!(std::mem::size_of::<Sow>() == 1);

/// A Kalah position. Slots `0..pits` are South's pits (`a` first), slot `pits` South's store,
/// then North's pits and North's store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kalah {
    board: [u8; SLOTS],
    pits: u8,
    to_move: Side,
    capture: CaptureRule,
    hash: u64,
}

/// What sowing did besides moving seeds.
struct Effect {
    captured: bool,
}

impl Kalah {
    /// The start of Kalah(pits, seeds): `1..=8` pits, and at most 128 seeds in all.
    pub fn new(pits: usize, seeds: u8) -> Result<Kalah, String> {
        let row = vec![seeds; pits];
        Kalah::from_rows(&row, 0, &row, 0, Side::First)
    }

    /// The same position under the capture rule `capture`.
    #[must_use]
    pub fn with_capture(mut self, capture: CaptureRule) -> Kalah {
        self.capture = capture;
        self.hash = self.hash_from_scratch();
        self
    }

    /// The capture rule this game is played with.
    #[inline]
    pub fn capture_rule(&self) -> CaptureRule {
        self.capture
    }

    /// A position from its rows (pits from `a`, then the store) and the side to move. If that
    /// side has no seed left the game is over and the remaining seeds are swept into the stores.
    pub fn from_rows(
        south: &[u8],
        south_store: u8,
        north: &[u8],
        north_store: u8,
        to_move: Side,
    ) -> Result<Kalah, String> {
        let pits = south.len();
        if pits == 0 || pits > MAX_PITS || north.len() != pits {
            return Err(format!(
                "rows of {} and {} pits: both need 1..={MAX_PITS}",
                south.len(),
                north.len()
            ));
        }
        let total: usize = south
            .iter()
            .chain(north)
            .map(|&s| usize::from(s))
            .sum::<usize>()
            + usize::from(south_store)
            + usize::from(north_store);
        if total > MAX_SEEDS {
            return Err(format!("{total} seeds, at most {MAX_SEEDS} allowed"));
        }
        let mut state = Kalah {
            board: [0; SLOTS],
            pits: pits as u8,
            to_move,
            capture: CaptureRule::Opposite,
            hash: 0,
        };
        state.board[..pits].copy_from_slice(south);
        state.board[pits] = south_store;
        state.board[pits + 1..2 * pits + 1].copy_from_slice(north);
        state.board[2 * pits + 1] = north_store;
        state.hash = state.hash_from_scratch();
        state.sweep_if_over();
        Ok(state)
    }

    /// Pits per side.
    #[inline]
    pub fn pits(&self) -> usize {
        usize::from(self.pits)
    }

    /// The slot of `side`'s pit `pit` (0 = `a`).
    #[inline]
    fn pit_slot(&self, side: Side, pit: usize) -> usize {
        match side {
            Side::First => pit,
            Side::Second => self.pits() + 1 + pit,
        }
    }

    /// The slot of `side`'s store.
    #[inline]
    fn store_slot(&self, side: Side) -> usize {
        match side {
            Side::First => self.pits(),
            Side::Second => 2 * self.pits() + 1,
        }
    }

    /// The seeds in `side`'s pit `pit` (0 = `a`).
    #[inline]
    pub fn seeds(&self, side: Side, pit: usize) -> u8 {
        self.board[self.pit_slot(side, pit)]
    }

    /// The seeds in `side`'s store.
    #[inline]
    pub fn store(&self, side: Side) -> u8 {
        self.board[self.store_slot(side)]
    }

    /// All seeds in `side`'s pits.
    #[inline]
    pub fn seeds_on_side(&self, side: Side) -> u32 {
        let start = self.pit_slot(side, 0);
        self.board[start..start + self.pits()]
            .iter()
            .map(|&s| u32::from(s))
            .sum()
    }

    #[inline]
    fn key(slot: usize, count: u8) -> u64 {
        KEYS[slot * COUNTS + usize::from(count)]
    }

    /// Sets a slot, keeping the hash.
    #[inline]
    fn set(&mut self, slot: usize, count: u8) {
        self.hash ^= Self::key(slot, self.board[slot]) ^ Self::key(slot, count);
        self.board[slot] = count;
    }

    /// Once the side to move has no seed, every seed goes to its owner's store.
    fn sweep_if_over(&mut self) {
        if self.seeds_on_side(self.to_move) != 0 {
            return;
        }
        for side in Side::BOTH {
            let mut swept = 0;
            for pit in 0..self.pits() {
                let slot = self.pit_slot(side, pit);
                swept += self.board[slot];
                self.set(slot, 0);
            }
            let store = self.store_slot(side);
            self.set(store, self.board[store] + swept);
        }
    }

    /// Plays `mv` and says whether it captured.
    fn sow(&self, mv: Sow) -> (Kalah, Effect) {
        let mover = self.to_move;
        let mut next = self.clone();
        let ring = 2 * self.pits() + 2;
        let skipped = self.store_slot(mover.opponent());
        let own_store = self.store_slot(mover);
        let mut slot = self.pit_slot(mover, usize::from(mv.0));
        let mut seeds = next.board[slot];
        next.set(slot, 0);
        while seeds > 0 {
            slot = (slot + 1) % ring;
            if slot != skipped {
                next.set(slot, next.board[slot] + 1);
                seeds -= 1;
            }
        }
        let mut captured = false;
        let first = self.pit_slot(mover, 0);
        let own_pit = (first..first + self.pits()).contains(&slot);
        if own_pit && next.board[slot] == 1 {
            let opposite = 2 * self.pits() - slot;
            if next.board[opposite] > 0 || self.capture == CaptureRule::Empty {
                let gain = next.board[opposite] + 1;
                next.set(slot, 0);
                next.set(opposite, 0);
                next.set(own_store, next.board[own_store] + gain);
                captured = true;
            }
        }
        if slot != own_store {
            next.to_move = mover.opponent();
            next.hash ^= KEYS[SIDE_KEY];
        }
        next.sweep_if_over();
        (next, Effect { captured })
    }
}

impl Game for Kalah {
    type Move = Sow;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.to_move
    }

    #[inline]
    fn generate_moves(&self, moves: &mut Vec<Sow>) {
        for pit in 0..self.pits() {
            if self.seeds(self.to_move, pit) > 0 {
                moves.push(Sow(pit as u8));
            }
        }
    }

    #[inline]
    fn play(&self, mv: Sow) -> Kalah {
        self.sow(mv).0
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.seeds_on_side(self.to_move) != 0 {
            return None;
        }
        let total = |side| u32::from(self.store(side)) + self.seeds_on_side(side);
        let (south, north) = (total(Side::First), total(Side::Second));
        Some(match south.cmp(&north) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::First),
            std::cmp::Ordering::Less => Outcome::Win(Side::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut hash = KEYS[SIZE_KEY + self.pits()];
        for slot in 0..2 * self.pits() + 2 {
            hash ^= Self::key(slot, self.board[slot]);
        }
        if self.to_move == Side::Second {
            hash ^= KEYS[SIDE_KEY];
        }
        if self.capture == CaptureRule::Empty {
            hash ^= KEYS[RULE_KEY];
        }
        hash
    }

    #[inline]
    fn move_index(&self, mv: Sow) -> usize {
        usize::from(mv.0)
    }

    #[inline]
    fn move_index_bound(&self) -> usize {
        self.pits()
    }

    fn classify(&self, mv: Sow) -> MoveClass {
        let (next, effect) = self.sow(mv);
        if next.outcome() == Some(Outcome::Win(self.to_move)) {
            MoveClass::Win
        } else if effect.captured {
            MoveClass::Capture
        } else {
            MoveClass::Quiet
        }
    }
}

/// Reads one row token: `4,4,4|0`.
fn parse_row(token: &str) -> Result<(Vec<u8>, u8), NotationError> {
    let Some((pits, store)) = token.split_once('|') else {
        return Err(NotationError::new(
            token,
            "expected a row like 4,4,4,4,4,4|0",
        ));
    };
    let count = |text: &str| -> Result<u8, NotationError> {
        text.parse::<u8>()
            .ok()
            .filter(|&n| usize::from(n) <= MAX_SEEDS)
            .ok_or_else(|| {
                NotationError::new(text, format!("expected a seed count 0..={MAX_SEEDS}"))
            })
    };
    let pits = pits.split(',').map(count).collect::<Result<Vec<u8>, _>>()?;
    Ok((pits, count(store)?))
}

impl Notation for Kalah {
    /// `south` (moves first) or `north`.
    fn side_name(side: Side) -> String {
        match side {
            Side::First => "south",
            Side::Second => "north",
        }
        .to_string()
    }

    fn start_position() -> Kalah {
        Kalah::new(6, 4).expect("Kalah(6,4) is a valid size")
    }

    fn parse_position(text: &str) -> Result<Kalah, NotationError> {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.len() < 3 {
            return Err(NotationError::new(
                text.trim(),
                "expected '<south row> <north row> <s|n>', e.g. 4,4,4,4,4,4|0 4,4,4,4,4,4|0 s",
            ));
        }
        let capture = match tokens.get(3) {
            None => CaptureRule::Opposite,
            Some(word) if word.eq_ignore_ascii_case(CaptureRule::EMPTY_WORD) => CaptureRule::Empty,
            Some(word) => {
                return Err(NotationError::new(
                    *word,
                    format!(
                        "unexpected text after the side to move (the only rules word is {})",
                        CaptureRule::EMPTY_WORD
                    ),
                ));
            }
        };
        if let Some(extra) = tokens.get(4) {
            return Err(NotationError::new(
                *extra,
                "unexpected text after the rules",
            ));
        }
        let (south, south_store) = parse_row(tokens[0])?;
        let (north, north_store) = parse_row(tokens[1])?;
        let to_move = match tokens[2].to_ascii_lowercase().as_str() {
            "s" | "south" => Side::First,
            "n" | "north" => Side::Second,
            _ => {
                return Err(NotationError::new(
                    tokens[2],
                    "expected the side to move, s or n",
                ));
            }
        };
        if north.len() != south.len() {
            return Err(NotationError::new(
                tokens[1],
                format!("{} pits, but south has {}", north.len(), south.len()),
            ));
        }
        Kalah::from_rows(&south, south_store, &north, north_store, to_move)
            .map(|state| state.with_capture(capture))
            .map_err(|reason| NotationError::new(text.trim(), reason))
    }

    fn format_position(&self) -> String {
        let row = |side| {
            let pits: Vec<String> = (0..self.pits())
                .map(|pit| self.seeds(side, pit).to_string())
                .collect();
            format!("{}|{}", pits.join(","), self.store(side))
        };
        let side = if self.to_move == Side::First {
            's'
        } else {
            'n'
        };
        let rules = match self.capture {
            CaptureRule::Opposite => String::new(),
            CaptureRule::Empty => format!(" {}", CaptureRule::EMPTY_WORD),
        };
        format!("{} {} {side}{rules}", row(Side::First), row(Side::Second))
    }

    fn parse_move(&self, text: &str) -> Result<Sow, NotationError> {
        let word = text.trim();
        let last = (b'a' + self.pits - 1) as char;
        let mut chars = word.chars();
        let (Some(letter), None) = (chars.next(), chars.next()) else {
            return Err(NotationError::new(
                word,
                format!("expected a pit letter a..{last}"),
            ));
        };
        let letter = letter.to_ascii_lowercase();
        if !('a'..=last).contains(&letter) {
            return Err(NotationError::new(
                word,
                format!("expected a pit letter a..{last}"),
            ));
        }
        let pit = letter as u8 - b'a';
        if self.outcome().is_some() {
            return Err(NotationError::new(word, "the game is over"));
        }
        if self.seeds(self.to_move, usize::from(pit)) == 0 {
            return Err(NotationError::new(word, "that pit is empty"));
        }
        Ok(Sow(pit))
    }

    fn format_move(&self, mv: Sow) -> String {
        ((b'a' + mv.0) as char).to_string()
    }

    fn display_board(&self) -> String {
        let n = self.pits();
        let cells = |side: Side, order: &mut dyn Iterator<Item = usize>| -> String {
            order
                .map(|pit| format!("[{:>2}]", self.seeds(side, pit)))
                .collect()
        };
        let letters = |order: &mut dyn Iterator<Item = usize>| -> String {
            order
                .map(|pit| format!("  {} ", (b'a' + pit as u8) as char))
                .collect()
        };
        let gap = " ".repeat(4 * n);
        let mover = if self.to_move == Side::First {
            "south"
        } else {
            "north"
        };
        format!(
            "     {}   north\n     {}\n[{:>2}] {gap} [{:>2}]\n     {}\n     {}   south\n{mover} to move",
            letters(&mut (0..n).rev()),
            cells(Side::Second, &mut (0..n).rev()),
            self.store(Side::Second),
            self.store(Side::First),
            cells(Side::First, &mut (0..n)),
            letters(&mut (0..n)),
        )
    }
}

/// The store difference times `store_weight`, plus the difference of seeds on each side's pits
/// times `side_weight`, from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StoreDifference {
    /// Weight of a seed in a store (safe for good).
    pub store_weight: i32,
    /// Weight of a seed in one's own pits (likely, not certain, to end in one's store).
    pub side_weight: i32,
}

impl Default for StoreDifference {
    fn default() -> Self {
        StoreDifference {
            store_weight: 4,
            side_weight: 1,
        }
    }
}

impl Evaluator<Kalah> for StoreDifference {
    fn evaluate(&self, state: &Kalah) -> Score {
        let me = state.side_to_move();
        let you = me.opponent();
        let stores = i32::from(state.store(me)) - i32::from(state.store(you));
        let sides = state.seeds_on_side(me) as i32 - state.seeds_on_side(you) as i32;
        Score::cp(self.store_weight * stores + self.side_weight * sides)
    }
}
