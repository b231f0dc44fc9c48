#!/usr/bin/python3
"""Generates models in opsets 23 and 24 written with the forms those opsets
added, each with test_data_set_0 (input_K.pb, output_K.pb):

- rmsnorm_op23: RMSNormalization (new in opset 23) over the last axis, then
  Reshape-23 and Transpose-23 (the versions opset 23 bumped for its new types);
- rmsnorm_two_axes_op23: RMSNormalization over the last two axes (axis = -2);
- swish_op24: Swish (new in opset 24) with alpha = 1.5, then Cast-24 to
  float16 and back.

python3-onnx may predate these opsets, so the models are written without its
checker. The expected outputs come from ONNX's definitions evaluated in numpy
(float64, rounded once to float32), independent of npuc.

usage: gen_opsets_23_24.py OUTDIR
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


save = onnx_builder.save_graph
vi = onnx_builder.value_info


def rms_norm(x, scale, axis, epsilon):
    xd = x.astype(np.float64)
    axes = tuple(range(axis % x.ndim, x.ndim))
    return (xd / np.sqrt(np.mean(xd * xd, axis=axes, keepdims=True) + epsilon) * scale).astype(np.float32)


x = rng.uniform(-3, 3, (2, 4, 16)).astype(np.float32)
scale = rng.uniform(0.5, 1.5, 16).astype(np.float32)
y = rms_norm(x, scale, -1, 1e-6)
shape = np.array([2, 64], np.int64)
save("rmsnorm_op23",
     [h.make_node("RMSNormalization", ["x", "scale"], ["n"], name="rms", axis=-1, epsilon=1e-6),
      h.make_node("Reshape", ["n", "shape"], ["r"], name="reshape"),
      h.make_node("Transpose", ["r"], ["y"], name="transpose", perm=[1, 0])],
     [vi("x", [2, 4, 16])], [vi("y", [64, 2])],
     [nh.from_array(scale, "scale"), nh.from_array(shape, "shape")], [x], [y.reshape(2, 64).T.copy()], 23)

scale2 = rng.uniform(0.5, 1.5, (4, 16)).astype(np.float32)
save("rmsnorm_two_axes_op23",
     [h.make_node("RMSNormalization", ["x", "scale"], ["y"], name="rms", axis=-2)],
     [vi("x", [2, 4, 16])], [vi("y", [2, 4, 16])], [nh.from_array(scale2, "scale")],
     [x], [rms_norm(x, scale2, -2, 1e-5)], 23)

s = rng.uniform(-6, 6, (2, 8, 12)).astype(np.float32)
sd = s.astype(np.float64)
swish = (sd / (1 + np.exp(-1.5 * sd))).astype(np.float32)
save("swish_op24",
     [h.make_node("Swish", ["x"], ["w"], name="swish", alpha=1.5),
      h.make_node("Cast", ["w"], ["h"], name="to_half", to=T.FLOAT16),
      h.make_node("Cast", ["h"], ["y"], name="to_float", to=T.FLOAT)],
     [vi("x", [2, 8, 12])], [vi("y", [2, 8, 12])], [], [s],
     [swish.astype(np.float16).astype(np.float32)], 24)
