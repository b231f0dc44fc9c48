//===- EvidenceGate.cpp - check-lowering-evidence -------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Contracts D10 and D11: a lowering case that no conformance test verified on
// the target is an error at its op (its ONNX node), unless the driver is told
// to compile it anyway (--allow-unverified skips this pass).
//
//===----------------------------------------------------------------------===//

#include "LoweringCase.h"
#include "npuc/Conversion/Passes.h"
#include "npuc/Support/OpSupport.h"

#include "npuc/Dialect/Graph/IR/TensorNames.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"


namespace npuc {
#define GEN_PASS_DEF_CHECKLOWERINGEVIDENCE
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

using namespace mlir;
using namespace npuc;

namespace {
struct CheckLoweringEvidencePass
    : npuc::impl::CheckLoweringEvidenceBase<CheckLoweringEvidencePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The installed table (share/npuc), or (for tests) one read from a file.
    support::EvidenceFile file;
    std::string error;
    const support::EvidenceIndex *index = support::evidenceIndex(evidencePath, file, error);
    if (!index) {
      module.emitError() << error;
      return signalPassFailure();
    }
    // One refusal per case: the case once, at its first node, the other
    // nodes it stands in the way at named with it (and as notes located at
    // them, for the report's list of nodes).
    llvm::MapVector<StringAttr, SmallVector<Operation *>> refused;
    llvm::DenseMap<StringAttr, std::string> why;
    module.walk([&](Operation *op) {
      auto key = op->getAttrOfType<StringAttr>(emit::lowering::kCaseAttr);
      if (!key)
        return;
      if (!why.count(key)) {
        // A case outside its selector's declared space is a gap in npuc's
        // declarations (no evidence can vouch for it: the grid enumerates
        // the space), reported as such.
        std::string gap;
        support::CasePoint point;
        const support::CaseSpace *space = emit::lowering::spaceFor(op);
        if (space && (!support::parseCaseKey(key.getValue(), point, gap) ||
                      (point.target = targetName, !space->contains(point, gap))))
          why[key] = "lies outside the case space its lowering declares (" + gap +
                     "): an internal error, please report it";
        else if (!index->isVerified(key.getValue(), targetName))
          why[key] = "is not verified on " + targetName + ": " +
                     support::unverifiedReason(*index, key.getValue(), targetName);
        else
          why[key] = "";
      }
      if (!why[key].empty())
        refused[key].push_back(op);
    });
    bool ok = refused.empty();
    for (auto &[key, ops] : refused) {
      std::string nodes;
      size_t named = 0;
      for (Operation *op : ops)
        for (const std::string &n : graph::nodeNames(op->getLoc()))
          if (named++ < 8)
            nodes += (nodes.empty() ? "'" : ", '") + n + "'";
      InFlightDiagnostic d = ops.front()->emitError();
      d << "lowering case " << key.getValue() << " " << why[key];
      if (ops.size() > 1)
        d << "; at " << ops.size() << " nodes: " << nodes << (named > 8 ? ", ..." : "");
      d << "; --allow-unverified compiles it anyway";
      for (Operation *op : llvm::drop_begin(ops))
        d.attachNote(op->getLoc()) << "the same case";
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
