//! Cell contents and rows: five markers of one colour on a line.
//!
//! Key invariant: [`has_row_through`] finds a row exactly when some row contains the given cell,
//! so after a ring move (which only changes the cells it passes) checking the changed cells is
//! as good as scanning the board, given no row stood before the move.

use plies::Side;

use crate::board::{CELLS, CellSet, step, window_dir, window_masks, windows};

/// An empty intersection.
pub const EMPTY: u8 = 0;

/// The ring of `side`.
#[inline]
pub const fn ring(side: Side) -> u8 {
    1 + side.index() as u8
}

/// The marker of `side` (its colour face up).
#[inline]
pub const fn marker(side: Side) -> u8 {
    3 + side.index() as u8
}

/// Is `content` a marker (of either colour)?
#[inline]
pub const fn is_marker(content: u8) -> bool {
    content >= 3
}

/// The other face of a marker.
#[inline]
pub const fn flip(content: u8) -> u8 {
    7 - content
}

/// Markers of `content`'s colour in a line through `cell` along axis `axis` (`0..3`), `cell`
/// included.
fn run_length(cells: &[u8; CELLS], cell: usize, axis: usize) -> usize {
    let content = cells[cell];
    let mut length = 1;
    for dir in [axis, axis + 3] {
        let mut at = cell;
        while let Some(n) = step(at, dir) {
            if cells[n] != content {
                break;
            }
            length += 1;
            at = n;
        }
    }
    length
}

/// Is the marker on `cell` part of a row (5+ of its colour on a line)?
pub fn has_row_through(cells: &[u8; CELLS], cell: usize) -> bool {
    is_marker(cells[cell]) && (0..3).any(|axis| run_length(cells, cell, axis) >= 5)
}

/// Is there a row among `markers` (the cells holding one side's markers)?
#[inline]
pub fn has_any_row(markers: CellSet) -> bool {
    window_masks().iter().any(|&w| w & !markers == 0)
}

/// Calls `found(start, dir)` for every row among `markers` (the cells holding one side's
/// markers): every five contiguous markers on a line (a run of six gives two), `start` the end
/// with the lower position along the positive direction `dir` (`0..3`).
pub fn for_each_row(markers: CellSet, mut found: impl FnMut(usize, usize)) {
    for (i, (w, &mask)) in windows().iter().zip(window_masks()).enumerate() {
        if markers & mask == mask {
            found(usize::from(w[0]), window_dir(i));
        }
    }
}

/// The five cells of the row starting at `start` along positive direction `dir`, if they are
/// all on the board.
pub fn row_cells(start: usize, dir: usize) -> Option<[usize; 5]> {
    let mut cells = [start; 5];
    for k in 1..5 {
        cells[k] = step(cells[k - 1], dir)?;
    }
    Some(cells)
}
