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


def rotary_ref(x, cos_cache, sin_cache, position_ids=None, interleaved=0, rotary_dim=0, num_heads=0):
    """The ONNX operator documentation's reference, in float64."""
    shape = x.shape
    x = x.astype(np.float64)
    x = np.transpose(x, (0, 2, 1, 3)) if x.ndim == 4 else x.reshape(shape[0], shape[1], num_heads, -1)
    d = x.shape[3]
    rd = rotary_dim or d
    xr, xp = x[..., :rd], x[..., rd:]
    half = rd // 2
    cos = cos_cache[position_ids] if position_ids is not None else cos_cache
    sin = sin_cache[position_ids] if position_ids is not None else sin_cache
    cos = np.expand_dims(cos[:, :, :half].astype(np.float64), 2)
    sin = np.expand_dims(sin[:, :, :half].astype(np.float64), 2)
    x1, x2 = (xr[..., 0::2], xr[..., 1::2]) if interleaved else np.split(xr, 2, axis=-1)
    real, imag = cos * x1 - sin * x2, sin * x1 + cos * x2
    if interleaved:
        xr = np.stack([real, imag], axis=-1).reshape(xr.shape)
    else:
        xr = np.concatenate([real, imag], axis=-1)
    y = np.concatenate([xr, xp], axis=-1)
    return y.reshape(shape) if len(shape) == 3 else np.transpose(y, (0, 2, 1, 3))


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
    y = rotary_ref(x, cos, sin, pos, interleaved, rd, heads).astype(dtype)
    save("rotary_" + name, [h.make_node("RotaryEmbedding", ins, ["y"], **attrs)], feeds, y, opset=23,
         tolerance="atol=2e-3 rtol=2e-3" if dtype == np.float16 else "atol=1e-5 rtol=1e-5")


def tensorscatter_ref(past, update, write_indices, axis, mode):
    """The ONNX operator documentation's pseudocode."""
    present = past.copy()
    axis %= past.ndim
    seq = update.shape[axis]
    for prefix in np.ndindex(past.shape[:axis]):
        for i in range(seq):
            j = write_indices[prefix[0]] + i
            if mode == "circular":
                j %= past.shape[axis]
            present[prefix + (j,)] = update[prefix + (i,)]
    return present


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
         tensorscatter_ref(past, update, w, ax, mode), opset=24)


def base_grid(spatial, align):
    axes = []
    for n in spatial:
        if align:
            axes.append(np.array([-1.0]) if n == 1 else -1.0 + 2.0 * np.arange(n) / (n - 1))
        else:
            axes.append(-1.0 + (2.0 * np.arange(n) + 1.0) / n)
    mesh = np.meshgrid(*axes, indexing="ij")
    # homogeneous [.., x, y, (z,) 1]: x the last axis
    return np.stack(list(reversed(mesh)) + [np.ones(spatial)], axis=-1)


def affine_grid_ref(theta, size, align):
    spatial = tuple(size[2:])
    g = base_grid(spatial, align).reshape(-1, len(spatial) + 1)
    out = np.einsum("nij,pj->npi", theta.astype(np.float64), g)
    return out.reshape((size[0],) + spatial + (len(spatial),)).astype(f32)


for name, size, align in (("2d", (2, 3, 5, 6), 0), ("2d_align_corners", (2, 3, 5, 6), 1),
                          ("3d", (2, 1, 3, 4, 5), 0), ("3d_align_corners", (1, 2, 4, 1, 3), 1)):
    d = len(size) - 2
    theta = (np.eye(d, d + 1) + 0.3 * rng.standard_normal((size[0], d, d + 1))).astype(f32)
    save("affine_grid_" + name, [h.make_node("AffineGrid", ["theta", "size"], ["y"], align_corners=align)],
         {"theta": theta}, affine_grid_ref(theta, size, align), inits=[("size", np.array(size, np.int64))],
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
grid = affine_grid_ref(theta, (2, 3, 6, 7), 0)
save("affine_grid_spatial_transformer",
     [h.make_node("AffineGrid", ["theta", "size"], ["grid"]),
      h.make_node("GridSample", ["img", "grid"], ["y"], mode="linear", padding_mode="zeros")],
     {"img": img, "theta": theta}, bilinear_zeros(img.astype(np.float64), grid.astype(np.float64)),
     inits=[("size", np.array((2, 3, 6, 7), np.int64))], opset=20, tolerance="atol=1e-4 rtol=1e-4")


def col2im_ref(data, image, block, dil, pads, strides):
    """The ONNX reference's naive loop, per batch and channel, in float64."""
    n = len(image)
    bl = int(np.prod(block))
    N, CB, L = data.shape
    C = CB // bl
    cols = [(image[i] + pads[i] + pads[n + i] - (dil[i] * (block[i] - 1) + 1)) // strides[i] + 1
            for i in range(n)]
    out = np.zeros((N, C) + tuple(image))
    d = data.astype(np.float64).reshape(N, C, bl, L)
    for k, off in enumerate(np.ndindex(*block)):
        for col, pos in enumerate(np.ndindex(*cols)):
            ind = [pos[i] * strides[i] - pads[i] + off[i] * dil[i] for i in range(n)]
            if all(0 <= ind[i] < image[i] for i in range(n)):
                out[(slice(None), slice(None)) + tuple(ind)] += d[:, :, k, col]
    return out.astype(f32)


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
         {"x": x}, col2im_ref(x, image, block, dil, pads, strides),
         inits=[("image", np.array(image, np.int64)), ("block", np.array(block, np.int64))],
         opset=18, tolerance="atol=1e-5 rtol=1e-5")


def roialign_ref(x, rois, bidx, oh, ow, ratio, scale, mode, half):
    """onnxruntime's RoiAlign kernel (which the ONNX reference ports), in
    float64."""
    R = rois.shape[0]
    _, C, H, W = x.shape
    x = x.astype(np.float64)
    y = np.zeros((R, C, oh, ow))
    off = 0.5 if half else 0.0
    for r in range(R):
        x0, y0, x1, y1 = [float(v) * scale - off for v in rois[r]]
        rw, rh = x1 - x0, y1 - y0
        if not half:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / oh, rw / ow
        gh = ratio if ratio > 0 else int(np.ceil(rh / oh))
        gw = ratio if ratio > 0 else int(np.ceil(rw / ow))
        count = max(gh * gw, 1)
        img = x[bidx[r]]
        for ph in range(oh):
            for pw in range(ow):
                acc = np.zeros(C) if mode == "avg" else None
                for iy in range(gh):
                    yy = y0 + ph * bh + (iy + 0.5) * bh / gh
                    for ix in range(gw):
                        xx = x0 + pw * bw + (ix + 0.5) * bw / gw
                        if yy < -1.0 or yy > H or xx < -1.0 or xx > W:
                            vals = [np.zeros(C)] * 4
                        else:
                            yc, xc = max(yy, 0.0), max(xx, 0.0)
                            yl, xl = int(yc), int(xc)
                            if yl >= H - 1:
                                yh = yl = H - 1
                                yc = float(yl)
                            else:
                                yh = yl + 1
                            if xl >= W - 1:
                                xh = xl = W - 1
                                xc = float(xl)
                            else:
                                xh = xl + 1
                            ly, lx = yc - yl, xc - xl
                            hy, hx = 1 - ly, 1 - lx
                            vals = [hy * hx * img[:, yl, xl], hy * lx * img[:, yl, xh],
                                    ly * hx * img[:, yh, xl], ly * lx * img[:, yh, xh]]
                        if mode == "avg":
                            acc += vals[0] + vals[1] + vals[2] + vals[3]
                        else:
                            m = np.maximum(np.maximum(vals[0], vals[1]), np.maximum(vals[2], vals[3]))
                            acc = m if acc is None else np.maximum(acc, m)
                y[r, :, ph, pw] = acc / count if mode == "avg" else acc
    return y.astype(f32)


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
    ref = roialign_ref(x, rois_a, bidx_a, oh, ow, ratio, scale, mode, half)
    if const_rois:
        save("roialign_" + name, [node], {"x": x, "b": bidx_a}, ref, inits=[("rois", rois_a)], opset=16,
             tolerance="atol=1e-5 rtol=1e-5")
    else:
        save("roialign_" + name, [node], {"x": x, "rois": rois_a, "b": bidx_a}, ref, opset=16,
             tolerance="atol=1e-5 rtol=1e-5")


def group_norm_ref(x, G, scale, bias, eps, per_channel):
    xs = x.shape
    xg = x.astype(np.float64).reshape(xs[0], G, -1)
    y = (xg - xg.mean(axis=2, keepdims=True)) / np.sqrt(xg.var(axis=2, keepdims=True) + eps)
    if per_channel:
        ones = (1,) * (len(xs) - 2)
        y = y.reshape(xs) * scale.astype(np.float64).reshape(-1, *ones) + bias.astype(np.float64).reshape(-1, *ones)
    else:
        y = (y * scale.astype(np.float64).reshape(-1, 1) + bias.astype(np.float64).reshape(-1, 1)).reshape(xs)
    return y.astype(x.dtype)


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
         {"x": x, "s": scale, "b": bias}, group_norm_ref(x, G, scale, bias, eps, opset >= 21), opset=opset,
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


def deform_conv_ref(x, w, off, b, mask, group, og, pads, strides, dil):
    """The ONNX reference's loop: each tap bilinear (GridSample, zeros,
    align_corners 1: at pixel coordinates, a tap outside reads 0), in
    float64."""
    N, C, H, W = x.shape
    M, Cw, kh, kw = w.shape
    oh, ow = off.shape[2:]
    off = off.astype(np.float64).reshape(N, og, kh, kw, 2, oh, ow)
    mask = np.ones((N, og, kh, kw, oh, ow)) if mask is None else mask.astype(np.float64).reshape(N, og, kh, kw, oh, ow)
    x = x.astype(np.float64)
    cols = np.zeros((N, C, kh, kw, oh, ow))
    for n in range(N):
        for c in range(C):
            g = c // (C // og)
            for i in range(kh):
                for j in range(kw):
                    for a in range(oh):
                        for bb in range(ow):
                            yy = a * strides[0] - pads[0] + i * dil[0] + off[n, g, i, j, 0, a, bb]
                            xx = bb * strides[1] - pads[1] + j * dil[1] + off[n, g, i, j, 1, a, bb]
                            y0, x0 = int(np.floor(yy)), int(np.floor(xx))
                            val = 0.0
                            for ty, wy in ((y0, y0 + 1 - yy), (y0 + 1, yy - y0)):
                                for tx, wx in ((x0, x0 + 1 - xx), (x0 + 1, xx - x0)):
                                    if 0 <= ty < H and 0 <= tx < W:
                                        val += wy * wx * x[n, c, ty, tx]
                            cols[n, c, i, j, a, bb] = val * mask[n, g, i, j, a, bb]
    y = np.zeros((N, M, oh, ow))
    for m in range(M):
        gi = m // (M // group)
        cs = slice(gi * Cw, (gi + 1) * Cw)
        y[:, m] = np.einsum("ncijab,cij->nab", cols[:, cs], w[m].astype(np.float64))
        if b is not None:
            y[:, m] += b[m]
    return y.astype(f32)


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
         feeds, deform_conv_ref(x, w, off, b, mask, group, og, pads, strides, dil), opset=19,
         tolerance="atol=1e-4 rtol=1e-4")


def aa_coeffs(ratio, scale, cubic, A=-0.75):
    """ONNX's reference antialias filters (op_resize.py)."""
    scale = min(scale, 1.0)
    if not cubic:
        start = int(np.floor(-1 / scale) + 1)
        args = (np.arange(start, 2 - start) - ratio) * scale
        c = np.clip(1 - np.abs(args), 0, 1)
        return c / c.sum()

    def k(x):
        x = abs(x)
        if x <= 1:
            return (A + 2) * x ** 3 - (A + 3) * x ** 2 + 1
        if x < 2:
            return A * x ** 3 - 5 * A * x ** 2 + 8 * A * x - 4 * A
        return 0.0
    start = int(np.floor(-2 / scale) + 1)
    c = np.array([k(scale * (i - ratio)) for i in range(start, 2 - start)])
    return c / c.sum()


def aa_resize_1d(data, scale, out, cubic, exclude_outside):
    """The reference's _interpolate_1d_with_x (half_pixel): the n taps
    nearest x (ties to the lower index) of the edge-padded data."""
    n_in = len(data)
    res = np.zeros(out)
    for o in range(out):
        x = (o + 0.5) / scale - 0.5
        x0 = int(np.floor(x))
        ratio = 1.0 if x == x0 else x - x0
        coeffs = aa_coeffs(ratio, scale, cubic)
        n = len(coeffs)
        pad = int(np.ceil(n / 2))
        padded = np.pad(data, pad, mode="edge")
        xp = x + pad
        idx = sorted(sorted(range(len(padded)), key=lambda i: (abs(xp - i), i))[:n])
        pts = padded[idx]
        if exclude_outside:
            coeffs = coeffs.copy()
            for j, i in enumerate(idx):
                if i - pad < 0 or i - pad >= n_in:
                    coeffs[j] = 0
            coeffs = coeffs / coeffs.sum()
        res[o] = np.dot(coeffs, pts)
    return res


def aa_resize(x, scales, out_shape, cubic, exclude_outside):
    y = x.astype(np.float64)
    for axis in range(x.ndim):
        if out_shape[axis] == y.shape[axis] and scales[axis] == 1.0:
            continue
        y = np.apply_along_axis(aa_resize_1d, axis, y, scales[axis], out_shape[axis], cubic, exclude_outside)
    return y.astype(f32)


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
         aa_resize(x, sc, oshape, mode == "cubic", excl), inits=inits, opset=18, tolerance="atol=1e-5 rtol=1e-5")


def maxpool_ref(x, k, s, p, d, ceil):
    """MaxPool by its definition: -inf padding, windows of k taps d apart."""
    n = len(k)
    out = []
    for i in range(n):
        span = x.shape[2 + i] + p[i] + p[n + i] - ((k[i] - 1) * d[i] + 1)
        o = (-(-span // s[i]) if ceil else span // s[i]) + 1
        if ceil and (o - 1) * s[i] >= x.shape[2 + i] + p[i]:
            o -= 1
        out.append(o)
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + [(p[i], p[n + i] + k[i] * d[i] + s[i]) for i in range(n)],
                constant_values=-np.inf)
    y = np.full(x.shape[:2] + tuple(out), -np.inf)
    for idx in np.ndindex(*out):
        for t in np.ndindex(*k):
            pos = tuple(idx[i] * s[i] + t[i] * d[i] for i in range(n))
            y[(slice(None), slice(None)) + idx] = np.maximum(y[(slice(None), slice(None)) + idx],
                                                            xp[(slice(None), slice(None)) + pos])
    return y.astype(f32)


for name, xshape, k, st, p, d, ceil in (("2d", (1, 3, 40, 36), (3, 4), (4, 2), (2, 1, 2, 1), (2, 2), 0),
                                        ("2d_ceil", (2, 2, 23, 19), (3, 3), (6, 3), (1, 1, 1, 1), (3, 3), 1),
                                        ("1d", (1, 4, 300), (7,), (3,), (5, 5), (3,), 0)):
    x = rng.standard_normal(xshape).astype(f32)
    save("maxpool_dilated_" + name,
         [h.make_node("MaxPool", ["x"], ["y"], kernel_shape=list(k), strides=list(st), pads=list(p),
                      dilations=list(d), ceil_mode=ceil)],
         {"x": x}, maxpool_ref(x, k, st, p, d, ceil), opset=12)


def nearest_resize(x, scales, out_shape):
    """Nearest Resize, half_pixel coordinates, round_prefer_floor."""
    y = x
    for axis in range(x.ndim):
        n_in, n_out = x.shape[axis], out_shape[axis]
        if n_in == n_out and scales[axis] == 1.0:
            continue
        src = []
        for o in range(n_out):
            c = (o + 0.5) / scales[axis] - 0.5
            i = int(np.floor(c)) if c - np.floor(c) == 0.5 else int(np.round(c))
            src.append(min(max(i, 0), n_in - 1))
        y = np.take(y, src, axis=axis)
    return y


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
         nearest_resize(x, full_scales, out_shape), inits=inits, opset=18)


def crop_resize_1d(data, out_len, start, end, cubic, extrapolation):
    """ONNX's reference 1-D interpolation under tf_crop_and_resize: outside
    [0, in - 1] the extrapolation value; else the nearest taps' weights
    (linear: 1 - r, r; cubic: Keys A = -0.75) of the edge-padded data."""
    n_in = len(data)
    res = np.zeros(out_len)
    for o in range(out_len):
        x = (start * (n_in - 1) + o * (end - start) * (n_in - 1) / (out_len - 1) if out_len > 1
             else 0.5 * (start + end) * (n_in - 1))
        if x < 0 or x > n_in - 1:
            res[o] = extrapolation
            continue
        x0 = int(np.floor(x))
        r = x - x0
        if r == 0:
            x0, r = x0 - 1, 1.0
        if cubic:
            A = -0.75
            kern = [((A * d - 5 * A) * d + 8 * A) * d - 4 * A if d > 1 else ((A + 2) * d - (A + 3)) * d * d + 1
                    for d in (r + 1, r, 1 - r, 2 - r)]
            taps = [x0 - 1, x0, x0 + 1, x0 + 2]
        else:
            kern, taps = [1 - r, r], [x0, x0 + 1]
        res[o] = sum(k * data[min(max(t, 0), n_in - 1)] for k, t in zip(kern, taps))
    return res


def crop_resize(x, roi, out_shape, cubic, extrapolation):
    """The reference's nd recursion: the inner axes first for every index of
    the outer one, then the outer axis over those results."""
    x = x.astype(np.float64)
    n = x.ndim
    if n == 1:
        return crop_resize_1d(x, out_shape[0], roi[0], roi[1], cubic, extrapolation)
    inner_roi = list(roi[1:n]) + list(roi[n + 1:])
    inner = np.stack([crop_resize(x[i], inner_roi, out_shape[1:], cubic, extrapolation) for i in range(x.shape[0])])
    return np.apply_along_axis(crop_resize_1d, 0, inner, out_shape[0], roi[0], roi[n], cubic, extrapolation)


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
    ref = crop_resize(x, full_roi, out_shape, mode == "cubic", 0.0 if extrap is None else extrap)
    save("resize_crop_" + name, [h.make_node("Resize", ["x", "roi", "", "sizes"], ["y"], **attrs)], {"x": x},
         ref.astype(f32), inits=[("roi", np.array(roi, f32)), ("sizes", np.array(sizes, np.int64))], opset=18,
         tolerance="atol=1e-5 rtol=1e-5")
