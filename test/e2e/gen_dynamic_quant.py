#!/usr/bin/python3
"""Generates dynamically quantized networks, as onnxruntime's quantize_dynamic
writes them, each with test_data_set_0 (input_K.pb, output_K.pb):

- dq_transformer_layer: a transformer feed-forward layer: each MatMul's input
  through DynamicQuantizeLinear, MatMulInteger with the run-time zero point and
  int8 weights (per-column scales and zero points on the second), Cast, the
  product of the two scales, the float bias, Relu, a residual Add;
- dq_cnn: two convolutions on uint8 activations (DynamicQuantizeLinear then
  ConvInteger with the run-time x zero point), the first padded with uint8
  weights whose per-channel zero points differ, the second strided with one
  weight zero point; each Cast, scaled, biased and Relu'd, then
  GlobalAveragePool;
- dq_attention_scores: Q x K^T with both operands dynamically quantized
  (MatMulInteger with two run-time zero points), exact int32 scores out;
- dq_runtime_qdq: QuantizeLinear to int8 with a scale computed from the data
  (max |x| / 127), DequantizeLinear of DynamicQuantizeLinear's outputs with
  its run-time scale and zero point, and DynamicQuantizeLinear's own outputs;
- dq_rank0_and_zero: DynamicQuantizeLinear of an all-positive tensor (the
  range widened to include 0) of rank 1.

The expected outputs are ONNX's definitions in numpy (float32 arithmetic for
the quantization, exact integer products), independent of npuc. Integer
outputs must match exactly (tolerance.txt exact=1).

usage: gen_dynamic_quant.py OUTDIR
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
rng = np.random.default_rng(20261207)
vi = onnx_builder.value_info
f32 = np.float32


def dql(x):
    """DynamicQuantizeLinear (ONNX): uint8 data, f32 scale, uint8 zero point."""
    x = x.astype(f32)
    lo, hi = min(f32(0), x.min()), max(f32(0), x.max())
    scale = f32((hi - lo) / f32(255))
    zp = np.rint(np.clip(f32(0) - lo / scale, 0, 255)).astype(np.uint8)
    y = np.clip(np.rint(x / scale) + f32(zp), 0, 255).astype(np.uint8)
    return y, np.array(scale, f32), np.array(zp, np.uint8)


def matmul_integer(a, b, az, bz):
    return ((a.astype(np.int64) - np.int64(az)) @ (b.astype(np.int64) - bz.astype(np.int64))).astype(np.int32)


def conv_integer(x, w, xz, wz, stride, pads):
    xs = x.astype(np.float64) - float(xz)
    ws = w.astype(np.float64) - wz.astype(np.float64).reshape(-1, 1, 1, 1)
    return np.rint(onnx_builder.conv2d(xs, ws, np.zeros(w.shape[0]), stride, pads, 1).astype(np.float64)).astype(np.int32)


def save(name, nodes, inputs, outputs, inits, feeds, expected, exact=False):
    onnx_builder.save_graph(name, nodes, inputs, outputs, inits, feeds, expected, 13, ir_version=8)
    if exact:
        with open(os.path.join(out, name, "tolerance.txt"), "w") as f:
            f.write("exact=1\n")


def init(name, a):
    return nh.from_array(np.asarray(a), name)


def dyn_matmul(prefix, x, w_name, ws_name, wz_name):
    """onnxruntime's quantize_dynamic MatMul: nodes and the f32 output name."""
    p = prefix
    return [h.make_node("DynamicQuantizeLinear", [x], [p + "_q", p + "_s", p + "_z"], name=p + "_dql"),
            h.make_node("MatMulInteger", [p + "_q", w_name, p + "_z", wz_name], [p + "_i"], name=p + "_mmi"),
            h.make_node("Cast", [p + "_i"], [p + "_f"], name=p + "_cast", to=T.FLOAT),
            h.make_node("Mul", [p + "_s", ws_name], [p + "_ss"], name=p + "_scales"),
            h.make_node("Mul", [p + "_f", p + "_ss"], [p + "_y"], name=p + "_scale")], p + "_y"


def dyn_matmul_ref(x, w, ws, wz):
    q, s, z = dql(x)
    return matmul_integer(q, w, z, wz).astype(f32) * (s * ws).astype(f32)


# A transformer feed-forward layer (d 32 -> 64 -> 32) on 8 tokens.
D, F, S = 32, 64, 8
x = rng.normal(0, 1, (1, S, D)).astype(f32)
w1 = rng.integers(-127, 128, (D, F), dtype=np.int8)
w1s, w1z = f32(0.004), np.int8(0)
b1 = rng.normal(0, 0.1, F).astype(f32)
w2 = rng.integers(-127, 128, (F, D), dtype=np.int8)
w2s = rng.uniform(0.001, 0.003, D).astype(f32)
w2z = rng.integers(-3, 4, D).astype(np.int8)
b2 = rng.normal(0, 0.1, D).astype(f32)
n1, y1 = dyn_matmul("fc1", "x", "w1", "w1s", "w1z")
n2, y2 = dyn_matmul("fc2", "r1", "w2", "w2s", "w2z")
nodes = n1 + [h.make_node("Add", [y1, "b1"], ["a1"], name="bias1"),
              h.make_node("Relu", ["a1"], ["r1"], name="relu")] + n2 + [
    h.make_node("Add", [y2, "b2"], ["a2"], name="bias2"),
    h.make_node("Add", ["a2", "x"], ["y"], name="residual")]
r1 = np.maximum(dyn_matmul_ref(x, w1, w1s, w1z) + b1, 0)
ref = dyn_matmul_ref(r1, w2, w2s, w2z) + b2 + x
save("dq_transformer_layer", nodes, [vi("x", [1, S, D])], [vi("y", [1, S, D])],
     [init("w1", w1), init("w1s", w1s), init("w1z", w1z), init("b1", b1),
      init("w2", w2), init("w2s", w2s), init("w2z", w2z), init("b2", b2)],
     [x], [ref.astype(f32)])

# A CNN: conv 3 -> 8 (3x3, pads 1) and 8 -> 16 (3x3, stride 2, no pads) on
# dynamically quantized uint8 activations with uint8 weights.
x = rng.uniform(-1, 2, (1, 3, 12, 12)).astype(f32)
cw1 = rng.integers(0, 256, (8, 3, 3, 3), dtype=np.uint8)
cw1z = rng.integers(120, 136, 8).astype(np.uint8)
cw1s, cb1 = f32(0.01), rng.normal(0, 0.1, (8, 1, 1)).astype(f32)
cw2 = rng.integers(0, 256, (16, 8, 3, 3), dtype=np.uint8)
cw2z = np.uint8(128)
cw2s, cb2 = f32(0.002), rng.normal(0, 0.1, (16, 1, 1)).astype(f32)


def dyn_conv(p, xin, w, ws, wz, b, **attrs):
    return [h.make_node("DynamicQuantizeLinear", [xin], [p + "_q", p + "_s", p + "_z"], name=p + "_dql"),
            h.make_node("ConvInteger", [p + "_q", w, p + "_z", wz], [p + "_i"], name=p + "_conv", **attrs),
            h.make_node("Cast", [p + "_i"], [p + "_f"], name=p + "_cast", to=T.FLOAT),
            h.make_node("Mul", [p + "_s", ws], [p + "_ss"], name=p + "_scales"),
            h.make_node("Mul", [p + "_f", p + "_ss"], [p + "_m"], name=p + "_scale"),
            h.make_node("Add", [p + "_m", b], [p + "_a"], name=p + "_bias"),
            h.make_node("Relu", [p + "_a"], [p + "_y"], name=p + "_relu")]


def dyn_conv_ref(xin, w, ws, wz, b, stride, pads):
    q, s, z = dql(xin)
    acc = conv_integer(q, w, z, np.broadcast_to(np.asarray(wz), (w.shape[0],)), stride, pads)
    return np.maximum(acc.astype(f32) * (s * ws).astype(f32) + b, 0).astype(f32)


nodes = dyn_conv("c1", "x", "cw1", "cw1s", "cw1z", "cb1", pads=[1, 1, 1, 1]) + \
    dyn_conv("c2", "c1_y", "cw2", "cw2s", "cw2z", "cb2", strides=[2, 2]) + \
    [h.make_node("GlobalAveragePool", ["c2_y"], ["y"], name="gap")]
c1 = dyn_conv_ref(x, cw1, cw1s, cw1z, cb1, 1, [1, 1, 1, 1])
c2 = dyn_conv_ref(c1, cw2, cw2s, cw2z, cb2, 2, [0, 0, 0, 0])
save("dq_cnn", nodes, [vi("x", [1, 3, 12, 12])], [vi("y", [1, 16, 1, 1])],
     [init("cw1", cw1), init("cw1z", cw1z), init("cw1s", cw1s), init("cb1", cb1),
      init("cw2", cw2), init("cw2z", cw2z), init("cw2s", cw2s), init("cb2", cb2)],
     [x], [c2.mean(axis=(2, 3), keepdims=True).astype(f32)])

# Attention scores Q x K^T, both dynamically quantized: two run-time zero
# points; the int32 scores are an output and must match exactly.
q_in = rng.normal(0, 1, (2, 6, 16)).astype(f32)
k_in = rng.normal(0.5, 1, (2, 16, 6)).astype(f32)
qq, _, qz = dql(q_in)
kq, _, kz = dql(k_in)
save("dq_attention_scores",
     [h.make_node("DynamicQuantizeLinear", ["q"], ["qq", "qs", "qz"], name="dql_q"),
      h.make_node("DynamicQuantizeLinear", ["k"], ["kq", "ks", "kz"], name="dql_k"),
      h.make_node("MatMulInteger", ["qq", "kq", "qz", "kz"], ["scores"], name="scores")],
     [vi("q", [2, 6, 16]), vi("k", [2, 16, 6])], [vi("scores", [2, 6, 6], T.INT32)], [],
     [q_in, k_in], [matmul_integer(qq, kq, qz, kz)], exact=True)

# QuantizeLinear with a scale computed from the data; DequantizeLinear of
# DynamicQuantizeLinear's outputs; DynamicQuantizeLinear's outputs.
x = rng.normal(0, 2, (4, 20)).astype(f32)
amax = np.abs(x).max().astype(f32)
rt_scale = f32(amax / f32(127))
q8 = np.clip(np.rint(x / rt_scale), -128, 127).astype(np.int8)
dy, ds, dz = dql(x)
save("dq_runtime_qdq",
     [h.make_node("Abs", ["x"], ["ax"], name="abs"),
      h.make_node("ReduceMax", ["ax"], ["amax"], name="amax", keepdims=0),
      h.make_node("Div", ["amax", "c127"], ["s"], name="scale"),
      h.make_node("QuantizeLinear", ["x", "s", "z8"], ["q8"], name="quantize"),
      h.make_node("DynamicQuantizeLinear", ["x"], ["y", "ys", "yz"], name="dql"),
      h.make_node("DequantizeLinear", ["y", "ys", "yz"], ["dq"], name="dequantize")],
     [vi("x", [4, 20])],
     [vi("q8", [4, 20], T.INT8), vi("y", [4, 20], T.UINT8), vi("ys", [], T.FLOAT), vi("yz", [], T.UINT8),
      vi("dq", [4, 20])],
     [init("c127", f32(127)), init("z8", np.int8(0))],
     [x], [q8, dy, ds, dz, ((dy.astype(f32) - f32(dz)) * ds).astype(f32)], exact=True)

# All positive data: the range is widened to include 0 (zero point 0).
x = rng.uniform(0.5, 3, (37,)).astype(f32)
dy, ds, dz = dql(x)
save("dq_rank0_and_zero",
     [h.make_node("DynamicQuantizeLinear", ["x"], ["y", "ys", "yz"], name="dql")],
     [vi("x", [37])], [vi("y", [37], T.UINT8), vi("ys", [], T.FLOAT), vi("yz", [], T.UINT8)], [],
     [x], [dy, ds, dz], exact=True)
