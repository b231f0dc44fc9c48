//===- GraphDialect.h - The graph dialect -----------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHDIALECT_H
#define NPUC_DIALECT_GRAPH_IR_GRAPHDIALECT_H

#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/IR/Dialect.h"

#include "npuc/Dialect/Graph/IR/GraphDialect.h.inc"

#endif
