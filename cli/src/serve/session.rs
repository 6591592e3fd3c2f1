//! One game of the web page (a browser tab): the tree of moves played from its start
//! ([`super::tree`]), the current line through it and the position shown on that line (the
//! move list navigates), the engine's scores on the nodes, and the search running on it, if
//! any, whose iterations go to the tab's event stream.
//!
//! The current line is the path from the root to the `tip` node, then on along first children
//! to a leaf; the node shown is on it. A move played at the node shown goes to its child with
//! that move if it has one, otherwise to a new child (last among its siblings), and that child
//! is shown and becomes the tip.
//!
//! Key invariants: the node shown and the tip are in the tree and the node shown is on the
//! current line (every change that removes or reorders nodes restores this); the history a
//! search gets and the repetition rule counts is the positions from the root to the node
//! shown; at most one search runs per game, and it names the node it searches (its score goes
//! to that node, if the node is still there when it ends); every change of the tree, the line
//! or the node shown bumps `generation`, so an engine search that finishes after the user
//! moved on never plays its move into a position it did not search.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use plies::search::{Iteration, SearchResult};
use plies::{GameHistory, Notation, Outcome, RecordTree, Score, Side};
use plies_view::{Picture, View, side_key};
use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::edit_error::EditError;
use super::tree::{MoveTree, NodeId, ROOT};
use crate::store::games::GameRow;
use crate::store::now_ms;
use crate::text::{outcome_text, score_for};

/// Events buffered per game for a slow event-stream reader before the oldest are dropped.
const EVENT_BUFFER: usize = 256;

/// A search running on a game.
pub(super) struct Running {
    /// Raised to stop it.
    pub stop: Arc<AtomicBool>,
    /// `engine` (it plays its move when done) or `analysis`.
    pub kind: &'static str,
    /// Its number in this game (1, 2, ...).
    pub id: u64,
    /// The node it searches.
    pub node: NodeId,
}

/// One game.
pub(super) struct Session<G: Notation> {
    tree: MoveTree<G>,
    /// The node the current line passes through (see the module docs).
    tip: NodeId,
    shown: NodeId,
    pub generation: u64,
    pub running: Option<Running>,
    /// Searches started so far.
    searches: u64,
    /// The nodes the engine played, with who played them (`pvs, 1000 ms a move`); every other
    /// move was a person's at the page.
    engine_moves: HashMap<NodeId, String>,
    /// The nodes where a finished game was recorded in the store (each at most once).
    recorded: HashSet<NodeId>,
    events: broadcast::Sender<String>,
    pub touched: Instant,
}

impl<G: View> Session<G> {
    /// A game from `start`.
    pub fn new(start: G) -> Session<G> {
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        Session {
            tree: MoveTree::new(start),
            tip: ROOT,
            shown: ROOT,
            generation: 0,
            running: None,
            searches: 0,
            engine_moves: HashMap::new(),
            recorded: HashSet::new(),
            events,
            touched: Instant::now(),
        }
    }

    /// The position shown.
    pub fn shown(&self) -> &G {
        &self.tree.at(self.shown).position
    }

    /// The node shown.
    pub fn shown_node(&self) -> NodeId {
        self.shown
    }

    /// The result of the position shown, if the game is over there.
    pub fn outcome(&self) -> Option<Outcome> {
        self.tree.at(self.shown).outcome()
    }

    /// The positions from the start to the one shown, for the repetition rule.
    pub fn history(&self) -> GameHistory {
        self.tree.history(self.shown)
    }

    /// The current line, from the root.
    fn line(&self) -> Vec<NodeId> {
        self.tree.line(self.tip)
    }

    fn changed(&mut self) {
        self.generation += 1;
        self.touched = Instant::now();
    }

    /// Shows `node` (in the tree): it becomes the tip unless it is on the current line.
    fn show(&mut self, node: NodeId) {
        if !self.line().contains(&node) {
            self.tip = node;
        }
        self.shown = node;
        self.changed();
    }

    /// Plays `text` (a move in the game's notation) at the node shown (see the module docs).
    ///
    /// # Errors
    /// The game is over there, or the move does not parse or is illegal (one line).
    pub fn play_text(&mut self, text: &str) -> Result<(), EditError> {
        let moves = self
            .parse_texts(std::slice::from_ref(&text))
            .map_err(|(_, e)| e)?;
        self.play_all(&moves)
    }

    /// Plays `texts` (moves in the game's notation) one after the other from the node shown,
    /// all or none.
    ///
    /// # Errors
    /// One of them comes after the game is over, or does not parse or is illegal (one line
    /// naming it); nothing is played then.
    pub fn play_texts(&mut self, texts: &[&str]) -> Result<(), EditError> {
        let moves = self
            .parse_texts(texts)
            .map_err(|(number, e)| e.numbered(number))?;
        self.play_all(&moves)
    }

    /// The moves `texts` played in turn from the node shown.
    ///
    /// # Errors
    /// The number (from 1) of the first that comes after the game is over, or does not parse
    /// or is illegal, and why.
    fn parse_texts(&self, texts: &[&str]) -> Result<Vec<G::Move>, (usize, EditError)> {
        let mut state = self.shown().clone();
        let mut history = self.history();
        let mut repetition = self.tree.at(self.shown).repetition;
        let mut moves = Vec::with_capacity(texts.len());
        for (index, text) in texts.iter().enumerate() {
            if let Some(outcome) = state.outcome().or(repetition) {
                let over = EditError::Over(outcome_text::<G>(outcome));
                return Err((index + 1, over));
            }
            let mv = state
                .parse_move(text.trim())
                .map_err(|e| (index + 1, EditError::BadMove(e.to_string())))?;
            let after = state.play(mv);
            repetition = history.play(state.side_to_move(), &after);
            state = after;
            moves.push(mv);
        }
        Ok(moves)
    }

    /// Plays `moves` (legal in turn) at the position shown, as a record loaded.
    ///
    /// # Errors
    /// A move comes after the game is over (a repetition can end a game the position alone
    /// does not show as over).
    pub fn play_all(&mut self, moves: &[G::Move]) -> Result<(), EditError> {
        for (number, &mv) in moves.iter().enumerate() {
            if let Some(outcome) = self.outcome() {
                let over = EditError::AlreadyOver(outcome_text::<G>(outcome));
                return Err(over.numbered(number + 1));
            }
            self.play(mv);
        }
        Ok(())
    }

    /// Adds the tree of moves `text` (as the game's `tree_text` writes it) from the start and
    /// shows the end of its main line.
    ///
    /// # Errors
    /// A bad tree text (one line, `bad moves: ...`).
    pub fn read_tree(&mut self, text: &str) -> Result<(), EditError> {
        let end = self.tree.read_text(text)?;
        self.tip = ROOT;
        self.shown = end;
        self.changed();
        Ok(())
    }

    /// Makes the line of `moves` from the start the current line (adding the moves the tree
    /// lacks) and shows the end of the current line.
    ///
    /// # Errors
    /// A move comes after the game is over.
    pub fn follow(&mut self, moves: &[G::Move]) -> Result<(), EditError> {
        let mut at = ROOT;
        for &mv in moves {
            at = self
                .tree
                .play_checked(at, mv)
                .map_err(|e| EditError::Line(Box::new(e)))?;
        }
        self.tip = at;
        self.shown = *self.line().last().unwrap_or(&ROOT);
        self.changed();
        Ok(())
    }

    /// Adds the tree of moves `record` (a record read, [`Notation::read_record_tree`]) from
    /// the start and shows the end of its main line.
    ///
    /// # Errors
    /// A move comes after the game is over (one line, `bad record: ...`).
    pub fn read_record(&mut self, record: &RecordTree<G::Move>) -> Result<(), EditError> {
        let end = self
            .tree
            .read_record(record)
            .map_err(|e| EditError::Record(Box::new(e)))?;
        self.tip = ROOT;
        self.shown = end;
        self.changed();
        Ok(())
    }

    /// The whole tree (whatever is shown) in the game's record format
    /// ([`Notation::write_record_tree`]): the main line, and the variations where the format
    /// has them.
    pub fn record(&self) -> String {
        let root = &self.tree.at(ROOT).position;
        root.write_record_tree(&self.tree.to_record())
    }

    /// Plays the legal move `mv` at the node shown (see the module docs).
    pub fn play(&mut self, mv: G::Move) {
        let child = self.tree.play(self.shown, mv);
        self.tip = child;
        self.shown = child;
        self.changed();
    }

    /// Plays the engine's move `mv` at the node shown, as [`Session::play`], and notes who
    /// played it (`engine`: its searcher and time) for the game's record.
    pub fn play_by_engine(&mut self, mv: G::Move, engine: String) {
        self.play(mv);
        self.engine_moves.insert(self.shown, engine);
    }

    /// The game that ended at the node shown, as the position store records it (`game`: the
    /// program's name), unless the game is not over there or was recorded already; it counts
    /// as recorded from now on. Its players are per side `page` (a person at the page), the
    /// engine that played every move of the side, or `page and engine`.
    pub fn finished_game(&mut self, game: &str) -> Option<GameRow> {
        let node = self.tree.at(self.shown);
        let result = node.outcome()?;
        if !self.recorded.insert(self.shown) {
            return None;
        }
        let termination = if node.position.outcome().is_some() {
            "rules"
        } else {
            "repetition"
        };
        let path = self.tree.path(self.shown);
        let mut players: [Option<String>; 2] = [None, None];
        for &id in &path[1..] {
            let parent = self.tree.at(id).parent.unwrap_or(ROOT);
            let side = self.tree.at(parent).position.side_to_move();
            let who = self
                .engine_moves
                .get(&id)
                .cloned()
                .unwrap_or_else(|| "page".to_string());
            let player = &mut players[side.index()];
            *player = match player.take() {
                None => Some(who),
                Some(known) if known == who => Some(known),
                Some(_) => Some("page and engine".to_string()),
            };
        }
        Some(GameRow {
            game: game.to_string(),
            variant: game.to_string(),
            start: self.tree.at(ROOT).position.format_position(),
            players: players.map(|p| p.unwrap_or_else(|| "page".to_string())),
            settings: "page".to_string(),
            result,
            termination: termination.to_string(),
            moves: path[1..]
                .iter()
                .map(|&id| self.tree.at(id).text.clone())
                .collect(),
            source: "page".to_string(),
            played: now_ms(),
        })
    }

    /// Takes back the last move of the current line (removes its leaf) and shows the new end
    /// of the current line.
    ///
    /// # Errors
    /// No move to take back.
    pub fn undo(&mut self) -> Result<(), EditError> {
        let line = self.line();
        let &leaf = line.last().unwrap_or(&ROOT);
        if leaf == ROOT {
            return Err(EditError::NothingToUndo);
        }
        self.remove(leaf)?;
        self.shown = *self.line().last().unwrap_or(&ROOT);
        Ok(())
    }

    /// Removes `node` and every node after it (stopping an analysis of one of them); the node
    /// shown and the tip, if removed, become its parent.
    ///
    /// # Errors
    /// No such node, or the start.
    pub fn remove(&mut self, node: NodeId) -> Result<(), EditError> {
        let was_shown = self.tree.is_on_path(node, self.shown);
        let was_tip = self.tree.is_on_path(node, self.tip);
        let searched = self
            .running
            .as_ref()
            .filter(|running| self.tree.is_on_path(node, running.node))
            .map(|running| Arc::clone(&running.stop));
        let parent = self.tree.remove(node)?;
        if let Some(stop) = searched {
            stop.store(true, Ordering::Relaxed);
        }
        if was_tip {
            self.tip = parent;
        }
        if was_shown {
            self.shown = parent;
        }
        self.changed();
        Ok(())
    }

    /// Makes the line through `node` the main line; the current line and the node shown stay.
    ///
    /// # Errors
    /// No such node, or the start.
    pub fn promote(&mut self, node: NodeId) -> Result<(), EditError> {
        self.tree.node(node)?;
        // Pin the current line to its end: reordering children below the tip must not move it.
        let end = *self.line().last().unwrap_or(&ROOT);
        self.tree.promote(node)?;
        self.tip = end;
        self.changed();
        Ok(())
    }

    /// Shows the position after `ply` moves of the current line.
    ///
    /// # Errors
    /// `ply` is beyond the line.
    pub fn goto(&mut self, ply: usize) -> Result<(), EditError> {
        let line = self.line();
        let Some(&node) = line.get(ply) else {
            return Err(EditError::BadPly {
                ply,
                moves: line.len() - 1,
            });
        };
        self.shown = node;
        self.changed();
        Ok(())
    }

    /// Shows `node`; off the current line, it becomes the tip (the current line passes
    /// through it).
    ///
    /// # Errors
    /// No such node.
    pub fn goto_node(&mut self, node: NodeId) -> Result<(), EditError> {
        self.tree.node(node)?;
        self.show(node);
        Ok(())
    }

    /// Marks the search `kind` started on the node shown; returns its number.
    pub fn start(&mut self, kind: &'static str, stop: Arc<AtomicBool>) -> u64 {
        self.searches += 1;
        self.running = Some(Running {
            stop,
            kind,
            id: self.searches,
            node: self.shown,
        });
        self.searches
    }

    /// Records `score` (from `side`'s view) on `node` for the graph, if it is still there.
    pub fn record_score(&mut self, node: NodeId, side: Side, score: Score) {
        self.tree.set_score(node, score_json::<G>(score, side));
    }

    /// A new receiver of the game's events.
    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.events.subscribe()
    }

    /// The sender of the game's events (for a search thread).
    pub fn sender(&self) -> broadcast::Sender<String> {
        self.events.clone()
    }

    /// The game as the page reads it (see the API docs in [`super`]).
    pub fn to_json(&self, id: u64) -> Value {
        let tree = &self.tree;
        let node = tree.at(self.shown);
        let state = &node.position;
        let mut moves = Vec::new();
        let outcome = self.outcome();
        if outcome.is_none() {
            state.generate_moves(&mut moves);
        }
        let legal: Vec<Value> = moves
            .iter()
            .map(|&mv| {
                json!({
                    "move": state.format_move(mv),
                    "clicks": state.clicks(mv),
                    "alternatives": state.alternative_clicks(mv),
                })
            })
            .collect();
        let picture = state.picture();
        let (last, changed) = match (node.parent, node.mv) {
            (Some(parent), Some(mv)) => {
                let before = &tree.at(parent).position;
                (before.clicks(mv), changed_ids(&before.picture(), &picture))
            }
            _ => (Vec::new(), Vec::new()),
        };
        let line = self.line();
        let mover = |id: NodeId| {
            let side = tree
                .at(id)
                .parent
                .map(|parent| tree.at(parent).position.side_to_move());
            (side.map(side_key), side.map(G::side_name))
        };
        let line_moves: Vec<Value> = line[1..]
            .iter()
            .map(|&id| {
                let (key, name) = mover(id);
                json!({"node": id, "move": tree.at(id).text, "mover": key, "mover_name": name})
            })
            .collect();
        let texts: Vec<&str> = line[1..].iter().map(|&id| &*tree.at(id).text).collect();
        let scores: Vec<&Option<Value>> = line.iter().map(|&id| &tree.at(id).score).collect();
        let nodes: Vec<Value> = tree
            .preorder()
            .into_iter()
            .map(|id| {
                let node = tree.at(id);
                let (key, name) = mover(id);
                json!({
                    "node": id,
                    "parent": node.parent,
                    "move": node.mv.map(|_| &node.text),
                    "mover": key,
                    "mover_name": name,
                    "ply": node.ply,
                    "children": node.children,
                })
            })
            .collect();
        let side = state.side_to_move();
        json!({
            "id": id.to_string(),
            "position": state.format_position(),
            "start": tree.at(ROOT).position.format_position(),
            "variant": tree.at(ROOT).position.variant_of(),
            "ply": node.ply,
            "node": self.shown,
            "moves": texts,
            "line": line_moves,
            "line_text": (!tree.is_main(&line)).then(|| texts.join(" ")),
            "tree": nodes,
            "tree_text": tree.write_text(),
            "to_move": side_key(side),
            "to_move_name": G::side_name(side),
            "sides": {"first": G::side_name(Side::First), "second": G::side_name(Side::Second)},
            "outcome": outcome.map(|o| outcome_text::<G>(o)),
            "picture": picture,
            "legal": legal,
            "last": last,
            "changed": changed,
            "scores": scores,
            "searching": self.running.as_ref().map(|r| r.kind),
            "search": self.running.as_ref().map(|r| json!({"id": r.id, "kind": r.kind, "node": r.node})),
        })
    }
}

/// The ids of what a move changed between the pictures `before` and `after`: the cells of
/// `after` whose pieces (as a set of kind and side) or text differ from the same cell's in
/// `before`, then the panel items of both whose panel (by title) differs.
fn changed_ids(before: &Picture, after: &Picture) -> Vec<String> {
    /// A cell's pieces (kind and side, sorted) and text.
    type Contents<'a> = (Vec<(&'a str, &'static str)>, Option<&'a str>);
    fn contents(picture: &Picture) -> HashMap<&str, Contents<'_>> {
        let mut cells: HashMap<&str, Contents<'_>> = picture
            .cells
            .iter()
            .map(|cell| (cell.id.as_str(), (Vec::new(), cell.text.as_deref())))
            .collect();
        for piece in &picture.pieces {
            cells
                .entry(piece.cell.as_str())
                .or_default()
                .0
                .push((piece.kind.as_str(), side_key(piece.side)));
        }
        for (pieces, _) in cells.values_mut() {
            pieces.sort_unstable();
        }
        cells
    }
    let (old, new) = (contents(before), contents(after));
    let empty: Contents<'_> = (Vec::new(), None);
    let mut changed: Vec<String> = after
        .cells
        .iter()
        .filter(|cell| old.get(cell.id.as_str()).unwrap_or(&empty) != &new[cell.id.as_str()])
        .map(|cell| cell.id.clone())
        .collect();
    let panels = |picture: &Picture| -> HashMap<String, String> {
        picture
            .panels
            .iter()
            .flat_map(|panel| {
                panel
                    .items
                    .iter()
                    .map(|item| (item.id.clone(), panel.title.clone()))
            })
            .collect()
    };
    let was = panels(before);
    for panel in &after.panels {
        for item in &panel.items {
            if was.get(&item.id).is_some_and(|title| *title != panel.title) {
                changed.push(item.id.clone());
            }
        }
    }
    changed
}

/// A score from `side`'s view as JSON for the page: `value` from the first player's view
/// (centipawn-like; a win or loss is near ±32,000, farther out for a shorter one), `plies` to
/// the end for a win or a loss (else `null`) and `text`, the words the terminal prints ("win in
/// 19 for Blue").
pub(super) fn score_json<G: Notation>(score: Score, side: Side) -> Value {
    let mut value = i64::from(score.raw());
    if side == Side::Second {
        value = -value;
    }
    json!({
        "value": value,
        "decisive": score.is_decisive(),
        "plies": score.plies_to_end(),
        "text": score_for::<G>(Some(score), side),
    })
}

/// Which search of which game an event is about: its number, its kind (`engine` or
/// `analysis`) and the node it searches.
#[derive(Clone, Copy)]
pub(super) struct SearchTag {
    pub id: u64,
    pub kind: &'static str,
    pub node: NodeId,
}

/// A line of moves from `state` for the page: its text, its moves one by one, and the clicks
/// of its first move (none for an empty line).
pub(super) fn pv_json<G: View>(state: &G, pv: &[G::Move]) -> (String, Vec<String>, Vec<String>) {
    let mut texts = Vec::with_capacity(pv.len());
    let mut position = state.clone();
    for &mv in pv {
        texts.push(position.format_move(mv));
        position = position.play(mv);
    }
    let clicks = pv.first().map(|&mv| state.clicks(mv)).unwrap_or_default();
    (texts.join(" "), texts, clicks)
}

/// The event of one completed iteration, for the event stream.
pub(super) fn iteration_event<G: View>(
    state: &G,
    iteration: &Iteration<G::Move>,
    tag: SearchTag,
) -> String {
    let side = state.side_to_move();
    let seconds = iteration.stats.elapsed.as_secs_f64();
    let nps = if seconds > 0.0 {
        (iteration.stats.nodes as f64 / seconds) as u64
    } else {
        0
    };
    let (pv, pv_moves, clicks) = pv_json(state, &iteration.pv);
    let mut data = json!({
        "search": tag.id,
        "kind": tag.kind,
        "node": tag.node,
        "depth": iteration.depth,
        "seldepth": iteration.seldepth,
        "score": score_json::<G>(iteration.score, side),
        "pv": pv,
        "pv_moves": pv_moves,
        "clicks": clicks,
        "nodes": iteration.stats.nodes,
        "nps": nps,
        "seconds": seconds,
    });
    if !iteration.more_lines.is_empty() {
        // MultiPV: every line, the first being the iteration's own.
        let first = json!({
            "score": data["score"].clone(),
            "pv": data["pv"].clone(),
            "pv_moves": data["pv_moves"].clone(),
            "clicks": data["clicks"].clone(),
        });
        let others = iteration.more_lines.iter().map(|line| {
            let (pv, pv_moves, clicks) = pv_json(state, &line.pv);
            json!({
                "score": score_json::<G>(line.score, side),
                "pv": pv,
                "pv_moves": pv_moves,
                "clicks": clicks,
            })
        });
        data["lines"] = std::iter::once(first).chain(others).collect();
    }
    format!("iteration\n{data}")
}

/// The event of a finished search, for the event stream.
pub(super) fn done_event<G: Notation>(
    state: &G,
    tag: SearchTag,
    result: &SearchResult<G::Move>,
) -> String {
    let side = state.side_to_move();
    let data = json!({
        "search": tag.id,
        "node": tag.node,
        "kind": tag.kind,
        "best": result.best_move.map(|mv| state.format_move(mv)),
        "score": score_for::<G>(result.known_score(), side),
        "depth": result.depth,
        "pv": state.format_line(&result.pv),
        "nodes": result.stats.nodes,
    });
    format!("done\n{data}")
}
