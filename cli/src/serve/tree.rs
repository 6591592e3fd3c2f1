//! The moves of one game of the web page as a tree: the start position at the root, each other
//! node a move played from its parent, its children in order (the first the main continuation,
//! the later ones variations). It writes itself as one text, PGN-style (`a b (c d (e) f) g`:
//! each variation in parentheses right after the move it replaces), and reads that text back.
//!
//! Key invariants: node ids are indexes that are never reused (a removed node's slot stays
//! empty), so an id held elsewhere (a running search's) names its node or none; the root,
//! [`ROOT`], is never removed; a node's parent, move, position and repetition verdict never
//! change after it is made (only its children's order and its score do), so its verdict,
//! taken over the positions from the root to it, stays right; no two children of a node have
//! the same move. Every walk over the tree is a loop, not a recursion, so a deep tree or a
//! deeply nested text cannot overflow the stack. It converts to and from a record's tree
//! ([`RecordTree`]) keeping every move and the order of every node's children.

use plies::{GameHistory, Notation, Outcome, RecordTree};
use serde_json::Value;

use super::edit_error::EditError;
use crate::text::outcome_text;

/// A node's id.
pub(super) type NodeId = usize;

/// The start position's node.
pub(super) const ROOT: NodeId = 0;

/// One position of the tree.
pub(super) struct Node<G: Notation> {
    /// The node it was played from (`None` at the root).
    pub parent: Option<NodeId>,
    /// The move from the parent (`None` at the root).
    pub mv: Option<G::Move>,
    /// The move's text in the game's notation (empty at the root).
    pub text: String,
    /// The position after the move.
    pub position: G,
    /// The repetition rule's verdict on the position, over the positions from the root to it.
    pub repetition: Option<Outcome>,
    /// The engine's last score of the position, from the first player's view (for the graph).
    pub score: Option<Value>,
    /// The moves played from it, the main continuation first.
    pub children: Vec<NodeId>,
    /// Moves from the root to it.
    pub ply: usize,
}

impl<G: Notation> Node<G> {
    /// The result of the game at this node, if it is over there.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome().or(self.repetition)
    }
}

/// The tree (see the module docs).
pub(super) struct MoveTree<G: Notation> {
    nodes: Vec<Option<Node<G>>>,
}

impl<G: Notation> MoveTree<G> {
    /// A tree holding only `start`.
    pub fn new(start: G) -> MoveTree<G> {
        MoveTree {
            nodes: vec![Some(Node {
                parent: None,
                mv: None,
                text: String::new(),
                position: start,
                repetition: None,
                score: None,
                children: Vec::new(),
                ply: 0,
            })],
        }
    }

    /// The node `id`, if it is in the tree.
    pub fn get(&self, id: NodeId) -> Option<&Node<G>> {
        self.nodes.get(id).and_then(Option::as_ref)
    }

    /// The node `id`.
    ///
    /// # Errors
    /// No such node (one line naming it).
    pub fn node(&self, id: NodeId) -> Result<&Node<G>, EditError> {
        self.get(id).ok_or(EditError::NoSuchNode(id))
    }

    /// The node `id`, which the caller knows is in the tree (the root, the node shown).
    pub fn at(&self, id: NodeId) -> &Node<G> {
        self.get(id)
            .expect("a node the session holds is in the tree")
    }

    fn at_mut(&mut self, id: NodeId) -> &mut Node<G> {
        self.nodes[id]
            .as_mut()
            .expect("a node the session holds is in the tree")
    }

    /// Records `score` (JSON, for the graph) on the node `id` if it is still in the tree.
    pub fn set_score(&mut self, id: NodeId, score: Value) {
        if let Some(Some(node)) = self.nodes.get_mut(id) {
            node.score = Some(score);
        }
    }

    /// The nodes from the root to `id`, both included.
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = vec![id];
        let mut at = id;
        while let Some(parent) = self.at(at).parent {
            path.push(parent);
            at = parent;
        }
        path.reverse();
        path
    }

    /// Is `ancestor` on the path from the root to `id` (`id` itself included)? Either may be
    /// a removed node's id (a running search's): then the path stops where the tree does.
    pub fn is_on_path(&self, ancestor: NodeId, id: NodeId) -> bool {
        let mut at = Some(id);
        while let Some(node) = at {
            if node == ancestor {
                return true;
            }
            at = self.get(node).and_then(|node| node.parent);
        }
        false
    }

    /// The line through `tip`: the path from the root to it, then on along first children.
    pub fn line(&self, tip: NodeId) -> Vec<NodeId> {
        let mut line = self.path(tip);
        let mut at = tip;
        while let Some(&first) = self.at(at).children.first() {
            line.push(first);
            at = first;
        }
        line
    }

    /// Is `line` (from the root) the main line, every node on it a first child?
    pub fn is_main(&self, line: &[NodeId]) -> bool {
        line.windows(2)
            .all(|pair| self.at(pair[0]).children.first() == Some(&pair[1]))
    }

    /// The positions from the root to `id`, for the repetition rule and searches.
    pub fn history(&self, id: NodeId) -> GameHistory {
        GameHistory::from_hashes(
            self.path(id)
                .iter()
                .map(|&node| plies::Game::hash(&self.at(node).position))
                .collect(),
        )
    }

    /// Plays the legal move `mv` at `at`: its child with that move if it has one, otherwise a
    /// new child, last among its siblings.
    pub fn play(&mut self, at: NodeId, mv: G::Move) -> NodeId {
        if let Some(&child) = self
            .at(at)
            .children
            .iter()
            .find(|&&child| self.at(child).mv == Some(mv))
        {
            return child;
        }
        let before = self.at(at);
        let mover = before.position.side_to_move();
        let text = before.position.format_move(mv);
        let after = before.position.play(mv);
        let ply = before.ply + 1;
        // The path's positions only where the rule counts them (a long line loads in linear time).
        let repetition = if plies::Game::has_repetition_rule(&after) {
            self.history(at).play(mover, &after)
        } else {
            None
        };
        let id = self.nodes.len();
        self.nodes.push(Some(Node {
            parent: Some(at),
            mv: Some(mv),
            text,
            position: after,
            repetition,
            score: None,
            children: Vec::new(),
            ply,
        }));
        self.at_mut(at).children.push(id);
        id
    }

    /// [`MoveTree::play`], unless the game is over at `at`.
    ///
    /// # Errors
    /// The game is over there (a repetition can end a game the position alone does not show
    /// as over).
    pub fn play_checked(&mut self, at: NodeId, mv: G::Move) -> Result<NodeId, EditError> {
        let node = self.at(at);
        if let Some(outcome) = node.outcome() {
            return Err(EditError::AfterEnd {
                mv: node.position.format_move(mv),
                outcome: outcome_text::<G>(outcome),
            });
        }
        Ok(self.play(at, mv))
    }

    /// Makes the line through `id` the main line: from `id` up to the root, each node on the
    /// path moves to the first place among its siblings (the others keep their order).
    ///
    /// # Errors
    /// No such node, or the root (it has no siblings to go before).
    pub fn promote(&mut self, id: NodeId) -> Result<(), EditError> {
        self.node(id)?;
        if id == ROOT {
            return Err(EditError::Start {
                id,
                action: "promoted",
            });
        }
        let mut at = id;
        while let Some(parent) = self.at(at).parent {
            let children = &mut self.at_mut(parent).children;
            if let Some(place) = children.iter().position(|&child| child == at) {
                children[..=place].rotate_right(1);
            }
            at = parent;
        }
        Ok(())
    }

    /// Removes `id` and every node after it; returns the parent it hung from.
    ///
    /// # Errors
    /// No such node, or the root.
    pub fn remove(&mut self, id: NodeId) -> Result<NodeId, EditError> {
        let parent = self.node(id)?.parent.ok_or(EditError::Start {
            id,
            action: "deleted",
        })?;
        self.at_mut(parent).children.retain(|&child| child != id);
        let mut doomed = vec![id];
        while let Some(node) = doomed.pop() {
            if let Some(gone) = self.nodes[node].take() {
                doomed.extend(gone.children);
            }
        }
        Ok(parent)
    }

    /// The tree as a record's tree: the same moves, every node's children in the same order.
    pub fn to_record(&self) -> RecordTree<G::Move> {
        let mut record = RecordTree::new();
        // Each node's id in `record`, by its id here (a preorder meets a parent first).
        let mut ids = vec![RecordTree::<G::Move>::ROOT; self.nodes.len()];
        for id in self.preorder() {
            let node = self.at(id);
            if let (Some(parent), Some(mv)) = (node.parent, node.mv) {
                ids[id] = record.add(ids[parent], mv);
            }
        }
        record
    }

    /// Adds the moves of `record` (a record's tree, its moves legal where they are played)
    /// from the root, every node's children in the record's order after those the tree has;
    /// moves already in the tree are followed, not added again. Returns the node of the end of
    /// the record's main line.
    ///
    /// # Errors
    /// A move comes after the game is over (one line naming it).
    pub fn read_record(&mut self, record: &RecordTree<G::Move>) -> Result<NodeId, EditError> {
        // Each record node's id here, by its id there (a record's parent comes first).
        let mut ids = Vec::with_capacity(record.node_count());
        for id in 0..record.node_count() {
            let at = match (record.parent(id), record.mv(id)) {
                (Some(parent), Some(mv)) => self.play_checked(ids[parent], mv)?,
                _ => ROOT,
            };
            ids.push(at);
        }
        let mut end = RecordTree::<G::Move>::ROOT;
        while let Some(&first) = record.children(end).first() {
            end = first;
        }
        Ok(ids[end])
    }

    /// Every node, the root first, each before its children, children in order.
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut order = Vec::new();
        let mut stack = vec![ROOT];
        while let Some(id) = stack.pop() {
            order.push(id);
            stack.extend(self.at(id).children.iter().rev());
        }
        order
    }

    /// The tree as one text: the main line's moves separated by spaces, each variation in
    /// parentheses right after the move it replaces (`a b (c d (e) f) g`: `c` is the second
    /// child of `b`'s parent, `e` the second of `d`'s).
    pub fn write_text(&self) -> String {
        /// What is left to write.
        enum Work {
            /// The moves after a node: its first child, its other children as variations,
            /// then what follows the first child.
            After(NodeId),
            /// A variation: `(`, its move, what follows it.
            Open(NodeId),
            /// The end of a variation.
            Close,
        }
        let mut text = String::new();
        let word = |text: &mut String, piece: &str| {
            if !text.is_empty() && !text.ends_with('(') {
                text.push(' ');
            }
            text.push_str(piece);
        };
        let mut work = vec![Work::After(ROOT)];
        while let Some(next) = work.pop() {
            match next {
                Work::After(id) => {
                    let children = &self.at(id).children;
                    let Some((&first, variations)) = children.split_first() else {
                        continue;
                    };
                    word(&mut text, &self.at(first).text);
                    work.push(Work::After(first));
                    for &variation in variations.iter().rev() {
                        work.push(Work::Close);
                        work.push(Work::After(variation));
                        work.push(Work::Open(variation));
                    }
                }
                Work::Open(id) => {
                    word(&mut text, "(");
                    text.push_str(&self.at(id).text);
                }
                Work::Close => text.push(')'),
            }
        }
        text
    }

    /// Adds the moves of `text`, a tree as [`MoveTree::write_text`] writes it, from the root:
    /// each stretch between parentheses is a line of moves ([`Notation::parse_line`]) played
    /// on from the move before it, a variation from the position before the move it follows.
    /// Moves already in the tree are followed, not added again. Returns the last node of the
    /// text's main line.
    ///
    /// # Errors
    /// Unbalanced parentheses, a variation before any move or an empty one, a bad move, a
    /// move after the game is over (one line, `bad moves: ...`).
    pub fn read_text(&mut self, text: &str) -> Result<NodeId, EditError> {
        /// Where the next move goes: after `at`; `last` is the move played last at this level
        /// (a variation replaces it), if any.
        #[derive(Clone, Copy)]
        struct Place {
            at: NodeId,
            last: Option<NodeId>,
        }
        let mut place = Place {
            at: ROOT,
            last: None,
        };
        let mut open: Vec<Place> = Vec::new();
        let mut segment = String::new();
        let mut segment_start = 0;
        // A `)` after the end closes the text's main line.
        let end = text.chars().count();
        for (index, c) in text.chars().chain(std::iter::once(')')).enumerate() {
            if c != '(' && c != ')' {
                segment.push(c);
                continue;
            }
            if let Some(last) = self.read_segment(place.at, &segment, segment_start)? {
                place = Place {
                    at: last,
                    last: Some(last),
                };
            }
            segment.clear();
            segment_start = index + 1;
            let character = index + 1;
            if index == end {
                if !open.is_empty() {
                    return Err(moves_error(0, EditError::Unclosed));
                }
            } else if c == '(' {
                let Some(last) = place.last else {
                    return Err(moves_error(0, EditError::VariationFirst(character)));
                };
                open.push(place);
                let at = self.at(last).parent.unwrap_or(ROOT);
                place = Place { at, last: None };
            } else {
                let Some(outer) = open.pop() else {
                    return Err(moves_error(0, EditError::ClosesNothing(character)));
                };
                if place.last.is_none() {
                    return Err(moves_error(0, EditError::EmptyVariation(character)));
                }
                place = outer;
            }
        }
        Ok(place.at)
    }

    /// Plays the line of moves `segment` (which starts at character `start` of the whole
    /// text, counted from 0) from `at`; returns the node of its last move, if it has any.
    fn read_segment(
        &mut self,
        at: NodeId,
        segment: &str,
        start: usize,
    ) -> Result<Option<NodeId>, EditError> {
        let from = if start == 0 { 0 } else { start + 1 };
        let bad = |error: EditError| moves_error(from, error);
        let moves = self
            .at(at)
            .position
            .parse_line(segment)
            .map_err(|e| bad(EditError::BadLine(e.to_string())))?;
        let mut last = None;
        let mut at = at;
        for mv in moves {
            at = self.play_checked(at, mv).map_err(bad)?;
            last = Some(at);
        }
        Ok(last)
    }
}

/// `error` in a tree of moves, in the stretch from character `from` (counted from 1; 0 for the
/// text's start).
fn moves_error(from: usize, error: EditError) -> EditError {
    EditError::Moves {
        from,
        error: Box::new(error),
    }
}
