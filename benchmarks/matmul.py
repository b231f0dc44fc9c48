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
import onnx
from onnx import TensorProto, helper as h, numpy_helper

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

rng = np.random.default_rng(7)
xq = rng.integers(-128, 128, (M, K)).astype(np.int8)
wq = rng.integers(-127, 128, (K, N)).astype(np.int8)
sx, sw, sy = np.float32(0.02), np.float32(0.003), np.float32(2.0)
zx, zy = np.int8(3), np.int8(-2)
inits = [numpy_helper.from_array(v, n) for n, v in [
    ("sx", sx), ("zx", zx), ("w", wq), ("sw", sw), ("zw", np.int8(0)), ("sy", sy), ("zy", zy)]]
nodes = [h.make_node("DequantizeLinear", ["x", "sx", "zx"], ["dx"]),
         h.make_node("DequantizeLinear", ["w", "sw", "zw"], ["dw"]),
         h.make_node("MatMul", ["dx", "dw"], ["mm"]),
         h.make_node("QuantizeLinear", ["mm", "sy", "zy"], ["y"])]
g = h.make_graph(nodes, "matmul", [h.make_tensor_value_info("x", TensorProto.INT8, [M, K])],
                 [h.make_tensor_value_info("y", TensorProto.INT8, [M, N])], initializer=inits)
model = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
model.ir_version = 8

bin_ = os.path.join(args.build, "bin")
with tempfile.TemporaryDirectory() as tmp:
    onnx.save(model, os.path.join(tmp, "mm.onnx"))
    np.save(os.path.join(tmp, "x.npy"), xq)
    subprocess.run([os.path.join(bin_, "npuc"), os.path.join(tmp, "mm.onnx"), "-o", os.path.join(tmp, "mm.bin"),
                    "--target", args.target, "--allow-unverified"], check=True)
    stats = subprocess.run([os.path.join(bin_, "npu-sim"), os.path.join(tmp, "mm.bin"), "--input",
                            "x=" + os.path.join(tmp, "x.npy"), "-o", os.path.join(tmp, "out"), "--stats"],
                           check=True, capture_output=True, text=True).stdout
    got = np.load(os.path.join(tmp, "out", "output_0.npy")).astype(np.int64)
ref = (xq.astype(np.float64) - float(zx)) * float(sx) @ (wq.astype(np.float64) * float(sw))
want = np.clip(np.rint(ref.astype(np.float32) / sy) + float(zy), -128, 127).astype(np.int64)
cycles = int(re.search(r"cycles: (\d+)", stats).group(1))
busy = dict(re.findall(r"engine (\w+): \d+ instructions, busy (\d+) cycles", stats))
geometry = -(-K // side) * -(-N // side) * max(M, side)
traffic = -(-(M * K + K * N + M * N) // bandwidth)
bound = max(geometry, traffic)
print(f"{M}x{K}x{N} int8 on {args.target}: {cycles} cycles; bound {bound} "
      f"(MATRIX geometry {geometry}, GM traffic {traffic}); {cycles / bound:.3f}x the bound")
print("busy: " + ", ".join(f"{e} {busy[e]}" for e in ("DMA_IN", "DMA_OUT", "MATRIX", "VECTOR")))
print(f"largest difference from the ONNX definition: {int(np.abs(got - want).max())} steps")
