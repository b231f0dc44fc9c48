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
#include "npuc/Base/ModelFile.h"
#include "npuc/Conversion/Passes.h"
#include "npuc/Support/OpSupport.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>

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
    std::vector<support::Evidence> table;
    std::unique_ptr<support::EvidenceIndex> own;
    const support::EvidenceIndex *index = nullptr;
    if (evidencePath.empty()) {
      std::string error;
      if (!(index = support::installedIndex(error))) {
        module.emitError() << error;
        return signalPassFailure();
      }
    } else {
      std::vector<uint8_t> bytes;
      std::string error;
      if (!model::readFile(evidencePath, bytes, error) ||
          !support::parseEvidence(std::string_view(reinterpret_cast<const char *>(bytes.data()),
                                                   bytes.size()),
                                  table, error)) {
        module.emitError() << "evidence table '" << evidencePath << "': " << error;
        return signalPassFailure();
      }
      own = std::make_unique<support::EvidenceIndex>(table);
      index = own.get();
    }
    bool ok = true;
    module.walk([&](Operation *op) {
      auto key = op->getAttrOfType<StringAttr>(emit::lowering::kCaseAttr);
      if (!key || index->isVerified(key.getValue(), targetName))
        return;
      op->emitError() << "lowering case " << key.getValue() << " is not verified on "
                      << targetName << ": "
                      << support::unverifiedReason(*index, key.getValue(), targetName)
                      << "; --allow-unverified compiles it anyway";
      ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
