"""Reductions: the Reduce* ops, ArgMax / ArgMin, CumSum and TopK."""

import numpy as np

from .core import is_int, is_float, f64, ints, scalar, norm_axis


# ----------------------------------------------------------------------------
# Reductions
# ----------------------------------------------------------------------------

def _reduce_axes(n, x, axes_in):
    """Axes of a reduction: the `axes` attribute, or (ReduceSum from opset 13,
    every reduction from 18) the optional second input. Empty or absent axes
    reduce everything, unless noop_with_empty_axes = 1 (then identity: None)."""
    input_axes = n.opset >= 18 or (n.op == "ReduceSum" and n.opset >= 13)
    axes = (ints(axes_in) if axes_in is not None else None) if input_axes else n.attr("axes")
    if not axes:
        if n.attr("noop_with_empty_axes", 0):
            return None
        return tuple(range(x.ndim))
    return tuple(sorted(norm_axis(a, x.ndim) for a in axes))


def op_reduce(n, x, axes_in=None):
    """ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceProd, ReduceL1,
    ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp (keepdims default
    1), float64 accumulation rounded once to the input type (integer sums and
    products exactly in int64, integer means truncated)."""
    axes = _reduce_axes(n, x, axes_in)
    if axes is None:
        return x.copy()
    keep = bool(n.attr("keepdims", 1))
    op = n.op
    if op in ("ReduceMax", "ReduceMin") and is_int(x):
        f = np.max if op == "ReduceMax" else np.min
        return np.asarray(f(x, axis=axes, keepdims=keep))
    exact_int = is_int(x) and op in ("ReduceSum", "ReduceProd", "ReduceL1", "ReduceSumSquare")
    xf = x.astype(np.int64) if exact_int else f64(x)
    with np.errstate(all="ignore"):
        if op == "ReduceMean":
            y = np.mean(xf, axis=axes, keepdims=keep)
        elif op == "ReduceSum":
            y = np.sum(xf, axis=axes, keepdims=keep)
        elif op == "ReduceMax":
            y = np.max(xf, axis=axes, keepdims=keep) if x.size else \
                np.full(np.sum(xf, axis=axes, keepdims=keep).shape, -np.inf)
        elif op == "ReduceMin":
            y = np.min(xf, axis=axes, keepdims=keep) if x.size else \
                np.full(np.sum(xf, axis=axes, keepdims=keep).shape, np.inf)
        elif op == "ReduceProd":
            y = np.prod(xf, axis=axes, keepdims=keep)
        elif op == "ReduceL1":
            y = np.sum(np.abs(xf), axis=axes, keepdims=keep)
        elif op == "ReduceL2":
            y = np.sqrt(np.sum(xf * xf, axis=axes, keepdims=keep))
        elif op == "ReduceSumSquare":
            y = np.sum(xf * xf, axis=axes, keepdims=keep)
        elif op == "ReduceLogSum":
            y = np.log(np.sum(xf, axis=axes, keepdims=keep))
        else:  # ReduceLogSumExp
            m = np.max(xf, axis=axes, keepdims=True) if x.size else np.zeros(())
            m = np.where(np.isfinite(m), m, 0.0)
            y = np.log(np.sum(np.exp(xf - m), axis=axes, keepdims=True)) + m
            if not keep:
                y = np.squeeze(y, axis=axes)
    if is_int(x):
        return np.asarray(np.trunc(y) if op in ("ReduceMean", "ReduceL2", "ReduceLogSum",
                                                "ReduceLogSumExp") else y).astype(x.dtype)
    return np.asarray(y).astype(x.dtype)


def op_argminmax(n, x):
    """ArgMax / ArgMin: int64 index along `axis` (default 0), keepdims (1),
    select_last_index (0: the first occurrence of the extreme)."""
    axis = norm_axis(n.attr("axis", 0), x.ndim)
    f = np.argmax if n.op == "ArgMax" else np.argmin
    if n.attr("select_last_index", 0):
        y = x.shape[axis] - 1 - f(np.flip(x, axis), axis=axis)
    else:
        y = f(x, axis=axis)
    if n.attr("keepdims", 1):
        y = np.expand_dims(y, axis)
    return np.asarray(y).astype(np.int64)


def op_cumsum(n, x, axis):
    """CumSum along the scalar `axis` input; exclusive and reverse attributes."""
    ax = norm_axis(int(scalar(axis)), x.ndim)
    xf = f64(x) if is_float(x) else x.astype(np.int64)
    if n.attr("reverse", 0):
        xf = np.flip(xf, ax)
    y = np.cumsum(xf, axis=ax)
    if n.attr("exclusive", 0):
        y = y - xf
    if n.attr("reverse", 0):
        y = np.flip(y, ax)
    return y.astype(x.dtype)


def op_topk(n, x, k=None):
    """TopK: the k largest (largest=1) or smallest values along `axis`
    (default -1) and their int64 indices; equal values keep the lower index first."""
    kk = int(scalar(k)) if n.opset >= 10 else n.attr("k")
    axis = norm_axis(n.attr("axis", -1), x.ndim)
    key = x.astype(np.float64) if x.dtype.kind == "u" else x
    if n.attr("largest", 1):
        key = -key.astype(np.float64) if key.dtype.kind in "u" else -key
    idx = np.argsort(key, axis=axis, kind="stable")
    idx = np.take(idx, np.arange(kk), axis=axis)
    return np.take_along_axis(x, idx, axis=axis), idx.astype(np.int64)
