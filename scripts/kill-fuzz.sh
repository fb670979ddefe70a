#!/usr/bin/env bash
# Crashes plain mpi programs at random times, under a random recovering protocol and launch mode, and
# checks every run ends and prints exactly what the failure-free run printed.
#
# Each trial draws a program of io.rewind.apps.plain (CollectiveTour, RequestTour, ProbeTour, ThreadTour,
# CommunicatorTour, VectorTour, DatatypeTour), a protocol (pessimistic, causal, mcml with a drawn quota, spbc with 1-4 clusters but no
# more than ranks, global), the launch mode (threads, or local: one process per rank, a crash is a real
# SIGKILL) and one to three kills at drawn times, from 20 ms to as long as that program's failure-free
# run took (the same rank twice, or a rank during another's recovery, included; as processes the ranks
# start later, so more kills land while they start).
# Kills by time, unlike the oracle's kills at operation counts, fall wherever the run happens to be.
#
# Usage: scripts/kill-fuzz.sh [TRIALS] [SEED]      (defaults: 40 trials, seed 1; a few minutes each 10)
# Environment: RANKS (default 4), ITERATIONS (default 300), WORK (default 300000: the computation
# between iterations, which sets how long a run lasts), OUT_DIR (default: a new temporary folder, where
# a failing trial's output is kept).
# Exit status: 0 when every trial matched, 1 otherwise.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
trials="${1:-40}"
seed="${2:-1}"
ranks="${RANKS:-4}"
iterations="${ITERATIONS:-300}"
work="${WORK:-300000}"
out="${OUT_DIR:-$(mktemp -d -t rewind-kill-fuzz-XXXXXX)}"
mkdir -p "$out"

programs=(CollectiveTour RequestTour ProbeTour ThreadTour CommunicatorTour VectorTour DatatypeTour)
protocols=(pessimistic causal mcml spbc global)
RANDOM="$seed"

"$repo/rewind" --version >/dev/null

# The failure-free output of each program: what every trial must print. Each program's own run sets
# the span its kill times are drawn from (programs differ several times in length, and a kill drawn
# past a program's end strikes nothing).
declare -A span
for p in "${programs[@]}"; do
  start=$(date +%s%N)
  "$repo/rewind" run -n "$ranks" --no-record "io.rewind.apps.plain.$p" "$iterations" "$work" \
    | grep '^\[[0-9]*\] rank' | sort >"$out/$p.expected"
  took=$((($(date +%s%N) - start) / 1000000))
  span[$p]=$((took > 100 ? took : 100))
done

failed=0
for t in $(seq 1 "$trials"); do
  program="${programs[$((RANDOM % ${#programs[@]}))]}"
  protocol="${protocols[$((RANDOM % ${#protocols[@]}))]}"
  launch=threads
  [ $((RANDOM % 3)) = 0 ] && launch=local
  s=${span[$program]}
  kills="$((RANDOM % ranks))@t$((20 + (RANDOM * 32768 + RANDOM) % s))"
  [ $((RANDOM % 2)) = 0 ] && kills="$kills,$((RANDOM % ranks))@t$((20 + (RANDOM * 32768 + RANDOM) % s))"
  [ $((RANDOM % 4)) = 0 ] && kills="$kills,$((RANDOM % ranks))@t$((20 + (RANDOM * 32768 + RANDOM) % s))"
  extra=()
  case "$protocol" in
    mcml) extra=(--log-quota "$(((RANDOM % 3) * 64 + 16))KiB") ;;
    spbc) extra=(--clusters "$((1 + RANDOM % (ranks < 4 ? ranks : 4)))") ;; # no more clusters than ranks
  esac
  set +e
  "$repo/rewind" run -n "$ranks" --launch "$launch" --protocol "$protocol" "${extra[@]}" --kill "$kills" \
    --summary --no-record --timeout 300s "io.rewind.apps.plain.$program" "$iterations" "$work" \
    >"$out/trial-$t.out" 2>"$out/trial-$t.err"
  status=$?
  set -e
  struck=$(grep -c ' failure: ' "$out/trial-$t.err" || true)  # the summary is on standard error
  if [ "$status" = 0 ] && grep '^\[[0-9]*\] rank' "$out/trial-$t.out" | sort | cmp -s - "$out/$program.expected"; then
    verdict=same
    rm -f "$out/trial-$t.out" "$out/trial-$t.err"
  else
    verdict="DIFFERENT (kept in $out/trial-$t.out and .err)"
    failed=$((failed + 1))
  fi
  echo "trial $t: $program $protocol ${extra[*]} --launch $launch --kill $kills: exit $status, $struck struck, $verdict"
done
spans=""
for p in "${programs[@]}"; do spans="$spans $p ${span[$p]} ms,"; done
echo "$((trials - failed)) of $trials trials printed the failure-free output (seed $seed, kills drawn over" \
  "each program's failure-free run:${spans%,}; outputs in $out)"
[ "$failed" = 0 ]
