"""Quantization: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
QLinearMatMul, MatMulInteger, ConvInteger, QLinearConv and the com.microsoft
QLinear* ops. Integer products are exact, requantization is in float64."""

import numpy as np

from .core import NotEvaluated, np_dtype, f64, scalar, norm_axis
from .nn import _avg_pool, _conv_attrs, _conv_core


# ----------------------------------------------------------------------------
# Quantization
# ----------------------------------------------------------------------------

def _per_axis(param, x_ndim, axis):
    """A per-tensor (scalar) or per-axis (1-D) quantization parameter shaped to
    broadcast against a tensor of rank x_ndim along `axis`."""
    param = np.asarray(param)
    if param.ndim == 0 or param.size == 1 and param.ndim == 1 and x_ndim == 0:
        return param.reshape(())
    if param.ndim == 1:
        axis = norm_axis(axis, x_ndim)
        shape = [1] * x_ndim
        shape[axis] = param.shape[0]
        return param.reshape(shape)
    return param


def dequantize(x, scale, zp=None, axis=1):
    """DequantizeLinear: y = (x - zero_point) * scale. The subtraction is exact
    (in int64, as onnxruntime's int32), the product is float32 (the scale's type
    when it is float16)."""
    scale = np.asarray(scale)
    s = _per_axis(scale, x.ndim, axis).astype(np.float32)
    xi = x.astype(np.int64)
    if zp is not None:
        xi = xi - _per_axis(zp, x.ndim, axis).astype(np.int64)
    y = xi.astype(np.float32) * s
    return y.astype(scale.dtype if scale.dtype.kind == "f" else np.float32)


def _qrange(dtype):
    info = np.iinfo(dtype)
    return info.min, info.max


def quantize(x, scale, zp=None, axis=1, dtype=None):
    """QuantizeLinear: y = saturate(round_half_to_even(x / scale) + zero_point),
    x / scale in float32; the output type is the zero point's (uint8 without)."""
    dtype = np.dtype(dtype if dtype is not None else (zp.dtype if zp is not None else np.uint8))
    s = _per_axis(scale, np.ndim(x), axis).astype(np.float32)
    with np.errstate(all="ignore"):
        q = np.rint(np.asarray(x).astype(np.float32) / s).astype(np.float64)
    if zp is not None:
        q = q + _per_axis(zp, np.ndim(x), axis).astype(np.float64)
    lo, hi = _qrange(dtype)
    return np.clip(q, lo, hi).astype(dtype)


def quantize_f64(real, scale, zp, dtype, axis=1):
    """Quantization of a float64 result for QLinear* ops: round half to even of
    real / scale in float64, plus the zero point, saturated."""
    s = _per_axis(scale, real.ndim, axis).astype(np.float64)
    q = np.rint(real / s)
    if zp is not None:
        q = q + _per_axis(zp, real.ndim, axis).astype(np.float64)
    lo, hi = _qrange(dtype)
    return np.clip(q, lo, hi).astype(dtype)


def _deq64(x, scale, zp, axis=1):
    """Exact dequantization in float64: (x - zp) * scale."""
    xi = f64(x)
    if zp is not None:
        xi = xi - _per_axis(zp, x.ndim, axis).astype(np.float64)
    return xi * _per_axis(scale, x.ndim, axis).astype(np.float64)


def op_quantize_linear(n, x, scale, zp=None):
    """QuantizeLinear (opset 10: per tensor; 13: `axis`, default 1; 19: float8
    and `saturate`; 21: `block_size`, `output_dtype`)."""
    if n.attr("block_size", 0):
        raise NotEvaluated("QuantizeLinear with block_size (blocked quantization)")
    dtype = None
    if zp is None and n.attr("output_dtype", 0):
        dtype = np_dtype(n.attr("output_dtype"))
    return quantize(x, scale, zp, n.attr("axis", 1), dtype)


def op_dequantize_linear(n, x, scale, zp=None):
    """DequantizeLinear (opset 10: per tensor; 13: `axis`; 21: `block_size`)."""
    if n.attr("block_size", 0):
        raise NotEvaluated("DequantizeLinear with block_size (blocked quantization)")
    return dequantize(x, scale, zp, n.attr("axis", 1))


def op_dynamic_quantize_linear(n, x):
    """DynamicQuantizeLinear (uint8): scale = (max(0, max x) - min(0, min x)) / 255,
    zero_point = saturate(round(0 - min / scale)), y = saturate(round(x / scale) + zp),
    all in float32."""
    x = x.astype(np.float32)
    lo = np.float32(min(0.0, float(x.min()) if x.size else 0.0))
    hi = np.float32(max(0.0, float(x.max()) if x.size else 0.0))
    scale = np.float32((hi - lo) / np.float32(255))
    with np.errstate(all="ignore"):
        zp = np.clip(np.rint(np.float32(0) - lo / scale), 0, 255) if scale != 0 else np.float32(0)
    zp = np.uint8(zp)
    y = quantize(x, np.array(scale, np.float32), np.array(zp, np.uint8), 1, np.uint8)
    return y, np.array(scale, np.float32), np.array(zp, np.uint8)


def op_qlinear_matmul(n, a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp):
    """QLinearMatMul: y = quantize(((a - a_zp) @ (b - b_zp)) * a_scale * b_scale
    / y_scale) + y_zp, exact integer products, float64 requantization.
    1-D a parameters are per row of a, 1-D b parameters per column of b."""
    def rows(p):
        p = np.asarray(p)
        return p.reshape(-1, 1) if p.ndim == 1 and p.size > 1 else p.reshape(p.shape if p.ndim > 1 else ())

    def cols(p):
        p = np.asarray(p)
        return p.reshape(1, -1) if p.ndim == 1 and p.size > 1 else p.reshape(p.shape if p.ndim > 1 else ())
    ai = f64(a) - f64(rows(a_zp))
    bi = f64(b) - f64(cols(b_zp))
    acc = np.matmul(ai, bi)
    real = acc * f64(rows(a_scale)) * f64(cols(b_scale))
    q = np.rint(real / f64(rows(y_scale))) + f64(rows(y_zp))
    lo, hi = _qrange(y_zp.dtype)
    return np.clip(q, lo, hi).astype(y_zp.dtype)


def op_matmul_integer(n, a, b, a_zp=None, b_zp=None):
    """MatMulInteger: int32 y = (a - a_zp) @ (b - b_zp); a_zp scalar or per row
    of a, b_zp scalar or per column of b."""
    ai = a.astype(np.int64)
    bi = b.astype(np.int64)
    if a_zp is not None:
        ai = ai - (a_zp.astype(np.int64).reshape(-1, 1) if a_zp.ndim == 1 and a_zp.size > 1
                   else a_zp.astype(np.int64).reshape(a_zp.shape if a_zp.ndim > 1 else ()))
    if b_zp is not None:
        bi = bi - (b_zp.astype(np.int64).reshape(1, -1) if b_zp.ndim == 1 and b_zp.size > 1
                   else b_zp.astype(np.int64).reshape(b_zp.shape if b_zp.ndim > 1 else ()))
    return np.matmul(ai, bi).astype(np.int32)


def _ms_zp(zp, like):
    return zp if zp is not None else np.zeros((), like.dtype)


def op_qlinear_binary(n, a, a_scale, a_zp, b, b_scale, b_zp, c_scale, c_zp=None):
    """com.microsoft QLinearAdd / QLinearMul: C = quantize(deq(A) op deq(B)),
    dequantized exactly, computed in float64, rounded half to even."""
    a_zp, b_zp = _ms_zp(a_zp, a), _ms_zp(b_zp, b)
    c_zp = _ms_zp(c_zp, a)
    ra, rb = _deq64(a, a_scale, a_zp), _deq64(b, b_scale, b_zp)
    real = ra + rb if n.op == "QLinearAdd" else ra * rb
    return quantize_f64(real, c_scale, c_zp, c_zp.dtype)


def op_qlinear_unary(n, x, x_scale, x_zp, y_scale, y_zp=None):
    """com.microsoft QLinearSigmoid / QLinearLeakyRelu (alpha 0.01):
    Y = quantize(f(deq(X)))."""
    x_zp = _ms_zp(x_zp, x)
    y_zp = _ms_zp(y_zp, x)
    r = _deq64(x, x_scale, x_zp)
    if n.op == "QLinearSigmoid":
        r = 1.0 / (1.0 + np.exp(-r))
    else:
        r = np.where(r < 0, n.attr("alpha", 0.01) * r, r)
    return quantize_f64(r, y_scale, y_zp, y_zp.dtype)


def op_qlinear_concat(n, y_scale, y_zp, *triples):
    """com.microsoft QLinearConcat: inputs Y_scale, Y_zp, then (X, X_scale, X_zp)
    per input; Y = quantize(concat(deq(X_i)), axis)."""
    reals = [_deq64(triples[i], triples[i + 1], triples[i + 2]) for i in range(0, len(triples), 3)]
    axis = n.attr("axis")
    return quantize_f64(np.concatenate(reals, axis=norm_axis(axis, reals[0].ndim)),
                        y_scale, y_zp, y_zp.dtype)


def op_qlinear_pool(n, x, x_scale, x_zp, y_scale, y_zp=None):
    """com.microsoft QLinearAveragePool / QLinearGlobalAveragePool: the float
    pooling of deq(X), quantized; `channels_last` puts channels at the end."""
    x_zp = _ms_zp(x_zp, x)
    y_zp = _ms_zp(y_zp, x)
    r = _deq64(x, x_scale, x_zp)
    cl = n.attr("channels_last", 0)
    if cl:
        r = np.moveaxis(r, -1, 1)
    if n.op == "QLinearGlobalAveragePool":
        y = r.mean(axis=tuple(range(2, r.ndim)), keepdims=True)
    else:
        y = _avg_pool(n, r)
    if cl:
        y = np.moveaxis(y, 1, -1)
    return quantize_f64(y, y_scale, y_zp, y_zp.dtype)


# ----------------------------------------------------------------------------
# Integer convolution
# ----------------------------------------------------------------------------

def op_conv_integer(n, x, w, x_zp=None, w_zp=None):
    """ConvInteger: int32 y = conv(x - x_zp, w - w_zp); the padding is the zero
    point (zero after the subtraction); w_zp scalar or per output channel."""
    xi = x.astype(np.int64) - (np.int64(scalar(x_zp)) if x_zp is not None else 0)
    wi = w.astype(np.int64)
    if w_zp is not None:
        wi = wi - (w_zp.astype(np.int64).reshape((-1,) + (1,) * (w.ndim - 1)) if w_zp.size > 1
                   else np.int64(scalar(w_zp)))
    group, strides, dil, pb, pe = _conv_attrs(n, x, w)
    y = _conv_core(f64(xi), f64(wi), group, strides, dil, pb, pe)
    return np.rint(y).astype(np.int32)


def op_qlinear_conv(n, x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, b=None):
    """QLinearConv: y = saturate(round((conv(x - x_zp, w - w_zp) + B) * x_scale *
    w_scale / y_scale) + y_zp); exact integer accumulation, float64 requantization
    (w_scale / w_zp per output channel when 1-D)."""
    xi = f64(x) - f64(scalar(x_zp))
    chan = (1, -1) + (1,) * (x.ndim - 2)
    wz = f64(w_zp).reshape((-1,) + (1,) * (w.ndim - 1)) if w_zp.size > 1 else f64(scalar(w_zp))
    wi = f64(w) - wz
    group, strides, dil, pb, pe = _conv_attrs(n, x, w)
    acc = _conv_core(xi, wi, group, strides, dil, pb, pe)
    if b is not None:
        acc += f64(b).reshape(chan)
    ws = f64(w_scale).reshape(chan) if w_scale.size > 1 else f64(scalar(w_scale))
    real = acc * (f64(scalar(x_scale)) * ws)
    q = np.rint(real / f64(scalar(y_scale))) + f64(scalar(y_zp))
    lo, hi = _qrange(y_zp.dtype)
    return np.clip(q, lo, hi).astype(y_zp.dtype)
