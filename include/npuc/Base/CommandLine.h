//===- CommandLine.h - The tools' command-line conventions ------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// What every tool does with its command line, in one place: errors prefixed
// with the tool's name, "did you mean" for a misspelt option or name, a hint
// to --help, and the exit codes in --help's footer. Header only (CLI11);
// base layer: no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_COMMANDLINE_H
#define NPUC_BASE_COMMANDLINE_H

#include "npuc/Base/Spelling.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace npuc::cli {

/// The long option names of `app` ("--target", ...).
inline std::vector<std::string> optionNames(const CLI::App &app) {
  std::vector<std::string> names;
  for (const CLI::Option *o : app.get_options())
    for (const std::string &l : o->get_lnames())
      names.push_back("--" + l);
  return names;
}

/// Sets the footer --help prints: the exit codes.
inline void exitCodes(CLI::App &app, const std::string &codes) { app.footer("Exit codes: " + codes); }

/// Reports a CLI11 parse error as "TOOL: error: ..." (a misspelt option gets
/// a "did you mean") and returns the exit code: 0 for --help and --version,
/// 2 for usage errors.
inline int parseError(CLI::App &app, const CLI::ParseError &e, const std::string &tool) {
  if (dynamic_cast<const CLI::CallForHelp *>(&e) || dynamic_cast<const CLI::CallForAllHelp *>(&e) ||
      dynamic_cast<const CLI::CallForVersion *>(&e))
    return app.exit(e);
  std::string message = e.what();
  if (dynamic_cast<const CLI::ExtrasError *>(&e)) {
    // "The following argument(s) was/were not expected: A B": name each.
    std::istringstream words(message.substr(message.find(':') + 1));
    std::vector<std::string> extras;
    for (std::string w; words >> w;)
      extras.push_back(w);
    // An unknown option's value is among the extras too: with an unknown
    // option, only the options are named.
    bool anyOption = std::any_of(extras.begin(), extras.end(),
                                 [](const std::string &w) { return w.size() > 1 && w[0] == '-'; });
    message.clear();
    for (const std::string &w : extras) {
      bool option = w.size() > 1 && w[0] == '-';
      if (anyOption && !option)
        continue;
      std::string name = option ? w.substr(0, w.find('=')) : w;
      message += (message.empty() ? "" : "; ") + std::string(option ? "unknown option '" : "unexpected argument '") +
                 name + "'" + (option ? didYouMean(name, optionNames(app)) : "");
    }
  }
  std::cerr << tool << ": error: " << message << "; see " << tool << " --help\n";
  return 2;
}

} // namespace npuc::cli

#endif
