#!/usr/bin/python3
"""Generates the QDQ end-to-end suite: small ONNX models in QDQ form, each with
test_data_set_0 (input_K.pb, output_K.pb). The expected outputs come from a
numpy evaluation of the ONNX operator definitions (float arithmetic between
DequantizeLinear and QuantizeLinear, round half to even), independent of npuc.

usage: gen_qdq_suite.py OUTDIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper as h, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_builder  # noqa: E402
from onnx_builder import Model, conv2d, dequant, quant  # noqa: E402

out = sys.argv[1]
onnx_builder.set_output(out)
rng = np.random.default_rng(20261130)
F32, I8, U8 = TensorProto.FLOAT, TensorProto.INT8, TensorProto.UINT8


def conv_case(name, shape, m_out, group, stride, pads, per_channel):
    md = Model()
    xs, xz = 0.05, 3
    x = rng.uniform(-4, 4, shape).astype(np.float32)
    cg = shape[1] // group
    wq = rng.integers(-100, 100, (m_out, cg, 3, 3)).astype(np.int8)
    ws = (rng.uniform(0.002, 0.02, m_out) if per_channel else np.full(m_out, 0.01)).astype(np.float32)
    bq = rng.integers(-2000, 2000, m_out).astype(np.int32)
    bs = (np.float32(xs) * ws).astype(np.float32)
    ys, yz = 0.15, -5
    dx = md.qdq("x", xs, xz, np.uint8)
    dw = md.dq_const(wq, ws if per_channel else ws[0], np.zeros(m_out, np.int8) if per_channel else np.int8(0),
                     axis=0 if per_channel else None)
    db = md.dq_const(bq, bs if per_channel else bs[0], np.zeros(m_out, np.int32) if per_channel else np.int32(0),
                     axis=0 if per_channel else None)
    md.nodes.append(h.make_node("Conv", [dx, dw, db], ["conv"], group=group, strides=[stride, stride],
                                pads=pads, kernel_shape=[3, 3]))
    md.q("conv", ys, yz, np.int8, "y")
    ref_x = dequant(quant(x, xs, xz, np.uint8), xs, xz)
    ref_w = dequant(wq, ws.reshape(-1, 1, 1, 1), 0)
    ref_b = dequant(bq, bs, 0)
    y = quant(conv2d(ref_x, ref_w, ref_b, stride, pads, group), ys, yz, np.int8)
    md.save(name, [h.make_tensor_value_info("x", F32, list(shape))],
            [h.make_tensor_value_info("y", I8, list(y.shape))], [x], [y])


# Grouped convolution, distinct per-channel weight scales, odd width.
conv_case("qdq_grouped_conv", (1, 6, 6, 7), 6, 3, 1, [1, 1, 1, 1], True)
# Depthwise (one channel per group) with per-channel scales, stride 2: the
# chunked depthwise kernel.
conv_case("qdq_depthwise_conv", (1, 5, 9, 7), 5, 5, 2, [1, 1, 1, 1], True)
# Odd shapes (C = 3, W = 7) that force padded row pitches; stride 2.
conv_case("qdq_odd_conv", (1, 3, 5, 7), 4, 1, 2, [1, 1, 1, 1], False)

# MatMul with the weights on the left, quantized per output row.
md = Model()
x = rng.uniform(-2, 2, (8, 3)).astype(np.float32)
wq = rng.integers(-120, 120, (5, 8)).astype(np.int8)
ws = rng.uniform(0.005, 0.03, 5).astype(np.float32)
dw = md.dq_const(wq, ws, np.zeros(5, np.int8), axis=0)
dx = md.qdq("x", 0.02, -4, np.int8)
md.nodes.append(h.make_node("MatMul", [dw, dx], ["mm"]))
md.q("mm", 0.1, 2, np.int8, "y")
ref = dequant(wq, ws.reshape(-1, 1), 0).astype(np.float64) @ dequant(quant(x, 0.02, -4, np.int8), 0.02, -4).astype(np.float64)
y = quant(ref.astype(np.float32), 0.1, 2, np.int8)
md.save("qdq_matmul_weights_left", [h.make_tensor_value_info("x", F32, [8, 3])],
        [h.make_tensor_value_info("y", I8, [5, 3])], [x], [y])

# The classifier pattern of exported models: DQ -> MatMul -> Add(DQ int32
# bias) -> Q, lowered as one integer matmul with its bias.
md = Model()
x = rng.uniform(-3, 3, (2, 40)).astype(np.float32)
wq = rng.integers(-127, 127, (40, 12)).astype(np.int8)
bq = rng.integers(-3000, 3000, 12).astype(np.int32)
dx = md.qdq("x", 0.03, -5, np.int8)
dw = md.dq_const(wq, np.float32(0.004), np.int8(0))
db = md.dq_const(bq, np.float32(np.float32(0.03) * np.float32(0.004)), np.int32(0))
md.nodes.append(h.make_node("MatMul", [dx, dw], ["mm"]))
md.nodes.append(h.make_node("Add", ["mm", db], ["logits"]))
md.q("logits", 0.05, -3, np.int8, "y")
rx = dequant(quant(x, 0.03, -5, np.int8), 0.03, -5).astype(np.float64)
ref = rx @ dequant(wq, 0.004, 0).astype(np.float64) + dequant(bq, np.float32(np.float32(0.03) * np.float32(0.004)), 0)
y = quant(ref.astype(np.float32), 0.05, -3, np.int8)
md.save("qdq_classifier", [h.make_tensor_value_info("x", F32, [2, 40])],
        [h.make_tensor_value_info("y", I8, [2, 12])], [x], [y])

# Broadcasting as an address plan, odd width: [1,8,5,7] + [7], then + [8,1,1],
# then * a scalar.
md = Model()
a = rng.uniform(-3, 3, (1, 8, 5, 7)).astype(np.float32)
b = rng.uniform(-1, 1, (7,)).astype(np.float32)
c = rng.uniform(-2, 2, (8, 1, 1)).astype(np.float32)
da, db_, dc = md.qdq("a", 0.03, 1, np.int8), md.qdq("b", 0.01, -2, np.int8), md.qdq("c", 0.02, 0, np.int8)
md.nodes.append(h.make_node("Add", [da, db_], ["ab"]))
dab = md.qdq("ab", 0.04, 0, np.int8)
md.nodes.append(h.make_node("Add", [dab, dc], ["abc"]))
dabc = md.qdq("abc", 0.05, -1, np.int8)
ds = md.dq_const(np.array(40, np.int8), np.float32(0.025), np.int8(0))
md.nodes.append(h.make_node("Mul", [dabc, ds], ["m"]))
md.q("m", 0.05, 3, np.int8, "y")
ra = dequant(quant(a, 0.03, 1, np.int8), 0.03, 1)
rb = dequant(quant(b, 0.01, -2, np.int8), 0.01, -2)
rc = dequant(quant(c, 0.02, 0, np.int8), 0.02, 0)
rab = dequant(quant(ra + rb, 0.04, 0, np.int8), 0.04, 0)
rabc = dequant(quant(rab + rc, 0.05, -1, np.int8), 0.05, -1)
y = quant(rabc * dequant(np.int8(40), 0.025, 0), 0.05, 3, np.int8)
md.save("qdq_broadcast_add", [h.make_tensor_value_info(n, F32, list(v.shape)) for n, v in (("a", a), ("b", b), ("c", c))],
        [h.make_tensor_value_info("y", I8, [1, 8, 5, 7])], [a, b, c], [y])

# An activation between two quantizations with different scales (it cannot
# fold into the conv's clamp), then a reshape of the C = 3 result (a view:
# GM tensors are dense) feeding a matmul that reads it in another shape.
md = Model()
x = rng.uniform(-2, 2, (1, 2, 5, 7)).astype(np.float32)
wq = rng.integers(-90, 90, (3, 2, 3, 3)).astype(np.int8)
dx = md.qdq("x", 0.02, 0, np.int8)
dw = md.dq_const(wq, np.float32(0.01), np.int8(0))
md.nodes.append(h.make_node("Conv", [dx, dw], ["conv"], pads=[1, 1, 1, 1], kernel_shape=[3, 3]))
dconv = md.qdq("conv", 0.02, -10, np.int8)
md.nodes.append(h.make_node("Clip", [dconv, md.init("lo", np.float32(0)), md.init("hi", np.float32(1.5))], ["relu6"]))
dr = md.qdq("relu6", 0.008, -128, np.int8)
shape_c = md.init("shape", np.array([3, 35], np.int64))
md.nodes.append(h.make_node("Reshape", [dr, shape_c], ["flat"]))
mq = rng.integers(-100, 100, (35, 4)).astype(np.int8)
dm = md.dq_const(mq, np.float32(0.005), np.int8(0))
md.nodes.append(h.make_node("MatMul", ["flat", dm], ["mm"]))
md.q("mm", 0.01, 0, np.int8, "y")
rx = dequant(quant(x, 0.02, 0, np.int8), 0.02, 0)
rconv = conv2d(rx, dequant(wq, 0.01, 0), np.zeros(3, np.float32), 1, [1, 1, 1, 1], 1)
rconv = dequant(quant(rconv, 0.02, -10, np.int8), 0.02, -10)
rr = dequant(quant(np.clip(rconv, 0, 1.5), 0.008, -128, np.int8), 0.008, -128)
ref = rr.reshape(3, 35).astype(np.float64) @ dequant(mq, 0.005, 0).astype(np.float64)
y = quant(ref.astype(np.float32), 0.01, 0, np.int8)
md.save("qdq_activation_reshape", [h.make_tensor_value_info("x", F32, [1, 2, 5, 7])],
        [h.make_tensor_value_info("y", I8, [3, 4])], [x], [y])

# Concat of inputs with different scales.
md = Model()
a = rng.uniform(-2, 2, (1, 2, 3, 3)).astype(np.float32)
b = rng.uniform(-6, 6, (1, 3, 3, 3)).astype(np.float32)
da, db_ = md.qdq("a", 0.02, 5, np.uint8), md.qdq("b", 0.05, 128, np.uint8)
md.nodes.append(h.make_node("Concat", [da, db_], ["cat"], axis=1))
md.q("cat", 0.04, 128, np.uint8, "y")
ra = dequant(quant(a, 0.02, 5, np.uint8), 0.02, 5)
rb = dequant(quant(b, 0.05, 128, np.uint8), 0.05, 128)
y = quant(np.concatenate([ra, rb], axis=1), 0.04, 128, np.uint8)
md.save("qdq_concat_scales", [h.make_tensor_value_info("a", F32, [1, 2, 3, 3]), h.make_tensor_value_info("b", F32, [1, 3, 3, 3])],
        [h.make_tensor_value_info("y", U8, [1, 5, 3, 3])], [a, b], [y])

# A quantized Pad that feeds no convolution (graph-fold-pad folds the others
# into their convolution's pads): zero padding writes the zero point.
md = Model()
x = rng.uniform(-2, 2, (1, 3, 4, 5)).astype(np.float32)
dx = md.qdq("x", 0.02, -5, np.int8)
md.nodes.append(h.make_node("Pad", [dx, md.init("pads", np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64))],
                            ["pad"], mode="constant"))
md.q("pad", 0.02, -5, np.int8, "y")
y = quant(np.pad(dequant(quant(x, 0.02, -5, np.int8), 0.02, -5), ((0, 0), (0, 0), (1, 2), (2, 1))),
          0.02, -5, np.int8)
md.save("qdq_pad", [h.make_tensor_value_info("x", F32, [1, 3, 4, 5])],
        [h.make_tensor_value_info("y", I8, [1, 3, 7, 8])], [x], [y])

# DequantizeLinear straight into QuantizeLinear at another scale and type
# (qk.requantize, its f32 form): uint8 at 0.02 to int8 at 0.05.
md = Model()
x = rng.uniform(-2, 3, (2, 3, 5)).astype(np.float32)
dx = md.qdq("x", 0.02, 100, np.uint8)
md.q(dx, 0.05, -3, np.int8, "y")
y = quant(dequant(quant(x, 0.02, 100, np.uint8), 0.02, 100), 0.05, -3, np.int8)
md.save("qdq_requantize", [h.make_tensor_value_info("x", F32, [2, 3, 5])],
        [h.make_tensor_value_info("y", I8, [2, 3, 5])], [x], [y])

# A reduction over a non-trailing axis, keepdims = 0.
md = Model()
x = rng.uniform(-5, 5, (2, 5, 3)).astype(np.float32)
dx = md.qdq("x", 0.05, 0, np.int8)
md.nodes.append(h.make_node("ReduceMean", [dx], ["mean"], axes=[1], keepdims=0))
md.q("mean", 0.03, 0, np.int8, "y")
y = quant(dequant(quant(x, 0.05, 0, np.int8), 0.05, 0).astype(np.float64).mean(axis=1).astype(np.float32), 0.03, 0, np.int8)
md.save("qdq_reduce_mean_axis1", [h.make_tensor_value_info("x", F32, [2, 5, 3])],
        [h.make_tensor_value_info("y", I8, [2, 3])], [x], [y])

# Pooling on odd shapes (C = 3, W = 7): window denominators without the
# padding (count_include_pad = 0), ceil_mode's partial last window.
def pool_ref(x, k, st, pads, ceil, is_max, include_pad, out_hw):
    n, c, hh, ww = x.shape
    y = np.zeros((n, c) + tuple(out_hw), np.float32)
    for oh in range(out_hw[0]):
        for ow in range(out_hw[1]):
            hs = [oh * st + i - pads[0] for i in range(k)]
            ws = [ow * st + j - pads[1] for j in range(k)]
            hin = [h_ for h_ in hs if 0 <= h_ < hh]
            win = [w_ for w_ in ws if 0 <= w_ < ww]
            vals = x[:, :, hin][:, :, :, win].astype(np.float64)
            if is_max:
                y[:, :, oh, ow] = vals.max(axis=(2, 3))
            else:
                cnt_h = len([h_ for h_ in hs if -pads[0] <= h_ < hh + pads[2]]) if include_pad else len(hin)
                cnt_w = len([w_ for w_ in ws if -pads[1] <= w_ < ww + pads[3]]) if include_pad else len(win)
                y[:, :, oh, ow] = vals.sum(axis=(2, 3)) / (cnt_h * cnt_w)
    return y


def pool_case(name, op, shape, k, st, pads, ceil, include_pad=0):
    md = Model()
    x = rng.uniform(-4, 4, shape).astype(np.float32)
    dx = md.qdq("x", 0.04, 2, np.int8)
    kw = dict(kernel_shape=[k, k], strides=[st, st], pads=pads, ceil_mode=ceil)
    if op == "AveragePool":
        kw["count_include_pad"] = include_pad
    md.nodes.append(h.make_node(op, [dx], ["p"], **kw))
    md.q("p", 0.03, -1, np.int8, "y")
    g = h.make_graph(md.nodes, name, [h.make_tensor_value_info("x", F32, list(shape))],
                     [h.make_tensor_value_info("y", I8, None)], initializer=md.inits)
    inferred = onnx.shape_inference.infer_shapes(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]))
    out_hw = [d.dim_value for d in inferred.graph.output[0].type.tensor_type.shape.dim][2:]
    rx = dequant(quant(x, 0.04, 2, np.int8), 0.04, 2)
    y = quant(pool_ref(rx, k, st, pads, ceil, op == "MaxPool", include_pad, out_hw), 0.03, -1, np.int8)
    md.save(name, [h.make_tensor_value_info("x", F32, list(shape))],
            [h.make_tensor_value_info("y", I8, list(y.shape))], [x], [y])


pool_case("qdq_avgpool_ceil_exclude_pad", "AveragePool", (1, 3, 6, 7), 3, 2, [1, 1, 1, 1], 1, 0)
pool_case("qdq_avgpool_include_pad", "AveragePool", (1, 3, 5, 7), 3, 2, [1, 1, 1, 1], 0, 1)
pool_case("qdq_maxpool_ceil", "MaxPool", (1, 3, 5, 7), 2, 2, [0, 0, 0, 0], 1)

# Nonlinear functions between quantizations: Sigmoid, HardSwish, LeakyRelu,
# Softmax (computed in f32 on the dequantized values, docs/numerics.md).
md = Model()
x = rng.uniform(-6, 6, (2, 3, 10)).astype(np.float32)
cur = md.qdq("x", 0.05, 0, np.int8)
rx = dequant(quant(x, 0.05, 0, np.int8), 0.05, 0).astype(np.float64)
steps = [("Sigmoid", {}, lambda v: 1 / (1 + np.exp(-v)), (1 / 256, -128)),
         ("HardSwish", {}, lambda v: v * np.clip(v / 6 + 0.5, 0, 1), (0.01, -20)),
         ("LeakyRelu", {"alpha": 0.2}, lambda v: np.where(v < 0, 0.2 * v, v), (0.01, -10)),
         ("Softmax", {"axis": -1}, lambda v: np.exp(v - v.max(-1, keepdims=True)) /
          np.exp(v - v.max(-1, keepdims=True)).sum(-1, keepdims=True), (1 / 256, -128))]
for k, (op, attrs, fn, (sc, zp)) in enumerate(steps):
    md.nodes.append(h.make_node(op, [cur], ["a%d" % k], **attrs))
    rx = fn(rx)
    if k + 1 < len(steps):
        cur = md.qdq("a%d" % k, sc, zp, np.int8)
        rx = dequant(quant(rx.astype(np.float32), sc, zp, np.int8), sc, zp).astype(np.float64)
    else:
        md.q("a%d" % k, sc, zp, np.int8, "y")
        y = quant(rx.astype(np.float32), sc, zp, np.int8)
md.save("qdq_activations", [h.make_tensor_value_info("x", F32, [2, 3, 10])],
        [h.make_tensor_value_info("y", I8, [2, 3, 10])], [x], [y], opset=14)

# f32 Conv + BatchNormalization with tiny variances and large gammas (folded
# into the weights by graph-fold-batchnorm), then quantized.
md = Model()
x = rng.uniform(-1, 1, (1, 3, 6, 7)).astype(np.float32)
w = rng.uniform(-0.5, 0.5, (4, 3, 3, 3)).astype(np.float32)
gamma = np.array([40.0, 0.01, 7.5, 120.0], np.float32)
beta = np.array([0.5, -0.25, 3.0, -1.0], np.float32)
mean = np.array([0.1, -0.2, 0.0, 0.3], np.float32)
var = np.array([1e-4, 2.0, 1e-6, 0.5], np.float32)
md.nodes.append(h.make_node("Conv", ["x", md.init("w", w)], ["conv"], pads=[1, 1, 1, 1], kernel_shape=[3, 3]))
md.nodes.append(h.make_node("BatchNormalization", ["conv"] + [md.init(n, v) for n, v in
                (("gamma", gamma), ("beta", beta), ("mean", mean), ("var", var))], ["bn"], epsilon=1e-5))
md.q("bn", 0.5, 0, np.int8, "y")
ref = conv2d(x, w, np.zeros(4, np.float32), 1, [1, 1, 1, 1], 1).astype(np.float64)
ref = gamma.reshape(1, -1, 1, 1) * (ref - mean.reshape(1, -1, 1, 1)) / np.sqrt(var.reshape(1, -1, 1, 1) + 1e-5) + beta.reshape(1, -1, 1, 1)
y = quant(ref.astype(np.float32), 0.5, 0, np.int8)
md.save("conv_batchnorm_folded", [h.make_tensor_value_info("x", F32, [1, 3, 6, 7])],
        [h.make_tensor_value_info("y", I8, [1, 4, 6, 7])], [x], [y])

# ConvTranspose, weights stored [Cin, Cout/group, kh, kw]: group 2, stride 2,
# output_padding 1 (contract L2), f32, then quantized.
md = Model()
x = rng.uniform(-1, 1, (1, 4, 3, 4)).astype(np.float32)
w = rng.uniform(-1, 1, (4, 3, 3, 3)).astype(np.float32)  # Cin 4, Cout/g 3, g 2 -> Cout 6
bias = rng.uniform(-1, 1, 6).astype(np.float32)
st, pads, outpad, grp = 2, [1, 1, 0, 1], [1, 1], 2
md.nodes.append(h.make_node("ConvTranspose", ["x", md.init("w", w), md.init("b", bias)], ["ct"],
                            strides=[st, st], pads=pads, output_padding=outpad, group=grp, kernel_shape=[3, 3]))
md.q("ct", 0.05, 0, np.int8, "y")
n_, cin, hh, ww = x.shape
coutg = w.shape[1]
oh = st * (hh - 1) + outpad[0] + 3 - pads[0] - pads[2]
ow = st * (ww - 1) + outpad[1] + 3 - pads[1] - pads[3]
full = np.zeros((1, coutg * grp, st * (hh - 1) + 3 + outpad[0], st * (ww - 1) + 3 + outpad[1]))
cing = cin // grp
for ci in range(cin):
    gi = ci // cing
    for co in range(coutg):
        for i in range(hh):
            for j in range(ww):
                full[0, gi * coutg + co, i * st:i * st + 3, j * st:j * st + 3] += x[0, ci, i, j] * w[ci, co].astype(np.float64)
ref = full[:, :, pads[0]:pads[0] + oh, pads[1]:pads[1] + ow] + bias.reshape(1, -1, 1, 1)
y = quant(ref.astype(np.float32), 0.05, 0, np.int8)
md.save("conv_transpose_groups", [h.make_tensor_value_info("x", F32, [1, 4, 3, 4])],
        [h.make_tensor_value_info("y", I8, list(y.shape))], [x], [y])

# ConvTranspose whose windows do not overlap (kernel = stride = 2): a pointwise
# product and a depth-to-space copy; batch 2, odd width, a bias per channel.
md = Model()
x = rng.uniform(-1, 1, (2, 3, 3, 5)).astype(np.float32)
w = rng.uniform(-1, 1, (3, 4, 2, 2)).astype(np.float32)
bias = rng.uniform(-1, 1, 4).astype(np.float32)
md.nodes.append(h.make_node("ConvTranspose", ["x", md.init("w", w), md.init("b", bias)], ["y"],
                            strides=[2, 2], kernel_shape=[2, 2]))
ref = np.zeros((2, 4, 6, 10))
for a in range(2):
    for b_ in range(2):
        ref[:, :, a::2, b_::2] = np.einsum("nchw,cd->ndhw", x.astype(np.float64), w[:, :, a, b_].astype(np.float64))
y = (ref + bias.reshape(1, -1, 1, 1)).astype(np.float32)
md.save("conv_transpose_depth_to_space", [h.make_tensor_value_info("x", F32, [2, 3, 3, 5])],
        [h.make_tensor_value_info("y", F32, [2, 4, 6, 10])], [x], [y])

# A reduction that "does nothing" (over a size-1 axis) still requantizes to
# its output's scale and zero point (contract N4): never deleted.
md = Model()
x = rng.uniform(-2, 2, (2, 1, 5)).astype(np.float32)
dx = md.qdq("x", 0.02, 0, np.int8)
md.nodes.append(h.make_node("ReduceMean", [dx], ["m"], axes=[1], keepdims=1))
md.q("m", 0.05, 3, np.int8, "y")
y = quant(dequant(quant(x, 0.02, 0, np.int8), 0.02, 0), 0.05, 3, np.int8)
md.save("qdq_noop_reduction_requantizes", [h.make_tensor_value_info("x", F32, [2, 1, 5])],
        [h.make_tensor_value_info("y", I8, [2, 1, 5])], [x], [y])

# A reduction longer than one tile: 67,600 elements per output exceed
# VECTOR's 65,535 columns on every target, so it takes two passes (partials
# per run of columns, then the partials).
md = Model()
x = rng.uniform(-2, 2, (1, 3, 260, 260)).astype(np.float32)
dx = md.qdq("x", 0.02, 1, np.int8)
md.nodes.append(h.make_node("GlobalAveragePool", [dx], ["gap"]))
md.q("gap", 0.001, 0, np.int8, "y")
rx = dequant(quant(x, 0.02, 1, np.int8), 0.02, 1).astype(np.float64)
y = quant(rx.mean(axis=(2, 3), keepdims=True).astype(np.float32), 0.001, 0, np.int8)
md.save("qdq_long_reduction", [h.make_tensor_value_info("x", F32, [1, 3, 260, 260])],
        [h.make_tensor_value_info("y", I8, [1, 3, 1, 1])], [x], [y])

# Fan-out: one tensor read by twelve kernels whose results are all outputs;
# more dependencies than npu-v1-tiny's 2 flags per engine pair.
md = Model()
x = rng.uniform(-3, 3, (1, 4, 8, 8)).astype(np.float32)
dx = md.qdq("x", 0.03, 0, np.int8)
outs, refs = [], []
rx = dequant(quant(x, 0.03, 0, np.int8), 0.03, 0)
for k in range(12):
    cv = np.float32(0.25 * (k + 1))
    cn = md.init("c%d" % k, np.array([cv], np.float32))
    op = ["Add", "Mul", "Sub"][k % 3]
    md.nodes.append(h.make_node(op, [dx, cn], ["f%d" % k]))
    md.q("f%d" % k, 0.05, 0, np.int8, "y%d" % k)
    r = {"Add": rx + cv, "Mul": rx * cv, "Sub": rx - cv}[op]
    refs.append(quant(r, 0.05, 0, np.int8))
    outs.append(h.make_tensor_value_info("y%d" % k, I8, [1, 4, 8, 8]))
md.save("qdq_fanout", [h.make_tensor_value_info("x", F32, [1, 4, 8, 8])], outs, [x], refs)
