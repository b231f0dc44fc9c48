//===- EncDialect.h - The encoding dialect ----------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_ENC_IR_ENCDIALECT_H
#define NPUC_DIALECT_ENC_IR_ENCDIALECT_H

#include "mlir/IR/Dialect.h"

#include "npuc/Dialect/Enc/IR/EncDialect.h.inc"

#endif
