"""References of the operators newer than Debian's ONNX node tests (opsets
18-26) and of RoiAlign and DeformConv, each a port of the ONNX operator
documentation's reference code (onnx/reference/ops), evaluated in float64 and
rounded once to the output type."""

import numpy as np

from .core import NotEvaluated, f64, ints, norm_axis, scalar


def op_cumprod(n, x, axis):
    """CumProd (26) along the scalar `axis` input; exclusive and reverse."""
    ax = norm_axis(int(scalar(axis)), x.ndim)
    xf = f64(x) if x.dtype.kind == "f" else x.astype(np.int64)
    if n.attr("reverse", 0):
        xf = np.flip(xf, ax)
    y = np.cumprod(xf, axis=ax)
    if n.attr("exclusive", 0):
        ones = np.ones_like(np.take(y, [0], axis=ax))
        y = np.concatenate([ones, np.take(y, range(y.shape[ax] - 1), axis=ax)], axis=ax)
    if n.attr("reverse", 0):
        y = np.flip(y, ax)
    return y.astype(x.dtype)


def op_lp_normalization(n, x):
    """LpNormalization: x / (sum |x|^p)^(1/p) along `axis` (p 1 or 2)."""
    p = n.attr("p", 2)
    a = norm_axis(n.attr("axis", -1), x.ndim)
    norm = np.power(np.power(np.abs(f64(x)), p).sum(axis=a, keepdims=True), 1.0 / p)
    return (f64(x) / norm).astype(x.dtype)


def op_group_norm(n, x, scale, bias):
    """GroupNormalization: scale and bias per group (18) or channel (21)."""
    groups = n.attr("num_groups")
    eps = n.attr("epsilon", 1e-5)
    xs = x.shape
    xg = f64(x).reshape(xs[0], groups, -1)
    y = (xg - xg.mean(axis=2, keepdims=True)) / np.sqrt(xg.var(axis=2, keepdims=True) + eps)
    if n.opset >= 21:
        ones = (1,) * (len(xs) - 2)
        y = y.reshape(xs) * f64(scale).reshape(-1, *ones) + f64(bias).reshape(-1, *ones)
    else:
        y = (y * f64(scale).reshape(-1, 1) + f64(bias).reshape(-1, 1)).reshape(xs)
    return y.astype(x.dtype)


def op_center_crop_pad(n, x, shape):
    """CenterCropPad (18): crop from (dim - size) // 2, pad (size - dim) // 2
    zeros before."""
    rank = x.ndim
    axes = [norm_axis(a, rank) for a in n.attr("axes", list(range(rank)))]
    pad_slices, crop_slices = [slice(None)] * rank, [slice(None)] * rank
    new_shape = list(x.shape)
    for k, a in enumerate(axes):
        size, dim = int(ints(shape)[k]), x.shape[a]
        if size < dim:
            start = (dim - size) // 2
            crop_slices[a] = slice(start, start + size)
        elif size > dim:
            start = (size - dim) // 2
            pad_slices[a] = slice(start, start + dim)
        new_shape[a] = size
    y = np.zeros(new_shape, x.dtype)
    y[tuple(pad_slices)] = x[tuple(crop_slices)]
    return y


def op_col2im(n, data, image, block):
    """Col2Im (18): the reference's naive loop, per batch and channel."""
    image, block = [int(v) for v in ints(image)], [int(v) for v in ints(block)]
    nd = len(image)
    dil = n.attr("dilations", [1] * nd)
    pads = n.attr("pads", [0] * (2 * nd))
    strides = n.attr("strides", [1] * nd)
    bl = int(np.prod(block))
    N, CB, L = data.shape
    C = CB // bl
    cols = [(image[i] + pads[i] + pads[nd + i] - (dil[i] * (block[i] - 1) + 1)) // strides[i] + 1
            for i in range(nd)]
    out = np.zeros((N, C) + tuple(image))
    d = f64(data).reshape(N, C, bl, L)
    for k, off in enumerate(np.ndindex(*block)):
        for col, pos in enumerate(np.ndindex(*cols)):
            ind = [pos[i] * strides[i] - pads[i] + off[i] * dil[i] for i in range(nd)]
            if all(0 <= ind[i] < image[i] for i in range(nd)):
                out[(slice(None), slice(None)) + tuple(ind)] += d[:, :, k, col]
    return out.astype(data.dtype)


def _base_grid(spatial, align):
    axes = []
    for m in spatial:
        if align:
            axes.append(np.array([-1.0]) if m == 1 else -1.0 + 2.0 * np.arange(m) / (m - 1))
        else:
            axes.append(-1.0 + (2.0 * np.arange(m) + 1.0) / m)
    mesh = np.meshgrid(*axes, indexing="ij")
    return np.stack(list(reversed(mesh)) + [np.ones(spatial)], axis=-1)  # [.., x, y, (z,) 1]


def op_affine_grid(n, theta, size):
    """AffineGrid (20): theta times the base grid's homogeneous points."""
    size = [int(v) for v in ints(size)]
    spatial = tuple(size[2:])
    g = _base_grid(spatial, n.attr("align_corners", 0)).reshape(-1, len(spatial) + 1)
    y = np.einsum("nij,pj->npi", f64(theta), g)
    return y.reshape((size[0],) + spatial + (len(spatial),)).astype(theta.dtype)


def op_rotary_embedding(n, x, cos_cache, sin_cache, position_ids=None):
    """RotaryEmbedding (23)."""
    shape = x.shape
    heads = n.attr("num_heads", 0)
    xf = f64(x)
    xf = np.transpose(xf, (0, 2, 1, 3)) if x.ndim == 4 else xf.reshape(shape[0], shape[1], heads, -1)
    rd = n.attr("rotary_embedding_dim", 0) or xf.shape[3]
    half = rd // 2
    cos = cos_cache[position_ids] if position_ids is not None else cos_cache
    sin = sin_cache[position_ids] if position_ids is not None else sin_cache
    cos = np.expand_dims(f64(cos[:, :, :half]), 2)
    sin = np.expand_dims(f64(sin[:, :, :half]), 2)
    xr, xp = xf[..., :rd], xf[..., rd:]
    interleaved = n.attr("interleaved", 0)
    x1, x2 = (xr[..., 0::2], xr[..., 1::2]) if interleaved else np.split(xr, 2, axis=-1)
    real, imag = cos * x1 - sin * x2, sin * x1 + cos * x2
    xr = np.stack([real, imag], axis=-1).reshape(xr.shape) if interleaved else np.concatenate([real, imag], -1)
    y = np.concatenate([xr, xp], axis=-1)
    y = y.reshape(shape) if len(shape) == 3 else np.transpose(y, (0, 2, 1, 3))
    return y.astype(x.dtype)


def op_tensor_scatter(n, past, update, write_indices=None):
    """TensorScatter (24): the documentation's pseudocode."""
    axis = norm_axis(n.attr("axis", -2), past.ndim)
    circular = n.attr("mode", "linear") == "circular"
    w = np.zeros(past.shape[0], np.int64) if write_indices is None else ints(write_indices)
    present = past.copy()
    for prefix in np.ndindex(past.shape[:axis]):
        for i in range(update.shape[axis]):
            j = int(w[prefix[0]]) + i
            if circular:
                j %= past.shape[axis]
            elif not 0 <= j < past.shape[axis]:
                raise NotEvaluated("TensorScatter writes past the cache (undefined)")
            present[prefix + (j,)] = update[prefix + (i,)]
    return present


def op_roi_align(n, x, rois, batch_indices):
    """RoiAlign (10, 16): onnxruntime's kernel, which the reference ports."""
    oh, ow = n.attr("output_height", 1), n.attr("output_width", 1)
    ratio = n.attr("sampling_ratio", 0)
    scale = n.attr("spatial_scale", 1.0)
    mode = n.attr("mode", "avg")
    default_ctm = "half_pixel" if n.opset >= 16 else "output_half_pixel"
    half = n.attr("coordinate_transformation_mode", default_ctm) == "half_pixel"
    bidx = ints(batch_indices)
    R = rois.shape[0]
    _, C, H, W = x.shape
    xf = f64(x)
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
        img = xf[bidx[r]]
        for ph in range(oh):
            for pw in range(ow):
                acc = np.zeros(C) if mode == "avg" else None
                for iy in range(gh):
                    yy = y0 + ph * bh + (iy + 0.5) * bh / gh
                    for ix in range(gw):
                        xx = x0 + pw * bw + (ix + 0.5) * bw / gw
                        vals = _roi_taps(img, yy, xx, H, W, C)
                        if mode == "avg":
                            acc += vals[0] + vals[1] + vals[2] + vals[3]
                        else:
                            m = np.maximum(np.maximum(vals[0], vals[1]), np.maximum(vals[2], vals[3]))
                            acc = m if acc is None else np.maximum(acc, m)
                y[r, :, ph, pw] = acc / count if mode == "avg" else (acc if acc is not None else 0.0)
    return y.astype(x.dtype)


def _roi_taps(img, yy, xx, H, W, C):
    """A sample point's four weighted taps (zero outside [-1, size])."""
    if yy < -1.0 or yy > H or xx < -1.0 or xx > W:
        return [np.zeros(C)] * 4
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
    return [hy * hx * img[:, yl, xl], hy * lx * img[:, yl, xh], ly * hx * img[:, yh, xl], ly * lx * img[:, yh, xh]]


def op_deform_conv(n, x, w, offset, b=None, mask=None):
    """DeformConv (19, 2-D): the reference's loop (each tap bilinear with
    zeros outside, at pixel coordinates), in float64."""
    if x.ndim != 4:
        raise NotEvaluated("DeformConv of a rank-%d input" % x.ndim)
    group, og = n.attr("group", 1), n.attr("offset_group", 1)
    pads = n.attr("pads", [0, 0, 0, 0])
    strides = n.attr("strides", [1, 1])
    dil = n.attr("dilations", [1, 1])
    N, C, H, W = x.shape
    M, Cw, kh, kw = w.shape
    oh, ow = offset.shape[2:]
    off = f64(offset).reshape(N, og, kh, kw, 2, oh, ow)
    mk = np.ones((N, og, kh, kw, oh, ow)) if mask is None else f64(mask).reshape(N, og, kh, kw, oh, ow)
    xf = f64(x)
    cols = np.zeros((N, C, kh, kw, oh, ow))
    for nn, c, i, j, a, bb in np.ndindex(N, C, kh, kw, oh, ow):
        g = c // (C // og)
        yy = a * strides[0] - pads[0] + i * dil[0] + off[nn, g, i, j, 0, a, bb]
        xx = bb * strides[1] - pads[1] + j * dil[1] + off[nn, g, i, j, 1, a, bb]
        y0, x0 = int(np.floor(yy)), int(np.floor(xx))
        val = 0.0
        for ty, wy in ((y0, y0 + 1 - yy), (y0 + 1, yy - y0)):
            for tx, wx in ((x0, x0 + 1 - xx), (x0 + 1, xx - x0)):
                if 0 <= ty < H and 0 <= tx < W:
                    val += wy * wx * xf[nn, c, ty, tx]
        cols[nn, c, i, j, a, bb] = val * mk[nn, g, i, j, a, bb]
    y = np.zeros((N, M, oh, ow))
    for m in range(M):
        gi = m // (M // group)
        y[:, m] = np.einsum("ncijab,cij->nab", cols[:, gi * Cw:(gi + 1) * Cw], f64(w[m]))
        if b is not None:
            y[:, m] += float(b[m])
    return y.astype(x.dtype)
