//===- Version.h - Identity of this build of npuc ---------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_VERSION_H
#define NPUC_VERSION_H

#include <string>

namespace npuc {
/// "npuc 0.1.0 (revision 0123abcd4567, LLVM/MLIR 22.1.8, Release)".
std::string versionString();
} // namespace npuc

#endif
