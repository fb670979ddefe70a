# Shared helpers for scripts/cluster/*.sh; sourced, not run. Sets $repo, $state (the state folder,
# $REWIND_CLUSTER_DIR or <repo>/target/cluster, made absolute) and defines die, note, wait_for,
# port_busy and pid_alive.
# shellcheck shell=bash

cluster_lib_here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$cluster_lib_here/../.." && pwd)"
state="${REWIND_CLUSTER_DIR:-$repo/target/cluster}"
mkdir -p "$state"
state="$(cd "$state" && pwd)"
export PATH="$PATH:/usr/sbin:/sbin"

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
note() { [[ -n "${REWIND_CLUSTER_QUIET:-}" ]] || echo "$(basename "$0"): $*" >&2; }

# wait_for SECONDS WHAT CMD...: runs CMD every 0.2 s until it succeeds; returns 1 after SECONDS.
wait_for() {
  local limit="$1" what="$2"; shift 2
  local deadline=$((SECONDS + limit))
  while ! "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      echo "$(basename "$0"): timed out after ${limit}s waiting for $what" >&2
      return 1
    fi
    sleep 0.2
  done
}

negate() { ! "$@"; }

# port_busy PORT: true when something accepts TCP connections on 127.0.0.1:PORT.
port_busy() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# pid_alive PIDFILE NEEDLE: true when PIDFILE names a live process whose command line holds NEEDLE
# (so a stale pid file, or one whose pid was reused by another program, does not count).
pid_alive() {
  local pidfile="$1" needle="$2" pid
  [[ -s "$pidfile" ]] || return 1
  pid="$(tr -dc '0-9' <"$pidfile")"
  [[ -n "$pid" ]] && proc_running "$pid" || return 1
  local cmdline
  cmdline="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
  [[ "$cmdline" == *"$needle"* ]]
}

# proc_running PID: true when PID is a live process (a zombie does not count).
proc_running() {
  local st
  st="$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" || return 1
  [[ -n "$st" && "$st" != Z && "$st" != X ]]
}

# stop_pidfile PIDFILE NEEDLE NAME: TERM, then after 10 s KILL, the process PIDFILE names; removes
# PIDFILE. Does nothing when it is not running.
stop_pidfile() {
  local pidfile="$1" needle="$2" name="$3" pid
  if pid_alive "$pidfile" "$needle"; then
    pid="$(tr -dc '0-9' <"$pidfile")"
    kill -TERM "$pid" 2>/dev/null || true
    if ! wait_for 10 "$name (pid $pid) to exit" negate proc_running "$pid"; then
      echo "$(basename "$0"): $name (pid $pid) ignored TERM; sending KILL" >&2
      kill -KILL "$pid" 2>/dev/null || true
      wait_for 5 "$name (pid $pid) to die" negate proc_running "$pid" || return 1
    fi
    note "stopped $name (pid $pid)"
  fi
  rm -f "$pidfile"
}
