//===- npuc-opt.cpp - npuc's optimizer driver -----------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/InitAll.h"

#include "npuc/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  // --version names npuc's build as well as LLVM's.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) { os << npuc::versionString() << "\n"; });
  mlir::DialectRegistry registry;
  npuc::registerAllDialects(registry);
  npuc::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "npuc modular optimizer driver\n", registry));
}
