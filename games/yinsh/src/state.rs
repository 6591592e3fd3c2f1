//! The Yinsh position and its decision-level moves: the [`Game`] implementation.
//!
//! A turn is a chain of decisions, each one a move: place a ring (opening), move a ring (or
//! pass when no ring can move), then for every row made, its owner removes the row and then one
//! of his rings. The mover's rows are removed first, then the opponent's, then the opponent
//! moves. So the side to move does not alternate strictly.
//!
//! Key invariants: no row stands on the board in the `Place` and `Move` phases; the outcome is
//! a function of the position (so it is hashed implicitly); the hash covers cells, side to
//! move, phase, the ring mover being resolved, rings removed, consecutive passes and Blitz.

use plies::bits::set_bits;
use plies::rng::random_keys;
use plies::{Game, MoveClass, Outcome, Side};

use crate::board::{CELLS, CellSet, step};
pub use crate::moves::{Move, Phase};
use crate::rows::{
    EMPTY, flip, for_each_row, has_any_row, has_row_through, is_marker, marker, ring, row_cells,
};

/// Markers in the shared pool at the start.
pub const MARKERS: u8 = 51;
/// Rings per player.
pub const RINGS: u8 = 5;

const _: () = assert!(std::mem::size_of::<Move>() <= 3);

const CONTENT_KEYS: usize = CELLS * 5;
const SIDE_KEY: usize = CONTENT_KEYS;
const PHASE_KEY: usize = SIDE_KEY + 1;
const MOVER_KEY: usize = PHASE_KEY + 4;
const REMOVED_KEY: usize = MOVER_KEY + 1;
const PASS_KEY: usize = REMOVED_KEY + 2 * 4;
const BLITZ_KEY: usize = PASS_KEY + 3;
static KEYS: [u64; BLITZ_KEY + 1] = random_keys(0x7969_6e73_6800_0001);

/// The cells of each content of `cells` ([`Yinsh`]'s `sets`).
fn content_sets(cells: &[u8; CELLS]) -> [CellSet; 5] {
    let mut sets = [0; 5];
    for (cell, &content) in cells.iter().enumerate() {
        sets[usize::from(content)] |= 1 << cell;
    }
    sets
}

#[inline]
fn cell_key(cell: usize, content: u8) -> u64 {
    KEYS[cell * 5 + usize::from(content)]
}

/// A Yinsh position (between two decisions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Yinsh {
    pub(crate) cells: [u8; CELLS],
    /// The cells of each content, indexed by the content ([`EMPTY`], rings, markers): always
    /// the same as `cells` read another way, so ring moves, placements and rows are found by
    /// walking a set instead of scanning the board.
    sets: [CellSet; 5],
    pub(crate) to_move: Side,
    pub(crate) phase: Phase,
    /// Whose ring move is being resolved (meaningful in the removal phases).
    pub(crate) mover: Side,
    pub(crate) removed: [u8; 2],
    pub(crate) passes: u8,
    pub(crate) blitz: bool,
    markers: u8,
    rings: u8,
    outcome: Option<Outcome>,
    hash: u64,
}

impl Yinsh {
    /// The empty board, White ([`Side::First`]) to place; `blitz` plays to one ring removed.
    pub fn new(blitz: bool) -> Yinsh {
        Yinsh::from_parts(
            [EMPTY; CELLS],
            Side::First,
            Phase::Place,
            Side::First,
            [0, 0],
            0,
            blitz,
        )
        .expect("the empty board is valid")
    }

    /// A position from its parts; checks counts and that no row stands outside the removal
    /// phases.
    pub(crate) fn from_parts(
        cells: [u8; CELLS],
        to_move: Side,
        phase: Phase,
        mover: Side,
        removed: [u8; 2],
        passes: u8,
        blitz: bool,
    ) -> Result<Yinsh, String> {
        let sets = content_sets(&cells);
        let count = |content: u8| sets[usize::from(content)].count_ones() as u8;
        let has_any_row = |side: Side| has_any_row(sets[usize::from(marker(side))]);
        let markers = count(marker(Side::First)) + count(marker(Side::Second));
        if markers > MARKERS {
            return Err(format!(
                "{markers} markers on the board, the pool has {MARKERS}"
            ));
        }
        let mut rings = 0;
        for side in Side::BOTH {
            let on_board = count(ring(side));
            if removed[side.index()] > 3 || on_board + removed[side.index()] > RINGS {
                return Err(format!("{side:?} has too many rings"));
            }
            rings += on_board;
        }
        if passes > 2 {
            return Err("at most two consecutive passes".into());
        }
        match phase {
            Phase::Place if markers > 0 || removed != [0, 0] => {
                return Err("placement phase with markers or removed rings".into());
            }
            Phase::Move if rings + removed[0] + removed[1] < 2 * RINGS => {
                return Err("move phase before all ten rings are placed".into());
            }
            Phase::Place if rings >= 2 * RINGS => {
                return Err("placement phase with all ten rings placed".into());
            }
            Phase::RemoveRow if !has_any_row(to_move) => {
                return Err("row-removal phase but the side to move has no row".into());
            }
            Phase::RemoveRing if count(ring(to_move)) == 0 => {
                return Err("ring-removal phase but the side to move has no ring".into());
            }
            Phase::Place | Phase::Move if Side::BOTH.iter().any(|&s| has_any_row(s)) => {
                return Err("a row stands on the board; it must be removed first".into());
            }
            _ => {}
        }
        let mover = match phase {
            Phase::RemoveRow | Phase::RemoveRing => mover,
            Phase::Place | Phase::Move => Side::First,
        };
        let mut state = Yinsh {
            cells,
            sets,
            to_move,
            phase,
            mover,
            removed,
            passes,
            blitz,
            markers,
            rings,
            outcome: None,
            hash: 0,
        };
        state.outcome = state.compute_outcome();
        state.hash = state.hash_from_scratch();
        Ok(state)
    }

    /// Rings a side must remove to win: 3, or 1 in Blitz.
    #[inline]
    pub fn target(&self) -> u8 {
        if self.blitz { 1 } else { 3 }
    }

    /// The content of `cell`: 0 empty, 1/2 a white/black ring, 3/4 a white/black marker.
    #[inline]
    pub fn cell(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// The cells holding `content` (0 empty, 1/2 a white/black ring, 3/4 a white/black marker;
    /// nothing for any other value), as a set.
    #[inline]
    pub fn cells_with(&self, content: u8) -> CellSet {
        self.sets.get(usize::from(content)).copied().unwrap_or(0)
    }

    /// Rings `side` has removed.
    #[inline]
    pub fn removed(&self, side: Side) -> u8 {
        self.removed[side.index()]
    }

    /// Markers on the board.
    #[inline]
    pub fn markers_on_board(&self) -> u8 {
        self.markers
    }

    /// The current decision.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Is this the Blitz variant?
    #[inline]
    pub fn is_blitz(&self) -> bool {
        self.blitz
    }

    fn compute_outcome(&self) -> Option<Outcome> {
        for side in Side::BOTH {
            if self.removed[side.index()] >= self.target() {
                return Some(Outcome::Win(side));
            }
        }
        if self.phase == Phase::Move && (self.passes >= 2 || self.markers >= MARKERS) {
            // Markers ran out, or both sides passed in a row (treated the same way).
            return Some(match self.removed[0].cmp(&self.removed[1]) {
                std::cmp::Ordering::Greater => Outcome::Win(Side::First),
                std::cmp::Ordering::Less => Outcome::Win(Side::Second),
                std::cmp::Ordering::Equal => Outcome::Draw,
            });
        }
        None
    }

    /// Appends the ring moves of `side`.
    pub(crate) fn ring_moves(&self, side: Side, moves: &mut Vec<Move>) {
        self.for_each_ring_move(side, |from, to| {
            moves.push(Move::Ring(from as u8, to as u8))
        });
    }

    /// The number of ring moves `side` would have.
    pub(crate) fn ring_move_count(&self, side: Side) -> usize {
        let mut count = 0;
        self.for_each_ring_move(side, |_, _| count += 1);
        count
    }

    fn for_each_ring_move(&self, side: Side, mut found: impl FnMut(usize, usize)) {
        for from in set_bits(self.sets[usize::from(ring(side))]) {
            let from = from as usize;
            for dir in 0..6 {
                let mut at = from;
                let mut jumped = false;
                while let Some(n) = step(at, dir) {
                    let content = self.cells[n];
                    if content == EMPTY {
                        found(from, n);
                        if jumped {
                            break;
                        }
                    } else if is_marker(content) {
                        jumped = true;
                    } else {
                        break;
                    }
                    at = n;
                }
            }
        }
    }

    #[inline]
    fn set(&mut self, cell: usize, content: u8) {
        let old = self.cells[cell];
        self.hash ^= cell_key(cell, old) ^ cell_key(cell, content);
        self.cells[cell] = content;
        let bit: CellSet = 1 << cell;
        self.sets[usize::from(old)] &= !bit;
        self.sets[usize::from(content)] |= bit;
    }

    #[inline]
    fn set_side(&mut self, side: Side) {
        if side != self.to_move {
            self.hash ^= KEYS[SIDE_KEY];
            self.to_move = side;
        }
    }

    #[inline]
    fn set_phase(&mut self, phase: Phase, mover: Side) {
        let removal = |p: Phase| matches!(p, Phase::RemoveRow | Phase::RemoveRing);
        if removal(self.phase) && self.mover == Side::Second {
            self.hash ^= KEYS[MOVER_KEY];
        }
        self.hash ^= KEYS[PHASE_KEY + self.phase as usize] ^ KEYS[PHASE_KEY + phase as usize];
        self.phase = phase;
        // Outside the removal phases the mover means nothing: keep one value so equal
        // positions compare equal.
        self.mover = if removal(phase) { mover } else { Side::First };
        if removal(phase) && mover == Side::Second {
            self.hash ^= KEYS[MOVER_KEY];
        }
    }

    #[inline]
    fn set_passes(&mut self, passes: u8) {
        self.hash ^=
            KEYS[PASS_KEY + usize::from(self.passes)] ^ KEYS[PASS_KEY + usize::from(passes)];
        self.passes = passes;
    }

    /// After `side` finished removing (or found no row): who removes next, or who moves.
    fn continue_resolution(&mut self, side: Side) {
        let mover = self.mover;
        if has_any_row(self.cells_with(marker(side))) {
            self.set_phase(Phase::RemoveRow, mover);
            self.set_side(side);
        } else if side == mover && has_any_row(self.cells_with(marker(mover.opponent()))) {
            self.set_phase(Phase::RemoveRow, mover);
            self.set_side(mover.opponent());
        } else {
            self.set_phase(Phase::Move, mover);
            self.set_side(mover.opponent());
        }
    }
}

impl Game for Yinsh {
    type Move = Move;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        let side = self.to_move;
        match self.phase {
            Phase::Place => {
                moves.extend(set_bits(self.sets[usize::from(EMPTY)]).map(|c| Move::Place(c as u8)));
            }
            Phase::Move => {
                let start = moves.len();
                self.ring_moves(side, moves);
                if moves.len() == start {
                    moves.push(Move::Pass);
                }
            }
            Phase::RemoveRow => {
                for_each_row(self.cells_with(marker(side)), |s, d| {
                    moves.push(Move::Row(s as u8, d as u8))
                });
            }
            Phase::RemoveRing => moves
                .extend(set_bits(self.cells_with(ring(side))).map(|c| Move::RemoveRing(c as u8))),
        }
    }

    fn play(&self, mv: Move) -> Yinsh {
        let mut next = self.clone();
        let side = self.to_move;
        match mv {
            Move::Place(cell) => {
                next.set(usize::from(cell), ring(side));
                next.rings += 1;
                if next.rings == 2 * RINGS {
                    next.set_phase(Phase::Move, side);
                }
                next.set_side(side.opponent());
            }
            Move::Ring(from, to) => {
                let (from, to) = (usize::from(from), usize::from(to));
                next.set(from, marker(side));
                next.set(to, ring(side));
                next.markers += 1;
                next.set_passes(0);
                let dir = (0..6)
                    .find(|&d| {
                        let mut at = from;
                        while let Some(n) = step(at, d) {
                            if n == to {
                                return true;
                            }
                            at = n;
                        }
                        false
                    })
                    .expect("a ring moves along a line");
                let mut made = [false; 2];
                let mut at = step(from, dir).expect("on the line");
                while at != to {
                    if is_marker(next.cells[at]) {
                        let flipped = flip(next.cells[at]);
                        next.set(at, flipped);
                    }
                    at = step(at, dir).expect("on the line");
                }
                let mut at = from;
                loop {
                    if has_row_through(&next.cells, at) {
                        made[usize::from(next.cells[at] - 3)] = true;
                    }
                    at = step(at, dir).expect("on the line");
                    if at == to {
                        break;
                    }
                }
                next.set_phase(Phase::Move, side);
                if made[side.index()] {
                    next.set_phase(Phase::RemoveRow, side);
                } else if made[side.opponent().index()] {
                    next.set_phase(Phase::RemoveRow, side);
                    next.set_side(side.opponent());
                } else {
                    next.set_side(side.opponent());
                }
            }
            Move::Row(start, dir) => {
                let cells = row_cells(usize::from(start), usize::from(dir)).expect("a row");
                for cell in cells {
                    next.set(cell, EMPTY);
                }
                next.markers -= 5;
                next.set_phase(Phase::RemoveRing, self.mover);
            }
            Move::RemoveRing(cell) => {
                next.set(usize::from(cell), EMPTY);
                next.rings -= 1;
                let count = self.removed[side.index()];
                next.hash ^= KEYS[REMOVED_KEY + side.index() * 4 + usize::from(count)]
                    ^ KEYS[REMOVED_KEY + side.index() * 4 + usize::from(count) + 1];
                next.removed[side.index()] = count + 1;
                if next.removed[side.index()] < next.target() {
                    next.continue_resolution(side);
                }
            }
            Move::Pass => {
                next.set_passes(self.passes + 1);
                next.set_phase(Phase::Move, side);
                next.set_side(side.opponent());
            }
        }
        next.outcome = next.compute_outcome();
        next
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for (cell, &content) in self.cells.iter().enumerate() {
            hash ^= cell_key(cell, content);
        }
        if self.to_move == Side::Second {
            hash ^= KEYS[SIDE_KEY];
        }
        hash ^= KEYS[PHASE_KEY + self.phase as usize];
        if matches!(self.phase, Phase::RemoveRow | Phase::RemoveRing) && self.mover == Side::Second
        {
            hash ^= KEYS[MOVER_KEY];
        }
        for side in Side::BOTH {
            hash ^= KEYS[REMOVED_KEY + side.index() * 4 + usize::from(self.removed[side.index()])];
        }
        hash ^= KEYS[PASS_KEY + usize::from(self.passes)];
        if self.blitz {
            hash ^= KEYS[BLITZ_KEY];
        }
        hash
    }

    fn move_index(&self, mv: Move) -> usize {
        match mv {
            Move::Place(c) => usize::from(c),
            Move::Ring(from, to) => CELLS + usize::from(from) * CELLS + usize::from(to),
            Move::Row(start, dir) => {
                CELLS * (CELLS + 1) + usize::from(start) * 3 + usize::from(dir)
            }
            Move::RemoveRing(c) => CELLS * (CELLS + 4) + usize::from(c),
            Move::Pass => CELLS * (CELLS + 5),
        }
    }

    fn move_index_bound(&self) -> usize {
        CELLS * (CELLS + 5) + 1
    }

    fn classify(&self, mv: Move) -> MoveClass {
        match mv {
            Move::RemoveRing(_) if self.removed[self.to_move.index()] + 1 >= self.target() => {
                MoveClass::Win
            }
            Move::Row(..) | Move::RemoveRing(_) => MoveClass::Capture,
            Move::Ring(..) | Move::Pass => {
                // The last marker or a second pass can end the game at once.
                let child = self.play(mv);
                if child.outcome == Some(Outcome::Win(self.to_move)) {
                    MoveClass::Win
                } else if child.phase == Phase::RemoveRow && child.to_move == self.to_move {
                    MoveClass::Capture
                } else {
                    MoveClass::Quiet
                }
            }
            Move::Place(_) => MoveClass::Quiet,
        }
    }
}

#[cfg(test)]
mod tests;
