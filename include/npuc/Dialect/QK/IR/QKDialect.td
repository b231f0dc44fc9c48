//===- QKDialect.td - The quantized-kernel dialect -------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_QK_IR_QKDIALECT_TD
#define NPUC_DIALECT_QK_IR_QKDIALECT_TD

include "mlir/IR/OpBase.td"

def QK_Dialect : Dialect {
  let name = "qk";
  let cppNamespace = "::npuc::qk";
  let summary = "Integer and float kernels whose attributes state their numerical contract";
  let description = [{
    A qk op is a kernel, not an ONNX operator: its operands are plain storage
    tensors (i8, ui8, i32, f32) and its attributes say exactly how the result is
    computed: zero points, accumulator type, the requantization multiplier and
    shifts per channel or per tensor, rounding, clamp bounds and operand layout.
    A kernel that computes through f32 on quantized values (qk.requantize)
    takes the quantized tensor types, whose scales and zero points are then
    part of its contract, and states which computation it is as an attribute.
    Two kernels with equal attributes compute equal bits; nothing about the
    arithmetic is left to the op's name.
  }];
  let useDefaultAttributePrinterParser = 1;
}

#endif
