"""Writes a small conformance suite into DIR, one test per outcome:
pass_relu (right answer), fail_relu (an expected output 0.5 off at [0, 3]),
gather (an Abs of int32, no NPU lowering: UNSUPPORTED), quant_one_step (a uint8 output one
step off: still PASS), quant_two_steps (two steps off: FAIL), int8_exact (a plain int8 output
one off: FAIL, only quantized outputs get a step), dilated_depthwise (a
right answer from a lowering case no conformance test verified: refused by
npuc's evidence gate, PASS with --allow-unverified), and two quantized
models judged by the deep-network rule of a tolerance.txt (maxbad, maxstep,
top1): deep_drift (two outputs two steps off: PASS, and every layer is
checked), deep_top1 (the largest output's index moves: FAIL)."""
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

# An Abs of int32: imported, no NPU lowering (UNSUPPORTED; the reference is
# never compared).
gather = [h.make_node("Cast", ["x"], ["xi"], name="cast0", to=T.INT32),
          h.make_node("Abs", ["xi"], ["y"], name="gather0")]
write("gather", gather, fin, [h.make_tensor_value_info("y", T.INT32, [2, 6])], [], [x],
      [np.zeros((2, 6), np.int32)])

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

# A dilated depthwise convolution: a lowering case no conformance test of the
# evidence table reaches (docs/supported-ops.md).
xd = (np.arange(2 * 7 * 7, dtype=np.float32).reshape(1, 2, 7, 7) % 5) - 2
wd = np.array([1, 0, -1, 2, 1, 0, 0, 1, 1] * 2, dtype=np.float32).reshape(2, 1, 3, 3)
yd = np.zeros((1, 2, 3, 3), dtype=np.float32)
for c in range(2):
    for i in range(3):
        for j in range(3):
            yd[0, c, i, j] = np.sum(xd[0, c, i:i + 5:2, j:j + 5:2] * wd[c, 0])
conv = [h.make_node("Conv", ["x", "w"], ["y"], name="dwconv0", group=2, dilations=[2, 2],
                    kernel_shape=[3, 3])]
write("dilated_depthwise", conv, [h.make_tensor_value_info("x", T.FLOAT, [1, 2, 7, 7])],
      [h.make_tensor_value_info("y", T.FLOAT, [1, 2, 3, 3])],
      [numpy_helper.from_array(wd, "w")], [xd], [yd])

# The deep quantized network rule: tolerance.txt allows a fraction of the
# outputs beyond one step, none beyond maxstep, and the top class must agree.
xq = np.array([[0.1, 2.0, -1.0, 0.5, 0.25, -0.5], [1.5, -2.0, 0.75, 3.0, -0.25, 0.0]], np.float32)
qs = np.clip(np.rint(xq / 0.25) + 0, -128, 127).astype(np.int8)
deep = [h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], name="q0")]
dinit = [h.make_tensor("s", T.FLOAT, [], [0.25]), h.make_tensor("z", T.INT8, [], [0])]
drift = qs.copy()
drift[0, 0] += 2
drift[1, 5] -= 2
write("deep_drift", deep, [h.make_tensor_value_info("x", T.FLOAT, [2, 6])],
      [h.make_tensor_value_info("y", T.INT8, [2, 6])], dinit, [xq], [drift])
with open(os.path.join(root, "deep_drift", "tolerance.txt"), "w") as f:
    f.write("maxbad=0.2 maxstep=3 top1=1\n")
moved = qs.copy()
moved[0, 4] = 9  # row 0's largest is now index 4, not 1
write("deep_top1", deep, [h.make_tensor_value_info("x", T.FLOAT, [2, 6])],
      [h.make_tensor_value_info("y", T.INT8, [2, 6])], dinit, [xq], [moved])
with open(os.path.join(root, "deep_top1", "tolerance.txt"), "w") as f:
    f.write("maxbad=0.2 maxstep=8 top1=1\n")
