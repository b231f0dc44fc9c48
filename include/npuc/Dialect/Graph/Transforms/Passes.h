//===- Passes.h - Graph dialect passes --------------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_TRANSFORMS_PASSES_H
#define NPUC_DIALECT_GRAPH_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace npuc::graph {
class GraphDialect;

#define GEN_PASS_DECL
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"

/// Whether graph-fuse-qdq gives the op named `name` ("graph.add") a
/// quantized form: dequantize -> op -> quantize becomes one op on quantized
/// types. Other ops stay f32 between Q/DQ pairs (the lowering's case spaces
/// ask this).
bool fusesQDQ(llvm::StringRef name);
} // namespace npuc::graph

#endif
