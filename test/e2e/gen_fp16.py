#!/usr/bin/python3
"""Generates f32 models that compile with npuc --float fp16 (their
tolerance.txt says float=fp16), each with test_data_set_0 and a tolerance
derived from fp16's rounding, against the fp32 reference:

- fp16_mlp: Gemm (transB, bias) -> Relu -> MatMul -> Add, [8, 64] -> [8, 32];
- fp16_attention: two heads of scores = Q K^T / sqrt(d), Softmax, scores x V
  (MatMuls of two activations, batched over heads);
- fp16_gemm_addend: Gemm with alpha, beta and a full C (C stays f32);
- fp16_cnn: dense, depthwise (strided), pointwise and strided convolutions,
  pooling and a Gemm (its tolerance from a numpy model of the rounding);
- fp16_vector_*: VECTOR ops between products, which run in fp16;
- fp16_conv_*, fp16_gemm_*, fp16_matmul_*: one model per lowering case the
  pass produces (below), alone (an f32 result) and chained into a product
  (an fp16 result), so that the evidence gate has every case verified.

The reference is numpy in float64 from the f32 inputs and weights (the fp32
model's exact values), rounded once to float32. fp16 compute rounds each
matrix operand to fp16 (relative error at most 2^-11) and accumulates in
fp32, so each output differs from the reference by at most about 2^-10 times
the sum of |a| |b| over its products: the tolerance is 2^-9 times the
largest such sum of the output (atol), plus rtol 2^-9 (a Softmax between two
products carries the first one's error through exp).

usage: gen_fp16.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_builder  # noqa: E402

if len(sys.argv) != 2:
    sys.exit(__doc__.strip().splitlines()[-1])
out = sys.argv[1]
onnx_builder.set_output(out)
rng = np.random.default_rng(20261202)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def save(name, nodes, inputs, outputs, inits, feeds, expected, atol):
    g = h.make_graph(nodes, name, inputs, outputs, initializer=inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 8
    onnx_builder.save_unchecked(name, m, feeds, expected)
    with open(os.path.join(out, name, "tolerance.txt"), "w") as f:
        f.write("float=fp16 atol=%.9g rtol=%.9g\n" % (atol, 2.0 ** -9))


def bound(a, b):
    """The largest sum of |a| |b| over one output of a @ b."""
    return float((np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))).max())


vi = h.make_tensor_value_info

# fp16_mlp
x = f32(8, 64)
w1, b1 = f32(128, 64, scale=0.125), f32(128, scale=0.1)  # Gemm transB: [N, K]
w2, b2 = f32(128, 32, scale=0.125), f32(32, scale=0.1)
hid = np.maximum(x.astype(np.float64) @ w1.T.astype(np.float64) + b1, 0)
y = hid @ w2.astype(np.float64) + b2
# The hidden layer's error (<= 2^-10 of its bound) through |w2|, plus the
# second product's own 2^-10 of sum |hid| |w2|; twice that as the tolerance.
atol = 2.0 ** -9 * (bound(x, w1.T) * float(np.abs(w2).sum(0).max()) + bound(hid, w2))
save("fp16_mlp",
     [h.make_node("Gemm", ["x", "w1", "b1"], ["g"], transB=1),
      h.make_node("Relu", ["g"], ["r"]),
      h.make_node("MatMul", ["r", "w2"], ["m"]),
      h.make_node("Add", ["m", "b2"], ["y"])],
     [vi("x", T.FLOAT, [8, 64])], [vi("y", T.FLOAT, [8, 32])],
     [nh.from_array(w1, "w1"), nh.from_array(b1, "b1"), nh.from_array(w2, "w2"),
      nh.from_array(b2, "b2")],
     [x], [y.astype(np.float32)], atol)

# fp16_attention: [2 heads, 16 tokens, 8 dims]
q, k, v = f32(2, 16, 8), f32(2, 16, 8), f32(2, 16, 8)
kt = np.transpose(k, (0, 2, 1))
scores = (q.astype(np.float64) @ kt.astype(np.float64)) / np.sqrt(8.0)
e = np.exp(scores - scores.max(-1, keepdims=True))
p = e / e.sum(-1, keepdims=True)
att = p @ v.astype(np.float64)
# The scores' error (<= 2^-10 of their bound) moves each weight by about
# that relative amount; the second product adds its own 2^-10 of sum |p| |v|.
s_err = 2.0 ** -10 * max(bound(q[i], kt[i]) for i in range(2)) / np.sqrt(8.0)
atol = 4 * (s_err * float(np.abs(v).max()) + 2.0 ** -10 * float(np.abs(v).max()))
inv = np.array(1.0 / np.sqrt(8.0), np.float32)
save("fp16_attention",
     [h.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
      h.make_node("MatMul", ["q", "kt"], ["s0"]),
      h.make_node("Mul", ["s0", "inv"], ["s"]),
      h.make_node("Softmax", ["s"], ["p"], axis=-1),
      h.make_node("MatMul", ["p", "v"], ["y"])],
     [vi("q", T.FLOAT, [2, 16, 8]), vi("k", T.FLOAT, [2, 16, 8]), vi("v", T.FLOAT, [2, 16, 8])],
     [vi("y", T.FLOAT, [2, 16, 8])], [nh.from_array(inv.reshape(1), "inv")],
     [q, k, v], [att.astype(np.float32)], atol)

# fp16_gemm_addend: alpha * A B + beta * C, C a full [M, N] matrix kept f32
a, bm, cm = f32(16, 48), f32(48, 24, scale=0.25), f32(16, 24)
y = 0.5 * (a.astype(np.float64) @ bm.astype(np.float64)) + 2.0 * cm
save("fp16_gemm_addend",
     [h.make_node("Gemm", ["a", "b", "c"], ["y"], alpha=0.5, beta=2.0)],
     [vi("a", T.FLOAT, [16, 48]), vi("c", T.FLOAT, [16, 24])], [vi("y", T.FLOAT, [16, 24])],
     [nh.from_array(bm, "b")], [a, cm], [y.astype(np.float32)], 2.0 ** -9 * 0.5 * bound(a, bm))

# fp16_cnn: Conv 3x3 (pad 1, bias, Relu) -> depthwise Conv 3x3 (stride 2,
# pad 1, bias, Relu) -> pointwise Conv 1x1 (bias) -> Conv 3x3 (stride 2, no
# pad, no bias) -> GlobalAveragePool -> Flatten -> Gemm. The tolerance comes
# from the same network evaluated in numpy with every product's operands
# rounded to fp16 (and a product read only by products stored as fp16, as
# graph-compute-f16 does): four times its largest distance from the fp32
# reference, a model of the rounding, not of npuc's code.
def half(a):
    return np.asarray(a, np.float32).astype(np.float16).astype(np.float32)


def cnn(x, ws, rounding):
    r = half if rounding else (lambda a: np.asarray(a, np.float32))
    (w1, b1), (w2, b2), (w3, b3), w4, (wg, bg) = ws
    a = np.maximum(onnx_builder.conv2d(r(x), r(w1), b1, 1, [1, 1, 1, 1], 1), 0)
    a = np.maximum(onnx_builder.conv2d(r(a), r(w2), b2, 2, [1, 1, 1, 1], 8), 0)
    a = onnx_builder.conv2d(r(a), r(w3), b3, 1, [0, 0, 0, 0], 1)
    a = r(a) if rounding else a  # read only by the next convolution
    a = onnx_builder.conv2d(a, r(w4), np.zeros(16, np.float32), 2, [0, 0, 0, 0], 1)
    pooled = a.astype(np.float64).mean(axis=(2, 3)).astype(np.float32)
    return (r(pooled).astype(np.float64) @ r(wg).T.astype(np.float64) + bg).astype(np.float32)


x = f32(1, 3, 16, 16)
ws = [(f32(8, 3, 3, 3, scale=0.3), f32(8, scale=0.1)), (f32(8, 1, 3, 3, scale=0.3), f32(8, scale=0.1)),
      (f32(16, 8, 1, 1, scale=0.3), f32(16, scale=0.1)), f32(16, 16, 3, 3, scale=0.1),
      (f32(10, 16, scale=0.3), f32(10, scale=0.1))]
want = cnn(x, ws, False)
atol = 4 * float(np.abs(cnn(x, ws, True) - want).max()) + 1e-6
(w1, b1), (w2, b2), (w3, b3), w4, (wg, bg) = ws
save("fp16_cnn",
     [h.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
      h.make_node("Relu", ["c1"], ["r1"]),
      h.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], strides=[2, 2], group=8),
      h.make_node("Relu", ["c2"], ["r2"]),
      h.make_node("Conv", ["r2", "w3", "b3"], ["c3"]),
      h.make_node("Conv", ["c3", "w4"], ["c4"], strides=[2, 2]),
      h.make_node("GlobalAveragePool", ["c4"], ["p"]),
      h.make_node("Flatten", ["p"], ["f"]),
      h.make_node("Gemm", ["f", "wg", "bg"], ["y"], transB=1)],
     [vi("x", T.FLOAT, [1, 3, 16, 16])], [vi("y", T.FLOAT, [1, 10])],
     [nh.from_array(v, n) for v, n in ((w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"), (w3, "w3"),
                                       (b3, "b3"), (w4, "w4"), (wg, "wg"), (bg, "bg"))],
     [x], [want], atol)

# fp16_conv_*: the convolution cases graph-compute-f16 gives the lowering,
# one small model each: kinds (dense 3x3, grouped 3x3, depthwise 3x3,
# pointwise 1x1, dense 3x3 dilated by 2) x pads 0 or 1 x strides 1 or 2 x bias or not x a fused
# activation (none, Relu, Clip(0, 6)); "single" stores the f32 result, "chain"
# feeds it to a pointwise convolution, so it is stored as fp16. Tolerances
# from the numpy rounding model as fp16_cnn's.
def act(a, kind):
    return a if kind == "none" else np.maximum(a, 0) if kind == "relu" else np.clip(a, 0, 6)


KINDS = {"dense": (8, 8, 3, 1, 1), "grouped": (8, 8, 3, 2, 1), "depthwise": (8, 8, 3, 8, 1),
         "pointwise": (8, 8, 1, 1, 1), "dilated": (8, 8, 3, 1, 2)}
for kind, (cin, cout, k, group, dil) in KINDS.items():
    for pad in (0, 1):
        if k == 1 and pad:
            continue
        for stride in (1, 2):
            for bias in (False, True):
                for activation in ("none", "relu", "clip"):
                    x = f32(1, cin, 9, 9)
                    w = f32(cout, cin // group, k, k, scale=0.4)
                    b = f32(cout, scale=0.2) if bias else np.zeros(cout, np.float32)
                    wp, bp = f32(4, cout, 1, 1, scale=0.4), f32(4, scale=0.2)
                    pads = [pad] * 4

                    def first(r):
                        return act(onnx_builder.conv2d(r(x), r(w), b, stride, pads, group, dil), activation)

                    ident = lambda a: np.asarray(a, np.float32)  # noqa: E731
                    conv_in = ["x", "w", "b"] if bias else ["x", "w"]
                    nodes = [h.make_node("Conv", conv_in, ["c"], pads=pads, strides=[stride, stride],
                                         group=group, kernel_shape=[k, k], dilations=[dil, dil])]
                    if activation == "relu":
                        nodes.append(h.make_node("Relu", ["c"], ["a"]))
                    elif activation == "clip":
                        nodes.append(h.make_node("Clip", ["c", "lo", "hi"], ["a"]))
                    last = "a" if activation != "none" else "c"
                    inits = [nh.from_array(w, "w")] + ([nh.from_array(b, "b")] if bias else [])
                    if activation == "clip":
                        inits += [nh.from_array(np.array(0, np.float32), "lo"),
                                  nh.from_array(np.array(6, np.float32), "hi")]
                    oh = (9 + 2 * pad - dil * (k - 1) - 1) // stride + 1
                    name = "fp16_conv_%s_p%d_s%d_%s_%s" % (kind, pad, stride, "bias" if bias else "nobias",
                                                           activation)
                    want = first(ident)
                    err = float(np.abs(first(half) - want).max())
                    save(name + "_single", [n for n in nodes] + [h.make_node("Identity", [last], ["y"])],
                         [vi("x", T.FLOAT, [1, cin, 9, 9])], [vi("y", T.FLOAT, [1, cout, oh, oh])],
                         inits, [x], [want], 4 * err + 1e-6)
                    want = onnx_builder.conv2d(want, wp, bp, 1, [0] * 4, 1)
                    err = float(np.abs(onnx_builder.conv2d(half(first(half)), half(wp), bp, 1, [0] * 4, 1)
                                       - want).max())
                    save(name + "_chain", nodes + [h.make_node("Conv", [last, "wp", "bp"], ["y"])],
                         [vi("x", T.FLOAT, [1, cin, 9, 9])], [vi("y", T.FLOAT, [1, 4, oh, oh])],
                         inits + [nh.from_array(wp, "wp"), nh.from_array(bp, "bp")], [x], [want],
                         4 * err + 1e-6)

# fp16_gemm_* and fp16_matmul_*: the product cases. Gemm: transA, transB,
# alpha, no C, a C row broadcast or a full C, beta; each alone (an f32
# result) and chained into a MatMul (an fp16 one). MatMul: 2-D and 3-D
# activations times constant weights or batched activations.
def gemm_ref(a, b, c, ta, tb, alpha, beta, r):
    aa, bb = r(a.T if ta else a), r(b.T if tb else b)
    y = alpha * (aa.astype(np.float64) @ bb.astype(np.float64))
    return (y + (beta * c if c is not None else 0)).astype(np.float32)


for ta in (0, 1):
    for tb in (0, 1):
        for alpha in (1.0, 0.5):
            for cform in ("none", "row", "full"):
                for beta in ((1.0,) if cform == "none" else (1.0, 2.0)):
                    a = f32(24, 12) if ta else f32(12, 24)
                    bm = f32(16, 24, scale=0.3) if tb else f32(24, 16, scale=0.3)
                    c = None if cform == "none" else f32(16) if cform == "row" else f32(12, 16)
                    w2 = f32(16, 8, scale=0.3)
                    attrs = {"transA": ta, "transB": tb, "alpha": alpha, "beta": beta}
                    ins = ["a", "b"] + (["c"] if c is not None else [])
                    inits = [nh.from_array(bm, "b")] + ([nh.from_array(c, "c")] if c is not None else [])
                    name = "fp16_gemm_t%d%d_a%g_%s_b%g" % (ta, tb, alpha, cform, beta)
                    ident = lambda v: np.asarray(v, np.float32)  # noqa: E731
                    want = gemm_ref(a, bm, c, ta, tb, alpha, beta, ident)
                    err = float(np.abs(gemm_ref(a, bm, c, ta, tb, alpha, beta, half) - want).max())
                    save(name + "_single", [h.make_node("Gemm", ins, ["y"], **attrs)],
                         [vi("a", T.FLOAT, list(a.shape))], [vi("y", T.FLOAT, [12, 16])], inits, [a], [want],
                         4 * err + 1e-6)
                    want2 = (want.astype(np.float64) @ w2.astype(np.float64)).astype(np.float32)
                    got2 = half(gemm_ref(a, bm, c, ta, tb, alpha, beta, half)).astype(np.float64) @ half(w2)
                    save(name + "_chain", [h.make_node("Gemm", ins, ["g"], **attrs),
                                           h.make_node("MatMul", ["g", "w2"], ["y"])],
                         [vi("a", T.FLOAT, list(a.shape))], [vi("y", T.FLOAT, [12, 8])],
                         inits + [nh.from_array(w2, "w2")], [a], [want2],
                         4 * float(np.abs(got2 - want2).max()) + 1e-6)

for lhs in ((12, 24), (3, 12, 24)):
    for rhs_batched in (False, True):
        if rhs_batched and len(lhs) == 2:
            continue
        a = f32(*lhs)
        bshape = (lhs[0], 24, 16) if rhs_batched else (24, 16)
        bm = f32(*bshape, scale=0.3)
        w2 = f32(16, 8, scale=0.3)
        oshape = list(lhs[:-1]) + [16]
        name = "fp16_matmul_%dd_%s" % (len(lhs), "batched" if rhs_batched else "weights")
        inputs = [vi("a", T.FLOAT, list(lhs))] + ([vi("b", T.FLOAT, list(bshape))] if rhs_batched else [])
        inits = [] if rhs_batched else [nh.from_array(bm, "b")]
        feeds = [a] + ([bm] if rhs_batched else [])
        want = (a.astype(np.float64) @ bm.astype(np.float64)).astype(np.float32)
        got = half(a).astype(np.float64) @ half(bm)
        save(name + "_single", [h.make_node("MatMul", ["a", "b"], ["y"])], inputs, [vi("y", T.FLOAT, oshape)],
             inits, feeds, [want], 4 * float(np.abs(got - want).max()) + 1e-6)
        want2 = (want.astype(np.float64) @ w2.astype(np.float64)).astype(np.float32)
        got2 = half(got).astype(np.float64) @ half(w2)
        save(name + "_chain", [h.make_node("MatMul", ["a", "b"], ["m"]), h.make_node("MatMul", ["m", "w2"], ["y"])],
             inputs, [vi("y", T.FLOAT, oshape[:-1] + [8])], inits + [nh.from_array(w2, "w2")], feeds, [want2],
             4 * float(np.abs(got2 - want2).max()) + 1e-6)

# fp16_vector_*: the VECTOR ops that run in fp16 after a product: MatMul ->
# op (binary: with a constant of the row's shape, a scalar, a per-row column
# or a full matrix, or with another product; unary: each f32 map, rounded to
# fp16 once) -> MatMul, so the op reads and writes fp16. The reference is
# fp32; the tolerance from the numpy rounding model (every value between the
# products rounded to fp16, fp16 arithmetic of the binary ops emulated by
# rounding their f32 result).
def unary_ref(name, v):
    import math
    if name == "relu":
        return np.maximum(v, 0)
    if name == "sigmoid":
        return 1 / (1 + np.exp(-v))
    if name == "tanh":
        return np.tanh(v)
    if name == "exp":
        return np.exp(v)
    if name == "neg":
        return -v
    if name == "abs":
        return np.abs(v)
    if name == "erf":
        return np.vectorize(math.erf)(v)
    if name == "leakyrelu":
        return np.where(v > 0, v, 0.1 * v)
    if name == "hardsigmoid":
        return np.clip(0.2 * v + 0.5, 0, 1)
    if name == "hardswish":
        return v * np.clip(v / 6 + 0.5, 0, 1)
    if name == "gelu":
        return 0.5 * v * (1 + np.vectorize(math.erf)(v / math.sqrt(2)))
    if name == "clip":
        return np.clip(v, -0.5, 0.5)
    raise ValueError(name)


ONNX_UNARY = {"relu": ("Relu", {}), "sigmoid": ("Sigmoid", {}), "tanh": ("Tanh", {}), "exp": ("Exp", {}),
              "neg": ("Neg", {}), "abs": ("Abs", {}), "erf": ("Erf", {}),
              "leakyrelu": ("LeakyRelu", {"alpha": 0.1}), "hardsigmoid": ("HardSigmoid", {}),
              "hardswish": ("HardSwish", {}), "gelu": ("Gelu", {}), "clip": ("Clip", {})}
xa = f32(6, 16)
w1, w2 = f32(16, 12, scale=0.3), f32(12, 8, scale=0.3)
p64 = xa.astype(np.float64) @ w1.astype(np.float64)
p16 = half(half(xa).astype(np.float64) @ half(w1)).astype(np.float64)


def vector_case(name, nodes, inits, f, opset=13):
    want = (f(p64) @ w2.astype(np.float64)).astype(np.float32)
    got = half(f(p16)).astype(np.float64) @ half(w2)
    g = h.make_graph([h.make_node("MatMul", ["x", "w1"], ["p"])] + nodes +
                     [h.make_node("MatMul", ["q", "w2"], ["y"])], name,
                     [vi("x", T.FLOAT, [6, 16])], [vi("y", T.FLOAT, [6, 8])],
                     [nh.from_array(w1, "w1"), nh.from_array(w2, "w2")] + inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    onnx_builder.save_unchecked(name, m, [xa], [want])
    with open(os.path.join(out, name, "tolerance.txt"), "w") as fh:
        fh.write("float=fp16 atol=%.9g rtol=%.9g\n" % (4 * float(np.abs(got - want).max()) + 1e-6, 2.0 ** -9))


for un, (op, attrs) in ONNX_UNARY.items():
    ins = ["p", "lo", "hi"] if un == "clip" else ["p"]
    inits = [nh.from_array(np.array(-0.5, np.float32), "lo"), nh.from_array(np.array(0.5, np.float32), "hi")] \
        if un == "clip" else []
    vector_case("fp16_vector_" + un, [h.make_node(op, ins, ["q"], **attrs)], inits,
                lambda v, un=un: unary_ref(un, v), opset=20 if un == "gelu" else 14)
for bn, fn in (("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("max", np.maximum),
               ("min", np.minimum)):
    for form, shape in (("row", (12,)), ("scalar", (1,)), ("column", (6, 1)), ("full", (6, 12))):
        c = f32(*shape, scale=0.5)
        vector_case("fp16_vector_%s_%s" % (bn, form),
                    [h.make_node(bn.capitalize(), ["p", "c"], ["q"])], [nh.from_array(c, "c")],
                    lambda v, fn=fn, c=c: fn(v, half(c).astype(np.float64)))
    # Two fp16 activations: the product with itself through a second path.
    vector_case("fp16_vector_%s_activations" % bn,
                [h.make_node("Relu", ["p"], ["r"]), h.make_node(bn.capitalize(), ["p", "r"], ["q"])], [],
                lambda v, fn=fn: fn(v, np.maximum(v, 0)))
