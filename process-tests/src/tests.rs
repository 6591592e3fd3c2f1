//! Unit tests of the child's argument parsing and of the scripted UGI engine.

use super::*;

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

#[test]
fn arguments_name_the_child() {
    assert_eq!(
        Child::parse(&words("kalah arena --depth 2")).unwrap(),
        Child::CommandLine {
            game: "kalah".into(),
            args: words("arena --depth 2"),
        }
    );
    assert_eq!(
        Child::parse(&words("ugi-engine silent engine.log")).unwrap(),
        Child::UgiEngine {
            mode: EngineMode::Silent,
            log: Some("engine.log".into()),
        }
    );
    assert_eq!(
        Child::parse(&words("store-writer s.sqlite 3 4")).unwrap(),
        Child::StoreWriter {
            file: "s.sqlite".into(),
            first: 3,
            count: 4,
        }
    );
    for bad in [
        "",
        "chess",
        "ugi-engine loud",
        "store-writer f x 1",
        "ugi-engine",
    ] {
        assert!(
            matches!(Child::parse(&words(bad)), Err(ChildError::Usage(_))),
            "{bad}"
        );
    }
}

#[test]
fn the_scripted_engine_answers_as_its_mode_says() {
    let session = b"ugi\nisready\nposition fen 4,4,4,4,4,4|0 4,4,4,4,4,4|0 s moves a\ngo\nquit\n";
    let mut out = Vec::new();
    scripted_engine(EngineMode::First, &mut &session[..], &mut out, None).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..3], ["id name scripted", "ugiok", "readyok"]);
    // The first legal move of the position after `a`, as the game itself lists them.
    let mut state = Kalah::parse_position("4,4,4,4,4,4|0 4,4,4,4,4,4|0 s").unwrap();
    state = state.play(state.parse_move("a").unwrap());
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    let token = state.format_move_token(moves[0]);
    assert_eq!(lines[3], format!("bestmove {token}"));
    assert_eq!(lines.len(), 4);
    let mut silent = Vec::new();
    scripted_engine(EngineMode::Silent, &mut &session[..], &mut silent, None).unwrap();
    assert_eq!(String::from_utf8(silent).unwrap().lines().count(), 3);
    let bad = b"position startpos\n";
    assert!(matches!(
        scripted_engine(EngineMode::First, &mut &bad[..], &mut Vec::new(), None),
        Err(ChildError::Protocol(_))
    ));
}
