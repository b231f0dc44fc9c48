"""three_relus.py OUT.onnx: x -> Relu -> Relu -> Sigmoid -> Relu: three nodes
of one lowering case (graph.relu(f32->f32){!integer}) and one of another."""
import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h

nodes = [h.make_node("Relu", ["x"], ["a"], name="r1"), h.make_node("Relu", ["a"], ["b"], name="r2"),
         h.make_node("Sigmoid", ["b"], ["c"], name="s1"), h.make_node("Relu", ["c"], ["y"], name="r3")]
g = h.make_graph(nodes, "relus", [h.make_tensor_value_info("x", T.FLOAT, [2, 8])],
                 [h.make_tensor_value_info("y", T.FLOAT, [2, 8])])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
m.ir_version = 8
onnx.save(m, sys.argv[1])
