//===- Process.cpp - Child processes of the driver tools ------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Process.h"

#include "npuc/Base/ModelFile.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Program.h"

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

using namespace npuc;
namespace fs = std::filesystem;

std::string tools::slurp(const std::string &path) {
  std::vector<uint8_t> bytes;
  std::string error;
  model::readFile(path, bytes, error);
  return std::string(bytes.begin(), bytes.end());
}

// ExecuteAndWait's timeout uses alarm() and SIGALRM, which are per process and
// unsafe across worker threads: the deadline is kept here instead.
tools::RunResult tools::runProgram(const std::string &program, const std::vector<std::string> &args,
                                   const std::string &work, unsigned timeoutSeconds) {
  std::vector<llvm::StringRef> argv{program};
  for (const std::string &a : args)
    argv.push_back(a);
  std::string outPath = work + "/stdout.txt", errPath = work + "/stderr.txt";
  // The redirections do not truncate (LLVM opens them without O_TRUNC): an
  // earlier, longer output would show through a shorter one.
  std::error_code ec;
  fs::remove(outPath, ec);
  fs::remove(errPath, ec);
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(outPath),
                                                llvm::StringRef(errPath)};
  RunResult r;
  bool failedToRun = false;
  llvm::sys::ProcessInfo pi =
      llvm::sys::ExecuteNoWait(program, argv, std::nullopt, redirects, 0, &r.why, &failedToRun);
  if (failedToRun || pi.Pid <= 0) {
    r.crashed = true;
    r.why = "cannot run " + program + ": " + r.why;
    return r;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  llvm::sys::ProcessInfo done;
  for (;;) {
    done = llvm::sys::Wait(pi, /*SecondsToWait=*/0, &r.why);
    if (done.Pid != 0)
      break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pi.Pid, SIGKILL);
      done = llvm::sys::Wait(pi, std::nullopt, &r.why);
      r.timedOut = true;
      r.why = "timed out after " + std::to_string(timeoutSeconds) + " s";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.rc = done.ReturnCode;
  r.out = slurp(outPath);
  r.err = slurp(errPath);
  r.crashed = r.timedOut || r.rc < 0;
  return r;
}

std::string tools::firstLine(const std::string &s, size_t max) {
  std::string line = s.substr(0, s.find('\n'));
  return line.size() > max ? line.substr(0, max) + "..." : line;
}

std::string tools::lastLine(std::string s) {
  while (!s.empty() && s.back() == '\n')
    s.pop_back();
  size_t nl = s.rfind('\n');
  return firstLine(nl == std::string::npos ? s : s.substr(nl + 1));
}
