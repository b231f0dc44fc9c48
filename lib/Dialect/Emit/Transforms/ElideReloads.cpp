//===- ElideReloads.cpp - Loads of bytes that are already there -----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// On placed, straight-line code: a DMA into local memory that copies the same
// GM bytes, in the same way, to the same local bytes as an earlier DMA, with
// nothing in between writing either side, copies what is already there. It is
// removed; the readers of those bytes then depend on the earlier DMA (sync
// insertion runs after this pass, on byte ranges). A tile loop whose rows run
// innermost loads a channel tile's weights in every row tile; with the tile's
// slots fixed, all but the first loads of each slot go.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace npuc::emit {
#define GEN_PASS_DEF_EMITELIDERELOADS
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

/// A load still in effect: its op, and what it read and wrote.
struct Held {
  DmaOp op;
  ByteRange src, dst;
};

/// Whether b copies exactly what a copies: the same source and destination
/// bytes, shapes, strides and padding.
bool sameCopy(DmaOp a, const Held &h, const ByteRange &src, const ByteRange &dst) {
  DmaOp b = h.op;
  if (src.space != h.src.space || src.lo != h.src.lo || src.hi != h.src.hi ||
      dst.space != h.dst.space || dst.lo != h.dst.lo || dst.hi != h.dst.hi)
    return false;
  if (a.getSrc().getType() != b.getSrc().getType() || a.getDst().getType() != b.getDst().getType())
    return false;
  return sameAttributesUntagged(a, b);
}

struct EmitElideReloadsPass : npuc::emit::impl::EmitElideReloadsBase<EmitElideReloadsPass> {
  using Base::Base;
  void runOnOperation() override {
    ProgramOp program = getOperation();
    std::vector<Held> held;
    SmallVector<Operation *> gone;
    int64_t loads = 0;
    for (Operation &op : program.getBody().front()) {
      if (llvm::isa<ForOp, HwLoopOp>(op)) {
        held.clear();  // not straight-line code: nothing is known across it
        continue;
      }
      auto engineOp = dyn_cast<EngineOp>(op);
      if (!engineOp)
        continue;
      FailureOr<SmallVector<ByteRange, 4>> ranges = placedRanges(engineOp);
      if (failed(ranges))
        return signalPassFailure();
      auto dma = dyn_cast<DmaOp>(op);
      bool load = dma && cast<BufferType>(dma.getSrc().getType()).isGlobal() &&
                  !cast<BufferType>(dma.getDst().getType()).isGlobal() && ranges->size() == 2;
      if (load) {
        ++loads;
        const ByteRange &src = (*ranges)[0], &dst = (*ranges)[1];
        if (llvm::any_of(held, [&](const Held &h) { return sameCopy(dma, h, src, dst); })) {
          gone.push_back(&op);
          continue;
        }
      }
      // Every write ends what an earlier load left where it writes (its
      // destination) or what that load read (GM written by DMA_OUT).
      for (const ByteRange &w : *ranges)
        if (w.write)
          llvm::erase_if(held, [&](const Held &h) { return h.dst.overlaps(w) || h.src.overlaps(w); });
      if (load)
        held.push_back({dma, (*ranges)[0], (*ranges)[1]});
    }
    if (remarks && loads)
      program.emitRemark() << gone.size() << " of " << loads
                           << " loads copy bytes already in place and are removed";
    for (Operation *op : gone)
      op->erase();
  }
};

} // namespace
