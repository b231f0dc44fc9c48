#!/usr/bin/python3
"""End-to-end check: compile ONNX test directories with npuc, execute the
model file in npu-sim, compare every output with the test data's expected
output (computed outside npuc: ONNX's reference or onnxruntime).

usage: run-e2e.py [--bin DIR] [--target T[,T...]] [--list FILE] [--stats] DIR...

Each DIR holds model.onnx and test_data_set_0/ (input_K.pb, output_K.pb).
Single-element inputs of multi-input models (QOperator scales and zero
points) are frozen with --bind-input; the other inputs are runtime inputs.
Graph inputs with a dynamic dimension get the data set's shape.

Comparison: integer outputs must be within one quantization step (|diff| <= 1);
float outputs within 1e-4 relative plus 1e-5 absolute. Prints per test and
target the largest difference and how many elements differ at all; exits 1
if any test fails, faults or does not compile.
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

args = sys.argv[1:]
bindir = "build/bin"
targets = ["npu-v1", "npu-v1-tiny"]
stats = False
dirs = []
while args:
    a = args.pop(0)
    if a == "--bin":
        bindir = args.pop(0)
    elif a == "--target":
        targets = args.pop(0).split(",")
    elif a == "--list":
        for line in open(args.pop(0)):
            line = line.split("#")[0].strip()
            if line:
                dirs.append(os.path.expandvars(line))
    elif a == "--stats":
        stats = True
    else:
        dirs.append(a)


def load_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def data_files(d, prefix):
    ds = os.path.join(d, "test_data_set_0")
    files = [f for f in os.listdir(ds) if re.match(prefix + r"_\d+\.pb$", f)]
    return [os.path.join(ds, f) for f in sorted(files, key=lambda f: int(f.split("_")[1][:-3]))]


def run(d, target, work):
    m = onnx.load(os.path.join(d, "model.onnx"), load_external_data=False)
    inits = {t.name for t in m.graph.initializer}
    inputs = [i for i in m.graph.input if i.name not in inits]
    in_files = data_files(d, "input")
    out_files = data_files(d, "output")
    cmd = [os.path.join(bindir, "npuc"), os.path.join(d, "model.onnx"), "--target", target,
           "-o", os.path.join(work, "model.bin")]
    runtime = []
    for vi, path in zip(inputs, in_files):
        arr = load_pb(path)
        dims = vi.type.tensor_type.shape.dim
        if len(inputs) > 1 and (arr.size == 1 or "scale" in vi.name or "zero_point" in vi.name):
            cmd += ["--bind-input", "%s=%s" % (vi.name, path)]
            continue
        if any(not x.HasField("dim_value") or x.dim_value <= 0 for x in dims):
            cmd += ["--input-shape", "%s=%s" % (vi.name, "x".join(str(s) for s in arr.shape))]
        runtime.append((vi.name, path))
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return "NO-COMPILE", (p.stderr.strip().splitlines() or ["?"])[0], None
    outdir = os.path.join(work, "out")
    sim = [os.path.join(bindir, "npu-sim"), os.path.join(work, "model.bin"), "-o", outdir]
    if stats:
        sim.append("--stats")
    for name, path in runtime:
        sim += ["-i", "%s=%s" % (name, path)]
    p = subprocess.run(sim, capture_output=True, text=True)
    if p.returncode != 0:
        return "FAULT", (p.stderr.strip().splitlines() or ["?"])[-1], None
    cycles = None
    for line in p.stdout.splitlines():
        if line.startswith("cycles"):
            cycles = line.split(":")[1].strip()
    worst, differing, total = 0.0, 0, 0
    for k, path in enumerate(out_files):
        want = load_pb(path)
        got = np.load(os.path.join(outdir, "output_%d.npy" % k))
        if got.shape != want.shape:
            return "FAIL", "output %d has shape %s, expected %s" % (k, got.shape, want.shape), None
        if np.issubdtype(want.dtype, np.floating):
            diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
            bad = diff > 1e-5 + 1e-4 * np.abs(want.astype(np.float64))
        else:
            diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
            bad = diff > 1
        worst = max(worst, float(diff.max()) if diff.size else 0.0)
        differing += int(np.count_nonzero(diff))
        total += diff.size
        if bad.any():
            idx = np.unravel_index(int(np.argmax(diff)), diff.shape)
            return "FAIL", "output %d: largest difference %g at %s (got %s, want %s)" % (
                k, float(diff[idx]), idx, got[idx], want[idx]), None
    detail = "max |diff| %g, %d of %d elements differ" % (worst, differing, total)
    if cycles:
        detail += ", %s cycles" % cycles
    return "PASS", detail, None


failed = 0
for d in dirs:
    name = os.path.basename(os.path.normpath(d))
    for target in targets:
        with tempfile.TemporaryDirectory() as work:
            try:
                status, detail, _ = run(d, target, work)
            except Exception as e:  # unreadable test data (sequences, optionals, ...)
                status, detail = "BAD-DATA", "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:200])
        print("%-40s %-12s %-10s %s" % (name, target, status, detail), flush=True)
        failed += status != "PASS"
print("%d passed, %d failed" % (len(dirs) * len(targets) - failed, failed))
sys.exit(1 if failed else 0)
