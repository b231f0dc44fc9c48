//===- Process.h - Child processes of the driver tools ----------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// npuc-conformance and npuc-zoo run npuc and npu-sim as child processes, each
// under its own deadline, from worker threads.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_TOOLS_COMMON_PROCESS_H
#define NPUC_TOOLS_COMMON_PROCESS_H

#include <string>
#include <vector>

namespace npuc::tools {

struct RunResult {
  int rc = 0;
  bool crashed = false, timedOut = false;
  std::string out, err, why;
};

/// Runs `program` with `args`, its output into `work`/stdout.txt and
/// stderr.txt, killed after `timeoutSeconds` (the deadline is kept per child,
/// with non-blocking waits: safe across worker threads).
RunResult runProgram(const std::string &program, const std::vector<std::string> &args,
                     const std::string &work, unsigned timeoutSeconds);

/// The file's bytes as text; empty when it cannot be read.
std::string slurp(const std::string &path);
std::string firstLine(const std::string &s, size_t max = 300);
std::string lastLine(std::string s);

} // namespace npuc::tools

#endif
