//! Unit tests of `eval` in `plies-onitama`, a child module so they reach its private items.
//!
//! Key invariant: test code only; nothing here is compiled outside `cargo test`.

use super::*;
use plies::Notation;

#[test]
fn symmetric_start_is_level_and_material_counts() {
    let start = Onitama::start_position();
    assert_eq!(PstEvaluator::default().evaluate(&start), Score::cp(0));
    assert_eq!(MaterialEvaluator.evaluate(&start), Score::cp(0));
    // Red is a student up; blue to move sees it as negative.
    let pos =
        Onitama::parse_position("b1Bbb/5/5/5/rrRrr b monkey,crane tiger,crab dragon").unwrap();
    assert_eq!(MaterialEvaluator.evaluate(&pos), Score::cp(-100));
    assert!(PstEvaluator::default().evaluate(&pos) < Score::cp(0));
}

/// The sum written out square by square (each piece looked up with `piece_at`, blue's
/// squares turned by `24 - index`; reach through each card's `targets`), on positions along
/// a few random games.
#[test]
fn matches_a_square_by_square_sum() {
    let mut eval = PstEvaluator::default();
    let mut values = eval.parameters();
    for (i, value) in values.iter_mut().enumerate() {
        *value = (i as i32 * 37) % 23 - 11; // every square different, both signs
    }
    eval.set_parameters(&values).unwrap();
    let w = eval.weights().clone();
    let reference = |state: &Onitama| {
        let mut red = 0;
        // Card tables, red's minus blue's, with all pieces and in the endgame.
        // Rounded down (the base terms are whole, so adding them before or after is alike).
        let (mut middle, mut end) = (0, 0);
        let mut pieces = 0;
        for index in 0..25 {
            let square = crate::Square::new(index).unwrap();
            let (side, piece) = match state.piece_at(square) {
                Some(found) => found,
                None => continue,
            };
            let view = if side == Side::First {
                index
            } else {
                24 - index
            } as usize;
            pieces += 1;
            let (value, piece) = match piece {
                crate::Piece::Student => (w.student + w.student_squares[view], 0),
                crate::Piece::Master => (w.master_squares[view], 1),
            };
            let sign = if side == Side::First { 1 } else { -1 };
            for card in state.hand(side) {
                if card.id() < 16 {
                    middle += sign * w.cards[card.id()][piece][view];
                    end += sign * w.cards_end[card.id()][piece][view];
                }
            }
            red += sign * value;
        }
        let p = (pieces - 4).clamp(0, 6);
        red += (middle * p + end * (6 - p)).div_euclid(6);
        // Reach: every target square of every piece with either card, counted once.
        for side in [Side::First, Side::Second] {
            let mut reached = [false; 25];
            for index in 0..25 {
                let square = crate::Square::new(index).unwrap();
                if matches!(state.piece_at(square), Some((owner, _)) if owner == side) {
                    for card in state.hand(side) {
                        for target in card.targets(side, square) {
                            reached[target.index()] = true;
                        }
                    }
                }
            }
            let mut value = 0;
            for (index, &hit) in reached.iter().enumerate() {
                let square = crate::Square::new(index as u8).unwrap();
                match state.piece_at(square) {
                    _ if !hit => {}
                    Some((owner, _)) if owner == side => {}
                    Some((_, crate::Piece::Student)) => value += w.mobility + w.attacks,
                    _ => value += w.mobility,
                }
            }
            red += if side == Side::First { value } else { -value };
        }
        if state.to_move() == Side::First {
            red
        } else {
            -red
        }
    };
    let mut rng = plies::rng::SplitMix64::new(11);
    let mut moves = Vec::new();
    for _ in 0..20 {
        let mut state = Onitama::start_position();
        for _ in 0..40 {
            assert_eq!(eval.evaluate(&state), Score::cp(reference(&state)));
            moves.clear();
            plies::Game::generate_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            state = plies::Game::play(&state, moves[rng.below(moves.len())]);
        }
    }
}

#[test]
fn tunable_round_trip() {
    let mut eval = PstEvaluator::default();
    let names = eval.parameter_names();
    let mut values = eval.parameters();
    assert_eq!(names.len(), values.len());
    assert_eq!(names[1], "student_a1");
    assert_eq!(names[50], "master_e5");
    assert_eq!(names[52], "attacks");
    assert_eq!(names.len(), 53 + 880);
    assert_eq!(names[53], "tiger_student_a1");
    assert_eq!(names[53 + 440], "tiger_student_a1_end");
    let unique: std::collections::HashSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len());
    values[0] = 250;
    values[50] = -7;
    let frog_a1 = names.iter().position(|n| n == "frog_student_a1").unwrap();
    let tiger_b4 = names.iter().position(|n| n == "tiger_master_b4").unwrap();
    values[frog_a1] = 9;
    values[tiger_b4] = -5;
    eval.set_parameters(&values).unwrap();
    assert_eq!(eval.weights().student, 250);
    assert_eq!(eval.weights().master_squares[24], -7);
    // Tied by mirror symmetry: rabbit reads frog's table mirrored, tiger's d4 is its b4.
    let (frog, rabbit, tiger) = (8, 12, 0);
    assert_eq!(eval.weights().cards[frog][0][0], 9);
    assert_eq!(eval.weights().cards[rabbit][0][4], 9);
    assert_eq!(eval.weights().cards[tiger][1][16], -5);
    assert_eq!(eval.weights().cards[tiger][1][18], -5);
    // The second card of a pair and a symmetric card's files d and e are not weights.
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("rabbit") || n == "tiger_student_d1")
    );
    assert_eq!(eval.parameters(), values);
    assert!(eval.set_parameters(&values[1..]).is_err());
}

#[test]
fn the_shipped_weights_fit_and_add_card_tables() {
    let tuned = PstEvaluator::tuned();
    let values = plies::weights::parse_weights(TUNED_WEIGHTS, &tuned.parameter_names());
    assert_eq!(values.unwrap(), tuned.parameters());
    assert!(TUNED_WEIGHTS.contains("# produced by: onitama tune texel"));
    // The student value fixes the scale; the tables were fitted.
    let (default, tuned) = (PstWeights::default(), tuned.weights().clone());
    assert_eq!(tuned.student, default.student);
    assert_ne!(tuned.cards, default.cards);
    assert_ne!(tuned.cards_end, default.cards_end);
}

/// `weights/hand-set.txt`, the baseline of the tuned weights' match, is the default.
#[test]
fn the_hand_set_file_is_the_default() {
    let default = PstEvaluator::default();
    let text = include_str!("../../weights/hand-set.txt");
    let values = plies::weights::parse_weights(text, &default.parameter_names()).unwrap();
    assert_eq!(values, default.parameters());
}

/// The position seen in a mirror (files a..e reversed, each card replaced by its mirror
/// card) is worth the same: the tables honour the game's left-right symmetry.
#[test]
fn mirrored_positions_score_the_same() {
    let mut eval = PstEvaluator::default();
    let mut values = eval.parameters();
    for (i, value) in values.iter_mut().enumerate().skip(53) {
        *value = (i as i32 * 53) % 41 - 20;
    }
    eval.set_parameters(&values).unwrap();
    let mirror_name = |name: &str| -> String {
        let card = CARDS.iter().position(|c| c.name == name).unwrap();
        if card < 16 {
            CARDS[mirror_card(card)].name.to_string()
        } else {
            name.to_string()
        }
    };
    let mirror = |text: &str| -> String {
        let mut fields = text.split(' ');
        let board: Vec<String> = fields
            .next()
            .unwrap()
            .split('/')
            .map(|rank| rank.chars().rev().collect())
            .collect();
        let mut out = board.join("/");
        out.push(' ');
        out.push_str(fields.next().unwrap());
        for field in fields {
            let cards: Vec<String> = field.split(',').map(mirror_name).collect();
            out.push(' ');
            out.push_str(&cards.join(","));
        }
        out
    };
    let mut rng = plies::rng::SplitMix64::new(5);
    let mut moves = Vec::new();
    let mut compared = 0;
    for deal in crate::BENCH_DEALS.iter() {
        let mut state = Onitama::parse_position(deal).unwrap();
        for _ in 0..30 {
            let text = Onitama::format_position(&state);
            let mirrored = Onitama::parse_position(&mirror(&text)).unwrap();
            assert_eq!(eval.evaluate(&state), eval.evaluate(&mirrored), "{text}");
            compared += 1;
            moves.clear();
            plies::Game::generate_moves(&state, &mut moves);
            if moves.is_empty() || plies::Game::outcome(&state).is_some() {
                break;
            }
            state = plies::Game::play(&state, moves[rng.below(moves.len())]);
        }
    }
    assert!(compared > 100);
    // And the card tables do count: some position changes when they are set.
    let start = Onitama::parse_position(crate::BENCH_DEALS[0]).unwrap();
    let moved = plies::Game::play(&start, {
        moves.clear();
        plies::Game::generate_moves(&start, &mut moves);
        moves[0]
    });
    assert_ne!(
        eval.evaluate(&moved),
        PstEvaluator::default().evaluate(&moved)
    );
}

/// Every field of the weights, written out independently of `visit_weights`: `student`,
/// `student_squares`, `master_squares`, `mobility`, `attacks`, then `cards` and `cards_end`
/// by card, piece and square.
fn all_fields(w: &PstWeights) -> Vec<i32> {
    let mut all = vec![w.student];
    all.extend(w.student_squares);
    all.extend(w.master_squares);
    all.extend([w.mobility, w.attacks]);
    all.extend(w.cards.iter().chain(&w.cards_end).flatten().flatten());
    all
}

/// The indices in [`all_fields`] that the weight `name` sets: one, or for a card weight also
/// its mirror twin (the same index for a symmetric card's file c).
fn fields_of(name: &str) -> Vec<usize> {
    let square = |text: &str| {
        let (file, rank) = text.split_at(1);
        let file = "abcde".find(file).unwrap();
        let rank: usize = rank.parse().unwrap();
        assert!((1..=5).contains(&rank), "{name}");
        5 * (rank - 1) + file
    };
    let (base, end) = match name.strip_suffix("_end") {
        Some(base) => (base, 1),
        None => (name, 0),
    };
    let parts: Vec<&str> = base.split('_').collect();
    match parts[..] {
        ["student"] if end == 0 => vec![0],
        ["student", at] if end == 0 => vec![1 + square(at)],
        ["master", at] if end == 0 => vec![26 + square(at)],
        ["mobility"] if end == 0 => vec![51],
        ["attacks"] if end == 0 => vec![52],
        [card, piece, at] => {
            let card = CARDS[..16].iter().position(|c| c.name == card).unwrap();
            let piece = ["student", "master"]
                .iter()
                .position(|p| *p == piece)
                .unwrap();
            let at = square(at);
            let field = |card: usize, at: usize| 53 + ((end * 16 + card) * 2 + piece) * 25 + at;
            let mut fields = vec![field(card, at), field(mirror_card(card), mirror_square(at))];
            fields.dedup();
            fields
        }
        _ => panic!("unexpected weight name {name}"),
    }
}

/// The one listing behind `parameter_names`, `parameters` and `set_parameters`: the names are
/// unique and in the order of the shipped files (written by the listing before it was one),
/// one per value; setting the values read round-trips; setting one named weight changes
/// exactly its field (and its mirror twin's), and no other value; a wrong count is refused
/// and changes nothing.
#[test]
fn each_named_weight_sets_its_own_field() {
    let mut eval = PstEvaluator::tuned();
    let names = eval.parameter_names();
    let values = eval.parameters();
    assert_eq!((names.len(), values.len()), (933, 933));
    let unique: std::collections::HashSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len());
    for file in [TUNED_WEIGHTS, include_str!("../../weights/hand-set.txt")] {
        let in_file: Vec<&str> = file
            .lines()
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(|line| line.split(' ').next().unwrap())
            .collect();
        assert_eq!(in_file, names);
    }

    let tuned = PstEvaluator::tuned();
    eval.set_parameters(&values).unwrap();
    assert_eq!(eval, tuned);
    assert_eq!(eval.parameters(), values);
    let before = all_fields(tuned.weights());
    let mut covered = vec![false; before.len()];
    for (i, name) in names.iter().enumerate() {
        let mut changed = values.clone();
        changed[i] = 1000 + i as i32; // no tuned weight is this large
        eval.set_parameters(&changed).unwrap();
        assert_eq!(eval.parameters(), changed, "{name}");
        let after = all_fields(eval.weights());
        let fields = fields_of(name);
        for (field, (old, new)) in before.iter().zip(&after).enumerate() {
            let expected = if fields.contains(&field) {
                covered[field] = true;
                changed[i]
            } else {
                *old
            };
            assert_eq!(*new, expected, "{name}: field {field}");
        }
    }
    assert!(
        covered.iter().all(|&c| c),
        "every field is some weight or its twin"
    );

    eval.set_parameters(&values).unwrap();
    let mut more = values.clone();
    more.push(1);
    for (wrong, got) in [(&values[1..], 932), (&more[..], 934), (&[][..], 0)] {
        let err = ParameterError::WrongCount { expected: 933, got };
        assert_eq!(eval.set_parameters(wrong), Err(err));
        assert_eq!(eval, tuned);
    }
}
