#!/usr/bin/python3
"""Generates f32 models that compile with npuc --float fp16 (their
tolerance.txt says float=fp16), each with test_data_set_0 and a tolerance
derived from fp16's rounding, against the fp32 reference:

- fp16_mlp: Gemm (transB, bias) -> Relu -> MatMul -> Add, [8, 64] -> [8, 32];
- fp16_attention: two heads of scores = Q K^T / sqrt(d), Softmax, scores x V
  (MatMuls of two activations, batched over heads);
- fp16_gemm_addend: Gemm with alpha, beta and a full C (C stays f32).

The reference is numpy in float64 from the f32 inputs and weights (the fp32
model's exact values), rounded once to float32. fp16 compute rounds each
matrix operand to fp16 (relative error at most 2^-11) and accumulates in
fp32, so each output differs from the reference by at most about 2^-10 times
the sum of |a| |b| over its products: the tolerance is 2^-9 times the
largest such sum of the output (atol), plus rtol 2^-9 (a Softmax between two
products carries the first one's error through exp).

usage: gen_fp16.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_builder  # noqa: E402

if len(sys.argv) != 2:
    sys.exit(__doc__.strip().splitlines()[-1])
out = sys.argv[1]
onnx_builder.set_output(out)
rng = np.random.default_rng(20261202)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def save(name, nodes, inputs, outputs, inits, feeds, expected, atol):
    g = h.make_graph(nodes, name, inputs, outputs, initializer=inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 8
    onnx_builder.save_unchecked(name, m, feeds, expected)
    with open(os.path.join(out, name, "tolerance.txt"), "w") as f:
        f.write("float=fp16 atol=%.9g rtol=%.9g\n" % (atol, 2.0 ** -9))


def bound(a, b):
    """The largest sum of |a| |b| over one output of a @ b."""
    return float((np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))).max())


vi = h.make_tensor_value_info

# fp16_mlp
x = f32(8, 64)
w1, b1 = f32(128, 64, scale=0.125), f32(128, scale=0.1)  # Gemm transB: [N, K]
w2, b2 = f32(128, 32, scale=0.125), f32(32, scale=0.1)
hid = np.maximum(x.astype(np.float64) @ w1.T.astype(np.float64) + b1, 0)
y = hid @ w2.astype(np.float64) + b2
# The hidden layer's error (<= 2^-10 of its bound) through |w2|, plus the
# second product's own 2^-10 of sum |hid| |w2|; twice that as the tolerance.
atol = 2.0 ** -9 * (bound(x, w1.T) * float(np.abs(w2).sum(0).max()) + bound(hid, w2))
save("fp16_mlp",
     [h.make_node("Gemm", ["x", "w1", "b1"], ["g"], transB=1),
      h.make_node("Relu", ["g"], ["r"]),
      h.make_node("MatMul", ["r", "w2"], ["m"]),
      h.make_node("Add", ["m", "b2"], ["y"])],
     [vi("x", T.FLOAT, [8, 64])], [vi("y", T.FLOAT, [8, 32])],
     [nh.from_array(w1, "w1"), nh.from_array(b1, "b1"), nh.from_array(w2, "w2"),
      nh.from_array(b2, "b2")],
     [x], [y.astype(np.float32)], atol)

# fp16_attention: [2 heads, 16 tokens, 8 dims]
q, k, v = f32(2, 16, 8), f32(2, 16, 8), f32(2, 16, 8)
kt = np.transpose(k, (0, 2, 1))
scores = (q.astype(np.float64) @ kt.astype(np.float64)) / np.sqrt(8.0)
e = np.exp(scores - scores.max(-1, keepdims=True))
p = e / e.sum(-1, keepdims=True)
att = p @ v.astype(np.float64)
# The scores' error (<= 2^-10 of their bound) moves each weight by about
# that relative amount; the second product adds its own 2^-10 of sum |p| |v|.
s_err = 2.0 ** -10 * max(bound(q[i], kt[i]) for i in range(2)) / np.sqrt(8.0)
atol = 4 * (s_err * float(np.abs(v).max()) + 2.0 ** -10 * float(np.abs(v).max()))
inv = np.array(1.0 / np.sqrt(8.0), np.float32)
save("fp16_attention",
     [h.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
      h.make_node("MatMul", ["q", "kt"], ["s0"]),
      h.make_node("Mul", ["s0", "inv"], ["s"]),
      h.make_node("Softmax", ["s"], ["p"], axis=-1),
      h.make_node("MatMul", ["p", "v"], ["y"])],
     [vi("q", T.FLOAT, [2, 16, 8]), vi("k", T.FLOAT, [2, 16, 8]), vi("v", T.FLOAT, [2, 16, 8])],
     [vi("y", T.FLOAT, [2, 16, 8])], [nh.from_array(inv.reshape(1), "inv")],
     [q, k, v], [att.astype(np.float32)], atol)

# fp16_gemm_addend: alpha * A B + beta * C, C a full [M, N] matrix kept f32
a, bm, cm = f32(16, 48), f32(48, 24, scale=0.25), f32(16, 24)
y = 0.5 * (a.astype(np.float64) @ bm.astype(np.float64)) + 2.0 * cm
save("fp16_gemm_addend",
     [h.make_node("Gemm", ["a", "b", "c"], ["y"], alpha=0.5, beta=2.0)],
     [vi("a", T.FLOAT, [16, 48]), vi("c", T.FLOAT, [16, 24])], [vi("y", T.FLOAT, [16, 24])],
     [nh.from_array(bm, "b")], [a, cm], [y.astype(np.float32)], 2.0 ** -9 * 0.5 * bound(a, bm))
