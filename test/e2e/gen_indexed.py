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
  run-time ids;
- gathernd_pairs: GatherND of (row, column) pairs, one negative, into an int8
  [6, 5, 4] tensor;
- kv_cache_update: a decoder's KV cache [1, 16, 8] updated at run-time
  positions by ScatterND (reduction none), then read back by the attention
  product;
- scatternd_<reduction>_<type>: ScatterND with none (a repeated index: the
  last update, as onnxruntime), add, max and min on f32, int32 and int8;
- gather_elements_<case>: GatherElements by run-time indices (int8 along a
  middle axis, negative; a detector's TopK indices picking boxes);
- scatter_elements_axis1: ScatterElements along axis 1 with negative
  indices and reduction add.

The expected outputs are numpy's take and in-order loops of the ONNX
definitions (exact: data moves unchanged, or combines once in its type).

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

data3 = rng.integers(-100, 100, (6, 5, 4)).astype(np.int8)
pairs = np.array([[[0, 1], [5, -1]], [[3, 2], [-6, 0]]], np.int64)
save("gathernd_pairs", [h.make_node("GatherND", ["data", "idx"], ["y"])],
     [vi("data", [6, 5, 4], T.INT8), vi("idx", [2, 2, 2], T.INT64)], [vi("y", [2, 2, 4], T.INT8)], [],
     [data3, pairs], [data3[pairs[..., 0], pairs[..., 1]]])


def scatter_nd(data, idx, upd, reduction):
    out = data.copy()
    k = idx.shape[-1]
    flat_idx, flat_upd = idx.reshape(-1, k), upd.reshape((-1,) + data.shape[k:])
    for i, u in zip(flat_idx, flat_upd):
        t = tuple(int(v) % data.shape[j] if v < 0 else int(v) for j, v in enumerate(i))
        if reduction == "none":
            out[t] = u
        elif reduction == "add":
            out[t] = (out[t].astype(np.int64) + u).astype(data.dtype) if data.dtype.kind == "i" else out[t] + u
        elif reduction == "max":
            out[t] = np.maximum(out[t], u)
        else:
            out[t] = np.minimum(out[t], u)
    return out


cache = rng.standard_normal((1, 16, 8)).astype(f32)
pos = np.array([[[0, 5]], [[0, 6]]], np.int64).reshape(2, 2)
new_kv = rng.standard_normal((2, 8)).astype(f32)
q = rng.standard_normal((1, 3, 8)).astype(f32)
updated = scatter_nd(cache, pos, new_kv, "none")
save("kv_cache_update",
     [h.make_node("ScatterND", ["cache", "pos", "kv"], ["present"]),
      h.make_node("Transpose", ["present"], ["kt"], perm=[0, 2, 1]),
      h.make_node("MatMul", ["q", "kt"], ["scores"])],
     [vi("cache", [1, 16, 8]), vi("pos", [2, 2], T.INT64), vi("kv", [2, 8]), vi("q", [1, 3, 8])],
     [vi("present", [1, 16, 8]), vi("scores", [1, 3, 16])], [], [cache, pos, new_kv, q],
     [updated, (q.astype(np.float64) @ updated.astype(np.float64).transpose(0, 2, 1)).astype(f32)])
with open(os.path.join(out, "kv_cache_update", "tolerance.txt"), "w") as f:
    f.write("atol=1e-5 rtol=1e-5  # the scores are f32 products\n")

types = {"f32": (np.float32, T.FLOAT), "i32": (np.int32, T.INT32), "i8": (np.int8, T.INT8)}
for red in ("none", "add", "max", "min"):
    for tname, (npt, ot) in types.items():
        d = (rng.standard_normal((5, 3)) * 20).astype(npt)
        ind = np.array([[1], [-1], [1], [0]], np.int64)
        u = (rng.standard_normal((4, 3)) * 20).astype(npt)
        save("scatternd_%s_%s" % (red, tname),
             [h.make_node("ScatterND", ["d", "ind", "u"], ["y"], reduction=red)],
             [vi("d", [5, 3], ot), vi("ind", [4, 1], T.INT64), vi("u", [4, 3], ot)], [vi("y", [5, 3], ot)], [],
             [d, ind, u], [scatter_nd(d, ind, u, red)], opset=18)

d = rng.standard_normal((3, 6)).astype(f32)
ind = np.array([[0, -1], [5, 2], [-6, 0]], np.int64)
u = rng.standard_normal((3, 2)).astype(f32)
ref = d.copy()
for r_ in range(3):
    for c_ in range(2):
        ref[r_, ind[r_, c_] % 6] += u[r_, c_]
save("scatter_elements_axis1", [h.make_node("ScatterElements", ["d", "ind", "u"], ["y"], axis=1, reduction="add")],
     [vi("d", [3, 6]), vi("ind", [3, 2], T.INT64), vi("u", [3, 2])], [vi("y", [3, 6])], [], [d, ind, u], [ref],
     opset=18)

# GatherElements by run-time indices: each element its own row of the data
# flattened to [F, 1]; along a middle axis of int8 data with negative
# indices, and a detector's top-k pattern (TopK's indices picking the boxes'
# coordinates), against numpy's take_along_axis.
ge = rng.integers(-100, 100, (4, 50, 6)).astype(np.int8)
gi = rng.integers(-50, 50, (4, 7, 6)).astype(np.int64)
save("gather_elements_int8_axis1", [h.make_node("GatherElements", ["d", "i"], ["y"], axis=1)],
     [vi("d", [4, 50, 6], T.INT8), vi("i", [4, 7, 6], T.INT64)], [vi("y", [4, 7, 6], T.INT8)], [],
     [ge, gi], [np.take_along_axis(ge, gi % 50, axis=1)], opset=13)
scores = rng.permutation(200).astype(f32).reshape(1, 200) / 7
boxes = rng.standard_normal((1, 200, 4)).astype(f32)
top = np.argsort(-scores, axis=1, kind="stable")[:, :10]
save("gather_elements_topk_boxes",
     [h.make_node("TopK", ["s", "k"], ["v", "ix"], axis=1),
      h.make_node("Unsqueeze", ["ix", "ax"], ["ix3"]),
      h.make_node("Expand", ["ix3", "shape"], ["ixb"]),
      h.make_node("GatherElements", ["b", "ixb"], ["y"], axis=1)],
     [vi("s", [1, 200]), vi("b", [1, 200, 4])], [vi("y", [1, 10, 4])],
     [("k", np.array([10], np.int64)), ("ax", np.array([2], np.int64)), ("shape", np.array([1, 10, 4], np.int64))],
     [scores, boxes], [np.take_along_axis(boxes, np.repeat(top[:, :, None], 4, axis=2), axis=1)], opset=13)
