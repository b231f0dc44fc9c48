#!/usr/bin/python3
"""Writes the small ONNX models the importer tests use into the directory
argv[1]. Run with Debian's /usr/bin/python3 (python3-onnx, python3-numpy)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def save(name, nodes, inputs, outputs, inits=(), opset=13, extra_opsets=(), check=True):
    g = h.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)] + list(extra_opsets))
    m.ir_version = 8
    if check:
        onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))
    return m


def vi(name, t, shape):
    return h.make_tensor_value_info(name, t, shape)


f = T.FLOAT
# Elementwise and activations.
save("elementwise",
     [h.make_node("Add", ["x", "c"], ["a"], name="add"),
      h.make_node("Sub", ["a", "x"], ["s"], name="sub"),
      h.make_node("Relu", ["s"], ["r"], name="relu"),
      h.make_node("Clip", ["r", "lo", "hi"], ["k"], name="clip6"),
      h.make_node("LeakyRelu", ["k"], ["y"], name="leaky", alpha=0.1)],
     [vi("x", f, [1, 8, 5, 6])], [vi("y", f, [1, 8, 5, 6])],
     [nh.from_array(np.ones((6,), np.float32), "c"), nh.from_array(np.array(0, np.float32), "lo"),
      nh.from_array(np.array(6, np.float32), "hi")])

# Convolution with auto_pad, grouped; pooling with ceil_mode; Gemm.
w = np.ones((4, 2, 3, 3), np.float32)
save("nn",
     [h.make_node("Conv", ["x", "w"], ["c"], name="conv", auto_pad="SAME_UPPER", group=2, strides=[2, 2]),
      h.make_node("MaxPool", ["c"], ["p"], name="pool", kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
      h.make_node("Flatten", ["p"], ["fl"], name="flatten"),
      h.make_node("Gemm", ["fl", "g"], ["y"], name="gemm", transB=1)],
     [vi("x", f, [1, 4, 7, 7])], [vi("y", f, [1, 5])],
     [nh.from_array(w, "w"), nh.from_array(np.ones((5, 16), np.float32), "g")])

# LpPool shares the pooling window contract, SAME_UPPER included.
save("lppool", [h.make_node("LpPool", ["x"], ["y"], name="lp", kernel_shape=[2, 2], strides=[2, 2],
                            auto_pad="SAME_UPPER", p=3)],
     [vi("x", f, [1, 2, 5, 5])], [vi("y", f, [1, 2, 3, 3])])

# Softmax before opset 13 coerces to 2-D at axis.
save("softmax11", [h.make_node("Softmax", ["x"], ["y"], name="sm", axis=1)],
     [vi("x", f, [2, 3, 4])], [vi("y", f, [2, 3, 4])], opset=11)

# Opset 6: legacy broadcasting (B to A at `axis`), and equal shapes without it.
save("legacy_bcast6",
     [h.make_node("Add", ["x", "b"], ["s"], name="add", broadcast=1, axis=1),
      h.make_node("Mul", ["s", "x"], ["y"], name="mul")],
     [vi("x", f, [2, 3, 4, 5])], [vi("y", f, [2, 3, 4, 5])],
     [nh.from_array(np.arange(12, dtype=np.float32).reshape(3, 4), "b")], opset=6)
save("legacy_nobcast6", [h.make_node("Add", ["x", "b"], ["y"], name="add")],
     [vi("x", f, [2, 3]), vi("b", f, [3])], [vi("y", f, [2, 3])], opset=6, check=False)

# ReduceMean: axes attribute (opset 13) and input (opset 18) normalize alike.
save("reduce13", [h.make_node("ReduceMean", ["x"], ["y"], name="mean", axes=[-1, 1], keepdims=0)],
     [vi("x", f, [2, 3, 4])], [vi("y", f, [2])], opset=13)
save("reduce18", [h.make_node("ReduceMean", ["x", "axes"], ["y"], name="mean", keepdims=0)],
     [vi("x", f, [2, 3, 4])], [vi("y", f, [2])],
     [nh.from_array(np.array([-1, 1], np.int64), "axes")], opset=18, check=False)

# An exported shape subgraph: Shape -> Gather -> Unsqueeze -> Concat -> Reshape.
save("shape_subgraph",
     [h.make_node("Shape", ["x"], ["s"], name="shape"),
      h.make_node("Gather", ["s", "zero"], ["n"], name="gather", axis=0),
      h.make_node("Unsqueeze", ["n", "ax0"], ["n1"], name="unsq"),
      h.make_node("Concat", ["n1", "minus1"], ["target"], name="concat", axis=0),
      h.make_node("Reshape", ["x", "target"], ["y"], name="reshape")],
     [vi("x", f, [2, 3, 4])], [vi("y", f, [2, 12])],
     [nh.from_array(np.array(0, np.int64), "zero"), nh.from_array(np.array([0], np.int64), "ax0"),
      nh.from_array(np.array([-1], np.int64), "minus1")])

# Split (sizes as input, opset 13) and Slice with a negative step.
save("split_slice",
     [h.make_node("Split", ["x", "sizes"], ["a", "b"], name="split", axis=1),
      h.make_node("Slice", ["b", "st", "en", "ax", "sp"], ["y"], name="slice")],
     [vi("x", f, [2, 5])], [vi("a", f, [2, 2]), vi("y", f, [2, 2])],
     [nh.from_array(np.array([2, 3], np.int64), "sizes"), nh.from_array(np.array([-1], np.int64), "st"),
      nh.from_array(np.array([-100], np.int64), "en"), nh.from_array(np.array([1], np.int64), "ax"),
      nh.from_array(np.array([-2], np.int64), "sp")])

# QDQ around a convolution, per-channel int8 weights.
wq = np.array([[[[1, -2], [3, -4]]], [[[5, 6], [-7, 8]]]], np.int8)
save("qdq_conv",
     [h.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"], name="q_in"),
      h.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"], name="dq_in"),
      h.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"], name="dq_w", axis=0),
      h.make_node("Conv", ["xd", "wd"], ["c"], name="conv"),
      h.make_node("QuantizeLinear", ["c", "ys", "yz"], ["y"], name="q_out")],
     [vi("x", f, [1, 1, 4, 4])], [vi("y", T.UINT8, [1, 2, 3, 3])],
     [nh.from_array(np.array(0.05, np.float32), "xs"), nh.from_array(np.array(128, np.uint8), "xz"),
      nh.from_array(wq, "wq"), nh.from_array(np.array([0.5, 0.25], np.float32), "ws"),
      nh.from_array(np.array([0, 0], np.int8), "wz"), nh.from_array(np.array(0.1, np.float32), "ys"),
      nh.from_array(np.array(10, np.uint8), "yz")])

# com.microsoft QLinearAdd with its quantization parameters as inputs.
save("qlinearadd",
     [h.make_node("QLinearAdd", ["a", "as", "az", "b", "bs", "bz", "cs", "cz"], ["c"], name="qadd",
                  domain="com.microsoft")],
     [vi("a", T.INT8, [2, 3]), vi("as", f, []), vi("az", T.INT8, []), vi("b", T.INT8, [3]),
      vi("bs", f, []), vi("bz", T.INT8, []), vi("cs", f, []), vi("cz", T.INT8, [])],
     [vi("c", T.INT8, [2, 3])], extra_opsets=[h.make_opsetid("com.microsoft", 1)], check=False)
np.save(os.path.join(out, "scale.npy"), np.array(0.5, np.float32))
np.save(os.path.join(out, "zp.npy"), np.array(-3, np.int8))

# If whose condition folds: only the chosen branch is imported.
then_g = h.make_graph([h.make_node("Relu", ["x"], ["t"], name="then_relu")], "then", [], [vi("t", f, [2])])
else_g = h.make_graph([h.make_node("Neg", ["x"], ["e"], name="else_neg")], "else", [], [vi("e", f, [2])])
save("if_const",
     [h.make_node("Equal", ["k", "one"], ["cond"], name="eq"),
      h.make_node("If", ["cond"], ["y"], name="if", then_branch=then_g, else_branch=else_g)],
     [vi("x", f, [2])], [vi("y", f, [2])],
     [nh.from_array(np.array(1, np.int64), "k"), nh.from_array(np.array(1, np.int64), "one")])

# Ops imported as compositions of graph ops (OpsDecomposed.cpp).
# Hardmax along a middle axis (opset 13), and at opset 11 on the last axis
# (the 2-D coercion is the same there) or not (refused).
save("hardmax13", [h.make_node("Hardmax", ["x"], ["y"], name="hardmax", axis=1)],
     [vi("x", f, [2, 3, 4])], [vi("y", f, [2, 3, 4])])
save("hardmax11", [h.make_node("Hardmax", ["x"], ["y"], name="hardmax")],
     [vi("x", f, [2, 5])], [vi("y", f, [2, 5])], opset=11)
save("hardmax11_axis", [h.make_node("Hardmax", ["x"], ["y"], name="hardmax", axis=1)],
     [vi("x", f, [2, 3, 4])], [vi("y", f, [2, 3, 4])], opset=11)
# ReduceProd: [3, 5] along axis 1 is a halving tree 5 -> 3 -> 2 -> 1 (odd
# slices carried by a concat); two axes at opset 18, keepdims = 0.
save("reduceprod", [h.make_node("ReduceProd", ["x"], ["y"], name="prod", axes=[1])],
     [vi("x", f, [3, 5])], [vi("y", f, [3, 1])])
save("reduceprod18", [h.make_node("ReduceProd", ["x", "axes"], ["y"], name="prod", keepdims=0)],
     [vi("x", f, [4, 2, 3])], [vi("y", f, [2])],
     [nh.from_array(np.array([0, -1], np.int64), "axes")], opset=18, check=False)
save("sinh", [h.make_node("Sinh", ["x"], ["y"], name="sinh")], [vi("x", f, [2, 3])], [vi("y", f, [2, 3])])
save("cosh", [h.make_node("Cosh", ["x"], ["y"], name="cosh")], [vi("x", f, [2, 3])], [vi("y", f, [2, 3])])
save("isnan", [h.make_node("IsNaN", ["x"], ["y"], name="isnan")],
     [vi("x", f, [2, 3])], [vi("y", T.BOOL, [2, 3])])
save("isinf", [h.make_node("IsInf", ["x"], ["y"], name="isinf")],
     [vi("x", f, [2, 3])], [vi("y", T.BOOL, [2, 3])], opset=10)
save("isinf_neg", [h.make_node("IsInf", ["x"], ["y"], name="isinf", detect_positive=0)],
     [vi("x", f, [2, 3])], [vi("y", T.BOOL, [2, 3])], opset=10)
# EyeLike: a constant (k = 1, dtype int32); a 3-D input is refused.
save("eyelike", [h.make_node("EyeLike", ["x"], ["y"], name="eye", k=1, dtype=T.INT32)],
     [vi("x", f, [3, 4])], [vi("y", T.INT32, [3, 4])])
save("eyelike_3d", [h.make_node("EyeLike", ["x"], ["y"], name="eye")],
     [vi("x", f, [2, 3, 4])], [vi("y", f, [2, 3, 4])], check=False)
# CastLike: a cast to the second input's type; bfloat16 is refused.
save("castlike", [h.make_node("CastLike", ["x", "like"], ["y"], name="castlike")],
     [vi("x", f, [2, 3])], [vi("y", T.INT32, [2, 3])],
     [nh.from_array(np.array([0], np.int32), "like")], opset=15)
save("castlike_bf16", [h.make_node("CastLike", ["x", "like"], ["y"], name="castlike")],
     [vi("x", f, [2, 3]), vi("like", T.BFLOAT16, [1])], [vi("y", T.BFLOAT16, [2, 3])], opset=15)
# OneHot of int64 ids [2, 3], depth 4, values [off, on] = [-1, 5], along
# axis 1; a depth that is a graph input is not constant.
save("onehot", [h.make_node("OneHot", ["ids", "depth", "values"], ["y"], name="onehot", axis=1)],
     [vi("ids", T.INT64, [2, 3])], [vi("y", f, [2, 4, 3])],
     [nh.from_array(np.array(4, np.int64), "depth"), nh.from_array(np.array([-1, 5], np.float32), "values")],
     opset=11)
save("onehot_depth_input", [h.make_node("OneHot", ["ids", "depth", "values"], ["y"], name="onehot")],
     [vi("ids", T.INT64, [2, 3]), vi("depth", T.INT64, [])], [vi("y", f, [2, 3, None])],
     [nh.from_array(np.array([0, 1], np.float32), "values")], opset=11)

# ---- invalid models -------------------------------------------------------
save("dynamic", [h.make_node("Relu", ["x"], ["y"], name="relu")],
     [vi("x", f, ["N", 3])], [vi("y", f, ["N", 3])])
save("two_unsupported",
     [h.make_node("Relu", ["x"], ["r"], name="relu"),
      h.make_node("Bernoulli", ["r"], ["t"], name="bernoulli_node"),
      h.make_node("Unique", ["t"], ["y"], name="unique_node")],
     [vi("x", f, [3, 3])], [vi("y", f, [3, 3])], opset=15, check=False)
save("missing_input", [h.make_node("Add", ["x", "ghost"], ["y"], name="add")],
     [vi("x", f, [2])], [vi("y", f, [2])], check=False)
save("type_mismatch", [h.make_node("Add", ["x", "i"], ["y"], name="add_mixed")],
     [vi("x", f, [2]), vi("i", T.INT64, [2])], [vi("y", f, [2])], check=False)
save("cycle",
     [h.make_node("Relu", ["b"], ["a"], name="first"), h.make_node("Neg", ["a"], ["b"], name="second"),
      h.make_node("Add", ["x", "a"], ["y"], name="add")],
     [vi("x", f, [2])], [vi("y", f, [2])], check=False)
save("duplicate",
     [h.make_node("Relu", ["x"], ["y"], name="one"), h.make_node("Neg", ["x"], ["y"], name="two")],
     [vi("x", f, [2])], [vi("y", f, [2])], check=False)
save("qdq_blocked",
     [h.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], name="quant", axis=1, block_size=2),
      h.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], name="dequant", axis=1, block_size=2)],
     [vi("x", f, [2, 4])], [vi("y", f, [2, 4])],
     [nh.from_array(np.full((2, 2), 0.5, np.float32), "s"), nh.from_array(np.zeros((2, 2), np.int8), "z")],
     opset=21, check=False)
save("opset1_add", [h.make_node("Add", ["x", "x"], ["y"], name="add")],
     [vi("x", f, [2])], [vi("y", f, [2])], opset=1, check=False)
save("opset29", [h.make_node("Relu", ["x"], ["y"], name="relu")],
     [vi("x", f, [2])], [vi("y", f, [2])], opset=29, check=False)
# Opsets 25-28: what npuc cannot honour is named.
save("range_stash_f16", [h.make_node("Range", ["s", "l", "d"], ["y"], name="range", stash_type=10)], [],
     [vi("y", T.FLOAT16, None)],
     [nh.from_array(np.array(v, np.float16), n) for v, n in ((0, "s"), (2, "l"), (0.5, "d"))],
     opset=27, check=False)
save("swiglu_broadcast", [h.make_node("SwiGLU", ["a", "b"], ["y"], name="swiglu")],
     [vi("a", f, [2, 4]), vi("b", f, [4])], [vi("y", f, [2, 4])], opset=28, check=False)
save("int2_input", [h.make_node("Identity", ["x"], ["y"], name="id")],
     [vi("x", 26, [4])], [vi("y", 26, [4])], opset=25, check=False)
save("attention_window", [h.make_node("Attention", ["q", "k", "v"], ["y"], name="attention",
                                      left_window_size=4)],
     [vi(n, f, [1, 2, 4, 8]) for n in "qkv"], [vi("y", f, [1, 2, 4, 8])], opset=25, check=False)
save("overflow", [h.make_node("Relu", ["x"], ["y"], name="relu")],
     [vi("x", f, [4294967296, 4294967296])], [vi("y", f, [4294967296, 4294967296])])
# Range whose limit - start overflows int64: its element count is still exact.
save("range_wide", [h.make_node("Range", ["s", "l", "d"], ["y"], name="range")], [],
     [vi("y", T.INT64, None)],
     [nh.from_array(np.array(v, np.int64), n) for v, n in
      ((-(2**63), "s"), (2**63 - 1, "l"), (1, "d"))], opset=13, check=False)
# Folds that must check their operands: negative split sizes, an infinite float
# Range, a Reshape whose shape entries multiply past 64 bits.
i64 = lambda v, n: nh.from_array(np.array(v, np.int64), n)
save("split_negative", [h.make_node("Split", ["c", "s"], ["a", "b"], name="split")], [],
     [vi("a", T.INT64, None), vi("b", T.INT64, None)],
     [i64([1, 2, 3, 4], "c"), i64([-1, 5], "s")], check=False)
save("range_inf", [h.make_node("Range", ["s", "l", "d"], ["y"], name="range")], [],
     [vi("y", f, None)],
     [nh.from_array(np.array(v, np.float32), n) for v, n in ((0, "s"), (np.inf, "l"), (1, "d"))], check=False)
save("reshape_wide", [h.make_node("Reshape", ["c", "s"], ["y"], name="reshape")], [],
     [vi("y", T.INT64, None)], [i64([], "c"), i64([2**32, 2**32], "s")], check=False)
save("resize_huge", [h.make_node("Resize", ["x", "", "sc"], ["y"], name="resize")],
     [vi("x", f, [1, 1, 2, 2])], [vi("y", f, None)],
     [nh.from_array(np.array([1, 1, 1e30, 1], np.float32), "sc")], check=False)
save("range_mixed", [h.make_node("Range", ["s", "l", "d"], ["y"], name="range")], [],
     [vi("y", T.INT64, None)],
     [i64(0, "s"), nh.from_array(np.array(5, np.float32), "l"), i64(1, "d")], check=False)
# Run-time zero points and scales: what the corrections cannot take is named.
u8 = lambda v, n: nh.from_array(np.array(v, np.uint8), n)
save("convinteger_group_wz",
     [h.make_node("ConvInteger", ["x", "w", "", "wz"], ["y"], name="convint", group=2)],
     [vi("x", T.UINT8, [1, 2, 4, 4])], [vi("y", T.INT32, [1, 2, 2, 2])],
     [u8(np.ones((2, 1, 3, 3)), "w"), u8([1, 2], "wz")], check=False)
save("quantize_runtime_int32",
     [h.make_node("ReduceMax", ["x"], ["s"], name="scale", keepdims=0),
      h.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], name="quant")],
     [vi("x", f, [4])], [vi("y", T.INT32, [4])], [nh.from_array(np.array(0, np.int32), "z")],
     opset=21, check=False)
save("matmulinteger_zp_type",
     [h.make_node("MatMulInteger", ["a", "b", "az"], ["y"], name="mmi")],
     [vi("a", T.UINT8, [2, 3]), vi("az", T.INT8, [])], [vi("y", T.INT32, [2, 2])],
     [u8(np.ones((3, 2)), "b")], check=False)
# ConvTranspose whose output_shape would start before the full output.
save("convtranspose_output_shape_before",
     [h.make_node("ConvTranspose", ["x", "w"], ["y"], name="deconv", output_shape=[9, 5])],
     [vi("x", f, [1, 1, 3, 3]), vi("w", f, [1, 1, 3, 3])], [vi("y", f, [1, 1, 9, 5])], check=False)
# Control flow and sequences resolved at import: what cannot be is named.
loop_body = h.make_graph([h.make_node("Identity", ["c_in"], ["c_out"], name="keep"),
                          h.make_node("Relu", ["v_in"], ["v_out"], name="step")], "body",
                         [vi("i", T.INT64, []), vi("c_in", T.BOOL, []), vi("v_in", f, [2])],
                         [vi("c_out", T.BOOL, []), vi("v_out", f, [2])])
save("loop_runtime_trips", [h.make_node("Loop", ["m", "", "x"], ["y"], name="loop", body=loop_body)],
     [vi("m", T.INT64, []), vi("x", f, [2])], [vi("y", f, [2])], check=False)
then_b = h.make_graph([h.make_node("Identity", ["x"], ["t"], name="then_id")], "then", [], [vi("t", f, [2])])
else_b = h.make_graph([h.make_node("Concat", ["x", "x"], ["e"], name="else_cat", axis=0)], "else", [],
                      [vi("e", f, [4])])
save("if_runtime_shapes", [h.make_node("If", ["c"], ["y"], name="gate", then_branch=then_b, else_branch=else_b)],
     [vi("c", T.BOOL, []), vi("x", f, [2])], [vi("y", f, None)], check=False)
save("sequence_output", [h.make_node("SequenceConstruct", ["x", "x"], ["s"], name="construct")],
     [vi("x", f, [2])], [h.make_tensor_sequence_value_info("s", f, [2])], check=False)
save("sequence_at_runtime",
     [h.make_node("SequenceConstruct", ["x", "x"], ["s"], name="construct"),
      h.make_node("SequenceAt", ["s", "p"], ["y"], name="at")],
     [vi("x", f, [2]), vi("p", T.INT64, [])], [vi("y", f, [2])], check=False)
# Attention (opset 23) that npuc refuses: query heads that are not a multiple
# of the kv heads, 3-D inputs without head counts, a double softmax.
qkv = [vi("q", f, [1, 3, 4, 8]), vi("k", f, [1, 2, 5, 8]), vi("v", f, [1, 2, 5, 8])]
save("attention_heads", [h.make_node("Attention", ["q", "k", "v"], ["y"], name="attn")], qkv,
     [vi("y", f, [1, 3, 4, 8])], opset=23, check=False)
save("attention_3d_no_heads", [h.make_node("Attention", ["q", "k", "v"], ["y"], name="attn")],
     [vi("q", f, [1, 4, 16]), vi("k", f, [1, 5, 16]), vi("v", f, [1, 5, 16])], [vi("y", f, [1, 4, 16])],
     opset=23, check=False)
save("attention_double_softmax",
     [h.make_node("Attention", ["q", "k", "v"], ["y"], name="attn", softmax_precision=T.DOUBLE)],
     [vi("q", f, [1, 2, 4, 8]), vi("k", f, [1, 2, 5, 8]), vi("v", f, [1, 2, 5, 8])], [vi("y", f, [1, 2, 4, 8])],
     opset=23, check=False)
# A branch initializer shadowing an outer one: after the If, 'k' is the outer
# [1, 1] again, so y = [5, 5] + [1, 1] = [6, 6] (folded).
shadow_g = h.make_graph([h.make_node("Identity", ["k"], ["t"], name="then_id")], "then", [],
                        [vi("t", T.INT64, [2])], initializer=[i64([5, 5], "k")])
save("if_shadow",
     [h.make_node("If", ["cond"], ["b"], name="if", then_branch=shadow_g, else_branch=shadow_g),
      h.make_node("Add", ["b", "k"], ["y"], name="add")],
     [], [vi("y", T.INT64, [2])],
     [i64([1, 1], "k"), nh.from_array(np.array(True), "cond")], check=False)

# External data: one file inside the model's directory, one path escaping it.
ext = os.path.join(out, "ext")
os.makedirs(ext, exist_ok=True)
np.arange(4, dtype=np.float32).tofile(os.path.join(ext, "weights.bin"))
np.arange(4, dtype=np.float32).tofile(os.path.join(out, "outside.bin"))
if not os.path.lexists(os.path.join(ext, "link.bin")):
    os.symlink(os.path.join(out, "outside.bin"), os.path.join(ext, "link.bin"))


def external(location, offset=0, length=16):
    t = T()
    t.name = "w"
    t.data_type = f
    t.dims.append(4)
    t.data_location = T.EXTERNAL
    for k, v in (("location", location), ("offset", str(offset)), ("length", str(length))):
        e = t.external_data.add()
        e.key, e.value = k, v
    return t


for name, loc, off in (("ext_ok", "weights.bin", 0), ("ext_escape", "../outside.bin", 0),
                       ("ext_absolute", os.path.join(out, "outside.bin"), 0),
                       ("ext_symlink", "link.bin", 0), ("ext_range", "weights.bin", 8)):
    g = h.make_graph([h.make_node("Add", ["x", "w"], ["y"], name="add")], name,
                     [vi("x", f, [4])], [vi("y", f, [4])], initializer=[external(loc, off)])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    with open(os.path.join(ext, name + ".onnx"), "wb") as fh:
        fh.write(m.SerializeToString())

# CumSum, Einsum, GridSample and float64: what each cannot take is named.
d = T.DOUBLE
save("einsum_terms", [h.make_node("Einsum", ["x"], ["y"], name="ein", equation="ij,jk->ik")],
     [vi("x", f, [2, 3])], [vi("y", f, [2, 2])], opset=13, check=False)
save("einsum_broadcast", [h.make_node("Einsum", ["a", "b"], ["y"], name="ein", equation="...ij,...jk->...ik")],
     [vi("a", f, [1, 2, 3]), vi("b", f, [4, 3, 2])], [vi("y", f, [4, 2, 2])], opset=13, check=False)
save("einsum_output_label", [h.make_node("Einsum", ["a"], ["y"], name="ein", equation="ij->k")],
     [vi("a", f, [2, 3])], [vi("y", f, [2])], opset=13, check=False)
save("cumsum_axis", [h.make_node("CumSum", ["x", "axis"], ["y"], name="cs")],
     [vi("x", f, [2, 3])], [vi("y", f, [2, 3])],
     inits=[nh.from_array(np.array(2, np.int64), "axis")], opset=14, check=False)
save("cumsum_runtime_axis", [h.make_node("CumSum", ["x", "axis"], ["y"], name="cs")],
     [vi("x", f, [2, 3]), vi("axis", T.INT64, [])], [vi("y", f, [2, 3])], opset=14, check=False)
save("gridsample_3d", [h.make_node("GridSample", ["x", "g"], ["y"], name="gs")],
     [vi("x", f, [1, 1, 2, 3, 4]), vi("g", f, [1, 2, 2, 2, 3])], [vi("y", f, [1, 1, 2, 2, 2])],
     opset=20, check=False)
save("gridsample_mode", [h.make_node("GridSample", ["x", "g"], ["y"], name="gs", mode="area")],
     [vi("x", f, [1, 1, 3, 4]), vi("g", f, [1, 2, 2, 2])], [vi("y", f, [1, 1, 2, 2])], opset=16,
     check=False)
save("float64_huge", [h.make_node("Add", ["x", "w"], ["y"], name="add")],
     [vi("x", d, [2])], [vi("y", d, [2])],
     inits=[nh.from_array(np.array([1.0, 1e300]), "w")], opset=13)
save("float64_ok", [h.make_node("Mul", ["x", "w"], ["m"], name="mul"),
                    h.make_node("Cast", ["m"], ["y"], name="cast", to=f)],
     [vi("x", d, [2])], [vi("y", f, [2])],
     inits=[nh.from_array(np.array([1.0, 2.0]), "w")], opset=13)

# New operators' refusals: a BitCast between types npuc stores as other
# bits; TensorScatter's update longer than the cache; RoiAlign's adaptive
# sampling of run-time rois; CenterCropPad's shape of the wrong length.
save("bitcast_int64", [h.make_node("BitCast", ["x"], ["y"], name="bc", to=T.DOUBLE)],
     [vi("x", T.INT64, [2])], [vi("y", d, [2])], opset=26, check=False)
save("tensorscatter_long", [h.make_node("TensorScatter", ["p", "u"], ["y"], name="ts")],
     [vi("p", f, [1, 2, 4, 3]), vi("u", f, [1, 2, 5, 3])], [vi("y", f, [1, 2, 4, 3])], opset=24, check=False)
save("roialign_adaptive", [h.make_node("RoiAlign", ["x", "r", "b"], ["y"], name="roi", sampling_ratio=0)],
     [vi("x", f, [1, 1, 8, 8]), vi("r", f, [2, 4]), vi("b", T.INT64, [2])], [vi("y", f, [2, 1, 1, 1])],
     opset=16, check=False)
save("centercroppad_shape", [h.make_node("CenterCropPad", ["x", "s"], ["y"], name="ccp", axes=[0, 1])],
     [vi("x", f, [4, 4, 3])], [vi("y", f, [2, 2, 3])],
     inits=[nh.from_array(np.array([2, 2, 3], np.int64), "s")], opset=18, check=False)

# A truncated file and one that is not ONNX at all.
data = open(os.path.join(out, "elementwise.onnx"), "rb").read()
open(os.path.join(out, "truncated.onnx"), "wb").write(data[: len(data) // 2])
open(os.path.join(out, "garbage.onnx"), "wb").write(b"this is not a protobuf \xff\xff\xff")
