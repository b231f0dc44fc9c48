//===- Resources.cpp - Data files the tools read at run time --------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Resources.h"
#include "npuc/Base/ModelFile.h"

#include <climits>
#include <unistd.h>

using namespace npuc;

std::string resources::executablePath() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  return n > 0 ? std::string(buf, size_t(n)) : std::string();
}

namespace {
/// `path` without its last component ("/a/b" -> "/a", "b" -> ".").
std::string parent(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}
} // namespace

std::string resources::directory() {
  std::string prefix = parent(parent(executablePath()));
  return (prefix == "/" ? "" : prefix) + "/share/npuc";
}

bool resources::read(const std::string &name, std::vector<uint8_t> &bytes, std::string &error) {
  std::string path = directory() + "/" + name;
  std::string why;
  if (model::readFile(path, bytes, why))
    return true;
  std::string exe = executablePath();
  error = "resource '" + name + "' is missing: " + why + " (the tools read their resources from "
          "share/npuc beside the bin/ directory of '" + (exe.empty() ? "this program" : exe) +
          "'; the installation is incomplete: reinstall npuc, or move bin/ and share/ together)";
  return false;
}
