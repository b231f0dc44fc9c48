#!/usr/bin/python3
"""Benchmark: the float models of ../shared/models compiled with
npuc --float fp32 and --float fp16, run by npu-sim, against their fp32
reference outputs (test_data_set_0, from onnxruntime). A measurement, not a
test: per model and target, the cycles of both, and fp16's error on every
output: the largest absolute difference, that relative to the output's largest
magnitude, and how many elements are not finite.

usage: fp16.py [--bin DIR] [--models DIR] [--target T] [--write docs/performance.md] [MODEL...]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import zoo  # noqa: E402  (the model inputs and shapes, as zoo.py runs them)


def quantized(model_dir):
    ops = {n.op_type for n in onnx.load(os.path.join(model_dir, "model.onnx")).graph.node}
    return any(o in ops for o in ("QuantizeLinear", "DequantizeLinear")) or any(o.startswith("QLinear") for o in ops)


def run(bindir, model_dir, target, float_type, g, tmp):
    out = os.path.join(tmp, float_type + ".bin")
    cmd = [os.path.join(bindir, "npuc"), os.path.join(model_dir, "model.onnx"), "--target", target,
           "-o", out, "--allow-unverified", "--float", float_type] + g.shapes_arg
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        return None, "not compiled"
    odir = os.path.join(tmp, float_type)
    sim = [os.path.join(bindir, "npu-sim"), out, "-o", odir, "--stats"]
    for arg in g.sim_inputs:
        sim += ["-i", arg]
    s = subprocess.run(sim, capture_output=True, text=True)
    if s.returncode:
        return None, "npu-sim failed"
    stats = dict(l.split(": ", 1) for l in s.stdout.splitlines() if ": " in l)
    outs = []
    k = 0
    while os.path.exists(os.path.join(odir, "output_%d.npy" % k)):
        outs.append(np.load(os.path.join(odir, "output_%d.npy" % k)))
        k += 1
    return (int(stats["cycles"].split()[0]), outs), "ok"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(zoo.ROOT, "build", "bin"))
    ap.add_argument("--models", default=os.path.join(zoo.ROOT, "..", "shared", "models"))
    ap.add_argument("--target", action="append")
    ap.add_argument("--write")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    names = args.names or sorted(d for d in os.listdir(args.models)
                                 if os.path.isfile(os.path.join(args.models, d, "model.onnx"))
                                 and not quantized(os.path.join(args.models, d)))
    lines = ["| model | target | fp32 cycles | fp16 cycles | fp32 / fp16 | output | largest abs error | "
             "relative to max abs | non-finite |", "|---|---|---|---|---|---|---|---|---|"]
    for name in names:
        d = os.path.join(args.models, name)
        g = zoo.Graph(d)
        refs = []
        k = 0
        while os.path.exists(os.path.join(d, "test_data_set_0", "output_%d.pb" % k)):
            refs.append(zoo.load_pb(os.path.join(d, "test_data_set_0", "output_%d.pb" % k)))
            k += 1
        for target in args.target or ["npu-v1", "npu-v1-tiny"]:
            with tempfile.TemporaryDirectory() as tmp:
                r32, s32 = run(args.bin, d, target, "fp32", g, tmp)
                r16, s16 = run(args.bin, d, target, "fp16", g, tmp)
            if not r32 or not r16:
                lines.append("| %s | %s | %s | %s | | | | | |" % (name, target, s32, s16))
                continue
            for k, (got, want) in enumerate(zip(r16[1], refs)):
                got, want = got.astype(np.float64), want.astype(np.float64)
                finite = np.isfinite(got)
                err = float(np.abs(got - want)[finite].max()) if finite.any() else float("nan")
                scale = float(np.abs(want).max())
                lines.append("| %s | %s | %s | %s | %.2f | %d | %.3g | %.3g | %d |" % (
                    name, target, format(r32[0], ","), format(r16[0], ","), r32[0] / r16[0], k, err,
                    err / scale if scale else float("nan"), int((~finite).sum())))
            print("%-24s %-12s done" % (name, target), file=sys.stderr, flush=True)
    text = "\n".join(lines)
    print(text)
    if args.write:
        doc = open(args.write).read()
        begin, end = "<!-- fp16.py table begin -->", "<!-- fp16.py table end -->"
        if begin not in doc or end not in doc:
            sys.exit("%s has no %s ... %s markers" % (args.write, begin, end))
        head, rest = doc.split(begin, 1)
        _, tail = rest.split(end, 1)
        open(args.write, "w").write(head + begin + "\n" + text + "\n" + end + tail)


if __name__ == "__main__":
    main()
