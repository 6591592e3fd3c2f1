#!/bin/bash
# Runs the remaining iterations of a tuning run on Kubernetes: for each, the
# Indexed Job of play-job.yaml (SHARDS pods), and when it completed the Job of
# merge-job.yaml. Stop it at any time and start it again: it reads the iteration
# from the run's state and play/merge skip what is done.
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
fill() {
    sed -e "s|ITERATION|$1|g" -e "s|SHARDS|$shards|g" -e "s|GAME|$game|g" -e "s|RUN_DIR|$dir|g" "$2"
}
for ((i = 1; i <= iterations; i++)); do
    # Jobs left by an earlier, interrupted run of this script.
    kubectl delete job "plies-tune-play-$i" "plies-tune-merge-$i" --ignore-not-found
    fill "$i" "$here/play-job.yaml" | kubectl apply -f -
    kubectl wait --for=condition=complete --timeout=24h "job/plies-tune-play-$i"
    fill "$i" "$here/merge-job.yaml" | kubectl apply -f -
    kubectl wait --for=condition=complete --timeout=1h "job/plies-tune-merge-$i"
    kubectl delete job "plies-tune-play-$i" "plies-tune-merge-$i" --wait=false
done
