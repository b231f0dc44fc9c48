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
//   UNSUPPORTED  npuc declined it: its diagnostic and code; or npu-sim
//                refused a data set's input its boundary type cannot hold
//                (a float64 past float32), before running anything
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

/// The command line.
struct Options {
  std::vector<std::string> roots;
  std::string targets = "npu-v1", jsonPath, expectationsPath, writeExpectationsPath,
      writeEvidencePath;
  std::string npucPath, simPath;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  Config cfg;
  std::vector<std::string> lists;
  bool strict = false;
  std::string cyclesPath, writeCyclesPath;
};

void addOptions(CLI::App &app, Options &o) {
  Config &cfg = o.cfg;
  app.add_option("dirs", o.roots, "test directories, or folders of them");
  app.add_option("--list", o.lists,
                 "a file naming test directories, one per line ('#' comments, $VAR expanded)");
  app.add_option("--target", o.targets, "target(s), comma-separated (default npu-v1)");
  app.add_option("-j,--jobs", o.jobs, "tests run in parallel")->check(CLI::Range(1u, 256u));
  app.add_option("--json", o.jsonPath, "write every result as JSON");
  app.add_option("--expectations", o.expectationsPath,
                 "known non-passing tests: NAME[@TARGET] CLASS REASON per line; any other "
                 "result, and any listed test that passes, fails the run");
  app.add_flag("--strict", o.strict, "every test must pass: UNSUPPORTED fails the run too");
  app.add_option("--tolerances", cfg.tolerancesDir,
                 "tolerances for tests whose directories have none: DIR/NAME/tolerance.txt, each "
                 "with its reason in a '#' comment");
  app.add_option("--write-expectations", o.writeExpectationsPath,
                 "write this run's non-passing tests, with their diagnostics as reasons");
  app.add_option("--cycles", o.cyclesPath,
                 "a table of cycles per test and target (NAME TARGET CYCLES per line): a passing "
                 "test slower than it, faster than it, or not in it fails the run (schedule "
                 "regressions are seen; an improvement updates the table)");
  app.add_option("--write-cycles", o.writeCyclesPath, "write the cycles table from this run");
  app.add_option("--write-evidence", o.writeEvidencePath,
                 "write the lowering-case evidence table (lib/Support/OpEvidence.tsv) from this run");
  app.add_option("--npuc", o.npucPath, "the npuc to test (default: next to this tool)");
  app.add_option("--npu-sim", o.simPath, "the npu-sim to use (default: next to this tool)");
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
}

/// The npuc and npu-sim to run (by default next to this tool, `self`); 2 when
/// one is not an executable.
int findTools(const std::string &self, Options &o) {
  std::string binDir = llvm::sys::path::parent_path(self).str();
  o.cfg.npuc = o.npucPath.empty() ? binDir + "/npuc" : o.npucPath;
  o.cfg.sim = o.simPath.empty() ? binDir + "/npu-sim" : o.simPath;
  for (const std::string &p : {o.cfg.npuc, o.cfg.sim})
    if (!llvm::sys::fs::can_execute(p)) {
      std::cerr << "npuc-conformance: error: '" << p << "' is not an executable\n";
      return 2;
    }
  return 0;
}

/// --target's comma-separated names; 2 on an empty one.
int splitTargets(const std::string &targets, std::vector<std::string> &targetList) {
  for (llvm::StringRef rest = targets; !rest.empty();) {
    auto [t, tail] = rest.split(',');
    if (t.empty()) {
      std::cerr << "npuc-conformance: error: --target '" << targets << "' has an empty name\n";
      return 2;
    }
    targetList.push_back(t.str());
    rest = tail;
  }
  return 0;
}

/// What the run is held to: the cycles table and the expectations.
struct Baselines {
  std::map<std::pair<std::string, std::string>, uint64_t> cyclesTable;
  std::map<std::string, Expectation> expectations;
};

/// Reads --cycles, --expectations and the --list files (their directories
/// join the roots); 2 on an error.
int readInputFiles(Options &o, Baselines &b) {
  if (!o.cyclesPath.empty()) {
    std::string error;
    if (!readCycles(o.cyclesPath, b.cyclesTable, error)) {
      std::cerr << "npuc-conformance: error: " << error << "\n";
      return 2;
    }
  }
  if (!o.expectationsPath.empty()) {
    std::string error;
    if (!readExpectations(o.expectationsPath, b.expectations, error)) {
      std::cerr << "npuc-conformance: error: " << error << "\n";
      return 2;
    }
  }

  for (const std::string &list : o.lists) {
    std::string error;
    if (!readList(list, o.roots, error)) {
      std::cerr << "npuc-conformance: error: " << error << "\n";
      return 2;
    }
  }
  return 0;
}

/// The tests under the roots, and the folders given whole (`prefixes`,
/// "NAME/"); 2 when there is none, or a root is no directory or holds none.
int findTests(const std::vector<std::string> &roots, std::vector<Test> &tests,
              std::set<std::string> &prefixes) {
  if (roots.empty()) {
    std::cerr << "npuc-conformance: error: no test directory given\n";
    return 2;
  }
  // Expectations are complete for the folders given whole: an entry of such
  // a folder that matches no test is stale.
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
  return 0;
}

/// Every test on every target, in that order.
std::vector<Job> makeJobs(const std::vector<Test> &tests,
                          const std::vector<std::string> &targetList) {
  std::vector<Job> work;
  for (const Test &t : tests)
    for (const std::string &target : targetList)
      work.push_back({&t, target, {}});
  return work;
}

/// Runs the jobs on up to `jobs` threads, printing each result as it comes.
void runJobs(std::vector<Job> &work, const Config &cfg, unsigned jobs) {
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
}

struct Totals {
  size_t passed = 0, failedCount = 0, passedUnverified = 0, gated = 0;
};

/// Prints the count of each class per target; returns the run's totals.
Totals printClassCounts(const std::vector<Job> &work) {
  std::map<std::string, std::map<Class, size_t>> perTarget;
  Totals t;
  for (const Job &j : work) {
    ++perTarget[j.target][j.outcome.cls];
    t.passed += j.outcome.cls == Class::Pass;
    t.passedUnverified += j.outcome.matched;
    t.gated += j.outcome.gated;
    t.failedCount += failed(j.outcome.cls);
  }
  for (const auto &[target, counts] : perTarget) {
    std::cout << target << ":";
    for (Class c : kClasses)
      std::cout << " " << className(c) << " " << (counts.count(c) ? counts.at(c) : 0);
    std::cout << "\n";
  }
  return t;
}

/// Holds the run to its expectations and cycles table and writes the files
/// asked for; returns how many results were unexpected. `writeError` says
/// why the cycles table could not be written.
size_t checkAndWrite(const std::vector<Job> &work, const Options &o,
                     const std::vector<std::string> &targetList,
                     const std::set<std::string> &prefixes, Baselines &b,
                     std::string &writeError) {
  size_t unexpected = 0;
  if (!o.expectationsPath.empty())
    unexpected =
        checkExpectations(work, b.expectations, targetList, prefixes, o.expectationsPath);
  if (!o.writeExpectationsPath.empty())
    writeExpectations(o.writeExpectationsPath, work, targetList.size());
  if (!o.cyclesPath.empty())
    unexpected += checkCycles(work, b.cyclesTable, prefixes, o.cyclesPath);
  if (!o.writeCyclesPath.empty() && !writeCycles(o.writeCyclesPath, work, prefixes, writeError))
    std::cerr << "npuc-conformance: error: " << writeError << "\n";
  if (!o.writeEvidencePath.empty())
    writeEvidence(o.writeEvidencePath, work);
  if (!o.jsonPath.empty())
    writeJson(o.jsonPath, work);
  return unexpected;
}

/// The summary after the run, and the exit status.
int summarize(const std::vector<Job> &work, const Options &o,
              const std::vector<std::string> &targetList, const std::set<std::string> &prefixes,
              Baselines &b) {
  Totals t = printClassCounts(work);
  std::string writeError;
  size_t unexpected = checkAndWrite(work, o, targetList, prefixes, b, writeError);

  std::cout << t.passed << " passed, " << t.failedCount << " failed";
  if (!o.expectationsPath.empty() || !o.cyclesPath.empty())
    std::cout << ", " << unexpected << " unexpected";
  if (!o.cfg.allowUnverified)
    std::cout << "; " << t.passedUnverified << " pass with --allow-unverified (" << t.gated
              << " refused by the evidence gate without it)";
  std::cout << "\n";
  if (!writeError.empty())
    return 1;
  if (o.strict)
    return t.passed == work.size() && !unexpected ? 0 : 1;
  if (!o.expectationsPath.empty())
    return unexpected ? 1 : 0;
  return t.failedCount || unexpected ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"npuc-conformance: compile ONNX tests with npuc, execute them in npu-sim, "
               "compare with their expected outputs"};
  Options opts;
  addOptions(app, opts);
  app.set_version_flag("--version", "npuc-conformance from " + versionString());
  cli::exitCodes(app, "0 nothing failed (FAIL, CRASH, FAULT) or, with --expectations, every "
                      "result as expected (with --strict: every test passed); 1 otherwise; 2 "
                      "usage errors.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return cli::parseError(app, e, "npuc-conformance");
  }
  if (int status = findTools(llvm::sys::fs::getMainExecutable(argv[0], (void *)&main), opts))
    return status;
  std::vector<std::string> targetList;
  if (int status = splitTargets(opts.targets, targetList))
    return status;
  Baselines baselines;
  if (int status = readInputFiles(opts, baselines))
    return status;
  std::vector<Test> tests;
  std::set<std::string> prefixes;
  if (int status = findTests(opts.roots, tests, prefixes))
    return status;

  std::vector<Job> work = makeJobs(tests, targetList);
  runJobs(work, opts.cfg, opts.jobs);
  return summarize(work, opts, targetList, prefixes, baselines);
}
