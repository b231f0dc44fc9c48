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
  "$bin/npuc-opt" "$root/examples/residual.mlir" --npuc-pipeline=until=kernel

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

m=$root/examples/mnist8
step "A real network: MNIST from the ONNX model zoo (examples/mnist8, MIT), compiled" \
  "$bin/npuc" "$m/model.onnx" -o "$tmp/mnist.bin"
for k in 0 1 2; do
  step "... digit $k of its data sets executed by npu-sim" "$bin/npu-sim" "$tmp/mnist.bin" \
    -i "$m/test_data_set_$k/input_0.pb" -o "$tmp/mnist-out-$k" --stats
done
/usr/bin/python3 - "$tmp" "$m" <<'PY'
import sys, numpy as np, onnx
from onnx import numpy_helper
tmp, m = sys.argv[1], sys.argv[2]
for k in range(3):
    t = onnx.TensorProto()
    t.ParseFromString(open("%s/test_data_set_%d/output_0.pb" % (m, k), "rb").read())
    want = numpy_helper.to_array(t).ravel()
    got = np.load("%s/mnist-out-%d/output_0.npy" % (tmp, k)).ravel()
    top = lambda v: list(np.argsort(-v, kind="stable")[:5])
    print("data set %d: npu-sim's top 5 digits %s, the reference's %s; largest difference %.2g (%s)"
          % (k, top(got), top(want), np.abs(got - want).max(),
             "top-5 agree" if top(got) == top(want) else "TOP-5 DIFFER"))
PY

model=$root/examples/conv_relu/model.onnx
step "An ONNX model imported into the graph dialect" "$bin/npuc" "$model" --compile-to=graph

q=$root/examples/qdq_conv_clip_matmul
step "A quantized (QDQ) model: conv, a clip between two scales, a reshape, a matmul" \
  "$bin/npuc" "$q/model.onnx" --compile-to=kernel
step "... compiled to NPU-v1 machine code" "$bin/npuc" "$q/model.onnx" -o "$tmp/qdq.bin"
"$bin/npu-objdump" "$tmp/qdq.bin" | sed -n '1,/^code/p'
step "... executed by npu-sim" "$bin/npu-sim" "$tmp/qdq.bin" -i "$q/test_data_set_0/input_0.pb" \
  -o "$tmp/qdq-out" --stats
/usr/bin/python3 - "$tmp" "$q" <<'PY'
import sys, numpy as np, onnx
from onnx import numpy_helper
tmp, q = sys.argv[1], sys.argv[2]
t = onnx.TensorProto()
t.ParseFromString(open(q + "/test_data_set_0/output_0.pb", "rb").read())
want = numpy_helper.to_array(t).astype(int)
got = np.load(tmp + "/qdq-out/output_0.npy").astype(int)
print("expected (numpy reference, test/e2e/gen_qdq_suite.py):\n%s" % want)
print("npu-sim:\n%s" % got)
d = np.abs(got - want)
print("largest difference %d quantization steps, %d of %d elements differ" % (d.max(), np.count_nonzero(d), d.size))
PY
step "The same comparison on both targets, as ctest runs it" \
  "$bin/npuc-conformance" --target npu-v1,npu-v1-tiny --strict "$q"
