#!/bin/bash
# Precomputes the endgame tables of every card set on Kubernetes (>= 1.29): the Indexed
# Job of tables-job.yaml (SHARDS pods), then, when it completed, the Job of
# tables-manifest-job.yaml. Stop it at any time and start it again: the pods skip the
# sets already built. The tables directory is a ReadWriteMany volume (plies-tables, see
# tables-volume.yaml); engines read it with --tables-dir.
#
#   kubectl apply -f deploy/kubernetes/tables-volume.yaml
#   deploy/kubernetes/tables-run.sh onitama /tables 64 6    # 64 pods, 6 pieces
#   deploy/kubernetes/tables-run.sh onitama /tables 4 4 0-99 # the first 100 sets only
set -euo pipefail
usage="usage: tables-run.sh <game> <tables dir in the volume> <shards> <pieces> [<sets>]"
game=${1:?$usage}
dir=${2:?$usage}
shards=${3:?$usage}
pieces=${4:?$usage}
sets=${5:-}
[[ -z $sets || $sets =~ ^[0-9,-]{1,1000}$ ]] || die "<sets>: indices and ranges like 0-99,250"
choice=${sets:+--sets $sets}
die() {
    echo "tables-run.sh: $*" >&2
    exit 2
}
# No leading zeros: YAML and the shell would read them as octal.
[[ $shards =~ ^[1-9][0-9]{0,5}$ ]] || die "<shards> must be a whole number from 1"
[[ $pieces =~ ^[1-9][0-9]?$ && $pieces -ge 2 ]] || die "<pieces> must be a whole number from 2"
# Pasted into the Job's shell command and sed: plain path characters only.
[[ $game =~ ^[A-Za-z0-9_./-]{1,200}$ ]] || die "<game>: letters, digits and . _ / - only"
[[ $dir =~ ^[A-Za-z0-9_./-]{1,200}$ ]] || die "<tables dir>: letters, digits and . _ / - only"
here=$(cd "$(dirname "$0")" && pwd)
# Waits until job $1 completes (success) or fails (failure), at most $2 seconds.
wait_job() {
    local waited state
    for ((waited = 0; waited < $2; waited += 10)); do
        state=$(kubectl get job "$1" -o jsonpath='{.status.conditions[?(@.status=="True")].type}')
        case "$state" in
            *Complete*) return 0 ;;
            *Failed*) echo "job $1 failed: see kubectl describe job $1" >&2; return 1 ;;
        esac
        sleep 10
    done
    echo "job $1 still running after $2 s" >&2
    return 1
}
fill() {
    sed -e "s|SHARDS|$shards|g" -e "s|PIECES|$pieces|g" -e "s|GAME|$game|g" \
        -e "s|TABLES_DIR|$dir|g" -e "s|SETS|$choice|g" "$1"
}
# Jobs left by an earlier, interrupted run of this script (and their pods: a set has one
# writer at a time).
kubectl delete job plies-tables plies-tables-manifest --ignore-not-found --cascade=foreground
fill "$here/tables-job.yaml" | kubectl apply -f -
wait_job plies-tables 604800
fill "$here/tables-manifest-job.yaml" | kubectl apply -f -
wait_job plies-tables-manifest 86400
kubectl delete job plies-tables plies-tables-manifest --cascade=foreground
