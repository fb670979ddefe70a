#!/usr/bin/env bash
# What replay verification costs a job without failures: the ping-pong of two ranks under the
# pessimistic protocol with digests (--verify-replays, the default) and without (--no-verify-replays),
# side by side in interleaved rounds (the order flips every round), in two regimes: a log truncated at
# every checkpoint (--checkpoint-every 1: the steady state) and a log that grows for the whole run (no
# checkpoints, so nothing is ever truncated), ranks as threads and, with PROCESSES=1, as processes over
# TCP. Prints every figure, then per case the median of the per-round ratios (with digests over
# without) with the smallest and largest: a ratio above 1 is the cost.
# Usage: scripts/bench/verify-cost.sh [ROUNDS]       (default 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/bench/common.sh
. scripts/bench/common.sh
rounds="${1:-5}"
./rewind --version >/dev/null # builds this checkout if needed
jar="rewind-cli/target/rewind.jar"
find_java
launches="threads"
[ "${PROCESSES:-0}" = 1 ] && launches="threads local"

# Prints "key value" lines: the median half round trip in ns at 1 B, 1 KiB, 64 KiB and 1 MiB.
pingpong() { # $1 = --verify-replays or --no-verify-replays, $2 = checkpoint every, $3 = launch
  local sizes
  for sizes in "65536 3 1 4" "1048576 3 1048576 2"; do # 1 B .. 64 KiB by fours, then 1 MiB alone
    # shellcheck disable=SC2086 # the sizes are four words on purpose
    timeout 900 "$java" -jar "$jar" run -n 2 --launch "$3" --no-record --protocol pessimistic \
      --checkpoint-every "$2" "$1" io.rewind.apps.bench.PingPong array $sizes 2>/dev/null |
      sed 's/^\[[0-9]*\] //' |
      awk -F, -v k="$3_every_$2" '$1 == "pingpong" && ($3 == 1 || $3 == 1024 || $3 == 65536 || $3 == 1048576) {
        print k "_half_RTT_ns_" $3 " " $4 }'
  done
}
measure() { # $1 = flag
  for launch in $launches; do
    pingpong "$1" 1 "$launch"
    pingpong "$1" 0 "$launch"
  done
}

paired_rounds "$rounds" --no-verify-replays --verify-replays without with
