//===- Folding.h - Evaluating shape computations at import ------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Exported models compute shapes at run time (Shape -> Gather -> Concat ->
// Reshape, and float arithmetic on them for Resize sizes and scales). With
// static input shapes those subgraphs are constant: an op on constants is
// replaced by its value as it is built, evaluated exactly as it would run by
// the op's own folder (graph::foldToConstant). That is not algebra on real
// values (which waits for quantization metadata, N11): no identity is
// assumed and nothing is reassociated.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_ONNXTOGRAPH_FOLDING_H
#define NPUC_LIB_CONVERSION_ONNXTOGRAPH_FOLDING_H

#include "Importer.h"
#include "npuc/Dialect/Graph/IR/ConstantFolding.h"

namespace npuc::onnx_import {

/// An integer or boolean constant, row-major.
struct IntTensor {
  llvm::SmallVector<int64_t> shape;
  std::vector<int64_t> data;
  mlir::Type element;  // the integer type (i1 for booleans)

  uint64_t size() const { return data.size(); }
};

/// The constant of `v` when it is an integer or boolean tensor of at most
/// 2^20 elements.
std::optional<IntTensor> asInts(const Val &v);
mlir::DenseElementsAttr toAttr(const IntTensor &t);

/// The first element of a constant as a double, honouring unsigned types.
double firstAsDouble(mlir::DenseElementsAttr c);
/// An integer element of type `t` as int64 (zero-extended when unsigned or i1).
int64_t intValue(const llvm::APInt &v, mlir::Type t);

/// Results larger than this are not folded (they stay ops, or are reported).
using graph::kMaxFoldedElements;

/// Elementwise with numpy broadcasting; nullopt when the shapes do not
/// broadcast or the result would exceed kMaxFoldedElements.
std::optional<IntTensor> broadcastInts(const IntTensor &a, const IntTensor &b, mlir::Type element,
                                       int64_t (*fn)(int64_t, int64_t));
/// `t` broadcast to `shape`; nullopt when it does not broadcast or is too large.
std::optional<IntTensor> expandInts(const IntTensor &t, llvm::ArrayRef<int64_t> shape);

} // namespace npuc::onnx_import

#endif
