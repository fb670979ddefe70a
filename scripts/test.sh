#!/usr/bin/env bash
# Builds everything and runs every test. Maven may run on any JDK; the build selects a JDK 25
# toolchain by discovery (see the parent pom).
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -B -ntp verify "$@"
