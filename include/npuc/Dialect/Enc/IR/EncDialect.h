//===- EncDialect.h - The encoding dialect ----------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_ENC_IR_ENCDIALECT_H
#define NPUC_DIALECT_ENC_IR_ENCDIALECT_H

#include "npuc/Base/ISA.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OperationSupport.h"

#include <memory>

#include "npuc/Dialect/Enc/IR/EncDialect.h.inc"

struct npuc::enc::EncDialect::InstInfo {
  const isa::InstDesc *desc;
  mlir::OperationName name;
  llvm::SmallVector<mlir::StringAttr, 8> fieldNames;  // in declaration order
  /// The field at each position of the op's attribute dictionary (sorted by
  /// name).
  llvm::SmallVector<unsigned, 8> sorted;
};

#endif
