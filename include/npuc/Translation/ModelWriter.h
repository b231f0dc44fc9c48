//===- ModelWriter.h - enc IR to a model file -------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_TRANSLATION_MODELWRITER_H
#define NPUC_TRANSLATION_MODELWRITER_H

#include "npuc/Base/ModelFile.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <utility>
#include <vector>

namespace npuc::enc {

/// Builds the model of a module holding one enc.program (with a target), its
/// enc.tensor descriptors and enc.const data. Errors are emitted on the ops.
mlir::FailureOr<model::Model>
buildModel(mlir::ModuleOp module,
           const std::vector<std::pair<std::string, std::string>> &provenance);

/// buildModel, serialized and written atomically to `path`: on any failure
/// nothing is left at `path`.
llvm::LogicalResult
writeModelFile(mlir::ModuleOp module, const std::string &path,
               const std::vector<std::pair<std::string, std::string>> &provenance);

/// Registers --export-npu-model with mlir-translate.
void registerModelTranslation();

} // namespace npuc::enc

#endif
