#!/usr/bin/env bash
# Builds the example projects under examples/ as a user would: with Maven on the JDK it runs on (17
# or newer), against the io.rewind coordinates that `mvn install` put in the local repository (run it
# first; scripts/test.sh does). Then runs each example under Rewind without a failure and with a rank
# killed, and fails unless both print the same checksum, bit for bit.
#
# Arguments go to the example's Maven build (e.g. -o to build offline).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "examples-test: $*" >&2
  exit 1
}

# The version of a class file: bytes 6 and 7, big-endian.
class_version() {
  od -An -j6 -N2 -tu1 "$1" | awk '{print $1 * 256 + $2}'
}

# The line "checksum HEX" of a run's output, without the rank prefix.
checksum_of() {
  sed -n 's/^\[0\] checksum \([0-9a-f]*\)$/\1/p' "$1"
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "examples-test: building examples/heat with Maven on $(mvn -v 2>/dev/null | sed -n 's/^Java version: \([^,]*\).*/Java \1/p')"
mvn -B -q -ntp -f examples/heat/pom.xml clean package "$@"
jar=examples/heat/target/heat.jar
main=io.rewind.examples.heat.Heat
[ -f "$jar" ] || fail "the build made no $jar"
(cd "$work" && unzip -q -o "$OLDPWD/$jar" 'io/rewind/examples/heat/Heat.class')
version="$(class_version "$work/io/rewind/examples/heat/Heat.class")"
[ "$version" = 61 ] || fail "Heat.class has class file version $version, not 61 (Java 17)"

args=(4096 2000)
run() {
  local out="$1"
  shift
  if ! ./rewind run -n 4 --timeout 5m "$@" -cp "$jar" "$main" "${args[@]}" >"$out" 2>&1; then
    cat "$out" >&2
    fail "rewind run $* failed"
  fi
}

echo "examples-test: heat on 4 ranks, failure-free"
run "$work/plain.out"
echo "examples-test: heat on 4 ranks, rank 2 killed at checkpoint point 1100 and recovered"
run "$work/killed.out" --protocol pessimistic --checkpoint-every 200 --kill 2@1100
grep -q "rank 2 killed at iteration 1100" "$work/killed.out" || { cat "$work/killed.out" >&2; fail "rank 2 was not killed"; }

# The same program as an Open MPI user starts it: bin/mpirun (which runs `rewind mpirun`), ranks as
# processes on this machine, rank 2's process killed with SIGKILL and recovered. Two cores are two
# slots, so four ranks need --oversubscribe, as under Open MPI.
echo "examples-test: heat through bin/mpirun -np 4, rank 2's process killed at point 1100 and recovered"
if ! bin/mpirun --oversubscribe -np 4 --protocol pessimistic --checkpoint-every 200 --kill 2@1100 --timeout 5m \
    java -cp "$jar" "$main" "${args[@]}" >"$work/mpirun.out" 2>&1; then
  cat "$work/mpirun.out" >&2
  fail "bin/mpirun failed"
fi
grep -q "rank 2 killed at iteration 1100" "$work/mpirun.out" || { cat "$work/mpirun.out" >&2; fail "mpirun: rank 2 was not killed"; }

plain="$(checksum_of "$work/plain.out")"
killed="$(checksum_of "$work/killed.out")"
[ -n "$plain" ] || { cat "$work/plain.out" >&2; fail "the failure-free run printed no checksum"; }
mpirun="$(checksum_of "$work/mpirun.out")"
[ "$plain" = "$killed" ] || fail "checksums differ: failure-free $plain, with rank 2 killed ${killed:-none}"
[ "$plain" = "$mpirun" ] || fail "checksums differ: failure-free $plain, through mpirun with rank 2 killed ${mpirun:-none}"
echo "examples-test: heat checksum $plain in all three runs"
