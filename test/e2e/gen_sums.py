#!/usr/bin/python3
"""Generates CumSum, Einsum and float64 models, each with test_data_set_0,
against numpy (np.cumsum, np.einsum: the ONNX definitions):

- cumsum_<case>: f32, int32 and int64 along each axis, exclusive and
  reverse, lengths that are not powers of two (1, 7, 300);
- position_ids: a transformer's position ids from its attention mask,
  CumSum(mask, axis 1) * mask - 1 on int64 (the Hugging Face pattern);
- einsum_<case>: attention scores 'bhqd,bhkd->bhqk', batched products,
  a matrix-vector product, transposes, diagonals ('ii->i', '...ii->...i'),
  sums ('ij->', 'ij->i'), an implicit output ('ij,jk'), three operands
  ('bn,anm,bm->ba'), an outer product ('i,j->ij') and ellipses;
- float64_<case>: graph inputs and outputs of float64, computed in float32
  (docs/numerics.md "float64"): an elementwise chain, a reduction, a Cast to
  and from float64 inside an f32 graph.

usage: gen_sums.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import helper as h

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_builder  # noqa: E402

out = onnx_builder.output_dir(__doc__)
rng = np.random.default_rng(20261207)
f32 = np.float32
save = onnx_builder.y_saver(out, 17)


def cumsum_ref(x, axis, exclusive, reverse):
    y = np.flip(x, axis) if reverse else x
    s = np.cumsum(y, axis=axis, dtype=x.dtype)
    if exclusive:
        s = s - y
    return np.flip(s, axis) if reverse else s


# CumSum: the axis is a constant input (initializer), as exporters write it.
for dtype, shape in ((f32, (3, 300)), (np.int32, (4, 7, 5)), (np.int64, (2, 1, 9))):
    for axis in range(-1, len(shape)):
        for exclusive in (0, 1):
            for reverse in (0, 1):
                if axis not in (-1, 1) and (exclusive or reverse):
                    continue
                if np.issubdtype(dtype, np.integer):
                    x = rng.integers(-50, 50, shape).astype(dtype)
                else:
                    x = rng.standard_normal(shape).astype(dtype)
                name = "cumsum_%s_axis%s%s%s" % (np.dtype(dtype).name, str(axis).replace("-", "m"),
                                                 "_exclusive" if exclusive else "",
                                                 "_reverse" if reverse else "")
                node = h.make_node("CumSum", ["x", "axis"], ["y"], exclusive=exclusive, reverse=reverse)
                save(name, [node], {"x": x}, cumsum_ref(x, axis % len(shape), exclusive, reverse),
                     inits=[("axis", np.array(axis, np.int64))],
                     tolerance=None if np.issubdtype(dtype, np.integer) else "atol=1e-4")

# Position ids from an attention mask (left padding).
mask = np.array([[0, 0, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1]], np.int64)
save("position_ids",
     [h.make_node("CumSum", ["mask", "axis"], ["c"]),
      h.make_node("Mul", ["c", "mask"], ["m"]),
      h.make_node("Sub", ["m", "one"], ["y"])],
     {"mask": mask}, np.cumsum(mask, 1) * mask - 1,
     inits=[("axis", np.array(1, np.int64)), ("one", np.array(1, np.int64))])


def einsum_case(name, equation, shapes, dtype=f32):
    feeds = {}
    for k, s in enumerate(shapes):
        if np.issubdtype(dtype, np.integer):
            feeds["x%d" % k] = rng.integers(-5, 6, s).astype(dtype)
        else:
            feeds["x%d" % k] = rng.standard_normal(s).astype(dtype)
    expected = np.einsum(equation, *[v.astype(np.float64) for v in feeds.values()]).astype(dtype)
    save("einsum_" + name, [h.make_node("Einsum", list(feeds), ["y"], equation=equation)], feeds, expected,
         tolerance=None if np.issubdtype(dtype, np.integer) else "atol=1e-4")


einsum_case("attention_scores", "bhqd,bhkd->bhqk", [(2, 3, 5, 8), (2, 3, 7, 8)])
einsum_case("attention_values", "bhqk,bhkd->bhqd", [(1, 2, 5, 7), (1, 2, 7, 4)])
einsum_case("batch_matmul", "bij,bjk->bik", [(3, 4, 5), (3, 5, 6)])
einsum_case("matvec", "ij,j->i", [(6, 9), (9,)])
einsum_case("inner", "i,i", [(17,), (17,)])
einsum_case("outer", "i,j->ij", [(5,), (4,)])
einsum_case("transpose", "ij->ji", [(3, 7)])
einsum_case("permute", "abcd->dbca", [(2, 3, 4, 5)])
einsum_case("diagonal", "ii->i", [(6, 6)])
einsum_case("batch_diagonal", "...ii->...i", [(3, 5, 5)])
einsum_case("trace", "ii", [(4, 4)])
einsum_case("sum_all", "ij->", [(5, 6)])
einsum_case("sum_rows", "ij->i", [(5, 6)])
einsum_case("implicit", "ij,jk", [(4, 3), (3, 5)])
einsum_case("bilinear", "bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)])
einsum_case("ellipsis_matmul", "...ij,...jk->...ik", [(2, 3, 4, 5), (2, 3, 5, 2)])


# float64 at the boundary, computed in float32.
x64 = rng.standard_normal((4, 33))
save("float64_chain",
     [h.make_node("Mul", ["x", "x"], ["s"]), h.make_node("Add", ["s", "x"], ["y"])],
     {"x": x64}, (x64.astype(f32) * x64.astype(f32) + x64.astype(f32)).astype(np.float64),
     tolerance="atol=1e-5")
save("float64_reduce_max",
     [h.make_node("ReduceMax", ["x"], ["y"], axes=[1], keepdims=0)],
     {"x": x64}, x64.astype(f32).max(axis=1).astype(np.float64), opset=13)
x32 = rng.standard_normal((3, 10)).astype(f32)
save("float64_cast_inside",
     [h.make_node("Cast", ["x"], ["d"], to=11), h.make_node("Mul", ["d", "two"], ["m"]),
      h.make_node("Cast", ["m"], ["y"], to=1)],
     {"x": x32}, x32 * 2, inits=[("two", np.array(2.0, np.float64))])
