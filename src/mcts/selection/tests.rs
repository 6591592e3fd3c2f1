//! Unit tests of `crate::mcts::selection` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::eval::Score;
use crate::game::{Game, Side};
use crate::testing::TwoPiles;

fn tree() -> Tree<crate::testing::Take> {
    let state = TwoPiles::new(5, 5, Side::First);
    let mut tree = Tree::new(state.side_to_move(), state.hash());
    tree.try_expand(0, &state, 100, &mut Vec::new());
    tree
}

#[test]
fn unvisited_first_then_ucb() {
    let mut tree = tree();
    assert_eq!(select_child(&tree, 0, 1.0), Some(1));
    for child in tree.children(0) {
        let node = tree.node_mut(child);
        node.visits = 10;
        node.value = 5.0;
    }
    tree.node_mut(0).visits = 60;
    tree.node_mut(3).value = 6.0; // the best mean
    assert_eq!(select_child(&tree, 0, 1.0), Some(3));
    tree.node_mut(4).visits = 1; // rarely tried: exploration wins
    tree.node_mut(4).value = 0.4;
    assert_eq!(select_child(&tree, 0, 1.0), Some(4));
    assert_eq!(
        select_child(&tree, 0, 0.0),
        Some(3),
        "no exploration: greedy"
    );
}

#[test]
fn proven_children_are_skipped_and_lost_ones_not_chosen() {
    let mut tree = tree();
    for child in tree.children(0) {
        tree.node_mut(child).visits = 3;
        tree.node_mut(child).proof = Some(Score::win_in(1));
        tree.node_mut(child).side = Side::Second;
    }
    assert_eq!(select_child(&tree, 0, 1.0), None);
    tree.node_mut(2).visits = 1;
    tree.node_mut(5).proof = None;
    tree.node_mut(5).visits = 1;
    assert_eq!(
        most_visited_child(&tree, 0),
        Some(5),
        "the only move not proven lost"
    );
}
