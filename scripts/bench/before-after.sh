#!/usr/bin/env bash
# This build against a build before it (its rewind.jar), side by side in interleaved rounds (the order
# of the two flips every round), on the paths every message takes: the in-JVM ping-pong (no fault
# tolerance), the logging ping-pong (pessimistic over off-heap blocks, hybrid copy, steady and growing
# log, as a ratio to the same run without logging) and the ping-pong between two rank processes over
# TCP on loopback (none and pessimistic). Prints every figure of every run, then per figure the median
# of the per-round ratios (this build over the one before) with the smallest and largest.
# Half round trips: a ratio below 1 is faster. Logging ratios (bandwidth with logging / without): a
# ratio above 1 is better.
# Usage: scripts/bench/before-after.sh BEFORE_JAR [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/bench/common.sh
. scripts/bench/common.sh
before="${1:?usage: before-after.sh BEFORE_JAR [ROUNDS]}"
rounds="${2:-3}"
./rewind --version >/dev/null # builds this checkout if needed
after="rewind-cli/target/rewind.jar"
find_java
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Each prints "key value" lines.
inproc() { # $1 = jar
  timeout 600 "$java" -jar "$1" bench pingpong --batches 5 --max-bytes 65536 --out "$work/pp" >/dev/null
  awk -F, '$1 == "array" && ($2 == 1 || $2 == 1024 || $2 == 65536) { print "in-JVM_half_RTT_ns_" $2 " " $3 }' "$work/pp/pingpong.csv"
}
logging() { # $1 = jar
  timeout 1200 "$java" -jar "$1" bench logging --backends off-heap --copies hybrid --max-bytes 65536 --reps 3 \
    --no-tracking-only --out "$work/lg" >/dev/null
  awk -F, 'NR > 1 && $2 != "none" && ($5 == 1 || $5 == 1024 || $5 == 65536) {
    v = $1; gsub(/[ \/]+/, "_", v); print "logging_ratio_" v "_" $5 " " $8 }' \
    "$work/lg/logging.csv"
}
tcp() { # $1 = jar, $2 = protocol
  timeout 600 "$java" -jar "$1" run -n 2 --launch local --no-record --protocol "$2" \
    io.rewind.apps.bench.PingPong array 65536 5 1 4 2>/dev/null |
    sed 's/^\[[0-9]*\] //' |
    awk -F, -v p="$2" '$1 == "pingpong" && ($3 == 1 || $3 == 1024 || $3 == 65536) { print "TCP_" p "_half_RTT_ns_" $3 " " $4 }'
}
measure() { # $1 = jar
  inproc "$1"
  logging "$1"
  tcp "$1" none
  tcp "$1" pessimistic
}

paired_rounds "$rounds" "$before" "$after" before after
