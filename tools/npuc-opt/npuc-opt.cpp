//===- npuc-opt.cpp - npuc's optimizer driver -----------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/InitAll.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  npuc::registerAllDialects(registry);
  npuc::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "npuc modular optimizer driver\n", registry));
}
