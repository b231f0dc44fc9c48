"""Writes a small conformance suite into DIR, one test per outcome:
pass_relu (right answer), fail_relu (an expected output 0.5 off at [0, 3]),
gather (no NPU lowering: UNSUPPORTED), quant_one_step (a uint8 output one
step off: still PASS), quant_two_steps (two steps off: FAIL), int8_exact (a plain int8 output
one off: FAIL, only quantized outputs get a step)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

root = sys.argv[1]


def write(name, nodes, inputs, outputs, inits, data_in, data_out):
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "test_data_set_0"))
    g = h.make_graph(nodes, name, inputs, outputs, inits)
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), os.path.join(d, "model.onnx"))
    for k, a in enumerate(data_in):
        with open(os.path.join(d, "test_data_set_0", "input_%d.pb" % k), "wb") as f:
            f.write(numpy_helper.from_array(a).SerializeToString())
    for k, a in enumerate(data_out):
        with open(os.path.join(d, "test_data_set_0", "output_%d.pb" % k), "wb") as f:
            f.write(numpy_helper.from_array(a).SerializeToString())


x = (np.arange(12, dtype=np.float32).reshape(2, 6) - 5.5) / 2
relu = [h.make_node("Relu", ["x"], ["y"], name="relu0")]
fin = [h.make_tensor_value_info("x", T.FLOAT, [2, 6])]
fout = [h.make_tensor_value_info("y", T.FLOAT, [2, 6])]
write("pass_relu", relu, fin, fout, [], [x], [np.maximum(x, 0)])
wrong = np.maximum(x, 0)
wrong[0, 3] += 0.5
write("fail_relu", relu, fin, fout, [], [x], [wrong])

gather = [h.make_node("Gather", ["x", "i"], ["y"], name="gather0", axis=1)]
write("gather", gather, fin, [h.make_tensor_value_info("y", T.FLOAT, [2, 2])],
      [h.make_tensor("i", T.INT64, [2], [4, 0])], [x], [x[:, [4, 0]]])

q = [h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], name="q0")]
qinit = [h.make_tensor("s", T.FLOAT, [], [0.25]), h.make_tensor("z", T.UINT8, [], [128])]
qout = [h.make_tensor_value_info("y", T.UINT8, [2, 6])]
want = np.clip(np.rint(x / 0.25) + 128, 0, 255).astype(np.uint8)
one = want.copy()
one[1, 2] += 1
write("quant_one_step", q, fin, qout, qinit, [x], [one])
two = want.copy()
two[1, 2] += 2
write("quant_two_steps", q, fin, qout, qinit, [x], [two])

# A plain int8 output (a reshape, not a quantized value) must match exactly.
xi = np.arange(-6, 6, dtype=np.int8).reshape(2, 6)
reshape = [h.make_node("Reshape", ["x", "shape"], ["y"], name="reshape0")]
off = xi.reshape(12).copy()
off[5] += 1
write("int8_exact", reshape, [h.make_tensor_value_info("x", T.INT8, [2, 6])],
      [h.make_tensor_value_info("y", T.INT8, [12])],
      [h.make_tensor("shape", T.INT64, [1], [12])], [xi], [off])
