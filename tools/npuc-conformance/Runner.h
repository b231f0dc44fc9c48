//===- Runner.h - npuc-conformance: shared types --------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The pieces of npuc-conformance: running one test (RunTest.cpp), comparing
// outputs under a test's tolerance rules (Compare.cpp), and what a run writes
// (Results.cpp: expectations, evidence, JSON). The tool links no MLIR and no
// compiler code; npuc, npu-sim and the layer checker run as child processes.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_TOOLS_NPUC_CONFORMANCE_RUNNER_H
#define NPUC_TOOLS_NPUC_CONFORMANCE_RUNNER_H

#include "Process.h"
#include "TestData.h"
#include "npuc/Base/TensorFile.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace npuc::conformance {

enum class Class { Pass, Fail, Unsupported, Crash, Fault };
inline constexpr Class kClasses[] = {Class::Pass, Class::Fail, Class::Unsupported, Class::Crash,
                                     Class::Fault};
const char *className(Class c);
bool parseClass(const std::string &s, Class &c);
inline bool failed(Class c) { return c == Class::Fail || c == Class::Crash || c == Class::Fault; }

struct Test {
  std::string name;  // "<root's basename>/<path below the root>"
  std::string dir;
};

struct Outcome {
  Class cls = Class::Pass;
  std::string code;    // the diagnostic code of an UNSUPPORTED, else empty
  std::string detail;  // one line
  /// The lowering cases npuc reported, each with the ONNX op of a node that
  /// reached it; and the ONNX ops of nodes that had no case of their own.
  std::set<std::pair<std::string, std::string>> cases;
  std::set<std::string> noCaseOps;
  std::vector<std::string> bound;  // inputs frozen with --bind-input
  bool compiled = false;  // npuc compiled it (with --allow-unverified if the gate refused it)
  bool matched = false;   // ... and it ran and matched its reference
  /// npuc refused it without --allow-unverified (NPUC-E0105 only); the class
  /// is then the result of compiling it with the option, except that a test
  /// that passes only with it is UNSUPPORTED NPUC-E0105.
  bool gated = false;
  double seconds = 0;
  uint64_t cycles = 0;  // npu-sim's cycles for the first data set (a test that ran)
};

struct Config {
  std::string npuc, sim;
  /// The layer checker (scripts/npuc-layer-check.py) and the python that runs it.
  std::string python, layerChecker;
  unsigned timeout = 600;
  /// Compile every test with --allow-unverified instead of trying without.
  bool allowUnverified = false;
  std::string floatType;  // --float for every test (empty: each test's own, else fp32)
  /// Tolerances kept beside npuc for tests whose data npuc does not own:
  /// DIR/NAME/tolerance.txt, read when the test's own directory has none.
  std::string tolerancesDir;
};

/// One test on one target.
Outcome runTest(const Test &test, const std::string &target, const Config &cfg);

// --- Child processes (tools/common/Process.h) and test data ------------------
using tools::firstLine;
using tools::lastLine;
using tools::RunResult;
using tools::runProgram;
using tools::slurp;
using tools::numberedFiles;
std::string numText(double v);

// --- Comparison (Compare.cpp) ------------------------------------------------

/// A test directory's tolerance.txt (../shared/models/README.md): key=value
/// pairs separated by white space; '#' starts a comment to the line's end.
struct Tolerance {
  bool present = false;
  std::vector<double> atol;  // one value, or one per output; empty: the default
  std::optional<double> rtol;
  std::optional<double> maxbad;   // fraction of elements allowed beyond tolerance
  std::optional<double> maxstep;  // largest difference allowed, in quantization steps
  bool top1 = false;              // the largest output's index must agree (and the top 5)
  std::string floatType;          // npuc --float the test compiles with (empty: fp32)
  /// Every output bit for bit (exact=1): where the arithmetic is exact (data
  /// movement, integer ops, comparisons), a one-step or rounding allowance
  /// would hide rounding bugs at ties.
  bool exact = false;
  /// The deep-network rule (docs/numerics.md): maxbad or maxstep given for a
  /// quantized model; the layer check then judges every layer.
  bool deepRule() const { return maxbad || maxstep; }
};

/// Reads DIR/tolerance.txt when it exists; false with `error` on a bad file.
bool readTolerance(const std::string &dir, Tolerance &tol, std::string &error);

/// What a comparison found, accumulated over the outputs of a test.
struct Agreement {
  double worst = 0;
  uint64_t differing = 0, total = 0;
  uint64_t beyondOne = 0;  // quantized elements more than one step off
};

/// Compares output `k`; fills `detail` and returns false on a mismatch.
bool compareOutput(size_t k, const HostTensor &got, const HostTensor &want, bool quantized,
                   const Tolerance &tol, Agreement &agreement, std::string &detail);

// --- What a run writes (Results.cpp) -----------------------------------------

struct Job {
  const Test *test;
  std::string target;
  Outcome outcome;
};

struct Expectation {
  Class cls;
  std::string reason;
  size_t line;
  bool seen = false;
};

/// Lines "NAME[@TARGET] CLASS REASON..."; '#' starts a comment line.
bool readExpectations(const std::string &path, std::map<std::string, Expectation> &out,
                      std::string &error);
/// Appends the directories `path` names: one per line, '#' comments, $NAME
/// replaced by the environment variable NAME (which must be set).
bool readList(const std::string &path, std::vector<std::string> &out, std::string &error);

/// Checks the run against the expectations; prints each unexpected result,
/// returns how many there were. Entries of folders given whole (`prefixes`)
/// that match no test are stale.
size_t checkExpectations(const std::vector<Job> &work, std::map<std::string, Expectation> &exp,
                         const std::vector<std::string> &targets,
                         const std::set<std::string> &prefixes, const std::string &path);
void writeExpectations(const std::string &path, const std::vector<Job> &work, size_t targets);

// --- The cycles table (Cycles.cpp) -------------------------------------------

/// Lines "NAME TARGET CYCLES"; '#' starts a comment line.
bool readCycles(const std::string &path, std::map<std::pair<std::string, std::string>, uint64_t> &out,
                std::string &error);
/// Every passing test of the run against the table: slower than it (a
/// schedule regression), faster (an improvement the table must take), or
/// missing from it is printed, and so is a row of a test under the run's
/// folders (`prefixes`) that did not run; returns how many there were.
size_t checkCycles(const std::vector<Job> &work,
                   const std::map<std::pair<std::string, std::string>, uint64_t> &table,
                   const std::set<std::string> &prefixes, const std::string &path);
/// Writes the table: the run's passing tests' cycles over the file's rows;
/// the rows of tests under the run's folders (`prefixes`) that did not run
/// go (they are stale), the others stay.
bool writeCycles(const std::string &path, const std::vector<Job> &work,
                 const std::set<std::string> &prefixes, std::string &error);
/// Whether test `name` lies under one of the folders a run was given whole.
bool underFolders(const std::string &name, const std::set<std::string> &prefixes);
void writeEvidence(const std::string &path, const std::vector<Job> &work);
void writeJson(const std::string &path, const std::vector<Job> &work);

} // namespace npuc::conformance

#endif
