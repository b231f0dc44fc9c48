"""Writes the model of dump-tensors.test and its reference intermediates:
dump_model.py DIR -> DIR/model.onnx, DIR/x.npy (the input) and DIR/ref/NAME.npy
for every intermediate, computed here with numpy (not by npuc).

x [1, 3, 4, 5] -> Transpose(0, 2, 3, 1) -> "t/perm:0" [1, 4, 5, 3]
  -> Add(bias [3], broadcast) -> "a" -> Relu -> "r"
  -> Reshape [4, 15] -> "s" (a view of r's bytes in another shape)
  -> QuantizeLinear(per tensor, 0.05, zp -10) -> "q" (int8)
  -> DequantizeLinear -> "y" (the graph output, float)
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

d = sys.argv[1]
os.makedirs(os.path.join(d, "ref"), exist_ok=True)
x = ((np.arange(60, dtype=np.float32).reshape(1, 3, 4, 5) % 11) - 5) / 4
bias = np.array([0.5, -0.25, 0.125], dtype=np.float32)
scale, zp = np.float32(0.05), np.int8(-10)

t = np.transpose(x, (0, 2, 3, 1))
a = (t + bias).astype(np.float32)
r = np.maximum(a, 0).astype(np.float32)
s = r.reshape(4, 15)
q = np.clip(np.rint(s / scale) + zp, -128, 127).astype(np.int8)
y = ((q.astype(np.float32) - np.float32(zp)) * scale).astype(np.float32)

nodes = [
    h.make_node("Transpose", ["x"], ["t/perm:0"], name="transpose0", perm=[0, 2, 3, 1]),
    h.make_node("Add", ["t/perm:0", "bias"], ["a"], name="add0"),
    h.make_node("Relu", ["a"], ["r"], name="relu0"),
    h.make_node("Reshape", ["r", "shape"], ["s"], name="reshape0"),
    h.make_node("QuantizeLinear", ["s", "scale", "zp"], ["q"], name="q0"),
    h.make_node("DequantizeLinear", ["q", "scale", "zp"], ["y"], name="dq0"),
]
inits = [nh.from_array(bias, "bias"), nh.from_array(np.array([4, 15], np.int64), "shape"),
         nh.from_array(np.array(scale), "scale"), nh.from_array(np.array(zp), "zp")]
g = h.make_graph(nodes, "dump", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 4, 5])],
                 [h.make_tensor_value_info("y", T.FLOAT, [4, 15])], inits)
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), os.path.join(d, "model.onnx"))
np.save(os.path.join(d, "x.npy"), x)
for name, v in (("t/perm:0", t), ("a", a), ("r", r), ("s", s), ("q", q), ("y", y)):
    np.save(os.path.join(d, "ref", name.replace("/", "_").replace(":", "_") + ".npy"), v)
