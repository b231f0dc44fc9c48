//===- Compile.cpp - One compile of a model, for the npuc driver ----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Import, the pass pipeline with its diagnostics turned into coded problems
// at ONNX nodes (docs/diagnostics.md), the report, and the written model
// (a failed compile writes no model: contract D7).
//
//===----------------------------------------------------------------------===//

#include "Compile.h"

#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Sha256.h"
#include "npuc/Conversion/LoweringCases.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"
#include "npuc/Pipeline/Pipeline.h"
#include "npuc/Support/OpSupport.h"
#include "npuc/Translation/ModelWriter.h"
#include "npuc/Version.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <iostream>
#include <map>

using namespace npuc;
using driver::Invocation;

namespace {
/// The ONNX node an MLIR location points at (the importer's NameLoc; the
/// first of a fused location's).
std::string nodeOf(mlir::Location loc) {
  llvm::SmallVector<std::string> nodes = graph::nodeNames(loc);
  return nodes.empty() ? "" : nodes.front();
}

/// Diagnostic codes of the phases after import (docs/diagnostics.md), by the
/// pass that reports.
const char *phaseCode(llvm::StringRef pass) {
  if (pass == kVerifyIRPass || pass == "check-case-spaces")
    return "NPUC-E0900";  // an internal compiler error: IR a pass built, a case undeclared
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

/// The problems of one compile after import, every node's lowering cases,
/// and the report that lists them with their evidence.
class Compilation {
public:
  Compilation(const Invocation &inv, onnx_import::Result &result,
              const support::EvidenceIndex *evidence)
      : inv(inv), result(result), evidence(evidence) {
    for (const onnx_import::NodeInfo &n : result.nodes)
      nodes[n.node] = &n;
  }

  /// A problem at `node` (or none), printed now and kept for the report.
  void addIssue(const char *code, const std::string &node, const std::string &message) {
    onnx_import::Issue issue{code, node, "", "", 0, message};
    if (auto it = nodes.find(node); it != nodes.end()) {
      issue.opType = it->second->opType;
      issue.domain = it->second->domain;
      issue.opset = it->second->opset;
    }
    std::cerr << onnx_import::formatIssue(inv.input, issue) << "\n";
    later.push_back(std::move(issue));
  }

  /// An error diagnostic of the pass `pass` (built by `builder`: the pass
  /// before npuc-verify-ir), as a problem with that phase's code.
  void addDiagnostic(const mlir::Diagnostic &d, const std::string &pass, const std::string &builder) {
    std::string message = d.str();
    std::vector<std::string> sameCase;  // the other nodes of one refused case
    for (const mlir::Diagnostic &note : d.getNotes()) {
      if (note.str() == emit::kSameCaseNote) {
        std::string node = nodeOf(note.getLocation());
        if (!node.empty() && !llvm::is_contained(sameCase, node))
          sameCase.push_back(node);
        continue;
      }
      message += "\n  note: " + note.str();
    }
    if (pass == kVerifyIRPass) {
      // Not the model's problem: named as npuc's, with the pass and op.
      std::string node = nodeOf(d.getLocation());
      addIssue(phaseCode(pass), "",
               "internal compiler error: pass '" + builder + "' built IR that does not verify" +
                   (node.empty() ? std::string() : " while compiling node '" + node + "'") + ": " +
                   message + "; please report it with the model and `npuc --identity`");
      return;
    }
    addIssue(phaseCode(pass), nodeOf(d.getLocation()), message);
    if (!sameCase.empty()) {
      later.back().nodes.push_back(later.back().node);
      later.back().nodes.insert(later.back().nodes.end(), sameCase.begin(), sameCase.end());
    }
  }

  /// Writes the report when one is asked for; false when it cannot be.
  bool writeReport() const {
    if (inv.reportPath.empty())
      return true;
    std::map<std::string, std::vector<onnx_import::NodeCase>> cases;
    for (const auto &[node, keys] : nodeCases)
      for (const std::string &key : keys) {
        const support::Evidence *e = evidence->find(key, inv.targetName);
        cases[node].push_back({key, e ? support::levelName(e->level) : "none", e ? e->tests : ""});
      }
    std::string json = onnx_import::reportJson(inv.input, result, later, cases);
    std::string error;
    if (!model::writeFileOrStdout(inv.reportPath, std::vector<uint8_t>(json.begin(), json.end()),
                                  error)) {
      std::cerr << "npuc: error: " << error << "\n";
      return false;
    }
    return true;
  }

  /// The last line of a failed compile: what kind of failure it was.
  void printVerdict() const {
    auto count = [&](const char *code) {
      return std::count_if(later.begin(), later.end(),
                           [&](const onnx_import::Issue &i) { return i.code == code; });
    };
    size_t unverified = count("NPUC-E0105");
    if (count("NPUC-E0900"))
      std::cerr << "npuc: internal compiler error compiling '" << inv.input
                << "' (see above): npuc built IR it cannot use; please report it\n";
    else if (unverified)
      std::cerr << "npuc: " << unverified << " lowering case" << (unverified == 1 ? "" : "s")
                << " not verified on " << inv.targetName
                << (unverified == 1 ? " stands" : " stand") << " in the way of compiling '"
                << inv.input << "' (npuc --list-ops; --allow-unverified compiles anyway)\n";
    else
      std::cerr << "npuc: error: compiling '" << inv.input << "' failed (see the errors above)\n";
  }

  size_t caseCount() const {
    size_t cases = 0;
    for (const auto &entry : nodeCases)
      cases += entry.second.size();
    return cases;
  }

  std::map<std::string, std::vector<std::string>> nodeCases;

private:
  const Invocation &inv;
  onnx_import::Result &result;
  const support::EvidenceIndex *evidence;
  std::map<std::string, const onnx_import::NodeInfo *> nodes;
  std::vector<onnx_import::Issue> later;
};

/// --compile-to: the phase's IR, to standard output or the -o file.
int printPhase(mlir::ModuleOp module, const std::string &output) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
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

/// Encodes the module with its provenance and writes the model file.
int writeModel(const Invocation &inv, mlir::ModuleOp module) {
  // Provenance: who compiled what, how. Paths are not recorded, so the bytes
  // do not depend on where the model sits.
  std::vector<uint8_t> source;
  std::string readError;
  if (!model::readFile(inv.input, source, readError)) {
    std::cerr << "npuc: error: " << readError << "\n";
    return 1;
  }
  std::string options_ = "--target " + inv.targetName;
  if (inv.gmBudget)
    options_ += " --gm-budget " + inv.gmBudgetArg;
  if (inv.allowUnverified)
    options_ += " --allow-unverified";
  if (inv.noHardwareLoops)
    options_ += " --no-hardware-loops";
  if (inv.materializeValues)
    options_ += " --materialize-values";
  if (inv.floatType != "fp32")
    options_ += " --float " + inv.floatType;
  if (inv.float64 != "f32")
    options_ += " --float64 " + inv.float64;
  for (const std::string &s : inv.inputShapes)
    options_ += " --input-shape " + s;
  for (const std::string &s : inv.bindInputs)
    options_ += " --bind-input " + s.substr(0, s.rfind('=')) + "=...";
  std::vector<std::pair<std::string, std::string>> provenance{
      {"compiler", identityString()},
      {"generator", generatorString()},
      {"options", options_},
      {"source-sha256", sha256Hex(source.data(), source.size())}};
  mlir::FailureOr<model::Model> built = enc::buildModel(module, provenance);
  std::string writeError;
  if (mlir::failed(built) ||
      !model::writeFileOrStdout(inv.output, model::serializePieces(*built), writeError)) {
    std::cerr << "npuc: error: " << (writeError.empty() ? "writing '" + inv.output + "' failed (see the errors above)" : writeError) << "\n";
    return 1;
  }
  return 0;
}
} // namespace

int driver::compile(const Invocation &inv) {
  // The resources a compile needs are found before any work (contract D5):
  // the evidence gate's table, unless --allow-unverified skips the gate, and
  // the report, which names each case's evidence.
  // (The test hook --test-evidence replaces the installed table in both.)
  support::EvidenceFile evidenceFile;
  const support::EvidenceIndex *evidence = nullptr;
  if (!inv.allowUnverified || !inv.reportPath.empty()) {
    std::string error;
    if (!(evidence = support::evidenceIndex(inv.testEvidence, evidenceFile, error))) {
      std::cerr << "npuc: error: " << error << "\n";
      return 1;
    }
  }

  mlir::MLIRContext context;
  context.printOpOnDiagnostic(false);  // diagnostics point at the ONNX node instead
  onnx_import::Result result = onnx_import::importModel(context, inv.input, inv.importOptions);
  Compilation compilation(inv, result, evidence);
  for (const std::string &w : result.warnings)
    std::cerr << inv.input << ": warning: " << w << "\n";
  for (const onnx_import::Issue &issue : result.issues)
    std::cerr << onnx_import::formatIssue(inv.input, issue) << "\n";
  if (!result.issues.empty()) {
    compilation.writeReport();
    std::cerr << "npuc: " << result.issues.size() << " problem"
              << (result.issues.size() == 1 ? " stands" : "s stand") << " in the way of compiling '"
              << inv.input << "'\n";
    return 1;
  }
  // The same passes as npuc-opt --npuc-pipeline (one pipeline builder);
  // --check runs them all and writes nothing.
  mlir::PassManager pm(&context);
  PipelineOptions pipelineOptions;
  pipelineOptions.target = inv.targetName;
  pipelineOptions.until = inv.compileTo.empty() ? "encoding" : inv.compileTo;
  pipelineOptions.gmBudget = inv.gmBudget;
  pipelineOptions.allowUnverified = inv.allowUnverified;
  pipelineOptions.hardwareLoops = !inv.noHardwareLoops;
  pipelineOptions.materializeValues = inv.materializeValues;
  pipelineOptions.floatType = inv.floatType;
  // Every pass's IR is verified by npuc-verify-ir after it (instead of the
  // pass manager's verifier), so that IR a pass built wrong is reported as
  // npuc's internal error, not the model's.
  pipelineOptions.verifyEach = true;
  pipelineOptions.evidence = inv.testEvidence;
  pm.enableVerifier(false);
  buildPipeline(pm, pipelineOptions);
  std::string currentPass, builderPass;
  pm.addInstrumentation(std::make_unique<PassObserver>(currentPass, builderPass,
                                                       compilation.nodeCases, inv.breakIRAfter));
  mlir::LogicalResult compiled = mlir::success();
  {
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
        return mlir::failure();  // warnings and remarks print as usual
      compilation.addDiagnostic(d, currentPass, builderPass);
      return mlir::success();
    });
    compiled = pm.run(*result.module);
  }
  if (!compilation.writeReport())
    return 1;
  if (mlir::failed(compiled)) {
    compilation.printVerdict();
    return 1;
  }
  if (inv.check) {
    size_t cases = compilation.caseCount();
    // The verdict is text: with the report on standard output it goes to
    // standard error, so that standard output is the JSON alone.
    (inv.reportPath == "-" ? std::cerr : std::cout)
        << "npuc: '" << inv.input << "' compiles for " << inv.targetName << " ("
        << result.nodeCount << (result.nodeCount == 1 ? " node, " : " nodes, ") << cases
        << (cases == 1 ? " lowering case" : " lowering cases") << " of its nodes"
        << (inv.allowUnverified ? "" : ", all verified") << ")\n";
    return 0;
  }
  if (!inv.compileTo.empty())
    return printPhase(*result.module, inv.output);
  return writeModel(inv, *result.module);
}
