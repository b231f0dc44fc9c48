#!/usr/bin/env bash
# Regenerates the lowering-case evidence and its document in one command:
# runs npuc-conformance over Debian's ONNX test data, ../shared/models (when
# present), examples/, the generated suites and the whole verification grid
# (test/grid: a model for every reachable case) on every target, writes
# lib/Support/OpEvidence.tsv, rebuilds npuc with it, and writes
# docs/supported-ops.md from `npuc --list-ops`. The run's results are kept in
# $BUILD_DIR/conformance.json; extra arguments go to npuc-conformance (e.g.
# --write-expectations FILE).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
data=/usr/share/libonnx-testdata/data

ninja -C "$build" npuc npu-sim npuc-conformance
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$root/test/e2e/gen_qdq_suite.py" "$work/qdq-suite" > /dev/null
/usr/bin/python3 "$root/test/e2e/gen_importer_gaps.py" "$work/importer-gaps" > /dev/null
/usr/bin/python3 "$root/test/e2e/gen_encoder_block.py" "$work/encoder-block" > /dev/null
/usr/bin/python3 "$root/test/e2e/gen_opsets_23_24.py" "$work/opsets-23-24" > /dev/null
/usr/bin/python3 "$root/test/e2e/gen_opsets_25_28.py" "$work/opsets-25-28" > /dev/null
/usr/bin/python3 "$root/test/e2e/gen_recurrent.py" "$work/recurrent" > /dev/null
/usr/bin/python3 "$root/test/e2e/gen_fp16.py" "$work/fp16" > /dev/null
/usr/bin/python3 "$root/test/e2e/gen_contract_cases.py" "$work/contract-cases" > /dev/null
/usr/bin/python3 "$root/test/e2e/gen_real_patterns.py" "$work/real-patterns" > /dev/null
/usr/bin/python3 "$root/test/e2e/gen_constant_folds.py" "$work/constant-folds" > /dev/null
/usr/bin/python3 "$root/test/e2e/gen_tiling_edges.py" "$work/tiling-edges" > /dev/null
for suite in dynamic_quant control_flow signal attention indexed sums gridsample more_ops; do
  /usr/bin/python3 "$root/test/e2e/gen_$suite.py" "$work/${suite//_/-}" > /dev/null
done
# The whole verification grid: every reachable case of the declared spaces.
/usr/bin/python3 "$root/test/grid/gen_grid.py" --npuc "$build/bin/npuc" --jobs "$(nproc)" "$work/grid"
dirs=("$data/node" "$data/simple" "$data/pytorch-converted" "$data/pytorch-operator"
      "$root/examples" "$work/qdq-suite" "$work/importer-gaps" "$work/encoder-block" "$work/opsets-23-24" "$work/opsets-25-28" "$work/recurrent" "$work/fp16" "$work/contract-cases"
      "$work/real-patterns" "$work/constant-folds" "$work/tiling-edges" "$work/dynamic-quant"
      "$work/control-flow" "$work/signal" "$work/attention" "$work/indexed" "$work/sums"
      "$work/gridsample" "$work/more-ops" "$work/grid")
if [ -d "$root/../shared/models" ]; then
  dirs+=("$(cd "$root/../shared/models" && pwd)")
fi
# Non-passing tests are evidence too (lowered, reached), so the run's own exit
# status does not stop the update; the table being rewritten cannot gate the
# run that writes it, hence --allow-unverified.
"$build/bin/npuc-conformance" "${dirs[@]}" --target npu-v1,npu-v1-tiny -j "$(nproc)" \
  --allow-unverified --tolerances "$root/test/conformance/tolerances" \
  --json "$build/conformance.json" --write-evidence "$root/lib/Support/OpEvidence.tsv" \
  "$@" > "$build/conformance.log" || true
tail -4 "$build/conformance.log"
ninja -C "$build" npuc
"$build/bin/npuc" --list-ops > "$root/docs/supported-ops.md"
echo "updated lib/Support/OpEvidence.tsv and docs/supported-ops.md"
