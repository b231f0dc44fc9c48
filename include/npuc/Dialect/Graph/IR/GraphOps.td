//===- GraphOps.td - All graph ops -----------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Ops are split by kind; this file only gathers them for mlir-tblgen.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHOPS_TD
#define NPUC_DIALECT_GRAPH_IR_GRAPHOPS_TD

include "npuc/Dialect/Graph/IR/GraphElementwiseOps.td"
include "npuc/Dialect/Graph/IR/GraphNNOps.td"
include "npuc/Dialect/Graph/IR/GraphTensorOps.td"
include "npuc/Dialect/Graph/IR/GraphQuantOps.td"
include "npuc/Dialect/Graph/IR/GraphRecurrentOps.td"

#endif
