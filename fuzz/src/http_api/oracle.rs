//! What the `http-api` target checks of a game's JSON and of the move tree's changes, from the
//! contract in the module docs of `plies-cli`'s `serve/api.rs`: a game's `tree`, `node`, `ply`,
//! `moves`, `line`, `line_text` and `tree_text` agree with one another; each change of the tree
//! (`move`, `goto`, `promote`, `delete`, `undo`, `engine`) did what it says and nothing more; a
//! refused change changed nothing; every `iteration` and `done` event names its search, kind
//! and node.
//!
//! Key invariant: every check follows from the documented contract alone, so a failed check is
//! a broken promise of the server, never a guess about how it works inside.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

/// One node of a game's `tree`, as read from its JSON.
struct Node<'a> {
    parent: Option<u64>,
    text: &'a str,
    ply: u64,
    children: Vec<u64>,
}

/// A game's `tree`, read and checked for shape.
pub(super) struct Tree<'a> {
    nodes: HashMap<u64, Node<'a>>,
}

impl<'a> Tree<'a> {
    /// Reads `game["tree"]`: the start first (node 0, no parent, no move, ply 0), each node
    /// once and before its children, each child naming its parent and one ply deeper.
    pub(super) fn read(game: &'a Value) -> Result<Tree<'a>, String> {
        let entries = game["tree"].as_array().ok_or("`tree` is not an array")?;
        let mut nodes: HashMap<u64, Node<'a>> = HashMap::new();
        let mut order = Vec::new();
        for (index, entry) in entries.iter().enumerate() {
            let id = entry["node"]
                .as_u64()
                .ok_or_else(|| format!("tree entry {index} has no node id: {entry}"))?;
            let parent = entry["parent"].as_u64();
            let text = entry["move"].as_str();
            let ply = entry["ply"]
                .as_u64()
                .ok_or_else(|| format!("node {id} has no ply"))?;
            let children: Vec<u64> = entry["children"]
                .as_array()
                .ok_or_else(|| format!("node {id} has no children array"))?
                .iter()
                .map(|child| child.as_u64().ok_or(format!("node {id}: child {child}")))
                .collect::<Result<_, _>>()?;
            if index == 0 {
                if id != 0 || parent.is_some() || text.is_some() || ply != 0 {
                    return Err(format!("the tree does not start with the start: {entry}"));
                }
            } else {
                let parent = parent.ok_or_else(|| format!("node {id} has no parent"))?;
                let Some(before) = nodes.get(&parent) else {
                    return Err(format!("node {id} comes before its parent {parent}"));
                };
                if !before.children.contains(&id) {
                    return Err(format!("node {id}'s parent {parent} does not list it"));
                }
                if ply != before.ply + 1 {
                    return Err(format!(
                        "node {id} has ply {ply} under a node of ply {}",
                        before.ply
                    ));
                }
                if text.is_none() {
                    return Err(format!("node {id} has no move"));
                }
            }
            let node = Node {
                parent,
                text: text.unwrap_or(""),
                ply,
                children,
            };
            if nodes.insert(id, node).is_some() {
                return Err(format!("node {id} is in the tree twice"));
            }
            order.push(id);
        }
        if order.is_empty() {
            return Err("the tree is empty (no start)".into());
        }
        let listed: usize = nodes.values().map(|node| node.children.len()).sum();
        if listed != nodes.len() - 1 {
            return Err(format!(
                "{} nodes but {listed} children listed (a child missing from the tree)",
                nodes.len()
            ));
        }
        Ok(Tree { nodes })
    }

    /// Is `id` in the tree?
    pub(super) fn has(&self, id: u64) -> bool {
        self.nodes.contains_key(&id)
    }

    /// How many nodes.
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Every node id.
    pub(super) fn ids(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = self.nodes.keys().copied().collect();
        ids.sort_unstable();
        ids
    }

    /// `id`'s parent.
    fn parent(&self, id: u64) -> Option<u64> {
        self.nodes.get(&id).and_then(|node| node.parent)
    }

    /// The nodes of the subtree under `id`, `id` included.
    fn subtree(&self, id: u64) -> HashSet<u64> {
        let mut seen = HashSet::new();
        let mut todo = vec![id];
        while let Some(at) = todo.pop() {
            if seen.insert(at)
                && let Some(node) = self.nodes.get(&at)
            {
                todo.extend(&node.children);
            }
        }
        seen
    }

    /// The main line: the start, then on along first children.
    fn main_line(&self) -> Vec<u64> {
        let mut line = vec![0];
        let mut at = 0;
        while let Some(&first) = self.nodes.get(&at).and_then(|node| node.children.first()) {
            line.push(first);
            at = first;
        }
        line
    }

    /// The main line's move texts.
    pub(super) fn main_line_moves(&self) -> Vec<&'a str> {
        self.main_line()[1..]
            .iter()
            .map(|id| self.nodes[id].text)
            .collect()
    }

    /// The tree as one text, as the contract says `tree_text` writes it: the main line's
    /// moves separated by spaces, each variation in parentheses right after the move it
    /// replaces (written here as a recursion, the server's own writer being a loop).
    pub(super) fn text(&self) -> String {
        fn word(out: &mut String, piece: &str) {
            if !out.is_empty() && !out.ends_with('(') {
                out.push(' ');
            }
            out.push_str(piece);
        }
        fn after(tree: &Tree<'_>, id: u64, out: &mut String) {
            let children = &tree.nodes[&id].children;
            let Some((&first, variations)) = children.split_first() else {
                return;
            };
            word(out, tree.nodes[&first].text);
            for &variation in variations {
                word(out, "(");
                out.push_str(tree.nodes[&variation].text);
                after(tree, variation, out);
                out.push(')');
            }
            after(tree, first, out);
        }
        let mut out = String::new();
        after(self, 0, &mut out);
        out
    }
}

/// The current line's node ids (from `line`), without the start.
fn line_nodes(game: &Value) -> Vec<u64> {
    game["line"]
        .as_array()
        .map(|line| line.iter().filter_map(|m| m["node"].as_u64()).collect())
        .unwrap_or_default()
}

/// Checks that a game's JSON agrees with itself (see the module docs).
pub(super) fn check_game(game: &Value) -> Result<(), String> {
    let tree = Tree::read(game)?;
    let shown = game["node"].as_u64().ok_or("`node` is not a node id")?;
    let ply = game["ply"].as_u64().ok_or("`ply` is not a number")?;
    let Some(node) = tree.nodes.get(&shown) else {
        return Err(format!("the node shown, {shown}, is not in the tree"));
    };
    if node.ply != ply {
        return Err(format!("`ply` {ply} but node {shown} has ply {}", node.ply));
    }
    let moves: Vec<&str> = game["moves"]
        .as_array()
        .ok_or("`moves` is not an array")?
        .iter()
        .map(|m| m.as_str().ok_or("a move of `moves` is not a string"))
        .collect::<Result<_, _>>()?;
    let line = game["line"].as_array().ok_or("`line` is not an array")?;
    if line.len() != moves.len() {
        return Err(format!(
            "{} moves but {} in `line`",
            moves.len(),
            line.len()
        ));
    }
    let mut at = 0;
    let mut main = true;
    for (index, (entry, text)) in line.iter().zip(&moves).enumerate() {
        let id = entry["node"]
            .as_u64()
            .ok_or_else(|| format!("line entry {index} has no node"))?;
        let Some(node) = tree.nodes.get(&id) else {
            return Err(format!("line node {id} is not in the tree"));
        };
        if node.parent != Some(at) {
            return Err(format!("line node {id} does not follow node {at}"));
        }
        if entry["move"].as_str() != Some(text) || node.text != *text {
            return Err(format!("line node {id}: move {entry} against {text:?}"));
        }
        main &= tree.nodes[&at].children.first() == Some(&id);
        at = id;
    }
    if !tree.nodes[&at].children.is_empty() {
        return Err(format!(
            "the current line stops at node {at}, which has children"
        ));
    }
    let index_ok = match ply {
        0 => shown == 0,
        _ => line_nodes(game).get(ply as usize - 1) == Some(&shown),
    };
    if !index_ok {
        return Err(format!(
            "node {shown} is not at index {ply} of the current line"
        ));
    }
    let expected_line_text = (!main).then(|| moves.join(" "));
    if game["line_text"].as_str().map(str::to_string) != expected_line_text
        || (main && !game["line_text"].is_null())
    {
        return Err(format!(
            "`line_text` {} for the line {moves:?} (main line: {main})",
            game["line_text"]
        ));
    }
    let text = tree.text();
    if game["tree_text"].as_str() != Some(text.as_str()) {
        return Err(format!(
            "`tree_text` {} but the tree writes {text:?}",
            game["tree_text"]
        ));
    }
    let scores = game["scores"].as_array().map_or(0, Vec::len);
    if scores != moves.len() + 1 {
        return Err(format!(
            "{scores} scores for a line of {} moves",
            moves.len()
        ));
    }
    let kind = &game["search"]["kind"];
    if game["searching"] != *kind && !(game["searching"].is_null() && game["search"].is_null()) {
        return Err(format!(
            "`searching` {} but `search` {}",
            game["searching"], game["search"]
        ));
    }
    Ok(())
}

/// The fields of a game that a change of its tree, its line or the node shown touches.
fn shape(game: &Value) -> (&Value, &Value, &Value, &Value) {
    (
        &game["tree_text"],
        &game["node"],
        &game["moves"],
        &game["ply"],
    )
}

/// Checks a game that a refused request (any 4xx or 503) left: as it was.
pub(super) fn check_unchanged(before: &Value, after: &Value) -> Result<(), String> {
    if shape(before) != shape(after) {
        return Err(format!(
            "a refused request changed the game: {:?} became {:?}",
            shape(before),
            shape(after)
        ));
    }
    Ok(())
}

/// Checks the game `after` that the change `op` with the JSON body `request` answered (200),
/// against the game `before` it (see the contract in the module docs of `serve/api.rs`).
pub(super) fn check_change(
    op: &str,
    request: &Value,
    before: &Value,
    after: &Value,
) -> Result<(), String> {
    let old = Tree::read(before)?;
    let new = Tree::read(after)?;
    let (was, now) = (node_of(before), node_of(after));
    let (was_ply, now_ply) = (before["ply"].as_u64(), after["ply"].as_u64());
    let same_line = before["moves"] == after["moves"];
    let fail = |what: &str| Err(format!("{op} {request}: {what} (from node {was} to {now})"));
    match op {
        "move" => {
            let played = match (&request["move"], &request["moves"]) {
                (Value::String(_), Value::Null) => 1,
                (Value::Null, Value::Array(moves)) => moves.len(),
                _ => return Ok(()),
            };
            let mut back = now;
            for _ in 0..played {
                back = new.parent(back).unwrap_or(u64::MAX);
            }
            if back != was || now_ply != was_ply.map(|p| p + played as u64) {
                return fail(&format!("not {played} moves on from the node shown"));
            }
            for id in old.ids() {
                if !new.has(id) {
                    return fail(&format!("node {id} is gone"));
                }
            }
        }
        "goto" => {
            if let Some(ply) = request["ply"].as_u64() {
                if now_ply != Some(ply) || !same_line {
                    return fail(&format!("not ply {ply} of the same line"));
                }
            } else if let Some(node) = request["node"].as_u64() {
                let on_line = node == 0 || line_nodes(before).contains(&node);
                if now != node || (on_line && !same_line) {
                    return fail(&format!("node {node} not shown, or the line changed"));
                }
            }
            if before["tree_text"] != after["tree_text"] {
                return fail("the tree changed");
            }
        }
        "promote" => {
            let node = request["node"].as_u64().unwrap_or(u64::MAX);
            if now != was || !same_line || now_ply != was_ply {
                return fail("the line or the node shown changed");
            }
            if !new.main_line().contains(&node) {
                return fail(&format!("node {node} is not on the main line"));
            }
            if new.len() != old.len() {
                return fail("nodes came or went");
            }
        }
        "delete" => {
            let node = request["node"].as_u64().unwrap_or(u64::MAX);
            let gone = old.subtree(node);
            let parent = old.parent(node).unwrap_or(u64::MAX);
            let expected = if gone.contains(&was) { parent } else { was };
            if new.has(node) || new.len() + gone.len() != old.len() || now != expected {
                return fail(&format!(
                    "node {node} and its {} followers not (only) removed, or not node \
                     {expected} shown",
                    gone.len() - 1
                ));
            }
        }
        "undo" => {
            let last = line_nodes(before).last().copied().unwrap_or(u64::MAX);
            let end = after["moves"].as_array().map_or(0, Vec::len) as u64;
            if new.has(last) || new.len() + 1 != old.len() || now_ply != Some(end) {
                return fail(&format!("not node {last} removed and the line's end shown"));
            }
        }
        "engine" => {
            let moved = new.parent(now) == Some(was) && now_ply == was_ply.map(|p| p + 1);
            let stayed = now == was && before["tree_text"] == after["tree_text"];
            if !moved && !stayed {
                return fail("not one move played at the node shown, nor nothing");
            }
        }
        "stop" => check_unchanged(before, after)?,
        _ => {}
    }
    Ok(())
}

/// The node a game shows.
fn node_of(game: &Value) -> u64 {
    game["node"].as_u64().unwrap_or(u64::MAX)
}

/// Checks the events of an event stream read so far: each complete `iteration` or `done`
/// event's data is a JSON object with `search`, `kind` (`engine` or `analysis`) and `node`.
pub(super) fn check_events(stream: &str) -> Result<(), String> {
    let mut blocks: Vec<&str> = stream.split("\n\n").collect();
    blocks.pop(); // what follows the last blank line is not complete yet
    for block in blocks {
        let mut name = "message";
        let mut data = String::new();
        for line in block.lines() {
            if let Some(value) = line.strip_prefix("event:") {
                name = value.trim();
            } else if let Some(value) = line.strip_prefix("data:") {
                data.push_str(value.strip_prefix(' ').unwrap_or(value));
            }
        }
        if name != "iteration" && name != "done" {
            continue;
        }
        let value: Value = serde_json::from_str(&data)
            .map_err(|e| format!("{name} event data is not JSON ({e}): {data:?}"))?;
        let kind = value["kind"].as_str();
        if value["search"].as_u64().is_none()
            || value["node"].as_u64().is_none()
            || !matches!(kind, Some("engine" | "analysis"))
        {
            return Err(format!("{name} event lacks search, kind or node: {data}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(id: u64, parent: Option<u64>, text: Option<&str>, ply: u64, children: &[u64]) -> Value {
        json!({"node": id, "parent": parent, "move": text, "ply": ply, "children": children})
    }

    /// `a b (c d (e) f) g` with the line `a c d` shown at its end.
    fn game() -> Value {
        json!({
            "tree": [
                node(0, None, None, 0, &[1]),
                node(1, Some(0), Some("a"), 1, &[2, 3]),
                node(2, Some(1), Some("b"), 2, &[7]),
                node(7, Some(2), Some("g"), 3, &[]),
                node(3, Some(1), Some("c"), 2, &[4, 5]),
                node(4, Some(3), Some("d"), 3, &[6]),
                node(6, Some(4), Some("f"), 4, &[]),
                node(5, Some(3), Some("e"), 3, &[]),
            ],
            "node": 4,
            "ply": 3,
            "moves": ["a", "c", "d", "f"],
            "line": [{"node": 1, "move": "a"}, {"node": 3, "move": "c"},
                     {"node": 4, "move": "d"}, {"node": 6, "move": "f"}],
            "line_text": "a c d f",
            "tree_text": "a b (c d (e) f) g",
            "scores": [null, null, null, null, null],
            "searching": null,
            "search": null,
        })
    }

    /// The model writes the contract's example, and a consistent game passes.
    #[test]
    fn a_consistent_game_passes() {
        let game = game();
        assert_eq!(Tree::read(&game).unwrap().text(), "a b (c d (e) f) g");
        check_game(&game).unwrap();
    }

    /// Each kind of disagreement is caught.
    #[test]
    fn disagreements_are_caught() {
        let cases: [(&str, Value); 6] = [
            ("ply", json!(2)),
            ("node", json!(9)),
            ("line_text", Value::Null),
            ("tree_text", json!("a b (c d f (e)) g")),
            ("moves", json!(["a", "c", "d", "g"])),
            ("scores", json!([])),
        ];
        for (field, value) in cases {
            let mut game = game();
            game[field] = value;
            assert!(check_game(&game).is_err(), "{field}");
        }
    }

    /// The changes' postconditions: a promote keeps the line, a delete removes a subtree.
    #[test]
    fn changes_are_judged() {
        let before = game();
        let mut promoted = game();
        promoted["tree"][1]["children"] = json!([3, 2]);
        check_change("promote", &json!({"node": 3}), &before, &promoted).unwrap();
        assert!(check_change("promote", &json!({"node": 7}), &before, &promoted).is_err());
        let deleted = json!({
            "tree": [node(0, None, None, 0, &[1]), node(1, Some(0), Some("a"), 1, &[2]),
                     node(2, Some(1), Some("b"), 2, &[7]), node(7, Some(2), Some("g"), 3, &[])],
            "node": 1, "ply": 1, "moves": ["a", "b", "g"],
        });
        check_change("delete", &json!({"node": 3}), &before, &deleted).unwrap();
        assert!(check_change("delete", &json!({"node": 2}), &before, &deleted).is_err());
        assert!(check_unchanged(&before, &deleted).is_err());
    }

    #[test]
    fn events_must_name_their_search() {
        let good = "event: iteration\ndata: {\"search\":1,\"kind\":\"analysis\",\"node\":0}\n\n";
        check_events(good).unwrap();
        check_events(": keep-alive\n\nevent: done\ndata: {\"search\": 1").unwrap();
        let bad = "event: done\ndata: {\"search\":1,\"node\":0}\n\n";
        assert!(check_events(bad).is_err());
    }
}
