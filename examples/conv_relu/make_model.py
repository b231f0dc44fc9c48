#!/usr/bin/python3
"""Writes examples/conv_relu.onnx: a 1x3x8x8 float Conv (4 filters, 3x3, pad 1) + Relu.

Run with Debian's /usr/bin/python3 (python3-onnx, python3-numpy). The output is
deterministic (fixed weights), so the checked-in file can be regenerated.
"""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)
w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
b = numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "b")
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
onnx.save(model, os.path.join(os.path.dirname(os.path.abspath(__file__)), "conv_relu.onnx"))
