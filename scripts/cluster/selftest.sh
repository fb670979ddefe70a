#!/usr/bin/env bash
# Self-test of the local test cluster: installs what is missing (install.sh), starts the private
# sshd (sshd.sh) and the one-node Slurm cluster (slurm.sh), runs real ssh and Slurm commands
# against them, then stops both. Exits non-zero, naming the failed check, when anything fails;
# the last line is "selftest: N passed, N failed".
#
# Usage: scripts/cluster/selftest.sh [--keep]
#   --keep   leave sshd and Slurm running afterwards (then use `sshd.sh env` / `slurm.sh env`)
#
# Every start is run twice (the second must find everything up and pass its own checks), so a
# run also proves that start is idempotent. When the daemons already run before the self-test,
# it uses them and still stops them at the end unless --keep is given. State folder:
# $REWIND_CLUSTER_DIR (default <repo>/target/cluster); daemon logs stay there after a failure.
# (Single-quoted $ in this file is meant for the shell that runs the string.)
# shellcheck disable=SC2016,SC2001
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
here="$cluster_lib_here"

keep=""
case "${1:-}" in
  --keep) keep=yes ;;
  "") ;;
  *) echo "usage: $0 [--keep]" >&2; exit 2 ;;
esac

passed=0
failed=0
cleanup() {
  local rc=$?
  if [[ -z "$keep" ]]; then
    REWIND_CLUSTER_QUIET=1 "$here/slurm.sh" stop || echo "selftest: slurm.sh stop failed" >&2
    REWIND_CLUSTER_QUIET=1 "$here/sshd.sh" stop || echo "selftest: sshd.sh stop failed" >&2
  fi
  if ((rc != 0 && failed == 0)); then failed=1; fi
  echo "selftest: $passed passed, $failed failed"
  exit "$rc"
}
trap cleanup EXIT

ok() { passed=$((passed + 1)); echo "selftest: ok   $1"; }
fail() {
  failed=$((failed + 1))
  echo "selftest: FAIL $1" >&2
  [[ -z "${2:-}" ]] || printf '%s\n' "---- output ----" "$2" >&2
  exit 1
}

# check NAME SECONDS CMD...: runs CMD with a time limit; its standard output lands in $out, its
# standard error in $err (kept apart so that a login shell's noise on stderr cannot spoil $out).
out=""
err=""
errfile="$state/selftest.stderr"
check() {
  local name="$1" limit="$2" rc=0; shift 2
  out="$(timeout "$limit" "$@" 2>"$errfile")" || rc=$?
  err="$(cat "$errfile")"
  if ((rc == 0)); then
    ok "$name"
  else
    ((rc == 124)) && fail "$name (timed out after ${limit}s)" "$(both)"
    fail "$name (exit $rc)" "$(both)"
  fi
}
both() { printf '%s\n' "$out"; [[ -z "$err" ]] || printf '%s\n' "---- stderr ----" "$err"; }
expect() { # expect NAME CONDITION-CMD...: a check on the last $out
  local name="$1"; shift
  if "$@"; then ok "$name"; else fail "$name" "$(both)"; fi
}
count_lines() { grep -cx -- "$1" <<<"$out" || true; }

check "install.sh" 1200 "$here/install.sh"
# Say what already ran, so a log shows whether this run started the daemons or found them up.
for what in sshd slurm; do
  if "$here/$what.sh" status >/dev/null 2>&1; then
    echo "selftest: note $what.sh status: already running before the self-test"
  else
    echo "selftest: note $what.sh status: not running before the self-test"
  fi
done
say_err() { [[ -z "$err" ]] || sed 's/^/selftest:      | /' <<<"$err"; }

# ---- ssh ----
check "sshd.sh start" 120 "$here/sshd.sh" start
say_err
check "sshd.sh start again (already running)" 60 "$here/sshd.sh" start
say_err
check "sshd.sh status" 10 "$here/sshd.sh" status
eval "$("$here/sshd.sh" env)"
for v in REWIND_SSH_PORT REWIND_SSH_USER REWIND_SSH_KEY REWIND_SSH_CONFIG REWIND_SSH_HOSTS; do
  [[ -n "${!v:-}" ]] || fail "sshd.sh env does not set $v"
done
ok "sshd.sh env sets REWIND_SSH_PORT=$REWIND_SSH_PORT REWIND_SSH_CONFIG=$REWIND_SSH_CONFIG"
check "ssh -F \$REWIND_SSH_CONFIG node-a true" 30 ssh -F "$REWIND_SSH_CONFIG" node-a true
check "ssh node-b hostname" 30 ssh -F "$REWIND_SSH_CONFIG" node-b hostname
expect "ssh node-b hostname prints $(hostname)" [ "$out" = "$(hostname)" ]
check "ssh localhost / 127.0.0.1 / plain port+key" 30 bash -c '
  ssh -F "$REWIND_SSH_CONFIG" localhost true &&
  ssh -F "$REWIND_SSH_CONFIG" 127.0.0.1 true &&
  ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
      -o LogLevel=ERROR -i "$REWIND_SSH_KEY" -p "$REWIND_SSH_PORT" "$REWIND_SSH_USER@127.0.0.1" true'
check "ssh passes the remote command's exit code" 30 bash -c \
  'ssh -F "$REWIND_SSH_CONFIG" node-a "exit 7"; [ $? -eq 7 ]'
check "ssh SendEnv REWIND_* reaches the remote side" 30 env REWIND_SELFTEST_VALUE=x42 \
  ssh -F "$REWIND_SSH_CONFIG" -o SendEnv=REWIND_SELFTEST_VALUE node-a 'echo "v=$REWIND_SELFTEST_VALUE"'
expect "remote side saw REWIND_SELFTEST_VALUE=x42" [ "$out" = "v=x42" ]
check "16 concurrent ssh sessions over node-a and node-b" 60 bash -c '
  for i in $(seq 1 8); do
    for h in node-a node-b; do ssh -F "$REWIND_SSH_CONFIG" "$h" "echo $h-$i" & done
  done
  fail=0; for j in $(jobs -p); do wait "$j" || fail=1; done; exit $fail'
# (Only the echoed lines count: the remote login shell may print its own noise, e.g. root's
# ~/.bashrc here runs `pyenv rehash`, whose lock races between concurrent sessions.)
expect "all 16 sessions answered" [ "$(grep -cE '^node-[ab]-[0-9]+$' <<<"$out")" -eq 16 ]

# ---- Slurm ----
check "slurm.sh start" 300 "$here/slurm.sh" start
say_err
check "slurm.sh start again (already running)" 180 "$here/slurm.sh" start
say_err
check "slurm.sh status" 30 "$here/slurm.sh" status
eval "$("$here/slurm.sh" env)"
for v in SLURM_CONF REWIND_SLURM_NODE REWIND_SLURM_PARTITION REWIND_SLURM_CPUS REWIND_MUNGE_SOCKET; do
  [[ -n "${!v:-}" ]] || fail "slurm.sh env does not set $v"
done
ok "slurm.sh env sets SLURM_CONF=$SLURM_CONF REWIND_SLURM_CPUS=$REWIND_SLURM_CPUS"
check "munge -n | unmunge on the private socket" 20 bash -c \
  'munge -S "$REWIND_MUNGE_SOCKET" -n | unmunge -S "$REWIND_MUNGE_SOCKET"'
check "sinfo shows the node idle" 20 sinfo -h -N -n "$REWIND_SLURM_NODE" -o %t
expect "node state is idle" [ "$out" = idle ]
check "srun -N1 -n2 hostname" 60 srun -N1 -n2 hostname
expect "srun printed the host name twice" [ "$(count_lines "$REWIND_SLURM_NODE")" -eq 2 ]
check "salloc -N1 -n2 srun hostname" 60 salloc -N1 -n2 srun hostname
expect "salloc's srun printed the host name twice" [ "$(count_lines "$REWIND_SLURM_NODE")" -eq 2 ]
check "srun -n\$REWIND_SLURM_CPUS (more tasks than real cores) sees ranks 0..n-1" 90 \
  srun -n "$REWIND_SLURM_CPUS" -l bash -c 'echo "rank=$SLURM_PROCID of $SLURM_NTASKS"'
expect "every rank ran once" [ "$(grep -c "rank=.* of $REWIND_SLURM_CPUS" <<<"$out")" -eq "$REWIND_SLURM_CPUS" ]
check "srun propagates the caller's environment" 60 env REWIND_SELFTEST_VALUE=y17 \
  srun -n1 bash -c 'echo "v=$REWIND_SELFTEST_VALUE"'
expect "job saw REWIND_SELFTEST_VALUE=y17" [ "$out" = "v=y17" ]
check "srun passes a failing task's exit code" 60 bash -c 'srun -n1 bash -c "exit 3" 2>/dev/null; [ $? -eq 3 ]'

jobdir="$state/selftest"
mkdir -p "$jobdir"
rm -f "$jobdir"/*.out
cat >"$jobdir/hello.sbatch" <<'JOB'
#!/bin/bash
#SBATCH --job-name=rewind-selftest
#SBATCH --ntasks=2
#SBATCH --time=1
srun hostname
echo "done $SLURM_JOB_ID"
JOB
check "sbatch --wait" 120 sbatch --wait -D "$jobdir" -o "$jobdir/hello-%j.out" "$jobdir/hello.sbatch"
jobid="$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' <<<"$out")"
out="$(cat "$jobdir/hello-$jobid.out" 2>/dev/null || true)"
err=""
expect "sbatch job $jobid wrote the host name twice and its id" \
  eval '[ "$(count_lines "$REWIND_SLURM_NODE")" -eq 2 ] && grep -qx "done $jobid" <<<"$out"'
check "squeue is empty afterwards" 20 squeue -h
expect "no job left" [ -z "$out" ]

if [[ -z "$keep" ]]; then
  check "slurm.sh stop" 120 "$here/slurm.sh" stop
  check "sshd.sh stop" 60 "$here/sshd.sh" stop
  if "$here/slurm.sh" status >/dev/null 2>&1; then fail "slurm.sh status says running after stop"; fi
  if "$here/sshd.sh" status >/dev/null 2>&1; then fail "sshd.sh status says running after stop"; fi
  ok "status reports both stopped"
fi
echo "selftest: PASS (state folder $state)"
