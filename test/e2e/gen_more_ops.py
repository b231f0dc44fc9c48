#!/usr/bin/python3
"""Generates models of operators newer than Debian's ONNX node tests (opsets
18 to 26), each with test_data_set_0, against numpy evaluations of the ONNX
definitions (the operator documentation's reference code):

- bitwise_<op>_<type>: BitwiseAnd, BitwiseOr, BitwiseXor (broadcasting) and
  BitwiseNot (opset 18) of int8, uint8, int16, uint16, int32 and int64;
- cumprod_<case>: CumProd (opset 26) of float, int32 and int64 along each
  axis, exclusive and reverse, a length that is not a power of two;
- lpnorm_<case>: LpNormalization with p 1 and 2 along the default, first
  and middle axes (x / ||x||_p, no epsilon);

usage: gen_more_ops.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import helper as h

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_builder  # noqa: E402

if len(sys.argv) != 2:
    sys.exit(__doc__.strip().splitlines()[-1])
out = sys.argv[1]
rng = np.random.default_rng(20261207)
f32 = np.float32


def save(name, nodes, feeds, expected, inits=(), opset=18, tolerance=None):
    onnx_builder.save_reference_test(out, name, nodes, feeds, ["y"], inits=inits, opset=opset,
                                     tolerance=tolerance, expected=[np.asarray(expected)])


def ints(dtype, shape):
    """Values over the type's range (int64: int32's, which npu-sim stores)."""
    info = np.iinfo(np.int32 if dtype == np.int64 else dtype)
    return rng.integers(info.min, int(info.max) + 1, shape).astype(dtype)


# Bitwise ops: the ONNX docs' shapes (2-d, 3-d, a 4-d by 3-d broadcast).
BITWISE = {"And": np.bitwise_and, "Or": np.bitwise_or, "Xor": np.bitwise_xor}
for dtype, (sa, sb) in ((np.int32, ((3, 4), (3, 4))), (np.int16, ((3, 4, 5), (3, 4, 5))),
                        (np.uint8, ((3, 4, 5, 6), (4, 5, 6))), (np.int8, ((2, 33), (33,))),
                        (np.uint16, ((5, 7), (5, 1))), (np.int64, ((4, 9), (4, 9)))):
    tname = np.dtype(dtype).name
    for op, fn in BITWISE.items():
        a, b = ints(dtype, sa), ints(dtype, sb)
        save("bitwise_%s_%s" % (op.lower(), tname), [h.make_node("Bitwise" + op, ["a", "b"], ["y"])],
             {"a": a, "b": b}, fn(a, b))
    x = ints(dtype, sa)
    save("bitwise_not_%s" % tname, [h.make_node("BitwiseNot", ["x"], ["y"])], {"x": x}, np.bitwise_not(x))


def cumprod_ref(x, axis, exclusive, reverse):
    y = np.flip(x, axis) if reverse else x
    p = np.cumprod(y, axis=axis, dtype=x.dtype)
    if exclusive:
        ones = np.ones_like(np.take(p, [0], axis=axis))
        p = np.concatenate([ones, np.take(p, range(p.shape[axis] - 1), axis=axis)], axis=axis)
    return np.flip(p, axis) if reverse else p


# CumProd: the axis a constant input, as for CumSum. Floats near 1 (a
# product of 37 stays in range), integers of -3..3 (in int32).
for dtype, shape in ((f32, (3, 37)), (np.int32, (4, 5, 3)), (np.int64, (2, 9)), (f32, (1,))):
    for axis in range(-1, len(shape)):
        for exclusive in (0, 1):
            for reverse in (0, 1):
                if axis not in (-1, 1) and (exclusive or reverse):
                    continue
                if np.issubdtype(dtype, np.integer):
                    x = rng.integers(-3, 4, shape).astype(dtype)
                else:
                    x = rng.uniform(0.8, 1.25, shape).astype(dtype) * rng.choice([-1, 1], shape).astype(dtype)
                name = "cumprod_%s_%s_axis%s%s%s" % (np.dtype(dtype).name, "x".join(map(str, shape)),
                                                     str(axis).replace("-", "m"),
                                                     "_exclusive" if exclusive else "",
                                                     "_reverse" if reverse else "")
                node = h.make_node("CumProd", ["x", "axis"], ["y"], exclusive=exclusive, reverse=reverse)
                save(name, [node], {"x": x}, cumprod_ref(x, axis % len(shape), exclusive, reverse),
                     inits=[("axis", np.array(axis, np.int64))], opset=26,
                     tolerance=None if np.issubdtype(dtype, np.integer) else "atol=1e-5 rtol=1e-5")


# LpNormalization: x / (sum |x|^p)^(1/p) along the axis, in float64.
for p, axis, shape in ((2, None, (3, 4, 5)), (1, None, (3, 4, 5)), (2, 0, (6, 7)), (1, 1, (2, 33, 9)),
                       (2, 1, (1, 64, 7, 7))):
    x = rng.standard_normal(shape).astype(f32)
    attrs = {"p": p} if axis is None else {"p": p, "axis": axis}
    a = -1 if axis is None else axis
    norm = np.power(np.power(np.abs(x.astype(np.float64)), p).sum(axis=a, keepdims=True), 1.0 / p)
    save("lpnorm_p%d_axis%s_%s" % (p, "default" if axis is None else axis, "x".join(map(str, shape))),
         [h.make_node("LpNormalization", ["x"], ["y"], **attrs)], {"x": x}, (x / norm).astype(f32),
         opset=22, tolerance="atol=1e-6 rtol=1e-5")
