"""Grid builders of the elementwise cases: binary and unary ops, maps through
f32, Clip, comparisons, logic, Where, Cast, Pow, QuantizeLinear,
DequantizeLinear and requantization."""
import numpy as np

from grid_net import PLAIN, Unbuildable, is_float, is_quant, onnx_type, per_axis, storage

BINARY = {"graph.add": "Add", "graph.sub": "Sub", "graph.mul": "Mul", "graph.div": "Div",
          "graph.max": "Max", "graph.min": "Min", "graph.prelu": "PRelu"}
UNARY = {"graph.relu": "Relu", "graph.sigmoid": "Sigmoid", "graph.tanh": "Tanh", "graph.exp": "Exp",
         "graph.log": "Log", "graph.neg": "Neg", "graph.abs": "Abs", "graph.sign": "Sign",
         "graph.sqrt": "Sqrt", "graph.reciprocal": "Reciprocal", "graph.erf": "Erf",
         "graph.floor": "Floor", "graph.ceil": "Ceil", "graph.round": "Round",
         "graph.identity": "Identity", "graph.hard_sigmoid": "HardSigmoid",
         "graph.hard_swish": "HardSwish", "graph.sin": "Sin", "graph.cos": "Cos", "graph.tan": "Tan",
         "graph.asin": "Asin", "graph.acos": "Acos", "graph.atan": "Atan", "graph.asinh": "Asinh",
         "graph.acosh": "Acosh", "graph.atanh": "Atanh"}
# Unary functions IEEE arithmetic gives exactly (the NPU must too).
EXACT_UNARY = {"graph.relu", "graph.neg", "graph.abs", "graph.sign", "graph.floor", "graph.ceil",
               "graph.round", "graph.identity"}
# qk.compare's fn: the ONNX comparison of each predicate.
COMPARE_FN = {"EQ": "Equal", "LT": "Less", "LE": "LessOrEqual", "GT": "Greater", "GE": "GreaterOrEqual"}
# qk.binary's logical functions (of bools) as ONNX ops.
LOGIC_FN = {"AND": "And", "OR": "Or", "XOR": "Xor"}

SHAPES = [(2, 3, 5, 7), (1, 8, 37, 65), (1, 4, 33, 129), (3, 1, 17, 24)]


def shape_of(net):
    return SHAPES[int(net.rng.integers(len(SHAPES)))]


def broadcast_shape(net, shape):
    """A shape that broadcasts to `shape` (contract L5): a middle axis, the
    innermost one alone, a lower rank, or a scalar."""
    forms = [(1, shape[1], 1, 1), (shape[-1],), (1, 1, shape[2], 1), (), (shape[1], 1, shape[3])]
    return forms[int(net.rng.integers(len(forms)))]


def float_tolerance(net, t, exact):
    """f16 values round at 2^-11; transcendental functions on VECTOR are
    close to, not equal to, numpy's."""
    if exact:
        net.exact = True
    elif t == "f16":
        net.atol, net.rtol = 2.0 ** -10, 2.0 ** -9


# qk.binary's functions as the graph ops (and ONNX ops) they come from.
BINARY_FN = {"ADD": "graph.add", "SUB": "graph.sub", "MUL": "graph.mul", "DIV": "graph.div",
             "MAX": "graph.max", "MIN": "graph.min", "SHL": "graph.shift_left",
             "SRA": "graph.shift_right"}


def build_binary(case, net):
    op = KERNEL_OPS.get(case["op"], case["op"])
    if op == "qk.binary" and case["props"]["fn"] in LOGIC_FN:
        return build_logic(case, net)
    if op == "qk.binary":
        op = BINARY_FN[case["props"]["fn"]]
    a_t, b_t = case["operands"]
    y_t = case["results"][0]
    shape = shape_of(net)
    if op in ("graph.shift_left", "graph.shift_right"):
        bits = np.iinfo(PLAIN[a_t]).bits
        x = net.graph_input(net.random(PLAIN[a_t], shape))
        bshape = broadcast_shape(net, shape) if case["props"]["broadcast"] else shape
        amount = net.graph_input(net.rng.integers(0, bits, bshape).astype(PLAIN[b_t]))
        y = net.node("BitShift", [x, amount], direction="LEFT" if op == "graph.shift_left" else "RIGHT")
        net.value_out(y_t, y)
        net.exact = True
        return
    bshape = shape
    if case["props"]["broadcast"]:
        bshape = (shape[1], 1, 1) if op == "graph.prelu" else broadcast_shape(net, shape)
    domain = "nonzero" if op == "graph.div" else "any"
    a = net.value_in(a_t, shape)
    b = net.value_in(b_t, bshape, domain)
    y = net.node(BINARY[op], [a, b])
    net.value_out(y_t, y)
    # IEEE single and integer arithmetic is exact, and so is a quantized
    # result of it (the same f32 steps as DequantizeLinear/QuantizeLinear).
    float_tolerance(net, a_t, exact=op != "graph.div" or not is_float(a_t))


# Kernels of one graph op each, as that op.
KERNEL_OPS = {"qk.prelu": "graph.prelu", "qk.hard_sigmoid": "graph.hard_sigmoid",
              "qk.hard_swish": "graph.hard_swish"}

# qk.map's functions as the graph ops (and ONNX ops) they come from.
UNARY_FN = {"RELU": "graph.relu", "SIGMOID": "graph.sigmoid", "TANH": "graph.tanh",
            "EXP": "graph.exp", "LOG": "graph.log", "NEG": "graph.neg", "ABS": "graph.abs",
            "SIGN": "graph.sign", "SQRT": "graph.sqrt", "RECIP": "graph.reciprocal",
            "ERF": "graph.erf", "FLOOR": "graph.floor", "CEIL": "graph.ceil",
            "ROUND": "graph.round", "COPY": "graph.identity", "SIN": "graph.sin", "COS": "graph.cos",
            "TAN": "graph.tan", "ASIN": "graph.asin", "ACOS": "graph.acos", "ATAN": "graph.atan",
            "ASINH": "graph.asinh", "ACOSH": "graph.acosh", "ATANH": "graph.atanh"}


def build_unary(case, net):
    op = KERNEL_OPS.get(case["op"], case["op"])
    if op == "qk.map":
        op = UNARY_FN[case["props"]["fn"]]
    x_t, y_t = case["operands"][0], case["results"][0]
    shape = shape_of(net)
    domain = {"graph.log": "positive", "graph.sqrt": "positive", "graph.reciprocal": "nonzero",
              "graph.asin": "unit", "graph.acos": "unit", "graph.atanh": "unit",
              "graph.acosh": "above1"}.get(op, "any")
    x = net.value_in(x_t, shape, domain)
    attrs = {}
    if op == "graph.hard_sigmoid":
        attrs = {"alpha": 0.25, "beta": 0.4}
        net.opset = max(net.opset, 6)
    if op == "graph.hard_swish":
        net.opset = max(net.opset, 14)
    if op == "graph.round" and is_float(x_t):
        # halves exactly, to check round-half-to-even
        shape_n = int(np.prod(shape))
        net.feeds[-1].reshape(-1)[: min(shape_n, 16)] = (np.arange(min(shape_n, 16)) - 8 + 0.5).astype(net.feeds[-1].dtype)
    y = net.node(UNARY[op], [x], **attrs)
    props = case["props"]
    net.value_out(y_t, y, like=x if props.get("integer") else None)
    # An approximated function: float tolerance, or one quantization step.
    float_tolerance(net, x_t, exact=op in EXACT_UNARY)


def build_gelu(case, net):
    x_t, y_t = case["operands"][0], case["results"][0]
    if is_quant(x_t):
        raise Unbuildable("graph-fuse-qdq does not quantize Gelu")
    net.opset = 20
    x = net.value_in(x_t, shape_of(net))
    y = net.node("Gelu", [x], approximate=case["props"]["form"].replace("erf", "none"))
    net.value_out(y_t, y)
    float_tolerance(net, x_t, exact=False)


def build_clip(case, net):
    x_t, y_t = case["operands"][0], case["results"][0]
    props = case["props"]
    x = net.value_in(x_t, shape_of(net))
    dtype = np.float32 if is_quant(x_t) or is_float(x_t) else PLAIN[x_t]
    if x_t == "f16":
        dtype = np.float16
    unsigned = np.issubdtype(dtype, np.unsignedinteger)
    lo = net.const(np.asarray((2 if unsigned else -1) if not np.issubdtype(dtype, np.floating) else -1.25, dtype)) \
        if props["min"] else ""
    hi = net.const(np.asarray(5 if not np.issubdtype(dtype, np.floating) else 1.5, dtype)) if props["max"] else ""
    ins = [x, lo, hi]
    while ins and ins[-1] == "":
        ins.pop()
    y = net.node("Clip", ins)
    net.value_out(y_t, y)
    net.exact = True


def build_leaky_relu(case, net):
    x_t, y_t = case["operands"][0], case["results"][0]
    x = net.value_in(x_t, shape_of(net))
    alpha = 0.125 if case["props"]["select"] == "max" else 4.0
    y = net.node("LeakyRelu", [x], alpha=alpha)
    net.value_out(y_t, y)
    net.exact = True


def build_compare(case, net):
    t = case["operands"][0]
    shape = shape_of(net)
    bshape = broadcast_shape(net, shape) if case["props"]["broadcast"] else shape
    a = net.value_in(t, shape, "small" if not is_float(t) else "any")
    b = net.value_in(t, bshape, "small" if not is_float(t) else "any")
    if is_float(t):
        # equal values too, so that <=, >= and == see ties
        fa = net.feeds[-2].reshape(-1)
        fb = net.feeds[-1].reshape(-1)
        fb[: fb.size // 2] = fa[: fb.size // 2]
    net.value_out("i1", net.node(COMPARE_FN[case["props"]["fn"]], [a, b]))
    net.exact = True


def build_logic(case, net):
    """And, Or, Xor, Not of bools; BitwiseAnd, BitwiseOr, BitwiseXor,
    BitwiseNot (opset 18) of integers."""
    op = case["op"]
    t = case["operands"][0]
    bitwise = t != "i1"
    shape = shape_of(net)
    a = net.value_in(t, shape)
    if op == "qk.not":
        y = net.node("BitwiseNot" if bitwise else "Not", [a])
    else:
        bshape = broadcast_shape(net, shape) if case["props"]["broadcast"] else shape
        fn = LOGIC_FN[case["props"]["fn"]]
        y = net.node("Bitwise" + fn if bitwise else fn, [a, net.value_in(t, bshape)])
    if bitwise:
        net.opset = max(net.opset, 18)
    net.value_out(t, y)
    net.exact = True


def build_where(case, net):
    t = case["operands"][1]
    shape = shape_of(net)
    cshape = broadcast_shape(net, shape) if case["props"]["broadcast"] else shape
    c = net.value_in("i1", cshape)
    x = net.value_in(t, shape)
    y = net.value_in(t, shape)
    net.value_out(t, net.node("Where", [c, x, y]))
    net.exact = True


def build_cast(case, net):
    a_t, b_t = case["operands"][0], case["results"][0]
    shape = shape_of(net)
    x = net.value_in(a_t, shape)
    feed = net.feeds[-1]
    if is_float(a_t) and not is_float(b_t) and b_t != "i1":
        # a float cast to an integer: in the target's range (ONNX leaves
        # values outside it undefined), halves included (truncation)
        info = np.iinfo(PLAIN[b_t])
        lo, hi = max(int(info.min), -1000), min(int(info.max), 1000)
        v = net.rng.uniform(lo, hi, shape)
        v.reshape(-1)[:8] = [lo + 0.5, hi - 0.5, 0.5, -0.5 if lo < 0 else 1.5, 2.5, 0.0, 1.0, hi]
        feed[...] = v.astype(feed.dtype)
    y = net.node("Cast", [x], to=onnx_type(PLAIN[b_t]))
    net.value_out(b_t, y)
    net.exact = True


def build_pow(case, net):
    props = case["props"]
    e_t = case["operands"][1]
    shape = shape_of(net)
    x = net.value_in("f32", shape, "positive")
    if props["exponent"] == "constant":
        k = {"identity": 1, "square": 2, "cube": 3, "sqrt": 0.5, "reciprocal": -1, "one": 0,
             "exp-log": 1.75}[props["form"]]
        if not is_float(e_t) and props["form"] == "exp-log":
            k = 4  # an integer of no closed form
        if not is_float(e_t) and (k != int(k) or (k < 0 and e_t.startswith("u"))):
            raise Unbuildable("a %s exponent cannot be %g" % (e_t, k))
        e = net.const(np.asarray(k, PLAIN[e_t]))
        exact = props["form"] in ("identity", "square", "one", "reciprocal", "sqrt")
    else:
        eshape = broadcast_shape(net, shape) if props["broadcast"] else shape
        e = net.value_in(e_t, eshape, "small")
        if is_float(e_t):
            net.feeds[-1][...] = net.rng.uniform(-2, 2, eshape).astype(np.float32)
        exact = False
    net.value_out("f32", net.node("Pow", [x, e]))
    if exact:
        net.exact = True
    else:
        net.rtol = 1e-4


def build_quantize(case, net):
    q_t = case["results"][0]
    # per axis: more than one channel (one would be per tensor)
    shape = (2, 5, 9, 11) if case["props"].get("params-per-row", True) else (3, 1, 40)
    if not per_axis(q_t):
        shape = shape_of(net)
    axis = 2 if len(shape) == 3 else 1
    x = net.value_in("f32", shape)
    st = storage(q_t)
    if per_axis(q_t):
        scale, zp = net.qparams(q_t, channels=shape[axis])
        # scales of powers of two, one per channel (equal ones would be one
        # scale): x / scale is exact, so ties are ties
        scale = (2.0 ** (np.round(np.log2(scale[0])) - np.arange(len(scale)) % 4)).astype(np.float32)
    else:
        scale, zp = net.qparams(q_t)
        scale = np.float32(2.0 ** np.round(np.log2(scale)))
    # values on ties (k + 1/2 steps) and beyond the range (saturation)
    v = net.feeds[-1].reshape(-1)
    s0 = float(np.asarray(scale).reshape(-1)[0])
    v[:16] = (np.arange(16) - 8 + 0.5) * s0
    v[16:18] = [1e6, -1e6]
    attrs = {"axis": axis} if per_axis(q_t) else {}
    if np.dtype(st).itemsize > 1:
        net.opset = 21
    y = net.node("QuantizeLinear", [x, net.const(scale, "s"), net.const(zp, "z")], **attrs)
    net.value_out(q_t.split("/")[0].replace("q", "", 1), y)
    net.exact = True


def build_dequantize(case, net):
    q_t = case["operands"][0]
    if np.dtype(storage(q_t)).itemsize > 1:
        net.opset = 21
    # per-axis parameters are per row when a dimension after the axis is > 1
    shape = (2, 5, 9, 11) if case["props"].get("params-per-row", True) else (3, 1, 40)
    if not per_axis(q_t):
        shape = shape_of(net)
    x = net.value_in(q_t, shape, axis=2 if len(shape) == 3 else 1)
    net.value_out("f32", x)
    net.exact = True


def build_requantize(case, net):
    a_t, b_t = case["operands"][0], case["results"][0]
    if np.dtype(storage(a_t)).itemsize > 1 or np.dtype(storage(b_t)).itemsize > 1:
        net.opset = 21
    x = net.value_in(a_t, shape_of(net))
    scale, zp = net.params[x]
    if case["props"]["form"] == "top-bit":
        zp2 = np.asarray(int(zp) + (128 if a_t == "qi8" else -128), storage(b_t))
        y = net.node("QuantizeLinear", [x, net.const(scale, "s"), net.const(zp2, "z")])
        net.outputs.append((y, None))
    else:
        net.value_out(b_t, x)
    net.exact = True


BUILDERS = {}
BUILDERS.update({"qk.binary": build_binary, "qk.prelu": build_binary})
BUILDERS.update({"qk.map": build_unary, "qk.hard_sigmoid": build_unary, "qk.hard_swish": build_unary})
BUILDERS.update({"qk.compare": build_compare})
BUILDERS.update({"qk.not": build_logic})
BUILDERS.update({"qk.gelu": build_gelu, "qk.clip": build_clip, "qk.leaky_relu": build_leaky_relu,
                 "qk.select": build_where, "qk.cast": build_cast, "qk.pow": build_pow,
                 "qk.quantize": build_quantize, "qk.dequantize": build_dequantize,
                 "qk.requantize": build_requantize})
