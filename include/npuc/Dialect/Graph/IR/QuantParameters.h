//===- QuantParameters.h - A quantized type's scales, zero points -*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The one reading of a uniform quantized element type's parameters, for
// every layer that needs them: the graph folds, GraphToQK's ledgers, the
// kernel lowerings and the model file's value records (EmitToEnc). Header
// only, on MLIR's quant types alone, so that a conversion reading them needs
// nothing else of the graph dialect.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_QUANTPARAMETERS_H
#define NPUC_DIALECT_GRAPH_IR_QUANTPARAMETERS_H

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace npuc::graph {

/// A uniform quantized type's parameters: one scale and zero point, or one
/// per index of `axis`.
struct QuantParameters {
  llvm::SmallVector<double> scales;
  llvm::SmallVector<int64_t> zeroPoints;
  int64_t axis = -1;  // -1: per tensor

  /// Which parameters element `flat` (row-major) of a tensor of `shape` takes.
  size_t indexOf(int64_t flat, llvm::ArrayRef<int64_t> shape) const {
    if (axis < 0)
      return 0;
    int64_t inner = 1;
    for (size_t d = size_t(axis + 1); d < shape.size(); ++d)
      inner *= shape[d];
    return size_t((flat / inner) % shape[size_t(axis)]);
  }
};

/// `element`'s parameters, or nullopt when it is not uniform quantized.
inline std::optional<QuantParameters> quantParameters(mlir::Type element) {
  QuantParameters p;
  if (auto t = llvm::dyn_cast<mlir::quant::UniformQuantizedType>(element)) {
    p.scales = {t.getScale()};
    p.zeroPoints = {t.getZeroPoint()};
  } else if (auto t = llvm::dyn_cast<mlir::quant::UniformQuantizedPerAxisType>(element)) {
    p.scales.assign(t.getScales().begin(), t.getScales().end());
    p.zeroPoints.assign(t.getZeroPoints().begin(), t.getZeroPoints().end());
    p.axis = t.getQuantizedDimension();
  } else {
    return std::nullopt;
  }
  return p;
}

} // namespace npuc::graph

#endif
