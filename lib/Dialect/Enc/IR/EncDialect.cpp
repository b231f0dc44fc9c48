//===- EncDialect.cpp - The encoding dialect ------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Enc/IR/EncDialect.h"
#include "npuc/Dialect/Enc/IR/EncOps.h"

using namespace mlir;
using namespace npuc::enc;

#include "npuc/Dialect/Enc/IR/EncDialect.cpp.inc"

void EncDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "npuc/Dialect/Enc/IR/EncOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "npuc/Dialect/Enc/IR/EncInstOps.cpp.inc"
      >();
}
