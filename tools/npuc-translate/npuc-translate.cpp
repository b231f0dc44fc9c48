//===- npuc-translate.cpp - Translations between npuc IR and bytes --------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Translation/ModelWriter.h"
#include "npuc/Translation/NPUCode.h"

#include "npuc/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  // --version names npuc's build as well as LLVM's.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) { os << npuc::versionString() << "\n"; });
  npuc::enc::registerNPUCodeTranslations();
  npuc::enc::registerModelTranslation();
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "npuc translation driver"));
}
