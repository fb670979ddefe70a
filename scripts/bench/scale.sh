#!/usr/bin/env bash
# Ranks as threads of one JVM, from a few hundred to thousands: the in-JVM Ring (a token passed LAPS
# times around every rank), once without fault tolerance and once under pessimistic logging with one
# rank killed at its fifth MPI operation and recovered. For each rank count and each run: the job's
# wall time (from the start of the JVM to its end, start-up of every rank included) and the JVM's
# peak resident memory, REPEAT times, the rank counts interleaved (every round runs each count once,
# in an order that flips every round). Prints every run, then per rank count and run the median with
# the smallest and largest, the time and memory per rank, and the growth against the smallest count.
#
# With BEFORE_JAR (a rewind.jar of an earlier build), every run is made with both builds side by side
# in the same round and the ratio (this build over the one before) is printed too.
#
# WORKLOAD=pipeline runs PipelineRing instead (ITERATIONS iterations, default 40, of a ring received one
# iteration late and a gather by wildcard receives at rank 0), both runs under pessimistic with a line
# every 4 iterations that every ring message crosses, the kill at rank 3N/4's 60th operation: what
# thousands of ranks cost when they write lines, keep the messages crossing them and match wildcards.
# It takes at most 4095 ranks.
#
# Usage: scripts/bench/scale.sh [RANKS] [REPEAT] [BEFORE_JAR]
#   RANKS   rank counts (default "256 1024 2048 4096")
#   REPEAT  rounds (default 2)
# Environment: LAPS (default 4), TIMEOUT (seconds a job may take, default 300), WORKLOAD (ring or
# pipeline, default ring), ITERATIONS (pipeline only, default 40).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/bench/common.sh
. scripts/bench/common.sh
ranks="${1:-256 1024 2048 4096}"
repeat="${2:-2}"
before="${3:-}"
laps="${LAPS:-4}"
limit="${TIMEOUT:-300}"
workload="${WORKLOAD:-ring}"
case "$workload" in
  ring | pipeline) ;;
  *) echo "WORKLOAD must be ring or pipeline, not '$workload'" >&2; exit 2 ;;
esac
[ -x /usr/bin/time ] || { echo "scale.sh needs /usr/bin/time (the Debian package 'time')" >&2; exit 2; }
./rewind --version >/dev/null # builds this checkout if needed
after="rewind-cli/target/rewind.jar"
find_java
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

builds=(after)
[ -n "$before" ] && builds+=(before)

# One job: prints "seconds kilobytes" or "timeout". $1 = build, $2 = ranks, $3 = kind (free|kill).
job() {
  local jar="$after" extra=() program=(io.rewind.apps.examples.Ring "$laps") expect="^token .* (expected"
  [ "$1" = before ] && jar="$before"
  [ "$3" = kill ] && extra=(--protocol pessimistic --kill "$(($2 * 3 / 4))@o5")
  if [ "$workload" = pipeline ]; then
    rm -rf "$work/lines"
    extra=(--protocol pessimistic --checkpoint-every 4 --checkpoint-dir "$work/lines")
    [ "$3" = kill ] && extra+=(--kill "$(($2 * 3 / 4))@o60")
    program=(io.rewind.apps.crossing.PipelineRing "${ITERATIONS:-40}" 64 0)
    expect="^pipeline .* bad=0"
  fi
  if /usr/bin/time -f "%e %M" -o "$work/time" timeout $((limit + 30)) "$java" -jar "$jar" run -n "$2" \
    --no-status --no-record --no-tag-output --timeout "${limit}s" "${extra[@]}" \
    "${program[@]}" >"$work/out" 2>&1 && grep -q "$expect" "$work/out"; then
    tail -1 "$work/time"
  else
    echo timeout
  fi
}

declare -A seconds=() memory=() ratio=()
for r in $(seq 1 "$repeat"); do
  order=$ranks
  [ $((r % 2)) -eq 0 ] && order=$(echo "$ranks" | tr ' ' '\n' | tac | tr '\n' ' ')
  for n in $order; do
    for kind in free kill; do
      declare -A got=()
      for b in "${builds[@]}"; do
        got[$b]=$(job "$b" "$n" "$kind")
        echo "round $r: $n ranks, $kind, $b: ${got[$b]} (seconds, peak resident KiB)"
      done
      read -r s m <<<"${got[after]}"
      [ "$s" = timeout ] && continue
      seconds["$n $kind"]+="$s "
      memory["$n $kind"]+="$m "
      if [ -n "$before" ]; then
        read -r bs _ <<<"${got[before]}"
        [ "$bs" = timeout ] || ratio["$n $kind"]+="$(awk -v a="$s" -v b="$bs" 'BEGIN { printf "%.3f", a / b }') "
      fi
    done
  done
done

echo
echo "ranks run    seconds: median (min, max)          peak MiB: median (min, max)   ms/rank  MiB/rank"
for kind in free kill; do
  first_s="" first_m="" first_n=""
  for n in $ranks; do
    key="$n $kind"
    [ -n "${seconds[$key]:-}" ] || { echo "$n $kind: no run finished"; continue; }
    s=$(echo "${seconds[$key]}" | median)
    m=$(echo "${memory[$key]}" | awk '{ for (i = 1; i <= NF; i++) printf "%.0f ", $i / 1024 }' | median)
    s1=${s%% *} m1=${m%% *}
    printf '%5d %-5s %-36s %-30s %7.2f %8.2f\n' "$n" "$kind" "$s" "$m" \
      "$(awk -v s="$s1" -v n="$n" 'BEGIN { print 1000 * s / n }')" "$(awk -v m="$m1" -v n="$n" 'BEGIN { print m / n }')"
    if [ -z "$first_n" ]; then
      first_n=$n first_s=$s1 first_m=$m1
    else
      awk -v n="$n" -v f="$first_n" -v s="$s1" -v fs="$first_s" -v m="$m1" -v fm="$first_m" -v k="$kind" \
        'BEGIN { printf "      %s: x%.1f ranks, x%.2f time, x%.2f memory (against %d ranks)\n", k, n / f, s / fs, m / fm, f }'
    fi
    [ -n "${ratio[$key]:-}" ] && echo "      this build / the one before: $(echo "${ratio[$key]}" | median)"
  done
done
