"""Writes an f32 network with tile loops on both targets: a 3x3 convolution
(8 -> 16 channels, pad 1) with Relu, a 3x3 depthwise convolution and a 1x1
convolution (16 -> 32), on a 1x8x64x64 input, as OUT.onnx, and an input
OUT.x.npy. No reference: tests that use it compare two compilations of the
same model. usage: gen_conv_stack.py OUT"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper as h, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(7)
w1 = rng.standard_normal((16, 8, 3, 3)).astype(np.float32) * 0.2
w2 = rng.standard_normal((16, 1, 3, 3)).astype(np.float32) * 0.3
w3 = rng.standard_normal((32, 16, 1, 1)).astype(np.float32) * 0.2
b1 = rng.standard_normal(16).astype(np.float32) * 0.1
inits = [numpy_helper.from_array(v, n) for n, v in [("w1", w1), ("b1", b1), ("w2", w2), ("w3", w3)]]
nodes = [h.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
         h.make_node("Relu", ["c1"], ["r1"]),
         h.make_node("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1], group=16),
         h.make_node("Conv", ["c2", "w3"], ["y"])]
g = h.make_graph(nodes, "conv_stack", [h.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 64, 64])],
                 [h.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32, 64, 64])], initializer=inits)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
m.ir_version = 8
onnx.save(m, out + ".onnx")
np.save(out + ".x.npy", rng.standard_normal((1, 8, 64, 64)).astype(np.float32))
