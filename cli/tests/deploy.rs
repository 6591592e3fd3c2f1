//! The scheduler examples of `deploy/` run a real tuning run to the same result as one
//! unsharded process: `deploy/slurm/submit.sh` against a stand-in `sbatch`, and
//! `deploy/kubernetes/run.sh` (with `play-job.yaml` and `merge-job.yaml`) against a stand-in
//! `kubectl`.
//!
//! The stand-ins run each submitted job at once (array tasks and Indexed Job pods side by
//! side, as a cluster would) and log what they were given, so the test also checks the
//! dependency chain Slurm would enforce (each merge after its array, each array after the
//! previous merge). The game binary the scripts call is this test binary re-run as Onitama's
//! command line (`deploy_child`), so nothing else needs building.
//!
//! Key invariant: the expected weights and journal come from an unsharded in-process run of
//! the same settings, not from numbers written here.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use plies_cli::{GameCli, run, tunable_evaluator};
use plies_onitama::{Onitama, PstEvaluator};

/// Set in the child's environment to its arguments, one per line.
const CHILD_ENV: &str = "PLIES_DEPLOY_CHILD";

const INIT: &str = "tune init --depth 2 --iterations 3 --games 8 --check-every 0 --seed 9 \
                    --opening-plies 2 --max-plies 120 --c-end 6 --r-end 0.05";

fn spec() -> GameCli<Onitama> {
    GameCli {
        bench_positions: &["bbBbb/5/5/5/rrRrr r monkey,crane tiger,crab dragon"],
        bench_depth: 2,
        ..GameCli::new("onitama", tunable_evaluator(PstEvaluator::default()))
    }
}

/// Not a test: Onitama's command line, when [`CHILD_ENV`] is set.
#[test]
fn deploy_child() {
    let Ok(lines) = std::env::var(CHILD_ENV) else {
        return;
    };
    let argv = std::iter::once("onitama".to_string()).chain(lines.lines().map(String::from));
    let code = match run(&spec(), argv, &mut std::io::empty(), &mut std::io::sink()) {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("{err}");
            1
        }
    };
    std::process::exit(code);
}

fn tune(args: &str, dir: &Path) {
    let argv = std::iter::once("onitama".to_string())
        .chain(args.split_whitespace().map(String::from))
        .chain(["--dir".to_string(), dir.display().to_string()]);
    if let Err(err) = run(&spec(), argv, &mut std::io::empty(), &mut Vec::new()) {
        panic!("`{args}` failed: {err}");
    }
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plies-deploy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_script(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A directory for `PATH` holding `onitama` (this test binary as the game) and the stand-ins.
fn tools(name: &str) -> PathBuf {
    let bin = temp(name);
    let exe = std::env::current_exe().unwrap();
    write_script(
        &bin.join("onitama"),
        &format!(
            "#!/bin/sh\n{CHILD_ENV}=\"$(printf '%s\\n' \"$@\")\" exec '{}' --exact deploy_child \
             --nocapture --test-threads=1\n",
            exe.display()
        ),
    );
    // sbatch: runs the job now (array tasks at once), prints a job id, logs its options.
    write_script(
        &bin.join("sbatch"),
        r#"#!/bin/bash
set -e
log="$(dirname "$0")/sbatch.log"
id=$(( $( { cat "$log" 2> /dev/null || true; } | wc -l) + 100 ))
array=""; dependency=""
while [ $# -gt 0 ]; do
    case "$1" in
        --array=*) array=${1#--array=} ;;
        --dependency=*) dependency=${1#--dependency=} ;;
        --parsable|--export=*) ;;
        -*) echo "sbatch stand-in: unexpected option $1" >&2; exit 1 ;;
        *) break ;;
    esac
    shift
done
script=$1; shift
echo "$id $(basename "$script") array=$array dependency=$dependency" >> "$log"
if [ -n "$array" ]; then
    pids=()
    for ((t = ${array%-*}; t <= ${array#*-}; t++)); do
        SLURM_ARRAY_TASK_ID=$t bash "$script" "$@" > /dev/null & pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
else
    bash "$script" "$@" > /dev/null
fi
echo "$id"
"#,
    );
    // kubectl: `apply -f -` runs the Job now (an Indexed Job's pods at once, each with its
    // JOB_COMPLETION_INDEX) and fails if a pod failed; `get job` then reports it Complete;
    // `delete` succeeds; everything is logged.
    write_script(
        &bin.join("kubectl"),
        r#"#!/bin/bash
set -e
here=$(dirname "$0")
echo "$*" >> "$here/kubectl.log"
if [ "$1" = get ]; then echo Complete; exit 0; fi
[ "$1" = apply ] || exit 0
yaml=$(cat)
if grep -q 'completionMode: Indexed' <<< "$yaml"; then
    n=$(sed -n 's/^ *completions: *//p' <<< "$yaml")
    cmd=$(sed -n 's/^ *args: \["\(.*\)"\]$/\1/p' <<< "$yaml" | sed 's/\\"/"/g')
    pids=()
    for ((i = 0; i < n; i++)); do
        JOB_COMPLETION_INDEX=$i /bin/sh -c "$cmd" > /dev/null & pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
else
    words=$(sed -n 's/^ *command: \[\(.*\)\]$/\1/p' <<< "$yaml" | tr -d '",')
    $words > /dev/null
fi
"#,
    );
    bin
}

fn outcome(dir: &Path) -> (String, String, String) {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let weights = read("weights.txt")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    (read("journal.jsonl"), weights, read("state.json"))
}

fn reference(name: &str) -> (String, String, String) {
    let dir = temp(name);
    tune(INIT, &dir);
    tune("tune run", &dir);
    let result = outcome(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    result
}

/// Each of the `n` shards played games, and only its own: game numbers `k` modulo `n`.
fn assert_shards_played(dir: &Path, n: u64) {
    for k in 0..n {
        let text = std::fs::read_to_string(dir.join(format!("games-{k}-of-{n}.jsonl"))).unwrap();
        assert!(!text.is_empty(), "shard {k}/{n} played nothing");
        for line in text.lines() {
            let game: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(game["game"].as_u64().unwrap() % n, k, "{line}");
        }
    }
}

fn script(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn path_with(bin: &Path) -> String {
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn the_slurm_chain_tunes_like_one_process() {
    let expected = reference("slurm-reference");
    let bin = tools("slurm-bin");
    let dir = temp("slurm-run");
    tune(INIT, &dir);
    let status = Command::new("bash")
        .arg(script("deploy/slurm/submit.sh"))
        .args([dir.display().to_string(), "3".into(), "3".into()])
        .env("PATH", path_with(&bin))
        .env("PLIES_GAME", bin.join("onitama"))
        .stdout(std::process::Stdio::null())
        .status()
        .expect("bash runs");
    assert!(status.success());
    assert_eq!(outcome(&dir), expected);
    // Three iterations: array, merge after it, next array after that merge.
    let log = std::fs::read_to_string(bin.join("sbatch.log")).unwrap();
    let jobs: Vec<Vec<&str>> = log.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(jobs.len(), 6, "{log}");
    for (i, job) in jobs.iter().enumerate() {
        let (kind, array, dependency) = (job[1], job[2], job[3]);
        if i % 2 == 0 {
            assert_eq!((kind, array), ("play.sbatch", "array=0-2"), "{log}");
            let after = if i == 0 {
                "dependency=".to_string()
            } else {
                format!("dependency=afterok:{}", jobs[i - 1][0])
            };
            assert_eq!(dependency, after, "{log}");
        } else {
            assert_eq!((kind, array), ("merge.sbatch", "array="), "{log}");
            assert_eq!(
                dependency,
                format!("dependency=afterok:{}", jobs[i - 1][0]),
                "{log}"
            );
        }
    }
    assert_shards_played(&dir, 3);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&bin).unwrap();
}

#[test]
fn the_kubernetes_jobs_tune_like_one_process() {
    let expected = reference("k8s-reference");
    let bin = tools("k8s-bin");
    let dir = temp("k8s-run");
    tune(INIT, &dir);
    let status = Command::new("bash")
        .arg(script("deploy/kubernetes/run.sh"))
        .args([
            "onitama".into(),
            dir.display().to_string(),
            "4".into(),
            "3".into(),
        ])
        .env("PATH", path_with(&bin))
        .stdout(std::process::Stdio::null())
        .status()
        .expect("bash runs");
    assert!(status.success());
    assert_eq!(outcome(&dir), expected);
    assert_shards_played(&dir, 4);
    let log = std::fs::read_to_string(bin.join("kubectl.log")).unwrap();
    assert_eq!(
        log.lines().filter(|l| l.starts_with("apply")).count(),
        6,
        "{log}"
    );
    assert!(
        log.contains("get job plies-tune-play-3 -o jsonpath="),
        "{log}"
    );
    assert!(
        log.contains("delete job plies-tune-play-3 plies-tune-merge-3 --cascade=foreground"),
        "{log}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&bin).unwrap();
}
