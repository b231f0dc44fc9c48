#!/usr/bin/env python3
"""Benchmark: a QDQ int8 matmul [M x K] x [K x N] compiled by npuc and run by
npu-sim, against its geometry bound (docs/target.md "Timing"):
ceil(K/A) * ceil(N/A) * max(M, A) MATRIX cycles, and the least GM traffic
(A, B and the result once) at the GM bandwidth. Prints the numbers and the
largest difference from a numpy evaluation of the ONNX definition (in
quantization steps). A measurement, not a test.

usage: benchmarks/matmul.py [M K N] [--target npu-v1] [--build build]"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("dims", nargs="*", type=int, default=[512, 2048, 512])
ap.add_argument("--target", default="npu-v1")
ap.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
args = ap.parse_args()
M, K, N = args.dims
# The target description as npuc prints it (one source of the parameters).
listing = subprocess.run([os.path.join(args.build, "bin", "npuc"), "--list-targets"], check=True,
                         capture_output=True, text=True).stdout.split("\n")
params = {}
for i, line in enumerate(listing):
    if line.startswith(args.target + " "):
        for entry in listing[i + 1:]:
            if not entry.startswith("  "):
                break
            key, value = (x.strip() for x in entry.split("="))
            params[key] = int(value)
side, bandwidth = params["MatrixSideInt8"], params["GMBytesPerCycle"]

bin_ = os.path.join(args.build, "bin")
# The model, its input and the ONNX definition's result: the generator
# test/Sim/overlap.test uses (numpy, independent of npuc).
gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "Sim", "Inputs",
                   "gen_qdq_matmul.py")
with tempfile.TemporaryDirectory() as tmp:
    base = os.path.join(tmp, "mm")
    subprocess.run([sys.executable, gen, base, str(M), str(K), str(N)], check=True)
    subprocess.run([os.path.join(bin_, "npuc"), base + ".onnx", "-o", base + ".bin",
                    "--target", args.target, "--allow-unverified"], check=True)
    stats = subprocess.run([os.path.join(bin_, "npu-sim"), base + ".bin", "--input",
                            "x=" + base + ".x.npy", "-o", os.path.join(tmp, "out"), "--stats"],
                           check=True, capture_output=True, text=True).stdout
    got = np.load(os.path.join(tmp, "out", "output_0.npy")).astype(np.int64)
    want = np.load(base + ".y.npy").astype(np.int64)
cycles = int(re.search(r"cycles: (\d+)", stats).group(1))
busy = dict(re.findall(r"engine (\w+): \d+ instructions, busy (\d+) cycles", stats))
geometry = -(-K // side) * -(-N // side) * max(M, side)
traffic = -(-(M * K + K * N + M * N) // bandwidth)
bound = max(geometry, traffic)
print(f"{M}x{K}x{N} int8 on {args.target}: {cycles} cycles; bound {bound} "
      f"(MATRIX geometry {geometry}, GM traffic {traffic}); {cycles / bound:.3f}x the bound")
print("busy: " + ", ".join(f"{e} {busy[e]}" for e in ("DMA_IN", "DMA_OUT", "MATRIX", "VECTOR")))
print(f"largest difference from the ONNX definition: {int(np.abs(got - want).max())} steps "
      "(the integer requantization rounds half away from zero, QuantizeLinear half to even)")
