//! Tafl rules in words, for people: a one-line [`summary`] of a variant (board, pieces, the
//! king, where he escapes, the rules that set it apart) and its [`full_rules`], both written
//! from the rules data ([`Rules`]) and the start position, for the variant picker of the web
//! page (`plies_view::View::variants`).
//!
//! Key invariants: the words are derived from the parameters, never typed per variant, so a
//! new rules string is described too; every parameter that tells two built-in variants apart
//! shows in the summary (the built-ins' summaries are distinct, tested), and the summary is
//! one line.

use plies::Side;

use crate::board::{Piece, square_name};
use crate::rules::{KingArmed, KingStrength, PieceSet, Repetition, Rules, Shieldwall};
use crate::state::Tafl;

/// Which pieces a set holds, in words (`every piece`, `the king`, `attackers`, ...).
fn who(set: PieceSet) -> &'static str {
    let attackers = set.contains(Piece::Attacker);
    let defenders = set.contains(Piece::Defender);
    let king = set.contains(Piece::King);
    match (attackers, defenders, king) {
        (true, true, true) => "every piece",
        (false, false, false) => "no piece",
        (false, false, true) => "only the king",
        (true, false, false) => "attackers",
        (false, true, true) => "defenders and the king",
        (false, true, false) => "defenders but not the king",
        (true, false, true) => "attackers and the king",
        (true, true, false) => "every piece but the king",
    }
}

/// `text` with its first letter in upper case.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// The squares' OTN names, comma-separated.
fn names(squares: &[u16], dim: usize) -> String {
    let names: Vec<String> = squares
        .iter()
        .map(|&sq| square_name(usize::from(sq), dim))
        .collect();
    names.join(", ")
}

/// Whether the corner squares are the board's four corners (and only those).
fn plain_corners(rules: &Rules) -> bool {
    let last = rules.dim - 1;
    let mut corners: Vec<usize> = rules.corners.iter().map(|&c| usize::from(c)).collect();
    corners.sort_unstable();
    corners == [0, last, last * rules.dim, last * rules.dim + last]
}

/// Where the king escapes, after "escapes to" / "reaches".
fn escape(rules: &Rules) -> String {
    if rules.edge_escape {
        "the edge".to_string()
    } else if rules.corners.is_empty() {
        "nowhere (no corner squares)".to_string()
    } else if plain_corners(rules) {
        "a corner".to_string()
    } else {
        format!("one of {} corner squares", rules.corners.len())
    }
}

/// The pieces of the start: `24 attackers v 12 defenders and a king`.
fn pieces(start: &Tafl) -> String {
    let attackers = start.piece_count(Side::First);
    let defending = start.piece_count(Side::Second);
    if start.king_square().is_some() {
        format!(
            "{attackers} attackers v {} defenders and a king",
            defending - 1
        )
    } else {
        format!("{attackers} attackers v {defending} defenders")
    }
}

/// How the king is captured, after "captured": `on 4 sides`.
fn king_capture(strength: KingStrength) -> &'static str {
    match strength {
        KingStrength::Strong => "on 4 sides",
        KingStrength::Throne => "on 4 sides on or beside the throne, else on 2",
        KingStrength::Middleweight => "when every neighbour is hostile, even on the edge",
        KingStrength::Weak => "on 2 sides",
    }
}

/// Whether the king captures: `armed`, `unarmed`, ...
fn armed(king: KingArmed) -> &'static str {
    match king {
        KingArmed::Yes => "armed",
        KingArmed::No => "unarmed",
        KingArmed::Anvil => "armed as anvil only",
        KingArmed::Hammer => "armed as hammer only",
    }
}

/// The speed limits in words, if any: `pieces move at most 1 square` (a defender's limit is
/// the king's too).
fn speed(rules: &Rules) -> Option<String> {
    let at_most = |n: u8| format!("at most {n} square{}", if n == 1 { "" } else { "s" });
    match rules.speed {
        [None, None] => None,
        [Some(a), Some(d)] if a == d => Some(format!("pieces move {}", at_most(a))),
        [a, d] => {
            let parts: Vec<String> = [("attackers", a), ("defenders", d)]
                .into_iter()
                .filter_map(|(who, limit)| limit.map(|n| format!("{who} move {}", at_most(n))))
                .collect();
            Some(parts.join(", "))
        }
    }
}

/// What a threefold repetition does, as a clause of the summary.
fn repetition(rule: Repetition) -> &'static str {
    match rule {
        Repetition::Draw => "repetition draws",
        Repetition::MoverLoses => "repetition loses for its maker",
        Repetition::MoverWins => "repetition wins for its maker",
        Repetition::Ignore => "repetition allowed",
        Repetition::DefendersLose => "repetition loses for the defenders",
    }
}

/// The variant in one line: board, pieces, who moves first (when the defenders do), the king
/// (escape, armed, capture), the special rules and the repetition rule.
pub(crate) fn summary(start: &Tafl) -> String {
    let rules = start.rules();
    let dim = rules.dim;
    let mut first = format!("{dim}x{dim}, {}", pieces(start));
    if !rules.attackers_first {
        first += ", defenders move first";
    }
    let king = format!(
        "king escapes to {}, {}, captured {}",
        escape(rules),
        armed(rules.king_armed),
        king_capture(rules.king_strength)
    );
    let mut special = Vec::new();
    if rules.thrones.is_empty() {
        special.push("no throne".to_string());
    }
    if !rules.attacker_forts.is_empty() || !rules.defender_forts.is_empty() {
        special.push("fortress squares".to_string());
    }
    match rules.shieldwall {
        Shieldwall::None => {}
        Shieldwall::Weak => special.push("shieldwalls".to_string()),
        Shieldwall::Strong => special.push("shieldwalls (corners close them)".to_string()),
    }
    if rules.edge_fort {
        special.push("edge forts".to_string());
    }
    if rules.linnaean {
        special.push("Linnaean capture".to_string());
    }
    if !rules.surround_fatal {
        special.push("no win by encirclement".to_string());
    }
    special.extend(speed(rules));
    special.push(repetition(rules.repetition).to_string());
    format!("{first}; {king}; {}", special.join(", "))
}

/// The rules of one kind of special square (`the throne`, `a corner`): who may stop on it and
/// pass through it, and whom it is hostile to, always and when empty.
fn square_rules(
    name: &str,
    stop: PieceSet,
    pass: PieceSet,
    always: PieceSet,
    when_empty: PieceSet,
) -> String {
    let moves = format!(
        "{} may stop on {name}; {} may pass through it when empty.",
        sentence(who(stop)),
        who(pass)
    );
    let empty = PieceSet(when_empty.0 | always.0);
    let hostile = if empty == PieceSet::NONE {
        "It is hostile to no piece.".to_string()
    } else if always == PieceSet::NONE {
        format!(
            "When empty it is hostile to {} (it closes their capture like an enemy).",
            who(empty)
        )
    } else if empty == always {
        format!(
            "It is hostile to {} (it closes their capture like an enemy).",
            who(always)
        )
    } else {
        format!(
            "It is hostile to {}, and when empty to {} (it closes their capture like an enemy).",
            who(always),
            who(empty)
        )
    };
    format!("{moves} {hostile}")
}

/// The full rules, a paragraph per line: board, pieces, moves, special squares, captures, the
/// king's capture, special captures, how each side wins, repetition.
pub(crate) fn full_rules(start: &Tafl) -> String {
    let rules = start.rules();
    let mut lines = board_lines(start);
    lines.extend(square_lines(rules));
    lines.extend(capture_lines(rules));
    lines.extend(win_lines(rules));
    lines.join("\n")
}

/// The board, the pieces and who moves first, and how pieces move.
fn board_lines(start: &Tafl) -> Vec<String> {
    let rules = start.rules();
    let dim = rules.dim;
    let mut lines = Vec::new();
    let name = if rules.name.is_empty() {
        "Tafl".to_string()
    } else {
        rules.name.clone()
    };
    lines.push(format!(
        "{name}: board {dim}x{dim}, files a to {} left to right, ranks 1 to {dim} bottom to top.",
        char::from(b'a' + dim as u8 - 1)
    ));
    lines.push(format!(
        "Pieces: {}; the {} move first.",
        pieces(start),
        if rules.attackers_first {
            "attackers"
        } else {
            "defenders"
        }
    ));
    let mut moves = "Moves: every piece moves like a rook, any number of empty squares along its rank or file, never jumping".to_string();
    if let Some(limit) = speed(rules) {
        moves += &format!(" ({limit})");
    }
    lines.push(moves + ".");
    lines
}

/// The throne, the corners and the fortresses, each with who may stop on, pass and be
/// captured against it.
fn square_lines(rules: &Rules) -> Vec<String> {
    let dim = rules.dim;
    let mut lines = Vec::new();
    if rules.thrones.is_empty() {
        lines.push("Throne: none.".to_string());
    } else {
        lines.push(format!(
            "Throne ({}): {}",
            names(&rules.thrones, dim),
            square_rules(
                "the throne",
                rules.throne_stop,
                rules.throne_pass,
                rules.throne_hostile,
                rules.throne_hostile_empty,
            )
        ));
    }
    if rules.corners.is_empty() {
        lines.push("Corners: none.".to_string());
    } else {
        lines.push(format!(
            "Corners ({}): {}",
            names(&rules.corners, dim),
            square_rules(
                "a corner",
                rules.corner_stop,
                rules.corner_pass,
                rules.corner_hostile,
                rules.corner_hostile,
            )
        ));
    }
    for (forts, side, stop, pass, hostile) in [
        (
            &rules.attacker_forts,
            "Attacker fortresses",
            rules.afort_stop,
            rules.afort_pass,
            rules.afort_hostile,
        ),
        (
            &rules.defender_forts,
            "Defender fortresses",
            rules.dfort_stop,
            rules.dfort_pass,
            rules.dfort_hostile,
        ),
    ] {
        if !forts.is_empty() {
            lines.push(format!(
                "{side} ({}): {}",
                names(forts, dim),
                square_rules("one", stop, pass, PieceSet::NONE, hostile)
            ));
        }
    }
    lines
}

/// Captures: the custodial rule, the king's part in captures and his own capture, and the
/// special captures (shieldwall, Linnaean) the variant has.
fn capture_lines(rules: &Rules) -> Vec<String> {
    let mut lines = Vec::new();
    lines.push(
        "Capture: a piece is captured when an enemy moves to close it between two enemies (or an enemy and a hostile square) along a rank or file; several may fall at once, and moving between two enemies is safe."
            .to_string(),
    );
    lines.push(format!(
        "The king {}.",
        match rules.king_armed {
            KingArmed::Yes =>
                "is armed: he captures when he moves and helps capture as the standing piece",
            KingArmed::No => "is unarmed: he takes no part in captures",
            KingArmed::Anvil =>
                "helps capture only as the standing piece (anvil), not when he moves",
            KingArmed::Hammer =>
                "captures only when he moves (hammer), never as the standing piece",
        }
    ));
    lines.push(
        match rules.king_strength {
            KingStrength::Strong => "King capture: attackers (or hostile squares) on all four sides; never against the board edge.",
            KingStrength::Throne => "King capture: on or beside the throne, attackers (or hostile squares) on all four sides; elsewhere between two attackers, like any piece.",
            KingStrength::Middleweight => "King capture: every neighbouring square on the board an attacker or hostile, so also against the edge.",
            KingStrength::Weak => "King capture: between two attackers (or an attacker and a hostile square), like any piece.",
        }
        .to_string(),
    );
    if rules.shieldwall != Shieldwall::None {
        let mut wall = "Shieldwall: a row of two or more pieces along the edge, each with an enemy in front of it, bracketed at both ends along the edge".to_string();
        wall += if rules.shieldwall == Shieldwall::Strong {
            " (a corner may be one bracket)"
        } else {
            " (a corner is no bracket)"
        };
        wall += if rules.shieldwall_flank {
            ", is captured by the move that brackets it"
        } else {
            ", is captured by the move that completes it"
        };
        wall += "; the king may stand in it but is never captured so.";
        lines.push(wall);
    }
    if rules.linnaean {
        lines.push("Linnaean capture: with the king on the throne and attackers on three sides of it, a defender on the fourth side is captured against the throne.".to_string());
    }
    lines
}

/// How each side wins, the side without a move, and repetition.
fn win_lines(rules: &Rules) -> Vec<String> {
    let mut lines = Vec::new();
    let mut defenders = format!("The defenders win when the king reaches {}", escape(rules));
    if rules.edge_fort {
        defenders += ", or by an edge fort: the king on the edge, able to move, enclosed by defenders that cannot be captured";
    }
    lines.push(defenders + ".");
    let mut attackers = "The attackers win by capturing the king".to_string();
    if rules.surround_fatal {
        attackers += ", or by encircling every defender so that none can reach the edge";
    }
    lines.push(attackers + ".");
    lines.push("A side with no legal move loses.".to_string());
    lines.push(
        match rules.repetition {
            Repetition::Draw => "A position repeated the third time is a draw.",
            Repetition::MoverLoses => "The side that repeats a position the third time loses.",
            Repetition::MoverWins => "The side that repeats a position the third time wins.",
            Repetition::Ignore => "Repetitions are allowed.",
            Repetition::DefendersLose => {
                "A position repeated the third time loses for the defenders, whoever repeats it."
            }
        }
        .to_string(),
    );
    lines
}
