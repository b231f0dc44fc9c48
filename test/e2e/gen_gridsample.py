#!/usr/bin/python3
"""Generates GridSample models (opset 16 and 20 spellings), each with
test_data_set_0, against a float64 numpy port of the ONNX reference
(onnx/reference/ops/op_grid_sample.py, 2-D: coordinates denormalized into
float32, rounded half to even for nearest, clamped or reflected outside the
border, taps padded with zeros, clamped or reflected):

- gridsample_<mode>_<padding>_<align>: every mode (nearest, bilinear,
  bicubic) with every padding (zeros, border, reflection) and both
  align_corners, on X [2, 3, 5, 7] and a grid [2, 4, 6, 2] reaching 30% past
  the image on each side;
- gridsample_warp: an optical-flow warp as video models write it (a base
  grid plus a flow computed from the input, bilinear, border);
- gridsample_one_pixel: a one-pixel-wide image (align_corners, reflection).

usage: gen_gridsample.py OUTDIR
"""
import itertools
import math
import os
import sys

import numpy as np
from onnx import helper as h

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_builder  # noqa: E402

out = onnx_builder.output_dir(__doc__)
rng = np.random.default_rng(20261208)
f32 = np.float32


def denormalize(n, size, align):
    return (n + 1) / 2.0 * (size - 1) if align else ((n + 1) * size - 1) / 2.0


def reflect(x, lo, hi):
    rng_ = hi - lo
    if rng_ <= 0:
        return lo
    if x < lo:
        dx = lo - x
        n = int(dx / rng_)
        r = dx - n * rng_
        return lo + r if n % 2 == 0 else hi - r
    if x > hi:
        dx = x - hi
        n = int(dx / rng_)
        r = dx - n * rng_
        return hi - r if n % 2 == 0 else lo + r
    return x


def cubic(t):
    a = -0.75
    t = abs(t)
    return [((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a,
            ((a + 2) * t - (a + 3)) * t * t + 1,
            ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1,
            ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a]


def grid_sample(x, grid, mode, padding, align):
    n_, c_, hh, ww = x.shape
    _, ho, wo, _ = grid.shape
    lo = [0.0, 0.0] if align else [-0.5, -0.5]
    hi = [hh - 1.0, ww - 1.0] if align else [hh - 0.5, ww - 0.5]
    y = np.zeros((n_, c_, ho, wo))

    def tap(img, i, axis):  # padded 1-D index, or None for a zero
        size = img.shape[axis]
        if padding == "zeros":
            return i if 0 <= i < size else None
        if padding == "border":
            return min(max(i, 0), size - 1)
        return int(reflect(i, lo[axis], hi[axis]))

    def pixel(img, r, c):
        r, c = tap(img, r, 0), tap(img, c, 1)
        return 0.0 if r is None or c is None else img[r, c]

    for n in range(n_):
        for c in range(c_):
            img = x[n, c].astype(np.float64)
            for oy in range(ho):
                for ox in range(wo):
                    gx, gy = grid[n, oy, ox]
                    pos = np.array([denormalize(float(gy), hh, align), denormalize(float(gx), ww, align)],
                                   dtype=np.float32).astype(np.float64)
                    if mode == "nearest":
                        pos = np.rint(pos)
                    for i in range(2):
                        if pos[i] < lo[i] or pos[i] > hi[i]:
                            if padding == "border":
                                pos[i] = min(max(pos[i], 0), (hh, ww)[i] - 1)
                            elif padding == "reflection":
                                pos[i] = reflect(pos[i], lo[i], hi[i])
                    if mode == "nearest":
                        y[n, c, oy, ox] = pixel(img, int(pos[0]), int(pos[1]))
                        continue
                    r0, c0 = math.floor(pos[0]), math.floor(pos[1])
                    if mode == "bilinear":
                        ky, kx = [1 - (pos[0] - r0), pos[0] - r0], [1 - (pos[1] - c0), pos[1] - c0]
                        rs, cs = [r0, r0 + 1], [c0, c0 + 1]
                    else:
                        ky, kx = cubic(pos[0] - r0), cubic(pos[1] - c0)
                        rs, cs = [r0 - 1 + k for k in range(4)], [c0 - 1 + k for k in range(4)]
                    y[n, c, oy, ox] = sum(ky[i] * sum(kx[j] * pixel(img, r, cc) for j, cc in enumerate(cs))
                                          for i, r in enumerate(rs))
    return y.astype(f32)


def save(name, nodes, feeds, expected, inits=(), opset=16):
    onnx_builder.save_reference_test(out, name, nodes, feeds, ["y"], inits=inits, opset=opset,
                                     tolerance="atol=1e-5", expected=[expected])


X = rng.standard_normal((2, 3, 5, 7)).astype(f32)
G = rng.uniform(-1.3, 1.3, (2, 4, 6, 2)).astype(f32)
for (mode, padding, align), opset in zip(itertools.product(("nearest", "bilinear", "bicubic"),
                                                           ("zeros", "border", "reflection"), (0, 1)),
                                         itertools.cycle((16, 20))):
    spelled = mode if opset == 16 else {"bilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    node = h.make_node("GridSample", ["x", "grid"], ["y"], mode=spelled, padding_mode=padding,
                       align_corners=align)
    save("gridsample_%s_%s_align%d" % (mode, padding, align), [node], {"x": X, "grid": G},
         grid_sample(X, G, mode, padding, align), opset=opset)

# Optical-flow warp: a base grid of pixel centres plus a flow from the input.
N, C, H, W = 1, 4, 6, 8
frame = rng.standard_normal((N, C, H, W)).astype(f32)
ys, xs = np.meshgrid(np.linspace(-1, 1, H), np.linspace(-1, 1, W), indexing="ij")
base = np.stack([xs, ys], -1)[None].astype(f32)
wflow = (rng.standard_normal((2, C, 1, 1)) * 0.05).astype(f32)
flow = np.einsum("nchw,kc->nhwk", frame.astype(np.float64), wflow[:, :, 0, 0].astype(np.float64))
grid = (base + flow.astype(f32)).astype(f32)
nodes = [h.make_node("Conv", ["x", "wflow"], ["f"]),
         h.make_node("Transpose", ["f"], ["ft"], perm=[0, 2, 3, 1]),
         h.make_node("Add", ["base", "ft"], ["grid"]),
         h.make_node("GridSample", ["x", "grid"], ["y"], mode="bilinear", padding_mode="border",
                     align_corners=1)]
conv = np.einsum("nchw,kc->nkhw", frame.astype(np.float64), wflow[:, :, 0, 0].astype(np.float64)).astype(f32)
grid_ref = (base + conv.transpose(0, 2, 3, 1)).astype(f32)
save("gridsample_warp", nodes, {"x": frame}, grid_sample(frame, grid_ref, "bilinear", "border", 1),
     inits=[("wflow", wflow), ("base", base)])

X1 = rng.standard_normal((1, 2, 4, 1)).astype(f32)
G1 = rng.uniform(-1.5, 1.5, (1, 3, 2, 2)).astype(f32)
save("gridsample_one_pixel", [h.make_node("GridSample", ["x", "grid"], ["y"], mode="bilinear",
                                          padding_mode="reflection", align_corners=1)],
     {"x": X1, "grid": G1}, grid_sample(X1, G1, "bilinear", "reflection", 1))
