//===- ConstantValues.h - f32 constants in and out of folds -----*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_DIALECT_GRAPH_TRANSFORMS_CONSTANTVALUES_H
#define NPUC_LIB_DIALECT_GRAPH_TRANSFORMS_CONSTANTVALUES_H

#include "npuc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"

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

/// Gives `conv` the f32 bias `values` (a graph.constant at `constLoc`, in
/// place of a bias it had) and makes it compute what `folded` computed:
/// `folded`'s uses take the convolution's result, `folded` is erased, and
/// the convolution is located at both nodes.
inline void foldIntoConv(ConvOp conv, llvm::ArrayRef<float> values, mlir::Location constLoc,
                         mlir::Operation *folded) {
  mlir::OpBuilder b(conv);
  auto type = mlir::RankedTensorType::get({int64_t(values.size())}, b.getF32Type());
  mlir::Value bias =
      ConstantOp::create(b, constLoc, type, mlir::DenseElementsAttr::get(type, values));
  if (conv.getBias())
    conv.getBiasMutable().assign(bias);
  else
    conv.getBiasMutable().append(bias);
  conv->setLoc(b.getFusedLoc({conv.getLoc(), folded->getLoc()}));
  folded->getResult(0).replaceAllUsesWith(conv.getResult());
  folded->erase();
}

} // namespace npuc::graph

#endif
