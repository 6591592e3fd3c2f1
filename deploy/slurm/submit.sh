#!/bin/bash
# Submits <count> iterations of a tuning run to Slurm (give the number still to run;
# an iteration submitted after the run finished does nothing):
# for each, a job array of <shards> play tasks, then a merge job that starts when
# every task of the array succeeded (afterok), and the next iteration's array after
# that merge. Nothing runs outside Slurm and no process waits for another: the
# order is Slurm's job dependencies.
#
#   tune init --dir /shared/tune-onitama --nodes 5000 --iterations 200 --games 256 ...
#   PLIES_GAME=$PWD/target/release/examples/onitama \
#       deploy/slurm/submit.sh /shared/tune-onitama 64 50     # 64 shards, 50 iterations
#
# Submit again (after the last merge ended) for the next iterations; if a job
# failed, cancel the chain (scancel) and submit again: play and merge skip what is done.
# One writer per shard at a time: do not run a task while its earlier copy may still run.
# Choose --games as a multiple of the shards (256 games over 64 shards: 4 per task).
set -euo pipefail
dir=${1:?usage: submit.sh <run dir> <shards> <iterations to submit>}
shards=${2:?usage: submit.sh <run dir> <shards> <iterations to submit>}
count=${3:?usage: submit.sh <run dir> <shards> <iterations to submit>}
here=$(cd "$(dirname "$0")" && pwd)
export PLIES_GAME=${PLIES_GAME:?set PLIES_GAME to the game binary}
after=()
for ((i = 0; i < count; i++)); do
    # ${after[@]+...}: an empty array is no argument, also under `set -u` in bash < 4.4.
    play=$(sbatch --parsable --export=ALL ${after[@]+"${after[@]}"} --array=0-$((shards - 1)) \
        "$here/play.sbatch" "$dir" "$shards")
    merge=$(sbatch --parsable --export=ALL --dependency="afterok:${play%%;*}" \
        "$here/merge.sbatch" "$dir")
    after=(--dependency="afterok:${merge%%;*}")
    echo "iteration $((i + 1)) of $count: play array ${play%%;*}, merge ${merge%%;*}"
done
