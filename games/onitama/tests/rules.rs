//! Rules tests: cards (offsets and stamps as printed in the rules document), passes, wins,
//! card exchange, and random playouts checking the invariants of `plies::Game`.

use plies::rng::SplitMix64;
use plies::{Game, MoveClass, Notation, Outcome, Side};
use plies_onitama::{Card, Move, Onitama, Square};

/// The cards as printed in the rules document: name, stamp, offsets (dx right, dy forward).
const RULES_CARDS: &str = "
tiger b 0,2 0,-1
crab b 0,1 -2,0 2,0
monkey b -1,1 1,1 -1,-1 1,-1
crane b 0,1 -1,-1 1,-1
dragon r -2,1 2,1 -1,-1 1,-1
elephant r -1,1 1,1 -1,0 1,0
mantis r -1,1 1,1 0,-1
boar r 0,1 -1,0 1,0
frog r -1,1 -2,0 1,-1
goose b -1,1 -1,0 1,0 1,-1
horse r 0,1 -1,0 0,-1
eel b -1,1 1,0 -1,-1
rabbit b 1,1 2,0 -1,-1
rooster r 1,1 -1,0 1,0 -1,-1
ox b 0,1 1,0 0,-1
cobra r -1,0 1,1 1,-1
giraffe b -2,1 2,1 0,-1
kirin r -1,2 1,2 0,-2
phoenix b -1,1 1,1 -2,0 2,0
turtle r -2,0 2,0 -1,-1 1,-1
dog b -1,1 -1,0 -1,-1
fox r 1,1 1,0 1,-1
bear b 0,1 -1,1 1,-1
panda r 0,1 1,1 -1,-1
viper r 0,1 -2,0 1,-1
sea-snake b 0,1 2,0 -1,-1
rat r 0,1 -1,0 1,-1
mouse b 0,1 1,0 -1,-1
iguana r 0,1 -2,1 1,-1
tanuki b 0,1 2,1 -1,-1
otter r -1,1 2,0 1,-1
sable b 1,1 -2,0 -1,-1
";

struct RulesCard {
    card: Card,
    stamp: Side,
    offsets: Vec<(i32, i32)>,
}

fn rules_cards() -> Vec<RulesCard> {
    RULES_CARDS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let card = Card::parse(words[0]).unwrap_or_else(|| panic!("card {}", words[0]));
            let stamp = if words[1] == "r" {
                Side::First
            } else {
                Side::Second
            };
            let offsets = words[2..]
                .iter()
                .map(|w| {
                    let (x, y) = w.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            RulesCard {
                card,
                stamp,
                offsets,
            }
        })
        .collect()
}

fn squares(names: &[&str]) -> Vec<Square> {
    let mut v: Vec<Square> = names.iter().map(|n| Square::parse(n).unwrap()).collect();
    v.sort();
    v
}

#[test]
fn every_card_from_the_centre_for_both_players() {
    let cards = rules_cards();
    assert_eq!(cards.len(), 32);
    for rc in &cards {
        for (side, sign) in [(Side::First, 1), (Side::Second, -1)] {
            // From c3 every offset stays on the board (|dx|, |dy| <= 2).
            let mut expected: Vec<Square> = rc
                .offsets
                .iter()
                .map(|&(dx, dy)| Square::from_coords(2 + sign * dx, 2 + sign * dy).unwrap())
                .collect();
            expected.sort();
            let got: Vec<Square> = rc.card.targets(side, Square::C3).collect();
            assert_eq!(got, expected, "{} for {side:?}", rc.card);
        }
    }
}

#[test]
fn every_card_from_a_corner_drops_off_board_targets() {
    for rc in &rules_cards() {
        let a1 = Square::parse("a1").unwrap();
        let mut expected: Vec<Square> = rc
            .offsets
            .iter()
            .filter_map(|&(dx, dy)| Square::from_coords(dx, dy))
            .collect();
        expected.sort();
        assert_eq!(
            rc.card.targets(Side::First, a1).collect::<Vec<_>>(),
            expected
        );
        // Blue on e5 sees the board exactly as red on a1.
        let e5 = Square::parse("e5").unwrap();
        let mirrored: Vec<Square> = rc
            .card
            .targets(Side::Second, e5)
            .map(Square::flip)
            .collect();
        let mut mirrored = mirrored;
        mirrored.sort();
        assert_eq!(mirrored, expected, "{}", rc.card);
    }
}

#[test]
fn hand_checked_targets() {
    let tiger = Card::TIGER;
    assert_eq!(
        tiger.targets(Side::First, Square::C3).collect::<Vec<_>>(),
        squares(&["c5", "c2"])
    );
    assert_eq!(
        tiger.targets(Side::Second, Square::C3).collect::<Vec<_>>(),
        squares(&["c1", "c4"])
    );
    let b2 = Square::parse("b2").unwrap();
    assert_eq!(
        Card::DRAGON.targets(Side::First, b2).collect::<Vec<_>>(),
        squares(&["d3", "a1", "c1"])
    );
    assert_eq!(
        Card::DRAGON.targets(Side::Second, b2).collect::<Vec<_>>(),
        squares(&["d1", "a3", "c3"])
    );
}

#[test]
fn stamps_and_the_first_player() {
    let cards = rules_cards();
    for rc in &cards {
        assert_eq!(rc.card.stamp(), rc.stamp, "{}", rc.card);
        // Deal four other cards; the side card decides who moves first.
        let others: Vec<Card> = cards
            .iter()
            .map(|c| c.card)
            .filter(|&c| c != rc.card)
            .take(4)
            .collect();
        let game =
            Onitama::new_game([others[0], others[1]], [others[2], others[3]], rc.card).unwrap();
        assert_eq!(game.side_to_move(), rc.stamp, "side card {}", rc.card);
    }
    let start = Onitama::new_game(
        [Card::MONKEY, Card::CRANE],
        [Card::TIGER, Card::CRAB],
        Card::DRAGON,
    )
    .unwrap();
    assert_eq!(start, Onitama::start_position());
    let err = Onitama::new_game(
        [Card::OX, Card::OX],
        [Card::TIGER, Card::CRAB],
        Card::DRAGON,
    )
    .unwrap_err();
    assert_eq!(err.token, "ox");
}

fn position(text: &str) -> Onitama {
    Onitama::parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn pass_position_has_exactly_two_passes() {
    let pos = position("4R/4r/4r/B3r/4r r tiger,ox crab,boar horse");
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert_eq!(moves, vec![Move::pass(Card::TIGER), Move::pass(Card::OX)]);
    assert_eq!(pos.move_count(), 2);
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.classify(moves[0]), MoveClass::Quiet);
    let after = pos.play(Move::pass(Card::TIGER));
    assert_eq!(
        after.format_position(),
        "4R/4r/4r/B3r/4r b horse,ox crab,boar tiger"
    );
    assert_eq!(pos.format_move(moves[1]), "ox pass");
    assert_eq!(pos.parse_move("OX PASS"), Ok(moves[1]));
}

#[test]
fn used_card_goes_to_the_side_and_the_side_card_to_the_mover() {
    let start = Onitama::start_position();
    let next = start.play(start.parse_move("crane c1-c2").unwrap());
    assert_eq!(next.side_to_move(), Side::Second);
    assert_eq!(next.hand(Side::First), [Card::MONKEY, Card::DRAGON]);
    assert_eq!(next.side_card(), Card::CRANE);
    assert_eq!(next.hand(Side::Second), [Card::TIGER, Card::CRAB]);
}

#[test]
fn same_step_with_two_cards_is_two_moves() {
    // Red holds two cards that both move c2 to c3 (forward one).
    let pos = position("2B2/5/5/2r2/R4 r ox,boar tiger,crab dragon");
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let c2c3: Vec<&Move> = moves
        .iter()
        .filter(|m| pos.format_move(**m).ends_with("c2-c3"))
        .collect();
    assert_eq!(c2c3.len(), 2);
    assert_ne!(c2c3[0], c2c3[1]);
    assert_ne!(pos.move_index(*c2c3[0]), pos.move_index(*c2c3[1]));
}

#[test]
fn wins_by_capturing_the_master_or_reaching_the_temple() {
    // Red master on c4 with Ox: c4-c5 reaches blue's temple; c4-d4 captures the blue master.
    let pos = position("5/2RB1/5/5/b1r2 r ox,crab tiger,boar dragon");
    let temple = pos.parse_move("ox c4-c5").unwrap();
    let capture = pos.parse_move("ox c4-d4").unwrap();
    let quiet = pos.parse_move("crab c1-c2").unwrap();
    assert_eq!(pos.classify(temple), MoveClass::Win);
    assert_eq!(pos.classify(capture), MoveClass::Win);
    assert_eq!(pos.classify(quiet), MoveClass::Quiet);
    for mv in [temple, capture] {
        let end = pos.play(mv);
        assert_eq!(end.outcome(), Some(Outcome::Win(Side::First)));
        assert_eq!(end.side_to_move(), Side::Second, "the loser is to move");
        let mut moves = Vec::new();
        end.generate_moves(&mut moves);
        end.generate_noisy_moves(&mut moves);
        assert!(moves.is_empty());
        assert!(end.parse_move("tiger d4-d2").is_err());
    }
    // A student on the temple wins nothing; a student capture is a capture.
    let pos = position("5/1r2B/5/5/b1R2 r ox,crab tiger,boar dragon");
    let student_to_temple = pos.parse_move("ox b4-b5").unwrap();
    assert_eq!(pos.classify(student_to_temple), MoveClass::Quiet);
    let student_capture = pos.parse_move("crab c1-a1").unwrap();
    assert_eq!(pos.classify(student_capture), MoveClass::Capture);
    let mut noisy = Vec::new();
    pos.generate_noisy_moves(&mut noisy);
    assert_eq!(noisy, vec![student_capture]);
    // Blue wins on red's temple c1.
    let pos = position("5/5/5/r1B2/4R b ox,crab tiger,boar dragon");
    let end = pos.play(pos.parse_move("boar c2-c1").unwrap());
    assert_eq!(end.outcome(), Some(Outcome::Win(Side::Second)));
}

/// Random playouts from many deals: the `Game` invariants hold at every position.
#[test]
fn random_playouts_keep_the_invariants() {
    let mut rng = SplitMix64::new(0x0417_0001);
    let mut moves = Vec::new();
    let mut noisy = Vec::new();
    let mut finished = 0;
    for _ in 0..400 {
        // A random deal of five distinct cards out of all 32.
        let mut ids: Vec<u8> = (0..32).collect();
        for i in 0..5 {
            let j = i + rng.below(32 - i);
            ids.swap(i, j);
        }
        let card = |i: usize| Card::new(ids[i]).unwrap();
        let mut state = Onitama::new_game([card(0), card(1)], [card(2), card(3)], card(4)).unwrap();
        for _ply in 0..200 {
            assert_eq!(state.hash(), state.hash_from_scratch());
            let text = state.format_position();
            assert_eq!(Onitama::parse_position(&text), Ok(state), "{text}");
            moves.clear();
            state.generate_moves(&mut moves);
            assert_eq!(moves.len(), state.move_count());
            assert_eq!(state.outcome().is_some(), moves.is_empty());
            let mut indices: Vec<usize> = moves.iter().map(|&m| state.move_index(m)).collect();
            indices.sort_unstable();
            indices.dedup();
            assert_eq!(indices.len(), moves.len());
            assert!(indices.iter().all(|&i| i < state.move_index_bound()));
            noisy.clear();
            state.generate_noisy_moves(&mut noisy);
            let mut expected: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| state.classify(m).is_noisy())
                .collect();
            // Same moves, each once (the bit-parallel generator has its own order).
            noisy.sort_unstable_by_key(|m| m.index());
            expected.sort_unstable_by_key(|m| m.index());
            assert_eq!(noisy, expected);
            // Quiet moves: exactly the others, in generation order; the index look-up agrees.
            noisy.clear();
            state.generate_quiet_moves(&mut noisy);
            let expected: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| !state.classify(m).is_noisy())
                .collect();
            assert_eq!(noisy, expected);
            for &mv in &moves {
                assert_eq!(state.move_from_index(state.move_index(mv)), Some(mv));
            }
            // Threatened = the opponent, moving now with its own cards, would have a win.
            if state.outcome().is_none() {
                let text = state.format_position();
                let flipped = if text.contains(" r ") {
                    text.replacen(" r ", " b ", 1)
                } else {
                    text.replacen(" b ", " r ", 1)
                };
                let passed = Onitama::parse_position(&flipped).unwrap();
                noisy.clear();
                passed.generate_noisy_moves(&mut noisy);
                let can_win = noisy.iter().any(|&m| passed.classify(m) == MoveClass::Win);
                assert_eq!(state.is_threatened(), can_win, "{text}");
            }
            for &mv in &moves {
                assert_eq!(state.parse_move(&state.format_move(mv)), Ok(mv));
                let child = state.play(mv);
                let ends = child.outcome().is_some();
                assert_eq!(ends, state.classify(mv) == MoveClass::Win);
                assert_ne!(child.side_to_move(), state.side_to_move());
            }
            if moves.is_empty() {
                finished += 1;
                break;
            }
            state = state.play(moves[rng.below(moves.len())]);
        }
    }
    assert!(finished > 100, "only {finished} playouts finished");
}

#[test]
fn hash_covers_cards_and_side_to_move() {
    let base = "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon";
    let variants = [
        "bbBbb/5/5/5/rrRrr b monkey,crane tiger,crab dragon",
        "bbBbb/5/5/5/rrRrr r tiger,crab monkey,crane dragon",
        "bbBbb/5/5/5/rrRrr r monkey,dragon tiger,crab crane",
        "bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab ox",
        "bbBbb/5/5/5/rRrrr r monkey,crane tiger,crab dragon",
    ];
    let base_hash = Onitama::parse_position(base).unwrap().hash();
    for text in variants {
        let pos = Onitama::parse_position(text).unwrap();
        assert_ne!(pos.hash(), base_hash, "{text}");
        assert_eq!(pos.hash(), pos.hash_from_scratch());
    }
}
