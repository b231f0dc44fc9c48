//===- QKOps.td - Quantized kernels ----------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_QK_IR_QKOPS_TD
#define NPUC_DIALECT_QK_IR_QKOPS_TD

include "npuc/Dialect/QK/IR/QKAttributes.td"
include "npuc/Dialect/Graph/IR/GraphTypes.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def QK_IntTensor : StaticShapeTensorOf<[I8, UI8, I32]>;
// A quantized tensor: its scale and zero point are part of a kernel's
// contract where the kernel computes through f32 on the values they define.
def QK_QuantTensor : StaticShapeTensorOf<[Graph_QuantType]>;
def QK_NarrowTensor : StaticShapeTensorOf<[I8, UI8]>;

class QK_Op<string mnemonic, list<Trait> traits = []>
    : Op<QK_Dialect, mnemonic, !listconcat(traits, [Pure])> {
  let hasVerifier = 1;
}

// A matrix product's operands and result: 8-bit integers with int32
// accumulation, or IEEE floats.
def QK_ProductTensor : StaticShapeTensorOf<[I8, UI8, F32, F16]>;
def QK_ProductResult : StaticShapeTensorOf<[I8, UI8, I32, F32, F16]>;

def QK_Conv2DOp : QK_Op<"conv2d"> {
  let summary = "2-D convolution: int8/uint8 with int32 accumulation and requantization, or float";
  let description = [{
    Integer: acc[n, m, y, x] = bias[m] + sum (in - input_zp) * (w -
    weight_zp[m]) over the window of group g = m / (M / groups), exactly in
    `acc_type` (i32); the result is `requant` applied per output channel
    (axis 1) or per tensor, or, without `requant`, the int32 accumulator
    itself (ConvInteger).

    Float (Conv of f32, or of f16 after graph-compute-f16): the same sums,
    accumulated in `acc_type` (f32) from an f32 `bias`, then the fused
    `activation` (graph-fuse-activation: relu, or clip to
    [activation_min, activation_max]), rounded once to the result type (f32,
    or f16 or f32 of f16 operands); no zero points or requantization.

    ```mlir
    %y = qk.conv2d %x, %w, %b {acc_type = f32, activation = #qk.activation<relu>,
                               dilations = array<i64: 1, 1>, groups = 1 : i64,
                               pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
        : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins QK_ProductTensor:$input, QK_ProductTensor:$weight,
                   Optional<StaticShapeTensorOf<[I32, F32]>>:$bias,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$dilations, I64Attr:$groups,
                   OptionalAttr<I64Attr>:$input_zp, OptionalAttr<DenseI64ArrayAttr>:$weight_zp,
                   TypeAttr:$acc_type, OptionalAttr<QK_RequantAttr>:$requant,
                   OptionalAttr<QK_FusedActivationAttr>:$activation,
                   OptionalAttr<F64Attr>:$activation_min, OptionalAttr<F64Attr>:$activation_max);
  let results = (outs QK_ProductResult:$result);
  let assemblyFormat = "$input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    /// The integer form (it states its zero points).
    bool isInteger() { return bool(getInputZpAttr()); }
    ::llvm::LogicalResult verifyContract();
  }];
}

def QK_MatMulOp : QK_Op<"matmul"> {
  let summary = "[M,K] x [K,N]: int8/uint8 with int32 accumulation and requantization, or float";
  let description = [{
    Integer: acc[..., m, n] = bias[n] + sum_k (lhs[..., m, k] - lhs_zp) *
    (rhs[k, n] - rhs_zp[n]) exactly in `acc_type` (i32). `requant` is per
    tensor, per output column (the last axis) or per output row (weights on
    the left); without it the result is the int32 accumulator
    (MatMulInteger).

    Float (MatMul and Gemm of f32, or of f16 after graph-compute-f16):
    alpha * op(lhs) x op(rhs) + beta * bias, accumulated in `acc_type` (f32)
    and rounded once to the result type (f32, or f16 or f32 of f16
    operands); op transposes its operand when `trans_a` / `trans_b` is set,
    `alpha` and `beta` are 1 when absent, and the f32 `bias` (Gemm's C) is
    broadcast to [M, N]. The transposes, scales and addend are Gemm's: its
    operands are 2-D. No zero points or requantization.

    Leading dimensions are a batch: of the integer form's lhs over the same
    rhs, or of both (the same batch dimensions); the float form's shapes are
    graph.matmul's (batch dimensions broadcast as ONNX's), the lowering
    refusing at the node the ones it does not lower.

    ```mlir
    %y = qk.matmul %a, %w {acc_type = f32} : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
    %g = qk.matmul %a, %v, %c {acc_type = f32, alpha = 5.000000e-01 : f32, trans_b = true}
        : (tensor<4x8xf32>, tensor<3x8xf32>, tensor<3xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins QK_ProductTensor:$lhs, QK_ProductTensor:$rhs,
                   Optional<StaticShapeTensorOf<[I32, F32]>>:$bias,
                   OptionalAttr<I64Attr>:$lhs_zp, OptionalAttr<DenseI64ArrayAttr>:$rhs_zp,
                   TypeAttr:$acc_type, OptionalAttr<QK_RequantAttr>:$requant,
                   OptionalAttr<BoolAttr>:$trans_a, OptionalAttr<BoolAttr>:$trans_b,
                   OptionalAttr<F32Attr>:$alpha, OptionalAttr<F32Attr>:$beta);
  let results = (outs QK_ProductResult:$result);
  let extraClassDeclaration = [{
    ::llvm::LogicalResult verifyFloat();
    /// Gemm's form: a transpose, a scale or an addend (2-D operands).
    bool isGemm() {
      return getTransAAttr() || getTransBAttr() || getAlphaAttr() || getBetaAttr() ||
             (getBias() && !getLhsZpAttr());
    }
  }];
  let assemblyFormat = "$lhs `,` $rhs (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

// Any tensor a binary kernel takes: f32, f16, integers, quantized.
def QK_AnyTensor : StaticShapeTensorOf<[Graph_Element]>;

def QK_ConvTransposeOp : QK_Op<"conv_transpose"> {
  let summary = "transposed convolution (ConvTranspose)";
  let description = [{
    result[n, m, ...] = bias[m] + the sum, over the input positions i and the
    window taps k with o = stride * i + dilation * k - pad_begin, of x[n, c,
    i] * w[c, m', k] (c in the group of m, m' = m mod M / group): each input
    element scattered through the window, the weights stored [C, M / group,
    k...] (input channels first, contract L2); the result's extent is
    stride * (D - 1) + output_padding + dilation * (k - 1) + 1 - the pads.
    The operands, attributes and verifier are graph.conv_transpose's (the
    importer resolved auto_pad and output_shape to `pads`); the lowering
    takes 2-D f32 with constant weights and refuses the others at the node.

    ```mlir
    %y = qk.conv_transpose %x, %w {dilations = array<i64: 1, 1>, group = 1 : i64,
                                   output_padding = array<i64: 0, 0>,
                                   pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>}
        : (tensor<1x2x3x3xf32>, tensor<2x4x2x2xf32>) -> tensor<1x4x6x6xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$x, QK_AnyTensor:$w, Optional<QK_AnyTensor>:$bias,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$dilations, DenseI64ArrayAttr:$output_padding,
                   I64Attr:$group);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$x `,` $w (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def QK_BinaryOp : QK_Op<"binary"> {
  let summary = "an elementwise binary function of two tensors, with broadcasting";
  let description = [{
    result = fn(lhs, rhs), the operands broadcast to the result's shape
    (multidirectional, as ONNX's), `fn` a VECTOR binary function of the ISA.
    f32 and f16 operands are computed in their IEEE precision; integers
    stored as i32 exactly, then saturated to int32, narrower ones wrapped to
    their width as ONNX's integers are (SHL and SRA are unsigned integers'
    bit shifts, a shift by the width or more giving 0); per-tensor quantized
    operands and result on their exact dequantized values in f32, quantized
    half to even, the scales and zero points being the types'.

    ```mlir
    %y = qk.binary %a, %b {fn = #qk.binary_fn<ADD>}
        : (tensor<1x8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$lhs, QK_AnyTensor:$rhs, QK_BinaryFnAttr:$fn);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def QK_CompareOp : QK_Op<"compare"> {
  let summary = "an elementwise comparison of two tensors, with broadcasting, to bool";
  let description = [{
    result = fn(lhs, rhs) as a bool (stored as one byte, 0 or 1), the
    operands broadcast to the result's shape (multidirectional, as ONNX's),
    `fn` a V_CMP comparison of the ISA (EQ, LT, LE, GT, GE for ONNX's Equal,
    Less, LessOrEqual, Greater, GreaterOrEqual), on the operands' values
    exactly: f32 and f16 as IEEE numbers (NaN equal to nothing), integers as
    their type's signedness says, bools as 0 and 1.

    ```mlir
    %y = qk.compare %a, %b {fn = #qk.compare_fn<LT>}
        : (tensor<1x8xf32>, tensor<8xf32>) -> tensor<1x8xi1>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$lhs, QK_AnyTensor:$rhs, QK_CompareFnAttr:$fn);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def QK_SelectOp : QK_Op<"select"> {
  let summary = "cond ? x : y elementwise, with three-way broadcasting (ONNX Where, V_SEL)";
  let description = [{
    Each element of the result is x's where `cond` is true and y's where it
    is false, the three operands broadcast to the result's shape
    (multidirectional, as ONNX's); the values are copied, not computed. The
    shapes are checked as graph.where's (one verifier).

    ```mlir
    %r = qk.select %c, %x, %y : (tensor<2x8xi1>, tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins StaticShapeTensorOf<[I1]>:$cond, QK_AnyTensor:$x, QK_AnyTensor:$y);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$cond `,` $x `,` $y attr-dict `:` functional-type(operands, results)";
}

def QK_CastOp : QK_Op<"cast"> {
  let summary = "an elementwise conversion of plain values to another element type (ONNX Cast)";
  let description = [{
    Each element converted to the result's element type as ONNX's Cast
    converts it: to bool, x != 0; float to integer, truncated toward zero;
    integer to a wider integer, exactly; to a float type, rounded to
    nearest even.
    What the conversion is follows from the two types alone, so the op has
    no attribute. Quantized types are not cast (graph.quantize,
    dequantize and storage_cast change them); the shapes and types are
    checked as graph.cast's (one verifier).

    ```mlir
    %r = qk.cast %x : (tensor<2x8xf32>) -> tensor<2x8xi32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_MapOp : QK_Op<"map"> {
  let summary = "an elementwise unary function of a tensor";
  let description = [{
    result = fn(input), `fn` a VECTOR unary function of the ISA, computed on
    the f32 value of each element (an f16 one converted, computed in f32 and
    rounded to fp16 once; a per-tensor quantized one dequantized exactly and
    the result quantized half to even, the scales and zero points being the
    types'), except RELU of a quantized input whose result keeps its
    quantization: max(q, zp) on the integers, exactly.

    ```mlir
    %y = qk.map %x {fn = #qk.unary_fn<SIGMOID>} : (tensor<1x8xf32>) -> tensor<1x8xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input, QK_UnaryFnAttr:$fn);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_NotOp : QK_Op<"not", [SameOperandsAndResultType]> {
  let summary = "logical negation of a bool tensor, bitwise of an integer one (ONNX Not, BitwiseNot)";
  let description = [{
    result = !input on bools, stored one byte each (0 or 1): VECTOR's XOR of
    each byte with 1; ~input on integers: XOR with all ones of the ONNX
    type's width (an unsigned type's, so uint8 and uint16 stay in range).
    And, Or and Xor (of bools and integers) are qk.binary's AND, OR and XOR.
    Of a float (which neither op takes) the lowering's selector refuses it
    at the node.

    ```mlir
    %y = qk.not %x : (tensor<2x3xi1>) -> tensor<2x3xi1>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  // SameOperandsAndResultType states the whole contract.
  let hasVerifier = 0;
}

//===----------------------------------------------------------------------===//
// Maps composed of several VECTOR functions, computed through f32: f32 in
// and out, f16 converted to f32 and the result rounded once, or per-tensor
// quantized input and result on the exact dequantized values, the result
// quantized half to even. Shapes are checked as the graph ops' (one verifier
// each).
//===----------------------------------------------------------------------===//

def QK_ClipOp : QK_Op<"clip"> {
  let summary = "x clamped to [min, max] (ONNX Clip, constant bounds)";
  let description = [{
    result = min(max(x, min), max), a bound left out not applied. Plain
    integers clamp exactly on their storage; floats and quantized values
    through f32.

    ```mlir
    %y = qk.clip %x {min = 0.0 : f64, max = 6.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input, OptionalAttr<F64Attr>:$min, OptionalAttr<F64Attr>:$max);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_LeakyReluOp : QK_Op<"leaky_relu"> {
  let summary = "x < 0 ? alpha * x : x (ONNX LeakyRelu)";
  let description = [{
    Computed as max(x, alpha * x) for alpha <= 1 and min(x, alpha * x)
    otherwise, which is ONNX's select exactly.

    ```mlir
    %y = qk.leaky_relu %x {alpha = 0.1 : f32} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input, F32Attr:$alpha);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_HardSigmoidOp : QK_Op<"hard_sigmoid"> {
  let summary = "max(0, min(1, alpha * x + beta)) (ONNX HardSigmoid)";
  let arguments = (ins QK_AnyTensor:$input, F32Attr:$alpha, F32Attr:$beta);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_HardSwishOp : QK_Op<"hard_swish"> {
  let summary = "x * max(0, min(1, x / 6 + 1 / 2)) (ONNX HardSwish)";
  let arguments = (ins QK_AnyTensor:$input);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_GeluOp : QK_Op<"gelu"> {
  let summary = "GELU in its erf form or its tanh approximation (ONNX Gelu)";
  let description = [{
    `none`: x / 2 * (1 + erf(x / sqrt(2))); `tanh`:
    x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))), in ONNX's order.

    ```mlir
    %y = qk.gelu %x {approximate = #qk.gelu_approximation<tanh>} : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input, QK_GeluApproximationAttr:$approximate);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_PReluOp : QK_Op<"prelu"> {
  let summary = "lhs < 0 ? lhs * slope : lhs, slope broadcast to lhs (ONNX PRelu)";
  let description = [{
    Computed as slope * min(lhs, 0) + max(lhs, 0), exact where ONNX's select
    is; f32 and per-tensor quantized operands.

    ```mlir
    %y = qk.prelu %x, %s : (tensor<1x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x4xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$lhs, QK_AnyTensor:$rhs);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def QK_PowOp : QK_Op<"pow"> {
  let summary = "lhs ^ rhs (ONNX Pow; the exponent may have another element type)";
  let description = [{
    A constant exponent the lowering computes in the cheapest exact form it
    has (identity, square, cube, sqrt, reciprocal, one), any other as
    exp(rhs * log(lhs)); an integer exponent tensor by repeated products.

    ```mlir
    %y = qk.pow %x, %e : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$lhs, QK_AnyTensor:$rhs);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def QK_PoolOp : QK_Op<"pool"> {
  let summary = "max or average pooling over sliding windows (N, C, spatial axes...)";
  let description = [{
    result[n, c, o...] = fn over the window's taps, tap i of output o at
    input position o * stride + i * dilation - pad_begin on each spatial
    axis, as ONNX's MaxPool and AveragePool define them. `max`: the largest
    tap inside the input (padding never wins). `average`: the sum of the
    taps inside the input divided by their number, or by the number inside
    the padded input with `count_include_pad`. `ceil_mode` adds the output
    windows that start inside the input or its begin padding beyond the
    floor count. f32 is computed in f32; per-tensor quantized input and
    result on the exact dequantized values (a max on the stored values,
    which is the same, dequantization being monotonic), quantized half to
    even with the result type's scale and zero point; plain 8-bit integers
    (max only) on the integers.

    ```mlir
    %y = qk.pool %x {fn = #qk.pool_fn<max>, kernel_shape = array<i64: 2, 2>,
        strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>,
        dilations = array<i64: 1, 1>, ceil_mode = false, count_include_pad = false}
        : (tensor<1x8x4x4xf32>) -> tensor<1x8x2x2xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input, QK_PoolFnAttr:$fn, DenseI64ArrayAttr:$kernel_shape,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$dilations, BoolAttr:$ceil_mode, BoolAttr:$count_include_pad);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_SoftmaxOp : QK_Op<"softmax"> {
  let summary = "softmax or log-softmax along one axis";
  let description = [{
    Along `axis`, in f32 and in ONNX's order of operations: with m the
    maximum of the elements, result = exp(x - m) / sum(exp(x - m)), or with
    `log`, result = (x - m) - log(sum(exp(x - m))). EXP and LOG are VECTOR's
    (docs/numerics.md). Per-tensor quantized input and result are computed on
    the exact dequantized values, the result quantized half to even with its
    type's scale and zero point.

    ```mlir
    %y = qk.softmax %x {axis = 1, log = false} : (tensor<2x10xf32>) -> tensor<2x10xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input, I64Attr:$axis, BoolAttr:$log);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_ReduceOp : QK_Op<"reduce"> {
  let summary = "a reduction over a block of axes, with its steps before and after";
  let description = [{
    result = post(fn over `axes` of pre(input)), in f32: `fn` is VECTOR's
    reduction (SUM, MAX, MIN); `pre` (|x|, x * x, exp(x - max)) and `post`
    (/ count, sqrt, log, log + max) are the elementwise steps ONNX's
    reductions put around a SUM, so every ONNX reduction and global pooling
    is one (fn, pre, post): ReduceMean and GlobalAveragePool are SUM and
    mean, ReduceMax and GlobalMaxPool MAX, ReduceL2 SUM of square then
    sqrt, ReduceLogSumExp SUM of shifted_exp then log_plus_max. The axes
    are kept as extent 1 with `keepdims`. Per-tensor quantized input and
    result are computed on the exact dequantized values, the result
    quantized half to even. The shapes are checked as graph.reduce_mean's
    (one verifier).

    ```mlir
    %m = qk.reduce %x {fn = #qk.reduce_fn<SUM>, pre = #qk.reduce_pre<none>,
        post = #qk.reduce_post<mean>, axes = array<i64: 2, 3>, keepdims = true}
        : (tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input, QK_ReduceFnAttr:$fn, QK_ReducePreAttr:$pre,
                   QK_ReducePostAttr:$post, DenseI64ArrayAttr:$axes, BoolAttr:$keepdims);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_ArgReduceOp : QK_Op<"arg_reduce"> {
  let summary = "the index of the maximum or minimum along one axis (ArgMax, ArgMin)";
  let description = [{
    result = the index along `axis` of the element the reduction `fn` (MAX
    or MIN) selects, the first such index, or the last with
    `select_last_index`; the axis kept as extent 1 with `keepdims`, removed
    otherwise. Elements compare as their type's values (f32, plain
    integers); indices are int64.

    ```mlir
    %i = qk.arg_reduce %x {fn = #qk.reduce_fn<MAX>, axis = 1 : i64, keepdims = true,
        select_last_index = false} : (tensor<3x5xf32>) -> tensor<3x1xi64>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input, QK_ReduceFnAttr:$fn, I64Attr:$axis,
                   BoolAttr:$keepdims, BoolAttr:$select_last_index);
  let results = (outs StaticShapeTensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_LayerNormOp : QK_Op<"layer_norm"> {
  let summary = "layer normalization over the axes from `axis` to the last";
  let description = [{
    Per row of the normalized axes, in f32 and in the order ONNX's
    definition writes the steps (contract N9): mean = sum(x) / n, d = x -
    mean, var = sum(d * d) / n, inv_std_dev = 1 / sqrt(var + epsilon),
    result = d * inv_std_dev * scale + bias (`bias` optional). `mean` and
    `inv_std_dev` are f32 with the normalized axes 1, written where used.
    Per-tensor quantized input and result are computed on the exact
    dequantized values, the result quantized half to even. The shapes are
    checked as graph.layer_norm's (one verifier).

    ```mlir
    %y, %m, %i = qk.layer_norm %x, %s, %b {axis = 2 : i64, epsilon = 1.0e-05 : f32}
        : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>)
        -> (tensor<2x5x8xf32>, tensor<2x5x1xf32>, tensor<2x5x1xf32>)
    ```
  }];
  let arguments = (ins QK_AnyTensor:$x, QK_AnyTensor:$scale, Optional<QK_AnyTensor>:$bias,
                   I64Attr:$axis, F32Attr:$epsilon);
  let results = (outs QK_AnyTensor:$result, QK_AnyTensor:$mean, QK_AnyTensor:$inv_std_dev);
  let assemblyFormat = "$x `,` $scale (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def QK_BatchNormOp : QK_Op<"batch_norm"> {
  let summary = "inference batch normalization with one parameter per channel (axis 1)";
  let description = [{
    result = scale * (x - mean) / sqrt(var + epsilon) + bias, in f32, each
    step rounded as ONNX's definition orders them, the parameters one value
    per channel (axis 1) broadcast along every other axis. The shapes are
    checked as graph.batch_norm's (one verifier).

    ```mlir
    %y = qk.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-05 : f32}
        : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
        -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$x, QK_AnyTensor:$scale, QK_AnyTensor:$bias,
                   QK_AnyTensor:$mean, QK_AnyTensor:$var, F32Attr:$epsilon);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$x `,` $scale `,` $bias `,` $mean `,` $var attr-dict `:` "
                       "functional-type(operands, results)";
}

def QK_ChannelAffineOp : QK_Op<"channel_affine"> {
  let summary = "x * scale + bias with one scale and bias per channel (axis 1)";
  let description = [{
    result = x * scale rounded to f32, + bias rounded to f32: the Mul and Add
    graph.channel_affine stands for (contract N8), in one pass, the
    parameters broadcast along every axis but 1. The shapes are checked as
    graph.channel_affine's (one verifier).

    ```mlir
    %y = qk.channel_affine %x, %s, %b
        : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$x, QK_AnyTensor:$scale, QK_AnyTensor:$bias);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$x `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)";
}

def QK_ViewOp : QK_Op<"view"> {
  let summary = "the operand's bytes read as another shape or type (Reshape, storage casts, BitCast)";
  let description = [{
    The result is the operand's bytes, dense row-major on both sides: read
    with another shape of as many elements (Reshape, Flatten, Squeeze,
    Unsqueeze; a per-axis quantized type keeps its axis where the reshape
    keeps it whole), or with the same shape as the quantized type the
    integers are stored as, or back (a storage cast), or with the same shape
    as another plain type of the same bits (BitCast: f32 and i32, f16 and
    i16, i8 and ui8). No value changes. The rules are graph.reshape's,
    graph.storage_cast's and graph.bitcast's (their verifiers): a view
    between a quantized and a plain type is a storage cast, between two
    plain types a bitcast.

    ```mlir
    %y = qk.view %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    %q = qk.view %i : (tensor<8xi8>) -> tensor<8x!quant.uniform<i8:f32, 0.5>>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_CopyOp : QK_Op<"copy", [SameOperandsAndResultElementType]> {
  let summary = "data movement: the result assembled from strided copies of the operand";
  let description = [{
    Each element of the result is one element of the operand, moved
    unchanged (a quantized value keeps its type): `pieces` lists the strided
    copies, each a `#qk.address_plan` (a box of indices, where each reads
    and where it writes). Transpose, Slice, Expand, Tile, DepthToSpace,
    SpaceToDepth, a nearest Resize, a Gather by constant indices and a
    reflect, edge or wrap Pad are copies (convert-elementwise-to-qk writes
    the plans). Where the indices an axis reads are not one arithmetic
    progression (a Slice with a negative step, a Resize by a fraction, a
    Gather, a reflecting Pad), the piece is one per combination of runs
    (graph::shapes::indexRuns), as a strided view has one stride per axis.

    The verifier checks each map against the shapes (one coordinate per
    dimension, every index inside the tensor) and that the pieces write as
    many elements as the result holds.

    ```mlir
    %y = qk.copy %x [#qk.address_plan<shape = [3, 2], source = (d0, d1) -> (d1, d0),
                                       dest = (d0, d1) -> (d0, d1)>]
        : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input,
                   TypedArrayAttrBase<QK_AddressPlanAttr, "address plans">:$pieces);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input $pieces attr-dict `:` functional-type(operands, results)";
}

def QK_GatherOp : QK_Op<"gather"> {
  let summary = "rows chosen by indices known at run time: the indexed DMA";
  let description = [{
    ONNX Gather along `axis` by indices computed at run time:
    result[a..., n..., b...] = data[a..., k(indices[n...]), b...] with the
    index rule k(i) = i + V for i in [-V, 0), V being the axis' extent (ONNX's
    negative indices), and k(i) = i otherwise; an index outside [-V, V) is a
    run-time fault that names the data tensor and the index (npu-v1.md
    section 5: DMA_IN_GATHER checks every row against V). Each element is
    moved unchanged (contract D13). Indices known at compile time are
    qk.copy instead.

    ```mlir
    %y = qk.gather %table, %ids {axis = 0 : i64}
        : (tensor<1000x64xf32>, tensor<1x8xi64>) -> tensor<1x8x64xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$data, QK_AnyTensor:$indices, I64Attr:$axis);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def QK_ScatterOp : QK_Op<"scatter"> {
  let summary = "rows combined into a copy of the data by indices known at run time: the indexed DMA";
  let description = [{
    ONNX ScatterND with one index per row: the result is `data` with, for each
    index i of `indices` [..., 1] in order, row k(i) (negative indices count
    from the end, as qk.gather) combined with the update row by `reduction`:
    none (replaced; a repeated index keeps the last update), add, max or min
    (in the element type: integers wrap, floats round once). An index outside
    [-rows, rows) is a run-time fault naming the result. Lowered to a copy of
    the data and DMA_OUT_SCATTER.
  }];
  let arguments = (ins QK_AnyTensor:$data, QK_AnyTensor:$indices, QK_AnyTensor:$updates,
                   StrAttr:$reduction);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)";
}

def QK_PadOp : QK_Op<"pad", [SameOperandsAndResultElementType]> {
  let summary = "the operand within a box of a constant (Pad, constant mode)";
  let description = [{
    result[i] = input[i - low] where that index is inside the operand, and
    `fill` elsewhere: `low` and `high` are the elements added before and
    after each axis (a negative count crops), `fill` the value written, of
    the result's element type, a quantized result's its stored integer
    (convert-elementwise-to-qk quantizes ONNX's constant_value half to even
    and saturates it). The reflect, edge and wrap modes read the operand
    only and are qk.copy. The lowering pads with DMA_IN's fill and refuses
    a count outside the DMA's padding range at the node.

    ```mlir
    %y = qk.pad %x {low = array<i64: 0, 1>, high = array<i64: 0, 2>, fill = 0.0 : f32}
        : (tensor<2x4xf32>) -> tensor<2x7xf32>
    ```
  }];
  let arguments = (ins QK_AnyTensor:$input, DenseI64ArrayAttr:$low, DenseI64ArrayAttr:$high,
                   TypedAttrInterface:$fill);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_ConcatOp : QK_Op<"concat"> {
  let summary = "the inputs joined along `axis` (Concat)";
  let description = [{
    The result holds the inputs one after the other along `axis`. An input
    of the result's type is copied; a per-tensor quantized input of another
    scale or zero point is requantized on the way, dequantized exactly to
    f32 and quantized to the result's type half to even (the types carry
    both quantizations). The operands, `axis` and the verifier are
    graph.concat's.

    ```mlir
    %y = qk.concat %a, %b {axis = 1 : i64}
        : (tensor<1x2xf32>, tensor<1x3xf32>) -> tensor<1x5xf32>
    ```
  }];
  let arguments = (ins Variadic<QK_AnyTensor>:$inputs, I64Attr:$axis);
  let results = (outs QK_AnyTensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
}

def QK_QuantizeOp : QK_Op<"quantize"> {
  let summary = "a float tensor quantized (QuantizeLinear)";
  let description = [{
    result = saturate(round_half_even(x / scale) + zp), in f32 as ONNX's
    QuantizeLinear computes it, the scale and zero point the result's
    quantized type's: per tensor, or per axis (one pair per index of the
    type's axis). The shapes and types are checked as graph.quantize's (one
    verifier); an input other than f32 the lowering refuses at the node.

    ```mlir
    %q = qk.quantize %x : (tensor<2x8xf32>) -> tensor<2x8x!quant.uniform<i8:f32, 0.05:-3>>
    ```
  }];
  let arguments = (ins Graph_FloatTensor:$input);
  let results = (outs QK_QuantTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_DequantizeOp : QK_Op<"dequantize"> {
  let summary = "a quantized tensor as floats (DequantizeLinear)";
  let description = [{
    result = (f32(x) - zp) * scale, each step one f32 rounding as in ONNX's
    DequantizeLinear, the scale and zero point the operand's quantized
    type's, per tensor or per axis. Checked as graph.dequantize.

    ```mlir
    %x = qk.dequantize %q : (tensor<2x8x!quant.uniform<i8:f32, 0.05:-3>>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins QK_QuantTensor:$input);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def QK_RequantizeOp : QK_Op<"requantize"> {
  let summary = "a quantized tensor quantized again (DequantizeLinear then QuantizeLinear)";
  let description = [{
    result = saturate(round_half_even(f32(x - zp_in) * scale_in / scale_out) + zp_out),
    each step in f32 as ONNX's two ops compute it, the f32 tensor between them
    never stored (`form = f32`). With `form = top_bit` the two types differ
    only in signedness, at one scale with zero points 128 apart: the result
    is the input's bytes with their top bit flipped, which is the same value
    exactly. The scales and zero points are the operand's and the result's
    quantized types.

    ```mlir
    %y = qk.requantize %x {form = #qk.requantize_form<top_bit>}
        : (tensor<4x!quant.uniform<u8:f32, 0.25:128>>) -> tensor<4x!quant.uniform<i8:f32, 0.25>>
    ```
  }];
  let arguments = (ins QK_QuantTensor:$input, QK_RequantizeFormAttr:$form);
  let results = (outs QK_QuantTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    /// Whether requantizing `in` to `out` (quantized element types) is a
    /// flip of each byte's top bit: per tensor, 8 bits, one scale, opposite
    /// signedness, zero points 128 apart.
    static bool flipsTopBit(::mlir::Type in, ::mlir::Type out);
  }];
}

#endif
