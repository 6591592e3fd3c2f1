//! Selection: which child a descent through the tree takes (UCT, the UCB1 rule on trees), and
//! which line a finished search reports (proven moves where known, else the most visited).
//!
//! Key invariant: proven children are never selected (their value is known, searching them
//! again teaches nothing); a node whose every child is proven is itself proven (see
//! [`super::tree::Tree::update_proof`]), so selection only runs out of children at proven nodes,
//! which a descent never enters.

use super::tree::Tree;
use crate::search::Pv;

/// The child of `index` to descend into: the first unvisited child in order, otherwise the one
/// maximising `mean + exploration * sqrt(ln(parent visits) / child visits)`, the mean being the
/// child's average reward (0..=1) for the side choosing it. Proven children are skipped; `None`
/// when every child is proven (or there is none). Ties go to the earlier child.
#[must_use]
pub(crate) fn select_child<M: Copy>(
    tree: &Tree<M>,
    index: usize,
    exploration: f64,
) -> Option<usize> {
    let parent = tree.node(index);
    let scale = exploration * f64::from(parent.visits.max(1)).ln().sqrt();
    let mut best = None;
    let mut best_value = f64::NEG_INFINITY;
    for child in tree.children(index) {
        let node = tree.node(child);
        if node.proof.is_some() {
            continue;
        }
        if node.visits == 0 {
            return Some(child);
        }
        let visits = f64::from(node.visits);
        let value = node.value / visits + scale / visits.sqrt();
        if value > best_value {
            best_value = value;
            best = Some(child);
        }
    }
    best
}

/// The child of `index` with the most visits among those not proven lost for the side to move
/// at `index` (a proven loss is only chosen when nothing else is left); ties go to the higher
/// mean, then to the earlier child.
#[must_use]
pub(crate) fn most_visited_child<M: Copy>(tree: &Tree<M>, index: usize) -> Option<usize> {
    let side = tree.node(index).side;
    let mut best: Option<(usize, bool, u32, f64)> = None;
    for child in tree.children(index) {
        let node = tree.node(child);
        let safe = !node.proof_for(side).is_some_and(|s| s.is_loss());
        let key = (safe, node.visits, node.mean());
        let better = match best {
            None => true,
            Some((_, s, v, m)) => (key.0 && !s) || (key.0 == s && (key.1, key.2) > (v, m)),
        };
        if better {
            best = Some((child, key.0, key.1, key.2));
        }
    }
    best.map(|(child, ..)| child)
}

/// The line from the root through `child`: then proven moves where the node is proven, the
/// most visited child elsewhere, while the children have been visited.
pub(crate) fn pv_line<M: Copy>(tree: &Tree<M>, child: usize) -> Pv<M> {
    let mut line = Pv::new();
    line.push(tree.node(child).mv.expect("a child has a move"));
    let mut index = child;
    while line.len() < crate::eval::Score::MAX_PLY as usize {
        let node = tree.node(index);
        let next = match node.proof {
            Some(proof) => tree
                .children(index)
                .find(|&c| tree.node(c).proof_for(node.side) == Some(proof)),
            None => most_visited_child(tree, index).filter(|&c| tree.node(c).visits > 0),
        };
        let Some(next) = next else { break };
        line.push(tree.node(next).mv.expect("a child has a move"));
        index = next;
    }
    line
}

#[cfg(test)]
mod tests;
