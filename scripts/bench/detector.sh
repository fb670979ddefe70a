#!/usr/bin/env bash
# The failure detector's trade, measured on this machine under an artificial CPU load: BUSY busy
# processes (`sh -c 'while :; do :; done'`, each ended by `timeout` should this script die) compete
# with the launcher, the node agents and the rank processes for the cores.
#
#   1. false suspicions: one `--launch local --nodes 2` job of 4 rank processes (a pessimistic stencil,
#      a checkpoint every 20 sweeps) sized, from two short jobs under the same load, to run about
#      MINUTES minutes (the machine's other work makes that approximate), with the default detector
#      settings; every "suspected" and "taken for lost" line is counted. A lost node would also show
#      as a failure in the job's summary.
#   2. detection of a SIGKILLed rank (`--kill 3@t15000`): the "detect" figure of its failure (from
#      the launcher learning of the kill to its coordinator taking the rank down).
#   3. detection of a frozen node (`--freeze-node 3@t30000`: agent and ranks stopped with SIGSTOP, 15
#      heartbeats into the job), with the default detector and with `--suspicion-threshold 0` (the
#      heartbeat timeout alone): the "detect" figure of the frozen rank's failure, and the time from
#      the launcher's line saying it froze the node to its line taking the node for lost.
#
# Runs 2 and 3 run under the same load, REPEAT times each. Prints a table; every job's output is kept
# in OUT_DIR.
#
# Usage: scripts/bench/detector.sh [MINUTES]      (default 10)
# Environment: BUSY (default 8), REPEAT (default 2), OUT_DIR (default: a new temporary folder);
# SWEEPS and SHORT_SWEEPS: the sweeps of the long and of the short jobs, in place of the sizing.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
minutes="${1:-10}"
busy="${BUSY:-8}"
repeat="${REPEAT:-2}"
out="${OUT_DIR:-$(mktemp -d -t rewind-detector-XXXXXX)}"
mkdir -p "$out"
"$repo/rewind" --version >/dev/null

program=io.rewind.apps.workloads.Stencil2D
common=(-n 4 --launch local --nodes 2 --protocol pessimistic --checkpoint-every 20 --no-record --summary)

load=()
start_load() {
  local i
  for i in $(seq 1 "$busy"); do
    timeout $((minutes * 60 + 1800)) sh -c 'while :; do :; done' &
    load+=($!)
  done
}
stop_load() {
  local p
  for p in "${load[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${load[@]}"; do wait "$p" 2>/dev/null || true; done
  load=()
}
trap stop_load EXIT

# Runs one job, its output (with the time each line came, in seconds since the epoch) in $out/$1.log.
job() {
  local name="$1"
  shift
  "$repo/rewind" run "${common[@]}" "$@" 2>&1 | while IFS= read -r line; do
    printf '%s %s\n' "$EPOCHREALTIME" "$line"
  done >"$out/$name.log"
  if ! grep -q ' rewind: protocol pessimistic, 4 ranks, ' "$out/$name.log"; then
    echo "detector: job $name did not finish (see $out/$name.log)" >&2
    exit 1
  fi
}

seconds_of() { sed -n 's/^[0-9.]* rewind: protocol pessimistic, 4 ranks, \([0-9.]*\) s.*/\1/p' "$out/$1.log" | head -n 1; }
# The detect figure of the failure of rank 3 that the schedule struck.
detect_of() { sed -n 's/^.*failure: rank 3 killed at .* detect \([0-9.]*\) ms.*/\1/p' "$out/$1.log" | head -n 1; }
count_of() { grep -c -E "$2" "$out/$1.log" || true; }
# Milliseconds from the line saying the node is frozen to the line taking it for lost, as they came.
lost_after_freeze_of() {
  awk '/ rewind: freezing node / && !f { f = $1 } / taken for lost/ && f && !l { l = $1 }
       END { if (f && l) printf "%d\n", (l - f) * 1000; else print "none" }' "$out/$1.log"
}

start_load
echo "detector: $busy busy processes started; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# Size the long job from two short ones under the load: the difference of their times over the
# difference of their sweeps is the time of a sweep, without the start and end of a job.
# SWEEPS and SHORT_SWEEPS, when given, skip the sizing (a machine whose load swings makes it poor).
if [ -n "${SWEEPS:-}" ]; then
  sweeps="$SWEEPS"
  short="${SHORT_SWEEPS:-1200}"
else
  job calibrate-200 "$program" 64 200
  job calibrate-600 "$program" 64 600
  per_sweep="$(awk -v a="$(seconds_of calibrate-200)" -v b="$(seconds_of calibrate-600)" \
    'BEGIN { p = (b - a) / 400; if (p < 0.005) p = 0.005; print p }')"
  fixed="$(awk -v a="$(seconds_of calibrate-200)" -v p="$per_sweep" 'BEGIN { f = a - 200 * p; print f < 0 ? 0 : f }')"
  sweeps="$(awk -v p="$per_sweep" -v f="$fixed" -v m="$minutes" 'BEGIN { printf "%d\n", (m * 60 - f) / p }')"
  # Short jobs for the detection times: long enough to go on well past the freeze at 30 s.
  short="$(awk -v p="$per_sweep" 'BEGIN { printf "%d\n", 75 / p }')"
  echo "detector: $per_sweep s a sweep under load, $fixed s to start and end: the long job runs $sweeps sweeps" >&2
fi

job long "$program" 64 "$sweeps"
long_s="$(seconds_of long)"
suspected="$(count_of long 'suspected|suspecting')"
lost="$(count_of long 'taken for lost|lost the agent')"
failures="$(count_of long ' failure: ')"
echo "detector: long job $long_s s: $suspected suspicion(s), $lost lost node line(s), $failures failure(s)" >&2

kills=()
phi=()
phi_lines=()
timeout_only=()
timeout_only_lines=()
for r in $(seq 1 "$repeat"); do
  job "kill-$r" --kill 3@t15000 "$program" 64 "$short"
  kills+=("$(detect_of "kill-$r")")
  job "freeze-$r" --freeze-node 3@t30000 "$program" 64 "$short"
  phi+=("$(detect_of "freeze-$r")")
  phi_lines+=("$(lost_after_freeze_of "freeze-$r")")
  job "freeze-timeout-only-$r" --freeze-node 3@t30000 --suspicion-threshold 0 "$program" 64 "$short"
  timeout_only+=("$(detect_of "freeze-timeout-only-$r")")
  timeout_only_lines+=("$(lost_after_freeze_of "freeze-timeout-only-$r")")
  echo "detector: round $r: SIGKILL ${kills[-1]} ms, frozen ${phi[-1]} ms (lost ${phi_lines[-1]} ms after the freeze)," \
    "frozen with the timeout alone ${timeout_only[-1]} ms (lost ${timeout_only_lines[-1]} ms after the freeze)" >&2
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
stop_load

echo "| measure ($busy busy processes, $(nproc) cores; load average at the end $load_after) | figure |"
echo "|---|---|"
echo "| long job, default settings: length | $long_s s ($sweeps sweeps) |"
echo "| suspicions (probes sent) in it | $suspected |"
echo "| nodes taken for lost in it (false) | $lost |"
echo "| failures in its summary | $failures |"
echo "| SIGKILLed rank (\`--kill 3@t15000\`): detect | ${kills[*]} ms |"
echo "| frozen node (\`--freeze-node 3@t30000\`), default: detect | ${phi[*]} ms |"
echo "| the same: from the freeze line to the lost line | ${phi_lines[*]} ms |"
echo "| frozen node, \`--suspicion-threshold 0\` (timeout alone): detect | ${timeout_only[*]} ms |"
echo "| the same: from the freeze line to the lost line | ${timeout_only_lines[*]} ms |"
echo "(outputs in $out)"
