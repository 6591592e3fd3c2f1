#!/bin/bash
# Submits the iterations of a tuning run to Slurm: for each, a job array of <shards>
# play tasks (play.sbatch), then a merge job (merge.sbatch) that starts when every task
# of the array succeeded (afterok), and the next iteration's array after that merge.
# Nothing runs outside Slurm and no process waits for another: the order is Slurm's
# job dependencies.
#
#   onitama tune init --dir /shared/tune-onitama --nodes 5000 --iterations 200 --games 256 ...
#   PLIES_GAME=/shared/bin/onitama deploy/slurm/submit.sh /shared/tune-onitama 64 \
#       -- --account=lab --partition=short --mem=2G
#
# usage: submit.sh [options] <run dir> <shards> [<iterations>] [-- <sbatch option>...]
#   <iterations>   how many to submit; default (and at most) what the run has left
#   --window N     submit N iterations now and, after the last merge of those, a job
#                  (next.sbatch) that submits the next N, and so on: the queue holds at
#                  most N x (shards + 1) + 1 jobs of the run, under Slurm's MaxJobCount
#                  (10,000 by default). Default: as many as fit in 5,000 jobs.
#   --no-chain     submit one window only (for clusters whose nodes cannot submit jobs):
#                  run submit.sh again once its jobs are gone from squeue
#   --logs DIR     the jobs' log files, one per task (default <run dir>/logs)
#   --name NAME    job name prefix (default plies-<run dir's name>): NAME-play,
#                  NAME-merge, NAME-next; submit.sh finds the run's jobs by these names
#   --resume       continue after a play task or merge failed, was cancelled or timed out:
#                  such a chain waits forever (squeue shows the reason
#                  DependencyNeverSatisfied); --resume cancels the run's pending jobs and
#                  submits what the state on disk has left (play and merge skip what is
#                  done). It refuses while a job of the run is running.
#   -- ...         sbatch options for every job (site options: --account, --partition,
#                  --qos, --mem, --time, ...); they come last and win over the scripts'
#
# PLIES_GAME is the game binary: it must be at the same path on every node (and so must
# this directory, for the next.sbatch jobs), and the run directory on storage every node
# sees. One writer per shard at a time: submit.sh refuses while jobs of the run are queued.
# Choose --games as a multiple of the shards (256 games over 64 shards: 4 per task).
set -euo pipefail
usage="usage: submit.sh [--window N] [--no-chain] [--logs DIR] [--name NAME] [--resume] <run dir> <shards> [<iterations>] [-- <sbatch option>...]"
die() {
    echo "submit.sh: $*" >&2
    exit 2
}
# A whole number of at most 9 digits (so that shell arithmetic cannot overflow).
is_number() { [[ $1 =~ ^[0-9]{1,9}$ ]]; }

resume=0 chain=1 window="" logs="" name=""
positional=() extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --resume) resume=1 ;;
        --no-chain) chain=0 ;;
        --window | --logs | --name)
            [ $# -ge 2 ] || die "$1 needs a value ($usage)"
            case "$1" in
                --window) window=$2 ;;
                --logs) logs=$2 ;;
                --name) name=$2 ;;
            esac
            shift
            ;;
        --window=*) window=${1#*=} ;;
        --logs=*) logs=${1#*=} ;;
        --name=*) name=${1#*=} ;;
        --)
            shift
            extra=("$@")
            break
            ;;
        -*) die "unknown option '${1:0:80}' ($usage)" ;;
        *) positional+=("$1") ;;
    esac
    shift
done
[ ${#positional[@]} -ge 2 ] && [ ${#positional[@]} -le 3 ] || die "$usage"
dir=${positional[0]}
shards=${positional[1]}
count=${positional[2]:-}
is_number "$shards" && [ "$shards" -ge 1 ] ||
    die "<shards> must be a whole number from 1, got '${shards:0:80}'"
[ -z "$count" ] || is_number "$count" ||
    die "<iterations> must be a whole number, got '${count:0:80}'"
[ -z "$window" ] || { is_number "$window" && [ "$window" -ge 1 ]; } ||
    die "--window must be a whole number from 1, got '${window:0:80}'"
[ -d "$dir" ] || die "no run directory '${dir:0:80}' (run tune init first)"
dir=$(cd "$dir" && pwd) # absolute: the jobs do not start where this runs
name=${name:-plies-$(basename "$dir")}
[[ $name =~ ^[A-Za-z0-9._-]{1,100}$ ]] || die "--name: letters, digits, . _ - only, got '${name:0:80}'"
logs=${logs:-$dir/logs}
mkdir -p "$logs" # Slurm does not create it: a job whose log it cannot open fails
logs=$(cd "$logs" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
game=${PLIES_GAME:?set PLIES_GAME to the game binary (at the same path on every node)}
[[ $game == /* ]] || game=$(cd "$(dirname "$game")" && pwd)/$(basename "$game")
[ -f "$game" ] && [ -x "$game" ] || die "PLIES_GAME '${game:0:80}' is not an executable file"
export PLIES_GAME=$game
window=${window:-$((5000 / (shards + 1) > 0 ? 5000 / (shards + 1) : 1))}

# What the run has left, from the state on disk.
status=$("$game" tune status --dir "$dir" --json) || die "cannot read the run's state in $dir"
status=$(sed 's/"check":{[^}]*}//' <<< "$status")
next=$({ grep -o '"iteration":[0-9]*' || true; } <<< "$status" | head -n 1 | cut -d: -f2)
total=$({ grep -o '"iterations":[0-9]*' || true; } <<< "$status" | head -n 1 | cut -d: -f2)
is_number "$next" && is_number "$total" || die "unexpected tune status output: ${status:0:80}"
left=$((total > next ? total - next : 0))
count=${count:-$left}
if [ "$count" -gt "$left" ]; then
    echo "the run has $left iterations left (of $total): submitting $left"
    count=$left
fi

# The run's jobs in the queue (this job itself left out when a next.sbatch job runs this).
command -v squeue > /dev/null || die "squeue not found: run this where Slurm's commands are"
queued=$(squeue --noheader --user="${USER:-$(id -un)}" --name="$name-play,$name-merge,$name-next" \
    --format='%i %T %r') || die "squeue failed: cannot tell whether jobs of $name are queued"
queued=$({ grep -v "^${SLURM_JOB_ID:-none} " || true; } <<< "$queued")
listed=$(tr '\n' ';' <<< "$queued")
listed=${listed:0:80}
if [ -n "$queued" ]; then
    if [ "$resume" = 1 ] && grep -q ' DependencyNeverSatisfied$' <<< "$queued" &&
        ! grep -qv ' PENDING ' <<< "$queued"; then
        ids=$(cut -d' ' -f1 <<< "$queued" | sed 's/_.*//' | sort -u)
        # shellcheck disable=SC2086 # one argument per job id
        scancel $ids
        echo "cancelled the run's stalled jobs: $(tr '\n' ' ' <<< "$ids")"
    elif [ "$resume" = 1 ]; then
        die "jobs of $name are still queued or running, not a stalled chain ($listed...): wait for them (or scancel them and wait until squeue shows none), then resume"
    else
        die "jobs of $name are already queued ($listed...); if the chain stalled (DependencyNeverSatisfied), use --resume"
    fi
fi
if [ "$count" -eq 0 ]; then
    echo "nothing to submit: the run has done its $total iterations"
    exit 0
fi

now=$((count < window ? count : window))
common=(--parsable --export=ALL)
after=()
for ((i = 0; i < now; i++)); do
    # ${array[@]+...}: an empty array is no argument, also under `set -u` in bash < 4.4.
    play=$(sbatch "${common[@]}" --job-name="$name-play" --output="$logs/%x-%A_%a.out" \
        --array=0-$((shards - 1)) ${after[@]+"${after[@]}"} ${extra[@]+"${extra[@]}"} \
        "$here/play.sbatch" "$dir" "$shards")
    merge=$(sbatch "${common[@]}" --job-name="$name-merge" --output="$logs/%x-%j.out" \
        --dependency="afterok:${play%%;*}" ${extra[@]+"${extra[@]}"} "$here/merge.sbatch" "$dir")
    after=(--dependency="afterok:${merge%%;*}")
    echo "iteration $((next + i + 1)) of $total: play array ${play%%;*}, merge ${merge%%;*}"
done
if [ "$count" -gt "$now" ] && [ "$chain" = 1 ]; then
    job=$(sbatch "${common[@]}" --job-name="$name-next" --output="$logs/%x-%j.out" \
        "${after[@]}" ${extra[@]+"${extra[@]}"} "$here/next.sbatch" "$here/submit.sh" \
        --window "$window" --logs "$logs" --name "$name" "$dir" "$shards" "$((count - now))" \
        -- ${extra[@]+"${extra[@]}"})
    echo "the next $((count - now)) iterations: submitted by job ${job%%;*} after merge ${merge%%;*}"
elif [ "$count" -gt "$now" ]; then
    echo "$((count - now)) iterations not submitted (--no-chain): run submit.sh again when squeue shows no job of $name"
fi
