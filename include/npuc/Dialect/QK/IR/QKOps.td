//===- QKOps.td - Quantized kernels ----------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_QK_IR_QKOPS_TD
#define NPUC_DIALECT_QK_IR_QKOPS_TD

include "npuc/Dialect/QK/IR/QKAttributes.td"
include "npuc/Dialect/Graph/IR/GraphTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def QK_IntTensor : StaticShapeTensorOf<[I8, UI8, I32]>;
// A quantized tensor: its scale and zero point are part of a kernel's
// contract where the kernel computes through f32 on the values they define.
def QK_QuantTensor : StaticShapeTensorOf<[Graph_QuantType]>;
def QK_NarrowTensor : StaticShapeTensorOf<[I8, UI8]>;

class QK_Op<string mnemonic, list<Trait> traits = []>
    : Op<QK_Dialect, mnemonic, !listconcat(traits, [Pure])> {
  let hasVerifier = 1;
}

def QK_Conv2DOp : QK_Op<"conv2d"> {
  let summary = "int8/uint8 2-D convolution with int32 accumulation and requantization";
  let description = [{
    acc[n, m, y, x] = bias[m] + sum (in - input_zp) * (w - weight_zp[m]) over the
    window of group g = m / (M / groups), exactly in `acc_type`; the result is
    `requant` applied per output channel (axis 1) or per tensor, or, without
    `requant`, the int32 accumulator itself (ConvInteger).
  }];
  let arguments = (ins QK_NarrowTensor:$input, QK_NarrowTensor:$weight,
                   Optional<StaticShapeTensorOf<[I32]>>:$bias,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$dilations, I64Attr:$groups,
                   I64Attr:$input_zp, DenseI64ArrayAttr:$weight_zp,
                   TypeAttr:$acc_type, OptionalAttr<QK_RequantAttr>:$requant);
  let results = (outs QK_IntTensor:$result);
  let assemblyFormat = "$input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def QK_MatMulOp : QK_Op<"matmul"> {
  let summary = "int8/uint8 [M,K] x [K,N] with int32 accumulation and requantization";
  let description = [{
    acc[..., m, n] = bias[n] + sum_k (lhs[..., m, k] - lhs_zp) * (rhs[k, n] - rhs_zp[n]);
    leading lhs dimensions are a batch over the same rhs. `requant` is per
    tensor or per output column (the last axis); without it the result is the
    int32 accumulator (MatMulInteger).
  }];
  let arguments = (ins QK_NarrowTensor:$lhs, QK_NarrowTensor:$rhs,
                   Optional<StaticShapeTensorOf<[I32]>>:$bias,
                   I64Attr:$lhs_zp, DenseI64ArrayAttr:$rhs_zp,
                   TypeAttr:$acc_type, OptionalAttr<QK_RequantAttr>:$requant);
  let results = (outs QK_IntTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

// Any tensor a binary kernel takes: f32, f16, integers, quantized.
def QK_AnyTensor : StaticShapeTensorOf<[Graph_Element]>;

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
