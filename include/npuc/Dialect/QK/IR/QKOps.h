//===- QKOps.h - The quantized-kernel dialect's ops and attributes -*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_QK_IR_QKOPS_H
#define NPUC_DIALECT_QK_IR_QKOPS_H

#include "npuc/Dialect/QK/IR/QKDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "npuc/Dialect/QK/IR/QKEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "npuc/Dialect/QK/IR/QKAttributes.h.inc"

#define GET_OP_CLASSES
#include "npuc/Dialect/QK/IR/QKOps.h.inc"

#endif
