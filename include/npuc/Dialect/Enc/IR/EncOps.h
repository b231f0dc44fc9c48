//===- EncOps.h - The encoding dialect's ops --------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_ENC_IR_ENCOPS_H
#define NPUC_DIALECT_ENC_IR_ENCOPS_H

#include "npuc/Base/ISA.h"
#include "npuc/Base/ModelFile.h"
#include "npuc/Dialect/Enc/IR/EncDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"

namespace npuc::enc {
/// Checks every field attribute of an instruction op against the ISA table.
llvm::LogicalResult verifyInstructionFields(mlir::Operation *op);

/// The ISA descriptor of an instruction op (nullptr for enc.program).
const isa::InstDesc *getInstDesc(mlir::Operation *op);

/// Reads an instruction op's fields into an isa::Inst (op must be verified).
isa::Inst toInst(mlir::Operation *op);

/// The model-file element type of an MLIR storage type (i8, ui8, i16, i32, f16, f32).
std::optional<model::DType> storageDType(mlir::Type t);
/// The model file's boundary-only type for `t` (i1, i64, ui16, ui32).
std::optional<model::DType> boundaryDType(mlir::Type t);

/// Builds the op for a decoded instruction at the builder's insertion point.
mlir::Operation *buildInst(mlir::OpBuilder &builder, mlir::Location loc, const isa::Inst &inst);
} // namespace npuc::enc

#define GET_OP_CLASSES
#include "npuc/Dialect/Enc/IR/EncOps.h.inc"
#define GET_OP_CLASSES
#include "npuc/Dialect/Enc/IR/EncInstOps.h.inc"

#endif
