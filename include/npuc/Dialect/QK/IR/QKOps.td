//===- QKOps.td - Quantized kernels ----------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_QK_IR_QKOPS_TD
#define NPUC_DIALECT_QK_IR_QKOPS_TD

include "npuc/Dialect/QK/IR/QKAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def QK_IntTensor : StaticShapeTensorOf<[I8, UI8, I32]>;
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

#endif
