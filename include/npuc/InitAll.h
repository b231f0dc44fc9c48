//===- InitAll.h - Register npuc's dialects and passes ----------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// What npuc-opt and npuc register: the project's four dialects, the upstream
// dialects its IR is written in (func for graphs, quant for element types), and
// the project's passes and pipeline. Nothing else.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_INITALL_H
#define NPUC_INITALL_H

#include "npuc/Dialect/Emit/IR/EmitDialect.h"
#include "npuc/Dialect/Enc/IR/EncDialect.h"
#include "npuc/Dialect/Graph/IR/GraphDialect.h"
#include "npuc/Dialect/QK/IR/QKDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/IR/DialectRegistry.h"

namespace npuc {

inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, qk::QKDialect, emit::EmitDialect, enc::EncDialect,
                  mlir::func::FuncDialect, mlir::quant::QuantDialect>();
}

/// Registers the project's passes and the npuc pipeline (lib/Pipeline).
void registerAllPasses();

} // namespace npuc

#endif
