//===- Patterns.h - GraphToQK's pattern sets --------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The kernel families convert-graph-to-qk converts besides the matrix
// products and requantization (GraphToQK.cpp): each adds its patterns, one
// per graph op, and makes its graph ops illegal.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_GRAPHTOQK_PATTERNS_H
#define NPUC_LIB_CONVERSION_GRAPHTOQK_PATTERNS_H

#include "mlir/Transforms/DialectConversion.h"

namespace npuc::graph_to_qk {

/// Pooling, softmax, arg reductions and normalizations: graph.max_pool and
/// graph.average_pool become qk.pool, graph.softmax and graph.log_softmax
/// qk.softmax, graph.argmax and graph.argmin qk.arg_reduce, graph.layer_norm,
/// batch_norm and channel_affine qk.layer_norm, batch_norm and
/// channel_affine.
void populateReducePatterns(mlir::RewritePatternSet &patterns, mlir::ConversionTarget &target);

} // namespace npuc::graph_to_qk

#endif
