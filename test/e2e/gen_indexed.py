#!/usr/bin/python3
"""Generates Gather by indices known only at run time, which npuc moves with
the indexed DMA (DMA_IN_GATHER, npu-v1.md section 5), each with
test_data_set_0:

- embedding_negative_ids: an f32 embedding table [1000, 64] and int64 ids
  [2, 7], some negative (ONNX counts those from the end);
- embedding_int8_qdq: an int8 table behind DequantizeLinear (the rows move as
  int8, dequantized after), ids [16];
- gather_middle_axis: an activation [2, 50, 8] gathered along axis 1 by
  run-time int32 ids (each index moves a box of 2 x 8);
- gather_many_ids: 5000 ids into a [300, 16] table: several tiles of ids and
  a remainder;
- greedy_decode_step: ArgMax over logits picks the next token, whose
  embedding is looked up (ids computed on the NPU);
- gather_int64_table: position ids (int64 data, stored as int32) gathered by
  run-time ids.

The expected outputs are numpy's take (exact: data moves unchanged).

usage: gen_indexed.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_builder  # noqa: E402

if len(sys.argv) != 2:
    sys.exit(__doc__.strip().splitlines()[-1])
out = sys.argv[1]
onnx_builder.set_output(out)
rng = np.random.default_rng(20261207)
vi = onnx_builder.value_info
f32 = np.float32


def save(name, nodes, inputs, outputs, inits, feeds, expected, opset=17):
    onnx_builder.save_graph(name, nodes, inputs, outputs, [nh.from_array(a, n) for n, a in inits],
                            feeds, expected, opset)
    with open(os.path.join(out, name, "tolerance.txt"), "w") as f:
        f.write("exact=1  # rows move unchanged\n")


table = rng.standard_normal((1000, 64)).astype(f32)
ids = rng.integers(-1000, 1000, (2, 7)).astype(np.int64)
ids[0, 0], ids[1, 6] = -1, 999
save("embedding_negative_ids", [h.make_node("Gather", ["table", "ids"], ["y"], axis=0)],
     [vi("ids", [2, 7], T.INT64)], [vi("y", [2, 7, 64])], [("table", table)], [ids],
     [np.take(table, ids, axis=0)])

qtable = rng.integers(-128, 128, (500, 32)).astype(np.int8)
qids = rng.integers(0, 500, (16,)).astype(np.int64)
save("embedding_int8_qdq",
     [h.make_node("DequantizeLinear", ["qtable", "scale", "zp"], ["table"]),
      h.make_node("Gather", ["table", "ids"], ["y"], axis=0)],
     [vi("ids", [16], T.INT64)], [vi("y", [16, 32])],
     [("qtable", qtable), ("scale", np.array(0.05, f32)), ("zp", np.array(3, np.int8))], [qids],
     [onnx_builder.dequant(np.take(qtable, qids, axis=0), 0.05, 3)])

x = rng.standard_normal((2, 50, 8)).astype(f32)
mids = np.array([49, 0, -3], np.int32)
save("gather_middle_axis", [h.make_node("Gather", ["x", "ids"], ["y"], axis=1)],
     [vi("x", [2, 50, 8]), vi("ids", [3], T.INT32)], [vi("y", [2, 3, 8])], [], [x, mids],
     [np.take(x, mids, axis=1)])

small = rng.standard_normal((300, 16)).astype(f32)
many = rng.integers(-300, 300, (5000,)).astype(np.int64)
save("gather_many_ids", [h.make_node("Gather", ["table", "ids"], ["y"], axis=0)],
     [vi("ids", [5000], T.INT64)], [vi("y", [5000, 16])], [("table", small)], [many],
     [np.take(small, many, axis=0)])

logits = rng.standard_normal((4, 1000)).astype(f32)
save("greedy_decode_step",
     [h.make_node("ArgMax", ["logits"], ["next"], axis=-1, keepdims=0),
      h.make_node("Gather", ["table", "next"], ["y"], axis=0)],
     [vi("logits", [4, 1000])], [vi("y", [4, 64])], [("table", table)], [logits],
     [np.take(table, np.argmax(logits, axis=-1), axis=0)])

positions = np.arange(0, 4096, 4, dtype=np.int64).reshape(256, 4)
pids = rng.integers(0, 256, (2, 3)).astype(np.int64)
save("gather_int64_table", [h.make_node("Gather", ["pos", "ids"], ["y"], axis=0)],
     [vi("pos", [256, 4], T.INT64), vi("ids", [2, 3], T.INT64)], [vi("y", [2, 3, 4], T.INT64)], [],
     [positions, pids], [np.take(positions, pids, axis=0)])
