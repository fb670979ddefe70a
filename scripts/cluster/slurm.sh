#!/usr/bin/env bash
# Runs a one-node Slurm cluster on this machine (real munged, slurmctld and slurmd, nothing
# mocked) for testing Rewind's Slurm launch mode; everything it writes lives under
# $REWIND_CLUSTER_DIR (default <repo>/target/cluster), nothing in /etc/slurm or /etc/munge.
#
# Usage: scripts/cluster/slurm.sh start|stop|status|env
#   start   generates (once) a munge key and (while no Slurm daemon of ours runs) a slurm.conf,
#           starts munged, slurmctld and slurmd in the background, waits until `sinfo` shows
#           the node idle, then checks that `srun -N1 -n2 hostname` prints the host name twice,
#           that `salloc -N1 -n2 srun hostname` works and that `sbatch --wait` runs a script.
#           Running it while the cluster is up only re-checks it.
#   stop    cancels the cluster's jobs and stops slurmd, slurmctld and munged (TERM, then KILL
#           after 10 s); fine when they are not running.
#   status  prints what runs and `sinfo`; exit 0 when all three daemons run, 3 otherwise.
#   env     prints eval-able lines:  eval "$(scripts/cluster/slurm.sh env)"
#             SLURM_CONF              the generated slurm.conf; every Slurm command (srun,
#                                     salloc, sbatch, sinfo, squeue, scancel, scontrol) needs it
#             REWIND_SLURM_NODE       the node's name (this machine's short host name)
#             REWIND_SLURM_PARTITION  debug (the default partition)
#             REWIND_SLURM_CPUS       the CPUs the node offers to jobs
#             REWIND_MUNGE_SOCKET     munged's socket (for `munge -S`, `unmunge -S`)
#
# Settings (environment, read by start): REWIND_SLURM_CPUS (default: the larger of the real CPU
# count and 8), REWIND_SLURMCTLD_PORT (default 6817), REWIND_SLURMD_PORT (default 6818).
#
# Why the node claims 8 CPUs on a 2-core machine: Slurm places at most one task per CPU unless
# the job asks for --overcommit, so a test that launches 4 ranks with `srun -n4` would wait
# forever for CPUs that do not exist. The node is configured with CPUs=$REWIND_SLURM_CPUS and
# SlurmdParameters=config_overrides, which makes slurmctld trust slurm.conf over what slurmd
# finds (without it the node is drained for "Low CPUs"). RealMemory is what `slurmd -C` reports.
#
# munge: munged runs as root with --key-file, --socket, --pid-file, --log-file and --seed-file in
# the state folder; slurm.conf's AuthInfo=socket=... points auth/munge and cred/munge (daemons and
# client commands alike) at that socket, so nothing uses /run/munge. munged insists that the key
# is mode 0600 in a folder nobody else can write, and that the socket's folder (and every folder
# above it) can be searched by all (it refuses a 0700 socket folder with "Socket is inaccessible:
# execute permissions for all required"), hence munge/etc is 0700 and munge/run is 0755.
#
# Needs the packages that scripts/cluster/install.sh installs (it is not run from here) and root
# (SlurmUser=root; slurmd must run as root to start jobs). Logs: $REWIND_CLUSTER_DIR/slurm/log/
# (slurmctld.log, slurmd.log) and $REWIND_CLUSTER_DIR/munge/log/munged.log.
# (Single-quoted $ in this file is meant for the shell that runs the string.)
# shellcheck disable=SC2016
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mdir="$state/munge"
mkey="$mdir/etc/munge.key"
msock="$mdir/run/munge.socket.2"
mpid="$mdir/run/munged.pid"
mlog="$mdir/log/munged.log"
mseed="$mdir/lib/munged.seed"

sdir="$state/slurm"
conf="$sdir/slurm.conf"
ctld_pid="$sdir/run/slurmctld.pid"
slurmd_pid="$sdir/run/slurmd.pid"
ctld_log="$sdir/log/slurmctld.log"
slurmd_log="$sdir/log/slurmd.log"
jobs="$sdir/jobs"
node="$(hostname -s)"
export SLURM_CONF="$conf"

munged_running() { pid_alive "$mpid" "$msock"; }
ctld_running() { pid_alive "$ctld_pid" "$conf"; }
slurmd_running() { pid_alive "$slurmd_pid" "$conf"; }

show_log() {
  echo "---- last lines of $1 ----" >&2
  tail -n "${2:-25}" "$1" >&2 2>/dev/null || echo "(no log)" >&2
}

need_root() {
  [[ "$(id -u)" -eq 0 ]] || die "must run as root (slurmd starts jobs as their users; SlurmUser=root)"
  local b
  for b in munged mungekey slurmctld slurmd srun salloc sbatch sinfo scontrol; do
    command -v "$b" >/dev/null || die "$b not found: run scripts/cluster/install.sh first"
  done
}

start_munged() {
  if munged_running; then return; fi
  mkdir -p "$mdir/etc" "$mdir/run" "$mdir/log" "$mdir/lib"
  chmod 700 "$mdir/etc" "$mdir/log" "$mdir/lib"
  chmod 755 "$mdir" "$mdir/run"
  if [[ ! -s "$mkey" ]]; then
    mungekey --create --keyfile="$mkey" || die "mungekey could not create $mkey"
  fi
  chmod 600 "$mkey"
  rm -f "$mpid"
  # A munged killed hard leaves its socket behind; munged refuses to start over a live one, and
  # replaces a stale one only with --force, so remove it when no munged of ours runs.
  rm -f "$msock" "$msock.lock"
  if ! munged --key-file="$mkey" --socket="$msock" --pid-file="$mpid" \
    --log-file="$mlog" --seed-file="$mseed"; then
    show_log "$mlog"
    die "munged failed to start (it refuses a key, socket, log or seed whose folder, or any folder" \
      "above it, is group- or world-writable without the sticky bit: check the modes of" \
      "$state and its parents, or set REWIND_CLUSTER_DIR elsewhere)"
  fi
  wait_for 15 "munged to answer on $msock" bash -c "munge -S '$msock' -n | unmunge -S '$msock'" ||
    { show_log "$mlog"; exit 1; }
  note "munged running (pid $(cat "$mpid")), socket $msock"
}

write_conf() {
  local ctld_port="${REWIND_SLURMCTLD_PORT:-6817}" slurmd_port="${REWIND_SLURMD_PORT:-6818}"
  local hw real_cpus mem cpus p
  for p in "$ctld_port" "$slurmd_port"; do
    [[ "$p" =~ ^[0-9]+$ ]] || die "port '$p' is not a number"
    port_busy "$p" && die "something else already listens on port $p (set REWIND_SLURMCTLD_PORT / REWIND_SLURMD_PORT)"
  done
  hw="$(slurmd -C | sed -n 1p)" || die "slurmd -C failed"
  real_cpus="$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$hw")"
  mem="$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$hw")"
  [[ -n "$real_cpus" && -n "$mem" ]] || die "cannot read CPUs/RealMemory from 'slurmd -C': $hw"
  cpus="${REWIND_SLURM_CPUS:-$((real_cpus > 8 ? real_cpus : 8))}"
  [[ "$cpus" =~ ^[1-9][0-9]*$ ]] || die "REWIND_SLURM_CPUS='$cpus' is not a CPU count"

  mkdir -p "$sdir/state" "$sdir/spool" "$sdir/log" "$sdir/run" "$jobs"
  chmod 755 "$sdir"
  chmod 700 "$sdir/state" "$sdir/spool"
  cat >"$conf" <<CONF
# Generated by scripts/cluster/slurm.sh: a one-node cluster for Rewind's Slurm launch tests.
# slurmd -C on this machine: $hw
ClusterName=rewind
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$msock
StateSaveLocation=$sdir/state
SlurmdSpoolDir=$sdir/spool
SlurmctldPidFile=$ctld_pid
SlurmdPidFile=$slurmd_pid
SlurmctldLogFile=$ctld_log
SlurmdLogFile=$slurmd_log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$sdir/plugstack.conf
# No cgroups: this machine has no systemd and a cgroup v1/v2 mix Slurm's cgroup plugins dislike.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# Trust the CPUs below over the hardware (see scripts/cluster/slurm.sh for why).
SlurmdParameters=config_overrides
MailProg=/bin/true
InactiveLimit=0
KillWait=5
MinJobAge=60
SlurmctldTimeout=30
SlurmdTimeout=60
MessageTimeout=10
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$node CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
  # An empty plug-in stack, so /etc/slurm/plugstack.conf (the package's) is not read.
  : >"$sdir/plugstack.conf"
  echo "$cpus" >"$sdir/cpus"
}

start_ctld() {
  if ctld_running; then return; fi
  rm -f "$ctld_pid"
  if ! slurmctld -f "$conf"; then
    show_log "$ctld_log"
    die "slurmctld failed to start"
  fi
  if ! wait_for 30 "slurmctld to answer (scontrol ping)" bash -c "scontrol ping | grep -q 'is UP'"; then
    show_log "$ctld_log"
    exit 1
  fi
  note "slurmctld running (pid $(cat "$ctld_pid"))"
}

start_slurmd() {
  if slurmd_running; then return; fi
  rm -f "$slurmd_pid"
  if ! slurmd -f "$conf" -N "$node"; then
    show_log "$slurmd_log"
    die "slurmd failed to start"
  fi
  if ! wait_for 15 "slurmd to write $slurmd_pid" slurmd_running; then
    show_log "$slurmd_log"
    exit 1
  fi
  note "slurmd running (pid $(cat "$slurmd_pid"))"
}

node_state() { sinfo -h -N -n "$node" -o '%t' 2>/dev/null | sed -n 1p; }

wait_idle() {
  local deadline=$((SECONDS + 60)) st resumed=""
  while :; do
    st="$(node_state || true)"
    case "$st" in
      idle | mix | alloc) return 0 ;;
      drain* | drng | down | fail*)
        # A node left drained or down by an earlier run (say, a job that could not be killed)
        # is put back once; ReturnToService=2 covers the plain "not responding" case.
        if [[ -z "$resumed" ]]; then
          resumed=yes
          scontrol update NodeName="$node" State=RESUME >/dev/null 2>&1 || true
        fi
        ;;
    esac
    if ((SECONDS >= deadline)); then
      echo "slurm.sh: timed out after 60s waiting for node $node to be idle; sinfo says '$st'" >&2
      sinfo -N -l -R >&2 || true
      scontrol show node "$node" >&2 || true
      show_log "$slurmd_log"
      show_log "$ctld_log"
      exit 1
    fi
    sleep 0.5
  done
}

fail_check() {
  echo "slurm.sh: check failed: $1" >&2
  [[ -n "${2:-}" ]] && printf '%s\n' "---- output ----" "$2" >&2
  show_log "$slurmd_log" 15
  show_log "$ctld_log" 15
  exit 1
}

check_jobs() {
  local out n
  out="$(timeout 60 srun -N1 -n2 hostname 2>&1)" || fail_check "srun -N1 -n2 hostname" "$out"
  n="$(grep -cx "$node" <<<"$out" || true)"
  [[ "$n" -eq 2 ]] || fail_check "srun -N1 -n2 hostname printed '$node' $n times, not 2" "$out"

  out="$(timeout 60 salloc -N1 -n2 srun hostname 2>&1)" || fail_check "salloc -N1 -n2 srun hostname" "$out"
  n="$(grep -cx "$node" <<<"$out" || true)"
  [[ "$n" -eq 2 ]] || fail_check "salloc -N1 -n2 srun hostname printed '$node' $n times, not 2" "$out"

  mkdir -p "$jobs"
  local script="$jobs/check.sbatch" result="$jobs/check.out"
  rm -f "$result"
  cat >"$script" <<'JOB'
#!/bin/bash
#SBATCH --job-name=rewind-check
#SBATCH --ntasks=2
#SBATCH --time=1
srun hostname
echo "rewind-sbatch-ok $SLURM_JOB_ID"
JOB
  out="$(timeout 90 sbatch --wait -D "$jobs" -o "$result" "$script" 2>&1)" ||
    fail_check "sbatch --wait $script" "$out$(printf '\n---- %s ----\n' "$result"; cat "$result" 2>/dev/null)"
  if ! { grep -q '^rewind-sbatch-ok' "$result" 2>/dev/null && [[ "$(grep -cx "$node" "$result")" -eq 2 ]]; }; then
    fail_check "sbatch --wait: $result lacks the expected lines" "$(cat "$result" 2>/dev/null)"
  fi
}

start() {
  need_root
  if ! ctld_running && ! slurmd_running; then
    write_conf
  fi
  start_munged
  [[ -s "$conf" ]] || die "no $conf while a Slurm daemon of ours runs; run '$0 stop' first"
  start_ctld
  start_slurmd
  wait_idle
  check_jobs
  note "node $node is $(node_state) with $(cat "$sdir/cpus") CPUs; srun, salloc and sbatch --wait work (SLURM_CONF=$conf)"
}

stop() {
  if ctld_running; then
    # Jobs left running would keep slurmstepd processes alive after slurmd stops.
    timeout 15 scancel --partition=debug >/dev/null 2>&1 || true
    wait_for 20 "the cluster's jobs to end" bash -c '[[ -z "$(squeue -h -o %i 2>/dev/null)" ]]' || true
  fi
  stop_pidfile "$slurmd_pid" "$conf" slurmd
  stop_pidfile "$ctld_pid" "$conf" slurmctld
  stop_pidfile "$mpid" "$msock" munged
  rm -f "$msock" "$msock.lock"
}

status() {
  local rc=0
  if munged_running; then echo "munged running (pid $(cat "$mpid")), socket $msock"; else echo "munged not running"; rc=3; fi
  if ctld_running; then echo "slurmctld running (pid $(cat "$ctld_pid"))"; else echo "slurmctld not running"; rc=3; fi
  if slurmd_running; then echo "slurmd running (pid $(cat "$slurmd_pid"))"; else echo "slurmd not running"; rc=3; fi
  if ctld_running; then timeout 15 sinfo -N -l || true; fi
  return "$rc"
}

env_lines() {
  [[ -s "$conf" ]] || die "no $conf: run '$0 start' first"
  ctld_running || echo "slurm.sh: warning: slurmctld is not running (run '$0 start')" >&2
  printf 'export SLURM_CONF=%q\n' "$conf"
  printf 'export REWIND_SLURM_NODE=%q\n' "$node"
  printf 'export REWIND_SLURM_PARTITION=debug\n'
  printf 'export REWIND_SLURM_CPUS=%q\n' "$(cat "$sdir/cpus" 2>/dev/null || echo '')"
  printf 'export REWIND_MUNGE_SOCKET=%q\n' "$msock"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  env) env_lines ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
