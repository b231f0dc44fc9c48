#!/usr/bin/python3
"""Generates the importer-gaps end-to-end suite: small ONNX models written the
way real exporters (PyTorch's torch.onnx, tf2onnx, onnxruntime's quantizer)
write common patterns -- shapes computed at run time from Shape, parameters
built by chains of constant ops, optional inputs left empty, Dropout with its
mask, QDQ graphs with float or foreign-scale biases, weight-only quantization.
Each test has test_data_set_0 (input_K.pb, output_K.pb). The expected outputs
come from a numpy evaluation of the ONNX operator definitions, independent of
npuc.

usage: gen_importer_gaps.py OUTDIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper as h, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_builder  # noqa: E402
from onnx_builder import conv2d, dequant, quant  # noqa: E402

out = sys.argv[1]
onnx_builder.set_output(out)


def Model():
    """Every model of this suite also passes ONNX's strict shape inference."""
    return onnx_builder.Model(infer_shapes=True)
rng = np.random.default_rng(20261207)
F32, I8, U8, I64, BOOL = TensorProto.FLOAT, TensorProto.INT8, TensorProto.UINT8, TensorProto.INT64, TensorProto.BOOL
INT64_MIN_ISH = -9223372036854775807  # what torch's flip writes as Slice's end


def safe_input(shape, s, z, dtype):
    """Float values whose quantization is not near a rounding tie: q's grid
    point plus at most 0.3 of a step, so x / s and x * (1 / s) agree."""
    info = np.iinfo(dtype)
    lo, hi = max(info.min, int(z) - 100), min(info.max, int(z) + 100)
    q = rng.integers(lo, hi + 1, shape).astype(np.float32)
    return ((q - np.float32(z)) * np.float32(s) + rng.uniform(-0.3, 0.3, shape).astype(np.float32) * np.float32(s)).astype(np.float32)


def check_ties(ref, s, name, margin=1e-3):
    """The quantized reference is not within `margin` of a rounding tie."""
    v = np.asarray(ref, np.float64) / np.float64(np.float32(s))
    d = np.abs(np.abs(v - np.floor(v)) - 0.5)
    assert d.min() > margin, "%s: an output sits on a rounding tie (%g)" % (name, d.min())


def vi(name, elem, shape):
    return h.make_tensor_value_info(name, elem, list(shape))


def resize_nearest_ref(x, out_shape, coord, nearest):
    """Resize (opset 13), mode 'nearest', from the operator definition: for
    each axis, x_original = f(x_resized) with scale = out / in, then the
    nearest_mode rounding, then clamped to [0, in - 1]."""
    idx = []
    for ax, (n_in, n_out) in enumerate(zip(x.shape, out_shape)):
        scale = np.float64(n_out) / np.float64(n_in)
        i = np.arange(n_out, dtype=np.float64)
        if coord == "asymmetric":
            xo = i / scale
        elif coord == "half_pixel":
            xo = (i + 0.5) / scale - 0.5
        else:
            raise ValueError(coord)
        if nearest == "floor":
            r = np.floor(xo)
        elif nearest == "round_prefer_floor":
            r = np.where(xo - np.floor(xo) == 0.5, np.floor(xo), np.floor(xo + 0.5))
        else:
            raise ValueError(nearest)
        idx.append(np.clip(r, 0, n_in - 1).astype(np.int64))
    return x[np.ix_(*idx)]


# ---------------------------------------------------------------------------
def resize_sizes_from_shape():
    """F.interpolate(x, scale_factor=2, mode='nearest') as torch.onnx writes it
    at opset 13: the output sizes are computed at run time, Shape -> Gather(2),
    Gather(3) -> Cast(FLOAT) -> Mul(2.0) -> Floor -> Cast(INT64) -> Unsqueeze,
    concatenated after Slice(Shape, 0:2); Resize(X, '', '', sizes) with
    coordinate_transformation_mode 'asymmetric' and nearest_mode 'floor'.
    Checks that the importer folds the sizes chain to [1, 3, 10, 14] and that
    the odd input sizes replicate each pixel 2x2 (out[i] = in[floor(i / 2)])."""
    md = Model()
    shape = (1, 3, 5, 7)
    x = rng.uniform(-3, 3, shape).astype(np.float32)
    shp = md.node("Shape", ["x"], ["shape"])
    dims = []
    for k, ax in enumerate((2, 3)):
        g = md.node("Gather", [shp, md.constant("gi%d" % k, np.int64(ax))], ["g%d" % k], axis=0)
        c = md.node("Cast", [g], ["gf%d" % k], to=F32)
        m = md.node("Mul", [c, md.constant("sf%d" % k, np.float32(2.0))], ["gm%d" % k])
        f = md.node("Floor", [m], ["gfl%d" % k])
        ci = md.node("Cast", [f], ["gi64_%d" % k], to=I64)
        dims.append(md.node("Unsqueeze", [ci, md.constant("ua%d" % k, np.array([0], np.int64))], ["gu%d" % k]))
    nc = md.node("Slice", [shp, md.constant("ss", np.array([0], np.int64)), md.constant("se", np.array([2], np.int64)),
                           md.constant("sa", np.array([0], np.int64))], ["nc"])
    sizes = md.node("Concat", [nc] + dims, ["sizes"], axis=0)
    md.node("Resize", ["x", "", "", sizes], ["y"], mode="nearest", coordinate_transformation_mode="asymmetric",
            nearest_mode="floor", cubic_coeff_a=-0.75)
    out_shape = (1, 3, int(np.floor(np.float32(5) * np.float32(2))), int(np.floor(np.float32(7) * np.float32(2))))
    y = resize_nearest_ref(x, out_shape, "asymmetric", "floor")
    assert np.array_equal(y, x.repeat(2, axis=2).repeat(2, axis=3))
    md.save("resize_sizes_from_shape", [vi("x", F32, shape)], [vi("y", F32, out_shape)], [x], [y])


def resize_scales_computed():
    """Resize (opset 13) whose scales input is computed from constants:
    Constant [2, 2, 4, 4] -> Div(2.0) = [1, 1, 2, 2]; mode 'nearest' with the
    default coordinate_transformation_mode 'half_pixel' and nearest_mode
    'round_prefer_floor'. With an integer scale of 2 half_pixel gives
    x_original = i / 2 - 0.25, which rounds to floor(i / 2): a pure 2x2
    replication. Checks that the scales chain folds and the default modes
    are honoured."""
    md = Model()
    shape = (1, 2, 3, 5)
    x = rng.uniform(-3, 3, shape).astype(np.float32)
    s4 = np.array([2, 2, 4, 4], np.float32)
    sc = md.node("Div", [md.constant("s4", s4), md.constant("two", np.float32(2.0))], ["scales"])
    md.node("Resize", ["x", "", sc], ["y"], mode="nearest")
    scales = s4 / np.float32(2.0)
    assert np.array_equal(scales, [1, 1, 2, 2])
    out_shape = tuple(int(np.floor(d * s)) for d, s in zip(shape, scales))
    y = resize_nearest_ref(x, out_shape, "half_pixel", "round_prefer_floor")
    assert np.array_equal(y, x.repeat(2, axis=2).repeat(2, axis=3))
    md.save("resize_scales_computed", [vi("x", F32, shape)], [vi("y", F32, out_shape)], [x], [y])


def clip_bounds_cast():
    """Clip (opset 13) whose bounds come from Constant nodes through Cast, as
    tf2onnx writes them: a double constant cast to float. y0 = Clip(x, -1.5,
    2.25); y1 = Clip(x, '', 0.75) with the min left empty (no lower bound);
    y2 = Clip(x, 0.0) with the max omitted (trailing input absent), i.e. a
    Relu. Checks that casted constant bounds fold and that an empty bound
    means 'unbounded', not 0."""
    md = Model()
    shape = (2, 3, 4, 5)
    x = rng.uniform(-4, 4, shape).astype(np.float32)

    def bound(name, v):
        c = md.constant(name + "_d", np.float64(v))
        return md.node("Cast", [c], [name], to=F32)

    md.node("Clip", ["x", bound("lo0", -1.5), bound("hi0", 2.25)], ["y0"])
    md.node("Clip", ["x", "", bound("hi1", 0.75)], ["y1"])
    md.node("Clip", ["x", bound("lo2", 0.0)], ["y2"])
    y0 = np.clip(x, np.float32(-1.5), np.float32(2.25))
    y1 = np.minimum(x, np.float32(0.75))
    y2 = np.maximum(x, np.float32(0.0))
    md.save("clip_bounds_cast", [vi("x", F32, shape)], [vi("y%d" % k, F32, shape) for k in range(3)],
            [x], [y0, y1, y2])


def pad_case(name, torch_pad, shape):
    md = Model()
    x = rng.uniform(-3, 3, shape).astype(np.float32)
    rank = len(shape)
    pads = md.constant("pad", np.array(torch_pad, np.int64))
    # extension = rank * 2 - len(pad), zeros of that length
    ext = md.node("Sub", [md.node("Mul", [md.constant("rank", np.array([rank], np.int64)),
                                          md.constant("two", np.array([2], np.int64))], ["rank2"]),
                          md.node("Shape", [pads], ["padlen"])], ["ext"])
    zeros = md.node("ConstantOfShape", [ext], ["zeros"], value=numpy_helper.from_array(np.array([0], np.int64), "zv"))
    cat = md.node("Concat", [md.node("Cast", [pads], ["pad64"], to=I64), zeros], ["cat"], axis=0)
    r2 = md.node("Reshape", [cat, md.constant("sh_m1_2", np.array([-1, 2], np.int64))], ["r2"])
    flip = md.node("Slice", [r2, md.constant("fs", np.array([-1], np.int64)), md.constant("fe", np.array([INT64_MIN_ISH], np.int64)),
                             md.constant("fa", np.array([0], np.int64)), md.constant("fst", np.array([-1], np.int64))], ["flip"])
    tr = md.node("Transpose", [flip], ["tr"], perm=[1, 0])
    flat = md.node("Reshape", [tr, md.constant("sh_m1", np.array([-1], np.int64))], ["flatpads"])
    onnx_pads = md.node("Cast", [flat], ["onnx_pads"], to=I64)
    md.node("Pad", ["x", onnx_pads, md.constant("cval", np.float32(0.0))], ["y"], mode="constant")
    # torch's pad: pairs (begin, end) from the last axis backwards.
    widths = [(0, 0)] * rank
    for k in range(len(torch_pad) // 2):
        widths[rank - 1 - k] = (torch_pad[2 * k], torch_pad[2 * k + 1])
    y = np.pad(x, widths, mode="constant", constant_values=0.0)
    md.save(name, [vi("x", F32, shape)], [vi("y", F32, y.shape)], [x], [y])


def pad_torch_chain():
    """F.pad(x, (1, 1, 2, 2)) as torch.onnx writes it at opset 13 (without
    constant folding): Constant pads, ConstantOfShape zeros of length
    rank * 2 - len(pads), Concat, Reshape(-1, 2), Slice(starts -1, ends
    -INT64_MAX, axes 0, steps -1) (a flip), Transpose(perm [1, 0]),
    Reshape(-1), Cast(INT64) -> Pad(mode 'constant', constant_value 0.0 as an
    input). The chain evaluates to ONNX pads [0, 0, 2, 1, 0, 0, 2, 1]."""
    pad_case("pad_torch_chain", (1, 1, 2, 2), (1, 3, 4, 5))


def pad_torch_chain_asymmetric():
    """The same torch chain with asymmetric pads F.pad(x, (0, 2, 3, 1)) (last
    axis: 0 before, 2 after; H: 3 before, 1 after), ONNX pads
    [0, 0, 3, 0, 0, 0, 1, 2]: checks begin/end are not swapped and the axes
    not reversed when the chain folds."""
    pad_case("pad_torch_chain_asymmetric", (0, 2, 3, 1), (1, 2, 4, 5))


def reshape_shape_chain():
    """x.view(x.size(0), -1) as torch.onnx writes it: Shape -> Gather(0) ->
    Unsqueeze -> Concat with Constant [-1] -> Reshape, then a Relu. Checks
    that the shape chain folds to [2, 60] and the data keeps row-major order."""
    md = Model()
    shape = (2, 3, 4, 5)
    x = rng.uniform(-3, 3, shape).astype(np.float32)
    shp = md.node("Shape", ["x"], ["shape"])
    g = md.node("Gather", [shp, md.constant("g0", np.int64(0))], ["n"], axis=0)
    u = md.node("Unsqueeze", [g, md.constant("ua", np.array([0], np.int64))], ["nu"])
    tgt = md.node("Concat", [u, md.constant("m1", np.array([-1], np.int64))], ["target"], axis=0)
    md.node("Reshape", ["x", tgt], ["flat"])
    md.node("Relu", ["flat"], ["y"])
    y = np.maximum(x.reshape(2, -1), np.float32(0))
    md.save("reshape_shape_chain", [vi("x", F32, shape)], [vi("y", F32, y.shape)], [x], [y])


def if_on_shape():
    """Two Ifs whose conditions are Equal(Gather(Shape(x), k), Constant) and
    fold to constants: y0's condition (x.shape[0] == 1) is true, y1's
    (x.shape[1] == 3, but it is 4) is false. Each then_branch computes
    Relu(x) and each else_branch Neg(x) (both read x from the outer scope),
    so taking the wrong branch, or always the same one, fails."""
    md = Model()
    shape = (1, 4, 5)
    x = rng.uniform(-3, 3, shape).astype(np.float32)
    shp = md.node("Shape", ["x"], ["shape"])
    for k, (axis, val) in enumerate(((0, 1), (1, 3))):
        d = md.node("Gather", [shp, md.constant("gi%d" % k, np.int64(axis))], ["d%d" % k], axis=0)
        c = md.node("Equal", [d, md.constant("cv%d" % k, np.int64(val))], ["cond%d" % k])
        then_g = h.make_graph([h.make_node("Relu", ["x"], ["t%d" % k])], "then%d" % k, [], [vi("t%d" % k, F32, shape)])
        else_g = h.make_graph([h.make_node("Neg", ["x"], ["e%d" % k])], "else%d" % k, [], [vi("e%d" % k, F32, shape)])
        md.node("If", [c], ["y%d" % k], then_branch=then_g, else_branch=else_g)
    y0 = np.maximum(x, np.float32(0))  # shape[0] == 1: then
    y1 = -x                            # shape[1] == 4 != 3: else
    md.save("if_on_shape", [vi("x", F32, shape)], [vi("y0", F32, shape), vi("y1", F32, shape)], [x], [y0, y1])


def dropout_mask_unused():
    """Dropout (opset 13) in inference with both outputs declared (output and
    mask) and a ratio input, the mask unused, followed by a Relu. In inference
    (training_mode absent = false) the output is the input: y = Relu(x)."""
    md = Model()
    shape = (2, 3, 4, 5)
    x = rng.uniform(-3, 3, shape).astype(np.float32)
    md.node("Dropout", ["x", md.constant("ratio", np.float32(0.1))], ["d", "mask"])
    md.node("Relu", ["d"], ["y"])
    md.save("dropout_mask_unused", [vi("x", F32, shape)], [vi("y", F32, shape)], [x], [np.maximum(x, np.float32(0))])


def dropout_mask_used():
    """Dropout (opset 13) in inference whose mask is applied the way some
    exports do: Cast(mask: bool -> FLOAT) -> Mul with the output. In inference
    the mask is all true, so y = x * 1 = x."""
    md = Model()
    shape = (2, 3, 4, 5)
    x = rng.uniform(-3, 3, shape).astype(np.float32)
    md.node("Dropout", ["x", md.constant("ratio", np.float32(0.25))], ["d", "mask"])
    md.node("Cast", ["mask"], ["maskf"], to=F32)
    md.node("Mul", ["d", "maskf"], ["y"])
    md.save("dropout_mask_used", [vi("x", F32, shape)], [vi("y", F32, shape)], [x], [x.copy()])


def qdq_conv_common(name, bias_kind):
    md = Model()
    shape, m_out = (1, 3, 6, 7), 4
    xs, xz = np.float32(0.04), 128
    x = safe_input(shape, xs, xz, np.uint8)
    wq = rng.integers(-100, 101, (m_out, 3, 3, 3)).astype(np.int8)
    ws = rng.uniform(0.003, 0.02, m_out).astype(np.float32)
    ys, yz = np.float32(0.08), -3
    dx = md.qdq("x", xs, xz, np.uint8)
    dw = md.dq_const(wq, ws, np.zeros(m_out, np.int8), axis=0)
    if bias_kind == "float":
        bf = rng.uniform(-1.5, 1.5, m_out).astype(np.float32)
        db = md.init("bias", bf)
    else:
        bs = np.float32(0.0009)  # not xs * ws[c] (0.00012 .. 0.0008)
        bq = rng.integers(-2000, 2001, m_out).astype(np.int32)
        db = md.dq_const(bq, bs, np.int32(0))
        bf = dequant(bq, bs, 0)
    md.node("Conv", [dx, dw, db], ["conv"], pads=[1, 1, 1, 1], kernel_shape=[3, 3])
    md.q("conv", ys, yz, np.int8, "y")
    rx = dequant(quant(x, xs, xz, np.uint8), xs, xz)
    rw = dequant(wq, ws.reshape(-1, 1, 1, 1), 0)
    ref = conv2d(rx, rw, bf, 1, [1, 1, 1, 1], 1)
    check_ties(ref, ys, name)
    y = quant(ref, ys, yz, np.int8)
    md.save(name, [vi("x", F32, shape)], [vi("y", I8, y.shape)], [x], [y])


def qdq_conv_float_bias():
    """A QDQ convolution as onnxruntime's quantizer writes it, but with the
    bias left as a float initializer: Q/DQ (uint8, zero point 128) on the
    input, DequantizeLinear of int8 per-channel weights (axis 0, zero points
    0), Conv(x_dq, w_dq, b_float), QuantizeLinear to int8. Reference: float64
    conv of the dequantized values plus the float bias, cast to float32, then
    QuantizeLinear (round half to even, saturate)."""
    qdq_conv_common("qdq_conv_float_bias", "float")


def qdq_conv_bias_other_scale():
    """As qdq_conv_float_bias, but the bias is an int32 initializer through
    DequantizeLinear at a per-tensor scale 0.0009 that differs from every
    input_scale * weight_scale[c] (zero point 0): the bias must be rescaled to
    the accumulator scale, not reinterpreted."""
    qdq_conv_common("qdq_conv_bias_other_scale", "other_scale")


def classifier_float_bias(name, xs, xz, ws, ys, yz, bias):
    """DequantizeLinear(int8 activations [1, 40], after the input's
    QuantizeLinear) -> MatMul with DequantizeLinear(int8 weights [40, 12], per
    tensor) -> Add(the float bias initializer `bias()` draws) ->
    QuantizeLinear (int8). Reference: float64 matmul of the dequantized values
    plus the bias, cast to float32, then QuantizeLinear (saturating)."""
    md = Model()
    k_, n_ = 40, 12
    x = safe_input((1, k_), xs, xz, np.int8)
    wq = rng.integers(-127, 128, (k_, n_)).astype(np.int8)
    bf = bias(n_)
    dx = md.qdq("x", xs, xz, np.int8)
    dw = md.dq_const(wq, ws, np.int8(0))
    md.node("MatMul", [dx, dw], ["mm"])
    md.node("Add", ["mm", md.init("bias", bf)], ["logits"])
    md.q("logits", ys, yz, np.int8, "y")
    rx = dequant(quant(x, xs, xz, np.int8), xs, xz).astype(np.float64)
    ref = (rx @ dequant(wq, ws, 0).astype(np.float64) + bf.astype(np.float64)).astype(np.float32)
    check_ties(ref, ys, name)
    y = quant(ref, ys, yz, np.int8)
    md.save(name, [vi("x", F32, (1, k_))], [vi("y", I8, (1, n_))], [x], [y])


def qdq_classifier_float_bias():
    """The classifier pattern (classifier_float_bias) with a float bias in
    [-2, 2]: requantized at the accumulator scale, one integer matmul."""
    classifier_float_bias("qdq_classifier_float_bias", np.float32(0.03), -5, np.float32(0.004),
                          np.float32(0.05), -3, lambda n: rng.uniform(-2, 2, n).astype(np.float32))


def weight_only_conv():
    """A float convolution whose weights are int8 initializers through
    DequantizeLinear (per channel, axis 0, zero points 0), float activations
    and a float bias, float output. Reference: weights dequantized in float32
    as DequantizeLinear defines, conv accumulated in float64, cast to float32."""
    md = Model()
    shape, m_out = (1, 3, 6, 7), 5
    x = rng.uniform(-1, 1, shape).astype(np.float32)
    wq = rng.integers(-127, 128, (m_out, 3, 3, 3)).astype(np.int8)
    ws = rng.uniform(0.002, 0.01, m_out).astype(np.float32)
    bf = rng.uniform(-0.5, 0.5, m_out).astype(np.float32)
    dw = md.dq_const(wq, ws, np.zeros(m_out, np.int8), axis=0)
    md.node("Conv", ["x", dw, md.init("bias", bf)], ["y"], pads=[1, 1, 1, 1], kernel_shape=[3, 3])
    y = conv2d(x, dequant(wq, ws.reshape(-1, 1, 1, 1), 0), bf, 1, [1, 1, 1, 1], 1)
    md.save("weight_only_conv", [vi("x", F32, shape)], [vi("y", F32, y.shape)], [x], [y])


def weight_only_matmul():
    """A float MatMul whose weights are an int8 initializer through
    DequantizeLinear (per tensor, zero point 0), float activations, float
    output. Reference: weights dequantized in float32, matmul accumulated in
    float64, cast to float32."""
    md = Model()
    x = rng.uniform(-1, 1, (3, 16)).astype(np.float32)
    wq = rng.integers(-127, 128, (16, 8)).astype(np.int8)
    ws = np.float32(0.0075)
    dw = md.dq_const(wq, ws, np.int8(0))
    md.node("MatMul", ["x", dw], ["y"])
    y = (x.astype(np.float64) @ dequant(wq, ws, 0).astype(np.float64)).astype(np.float32)
    md.save("weight_only_matmul", [vi("x", F32, (3, 16))], [vi("y", F32, y.shape)], [x], [y])


def qdq_classifier_float_bias_past_int32():
    """The classifier pattern (classifier_float_bias) with a float bias one
    channel of which has no int32 at the accumulator scale (25 / (0.001 *
    0.00001) > 2^31): the model is valid, and its MatMul, Add and
    QuantizeLinear are computed in f32 as written."""
    def bias(n):
        b = rng.uniform(-0.1, 0.1, n).astype(np.float32)
        b[5] = np.float32(25.0)
        return b
    classifier_float_bias("qdq_classifier_float_bias_past_int32", np.float32(0.001), 3,
                          np.float32(0.00001), np.float32(0.0005), 2, bias)


def weight_only_reshaped():
    """Weight-only quantization with the weights reshaped after their
    DequantizeLinear (int8 [128] -> [16, 8]), as exporters write flattened
    initializers: the reshape is a view of a constant. Reference: weights
    dequantized in float32, matmul accumulated in float64, cast to float32."""
    md = Model()
    x = rng.uniform(-1, 1, (3, 16)).astype(np.float32)
    wq = rng.integers(-127, 128, (128,)).astype(np.int8)
    ws = np.float32(0.01)
    dw = md.dq_const(wq, ws, np.int8(0))
    md.node("Reshape", [dw, md.init("shape", np.array([16, 8], np.int64))], ["w"])
    md.node("MatMul", ["x", "w"], ["y"])
    w = dequant(wq, ws, 0).reshape(16, 8).astype(np.float64)
    y = (x.astype(np.float64) @ w).astype(np.float32)
    md.save("weight_only_reshaped", [vi("x", F32, (3, 16))], [vi("y", F32, y.shape)], [x], [y])


def conv_transpose_output_padding():
    """ConvTranspose (stride 2, 3x3) whose end pads (3) exceed the dilated
    kernel's extent (2) but are made up by output_padding (1), as torch's
    ConvTranspose2d(padding, output_padding) exports after an asymmetric crop:
    the spread input needs no negative padding, so it lowers. Reference: the
    operator's definition, each input element scattered into the full output
    (float64), then the pads cropped, cast to float32."""
    md = Model()
    x = rng.uniform(-1, 1, (1, 2, 4, 4)).astype(np.float32)
    w = rng.uniform(-1, 1, (2, 3, 3, 3)).astype(np.float32)
    s_, pads, outpad = 2, [0, 0, 3, 3], [1, 1]
    md.node("ConvTranspose", ["x", md.init("w", w)], ["y"], strides=[s_, s_], pads=pads,
            output_padding=outpad, kernel_shape=[3, 3])
    n_, c_, h_, w_ = x.shape
    full = np.zeros((n_, w.shape[1], s_ * (h_ - 1) + 3 + outpad[0], s_ * (w_ - 1) + 3 + outpad[1]))
    for i in range(h_):
        for j in range(w_):
            full[:, :, i * s_:i * s_ + 3, j * s_:j * s_ + 3] += np.einsum(
                "nc,cmab->nmab", x[:, :, i, j].astype(np.float64), w.astype(np.float64))
    y = full[:, :, pads[0]:full.shape[2] - pads[2], pads[1]:full.shape[3] - pads[3]].astype(np.float32)
    md.save("conv_transpose_output_padding", [vi("x", F32, x.shape)], [vi("y", F32, y.shape)], [x], [y])


def conv_transpose_3d():
    """A 3-D ConvTranspose (a volumetric decoder's upsampling: stride 2 in
    every axis, pads, constant weights, two groups), expanded into a spread
    input and a 3-D convolution that graph-fold-depth folds. Reference: the
    definition, each input element scattered into the full output (float64),
    then the pads cropped."""
    md = Model()
    x = rng.uniform(-1, 1, (1, 4, 3, 4, 3)).astype(np.float32)
    w = rng.uniform(-1, 1, (4, 2, 2, 3, 3)).astype(np.float32)
    g, s_, pads = 2, 2, [0, 1, 1, 1, 0, 1]
    md.node("ConvTranspose", ["x", md.init("w", w)], ["y"], strides=[s_] * 3, pads=pads, group=g)
    n_, c_, d_, h_, w_ = x.shape
    cg, mg = c_ // g, w.shape[1]
    k = w.shape[2:]
    full = np.zeros((n_, g * mg, s_ * (d_ - 1) + k[0], s_ * (h_ - 1) + k[1], s_ * (w_ - 1) + k[2]))
    for gi in range(g):
        xs = x[:, gi * cg:(gi + 1) * cg].astype(np.float64)
        ws = w[gi * cg:(gi + 1) * cg].astype(np.float64)
        for a in range(d_):
            for i in range(h_):
                for j in range(w_):
                    full[:, gi * mg:(gi + 1) * mg, a * s_:a * s_ + k[0], i * s_:i * s_ + k[1],
                         j * s_:j * s_ + k[2]] += np.einsum("nc,cmabe->nmabe", xs[:, :, a, i, j], ws)
    y = full[:, :, pads[0]:full.shape[2] - pads[3], pads[1]:full.shape[3] - pads[4],
             pads[2]:full.shape[4] - pads[5]].astype(np.float32)
    md.save("conv_transpose_3d", [vi("x", F32, x.shape)], [vi("y", F32, y.shape)], [x], [y])


def kv_cache_empty_past():
    """A decoder's first step: the past keys and values are graph inputs with
    no entries yet ([1, 2, 0, 4]), concatenated with this step's (Concat
    drops the empty part), and the present cache returned; a Slice past the
    end gives an empty output. Reference: numpy."""
    md = Model()
    x = rng.uniform(-1, 1, (1, 3, 8)).astype(np.float32)
    past = np.zeros((1, 2, 0, 4), np.float32)
    wk = rng.uniform(-1, 1, (8, 8)).astype(np.float32)
    md.node("MatMul", ["x", md.init("wk", wk)], ["k"])
    md.node("Reshape", ["k", md.init("heads", np.array([1, 3, 2, 4], np.int64))], ["kh"])
    md.node("Transpose", ["kh"], ["kt"], perm=[0, 2, 1, 3])
    md.node("Concat", ["past_k", "kt"], ["present_k"], axis=2)
    md.node("Slice", ["present_k", md.init("s", np.array([5], np.int64)), md.init("e", np.array([9], np.int64)),
                      md.init("a", np.array([2], np.int64))], ["beyond"])
    k = (x.astype(np.float64) @ wk.astype(np.float64)).astype(np.float32).reshape(1, 3, 2, 4).transpose(0, 2, 1, 3)
    md.save("kv_cache_empty_past", [vi("x", F32, x.shape), vi("past_k", F32, past.shape)],
            [vi("present_k", F32, k.shape), vi("beyond", F32, (1, 2, 0, 4))], [x, past], [k, k[:, :, 5:9]])


for test in (resize_sizes_from_shape, resize_scales_computed, clip_bounds_cast, pad_torch_chain,
             pad_torch_chain_asymmetric, reshape_shape_chain, if_on_shape, dropout_mask_unused, dropout_mask_used,
             qdq_conv_float_bias, qdq_conv_bias_other_scale, qdq_classifier_float_bias, weight_only_conv,
             weight_only_matmul, qdq_classifier_float_bias_past_int32, weight_only_reshaped,
             conv_transpose_output_padding, conv_transpose_3d, kv_cache_empty_past):
    test()
