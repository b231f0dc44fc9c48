#!/usr/bin/python3
"""Generates models of operators newer than Debian's ONNX node tests (opsets
18 to 26), each with test_data_set_0. The expected outputs are numpy
evaluations of the ONNX definitions: scripts/onnx_reference (ports of the
operator documentation's reference code, checked against ONNX's documented
outputs where it gives them), except the spatial transformer's GridSample,
which is sampled here:

- bitwise_<op>_<type>: BitwiseAnd, BitwiseOr, BitwiseXor (broadcasting) and
  BitwiseNot (opset 18) of int8, uint8, int16, uint16, int32 and int64;
- cumprod_<case>: CumProd (opset 26) of float, int32 and int64 along each
  axis, exclusive and reverse, a length that is not a power of two;
- lpnorm_<case>: LpNormalization with p 1 and 2 along the default, first
  and middle axes (x / ||x||_p, no epsilon);
- center_crop_pad_<case>: CenterCropPad (opset 18) cropping, padding, both,
  on listed (and negative) axes of HWC and CHW images, int8 and uint8 too;
- rotary_<case>: RotaryEmbedding (opset 23) of 4-D and 3-D inputs, with
  position_ids given at run time (rows gathered from the caches) or caches
  per position, interleaved or halves, a partial rotary_embedding_dim,
  float16;
- tensorscatter_<case>: TensorScatter (opset 24) KV-cache updates, linear
  and circular (wrapping past the end), write_indices at run time or
  absent, the default and an explicit axis, 3-D, float16 and int8 caches;
- affine_grid_<case>: AffineGrid (opset 20) 2-D and 3-D, align_corners 0
  and 1, theta at run time; a spatial transformer (AffineGrid feeding
  GridSample, bilinear) against numpy's sampling of the ONNX definition;
- col2im_<case>: Col2Im (opset 18) of 1-D, 2-D and 3-D blocks with pads,
  strides and dilations (overlapping blocks summed), and an Im2Col round
  trip of non-overlapping blocks;
- roialign_<case>: RoiAlign (opset 16) avg and max, half_pixel and
  output_half_pixel, fixed sampling ratios with run-time rois, the adaptive
  ratio (0) with constant rois, rois past the image's border, two images;
- group_norm_<case>: GroupNormalization per channel (opset 21) and per group
  (opset 18), 1-D and 2-D feature maps, float16 (computed in float32);
- global_lp_pool_<case>: GlobalLpPool with p 1, 2 and 3 over 1-D, 2-D and
  3-D feature maps;
- bitcast_<case>: BitCast (opset 26) between float32 and int32, float16
  and int16, int8 and uint8 (graph inputs, a computed value, a folded
  constant);
- deform_conv_<case>: DeformConv (opset 19) with and without mask and bias,
  pads, strides, dilations, groups and offset groups, offsets that move taps
  outside the image;
- resize_antialias_<case>: Resize (opset 18) linear and cubic with
  antialias, downscaling by scales and by sizes, exclude_outside, one axis
  upscaled (where antialias changes nothing);
- resize_axes_<case>: Resize (opset 18) with `axes` (scales or sizes of the
  listed axes only, in any order) and keep_aspect_ratio_policy not_larger /
  not_smaller over those axes (nearest, half_pixel, round_prefer_floor);
- resize_crop_<case>: Resize with coordinate_transformation_mode
  tf_crop_and_resize (linear and cubic), crops inside the image and past
  its border (extrapolation_value), with `axes`;
- maxpool_dilated_<case>: MaxPool whose strides are multiples of its
  dilations (read as an undilated pooling of the subsampled input), with
  pads and ceil_mode;
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

out = onnx_builder.output_dir(__doc__)
rng = np.random.default_rng(20261207)
f32 = np.float32
save = onnx_builder.y_saver(out, 18)


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
                save(name, [node], {"x": x}, None,
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
         None, inits=[("shape", np.array(size, np.int64))])


# Pad with negative pads (constant mode): numpy pads the positive part and
# slices off the negative one.


for name, shape, pads in (("crop_and_pad", (1, 3, 10, 12), [0, 0, -2, 3, 0, 0, 1, -4]),
                          ("crop_only", (2, 7, 9), [0, -1, -3, 0, -2, 0])):
    x = rng.standard_normal(shape).astype(f32)
    save("pad_negative_" + name, [h.make_node("Pad", ["x", "pads", "v"], ["y"], mode="constant")], {"x": x},
         None, inits=[("pads", np.array(pads, np.int64)), ("v", np.array(0.5, f32))])




for name, xshape, heads, interleaved, rd, with_pos, dtype in (
        ("4d", (2, 4, 3, 8), 0, 0, 0, True, f32),
        ("3d_input", (2, 3, 32), 4, 0, 0, True, f32),
        ("interleaved", (2, 4, 3, 8), 0, 1, 0, True, f32),
        ("with_rotary_dim", (2, 4, 3, 16), 0, 0, 8, True, f32),
        ("with_interleaved_rotary_dim", (2, 3, 64), 4, 1, 8, True, f32),
        ("no_position_ids", (2, 4, 3, 8), 0, 0, 0, False, f32),
        ("no_position_ids_interleaved", (2, 3, 32), 4, 1, 0, False, f32),
        ("no_position_ids_rotary_dim", (2, 4, 3, 16), 0, 0, 8, False, f32),
        ("llama_f16", (1, 8, 7, 64), 0, 0, 0, True, np.float16)):
    x = rng.standard_normal(xshape).astype(dtype)
    batch, seq = xshape[0], (xshape[2] if len(xshape) == 4 else xshape[1])
    d = xshape[3] if len(xshape) == 4 else xshape[2] // heads
    half = (rd or d) // 2
    if with_pos:
        # A wider cache than the rotary half (the reference slices it).
        theta = np.arange(50)[:, None] / (10000.0 ** (np.arange(half + 2)[None, :] / (half + 2)))
        pos = rng.integers(0, 50, (batch, seq)).astype(np.int64)
    else:
        theta = rng.uniform(0, 6.3, (batch, seq, half))
        pos = None
    cos, sin = np.cos(theta).astype(dtype), np.sin(theta).astype(dtype)
    attrs = {"interleaved": interleaved}
    if heads:
        attrs["num_heads"] = heads
    if rd:
        attrs["rotary_embedding_dim"] = rd
    feeds = {"x": x, "cos": cos, "sin": sin}
    ins = ["x", "cos", "sin"]
    if with_pos:
        feeds["pos"] = pos
        ins.append("pos")
    save("rotary_" + name, [h.make_node("RotaryEmbedding", ins, ["y"], **attrs)], feeds, None, opset=23,
         tolerance="atol=2e-3 rtol=2e-3" if dtype == np.float16 else "atol=1e-5 rtol=1e-5")




for name, pshape, seq, axis, mode, widx, dtype in (
        ("linear", (2, 3, 8, 4), 2, None, "linear", [1, 6], f32),
        ("circular", (2, 3, 8, 4), 3, None, "circular", [2, 7], f32),
        ("no_write_indices", (2, 3, 8, 4), 5, None, "linear", None, f32),
        ("3d", (2, 5, 6), 2, 1, "linear", [0, 3], f32),
        ("axis1_circular", (2, 10, 2, 3), 4, 1, "circular", [8, 1], f32),
        ("decode_f16", (1, 8, 16, 64), 1, None, "linear", [9], np.float16),
        ("int8", (2, 2, 6, 8), 3, 2, "linear", [3, 0], np.int8)):
    past = ints(dtype, pshape) if dtype == np.int8 else rng.standard_normal(pshape).astype(dtype)
    ushape = list(pshape)
    ax = (-2 if axis is None else axis) % len(pshape)
    ushape[ax] = seq
    update = ints(dtype, ushape) if dtype == np.int8 else rng.standard_normal(ushape).astype(dtype)
    attrs = {"mode": mode}
    if axis is not None:
        attrs["axis"] = axis
    feeds = {"past": past, "update": update}
    ins = ["past", "update"]
    w = np.zeros(pshape[0], np.int64) if widx is None else np.array(widx, np.int64)
    if widx is not None:
        feeds["w"] = w
        ins.append("w")
    save("tensorscatter_" + name, [h.make_node("TensorScatter", ins, ["y"], **attrs)], feeds,
         None, opset=24)






for name, size, align in (("2d", (2, 3, 5, 6), 0), ("2d_align_corners", (2, 3, 5, 6), 1),
                          ("3d", (2, 1, 3, 4, 5), 0), ("3d_align_corners", (1, 2, 4, 1, 3), 1)):
    d = len(size) - 2
    theta = (np.eye(d, d + 1) + 0.3 * rng.standard_normal((size[0], d, d + 1))).astype(f32)
    save("affine_grid_" + name, [h.make_node("AffineGrid", ["theta", "size"], ["y"], align_corners=align)],
         {"theta": theta}, None, inits=[("size", np.array(size, np.int64))],
         opset=20, tolerance="atol=1e-5 rtol=1e-5")


def bilinear_zeros(img, grid):
    """GridSample bilinear, zeros padding, align_corners 0, in float64."""
    n, ch, hh, ww = img.shape
    out = np.zeros((n, ch) + grid.shape[1:3])
    for b in range(n):
        for i in range(grid.shape[1]):
            for j in range(grid.shape[2]):
                x = ((grid[b, i, j, 0] + 1) * ww - 1) / 2
                y = ((grid[b, i, j, 1] + 1) * hh - 1) / 2
                x0, y0 = int(np.floor(x)), int(np.floor(y))
                for yy, wy in ((y0, y0 + 1 - y), (y0 + 1, y - y0)):
                    for xx, wx in ((x0, x0 + 1 - x), (x0 + 1, x - x0)):
                        if 0 <= yy < hh and 0 <= xx < ww:
                            out[b, :, i, j] += wy * wx * img[b, :, yy, xx]
    return out.astype(f32)


img = rng.standard_normal((2, 3, 8, 10)).astype(f32)
theta = (np.eye(2, 3) + 0.2 * rng.standard_normal((2, 2, 3))).astype(f32)
grid = onnx_builder.onnx_reference.evaluate_outputs(
    h.make_model(h.make_graph([h.make_node("AffineGrid", ["theta", "size"], ["grid"])], "affine",
                              [h.make_tensor_value_info("theta", onnx_builder.onnx_type(f32), [2, 2, 3])],
                              [h.make_tensor_value_info("grid", 0, None)],
                              [onnx_builder.numpy_helper.from_array(np.array((2, 3, 6, 7), np.int64), "size")]),
                 opset_imports=[h.make_opsetid("", 20)]), {"theta": theta})[0]
save("affine_grid_spatial_transformer",
     [h.make_node("AffineGrid", ["theta", "size"], ["grid"]),
      h.make_node("GridSample", ["img", "grid"], ["y"], mode="linear", padding_mode="zeros")],
     {"img": img, "theta": theta}, bilinear_zeros(img.astype(np.float64), grid.astype(np.float64)),
     inits=[("size", np.array((2, 3, 6, 7), np.int64))], opset=20, tolerance="atol=1e-4 rtol=1e-4")




for name, N, C, image, block, dil, pads, strides in (
        ("2d", 1, 1, (5, 5), (1, 5), (1, 1), (0, 0, 0, 0), (1, 1)),
        ("2d_overlapping", 2, 3, (6, 7), (3, 3), (1, 1), (0, 0, 0, 0), (1, 1)),
        ("2d_pads", 1, 2, (5, 5), (2, 2), (1, 1), (1, 0, 1, 2), (1, 1)),
        ("2d_strides", 1, 1, (9, 9), (3, 3), (1, 1), (0, 0, 0, 0), (2, 2)),
        ("2d_dilations", 1, 2, (6, 6), (2, 2), (2, 2), (0, 0, 0, 0), (1, 1)),
        ("2d_stride_skips_rows", 1, 1, (8, 7), (2, 2), (1, 1), (0, 0, 0, 0), (3, 2)),
        ("1d", 2, 2, (10,), (3,), (1,), (1, 1), (2,)),
        ("3d", 1, 2, (3, 4, 5), (2, 2, 2), (1, 1, 1), (0, 0, 0, 0, 0, 0), (1, 2, 1))):
    n = len(image)
    L = int(np.prod([(image[i] + pads[i] + pads[n + i] - (dil[i] * (block[i] - 1) + 1)) // strides[i] + 1
                     for i in range(n)]))
    x = rng.standard_normal((N, C * int(np.prod(block)), L)).astype(f32)
    save("col2im_" + name, [h.make_node("Col2Im", ["x", "image", "block"], ["y"], dilations=list(dil),
                                        pads=list(pads), strides=list(strides))],
         {"x": x}, None,
         inits=[("image", np.array(image, np.int64)), ("block", np.array(block, np.int64))],
         opset=18, tolerance="atol=1e-5 rtol=1e-5")




for name, xshape, rois, bidx, oh, ow, ratio, scale, mode, half, const_rois in (
        ("avg_half_pixel", (1, 2, 10, 10), [[0, 0, 9, 9], [0, 5, 4, 9], [5, 5, 9, 9]], [0, 0, 0], 5, 5, 2,
         1.0, "avg", True, False),
        ("avg_output_half_pixel", (1, 1, 10, 10), [[0, 0, 9, 9], [0, 5, 4, 9], [5, 5, 9, 9]], [0, 0, 0], 5, 5,
         2, 1.0, "avg", False, False),
        ("max", (2, 3, 8, 9), [[1.5, 0.5, 6.2, 7.1], [0, 0, 3, 2], [-2, 3, 12, 11]], [1, 0, 1], 3, 2, 2, 1.0,
         "max", True, False),
        ("scale_two_images", (2, 4, 12, 16), [[4, 2, 20, 18], [0, 0, 31, 23], [10, 8, 14, 12], [2, 30, 9, 40]],
         [0, 1, 1, 0], 4, 4, 3, 0.5, "avg", True, False),
        ("adaptive_ratio_constant_rois", (1, 2, 16, 16), [[0, 0, 15, 15], [2, 3, 6, 13], [8, 1, 9.5, 2]], [0, 0, 0],
         3, 3, 0, 1.0, "avg", True, True)):
    x = rng.standard_normal(xshape).astype(f32)
    rois_a, bidx_a = np.array(rois, f32), np.array(bidx, np.int64)
    node = h.make_node("RoiAlign", ["x", "rois", "b"], ["y"], output_height=oh, output_width=ow,
                       sampling_ratio=ratio, spatial_scale=scale, mode=mode,
                       coordinate_transformation_mode="half_pixel" if half else "output_half_pixel")
    ref = None
    if const_rois:
        save("roialign_" + name, [node], {"x": x, "b": bidx_a}, ref, inits=[("rois", rois_a)], opset=16,
             tolerance="atol=1e-5 rtol=1e-5")
    else:
        save("roialign_" + name, [node], {"x": x, "rois": rois_a, "b": bidx_a}, ref, opset=16,
             tolerance="atol=1e-5 rtol=1e-5")




for name, xshape, G, eps, opset, dtype in (("example", (3, 4, 2, 2), 2, 1e-5, 21, f32),
                                           ("epsilon", (3, 4, 2, 2), 2, 1e-2, 21, f32),
                                           ("unet_block", (1, 64, 16, 16), 32, 1e-6, 21, f32),
                                           ("1d", (2, 6, 50), 3, 1e-5, 21, f32),
                                           ("per_group_opset18", (2, 8, 5, 5), 4, 1e-5, 18, f32),
                                           ("f16", (1, 32, 8, 8), 8, 1e-5, 21, np.float16)):
    x = (rng.standard_normal(xshape) * 3 + 1).astype(dtype)
    params = xshape[1] if opset >= 21 else G
    scale, bias = rng.standard_normal(params).astype(dtype), rng.standard_normal(params).astype(dtype)
    save("group_norm_" + name, [h.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=G, epsilon=eps)],
         {"x": x, "s": scale, "b": bias}, None, opset=opset,
         tolerance="atol=4e-3 rtol=4e-3" if dtype == np.float16 else "atol=1e-5 rtol=1e-4")


for name, xshape, p in (("p2_2d", (2, 3, 7, 9), 2), ("p1_1d", (1, 4, 33), 1), ("p3_3d", (1, 2, 3, 4, 5), 3),
                        ("default_p", (1, 8, 14, 14), None)):
    x = rng.standard_normal(xshape).astype(f32)
    axes = tuple(range(2, len(xshape)))
    pp = 2 if p is None else p
    ref = np.power(np.power(np.abs(x.astype(np.float64)), pp).sum(axis=axes, keepdims=True), 1.0 / pp)
    attrs = {} if p is None else {"p": p}
    save("global_lp_pool_" + name, [h.make_node("GlobalLpPool", ["x"], ["y"], **attrs)], {"x": x},
         ref.astype(f32), tolerance="atol=1e-5 rtol=1e-5")


for a, b in ((f32, np.int32), (np.int32, f32), (np.float16, np.int16), (np.int16, np.float16),
             (np.uint8, np.int8), (np.int8, np.uint8)):
    if np.issubdtype(a, np.integer):
        x = ints(a, (3, 4))
        if a in (np.int32, np.int16):  # finite float bit patterns (no NaN payloads to compare)
            x = (rng.standard_normal((3, 4)) * 100).astype(b).view(a)
    else:
        x = (rng.standard_normal((3, 4)) * 100).astype(a)
    save("bitcast_%s_to_%s" % (np.dtype(a).name, np.dtype(b).name),
         [h.make_node("BitCast", ["x"], ["y"], to=onnx_builder.onnx_type(b))], {"x": x}, x.view(b), opset=26)
# A computed value's bits: the exponent field of 2x (IEEE: (bits >> 23) & 255).
x = rng.uniform(-1000, 1000, (4, 33)).astype(f32)
save("bitcast_float_exponent",
     [h.make_node("Mul", ["x", "two"], ["d"]),
      h.make_node("BitCast", ["d"], ["bits"], to=onnx_builder.onnx_type(np.int32)),
      h.make_node("Add", ["bits", "k"], ["y"])],
     {"x": x}, (x * f32(2)).view(np.int32) + np.int32(7),
     inits=[("two", np.array(2, f32)), ("k", np.array(7, np.int32))], opset=26)
# A constant bitcast folds at import.
c = np.array([1.0, -2.5, 0.0, 3e-8], f32)
y0 = rng.integers(-1000, 1000, (2, 4)).astype(np.int32)
save("bitcast_constant_folded",
     [h.make_node("BitCast", ["c"], ["ci"], to=onnx_builder.onnx_type(np.int32)),
      h.make_node("Sub", ["x", "ci"], ["y"])],
     {"x": y0}, y0 - c.view(np.int32), inits=[("c", c)], opset=26)




for name, xshape, M, k, group, og, pads, strides, dil, with_mask, with_bias in (
        ("basic", (1, 1, 3, 3), 1, (2, 2), 1, 1, (0, 0, 0, 0), (1, 1), (1, 1), False, False),
        ("with_mask_bias", (1, 1, 3, 3), 1, (2, 2), 1, 1, (0, 0, 0, 0), (1, 1), (1, 1), True, True),
        ("padded", (2, 3, 7, 8), 4, (3, 3), 1, 1, (1, 1, 1, 1), (1, 1), (1, 1), True, True),
        ("strided_dilated", (1, 4, 9, 10), 6, (3, 3), 1, 1, (2, 1, 2, 1), (2, 2), (2, 1), False, True),
        ("groups", (1, 4, 6, 6), 6, (3, 3), 2, 2, (1, 1, 1, 1), (1, 1), (1, 1), True, False),
        ("offset_groups", (1, 6, 5, 7), 2, (2, 3), 1, 3, (0, 1, 0, 1), (1, 2), (1, 1), True, True)):
    N, C, H, W = xshape
    kh, kw = k
    oh = (H + pads[0] + pads[2] - ((kh - 1) * dil[0] + 1)) // strides[0] + 1
    ow = (W + pads[1] + pads[3] - ((kw - 1) * dil[1] + 1)) // strides[1] + 1
    x = rng.standard_normal(xshape).astype(f32)
    w = rng.standard_normal((M, C // group, kh, kw)).astype(f32)
    off = (rng.standard_normal((N, 2 * og * kh * kw, oh, ow)) * 1.5).astype(f32)
    feeds = {"x": x, "w": w, "off": off}
    ins = ["x", "w", "off"]
    b = rng.standard_normal(M).astype(f32) if with_bias else None
    mask = rng.uniform(0, 1, (N, og * kh * kw, oh, ow)).astype(f32) if with_mask else None
    ins.append("b" if with_bias else "")
    if with_bias:
        feeds["b"] = b
    if with_mask:
        ins.append("mask")
        feeds["mask"] = mask
    while ins[-1] == "":
        ins.pop()
    save("deform_conv_" + name,
         [h.make_node("DeformConv", ins, ["y"], kernel_shape=list(k), group=group, offset_group=og,
                      pads=list(pads), strides=list(strides), dilations=list(dil))],
         feeds, None, opset=19,
         tolerance="atol=1e-4 rtol=1e-4")








for name, xshape, scales, sizes, mode, excl in (
        ("downsample_scales_linear", (1, 1, 4, 4), (1, 1, 0.6, 0.6), None, "linear", 0),
        ("downsample_scales_cubic", (1, 1, 4, 4), (1, 1, 0.6, 0.6), None, "cubic", 0),
        ("downsample_sizes_linear", (1, 1, 4, 4), None, (1, 1, 3, 3), "linear", 0),
        ("downsample_sizes_cubic", (1, 1, 4, 4), None, (1, 1, 3, 3), "cubic", 0),
        ("downsample_quarter_linear", (1, 3, 32, 24), (1, 1, 0.25, 0.25), None, "linear", 0),
        ("downsample_cubic_exclude_outside", (2, 2, 17, 9), (1, 1, 0.5, 0.75), None, "cubic", 1),
        ("mixed_up_down_linear", (1, 2, 12, 5), (1, 1, 0.5, 2.0), None, "linear", 0)):
    x = rng.standard_normal(xshape).astype(f32)
    if sizes is not None:
        oshape = sizes
        sc = tuple(o / i for o, i in zip(sizes, xshape))
        ins = ["x", "", "", "sizes"]
        inits = [("sizes", np.array(sizes, np.int64))]
    else:
        oshape = tuple(int(np.floor(i * s)) for i, s in zip(xshape, scales))
        sc = scales
        ins = ["x", "", "scales"]
        inits = [("scales", np.array(scales, f32))]
    save("resize_antialias_" + name,
         [h.make_node("Resize", ins, ["y"], mode=mode, antialias=1, exclude_outside=excl)], {"x": x},
         None, inits=inits, opset=18, tolerance="atol=1e-5 rtol=1e-5")




for name, xshape, k, st, p, d, ceil in (("2d", (1, 3, 40, 36), (3, 4), (4, 2), (2, 1, 2, 1), (2, 2), 0),
                                        ("2d_ceil", (2, 2, 23, 19), (3, 3), (6, 3), (1, 1, 1, 1), (3, 3), 1),
                                        ("1d", (1, 4, 300), (7,), (3,), (5, 5), (3,), 0)):
    x = rng.standard_normal(xshape).astype(f32)
    save("maxpool_dilated_" + name,
         [h.make_node("MaxPool", ["x"], ["y"], kernel_shape=list(k), strides=list(st), pads=list(p),
                      dilations=list(d), ceil_mode=ceil)],
         {"x": x}, None, opset=12)




for name, xshape, scales, sizes, axes, policy in (
        ("scales_2_3", (1, 1, 2, 2), (2.0, 3.0), None, (2, 3), None),
        ("scales_3_2", (1, 1, 2, 2), (3.0, 2.0), None, (3, 2), None),
        ("sizes_2_3", (1, 1, 2, 2), None, (7, 8), (2, 3), None),
        ("sizes_negative_axes", (2, 3, 4, 5), None, (6, 3), (-1, -2), None),
        ("sizes_not_larger", (1, 1, 4, 4), None, (7, 8), (2, 3), "not_larger"),
        ("sizes_not_smaller", (1, 1, 4, 4), None, (7, 8), (3, 2), "not_smaller"),
        ("sizes_downsample_not_larger", (1, 1, 6, 6), None, (2, 3), (2, 3), "not_larger")):
    x = rng.standard_normal(xshape).astype(f32)
    rank = len(xshape)
    full_scales = [1.0] * rank
    out_shape = list(xshape)
    if sizes is None:
        for a, sc in zip(axes, scales):
            full_scales[a % rank] = sc
        out_shape = [int(np.floor(n * sc)) for n, sc in zip(xshape, full_scales)]
        ins, inits = ["x", "", "scales"], [("scales", np.array(scales, f32))]
    else:
        for a, sz in zip(axes, sizes):
            full_scales[a % rank] = f32(sz) / f32(xshape[a % rank])
            out_shape[a % rank] = sz
        if policy:
            listed = [a % rank for a in axes]
            pick = min if policy == "not_larger" else max
            sc = pick(full_scales[a] for a in listed)
            for a in listed:
                full_scales[a] = sc
                out_shape[a] = int(np.round(sc * xshape[a]))
        ins, inits = ["x", "", "", "sizes"], [("sizes", np.array(sizes, np.int64))]
    attrs = {"axes": list(axes), "mode": "nearest"}
    if policy:
        attrs["keep_aspect_ratio_policy"] = policy
    save("resize_axes_" + name, [h.make_node("Resize", ins, ["y"], **attrs)], {"x": x},
         None, inits=inits, opset=18)






for name, xshape, roi, sizes, axes, mode, extrap in (
        ("linear", (1, 1, 4, 4), (0, 0, 0.4, 0.6, 1, 1, 0.6, 0.8), (1, 1, 3, 3), None, "linear", None),
        ("linear_extrapolation", (1, 1, 4, 4), (0, 0, 0.4, 0.6, 1, 1, 1.2, 1.7), (1, 1, 3, 3), None, "linear", 10.0),
        ("cubic_extrapolation", (1, 2, 6, 5), (0, 0, -0.3, 0.1, 1, 1, 0.9, 1.4), (1, 2, 5, 7), None, "cubic", -2.0),
        ("linear_axes_2_3", (2, 3, 8, 8), (0.2, 0.1, 0.8, 0.7), (5, 4), (2, 3), "linear", None),
        ("linear_axes_3_2", (1, 2, 6, 9), (0.0, 0.25, 1.1, 0.75), (4, 3), (3, 2), "linear", 1.5),
        ("one_output", (1, 1, 5, 5), (0, 0, 0.2, 0.3, 1, 1, 0.6, 0.9), (1, 1, 1, 2), None, "linear", None)):
    x = rng.standard_normal(xshape).astype(f32)
    rank = len(xshape)
    roi = [float(v) for v in np.array(roi, f32)]  # the model's float32 roi, as the reference reads it
    full_roi = [0.0] * rank + [1.0] * rank
    out_shape = list(xshape)
    if axes is None:
        full_roi = list(roi)
        out_shape = list(sizes)
    else:
        for i, a in enumerate(axes):
            full_roi[a] = roi[i]
            full_roi[rank + a] = roi[len(axes) + i]
            out_shape[a] = sizes[i]
    attrs = {"mode": mode, "coordinate_transformation_mode": "tf_crop_and_resize"}
    if axes is not None:
        attrs["axes"] = list(axes)
    if extrap is not None:
        attrs["extrapolation_value"] = extrap
    save("resize_crop_" + name, [h.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], **attrs)], {"x": x},
         None, inits=[("roi", np.array(roi, f32)), ("sizes", np.array(sizes, np.int64))], opset=18,
         tolerance="atol=1e-5 rtol=1e-5")
