//! Unit tests of `bits` in `plies-tafl`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;

fn rows(dim: usize, squares: &[(usize, usize)]) -> Rows {
    let mut x = [0; MAX_DIM];
    for &(r, f) in squares {
        assert!(r < dim && f < dim);
        x[r] |= 1 << f;
    }
    x
}

#[test]
fn reaches_around_a_wall_with_a_gap() {
    let dim = 5;
    let mask = (1 << dim) - 1;
    // Wall on rank index 2 except file 4.
    let wall = rows(dim, &[(2, 0), (2, 1), (2, 2), (2, 3)]);
    let mut free = [0; MAX_DIM];
    for r in 0..dim {
        free[r] = mask & !wall[r];
    }
    let seed = rows(dim, &[(0, 0)]);
    let goal = rows(dim, &[(4, 0)]);
    assert!(reaches(&seed, &free, &goal, dim));
    free[2] &= !(1 << 4);
    assert!(!reaches(&seed, &free, &goal, dim));
}

#[test]
fn path_is_shortest_and_connected() {
    let dim = 7;
    let mask = (1 << dim) - 1;
    let mut free = [0; MAX_DIM];
    for row in free.iter_mut().take(dim) {
        *row = mask;
    }
    let seed = rows(dim, &[(3, 3)]);
    let edge = edge_rows(dim, mask);
    let path = path_to_goal(&seed, &free, &edge, dim, mask)
        .unwrap()
        .unwrap();
    let count: u32 = path.iter().map(|r| r.count_ones()).sum();
    assert_eq!(
        count, 3,
        "the centre of a 7x7 board is 3 steps from the edge"
    );
    assert!(meets(&path, &edge, dim));
    assert!(meets(&path, &neighbours(&seed, dim, mask), dim));
    free[3] = 0;
    free[2] = 0;
    free[4] = 0;
    assert_eq!(path_to_goal(&seed, &free, &edge, dim, mask), Err(()));
}
