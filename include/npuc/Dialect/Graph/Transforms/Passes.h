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
} // namespace npuc::graph

#endif
