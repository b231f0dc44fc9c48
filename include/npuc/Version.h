//===- Version.h - Identity of this build of npuc ---------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_VERSION_H
#define NPUC_VERSION_H

#include <string>

namespace npuc {
/// "npuc 0.1.0 (revision 0123abcd4567, LLVM/MLIR 22.1.8, Release)": what
/// --version prints.
std::string versionString();
/// The compiler's identity without the build configuration, "npuc 0.1.0
/// (revision 0123abcd4567, LLVM/MLIR 22.1.8)": what a model file's provenance
/// records, the same for Release and Debug builds (contracts D1, D3).
std::string identityString();
/// The generators the build ran, "mlir-tblgen 22.1.8" (provenance, D3).
std::string generatorString();
} // namespace npuc

#endif
