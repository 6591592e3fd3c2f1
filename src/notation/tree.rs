//! A game-independent tree of moves for records with variations ([`RecordTree`]): the start
//! position at the root, every other node a move played from its parent, a node's children in
//! order, the first the main continuation and the others variations. Formats that have
//! variations (SGF) write and read it through [`super::Notation::write_record_tree`] and
//! [`super::Notation::read_record_tree`]; the others keep its main line.
//!
//! Key invariants: nodes live in one vector, the root at [`RecordTree::ROOT`], each node's id
//! larger than its parent's (ids count up in the order nodes are added, so a walk in id order
//! meets every parent before its children and siblings in their order); no two children of a
//! node have the same move. Nothing here recurses, so a deep tree neither overflows the stack
//! when walked nor when dropped.

/// A tree of moves played from a record's start position (see the module docs). Only the
/// moves are kept: which are legal is for the game that reads or writes it. Two trees are
/// equal when they hold the same moves in the same order, whatever their nodes' ids.
#[derive(Clone, Debug)]
pub struct RecordTree<M> {
    nodes: Vec<RecordNode<M>>,
}

/// One node: its parent and the move from it (none at the root) and its children.
#[derive(Clone, Debug)]
struct RecordNode<M> {
    from: Option<(usize, M)>,
    children: Vec<usize>,
}

/// One step of [`RecordTree::walk`], the order in which SGF writes a tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RecordStep {
    /// The move of this node, played from the position the steps before it reached.
    Move(usize),
    /// A variation begins: the moves up to its [`RecordStep::Close`] are played from the
    /// position reached before it (a branch point: a node with several children).
    Open,
    /// The variation ends: the position is the branch point's again.
    Close,
}

impl<M: Copy + Eq> Default for RecordTree<M> {
    fn default() -> Self {
        RecordTree::new()
    }
}

impl<M: Copy + Eq> PartialEq for RecordTree<M> {
    fn eq(&self, other: &Self) -> bool {
        let mut pairs = vec![(Self::ROOT, Self::ROOT)];
        while let Some((mine, theirs)) = pairs.pop() {
            let (mine, theirs) = (self.children(mine), other.children(theirs));
            if mine.len() != theirs.len() {
                return false;
            }
            for (&a, &b) in mine.iter().zip(theirs) {
                if self.mv(a) != other.mv(b) {
                    return false;
                }
                pairs.push((a, b));
            }
        }
        true
    }
}

impl<M: Copy + Eq> Eq for RecordTree<M> {}

impl<M: Copy + Eq> RecordTree<M> {
    /// The root's id: the start position, with no move.
    pub const ROOT: usize = 0;

    /// A tree holding only the start.
    #[must_use]
    pub fn new() -> RecordTree<M> {
        RecordTree {
            nodes: vec![RecordNode {
                from: None,
                children: Vec::new(),
            }],
        }
    }

    /// A tree of one line of moves, without variations.
    #[must_use]
    pub fn from_line(moves: &[M]) -> RecordTree<M> {
        let mut tree = RecordTree::new();
        let mut at = Self::ROOT;
        for &mv in moves {
            at = tree.add(at, mv);
        }
        tree
    }

    /// Adds `mv` played at the node `parent`: its child with that move if it has one, else a
    /// new child, last among its siblings. Returns the child's id.
    ///
    /// # Panics
    /// `parent` is not a node of this tree.
    pub fn add(&mut self, parent: usize, mv: M) -> usize {
        if let Some(&child) = self.nodes[parent]
            .children
            .iter()
            .find(|&&child| self.mv(child) == Some(mv))
        {
            return child;
        }
        let id = self.nodes.len();
        self.nodes.push(RecordNode {
            from: Some((parent, mv)),
            children: Vec::new(),
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// How many nodes the tree has, the root included (ids are `0..node_count()`).
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The node `id`'s parent (`None` at the root).
    ///
    /// # Panics
    /// `id` is not a node of this tree.
    #[must_use]
    pub fn parent(&self, id: usize) -> Option<usize> {
        self.nodes[id].from.map(|(parent, _)| parent)
    }

    /// The move that leads to node `id` from its parent (`None` at the root).
    ///
    /// # Panics
    /// `id` is not a node of this tree.
    #[must_use]
    pub fn mv(&self, id: usize) -> Option<M> {
        self.nodes[id].from.map(|(_, mv)| mv)
    }

    /// The node `id`'s children, the main continuation first.
    ///
    /// # Panics
    /// `id` is not a node of this tree.
    #[must_use]
    pub fn children(&self, id: usize) -> &[usize] {
        &self.nodes[id].children
    }

    /// The main line: the moves from the root along first children.
    #[must_use]
    pub fn main_line(&self) -> Vec<M> {
        let mut moves = Vec::new();
        let mut at = Self::ROOT;
        while let Some(&first) = self.children(at).first() {
            moves.extend(self.mv(first));
            at = first;
        }
        moves
    }

    /// Does any node have more than one child?
    #[must_use]
    pub fn has_variations(&self) -> bool {
        self.nodes.iter().any(|node| node.children.len() > 1)
    }

    /// The tree in SGF's order: from the root, a node's only child follows it directly; at a
    /// branch point every child, the main continuation first, goes in a variation of its own
    /// ([`RecordStep::Open`], its move, what follows it, [`RecordStep::Close`]). A tree
    /// without variations is its main line's moves in order.
    #[must_use]
    pub fn walk(&self) -> Vec<RecordStep> {
        /// What is left to walk: after a node, or a variation from its first move.
        enum Work {
            After(usize),
            Variation(usize),
            Close,
        }
        let mut steps = Vec::with_capacity(self.nodes.len());
        let mut work = vec![Work::After(Self::ROOT)];
        while let Some(next) = work.pop() {
            match next {
                Work::After(id) => match self.children(id) {
                    [] => {}
                    &[only] => {
                        steps.push(RecordStep::Move(only));
                        work.push(Work::After(only));
                    }
                    children => {
                        for &child in children.iter().rev() {
                            work.push(Work::Close);
                            work.push(Work::Variation(child));
                        }
                    }
                },
                Work::Variation(id) => {
                    steps.push(RecordStep::Open);
                    steps.push(RecordStep::Move(id));
                    work.push(Work::After(id));
                }
                Work::Close => steps.push(RecordStep::Close),
            }
        }
        steps
    }
}
