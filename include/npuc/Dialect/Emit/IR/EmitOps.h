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

#include <optional>
#include <set>
#include <tuple>

#include "npuc/Dialect/Emit/IR/EmitEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "npuc/Dialect/Emit/IR/EmitAttributes.h.inc"
#define GET_TYPEDEF_CLASSES
#include "npuc/Dialect/Emit/IR/EmitTypes.h.inc"

namespace npuc::emit {
/// One buffer an engine operation reads or writes; `extra` bytes past the
/// buffer's span when a repeated form reaches further (a matmul's count).
struct Access {
  mlir::Value buffer;
  bool write;
  int64_t extra = 0;
};
/// The addresses one scalar register of a hardware loop nest walks: a
/// stepped buffer operand's space kind, its sub-granule remainder (local
/// spaces; the register holds it), and its step in each loop of the nest
/// (loops by their preorder index in the nest; only non-zero steps).
struct AddressStream {
  bool global = false;
  int64_t rem = 0;
  llvm::SmallVector<std::pair<int64_t, int64_t>, 2> steps;
  bool operator<(const AddressStream &o) const {
    return std::tie(global, rem, steps) < std::tie(o.global, o.rem, o.steps);
  }
  /// The step in loop `index` of the nest (0: none).
  int64_t stepIn(int64_t index) const {
    for (auto [l, s] : steps)
      if (l == index)
        return s;
    return 0;
  }
};
} // namespace npuc::emit

#include "npuc/Dialect/Emit/IR/EmitInterfaces.h.inc"

#define GET_OP_CLASSES
#include "npuc/Dialect/Emit/IR/EmitOps.h.inc"

namespace npuc::emit {

/// The alloc or constant a buffer value is a view of, and the byte offset of
/// the value's first element from that root's first byte.
std::pair<mlir::Operation *, int64_t> rootOf(mlir::Value buffer);
/// Whether a and b have the same attributes, emit-lower-loops' iteration
/// tag aside (two iterations' copies of one op).
bool sameAttributesUntagged(mlir::Operation *a, mlir::Operation *b);

/// The placed byte offset of a buffer value in its space (none while its
/// root alloc or constant has no offset).
std::optional<int64_t> placedByte(mlir::Value buffer);

/// A byte range of one memory space an engine op reads or writes.
struct ByteRange {
  MemorySpace space;
  int64_t lo, hi;
  bool write;
  bool overlaps(const ByteRange &o) const { return space == o.space && lo < o.hi && o.lo < hi; }
};
/// Every byte range `op` touches, placed (its accesses, repeated forms
/// included); a diagnostic when a buffer is not placed yet.
mlir::FailureOr<llvm::SmallVector<ByteRange, 4>> placedRanges(EngineOp op);

} // namespace npuc::emit

#endif
