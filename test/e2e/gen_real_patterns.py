#!/usr/bin/python3
"""Generates the real-patterns suite: the layers that stopped models users
brought (issue #27), each a small model compiled without --allow-unverified
(npuc-conformance --strict): the cases the verification grid proves must be
what these everyday layers land in, and the defects those models exposed
stay fixed.

- concat_one_input, concat_ssd_heads: Concat of one f32 input, and of six
  flattened box heads (SSD);
- conv_strided_unpadded_bias, conv_grouped_unpadded, conv1d_depthwise_padded:
  f32 convolutions as TensorFlow and PyTorch export them;
- yolo_focus: YOLOv5's focus stem, four strided Slices and a Concat;
- transpose_uint8_zero_point: a TFLite-converted QDQ Transpose on uint8 with
  a zero point;
- qdq_pointwise_per_channel_no_bias: a 1x1 QDQ convolution, per-channel int8
  weights, no bias (the lowering built a drain its verifier rejects);
- qdq_float_weights_bias: weights and bias as float initializers through
  QuantizeLinear -> DequantizeLinear, the bias int8 at its own scale (folded
  at compile time, requantized to the accumulator scale);
- qmatmul_weights_left_batched: quantized 2-D weights on the left of a
  batched right operand;
- pad_channels: Pad of the channel axis by more planes than a tile holds
  (MediaPipe);
- clip_runtime_bounds: Clip whose bounds a ReduceMin/ReduceMax computes;
- gather_indices_2d, gather_scalar_index: Gather by constant indices of two
  dimensions (a negative one, a repeat) and of none (the axis goes), copies
  to the indices as one axis and a view to the result's shape.
- mod_float: Mod of floats (fmod = 1) over mixed signs and magnitudes, exact
  multiples and quotients that round up to the next integer (0.3 / 0.1);
- alexnet_lrn: an AlexNet/GoogLeNet-era stem (issue #29): Conv, Relu, LRN
  (size 5, AlexNet's), MaxPool, Conv, Relu, LRN (size 3, even window
  halves), global pooling and a classifier;
- convtranspose_runtime_weights: ConvTranspose whose weights are a graph
  input (a hypernetwork's, or a model exported with its weights fed), grouped,
  strided, its begin pad past the kernel (a crop) and output_padding;
- conv3d_grouped_dilated, pool3d_ceil_count_pad, maxpool3d_dilated: 3-D
  convolution and pooling (video and volumetric models) with groups,
  per-axis strides, dilations and pads, ceil_mode and count_include_pad;
- resize_cubic_sizes: cubic Resize by sizes on two axes (align_corners,
  a = -0.5, exclude_outside);
- topk_detection_scores, topk_smallest_ties: TopK of a detector's class
  scores (k = 5 of 80 along the last axis) and the smallest along axis 0
  with tied values (the lower index first);
- reversesequence_lengths: ReverseSequence (time axis 0) with lengths 0, 1,
  the full length and one between; det_3x3_batched: Det of [2, 3, 3, 3];
- pow_int_exact, pow_int_float_exponent: Pow of int32 bases by run-time
  int32 exponents (results up to 2^30, exact where an f32 power is not;
  negative bases, 0^0, negative exponents truncated as 1 / b^|e|) and by
  f32 exponents (whole ones exact, others truncated toward zero);
- embedding_kv_cache_scatternd: token embeddings (Gather of a table by
  run-time ids) written into a KV cache at run-time positions (ScatterND),
  then the scores of the new tokens against the whole cache;
- scatter_elements_max_duplicates, scatter_elements_mul_negative: the
  opset-18 reductions with duplicate and negative indices;
- gathernd_batch_int32: GatherND with batch_dims 1 of int32 data, negative
  indices (exact selection of integers);
- concat_batched_f32: a Concat along channels of batched f32 inputs whose
  slabs exceed npu-v1-tiny's LM (its tiling counted 2 bytes per f32
  element and took them whole: NPUC-E0402);
- segnet_pool_unpool: SegNet's encoder/decoder pair: MaxPool with its Indices
  (padded, ties among small integers: the first position wins), a Relu on
  the values, MaxUnpool back to the input's shape (the unpooled shape, 7x7)
  by those indices.

Expected outputs come from scripts/onnx_reference (numpy implementations of
the ONNX definitions), independent of npuc.

usage: gen_real_patterns.py OUTDIR
"""
import os
import sys

import numpy as np
from onnx import helper as h

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_builder import save_reference_test  # noqa: E402
import onnx_reference  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(20261205)


def save(name, nodes, feeds, outputs, inits=(), opset=17):
    save_reference_test(out, name, nodes, feeds, outputs, inits, opset)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


N = h.make_node

save("concat_one_input", [N("Concat", ["x"], ["y"], axis=1)], {"x": f32(1, 5, 3, 4)}, ["y"])

heads = {"h%d" % i: f32(1, 4 * (i + 1) * 3, 5 - i // 2, 5 - i // 2) for i in range(6)}
nodes, flat = [], []
for name, v in heads.items():
    nodes.append(N("Reshape", [name, "shape4"], [name + "_r"]))
    flat.append(name + "_r")
nodes.append(N("Concat", flat, ["boxes"], axis=1))
save("concat_ssd_heads", nodes, heads, ["boxes"], [("shape4", np.asarray([1, -1, 4], np.int64))])

save("conv_strided_unpadded_bias", [N("Conv", ["x", "w", "b"], ["y"], strides=[2, 2])],
     {"x": f32(1, 8, 17, 16)}, ["y"], [("w", f32(12, 8, 3, 3)), ("b", f32(12))])
save("conv_grouped_unpadded", [N("Conv", ["x", "w", "b"], ["y"], group=2)],
     {"x": f32(1, 8, 11, 13)}, ["y"], [("w", f32(6, 4, 3, 3)), ("b", f32(6))])
save("conv1d_depthwise_padded", [N("Conv", ["x", "w"], ["y"], group=16, pads=[2, 2])],
     {"x": f32(1, 16, 40)}, ["y"], [("w", f32(16, 1, 5))])

focus, parts = [], []
for i, (r, c) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1)]):
    focus.append(N("Slice", ["img", "st%d" % i, "en", "ax", "sp"], ["s%d" % i]))
    parts.append("s%d" % i)
focus.append(N("Concat", parts, ["focus"], axis=1))
inits = [("en", np.asarray([64, 64], np.int64)), ("ax", np.asarray([2, 3], np.int64)),
         ("sp", np.asarray([2, 2], np.int64))]
inits += [("st%d" % i, np.asarray([r, c], np.int64)) for i, (r, c) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1)])]
save("yolo_focus", focus, {"img": f32(1, 3, 64, 64)}, ["focus"], inits)

# TFLite's converter: uint8 with a zero point, one quantization either side.
save("transpose_uint8_zero_point",
     [N("DequantizeLinear", ["q", "s", "z"], ["d"]), N("Transpose", ["d"], ["t"], perm=[0, 2, 3, 1]),
      N("QuantizeLinear", ["t", "s", "z"], ["y"])],
     {"q": rng.integers(0, 256, (1, 5, 6, 7)).astype(np.uint8)}, ["y"],
     [("s", np.float32(0.0235)), ("z", np.uint8(131))])

# The pointwise layer: x [1,4,6,6] int8, weights [3,4,1,1] int8 per
# output channel, no bias, output requantized.
save("qdq_pointwise_per_channel_no_bias",
     [N("DequantizeLinear", ["xq", "xs", "xz"], ["x"]),
      N("DequantizeLinear", ["wq", "ws", "wz"], ["w"], axis=0),
      N("Conv", ["x", "w"], ["c"]), N("QuantizeLinear", ["c", "ys", "yz"], ["y"])],
     {"xq": rng.integers(-128, 128, (1, 4, 6, 6)).astype(np.int8)}, ["y"],
     [("xs", np.float32(0.05)), ("xz", np.int8(-3)), ("wq", rng.integers(-100, 100, (3, 4, 1, 1)).astype(np.int8)),
      ("ws", np.asarray([0.01, 0.02, 0.015], np.float32)), ("wz", np.zeros(3, np.int8)),
      ("ys", np.float32(0.11)), ("yz", np.int8(4))])

# A vendor quantizer's layer: float initializers through QuantizeLinear ->
# DequantizeLinear, the bias int8 at a scale of its own.
save("qdq_float_weights_bias",
     [N("DequantizeLinear", ["xq", "xs", "xz"], ["x"]),
      N("QuantizeLinear", ["wf", "ws", "wz"], ["wq"], axis=0), N("DequantizeLinear", ["wq", "ws", "wz"], ["w"], axis=0),
      N("QuantizeLinear", ["bf", "bs", "bz"], ["bq"]), N("DequantizeLinear", ["bq", "bs", "bz"], ["b"]),
      N("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]), N("QuantizeLinear", ["c", "ys", "yz"], ["y"])],
     {"xq": rng.integers(0, 256, (1, 6, 9, 9)).astype(np.uint8)}, ["y"],
     [("xs", np.float32(0.02)), ("xz", np.uint8(120)), ("wf", (f32(8, 6, 3, 3) * 0.3)),
      ("ws", np.asarray(np.linspace(0.004, 0.009, 8), np.float32)), ("wz", np.zeros(8, np.int8)),
      ("bf", f32(8) * 0.5), ("bs", np.float32(0.01)), ("bz", np.int8(0)),
      ("ys", np.float32(0.05)), ("yz", np.uint8(128))])

save("qmatmul_weights_left_batched",
     [N("DequantizeLinear", ["wq", "ws", "wz"], ["w"], axis=0),
      N("DequantizeLinear", ["xq", "xs", "xz"], ["x"]),
      N("MatMul", ["w", "x"], ["m"]), N("QuantizeLinear", ["m", "ys", "yz"], ["y"])],
     {"xq": rng.integers(-128, 128, (3, 24, 10)).astype(np.int8)}, ["y"],
     [("wq", rng.integers(-127, 128, (7, 24)).astype(np.int8)),
      ("ws", np.asarray(np.linspace(0.003, 0.006, 7), np.float32)), ("wz", np.zeros(7, np.int8)),
      ("xs", np.float32(0.04)), ("xz", np.int8(2)), ("ys", np.float32(0.35)), ("yz", np.int8(-5))])

# Channels 16 -> 64: more fill planes than a tile of 128 x 128 planes holds.
save("pad_channels", [N("Pad", ["x", "pads", "v"], ["y"], mode="constant")],
     {"x": f32(1, 16, 128, 128)}, ["y"],
     [("pads", np.asarray([0, 8, 0, 0, 0, 40, 0, 0], np.int64)), ("v", np.float32(0.5))])

save("clip_runtime_bounds",
     [N("ReduceMin", ["r"], ["lo"], keepdims=0), N("ReduceMax", ["r"], ["hi"], keepdims=0),
      N("Clip", ["x", "lo", "hi"], ["y"])],
     {"x": f32(2, 3, 8, 9) * 2, "r": f32(5)}, ["y"])

save("gather_indices_2d", [N("Gather", ["x", "ids"], ["y"], axis=1)], {"x": f32(3, 7, 5)}, ["y"],
     [("ids", np.asarray([[6, 0], [2, 2], [-1, 4]], np.int64))])
save("gather_scalar_index", [N("Gather", ["x", "ids"], ["y"], axis=0)],
     {"x": rng.integers(-128, 128, (6, 4)).astype(np.int8)}, ["y"], [("ids", np.asarray(-2, np.int64))])

save("alexnet_lrn",
     [N("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[5, 5], strides=[2, 2], pads=[2, 2, 2, 2]),
      N("Relu", ["c1"], ["r1"]),
      N("LRN", ["r1"], ["n1"], size=5, alpha=1e-4, beta=0.75, bias=2.0),
      N("MaxPool", ["n1"], ["p1"], kernel_shape=[3, 3], strides=[2, 2]),
      N("Conv", ["p1", "w2", "b2"], ["c2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
      N("Relu", ["c2"], ["r2"]),
      N("LRN", ["r2"], ["n2"], size=4, alpha=2e-4, beta=0.75, bias=1.0),
      N("GlobalAveragePool", ["n2"], ["g"]), N("Flatten", ["g"], ["f"]),
      N("Gemm", ["f", "wf", "bf"], ["y"], transB=1)],
     {"x": f32(1, 3, 32, 32)}, ["y"],
     [("w1", f32(16, 3, 5, 5) * 0.3), ("b1", f32(16) * 0.1), ("w2", f32(24, 16, 3, 3) * 0.2),
      ("b2", f32(24) * 0.1), ("wf", f32(10, 24) * 0.3), ("bf", f32(10) * 0.1)])

mx = np.concatenate([rng.uniform(-100, 100, 200), [0.3, -0.3, 7.5, -7.5, 1e-3, 5.0, 0.0, -0.0]]).astype(np.float32)
my = np.concatenate([rng.choice([-1, 1], 200) * rng.uniform(0.1, 10, 200),
                     [0.1, 0.1, 2.5, -2.5, 3.0, 5.0, 1.5, 2.0]]).astype(np.float32)
save("mod_float", [N("Mod", ["x", "y"], ["z"], fmod=1)], {"x": mx.reshape(13, 16), "y": my.reshape(13, 16)}, ["z"])

save("convtranspose_runtime_weights",
     [N("ConvTranspose", ["x", "w"], ["y"], group=2, strides=[2, 2], pads=[3, 0, 1, 0], output_padding=[1, 0])],
     {"x": f32(1, 4, 3, 3), "w": f32(4, 3, 3, 3)}, ["y"])
save("conv3d_grouped_dilated",
     [N("Conv", ["x", "w", "b"], ["y"], group=2, strides=[2, 1, 2], pads=[1, 0, 1, 1, 1, 0], dilations=[1, 2, 1])],
     {"x": f32(1, 4, 5, 6, 6)}, ["y"], [("w", f32(6, 2, 3, 3, 3) * 0.3), ("b", f32(6) * 0.1)])
save("pool3d_ceil_count_pad",
     [N("AveragePool", ["x"], ["y"], kernel_shape=[2, 3, 3], strides=[2, 2, 2], pads=[1, 1, 1, 0, 1, 1],
        ceil_mode=1, count_include_pad=1)],
     {"x": f32(1, 2, 5, 7, 6)}, ["y"])
save("maxpool3d_dilated",
     [N("MaxPool", ["x"], ["y"], kernel_shape=[2, 2, 2], strides=[1, 2, 1], pads=[1, 0, 0, 1, 1, 1], dilations=[2, 1, 1])],
     {"x": f32(2, 3, 6, 5, 4)}, ["y"])
save("resize_cubic_sizes",
     [N("Resize", ["x", "", "", "sizes"], ["y"], mode="cubic", coordinate_transformation_mode="align_corners",
        cubic_coeff_a=-0.5, exclude_outside=1)],
     {"x": f32(1, 2, 5, 7)}, ["y"], [("sizes", np.array([1, 2, 9, 4], np.int64))])

save("topk_detection_scores", [N("TopK", ["x", "k"], ["values", "indices"], axis=-1)],
     {"x": f32(2, 10, 80)}, ["values", "indices"], [("k", np.array([5], np.int64))])
ties = np.array([[3, 1, 2], [1, 1, 2], [3, 0, 2], [1, 5, 2]], np.float32)
save("topk_smallest_ties", [N("TopK", ["x", "k"], ["values", "indices"], axis=0, largest=0)],
     {"x": ties}, ["values", "indices"], [("k", np.array([3], np.int64))])

save("reversesequence_lengths", [N("ReverseSequence", ["x", "lens"], ["y"], batch_axis=1, time_axis=0)],
     {"x": f32(5, 4, 3)}, ["y"], [("lens", np.array([0, 1, 5, 3], np.int64))])
save("det_3x3_batched", [N("Det", ["x"], ["y"])], {"x": f32(2, 3, 3, 3)}, ["y"])

pb = np.array([3, -3, 7, -1, -1, 0, 0, 2, 1, 5, 2, -2], np.int32)
pe = np.array([19, 19, 10, 7, -4, 0, 5, 30, -9, -1, 0, 3], np.int32)
pref = np.array([int(b) ** int(e) if e >= 0 else (int(b) ** -int(e) if abs(int(b)) == 1 else 0)
                 for b, e in zip(pb, pe)], np.int64).astype(np.int32)
save_reference_test(out, "pow_int_exact", [N("Pow", ["b", "e"], ["y"])], {"b": pb, "e": pe}, ["y"],
                    expected=[pref], tolerance="exact=1")
fe = np.array([2.0, 0.5, 3.0, 1.5, 10.0, 2.5], np.float32)
fb = np.array([7, 10, -4, 9, 3, 2], np.int32)
fref = np.array([int(b) ** int(e) if float(e).is_integer() else int(np.trunc(float(b) ** float(e)))
                 for b, e in zip(fb, fe)], np.int32)
save_reference_test(out, "pow_int_float_exponent", [N("Pow", ["b", "e"], ["y"])], {"b": fb, "e": fe}, ["y"],
                    expected=[fref], tolerance="exact=1")

V, D, T, P = 50, 16, 3, 12
table = f32(V, D)
save("embedding_kv_cache_scatternd",
     [N("Gather", ["table", "ids"], ["emb"], axis=0),
      N("Reshape", ["emb", "tok_shape"], ["tok"]),
      N("ScatterND", ["cache", "pos", "tok"], ["new_cache"]),
      N("Transpose", ["new_cache"], ["cache_t"], perm=[0, 2, 1]),
      N("MatMul", ["emb", "cache_t"], ["scores"])],
     {"ids": np.array([[7, 49, 0]], np.int64), "cache": f32(1, P, D),
      "pos": np.array([[[0, 5]], [[0, -1]], [[0, 6]]], np.int64)},
     ["new_cache", "scores"], [("table", table), ("tok_shape", np.array([T, 1, D], np.int64))])
save("scatter_elements_max_duplicates",
     [N("ScatterElements", ["data", "idx", "upd"], ["y"], axis=1, reduction="max")],
     {"data": f32(3, 5), "idx": np.array([[0, 0, 4], [-1, 2, 2], [1, 1, 1]], np.int64), "upd": f32(3, 3)},
     ["y"], opset=18)
save("scatter_elements_mul_negative",
     [N("ScatterElements", ["data", "idx", "upd"], ["y"], axis=0, reduction="mul")],
     {"data": f32(4, 3), "idx": np.array([[-1, 0, 2], [3, 0, -4]], np.int64), "upd": f32(2, 3)},
     ["y"], opset=18)
save("gathernd_batch_int32", [N("GatherND", ["data", "idx"], ["y"], batch_dims=1)],
     {"data": rng.integers(-1000, 1000, (2, 4, 3, 5)).astype(np.int32),
      "idx": np.array([[[1, -1], [3, 0]], [[0, 2], [-4, 1]]], np.int64)}, ["y"])

ties = rng.integers(0, 4, (2, 3, 7, 7)).astype(np.float32)
pool = N("MaxPool", ["x"], ["v", "i"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
vals, idxs = onnx_reference.evaluate_outputs(
    h.make_model(h.make_graph([pool], "p", [h.make_tensor_value_info("x", 1, [2, 3, 7, 7])],
                              [h.make_tensor_value_info("v", 1, None), h.make_tensor_value_info("i", 7, None)]),
                 opset_imports=[h.make_opsetid("", 17)]), {"x": ties})
unpooled = np.zeros(ties.size, np.float32)
unpooled[idxs.ravel()] = np.maximum(vals, 0).ravel()
save_reference_test(out, "segnet_pool_unpool",
                    [pool, N("Relu", ["v"], ["r"]),
                     N("MaxUnpool", ["r", "i", "shape"], ["y"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])],
                    {"x": ties}, ["i", "y"], [("shape", np.array([2, 3, 7, 7], np.int64))],
                    expected=[idxs, unpooled.reshape(ties.shape)])

save("concat_batched_f32", [N("Concat", ["a", "b", "c"], ["y"], axis=1)],
     {"a": f32(6, 8, 28, 28), "b": f32(6, 8, 28, 28), "c": f32(6, 8, 28, 28)}, ["y"])
