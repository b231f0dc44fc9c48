#!/usr/bin/env bash
# Installs the Debian packages that building and testing npuc need.
# Idempotent: when every package is already installed it does nothing (no
# network); otherwise it runs `apt-get update` once and installs what is missing.
# Nothing is downloaded from anywhere but Debian's archive.
set -euo pipefail

PACKAGES=(
  cmake ninja-build ccache g++ pkg-config
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libzstd-dev
  clang-22 libclang-rt-22-dev
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
  libfmt-dev libcli11-dev libgtest-dev
  python3-onnx python3-numpy
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "install-deps: missing packages (${missing[*]}) and not root; install them as root" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
