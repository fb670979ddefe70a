#!/usr/bin/env bash
# Installs, with Debian's apt-get, the real programs that scripts/cluster/sshd.sh and
# scripts/cluster/slurm.sh run: openssh-server, openssh-client, slurm-wlm (slurmctld, slurmd and
# the client commands srun/salloc/sbatch/sinfo/scontrol) and munge.
#
# Usage: scripts/cluster/install.sh
#
# Installs only what is missing (a package already in dpkg's "install ok installed" state is
# skipped; when nothing is missing it does not even run apt-get update). Unattended
# (DEBIAN_FRONTEND=noninteractive, --no-install-recommends) and quiet: apt's output goes to
# $REWIND_CLUSTER_DIR/install.log and is printed only when a step fails. Needs root or
# passwordless sudo. The packages' own services are not started or configured by this script;
# sshd.sh and slurm.sh run private instances with their own configuration under
# $REWIND_CLUSTER_DIR (default <repo>/target/cluster).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
state="${REWIND_CLUSTER_DIR:-$repo/target/cluster}"

packages=(openssh-server openssh-client slurm-wlm slurmctld slurmd slurm-client munge)

missing=()
for p in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

as_root=()
if [[ "$(id -u)" -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    echo "install.sh: must run as root (or with passwordless sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi

mkdir -p "$state"
log="$state/install.log"
: >"$log"

run() {
  # Runs one apt step with a time bound; on failure prints its log and exits.
  local what="$1"; shift
  if ! timeout 900 "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive "$@" >>"$log" 2>&1; then
    echo "install.sh: '$what' failed (or took more than 900 s) while installing: ${missing[*]}" >&2
    echo "---- $log ----" >&2
    tail -n 60 "$log" >&2
    exit 1
  fi
}

run "apt-get update" apt-get update -q
run "apt-get install" apt-get install -y -q --no-install-recommends \
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}"

for b in sshd ssh ssh-keygen slurmctld slurmd srun salloc sbatch sinfo scontrol munged munge unmunge; do
  if ! PATH="$PATH:/usr/sbin:/sbin" command -v "$b" >/dev/null 2>&1; then
    echo "install.sh: apt-get finished but '$b' is not on PATH (see $log)" >&2
    exit 1
  fi
done
