//===- Passes.td - Graph dialect passes ------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_TRANSFORMS_PASSES_TD
#define NPUC_DIALECT_GRAPH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GraphSimplify : Pass<"graph-simplify"> {
  let summary = "Fold algebraic identities of graph ops, keeping types and operand order";
  let description = [{
    Applies the graph ops' folders: x + 0, x - 0, x * 1, x / 1 and identity
    become x when that keeps the result type exactly. Quantized values are
    never folded (a quantized x * 1 may requantize), a broadcasting fold is
    refused, and operand direction matters: 0 - x and c - x stay.
  }];
  let dependentDialects = ["::npuc::graph::GraphDialect"];
}

#endif
