//! Reading and writing boardspace.net Yinsh records (SGF with `GM[24]`), variations included.
//!
//! Each move node is `; P0[<seq> <command>]` or `; P1[...]` (P0 is White). Commands read here:
//! `place wr G 11` / `place br …` (ring placement), `place w K 8` followed by `drop board K 9`
//! (a human ring move: marker into the ring on K8, ring to K9), `move G 9 F 9` (a robot ring
//! move), `remove w D 5 H 5` (a row by its end points), `remove wr F 8` (a ring), `pass`; `Done`
//! and `Start`, the players' `id "name"` and the closing `time 0:01:29` carry no decision and are
//! skipped; `Resign` ends its line. Real records (`tests/boardspace_records.rs`) replay to
//! their recorded result.
//!
//! The text is an SGF game tree: `(` opens one, `;` starts a node, `NAME[value]` is a property
//! (`\` escapes the next character of a value). A game tree's nodes may be followed by
//! variations, each a game tree of its own played from the position after those nodes, the
//! first the main line. [`read_sgf_tree`] reads the first game tree of the text (what stands
//! before its `(` or after its `)` is ignored) as a [`RecordTree`], [`read_sgf`] its main line;
//! game trees nest at most [`MAX_SGF_DEPTH`] deep.
//!
//! [`write_sgf_tree`] writes the same commands (ring moves as `move`, each player's turn closed
//! by `Done`), a branch point's continuations each in a variation of its own, so
//! `read_sgf_tree(&write_sgf_tree(tree))` gives `tree` back; [`write_sgf`] writes one line.
//!
//! Key invariants: every decision read is checked for legality in the position reached on its
//! own line (a variation's played on from its branch point); bad structure or the first bad or
//! illegal command gives a one-line error naming it. Reading and writing loop over the text and
//! the tree, never recurse, so deep nesting cannot overflow the stack.

use plies::{Game, Notation, NotationError, RecordStep, RecordTree, Side, excerpt};

use crate::state::{Move, Yinsh};

/// The deepest that game trees may nest in a record [`read_sgf_tree`] reads, the whole game's
/// included: far more than a Yinsh game has decisions, so every tree a game can have fits.
pub const MAX_SGF_DEPTH: usize = 1000;

/// A record read from SGF: the moves in order and the position after the last one.
#[derive(Clone, Debug)]
pub struct SgfGame {
    /// Every decision of the record.
    pub moves: Vec<Move>,
    /// The position after them.
    pub position: Yinsh,
    /// Did the record end with a resignation?
    pub resigned: bool,
}

fn point(letter: &str, number: &str, command: &str) -> Result<String, NotationError> {
    if letter.len() != 1 || number.parse::<u8>().is_err() {
        return Err(NotationError::new(
            command,
            "expected a point as '<letter> <number>'",
        ));
    }
    Ok(format!("{}{}", letter.to_ascii_lowercase(), number))
}

/// One piece of a game tree's text.
#[derive(Clone, Copy)]
enum Token<'a> {
    /// `(`: a game tree begins.
    Open,
    /// `)`: it ends.
    Close,
    /// `;`: a node begins.
    Node,
    /// A property's name and one of its values as written (escapes kept).
    Value(&'a str, &'a str),
}

/// An SGF structure error at byte `at` of `text`: `bad SGF at character N: <what>`.
fn structure(text: &str, at: usize, what: &str) -> NotationError {
    let character = text[..at].chars().count() + 1;
    NotationError::new("", format!("bad SGF at character {character}: {what}"))
}

/// The pieces of the first game tree of `text`, its structure checked: every game tree has a
/// node before its variations and none after them, every property stands in a node with a
/// value, every value and game tree is closed, and game trees nest at most [`MAX_SGF_DEPTH`]
/// deep.
fn tokens(text: &str) -> Result<Vec<Token<'_>>, NotationError> {
    /// An open game tree: has it nodes yet, variations yet?
    struct Level {
        nodes: bool,
        variations: bool,
    }
    let Some(start) = text.find('(') else {
        return Err(NotationError::new(
            "",
            "bad SGF: no game tree (a record starts with '(')",
        ));
    };
    let bytes = text.as_bytes();
    let mut levels: Vec<Level> = Vec::new();
    let mut tokens = Vec::new();
    // The property whose values follow, if any.
    let mut name: Option<&str> = None;
    let mut at = start;
    while at < bytes.len() {
        match bytes[at] {
            b'(' => {
                if let Some(level) = levels.last_mut() {
                    if !level.nodes {
                        return Err(structure(text, at, "a variation before any node"));
                    }
                    level.variations = true;
                }
                if levels.len() == MAX_SGF_DEPTH {
                    return Err(structure(
                        text,
                        at,
                        &format!("variations nested more than {MAX_SGF_DEPTH} deep"),
                    ));
                }
                levels.push(Level {
                    nodes: false,
                    variations: false,
                });
                tokens.push(Token::Open);
                name = None;
                at += 1;
            }
            b')' => {
                let level = levels
                    .pop()
                    .expect("reading stops when the game tree closes");
                if !level.nodes {
                    return Err(structure(text, at, "an empty game tree '()'"));
                }
                tokens.push(Token::Close);
                name = None;
                at += 1;
                if levels.is_empty() {
                    return Ok(tokens);
                }
            }
            b';' => {
                let level = levels.last_mut().expect("inside the game tree");
                if level.variations {
                    return Err(structure(text, at, "a node after the variations"));
                }
                level.nodes = true;
                tokens.push(Token::Node);
                name = None;
                at += 1;
            }
            b'[' => {
                let Some(property) = name else {
                    return Err(structure(text, at, "a value without a property name"));
                };
                let mut end = at + 1;
                while end < bytes.len() && bytes[end] != b']' {
                    end += if bytes[end] == b'\\' { 2 } else { 1 };
                }
                if end >= bytes.len() {
                    return Err(structure(text, at, "a value not closed by ']'"));
                }
                tokens.push(Token::Value(property, &text[at + 1..end]));
                at = end + 1;
            }
            b if b.is_ascii_alphanumeric() => {
                let level = levels.last().expect("inside the game tree");
                if !level.nodes || level.variations {
                    return Err(structure(text, at, "a property outside a node"));
                }
                let end = text[at..]
                    .find(|c: char| !c.is_ascii_alphanumeric())
                    .map_or(bytes.len(), |length| at + length);
                let after = text[end..].trim_start();
                if !after.starts_with('[') {
                    return Err(structure(
                        text,
                        at,
                        &format!("the property '{}' has no value", excerpt(&text[at..end])),
                    ));
                }
                name = Some(&text[at..end]);
                at = bytes.len() - after.len();
            }
            b if b.is_ascii_whitespace() => at += 1,
            _ => {
                let c = text[at..].chars().next().unwrap_or_default();
                return Err(structure(text, at, &format!("unexpected {c:?}")));
            }
        }
    }
    Err(structure(
        text,
        bytes.len(),
        "the text ends inside a game tree (a '(' is not closed)",
    ))
}

/// A property value as meant: `\` escapes the next character, and a `\` before a line break
/// (a soft break) is dropped with it.
fn unescape(raw: &str) -> String {
    let mut value = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            value.push(c);
            continue;
        }
        match chars.next() {
            Some('\n') | None => {}
            Some(escaped) => value.push(escaped),
        }
    }
    value
}

/// What one `P0[…]` or `P1[…]` command means.
enum Decision {
    /// No decision (`Done`, `Start`, a player's id, the clocks, half of a human ring move).
    Skip,
    /// The player resigns: the line ends.
    Resign,
    /// A decision, as GIPF-style move text.
    Move(String),
}

/// The decision of the command `value`; `picked` holds the marker of a human ring move
/// (`place w K 8`) until its `drop board`.
fn decision(value: &str, picked: &mut Option<String>) -> Result<Decision, NotationError> {
    let mut words: Vec<&str> = value.split_whitespace().collect();
    if words
        .first()
        .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()))
    {
        words.remove(0);
    }
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
    let text = match lower.as_slice() {
        // `P0[id "name"]` (players, in the header) and `P0[time 0:02:16]` (the clocks, in
        // the last node) are not decisions.
        [] | ["done"] | ["start", ..] | ["id", ..] | ["time", ..] => return Ok(Decision::Skip),
        ["resign"] => return Ok(Decision::Resign),
        ["pass"] => "pass".to_string(),
        ["place", "wr" | "br", l, n] => point(l, n, value)?,
        ["place", "w" | "b", l, n] => {
            *picked = Some(point(l, n, value)?);
            return Ok(Decision::Skip);
        }
        ["drop", "board", l, n] => {
            let from = picked
                .take()
                .ok_or_else(|| NotationError::new(value, "a drop without a marker placed"))?;
            format!("{from}-{}", point(l, n, value)?)
        }
        ["move", a, b, c, d] => format!("{}-{}", point(a, b, value)?, point(c, d, value)?),
        ["remove", "w" | "b", a, b, c, d] => {
            format!("x{}-{}", point(a, b, value)?, point(c, d, value)?)
        }
        ["remove", "wr" | "br", l, n] => format!("x{}", point(l, n, value)?),
        _ => return Err(NotationError::new(value, "not a Yinsh record command")),
    };
    Ok(Decision::Move(text))
}

/// A record as [`read_tree`] reads it.
struct ReadTree {
    /// Every decision, the variations' included.
    tree: RecordTree<Move>,
    /// The decisions of the main line (the first variation at every branch point): the tree's
    /// main line, unless a first variation has no decision (a resignation at once).
    main: Vec<Move>,
    /// Does the main line end with a resignation?
    resigned: bool,
}

/// Reads a boardspace Yinsh record from the empty board (normal rules): the tree of its
/// decisions (the module docs say how), and its main line.
fn read_tree(text: &str) -> Result<ReadTree, NotationError> {
    /// Where a line of the record stands.
    #[derive(Clone)]
    struct Line {
        node: usize,
        position: Yinsh,
        ply: usize,
        /// The marker of a human ring move waiting for its drop.
        picked: Option<String>,
        /// Is this the main line?
        main: bool,
        /// Has a player resigned on it?
        over: bool,
    }
    let tokens = tokens(text)?;
    if !tokens
        .iter()
        .any(|t| matches!(t, Token::Value("GM", value) if value.trim() == "24"))
    {
        return Err(NotationError::new(
            "GM",
            "not a Yinsh record (GM[24] missing)",
        ));
    }
    let mut tree = RecordTree::new();
    let mut line = Line {
        node: RecordTree::<Move>::ROOT,
        position: Yinsh::start_position(),
        ply: 0,
        picked: None,
        main: true,
        over: false,
    };
    // The branch point of each open variation, and for each open game tree the variations
    // opened in it so far.
    let mut branches: Vec<Line> = Vec::new();
    let mut opened: Vec<usize> = Vec::new();
    let mut main = Vec::new();
    let mut resigned = false;
    for token in tokens {
        match token {
            Token::Open => {
                if let Some(count) = opened.last_mut() {
                    branches.push(line.clone());
                    line.main = line.main && *count == 0;
                    *count += 1;
                }
                opened.push(0);
            }
            Token::Close => {
                opened.pop();
                if let Some(branch) = branches.pop() {
                    line = branch;
                }
            }
            Token::Value("P0" | "P1", raw) if !line.over => {
                // One line, each run of white space one space: errors quote it.
                let value = unescape(raw)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                match decision(&value, &mut line.picked)? {
                    Decision::Skip => {}
                    Decision::Resign => {
                        line.over = true;
                        resigned |= line.main;
                    }
                    Decision::Move(text) => {
                        let mv = line.position.parse_move(&text).map_err(|e| NotationError {
                            token: value.clone(),
                            reason: format!(
                                "move {} ('{text}'){}: {}",
                                line.ply + 1,
                                if line.main { "" } else { " of a variation" },
                                e.reason
                            ),
                        })?;
                        line.node = tree.add(line.node, mv);
                        if line.main {
                            main.push(mv);
                        }
                        line.position = line.position.play(mv);
                        line.ply += 1;
                    }
                }
            }
            Token::Node | Token::Value(..) => {}
        }
    }
    Ok(ReadTree {
        tree,
        main,
        resigned,
    })
}

/// Reads a boardspace Yinsh record from the empty board (normal rules): its main line (the
/// first continuation at every branch point, see the module docs).
pub fn read_sgf(text: &str) -> Result<SgfGame, NotationError> {
    let ReadTree {
        main: moves,
        resigned,
        ..
    } = read_tree(text)?;
    let position = moves
        .iter()
        .fold(Yinsh::start_position(), |position, &mv| position.play(mv));
    Ok(SgfGame {
        moves,
        position,
        resigned,
    })
}

/// Reads a boardspace Yinsh record from the empty board (normal rules) as a tree of moves, its
/// variations included (see the module docs); a line ends where a player resigns, and a
/// variation without a decision adds nothing.
pub fn read_sgf_tree(text: &str) -> Result<RecordTree<Move>, NotationError> {
    Ok(read_tree(text)?.tree)
}

/// `g11` as boardspace writes a point: `G 11`.
fn spaced(cell: &str) -> String {
    let (letter, number) = cell.split_at(1);
    format!("{} {number}", letter.to_ascii_uppercase())
}

/// Writes a game from the empty board (normal rules) as a boardspace record: White is `P0`,
/// every decision a node numbered in order, a `Done` node where the turn passes to the other
/// player (or the game ends).
#[must_use]
pub fn write_sgf(moves: &[Move]) -> String {
    write_sgf_tree(&RecordTree::from_line(moves))
}

/// Writes a tree of moves from the empty board (normal rules), every move legal where it is
/// played, as a boardspace record: the nodes of [`write_sgf`], numbered on from the branch
/// point in each variation; a branch point's continuations each in a variation of its own
/// (`(` before its first node, `)` on a line after its last), the main continuation first.
#[must_use]
pub fn write_sgf_tree(tree: &RecordTree<Move>) -> String {
    let mut text = String::from("(;\nGM[24]VV[2]\nSU[Yinsh]\n; P0[0 Start White]\n");
    let mut state = Yinsh::start_position();
    let mut number = 1;
    // The position and node number at each open variation's branch point.
    let mut branches: Vec<(Yinsh, usize)> = Vec::new();
    for step in tree.walk() {
        let mv = match step {
            RecordStep::Open => {
                branches.push((state.clone(), number));
                text.push('(');
                continue;
            }
            RecordStep::Close => {
                if let Some((branch, at)) = branches.pop() {
                    (state, number) = (branch, at);
                }
                text.push_str(")\n");
                continue;
            }
            RecordStep::Move(id) => match tree.mv(id) {
                Some(mv) => mv,
                None => continue,
            },
        };
        let side = state.side_to_move();
        let (player, colour) = match side {
            Side::First => ("P0", 'w'),
            Side::Second => ("P1", 'b'),
        };
        let written = state.format_move(mv);
        let cells: Vec<String> = written
            .trim_start_matches('x')
            .split('-')
            .map(spaced)
            .collect();
        let command = match mv {
            Move::Place(_) => format!("place {colour}r {}", cells[0]),
            Move::Ring(..) => format!("move {} {}", cells[0], cells[1]),
            Move::Row(..) => format!("remove {colour} {} {}", cells[0], cells[1]),
            Move::RemoveRing(_) => format!("remove {colour}r {}", cells[0]),
            Move::Pass => "pass".to_string(),
        };
        text += &format!("; {player}[{number} {command}]\n");
        number += 1;
        state = state.play(mv);
        if state.outcome().is_some() || state.side_to_move() != side {
            text += &format!("; {player}[{number} Done ]\n");
            number += 1;
        }
    }
    text.push_str(")\n");
    text
}
