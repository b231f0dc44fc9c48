//===- EmitISA.h - ISA facts the emit dialect decides ----------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Kept apart from EmitOps.h: including the ISA tables there would put the
// namespace npuc::isa beside llvm::isa in every file using namespace npuc.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_EMIT_IR_EMITISA_H
#define NPUC_DIALECT_EMIT_IR_EMITISA_H

#include "npuc/Base/ISA.h"

#include "mlir/IR/Types.h"

namespace npuc::emit {

/// The MATRIX and V_DW mode of operands stored as element types a and b
/// (f32, f16, or 8-bit integers, signed or not): the lowering's cost models
/// and the encoder's MM_CFG and V_DW_CFG fields read this one function.
isa::MmMode matrixMode(mlir::Type a, mlir::Type b);

} // namespace npuc::emit

#endif
