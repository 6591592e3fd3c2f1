//! Whole-board operations on row bitboards ([`Rows`]): neighbour sets, flood fills and a
//! shortest path of free squares to the board edge.
//!
//! Key invariant: every function takes the board side `dim` and a row mask, reads rows
//! `0..dim` only and never sets a bit outside the board; nothing allocates (fixed arrays).

use crate::board::{MAX_DIM, Rows};

/// The edge squares of a `dim` board as rows.
#[must_use]
pub(crate) fn edge_rows(dim: usize, mask: u32) -> Rows {
    let mut rows = [0; MAX_DIM];
    for (r, row) in rows.iter_mut().enumerate().take(dim) {
        *row = if r == 0 || r + 1 == dim {
            mask
        } else {
            1 | (1 << (dim - 1))
        };
    }
    rows
}

/// The squares orthogonally next to a square of `x` (not `x` itself unless next to another).
#[inline]
#[must_use]
pub(crate) fn neighbours(x: &Rows, dim: usize, mask: u32) -> Rows {
    let mut out = [0; MAX_DIM];
    for r in 0..dim {
        let mut n = (x[r] << 1) | (x[r] >> 1);
        if r > 0 {
            n |= x[r - 1];
        }
        if r + 1 < dim {
            n |= x[r + 1];
        }
        out[r] = n & mask;
    }
    out
}

/// Whether any square of `x` is set.
#[inline]
#[must_use]
pub(crate) fn any(x: &Rows, dim: usize) -> bool {
    x[..dim].iter().any(|&row| row != 0)
}

/// Whether `x` and `y` share a square.
#[inline]
#[must_use]
pub(crate) fn meets(x: &Rows, y: &Rows, dim: usize) -> bool {
    (0..dim).any(|r| x[r] & y[r] != 0)
}

/// Whether the squares reachable from `seeds` through `free` squares (seeds count as reached
/// whatever they stand on) include a square of `goal`.
#[must_use]
pub(crate) fn reaches(seeds: &Rows, free: &Rows, goal: &Rows, dim: usize) -> bool {
    let mut x = *seeds;
    if meets(&x, goal, dim) {
        return true;
    }
    loop {
        let mut changed = false;
        // One sweep up and one down, each row first taking what its neighbour row reached,
        // then filling along the row.
        for pass in 0..2 {
            for i in 0..dim {
                let r = if pass == 0 { i } else { dim - 1 - i };
                let mut row = x[r];
                let mut from_next = 0;
                if r > 0 {
                    from_next |= x[r - 1];
                }
                if r + 1 < dim {
                    from_next |= x[r + 1];
                }
                row |= from_next & free[r];
                loop {
                    let grown = row | (((row << 1) | (row >> 1)) & free[r]);
                    if grown == row {
                        break;
                    }
                    row = grown;
                }
                if row != x[r] {
                    if row & goal[r] != 0 {
                        return true;
                    }
                    x[r] = row;
                    changed = true;
                }
            }
        }
        if !changed {
            return false;
        }
    }
}

/// The most BFS layers [`path_to_goal`] explores before giving up.
const MAX_LAYERS: usize = 12;

/// The squares of one shortest path through `free` squares from a square of `seeds` to a
/// square of `goal`, the seed itself left out; `Err(())` when no path exists, `Ok(None)`
/// when it is longer than the search explores.
pub(crate) fn path_to_goal(
    seeds: &Rows,
    free: &Rows,
    goal: &Rows,
    dim: usize,
    mask: u32,
) -> Result<Option<Rows>, ()> {
    let mut layers = [[0u32; MAX_DIM]; MAX_LAYERS];
    layers[0] = *seeds;
    let mut seen = *seeds;
    let mut n = 1;
    let mut end = None;
    if meets(seeds, goal, dim) {
        return Ok(Some([0; MAX_DIM]));
    }
    while end.is_none() {
        if n == MAX_LAYERS {
            return Ok(None);
        }
        let around = neighbours(&layers[n - 1], dim, mask);
        let mut grew = false;
        for r in 0..dim {
            let fresh = around[r] & free[r] & !seen[r];
            layers[n][r] = fresh;
            seen[r] |= fresh;
            grew |= fresh != 0;
            if end.is_none() && fresh & goal[r] != 0 {
                end = Some((r, (fresh & goal[r]).trailing_zeros() as usize));
            }
        }
        if !grew {
            return Err(());
        }
        n += 1;
    }
    let (mut r, mut f) = end.expect("found");
    let mut path = [0u32; MAX_DIM];
    path[r] |= 1 << f;
    // Walk back through the layers, each step to a neighbour one layer closer to the seeds.
    for layer in layers[1..n - 1].iter().rev() {
        let candidates = [
            (r, f + 1),
            (r, f.wrapping_sub(1)),
            (r + 1, f),
            (r.wrapping_sub(1), f),
        ];
        let (nr, nf) = candidates
            .into_iter()
            .find(|&(nr, nf)| nr < dim && nf < dim && layer[nr] & (1 << nf) != 0)
            .expect("a BFS layer square has a neighbour in the layer before");
        r = nr;
        f = nf;
        path[r] |= 1 << f;
    }
    Ok(Some(path))
}

#[cfg(test)]
mod tests;
