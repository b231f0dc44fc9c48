#!/usr/bin/env bash
# Builds npuc with clang-22, AddressSanitizer and UndefinedBehaviorSanitizer
# ($SAN_BUILD_DIR, default build-asan/; -O1, assertions on) and runs, in it:
# the unit tests, the lit tests, a sample of the end-to-end conformance runs
# (the QDQ suite, the contract cases, the encoder block, examples/), the
# model-file fuzzer's and the importer fuzzer's bounded campaigns. Any
# sanitizer report fails the run (halt_on_error, leaks included).
# With FUZZ_SECONDS=N, the importer fuzzer also runs N seconds on its own
# (a release checklist item: docs/install.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${SAN_BUILD_DIR:-$root/build-asan}")
start=$(date +%s)
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
  -DCMAKE_C_FLAGS_RELEASE=-O1 -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DNPUC_SANITIZE=ON -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log" >&2; echo "check-sanitizers: configuring failed" >&2; exit 1; }
ninja -C "$build" > "$build.build.log" 2>&1 ||
  { tail -30 "$build.build.log" >&2; echo "check-sanitizers: the build failed" >&2; exit 1; }
echo "check-sanitizers: built in $(( $(date +%s) - start )) s"
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs when
# compiled with ASan (our code), and the uninstrumented libMLIR.so writes
# into them through its own copy of the template: a false use-after-poison.
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:allow_user_poisoning=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
tests='^(lit|e2e-qdq-suite|e2e-contract-cases|e2e-encoder-block|conformance-examples|model-file-fuzzer|import-fuzzer|[A-Za-z0-9]+\.[A-Za-z0-9_]+)$'
ctest --test-dir "$build" -R "$tests" -j "$(nproc)" --output-on-failure
if [ -n "${FUZZ_SECONDS:-}" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cp -r "$build/tools/npuc-import-fuzzer/corpus" "$work/corpus"
  "$build/bin/npuc-import-fuzzer" -max_total_time="$FUZZ_SECONDS" -timeout=20 -rss_limit_mb=4096 \
    -max_len=65536 -print_final_stats=1 "$work/corpus" 2>&1 | tail -20
fi
echo "check-sanitizers: PASS ($(( $(date +%s) - start )) s)"
