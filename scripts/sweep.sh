#!/usr/bin/env bash
# A randomized recovery campaign that keeps looking for as long as it is given (io.rewind.apps.sweep.Campaign):
# random and hand-written programs on 2 to 5 ranks under every recovering protocol, killed in the
# oracle's ways, at one operation count, by --chaos and at drawn times, as threads (with and without
# delivery jitter) and now and then as rank processes; every run compared bit for bit with its
# failure-free run, every failure minimised to a small reproduction.
#
# Usage: scripts/sweep.sh [--minutes M] [--workers W] [--seed S] [--processes-every K] [--jitter on|off|mixed]
#                         [--jitter-micros U] [--minimise N] [--out DIR]       (--help: every option)
# Builds first when needed (as ./rewind does). The report goes to DIR (default target/sweep, in the
# folder the script is run from). Environment: REWIND_JAVA (a JDK 25 to use), SWEEP_JVM_OPTS (more
# JVM options, e.g. -Xmx2g).
# Exit status: 0 when every run matched, 1 when any failed, 2 for bad options.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$repo/rewind-cli/target/rewind.jar"

# ./rewind builds the project when its jar is missing or older than the sources; the jar holds the
# apps and every dependency, so it is the campaign's class path too (rank processes are started with it).
"$repo/rewind" --version >/dev/null
# shellcheck source=bench/common.sh
source "$repo/scripts/bench/common.sh"
find_java

exec "$java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow ${SWEEP_JVM_OPTS:-} \
  -cp "$jar" io.rewind.apps.sweep.Campaign "$@"
