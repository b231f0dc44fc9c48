//===- NPUCode.h - enc.program <-> instruction words ------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_TRANSLATION_NPUCODE_H
#define NPUC_TRANSLATION_NPUCODE_H

#include "npuc/Base/ISA.h"

#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <vector>

namespace mlir {
class MLIRContext;
class Location;
} // namespace mlir

namespace npuc::enc {
class ProgramOp;

/// Encodes every instruction of `program`, in order. The ops have been
/// verified, so every field is legal; a failure is reported on the op.
llvm::LogicalResult encodeProgram(ProgramOp program, std::vector<isa::Word> &words);

/// Decodes `bytes` (a whole number of 16-byte words) into a new enc.program.
/// Errors name the word index and the first offending field.
mlir::OwningOpRef<ProgramOp> decodeProgram(llvm::ArrayRef<uint8_t> bytes, mlir::Location loc);

/// Registers --export-npu-code and --import-npu-code with mlir-translate.
void registerNPUCodeTranslations();
} // namespace npuc::enc

#endif
