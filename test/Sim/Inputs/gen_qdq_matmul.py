"""Writes a QDQ int8 matmul [M x K] x [K x N] (int8 input, constant int8
weights, per-tensor scales) as OUT.onnx, an input OUT.x.npy and the ONNX
definition's result OUT.y.npy (numpy, float64 accumulation, independent of
npuc). usage: gen_qdq_matmul.py OUT M K N"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper as h, numpy_helper

out, M, K, N = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = np.random.default_rng(3)
xq = rng.integers(-128, 128, (M, K)).astype(np.int8)
wq = rng.integers(-127, 128, (K, N)).astype(np.int8)
sx, sw, sy, zx, zy = np.float32(0.02), np.float32(0.003), np.float32(0.5), np.int8(3), np.int8(-2)
inits = [numpy_helper.from_array(v, n) for n, v in [
    ("sx", sx), ("zx", zx), ("w", wq), ("sw", sw), ("zw", np.int8(0)), ("sy", sy), ("zy", zy)]]
nodes = [h.make_node("DequantizeLinear", ["x", "sx", "zx"], ["dx"]),
         h.make_node("DequantizeLinear", ["w", "sw", "zw"], ["dw"]),
         h.make_node("MatMul", ["dx", "dw"], ["mm"]),
         h.make_node("QuantizeLinear", ["mm", "sy", "zy"], ["y"])]
g = h.make_graph(nodes, "qdq_matmul", [h.make_tensor_value_info("x", TensorProto.INT8, [M, K])],
                 [h.make_tensor_value_info("y", TensorProto.INT8, [M, N])], initializer=inits)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
m.ir_version = 8
onnx.save(m, out + ".onnx")
np.save(out + ".x.npy", xq)
ref = ((xq.astype(np.float64) - float(zx)) * float(sx)) @ (wq.astype(np.float64) * float(sw))
np.save(out + ".y.npy", np.clip(np.rint(ref.astype(np.float32) / sy) + float(zy), -128, 127).astype(np.int8))
