"""Neural-network ops: Conv, ConvTranspose, MatMul, Gemm, Einsum, Det, the
Softmax family, pooling and the normalizations. Float results are accumulated
in float64 and rounded once to the output type."""

import itertools

import numpy as np

from .core import NotEvaluated, np_dtype, is_int, is_float, f64, as_type, norm_axis


# ----------------------------------------------------------------------------
# Convolution and matrix products
# ----------------------------------------------------------------------------

def _conv_pads(n, in_sp, k_sp, strides, dil):
    """Explicit pads (begin, end) per spatial axis. auto_pad SAME_UPPER /
    SAME_LOWER: output = ceil(in / stride), total = max(0, (out - 1) * stride +
    (k - 1) * dilation + 1 - in), the odd pad at the end (UPPER) or the
    beginning (LOWER); VALID: none; NOTSET: the `pads` attribute."""
    nsp = len(in_sp)
    auto_pad = n.attr("auto_pad", "NOTSET")
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        pb, pe = [], []
        for i in range(nsp):
            out = -(-in_sp[i] // strides[i])
            total = max(0, (out - 1) * strides[i] + (k_sp[i] - 1) * dil[i] + 1 - in_sp[i])
            small = total // 2
            pb.append(small if auto_pad == "SAME_UPPER" else total - small)
            pe.append(total - pb[-1])
        return pb, pe
    if auto_pad == "VALID":
        return [0] * nsp, [0] * nsp
    pads = n.attr("pads", [0] * (2 * nsp))
    return list(pads[:nsp]), list(pads[nsp:])


def _conv_core(x, w, group, strides, dil, pb, pe):
    """Grouped N-D cross-correlation in float64: x (N, C, *S), w (M, C/group, *K)
    -> (N, M, *O). Vectorized over output positions, looping over kernel taps
    (a matrix product per tap, an elementwise product for depthwise)."""
    nsp = x.ndim - 2
    ksp = w.shape[2:]
    xp = np.pad(x, [(0, 0), (0, 0)] + [(max(pb[i], 0), max(pe[i], 0)) for i in range(nsp)])
    crop = tuple(slice(-min(pb[i], 0), xp.shape[2 + i] + min(pe[i], 0)) for i in range(nsp))
    xp = xp[(slice(None), slice(None)) + crop]
    out_sp = [(xp.shape[2 + i] - ((ksp[i] - 1) * dil[i] + 1)) // strides[i] + 1 for i in range(nsp)]
    if min(out_sp) <= 0:
        raise ValueError("convolution output would be empty: %s" % out_sp)
    N, C = x.shape[:2]
    M = w.shape[0]
    G = group
    Cg, Mg = C // G, M // G
    if Cg != w.shape[1] or Mg * G != M:
        raise ValueError("Conv: %d input channels, group %d, weights %s" % (C, G, list(w.shape)))
    P = int(np.prod(out_sp))
    xg = xp.reshape((N, G, Cg) + xp.shape[2:])
    wg = w.reshape((G, Mg, Cg) + tuple(ksp))
    out = np.zeros((N, G, Mg, P))
    for tap in itertools.product(*[range(k) for k in ksp]):
        sl = tuple(slice(tap[i] * dil[i], tap[i] * dil[i] + strides[i] * (out_sp[i] - 1) + 1, strides[i])
                   for i in range(nsp))
        patch = xg[(slice(None),) * 3 + sl].reshape(N, G, Cg, P)
        wt = wg[(slice(None),) * 3 + tap]  # (G, Mg, Cg)
        if Cg == 1:
            out += wt[None, :, :, 0, None] * patch
        else:
            out += np.matmul(wt[None], patch)
    return out.reshape((N, M) + tuple(out_sp))


def _conv_attrs(n, x, w):
    nsp = x.ndim - 2
    ksp = list(w.shape[2:])
    strides = n.attr("strides", [1] * nsp)
    dil = n.attr("dilations", [1] * nsp)
    pb, pe = _conv_pads(n, list(x.shape[2:]), ksp, strides, dil)
    return n.attr("group", 1), strides, dil, pb, pe


def op_conv(n, x, w, b=None):
    """Conv: float64 accumulation of the cross-correlation plus bias, rounded once
    to the output type. group, pads, strides, dilations, auto_pad; 1-D to 3-D."""
    group, strides, dil, pb, pe = _conv_attrs(n, x, w)
    y = _conv_core(f64(x), f64(w), group, strides, dil, pb, pe)
    if b is not None:
        y += f64(b).reshape((1, -1) + (1,) * (x.ndim - 2))
    return y.astype(x.dtype)

def op_conv_transpose(n, x, w, b=None):
    """ConvTranspose: w is (C, M/group, *K); each input element scatters
    x * w into the output, accumulated in float64 and rounded once. The output
    size is stride * (in - 1) + output_padding + (k - 1) * dilation + 1
    - pad_begin - pad_end. With `output_shape` (or auto_pad SAME_*, where
    output_shape = in * stride) the total padding follows from it and is split
    as the ONNX text says: SAME_UPPER puts total // 2 at the beginning (the odd
    pad at the end), otherwise the odd pad goes at the beginning. A negative
    total (output_shape larger than the natural size) extends the end as
    output_padding does, as the ONNX test data has it."""
    nsp = x.ndim - 2
    S = list(x.shape[2:])
    K = list(w.shape[2:])
    strides = n.attr("strides", [1] * nsp)
    dil = n.attr("dilations", [1] * nsp)
    opad = n.attr("output_padding", [0] * nsp)
    group = n.attr("group", 1)
    auto_pad = n.attr("auto_pad", "NOTSET")
    full = [strides[i] * (S[i] - 1) + opad[i] + (K[i] - 1) * dil[i] + 1 for i in range(nsp)]
    out_shape = n.attr("output_shape")
    if out_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        if out_shape is None:
            out_shape = [S[i] * strides[i] for i in range(nsp)]
        out_shape = list(out_shape)[-nsp:]
        pb, pe = [], []
        for i in range(nsp):
            total = full[i] - out_shape[i]
            if total < 0:  # a larger output_shape: zeros at the end, like output_padding
                pb.append(0)
            elif auto_pad == "SAME_UPPER":
                pb.append(total // 2)
            else:
                pb.append(total - total // 2)
            pe.append(total - pb[-1])
    elif auto_pad == "VALID":
        pb, pe = [0] * nsp, [0] * nsp
    else:
        pads = n.attr("pads", [0] * (2 * nsp))
        pb, pe = list(pads[:nsp]), list(pads[nsp:])
    N, C = x.shape[:2]
    Mg = w.shape[1]
    G = group
    Cg = C // G
    M = Mg * G
    out_sp = [full[i] - pb[i] - pe[i] for i in range(nsp)]
    lead = [max(0, -pb[i]) for i in range(nsp)]
    alloc = [max(full[i], pb[i] + out_sp[i]) + lead[i] for i in range(nsp)]
    buf = np.zeros((N, G, Mg) + tuple(alloc))
    xg = f64(x).reshape((N, G, Cg, int(np.prod(S))))
    wg = f64(w).reshape((G, Cg, Mg) + tuple(K))
    for tap in itertools.product(*[range(k) for k in K]):
        wt = np.swapaxes(wg[(slice(None),) * 3 + tap], 1, 2)  # (G, Mg, Cg)
        contrib = np.matmul(wt[None], xg).reshape((N, G, Mg) + tuple(S))
        sl = tuple(slice(lead[i] + tap[i] * dil[i], lead[i] + tap[i] * dil[i] + strides[i] * (S[i] - 1) + 1,
                         strides[i]) for i in range(nsp))
        buf[(slice(None),) * 3 + sl] += contrib
    sel = tuple(slice(lead[i] + pb[i], lead[i] + pb[i] + out_sp[i]) for i in range(nsp))
    y = buf[(slice(None),) * 3 + sel].reshape((N, M) + tuple(out_sp))
    if b is not None:
        y = y + f64(b).reshape((1, -1) + (1,) * nsp)
    return y.astype(x.dtype)


def op_matmul(n, a, b):
    """MatMul: numpy matmul semantics (1-D promotion, batch broadcasting),
    float64 accumulation rounded once; integer types exactly."""
    if is_int(a):
        return np.matmul(a.astype(np.int64), b.astype(np.int64)).astype(a.dtype)
    return np.matmul(f64(a), f64(b)).astype(a.dtype)


def op_gemm(n, a, b, c=None):
    """Gemm: Y = alpha * A' @ B' + beta * C, A' = transA ? A^T : A (likewise B),
    C broadcast to (M, N); float64 accumulation rounded once."""
    A = a.T if n.attr("transA", 0) else a
    B = b.T if n.attr("transB", 0) else b
    alpha, beta = n.attr("alpha", 1.0), n.attr("beta", 1.0)
    if is_int(a):
        y = np.matmul(A.astype(np.int64), B.astype(np.int64)) * alpha
    else:
        y = alpha * np.matmul(f64(A), f64(B))
    if c is not None:
        y = y + beta * f64(c)
    return as_type(y, a.dtype) if is_int(a) else y.astype(a.dtype)


def op_einsum(n, *xs):
    """Einsum: numpy's einsum on the `equation`, float64 accumulation."""
    eq = n.attr("equation").replace(" ", "")
    if is_int(xs[0]):
        return np.einsum(eq, *[x.astype(np.int64) for x in xs]).astype(xs[0].dtype)
    return np.asarray(np.einsum(eq, *[f64(x) for x in xs])).astype(xs[0].dtype)


def op_det(n, x):
    """Det: determinant of the last two dimensions."""
    return np.asarray(np.linalg.det(f64(x))).astype(x.dtype)

# ----------------------------------------------------------------------------
# Softmax family
# ----------------------------------------------------------------------------

def op_softmax(n, x):
    """Softmax, LogSoftmax, Hardmax. Opset < 13: the input is coerced to 2-D at
    `axis` (default 1) and the op runs over the second dimension; opset >= 13:
    over `axis` (default -1). Hardmax: 1 at the first maximum, else 0."""
    shape = x.shape
    if n.opset < 13:
        axis = norm_axis(n.attr("axis", 1), x.ndim) if x.ndim else 0
        rows = int(np.prod(shape[:axis])) if axis else 1
        xr = f64(x).reshape(rows, -1)
        ax = 1
    else:
        xr = f64(x)
        ax = norm_axis(n.attr("axis", -1), x.ndim)
    if n.op == "Hardmax":
        idx = np.argmax(xr, axis=ax)
        y = np.zeros_like(xr)
        np.put_along_axis(y, np.expand_dims(idx, ax), 1.0, axis=ax)
    else:
        m = np.max(xr, axis=ax, keepdims=True)
        with np.errstate(all="ignore"):
            e = np.exp(xr - m)
            s = np.sum(e, axis=ax, keepdims=True)
            y = (xr - m) - np.log(s) if n.op == "LogSoftmax" else e / s
    return y.reshape(shape).astype(x.dtype)

# ----------------------------------------------------------------------------
# Pooling
# ----------------------------------------------------------------------------

def _pool_geometry(n, in_sp, kernel):
    """(strides, dilations, pads begin, pads end, output shape) of a pooling op.
    NOTSET: out = floor((in + pads - (k-1)*d - 1) / s + 1), or ceil with
    ceil_mode, where a window that would start in the end padding is dropped.
    SAME_*: out = ceil(in / s); VALID: out = ceil((in - (k-1)*d) / s)."""
    nsp = len(in_sp)
    strides = n.attr("strides", [1] * nsp)
    dil = n.attr("dilations", [1] * nsp)
    auto_pad = n.attr("auto_pad", "NOTSET")
    ceil_mode = n.attr("ceil_mode", 0)
    pb, pe, out = [], [], []
    for i in range(nsp):
        dk = (kernel[i] - 1) * dil[i] + 1
        if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            o = -(-in_sp[i] // strides[i])
            total = max(0, (o - 1) * strides[i] + dk - in_sp[i])
            b = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
            pb.append(b)
            pe.append(total - b)
        elif auto_pad == "VALID":
            o = -(-(in_sp[i] - dk + 1) // strides[i])
            pb.append(0)
            pe.append(0)
        else:
            pads = n.attr("pads", [0] * (2 * nsp))
            pb.append(pads[i])
            pe.append(pads[i + nsp])
            span = in_sp[i] + pb[i] + pe[i] - dk
            if ceil_mode:
                o = -(-span // strides[i]) + 1
                if (o - 1) * strides[i] >= in_sp[i] + pb[i]:
                    o -= 1
            else:
                o = span // strides[i] + 1
        out.append(o)
    return strides, dil, pb, pe, out


def _pool_taps(xp, kernel, strides, dil, out):
    """Views of the padded input, one per kernel tap, each (N, C, *out)."""
    nsp = len(kernel)
    for tap in itertools.product(*[range(k) for k in kernel]):
        sl = tuple(slice(tap[i] * dil[i], tap[i] * dil[i] + strides[i] * (out[i] - 1) + 1, strides[i])
                   for i in range(nsp))
        yield tap, xp[(Ellipsis,) + sl]


def _pad_for_pool(x, pb, pe, strides, dil, kernel, out, value):
    nsp = len(kernel)
    extra = [max(0, (out[i] - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1
                 - (x.shape[2 + i] + pb[i] + pe[i])) for i in range(nsp)]
    width = [(0, 0)] * (x.ndim - nsp) + [(pb[i], pe[i] + extra[i]) for i in range(nsp)]
    return np.pad(x, width, constant_values=value), extra


def _avg_pool(n, x, kernel=None):
    """AveragePool of a float64 (N, C, *S) tensor: the window mean over the input
    elements, and over the explicit pads too when count_include_pad = 1 (never
    over the extension ceil_mode adds)."""
    kernel = kernel or n.attr("kernel_shape")
    nsp = len(kernel)
    strides, dil, pb, pe, out = _pool_geometry(n, list(x.shape[2:]), kernel)
    xp, extra = _pad_for_pool(x, pb, pe, strides, dil, kernel, out, 0.0)
    ones = np.ones(x.shape[2:])
    if n.attr("count_include_pad", 0):
        cnt = np.pad(ones, [(pb[i], pe[i]) for i in range(nsp)], constant_values=1.0)
        cnt = np.pad(cnt, [(0, extra[i]) for i in range(nsp)])
    else:
        cnt = np.pad(ones, [(pb[i], pe[i] + extra[i]) for i in range(nsp)])
    s = np.zeros(x.shape[:2] + tuple(out))
    c = np.zeros(tuple(out))
    for (_, v), (_, cv) in zip(_pool_taps(xp, kernel, strides, dil, out),
                               _pool_taps(cnt, kernel, strides, dil, out)):
        s += v
        c += cv
    with np.errstate(all="ignore"):
        return s / c


def op_average_pool(n, x):
    """AveragePool: kernel_shape, strides, pads, auto_pad, ceil_mode,
    count_include_pad, dilations (19); float64 sums rounded once."""
    return _avg_pool(n, f64(x)).astype(x.dtype)


def op_lp_pool(n, x):
    """LpPool: (sum over the window of |x|^p)^(1/p), p default 2, zero padding."""
    p = n.attr("p", 2)
    kernel = n.attr("kernel_shape")
    strides, dil, pb, pe, out = _pool_geometry(n, list(x.shape[2:]), kernel)
    xp, _ = _pad_for_pool(np.abs(f64(x)) ** p, pb, pe, strides, dil, kernel, out, 0.0)
    s = sum(v for _, v in _pool_taps(xp, kernel, strides, dil, out))
    return (s ** (1.0 / p)).astype(x.dtype)


def op_max_pool(n, x):
    """MaxPool: window maximum (padding never wins); optional Indices output,
    the flat index into X of the first maximum, row-major (storage_order 0)
    or column-major over the spatial axes (storage_order 1)."""
    kernel = n.attr("kernel_shape")
    nsp = len(kernel)
    strides, dil, pb, pe, out = _pool_geometry(n, list(x.shape[2:]), kernel)
    low = -np.inf if is_float(x) else np.iinfo(x.dtype).min
    xp, _ = _pad_for_pool(x, pb, pe, strides, dil, kernel, out, low)
    if not n.wants(1):
        y = None
        for _, v in _pool_taps(xp, kernel, strides, dil, out):
            y = v.copy() if y is None else np.maximum(y, v)
        return y
    taps, views = zip(*_pool_taps(xp, kernel, strides, dil, out))
    stack = np.stack(views)
    best = np.argmax(stack, axis=0)
    y = np.take_along_axis(stack, best[None], axis=0)[0]
    S = x.shape[2:]
    if n.attr("storage_order", 0):
        sp_stride = [int(np.prod(S[:i])) for i in range(nsp)]
    else:
        sp_stride = [int(np.prod(S[i + 1:])) for i in range(nsp)]
    taps = np.array(taps)  # (T, nsp)
    flat = np.zeros(best.shape, dtype=np.int64)
    for i in range(nsp):
        o = np.arange(out[i]).reshape((1, 1) + tuple(-1 if j == i else 1 for j in range(nsp)))
        coord = o * strides[i] + taps[best, i] * dil[i] - pb[i]
        flat += coord * sp_stride[i]
    N, C = x.shape[:2]
    base = (np.arange(N).reshape(-1, 1) * C + np.arange(C).reshape(1, -1)) * int(np.prod(S))
    flat += base.reshape((N, C) + (1,) * nsp)
    return y, flat


def op_global_pool(n, x):
    """GlobalAveragePool / GlobalMaxPool / GlobalLpPool over all spatial axes,
    keeping them as size 1."""
    axes = tuple(range(2, x.ndim))
    if n.op == "GlobalMaxPool":
        return np.max(x, axis=axes, keepdims=True)
    if n.op == "GlobalLpPool":
        p = n.attr("p", 2)
        return (np.sum(np.abs(f64(x)) ** p, axis=axes, keepdims=True) ** (1.0 / p)).astype(x.dtype)
    return np.mean(f64(x), axis=axes, keepdims=True).astype(x.dtype)

# ----------------------------------------------------------------------------
# Normalization
# ----------------------------------------------------------------------------

def op_batchnorm(n, x, scale, bias, mean, var, *_):
    """BatchNormalization: y = (x - mean) / sqrt(var + epsilon) * scale + B with
    the parameters along axis 1 (epsilon 1e-5). training_mode = 1 (opset 14+)
    normalizes with the batch statistics and also returns running_mean =
    mean * momentum + batch_mean * (1 - momentum) and likewise running_var
    (momentum 0.9, population variance)."""
    eps = n.attr("epsilon", 1e-5)
    xf = f64(x)

    def chan(p):
        p = f64(p)
        return p.reshape((-1,) + (1,) * (x.ndim - 2)) if p.ndim == 1 else p
    training = n.opset >= 14 and n.attr("training_mode", 0)
    if n.opset < 7 and not n.attr("is_test", 0) and any(n.wants(k) for k in range(1, 5)):
        raise NotEvaluated("BatchNormalization in training mode (opset < 7)")
    if training:
        axes = (0,) + tuple(range(2, x.ndim))
        bm, bv = xf.mean(axis=axes), xf.var(axis=axes)
        y = (xf - chan(bm)) / np.sqrt(chan(bv) + eps) * chan(scale) + chan(bias)
        mom = n.attr("momentum", 0.9)
        rm = f64(mean) * mom + bm * (1 - mom)
        rv = f64(var) * mom + bv * (1 - mom)
        return y.astype(x.dtype), rm.astype(mean.dtype), rv.astype(var.dtype)
    y = (xf - chan(mean)) / np.sqrt(chan(var) + eps) * chan(scale) + chan(bias)
    return y.astype(x.dtype)


def op_instancenorm(n, x, scale, bias):
    """InstanceNormalization: per (n, c) over the spatial axes,
    y = scale * (x - mean) / sqrt(var + epsilon) + B (epsilon 1e-5)."""
    axes = tuple(range(2, x.ndim))
    xf = f64(x)
    m = xf.mean(axis=axes, keepdims=True)
    v = xf.var(axis=axes, keepdims=True)
    c = (1, -1) + (1,) * (x.ndim - 2)
    y = (xf - m) / np.sqrt(v + n.attr("epsilon", 1e-5)) * f64(scale).reshape(c) + f64(bias).reshape(c)
    return y.astype(x.dtype)


def op_layernorm(n, x, scale, bias=None):
    """LayerNormalization (opset 17): over the axes from `axis` (default -1) on,
    Y = (X - mean) / sqrt(var + epsilon) * Scale + B; also Mean and InvStdDev
    (with the reduced axes kept as 1), in the stash_type (float32)."""
    axis = norm_axis(n.attr("axis", -1), x.ndim)
    axes = tuple(range(axis, x.ndim))
    xf = f64(x)
    m = xf.mean(axis=axes, keepdims=True)
    v = ((xf - m) ** 2).mean(axis=axes, keepdims=True)
    inv = 1.0 / np.sqrt(v + n.attr("epsilon", 1e-5))
    y = (xf - m) * inv * f64(scale)
    if bias is not None:
        y = y + f64(bias)
    stash = np_dtype(n.attr("stash_type", 1))
    return y.astype(x.dtype), m.astype(stash), inv.astype(stash)


def op_lrn(n, x):
    """LRN: y = x / (bias + alpha / size * square_sum) ^ beta, square_sum over
    channels c - floor((size - 1) / 2) .. c + ceil((size - 1) / 2)."""
    size = n.attr("size")
    alpha, beta, bias = n.attr("alpha", 1e-4), n.attr("beta", 0.75), n.attr("bias", 1.0)
    xf = f64(x)
    C = x.shape[1]
    sq = xf * xf
    lo, hi = (size - 1) // 2, -(-(size - 1) // 2)
    ss = np.zeros_like(xf)
    for c in range(C):
        ss[:, c] = sq[:, max(0, c - lo):min(C, c + hi + 1)].sum(axis=1)
    return (xf / (bias + alpha / size * ss) ** beta).astype(x.dtype)


def op_mvn(n, x):
    """MeanVarianceNormalization: (X - mean) / (sqrt(mean(X^2) - mean^2) + 1e-9)
    over `axes` (default [0, 2, 3]), as its ONNX function body."""
    axes = tuple(norm_axis(a, x.ndim) for a in n.attr("axes", [0, 2, 3]))
    xf = f64(x)
    m = xf.mean(axis=axes, keepdims=True)
    sd = np.sqrt((xf * xf).mean(axis=axes, keepdims=True) - m * m)
    return ((xf - m) / (sd + 1e-9)).astype(x.dtype)
