#!/usr/bin/env bash
# Configures (Ninja, Release by default, ccache when present, tools linked
# against Debian's libMLIR.so/libLLVM.so) and builds npuc into $BUILD_DIR
# (default: build/). Used by demo.sh and test.sh; safe to run repeatedly.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
type=${BUILD_TYPE:-Release}

start=$(date +%s)
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="$type" \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >"$build.configure.log" 2>&1 || {
  cat "$build.configure.log" >&2
  echo "build: configuring failed (log above)" >&2
  exit 1
}
ninja -C "$build"
echo "build: $type build in $build took $(( $(date +%s) - start )) s"
