#!/usr/bin/env python3
"""npuc-layer-check: judge every layer of a compiled model on its own inputs.

usage: npuc-layer-check.py MODEL.onnx DUMPDIR [--json OUT.json] [--max-step N]
                           [--rtol R] [--atol A] [--strict] [--quiet]

DUMPDIR is what `npu-sim --dump-tensors DUMPDIR` writes: index.json and one
.npy file per value the compiled program materialized (see docs below).

The checker walks the ONNX graph node by node and evaluates each node with a
numpy implementation of the op's ONNX definition (the model's default-domain
opset decides the semantics). Each input of a node is taken, in this order,
from

  1. the dump (the compiled program's own value: every layer is judged on the
     inputs the compiled program actually gave it),
  2. the initializers and Constant nodes,
  3. the checker's own value computed for the upstream node.

Every node output present in the dump is then compared with the checker's
value computed from those inputs. In a QDQ network
`x_u8 (dumped) -> DequantizeLinear -> Conv -> QuantizeLinear -> y_u8 (dumped)`
the DequantizeLinear and Conv outputs come from the checker, and y_u8 is
compared: that is one layer.

Comparison rules

  quantized   the dumped value is an integer and has `quant` info in the dump,
              or is the output of QuantizeLinear, QLinearConv, QLinearMatMul,
              DynamicQuantizeLinear or a com.microsoft QLinear* op. The error is
              |got - ref| in integer steps; within tolerance iff <= --max-step.
  integer     any other integer (or bool) value: must be equal.
  float       within tolerance iff
                  |got - ref| <= atol + rtol * |ref| + 1e-5 * max|ref|
              (max over the whole tensor). The tensor-wide term absorbs
              cancellation: an element of a long dot product whose terms cancel
              to nearly zero carries the rounding error of the large terms, not
              of its own small value. NaN matches NaN; infinities must be equal.
  real domain the dump is integer with `quant` but ONNX holds the value as a
              float (the compiler kept it quantized): the dump is dequantized
              and compared with the float reference (saturated to the range
              the quantized type can hold), allowing --max-step * scale.

A shape mismatch fails that value; downstream nodes then use the checker's own
value for it (the dumped one cannot be fed to them).

Where the ONNX text leaves a definition open, the checker follows the ONNX
test data (onnx 1.12) and otherwise onnxruntime: integer Div truncates toward
zero; pooling with ceil_mode drops a last window that would start in the end
padding; Resize takes the resized length as scale * input length (a float) in
align_corners / pytorch_half_pixel / tf_crop_and_resize, and floor(in * scale)
as the output size; Upsample and Resize-10 use asymmetric coordinates with
floor rounding; ConvTranspose with output_shape extends the end when the
output is larger than the natural size; QLinear* ops requantize in float64.
Ops without a reference (and modes such as Resize antialias or blocked
quantization) are listed as not evaluated, never skipped silently.

A value index.json lists with `"file": null` and a `missing` reason (npu-sim:
the program did not reach it, after a fault, or did not write every byte of
it) is not a dumped value: its producer's output is listed as not compared
with that reason, its readers run on the checker's own value for it (or are
not evaluated, with the reason, when there is none), and the summary lists it.

Exit status: 0 when every compared value is within tolerance, 1 when any is
beyond (or, with --strict, when any node could not be evaluated or the dump
lacks a value of the model, quantized or float alike: --strict asks for a
complete check), 2 on usage errors or unreadable inputs.
"""

import argparse
import itertools
import json
import math
import os
import sys

import numpy as np

try:
    import onnx
    from onnx import numpy_helper, helper, AttributeProto, TensorProto
except ImportError:  # pragma: no cover - environment problem
    sys.stderr.write("npuc-layer-check: error: the onnx Python package is missing "
                     "(Debian: apt-get install python3-onnx)\n")
    sys.exit(2)


PROG = "npuc-layer-check"
TENSOR_RTOL = 1e-5  # the tensor-wide term of the float tolerance, see the module doc


class NotEvaluated(Exception):
    """The checker has no reference for this node (or this use of it)."""


class UsageError(Exception):
    """Bad command line or unreadable input: exit status 2."""


# ----------------------------------------------------------------------------
# ONNX element types
# ----------------------------------------------------------------------------

ONNX_TO_NP = {
    TensorProto.FLOAT: np.float32, TensorProto.UINT8: np.uint8, TensorProto.INT8: np.int8,
    TensorProto.UINT16: np.uint16, TensorProto.INT16: np.int16, TensorProto.INT32: np.int32,
    TensorProto.INT64: np.int64, TensorProto.BOOL: np.bool_, TensorProto.FLOAT16: np.float16,
    TensorProto.DOUBLE: np.float64, TensorProto.UINT32: np.uint32, TensorProto.UINT64: np.uint64,
}


def np_dtype(elem_type):
    """numpy dtype of an ONNX element type; NotEvaluated for types numpy cannot hold."""
    if elem_type in ONNX_TO_NP:
        return np.dtype(ONNX_TO_NP[elem_type])
    name = TensorProto.DataType.Name(elem_type) if elem_type in TensorProto.DataType.values() \
        else str(elem_type)
    raise NotEvaluated("element type %s has no numpy equivalent" % name)


def is_int(a):
    return a.dtype.kind in "iub"


def is_float(a):
    return a.dtype.kind == "f"


def f64(a):
    return np.asarray(a, dtype=np.float64)


def ints(a):
    """A 1-D int64 tensor (shape, axes, pads ...) as a Python list."""
    return [int(v) for v in np.asarray(a).reshape(-1)]


def scalar(a):
    return np.asarray(a).reshape(-1)[0].item()


def as_type(y, dtype):
    """Cast a float64 result to the ONNX output type (ints by rounding half to even)."""
    dtype = np.dtype(dtype)
    y = np.asarray(y)
    if dtype.kind in "iu" and y.dtype.kind == "f":
        info = np.iinfo(dtype)
        return np.clip(np.rint(y), info.min, info.max).astype(dtype)
    return y.astype(dtype)


def norm_axis(axis, rank):
    if axis < -rank or axis >= max(rank, 1):
        raise ValueError("axis %d out of range for rank %d" % (axis, rank))
    return axis + rank if axis < 0 else axis


# ----------------------------------------------------------------------------
# Node context: attributes and opset of the node being evaluated
# ----------------------------------------------------------------------------

class Node:
    """One NodeProto with its decoded attributes and the opset it runs under."""

    def __init__(self, proto, opset, evaluator=None, lookup=None):
        self.proto = proto
        self.op = proto.op_type
        self.domain = proto.domain if proto.domain not in ("ai.onnx",) else ""
        self.opset = opset
        self.name = proto.name or (proto.output[0] if proto.output else proto.op_type)
        self.outputs = list(proto.output)
        self._attrs = {a.name: a for a in proto.attribute}
        self.evaluator = evaluator
        self.lookup = lookup

    def has(self, name):
        return name in self._attrs

    def attr(self, name, default=None):
        a = self._attrs.get(name)
        if a is None:
            return default
        if a.ref_attr_name:
            raise NotEvaluated("attribute %s refers to a function attribute" % name)
        if a.type == AttributeProto.TENSOR:
            return tensor_to_array(a.t)
        if a.type == AttributeProto.GRAPH:
            return a.g
        v = helper.get_attribute_value(a)
        if isinstance(v, bytes):
            return v.decode("utf-8")
        if isinstance(v, list) and v and isinstance(v[0], bytes):
            return [s.decode("utf-8") for s in v]
        return v

    def wants(self, k):
        """Whether output k exists (optional outputs may be absent or named "")."""
        return k < len(self.outputs) and self.outputs[k] != ""


def tensor_to_array(t):
    np_dtype(t.data_type)  # raises NotEvaluated for bfloat16, float8, string ...
    return numpy_helper.to_array(t)


# ----------------------------------------------------------------------------
# Elementwise ops
# ----------------------------------------------------------------------------

def _legacy_broadcast(n, a, b):
    """Opset < 7 binary ops: with broadcast=1 and `axis`, B's dimensions line up
    with A's starting at `axis`; without `axis`, suffix alignment (as numpy)."""
    if n.opset < 7 and n.attr("broadcast", 0) and n.has("axis") and b.ndim < a.ndim:
        axis = norm_axis(n.attr("axis"), a.ndim)
        b = b.reshape(b.shape + (1,) * (a.ndim - axis - b.ndim))
    return a, b


def _int_div(a, b):
    """C-style integer division: the quotient truncated toward zero."""
    with np.errstate(all="ignore"):
        q = np.floor_divide(a, b)
        fix = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
    return (q + fix).astype(np.result_type(a, b))


def op_arith(n, a, b):
    """Add, Sub, Mul, Div: C = A op B with numpy (multidirectional) broadcasting,
    in the inputs' type. Integer Div truncates toward zero (C semantics, as
    onnxruntime; the ONNX text does not state it, its tests only use positive
    integers). Opset < 7 `broadcast`/`axis` attributes are honoured."""
    a, b = _legacy_broadcast(n, a, b)
    with np.errstate(all="ignore"):
        if n.op == "Add":
            y = a + b
        elif n.op == "Sub":
            y = a - b
        elif n.op == "Mul":
            y = a * b
        elif is_int(a):
            y = _int_div(a, b)
        else:
            y = a / b
    return np.asarray(y).astype(a.dtype)


def op_pow(n, a, b):
    """Pow: Z = X ^ Y, broadcasting; the result has X's type (opset 12+ allows a
    different exponent type). Floats are computed in float64 and rounded once."""
    a, b = _legacy_broadcast(n, a, b)
    with np.errstate(all="ignore"):
        if is_int(a) and is_int(b) and np.all(b >= 0):
            return np.power(a.astype(np.int64), b.astype(np.int64)).astype(a.dtype)
        y = np.power(f64(a), f64(b))
    return y.astype(a.dtype) if is_float(a) else np.trunc(y).astype(a.dtype)


def op_mod(n, a, b):
    """Mod: fmod=0 takes the sign of the divisor (integers only, np.mod);
    fmod=1 takes the sign of the dividend (C fmod)."""
    with np.errstate(all="ignore"):
        if n.attr("fmod", 0):
            return np.fmod(a, b).astype(a.dtype)
        return np.mod(a, b).astype(a.dtype)


def op_bitshift(n, x, y):
    """BitShift: direction LEFT or RIGHT, unsigned integer inputs."""
    if n.attr("direction") == "LEFT":
        return np.left_shift(x, y).astype(x.dtype)
    return np.right_shift(x, y).astype(x.dtype)


def op_variadic(n, *xs):
    """Max, Min, Sum, Mean: elementwise over any number of inputs, broadcasting.
    Sum and Mean of floats accumulate in float64."""
    dtype = xs[0].dtype
    if n.op in ("Max", "Min"):
        f = np.maximum if n.op == "Max" else np.minimum
        y = xs[0]
        for x in xs[1:]:
            y = f(y, x)
        return np.asarray(y).astype(dtype)
    acc = f64(xs[0]) if is_float(xs[0]) else xs[0].astype(np.int64)
    for x in xs[1:]:
        acc = acc + (f64(x) if is_float(x) else x.astype(np.int64))
    if n.op == "Mean":
        acc = acc / len(xs)
    return np.asarray(acc).astype(dtype)


def op_compare(n, a, b):
    """Equal, Less, Greater, LessOrEqual, GreaterOrEqual: boolean, broadcasting."""
    a, b = _legacy_broadcast(n, a, b)
    f = {"Equal": np.equal, "Less": np.less, "Greater": np.greater,
         "LessOrEqual": np.less_equal, "GreaterOrEqual": np.greater_equal}[n.op]
    return f(a, b)


def op_logical(n, a, b=None):
    """And, Or, Xor (broadcasting) and Not on booleans."""
    if n.op == "Not":
        return np.logical_not(a)
    a, b = _legacy_broadcast(n, a, b)
    return {"And": np.logical_and, "Or": np.logical_or, "Xor": np.logical_xor}[n.op](a, b)


def op_where(n, c, x, y):
    """Where: elementwise select, broadcasting all three inputs."""
    return np.where(c.astype(bool), x, y).astype(x.dtype)


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x) if x.size else x


SELU_ALPHA = 1.67326319217681884765625
SELU_GAMMA = 1.05070102214813232421875

# Float-valued unary ops, evaluated in float64 and rounded once to the input's
# type. Each entry is f(x, node) with the ONNX definition of the op.
UNARY_FLOAT = {
    "Sigmoid": lambda x, n: 1.0 / (1.0 + np.exp(-x)),
    "HardSigmoid": lambda x, n: np.clip(n.attr("alpha", 0.2) * x + n.attr("beta", 0.5), 0, 1),
    "HardSwish": lambda x, n: x * np.clip(x / 6.0 + 0.5, 0, 1),
    "Softplus": lambda x, n: np.logaddexp(0.0, x),
    "Softsign": lambda x, n: x / (1.0 + np.abs(x)),
    "Elu": lambda x, n: np.where(x < 0, n.attr("alpha", 1.0) * np.expm1(x), x),
    "Selu": lambda x, n: n.attr("gamma", SELU_GAMMA) * np.where(
        x > 0, x, n.attr("alpha", SELU_ALPHA) * np.expm1(x)),
    "Celu": lambda x, n: np.maximum(0.0, x) + np.minimum(
        0.0, n.attr("alpha", 1.0) * np.expm1(x / n.attr("alpha", 1.0))),
    "ThresholdedRelu": lambda x, n: np.where(x > n.attr("alpha", 1.0), x, 0.0),
    "Mish": lambda x, n: x * np.tanh(np.logaddexp(0.0, x)),
    "Gelu": lambda x, n: (0.5 * x * (1.0 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))))
    if n.attr("approximate", "none") == "tanh" else 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0))),
    "Tanh": lambda x, n: np.tanh(x),
    "Exp": lambda x, n: np.exp(x),
    "Log": lambda x, n: np.log(x),
    "Sqrt": lambda x, n: np.sqrt(x),
    "Reciprocal": lambda x, n: 1.0 / x,
    "Erf": lambda x, n: _erf(x),
    "Sin": lambda x, n: np.sin(x), "Cos": lambda x, n: np.cos(x), "Tan": lambda x, n: np.tan(x),
    "Asin": lambda x, n: np.arcsin(x), "Acos": lambda x, n: np.arccos(x),
    "Atan": lambda x, n: np.arctan(x), "Sinh": lambda x, n: np.sinh(x),
    "Cosh": lambda x, n: np.cosh(x), "Asinh": lambda x, n: np.arcsinh(x),
    "Acosh": lambda x, n: np.arccosh(x), "Atanh": lambda x, n: np.arctanh(x),
}


def op_unary_float(n, x):
    """Float activations and transcendental functions, see UNARY_FLOAT. Integer
    inputs (allowed for Erf, Sign ...) are computed in float64 and cast back."""
    with np.errstate(all="ignore"):
        y = UNARY_FLOAT[n.op](f64(x), n)
    return as_type(y, x.dtype) if is_int(x) else np.asarray(y).astype(x.dtype)


def op_unary_exact(n, x):
    """Ops that are exact in the input's own type: Relu = max(x, 0),
    LeakyRelu = x < 0 ? alpha * x : x (alpha 0.01, computed in float64),
    Neg, Abs, Sign, Floor, Ceil, Round (half to even), Identity, IsNaN, IsInf
    (detect_negative / detect_positive), Shrink (lambd 0.5, bias 0)."""
    op = n.op
    if op == "Relu":
        return np.maximum(x, np.zeros((), x.dtype))
    if op == "LeakyRelu":
        return np.where(x < 0, n.attr("alpha", 0.01) * f64(x), x).astype(x.dtype)
    if op == "Neg":
        return np.negative(x)
    if op == "Abs":
        return np.abs(x)
    if op == "Sign":
        return np.sign(x).astype(x.dtype)
    if op == "Floor":
        return np.floor(x)
    if op == "Ceil":
        return np.ceil(x)
    if op == "Round":
        return np.rint(x)
    if op == "IsNaN":
        return np.isnan(x)
    if op == "IsInf":
        pos = n.attr("detect_positive", 1)
        neg = n.attr("detect_negative", 1)
        return (np.isposinf(x) & bool(pos)) | (np.isneginf(x) & bool(neg))
    if op == "Shrink":
        lambd, bias = n.attr("lambd", 0.5), n.attr("bias", 0.0)
        xf = f64(x)
        y = np.where(xf < -lambd, xf + bias, np.where(xf > lambd, xf - bias, 0.0))
        return as_type(y, x.dtype)
    raise NotEvaluated("no reference for %s" % op)


def op_identity(n, x, *rest):
    """Identity; Dropout at inference (output = input, mask all true).
    Dropout with training_mode true and a ratio > 0 is random: not evaluated."""
    if n.op == "Dropout":
        training = rest[1] if len(rest) > 1 else None
        ratio = rest[0] if rest else None
        if n.opset < 12:
            ratio = n.attr("ratio", 0.5)
            training = not n.attr("is_test", 1) if n.opset < 7 else False
        else:
            ratio = 0.5 if ratio is None else scalar(ratio)
            training = False if training is None else bool(scalar(training))
        if training and ratio != 0:
            raise NotEvaluated("Dropout in training mode is random")
        # The mask is of the input's type T up to Dropout-9, bool (T1) from 10.
        mask = np.ones(x.shape, dtype=bool if n.opset >= 10 else x.dtype)
        return x.copy(), mask
    return x.copy()


def op_prelu(n, x, slope):
    """PRelu: y = x < 0 ? slope * x : x, slope broadcast unidirectionally to x."""
    if n.opset < 7 and slope.ndim == 1 and x.ndim > 2 and slope.shape[0] == x.shape[1] \
            and slope.shape[0] != x.shape[-1]:
        slope = slope.reshape((-1,) + (1,) * (x.ndim - 2))
    return np.where(x < 0, f64(slope) * f64(x), x).astype(x.dtype)


def op_clip(n, x, lo=None, hi=None):
    """Clip: y = min(max(x, min), max). Before opset 11 min/max are attributes
    (defaults: the type's range); from 11 optional inputs. min > max gives max."""
    if n.opset < 11:
        lo, hi = n.attr("min"), n.attr("max")
    else:
        lo = None if lo is None else scalar(lo)
        hi = None if hi is None else scalar(hi)
    y = x
    if lo is not None:
        y = np.maximum(y, np.asarray(lo).astype(x.dtype))
    if hi is not None:
        y = np.minimum(y, np.asarray(hi).astype(x.dtype))
    return np.asarray(y).astype(x.dtype)


def _cast(x, dtype):
    """ONNX Cast: to bool is x != 0; float to integer truncates toward zero
    (numpy's astype; out-of-range values are undefined in ONNX too)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return x != 0
    if x.dtype.kind == "f" and dtype.kind in "iu":
        with np.errstate(all="ignore"):
            return np.trunc(x).astype(dtype)
    return x.astype(dtype)


def op_cast(n, x, like=None):
    """Cast (attribute `to`) and CastLike (the type of the second input)."""
    if x.dtype.kind in "OSU":
        raise NotEvaluated("Cast from string")
    if n.op == "CastLike":
        return _cast(x, like.dtype)
    to = n.attr("to")
    if isinstance(to, str):  # opset 1 spelled the type by name
        to = TensorProto.DataType.Value(to.upper())
    return _cast(x, np_dtype(to))


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
# Softmax family and reductions
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
        if mode == "linear":
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
    antialias = 1 is not evaluated. Upsample and Resize-10 use asymmetric
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
        if n.attr("antialias", 0):
            raise NotEvaluated("Resize with antialias")
        p = {"ctm": n.attr("coordinate_transformation_mode", "half_pixel"),
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


# ----------------------------------------------------------------------------
# The op table
# ----------------------------------------------------------------------------

OPS = {}


def _register(fn, *names, domain=""):
    for name in names:
        OPS[(domain, name)] = fn


_register(op_arith, "Add", "Sub", "Mul", "Div")
_register(op_pow, "Pow")
_register(op_mod, "Mod")
_register(op_bitshift, "BitShift")
_register(op_variadic, "Max", "Min", "Sum", "Mean")
_register(op_compare, "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual")
_register(op_logical, "And", "Or", "Xor", "Not")
_register(op_where, "Where")
_register(op_unary_float, *UNARY_FLOAT)
_register(op_unary_exact, "Relu", "LeakyRelu", "Neg", "Abs", "Sign", "Floor", "Ceil", "Round",
          "IsNaN", "IsInf", "Shrink")
_register(op_identity, "Identity", "Dropout")
_register(op_prelu, "PRelu")
_register(op_clip, "Clip")
_register(op_cast, "Cast", "CastLike")
_register(op_quantize_linear, "QuantizeLinear")
_register(op_dequantize_linear, "DequantizeLinear")
_register(op_quantize_linear, "QuantizeLinear", domain="com.microsoft")
_register(op_dequantize_linear, "DequantizeLinear", domain="com.microsoft")
_register(op_dynamic_quantize_linear, "DynamicQuantizeLinear")
_register(op_qlinear_matmul, "QLinearMatMul")
_register(op_matmul_integer, "MatMulInteger")
_register(op_qlinear_conv, "QLinearConv")
_register(op_conv_integer, "ConvInteger")
_register(op_qlinear_binary, "QLinearAdd", "QLinearMul", domain="com.microsoft")
_register(op_qlinear_unary, "QLinearSigmoid", "QLinearLeakyRelu", domain="com.microsoft")
_register(op_qlinear_concat, "QLinearConcat", domain="com.microsoft")
_register(op_qlinear_pool, "QLinearAveragePool", "QLinearGlobalAveragePool", domain="com.microsoft")
_register(op_conv, "Conv")
_register(op_conv_transpose, "ConvTranspose")
_register(op_matmul, "MatMul")
_register(op_gemm, "Gemm")
_register(op_einsum, "Einsum")
_register(op_det, "Det")
_register(op_softmax, "Softmax", "LogSoftmax", "Hardmax")
_register(op_reduce, "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
          "ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp")
_register(op_argminmax, "ArgMax", "ArgMin")
_register(op_cumsum, "CumSum")
_register(op_topk, "TopK")
_register(op_max_pool, "MaxPool")
_register(op_average_pool, "AveragePool")
_register(op_lp_pool, "LpPool")
_register(op_global_pool, "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool")
_register(op_batchnorm, "BatchNormalization")
_register(op_instancenorm, "InstanceNormalization")
_register(op_layernorm, "LayerNormalization")
_register(op_lrn, "LRN")
_register(op_mvn, "MeanVarianceNormalization")
_register(op_reshape, "Reshape")
_register(op_flatten, "Flatten")
_register(op_transpose, "Transpose")
_register(op_squeeze, "Squeeze")
_register(op_unsqueeze, "Unsqueeze")
_register(op_concat, "Concat")
_register(op_split, "Split")
_register(op_slice, "Slice")
_register(op_gather, "Gather")
_register(op_gather_elements, "GatherElements")
_register(op_gather_nd, "GatherND")
_register(op_scatter_elements, "ScatterElements", "Scatter")
_register(op_scatter_nd, "ScatterND")
_register(op_expand, "Expand")
_register(op_tile, "Tile")
_register(op_pad, "Pad")
_register(op_resize, "Resize", "Upsample")
_register(op_depth_to_space, "DepthToSpace")
_register(op_space_to_depth, "SpaceToDepth")
_register(op_shape, "Shape")
_register(op_size, "Size")
_register(op_constant, "Constant")
_register(op_constant_of_shape, "ConstantOfShape")
_register(op_range, "Range")
_register(op_eye_like, "EyeLike")
_register(op_trilu, "Trilu")
_register(op_onehot, "OneHot")
_register(op_nonzero, "NonZero")
_register(op_compress, "Compress")
_register(op_reverse_sequence, "ReverseSequence")
_register(op_if, "If")

# Outputs of these ops are quantized values: integer steps of tolerance.
QUANTIZING_OPS = {("", "QuantizeLinear"), ("", "QLinearConv"), ("", "QLinearMatMul"),
                  ("", "DynamicQuantizeLinear"), ("com.microsoft", "QuantizeLinear")} | {
    k for k in OPS if k[0] == "com.microsoft" and k[1].startswith("QLinear")}


def supported_ops():
    """The (domain, op type) pairs the checker has a reference for."""
    return sorted(OPS)


# ----------------------------------------------------------------------------
# The dump
# ----------------------------------------------------------------------------

class Dumped:
    """One value of the dump: its index.json entry and its .npy file (mapped,
    so a large dump costs memory only for the values used)."""

    def __init__(self, meta, path):
        self.meta = meta
        self.path = path
        try:
            self.array = np.asarray(np.load(path, mmap_mode="r", allow_pickle=False))
        except (OSError, ValueError) as e:
            raise UsageError("cannot read %s: %s" % (path, e))

    @property
    def quant(self):
        q = self.meta.get("quant")
        return q if q else None


def load_dump(dumpdir):
    """index.json of a dump directory -> (the document, {name: Dumped}, {name: entry}).

    The last dict holds the values the dump lacks: npu-sim writes
    `"file": null` and a `missing` reason for a value the program did not reach
    (after a fault) or did not write completely. They are not dumped values:
    the checker uses its own value for them and reports them."""
    index = os.path.join(dumpdir, "index.json")
    if not os.path.isdir(dumpdir):
        raise UsageError("%s is not a directory" % dumpdir)
    try:
        with open(index) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise UsageError("cannot read %s: %s" % (index, e))
    if not isinstance(doc, dict) or not isinstance(doc.get("values"), list):
        raise UsageError("%s has no \"values\" list" % index)
    values, missing = {}, {}
    for k, meta in enumerate(doc["values"]):
        if not isinstance(meta, dict) or not isinstance(meta.get("name"), str):
            raise UsageError("%s: value %d lacks a name" % (index, k))
        q = meta.get("quant")
        if q is not None and (not isinstance(q, dict) or not q.get("scales")):
            raise UsageError("%s: value %s: quant needs scales" % (index, meta["name"]))
        why = meta.get("missing")
        if why is not None and not isinstance(why, str):
            raise UsageError("%s: value %s: missing is not a text" % (index, meta["name"]))
        if meta.get("file") is None and ("file" in meta or why is not None):
            meta = dict(meta, missing=why or "no file in the dump")
            missing[meta["name"]] = meta
            continue
        if not isinstance(meta.get("file"), str):
            raise UsageError("%s: value %s lacks a file (a file name, or null with a missing "
                             "reason)" % (index, meta["name"]))
        path = os.path.join(dumpdir, meta["file"])
        if not os.path.isfile(path):
            raise UsageError("%s: value %s: %s does not exist" % (index, meta["name"], path))
        values[meta["name"]] = Dumped(meta, path)
    for name in values:  # named twice: the entry with a file counts
        missing.pop(name, None)
    return doc, values, missing


def _quant_arrays(quant, ndim):
    """scale and zero point of a dump's quant entry, shaped for a rank-ndim tensor
    (axis < 0: per tensor)."""
    s = np.asarray(quant["scales"], dtype=np.float64)
    z = np.asarray(quant.get("zero_points") or [0] * len(s), dtype=np.float64)
    axis = quant.get("axis", -1)
    if axis is None or axis < 0 or len(s) == 1:
        return s.reshape(-1)[0], z.reshape(-1)[0]
    shape = [1] * ndim
    shape[axis] = len(s)
    return s.reshape(shape), z.reshape(shape)


def dequantize_dump(a, quant):
    """A quantized dump in the real domain (float64): (q - zero_point) * scale."""
    s, z = _quant_arrays(quant, a.ndim)
    return (a.astype(np.float64) - z) * s


def to_onnx_type(a, quant, dtype):
    """A dumped array as the ONNX value it stands for: a quantized dump of a
    float value is dequantized, other type differences are plain casts."""
    if dtype is None or a.dtype == dtype:
        return a
    if dtype.kind == "f" and a.dtype.kind in "iu" and quant:
        return dequantize_dump(a, quant).astype(dtype)
    if dtype == np.bool_:
        return a != 0
    if dtype.kind in "iu" and a.dtype.kind == "f":
        return np.rint(a).astype(dtype)
    return a.astype(dtype)


# ----------------------------------------------------------------------------
# Comparison
# ----------------------------------------------------------------------------

class Tolerance:
    def __init__(self, max_step=1, rtol=1e-4, atol=1e-5):
        self.max_step, self.rtol, self.atol = max_step, rtol, atol


def compare(got, ref, quant, quantizing, tol):
    """Compare a dumped value with the reference. Returns the output record
    (without the name): kind, the largest error, beyond / count / differing, ok."""
    rec = {"compared": True, "count": int(ref.size)}
    notes = []
    if got.dtype != ref.dtype:
        notes.append("dump %s, ONNX %s" % (got.dtype, ref.dtype))
    int_dump = got.dtype.kind in "iub"
    if ref.dtype.kind in "iub":
        kind = "quantized" if ref.dtype.kind in "iu" and (quant or quantizing) else "integer"
    elif ref.dtype.kind == "f":
        kind = "quantized" if int_dump and quant else "float"
    else:
        rec.update(kind="other", compared=False, ok=True, beyond=0, differing=0)
        rec["reason"] = "values of type %s are not compared" % ref.dtype
        return rec
    rec["kind"] = kind
    if got.shape != ref.shape:
        rec.update(ok=False, beyond=int(ref.size), differing=int(ref.size),
                   reason="shape %s, ONNX %s" % (list(got.shape), list(ref.shape)))
        return rec
    if kind == "quantized" and ref.dtype.kind == "f":
        # The compiler holds quantized what ONNX holds as float.
        s, z = _quant_arrays(quant, got.ndim)
        info = np.iinfo(got.dtype) if got.dtype.kind in "iu" else np.iinfo(np.uint8)
        lo, hi = (info.min - z) * s, (info.max - z) * s
        refr = np.clip(ref.astype(np.float64), lo, hi)
        err = np.abs(dequantize_dump(got, quant) - refr) / s
        err = np.nan_to_num(err, nan=np.inf)
        notes.append("real domain: the dump dequantized, the reference saturated to its "
                     "range, error in steps of the dump's scale")
        # The dump is a rounding of the value: up to half a step is no difference.
        rec["max_step"] = float(err.max()) if err.size else 0.0
        rec["beyond"] = int(np.count_nonzero(err > tol.max_step + 1e-6))
        rec["differing"] = int(np.count_nonzero(err > 0.5 + 1e-6))
        rec["real_domain"] = True
    elif kind == "quantized":
        if int_dump:
            err = np.abs(got.astype(np.int64) - ref.astype(np.int64))
        else:
            err = np.abs(got.astype(np.float64) - ref.astype(np.float64))
            err = np.nan_to_num(err, nan=np.inf)
        rec["max_step"] = (int(err.max()) if int_dump else float(err.max())) if err.size else 0
        rec["beyond"] = int(np.count_nonzero(err > tol.max_step))
        rec["differing"] = int(np.count_nonzero(err))
        rec["one_step"] = int(np.count_nonzero(err == 1))
    elif kind == "integer":
        if got.dtype.kind == "f":
            diff = got.astype(np.float64) != ref.astype(np.float64)
            err = np.abs(np.nan_to_num(got.astype(np.float64) - ref.astype(np.float64), nan=np.inf))
        else:
            diff = got.astype(np.int64) != ref.astype(np.int64)
            err = np.abs(got.astype(np.int64) - ref.astype(np.int64))
        rec["max_abs"] = (float(err.max()) if got.dtype.kind == "f" else int(err.max())) if err.size else 0
        rec["beyond"] = rec["differing"] = int(np.count_nonzero(diff))
    else:
        g, r = got.astype(np.float64), ref.astype(np.float64)
        if int_dump:
            notes.append("integer dump without quant info compared as a float")
        both_nan = np.isnan(g) & np.isnan(r)
        finite = np.isfinite(g) & np.isfinite(r)
        with np.errstate(all="ignore"):
            err = np.where(finite, np.abs(g - r), 0.0)
            rfin = np.abs(r[np.isfinite(r)])
            top = float(rfin.max()) if rfin.size else 0.0
            bound = tol.atol + tol.rtol * np.abs(r) + TENSOR_RTOL * top
            inside = both_nan | (finite & (err <= bound)) | (~finite & ~np.isnan(g) & (g == r))
            rel = np.where(finite & (r != 0), err / np.abs(r), 0.0)
        rec["max_abs"] = float(err.max()) if err.size else 0.0
        rec["max_rel"] = float(rel.max()) if rel.size else 0.0
        rec["beyond"] = int(np.count_nonzero(~inside))
        rec["differing"] = int(np.count_nonzero(~both_nan & (g != r)))
        bad_special = int(np.count_nonzero(~inside & ~finite))
        if bad_special:
            notes.append("%d NaN/infinity mismatches" % bad_special)
    rec["ok"] = rec["beyond"] == 0
    if notes:
        rec["note"] = "; ".join(notes)
    return rec


# ----------------------------------------------------------------------------
# The graph walk
# ----------------------------------------------------------------------------

def _subgraph_inputs(node):
    """Names a node reads, including those its subgraphs read from outer scopes."""
    names = list(node.input)
    for a in node.attribute:
        graphs = [a.g] if a.type == AttributeProto.GRAPH else list(a.graphs)
        for g in graphs:
            for inner in g.node:
                names.extend(_subgraph_inputs(inner))
    return names


def topo_order(graph):
    """The graph's nodes in a topological order, keeping the file's order where it
    already is one (ONNX requires it to be)."""
    produced = {o for nd in graph.node for o in nd.output if o}
    done, order, pending = set(), [], list(graph.node)
    while pending:
        rest = []
        for nd in pending:
            if all(i not in produced or i in done for i in _subgraph_inputs(nd)):
                order.append(nd)
                done.update(nd.output)
            else:
                rest.append(nd)
        if len(rest) == len(pending):  # a cycle: keep the file's order
            order.extend(rest)
            break
        pending = rest
    return order


def _kind_of(ref, quantizing):
    """The comparison kind a value of this type would get (for the report)."""
    if ref is None:
        return None
    if ref.dtype.kind in "iu" and quantizing:
        return "quantized"
    return "float" if ref.dtype.kind == "f" else "integer"


def op_label(proto):
    d = proto.domain
    return proto.op_type if d in ("", "ai.onnx") else "%s.%s" % (d, proto.op_type)


class Checker:
    """Evaluates a model node by node on the dumped values and compares."""

    def __init__(self, model, dump, tol, missing=None):
        self.model = model
        self.graph = model.graph
        self.dump = dump
        self.missing = missing or {}  # {name: index entry} of values the dump lacks
        self.tol = tol
        self.opsets = {(o.domain if o.domain != "ai.onnx" else ""): o.version for o in model.opset_import}
        self.opsets.setdefault("", 22)
        self.consts, self.const_errors = {}, {}
        for t in self.graph.initializer:
            try:
                self.consts[t.name] = tensor_to_array(t)
            except NotEvaluated as e:
                self.const_errors[t.name] = str(e)
        self.computed = {}
        self.quantizing = {}  # value -> produced by a quantizing op
        self.unusable = set()  # dumped values that cannot be fed downstream
        self.types = self._value_types()
        self._converted = {}

    def _value_types(self):
        """ONNX element types of the graph's values (declared or inferred)."""
        try:
            inferred = onnx.shape_inference.infer_shapes(self.model).graph
        except Exception:  # inference is a help only
            inferred = self.graph
        types = {}
        for vi in list(inferred.value_info) + list(self.graph.input) + list(self.graph.output):
            t = vi.type.tensor_type.elem_type if vi.type.HasField("tensor_type") else 0
            if t in ONNX_TO_NP:
                types[vi.name] = np.dtype(ONNX_TO_NP[t])
        return types

    def dumped_value(self, name):
        """A dumped value in its ONNX type (the reference's, else the declared one)."""
        if name in self._converted:
            return self._converted[name]
        d = self.dump[name]
        ref = self.computed.get(name)
        dtype = ref.dtype if ref is not None else self.types.get(name)
        v = to_onnx_type(d.array, d.quant, dtype)
        self._converted[name] = v
        return v

    def lookup(self, name):
        """An input value: the dump, else the constants, else our own value.
        (A dumped initializer of another shape, a compiler's own layout, is not used.)"""
        if name in self.dump and name not in self.unusable:
            if name not in self.consts or self.dump[name].array.shape == self.consts[name].shape:
                return self.dumped_value(name)
        if name in self.consts:
            return self.consts[name]
        return self.computed.get(name)

    def _why_unknown(self, name):
        if name in self.const_errors:
            return "input %s unknown (%s)" % (name, self.const_errors[name])
        if name in self.missing:
            return "input %s unknown (not dumped: %s)" % (name, self.missing[name]["missing"])
        return "input %s unknown" % name

    def _not_dumped(self, name):
        """The reason an output has no dumped value."""
        if name in self.missing:
            return "not dumped: %s" % self.missing[name]["missing"]
        return "not dumped"

    def missing_kind(self, name):
        """The comparison kind a value the dump lacks would have had."""
        meta = self.missing[name]
        if meta.get("quant"):
            return "quantized"
        ref = self.computed.get(name)
        if ref is not None:
            return _kind_of(ref, self.quantizing.get(name, False))
        dtype = self.types.get(name)
        if dtype is None:
            if not isinstance(meta.get("dtype"), str):
                return None
            try:
                dtype = np.dtype(meta["dtype"])
            except TypeError:  # e.g. bfloat16
                return None
        return "float" if dtype.kind == "f" else "integer"

    def _call(self, n, proto, lookup):
        """Evaluate one node: a list of outputs, or raise NotEvaluated."""
        fn = OPS.get((n.domain, n.op))
        if fn is None:
            raise NotEvaluated("no reference for %s" % op_label(proto))
        args = []
        for name in proto.input:
            if name == "":
                args.append(None)
                continue
            v = lookup(name)
            if v is None:
                raise NotEvaluated(self._why_unknown(name))
            args.append(v)
        with np.errstate(all="ignore"):
            try:
                res = fn(n, *args)
            except NotEvaluated:
                raise
            except Exception as e:
                raise NotEvaluated("reference failed: %s: %s" % (type(e).__name__, e))
        if isinstance(res, np.ndarray) or not isinstance(res, (list, tuple)):
            res = [res]
        return [None if r is None else np.asarray(r) for r in res]

    def run_subgraph(self, graph, outer):
        """Evaluate a subgraph (an If branch) with the outer scope visible."""
        local = {}
        for t in graph.initializer:
            local[t.name] = tensor_to_array(t)

        def lookup(name):
            if name in self.dump and name not in self.unusable:
                return self.dumped_value(name)
            if name in local:
                return local[name]
            return outer(name)
        for proto in topo_order(graph):
            n = Node(proto, self.opsets.get(proto.domain or "", 1), self, lookup)
            try:
                res = self._call(n, proto, lookup)
            except NotEvaluated as e:
                raise NotEvaluated("branch node %s: %s" % (n.name, e))
            for name, r in zip(proto.output, res):
                if name:
                    local[name] = r
        outs = []
        for o in graph.output:
            v = lookup(o.name)
            if v is None:
                raise NotEvaluated("branch output %s unknown" % o.name)
            outs.append(v)
        return outs

    def run(self):
        records = []
        for proto in topo_order(self.graph):
            records.append(self._node(proto))
        return records

    def _node(self, proto):
        n = Node(proto, self.opsets.get(proto.domain if proto.domain != "ai.onnx" else "", 1),
                 self, self.lookup)
        rec = {"node": n.name, "op": op_label(proto), "outputs": []}
        quantizing = (n.domain, n.op) in QUANTIZING_OPS
        # Inputs the dump lacks: the node runs on the checker's own value for them.
        lacking = {i: self.missing[i]["missing"] for i in _subgraph_inputs(proto)
                   if i in self.missing and i not in self.consts}
        if lacking:
            rec["inputs_not_dumped"] = lacking
        try:
            res = self._call(n, proto, self.lookup)
        except NotEvaluated as e:
            rec["status"] = "not evaluated: %s" % e
            rec["reason"] = str(e)
            for name in proto.output:
                if name:
                    self.computed[name] = None
                    self.quantizing[name] = quantizing
                    rec["outputs"].append({"name": name, "compared": False,
                                           "reason": "node not evaluated" if name in self.dump
                                           else self._not_dumped(name)})
            return rec
        for k, name in enumerate(proto.output):
            if not name:
                continue
            ref = res[k] if k < len(res) else None
            self.computed[name] = ref
            self.quantizing[name] = quantizing
            if name not in self.dump:
                rec["outputs"].append({"name": name, "kind": _kind_of(ref, quantizing),
                                       "compared": False, "reason": self._not_dumped(name)})
                continue
            if ref is None:
                rec["outputs"].append({"name": name, "compared": False,
                                       "reason": "the reference does not produce this output"})
                continue
            d = self.dump[name]
            out = {"name": name}
            out.update(compare(d.array, ref, d.quant, quantizing, self.tol))
            if out["compared"] and d.array.shape != ref.shape:
                self.unusable.add(name)
            self._converted.pop(name, None)  # convert again, now to the reference's type
            rec["outputs"].append(out)
        compared = [o for o in rec["outputs"] if o.get("compared")]
        if any(not o["ok"] for o in compared):
            rec["status"] = "BEYOND"
        elif compared:
            rec["status"] = "ok"
        else:
            why = sorted({self.missing[o["name"]]["missing"] for o in rec["outputs"]
                          if o["name"] in self.missing})
            rec["status"] = "not compared (not dumped%s)" % (": " + "; ".join(why) if why else "")
        return rec


# ----------------------------------------------------------------------------
# Report
# ----------------------------------------------------------------------------

def summarize(records, dump, graph, checker):
    outs = [o for r in records for o in r["outputs"] if o.get("compared")]
    quant = [o for o in outs if o["kind"] == "quantized"]
    flt = [o for o in outs if o["kind"] == "float"]
    known = {o for nd in graph.node for o in nd.output} | {i.name for i in graph.input}
    not_eval = [r for r in records if r["status"].startswith("not evaluated")]
    missing_ops = {}
    for r in not_eval:
        if r["reason"].startswith("no reference for"):
            missing_ops[r["op"]] = missing_ops.get(r["op"], 0) + 1
    inputs = [i.name for i in graph.input if i.name not in checker.consts]
    # Values of the model the dump lists without a file (not reached, not
    # completely written): they could not be compared.
    lacking = [{"name": nm, "kind": checker.missing_kind(nm), "reason": meta["missing"]}
               for nm, meta in sorted(checker.missing.items()) if nm in known]
    s = {
        "nodes": len(records),
        "evaluated": len(records) - len(not_eval),
        "not_evaluated": len(not_eval),
        "no_reference_ops": missing_ops,
        "compared_values": len(outs),
        "within_tolerance": sum(1 for o in outs if o["ok"]),
        "beyond_tolerance": sum(1 for o in outs if not o["ok"]),
        "quantized_values": len(quant),
        "quantized_elements": sum(o["count"] for o in quant),
        "max_step": max([o.get("max_step", 0) for o in quant], default=0),
        "elements_one_step": sum(o.get("one_step", 0) for o in quant),
        "elements_more_than_one_step": sum(o["differing"] - o.get("one_step", 0) for o in quant),
        "float_values": len(flt),
        "float_max_abs": max([o["max_abs"] for o in flt if "max_abs" in o], default=0.0),
        "float_max_rel": max([o["max_rel"] for o in flt if "max_rel" in o], default=0.0),
        "dump_values_missing": lacking,
        "missing_values": len(lacking),
        "missing_quantized_values": sum(1 for v in lacking if v["kind"] == "quantized"),
        "dump_values_not_in_model": sorted(nm for nm in list(dump) + list(checker.missing)
                                           if nm not in known),
        "dump_values_not_compared": sorted(
            o["name"] for r in records for o in r["outputs"] if not o["compared"] and o["name"] in dump),
        "graph_inputs_not_dumped": [i for i in inputs if i not in dump],
    }
    return s


def _short(text, width):
    return text if len(text) <= width else text[:width // 2 - 1] + "..." + text[-(width - width // 2 - 2):]


def _err_text(o):
    if not o.get("compared"):
        return ""
    if "reason" in o and "max_abs" not in o and "max_step" not in o:
        return "-"
    if o["kind"] == "quantized":
        m = o["max_step"]
        return ("%d" % m if isinstance(m, int) else "%.2f" % m) + " steps"
    if o["kind"] == "float":
        return "%.2e (rel %.1e)" % (o["max_abs"], o["max_rel"])
    return "%s" % o["max_abs"]


def print_table(records, quiet, out=sys.stdout):
    rows = []
    for r in records:
        shown = [o for o in r["outputs"] if o.get("compared")]
        if quiet and r["status"] != "BEYOND":
            continue
        if not shown:
            rows.append([r["node"], r["op"], "", "", "", "", r["status"]])
            continue
        for k, o in enumerate(shown):
            status = r["status"] if k == 0 else ""
            if not o["ok"]:
                status = "BEYOND" + (": " + o["reason"] if "reason" in o else "")
            extra = " [%s]" % o["note"] if "note" in o else ""
            rows.append([r["node"] if k == 0 else "", r["op"] if k == 0 else "", o["name"], o["kind"],
                         _err_text(o), "%d/%d" % (o["beyond"], o["count"]), status + extra])
    head = ["node", "op", "output", "kind", "max error", "beyond/total", "status"]
    width = [40, 18, 40, 9, 22, 14, 0]
    rows = [[_short(c, w) if w else c for c, w in zip(row, width)] for row in rows]
    cols = [max([len(head[i])] + [len(rw[i]) for rw in rows]) for i in range(len(head))]
    fmt = "  ".join("%%-%ds" % c for c in cols[:-1]) + "  %s"
    if rows:
        out.write((fmt % tuple(head)).rstrip() + "\n")
        for rw in rows:
            out.write((fmt % tuple(rw)).rstrip() + "\n")
        out.write("\n")


def print_summary(s, tol, out=sys.stdout):
    out.write("nodes: %d, evaluated %d, not evaluated %d\n"
              % (s["nodes"], s["evaluated"], s["not_evaluated"]))
    if s["no_reference_ops"]:
        out.write("no reference for: %s\n" % ", ".join(
            "%s (%d)" % kv for kv in sorted(s["no_reference_ops"].items())))
    out.write("compared values: %d, within tolerance %d, beyond %d\n"
              % (s["compared_values"], s["within_tolerance"], s["beyond_tolerance"]))
    if s["quantized_values"]:
        m = s["max_step"]
        out.write("quantized: %d values (%d elements), largest error %s steps (allowed %s), "
                  "%d elements differ by exactly 1 step, %d by more\n"
                  % (s["quantized_values"], s["quantized_elements"],
                     m if isinstance(m, int) else "%.2f" % m, tol.max_step,
                     s["elements_one_step"], s["elements_more_than_one_step"]))
    if s["float_values"]:
        out.write("float: %d values, largest error %.3g absolute, %.3g relative "
                  "(allowed atol %g + rtol %g * |ref| + %g * max|ref|)\n"
                  % (s["float_values"], s["float_max_abs"], s["float_max_rel"],
                     tol.atol, tol.rtol, TENSOR_RTOL))
    if s["dump_values_not_in_model"]:
        out.write("dump values not in the model: %d (%s)\n" % (
            len(s["dump_values_not_in_model"]), ", ".join(s["dump_values_not_in_model"][:5])))
    if s["dump_values_missing"]:
        shown = s["dump_values_missing"][:5]
        out.write("values the dump lacks (not compared): %d, %d quantized (%s%s)\n" % (
            s["missing_values"], s["missing_quantized_values"],
            "; ".join("%s: %s" % (v["name"], v["reason"]) for v in shown),
            "; ..." if len(s["dump_values_missing"]) > len(shown) else ""))
    if s["dump_values_not_compared"]:
        out.write("dumped values not compared (their node was not evaluated): %d\n"
                  % len(s["dump_values_not_compared"]))
    if s["graph_inputs_not_dumped"]:
        out.write("graph inputs not in the dump: %s\n" % ", ".join(s["graph_inputs_not_dumped"]))


def parse_args(argv):
    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise UsageError(message)
    p = Parser(prog=PROG, description="Per-layer reference check of a compiled model's tensor dump.")
    p.add_argument("model", help="the ONNX model")
    p.add_argument("dumpdir", help="the directory npu-sim --dump-tensors wrote")
    p.add_argument("--json", metavar="OUT", help="also write the report as JSON")
    p.add_argument("--max-step", type=int, default=1,
                   help="largest allowed error of quantized values, in steps (default 1)")
    p.add_argument("--rtol", type=float, default=1e-4, help="relative float tolerance (1e-4)")
    p.add_argument("--atol", type=float, default=1e-5, help="absolute float tolerance (1e-5)")
    p.add_argument("--strict", action="store_true",
                   help="nodes not evaluated and values the dump lacks fail the run")
    p.add_argument("--quiet", action="store_true", help="print only the summary and BEYOND rows")
    return p.parse_args(argv)


def main(argv=None):
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
        try:
            model = onnx.load(args.model)
        except Exception as e:
            raise UsageError("cannot read %s: %s" % (args.model, e))
        doc, dump, missing = load_dump(args.dumpdir)
        tol = Tolerance(args.max_step, args.rtol, args.atol)
        checker = Checker(model, dump, tol, missing)
        records = checker.run()
        summary = summarize(records, dump, model.graph, checker)
    except UsageError as e:
        sys.stderr.write("%s: error: %s\n" % (PROG, e))
        return 2
    print_table(records, args.quiet)
    print_summary(summary, tol)
    if args.json:
        report = {"model": args.model, "dump": args.dumpdir,
                  "tolerance": {"max_step": tol.max_step, "rtol": tol.rtol, "atol": tol.atol,
                                "tensor_rtol": TENSOR_RTOL},
                  "nodes": records, "summary": summary}
        try:
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)
                f.write("\n")
        except OSError as e:
            sys.stderr.write("%s: error: cannot write %s: %s\n" % (PROG, args.json, e))
            return 2
    incomplete = summary["not_evaluated"] > 0 or summary["missing_values"] > 0
    failed = summary["beyond_tolerance"] > 0 or (args.strict and incomplete)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
