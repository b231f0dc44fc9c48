//===- ConstantValues.h - The values of f32 constants, for folds -*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_DIALECT_GRAPH_TRANSFORMS_CONSTANTVALUES_H
#define NPUC_LIB_DIALECT_GRAPH_TRANSFORMS_CONSTANTVALUES_H

#include "npuc/Dialect/Graph/IR/GraphOps.h"

#include <optional>

namespace npuc::graph {

/// The elements of an f32 graph.constant, or nothing when `v` is not one.
inline std::optional<llvm::SmallVector<float>> f32ConstantValues(mlir::Value v) {
  auto c = v.getDefiningOp<ConstantOp>();
  auto dense = c ? llvm::dyn_cast<mlir::DenseFPElementsAttr>(c.getValue()) : mlir::DenseFPElementsAttr();
  if (!dense || !dense.getElementType().isF32())
    return std::nullopt;
  return llvm::SmallVector<float>(dense.getValues<float>().begin(), dense.getValues<float>().end());
}

} // namespace npuc::graph

#endif
