#!/usr/bin/python3
"""Generates the constant-folds suite: every op the importer evaluates on
constants (the graph ops' folders, lib/Dialect/Graph/IR/GraphFolds.cpp, which
the importer calls on an op on constants) and every graph folder that computes
values (QuantizeLinear of a constant), checked against
the same op lowered and run in npu-sim, and both against numpy references of
the ONNX definitions. Each model has two outputs: the op on initializers
(folded at compile time) and the op on graph inputs holding the same values
(lowered). Shapes are chosen so that a wrong fold shows: a permutation that
is not its own inverse, slices with steps, Gather with repeats and negative
indices, integer division of negative numbers, rounding ties; equal extents
where a wrong index still reads in range.

Every output is compared bit for bit (tolerance.txt exact=1): folding and the
lowered ops are exact, except f32 division and square roots on VECTOR,
compared in their own tests with the default tolerance.

usage: gen_constant_folds.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto as T
from onnx import helper as h

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_builder import save_reference_test  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(20261205)


def fold_test(name, op, operands, attrs=None, consts=(), exact=True, opset=17, expected=None):
    """`op` on `operands` (numpy arrays) twice: once on initializers (folded)
    and once on graph inputs (lowered). `consts` names operand indices that
    stay initializers in both (attribute-like inputs: shapes, axes, pads).
    `expected`, when given, is the value of both (where the ONNX reference
    does not define it)."""
    attrs = attrs or {}
    inits, feeds, folded_ins, lowered_ins = [], {}, [], []
    for k, v in enumerate(operands):
        v = np.asarray(v)
        cname = "c%d" % k
        inits.append((cname, v))
        folded_ins.append(cname)
        if k in consts:
            lowered_ins.append(cname)
            continue
        iname = "x%d" % k
        feeds[iname] = v
        lowered_ins.append(iname)
    nodes = [h.make_node(op, folded_ins, ["folded"], **attrs), h.make_node(op, lowered_ins, ["lowered"], **attrs)]
    save_reference_test(out, name, nodes, feeds, ["folded", "lowered"], inits, opset,
                        "exact=1" if exact else None, None if expected is None else [expected] * 2)


def f32(*shape):
    return (rng.standard_normal(shape) * 3).astype(np.float32)


def i32(*shape, lo=-50, hi=50):
    return rng.integers(lo, hi, shape).astype(np.int32)


i64 = lambda *v: np.asarray(v, np.int64)  # noqa: E731

# Data movement.
fold_test("fold_transpose_3d", "Transpose", [f32(2, 3, 5)], {"perm": [1, 2, 0]})
fold_test("fold_transpose_4d", "Transpose", [i32(2, 3, 4, 5)], {"perm": [0, 2, 3, 1]})
# Equal extents: a fold that permutes the wrong way still reads in range, so
# only the values show it.
fold_test("fold_transpose_cube", "Transpose", [f32(3, 3, 3)], {"perm": [1, 2, 0]})
fold_test("fold_transpose_square_4d", "Transpose", [i32(2, 2, 2, 2)], {"perm": [0, 2, 3, 1]})
fold_test("fold_reshape", "Reshape", [f32(2, 3, 4), i64(4, -1)], consts=(1,))
fold_test("fold_slice_steps", "Slice", [f32(4, 9, 7), i64(1, 8), i64(4, 0), i64(1, 2), i64(1, -3)], consts=(1, 2, 3, 4))
fold_test("fold_expand", "Expand", [f32(3, 1, 4), i64(2, 3, 5, 4)], consts=(1,))
fold_test("fold_concat", "Concat", [f32(2, 3, 4), f32(2, 1, 4), f32(2, 2, 4)], {"axis": 1})
fold_test("fold_gather_repeats", "Gather", [f32(3, 6, 2), i64(5, -1, 0, 5, 2)], {"axis": 1}, consts=(1,))
# Arithmetic in the element type's precision.
fold_test("fold_add_f32", "Add", [f32(2, 3, 4), f32(3, 1)])
fold_test("fold_sub_f32", "Sub", [f32(2, 3, 4), f32(4)])
fold_test("fold_mul_f32", "Mul", [f32(2, 3, 4), f32(2, 3, 4)])
fold_test("fold_div_f32", "Div", [f32(2, 3, 4), f32(2, 3, 4) + 10], exact=False)
divisor = i32(3, 7)
divisor[divisor == 0] = 3
fold_test("fold_div_i32", "Div", [i32(3, 7), divisor])
# Sums past the int32 range: ONNX leaves integer overflow open; VECTOR
# saturates (docs/numerics.md), and so does the fold, in both directions.
sign = np.where(rng.integers(0, 2, (2, 5)) == 0, 1, -1).astype(np.int32)
big_a, big_b = (i32(2, 5, lo=2**30, hi=2**31 - 1) * sign for _ in range(2))
fold_test("fold_add_i32_saturates", "Add", [big_a, big_b],
          expected=np.clip(big_a.astype(np.int64) + big_b, -2**31, 2**31 - 1).astype(np.int32))
# Narrower integers run in int32 on the NPU and wrap to their width, as
# ONNX's integers do; the fold wraps the same way (it saturated once).
i8 = lambda *v: np.asarray(v, np.int8)  # noqa: E731
fold_test("fold_add_i8_wraps", "Add", [i8(100, -100, 127, -128, 5), i8(100, -100, 1, -1, -5)])
fold_test("fold_mul_i8_wraps", "Mul", [i8(16, -16, 127, -128, 3), i8(8, 9, 2, -1, -7)])
fold_test("fold_div_i8_min", "Div", [i8(-128, 127, -7, 7), i8(-1, -1, 2, -2)],
          expected=i8(-128, -127, -3, -3))
fold_test("fold_sub_u8_wraps", "Sub", [np.asarray([0, 10, 255, 3], np.uint8), np.asarray([1, 20, 0, 200], np.uint8)])
fold_test("fold_add_u8_wraps", "Add", [np.asarray([200, 255, 1], np.uint8), np.asarray([100, 255, 2], np.uint8)])
fold_test("fold_mul_i16_wraps", "Mul", [np.asarray([200, -300, 181], np.int16), np.asarray([200, 300, 181], np.int16)])
fold_test("fold_sub_u16_wraps", "Sub", [np.asarray([0, 5, 65535], np.uint16), np.asarray([1, 6, 0], np.uint16)])
fold_test("fold_add_u16_wraps", "Add", [np.asarray([65535, 40000], np.uint16), np.asarray([1, 30000], np.uint16)])
fold_test("fold_max_f32", "Max", [f32(2, 3, 4), f32(3, 4)])
fold_test("fold_min_i32", "Min", [i32(2, 3, 4), i32(4)])
fold_test("fold_neg", "Neg", [f32(2, 7)])
fold_test("fold_abs", "Abs", [f32(3, 5)])
fold_test("fold_relu_f32", "Relu", [np.concatenate([f32(3, 5).ravel(), [0.0, -0.0, -1e-30]]).astype(np.float32)])
halves = (np.arange(-8, 8) + 0.5).astype(np.float32).reshape(4, 4)
fold_test("fold_floor", "Floor", [halves])
fold_test("fold_ceil", "Ceil", [halves])
fold_test("fold_round_ties", "Round", [halves])
fold_test("fold_sqrt", "Sqrt", [np.abs(f32(3, 5)) + 0.1], exact=False)
# Comparisons, logic, selection, casts.
a, b = i32(3, 5, lo=-3, hi=3), i32(3, 5, lo=-3, hi=3)
for op in ("Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual"):
    fold_test("fold_" + op.lower(), op, [a, b], opset=17)
p, q = rng.integers(0, 2, (3, 4)).astype(bool), rng.integers(0, 2, (3, 4)).astype(bool)
for op in ("And", "Or", "Xor"):
    fold_test("fold_" + op.lower(), op, [p, q])
fold_test("fold_not", "Not", [p])
fold_test("fold_where", "Where", [p, f32(3, 4), f32(4)])
fold_test("fold_cast_f32_to_i32", "Cast", [np.concatenate([halves.reshape(-1), f32(8)]).astype(np.float32)],
          {"to": T.INT32})
fold_test("fold_cast_i32_to_f32", "Cast", [i32(4, 3)], {"to": T.FLOAT})
fold_test("fold_cast_to_bool", "Cast", [np.asarray([0.0, -0.0, 0.5, -2.0, 3.0, 0.0], np.float32)], {"to": T.BOOL})
# QuantizeLinear of a constant (graph.quantize's folder): ties, saturation.
s = np.float32(0.25)
ties = (np.arange(-12, 12) + 0.5).astype(np.float32) * s
fold_test("fold_quantize_ties", "QuantizeLinear",
          [np.concatenate([ties, np.asarray([100.0, -100.0], np.float32)]), s, np.int8(3)], consts=(1, 2))
fold_test("fold_quantize_per_axis", "QuantizeLinear",
          [f32(4, 3), np.asarray([0.5, 0.25, 0.125], np.float32), np.asarray([0, 10, -5], np.int8)],
          {"axis": 1}, consts=(1, 2), opset=13)
