//===- npuc.cpp - The npuc compiler driver --------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Exit codes: 0 success, 1 the model cannot be compiled (every problem is
// reported, each with its code), 2 usage errors and what this build cannot do
// yet. A failed compile leaves no output file (contract D7).
//
//===----------------------------------------------------------------------===//

#include "Compile.h"

#include "npuc/Base/CommandLine.h"
#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Resources.h"
#include "npuc/Base/Sha256.h"
#include "npuc/Base/Target.h"
#include "npuc/Conversion/LoweringCases.h"
#include "npuc/Conversion/ONNXToGraph/ONNXToGraph.h"
#include "npuc/Support/OpSupport.h"
#include "npuc/Version.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <unistd.h>

using namespace npuc;

namespace {
void listTargets(std::ostream &os) {
  for (const target::TargetInfo *t : target::allTargets()) {
    os << t->name << "  hash " << t->hashHex() << "  " << t->doc << "\n";
    for (const auto &[name, value] : target::parameters(*t))
      os << "  " << name << " = " << value << "\n";
  }
}

/// Like compilers and linkers, remove a stale output from an earlier run so
/// that nothing at the -o path looks like the result of a failed compile.
void removeStaleOutput(const std::string &path) {
  std::error_code ec;
  if (!path.empty() && path != "-" && std::filesystem::is_regular_file(path, ec))
    std::filesystem::remove(path, ec);
}

/// Parses a byte count: decimal digits only (no sign, no spaces), optionally
/// one K, M or G suffix (powers of 1024), at least 1, at most 2^48 bytes.
bool parseByteCount(const std::string &arg, int64_t &out, std::string &error) {
  std::string digits = arg;
  int shift = 0;
  if (!digits.empty() && std::string("KMG").find(digits.back()) != std::string::npos) {
    shift = digits.back() == 'K' ? 10 : digits.back() == 'M' ? 20 : 30;
    digits.pop_back();
  }
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) {
    error = "expected a positive number of bytes (digits, optionally followed by K, M or G)";
    return false;
  }
  if (digits.size() > 15) {
    error = "is larger than 2^48 bytes";
    return false;
  }
  int64_t value = std::stoll(digits);
  if (value == 0) {
    error = "must be at least 1 byte";
    return false;
  }
  if (value > (int64_t(1) << (48 - shift))) {
    error = "is larger than 2^48 bytes";
    return false;
  }
  out = value << shift;
  return true;
}

/// Parses NAME=D1xD2x...: every dimension a positive decimal integer, fully
/// consumed, without sign, at most 2^40, and a product that fits 64 bits.
bool parseInputShape(const std::string &arg, std::pair<std::string, std::vector<int64_t>> &out,
                     std::string &error) {
  size_t eq = arg.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size()) {
    error = "expected NAME=D1xD2x..., e.g. input=1x3x224x224";
    return false;
  }
  out.first = arg.substr(0, eq);
  out.second.clear();
  std::string dims = arg.substr(eq + 1);
  size_t start = 0;
  unsigned __int128 product = 1;
  for (;;) {
    size_t x = dims.find('x', start);
    std::string d = dims.substr(start, x == std::string::npos ? std::string::npos : x - start);
    size_t index = out.second.size();
    if (d.empty() || d.size() > 13 || d.find_first_not_of("0123456789") != std::string::npos) {
      error = "dimension " + std::to_string(index) + " '" + d + "' is not a positive integer";
      // 1,3,224,224 or 1*3*224*224: the separator is 'x'.
      std::string fixed = dims;
      std::replace_if(fixed.begin(), fixed.end(), [](char c) { return c == ',' || c == '*' || c == 'X'; }, 'x');
      if (fixed != dims && fixed.find_first_not_of("0123456789x") == std::string::npos)
        error += "; dimensions are separated by 'x': " + out.first + "=" + fixed;
      return false;
    }
    int64_t v = std::stoll(d);
    if (v == 0) {
      error = "dimension " + std::to_string(index) + " is 0; pinned dimensions must be positive";
      return false;
    }
    if (v > (int64_t(1) << 40)) {
      error = "dimension " + std::to_string(index) + " = " + d + " exceeds 2^40";
      return false;
    }
    product *= uint64_t(v);
    if (product > (unsigned __int128)INT64_MAX) {
      error = "the element count overflows 64 bits";
      return false;
    }
    out.second.push_back(v);
    if (x == std::string::npos)
      break;
    start = x + 1;
  }
  return true;
}
} // namespace

/// npuc --identity: everything besides the model and the options that
/// decides what npuc writes. Exit status 1 when a part cannot be read.
static int printIdentity(std::ostream &os) {
  std::vector<uint8_t> bytes;
  std::string error;
  std::string exe = resources::executablePath();
  if (exe.empty() || !model::readFile(exe, bytes, error)) {
    std::cerr << "npuc: error: cannot read this executable" << (error.empty() ? "" : ": " + error)
              << "\n";
    return 1;
  }
  // Printed whole or not at all: a partial identity must not be hashed.
  std::string text = "compiler: " + versionString() + "\n" +
                     "executable-sha256: " + sha256Hex(bytes.data(), bytes.size()) + "\n";
  if (!resources::read(support::kEvidenceResource, bytes, error)) {
    std::cerr << "npuc: error: " << error << "\n";
    return 1;
  }
  text += "evidence-sha256: " + sha256Hex(bytes.data(), bytes.size()) + "\n";
  for (const target::TargetInfo *t : target::allTargets())
    text += std::string("target ") + t->name + ": " + t->hashHex() + "\n";
  os << text;
  return 0;
}

namespace {
/// The options that print something instead of compiling.
struct Modes {
  bool listTargets = false, identity = false, listOps = false, listCases = false;
};

void addOptions(CLI::App &app, driver::Invocation &inv, Modes &modes) {
  app.add_option("model", inv.input, "ONNX model to compile");
  app.add_option("-o,--output", inv.output, "output file");
  app.add_option("--target", inv.targetName, "target to compile for (see --list-targets)");
  app.add_flag("--list-targets", modes.listTargets, "print the known targets and exit");
  app.add_flag("--check", inv.check,
               "compile without writing anything: report everything that stands in the way");
  app.add_option("--report", inv.reportPath,
                 "also write the problems and every node's lowering cases with their evidence "
                 "as JSON (FILE)");
  app.add_flag("--identity", modes.identity,
               "print what decides this compiler's output besides the model and the options "
               "(version, the executable's and the evidence table's SHA-256, every target's "
               "hash) and exit: a cache key part (npuc-zoo)");
  app.add_flag("--list-ops", modes.listOps,
               "print the supported ONNX operators and their evidence (docs/supported-ops.md)");
  app.add_flag("--list-cases", modes.listCases,
               "print every reachable lowering case on every target as JSON, with its evidence");
  app.add_flag("--allow-unverified", inv.allowUnverified,
               "compile lowering cases that no conformance test has verified on the target");
  app.add_flag("--no-hardware-loops", inv.noHardwareLoops,
               "keep every tile loop unrolled (the machine runs the same instructions; the code "
               "is larger)");
  app.add_flag("--materialize-values", inv.materializeValues,
               "write every graph value to GM, also those kernels hand on in local memory, so "
               "that npu-sim --dump-tensors holds every one (slower)");
  app.add_option("--float", inv.floatType,
                 "float compute type: fp32 (the default) or fp16 (MATRIX products of fp16 "
                 "operands with fp32 accumulation; docs/numerics.md)")
      ->check(CLI::IsMember({"fp32", "fp16"}));
  app.add_option("--float64", inv.float64,
                 "float64 values: f32 (the default: computed in float32, with a warning; "
                 "docs/numerics.md) or refuse (an unsupported type)")
      ->check(CLI::IsMember({"f32", "refuse"}));
  app.add_option("--compile-to", inv.compileTo,
                 "stop after a phase and print it: graph, kernel, emission, encoding");
  app.add_option("--gm-budget", inv.gmBudgetArg,
                 "bytes of GM the arena may use, optionally with a K, M or G suffix (powers of "
                 "1024); default: the target's, 256M");
  app.add_option("--input-shape", inv.inputShapes, "pin a graph input's shape: NAME=1x3x224x224 (repeatable)");
  app.add_option("--test-evidence", inv.testEvidence,
                 "test hook: the evidence table the gate reads instead of the installed one")
      ->group("");
  app.add_option("--test-break-ir-after", inv.breakIRAfter,
                 "test hook: after PASS, make the IR fail verification (the internal-error path)")
      ->group("");
  app.add_option("--bind-input", inv.bindInputs,
                 "freeze a graph input to the tensor in FILE (.npy or TensorProto .pb): NAME=FILE (repeatable)");
}

/// npuc --list-ops (docs/supported-ops.md) or, with `cases`, --list-cases.
int listSupport(bool cases) {
  std::string error;
  const std::vector<support::Evidence> *evidence = support::installedEvidence(error);
  const support::EvidenceIndex *index = support::installedIndex(error);
  if (!evidence || !index) {
    std::cerr << "npuc: error: " << error << "\n";
    return 1;
  }
  std::vector<std::string> targets;
  for (const target::TargetInfo *t : target::allTargets())
    targets.push_back(t->name);
  if (cases)
    std::cout << support::casesJson(emit::loweringCaseSpaces(), targets, *index);
  else
    std::cout << support::renderMarkdown(*evidence, onnx_import::importedOps(),
                                         emit::loweringCaseSpaces(), targets);
  return 0;
}

/// The usage errors and unwritable outputs a compile is refused for before
/// any work: the exit status, or 0 to go on.
int checkUsage(driver::Invocation &inv) {
  for (const std::string &arg : inv.inputShapes) {
    std::pair<std::string, std::vector<int64_t>> pin;
    std::string error;
    if (!parseInputShape(arg, pin, error)) {
      std::cerr << "npuc: error: --input-shape '" << arg << "': " << error << "\n";
      return 2;
    }
    inv.importOptions.inputShapes.push_back(std::move(pin));
  }
  inv.importOptions.float64AsFloat32 = inv.float64 == "f32";
  for (const std::string &arg : inv.bindInputs) {
    size_t eq = arg.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size()) {
      std::cerr << "npuc: error: --bind-input '" << arg << "': expected NAME=FILE\n";
      return 2;
    }
    inv.importOptions.boundInputs.push_back({arg.substr(0, eq), arg.substr(eq + 1)});
  }
  if (!inv.compileTo.empty() && inv.compileTo != "graph" && inv.compileTo != "kernel" &&
      inv.compileTo != "emission" && inv.compileTo != "encoding") {
    std::cerr << "npuc: error: --compile-to '" << inv.compileTo
              << "' is not one of graph, kernel, emission, encoding\n";
    return 2;
  }
  if (!inv.gmBudgetArg.empty()) {
    std::string error;
    if (!parseByteCount(inv.gmBudgetArg, inv.gmBudget, error)) {
      std::cerr << "npuc: error: --gm-budget '" << inv.gmBudgetArg << "': " << error << "\n";
      return 2;
    }
  }
  if (inv.input.empty()) {
    std::cerr << "npuc: error: no input model (usage: npuc model.onnx -o model.bin; npuc --help)\n";
    return 2;
  }
  // A usage error is found before any work (or any report) is done.
  if (inv.output.empty() && inv.compileTo.empty() && !inv.check) {
    std::cerr << "npuc: error: no output file (use -o model.bin, or --compile-to=PHASE to print)\n";
    return 2;
  }
  // A check is of the whole pipeline, the gate included: a phase printed
  // before it would be reported as compiling when it may not.
  if (inv.check && !inv.compileTo.empty()) {
    std::cerr << "npuc: error: --check runs every phase and prints none; it takes no --compile-to\n";
    return 2;
  }
  // '-' is standard output for the one file a run writes: the model, the
  // printed phase, or the report, but only one of them at a time.
  bool printsPhase = !inv.compileTo.empty() && (inv.output.empty() || inv.output == "-");
  if (inv.reportPath == "-" && (inv.output == "-" || printsPhase)) {
    std::cerr << "npuc: error: --report - and the " << (printsPhase ? "printed phase" : "model")
              << " cannot both go to standard output\n";
    return 2;
  }
  if (inv.output == "-" && inv.compileTo.empty() && !inv.check && isatty(STDOUT_FILENO)) {
    std::cerr << "npuc: error: -o - writes the binary model file to standard output, which is a "
                 "terminal; redirect it (npuc m.onnx -o - > m.bin) or name a file\n";
    return 2;
  }
  // Outputs that cannot be written are found before any work is spent.
  for (const std::string *path : {&inv.output, &inv.reportPath}) {
    std::string error;
    if (!path->empty() && *path != "-" && !(path == &inv.output && inv.check) &&
        !model::checkWritable(*path, error)) {
      std::cerr << "npuc: error: " << error << "\n";
      return 1;
    }
  }
  removeStaleOutput(inv.output);
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  CLI::App app{"npuc: ahead-of-time compiler from ONNX models to NPU-v1 machine code"};
  app.set_version_flag("--version", versionString());
  driver::Invocation inv;
  Modes modes;
  addOptions(app, inv, modes);
  cli::exitCodes(app, "0 compiled (or printed); 1 the model cannot be compiled, every problem "
                      "reported with its code (docs/diagnostics.md), or an output cannot be "
                      "written; 2 usage errors.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return cli::parseError(app, e, "npuc");
  }

  if (!target::lookupTarget(inv.targetName)) {
    std::vector<std::string> names;
    for (const target::TargetInfo *t : target::allTargets())
      names.push_back(t->name);
    std::cerr << "npuc: error: unknown target '" << inv.targetName << "'"
              << cli::didYouMean(inv.targetName, names) << "; valid targets: " << target::targetNames()
              << " (npuc --list-targets)\n";
    return 2;
  }
  if (modes.listTargets) {
    listTargets(std::cout);
    return 0;
  }
  if (modes.identity)
    return printIdentity(std::cout);
  if (modes.listOps || modes.listCases)
    return listSupport(modes.listCases);
  if (int status = checkUsage(inv))
    return status;
  return driver::compile(inv);
}
