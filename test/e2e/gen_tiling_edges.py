#!/usr/bin/python3
"""Generates the tiling-edges suite: matrix products whose tiles select-tiling
makes exactly as large as the accumulator memory holds (ACC full, on both
targets: test/Conversion/QKToEmit/tiling-edges.test checks the tiles
chosen), with and without remainder tiles, in f32 and in QDQ int8
(requantized in the MATRIX output stage, ties landing half away from zero as
docs/numerics.md says). A tile one row larger
than ACC holds runs out of it; one row smaller, or an extent off by one in
the remainder tile, writes the wrong results. Expected outputs from numpy.

usage: gen_tiling_edges.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import helper as h

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_builder import save_reference_test  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(20261205)


def save(name, nodes, feeds, inits, output, tolerance=None, expected=None):
    save_reference_test(out, name, nodes, feeds, [output], inits, 13, tolerance,
                        None if expected is None else [expected])


def f32_product(name, m, k, n):
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    # f32 accumulation in another order than numpy's: a few roundings of the
    # sum of |a| |b|
    bound = float((np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))).max())
    save(name, [h.make_node("MatMul", ["a", "b"], ["y"])], {"a": a}, [("b", b)], "y",
         "atol=%.9g" % (1e-5 + 2.0 ** -20 * bound))


def int8_product(name, m, k, n):
    """Power-of-two scales: every step exact, ties rounded half away from
    zero by the output stage; the reference rounds so."""
    xs, ws, ys = np.float32(2.0 ** -5), np.float32(2.0 ** -6), np.float32(2.0 ** -5)
    xq = rng.integers(-128, 128, (m, k)).astype(np.int8)
    wq = rng.integers(-128, 128, (k, n)).astype(np.int8)
    acc = (xq.astype(np.int64) - 3) @ wq.astype(np.int64)
    v = acc.astype(np.float64) * float(xs) * float(ws) / float(ys)
    q = np.sign(v) * np.floor(np.abs(v) + 0.5) - 4
    expected = np.clip(q, -128, 127).astype(np.int8)
    nodes = [h.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["x"]),
             h.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["w"]),
             h.make_node("MatMul", ["x", "w"], ["p"]), h.make_node("QuantizeLinear", ["p", "ys", "yz"], ["y"])]
    save(name, nodes, {"xq": xq}, [("xs", xs), ("xz", np.int8(3)), ("wq", wq), ("ws", ws), ("wz", np.int8(0)),
                                   ("ys", ys), ("yz", np.int8(-4))], "y", "exact=1", expected)


f32_product("acc_full_f32", 4096, 16, 1024)
f32_product("acc_remainder_f32", 2047, 32, 509)
int8_product("acc_full_int8", 2048, 32, 512)
int8_product("acc_remainder_int8", 2047, 32, 509)
