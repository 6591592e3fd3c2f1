//! Unit tests of the UGI agent's pieces ([`super`]): spec parsing, the `go` line and its wait,
//! `info` reading. The agent against real processes is tested in
//! `process-tests/tests/arena_ugi.rs`.

use super::*;
use plies::search::Clock;

#[test]
fn specs_take_settings_then_the_command() {
    let engine =
        UgiEngine::parse("option.Hash=64:restart=move:timeout=2.5:./engine ugi --x=1").unwrap();
    assert_eq!(engine.command, ["./engine", "ugi", "--x=1"]);
    assert_eq!(engine.options, [("Hash".to_string(), "64".to_string())]);
    assert_eq!(engine.restart, Restart::EveryMove);
    assert_eq!(engine.timeout, Duration::from_millis(2500));
    // A command with colons and '=' after the settings stays whole.
    let engine = UgiEngine::parse("/opt/e:1/engine a=b").unwrap();
    assert_eq!(engine.command, ["/opt/e:1/engine", "a=b"]);
    assert_eq!(engine.restart, Restart::Never);
    assert_eq!(engine.timeout, UgiEngine::DEFAULT_TIMEOUT);
    for (text, word) in [
        ("", "no engine command"),
        ("restart=move:", "no engine command"),
        ("restart=often:e", "restart=game or restart=move"),
        ("timeout=0:e", "seconds"),
        ("timeout=x:e", "seconds"),
        ("option.=3:e", "no option name"),
    ] {
        let err = UgiEngine::parse(text).unwrap_err().to_string();
        assert!(err.contains(word), "{text}: {err}");
    }
}

#[test]
fn go_sends_the_clock_or_the_limits_and_waits_accordingly() {
    let ms = Duration::from_millis;
    let timeout = Duration::from_secs(60);
    let clock = Clock {
        remaining: [ms(900), ms(700)],
        increment: [ms(10), ms(20)],
    };
    let limits = SearchLimits {
        time: Some(clock.budget(Side::Second)),
        clock: Some(clock),
        ..SearchLimits::default()
    };
    let (go, wait) = go_line(&limits, Side::Second, timeout);
    assert_eq!(go, "go p1time 900 p2time 700 p1inc 10 p2inc 20");
    assert_eq!(wait, ms(700) + CLOCK_SLACK);
    let (go, wait) = go_line(&SearchLimits::time(ms(100)), Side::First, timeout);
    assert_eq!((go.as_str(), wait), ("go movetime 100", ms(1100)));
    let limits = SearchLimits {
        depth: Some(5),
        nodes: Some(1000),
        ..SearchLimits::default()
    };
    let (go, wait) = go_line(&limits, Side::First, timeout);
    assert_eq!((go.as_str(), wait), ("go depth 5 nodes 1000", timeout));
}

#[test]
fn info_lines_give_depth_nodes_and_score() {
    let mut seen = Seen::default();
    seen.read("info depth 7 seldepth 9 score cp 35 time 10 nodes 1234 pv a1 depth 99");
    assert_eq!(
        (seen.depth, seen.nodes, seen.score),
        (Some(7), 1234, Some(Score::cp(35)))
    );
    seen.read("info depth 8 score mate -3 nodes 2000");
    assert_eq!(seen.score, Some(Score::loss_in(3)));
    seen.read("info score mate 5");
    assert_eq!(seen.score, Some(Score::win_in(5)));
    // Garbage changes nothing and panics on nothing.
    seen.read("info depth x nodes -1 score cp");
    seen.read("info string depth 1");
    seen.read("bestmove a1");
    assert_eq!(
        (seen.depth, seen.nodes, seen.score),
        (Some(8), 2000, Some(Score::win_in(5)))
    );
    seen.read("info score mate 99999999999");
    assert_eq!(seen.score, Some(Score::win_in(Score::MAX_PLY)));
}
