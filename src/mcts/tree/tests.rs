//! Unit tests of `crate::mcts::tree` ([`super`]).
//!
//! Key invariant: each test builds its own inputs, so the tests run in any order and in
//! parallel.

use super::*;
use crate::testing::TwoPiles;

#[test]
fn expansion_is_contiguous_wins_first_and_respects_the_budget() {
    let state = TwoPiles::new(2, 0, Side::First);
    let mut tree = Tree::new(state.side_to_move(), state.hash());
    let mut moves = Vec::new();
    assert!(
        tree.try_expand(0, &state, 1, &mut moves),
        "the root is always expanded"
    );
    assert_eq!(tree.children(0), 1..3);
    // a2 empties both piles: a win, listed first although generated second.
    assert_eq!(tree.node(1).mv.unwrap().count, 2);
    let child = state.play(tree.node(2).mv.unwrap());
    assert!(!tree.try_expand(2, &child, 3, &mut moves), "over budget");
    assert!(!tree.node(2).is_expanded());
    assert!(tree.try_expand(2, &child, 4, &mut moves));
    assert_eq!(tree.len(), 4);
}

#[test]
fn proofs_convert_by_side_not_by_parity() {
    let state = TwoPiles::new(3, 0, Side::First);
    let mut tree = Tree::new(state.side_to_move(), state.hash());
    let mut moves = Vec::new();
    tree.try_expand(0, &state, 100, &mut moves);
    // Children: a3 (win), a1, a2. Mark a2's child as "side First to move, wins in 1".
    let a2 = tree
        .children(0)
        .find(|&c| tree.node(c).mv.unwrap().count == 2)
        .unwrap();
    tree.node_mut(a2).side = Side::First; // extra turn: same side moves again
    tree.node_mut(a2).proof = Some(Score::win_in(1));
    assert!(tree.update_proof(0));
    assert_eq!(tree.node(0).proof, Some(Score::win_in(2)));
    // Had the side changed, the same proof would be a loss for the root's mover.
    let mut other = Tree::new(state.side_to_move(), state.hash());
    other.try_expand(0, &state, 100, &mut moves);
    other.node_mut(a2).side = Side::Second;
    other.node_mut(a2).proof = Some(Score::win_in(1));
    assert!(!other.update_proof(0), "one lost child, the others unknown");
}
