//! The MCTS tree as an arena: one `Vec` of [`Node`]s, the children of a node stored as one
//! contiguous index range, allocated all at once when the node is expanded (lazily, the first
//! time a search reaches it).
//!
//! Key invariants:
//! - index 0 is the root; a node's children are `first_child..first_child + child_count`, all
//!   created together and never moved (only [`Tree::reroot`] rebuilds the arena, compacting it);
//! - `value` is the sum of the rewards (each in `0..=1`) of the playouts through the node, from
//!   the view of `chooser`, the side to move in the parent, the one that picks this node; the
//!   side to move need not alternate, so every reward is taken by side, never by ply parity;
//! - `proof`, once set, is exact: a decisive score relative to the node (`win_in(d)` = the side
//!   to move here wins in `d` plies from here along the proof found) or a proven draw;
//! - the arena never grows past the node budget given to [`Tree::try_expand`] (the root's own
//!   children excepted, which are always allocated so that a search can answer).

use crate::eval::Score;
use crate::game::{Game, MoveClass, Side};

/// Sentinel for "no child range yet".
const NO_CHILDREN: u32 = u32::MAX;

/// One position of the tree (the state itself is not stored: a search replays the moves from
/// the root).
#[derive(Clone, Debug)]
pub struct Node<M> {
    /// The move that leads here from the parent (`None` for the root).
    pub mv: Option<M>,
    /// The side that plays `mv` (the side to move in the parent).
    pub chooser: Side,
    /// The side to move in this position (known once the node has been visited).
    pub side: Side,
    /// The position's hash (known once the node has been visited), for tree reuse.
    pub hash: u64,
    /// Playouts through this node.
    pub visits: u32,
    /// Sum of their rewards for `chooser`.
    pub value: f64,
    /// The proven value, relative to this node, for `side`.
    pub proof: Option<Score>,
    first_child: u32,
    child_count: u32,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, chooser: Side) -> Node<M> {
        Node {
            mv,
            chooser,
            side: chooser,
            hash: 0,
            visits: 0,
            value: 0.0,
            proof: None,
            first_child: NO_CHILDREN,
            child_count: 0,
        }
    }

    /// Have the children been allocated?
    #[inline]
    #[must_use]
    pub fn is_expanded(&self) -> bool {
        self.first_child != NO_CHILDREN
    }

    /// The index range of the children (empty before expansion or for a finished position).
    #[inline]
    #[must_use]
    pub fn children(&self) -> std::ops::Range<usize> {
        if self.is_expanded() {
            let first = self.first_child as usize;
            first..first + self.child_count as usize
        } else {
            0..0
        }
    }

    /// The mean reward for `chooser` (0.5 before any visit).
    #[inline]
    #[must_use]
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.value / f64::from(self.visits)
        }
    }

    /// The proof seen from `side` one ply above this node (the parent's view), if proven.
    #[inline]
    #[must_use]
    pub fn proof_for(&self, side: Side) -> Option<Score> {
        self.proof
            .map(|score| if side == self.side { score } else { -score }.from_tt(1))
    }
}

/// The arena of nodes.
#[derive(Clone, Debug)]
pub struct Tree<M> {
    nodes: Vec<Node<M>>,
}

impl<M: Copy> Tree<M> {
    /// A tree holding only a root for a position with `side` to move and hash `hash`.
    #[must_use]
    pub fn new(side: Side, hash: u64) -> Tree<M> {
        let mut root = Node::new(None, side.opponent());
        root.side = side;
        root.hash = hash;
        Tree { nodes: vec![root] }
    }

    /// The number of nodes allocated.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The node at `index`.
    #[inline]
    #[must_use]
    pub fn node(&self, index: usize) -> &Node<M> {
        &self.nodes[index]
    }

    /// The index range of the children of `index`.
    #[inline]
    #[must_use]
    pub fn children(&self, index: usize) -> std::ops::Range<usize> {
        self.nodes[index].children()
    }

    /// The node at `index`, mutably.
    #[inline]
    pub fn node_mut(&mut self, index: usize) -> &mut Node<M> {
        &mut self.nodes[index]
    }

    /// Allocates the children of `index`, whose position is `state`, unless that would take
    /// the arena past `budget` nodes (the root is always expanded). Moves that win at once
    /// ([`MoveClass::Win`]) come first so the solver meets them early. `moves` is a scratch
    /// buffer. Returns whether the node is expanded afterwards.
    pub fn try_expand<G: Game<Move = M>>(
        &mut self,
        index: usize,
        state: &G,
        budget: usize,
        moves: &mut Vec<M>,
    ) -> bool {
        if self.nodes[index].is_expanded() {
            return true;
        }
        moves.clear();
        state.generate_moves(moves);
        if index != 0 && self.nodes.len() + moves.len() > budget {
            return false;
        }
        let side = state.side_to_move();
        let first = self.nodes.len();
        for &mv in moves.iter() {
            if state.classify(mv) == MoveClass::Win {
                self.nodes.push(Node::new(Some(mv), side));
            }
        }
        for &mv in moves.iter() {
            if state.classify(mv) != MoveClass::Win {
                self.nodes.push(Node::new(Some(mv), side));
            }
        }
        let node = &mut self.nodes[index];
        node.first_child = u32::try_from(first).expect("tree index fits u32");
        node.child_count = u32::try_from(moves.len()).expect("child count fits u32");
        true
    }

    /// Recomputes the proof of `index` from its children: proven when a child is a proven win
    /// for the side to move here (the fastest such win), or when every child is proven (the
    /// best of them). Returns whether the node is proven afterwards.
    pub fn update_proof(&mut self, index: usize) -> bool {
        let node = &self.nodes[index];
        if node.proof.is_some() {
            return true;
        }
        let side = node.side;
        let mut best: Option<Score> = None;
        let mut all_proven = true;
        for child in node.children() {
            match self.nodes[child].proof_for(side) {
                Some(score) => best = Some(best.map_or(score, |b| b.max(score))),
                None => all_proven = false,
            }
        }
        let proof = match best {
            Some(score) if score.is_win() || all_proven => Some(score),
            _ => None,
        };
        if node.children().is_empty() {
            return false;
        }
        self.nodes[index].proof = proof;
        proof.is_some()
    }

    /// Keeps only the subtree under `index`, which becomes the root; the arena is rebuilt
    /// breadth first, so children ranges stay contiguous and the freed space is reclaimed.
    pub fn reroot(&mut self, index: usize) {
        if index == 0 {
            return;
        }
        let mut kept: Vec<Node<M>> = Vec::with_capacity(self.nodes.len());
        let mut origin: Vec<usize> = Vec::with_capacity(self.nodes.len());
        let mut root = self.nodes[index].clone();
        root.mv = None;
        kept.push(root);
        origin.push(index);
        let mut next = 0;
        while next < kept.len() {
            let old = &self.nodes[origin[next]];
            if old.is_expanded() {
                let range = old.children();
                kept[next].first_child = u32::try_from(kept.len()).expect("tree index fits u32");
                for child in range {
                    kept.push(self.nodes[child].clone());
                    origin.push(child);
                }
            }
            next += 1;
        }
        self.nodes = kept;
    }

    /// The index of the node whose position has hash `hash`, searching the visited nodes at
    /// most `max_depth` plies below the root breadth first (so the shallowest match wins, not a
    /// transposition deeper in an earlier subtree), with the moves that lead there; the caller
    /// confirms the match by replaying them.
    #[must_use]
    pub fn find(&self, hash: u64, max_depth: usize) -> Option<(usize, Vec<M>)> {
        // (node, entry of its parent in `seen`, depth)
        let mut seen: Vec<(usize, usize, usize)> = vec![(0, usize::MAX, 0)];
        let mut next = 0;
        while next < seen.len() {
            let (index, _, depth) = seen[next];
            let node = &self.nodes[index];
            if node.hash == hash && node.visits > 0 {
                let mut path = Vec::new();
                let mut entry = next;
                while entry != 0 {
                    let (index, parent, _) = seen[entry];
                    path.push(self.nodes[index].mv.expect("a child has a move"));
                    entry = parent;
                }
                path.reverse();
                return Some((index, path));
            }
            if depth < max_depth {
                for child in node.children() {
                    if self.nodes[child].visits > 0 {
                        seen.push((child, next, depth + 1));
                    }
                }
            }
            next += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests;
