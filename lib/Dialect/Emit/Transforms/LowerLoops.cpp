//===- LowerLoops.cpp - Tile loops to engine code -------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace npuc::emit {
#define GEN_PASS_DEF_EMITLOWERLOOPS
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

void unroll(ForOp loop, int64_t id, bool tag) {
  OpBuilder b(loop);
  for (int64_t t = int64_t(loop.getLower()); t < int64_t(loop.getUpper()); ++t) {
    IRMapping map;
    auto iteration = b.getDenseI64ArrayAttr({id, t});
    for (Operation &op : loop.getBody().front()) {
      if (auto iv = dyn_cast<IterViewOp>(op)) {
        // The iteration's view; the whole source, as it is, needs none.
        Value src = map.lookupOrDefault(iv.getSource());
        int64_t offset = iv.offsetAt(t);
        Value v = offset == 0 && src.getType() == iv.getResult().getType()
                      ? src
                      : ViewOp::create(b, iv.getLoc(), iv.getResult().getType(), src,
                                       b.getI64IntegerAttr(offset))
                            .getResult();
        map.map(iv.getResult(), v);
        continue;
      }
      Operation *clone = b.clone(op, map);
      if (tag)
        clone->setAttr(ForOp::kIterationTag, iteration);
    }
  }
  loop.erase();
}

struct EmitLowerLoopsPass : npuc::emit::impl::EmitLowerLoopsBase<EmitLowerLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<ForOp> loops;
    bool nested = false;
    getOperation().walk([&](ForOp loop) {
      if (loop->getParentOfType<ForOp>()) {
        loop.emitOpError("nested tile loops are not lowered: each kernel loop is one "
                         "delinearized emit.for");
        nested = true;
      }
      loops.push_back(loop);
    });
    if (nested)
      return signalPassFailure();
    int64_t id = 0;
    for (ForOp loop : loops) {
      if (remarks)
        loop.emitRemark() << "unrolled " << int64_t(loop.getUpper()) - int64_t(loop.getLower())
                          << " iterations" << (tag ? ", each op tagged with its iteration" : "")
                          << ": memory planning and sync insertion work on straight-line "
                             "code; emit-hardware-loops rolls what repeats";
      unroll(loop, id++, tag);
    }
  }
};

} // namespace
