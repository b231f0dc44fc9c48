#!/usr/bin/python3
"""Writes examples/conv_relu: model.onnx, a 1x3x8x8 float Conv (4 filters, 3x3,
pad 1) + Relu, and test_data_set_0 with an input and the expected output,
computed here by numpy (a direct convolution, independent of npuc).

Run with Debian's /usr/bin/python3 (python3-onnx, python3-numpy). The output is
deterministic (fixed weights and input), so the checked-in files can be
regenerated.
"""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)
wa = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
ba = rng.standard_normal(4).astype(np.float32)
w = numpy_helper.from_array(wa, "w")
b = numpy_helper.from_array(ba, "b")
graph = helper.make_graph(
    [helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv0", pads=[1, 1, 1, 1]),
     helper.make_node("Relu", ["c"], ["y"], name="relu0")],
    "conv_relu",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])],
    initializer=[w, b])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                          producer_name="npuc-examples")
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "model.onnx"))

# The reference: y = relu(b + sum over c, i, j of w * x_padded), in float64.
x = np.random.default_rng(8).standard_normal((1, 3, 8, 8)).astype(np.float32)
xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
y = np.zeros((1, 4, 8, 8))
for m in range(4):
    for i in range(8):
        for j in range(8):
            y[0, m, i, j] = ba[m] + np.sum(wa[m].astype(np.float64) * xp[0, :, i:i + 3, j:j + 3])
y = np.maximum(y, 0).astype(np.float32)
data = os.path.join(here, "test_data_set_0")
os.makedirs(data, exist_ok=True)
for name, a in (("input_0.pb", x), ("output_0.pb", y)):
    with open(os.path.join(data, name), "wb") as f:
        f.write(numpy_helper.from_array(a).SerializeToString())
