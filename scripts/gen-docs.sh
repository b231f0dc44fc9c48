#!/usr/bin/env bash
# Regenerates the docs that come from the TableGen records (docs/isa.md,
# docs/target.md) and copies them into docs/. ctest's docs/up-to-date test
# fails until this has been run after a change to include/npuc/Base/*.td.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
ninja -C "$build" npuc-generated-docs
cp "$build/include/npuc/Base/isa.md" "$root/docs/isa.md"
cp "$build/include/npuc/Base/target.md" "$root/docs/target.md"
echo "gen-docs: docs/isa.md and docs/target.md regenerated"
