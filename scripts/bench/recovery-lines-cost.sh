#!/usr/bin/env bash
# What keeping the messages in transit across recovery lines costs without failures: job time of this
# build against a build before it (its rewind.jar), side by side in interleaved rounds (the order of
# the two flips every round), for a workload whose ring messages cross every line (PipelineRing,
# received one iteration late) and one whose messages cross none (Stencil2D), under global,
# pessimistic and spbc. Both builds run the workloads from this checkout's classes, so they run the
# same program. Prints every run, then per case the median of the per-round ratios (this build over
# the one before) with their smallest and largest.
# Usage: scripts/bench/recovery-lines-cost.sh BEFORE_JAR [ROUNDS] [EVERY]
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/bench/common.sh
. scripts/bench/common.sh
before="${1:?usage: recovery-lines-cost.sh BEFORE_JAR [ROUNDS] [EVERY]}"
rounds="${2:-10}"
every="${3:-4}"
./rewind --version >/dev/null # builds this checkout if needed
after="rewind-cli/target/rewind.jar"
find_java
classes="rewind-apps/target/classes"
cases=(
  "global|PipelineRing|--protocol global|io.rewind.apps.crossing.PipelineRing 600 512 0"
  "pessimistic|PipelineRing|--protocol pessimistic|io.rewind.apps.crossing.PipelineRing 600 512 0"
  "spbc|PipelineRing|--protocol spbc --clusters 2|io.rewind.apps.crossing.PipelineRing 600 512 0"
  "global|Stencil2D|--protocol global|io.rewind.apps.workloads.Stencil2D 96 600"
  "pessimistic|Stencil2D|--protocol pessimistic|io.rewind.apps.workloads.Stencil2D 96 600"
  "spbc|Stencil2D|--protocol spbc --clusters 2|io.rewind.apps.workloads.Stencil2D 96 600"
)
seconds() { # $1 = jar, $2 = options, $3 = program and arguments
  # shellcheck disable=SC2086
  timeout 600 "$java" -jar "$1" run -n 4 --no-record --summary --checkpoint-every "$every" $2 -cp "$classes" $3 2>&1 |
    sed -n 's/^rewind: protocol [a-z]*, [0-9]* ranks, \([0-9.]*\) s;.*/\1/p'
}
declare -A ratios
for r in $(seq 1 "$rounds"); do
  for c in "${cases[@]}"; do
    IFS='|' read -r protocol program options command <<<"$c"
    if [ $((r % 2)) -eq 1 ]; then
      b=$(seconds "$before" "$options" "$command"); a=$(seconds "$after" "$options" "$command")
    else
      a=$(seconds "$after" "$options" "$command"); b=$(seconds "$before" "$options" "$command")
    fi
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
    echo "round $r $protocol $program: before ${b} s, after ${a} s, ratio $ratio"
    ratios["$protocol $program"]+="$ratio "
  done
done
for c in "${cases[@]}"; do
  IFS='|' read -r protocol program _ _ <<<"$c"
  echo "$protocol $program: after/before median $(echo "${ratios["$protocol $program"]}" | median)"
done
