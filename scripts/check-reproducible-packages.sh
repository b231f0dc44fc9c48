#!/usr/bin/env bash
# Contract D8: the same sources give the same package bytes. Builds npuc in a
# second build tree ($REPRO_BUILD_DIR, default build-repro/, a different
# path, so a build path that leaks into a binary shows) and packages both
# trees with scripts/package.sh; the .deb and .tar.gz of the two must have
# equal SHA-256. On a difference, lists the files that differ.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
first=$(realpath -m "${BUILD_DIR:-$root/build}")
second=$(realpath -m "${REPRO_BUILD_DIR:-$root/build-repro}")
type=${BUILD_TYPE:-Release}
start=$(date +%s)
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct)}
BUILD_DIR=$second BUILD_TYPE=$type "$root/scripts/build.sh" > "$second.build.log" 2>&1 ||
  { tail -20 "$second.build.log"; echo "check-reproducible-packages: building $second failed" >&2; exit 1; }
a=$(BUILD_DIR=$first "$root/scripts/package.sh")
b=$(BUILD_DIR=$second "$root/scripts/package.sh")
echo "$a"
if [ "$a" != "$b" ]; then
  echo "check-reproducible-packages: FAIL: the packages of $first and $second differ:" >&2
  echo "$b" >&2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  for t in "$first" "$second"; do
    mkdir -p "$work/$(basename "$t")"
    tar -xzf "$t"/packages/*.tar.gz -C "$work/$(basename "$t")"
  done
  diff -r "$work/$(basename "$first")" "$work/$(basename "$second")" >&2 || true
  exit 1
fi
echo "check-reproducible-packages: PASS, two build trees give the same packages ($(( $(date +%s) - start )) s)"
