//===- EmitDialect.h - The emission dialect ---------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_EMIT_IR_EMITDIALECT_H
#define NPUC_DIALECT_EMIT_IR_EMITDIALECT_H

#include "mlir/IR/Dialect.h"

#include "npuc/Dialect/Emit/IR/EmitDialect.h.inc"

#endif
