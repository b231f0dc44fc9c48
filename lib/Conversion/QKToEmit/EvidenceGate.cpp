//===- EvidenceGate.cpp - check-lowering-evidence -------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Contracts D10 and D11: a lowering case that no conformance test verified on
// the target is an error at its op (its ONNX node), unless the driver is told
// to compile it anyway (--allow-unverified skips check-lowering-evidence);
// a case outside its op's declared space is npuc's own error
// (check-case-spaces, always run).
//
//===----------------------------------------------------------------------===//

#include "LoweringCase.h"
#include "npuc/Conversion/LoweringCases.h"
#include "npuc/Conversion/Passes.h"
#include "npuc/Support/OpSupport.h"

#include "npuc/Dialect/Graph/IR/TensorNames.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <set>
#include <vector>

namespace npuc {
#define GEN_PASS_DEF_CHECKCASESPACES
#define GEN_PASS_DEF_CHECKLOWERINGEVIDENCE
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

using namespace mlir;
using namespace npuc;

namespace {
/// The ops of each case that `refuse` returns a reason for, in walk order,
/// and the reason.
struct Refusals {
  llvm::MapVector<StringAttr, SmallVector<Operation *>> ops;
  llvm::DenseMap<StringAttr, std::string> why;
};

Refusals collect(ModuleOp module, llvm::function_ref<std::string(Operation *, StringAttr)> refuse) {
  Refusals r;
  module.walk([&](Operation *op) {
    auto key = op->getAttrOfType<StringAttr>(emit::lowering::kCaseAttr);
    if (!key)
      return;
    auto [it, fresh] = r.why.try_emplace(key);
    if (fresh)
      it->second = refuse(op, key);
    if (!it->second.empty())
      r.ops[key].push_back(op);
  });
  return r;
}

/// One error per case, at its first op: the case once, with `why`, and the
/// other ONNX nodes it stands at, named (up to 8) and as notes located at
/// them (the driver's list of nodes).
void report(const Refusals &r, llvm::StringRef suffix) {
  for (const auto &[key, ops] : r.ops) {
    llvm::SetVector<std::string, std::vector<std::string>, std::set<std::string>> nodes;
    SmallVector<Operation *> others;  // an op at each further node
    for (Operation *op : ops) {
      bool fresh = false;
      for (const std::string &n : graph::nodeNames(op->getLoc()))
        fresh |= nodes.insert(n);
      if (fresh && op != ops.front())
        others.push_back(op);
    }
    InFlightDiagnostic d = ops.front()->emitError();
    d << "lowering case " << key.getValue() << " " << r.why.lookup(key);
    if (nodes.size() > 1) {
      d << "; at " << nodes.size() << " nodes: ";
      for (size_t i = 0; i < nodes.size() && i < 8; ++i)
        d << (i ? ", '" : "'") << nodes[i] << "'";
      if (nodes.size() > 8)
        d << ", ...";
    }
    d << suffix;
    for (Operation *op : others)
      d.attachNote(op->getLoc()) << emit::kSameCaseNote;
  }
}

struct CheckCaseSpacesPass : npuc::impl::CheckCaseSpacesBase<CheckCaseSpacesPass> {
  using Base::Base;
  void runOnOperation() override {
    const target::TargetInfo *t = emit::lowering::passTarget(getOperation());
    if (!t)
      return signalPassFailure();
    Refusals r = collect(getOperation(), [&](Operation *op, StringAttr key) -> std::string {
      std::string gap;
      support::CasePoint point;
      const support::CaseSpace *space = emit::lowering::spaceFor(op);
      if (!space)
        return "";
      if (support::parseCaseKey(key.getValue(), point, gap)) {
        point.target = t->name;
        if (space->contains(point, gap))
          return "";
      }
      return "lies outside the case space its lowering declares (" + gap + ")";
    });
    report(r, "; npuc's internal error: please report it with the model and `npuc --identity`");
    if (!r.ops.empty())
      signalPassFailure();
  }
};

struct CheckLoweringEvidencePass
    : npuc::impl::CheckLoweringEvidenceBase<CheckLoweringEvidencePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::TargetInfo *t = emit::lowering::passTarget(module);
    if (!t)
      return signalPassFailure();
    std::string targetName = t->name;
    // The installed table (share/npuc), or (for tests) one read from a file.
    support::EvidenceFile file;
    std::string error;
    const support::EvidenceIndex *index = support::evidenceIndex(evidencePath, file, error);
    if (!index) {
      module.emitError() << error;
      return signalPassFailure();
    }
    Refusals r = collect(module, [&](Operation *, StringAttr key) -> std::string {
      if (index->isVerified(key.getValue(), targetName))
        return "";
      return "is not verified on " + targetName + ": " +
             support::unverifiedReason(*index, key.getValue(), targetName);
    });
    report(r, "; --allow-unverified compiles it anyway");
    if (!r.ops.empty())
      signalPassFailure();
  }
};
} // namespace
