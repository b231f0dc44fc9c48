"""Elementwise ops: arithmetic with numpy broadcasting (and the opset < 7
`broadcast`/`axis` attributes), comparisons, logic, Where, the float-valued
unary functions (evaluated in float64, rounded once), the exact unary ops,
Identity / Dropout, PRelu, Clip, Cast and CastLike."""

import math

import numpy as np
from onnx import TensorProto

from .core import NotEvaluated, np_dtype, is_int, is_float, f64, scalar, as_type, norm_axis


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


def op_bitwise(n, a, b=None):
    """BitwiseAnd, BitwiseOr, BitwiseXor (broadcasting) and BitwiseNot of
    integers (opset 18)."""
    if n.op == "BitwiseNot":
        return np.bitwise_not(a)
    return {"BitwiseAnd": np.bitwise_and, "BitwiseOr": np.bitwise_or,
            "BitwiseXor": np.bitwise_xor}[n.op](a, b).astype(a.dtype)


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


def op_bitcast(n, x):
    """BitCast (opset 26): the same bytes (little endian) as type `to`."""
    return x.view(np_dtype(n.attr("to")))


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
