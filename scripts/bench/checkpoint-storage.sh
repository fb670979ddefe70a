#!/usr/bin/env bash
# What keeping checkpoints safe costs with ranks as processes: the time a checkpoint takes (encode,
# hand to the node's checkpoint service, on disk, acknowledged), per checkpoint, with
#   shared  - one folder every node sees (--checkpoint-dir), no copy
#   partner - each node's own folder, every line copied to a partner node before it is acknowledged
# side by side in interleaved rounds on 2 local nodes. Prints one line per run and the medians.
# Usage: scripts/bench/checkpoint-storage.sh [ROUNDS] [GRID] [SWEEPS]
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/bench/common.sh
. scripts/bench/common.sh
rounds="${1:-3}"
grid="${2:-256}"
sweeps="${3:-40}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
run() { # $1 = shared|partner
  local extra=()
  if [ "$1" = shared ]; then extra=(--checkpoint-dir "$work/shared"); fi
  timeout 600 ./rewind run -n 4 --launch local --nodes 2 --no-record --summary --protocol pessimistic \
    --checkpoint-every 4 "${extra[@]}" io.rewind.apps.workloads.Stencil2D "$grid" "$sweeps" 2>&1 |
    sed -n 's/.*; \([0-9]*\) checkpoints, \([0-9.]*\) \([KMG]iB\), \([0-9.]*\) ms writing.*/\1 \2\3 \4/p'
}
declare -A per
for r in $(seq 1 "$rounds"); do
  for mode in shared partner; do
    read -r n size ms < <(run "$mode")
    each=$(awk -v ms="$ms" -v n="$n" 'BEGIN { printf "%.1f", ms / n }')
    echo "round $r $mode: $n checkpoints, $size in all, $ms ms writing, $each ms per checkpoint"
    per[$mode]+="$each "
  done
done
for mode in shared partner; do
  echo "$mode: median ms per checkpoint $(echo "${per[$mode]}" | median)"
done
