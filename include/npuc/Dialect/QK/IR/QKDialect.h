//===- QKDialect.h - The quantized-kernel dialect ---------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_QK_IR_QKDIALECT_H
#define NPUC_DIALECT_QK_IR_QKDIALECT_H

#include "mlir/IR/Dialect.h"

#include "npuc/Dialect/QK/IR/QKDialect.h.inc"

#endif
