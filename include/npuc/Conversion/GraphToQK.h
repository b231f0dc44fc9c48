//===- GraphToQK.h - Why a graph op stayed a graph op -----------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// convert-elementwise-to-qk leaves a graph op it cannot make a kernel of
// (a Gather by run-time indices, a cubic Resize, a 3-D float convolution, a
// copy of more pieces than a program holds) for select-lowering-cases, which
// reports every op of the function it cannot lower, not only the first: the
// conversion says why at the op, the selection that it has no lowering.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_CONVERSION_GRAPHTOQK_H
#define NPUC_CONVERSION_GRAPHTOQK_H

#include "mlir/IR/Operation.h"

namespace npuc::graph_to_qk {

/// Reports at `op`, a graph op the conversion left, why no kernel takes it,
/// and fails; succeeds, reporting nothing, for an op it has no reason for.
mlir::LogicalResult explainUnconverted(mlir::Operation *op);

} // namespace npuc::graph_to_qk

#endif
