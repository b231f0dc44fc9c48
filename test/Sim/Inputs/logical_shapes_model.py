"""Writes the model of dump-logical-shapes.test: values the compiler computes
as something else than themselves, each a graph output and an intermediate:

x [1, 3, 8, 8] -> Resize(linear, x2) -> "up" [1, 3, 16, 16] (a product by an
  interpolation matrix per axis, graph-expand-gather) -> Relu -> "up_relu"
ids [5] (int64, run time) -> Gather(table [10, 6]) -> "rows" [5, 6] (a one-hot
  matrix product) -> Mul 2 -> "rows2"
s [1, 4, 20] -> Conv(1-D, k 3, pad 1) -> "c1" [1, 6, 20] (a 2-D conv of height
  1, graph-lift-conv1d) -> Sigmoid -> "c1s"

logical_shapes_model.py DIR -> DIR/model.onnx and DIR/{x,ids,s}.npy.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
rng = np.random.default_rng(27)
x = rng.standard_normal((1, 3, 8, 8)).astype(np.float32)
ids = np.asarray([3, 0, 9, 3, 7], np.int64)
s = rng.standard_normal((1, 4, 20)).astype(np.float32)
nodes = [
    h.make_node("Resize", ["x", "", "scales"], ["up"], name="resize0", mode="linear",
                coordinate_transformation_mode="half_pixel"),
    h.make_node("Relu", ["up"], ["up_relu"], name="relu0"),
    h.make_node("Gather", ["table", "ids"], ["rows"], name="gather0", axis=0),
    h.make_node("Mul", ["rows", "two"], ["rows2"], name="mul0"),
    h.make_node("Conv", ["s", "w"], ["c1"], name="conv1d0", pads=[1, 1]),
    h.make_node("Sigmoid", ["c1"], ["c1s"], name="sigmoid0"),
]
inits = [nh.from_array(np.asarray([1, 1, 2, 2], np.float32), "scales"),
         nh.from_array(rng.standard_normal((10, 6)).astype(np.float32), "table"),
         nh.from_array(np.float32(2.0), "two"),
         nh.from_array(rng.standard_normal((6, 4, 3)).astype(np.float32), "w")]
g = h.make_graph(nodes, "logical_shapes",
                 [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8]),
                  h.make_tensor_value_info("ids", T.INT64, [5]),
                  h.make_tensor_value_info("s", T.FLOAT, [1, 4, 20])],
                 [h.make_tensor_value_info(n, T.FLOAT, None) for n in ("up_relu", "rows2", "c1s")], inits)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
m.ir_version = 8
onnx.save(m, os.path.join(d, "model.onnx"))
for name, v in (("x", x), ("ids", ids), ("s", s)):
    np.save(os.path.join(d, name + ".npy"), v)
