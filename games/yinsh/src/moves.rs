//! The decisions of Yinsh: [`Phase`] (what the side to move has to decide) and [`Move`] (one
//! decision). Moves are three bytes at most and `Copy`.
//!
//! Key invariant: a [`Move::Row`] names its lower end along a positive direction (`0..3` of
//! [`crate::board::DIRECTIONS`]), so each row has exactly one move.

/// What the side to move has to decide.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// Opening: place a ring on an empty point.
    Place,
    /// Move a ring (or pass if none can move).
    Move,
    /// Remove one of your rows of five markers.
    RemoveRow,
    /// Remove one of your rings, after removing a row.
    RemoveRing,
}

/// One decision.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Place a ring on this cell.
    Place(u8),
    /// Put a marker in the ring on `from` and move the ring to `to`.
    Ring(u8, u8),
    /// Remove the five markers from `start` along positive direction `dir` (`0..3`).
    Row(u8, u8),
    /// Remove your ring on this cell.
    RemoveRing(u8),
    /// No ring can move.
    Pass,
}
