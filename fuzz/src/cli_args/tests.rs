use super::*;

/// The generated tuning files are real: every `tune` subcommand gets through all its checks
/// on some generated command lines (a tuning run directory, a positions file, weights files
/// as the tuner writes them), and each invocation's scratch directory is gone after it.
/// (Coverage only: panics are caught here, the `*-cli` targets report them.)
#[test]
fn every_tune_subcommand_gets_through_sometimes() {
    let spec = BotSpec::of::<plies_hus::Hus>("bot");
    let cli = GameCli::<plies_hus::Hus>::new("bot", plies_hus::Hus::bot_evaluator());
    let mut passed = std::collections::BTreeMap::new();
    for seed in 0..1500 {
        let mut rng = Rng::new(seed);
        let root = std::env::temp_dir().join(format!(
            "plies-fuzz-tune-test-{}-{seed}",
            std::process::id()
        ));
        let inv = generate(&mut rng, &spec, &root);
        let Ok(args) = plies_cli::utf8_args(inv.args.clone()) else {
            continue;
        };
        if args.get(1).is_none_or(|a| a != "tune") {
            continue;
        }
        inv.prepare(&root).expect("scratch files");
        // Panics are the fuzz targets' to report; this test counts the runs that succeed.
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            plies_cli::run(&cli, args.clone(), &mut &b""[..], &mut Vec::new())
        }));
        if matches!(ran, Ok(Ok(()))) {
            let sub = args.get(2).cloned().unwrap_or_default();
            *passed.entry(sub).or_insert(0) += 1;
        }
        inv.clean_up(&root);
        assert!(!root.exists(), "{} is left", root.display());
    }
    for sub in [
        "init",
        "run",
        "play",
        "merge",
        "status",
        "positions",
        "texel",
    ] {
        assert!(passed.get(sub).is_some_and(|&n| n > 0), "{sub}: {passed:?}");
    }
}

/// The generator walks the bot's own grammar: every flag of every command it runs shows up
/// in some generated command line (so a flag added to the program is fuzzed with no line
/// here), and so does every subcommand but those it leaves out on purpose.
#[test]
fn every_flag_of_the_grammar_is_generated() {
    fn flags(command: &clap::Command, prefix: &str, out: &mut std::collections::BTreeSet<String>) {
        if ["serve", "ugi", "precompute"].contains(&command.get_name()) {
            return;
        }
        out.insert(format!("{prefix}{}", command.get_name()));
        for arg in command.get_arguments() {
            if let Some(long) = arg.get_long()
                && !["help", "version", "tables", "full"].contains(&long)
            {
                out.insert(format!("--{long}"));
            }
        }
        for sub in command.get_subcommands() {
            flags(sub, "", out);
        }
    }
    let spec = BotSpec::of::<plies_onitama::Onitama>("bot");
    let mut wanted = std::collections::BTreeSet::new();
    flags(&spec.command, "", &mut wanted);
    wanted.remove("bot");
    assert!(
        wanted.contains("--convention") && wanted.contains("texel"),
        "{wanted:?}"
    );
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..3000 {
        let root = std::env::temp_dir().join("plies-fuzz-grammar-test-unused");
        let inv = generate(&mut Rng::new(seed), &spec, &root);
        seen.extend(inv.args.iter().map(|a| a.to_string_lossy().into_owned()));
    }
    let missing: Vec<&String> = wanted.difference(&seen).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

/// File inputs that are FIFOs, links to `/dev/zero`, huge or unreadable are generated for
/// every flag that reads a file, and a run given one ends at once (a FIFO once hung the
/// reader, a device was read until the kernel killed the process).
#[cfg(unix)]
#[test]
fn odd_file_inputs_are_generated_and_refused_at_once() {
    let onitama = BotSpec::of::<plies_onitama::Onitama>("bot");
    assert!(!onitama.table_files.is_empty());
    let hus = BotSpec::of::<plies_hus::Hus>("bot");
    let mut flags = std::collections::BTreeSet::new();
    let mut ran = 0;
    for seed in 0..4000 {
        let mut rng = Rng::new(seed);
        let root =
            std::env::temp_dir().join(format!("plies-fuzz-odd-test-{}-{seed}", std::process::id()));
        let spec = if seed % 2 == 0 { &onitama } else { &hus };
        let inv = generate(&mut rng, spec, &root);
        if inv.odd.is_empty() {
            continue;
        }
        for (i, arg) in inv.args.iter().enumerate().skip(1) {
            let Some(next) = inv.args.get(i + 1) else {
                continue;
            };
            // A file, or a directory holding it (a tables directory: in its deal's).
            let names_odd = inv
                .odd
                .iter()
                .any(|(path, _)| path.ancestors().take(3).any(|p| p.as_os_str() == next))
                || arg == "--dir";
            if names_odd && arg.to_str().is_some_and(|a| a.starts_with("--")) {
                flags.insert(arg.to_string_lossy().into_owned());
            }
        }
        // Run some (of the cheap game) in process: each must end, with one line.
        if seed % 2 == 1 && ran < 40 {
            let Ok(args) = plies_cli::utf8_args(inv.args.clone()) else {
                continue;
            };
            ran += 1;
            inv.prepare(&root).expect("scratch files");
            let (sender, receiver) = std::sync::mpsc::channel();
            let shown = inv.describe();
            std::thread::spawn(move || {
                let cli = GameCli::<plies_hus::Hus>::new("bot", plies_hus::Hus::bot_evaluator());
                let result = plies_cli::run(&cli, args, &mut &b""[..], &mut Vec::new());
                let _ = sender.send(result.err().map(|e| e.to_string()));
            });
            let error = receiver
                .recv_timeout(std::time::Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no end in 60 s: {shown}"));
            if let Some(error) = error {
                assert!(!error.contains('\n'), "{error}");
            }
            inv.clean_up(&root);
        }
    }
    for flag in [
        "--weights",
        "--openings-file",
        "--results",
        "--tables-dir",
        "--positions",
        "--dir",
    ] {
        assert!(flags.contains(flag), "{flag}: {flags:?}");
    }
    assert!(ran >= 20, "{ran}");
}
