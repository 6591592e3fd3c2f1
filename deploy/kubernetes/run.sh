#!/bin/bash
# Runs <iterations> iterations of a tuning run on Kubernetes (>= 1.29: the play Job
# uses backoffLimitPerIndex and podReplacementPolicy): for each, the Indexed Job of
# play-job.yaml (SHARDS pods), and when it completed the Job of merge-job.yaml; a
# failed Job stops the script. Stop it at any time and start it again with the
# number of iterations still to run: play and merge skip what is done (an
# iteration started after the run finished does nothing).
#
#   kubectl apply -f deploy/kubernetes/volume.yaml
#   kubectl run plies-tune-init --rm -i --restart=Never --image=plies:latest \
#       --overrides='{"spec":{"volumes":[{"name":"t","persistentVolumeClaim":{"claimName":"plies-tune"}}],"containers":[{"name":"i","image":"plies:latest","command":["onitama","tune","init","--dir","/tune/onitama","--nodes","5000","--iterations","200","--games","64"],"volumeMounts":[{"name":"t","mountPath":"/tune"}]}]}}'
#   deploy/kubernetes/run.sh onitama /tune/onitama 16 200    # 16 pods per iteration, 200 iterations
set -euo pipefail
game=${1:?usage: run.sh <game> <run dir in the volume> <shards> <iterations>}
dir=${2:?usage: run.sh <game> <run dir in the volume> <shards> <iterations>}
shards=${3:?usage: run.sh <game> <run dir in the volume> <shards> <iterations>}
iterations=${4:?usage: run.sh <game> <run dir in the volume> <shards> <iterations>}
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
    sed -e "s|ITERATION|$1|g" -e "s|SHARDS|$shards|g" -e "s|GAME|$game|g" -e "s|RUN_DIR|$dir|g" "$2"
}
for ((i = 1; i <= iterations; i++)); do
    # Jobs left by an earlier, interrupted run of this script (and their pods: a shard has
    # one writer at a time).
    kubectl delete job "plies-tune-play-$i" "plies-tune-merge-$i" --ignore-not-found \
        --cascade=foreground
    fill "$i" "$here/play-job.yaml" | kubectl apply -f -
    wait_job "plies-tune-play-$i" 86400
    fill "$i" "$here/merge-job.yaml" | kubectl apply -f -
    wait_job "plies-tune-merge-$i" 3600
    kubectl delete job "plies-tune-play-$i" "plies-tune-merge-$i" --cascade=foreground
done
