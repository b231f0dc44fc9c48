//===- Resources.h - Data files the tools read at run time ------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The tools find their resources relative to their own executable, in
// ../share/npuc (contract D5): the build tree (build/bin, build/share/npuc)
// and an installed prefix (P/bin, P/share/npuc) have the same layout, and a
// moved prefix keeps working. No absolute path is compiled in.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_RESOURCES_H
#define NPUC_BASE_RESOURCES_H

#include <cstdint>
#include <string>
#include <vector>

namespace npuc::resources {

/// The running executable's path (/proc/self/exe), or "" when unknown.
std::string executablePath();

/// The directory resources are read from: share/npuc beside the directory
/// holding the executable (P/share/npuc for P/bin/npuc).
std::string directory();

/// Reads resource `name` (a file name in directory()). On failure `error`
/// names the resource, the path looked at and why, and says what to do.
bool read(const std::string &name, std::vector<uint8_t> &bytes, std::string &error);

} // namespace npuc::resources

#endif
