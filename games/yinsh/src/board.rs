//! The Yinsh board: 85 intersections A2..K10, their dense indices, the six line directions and
//! the 5-in-a-line windows where rows can form.
//!
//! Key invariant: cell indices run column by column (A2..A5, B1..B7, …, K7..K10), `0..85`;
//! `step(cell, dir)` is the neighbour along a line or `None` off the board, and direction
//! `d + 3` is the reverse of `d`.

use std::sync::LazyLock;

/// Number of intersections.
pub const CELLS: usize = 85;
/// Columns A..K.
pub const COLUMNS: usize = 11;

/// The lowest and highest row number of each column A..K.
const RANGES: [(u8, u8); COLUMNS] = [
    (2, 5),
    (1, 7),
    (1, 8),
    (1, 9),
    (1, 10),
    (2, 10),
    (2, 11),
    (3, 11),
    (4, 11),
    (5, 11),
    (7, 10),
];

/// The six line directions as (Δcolumn, Δrow); `d` and `d + 3` are opposite, and `0..3` are
/// the three positive ones used for rows.
pub const DIRECTIONS: [(i8, i8); 6] = [(0, 1), (1, 0), (1, 1), (0, -1), (-1, 0), (-1, -1)];

const NONE: u8 = u8::MAX;

struct Tables {
    coords: [(u8, u8); CELLS],
    grid: [[u8; 13]; COLUMNS],
    next: [[u8; 6]; CELLS],
    windows: Vec<[u8; 5]>,
    window_dir: Vec<u8>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(build);

#[allow(clippy::needless_range_loop)] // directions index both `next` rows and the loop
fn build() -> Tables {
    let mut coords = [(0u8, 0u8); CELLS];
    let mut grid = [[NONE; 13]; COLUMNS];
    let mut index = 0;
    for (column, &(low, high)) in RANGES.iter().enumerate() {
        for row in low..=high {
            coords[index] = (column as u8, row);
            grid[column][usize::from(row)] = index as u8;
            index += 1;
        }
    }
    assert_eq!(index, CELLS);
    let mut next = [[NONE; 6]; CELLS];
    for (cell, &(column, row)) in coords.iter().enumerate() {
        for (d, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
            let c = i32::from(column) + i32::from(dc);
            let r = i32::from(row) + i32::from(dr);
            if (0..COLUMNS as i32).contains(&c) && (0..13).contains(&r) {
                next[cell][d] = grid[c as usize][r as usize];
            }
        }
    }
    let mut windows = Vec::new();
    let mut window_dir = Vec::new();
    for start in 0..CELLS {
        for d in 0..3 {
            let mut cells = [start as u8; 5];
            let mut ok = true;
            for k in 1..5 {
                let n = next[usize::from(cells[k - 1])][d];
                if n == NONE {
                    ok = false;
                    break;
                }
                cells[k] = n;
            }
            if ok {
                windows.push(cells);
                window_dir.push(d as u8);
            }
        }
    }
    Tables {
        coords,
        grid,
        next,
        windows,
        window_dir,
    }
}

/// The neighbour of `cell` in direction `dir` (`0..6`), or `None` off the board.
#[inline]
pub fn step(cell: usize, dir: usize) -> Option<usize> {
    let n = TABLES.next[cell][dir];
    (n != NONE).then_some(usize::from(n))
}

/// The cell at column `column` (0 = A) and row number `row` (1..=11), if it is on the board.
#[inline]
pub fn cell_at(column: usize, row: usize) -> Option<usize> {
    let n = *TABLES.grid.get(column)?.get(row)?;
    (n != NONE).then_some(usize::from(n))
}

/// Column (0 = A) and row number of `cell`.
#[inline]
pub fn coords(cell: usize) -> (usize, usize) {
    let (c, r) = TABLES.coords[cell];
    (usize::from(c), usize::from(r))
}

/// Every line of five cells on the board, in order along a positive direction.
#[inline]
pub fn windows() -> &'static [[u8; 5]] {
    &TABLES.windows
}

/// The positive direction (`0..3`) of window `i` of [`windows`].
#[inline]
pub fn window_dir(i: usize) -> usize {
    usize::from(TABLES.window_dir[i])
}

/// The name of `cell`, e.g. `e5`.
pub fn cell_name(cell: usize) -> String {
    let (c, r) = coords(cell);
    format!("{}{}", (b'a' + c as u8) as char, r)
}

/// Reads a cell name such as `e5` or `E5`.
pub fn parse_cell(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let rest = chars.as_str();
    if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.len() > 2 {
        return None;
    }
    let row: usize = rest.parse().ok()?;
    cell_at(usize::from(letter as u8 - b'a'), row)
}

/// The row numbers of column `column` (0 = A), lowest first.
pub fn column_range(column: usize) -> (usize, usize) {
    let (low, high) = RANGES[column];
    (usize::from(low), usize::from(high))
}

#[cfg(test)]
mod tests;
