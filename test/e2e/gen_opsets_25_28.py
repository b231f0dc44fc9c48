#!/usr/bin/python3
"""Generates models in opsets 25 to 28, each written with what its opset
changed (ONNX's Changelog), with test_data_set_0 (input_K.pb, output_K.pb):

- views_qdq_op25: the ops opset 25 re-versioned for its 2-bit types
  (Unsqueeze, Transpose, Reshape, QuantizeLinear, DequantizeLinear, Cast,
  Flatten: their int8/float forms unchanged);
- matmul_softmax_op26: opset 26 (new BitCast and CumProd, no op re-versioned):
  MatMul and Softmax as in opset 24;
- range_f16_op27: Range-27 over float16 bounds, computed in float
  (stash_type 1) and rounded to float16 once, added to a float16 input;
- range_f32_op27: Range-27 of float bounds (stash_type has no effect);
- celu_swiglu_op28: Celu-28 (types widened) and SwiGLU (new in opset 28):
  Swish(A) * B with alpha = 1.25.

python3-onnx may predate these opsets, so the models are written without its
checker. The expected outputs come from ONNX's definitions evaluated in numpy
(float64, rounded once to the output type), independent of npuc.

usage: gen_opsets_25_28.py OUTDIR
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
rng = np.random.default_rng(20261206)


save = onnx_builder.save_graph
vi = onnx_builder.value_info


# Opset 25: Unsqueeze, Transpose, Reshape, QuantizeLinear, DequantizeLinear,
# Cast and Flatten gained int2/uint2; on int8 and float they are opset 24's.
x = rng.uniform(-4, 4, (2, 3, 4)).astype(np.float32)
q = onnx_builder.quant(x[None].transpose(0, 1, 3, 2).reshape(8, 3), 0.05, 3, np.int8)
dq = ((q.astype(np.float32) - 3) * np.float32(0.05)).astype(np.float32)
save("views_qdq_op25",
     [h.make_node("Unsqueeze", ["x", "axes"], ["u"], name="unsqueeze"),
      h.make_node("Transpose", ["u"], ["t"], name="transpose", perm=[0, 1, 3, 2]),
      h.make_node("Reshape", ["t", "shape"], ["r"], name="reshape"),
      h.make_node("QuantizeLinear", ["r", "s", "z"], ["q"], name="quant"),
      h.make_node("DequantizeLinear", ["q", "s", "z"], ["d"], name="dequant"),
      h.make_node("Cast", ["d"], ["hf"], name="to_half", to=T.FLOAT16),
      h.make_node("Cast", ["hf"], ["f"], name="to_float", to=T.FLOAT),
      h.make_node("Flatten", ["f"], ["y"], name="flatten", axis=1)],
     [vi("x", [2, 3, 4])], [vi("y", [8, 3])],
     [nh.from_array(np.array([0], np.int64), "axes"), nh.from_array(np.array([8, 3], np.int64), "shape"),
      nh.from_array(np.array(0.05, np.float32), "s"), nh.from_array(np.array(3, np.int8), "z")],
     [x], [dq.astype(np.float16).astype(np.float32)], 25)

# Opset 26 re-versioned no op: a model of opset-24 ops at opset 26.
a = rng.uniform(-1, 1, (4, 16)).astype(np.float32)
w = rng.uniform(-1, 1, (16, 8)).astype(np.float32)
logits = a.astype(np.float64) @ w.astype(np.float64)
e = np.exp(logits - logits.max(axis=-1, keepdims=True))
save("matmul_softmax_op26",
     [h.make_node("MatMul", ["a", "w"], ["m"], name="matmul"),
      h.make_node("Softmax", ["m"], ["y"], name="softmax", axis=-1)],
     [vi("a", [4, 16])], [vi("y", [4, 8])], [nh.from_array(w, "w")],
     [a], [(e / e.sum(axis=-1, keepdims=True)).astype(np.float32)], 26)


def range_node(t):
    return h.make_node("Range", ["start", "limit", "delta"], ["r"], name="range", **t)


# Range-27: float16 bounds, computed in float (stash_type 1): the count is
# ceil((limit - start) / delta) and element i is start + i * delta in float,
# then rounded to float16.
start, limit, delta = np.float16(0.5), np.float16(4.0), np.float16(0.3)
n = int(np.ceil((np.float32(limit) - np.float32(start)) / np.float32(delta)))
r16 = (np.float32(start) + np.arange(n, dtype=np.float32) * np.float32(delta)).astype(np.float16)
x16 = rng.uniform(-2, 2, (3, n)).astype(np.float16)
save("range_f16_op27",
     [range_node({"stash_type": 1}), h.make_node("Add", ["x", "r"], ["y"], name="add")],
     [vi("x", [3, n], T.FLOAT16)], [vi("y", [3, n], T.FLOAT16)],
     [nh.from_array(np.array(v, np.float16), k) for k, v in (("start", start), ("limit", limit), ("delta", delta))],
     [x16], [(x16.astype(np.float32) + r16.astype(np.float32)).astype(np.float16)], 27)

fs, fl, fd = np.float32(-1.0), np.float32(2.5), np.float32(0.5)
r32 = fs + np.arange(7, dtype=np.float32) * fd
x32 = rng.uniform(-2, 2, (2, 7)).astype(np.float32)
save("range_f32_op27",
     [range_node({}), h.make_node("Mul", ["x", "r"], ["y"], name="mul")],
     [vi("x", [2, 7])], [vi("y", [2, 7])],
     [nh.from_array(np.array(v, np.float32), k) for k, v in (("start", fs), ("limit", fl), ("delta", fd))],
     [x32], [x32 * r32], 27)

# Celu-28 (alpha 0.8) of A; SwiGLU-28: A * sigmoid(1.25 * A) * B.
ca = rng.uniform(-3, 3, (4, 16)).astype(np.float32)
cb = rng.uniform(-3, 3, (4, 16)).astype(np.float32)
ad, bd = ca.astype(np.float64), cb.astype(np.float64)
celu = np.maximum(ad, 0) + np.minimum(0.8 * (np.exp(ad / 0.8) - 1), 0)
swiglu = ad / (1 + np.exp(-1.25 * ad)) * bd
save("celu_swiglu_op28",
     [h.make_node("Celu", ["a"], ["c"], name="celu", alpha=0.8),
      h.make_node("SwiGLU", ["a", "b"], ["g"], name="swiglu", alpha=1.25)],
     [vi("a", [4, 16]), vi("b", [4, 16])], [vi("c", [4, 16]), vi("g", [4, 16])], [],
     [ca, cb], [celu.astype(np.float32), swiglu.astype(np.float32)], 28)
