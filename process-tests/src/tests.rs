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
            gate: None,
        }
    );
    assert_eq!(
        Child::parse(&words("ugi-engine first engine.log open")).unwrap(),
        Child::UgiEngine {
            mode: EngineMode::First,
            log: Some("engine.log".into()),
            gate: Some("open".into()),
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
        "ugi-engine first log gate more",
    ] {
        assert!(
            matches!(Child::parse(&words(bad)), Err(ChildError::Usage(_))),
            "{bad}"
        );
    }
}

/// A scripted engine answering as `mode` says, with no log and no gate.
fn plain(mode: EngineMode) -> Scripted<'static> {
    Scripted {
        mode,
        log: None,
        gate: None,
    }
}

#[test]
fn the_scripted_engine_answers_as_its_mode_says() {
    let session = b"ugi\nisready\nposition fen 4,4,4,4,4,4|0 4,4,4,4,4,4|0 s moves a\ngo\nquit\n";
    let mut out = Vec::new();
    scripted_engine(plain(EngineMode::First), &mut &session[..], &mut out).unwrap();
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
    scripted_engine(plain(EngineMode::Silent), &mut &session[..], &mut silent).unwrap();
    assert_eq!(String::from_utf8(silent).unwrap().lines().count(), 3);
    let bad = b"position startpos\n";
    assert!(matches!(
        scripted_engine(plain(EngineMode::First), &mut &bad[..], &mut Vec::new()),
        Err(ChildError::Protocol(_))
    ));
}

#[test]
fn a_gated_engine_answers_go_only_once_its_gate_exists() {
    let gate = std::env::temp_dir().join(format!("plies-gate-{}", std::process::id()));
    let _ = std::fs::remove_file(&gate);
    let session = b"ugi\nposition fen 4,4,4,4,4,4|0 4,4,4,4,4,4|0 s\ngo\nquit\n";
    let opened = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let engine = scope.spawn(|| {
            let mut out = Vec::new();
            let engine = Scripted {
                mode: EngineMode::First,
                log: None,
                gate: Some(&gate),
            };
            scripted_engine(engine, &mut &session[..], &mut out).unwrap();
            // The answer came only after the gate was opened.
            assert!(opened.load(std::sync::atomic::Ordering::SeqCst));
            String::from_utf8(out).unwrap()
        });
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert!(!engine.is_finished(), "answered go before its gate opened");
        opened.store(true, std::sync::atomic::Ordering::SeqCst);
        std::fs::write(&gate, b"").unwrap();
        let text = engine.join().unwrap();
        assert!(
            text.lines().last().unwrap().starts_with("bestmove "),
            "{text}"
        );
    });
    let _ = std::fs::remove_file(&gate);
}
