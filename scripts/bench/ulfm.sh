#!/usr/bin/env bash
# What handling failures in the program costs (--on-failure notify), the figures ULFM's own benchmarks
# report: agreement against an all-reduce of one int (AgreeBench, interleaved rounds), and per job one
# failure (FailureBench: kill to the survivors' first error, the first agreement after it, shrink after
# it and failure-free, revoke against a one-long broadcast). Ranks as threads at 4 to 64, as processes at
# 4 and 8. Each FailureBench configuration runs JOBS jobs; every line of every job is printed, then the
# median per figure.
# Usage: scripts/bench/ulfm.sh [JOBS] [THREAD_RANKS] [PROCESS_RANKS]
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs="${1:-3}"
thread_ranks="${2:-4 8 16 32 64}"
process_ranks="${3:-4 8}"
./rewind --version >/dev/null # builds this checkout if needed
cp=rewind-apps/target/classes
[ -d "$cp" ] || mvn -q -ntp -o install -DskipTests -pl rewind-apps -am
run() { # $1 = ranks, $2 = launch options ("" or "--launch local"), then the program and its arguments
  local n="$1" launch="$2"
  shift 2
  # shellcheck disable=SC2086
  timeout 900 ./rewind run -n "$n" $launch --on-failure notify --no-record -cp "$cp" "$@" 2>&1 | grep '^\[0\] ranks' | sed 's/^\[0\] //'
}
medians() { # reads the FailureBench lines of one configuration, prints the median of each figure
  python3 -c '
import re, statistics, sys
figures = {}
for line in sys.stdin:
    for m in re.finditer(r"([a-z(][a-z0-9() -]*?) ([0-9.]+) us", line.split(":", 1)[1]):
        figures.setdefault(m.group(1).strip(), []).append(float(m.group(2)))
for name, values in figures.items():
    print("  median of %d jobs: %s %.1f us (%.1f-%.1f)" % (len(values), name, statistics.median(values), min(values), max(values)))
'
}
for mode in threads processes; do
  if [ "$mode" = threads ]; then ranks="$thread_ranks"; launch=""; else ranks="$process_ranks"; launch="--launch local"; fi
  for n in $ranks; do
    echo "== $mode, $n ranks"
    run "$n" "$launch" io.rewind.apps.ulfm.AgreeBench 9 100
    out=""
    for j in $(seq "$jobs"); do
      out+="$(run "$n" "$launch" --kill "$((n - 1))@1" io.rewind.apps.ulfm.FailureBench 20)"$'\n'
    done
    printf '%s' "$out"
    printf '%s' "$out" | grep -v '^$' | medians | sort
  done
done
