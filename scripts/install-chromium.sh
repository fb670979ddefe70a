#!/usr/bin/env bash
# Installs Debian's chromium, which the report test uses to render `rewind report`
# pages headless. Idempotent: does nothing when /usr/bin/chromium already exists.
# Runs unattended (CI has no terminal); needs root or sudo.
set -euo pipefail

if [[ -x /usr/bin/chromium ]]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi

as_root=()
if [[ "$(id -u)" -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo -n)
  else
    echo "install-chromium.sh: must run as root (or with sudo) to install chromium" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y --no-install-recommends chromium

if [[ ! -x /usr/bin/chromium ]]; then
  echo "install-chromium.sh: apt-get finished but /usr/bin/chromium is missing" >&2
  exit 1
fi
echo "chromium installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
