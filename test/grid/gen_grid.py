#!/usr/bin/python3
"""The verification grid: for every reachable lowering case (`npuc
--list-cases`, from the case spaces the selectors declare) a small ONNX model
whose node under test lands in exactly that case, with seeded inputs and the
reference outputs of scripts/onnx_reference (numpy implementations of the
ONNX definitions, checked against ONNX's node tests by
scripts/layer_check_selftest.py). npuc-conformance then compiles and runs each
model in npu-sim on every target the case is reachable on; check_grid.py
says whether each one passed and reached its case.

usage: gen_grid.py [--npuc NPUC] [--sample FRACTION] [--seed N] [--ops REGEX]
                   [--jobs N] OUT

OUT receives one test directory per case (OUT/<op>/<digest>: model.onnx,
test_data_set_0, tolerance.txt) and manifest.json: every case with its
directory and targets, and the cases no model could be built for, with why.
--sample takes that fraction of each op's cases (at least one), chosen with
the seed: the same sample every run.
"""
import argparse
import hashlib
import json
import multiprocessing
import os
import random
import re
import subprocess
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from grid_net import Net, Unbuildable  # noqa: E402
import build_elementwise  # noqa: E402
import build_matrix  # noqa: E402
import build_reduce  # noqa: E402
import build_tensor  # noqa: E402

BUILDERS = {}
for module in (build_elementwise, build_reduce, build_tensor, build_matrix):
    BUILDERS.update(module.BUILDERS)


def case_dir(key):
    op = key[: key.index("(")].split(".")[-1]
    return os.path.join(op, hashlib.sha256(key.encode()).hexdigest()[:12])


def build_one(job):
    """Builds one case's test directory; returns its manifest entry."""
    out, case = job
    key = case["key"]
    entry = {"key": key, "targets": case["targets"], "dir": case_dir(key)}
    builder = BUILDERS.get(case["op"])
    if builder is None:
        entry["unbuildable"] = "no grid builder for %s" % case["op"]
        return entry
    net = Net(key)
    try:
        builder(case, net)
        net.save(os.path.join(out, entry["dir"]))
    except Unbuildable as e:
        entry["unbuildable"] = str(e)
    except Exception:  # a generator bug: reported, never a silent skip
        entry["error"] = traceback.format_exc(limit=4)
    return entry


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--npuc", default=os.path.join(os.path.dirname(__file__), "..", "..", "build", "bin", "npuc"))
    ap.add_argument("--sample", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=20261205)
    ap.add_argument("--ops", default="")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)

    listed = json.loads(subprocess.run([args.npuc, "--list-cases"], check=True, capture_output=True,
                                       text=True).stdout)
    cases = {}
    limited = set()
    for c in listed:
        if args.ops and not re.search(args.ops, c["op"]):
            continue
        if c["limitation"]:  # a declared limitation (CaseLimitation): nothing to verify yet
            limited.add(c["key"])
            continue
        entry = cases.setdefault(c["key"], dict(c, targets=[]))
        entry["targets"].append(c["target"])
    by_op = {}
    for key in sorted(cases):
        by_op.setdefault(cases[key]["op"], []).append(key)
    chosen = []
    rng = random.Random(args.seed)
    for op in sorted(by_op):
        keys = by_op[op]
        n = len(keys) if args.sample >= 1 else max(1, int(round(args.sample * len(keys))))
        chosen += sorted(rng.sample(keys, n))
    os.makedirs(args.out, exist_ok=True)
    jobs = [(args.out, cases[k]) for k in chosen]
    with multiprocessing.Pool(args.jobs) as pool:
        entries = pool.map(build_one, jobs, chunksize=8)
    built = [e for e in entries if "unbuildable" not in e and "error" not in e]
    manifest = {"reachable": len(cases), "limited": len(limited), "sampled": len(chosen), "sample": args.sample, "seed": args.seed,
                "cases": built, "unbuildable": [e for e in entries if "unbuildable" in e],
                "errors": [e for e in entries if "error" in e]}
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    print("gen_grid: %d reachable cases (and %d declared limitations), %d sampled, %d built, "
          "%d unbuildable, %d generator errors"
          % (len(cases), len(limited), len(chosen), len(built), len(manifest["unbuildable"]),
             len(manifest["errors"])))
    for e in manifest["errors"]:
        print("gen_grid: error in %s:\n%s" % (e["key"], e["error"]), file=sys.stderr)
    return 1 if manifest["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
