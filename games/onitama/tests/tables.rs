//! Onitama's endgame tables checked from outside: against their successors, against a
//! value-exact search without them (10,000 random positions), by playing won positions out
//! with them, and across the left-right mirror (which maps a deal onto the deal of the mirrored
//! cards, the start deal onto itself).

use std::sync::Arc;

use plies::harness::{check_table_against_search, check_table_conversion, check_table_successors};
use plies::rng::SplitMix64;
use plies::search::{PvsConfig, SearchLimits};
use plies::solve::{PositionSet, Probe, TableValue};
use plies::spec::SearcherSpec;
use plies::{Game, GameHistory, Notation};
use plies_onitama::tables::{BuildOptions, DealTables, MaterialSet};
use plies_onitama::{Card, MaterialEvaluator, Onitama, PstEvaluator};

fn cards(names: [&str; 5]) -> [Card; 5] {
    names.map(|name| Card::parse(name).expect("a card"))
}

fn start_deal() -> [Card; 5] {
    cards(["tiger", "crab", "monkey", "crane", "dragon"])
}

/// `count` positions drawn at random from every material of at most `pieces` pieces, in
/// proportion to the materials' sizes; the holes and finished games are skipped.
fn random_positions(deal: [Card; 5], pieces: u8, count: usize, seed: u64) -> Vec<Onitama> {
    let sets: Vec<MaterialSet> = (0..=pieces - 2)
        .flat_map(|red| (0..=pieces - 2 - red).map(move |blue| (red, blue)))
        .map(|(red, blue)| MaterialSet::new(deal, red, blue))
        .collect();
    let total: u64 = sets.iter().map(PositionSet::size).sum();
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut index = rng.next_u64() % total;
        for set in &sets {
            if index < set.size() {
                if let Some(position) = set.position(index)
                    && position.outcome().is_none()
                {
                    positions.push(position);
                }
                break;
            }
            index -= set.size();
        }
    }
    positions
}

fn build(deal: [Card; 5], pieces: u8) -> DealTables {
    DealTables::build(deal, pieces, 2, None, &mut |_| {}).expect("tables")
}

#[test]
fn every_value_agrees_with_the_successors() {
    let tables = build(start_deal(), 4);
    let positions = random_positions(start_deal(), 4, 20_000, 1);
    let checked = check_table_successors(&tables, &positions).unwrap();
    assert_eq!(checked, 20_000);
}

#[test]
fn ten_thousand_values_agree_with_a_search_without_tables() {
    let tables = build(start_deal(), 4);
    let positions = random_positions(start_deal(), 4, 10_000, 2);
    // The top rung of the consistency ladder: the value-exact PVS the harness proves equal to
    // plain minimax.
    let exact = PvsConfig::consistency_ladder().pop().expect("a ladder").1;
    let mut search = SearcherSpec::Pvs(exact)
        .build::<Onitama, _>(MaterialEvaluator)
        .unwrap();
    let check = check_table_against_search(&tables, &positions, search.as_mut(), 7).unwrap();
    assert_eq!(check.decided + check.beyond, 10_000, "{check:?}");
    // Both kinds are there in number: short decided games and longer or drawn ones.
    assert!(check.decided > 2_000 && check.beyond > 500, "{check:?}");
}

#[test]
fn the_engine_converts_won_positions_in_exactly_their_distance() {
    let tables: Arc<dyn Probe<Onitama>> = Arc::new(build(start_deal(), 4));
    let positions: Vec<Onitama> = random_positions(start_deal(), 4, 20_000, 3)
        .into_iter()
        .filter(|p| matches!(tables.probe(p), Some(TableValue::Win(_))))
        .take(1_000)
        .collect();
    assert_eq!(positions.len(), 1_000);
    let mut engine = SearcherSpec::default()
        .build::<Onitama, _>(MaterialEvaluator)
        .unwrap();
    let played =
        check_table_conversion(tables, &positions, engine.as_mut(), &SearchLimits::depth(2))
            .unwrap();
    assert_eq!(played, 1_000);
}

#[test]
fn won_positions_without_distances_are_converted() {
    // 5-piece tables keep win, draw or loss only (the default above 4 pieces); a build with
    // distances referees. The engine (as it plays, a shallow fixed depth) takes the winning
    // side against a defender that always plays the longest loss the exact tables know.
    let deal = start_deal();
    let wdl = build(deal, 5);
    let options = BuildOptions {
        pieces: 5,
        max_side: 2,
        threads: 2,
        reference: false,
        distances: 5,
    };
    let exact = DealTables::build_with(deal, &options, None, &mut |_| {}).expect("tables");
    let pieces = |p: &Onitama| {
        let text = p.format_position();
        let board = text.split(' ').next().expect("a board").to_string();
        board.chars().filter(|c| "rRbB".contains(*c)).count()
    };
    let positions: Vec<Onitama> = random_positions(deal, 5, 200_000, 7)
        .into_iter()
        .filter(|p| pieces(p) == 5 && matches!(exact.value(p), Some(TableValue::Win(d)) if d >= 9))
        .take(300)
        .collect();
    assert_eq!(positions.len(), 300);
    let tables: Arc<dyn Probe<Onitama>> = Arc::new(wdl);
    let mut engine = SearcherSpec::default()
        .build::<Onitama, _>(PstEvaluator::default())
        .unwrap();
    engine
        .set_endgame_tables(Some(Arc::clone(&tables)))
        .unwrap();
    let (mut plies, mut distances) = (0, 0);
    for start in &positions {
        assert_eq!(tables.probe(start), Some(TableValue::Won));
        let Some(TableValue::Win(distance)) = exact.value(start) else {
            unreachable!("chosen as a win");
        };
        distances += distance;
        engine.clear();
        let winner = start.side_to_move();
        let mut state = *start;
        let mut history = GameHistory::new(&state);
        let mut played = 0;
        while state.outcome().is_none() {
            assert!(
                played < 200,
                "{} not won in 200 plies",
                start.format_position()
            );
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            let mv = if state.side_to_move() == winner {
                let mv = engine
                    .search_in(&state, &history, &SearchLimits::depth(4))
                    .best_move
                    .expect("a move");
                let next = state.play(mv);
                let kept = next.outcome().map_or_else(
                    || match exact.value(&next) {
                        Some(TableValue::Win(_)) => next.side_to_move() == winner,
                        Some(TableValue::Loss(_)) => next.side_to_move() != winner,
                        _ => false,
                    },
                    |o| o.winner() == Some(winner),
                );
                assert!(kept, "{} gave up the win", state.format_position());
                mv
            } else {
                // The longest loss (an extra turn cannot happen in Onitama).
                *moves
                    .iter()
                    .max_by_key(|&&m| match exact.value(&state.play(m)) {
                        Some(TableValue::Win(d)) => d,
                        _ => 0,
                    })
                    .expect("a move")
            };
            let mover = state.side_to_move();
            state = state.play(mv);
            history.play(mover, &state);
            played += 1;
        }
        assert_eq!(state.outcome().and_then(|o| o.winner()), Some(winner));
        plies += played;
    }
    // Not in the shortest way (nothing tells the engine how far a win is), but close to it: the
    // search looks past the children for the captures into the 4-piece tables and the wins.
    assert!(
        plies * 4 <= distances * 5,
        "{plies} plies for {distances} at best"
    );
}

/// The position text mirrored left to right, its cards replaced by `mirror`'s.
fn mirrored(position: &Onitama, mirror: &dyn Fn(&str) -> String) -> Onitama {
    let text = position.format_position();
    let mut fields = text.split(' ');
    let board = fields.next().expect("a board");
    let ranks: Vec<String> = board
        .split('/')
        .map(|rank| {
            let mut squares = String::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => squares.extend(std::iter::repeat_n('.', n as usize)),
                    None => squares.push(c),
                }
            }
            let reversed: String = squares.chars().rev().collect();
            let mut out = String::new();
            let mut run = 0;
            for c in reversed.chars() {
                if c == '.' {
                    run += 1;
                } else {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(c);
                }
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            out
        })
        .collect();
    let side = fields.next().expect("a side");
    let hands: Vec<String> = fields
        .map(|field| field.split(',').map(mirror).collect::<Vec<_>>().join(","))
        .collect();
    let text = format!("{} {side} {}", ranks.join("/"), hands.join(" "));
    Onitama::parse_position(&text).expect("a mirrored position")
}

#[test]
fn mirrored_positions_have_the_same_value() {
    // The start deal's cards are all symmetric: the mirror is a position of the same deal.
    let tables = build(start_deal(), 4);
    let same = |name: &str| name.to_string();
    for position in random_positions(start_deal(), 4, 5_000, 4) {
        let image = mirrored(&position, &same);
        assert_eq!(
            tables.value(&position),
            tables.value(&image),
            "{} and {}",
            position.format_position(),
            image.format_position()
        );
    }
    // Frog, goose, eel and horse mirror to rabbit, rooster, cobra and ox (the rules' offsets).
    let deal = cards(["frog", "goose", "eel", "horse", "tiger"]);
    let image_deal = cards(["rabbit", "rooster", "cobra", "ox", "tiger"]);
    let pairs = [
        ("frog", "rabbit"),
        ("goose", "rooster"),
        ("eel", "cobra"),
        ("horse", "ox"),
    ];
    let mirror = |name: &str| {
        pairs
            .iter()
            .find_map(|&(a, b)| {
                (a == name)
                    .then_some(b)
                    .or((b == name).then_some(a))
                    .map(str::to_string)
            })
            .unwrap_or_else(|| name.to_string())
    };
    let (tables, image_tables) = (build(deal, 4), build(image_deal, 4));
    let mut decided = 0;
    for position in random_positions(deal, 4, 5_000, 5) {
        let image = mirrored(&position, &mirror);
        let value = tables.value(&position);
        assert_eq!(
            value,
            image_tables.value(&image),
            "{} and {}",
            position.format_position(),
            image.format_position()
        );
        decided += usize::from(matches!(
            value,
            Some(TableValue::Win(_) | TableValue::Loss(_))
        ));
    }
    assert!(decided > 2_000, "{decided}");
}

/// Tables with one value off by a ply.
struct OneWrong<'a> {
    tables: &'a DealTables,
    wrong: Onitama,
}

impl Probe<Onitama> for OneWrong<'_> {
    fn probe(&self, state: &Onitama) -> Option<TableValue> {
        let value = self.tables.value(state)?;
        Some(match value {
            TableValue::Win(d) if *state == self.wrong => TableValue::Win(d + 2),
            other => other,
        })
    }
}

#[test]
fn the_checks_catch_a_wrong_value() {
    let tables = build(start_deal(), 3);
    let positions = random_positions(start_deal(), 3, 2_000, 6);
    let wrong = *positions
        .iter()
        .find(|p| matches!(tables.value(p), Some(TableValue::Win(d)) if d <= 3))
        .expect("a short win");
    let bad = OneWrong {
        tables: &tables,
        wrong,
    };
    let err = check_table_successors(&bad, &[wrong]).unwrap_err();
    assert!(err.to_string().contains(&wrong.format_position()), "{err}");
    let exact = PvsConfig::consistency_ladder().pop().expect("a ladder").1;
    let mut search = SearcherSpec::Pvs(exact)
        .build::<Onitama, _>(MaterialEvaluator)
        .unwrap();
    assert!(check_table_against_search(&bad, &[wrong], search.as_mut(), 7).is_err());
    assert!(check_table_against_search(&tables, &[wrong], search.as_mut(), 7).is_ok());
}

/// Some deals have 4-piece positions decided in more plies than a byte stores: their tables
/// are wide, and just as right.
#[test]
fn long_distances_are_kept_exactly() {
    let deal = cards(["goose", "rabbit", "cobra", "crane", "ox"]);
    let tables = build(deal, 4);
    assert!(tables.longest() > 125, "{}", tables.longest());
    let positions = random_positions(deal, 4, 10_000, 7);
    assert_eq!(check_table_successors(&tables, &positions).unwrap(), 10_000);
    let longest = positions
        .iter()
        .filter_map(|p| match tables.value(p) {
            Some(TableValue::Win(d) | TableValue::Loss(d)) => Some(d),
            _ => None,
        })
        .max();
    assert!(longest > Some(20), "{longest:?}");
}

/// Tables of `pieces` pieces whose materials of more than `distances` pieces are win/draw/loss
/// planes.
fn build_planes(deal: [Card; 5], pieces: u8, distances: u8) -> DealTables {
    let options = BuildOptions {
        pieces,
        max_side: 4,
        threads: 2,
        reference: false,
        distances,
    };
    DealTables::build_with(deal, &options, None, &mut |_| {}).expect("tables")
}

/// Win/draw/loss planes (the 4-piece materials here, over 3-piece tables with distances) pass
/// the same checks: a win of unknown length has a move to a loss, a loss only moves to wins, a
/// draw a move to a draw and none to a loss; a value-exact search never finds the other side
/// winning; and they say what the tables with distances say, without the distance.
#[test]
fn win_draw_loss_planes_agree_with_successors_search_and_distances() {
    let planes = build_planes(start_deal(), 4, 3);
    let exact = build(start_deal(), 4);
    let positions = random_positions(start_deal(), 4, 10_000, 8);
    assert_eq!(check_table_successors(&planes, &positions).unwrap(), 10_000);
    let mut unknown = 0;
    for position in &positions {
        let value = planes.value(position);
        let expected = exact.value(position);
        if matches!(value, Some(TableValue::Won | TableValue::Lost)) {
            assert_eq!(value, expected.map(TableValue::outcome_only));
            unknown += 1;
        } else {
            // 3 pieces or fewer, or a draw: the same value.
            assert_eq!(value, expected, "{}", position.format_position());
        }
    }
    assert!(unknown > 2_000, "{unknown}");
    let ladder = PvsConfig::consistency_ladder().pop().expect("a ladder").1;
    let mut search = SearcherSpec::Pvs(ladder)
        .build::<Onitama, _>(MaterialEvaluator)
        .unwrap();
    let check =
        check_table_against_search(&planes, &positions[..2_000], search.as_mut(), 5).unwrap();
    assert_eq!(check.decided + check.beyond, 2_000, "{check:?}");
}

/// Planes with one win turned into a draw.
struct WonAsDrawn<'a> {
    tables: &'a DealTables,
    wrong: Onitama,
}

impl Probe<Onitama> for WonAsDrawn<'_> {
    fn probe(&self, state: &Onitama) -> Option<TableValue> {
        let value = self.tables.value(state)?;
        Some(if *state == self.wrong {
            TableValue::Draw
        } else {
            value
        })
    }
}

#[test]
fn the_checks_catch_a_wrong_plane_value() {
    let planes = build_planes(start_deal(), 4, 3);
    let positions = random_positions(start_deal(), 4, 2_000, 9);
    // A win whose successors are all held by planes of unknown length.
    let wrong = *positions
        .iter()
        .find(|p| matches!(planes.value(p), Some(TableValue::Won)))
        .expect("a win of unknown length");
    let bad = WonAsDrawn {
        tables: &planes,
        wrong,
    };
    let err = check_table_successors(&bad, &[wrong]).unwrap_err();
    assert!(err.to_string().contains(&wrong.format_position()), "{err}");
    assert_eq!(check_table_successors(&planes, &[wrong]).unwrap(), 1);
}
