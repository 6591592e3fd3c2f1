//! The words of an `http-api` script that stand for data of the game it plays, and the
//! generator of the move-tree scripts among the target's seeds.
//!
//! In a request's path and body, before it is sent (the game is the last one the script saw
//! of the path's game, or of the script's last game):
//!
//! | word | becomes |
//! |---|---|
//! | `$node` | the id of a node of the game's tree, picked at random |
//! | `$shown` | the node shown |
//! | `$ply` | a ply of the current line (0 to its length), picked at random |
//! | `$tree`, `$line`, `$start` | the game's `tree_text`, `line_text` and `start`, as JSON |
//! | `$legal` | a legal move at the node shown, as a JSON string |
//! | `$walk:N` | a JSON array of up to N moves, a random walk from the position shown |
//! | `$text:N` | a JSON string of up to N moves, a random walk from the game's start |
//! | `$rep:N:TEXT$` | TEXT N times (deep nesting, long arrays: up to [`EXPANDED_MAX`] bytes) |
//!
//! Anything else after a `$` stays as it is.
//!
//! Key invariant: the random picks come from a generator seeded with the script's bytes, so a
//! script's run is a function of the script (and of the answers it got); the generated seeds
//! are a function of their seed.

use plies::{Game, Notation};
use plies_kalah::Kalah;
use serde_json::{Value, json};

use crate::mutate::Rng;

/// The longest expansion of one path or body: past the server's body limit (64 KiB), so that
/// the limit itself is fuzzed too.
pub(super) const EXPANDED_MAX: usize = 80 * 1024;

/// The longest walk a `$walk:N` or `$text:N` asks for.
const WALK_MAX: usize = 400;

/// Expands the words of a script (see the module docs).
pub(super) struct Expander {
    rng: Rng,
}

/// A stable hash of a script's bytes (FNV-1a).
pub(super) fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

impl Expander {
    /// An expander whose picks follow `seed`.
    pub(super) fn new(seed: u64) -> Expander {
        Expander {
            rng: Rng::new(seed),
        }
    }

    /// `text` with its words expanded for `game` (the last JSON seen of it, if any).
    pub(super) fn expand(&mut self, text: &str, game: Option<&Value>) -> String {
        if !text.contains('$') {
            return text.to_string();
        }
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            rest = &rest[at + 1..];
            let name_end = rest
                .find(|c: char| !c.is_ascii_lowercase())
                .unwrap_or(rest.len());
            let name = &rest[..name_end];
            let after = &rest[name_end..];
            let (number, after_number) = number_arg(after);
            let word = match (name, number) {
                ("node", _) => Some(self.node(game)),
                ("shown", _) => Some(game.map_or(json!(0), |g| g["node"].clone()).to_string()),
                ("ply", _) => Some(self.ply(game)),
                ("tree", _) => Some(field(game, "tree_text", json!(""))),
                ("line", _) => Some(field(game, "line_text", Value::Null)),
                ("start", _) => Some(field(
                    game,
                    "start",
                    json!(Kalah::start_position().format_position()),
                )),
                ("legal", _) => Some(self.legal(game)),
                ("walk", Some(n)) => {
                    rest = after_number;
                    Some(json!(self.walk(game, "position", n)).to_string())
                }
                ("text", Some(n)) => {
                    rest = after_number;
                    Some(json!(self.walk(game, "start", n).join(" ")).to_string())
                }
                ("rep", Some(n)) => match after_number.strip_prefix(':') {
                    Some(body) => {
                        let end = body.find('$').unwrap_or(body.len());
                        let piece = &body[..end];
                        rest = body.get(end + 1..).unwrap_or("");
                        let room = EXPANDED_MAX.saturating_sub(out.len());
                        let times = if piece.is_empty() {
                            0
                        } else {
                            n.min(room / piece.len())
                        };
                        Some(piece.repeat(times))
                    }
                    None => None,
                },
                _ => None,
            };
            match word {
                Some(word) => {
                    if !matches!(name, "walk" | "text" | "rep") {
                        rest = after;
                    }
                    out.push_str(&word);
                }
                None => out.push('$'),
            }
            if out.len() > EXPANDED_MAX {
                out.truncate(floor_char_boundary(&out, EXPANDED_MAX));
                return out;
            }
        }
        out.push_str(rest);
        out
    }

    /// A node id of `game`'s tree, or 0.
    fn node(&mut self, game: Option<&Value>) -> String {
        let ids: Vec<&Value> = game
            .and_then(|g| g["tree"].as_array())
            .map(|tree| tree.iter().map(|n| &n["node"]).collect())
            .unwrap_or_default();
        if ids.is_empty() {
            return "0".into();
        }
        ids[self.rng.below(ids.len())].to_string()
    }

    /// A ply of `game`'s current line, or 0.
    fn ply(&mut self, game: Option<&Value>) -> String {
        let moves = game.and_then(|g| g["moves"].as_array()).map_or(0, Vec::len);
        self.rng.below(moves + 1).to_string()
    }

    /// A legal move of `game`'s position shown, or `"a"`.
    fn legal(&mut self, game: Option<&Value>) -> String {
        let legal: Vec<&Value> = game
            .and_then(|g| g["legal"].as_array())
            .map(|moves| moves.iter().map(|m| &m["move"]).collect())
            .unwrap_or_default();
        if legal.is_empty() {
            return "\"a\"".into();
        }
        legal[self.rng.below(legal.len())].to_string()
    }

    /// Up to `n` moves of a random walk from `game[from]` (the Kalah start when there is no
    /// such position), stopping where the game ends.
    fn walk(&mut self, game: Option<&Value>, from: &str, n: usize) -> Vec<String> {
        let mut state = game
            .and_then(|g| g[from].as_str())
            .and_then(|text| Kalah::parse_position(text).ok())
            .unwrap_or_else(Kalah::start_position);
        let mut texts = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..n.min(WALK_MAX) {
            moves.clear();
            if state.outcome().is_some() {
                break;
            }
            state.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[self.rng.below(moves.len())];
            texts.push(state.format_move(mv));
            state = state.play(mv);
        }
        texts
    }
}

/// The number right after a `:` at the start of `text`, and what follows it.
fn number_arg(text: &str) -> (Option<usize>, &str) {
    let Some(digits) = text.strip_prefix(':') else {
        return (None, text);
    };
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    match digits[..end].parse::<usize>() {
        Ok(n) => (Some(n), &digits[end..]),
        Err(_) => (None, text),
    }
}

/// `game[name]` as JSON, or `default`.
fn field(game: Option<&Value>, name: &str, default: Value) -> String {
    game.map_or(default, |g| g[name].clone()).to_string()
}

/// The largest char boundary of `text` at or before `at`.
fn floor_char_boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

/// Tree texts and bodies of new games that the server must refuse, or read with care.
const ODD_NEW_GAMES: &[&str] = &[
    r#"{"moves": "a (b"}"#,
    r#"{"moves": "a b) c"}"#,
    r#"{"moves": "(a)"}"#,
    r#"{"moves": "a ()"}"#,
    r#"{"moves": "a (b) (c) d (e (f)) g"}"#,
    r#"{"moves": ")"}"#,
    r#"{"moves": "("}"#,
    r#"{"moves": "$rep:10000:($"}"#,
    r#"{"moves": "a $rep:10000:(b $$rep:10000:)$"}"#,
    r#"{"moves": "c $rep:10000:($"}"#,
    r#"{"moves": "$rep:20000:a $"}"#,
    r#"{"moves": "a", "line": "b"}"#,
    r#"{"moves": "a b (c)", "line": "zz"}"#,
    r#"{"moves": "a", "ply": 2}"#,
    r#"{"moves": "a", "ply": -1}"#,
    r#"{"moves": "a", "ply": 1.5}"#,
    r#"{"moves": ["a"]}"#,
    r#"{"moves": $text:30, "line": $text:20, "ply": 3}"#,
    r#"{"moves": $text:12, "record": "a"}"#,
    r#"{"position": "4,4,4|0 4,4,4|0 n", "moves": "a (b) (c)"}"#,
    r#"{"position": $start, "moves": $tree, "line": $line, "ply": $ply}"#,
    r#"{"position": $start, "moves": $tree, "line": $line}"#,
    r#"{"moves": $tree, "line": $text:9}"#,
];

/// Bodies of `goto`, `promote` and `delete` that name no node or a bad one.
const ODD_NODES: &[&str] = &[
    r#"{"node": -1}"#,
    r#"{"node": 1.5}"#,
    r#"{"node": "1"}"#,
    r#"{"node": null}"#,
    r#"{"node": [1]}"#,
    r#"{"node": 18446744073709551615}"#,
    r#"{"node": 18446744073709551616}"#,
    r#"{"node": 9223372036854775807}"#,
    r#"{"node": 4294967296}"#,
    r#"{"node": 0}"#,
    r#"{"node": 1e3}"#,
    r#"{"ply": 0, "node": 0}"#,
    r#"{"ply": $ply, "node": $node}"#,
    r#"{}"#,
    r#"{"node": $node, "extra": 1}"#,
    r#"[1]"#,
    r#"{"node": $node"#,
];

/// Bodies of `move` out of the ordinary.
const ODD_MOVES: &[&str] = &[
    r#"{"moves": []}"#,
    r#"{"move": $legal, "moves": [$legal]}"#,
    r#"{}"#,
    r#"{"moves": "a"}"#,
    r#"{"moves": [1, 2]}"#,
    r#"{"moves": [$legal, "zz"]}"#,
    r#"{"moves": [$rep:12000:"a",$"a"]}"#,
    r#"{"moves": [$rep:20000:"b",$"b"]}"#,
    r#"{"moves": $walk:400}"#,
    r#"{"moves": $rep:200:[$"a"$rep:200:]$}"#,
    r#"{"move": " a "}"#,
    r#"{"move": "A"}"#,
    r#"{"move": ""}"#,
    r#"{"move": "a b"}"#,
];

/// One line of a generated script.
fn line(rng: &mut Rng) -> String {
    let pick = |rng: &mut Rng, items: &[&str]| items[rng.below(items.len())].to_string();
    let game = "/api/games/{id}";
    match rng.below(30) {
        0..=4 => format!("POST {game}/move {{\"moves\": $walk:{}}}", 1 + rng.below(12)),
        5..=6 => format!("POST {game}/move {{\"move\": $legal}}"),
        7..=9 => format!("POST {game}/goto {{\"node\": $node}}"),
        10 => format!("POST {game}/goto {{\"ply\": $ply}}"),
        11..=12 => format!("POST {game}/promote {{\"node\": $node}}"),
        13..=14 => format!("POST {game}/delete {{\"node\": $node}}"),
        15 => format!("POST {game}/undo"),
        16..=17 => {
            let body = pick(
                rng,
                &[
                    "{\"time_ms\": 5}",
                    "{}",
                    "{\"lines\": 3}",
                    "{\"searcher\": \"mcts\", \"time_ms\": 4}",
                    "{\"searcher\": \"alphabeta\", \"time_ms\": 2}",
                ],
            );
            format!("POST {game}/analyze {body}")
        }
        18 => format!("POST {game}/stop"),
        19 => format!("POST {game}/engine {{\"time_ms\": {}}}", 1 + rng.below(5)),
        20 => {
            let op = pick(rng, &["goto", "promote", "delete"]);
            format!("POST {game}/{op} {}", pick(rng, ODD_NODES))
        }
        21 => format!("POST {game}/move {}", pick(rng, ODD_MOVES)),
        22 => format!("POST /api/games {}", pick(rng, ODD_NEW_GAMES)),
        23 => {
            "POST /api/games {\"position\": $start, \"moves\": $tree, \"line\": $line, \"ply\": $ply}"
                .to_string()
        }
        24 => {
            let request = pick(
                rng,
                &[
                    "engine {\"time_ms\": 5}",
                    "analyze {\"time_ms\": 5}",
                    "move {\"moves\": $walk:3}",
                    "delete {\"node\": $node}",
                ],
            );
            format!("!async POST {game}/{request}")
        }
        25 => "!join".into(),
        26 => format!("!sleep {}", 1 + rng.below(6)),
        27 => format!("GET {game}/events"),
        28 => format!("GET {game}"),
        _ => format!("GET {game}/record"),
    }
}

/// `count` scripts that grow a tree and change it while searches run, generated from
/// `seed`: each creates a game (from a random walk, or a tree with variations), then plays
/// up to 30 lines.
pub(super) fn generated(count: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let mut lines = vec![match rng.below(3) {
                0 => "POST /api/games {}".to_string(),
                1 => format!("POST /api/games {{\"moves\": $text:{}}}", rng.below(40)),
                _ => "POST /api/games {\"moves\": \"c (a) (b) f (b a) (e) a\"}".to_string(),
            }];
            for _ in 0..6 + rng.below(25) {
                lines.push(line(&mut rng));
            }
            lines.join("\n").into_bytes()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Value {
        json!({
            "tree": [{"node": 0}, {"node": 3}, {"node": 5}],
            "node": 5,
            "moves": ["a", "b"],
            "tree_text": "a (c) b",
            "line_text": null,
            "start": "4,4,4|0 4,4,4|0 s",
            "position": "4,4,4|0 4,4,4|0 s",
            "legal": [{"move": "b"}],
        })
    }

    #[test]
    fn words_expand() {
        let mut x = Expander::new(1);
        let game = game();
        let g = Some(&game);
        assert_eq!(
            x.expand("{\"m\": $tree, \"l\": $line}", g),
            r#"{"m": "a (c) b", "l": null}"#
        );
        assert_eq!(x.expand("$shown $legal $cost $", g), r#"5 "b" $cost $"#);
        assert!(["0", "3", "5"].contains(&x.expand("$node", g).as_str()));
        assert_eq!(x.expand("[$rep:3:(a $]", g), "[(a (a (a ]");
        assert_eq!(x.expand("$rep:3", g), "$rep:3");
        let deep = x.expand("$rep:1000000:((((((((($", g).len();
        assert!(deep <= EXPANDED_MAX && deep > EXPANDED_MAX - 9, "{deep}");
        let walk: Value = serde_json::from_str(&x.expand("$walk:50", g)).unwrap();
        assert!(!walk.as_array().unwrap().is_empty());
        let text: Value = serde_json::from_str(&x.expand("$text:5", None)).unwrap();
        assert_eq!(text.as_str().unwrap().split(' ').count(), 5);
    }

    /// The same seed gives the same scripts, and scripts fit the mutator's length limit.
    #[test]
    fn generated_scripts_repeat() {
        let scripts = generated(20, 7);
        assert_eq!(scripts, generated(20, 7));
        assert!(scripts.iter().all(|s| s.len() <= crate::mutate::MAX_LEN));
    }
}
