#!/usr/bin/env bash
# Installs npuc into PREFIX without ever leaving PREFIX broken (contract D2):
# configures and builds ($BUILD_DIR, default build/; $BUILD_TYPE, default
# Release; extra configure arguments in $CMAKE_ARGS), installs into a staging
# directory beside PREFIX, checks that the staged tools run, and only then
# swaps the staging directory in for PREFIX (two renames: between them, for
# an instant, PREFIX does not exist). A failed configure, build, install or
# check exits non-zero with PREFIX as it was.
#
# usage: scripts/install.sh PREFIX
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: scripts/install.sh PREFIX" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
type=${BUILD_TYPE:-Release}
prefix=$(realpath -m "$1")
stage="$prefix.staging.$$"
old="$prefix.old.$$"
trap 'rm -rf "$stage" "$old"' EXIT

mkdir -p "$build"
# shellcheck disable=SC2086  # CMAKE_ARGS is a list of arguments
if ! cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="$type" \
     -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit ${CMAKE_ARGS:-} >"$build.configure.log" 2>&1; then
  cat "$build.configure.log" >&2
  echo "install: configuring failed; $prefix is unchanged" >&2
  exit 1
fi
if ! ninja -C "$build"; then
  echo "install: the build failed; $prefix is unchanged" >&2
  exit 1
fi
if ! cmake --install "$build" --prefix "$stage" >/dev/null; then
  echo "install: installing into $stage failed; $prefix is unchanged" >&2
  exit 1
fi
for tool in npuc npu-sim npu-objdump npuc-opt npuc-translate npuc-zoo; do
  if ! "$stage/bin/$tool" --version >/dev/null 2>&1; then
    echo "install: the staged $tool does not run; $prefix is unchanged" >&2
    exit 1
  fi
done
# npuc --identity reads every part of the compiler, its resources included.
if ! "$stage/bin/npuc" --identity >/dev/null; then
  echo "install: the staged npuc is incomplete; $prefix is unchanged" >&2
  exit 1
fi
if [ -e "$prefix" ]; then
  mv "$prefix" "$old"
fi
mv "$stage" "$prefix"
echo "install: npuc installed in $prefix"
