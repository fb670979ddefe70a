#!/usr/bin/env bash
# Builds everything and runs every test. Maven may run on any JDK; the build selects a JDK 25
# toolchain by discovery (see the parent pom). The report test renders pages in Debian's chromium,
# which the first step installs when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-chromium.sh
exec mvn -B -ntp verify "$@"
