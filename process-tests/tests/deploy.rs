//! The scheduler examples of `deploy/` run a real tuning run to the same result as one
//! unsharded process: `deploy/slurm/submit.sh` against stand-ins for `sbatch`, `squeue` and
//! `scancel`, and `deploy/kubernetes/run.sh` (with `play-job.yaml` and `merge-job.yaml`)
//! against a stand-in `kubectl`.
//!
//! The stand-ins run each submitted job at once (array tasks and Indexed Job pods side by
//! side, as a cluster would) and log what they were given, so the tests also check the
//! dependency chain Slurm would enforce (each merge after its array, each array after the
//! previous merge), windows of iterations submitted by the last job of the previous window,
//! site options reaching every job, one log file per task in the run's directory, and a
//! chain stalled by a dead task (Slurm's `DependencyNeverSatisfied`) resumed from the state
//! on disk. The game binary the scripts call is this package's helper binary running
//! Onitama's command line (`plies-test-child onitama ...`).
//!
//! The endgame tables precompute runs the same way: `deploy/slurm/tables-submit.sh` (a
//! job array, a task killed and the submission run again), `deploy/kubernetes/tables-run.sh`,
//! and a task killed mid-write; the engine then reads the directory.
//!
//! Key invariant: the expected weights and journal come from an unsharded in-process run of
//! the same settings, not from numbers written here; the tables' sets are checked by the
//! manifest's checksums and by the engine reading them.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use plies_cli::{GameCli, run};
use plies_onitama::Onitama;

/// The helper binary this package builds for its tests.
const CHILD: &str = env!("CARGO_BIN_EXE_plies-test-child");

const INIT: &str = "tune init --depth 2 --iterations 3 --games 8 --check-every 0 --seed 9 \
                    --opening-plies 2 --max-plies 120 --c-end 6 --r-end 0.05";

fn spec() -> GameCli<Onitama> {
    plies_process_tests::onitama()
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

/// A directory for `PATH` holding `onitama` and `onitama-tables` (the helper binary as
/// the game, without and with endgame tables) and the stand-ins.
fn tools(name: &str) -> PathBuf {
    let bin = temp(name);
    write_script(
        &bin.join("onitama"),
        &format!("#!/bin/sh\nexec '{CHILD}' onitama \"$@\"\n"),
    );
    write_script(
        &bin.join("onitama-tables"),
        &format!("#!/bin/sh\nexec '{CHILD}' onitama-tables \"$@\"\n"),
    );
    // A small Slurm: `sbatch` runs a job at once (array tasks side by side) when its
    // dependency completed, else leaves it pending with Slurm's reason (`Dependency`, or
    // `DependencyNeverSatisfied` after a failure); the job's output goes to its `--output`
    // file (failing, as in Slurm, when the directory is missing). `jobs` holds one
    // `id name state reason` line per job; `sbatch.log` what each submission asked for.
    // FAKE_SLURM_FAIL=A:T kills task T of the A-th array submitted (it never runs).
    write_script(
        &bin.join("sbatch"),
        r#"#!/bin/bash
set -e
here=$(dirname "$0")
jobs="$here/jobs"
touch "$jobs"
id=$(( $(wc -l < "$jobs") + 100 ))
array=""; dependency=""; name=""; output=""; extra=""
while [ $# -gt 0 ]; do
    case "$1" in
        --array=*) array=${1#--array=} ;;
        --dependency=*) dependency=${1#--dependency=} ;;
        --job-name=*) name=${1#--job-name=} ;;
        --output=*) output=${1#--output=} ;;
        --parsable|--export=ALL) ;;
        --account=*|--partition=*|--mem=*|--time=*) extra="$extra $1" ;;
        -*) echo "sbatch stand-in: unexpected option $1" >&2; exit 1 ;;
        *) break ;;
    esac
    shift
done
script=$1; shift
echo "$id $(basename "$script") name=$name array=$array dependency=$dependency output=$output extra=${extra# }" >> "$here/sbatch.log"
reason=None
if [ -n "$dependency" ]; then
    case "$(awk -v id="${dependency#afterok:}" '$1 == id { print $3 }' "$jobs")" in
        COMPLETED) ;;
        PENDING) reason=Dependency ;;
        *) reason=DependencyNeverSatisfied ;;
    esac
fi
echo "$id $name PENDING $reason" >> "$jobs"
if [ "$reason" != None ]; then echo "$id"; exit 0; fi
set_state() { sed -i "s/^$id .*/$id $name $1 None/" "$jobs"; }
set_state RUNNING
log() { local f=${output//%x/$name}; f=${f//%A/$id}; f=${f//%j/$id}; echo "${f//%a/$1}"; }
failed=0
if [ -n "$array" ]; then
    nth=$(grep -c ' array=[0-9]' "$here/sbatch.log")
    pids=()
    for ((t = ${array%-*}; t <= ${array#*-}; t++)); do
        if [ "${FAKE_SLURM_FAIL:-}" = "$nth:$t" ]; then failed=1; continue; fi
        (SLURM_JOB_ID=$id SLURM_ARRAY_TASK_ID=$t exec bash "$script" "$@" > "$(log "$t")" 2>&1) & pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || failed=1; done
else
    (SLURM_JOB_ID=$id exec bash "$script" "$@" > "$(log)" 2>&1) || failed=1
fi
if [ "$failed" = 0 ]; then set_state COMPLETED; else set_state FAILED; fi
echo "$id"
"#,
    );
    // squeue: the pending and running jobs among --name's, as `%i %T %r`.
    write_script(
        &bin.join("squeue"),
        r#"#!/bin/bash
here=$(dirname "$0")
echo "$*" >> "$here/squeue.log"
names=""
for a in "$@"; do case "$a" in --name=*) names=${a#--name=} ;; esac; done
[ -f "$here/jobs" ] || exit 0
awk -v names=",$names," '($3 == "PENDING" || $3 == "RUNNING") && index(names, "," $2 ",") { print $1, $3, $4 }' "$here/jobs"
"#,
    );
    // scancel: pending jobs become cancelled (a running one is refused: not needed here).
    write_script(
        &bin.join("scancel"),
        r#"#!/bin/bash
here=$(dirname "$0")
echo "$*" >> "$here/scancel.log"
for id in "$@"; do
    grep -q "^$id [^ ]* PENDING " "$here/jobs" || { echo "scancel stand-in: $id is not pending" >&2; exit 1; }
    sed -i "s/^$id \([^ ]*\) PENDING .*/$id \1 CANCELLED None/" "$here/jobs"
done
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

/// Runs `deploy/slurm/submit.sh` with `args` from a scratch working directory (which must
/// stay empty: the logs go to the run's directory), the stand-ins first on `PATH`.
fn submit(bin: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let cwd = bin.join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    let output = Command::new("bash")
        .arg(script("deploy/slurm/submit.sh"))
        .args(args)
        .current_dir(&cwd)
        .env("PATH", path_with(bin))
        .env("PLIES_GAME", bin.join("onitama"))
        .env("USER", "tester")
        .envs(env.iter().copied())
        .output()
        .expect("bash runs");
    assert_eq!(
        std::fs::read_dir(&cwd).unwrap().count(),
        0,
        "files left in the submit directory"
    );
    output
}

/// The submissions logged by the sbatch stand-in: `id script key=value...` split on spaces.
fn submissions(bin: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(bin.join("sbatch.log"))
        .unwrap()
        .lines()
        .map(|l| l.split(' ').map(String::from).collect())
        .collect()
}

/// The value of `key=` in a logged submission (the rest of the line for `extra`).
fn field(job: &[String], key: &str) -> String {
    let prefix = format!("{key}=");
    let at = job.iter().position(|w| w.starts_with(&prefix)).unwrap();
    if key == "extra" {
        job[at..].join(" ")[prefix.len()..].to_string()
    } else {
        job[at][prefix.len()..].to_string()
    }
}

/// Checks a chain of play arrays and merges: each merge after its array, each array after the
/// previous merge (or after nothing, when its window starts a submission).
fn assert_chain(jobs: &[&Vec<String>], shards: u32, starts: &[usize]) {
    for (i, job) in jobs.iter().enumerate() {
        let dependency = field(job, "dependency");
        if i % 2 == 0 {
            assert_eq!(job[1], "play.sbatch", "{job:?}");
            assert_eq!(field(job, "array"), format!("0-{}", shards - 1));
            let after = if starts.contains(&i) {
                String::new()
            } else {
                format!("afterok:{}", jobs[i - 1][0])
            };
            assert_eq!(dependency, after, "{job:?}");
        } else {
            assert_eq!(job[1], "merge.sbatch", "{job:?}");
            assert_eq!(field(job, "array"), "");
            assert_eq!(dependency, format!("afterok:{}", jobs[i - 1][0]), "{job:?}");
        }
    }
}

#[test]
fn the_slurm_chain_tunes_like_one_process() {
    let expected = reference("slurm-reference");
    let bin = tools("slurm-bin");
    let dir = temp("slurm-run");
    tune(INIT, &dir);
    let out = submit(&bin, &[&dir.display().to_string(), "3", "3"], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(outcome(&dir), expected);
    // Three iterations (the default window holds them all): array, merge after it, next
    // array after that merge; named after the run, logging into its logs/ directory.
    let jobs = submissions(&bin);
    assert_eq!(jobs.len(), 6, "{jobs:?}");
    assert_chain(&jobs.iter().collect::<Vec<_>>(), 3, &[0]);
    let logs = dir.join("logs").canonicalize().unwrap();
    for job in &jobs {
        let kind = job[1].trim_end_matches(".sbatch");
        assert_eq!(
            field(job, "name"),
            format!("plies-plies-deploy-{}-slurm-run-{kind}", std::process::id())
        );
        let pattern = if kind == "play" {
            "%x-%A_%a.out"
        } else {
            "%x-%j.out"
        };
        assert_eq!(
            field(job, "output"),
            format!("{}/{pattern}", logs.display())
        );
        assert_eq!(field(job, "extra"), "");
    }
    // One log per task and per merge, in the run directory.
    assert_eq!(std::fs::read_dir(&logs).unwrap().count(), 3 * 3 + 3);
    assert_shards_played(&dir, 3);
    // Nothing left: submitting again says so and submits nothing.
    let again = submit(&bin, &[&dir.display().to_string(), "3"], &[]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("nothing to submit"));
    assert_eq!(submissions(&bin).len(), 6);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&bin).unwrap();
}

#[test]
fn a_slurm_window_submits_the_next_and_site_options_reach_every_job() {
    let expected = reference("window-reference");
    let bin = tools("window-bin");
    let dir = temp("window-run");
    tune(INIT, &dir);
    let logs = bin.join("site-logs");
    let args = [
        "--window",
        "2",
        "--logs",
        &logs.display().to_string(),
        "--name",
        "onitama-w",
        &dir.display().to_string(),
        "3",
        "--",
        "--account=lab",
        "--partition=short",
        "--mem=1G",
    ];
    let out = submit(&bin, &args, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(outcome(&dir), expected);
    // Window 1: two iterations and the job submitting the rest after the second merge;
    // window 2 (submitted by that job): the third iteration.
    let jobs = submissions(&bin);
    assert_eq!(jobs.len(), 7, "{jobs:?}");
    assert_eq!(jobs[4][1], "next.sbatch", "{jobs:?}");
    assert_eq!(
        field(&jobs[4], "dependency"),
        format!("afterok:{}", jobs[3][0])
    );
    let chain: Vec<&Vec<String>> = jobs.iter().filter(|j| j[1] != "next.sbatch").collect();
    assert_chain(&chain, 3, &[0, 4]);
    for job in &jobs {
        assert_eq!(
            field(job, "extra"),
            "--account=lab --partition=short --mem=1G",
            "{job:?}"
        );
        assert!(field(job, "name").starts_with("onitama-w-"), "{job:?}");
        assert!(
            field(job, "output").starts_with(&logs.display().to_string()),
            "{job:?}"
        );
    }
    assert_eq!(std::fs::read_dir(&logs).unwrap().count(), 3 * 3 + 3 + 1);
    assert!(!dir.join("logs").exists());
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&bin).unwrap();
}

#[test]
fn a_stalled_slurm_chain_is_resumed_from_the_state_on_disk() {
    let expected = reference("resume-reference");
    let bin = tools("resume-bin");
    let dir = temp("resume-run");
    tune(INIT, &dir);
    let run = dir.display().to_string();
    // Task 1 of the second iteration's array dies: its merge can never start, nor anything
    // after it.
    let out = submit(&bin, &[&run, "3", "3"], &[("FAKE_SLURM_FAIL", "2:1")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // What a user sees: squeue lists the merge as never satisfied, the rest waiting on it.
    let name = format!("plies-plies-deploy-{}-resume-run", std::process::id());
    let queue = Command::new(bin.join("squeue"))
        .args(["--noheader", "--format=%i %T %r"])
        .arg(format!("--name={name}-play,{name}-merge,{name}-next"))
        .output()
        .unwrap();
    let queue = String::from_utf8(queue.stdout).unwrap();
    assert_eq!(queue.lines().count(), 3, "{queue}");
    assert_eq!(
        queue.matches("PENDING DependencyNeverSatisfied").count(),
        1,
        "{queue}"
    );
    assert_eq!(queue.matches("PENDING Dependency\n").count(), 2, "{queue}");
    // Submitting again on top of the stalled chain is refused, naming --resume.
    let refused = submit(&bin, &[&run, "3"], &[]);
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains("--resume") && message.lines().count() == 1,
        "{message}"
    );
    // --resume cancels the three pending jobs and submits the two iterations left.
    let resumed = submit(&bin, &["--resume", &run, "3"], &[]);
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let cancelled = std::fs::read_to_string(bin.join("scancel.log")).unwrap();
    assert_eq!(cancelled.split_whitespace().count(), 3, "{cancelled}");
    assert_eq!(outcome(&dir), expected);
    let all = submissions(&bin);
    assert_eq!(all.len(), 6 + 4, "{all:?}");
    let said = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        said.contains("iteration 2 of 3") && said.contains("iteration 3 of 3"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&bin).unwrap();
}

#[test]
fn slurm_resume_refuses_while_a_job_of_the_run_runs_and_bad_arguments_get_one_line() {
    let bin = tools("refuse-bin");
    let dir = temp("refuse-run");
    tune(INIT, &dir);
    let run = dir.display().to_string();
    let name = format!("plies-plies-deploy-{}-refuse-run", std::process::id());
    std::fs::write(
        bin.join("jobs"),
        format!(
            "100 {name}-play RUNNING None\n101 {name}-merge PENDING DependencyNeverSatisfied\n"
        ),
    )
    .unwrap();
    let out = submit(&bin, &["--resume", &run, "3"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out.stderr);
    assert!(message.contains("still queued or running"), "{message}");
    assert!(!bin.join("scancel.log").exists() && !bin.join("sbatch.log").exists());
    for (args, needle) in [
        (vec![run.as_str(), "x3"], "<shards>"),
        (vec![run.as_str(), "0"], "<shards>"),
        (vec![run.as_str(), "3", "-1"], "unknown option"),
        (vec![run.as_str(), "3", "1e9"], "<iterations>"),
        (vec!["--window", "0", run.as_str(), "3"], "--window"),
        (vec!["--window"], "--window needs a value"),
        (
            vec!["--bogus", run.as_str(), "3"],
            "unknown option '--bogus'",
        ),
        (vec!["/no/such/run", "3"], "no run directory"),
        (vec![run.as_str()], "usage"),
        (vec!["--name", "a b", run.as_str(), "3"], "--name"),
    ] {
        let out = submit(&bin, &args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(message.contains(needle), "{args:?}: {message}");
        assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
    }
    assert!(!bin.join("sbatch.log").exists());
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

/// Onitama's command line with tables, in this process: its output, and whether it succeeded.
fn tables_command(args: &[&str]) -> (String, bool) {
    let argv = std::iter::once("onitama".to_string()).chain(args.iter().map(|a| a.to_string()));
    let mut out = Vec::new();
    let ok = run(
        &plies_process_tests::onitama_with_tables(),
        argv,
        &mut std::io::empty(),
        &mut out,
    )
    .is_ok();
    (String::from_utf8(out).unwrap(), ok)
}

/// `precompute verify` of `sets` of `pieces` pieces in `dir`: its output, and whether every
/// set is built and whole.
fn verify(dir: &str, pieces: &str, sets: &str) -> (String, bool) {
    tables_command(&[
        "precompute",
        "verify",
        "--dir",
        dir,
        "--pieces",
        pieces,
        "--sets",
        sets,
    ])
}

/// Runs `deploy/slurm/tables-submit.sh` with `args`, the stand-ins first on `PATH`.
fn submit_tables(bin: &Path, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    Command::new("bash")
        .arg(script("deploy/slurm/tables-submit.sh"))
        .args(args)
        .current_dir(bin)
        .env("PATH", path_with(bin))
        .env("PLIES_GAME", bin.join("onitama-tables"))
        .env("USER", "tester")
        .envs(env.iter().copied())
        .output()
        .expect("bash runs")
}

/// The sets `verify` names as not built, by index.
fn not_built(output: &str) -> Vec<usize> {
    output
        .lines()
        .filter_map(|l| l.strip_prefix("set ")?.split(' ').next()?.parse().ok())
        .collect()
}

#[test]
fn tables_precomputed_on_slurm_resume_after_a_dead_task_and_the_engine_reads_them() {
    let bin = tools("tables-slurm-bin");
    let dir = temp("tables-slurm");
    let text = dir.display().to_string();
    // Task 1 of the array never runs: its sets (the 2nd and 5th of 0-5) are missing.
    let out = submit_tables(
        &bin,
        &["--sets", "0-5", &text, "3", "3"],
        &[("FAKE_SLURM_FAIL", "1:1")],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (report, ok) = verify(&text, "3", "0-5");
    assert!(!ok, "{report}");
    assert_eq!(not_built(&report), [1, 4], "{report}");
    // The manifest job waits forever; a new submission is refused until it is cancelled.
    let again = submit_tables(&bin, &["--sets", "0-5", &text, "3", "3"], &[]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already queued"));
    let jobs = submissions(&bin);
    assert_eq!(jobs.len(), 2, "{jobs:?}");
    assert_eq!(
        field(&jobs[1], "dependency"),
        format!("afterok:{}", jobs[0][0])
    );
    let cancel = Command::new(bin.join("scancel"))
        .arg(&jobs[1][0])
        .status()
        .unwrap();
    assert!(cancel.success());
    let out = submit_tables(&bin, &["--sets", "0-5", &text, "3", "3"], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (report, ok) = verify(&text, "3", "0-5");
    assert!(ok, "{report}");
    assert!(report.contains("6 sets built and whole"), "{report}");
    // The second array built only what was missing.
    let logs = dir.join("logs");
    let second = &submissions(&bin)[2][0];
    let log = |t: u32| {
        std::fs::read_to_string(logs.join(format!("plies-tables-{second}_{t}.out"))).unwrap()
    };
    assert!(
        log(0).contains("0 sets built, 2 already built"),
        "{}",
        log(0)
    );
    assert!(
        log(1).contains("2 sets built, 0 already built"),
        "{}",
        log(1)
    );
    // The manifest job listed every set, in order.
    let list = std::fs::read_to_string(dir.join("manifest.jsonl")).unwrap();
    let sets: Vec<u64> = list
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["set"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(sets, [0, 1, 2, 3, 4, 5]);
    // A damaged file is named by verify.
    let sets_text = tables_command(&["precompute", "sets"]).0;
    let key4 = sets_text
        .lines()
        .nth(4)
        .unwrap()
        .split_once(' ')
        .unwrap()
        .1
        .to_string();
    let set4 = dir.join(key4.replace(',', "-"));
    let table = std::fs::read_dir(&set4)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "tb"))
        .unwrap();
    let mut bytes = std::fs::read(&table).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&table, &bytes).unwrap();
    let (report, ok) = verify(&text, "3", "0-5");
    assert!(!ok && report.contains("checksum differs"), "{report}");
    assert_eq!(not_built(&report), [4], "{report}");
    std::fs::write(&table, {
        bytes[middle] ^= 1;
        &bytes
    })
    .unwrap();
    // The engine reads the directory: a position of set 2's deal.
    let position = |deal: &str| {
        let cards: Vec<&str> = deal.split(',').collect();
        format!(
            "5/2B2/5/1R3/2r2 r {},{} {},{} {}",
            cards[0], cards[1], cards[2], cards[3], cards[4]
        )
    };
    let key2 = sets_text
        .lines()
        .nth(2)
        .unwrap()
        .split_once(' ')
        .unwrap()
        .1
        .to_string();
    let (analysis, ok) = tables_command(&[
        "analyze",
        "--tables-dir",
        &text,
        "--tables",
        "3",
        "--depth",
        "2",
        "--position",
        &position(&key2),
    ]);
    assert!(ok, "{analysis}");
    assert!(analysis.contains("3 read from the directory"), "{analysis}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&bin).unwrap();
}

#[test]
fn a_precompute_task_killed_mid_write_leaves_no_listed_set_damaged() {
    let bin = tools("tables-kill-bin");
    let dir = temp("tables-kill");
    let text = dir.display().to_string();
    let args = [
        "precompute",
        "run",
        "--dir",
        &text,
        "--pieces",
        "4",
        "--sets",
        "0-2",
        "--threads",
        "1",
    ];
    // Killed wherever it is: in a build, writing a file, or writing a manifest. With
    // `--foreground`, timeout kills only the child and waits for it (without, it kills its
    // whole group, itself first, and the child may still hold its locks when it returns).
    let status = Command::new("timeout")
        .args(["--foreground", "-s", "KILL", "1"])
        .arg(bin.join("onitama-tables"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("timeout runs");
    assert!(
        !status.success(),
        "finished before the kill: make the work larger"
    );
    let (report, _) = verify(&text, "4", "0-2");
    for line in report.lines().filter(|l| l.starts_with("set ")) {
        assert!(
            line.ends_with("no manifest"),
            "a listed set is damaged: {line}"
        );
    }
    // Run again, the shard completes what is missing.
    let (out, ok) = tables_command(&args);
    assert!(ok, "{out}");
    let (report, ok) = verify(&text, "4", "0-2");
    assert!(ok, "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&bin).unwrap();
}

#[test]
fn tables_precomputed_as_a_kubernetes_indexed_job_are_all_there() {
    let bin = tools("tables-k8s-bin");
    let dir = temp("tables-k8s");
    let text = dir.display().to_string();
    let status = Command::new("bash")
        .arg(script("deploy/kubernetes/tables-run.sh"))
        .args([
            bin.join("onitama-tables").display().to_string(),
            text.clone(),
            "2".into(),
            "3".into(),
            "0-3".into(),
        ])
        .env("PATH", path_with(&bin))
        .stdout(std::process::Stdio::null())
        .status()
        .expect("bash runs");
    assert!(status.success());
    let (report, ok) = verify(&text, "3", "0-3");
    assert!(ok, "{report}");
    let list = std::fs::read_to_string(dir.join("manifest.jsonl")).unwrap();
    assert_eq!(list.lines().count(), 4, "{list}");
    let log = std::fs::read_to_string(bin.join("kubectl.log")).unwrap();
    assert_eq!(
        log.lines().filter(|l| l.starts_with("apply")).count(),
        2,
        "{log}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&bin).unwrap();
}
