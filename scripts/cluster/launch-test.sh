#!/usr/bin/env bash
# End-to-end test of `rewind run --launch ssh` and `--launch slurm` against the real programs on this
# machine: a private sshd (two host names, node-a and node-b, both this machine) and a one-node Slurm
# cluster, started by the scripts beside this one. For each mode and each protocol that recovers, a
# 4-rank stencil runs with a rank killed (SIGKILL) at an operation count and must print the checksum
# of the failure-free run; over ssh, a whole "host" (its agent and ranks) is also lost and its ranks
# must come back on the other. Then two examples of the wider API (matched probes, Cartesian
# topologies) run with a rank killed in both modes. Last, `mpirun` as Open MPI users write it: `rewind
# mpirun -np 4 --hostfile FILE java ... -cp JAR Main` over ssh, and a batch script (`#SBATCH -n 4`,
# then `mpirun java -cp JAR Main` with the repository's bin/ first on PATH) submitted with sbatch, each
# with a rank killed, a JVM option (the ranks' GC and its log) and an -x variable (JAVA_TOOL_OPTIONS,
# which each rank's JVM reports it picked up) that must reach the ranks.
#
# Usage: scripts/cluster/launch-test.sh [--keep]   (--keep leaves sshd and Slurm running)
#        REWIND_LAUNCH_ONLY=mpirun scripts/cluster/launch-test.sh   (only the cases whose name holds it)
#        REWIND_LAUNCH_EXTRA=--shm scripts/cluster/launch-test.sh   (the same runs, the ranks of one host
#        talking through shared memory: node-a and node-b are one machine, so all four share it)
# Needs: root, apt access (scripts/cluster/install.sh), a built ./rewind (it builds on first use).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
keep="${1:-}"
state="${REWIND_CLUSTER_DIR:-$repo/target/cluster}"
mkdir -p "$state"

"$here/install.sh"
"$here/sshd.sh" start >/dev/null
"$here/slurm.sh" start >/dev/null
eval "$("$here/sshd.sh" env)"
eval "$("$here/slurm.sh" env)"
cleanup() {
  if [ "$keep" != "--keep" ]; then
    "$here/slurm.sh" stop >/dev/null 2>&1 || true
    "$here/sshd.sh" stop >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

rewind="$repo/rewind"
program=(io.rewind.apps.workloads.Stencil2D 32 16)
passed=0
failed=0

# The part of a program's output that must equal the failure-free run's (set per program below).
result='checksum=[^ ]*'
# (sed quits at the first match itself: a `| head -n 1` could kill sed with SIGPIPE, which pipefail reports)
checksum() { sed -n "s/.*\($result\).*/\1/p;T;q"; }

reference() { # the program's result without failures
  local out
  out="$("$rewind" run -n 4 --no-record "${program[@]}")"
  expected="$(checksum <<<"$out")"
  if [ -z "$expected" ]; then
    echo "launch-test: the failure-free run of ${program[0]} printed no result" >&2
    exit 1
  fi
}
reference

# REWIND_LAUNCH_ONLY: only the cases whose name holds it (e.g. mpirun, ssh, slurm)
selected() { [ -z "${REWIND_LAUNCH_ONLY:-}" ] || [[ "$1" == *"$REWIND_LAUNCH_ONLY"* ]]; }

# More the output must hold, beyond the result and the replaced rank: a fixed string each (set per case).
also=()

check() { # name, then the command line
  local name="$1"; shift
  local out got missing=""
  selected "$name" || return 0
  out="$(timeout 300 "$@" 2>&1)" || true
  # here-strings, not pipes: `grep -q` exits at its first match, and under pipefail the writer's SIGPIPE
  # would fail a run that passed
  got="$(checksum <<<"$out")"
  local a
  for a in ${also[@]+"${also[@]}"}; do
    grep -qF -- "$a" <<<"$out" || missing="$missing, no '$a'"
  done
  if [ "$got" = "$expected" ] && grep -q "replaced by process" <<<"$out" && [ -z "$missing" ]; then
    echo "ok   $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name (expected $expected, got '${got}'$missing)"
    grep -v WARNING <<<"$out" | tail -n 30 | sed 's/^/     /'
    failed=$((failed + 1))
  fi
}

hostfile="$state/hostfile"
printf 'node-a slots=2\nnode-b slots=2\n' > "$hostfile"
for protocol in global pessimistic causal mcml spbc; do
  # spbc: one cluster per node (node-a holds ranks 0-1, node-b ranks 2-3; the Slurm node all four);
  # mcml: a quota small enough that channels go off, so that a crash rolls back a chain
  clusters=()
  if [ "$protocol" = spbc ]; then clusters=(--clusters node); fi
  if [ "$protocol" = mcml ]; then clusters=(--log-quota 1KiB); fi
  # REWIND_LAUNCH_EXTRA: more options for every run, e.g. --shm (ranks of one host through shared memory)
  # shellcheck disable=SC2206 # word splitting of the extra options is intended
  common=(-n 4 --no-record --timeout 240s --protocol "$protocol" "${clusters[@]}" --checkpoint-every 4 ${REWIND_LAUNCH_EXTRA:-})
  check "ssh, $protocol, rank 2 killed" \
    "$rewind" run "${common[@]}" --launch ssh --hostfile "$hostfile" --rsh "ssh -F $REWIND_SSH_CONFIG" \
    --kill 2@o60 "${program[@]}"
  check "ssh, $protocol, host node-b lost" \
    "$rewind" run "${common[@]}" --launch ssh --hostfile "$hostfile" --rsh "ssh -F $REWIND_SSH_CONFIG" \
    --lose-node 3@o60 "${program[@]}"
  check "slurm, $protocol, rank 1 killed" \
    salloc --quiet -N1 -n1 --time=10 "$rewind" run "${common[@]}" --launch slurm --kill 1@o60 "${program[@]}"
done

# Logger nodes: every rank's log under 2 KiB by dumping to two logger processes (on node-b and node-a;
# under Slurm on the allocation's node), one of which kills itself with SIGKILL at its second dump
# request; then a rank is killed, and the senders of what that logger alone held roll back with it if
# the rank needs it. spbc over ssh: one cluster per host, so what crosses hosts is logged and dumped.
loggers=(--checkpoint-every 4 --loggers 2 --log-quota 2KiB --kill-logger 0@2 ${REWIND_LAUNCH_EXTRA:-})
for protocol in pessimistic spbc; do
  clusters=()
  if [ "$protocol" = spbc ]; then clusters=(--clusters node); fi
  check "ssh, $protocol, loggers, logger 0 and rank 2 killed" \
    "$rewind" run -n 4 --no-record --timeout 240s --protocol "$protocol" "${clusters[@]}" "${loggers[@]}" \
    --launch ssh --hostfile "$hostfile" --rsh "ssh -F $REWIND_SSH_CONFIG" --kill 2@o60 "${program[@]}"
done
check "slurm, pessimistic, loggers, logger 0 and rank 1 killed" \
  salloc --quiet -N1 -n1 --time=10 "$rewind" run -n 4 --no-record --timeout 240s --protocol pessimistic \
  "${loggers[@]}" --launch slurm --kill 1@o60 "${program[@]}"

# Two examples of the Open MPI API beyond point to point and collectives, in both cluster modes: a
# task farm whose master takes every answer with a wildcard matched probe (the master itself is
# killed, so its probes must take the same messages again) and a Cartesian stencil (CartComm.shift).
program=(io.rewind.apps.examples.PrimeFarm 60 2000)
result='[0-9]* primes below [0-9]*, checksum [0-9]*'
reference
common=(-n 4 --no-record --timeout 240s --protocol pessimistic ${REWIND_LAUNCH_EXTRA:-})
check "ssh, pessimistic, matched-probe master killed" \
  "$rewind" run "${common[@]}" --launch ssh --hostfile "$hostfile" --rsh "ssh -F $REWIND_SSH_CONFIG" \
  --kill 0@o40 "${program[@]}"
check "slurm, pessimistic, matched-probe master killed" \
  salloc --quiet -N1 -n1 --time=10 "$rewind" run "${common[@]}" --launch slurm --kill 0@o40 "${program[@]}"
program=(io.rewind.apps.examples.CartStencil 24 40)
result='checksum=[^ ]*'
reference
common=(-n 4 --no-record --timeout 240s --protocol global ${REWIND_LAUNCH_EXTRA:-})
check "ssh, global, Cartesian stencil rank 3 killed" \
  "$rewind" run "${common[@]}" --launch ssh --hostfile "$hostfile" --rsh "ssh -F $REWIND_SSH_CONFIG" \
  --kill 3@o30 "${program[@]}"
check "slurm, global, Cartesian stencil rank 2 killed" \
  salloc --quiet -N1 -n1 --time=10 "$rewind" run "${common[@]}" --launch slurm --kill 2@o30 "${program[@]}"

# mpirun as Open MPI users write it, the program from the examples' jar: JVM options after `java` and
# -x variables must reach every rank's JVM (-Xlog:gc names the collector -XX chose; the JVM reports the
# JAVA_TOOL_OPTIONS it picked up), and a killed rank must recover to the failure-free run's checksum.
program=(io.rewind.apps.workloads.Stencil2D 32 16)
result='checksum=[^ ]*'
reference
jar="$(ls "$repo"/rewind-apps/target/rewind-apps-*.jar | head -n 1)"
also=("[info][gc] Using Serial" "[3] Picked up JAVA_TOOL_OPTIONS: -Drewind.mpirun=yes")
# shellcheck disable=SC2206 # word splitting of the extra options is intended
mpirun_job=(--no-record --timeout 240s --protocol pessimistic --checkpoint-every 4 ${REWIND_LAUNCH_EXTRA:-})
java_program=(java -XX:+UseSerialGC -Xlog:gc:stderr -cp "$jar" "${program[@]}")
check "mpirun over ssh, -np 4 --hostfile, rank 2 killed" \
  "$rewind" mpirun -np 4 --hostfile "$hostfile" -x JAVA_TOOL_OPTIONS=-Drewind.mpirun=yes \
  --rsh "ssh -F $REWIND_SSH_CONFIG" "${mpirun_job[@]}" --kill 2@o60 "${java_program[@]}"
batch="$state/mpirun.sbatch"
cat >"$batch" <<JOB
#!/bin/bash
#SBATCH -n 4
#SBATCH --time=10
#SBATCH --job-name=rewind-mpirun
export PATH="$repo/bin:\$PATH"
mpirun -x JAVA_TOOL_OPTIONS=-Drewind.mpirun=yes ${mpirun_job[*]} --kill 1@o60 ${java_program[*]}
JOB
# sbatch --wait returns when the job has ended; its output is the file -o names
check "mpirun in an sbatch script, #SBATCH -n 4, rank 1 killed" \
  bash -c 'rm -f "$2"; sbatch --quiet --wait -o "$2" "$1" || true; cat "$2"' _ "$batch" "$state/mpirun.sbatch.out"
also=()

echo "launch-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
