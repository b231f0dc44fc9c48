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
- center_crop_pad_<case>: CenterCropPad (opset 18) cropping, padding, both,
  on listed (and negative) axes of HWC and CHW images, int8 and uint8 too;
- pad_negative_<case>: Pad in constant mode whose negative pads crop (a crop
  and a pad on one axis, a crop alone);

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


def center_crop_pad_ref(x, shape, axes=None):
    """The ONNX documentation's reference: crop from (dim - size) // 2, pad
    (size - dim) // 2 zeros before."""
    rank = x.ndim
    axes = list(range(rank)) if axes is None else [a % rank for a in axes]
    pad_slices, crop_slices = [slice(None)] * rank, [slice(None)] * rank
    new_shape = list(x.shape)
    for k, a in enumerate(axes):
        size, dim = int(shape[k]), x.shape[a]
        if size < dim:
            start = (dim - size) // 2
            crop_slices[a] = slice(start, start + size)
        elif size > dim:
            start = (size - dim) // 2
            pad_slices[a] = slice(start, start + dim)
        new_shape[a] = size
    cropped = x[tuple(crop_slices)]
    y = np.zeros(new_shape, x.dtype)
    y[tuple(pad_slices)] = cropped
    return y


for name, xshape, size, axes, dtype in (
        ("crop", (20, 10, 3), (10, 7, 3), None, f32),
        ("pad", (10, 7, 3), (20, 10, 3), None, f32),
        ("crop_and_pad", (20, 8, 3), (10, 10, 3), None, f32),
        ("crop_axes_hwc", (20, 8, 3), (10, 9), [0, 1], f32),
        ("crop_negative_axes_hwc", (20, 8, 3), (10, 9), [-3, -2], f32),
        ("crop_axes_chw", (3, 20, 8), (10, 9), [1, 2], f32),
        ("odd_sizes_int8", (1, 3, 15, 16), (17, 11), [2, 3], np.int8),
        ("pad_uint8", (2, 5, 5), (8, 9), [1, 2], np.uint8)):
    x = ints(dtype, xshape) if np.issubdtype(dtype, np.integer) else rng.standard_normal(xshape).astype(dtype)
    attrs = {} if axes is None else {"axes": axes}
    save("center_crop_pad_" + name, [h.make_node("CenterCropPad", ["x", "shape"], ["y"], **attrs)], {"x": x},
         center_crop_pad_ref(x, size, axes), inits=[("shape", np.array(size, np.int64))])


# Pad with negative pads (constant mode): numpy pads the positive part and
# slices off the negative one.
def pad_ref(x, pads, value):
    rank = x.ndim
    pos = [(max(pads[d], 0), max(pads[rank + d], 0)) for d in range(rank)]
    y = np.pad(x, pos, constant_values=value)
    sl = tuple(slice(-min(pads[d], 0), y.shape[d] + min(pads[rank + d], 0)) for d in range(rank))
    return y[sl]


for name, shape, pads in (("crop_and_pad", (1, 3, 10, 12), [0, 0, -2, 3, 0, 0, 1, -4]),
                          ("crop_only", (2, 7, 9), [0, -1, -3, 0, -2, 0])):
    x = rng.standard_normal(shape).astype(f32)
    save("pad_negative_" + name, [h.make_node("Pad", ["x", "pads", "v"], ["y"], mode="constant")], {"x": x},
         pad_ref(x, pads, 0.5), inits=[("pads", np.array(pads, np.int64)), ("v", np.array(0.5, f32))])
