//===- PlanMemory.cpp - Place buffers by liveness -------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Placement.h"
#include "npuc/Base/Target.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include <map>

namespace npuc::emit {
#define GEN_PASS_DEF_EMITPLANMEMORY
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

struct EmitPlanMemoryPass : npuc::emit::impl::EmitPlanMemoryBase<EmitPlanMemoryPass> {
  using Base::Base;
  void runOnOperation() override {
    ProgramOp program = getOperation();
    const target::TargetInfo *t = target::lookupTarget(program.getTarget());
    if (!t)
      return signalPassFailure();
    Block &body = program.getBody().front();
    DenseMap<Operation *, int64_t> index;
    int64_t i = 0;
    for (Operation &op : body)
      index[&op] = i++;
    std::map<MemorySpace, std::vector<Interval>> bySpace;
    OpBuilder b(program.getContext());
    int64_t constBytes = 0;
    for (Operation &op : body) {
      if (auto c = dyn_cast<ConstantOp>(op)) {
        if (!c.getOffset()) {
          c.setOffsetAttr(b.getI64IntegerAttr(constBytes));
          constBytes = (constBytes + c.getBuffer().getType().getSpanBytes() + 63) / 64 * 64;
        }
        continue;
      }
      auto alloc = dyn_cast<AllocOp>(op);
      if (!alloc || alloc.getOffset())
        continue;
      MemorySpace space = alloc.getBuffer().getType().getSpace();
      if (space != MemorySpace::LM && space != MemorySpace::ACC && space != MemorySpace::ARENA) {
        alloc.emitOpError() << "a " << stringifyMemorySpace(space)
                            << " buffer must be placed when it is created";
        return signalPassFailure();
      }
      bySpace[space].push_back(intervalOf(alloc, index));
    }
    int64_t budget = gmBudget > 0 ? int64_t(gmBudget) : t->params.DefaultGMBudget;
    for (auto &[space, items] : bySpace) {
      int64_t capacity = space == MemorySpace::LM    ? t->params.LMBytes
                         : space == MemorySpace::ACC ? t->params.ACCBytes
                                                     : budget;
      int64_t peak = space == MemorySpace::ARENA ? place(items, kPlacementAlign)
                                                 : placeLocal(items, capacity);
      for (Interval &it : items) {
        if (it.offset + it.size > capacity) {
          if (space == MemorySpace::ARENA)
            it.alloc.emitOpError() << "the arena needs " << peak << " bytes at this point, more "
                                   << "than the GM budget of " << capacity
                                   << " bytes (--gm-budget)";
          else
            it.alloc.emitOpError() << "needs " << it.size << " bytes of "
                                   << stringifyMemorySpace(space) << " at offset " << it.offset
                                   << "; " << t->name << " has " << capacity << " bytes";
          return signalPassFailure();
        }
        it.alloc.setOffsetAttr(b.getI64IntegerAttr(it.offset));
      }
    }
  }
};

} // namespace
