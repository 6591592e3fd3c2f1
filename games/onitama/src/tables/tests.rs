//! Unit tests of the Onitama table numbering ([`super`]) and of a solved masters-only table
//! against a value-exact search.

use super::*;
use plies::search::{PvsConfig, SearchLimits};
use plies::solve::{Solver, Table, TableValue};
use plies::spec::SearcherSpec;
use plies::{Game, Notation, Score};

use crate::eval::MaterialEvaluator;

fn deal() -> [Card; 5] {
    named(["monkey", "crane", "tiger", "crab", "dragon"])
}

#[test]
fn numbers_and_positions_are_inverse() {
    assert_eq!(CHOOSE[23][2], 253);
    assert_eq!(CHOOSE[5][0], 1);
    for (red, blue) in [(0, 0), (1, 0), (0, 1), (2, 1), (4, 4)] {
        let set = MaterialSet::new(deal(), red, blue);
        let size = set.size();
        // Every number of the smaller sets, a spread of the bigger ones.
        let step = (size / 200_000).max(1);
        let mut seen = 0;
        for index in (0..size).step_by(step as usize).chain([size - 1]) {
            let Some(state) = set.position(index) else {
                // A hole: both masters on the enemy temples.
                continue;
            };
            assert_eq!(set.index(&state), Some(index), "{red}+{blue} #{index}");
            assert_eq!(state.students(Side::First).0.count_ones(), u32::from(red));
            assert_eq!(state.students(Side::Second).0.count_ones(), u32::from(blue));
            // The text of the position reads back to the same number.
            let again = Onitama::parse_position(&state.format_position()).unwrap();
            assert_eq!(set.index(&again), Some(index));
            seen += 1;
        }
        assert!(seen > 30, "{seen}");
        // Other material or another deal: not in the set.
        let more = if red < 4 { red + 1 } else { red - 1 };
        let other = set.with_students(more, blue).position(0).unwrap();
        assert_eq!(set.index(&other), None);
    }
    assert_eq!(MaterialSet::new(deal(), 0, 0).size(), 2 * 30 * 25 * 24);
    // The start position (this deal, four students a side) is in its set, not in another
    // deal's.
    let start = Onitama::start_position();
    let set = MaterialSet::new(deal(), 4, 4);
    assert_eq!(set.position(set.index(&start).unwrap()), Some(start));
    let other = named(["ox", "boar", "horse", "elephant", "rabbit"]);
    assert_eq!(MaterialSet::new(other, 4, 4).index(&start), None);
}

#[test]
fn the_masters_only_table_agrees_with_the_search() {
    let set = MaterialSet::new(deal(), 0, 0);
    let table = Solver::new(&set).threads(2).solve(&mut |_| {}).unwrap();
    let [wins, losses, draws] = table.counts();
    // Every number but the holes (both masters on the enemy temples: 60 arrangements and sides).
    assert_eq!(wins + losses + draws, set.size() - 60);
    assert!(wins > 0 && losses > 0, "{wins} {losses} {draws}");
    // The top rung of the consistency ladder: every part that keeps minimax's value.
    let exact = PvsConfig::consistency_ladder().pop().expect("a ladder").1;
    let mut search = SearcherSpec::Pvs(exact)
        .build::<Onitama, _>(MaterialEvaluator)
        .unwrap();
    let mut checked = 0;
    for index in (0..set.size()).step_by(97) {
        let Some(state) = set.position(index) else {
            continue;
        };
        if state.outcome().is_some() {
            continue;
        }
        let (expected, depth) = match table.value(index).unwrap() {
            TableValue::Win(d) => (Score::win_in(d), d),
            TableValue::Loss(d) => (Score::loss_in(d), d),
            TableValue::Draw | TableValue::Won | TableValue::Lost => continue,
        };
        if depth > 9 {
            continue;
        }
        search.clear();
        let result = search.search(&state, &SearchLimits::depth(depth));
        assert_eq!(result.score, expected, "{}", state.format_position());
        checked += 1;
    }
    assert!(checked > 50, "{checked}");
}

/// Solves the sets of `materials` with the generic forward solver (each with the ones before it
/// as its outside probe) and checks every position against the deal tables.
fn agree_with_generic_solver(tables: &DealTables, materials: &[(u8, u8)]) {
    let mut solved: Vec<(MaterialSet, Table)> = Vec::new();
    for &(red, blue) in materials {
        let set = MaterialSet::new(tables.deal(), red, blue);
        let probe = |state: &Onitama| solved.iter().find_map(|(s, t)| t.probe(s, state));
        let table = Solver::new(&set)
            .outside(&probe)
            .threads(2)
            .solve(&mut |_| {})
            .unwrap();
        let mut compared = 0;
        let mut holes = 0;
        for index in 0..set.size() {
            let Some(state) = set.position(index) else {
                holes += 1;
                continue;
            };
            assert_eq!(
                tables.value(&state),
                table.value(index),
                "{red}+{blue}: {}",
                state.format_position()
            );
            compared += 1;
        }
        // The holes: both masters on the enemy temples, the students anywhere else.
        let students =
            CHOOSE[23][usize::from(red)] * CHOOSE[23 - usize::from(red)][usize::from(blue)];
        assert_eq!(holes, 60 * students);
        assert_eq!(compared + holes, set.size());
        solved.push((set, table));
    }
}

#[test]
fn the_deal_tables_equal_the_generic_solver() {
    let tables = DealTables::build(deal(), 4, 2, None, &mut |_| {}).unwrap();
    agree_with_generic_solver(&tables, &[(0, 0), (1, 0), (0, 1), (1, 1), (2, 0), (0, 2)]);
}

/// A fresh cache directory for test `name`.
fn cache_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "plies-onitama-tables-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds the masters-only tables of [`deal`] with `dir` as cache; the files rejected, with why.
fn rejected_when_built(dir: &std::path::Path) -> Vec<(std::path::PathBuf, String)> {
    let mut rejected = Vec::new();
    DealTables::build(deal(), 2, 1, Some(dir), &mut |event| {
        if let BuildEvent::Rejected { file, why } = event {
            rejected.push((file, why));
        }
    })
    .unwrap();
    rejected
}

/// The one table file of the masters-only tables in `dir`.
fn the_table_file(dir: &std::path::Path) -> std::path::PathBuf {
    let files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "tb"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

#[cfg(unix)]
#[test]
fn an_unreadable_table_file_is_reported_with_the_reason_and_rebuilt() {
    use std::os::unix::fs::PermissionsExt;
    let dir = cache_dir("unreadable");
    assert!(rejected_when_built(&dir).is_empty());
    let file = the_table_file(&dir);
    assert_eq!(
        file_names(deal(), 2),
        vec![file.file_name().unwrap().to_str().unwrap().to_string()]
    );
    assert!(rejected_when_built(&dir).is_empty(), "read back as it is");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::File::open(&file).is_ok() {
        // Root (or CAP_DAC_OVERRIDE) reads a file whatever its mode.
        eprintln!(
            "skipped: running as root, where chmod 000 does not prevent reading {}",
            file.display()
        );
        std::fs::remove_dir_all(&dir).unwrap();
        return;
    }
    let rejected = rejected_when_built(&dir);
    assert_eq!(rejected.len(), 1, "{rejected:?}");
    assert_eq!(rejected[0].0, file);
    assert!(
        rejected[0].1.contains("cannot read it") && rejected[0].1.contains("ermission denied"),
        "{}",
        rejected[0].1
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_table_file_that_is_a_fifo_is_reported_at_once_and_left_alone() {
    use std::os::unix::fs::FileTypeExt;
    let dir = cache_dir("fifo");
    assert!(rejected_when_built(&dir).is_empty());
    let file = the_table_file(&dir);
    std::fs::remove_file(&file).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(&file)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    // Built on a thread: a reader blocked on the FIFO fails the test instead of hanging it.
    let (sender, receiver) = std::sync::mpsc::channel();
    let cache = dir.clone();
    std::thread::spawn(move || sender.send(rejected_when_built(&cache)));
    let rejected = receiver
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the build never blocks on a FIFO");
    assert_eq!(rejected.len(), 1, "{rejected:?}");
    assert_eq!(rejected[0].1, "not a regular file");
    assert!(
        std::fs::metadata(&file).unwrap().file_type().is_fifo(),
        "never replaced"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_table_file_larger_than_a_table_is_reported() {
    let dir = cache_dir("large");
    assert!(rejected_when_built(&dir).is_empty());
    let file = the_table_file(&dir);
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let rejected = rejected_when_built(&dir);
    assert_eq!(rejected.len(), 1, "{rejected:?}");
    assert!(
        rejected[0].1.starts_with("larger than a table can be"),
        "{}",
        rejected[0].1
    );
    // Rebuilt and written again, whole.
    assert!(std::fs::metadata(&file).unwrap().len() < 1 << 20);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every position of every material of `pieces` pieces has the same value in the fast solvers'
/// tables as in the reference solver's (without the distance where the fast tables keep none).
fn agree_with_reference(deal: [Card; 5], pieces: u8, threads: usize) {
    let fast = DealTables::build(deal, pieces, threads, None, &mut |_| {}).unwrap();
    let options = BuildOptions {
        pieces,
        max_side: 4,
        threads: 2,
        reference: true,
        distances: pieces,
    };
    let reference = DealTables::build_with(deal, &options, None, &mut |_| {}).unwrap();
    let mut compared = 0;
    for (r, row) in fast.tables.iter().enumerate() {
        for (b, table) in row.iter().enumerate() {
            let (Some(table), Some(expected)) = (table, &reference.tables[r][b]) else {
                assert!(table.is_none() && reference.tables[r][b].is_none());
                continue;
            };
            assert_eq!(table.size(), expected.size());
            let planes = matches!(table, Stored::Planes(_));
            for index in 0..table.size() {
                let expected = expected.value(index);
                assert_eq!(
                    table.value(index),
                    if planes {
                        expected.map(TableValue::outcome_only)
                    } else {
                        expected
                    },
                    "{r}+{b} #{index}: {:?}",
                    build::Material::new(r as u8, b as u8).board((index / 30) as u32)
                );
            }
            compared += table.size();
        }
    }
    assert_eq!(compared, fast.positions());
    assert!(compared > 0);
}

#[test]
fn the_fast_solver_equals_the_reference_on_every_four_piece_position() {
    agree_with_reference(deal(), 4, 2);
    let other = named(["ox", "boar", "horse", "elephant", "crab"]);
    agree_with_reference(other, 4, 1);
    agree_with_reference(other, 3, 3);
    // A deal with distances over 125 plies: wide tables.
    let wide = named(["goose", "rabbit", "cobra", "crane", "ox"]);
    agree_with_reference(wide, 4, 2);
    let longest = DealTables::build(wide, 4, 2, None, &mut |_| {})
        .unwrap()
        .longest();
    assert!(longest > 125, "{longest}");
}

/// Run by hand for docs/tables.md (about a minute in release): every 5-piece position.
#[test]
#[ignore = "a minute in release; run for the tables docs"]
fn the_fast_solver_equals_the_reference_on_every_five_piece_position() {
    let deal = named(["ox", "boar", "horse", "elephant", "crab"]);
    agree_with_reference(deal, 5, 2);
}

/// The counts of the smallest materials equal those of the generic solver's tables (which
/// number both sides to move: twice each count), classified the same way from the positions.
#[test]
fn the_counts_equal_the_generic_solvers() {
    let tables = DealTables::build(deal(), 3, 2, None, &mut |_| {}).unwrap();
    let stats = tables.stats();
    let mut solved: Vec<(MaterialSet, Table)> = Vec::new();
    for (red, blue) in [(0, 0), (1, 0), (0, 1)] {
        let set = MaterialSet::new(deal(), red, blue);
        let probe = |state: &Onitama| solved.iter().find_map(|(s, t)| t.probe(s, state));
        let table = Solver::new(&set)
            .outside(&probe)
            .threads(2)
            .solve(&mut |_| {})
            .unwrap();
        let mut expected = MaterialStats {
            students: [red, blue],
            ..MaterialStats::default()
        };
        for index in 0..set.size() {
            expected.indexed += 1;
            let Some(state) = set.position(index) else {
                expected.holes += 1;
                continue;
            };
            let on = |side: Side, temple: u32| {
                state.master(side).map(|s| 1u32 << s.index()) == Some(temple)
            };
            if on(Side::First, crate::state::BLUE_TEMPLE)
                || on(Side::Second, crate::state::RED_TEMPLE)
            {
                expected.terminal += 1;
                continue;
            }
            expected.counted += 1;
            match table.value(index) {
                Some(TableValue::Win(d)) => {
                    expected.won += 1;
                    expected.longest_win = expected.longest_win.max(d);
                }
                Some(TableValue::Loss(d)) => {
                    expected.lost += 1;
                    expected.longest_loss = expected.longest_loss.max(d);
                }
                _ => expected.drawn += 1,
            }
        }
        // Red to move: this material; blue to move: the mirror material turned round.
        let of = |students: [u8; 2]| {
            *stats
                .iter()
                .find(|s| s.students == students)
                .expect("the material's counts")
        };
        let (got, mirror) = (of([red, blue]), of([blue, red]));
        let both = MaterialStats {
            students: got.students,
            indexed: got.indexed + mirror.indexed,
            holes: got.holes + mirror.holes,
            terminal: got.terminal + mirror.terminal,
            counted: got.counted + mirror.counted,
            won: got.won + mirror.won,
            lost: got.lost + mirror.lost,
            drawn: got.drawn + mirror.drawn,
            longest_win: got.longest_win.max(mirror.longest_win),
            longest_loss: got.longest_loss.max(mirror.longest_loss),
        };
        assert_eq!(both, expected);
        assert_eq!(got.holes + got.terminal + got.counted, got.indexed);
        assert!(got.won > 0 && got.lost > 0, "{got:?}");
        solved.push((set, table));
    }
    // The sum, last, adds every material up.
    let all = stats.last().expect("the sum");
    assert_eq!(all.indexed, tables.positions());
    assert_eq!(
        all.won,
        stats[..stats.len() - 1].iter().map(|s| s.won).sum::<u64>()
    );
}

fn named(names: [&str; 5]) -> [Card; 5] {
    names.map(|name| Card::parse(name).expect("a card"))
}

#[test]
fn cards_mirror_as_the_rules_draw_them() {
    // The base cards' pairs, read off the rules' move diagrams.
    let pairs = [
        ("frog", "rabbit"),
        ("goose", "rooster"),
        ("horse", "ox"),
        ("eel", "cobra"),
    ];
    for card in Card::all() {
        assert_eq!(card.mirror().mirror(), card, "{card}");
        let pair = pairs
            .iter()
            .find(|(a, b)| *a == card.name() || *b == card.name());
        if card.id() < Card::BASE_COUNT {
            let expected = match pair {
                Some((a, b)) if *a == card.name() => *b,
                Some((a, _)) => *a,
                None => card.name(),
            };
            assert_eq!(card.mirror().name(), expected);
        }
    }
}

#[test]
fn the_base_cards_make_2348_sets_up_to_the_mirror() {
    let base: Vec<Card> = Card::all().take(Card::BASE_COUNT).collect();
    let mut sets = 0;
    let mut canonical = std::collections::HashSet::new();
    for a in 0..16 {
        for b in a + 1..16 {
            for c in b + 1..16 {
                for d in c + 1..16 {
                    for e in d + 1..16 {
                        let deal = [base[a], base[b], base[c], base[d], base[e]];
                        let (image, mirrored) = canonical_deal(deal);
                        assert_eq!(mirrored, image != deal);
                        // The mirror of a set has the same canonical set.
                        assert_eq!(canonical_deal(deal.map(Card::mirror)).0, image);
                        canonical.insert(image.map(Card::id));
                        sets += 1;
                    }
                }
            }
        }
    }
    assert_eq!(sets, 4368);
    // The count the published generators give.
    assert_eq!(canonical.len(), 2348);
    let listed = canonical_deals();
    assert_eq!(listed.len(), 2348);
    // A position of each, in the same order (precompute's set indices).
    let positions = set_positions();
    assert_eq!(positions.len(), 2348);
    assert!(positions.iter().zip(&listed).all(|(p, d)| {
        let mut deal = p.deal();
        deal.sort_by_key(|c| c.id());
        deal == *d
    }));
    assert!(listed.iter().all(|d| canonical.contains(&d.map(Card::id))));
    assert!(
        listed
            .windows(2)
            .all(|w| w[0].map(Card::id) < w[1].map(Card::id))
    );
}

#[test]
fn a_mirrored_deal_is_looked_up_in_its_mirrors_tables() {
    let deal = named(["rabbit", "rooster", "cobra", "monkey", "crab"]);
    let (canonical, mirrored) = canonical_deal(deal);
    assert!(mirrored, "{canonical:?}");
    let tables = DealTables::build(deal, 3, 2, None, &mut |_| {}).unwrap();
    assert_eq!(tables.canonical(), canonical);
    let mut sorted = deal;
    sorted.sort_by_key(|c| c.id());
    assert_eq!(tables.deal(), sorted);
    // Values of the deal's own positions, by the generic solver of that deal.
    agree_with_generic_solver(&tables, &[(0, 0), (1, 0), (0, 1)]);
    // The same tables serve the canonical deal's positions, and one key names both.
    let direct = DealTables::build(canonical, 3, 2, None, &mut |_| {}).unwrap();
    let position = |deal: [Card; 5]| {
        let names: Vec<&str> = deal.iter().map(|c| c.name()).collect();
        Onitama::parse_position(&format!(
            "2B2/5/1r3/5/2R2 r {},{} {},{} {}",
            names[0], names[1], names[2], names[3], names[4]
        ))
        .unwrap()
    };
    let own = position(canonical);
    assert_eq!(tables.value(&own), direct.value(&own));
    assert!(tables.value(&own).is_some());
    assert_eq!(deal_key(&own), deal_key(&position(deal)));
}

/// The WDL solver's planes equal the wins and losses of the distance solver, material by
/// material, on `pieces` pieces of `deal`, on `threads` threads.
fn wdl_agrees_with_distances(deal: [Card; 5], pieces: u8, threads: usize) {
    let options = BuildOptions {
        pieces,
        max_side: 4,
        threads,
        reference: false,
        distances: pieces,
    };
    let exact = DealTables::build_with(deal, &options, None, &mut |_| {}).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let planes = wdl_planes(&exact.cards, pieces, 4, Some(&pool), &mut |_, _, _| {});
    let mut compared = 0;
    for (r, row) in exact.tables.iter().enumerate() {
        for (b, table) in row.iter().enumerate() {
            let Some(Stored::Distances(table)) = table else {
                assert!(table.is_none() && planes[r][b].is_none(), "{r}+{b}");
                continue;
            };
            let material = build::Material::new(r as u8, b as u8);
            let expected = sweep::words_of(material, table);
            let words = planes[r][b].as_ref().expect("a plane per table");
            assert_eq!(words.len(), expected.len());
            for (layout, (&word, &want)) in words.iter().zip(&expected).enumerate() {
                assert_eq!(
                    word,
                    want,
                    "{r}+{b} layout {layout}: {:?}",
                    material.board(layout as u32)
                );
            }
            compared += words.len();
        }
    }
    assert!(compared > 0);
}

#[test]
fn the_wdl_solver_equals_the_distance_solver_on_every_four_piece_position() {
    wdl_agrees_with_distances(deal(), 4, 2);
    let other = named(["ox", "boar", "horse", "elephant", "crab"]);
    wdl_agrees_with_distances(other, 4, 1);
    wdl_agrees_with_distances(other, 3, 3);
    let wide = named(["goose", "rabbit", "cobra", "crane", "ox"]);
    wdl_agrees_with_distances(wide, 4, 2);
}

/// Every 5-piece position (about 10 s in release).
#[test]
#[ignore = "seconds in release; run for the tables docs"]
fn the_wdl_solver_equals_the_distance_solver_on_every_five_piece_position() {
    let deal = named(["ox", "boar", "horse", "elephant", "crab"]);
    wdl_agrees_with_distances(deal, 5, 2);
}

/// A planes file reads back the same values; a damaged one is reported and rebuilt.
#[test]
fn planes_files_read_back_and_a_damaged_one_is_rebuilt() {
    let dir = cache_dir("planes");
    let options = BuildOptions {
        pieces: 4,
        max_side: 4,
        threads: 2,
        reference: false,
        distances: 3,
    };
    let built = DealTables::build_with(deal(), &options, Some(&dir), &mut |_| {}).unwrap();
    let mut loaded = 0;
    let read = DealTables::build_with(deal(), &options, Some(&dir), &mut |event| {
        if let BuildEvent::Loaded { .. } = event {
            loaded += 1;
        }
    })
    .unwrap();
    // 0+0, 0+1, 1+0, 0+2, 2+0, 1+1.
    assert_eq!(loaded, 6);
    for (r, b) in [(1, 1), (0, 2), (2, 0)] {
        let (Some(Stored::Planes(a)), Some(Stored::Planes(b))) =
            (&built.tables[r][b], &read.tables[r][b])
        else {
            panic!("planes for {r}+{b}");
        };
        assert!(a == b);
    }
    let file = dir.join(file_name(&built.deal, build::Material::new(1, 1), false));
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    let mut rejected = Vec::new();
    let again = DealTables::build_with(deal(), &options, Some(&dir), &mut |event| {
        if let BuildEvent::Rejected { file, why } = event {
            rejected.push((file, why));
        }
    })
    .unwrap();
    assert_eq!(rejected.len(), 1, "{rejected:?}");
    assert_eq!(rejected[0].0, file);
    assert!(rejected[0].1.contains("checksum"), "{}", rejected[0].1);
    let (Some(Stored::Planes(a)), Some(Stored::Planes(b))) =
        (&built.tables[1][1], &again.tables[1][1])
    else {
        panic!("planes for 1+1");
    };
    assert!(a == b);
    // Written again whole: read back without a complaint.
    let mut rejected = 0;
    DealTables::build_with(deal(), &options, Some(&dir), &mut |event| {
        rejected += usize::from(matches!(event, BuildEvent::Rejected { .. }));
    })
    .unwrap();
    assert_eq!(rejected, 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A control group's memory limit, and its parents', is what a build may take; without a
/// limit, nothing is said.
#[test]
fn cgroup_limits_bound_the_memory_a_build_may_take() {
    let files = |entries: &'static [(&'static str, &'static str)]| {
        move |path: &str| {
            entries
                .iter()
                .find(|(p, _)| *p == path)
                .map(|(_, text)| (*text).to_string())
        }
    };
    // cgroup v2: the job's group limits to 8 GB with 3 GB used; its parent to 6 GB with 5 used.
    let v2 = files(&[
        ("/proc/self/cgroup", "0::/jobs/42\n"),
        ("/sys/fs/cgroup/jobs/42/memory.max", "8000000000\n"),
        ("/sys/fs/cgroup/jobs/42/memory.current", "3000000000\n"),
        ("/sys/fs/cgroup/jobs/memory.max", "6000000000\n"),
        ("/sys/fs/cgroup/jobs/memory.current", "5000000000\n"),
        ("/sys/fs/cgroup/memory.max", "max\n"),
    ]);
    assert_eq!(cgroup_room(&v2), Some(1_000_000_000));
    // cgroup v1, the memory controller among others.
    let v1 = files(&[
        ("/proc/self/cgroup", "5:cpu:/\n4:memory:/slurm/job7\n0::/\n"),
        (
            "/sys/fs/cgroup/memory/slurm/job7/memory.limit_in_bytes",
            "4000000000",
        ),
        (
            "/sys/fs/cgroup/memory/slurm/job7/memory.usage_in_bytes",
            "1000000000",
        ),
        (
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "9223372036854771712",
        ),
        ("/sys/fs/cgroup/memory/memory.usage_in_bytes", "1"),
    ]);
    assert_eq!(cgroup_room(&v1), Some(3_000_000_000));
    let none = files(&[
        ("/proc/self/cgroup", "0::/\n"),
        ("/sys/fs/cgroup/memory.max", "max\n"),
        ("/sys/fs/cgroup/memory.current", "100\n"),
    ]);
    assert_eq!(cgroup_room(&none), None);
    assert_eq!(cgroup_room(&files(&[])), None);
}
