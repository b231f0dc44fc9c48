"""Grid builders of the cases that combine elements: reductions, global and
windowed pooling, Softmax, ArgMax/ArgMin and the normalizations."""
import numpy as np

from grid_net import Unbuildable, is_quant

# qk.reduce's (fn, pre, post) as the ONNX reduction that computes it; the
# global poolings are the SUM with mean and the MAX over the spatial axes,
# the same cases as ReduceMean's and ReduceMax's.
REDUCE = {("SUM", "none", "none"): "ReduceSum", ("SUM", "none", "mean"): "ReduceMean",
          ("MAX", None, None): "ReduceMax", ("MIN", None, None): "ReduceMin",
          ("SUM", "abs", "none"): "ReduceL1", ("SUM", "square", "sqrt"): "ReduceL2",
          ("SUM", "square", "none"): "ReduceSumSquare", ("SUM", "none", "log"): "ReduceLogSum",
          ("SUM", "shifted-exp", "log-plus-max"): "ReduceLogSumExp"}
# A row longer than one tile holds on either target (LM: 1 MiB on npu-v1):
# f32 rows of this many elements take two passes.
LONG_ROW = 300_000


def domain_of(op):
    """All-negative inputs for maxima (a maximum that starts at 0 is wrong on
    them), all-positive for minima and logarithms."""
    if op in ("ReduceMax", "qk.arg_reduce/MAX", "qk.pool/max"):
        return "negative"
    if op in ("ReduceMin", "ReduceLogSum", "qk.arg_reduce/MIN"):
        return "positive"
    return "any"


def sum_tolerance(net, op, axes):
    """f32 sums round in another order than numpy's: allow 2^-20 of the sum
    of the summed terms' magnitudes, carried through what the op computes
    from the sum (a mean divides it by the count, a logarithm makes it
    relative, a square root halves it relative to its value)."""
    x = net.feeds[-1].astype(np.float64)
    count = int(np.prod([x.shape[a] for a in axes]))
    if op in ("ReduceSumSquare", "ReduceL2"):
        terms = x * x
    elif op == "ReduceLogSumExp":
        terms = np.exp(x - x.max(axis=axes, keepdims=True))
    else:
        terms = np.abs(x)
    s = terms.sum(axis=axes)
    bound = 2.0 ** -20 * s
    if op == "ReduceMean":
        bound = bound / count
    elif op == "ReduceL2":
        bound = bound / (2 * np.sqrt(np.maximum(s, 1e-30)))
    elif op in ("ReduceLogSum", "ReduceLogSumExp"):
        bound = bound / np.maximum(s, 1e-30)
    net.atol = 1e-5 + float(bound.max())


def build_reduce(case, net):
    x_t, y_t = case["operands"][0], case["results"][0]
    props = case["props"]
    op = REDUCE[(props["fn"], props.get("pre"), props.get("post"))]
    if props["layout"] == "rows":
        shape = (1, 2, LONG_ROW) if props.get("two-pass") else (3, 5, 37)
        axes = [2]
    else:
        shape = (2, 19, 33)
        axes = [1]
    x = net.value_in(x_t, shape, domain_of(op))
    net.opset = 18
    y = net.node(op, [x, net.const(np.asarray(axes, np.int64), "axes")], keepdims=1)
    net.value_out(y_t, y)
    if op in ("ReduceMax", "ReduceMin"):
        net.exact = True
    elif not is_quant(x_t):
        sum_tolerance(net, op, tuple(axes))
        # f16 results round to 11 bits
        net.rtol = 2.0 ** -10 if y_t == "f16" else 1e-4


def build_softmax(case, net):
    x_t, y_t = case["operands"][0], case["results"][0]
    rows = case["props"]["layout"] == "rows"
    shape, axis = ((4, 7, 33), -1) if rows else ((2, 9, 17), 1)
    x = net.value_in(x_t, shape)
    op = "LogSoftmax" if case["props"]["log"] else "Softmax"
    net.value_out(y_t, net.node(op, [x], axis=axis))


def build_arg(case, net):
    x_t = case["operands"][0]
    rows = case["props"]["layout"] == "rows"
    shape, axis = ((3, 6, 29), 2) if rows else ((2, 17, 9), 1)
    x = net.value_in(x_t, shape, "small")
    # repeated extremes: first and last index differ
    feed = net.feeds[-1]
    feed.reshape(-1)[::3] = feed.reshape(-1)[0]
    op = "ArgMax" if case["props"]["fn"] == "MAX" else "ArgMin"
    y = net.node(op, [x], axis=axis, keepdims=1, select_last_index=int(case["props"]["last"]))
    net.value_out("i64", y)
    net.exact = True


def pool_geometry(props):
    """Kernel, strides, dilations, pads, ceil_mode and the input's spatial
    size giving the flags asked for (padded, strided, dilated, ceil-extra)."""
    k = 3
    d = 2 if props["dilated"] else 1
    # A stride that is a multiple of the dilation makes MaxPool an undilated
    # pooling of the subsampled input (the importer): 3 keeps it dilated.
    s = (3 if props["dilated"] else 2) if props["strided"] else 1
    p = 1 if props["padded"] else 0
    eff = d * (k - 1) + 1
    for size in range(eff + 1, eff + 40):
        span = size + 2 * p - eff
        floor_out = span // s + 1
        ceil_out = -(-span // s) + 1
        # ONNX drops a last window that would start in the end padding
        if ceil_out > floor_out and (ceil_out - 1) * s >= size + p:
            ceil_out = floor_out
        extra = ceil_out > floor_out
        if extra == props["ceil-extra"]:
            return k, s, d, p, 1 if props["ceil-extra"] else 0, size
    raise Unbuildable("no pooling geometry has ceil-extra=%s" % props["ceil-extra"])


def build_pool(case, net):
    fn = case["props"]["fn"]
    x_t, y_t = case["operands"][0], case["results"][0]
    props = case["props"]
    k, s, d, p, ceil, size = pool_geometry(props)
    one_d = props["rank"] == "1d"
    shape = (2, 3, size) if one_d else (2, 3, size, size + 5)
    spatial = 1 if one_d else 2
    x = net.value_in(x_t, shape, domain_of("qk.pool/" + fn))
    attrs = {"kernel_shape": [k] * spatial, "strides": [s] * spatial, "pads": [p] * (2 * spatial),
             "ceil_mode": ceil}
    if props["dilated"]:
        attrs["dilations"] = [d] * spatial
    net.opset = 19
    if fn == "average":
        attrs["count_include_pad"] = int(props["count-include-pad"])
        y = net.node("AveragePool", [x], **attrs)
    else:
        y = net.node("MaxPool", [x], **attrs)
    net.value_out(y_t, y)
    if fn == "max":
        net.exact = True


def build_channel_params(case, net):
    per_row = case["props"]["params-per-row"]
    shape = (2, 6, 7, 9) if per_row else (3, 6)
    c = shape[1]
    pshape = (c, 1, 1) if per_row else (c,)
    x = net.value_in("f32", shape)
    if case["op"] == "qk.batch_norm":
        scale = net.const(net.random(np.float32, (c,)))
        bias = net.const(net.random(np.float32, (c,)))
        mean = net.const(net.random(np.float32, (c,)))
        var = net.const(np.abs(net.random(np.float32, (c,))) + 0.1)
        y = net.node("BatchNormalization", [x, scale, bias, mean, var], epsilon=1e-3)
    else:
        y = net.node("Mul", [x, net.const(net.random(np.float32, pshape))])
        y = net.node("Add", [y, net.const(net.random(np.float32, pshape))])
    net.value_out("f32", y)


def build_layer_norm(case, net):
    x_t, y_t = case["operands"][0], case["results"][0]
    props = case["props"]
    shape = (3, 5, 48)
    x = net.value_in(x_t, shape)
    ins = [x, net.const(net.random(np.float32, (48,)))]
    if props["bias"]:
        ins.append(net.const(net.random(np.float32, (48,))))
    y, mean, inv = net.node("LayerNormalization", ins, n_out=3, axis=-1, epsilon=1e-5)
    # Unused optional outputs are not written at all, as exporters do.
    if not props["inv-std-dev"]:
        del net.nodes[-1].output[2]
    if not props["mean"]:
        net.nodes[-1].output[1] = ""
    net.value_out(y_t, y)
    if props["mean"]:
        net.value_out("f32", mean)
    if props["inv-std-dev"]:
        net.value_out("f32", inv)


BUILDERS = {"qk.reduce": build_reduce,
            "qk.softmax": build_softmax,
            "qk.arg_reduce": build_arg,
            "qk.pool": build_pool,
            "qk.batch_norm": build_channel_params, "qk.channel_affine": build_channel_params,
            "qk.layer_norm": build_layer_norm}
