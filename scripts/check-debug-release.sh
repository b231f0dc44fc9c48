#!/usr/bin/env bash
# Contract D1: no required work inside assertions. Builds npuc in Debug
# ($DEBUG_BUILD_DIR, default build-debug/: -O0, assertions on, NDEBUG off)
# beside the Release tree ($BUILD_DIR, default build/), compiles every model of
# ../shared/models (when present) and examples/ with both on both targets
# (npuc-zoo, no cache) and requires byte-identical model files, and the same
# diagnostic code where a model does not compile.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
release=$(realpath -m "${BUILD_DIR:-$root/build}")
debug=$(realpath -m "${DEBUG_BUILD_DIR:-$root/build-debug}")
start=$(date +%s)
BUILD_DIR=$debug BUILD_TYPE=Debug "$root/scripts/build.sh" > "$debug.build.log" 2>&1 ||
  { tail -20 "$debug.build.log"; echo "check-debug-release: the Debug build failed" >&2; exit 1; }
"$debug/bin/npuc" --version | grep -q ', Debug)$' || { echo "check-debug-release: $debug is not a Debug build" >&2; exit 1; }
grep -q -- '-DNDEBUG' "$debug/build.ninja" && { echo "check-debug-release: the Debug build defines NDEBUG" >&2; exit 1; }
inputs=("$root/examples")
[ -d "$root/../shared/models" ] && inputs+=("$(cd "$root/../shared/models" && pwd)")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for target in npu-v1 npu-v1-tiny; do
  for kind in release debug; do
    dir=$release; [ $kind = debug ] && dir=$debug
    "$release/bin/npuc-zoo" "${inputs[@]}" -o "$work/$kind-$target" --no-cache -j "$(nproc)" --no-progress \
      --npuc "$dir/bin/npuc" --json "$work/$kind-$target.json" -- --target "$target" 2> "$work/$kind-$target.log" || true
  done
done
/usr/bin/python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
bad = 0
for target in ("npu-v1", "npu-v1-tiny"):
    runs = {k: {m["name"]: m for m in json.load(open(os.path.join(work, "%s-%s.json" % (k, target))))["models"]}
            for k in ("release", "debug")}
    for name in sorted(runs["release"]):
        r, d = runs["release"][name], runs["debug"].get(name)
        what = lambda m: m["sha256"] if m["status"] == "ok" else "failed " + (m["diagnostics"][0]["code"] if m["diagnostics"] else m.get("failure", ""))
        if d is None or what(r) != what(d):
            bad += 1
            print("check-debug-release: %s on %s: Release %s, Debug %s" % (name, target, what(r), what(d) if d else "missing"))
    print("check-debug-release: %s: %d models, %d compiled, the same bytes in Release and Debug%s" % (
        target, len(runs["release"]), sum(m["status"] == "ok" for m in runs["release"].values()),
        "" if not bad else " EXCEPT the above"))
sys.exit(1 if bad else 0)
PY
echo "check-debug-release: PASS ($(( $(date +%s) - start )) s)"
