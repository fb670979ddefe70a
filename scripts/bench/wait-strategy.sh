#!/usr/bin/env bash
# How waiting ranks poll, side by side: the job time (`--summary`) of short jobs whose ranks each have a
# core, under two ways of waiting, interleaved round by round (the order within a round rotates).
#
#   spin    poll spinning for 10,000 polls, then park: how ranks as threads wait (and how rank
#           processes waited before they yielded)
#           -Drewind.wait.spinPolls=10000 -Drewind.wait.yieldMicros=0
#   yield   100 polls spinning, then polls yielding the core between them for up to 10 ms, then park:
#           how rank processes wait
#           -Drewind.wait.spinPolls=100 -Drewind.wait.yieldMicros=10000
#
# The table gives per job the median job time over the rounds (lowest-highest) of each and the median
# of the per-round ratio yield / spin (lowest-highest).
#
# Usage: scripts/bench/wait-strategy.sh [ROUNDS]      (default 5)
# Environment: JOBS, ';'-separated "LAUNCH RANKS PROGRAM ARGS..." (default: CollectiveTour and Jacobi2D
# on 2 rank processes and on 2 threads); OUT_DIR (default: a new temporary folder).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rounds="${1:-5}"
jobs="${JOBS:-local 2 io.rewind.apps.plain.CollectiveTour 300 0;local 2 io.rewind.apps.examples.Jacobi2D 512 300;threads 2 io.rewind.apps.plain.CollectiveTour 300 0;threads 2 io.rewind.apps.examples.Jacobi2D 512 300}"
out="${OUT_DIR:-$(mktemp -d -t rewind-wait-strategy-XXXXXX)}"
mkdir -p "$out"
"$repo/rewind" --version >/dev/null

# Runs job $2 waiting as $1 says; prints its job time in ms. Fails loudly on a failed job.
timed() {
  local config="$1" job="$2" opts=""
  case "$config" in
    spin) opts="-Drewind.wait.spinPolls=10000 -Drewind.wait.yieldMicros=0" ;;
    yield) opts="-Drewind.wait.spinPolls=100 -Drewind.wait.yieldMicros=10000" ;;
  esac
  read -r -a words <<<"$job"
  if ! JAVA_TOOL_OPTIONS="$opts" "$repo/rewind" run --launch "${words[0]}" -n "${words[1]}" --no-record \
    --summary --timeout 300s "${words[@]:2}" >"$out/last.out" 2>"$out/last.err"; then
    echo "wait-strategy: job failed under $config: $job (see $out/last.err)" >&2
    exit 1
  fi
  local seconds
  seconds="$(sed -n 's/^rewind: protocol .* ranks, \([0-9.]*\) s$/\1/p' "$out/last.err" "$out/last.out" | head -n 1)"
  [ -n "$seconds" ] || { echo "wait-strategy: no job time in the summary of: $job" >&2; exit 1; }
  awk -v s="$seconds" 'BEGIN { printf "%d\n", s * 1000 }'
}

IFS=';' read -r -a job_list <<<"$jobs"
configs=(spin yield)
: >"$out/times.csv"
for r in $(seq 1 "$rounds"); do
  for j in "${!job_list[@]}"; do
    for k in 0 1; do
      c="${configs[$(((k + r + j) % 2))]}"
      ms=$(timed "$c" "${job_list[$j]}")
      echo "$r,$j,$c,$ms" >>"$out/times.csv"
      echo "round $r  $c  ${job_list[$j]}: $ms ms" >&2
    done
  done
done

echo "| launch | ranks | program | spin: median ms (min-max) | yield: median ms (min-max) | yield / spin by round: median (min-max) |"
echo "|---|---:|---|---:|---:|---:|"
for j in "${!job_list[@]}"; do
  read -r -a words <<<"${job_list[$j]}"
  awk -F, -v j="$j" -v launch="${words[0]}" -v ranks="${words[1]}" -v prog="${words[*]:2}" '
    function med(a, n,   i, k, t) {
      for (i = 1; i <= n; i++) for (k = i + 1; k <= n; k++) if (a[k] < a[i]) { t = a[i]; a[i] = a[k]; a[k] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    $2 == j { t[$3, $1] = $4; rounds[$1] = 1 }
    END {
      n = 0
      for (r in rounds) { n++; s[n] = t["spin", r]; y[n] = t["yield", r]; q[n] = t["yield", r] / t["spin", r] }
      printf "| %s | %s | %s | %d (%d-%d) | %d (%d-%d) | %.2f (%.2f-%.2f) |\n", launch, ranks, prog,
        med(s, n), lo(s, n), hi(s, n), med(y, n), lo(y, n), hi(y, n), med(q, n), lo(q, n), hi(q, n)
    }
    function lo(a, n,   i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]; return m }
    function hi(a, n,   i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] > m) m = a[i]; return m }' "$out/times.csv"
done
echo
echo "times: $out/times.csv"
