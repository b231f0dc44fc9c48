//===- ConstantValues.h - f32 constants in and out of folds -----*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_DIALECT_GRAPH_TRANSFORMS_CONSTANTVALUES_H
#define NPUC_LIB_DIALECT_GRAPH_TRANSFORMS_CONSTANTVALUES_H

#include "npuc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"

#include <cmath>
#include <limits>
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

/// `w` (output channel major, `channels` channels) with channel c's weights
/// times s(c), each product in double rounded once to f32; nothing when one
/// leaves f32, after `overflow(c, i, v)` was told the first (channel c's
/// weight i would become v).
inline std::optional<llvm::SmallVector<float>>
scaleByChannel(llvm::ArrayRef<float> w, int64_t channels, llvm::function_ref<double(int64_t)> s,
               llvm::function_ref<void(int64_t, int64_t, double)> overflow) {
  const double fmax = double(std::numeric_limits<float>::max());
  int64_t perChannel = int64_t(w.size()) / channels;
  llvm::SmallVector<float> out(w.size());
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t i = 0; i < perChannel; ++i) {
      double v = double(w[size_t(c * perChannel + i)]) * s(c);
      if (!(std::fabs(v) <= fmax)) {
        overflow(c, i, v);
        return std::nullopt;
      }
      out[size_t(c * perChannel + i)] = float(v);
    }
  return out;
}

/// Makes `values` (f32, the weights' shape) the weights of `conv`.
inline void replaceWeights(ConvOp conv, llvm::ArrayRef<float> values) {
  mlir::OpBuilder b(conv);
  auto type = llvm::cast<mlir::RankedTensorType>(conv.getW().getType());
  conv.getWMutable().assign(
      ConstantOp::create(b, conv.getLoc(), type, mlir::DenseElementsAttr::get(type, values)));
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
