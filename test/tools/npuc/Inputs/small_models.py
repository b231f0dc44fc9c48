"""Writes the small ONNX models the npuc CLI tests use: small_models.py OUTDIR
writes OUTDIR/{relu,dynamic,unsupported,gemm9,lrn}.onnx.

- relu: one Relu node 'relu0' (opset 13), input 'x' float [1,4].
- dynamic: Relu on input 'x' float ['N', 3] (dimension 0 dynamic).
- unsupported: Relu 'relu0' then an op npuc does not import, Bernoulli
  'bernoulli0' (opset 15).
- gemm9: Gemm 'fc0' at opset 9 with transA, alpha and beta: a lowering case
  no test verifies (NPUC-E0105 on a Gemm-9).
- lrn: Relu 'relu0' then LRN 'lrn0' (opset 11) of float16, which imports
  but has no NPU lowering (NPUC-E0401, from a phase after import: LRN lowers
  for f32).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, nodes, inputs, outputs, inits=(), opset=13):
    g = h.make_graph(nodes, name, inputs, outputs, list(inits))
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", opset)]), os.path.join(out, name + ".onnx"))


vi = h.make_tensor_value_info

save("relu", [h.make_node("Relu", ["x"], ["y"], name="relu0")],
     [vi("x", T.FLOAT, [1, 4])], [vi("y", T.FLOAT, [1, 4])])

save("dynamic", [h.make_node("Relu", ["x"], ["y"], name="relu0")],
     [vi("x", T.FLOAT, ["N", 3])], [vi("y", T.FLOAT, ["N", 3])])

save("unsupported",
     [h.make_node("Relu", ["x"], ["r"], name="relu0"),
      h.make_node("Bernoulli", ["r"], ["y"], name="bernoulli0")],
     [vi("x", T.FLOAT, [1, 4])], [vi("y", T.FLOAT, [1, 4])], opset=15)

save("gemm9",
     [h.make_node("Gemm", ["a", "b", "c"], ["y"], name="fc0", transA=1, alpha=2.0, beta=0.5)],
     [vi("a", T.FLOAT, [4, 1])], [vi("y", T.FLOAT, [1, 3])],
     [nh.from_array(np.ones((4, 3), np.float32), "b"), nh.from_array(np.zeros((3,), np.float32), "c")],
     opset=9)

save("lrn",
     [h.make_node("Relu", ["x"], ["r"], name="relu0"),
      h.make_node("LRN", ["r"], ["y"], name="lrn0", size=3)],
     [vi("x", T.FLOAT16, [1, 4, 2, 2])], [vi("y", T.FLOAT16, [1, 4, 2, 2])], opset=11)
