//===- InsertSync.cpp - Flags from data dependencies ----------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Target.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include <array>

namespace npuc::emit {
#define GEN_PASS_DEF_EMITINSERTSYNC
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

constexpr int kEngines = 5;

using Range = ByteRange;

struct Past {
  int64_t index;
  SmallVector<Range, 4> ranges;
  Operation *op;
  /// What its engine knew of every engine right after it (vector clock).
  std::array<int64_t, 5> knew;
};

bool conflicts(ArrayRef<Range> a, ArrayRef<Range> b) {
  for (const Range &x : a)
    for (const Range &y : b)
      if (x.space == y.space && (x.write || y.write) && x.lo < y.hi && y.lo < x.hi)
        return true;
  return false;
}

struct EmitInsertSyncPass : npuc::emit::impl::EmitInsertSyncBase<EmitInsertSyncPass> {
  void runOnOperation() override {
    ProgramOp program = getOperation();
    const target::TargetInfo *t = target::lookupTarget(program.getTarget());
    if (!t)
      return signalPassFailure();
    int64_t flags = t->params.FlagsPerPair;
    // vc[E][S]: the latest op of S that E is known to run after (-1: none).
    std::array<std::array<int64_t, kEngines>, kEngines> vc;
    for (auto &row : vc)
      row.fill(-1);
    std::array<int64_t, kEngines> last;
    last.fill(-1);
    std::array<std::vector<Past>, kEngines> history;
    // pending[S][D][f]: index of D's wait on flag f, until S knows it ran.
    std::vector<int64_t> pending(size_t(kEngines * kEngines * flags), -1);
    int64_t counter = 0;
    OpBuilder b(program.getContext());
    auto engineAttr = [&](Engine e) { return EngineAttr::get(b.getContext(), e); };

    SmallVector<Operation *> ops;
    for (Operation &op : program.getBody().front())
      ops.push_back(&op);
    for (Operation *op : ops) {
      auto engineOp = dyn_cast<EngineOp>(op);
      if (!engineOp)
        continue;
      int d = int(engineOp.getEngine());
      FailureOr<SmallVector<Range, 4>> ranges = placedRanges(engineOp);
      if (failed(ranges))
        return signalPassFailure();
      b.setInsertionPoint(op);
      // Per other engine, the latest conflicting op that d is not yet
      // ordered after. The most recent one is synchronised first: what its
      // engine knew may already order d after the others.
      struct Conflict {
        int64_t index;
        int s;
        const Past *producer;
      };
      SmallVector<Conflict> conflictsOf;
      for (int s = 1; s < kEngines; ++s) {
        if (s == d)
          continue;
        for (auto it = history[size_t(s)].rbegin(); it != history[size_t(s)].rend(); ++it) {
          if (it->index <= vc[size_t(d)][size_t(s)])
            break;
          if (conflicts(it->ranges, *ranges)) {
            conflictsOf.push_back({it->index, s, &*it});
            break;
          }
        }
      }
      llvm::sort(conflictsOf, [](auto &a, auto &b) { return a.index > b.index; });
      for (const auto &entry : conflictsOf) {
        int s = entry.s;
        if (entry.index <= vc[size_t(d)][size_t(s)])
          continue;  // ordered through an engine synchronised just before
        const Past &producer = *entry.producer;
        auto slot = [&](int64_t f) -> int64_t & {
          return pending[size_t((s * kEngines + d) * flags + f)];
        };
        // A flag (s -> d) whose previous wait s is known to have run by the
        // time it signals: `known` is what s knows of d there. The lowest
        // such id: a flag is free or not by what is known of its wait, not by
        // its number, and reusing the same ids makes the iterations of a
        // tile loop repeat exactly (emit-hardware-loops).
        auto freeFlag = [&](int64_t known) -> int64_t {
          for (int64_t cand = 0; cand < flags; ++cand)
            if (slot(cand) < 0 || slot(cand) <= known)
              return cand;
          return -1;
        };
        // The signal goes right after the producer, so that s sets it as soon
        // as the producer completes, not after whatever s runs later (which
        // would order d behind s's later work: no overlap).
        int64_t f = freeFlag(producer.knew[size_t(d)]);
        bool early = f >= 0;
        std::array<int64_t, kEngines> learned = producer.knew;
        if (!early) {
          // No flag is free that early: signal just before the consumer,
          // as far as s has got, draining d when even then none is free.
          f = freeFlag(vc[size_t(s)][size_t(d)]);
          if (f < 0) {
            BarrierOp::create(b, op->getLoc(), b.getArrayAttr({engineAttr(Engine(d))}));
            for (int e = 0; e < kEngines; ++e)
              vc[size_t(e)][size_t(d)] = std::max(vc[size_t(e)][size_t(d)], last[size_t(d)]);
            f = 0;  // d has drained: every flag's last wait has run
          }
        }
        OpBuilder at(op);
        if (early)
          at.setInsertionPointAfter(producer.op);
        auto flag = FlagOp::create(at, op->getLoc(),
                                   FlagType::get(b.getContext(), Engine(s), Engine(d)),
                                   b.getI64IntegerAttr(f));
        SignalOp::create(at, op->getLoc(), flag);
        if (!early) {
          last[size_t(s)] = counter++;
          vc[size_t(s)][size_t(s)] = last[size_t(s)];
          learned = vc[size_t(s)];
        }
        WaitOp::create(b, op->getLoc(), flag);
        int64_t waitIndex = counter++;
        slot(f) = waitIndex;
        // d now runs after what s knew when it signalled.
        for (int e = 0; e < kEngines; ++e)
          vc[size_t(d)][size_t(e)] = std::max(vc[size_t(d)][size_t(e)], learned[size_t(e)]);
        last[size_t(d)] = waitIndex;
      }
      int64_t mine = counter++;
      last[size_t(d)] = mine;
      vc[size_t(d)][size_t(d)] = mine;
      history[size_t(d)].push_back({mine, std::move(*ranges), op, vc[size_t(d)]});
    }
  }
};

} // namespace
