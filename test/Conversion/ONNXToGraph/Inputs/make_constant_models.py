"""Models whose constant subgraphs the importer evaluates (the graph ops' folders,
importCast): integers past 2^53, INT64_MAX as torch's "to the end", and
INT64_MIN / -1.

usage: make_constant_models.py OUTDIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
I64 = np.iinfo(np.int64)


def save(name, nodes, inits, x_shape, y_shape):
    g = h.make_graph(nodes, name, [h.make_tensor_value_info("x", T.FLOAT, x_shape)],
                     [h.make_tensor_value_info("y", T.FLOAT, y_shape)],
                     [nh.from_array(v, k) for k, v in inits.items()])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, os.path.join(out, name + ".onnx"))


# 2^53 + 1 and 2^53 are one double: compared through doubles they are equal.
save("equal_past_2p53",
     [h.make_node("Transpose", ["v"], ["vt"], perm=[1, 0]),
      h.make_node("Equal", ["vt", "w"], ["eq"]),
      h.make_node("Where", ["eq", "one", "zero"], ["sel"]),
      h.make_node("Add", ["x", "sel"], ["y"])],
     {"v": np.array([[2**53 + 1]], np.int64), "w": np.array([[2**53]], np.int64),
      "one": np.array([[1.0]], np.float32), "zero": np.array([[0.0]], np.float32)},
     [1, 1], [1, 1])

# Slice ends of INT64_MAX (torch's "to the end") through a Transpose: 2^63
# as a double has no int64.
save("slice_ends_max",
     [h.make_node("Transpose", ["e"], ["ends"], perm=[0]),
      h.make_node("Slice", ["x", "starts", "ends"], ["y"])],
     {"starts": np.array([0, 1], np.int64), "e": np.array([I64.max, I64.max], np.int64)},
     [2, 4], [2, 3])

# int64 -> float rounds once: 2^62 + 2^38 + 1 is 2^62 + 2^39 in f32; through
# a double first it is 2^62.
save("cast_rounds_once",
     [h.make_node("Cast", ["v"], ["vf"], to=T.FLOAT), h.make_node("Mul", ["x", "vf"], ["y"])],
     {"v": np.array([2**62 + 2**38 + 1], np.int64)}, [1], [1])
save("cast_rounds_once_folded",
     [h.make_node("Transpose", ["v"], ["vt"], perm=[0]),
      h.make_node("Cast", ["vt"], ["vf"], to=T.FLOAT), h.make_node("Mul", ["x", "vf"], ["y"])],
     {"v": np.array([2**62 + 2**38 + 1], np.int64)}, [1], [1])

# INT64_MIN / -1 has no int64 result (and traps on x86); / 0 neither.
save("div_int64_min",
     [h.make_node("Div", ["a", "b"], ["c"]), h.make_node("Cast", ["c"], ["cf"], to=T.FLOAT),
      h.make_node("Add", ["x", "cf"], ["y"])],
     {"a": np.array([I64.min, 5], np.int64), "b": np.array([-1, 0], np.int64)}, [2], [2])

# Integer wrap-around is two's complement, not undefined behaviour.
save("mul_wraps",
     [h.make_node("Transpose", ["a"], ["at"], perm=[0]), h.make_node("Mul", ["at", "b"], ["c"]),
      h.make_node("Cast", ["c"], ["cf"], to=T.FLOAT), h.make_node("Add", ["x", "cf"], ["y"])],
     {"a": np.array([I64.max], np.int64), "b": np.array([2], np.int64)}, [1], [1])
