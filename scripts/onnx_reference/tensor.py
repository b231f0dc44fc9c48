"""Tensor manipulation: reshapes and transposes, Concat / Split, Slice,
Gather / Scatter, Expand, Tile, Pad, DepthToSpace / SpaceToDepth, shape ops,
constants, Range, EyeLike, Trilu, OneHot, NonZero, Compress, ReverseSequence,
Resize / Upsample, and If (control flow)."""

import math

import numpy as np

from .core import NotEvaluated, np_dtype, is_int, f64, ints, scalar, as_type, norm_axis


# ----------------------------------------------------------------------------
# Tensor manipulation
# ----------------------------------------------------------------------------

def op_reshape(n, x, shape=None):
    """Reshape: the shape input (attribute before opset 5); 0 copies the input
    dimension (unless allowzero = 1, opset 14), -1 is inferred."""
    dims = ints(shape) if n.opset >= 5 else list(n.attr("shape"))
    allowzero = n.attr("allowzero", 0)
    out = [x.shape[i] if d == 0 and not allowzero else d for i, d in enumerate(dims)]
    return x.reshape(out)


def op_flatten(n, x):
    """Flatten: (prod(shape[:axis]), prod(shape[axis:])), axis default 1."""
    axis = n.attr("axis", 1)
    if axis < 0:
        axis += x.ndim
    return x.reshape(int(np.prod(x.shape[:axis])), int(np.prod(x.shape[axis:])))


def op_transpose(n, x):
    """Transpose by `perm` (default: reverse the dimensions)."""
    perm = n.attr("perm")
    return np.transpose(x, perm if perm else None).copy()


def op_squeeze(n, x, axes=None):
    """Squeeze the given axes (attribute before opset 13, input after); all
    size-1 axes when none are given."""
    ax = n.attr("axes") if n.opset < 13 else (ints(axes) if axes is not None else None)
    if not ax:
        return np.squeeze(x).copy() if x.ndim else x.copy()
    return np.squeeze(x, axis=tuple(norm_axis(a, x.ndim) for a in ax)).copy()


def op_unsqueeze(n, x, axes=None):
    """Unsqueeze: insert size-1 axes at the positions given relative to the
    output rank (attribute before opset 13, input after)."""
    ax = n.attr("axes") if n.opset < 13 else ints(axes)
    rank = x.ndim + len(ax)
    y = x
    for a in sorted(norm_axis(a, rank) for a in ax):
        y = np.expand_dims(y, a)
    return y.copy()


def op_concat(n, *xs):
    """Concat along `axis`."""
    xs = [x for x in xs if x is not None]
    return np.concatenate(xs, axis=norm_axis(n.attr("axis", 1 if n.opset < 4 else None), xs[0].ndim))


def op_split(n, x, split=None, *_):
    """Split along `axis` (default 0): sizes from the `split` attribute (before
    opset 13) or input; else num_outputs (18: ceil(dim / n) each, the last
    smaller) or equal parts, one per output."""
    axis = norm_axis(n.attr("axis", 0), x.ndim)
    sizes = n.attr("split") if n.opset < 13 else (ints(split) if split is not None else None)
    count = len(n.outputs)
    dim = x.shape[axis]
    if not sizes:
        if n.opset >= 18 and n.has("num_outputs"):
            count = n.attr("num_outputs")
            chunk = -(-dim // count)
            sizes = [chunk] * (count - 1) + [dim - chunk * (count - 1)]
        else:
            if dim % count:
                raise ValueError("Split: %d does not divide into %d parts" % (dim, count))
            sizes = [dim // count] * count
    cuts = np.cumsum(sizes)[:-1]
    return [p.copy() for p in np.split(x, cuts, axis=axis)]


def _slice_bounds(start, end, step, dim):
    """ONNX Slice clamping: negatives + dim, then start in [0, dim] and end in
    [0, dim] for positive steps, start in [0, dim - 1] and end in [-1, dim - 1]
    for negative steps (end -1 meaning: through index 0)."""
    if start < 0:
        start += dim
    if end < 0:
        end += dim
    if step > 0:
        start, end = min(max(start, 0), dim), min(max(end, 0), dim)
        return slice(start, end, step)
    start, end = min(max(start, 0), dim - 1), min(max(end, -1), dim - 1)
    return slice(start, end if end >= 0 else None, step)


def op_slice(n, x, starts=None, ends=None, axes=None, steps=None):
    """Slice: starts/ends/axes attributes (opset 1) or inputs (10+, with steps)."""
    if n.opset < 10:
        st, en, ax, sp = n.attr("starts"), n.attr("ends"), n.attr("axes"), None
    else:
        st, en = ints(starts), ints(ends)
        ax = ints(axes) if axes is not None else None
        sp = ints(steps) if steps is not None else None
    ax = ax if ax else list(range(len(st)))
    sp = sp if sp else [1] * len(st)
    sl = [slice(None)] * x.ndim
    for s, e, a, p in zip(st, en, ax, sp):
        a = norm_axis(a, x.ndim)
        sl[a] = _slice_bounds(s, e, p, x.shape[a])
    return x[tuple(sl)].copy()


def _norm_index(idx, dim):
    idx = idx.astype(np.int64)
    return np.where(idx < 0, idx + dim, idx)


def op_gather(n, x, idx):
    """Gather: np.take along `axis` (default 0), negative indices from the end."""
    axis = norm_axis(n.attr("axis", 0), x.ndim)
    return np.take(x, _norm_index(idx, x.shape[axis]), axis=axis)


def op_gather_elements(n, x, idx):
    """GatherElements: out[i][j] = x[idx[i][j]][j] (axis 0), take_along_axis."""
    axis = norm_axis(n.attr("axis", 0), x.ndim)
    return np.take_along_axis(x, _norm_index(idx, x.shape[axis]), axis=axis)


def op_gather_nd(n, x, idx):
    """GatherND with batch_dims: the last index dimension addresses the leading
    dimensions of each batch's data slice."""
    b = n.attr("batch_dims", 0)
    bshape = idx.shape[:b]
    nb = int(np.prod(bshape)) if b else 1
    k = idx.shape[-1]
    xd = x.reshape((nb,) + x.shape[b:])
    ix = idx.astype(np.int64).reshape((nb, -1, k))
    parts = [xd[i][tuple(ix[i][:, j] for j in range(k))] for i in range(nb)]
    return np.stack(parts).reshape(bshape + idx.shape[b:-1] + x.shape[b + k:])


def op_scatter_elements(n, data, idx, upd):
    """ScatterElements (and the older Scatter): out = copy of data with
    out[..idx[i][j]..] = updates[i][j] along `axis`; reduction none/add/mul/max/min."""
    axis = norm_axis(n.attr("axis", 0), data.ndim)
    out = data.copy()
    full = list(np.indices(idx.shape, sparse=False))
    full[axis] = _norm_index(idx, data.shape[axis])
    _scatter(out, tuple(full), upd, n.attr("reduction", "none"))
    return out


def op_scatter_nd(n, data, idx, upd):
    """ScatterND: out[idx[..., :]] = updates, reduction none/add/mul/max/min."""
    out = data.copy()
    k = idx.shape[-1]
    flat = idx.astype(np.int64).reshape(-1, k)
    u = upd.reshape((flat.shape[0],) + data.shape[k:])
    _scatter(out, tuple(flat[:, j] for j in range(k)), u, n.attr("reduction", "none"))
    return out


def _scatter(out, where, upd, reduction):
    if reduction == "none":
        out[where] = upd
    else:
        f = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}[reduction]
        f.at(out, where, upd)


def op_expand(n, x, shape):
    """Expand: bidirectional broadcast of x with `shape`."""
    return np.broadcast_to(x, np.broadcast_shapes(x.shape, tuple(ints(shape)))).copy()


def op_tile(n, x, repeats):
    """Tile: np.tile by the repeats input."""
    return np.tile(x, ints(repeats))


def op_pad(n, x, pads=None, value=None, axes=None):
    """Pad: modes constant (value, default 0), reflect, edge, wrap (19). The
    pads (begin..., end...) are an attribute before opset 11, an input after,
    with an optional axes input from 18. Negative pads crop."""
    mode = n.attr("mode", "constant")
    if n.opset < 11:
        p = list(n.attr("pads"))
        cval = n.attr("value", 0.0)
        ax = list(range(x.ndim))
    else:
        p = ints(pads)
        cval = scalar(value) if value is not None and np.size(value) else 0
        ax = [norm_axis(a, x.ndim) for a in ints(axes)] if axes is not None else list(range(x.ndim))
    k = len(ax)
    width = [[0, 0] for _ in range(x.ndim)]
    for j, a in enumerate(ax):
        width[a] = [p[j], p[j + k]]
    crop = tuple(slice(-min(b, 0), x.shape[i] - (-min(e, 0))) for i, (b, e) in enumerate(width))
    y = x[crop]
    w = [(max(b, 0), max(e, 0)) for b, e in width]
    if mode == "constant":
        return np.pad(y, w, mode="constant", constant_values=np.asarray(cval).astype(x.dtype))
    if mode in ("reflect", "edge", "wrap"):
        return np.pad(y, w, mode=mode)
    raise NotEvaluated("Pad mode %s" % mode)


def op_depth_to_space(n, x):
    """DepthToSpace: DCR (default) or CRD blocks of `blocksize`."""
    bs = n.attr("blocksize")
    b, c, h, w = x.shape
    if n.attr("mode", "DCR") == "DCR":
        t = x.reshape(b, bs, bs, c // (bs * bs), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = x.reshape(b, c // (bs * bs), bs, bs, h, w).transpose(0, 1, 4, 2, 5, 3)
    return t.reshape(b, c // (bs * bs), h * bs, w * bs)


def op_space_to_depth(n, x):
    """SpaceToDepth with `blocksize`."""
    bs = n.attr("blocksize")
    b, c, h, w = x.shape
    t = x.reshape(b, c, h // bs, bs, w // bs, bs).transpose(0, 3, 5, 1, 2, 4)
    return t.reshape(b, c * bs * bs, h // bs, w // bs)


def op_shape(n, x):
    """Shape (int64), with start / end (opset 15) clamped to [0, rank]."""
    shape = list(x.shape)
    r = len(shape)
    start, end = n.attr("start", 0), n.attr("end", r)
    start = min(max(start + r if start < 0 else start, 0), r)
    end = min(max(end + r if end < 0 else end, 0), r)
    return np.array(shape[start:end], dtype=np.int64)


def op_size(n, x):
    """Size: the element count as an int64 scalar."""
    return np.array(x.size, dtype=np.int64)


def op_constant(n):
    """Constant: value (tensor), value_float(s), value_int(s); strings and
    sparse tensors are not evaluated."""
    if n.has("value"):
        return n.attr("value")
    if n.has("value_float"):
        return np.array(n.attr("value_float"), dtype=np.float32)
    if n.has("value_floats"):
        return np.array(n.attr("value_floats"), dtype=np.float32)
    if n.has("value_int"):
        return np.array(n.attr("value_int"), dtype=np.int64)
    if n.has("value_ints"):
        return np.array(n.attr("value_ints"), dtype=np.int64)
    raise NotEvaluated("Constant holding a string or sparse tensor")


def op_constant_of_shape(n, shape):
    """ConstantOfShape: the one-element `value` tensor (default float32 0) broadcast."""
    v = n.attr("value")
    v = np.zeros(1, np.float32) if v is None else v
    return np.full(tuple(ints(shape)), v.reshape(-1)[0], dtype=v.dtype)


def op_range(n, start, limit, delta):
    """Range: start + i * delta for i < max(ceil((limit - start) / delta), 0)."""
    s, l, d = scalar(start), scalar(limit), scalar(delta)
    count = max(int(math.ceil((l - s) / d)), 0)
    if is_int(start):
        return (np.int64(s) + np.arange(count, dtype=np.int64) * np.int64(d)).astype(start.dtype)
    return (s + np.arange(count, dtype=np.float64) * d).astype(start.dtype)


def op_eye_like(n, x):
    """EyeLike: ones on the k-th diagonal, dtype attribute or the input's type."""
    dtype = np_dtype(n.attr("dtype")) if n.has("dtype") else x.dtype
    return np.eye(x.shape[0], x.shape[1], k=n.attr("k", 0), dtype=dtype)


def op_trilu(n, x, k=None):
    """Trilu: upper (default) or lower triangle of the last two axes from diagonal k."""
    kk = int(scalar(k)) if k is not None else 0
    return (np.triu(x, kk) if n.attr("upper", 1) else np.tril(x, kk)).astype(x.dtype)


def op_onehot(n, indices, depth, values):
    """OneHot: values[1] where the index (negative from depth) matches, else values[0],
    the new axis at `axis` (default -1)."""
    d = int(scalar(depth))
    idx = f64(indices).astype(np.int64)
    idx = np.where(idx < 0, idx + d, idx)
    axis = n.attr("axis", -1)
    rank = idx.ndim + 1
    axis = norm_axis(axis, rank)
    hot = np.expand_dims(idx, axis) == np.arange(d).reshape([-1 if i == axis else 1 for i in range(rank)])
    return np.where(hot, values[1], values[0]).astype(values.dtype)


def op_nonzero(n, x):
    """NonZero: int64 (rank, count) coordinates of the non-zero elements, row-major."""
    return np.array(np.nonzero(np.atleast_1d(x) if x.ndim == 0 else x), dtype=np.int64)


def op_compress(n, x, cond):
    """Compress: the slices where condition is true along `axis` (flattened without)."""
    axis = n.attr("axis")
    return np.compress(cond.astype(bool), x, axis=None if axis is None else norm_axis(axis, x.ndim))


def op_reverse_sequence(n, x, lens):
    """ReverseSequence: reverse the first lens[b] elements along time_axis (0) for
    each batch index b along batch_axis (1)."""
    bax, tax = n.attr("batch_axis", 1), n.attr("time_axis", 0)
    y = x.copy()
    for b, L in enumerate(ints(lens)):
        src = [slice(None)] * x.ndim
        src[bax] = b
        src[tax] = slice(0, L)
        dst = list(src)
        y[tuple(dst)] = np.flip(x[tuple(src)], axis=tax if tax < bax else tax - 1)
    return y


# ----------------------------------------------------------------------------
# Resize / Upsample
# ----------------------------------------------------------------------------

def _cubic_coeffs(r, a):
    """Keys cubic convolution weights of the 4 neighbours floor(x)-1 .. floor(x)+2."""
    return [((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
            ((a + 2) * r - (a + 3)) * r * r + 1,
            ((a + 2) * (1 - r) - (a + 3)) * (1 - r) * (1 - r) + 1,
            ((a * ((1 - r) + 1) - 5 * a) * ((1 - r) + 1) + 8 * a) * ((1 - r) + 1) - 4 * a]


def _antialias_coeffs(r, scale, mode, a):
    """Resize-18's antialias filters when downscaling (the reference's
    _linear_coeffs_antialias, _cubic_coeffs_antialias): the taps base + i, i
    in [floor(-support / scale) + 1, 2 - that), weighted filter(scale * (i -
    r)) and normalized to sum 1."""
    support = 1.0 if mode == "linear" else 2.0
    start = int(np.floor(-support / scale)) + 1
    offs = list(range(start, 2 - start))

    def filt(d):
        d = np.abs(d)
        if mode == "linear":
            return np.clip(1 - d, 0, 1)
        near = ((a + 2) * d - (a + 3)) * d * d + 1
        far = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
        return np.where(d <= 1, near, np.where(d < 2, far, 0.0))
    coeffs = [filt(scale * (i - r)) for i in offs]
    tot = sum(coeffs)
    return offs, [c / tot for c in coeffs]


def _resize_axis(x, axis, out_len, scale, p, roi):
    """1-D interpolation of float64 x along `axis` (the ONNX Resize reference is
    separable: an N-D resize is a chain of these)."""
    in_len = x.shape[axis]
    ctm = p["ctm"]
    xo = np.arange(out_len, dtype=np.float64)
    # The ONNX reference takes the resized length as scale * input length (a
    # float), which differs from out_len when the scale does not divide evenly.
    length = scale * in_len
    if ctm == "half_pixel":
        xr = (xo + 0.5) / scale - 0.5
    elif ctm == "half_pixel_symmetric":
        adj = out_len / length
        center = in_len / 2
        xr = center * (1 - adj) + (xo + 0.5) / scale - 0.5
    elif ctm == "pytorch_half_pixel":
        xr = (xo + 0.5) / scale - 0.5 if length > 1 else np.full_like(xo, -0.5)
    elif ctm == "align_corners":
        xr = xo * (in_len - 1) / (length - 1) if length != 1 else np.zeros_like(xo)
    elif ctm == "asymmetric":
        xr = xo / scale
    elif ctm == "tf_half_pixel_for_nn":
        xr = (xo + 0.5) / scale
    elif ctm == "tf_crop_and_resize":
        r0, r1 = roi
        if length != 1:
            xr = r0 * (in_len - 1) + xo * (r1 - r0) * (in_len - 1) / (length - 1)
        else:
            xr = np.full_like(xo, 0.5 * (r0 + r1) * (in_len - 1))
    else:
        raise NotEvaluated("coordinate_transformation_mode %s" % ctm)
    shape = [1] * x.ndim
    shape[axis] = out_len
    mode = p["mode"]
    if mode == "nearest":
        fl = np.floor(xr)
        frac = xr - fl
        nm = p["nearest_mode"]
        if nm == "round_prefer_floor":
            up = frac > 0.5
        elif nm == "round_prefer_ceil":
            up = frac >= 0.5
        elif nm == "floor":
            up = np.zeros_like(frac, dtype=bool)
        elif nm == "ceil":
            up = frac > 0
        else:
            raise NotEvaluated("nearest_mode %s" % nm)
        idx = np.clip(fl + up, 0, in_len - 1).astype(np.int64)
        y = np.take(x, idx, axis=axis)
    else:
        base = np.floor(xr)
        r = xr - base
        exact = r == 0
        base = np.where(exact, base - 1, base)  # the reference takes ratio 1, not 0
        r = np.where(exact, 1.0, r)
        if p.get("antialias") and scale < 1 and mode in ("linear", "cubic"):
            offs, coeffs = _antialias_coeffs(r, scale, mode, p["cubic_coeff_a"])
        elif mode == "linear":
            offs, coeffs = [0, 1], [1 - r, r]
        elif mode == "cubic":
            offs, coeffs = [-1, 0, 1, 2], _cubic_coeffs(r, p["cubic_coeff_a"])
        else:
            raise NotEvaluated("Resize mode %s" % mode)
        coeffs = [np.broadcast_to(c, xo.shape).astype(np.float64) for c in coeffs]
        pos = [base + o for o in offs]
        if p["exclude_outside"]:
            coeffs = [np.where((q < 0) | (q >= in_len), 0.0, c) for q, c in zip(pos, coeffs)]
            tot = sum(coeffs)
            coeffs = [c / tot for c in coeffs]
        y = 0.0
        for q, c in zip(pos, coeffs):
            y = y + np.take(x, np.clip(q, 0, in_len - 1).astype(np.int64), axis=axis) * c.reshape(shape)
    if ctm == "tf_crop_and_resize":
        out = (xr < 0) | (xr > in_len - 1)
        y = np.where(out.reshape(shape), p["extrapolation_value"], y)
    return y


def op_resize(n, x, roi=None, scales=None, sizes=None):
    """Resize (opset 10, 11, 13, 18, 19) and Upsample (7, 9): modes nearest
    (round_prefer_floor, round_prefer_ceil, floor, ceil), linear and cubic
    (cubic_coeff_a, exclude_outside), every coordinate_transformation_mode,
    tf_crop_and_resize with roi and extrapolation_value, axes and
    keep_aspect_ratio_policy (18). Output size floor(in * scale) or `sizes`.
    antialias (downscaling filters). Upsample and Resize-10 use asymmetric
    coordinates with floor rounding (as onnxruntime). Integer results of
    linear/cubic are rounded half to even."""
    if n.op == "Upsample" or (n.op == "Resize" and n.opset < 11):
        scales = roi if n.op == "Resize" or n.opset >= 9 else None
        if n.op == "Upsample" and n.opset < 9:
            scales = np.array(n.attr("scales"), dtype=np.float32)
        roi, sizes = None, None
        mode = n.attr("mode", "nearest")
        p = {"ctm": "asymmetric", "nearest_mode": "floor", "cubic_coeff_a": -0.75,
             "exclude_outside": 0, "extrapolation_value": 0.0,
             "mode": "linear" if mode in ("linear", "bilinear") else mode}
    else:
        p = {"antialias": n.attr("antialias", 0),
             "ctm": n.attr("coordinate_transformation_mode", "half_pixel"),
             "nearest_mode": n.attr("nearest_mode", "round_prefer_floor"),
             "cubic_coeff_a": n.attr("cubic_coeff_a", -0.75),
             "exclude_outside": n.attr("exclude_outside", 0),
             "extrapolation_value": n.attr("extrapolation_value", 0.0),
             "mode": n.attr("mode", "nearest")}
    r = x.ndim
    axes = [norm_axis(a, r) for a in n.attr("axes", [])] or list(range(r))
    if scales is not None and np.size(scales):
        sc = [float(v) for v in np.asarray(scales).reshape(-1)]
        scale = [1.0] * r
        for a, s in zip(axes, sc):
            scale[a] = s
        out = [int(x.shape[i] * scale[i]) for i in range(r)]  # floor, as the reference
    elif sizes is not None:
        sz = ints(sizes)
        out = list(x.shape)
        for a, s in zip(axes, sz):
            out[a] = s
        policy = n.attr("keep_aspect_ratio_policy", "stretch")
        if policy != "stretch":
            ratios = [out[a] / x.shape[a] for a in axes]
            s = min(ratios) if policy == "not_larger" else max(ratios)
            for a in axes:
                out[a] = int(math.floor(s * x.shape[a] + 0.5))
            scale = [1.0] * r
            for a in axes:
                scale[a] = s
        else:
            scale = [out[i] / x.shape[i] for i in range(r)]
    else:
        raise ValueError("Resize needs scales or sizes")
    roi_v = f64(roi).reshape(-1) if roi is not None and np.size(roi) else None
    y = f64(x)
    for j, i in enumerate(axes):
        if out[i] == x.shape[i] and scale[i] == 1.0 and p["ctm"] != "tf_crop_and_resize":
            continue
        pair = (roi_v[j], roi_v[j + len(axes)]) if roi_v is not None else (0.0, 1.0)
        y = _resize_axis(y, i, out[i], scale[i], p, pair)
    return as_type(y, x.dtype) if is_int(x) else y.astype(x.dtype)


# ----------------------------------------------------------------------------
# Control flow
# ----------------------------------------------------------------------------

def op_if(n, cond):
    """If: evaluate the condition and run the chosen branch's nodes, outer-scope
    values visible; the branch outputs are the If's outputs."""
    branch = n.attr("then_branch") if bool(np.asarray(cond).reshape(-1)[0]) else n.attr("else_branch")
    return n.evaluator.run_subgraph(branch, n.lookup)
