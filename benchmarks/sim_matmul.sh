#!/usr/bin/env bash
# Benchmark: simulated int8 MATRIX throughput of npu-sim on a 512x512x512
# matmul (issue target: at least 1 G MAC/s on one core). Prints the numbers;
# it is a measurement, not a pass/fail test. Checks the result against numpy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BUILD_DIR:-$root/build}/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$root/benchmarks/sim_matmul.py" "$tmp/expected.npy" > "$tmp/mm.mlir"
/usr/bin/python3 "$root/benchmarks/sim_matmul.py" "$tmp/unused.npy" --baseline > "$tmp/base.mlir"
"$bin/npuc-translate" --export-npu-model "$tmp/mm.mlir" -o "$tmp/mm.bin"
"$bin/npuc-translate" --export-npu-model "$tmp/base.mlir" -o "$tmp/base.bin"
# Best of 5 wall-clock runs of a model.
best_of() {
  local best= start end t
  for run in 1 2 3 4 5; do
    start=$(date +%s%N)
    "$bin/npu-sim" "$1" -o "$tmp/out-$2" --stats > "$tmp/stats-$2.txt"
    end=$(date +%s%N)
    t=$(( end - start ))
    if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
  done
  echo "$best"
}
full=$(best_of "$tmp/mm.bin" full)
base=$(best_of "$tmp/base.bin" base)
/usr/bin/python3 - "$tmp" "$full" "$base" <<'PY'
import sys, numpy as np
tmp, full, base = sys.argv[1], int(sys.argv[2]) / 1e9, int(sys.argv[3]) / 1e9
got = np.load(tmp + "/out-full/output_0.npy")
want = np.load(tmp + "/expected.npy")
assert (got == want).all(), "npu-sim result differs from numpy"
macs = 512 ** 3
stats = open(tmp + "/stats-full.txt").read()
cycles = int(stats.split("cycles: ")[1].split()[0])
print("512x512x512 int8 matmul, best of 5: whole npu-sim run %.3f s (%.2f G MAC/s); "
      "without the matmuls %.3f s; MATRIX work %.3f s = %.2f G MAC/s; "
      "%d simulated cycles; result equals numpy"
      % (full, macs / full / 1e9, base, full - base, macs / max(full - base, 1e-9) / 1e9, cycles))
PY
