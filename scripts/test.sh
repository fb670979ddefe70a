#!/usr/bin/env bash
# Builds everything and runs every test. Maven may run on any JDK; the build selects a JDK 25
# toolchain by discovery (see the parent pom). The report test renders pages in Debian's chromium,
# which the first step installs when it is missing. Then the launch modes that need real cluster
# software run against it: a private sshd and a one-node Slurm cluster on this machine, installed
# and started by scripts/cluster (needs root and apt; REWIND_SKIP_CLUSTER_TESTS=1 skips them).
#
# The full run installs the artifacts in the local repository and builds the example projects against
# them (scripts/examples-test.sh), as a user's project would depend on Rewind.
#
# ./scripts/test.sh --fast is the inner loop: the unit tests and a sample of the recovery oracle and of
# the conformance suite (JUnit tags, see the parent pom), no rank processes, browser or cluster
# software; a few minutes. Run the whole of it before a change lands.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--fast" ]; then
  shift
  exec mvn -B -ntp verify -Dsurefire.groups='(!oracle & !process & !conformance & !browser) | sample' "$@"
fi
bash scripts/install-chromium.sh
mvn -B -ntp install "$@"
scripts/examples-test.sh
if [ "${REWIND_SKIP_CLUSTER_TESTS:-0}" != "1" ]; then
  scripts/cluster/launch-test.sh
fi
