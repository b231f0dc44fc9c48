//===- npuc.cpp - The npuc compiler driver --------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Exit codes: 0 success, 1 the input cannot be compiled, 2 usage errors and
// what this build cannot do yet.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Target.h"
#include "npuc/Version.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace {
void listTargets(std::ostream &os) {
  for (const npuc::target::TargetInfo *t : npuc::target::allTargets()) {
    os << t->name << "  hash " << t->hashHex() << "  " << t->doc << "\n";
    for (const auto &[name, value] : npuc::target::parameters(*t))
      os << "  " << name << " = " << value << "\n";
  }
}

/// A failed compile leaves no model that looks successful: like compilers and
/// linkers, remove a stale output from an earlier run (contract D7).
void removeStaleOutput(const std::string &path) {
  std::error_code ec;
  if (!path.empty() && path != "-" && std::filesystem::is_regular_file(path, ec))
    std::filesystem::remove(path, ec);
}
} // namespace

int main(int argc, char **argv) {
  CLI::App app{"npuc: ahead-of-time compiler from ONNX models to NPU-v1 machine code"};
  app.set_version_flag("--version", npuc::versionString());
  std::string input, output, targetName = "npu-v1";
  bool listTargetsFlag = false;
  app.add_option("model", input, "ONNX model to compile");
  app.add_option("-o,--output", output, "output model file");
  app.add_option("--target", targetName, "target to compile for (see --list-targets)");
  app.add_flag("--list-targets", listTargetsFlag, "print the known targets and exit");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    app.exit(e);
    return 2;
  }

  const npuc::target::TargetInfo *target = npuc::target::lookupTarget(targetName);
  if (!target) {
    std::cerr << "npuc: error: unknown target '" << targetName
              << "'; valid targets: " << npuc::target::targetNames() << "\n";
    return 2;
  }
  if (listTargetsFlag) {
    listTargets(std::cout);
    return 0;
  }
  if (input.empty()) {
    std::cerr << "npuc: error: no input model (usage: npuc model.onnx -o model.bin)\n";
    return 2;
  }
  removeStaleOutput(output);
  std::cerr << "npuc: error: cannot compile '" << input
            << "': this build has no ONNX importer or code generator yet (see "
               "docs/architecture.md for what exists); no output was written\n";
  return 2;
}
