//===- npuc-conformance.cpp - Compile, execute and compare ONNX tests -----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// npuc-conformance DIR... [--list FILE] [--target T[,T...]] [-j N] [--json FILE]
//                 [--expectations FILE | --strict] [--write-expectations FILE]
//                 [--write-evidence FILE] [--allow-unverified] [--timeout S]
//
// For every ONNX test directory under DIR (model.onnx + test_data_set_*):
// compile it with npuc for the data set's input shapes, execute it in npu-sim,
// compare every output with the data set's expected output, and classify it:
//
//   PASS         every output within tolerance (docs/cli.md, "Comparison")
//   FAIL         a wrong answer: the largest error and where
//   UNSUPPORTED  npuc declined it: its diagnostic and code
//   CRASH        npuc or npu-sim died (a signal, a timeout, an internal error)
//   FAULT        npu-sim faulted on the compiled program
//
// npuc and npu-sim run as child processes, so a crash is contained and
// classified. The runner links no MLIR and no compiler code (Runner.h).
//
// Exit status: 0 when nothing failed (FAIL, CRASH, FAULT) or, with
// --expectations, when every result is as expected; 1 otherwise; 2 on usage
// errors.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "npuc/Base/CommandLine.h"
#include "npuc/Version.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"


#include <atomic>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#ifndef NPUC_SOURCE_DIR
#define NPUC_SOURCE_DIR ""
#endif

namespace fs = std::filesystem;
using namespace npuc;
using namespace npuc::conformance;

namespace {

void discover(const fs::path &root, const fs::path &dir, const std::string &prefix,
              std::vector<Test> &out, int depth) {
  std::error_code ec;
  if (fs::exists(dir / "model.onnx", ec)) {
    std::string rel = fs::relative(dir, root, ec).generic_string();
    out.push_back({prefix + (rel == "." ? "" : "/" + rel), dir.string()});
    return;
  }
  if (depth == 0)
    return;
  std::vector<fs::path> subdirs;
  for (const fs::directory_entry &e : fs::directory_iterator(dir, ec))
    if (e.is_directory(ec))
      subdirs.push_back(e.path());
  std::sort(subdirs.begin(), subdirs.end());
  for (const fs::path &d : subdirs)
    discover(root, d, prefix, out, depth - 1);
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"npuc-conformance: compile ONNX tests with npuc, execute them in npu-sim, "
               "compare with their expected outputs"};
  std::vector<std::string> roots;
  std::string targets = "npu-v1", jsonPath, expectationsPath, writeExpectationsPath,
      writeEvidencePath;
  std::string npucPath, simPath;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  Config cfg;
  std::vector<std::string> lists;
  app.add_option("dirs", roots, "test directories, or folders of them");
  app.add_option("--list", lists,
                 "a file naming test directories, one per line ('#' comments, $VAR expanded)");
  app.add_option("--target", targets, "target(s), comma-separated (default npu-v1)");
  app.add_option("-j,--jobs", jobs, "tests run in parallel")->check(CLI::Range(1u, 256u));
  app.add_option("--json", jsonPath, "write every result as JSON");
  app.add_option("--expectations", expectationsPath,
                 "known non-passing tests: NAME[@TARGET] CLASS REASON per line; any other "
                 "result, and any listed test that passes, fails the run");
  bool strict = false;
  app.add_flag("--strict", strict, "every test must pass: UNSUPPORTED fails the run too");
  app.add_option("--write-expectations", writeExpectationsPath,
                 "write this run's non-passing tests, with their diagnostics as reasons");
  std::string cyclesPath, writeCyclesPath;
  app.add_option("--cycles", cyclesPath,
                 "a table of cycles per test and target (NAME TARGET CYCLES per line): a passing "
                 "test slower than it, faster than it, or not in it fails the run (schedule "
                 "regressions are seen; an improvement updates the table)");
  app.add_option("--write-cycles", writeCyclesPath, "write the cycles table from this run");
  app.add_option("--write-evidence", writeEvidencePath,
                 "write the lowering-case evidence table (lib/Support/OpEvidence.tsv) from this run");
  app.add_option("--npuc", npucPath, "the npuc to test (default: next to this tool)");
  app.add_option("--npu-sim", simPath, "the npu-sim to use (default: next to this tool)");
  app.add_option("--timeout", cfg.timeout, "seconds per compile or simulation (default 600)")
      ->check(CLI::Range(1u, 86400u));
  app.add_option("--float", cfg.floatType,
                 "compile every test with npuc --float TYPE (fp32 or fp16), whatever its "
                 "tolerance.txt says")
      ->check(CLI::IsMember({"fp32", "fp16"}));
  app.add_flag("--allow-unverified", cfg.allowUnverified,
               "compile every test with npuc --allow-unverified (by default a test the evidence "
               "gate refuses is compiled again with it, and counted apart)");
  cfg.python = "/usr/bin/python3";
  cfg.layerChecker = std::string(NPUC_SOURCE_DIR) + "/scripts/npuc-layer-check.py";
  app.add_option("--layer-checker", cfg.layerChecker,
                 "the layer checker of the deep quantized network rule (default: the source "
                 "tree's scripts/npuc-layer-check.py)");
  app.add_option("--python", cfg.python, "the python that runs it (default /usr/bin/python3)");
  app.set_version_flag("--version", "npuc-conformance from " + versionString());
  cli::exitCodes(app, "0 nothing failed (FAIL, CRASH, FAULT) or, with --expectations, every "
                      "result as expected (with --strict: every test passed); 1 otherwise; 2 "
                      "usage errors.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return cli::parseError(app, e, "npuc-conformance");
  }
  std::string self = llvm::sys::fs::getMainExecutable(argv[0], (void *)&main);
  std::string binDir = llvm::sys::path::parent_path(self).str();
  cfg.npuc = npucPath.empty() ? binDir + "/npuc" : npucPath;
  cfg.sim = simPath.empty() ? binDir + "/npu-sim" : simPath;
  for (const std::string &p : {cfg.npuc, cfg.sim})
    if (!llvm::sys::fs::can_execute(p)) {
      std::cerr << "npuc-conformance: error: '" << p << "' is not an executable\n";
      return 2;
    }
  std::vector<std::string> targetList;
  for (llvm::StringRef rest = targets; !rest.empty();) {
    auto [t, tail] = rest.split(',');
    if (t.empty()) {
      std::cerr << "npuc-conformance: error: --target '" << targets << "' has an empty name\n";
      return 2;
    }
    targetList.push_back(t.str());
    rest = tail;
  }

  std::map<std::pair<std::string, std::string>, uint64_t> cyclesTable;
  if (!cyclesPath.empty()) {
    std::string error;
    if (!readCycles(cyclesPath, cyclesTable, error)) {
      std::cerr << "npuc-conformance: error: " << error << "\n";
      return 2;
    }
  }
  std::map<std::string, Expectation> expectations;
  if (!expectationsPath.empty()) {
    std::string error;
    if (!readExpectations(expectationsPath, expectations, error)) {
      std::cerr << "npuc-conformance: error: " << error << "\n";
      return 2;
    }
  }

  for (const std::string &list : lists) {
    std::string error;
    if (!readList(list, roots, error)) {
      std::cerr << "npuc-conformance: error: " << error << "\n";
      return 2;
    }
  }
  if (roots.empty()) {
    std::cerr << "npuc-conformance: error: no test directory given\n";
    return 2;
  }
  // Expectations are complete for the folders given whole: an entry of such
  // a folder that matches no test is stale.
  std::vector<Test> tests;
  std::set<std::string> prefixes;
  for (const std::string &root : roots) {
    fs::path r = fs::absolute(root).lexically_normal();
    std::string base = r.has_filename() ? r.filename().string() : r.parent_path().filename().string();
    std::error_code ec;
    if (!fs::is_directory(r, ec)) {
      std::cerr << "npuc-conformance: error: '" << root << "' is not a directory\n";
      return 2;
    }
    size_t before = tests.size();
    if (fs::exists(r / "model.onnx", ec)) {
      tests.push_back({r.parent_path().filename().string() + "/" + base, r.string()});
      continue;
    }
    discover(r, r, base, tests, 3);
    if (tests.size() == before) {
      std::cerr << "npuc-conformance: error: no test (a directory with model.onnx) under '"
                << root << "'\n";
      return 2;
    }
    prefixes.insert(base + "/");
  }

  std::vector<Job> work;
  for (const Test &t : tests)
    for (const std::string &target : targetList)
      work.push_back({&t, target, {}});
  std::atomic<size_t> next{0};
  size_t done = 0;
  std::mutex mu;
  auto worker = [&] {
    for (size_t i; (i = next++) < work.size();) {
      auto start = std::chrono::steady_clock::now();
      work[i].outcome = runTest(*work[i].test, work[i].target, cfg);
      work[i].outcome.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::lock_guard<std::mutex> lock(mu);
      const Outcome &o = work[i].outcome;
      std::cout << "[" << ++done << "/" << work.size() << "] " << className(o.cls) << "  "
                << work[i].test->name << "  " << work[i].target << "  "
                << (o.code.empty() ? "" : o.code + ": ") << o.detail << std::endl;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned k = 0; k < std::min<size_t>(jobs, work.size()); ++k)
    threads.emplace_back(worker);
  for (std::thread &t : threads)
    t.join();

  // Summary.
  std::map<std::string, std::map<Class, size_t>> perTarget;
  size_t passed = 0, failedCount = 0, passedUnverified = 0, gated = 0;
  for (const Job &j : work) {
    ++perTarget[j.target][j.outcome.cls];
    passed += j.outcome.cls == Class::Pass;
    passedUnverified += j.outcome.matched;
    gated += j.outcome.gated;
    failedCount += failed(j.outcome.cls);
  }
  for (const auto &[target, counts] : perTarget) {
    std::cout << target << ":";
    for (Class c : kClasses)
      std::cout << " " << className(c) << " " << (counts.count(c) ? counts.at(c) : 0);
    std::cout << "\n";
  }
  size_t unexpected = 0;
  if (!expectationsPath.empty())
    unexpected = checkExpectations(work, expectations, targetList, prefixes, expectationsPath);
  if (!writeExpectationsPath.empty())
    writeExpectations(writeExpectationsPath, work, targetList.size());
  if (!cyclesPath.empty())
    unexpected += checkCycles(work, cyclesTable, prefixes, cyclesPath);
  std::string writeError;
  if (!writeCyclesPath.empty() && !writeCycles(writeCyclesPath, work, prefixes, writeError))
    std::cerr << "npuc-conformance: error: " << writeError << "\n";
  if (!writeEvidencePath.empty())
    writeEvidence(writeEvidencePath, work);
  if (!jsonPath.empty())
    writeJson(jsonPath, work);

  std::cout << passed << " passed, " << failedCount << " failed";
  if (!expectationsPath.empty() || !cyclesPath.empty())
    std::cout << ", " << unexpected << " unexpected";
  if (!cfg.allowUnverified)
    std::cout << "; " << passedUnverified << " pass with --allow-unverified (" << gated
              << " refused by the evidence gate without it)";
  std::cout << "\n";
  if (!writeError.empty())
    return 1;
  if (strict)
    return passed == work.size() && !unexpected ? 0 : 1;
  if (!expectationsPath.empty())
    return unexpected ? 1 : 0;
  return failedCount || unexpected ? 1 : 0;
}
