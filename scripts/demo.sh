#!/usr/bin/env bash
# What a new user runs first: installs dependencies, builds, and runs what the
# pipeline can honestly do today on the bundled examples in examples/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bin=$build/bin

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"

step() { printf '\n== %s\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "The compiler and its targets" "$bin/npuc" --version
step "Targets are data (include/npuc/Base/Target.td)" "$bin/npuc" --list-targets

step "A graph-dialect model (examples/residual.mlir) through the npuc pipeline" \
  "$bin/npuc-opt" "$root/examples/residual.mlir" --npuc-pipeline

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step "An NPU program in the enc dialect, encoded to machine code" \
  "$bin/npuc-translate" --export-npu-code "$root/examples/program.mlir" -o "$tmp/program.bin"
echo "wrote $(stat -c %s "$tmp/program.bin") bytes ($(( $(stat -c %s "$tmp/program.bin") / 16 )) instructions)"
step "... and decoded from the bytes again" "$bin/npuc-translate" --import-npu-code "$tmp/program.bin"

step "The same program as a model file" \
  "$bin/npuc-translate" --export-npu-model "$root/examples/program.mlir" -o "$tmp/program.model"
step "... as npu-objdump sees it" "$bin/npu-objdump" "$tmp/program.model"
/usr/bin/python3 -c "import numpy as np; np.save('$tmp/x.npy', np.arange(-32, 32, dtype=np.int8))"
step "... executed by npu-sim" "$bin/npu-sim" "$tmp/program.model" -i "$tmp/x.npy" -o "$tmp/out" --stats
/usr/bin/python3 - "$tmp" <<'PY'
import sys, numpy as np
tmp = sys.argv[1]
x, y = np.load(tmp + "/x.npy"), np.load(tmp + "/out/output_0.npy")
print("output equals input: %s (%d int8 values)" % (bool((x == y).all()), y.size))
PY

model=$root/examples/conv_relu.onnx
step "An ONNX model imported into the graph dialect" "$bin/npuc" "$model" --compile-to=graph
printf '\n== Compiling it to NPU code\n$ npuc %s -o %s\n' "$model" "$tmp/model.bin"
set +e
"$bin/npuc" "$model" -o "$tmp/model.bin"
rc=$?
set -e
echo "npuc exited $rc; output file present: $([ -e "$tmp/model.bin" ] && echo yes || echo no)"
cat <<'TXT'

Status: the dialects, the ISA, the targets, the encoder/decoder, the model file,
npu-objdump, npu-sim and the ONNX importer exist and are tested; the lowering
from the graph dialect to NPU code is not built yet, so npuc stops after
importing (exit 2) and writes no model file.
TXT
