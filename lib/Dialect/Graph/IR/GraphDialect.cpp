//===- GraphDialect.cpp - The graph dialect -------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphDialect.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace npuc::graph;

#include "npuc/Dialect/Graph/IR/GraphDialect.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "npuc/Dialect/Graph/IR/GraphOps.cpp.inc"
      >();
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

#define GET_OP_CLASSES
#include "npuc/Dialect/Graph/IR/GraphOps.cpp.inc"
