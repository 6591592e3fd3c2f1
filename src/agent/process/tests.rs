//! Unit tests of the engine process: real `sh` processes that answer, end, hang and flood, and
//! the line reader's bound.

use std::io::BufReader;

use super::*;

fn shell(script: &str) -> EngineProcess {
    EngineProcess::spawn(&["sh", "-c", script]).expect("sh starts")
}

#[test]
fn lines_are_read_until_the_deadline_and_the_end_says_the_status() {
    let mut process = shell("read line; echo \"got $line\"; exit 3");
    process.send("hello").unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    assert_eq!(process.next_line(deadline).unwrap(), "got hello");
    let ended = process.next_line(deadline).unwrap_err();
    assert!(matches!(ended, ProcessError::Ended(_)), "{ended:?}");
    assert!(ended.to_string().starts_with("the engine ended"), "{ended}");
}

#[test]
fn a_silent_process_times_out_and_is_killed_when_it_lingers() {
    let mut process = shell("sleep 30");
    let started = Instant::now();
    let err = process
        .wait_for(started + Duration::from_millis(200), |_| Some(()))
        .unwrap_err();
    assert!(matches!(err, ProcessError::Timeout), "{err:?}");
    process.quit("quit", Duration::from_millis(50));
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(matches!(process.child.try_wait(), Ok(Some(_))));
}

#[test]
fn a_long_line_is_cut_and_the_next_one_read() {
    let mut process = shell("head -c 200000 /dev/zero | tr '\\0' q; echo; echo next");
    let deadline = Instant::now() + Duration::from_secs(10);
    assert_eq!(process.next_line(deadline).unwrap().len(), MAX_LINE);
    assert_eq!(process.next_line(deadline).unwrap(), "next");
}

#[test]
fn a_missing_program_is_named() {
    let err = EngineProcess::spawn(&["/no/such/engine", "--flag"])
        .err()
        .expect("no such program");
    assert!(
        err.to_string()
            .starts_with("cannot start '/no/such/engine --flag'"),
        "{err}"
    );
    let none: [&str; 0] = [];
    assert!(matches!(
        EngineProcess::spawn(&none),
        Err(ProcessError::NoCommand)
    ));
}

#[test]
fn over_long_lines_are_cut_and_the_next_line_read_whole() {
    let mut text = vec![b'x'; MAX_LINE * 3 + 5];
    text.extend_from_slice(b"\nbestmove a1\n");
    let mut reader = BufReader::new(&text[..]);
    let mut line = Vec::new();
    assert_eq!(read_line(&mut reader, &mut line).unwrap(), MAX_LINE);
    line.clear();
    read_line(&mut reader, &mut line).unwrap();
    assert_eq!(line, b"bestmove a1\n");
    line.clear();
    assert_eq!(read_line(&mut reader, &mut line).unwrap(), 0);
}
