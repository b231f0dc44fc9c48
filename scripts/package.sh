#!/usr/bin/env bash
# Builds the .deb and .tar.gz packages of the build tree $BUILD_DIR (default
# build/) into $BUILD_DIR/packages, byte-reproducibly (contract D8): every
# file time is SOURCE_DATE_EPOCH (the last commit's time unless the
# environment sets it), the umask is 022 (CPack's staging directories take
# their modes from it), owners are root:root, entries are sorted; binaries
# hold no build path (-ffile-prefix-map, CMakeLists.txt).
# Prints each package's SHA-256.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${BUILD_DIR:-$root/build}")
umask 022
export LC_ALL=C TZ=UTC
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct)}
ninja -C "$build" > /dev/null
rm -rf "$build/packages"
(cd "$build" && cpack -B "$build/packages" > "$build/packages.log" 2>&1) || {
  cat "$build/packages.log" >&2
  echo "package: cpack failed" >&2
  exit 1
}
rm -rf "$build/packages/_CPack_Packages"
(cd "$build/packages" && sha256sum -- *.deb *.tar.gz)
