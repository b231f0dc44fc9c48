#!/usr/bin/python3
"""Writes the end-to-end cases of three contracts (ctest e2e-contract-cases),
each model with a numpy reference independent of npuc:

- N8, channel-affine: Mul and Add by per-channel constants after a
  convolution (folded into its weights and bias), on their own (one
  channel-affine pass), and by constants that are not per channel (left as
  two ops).
- D13, data movement on int8 and uint8 with zero points, on odd shapes:
  Gather by constant and by run-time indices (negative ones too), Slice with
  positive and negative steps, Transpose, DepthToSpace (DCR, CRD),
  SpaceToDepth, Concat of different scales and Pad, quantized (QDQ) and on
  plain integer tensors.
- D15, softmax of equal values: rows of one value (0, large, huge, very
  negative) along the last axis and along a middle one, Softmax and
  LogSoftmax: exactly 1/n and -log(n), never NaN.

Usage: gen_contract_cases.py OUTPUT_DIR"""
import os
import sys

import numpy as np
from onnx import TensorProto as TP
from onnx import helper as h

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_builder import Model, conv2d, dequant, quant, set_output  # noqa: E402

if len(sys.argv) != 2:
    sys.exit("usage: gen_contract_cases.py OUTPUT_DIR")
set_output(sys.argv[1])
F32, I8, U8, I64 = TP.FLOAT, TP.INT8, TP.UINT8, TP.INT64
rng = np.random.default_rng(13)


def vi(name, elem, shape):
    return h.make_tensor_value_info(name, elem, list(shape))


def save(md, name, inputs, outputs, opset=13):
    """inputs, outputs: lists of (name, onnx type, array)."""
    md.save(name, [vi(n, t, a.shape) for n, t, a in inputs], [vi(n, t, a.shape) for n, t, a in outputs],
            [a for _, _, a in inputs], [a for _, _, a in outputs], opset=opset)


# --- N8: channel-affine ----------------------------------------------------

C, H, W = 6, 7, 9
x = rng.uniform(-2, 2, (1, C, H, W)).astype(np.float32)
s = rng.uniform(0.5, 2, (C, 1, 1)).astype(np.float32)
b = rng.uniform(-1, 1, (C, 1, 1)).astype(np.float32)

# On its own: one graph.channel_affine, the two f32 roundings of Mul and Add.
md = Model()
md.node("Mul", ["x", md.init("s", s)], ["m"])
md.node("Add", [md.init("b", b), "m"], ["y"])
save(md, "n8_affine", [("x", F32, x)], [("y", F32, (x * s) + b)])

# A scalar scale, per-channel bias in [1, C, 1, 1].
md = Model()
md.node("Mul", [md.init("s", np.float32(0.75)), "x"], ["m"])
md.node("Add", ["m", md.init("b", b.reshape(1, C, 1, 1))], ["y"])
save(md, "n8_affine_scalar_scale", [("x", F32, x)], [("y", F32, (x * np.float32(0.75)) + b)])

# After a convolution: Mul and Add fold into its weights and bias, the Relu
# fuses. Small weights and K keep the f32 sums close to the float64 reference.
wt = rng.uniform(-0.5, 0.5, (C, 3, 3, 3)).astype(np.float32)
cb = rng.uniform(-0.5, 0.5, C).astype(np.float32)
xc = rng.uniform(-1, 1, (1, 3, H, W)).astype(np.float32)
md = Model()
md.node("Conv", ["x", md.init("w", wt), md.init("cb", cb)], ["c"], pads=[1, 1, 1, 1])
md.node("Mul", ["c", md.init("s", s)], ["m"])
md.node("Add", ["m", md.init("b", b)], ["a"])
md.node("Relu", ["a"], ["y"])
ref = np.maximum(conv2d(xc, wt, cb, 1, [1, 1, 1, 1], 1).astype(np.float64) * s + b, 0).astype(np.float32)
save(md, "n8_conv_mul_add", [("x", F32, xc)], [("y", F32, ref)])

# Not per channel (one value per column): two ops, as written.
sw = rng.uniform(0.5, 2, W).astype(np.float32)
md = Model()
md.node("Mul", ["x", md.init("s", sw)], ["m"])
md.node("Add", ["m", md.init("b", b)], ["y"])
save(md, "n8_not_per_channel", [("x", F32, x)], [("y", F32, (x * sw) + b)])

# --- D13: data movement on quantized and integer tensors --------------------

# A quantized table gathered by run-time int64 ids (negative ones too).
md = Model()
tab = rng.integers(-128, 128, (7, 5)).astype(np.int8)
md.node("Gather", [md.dq_const(tab, 0.03, -3), "ids"], ["g"], axis=0)
md.q("g", 0.03, -3, np.int8, "y")
ids = np.array([[0, -1, 3], [6, 2, -7]], np.int64)
save(md, "d13_qdq_gather_table", [("ids", I64, ids)],
     [("y", I8, quant(dequant(tab, 0.03, -3)[ids], 0.03, -3, np.int8))])

# A quantized activation gathered by constant indices along a middle axis.
md = Model()
x3 = rng.uniform(-2, 2, (3, 5, 7)).astype(np.float32)
md.node("Gather", [md.qdq("x", 0.02, 7, np.int8), md.init("gi", np.array([4, 0, -2, 3], np.int64))], ["g"], axis=1)
md.q("g", 0.02, 7, np.int8, "y")
save(md, "d13_qdq_gather_const", [("x", F32, x3)],
     [("y", I8, quant(dequant(quant(x3, 0.02, 7, np.int8), 0.02, 7)[:, [4, 0, -2, 3], :], 0.02, 7, np.int8))])

# Plain uint8 and int8 tensors: constant-index Gather (runs and repeats),
# a reversed strided Slice, Transpose.
xu = rng.integers(0, 256, (5, 3, 4)).astype(np.uint8)
md = Model()
md.node("Gather", ["x", md.init("gi", np.array([[4, 1], [1, 2]], np.int64))], ["y"], axis=0)
save(md, "d13_u8_gather_const", [("x", U8, xu)], [("y", U8, xu[[[4, 1], [1, 2]]])])
xi = rng.integers(-128, 128, (3, 7, 5)).astype(np.int8)
md = Model()
md.node("Slice", ["x", md.init("st", np.array([6, -1], np.int64)), md.init("en", np.array([-100, 0], np.int64)),
                  md.init("ax", np.array([1, 2], np.int64)), md.init("sp", np.array([-2, -1], np.int64))], ["s"])
md.node("Transpose", ["s"], ["y"], perm=[2, 0, 1])
save(md, "d13_i8_slice_reversed_transpose", [("x", I8, xi)],
     [("y", I8, xi[:, 6::-2, :0:-1].transpose(2, 0, 1))])

# Quantized Slice (positive and negative steps) then Transpose, odd shapes.
md = Model()
x4 = rng.uniform(-2, 2, (1, 8, 3, 5)).astype(np.float32)
dx = md.qdq("x", 0.02, -9, np.int8)
md.node("Slice", [dx, md.init("st", np.array([1, 4], np.int64)), md.init("en", np.array([8, -100], np.int64)),
                  md.init("ax", np.array([1, 3], np.int64)), md.init("sp", np.array([2, -2], np.int64))], ["s"])
md.node("Transpose", ["s"], ["t"], perm=[0, 1, 3, 2])
md.q("t", 0.02, -9, np.int8, "y")
r = dequant(quant(x4, 0.02, -9, np.int8), 0.02, -9)[:, 1:8:2, :, 4::-2].transpose(0, 1, 3, 2)
save(md, "d13_qdq_slice_transpose", [("x", F32, x4)], [("y", I8, quant(r, 0.02, -9, np.int8))])


def depth_to_space(a, bs, mode):
    n, c, hh, ww = a.shape
    if mode == "DCR":
        t = a.reshape(n, bs, bs, c // (bs * bs), hh, ww).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = a.reshape(n, c // (bs * bs), bs, bs, hh, ww).transpose(0, 1, 4, 2, 5, 3)
    return t.reshape(n, c // (bs * bs), hh * bs, ww * bs)


def space_to_depth(a, bs):
    n, c, hh, ww = a.shape
    t = a.reshape(n, c, hh // bs, bs, ww // bs, bs).transpose(0, 3, 5, 1, 2, 4)
    return t.reshape(n, c * bs * bs, hh // bs, ww // bs)


for mode in ("DCR", "CRD"):
    md = Model()
    xd = rng.uniform(-2, 2, (1, 8, 3, 5)).astype(np.float32)
    md.node("DepthToSpace", [md.qdq("x", 0.02, 11, np.uint8)], ["d"], blocksize=2, mode=mode)
    md.q("d", 0.02, 11, np.uint8, "y")
    r = depth_to_space(dequant(quant(xd, 0.02, 11, np.uint8), 0.02, 11), 2, mode)
    save(md, "d13_qdq_depth_to_space_" + mode.lower(), [("x", F32, xd)], [("y", U8, quant(r, 0.02, 11, np.uint8))])

md = Model()
xs = rng.uniform(-2, 2, (1, 3, 6, 9)).astype(np.float32)
md.node("SpaceToDepth", [md.qdq("x", 0.05, -17, np.int8)], ["d"], blocksize=3)
md.q("d", 0.05, -17, np.int8, "y")
r = space_to_depth(dequant(quant(xs, 0.05, -17, np.int8), 0.05, -17), 3)
save(md, "d13_qdq_space_to_depth", [("x", F32, xs)], [("y", I8, quant(r, 0.05, -17, np.int8))])

# int8 Concat along the last axis and Pad with a non-zero fill, plain int8.
a8 = rng.integers(-128, 128, (2, 3, 5)).astype(np.int8)
b8 = rng.integers(-128, 128, (2, 3, 2)).astype(np.int8)
md = Model()
md.node("Concat", ["a", "b"], ["c"], axis=2)
md.node("Pad", ["c", md.init("pads", np.array([0, 1, 2, 1, 0, 1], np.int64)), md.init("v", np.int8(-7))], ["y"])
ref = np.pad(np.concatenate([a8, b8], axis=2), ((0, 1), (1, 0), (2, 1)), constant_values=-7)
save(md, "d13_i8_concat_pad", [("a", I8, a8), ("b", I8, b8)], [("y", I8, ref)])

# --- D15: softmax of equal values --------------------------------------------

rows = np.array([[0.0] * 7, [88.75] * 7, [3.0e38] * 7, [-1.0e30] * 7, [-3.25] * 7], np.float32)
n = rows.shape[1]
for op, value in (("Softmax", 1.0 / n), ("LogSoftmax", -np.log(n))):
    md = Model()
    md.node(op, ["x"], ["y"], axis=-1)
    save(md, "d15_%s_equal_rows" % op.lower(), [("x", F32, rows)],
         [("y", F32, np.full(rows.shape, value, np.float32))])
    # Along a middle axis (the column layout): [5, 7, 3], equal along axis 1.
    cols = np.repeat(rows[:, :, None], 3, axis=2).copy()
    md = Model()
    md.node(op, ["x"], ["y"], axis=1)
    save(md, "d15_%s_equal_columns" % op.lower(), [("x", F32, cols)],
         [("y", F32, np.full(cols.shape, value, np.float32))])
