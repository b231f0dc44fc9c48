//===- npuc-translate.cpp - Translations between npuc IR and bytes --------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Translation/ModelWriter.h"
#include "npuc/Translation/NPUCode.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  npuc::enc::registerNPUCodeTranslations();
  npuc::enc::registerModelTranslation();
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "npuc translation driver"));
}
