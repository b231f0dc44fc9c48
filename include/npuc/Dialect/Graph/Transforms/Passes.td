//===- Passes.td - Graph dialect passes ------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_TRANSFORMS_PASSES_TD
#define NPUC_DIALECT_GRAPH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphSimplify : Pass<"graph-simplify"> {
  let summary = "Fold algebraic identities of graph ops, keeping types and operand order";
  let description = [{
    Applies the graph ops' folders: x + 0, x - 0, x * 1, x / 1 and identity
    become x when that keeps the result type exactly. Quantized values are
    never folded (a quantized x * 1 may requantize), a broadcasting fold is
    refused, and operand direction matters: 0 - x and c - x stay. A
    reduction over axes that are not one contiguous block becomes a
    graph.transpose moving the kept axes first (in order), the reduction of
    the last axes, and a graph.reshape to the op's result.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphFoldBatchNorm : Pass<"graph-fold-batchnorm"> {
  let summary = "Fold an f32 BatchNormalization into the convolution before it";
  let description = [{
    When a convolution with constant weights (and bias) feeds only a
    BatchNormalization with constant parameters, s = gamma / sqrt(var + eps)
    scales each output channel's weights and the bias becomes
    (b - mean) * s + beta, computed in double and checked: a non-positive
    var + eps or a result outside f32 is an error at the BatchNormalization
    (contract N6), never an inf or NaN weight. Quantized models arrive with
    BatchNorm already folded by their exporters; other BatchNorms stay and
    lower as a per-channel affine.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphFuseQDQ : Pass<"graph-fuse-qdq"> {
  let summary = "Give ops between DequantizeLinear and QuantizeLinear quantized types";
  let description = [{
    An op whose every tensor operand is a graph.dequantize of a quantized value
    and whose only use is a graph.quantize becomes the same op on the
    quantized operands, with the quantize's result type as its own: the type
    is built from the quantize (the output quantization), never copied from an
    operand (contract N10). Ops whose meaning would change are left alone: a
    float operand blocks the fusion, except the constant float bias of a
    convolution (convert-graph-to-qk quantizes it at the accumulator scale).
    The dequantizes and quantizes left without users disappear.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphFoldDequantize : Pass<"graph-fold-dequantize"> {
  let summary = "Dequantize constant weights that feed float ops at compile time";
  let description = [{
    Weight-only quantization: a graph.dequantize of a constant that the
    quantized rewrites (graph-fuse-qdq, convert-graph-to-qk) left in place
    feeds float ops, and becomes the f32 constant DequantizeLinear computes,
    (q - zero point) * scale in f32, per tensor or per axis: exactly the run
    time's value. Decided for speed, not size (docs/numerics.md): the weights
    are then read once as f32 (4 bytes each) instead of dequantized on every
    run (1 byte read, 4 written, 4 read again, and a VECTOR pass); the model
    file holds them as f32. Runs after convert-graph-to-qk, which still needs
    the dequantizes of the integer kernels' operands.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphRecognize : Pass<"graph-recognize"> {
  let summary = "Recognize ops that exporters write decomposed";
  let description = [{
    Chains of f32 ops that compute one ONNX op become that op, located at
    every node of the chain: x * Clip(x + 3, 0, 6) / 6 (or times 1/6), with
    the Add, Clip and Mul used only by the chain, is graph.hard_swish. The
    fused op computes ONNX's definition (x * max(0, min(1, x / 6 + 1/2))),
    which differs from the chain's f32 roundings in the last bits: one pass
    over the tensor instead of four (docs/numerics.md). The erf GELU,
    x * 0.5 * (1 + erf(x / sqrt(2))) (x / sqrt(2) also as x * (1 / sqrt(2));
    the three factors in any grouping), is graph.gelu.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphExpandGather : Pass<"graph-expand-gather"> {
  let summary = "Express Gather of f32 data as a one-hot matrix product, linear Resize as interpolation matrices";
  let description = [{
    A graph.gather of f32 data [A, V, B] (V along `axis`; a constant table or
    an activation) becomes a one-hot matrix [N, V] of its N indices (one per
    batch, [A, N, V], when A > 1) times the data viewed as [V, B] ([A, V, B]),
    reshaped back.
    Indices computed at run time (token ids, positions) give the one-hot
    matrix by Equal with 0..V-1 (negative ids counted from the end) and a
    Cast to f32; constant indices give it as a constant. NPU-v1 has no
    data-dependent address; the product is exact (one 1 * w per sum) and
    costs A * N * V * B multiply-accumulates, so a one-hot matrix beyond
    2^26 elements (A * N * V) is left alone (no lowering: a diagnostic). A run-time id
    outside [-V, V) selects no row: its output row is 0 (ONNX leaves it
    undefined); a non-finite table entry makes its whole column non-finite
    in every row (0 * inf is NaN). graph.gather_elements of f32 data (the
    indices as wide as the data off the axis) becomes a select of the data
    where the indices equal 0..V-1, else 0, summed along the new axis: exact
    for any value, inf and NaN included. A linear or cubic graph.resize of
    f32 data is separable: along each resized axis (last to first) the data
    times an interpolation matrix [out, in]: linear, the two weights 1 - f
    and f of ONNX's coordinate (clamped to [0, in - 1]); cubic, Keys's four
    weights (cubic_coeff_a) at x0 - 1 .. x0 + 2, indices clamped to the edge,
    or renormalized without the outside ones (exclude_outside); matrices
    beyond 2^26 elements are left alone.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphExpandRecurrent : Pass<"graph-expand-recurrent"> {
  let summary = "Express LSTM, GRU and RNN as graph ops over their time steps";
  let description = [{
    Each graph.lstm, graph.gru and graph.rnn of f32 operands becomes, per
    direction, one graph.matmul of every step's input by W^T (the input
    projection hoisted out of the recurrence, plus the biases that do not
    depend on the state: all of Wb and Rb, but GRU's hidden-gate Rb, which
    the reset gate scales, when linear_before_reset), then per time step the
    recurrent product h x R^T, the gates with their activations (clip applied
    to the gates' inputs), and the state update, in ONNX's equations; the
    steps are unrolled (at most 4096 steps of all directions), the state
    passed from step to step as a value. Sequence lengths that are not all
    the sequence's length mask each step: a batch whose sequence ended keeps
    its state and outputs zeros. layout 1 transposes X and the states to
    sequence-major and the outputs back. An operand of another element type,
    or more steps, is an error at the op.

    With `gate-align` N > 1, each gate's columns of the projections (W^T,
    R^T and the biases) start at a multiple of N columns, zero columns
    between: a step's gates are slices of the products at aligned offsets,
    which the emit passes can hand from kernel to kernel in LM (VECTOR reads
    rows at aligned addresses only); the products grow by the zero columns.
    The pipeline sets it to the target's VectorAlign in f32 elements.
  }];
  let options = [Option<"gateAlign", "gate-align", "int64_t", "1",
                        "column multiple at which each gate of the products starts">];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphExpandDynamicQuantize : Pass<"graph-expand-dynamic-quantize"> {
  let summary = "Express DynamicQuantizeLinear in f32 graph ops";
  let description = [{
    A graph.dynamic_quantize becomes ONNX's definition in f32: the data's
    graph.reduce_min and graph.reduce_max (axes kept), widened to include 0,
    y_scale = (max - min) / 255, the zero point round(clip(-min / y_scale, 0,
    255)) and y = clip(round(x / y_scale) + zero point, 0, 255) cast to ui8;
    the scale and zero point are reshaped to rank 0.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphExpandLRN : Pass<"graph-expand-lrn"> {
  let summary = "Express LRN's channel window sums as a band matrix product";
  let description = [{
    A graph.lrn of f32 x [N, C, spatial...] becomes x * x, its window sums
    over channels as one graph.matmul of a constant band matrix [C, C]
    (alpha / size where channel i is in channel c's window [c - floor((size -
    1) / 2), c + ceil((size - 1) / 2)], one matrix per image when N > 1) by
    the squares viewed as [C, spatial], then + bias, graph.pow by beta and
    x divided by it: ONNX's definition with alpha / size folded into the
    band. Band matrices beyond 2^24 elements (N * C * C) are left alone.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphFoldBias : Pass<"graph-fold-bias"> {
  let summary = "Fold per-channel constant Muls and Adds into the f32 convolution before them, or into one channel-affine pass";
  let description = [{
    A constant that holds one value per channel (or one for all: its shape 1
    everywhere but the channel axis) is a channel-affine operand (contract
    N8, the decision and its measured costs in docs/numerics.md):

    - a graph.mul of an f32 graph.conv's only use by one scales that
      channel's constant weights and bias (each product in double, rounded
      once to f32; a product outside f32 leaves the Mul);
    - a graph.add of one to an f32 graph.conv's only use becomes the
      convolution's bias (added to a constant bias it has, in f32).
      Exporters write the bias so (CNTK's Plus after Convolution); as a bias
      it starts the convolution's sums in ACC instead of a pass over the
      result through GM, and a Relu after it can then fuse
      (graph-fuse-activation);
    - x * s + b, both per-channel constants, that no convolution absorbs is
      one graph.channel_affine: one pass instead of two, the same roundings.

    Convolutions of dequantized operands are left to graph-fuse-qdq.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphExpandConvTranspose : Pass<"graph-expand-conv-transpose"> {
  let summary = "Express ConvTranspose of run-time weights as a convolution";
  let description = [{
    A 2-D f32 graph.conv_transpose whose weights are not a constant (the
    kernel flips constant ones at compile time) becomes the same convolution
    in graph ops: the input spread by the strides (each element followed by
    s - 1 zeros along an axis: a pad of a [rows, n, 1] view, the trailing
    zeros sliced off), the weights [g * C / g, M / g, KH, KW] flipped in
    space (slices of step -1) and transposed per group to [M, C / g, KH, KW],
    and a stride-1 graph.conv padded by dilation * (k - 1) - pad (plus
    output_padding at the end); a negative padding crops the result instead.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphFoldDepth : Pass<"graph-fold-depth"> {
  let summary = "Express 3-D convolutions and poolings as 2-D ones";
  let description = [{
    A float graph.conv, or an f32 graph.max_pool or graph.average_pool, over
    [N, C, D, H, W] becomes 2-D ones: the data is transposed depth-major
    ([N, D, C, H, W]) and padded along D (zeros, or -inf for a max), and each
    of the KD depth taps is a strided slice along D. A convolution
    concatenates the taps along channels (per group) into [N * OD, G * KD *
    C / G, H, W] and convolves them, in one 2-D graph.conv, with the weights
    transposed to [M, KD, C / G, KH, KW] and viewed as [M, KD * C / G, KH,
    KW]; a pooling pools every depth plane over H and W first, then takes the
    taps' max, or their sum divided by each output plane's depth count (the
    taps inside the data, or inside the padded data for count_include_pad).
    The result is transposed back. More than 64 depth taps are left alone.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphLiftConv1D : Pass<"graph-lift-conv1d"> {
  let summary = "Express 1-D convolutions as 2-D ones of height 1";
  let description = [{
    A graph.conv or graph.conv_transpose over [N, C, L] becomes the 2-D one
    over [N, C, 1, L]: the input and the weights gain an axis of 1 before
    the last (a view; a constant is reshaped in place), strides and
    dilations gain a 1, output_padding a 0, and the pads [b, e] become
    [0, b, 0, e]; its [N, M, 1, L'] result is viewed as [N, M, L']. The
    same sums in the same order, so the same bits. Quantized element types
    (per-tensor, or per output channel on axis 0) carry through.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphFoldPad : Pass<"graph-fold-pad"> {
  let summary = "Fold a spatial Pad of zero into the convolution it feeds";
  let description = [{
    A constant-mode graph.pad that pads only the two spatial axes of an NCHW
    input (by non-negative amounts) with the value the convolution's own
    padding holds (0.0 for f32, bit for bit +0; for a quantized tensor a
    value that quantizes to its zero point, the pad keeping its input's
    type) feeds a graph.conv as its input: the conv reads the pad's input
    with the pads added to its own. The convolution's result is unchanged;
    the padded copy (a pass over the tensor through GM) is gone. A pad left
    without users disappears.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphComputeF16 : Pass<"graph-compute-f16"> {
  let summary = "Run float products and the VECTOR ops between them in fp16, accumulating in fp32 (--float fp16)";
  let description = [{
    Each f32 graph.matmul, graph.gemm and graph.conv (plain f32 operands and
    result) multiplies fp16 operands: a constant operand becomes an fp16
    constant (rounded to nearest even once, at compile time), any other a
    graph.cast to f16 (one cast per value, shared by its readers). The
    product accumulates in fp32 (MATRIX's F16 mode); Gemm's C and a Conv's
    bias stay f32 and join the accumulator. A VECTOR op with an fp16 kernel
    (Add, Sub, Mul, Max, Min in IEEE fp16; Relu, Sigmoid, Tanh, Exp, Neg,
    Abs, Sqrt, Erf, Clip, LeakyRelu, HardSigmoid, HardSwish, Gelu through the
    f32 map, rounded to fp16 once) runs in fp16 when it reads an fp16 value
    and every one of its users is a product or such an op; a product stores
    an fp16 result (its accumulator rounded once) when every user reads fp16.
    Everything else stays f32, reading an fp16 value through one cast back,
    and the model's inputs and outputs keep their types. The rounding is the
    error (docs/numerics.md, "fp16 compute").
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

def GraphFuseActivation : Pass<"graph-fuse-activation"> {
  let summary = "Fold the Relu or Clip after an f32 convolution into it";
  let description = [{
    An f32 graph.conv whose only user is a graph.relu or graph.clip of the
    same type takes it as its `activation` (a Clip's bounds as
    `activation_min` / `activation_max`): the lowering applies it to each
    result tile in ACC (the same VECTOR RELU, or MAX and MIN with the bounds
    in f32, the standalone ops run) before the tile is stored, so the
    convolution's result makes no extra pass through GM. The fused op stands
    at both nodes; its result is the activation's output (TensorNames.h).
    Quantized convolutions fold their activations into the requantization
    clamp instead (convert-graph-to-qk); this pass runs after it.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

#endif
