//===- EmitOps.h - The emission dialect's types and ops ---------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_EMIT_IR_EMITOPS_H
#define NPUC_DIALECT_EMIT_IR_EMITOPS_H

#include "npuc/Dialect/Emit/IR/EmitDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/Types.h"

#include "npuc/Dialect/Emit/IR/EmitEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "npuc/Dialect/Emit/IR/EmitAttributes.h.inc"
#define GET_TYPEDEF_CLASSES
#include "npuc/Dialect/Emit/IR/EmitTypes.h.inc"
#define GET_OP_CLASSES
#include "npuc/Dialect/Emit/IR/EmitOps.h.inc"

namespace npuc::emit {

/// One buffer an engine operation reads or writes.
struct Access {
  mlir::Value buffer;
  bool write;
};

/// The engine that runs `op`, or nullopt for ops that are not engine work
/// (alloc, constant, view, flag, li; signal/wait/barrier are synchronisation).
std::optional<Engine> engineOf(mlir::Operation *op);

/// Every buffer `op` reads or writes, in operand order.
void accessesOf(mlir::Operation *op, llvm::SmallVectorImpl<Access> &out);

/// The alloc or constant a buffer value is a view of, and the byte offset of
/// the value's first element from that root's first byte.
std::pair<mlir::Operation *, int64_t> rootOf(mlir::Value buffer);

} // namespace npuc::emit

#endif
