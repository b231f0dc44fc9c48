#!/usr/bin/env bash
# The project's test command: installs the Debian dependencies, builds, and
# runs every test (GoogleTest and lit, through ctest). Exits non-zero on any
# failure. .ci/run calls this.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"

start=$(date +%s)
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
echo "test: ctest took $(( $(date +%s) - start )) s"
