//===- npuc.cpp - The npuc compiler driver --------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Exit codes: 0 success, 1 the model cannot be compiled (every problem is
// reported, each with its code), 2 usage errors and what this build cannot do
// yet. A failed compile leaves no output file (contract D7).
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/CommandLine.h"
#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Resources.h"
#include "npuc/Base/Target.h"
#include "npuc/Conversion/ONNXToGraph/ONNXToGraph.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"
#include "npuc/Base/Sha256.h"
#include "npuc/Pipeline/Pipeline.h"
#include "npuc/Conversion/LoweringCases.h"
#include "npuc/Support/OpSupport.h"
#include "npuc/Translation/ModelWriter.h"
#include "npuc/Version.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>

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

/// The ONNX node an MLIR location points at (the importer's NameLoc; the
/// first of a fused location's).
std::string nodeOf(mlir::Location loc) {
  llvm::SmallVector<std::string> nodes = graph::nodeNames(loc);
  return nodes.empty() ? "" : nodes.front();
}

/// Diagnostic codes of the phases after import (docs/diagnostics.md), by the
/// pass that reports.
const char *phaseCode(llvm::StringRef pass) {
  if (pass == kVerifyIRPass)
    return "NPUC-E0900";  // an internal compiler error: IR a pass built
  if (pass == "check-lowering-evidence")
    return "NPUC-E0105";
  if (pass == "emit-plan-memory")
    return "NPUC-E0402";
  if (pass == "emit-insert-sync")
    return "NPUC-E0403";
  if (pass == "convert-emit-to-enc")
    return "NPUC-E0404";
  return "NPUC-E0401";
}

/// Records which pass runs, so its diagnostics get that phase's code, and
/// collects every node's lowering cases once select-lowering-cases has run
/// (also when it failed: the cases it selected are still the nodes').
struct PassObserver : mlir::PassInstrumentation {
  PassObserver(std::string &name, std::string &builder,
               std::map<std::string, std::vector<std::string>> &cases, std::string breakAfter)
      : name(name), builder(builder), cases(cases), breakAfter(std::move(breakAfter)) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *) override {
    name = pass->getArgument().str();
    // npuc-verify-ir checks the IR the pass before it built.
    if (name != kVerifyIRPass)
      builder = name;
  }
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    collect(pass, op);
    if (pass->getArgument() == breakAfter)
      breakIR(op);
  }
  /// The test hook --test-break-ir-after: the pass seems to have built IR
  /// that does not verify (the first op with operands loses them), which the
  /// driver must report as its own internal error.
  void breakIR(mlir::Operation *root) {
    root->walk([&](mlir::Operation *op) {
      if (op == root || op->getNumOperands() == 0 || breakAfter.empty())
        return;
      op->eraseOperands(0, op->getNumOperands());
      breakAfter.clear();
    });
  }
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override { collect(pass, op); }
  void collect(mlir::Pass *pass, mlir::Operation *root) {
    if (pass->getArgument() != "select-lowering-cases")
      return;
    root->walk([&](mlir::Operation *op) {
      auto key = op->getAttrOfType<mlir::StringAttr>("npuc.case");
      if (!key)
        return;
      for (const std::string &n : graph::nodeNames(op->getLoc())) {
        std::vector<std::string> &list = cases[n];
        if (std::find(list.begin(), list.end(), key.str()) == list.end())
          list.push_back(key.str());
      }
    });
  }
  std::string &name, &builder;
  std::map<std::string, std::vector<std::string>> &cases;
  std::string breakAfter;
};

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

int main(int argc, char **argv) {
  CLI::App app{"npuc: ahead-of-time compiler from ONNX models to NPU-v1 machine code"};
  app.set_version_flag("--version", versionString());
  std::string input, output, targetName = "npu-v1", compileTo, reportPath;
  std::vector<std::string> inputShapes;
  bool listTargetsFlag = false, check = false;
  app.add_option("model", input, "ONNX model to compile");
  app.add_option("-o,--output", output, "output file");
  app.add_option("--target", targetName, "target to compile for (see --list-targets)");
  app.add_flag("--list-targets", listTargetsFlag, "print the known targets and exit");
  app.add_flag("--check", check,
               "compile without writing anything: report everything that stands in the way");
  app.add_option("--report", reportPath,
                 "also write the problems and every node's lowering cases with their evidence "
                 "as JSON (FILE)");
  bool listOps = false, allowUnverified = false, noHardwareLoops = false, identityFlag = false;
  app.add_flag("--identity", identityFlag,
               "print what decides this compiler's output besides the model and the options "
               "(version, the executable's and the evidence table's SHA-256, every target's "
               "hash) and exit: a cache key part (npuc-zoo)");
  app.add_flag("--list-ops", listOps,
               "print the supported ONNX operators and their evidence (docs/supported-ops.md)");
  bool listCases = false;
  app.add_flag("--list-cases", listCases,
               "print every reachable lowering case on every target as JSON, with its evidence");
  app.add_flag("--allow-unverified", allowUnverified,
               "compile lowering cases that no conformance test has verified on the target");
  app.add_flag("--no-hardware-loops", noHardwareLoops,
               "keep every tile loop unrolled (the machine runs the same instructions; the code "
               "is larger)");
  std::string floatType = "fp32";
  app.add_option("--float", floatType,
                 "float compute type: fp32 (the default) or fp16 (MATRIX products of fp16 "
                 "operands with fp32 accumulation; docs/numerics.md)")
      ->check(CLI::IsMember({"fp32", "fp16"}));
  app.add_option("--compile-to", compileTo,
                 "stop after a phase and print it: graph, kernel, emission, encoding");
  std::string gmBudgetArg;
  app.add_option("--gm-budget", gmBudgetArg,
                 "bytes of GM the arena may use, optionally with a K, M or G suffix (powers of "
                 "1024); default: the target's, 256M");
  app.add_option("--input-shape", inputShapes, "pin a graph input's shape: NAME=1x3x224x224 (repeatable)");
  std::vector<std::string> bindInputs;
  std::string breakAfter, testEvidence;
  app.add_option("--test-evidence", testEvidence,
                 "test hook: the evidence table the gate reads instead of the installed one")
      ->group("");
  app.add_option("--test-break-ir-after", breakAfter,
                 "test hook: after PASS, make the IR fail verification (the internal-error path)")
      ->group("");
  app.add_option("--bind-input", bindInputs,
                 "freeze a graph input to the tensor in FILE (.npy or TensorProto .pb): NAME=FILE (repeatable)");

  cli::exitCodes(app, "0 compiled (or printed); 1 the model cannot be compiled, every problem "
                      "reported with its code (docs/diagnostics.md), or an output cannot be "
                      "written; 2 usage errors.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return cli::parseError(app, e, "npuc");
  }

  if (!target::lookupTarget(targetName)) {
    std::vector<std::string> names;
    for (const target::TargetInfo *t : target::allTargets())
      names.push_back(t->name);
    std::cerr << "npuc: error: unknown target '" << targetName << "'"
              << cli::didYouMean(targetName, names) << "; valid targets: " << target::targetNames()
              << " (npuc --list-targets)\n";
    return 2;
  }
  if (listTargetsFlag) {
    listTargets(std::cout);
    return 0;
  }
  if (identityFlag)
    return printIdentity(std::cout);
  if (listOps || listCases) {
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
    if (listCases)
      std::cout << support::casesJson(emit::loweringCaseSpaces(), targets, *index);
    else
      std::cout << support::renderMarkdown(*evidence, onnx_import::importedOps(),
                                           emit::loweringCaseSpaces(), targets);
    return 0;
  }
  onnx_import::Options options;
  for (const std::string &arg : inputShapes) {
    std::pair<std::string, std::vector<int64_t>> pin;
    std::string error;
    if (!parseInputShape(arg, pin, error)) {
      std::cerr << "npuc: error: --input-shape '" << arg << "': " << error << "\n";
      return 2;
    }
    options.inputShapes.push_back(std::move(pin));
  }
  for (const std::string &arg : bindInputs) {
    size_t eq = arg.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size()) {
      std::cerr << "npuc: error: --bind-input '" << arg << "': expected NAME=FILE\n";
      return 2;
    }
    options.boundInputs.push_back({arg.substr(0, eq), arg.substr(eq + 1)});
  }
  if (!compileTo.empty() && compileTo != "graph" && compileTo != "kernel" &&
      compileTo != "emission" && compileTo != "encoding") {
    std::cerr << "npuc: error: --compile-to '" << compileTo
              << "' is not one of graph, kernel, emission, encoding\n";
    return 2;
  }
  int64_t gmBudget = 0;
  if (!gmBudgetArg.empty()) {
    std::string error;
    if (!parseByteCount(gmBudgetArg, gmBudget, error)) {
      std::cerr << "npuc: error: --gm-budget '" << gmBudgetArg << "': " << error << "\n";
      return 2;
    }
  }
  if (input.empty()) {
    std::cerr << "npuc: error: no input model (usage: npuc model.onnx -o model.bin; npuc --help)\n";
    return 2;
  }
  // A usage error is found before any work (or any report) is done.
  if (output.empty() && compileTo.empty() && !check) {
    std::cerr << "npuc: error: no output file (use -o model.bin, or --compile-to=PHASE to print)\n";
    return 2;
  }
  // A check is of the whole pipeline, the gate included: a phase printed
  // before it would be reported as compiling when it may not.
  if (check && !compileTo.empty()) {
    std::cerr << "npuc: error: --check runs every phase and prints none; it takes no --compile-to\n";
    return 2;
  }
  // '-' is standard output for the one file a run writes: the model, the
  // printed phase, or the report, but only one of them at a time.
  bool printsPhase = !compileTo.empty() && (output.empty() || output == "-");
  if (reportPath == "-" && (output == "-" || printsPhase)) {
    std::cerr << "npuc: error: --report - and the " << (printsPhase ? "printed phase" : "model")
              << " cannot both go to standard output\n";
    return 2;
  }
  if (output == "-" && compileTo.empty() && !check && isatty(STDOUT_FILENO)) {
    std::cerr << "npuc: error: -o - writes the binary model file to standard output, which is a "
                 "terminal; redirect it (npuc m.onnx -o - > m.bin) or name a file\n";
    return 2;
  }
  // Outputs that cannot be written are found before any work is spent.
  for (const std::string *path : {&output, &reportPath}) {
    std::string error;
    if (!path->empty() && *path != "-" && !(path == &output && check) &&
        !model::checkWritable(*path, error)) {
      std::cerr << "npuc: error: " << error << "\n";
      return 1;
    }
  }
  removeStaleOutput(output);
  // The resources a compile needs are found before any work (contract D5):
  // the evidence gate's table, unless --allow-unverified skips the gate, and
  // the report, which names each case's evidence.
  // (The test hook --test-evidence replaces the installed table in both.)
  support::EvidenceFile evidenceFile;
  const support::EvidenceIndex *evidenceIndex = nullptr;
  if (!allowUnverified || !reportPath.empty()) {
    std::string error;
    if (!(evidenceIndex = support::evidenceIndex(testEvidence, evidenceFile, error))) {
      std::cerr << "npuc: error: " << error << "\n";
      return 1;
    }
  }

  mlir::MLIRContext context;
  context.printOpOnDiagnostic(false);  // diagnostics point at the ONNX node instead
  onnx_import::Result result = onnx_import::importModel(context, input, options);
  // Problems after import, and every node's lowering cases with their evidence.
  std::vector<onnx_import::Issue> later;
  std::map<std::string, const onnx_import::NodeInfo *> nodes;
  for (const onnx_import::NodeInfo &n : result.nodes)
    nodes[n.node] = &n;
  std::map<std::string, std::vector<std::string>> nodeCases;
  auto addIssue = [&](const char *code, const std::string &node, const std::string &message) {
    onnx_import::Issue issue{code, node, "", "", 0, message};
    if (auto it = nodes.find(node); it != nodes.end()) {
      issue.opType = it->second->opType;
      issue.domain = it->second->domain;
      issue.opset = it->second->opset;
    }
    std::cerr << onnx_import::formatIssue(input, issue) << "\n";
    later.push_back(std::move(issue));
  };
  auto writeReport = [&]() {
    if (reportPath.empty())
      return true;
    std::map<std::string, std::vector<onnx_import::NodeCase>> cases;
    for (const auto &[node, keys] : nodeCases)
      for (const std::string &key : keys) {
        const support::Evidence *e = evidenceIndex->find(key, targetName);
        cases[node].push_back({key, e ? support::levelName(e->level) : "none", e ? e->tests : ""});
      }
    std::string json = onnx_import::reportJson(input, result, later, cases);
    std::string error;
    if (!model::writeFileOrStdout(reportPath, std::vector<uint8_t>(json.begin(), json.end()), error)) {
      std::cerr << "npuc: error: " << error << "\n";
      return false;
    }
    return true;
  };
  for (const onnx_import::Issue &issue : result.issues)
    std::cerr << onnx_import::formatIssue(input, issue) << "\n";
  if (!result.issues.empty()) {
    writeReport();
    std::cerr << "npuc: " << result.issues.size() << " problem"
              << (result.issues.size() == 1 ? " stands" : "s stand") << " in the way of compiling '"
              << input << "'\n";
    return 1;
  }
  // The same passes as npuc-opt --npuc-pipeline (one pipeline builder);
  // --check runs them all and writes nothing.
  mlir::PassManager pm(&context);
  PipelineOptions pipelineOptions;
  pipelineOptions.target = targetName;
  pipelineOptions.until = compileTo.empty() ? "encoding" : compileTo;
  pipelineOptions.gmBudget = gmBudget;
  pipelineOptions.allowUnverified = allowUnverified;
  pipelineOptions.hardwareLoops = !noHardwareLoops;
  pipelineOptions.floatType = floatType;
  // Every pass's IR is verified by npuc-verify-ir after it (instead of the
  // pass manager's verifier), so that IR a pass built wrong is reported as
  // npuc's internal error, not the model's.
  pipelineOptions.verifyEach = true;
  pipelineOptions.evidence = testEvidence;
  pm.enableVerifier(false);
  buildPipeline(pm, pipelineOptions);
  std::string currentPass, builderPass;
  pm.addInstrumentation(
      std::make_unique<PassObserver>(currentPass, builderPass, nodeCases, breakAfter));
  mlir::LogicalResult compiled = mlir::success();
  {
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
        return mlir::failure();  // warnings and remarks print as usual
      std::string message = d.str();
      std::vector<std::string> sameCase;  // the other nodes of one refused case
      for (const mlir::Diagnostic &note : d.getNotes()) {
        if (currentPass == "check-lowering-evidence" && note.str() == "the same case") {
          sameCase.push_back(nodeOf(note.getLocation()));
          continue;
        }
        message += "\n  note: " + note.str();
      }
      if (currentPass == kVerifyIRPass) {
        // Not the model's problem: named as npuc's, with the pass and op.
        std::string node = nodeOf(d.getLocation());
        addIssue(phaseCode(currentPass), "",
                 "internal compiler error: pass '" + builderPass +
                     "' built IR that does not verify" +
                     (node.empty() ? std::string() : " while compiling node '" + node + "'") +
                     ": " + message + "; please report it with the model and `npuc --identity`");
        return mlir::success();
      }
      addIssue(phaseCode(currentPass), nodeOf(d.getLocation()), message);
      if (!sameCase.empty()) {
        later.back().nodes.push_back(later.back().node);
        later.back().nodes.insert(later.back().nodes.end(), sameCase.begin(), sameCase.end());
      }
      return mlir::success();
    });
    compiled = pm.run(*result.module);
  }
  if (!writeReport())
    return 1;
  if (mlir::failed(compiled)) {
    size_t unverified = std::count_if(later.begin(), later.end(), [](const onnx_import::Issue &i) {
      return i.code == "NPUC-E0105";
    });
    bool internal = std::any_of(later.begin(), later.end(), [](const onnx_import::Issue &i) {
      return i.code == "NPUC-E0900";
    });
    if (internal)
      std::cerr << "npuc: internal compiler error compiling '" << input
                << "' (see above): npuc built IR it cannot use; please report it\n";
    else if (unverified)
      std::cerr << "npuc: " << unverified << " lowering case" << (unverified == 1 ? "" : "s")
                << " not verified on " << targetName << (unverified == 1 ? " stands" : " stand")
                << " in the way of compiling '" << input
                << "' (npuc --list-ops; --allow-unverified compiles anyway)\n";
    else
      std::cerr << "npuc: error: compiling '" << input << "' failed (see the errors above)\n";
    return 1;
  }
  if (check) {
    size_t cases = 0;
    for (const auto &entry : nodeCases)
      cases += entry.second.size();
    // The verdict is text: with the report on standard output it goes to
    // standard error, so that standard output is the JSON alone.
    (reportPath == "-" ? std::cerr : std::cout)
        << "npuc: '" << input << "' compiles for " << targetName << " ("
              << result.nodeCount << (result.nodeCount == 1 ? " node, " : " nodes, ") << cases
              << (cases == 1 ? " lowering case" : " lowering cases") << " of its nodes"
              << (allowUnverified ? "" : ", all verified") << ")\n";
    return 0;
  }
  if (!compileTo.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    result.module->print(os);
    if (output.empty() || output == "-") {
      std::cout << text;
      return 0;
    }
    std::string error;
    if (!model::writeFileAtomically(output, std::vector<uint8_t>(text.begin(), text.end()), error)) {
      std::cerr << "npuc: error: " << error << "\n";
      return 1;
    }
    return 0;
  }
  // Provenance: who compiled what, how. Paths are not recorded, so the bytes
  // do not depend on where the model sits.
  std::vector<uint8_t> source;
  std::string readError;
  if (!model::readFile(input, source, readError)) {
    std::cerr << "npuc: error: " << readError << "\n";
    return 1;
  }
  std::string options_ = "--target " + targetName;
  if (gmBudget)
    options_ += " --gm-budget " + gmBudgetArg;
  if (allowUnverified)
    options_ += " --allow-unverified";
  if (noHardwareLoops)
    options_ += " --no-hardware-loops";
  if (floatType != "fp32")
    options_ += " --float " + floatType;
  for (const std::string &s : inputShapes)
    options_ += " --input-shape " + s;
  for (const std::string &s : bindInputs)
    options_ += " --bind-input " + s.substr(0, s.rfind('=')) + "=...";
  std::vector<std::pair<std::string, std::string>> provenance{
      {"compiler", identityString()},
      {"generator", generatorString()},
      {"options", options_},
      {"source-sha256", sha256Hex(source.data(), source.size())}};
  mlir::FailureOr<model::Model> built = enc::buildModel(*result.module, provenance);
  std::string writeError;
  if (mlir::failed(built) ||
      !model::writeFileOrStdout(output, model::serializePieces(*built), writeError)) {
    std::cerr << "npuc: error: " << (writeError.empty() ? "writing '" + output + "' failed (see the errors above)" : writeError) << "\n";
    return 1;
  }
  return 0;
}
