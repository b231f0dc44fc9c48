#!/usr/bin/env bash
# ctest install-relocate (contracts D2, D4, D5; docs/install.md):
#  1. scripts/install.sh installs into a prefix; the prefix is moved;
#  2. the moved tools find libnpuc-runtime.so.0 through RUNPATH $ORIGIN/../lib
#     and compile and simulate examples/mnist8, matching its reference;
#  3. a program built against the moved CMake package (find_package(npuc))
#     runs the compiled model: the same cycles and output bytes as npu-sim;
#  4. with share/npuc/op-evidence.tsv removed, npuc names the missing
#     resource and its path, exits 1 and writes nothing;
#  5. a failing rebuild (configure, then compile) leaves the install working.
#
# usage: install-test.sh SOURCE_DIR BUILD_DIR BUILD_TYPE WORK_DIR
set -euo pipefail
src=$1 build=$2 type=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
fail() { echo "install-test: FAIL: $*" >&2; exit 1; }
model=$src/examples/mnist8/model.onnx
input=$src/examples/mnist8/test_data_set_0/input_0.pb
expected=$src/examples/mnist8/test_data_set_0/output_0.pb

# 1. Install, then move the whole prefix.
BUILD_DIR=$build BUILD_TYPE=$type "$src/scripts/install.sh" "$work/prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "scripts/install.sh failed"; }
mv "$work/prefix" "$work/moved"
p=$work/moved
for f in bin/npuc bin/npu-sim bin/npu-objdump bin/npuc-opt bin/npuc-translate bin/npuc-zoo \
         lib/libnpuc-runtime.so.0 lib/cmake/npuc/npucConfig.cmake share/npuc/op-evidence.tsv \
         include/npuc/Sim/Simulator.h include/npuc/Base/ISATables.inc; do
  [ -e "$p/$f" ] || fail "$f is not installed"
done

# 2. RUNPATH, SONAME, and the moved tools at work.
readelf -d "$p/bin/npu-sim" | grep -q 'RUNPATH.*\$ORIGIN/../lib' || fail "npu-sim has no RUNPATH \$ORIGIN/../lib"
readelf -d "$p/lib/libnpuc-runtime.so.0" | grep -q 'SONAME.*libnpuc-runtime.so.0' || fail "no SONAME libnpuc-runtime.so.0"
ldd "$p/bin/npu-sim" | grep -q "libnpuc-runtime.so.0 => $p/bin/../lib/" ||
  { ldd "$p/bin/npu-sim"; fail "npu-sim does not load the moved prefix's libnpuc-runtime"; }
! grep -qa "$build" "$p/bin/npuc" "$p/bin/npu-sim" "$p/lib/libnpuc-runtime.so.0" ||
  fail "an installed binary names the build directory $build"
cd "$work"
"$p/bin/npuc" "$model" -o mnist.bin || fail "the moved npuc did not compile mnist8"
"$p/bin/npu-sim" mnist.bin -i "$input" -o sim --stats > sim.txt || fail "the moved npu-sim did not run"
/usr/bin/python3 - "$expected" sim/output_0.npy <<'PY' || fail "mnist8's output differs from its reference"
import sys, numpy as np, onnx
from onnx import numpy_helper
want = numpy_helper.to_array(onnx.load_tensor(sys.argv[1]))
got = np.load(sys.argv[2])
assert got.shape == want.shape and np.allclose(got, want, rtol=1e-4, atol=1e-5), (got, want)
PY

# 3. An integrator's program against the moved package.
cmake -S "$src/test/install/consumer" -B consumer -DCMAKE_PREFIX_PATH="$p" > consumer.log 2>&1 &&
  cmake --build consumer >> consumer.log 2>&1 || { cat consumer.log; fail "the consumer does not build"; }
readelf -d consumer/run-model | grep -q "libnpuc-runtime.so.0" || fail "run-model does not link libnpuc-runtime.so.0"
mkdir -p embedded
consumer/run-model mnist.bin embedded "$input" > embedded.txt || fail "run-model failed"
[ "$(grep cycles: embedded.txt | cut -d' ' -f2)" = "$(grep cycles: sim.txt | cut -d' ' -f2)" ] ||
  fail "run-model and npu-sim disagree on the cycles: $(cat embedded.txt) / $(grep cycles: sim.txt)"
cmp embedded/output_0.npy sim/output_0.npy || fail "run-model and npu-sim disagree on the output"

# 4. A missing resource is a precise error, and nothing is written.
mv "$p/share/npuc/op-evidence.tsv" evidence.tsv
if "$p/bin/npuc" "$model" -o missing.bin 2> missing.err; then fail "npuc compiled without its evidence table"; fi
grep -qF "resource 'op-evidence.tsv' is missing: cannot open '$p/share/npuc/op-evidence.tsv'" missing.err ||
  { cat missing.err; fail "the error does not name the missing resource and its path"; }
[ ! -e missing.bin ] || fail "a model was written without the evidence table"
mv evidence.tsv "$p/share/npuc/op-evidence.tsv"

# 5. Failing rebuilds leave the install as it was: a configure that fails
#    (no LLVM at the prefix given) and a build that fails (every compile
#    command fails).
before=$(cd "$p" && find . -type f -exec sha256sum {} + | sort | sha256sum)
if BUILD_DIR=$work/broken-configure CMAKE_ARGS="-DNPUC_LLVM_PREFIX=$work/no-llvm" \
     "$src/scripts/install.sh" "$p" > broken1.log 2>&1; then fail "install.sh succeeded with a broken configure"; fi
grep -q "is unchanged" broken1.log || fail "install.sh did not say the prefix is unchanged"
if BUILD_DIR=$work/broken-build CMAKE_ARGS="-DCMAKE_CXX_COMPILER_LAUNCHER=false -DNPUC_USE_CCACHE=OFF" \
     "$src/scripts/install.sh" "$p" > broken2.log 2>&1; then fail "install.sh succeeded with a failing build"; fi
grep -q "the build failed; .* is unchanged" broken2.log || { tail -5 broken2.log; fail "install.sh did not report the failed build"; }
after=$(cd "$p" && find . -type f -exec sha256sum {} + | sort | sha256sum)
[ "$before" = "$after" ] || fail "a failed rebuild changed the install"
"$p/bin/npuc" "$model" -o again.bin && cmp again.bin mnist.bin || fail "the install no longer compiles after a failed rebuild"
echo "install-test: PASS (install, relocation, package, missing resource, failed rebuilds)"
