//===- ConstantFolding.h - Graph ops on constants, evaluated ----*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The graph ops' folders evaluate an op whose operands are all constants,
// exactly as it would run (lib/Dialect/Graph/IR/ConstantEval.h says how);
// graph-simplify folds through them, and the importer replaces such an op by
// its value as it builds it (shape computations on static shapes).
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_CONSTANTFOLDING_H
#define NPUC_DIALECT_GRAPH_IR_CONSTANTFOLDING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

#include <cstdint>
#include <optional>

namespace npuc::graph {

/// Results larger than this are not evaluated (they stay ops).
inline constexpr uint64_t kMaxFoldedElements = uint64_t(1) << 22;

/// An integer or boolean constant of `type` (i1: nonzero is true; other
/// widths truncated to the element's).
mlir::DenseElementsAttr intElements(mlir::RankedTensorType type, llvm::ArrayRef<int64_t> values);

/// The value of `op` when every operand is a constant and its folder
/// evaluates it to a constant; none otherwise, and none for an op with a
/// quantized operand or result (quantization is not evaluated before
/// graph-fuse-qdq has decided it, contract N11).
std::optional<mlir::DenseElementsAttr> foldToConstant(mlir::Operation *op);

} // namespace npuc::graph

#endif
