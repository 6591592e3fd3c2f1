#!/bin/bash
# Precomputes the endgame tables of every card set (or of --sets) on Slurm: a job array
# of <shards> tasks (tables.sbatch), task K building the sets K, K+shards, ... of the
# list, then a job (tables-manifest.sbatch) that checks them all and writes
# manifest.jsonl once every task succeeded. Run it again after a failure or a
# cancellation: each task skips the sets already built, so only what is missing is
# built again.
#
#   PLIES_GAME=/shared/bin/onitama deploy/slurm/tables-submit.sh /shared/tables 64 6 \
#       -- --account=lab --partition=short --mem=8G
#   onitama analyze --tables-dir /shared/tables --tables 6 --position ...
#
# usage: tables-submit.sh [--sets LIST] [--logs DIR] [--name NAME] <tables dir> <shards> <pieces> [-- <sbatch option>...]
#   --sets LIST    the sets to build, as indices into `onitama precompute sets`
#                  (e.g. 0-99,250); default all
#   --logs DIR     the jobs' log files (default <tables dir>/logs)
#   --name NAME    job name prefix (default plies-tables)
#   -- ...         sbatch options for every job (site options), last so they win
#
# PLIES_GAME is the game binary at the same path on every node; the tables directory is
# on storage every node sees. Sets are disjoint between tasks: a set has one writer.
set -euo pipefail
usage="usage: tables-submit.sh [--sets LIST] [--logs DIR] [--name NAME] <tables dir> <shards> <pieces> [-- <sbatch option>...]"
die() {
    echo "tables-submit.sh: $*" >&2
    exit 2
}
# A whole number of at most 9 digits, no leading zero (bash would read it as octal).
is_number() { [[ $1 =~ ^(0|[1-9][0-9]{0,8})$ ]]; }

sets="" logs="" name=""
positional=() extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --sets | --logs | --name)
            [ $# -ge 2 ] || die "$1 needs a value ($usage)"
            case "$1" in
                --sets) sets=$2 ;;
                --logs) logs=$2 ;;
                --name) name=$2 ;;
            esac
            shift
            ;;
        --sets=*) sets=${1#*=} ;;
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
[ ${#positional[@]} -eq 3 ] || die "$usage"
dir=${positional[0]}
shards=${positional[1]}
pieces=${positional[2]}
is_number "$shards" && [ "$shards" -ge 1 ] ||
    die "<shards> must be a whole number from 1, got '${shards:0:80}'"
is_number "$pieces" && [ "$pieces" -ge 2 ] && [ "$pieces" -le 32 ] ||
    die "<pieces> must be a whole number from 2, got '${pieces:0:80}'"
[[ -z $sets || $sets =~ ^[0-9,-]{1,1000}$ ]] ||
    die "--sets: indices and ranges like 0-99,250, got '${sets:0:80}'"
mkdir -p "$dir" || die "cannot make the tables directory '${dir:0:80}'"
dir=$(cd "$dir" && pwd) # absolute: the jobs do not start where this runs
name=${name:-plies-tables}
[[ $name =~ ^[A-Za-z0-9._-]{1,100}$ ]] || die "--name: letters, digits, . _ - only, got '${name:0:80}'"
logs=${logs:-$dir/logs}
mkdir -p "$logs" # Slurm does not create it: a job whose log it cannot open fails
logs=$(cd "$logs" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
game=${PLIES_GAME:?set PLIES_GAME to the game binary (at the same path on every node)}
[[ $game == /* ]] || game=$(cd "$(dirname "$game")" && pwd)/$(basename "$game")
[ -f "$game" ] && [ -x "$game" ] || die "PLIES_GAME '${game:0:80}' is not an executable file"
export PLIES_GAME=$game

# Nothing to do when every set is built and checks.
check=(--dir "$dir" --pieces "$pieces")
[ -z "$sets" ] || check+=(--sets "$sets")
if "$game" precompute verify "${check[@]}" > /dev/null 2>&1; then
    echo "nothing to submit: every set is built and checks"
    exit 0
fi
command -v squeue > /dev/null || die "squeue not found: run this where Slurm's commands are"
queued=$(squeue --noheader --user="${USER:-$(id -un)}" --name="$name,$name-manifest" \
    --format='%i %T %r') || die "squeue failed: cannot tell whether jobs of $name are queued"
[ -z "$queued" ] || die "jobs of $name are already queued ($(tr '\n' ';' <<< "${queued:0:80}")...): wait for them, or scancel them and run this again"

array=$(sbatch --parsable --export=ALL --job-name="$name" --output="$logs/%x-%A_%a.out" \
    --array=0-$((shards - 1)) ${extra[@]+"${extra[@]}"} \
    "$here/tables.sbatch" "$dir" "$shards" "$pieces" "$sets")
manifest=$(sbatch --parsable --export=ALL --job-name="$name-manifest" \
    --output="$logs/%x-%j.out" --dependency="afterok:${array%%;*}" ${extra[@]+"${extra[@]}"} \
    "$here/tables-manifest.sbatch" "$dir" "$pieces" "$sets")
echo "tables of $pieces pieces: array ${array%%;*} ($shards tasks), manifest ${manifest%%;*}"
