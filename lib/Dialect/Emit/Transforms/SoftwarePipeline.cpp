//===- SoftwarePipeline.cpp - Loads of the next tile before this compute --===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// After IREE's GPUPipelining, in two stages: stage 0 is the loads of a tile
// (DMA from GM into a local tile) and the VECTOR copies that only rearrange
// what they loaded (stageZero), stage 1 everything else. The loop becomes
// prologue (loads of the first iteration), kernel (loads of t + 1, then the
// rest of t) and epilogue (the rest of the last iteration). Views, tiles and
// allocations are pure and recomputed in each stage that uses them.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace npuc::emit {
#define GEN_PASS_DEF_EMITPIPELINE
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

bool isPure(Operation *op) { return isa<ViewOp, IterViewOp, AllocOp>(op); }

bool isLoad(Operation *op) {
  auto dma = dyn_cast<DmaOp>(op);
  return dma && cast<BufferType>(dma.getSrc().getType()).isGlobal() &&
         !cast<BufferType>(dma.getDst().getType()).isGlobal();
}

/// The buffer a chain of views inside `loop` starts from.
Value rootOf(Value v, ForOp loop) {
  while (Operation *def = v.getDefiningOp()) {
    if (!loop->isProperAncestor(def) || !isa<ViewOp, IterViewOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// Whether the tile `v` names rotates over at least two slots per iteration.
bool rotates(Value v, ForOp loop) {
  while (Operation *def = v.getDefiningOp()) {
    if (!loop->isProperAncestor(def))
      return false;
    if (auto iv = dyn_cast<IterViewOp>(def); iv && iv.getSlots() >= 2 &&
                                             iv.getIteration() == loop.getIteration())
      return !loop->isProperAncestor(iv.getSource().getDefiningOp() ? iv.getSource().getDefiningOp()
                                                                    : loop.getOperation());
    if (!isa<ViewOp, IterViewOp>(def))
      return false;
    v = def->getOperand(0);
  }
  return false;
}

/// Why `loop` cannot be pipelined, or an empty string.
std::string whyNot(ForOp loop) {
  SmallPtrSet<Value, 8> written;
  for (Operation &op : loop.getBody().front()) {
    if (isa<ForOp>(op))
      return "its body holds a nested region";
    // GM any engine op of the body writes (a store, a scatter).
    if (auto engine = dyn_cast<EngineOp>(op)) {
      SmallVector<Access> accesses;
      engine.getAccesses(accesses);
      for (const Access &a : accesses)
        if (a.write && cast<BufferType>(a.buffer.getType()).isGlobal())
          written.insert(rootOf(a.buffer, loop));
    }
  }
  // A tile's loads must all come before anything of the iteration reads it:
  // a load after a read (chunks sharing a tile) would overwrite data the
  // compute of the same iteration has not read yet once loads move ahead.
  // Several loads filling parts of a tile before it is read (a stacked
  // image's kernel rows) move ahead together.
  SmallPtrSet<Value, 8> loaded, read;
  for (Operation &op : loop.getBody().front()) {
    if (!isLoad(&op)) {
      if (auto engine = dyn_cast<EngineOp>(op)) {
        SmallVector<Access> accesses;
        engine.getAccesses(accesses);
        for (const Access &a : accesses)
          if (!a.write)
            read.insert(rootOf(a.buffer, loop));
      }
      continue;
    }
    auto dma = cast<DmaOp>(op);
    if (!rotates(dma.getDst(), loop))
      return "a load writes a tile without rotating slots (buffers = 1)";
    if (written.contains(rootOf(dma.getSrc(), loop)))
      return "a load reads a GM buffer the loop writes";
    Value root = rootOf(dma.getDst(), loop);
    if (loaded.contains(root) && read.contains(root))
      return "a tile is loaded again after the iteration read it";
    loaded.insert(root);
  }
  return "";
}

/// Clones the ops of `stage` from `loop` into `into` (iteration `iv`, views
/// `shift` iterations ahead), recomputing the pure producers they use.
class StageCloner {
public:
  StageCloner(ForOp loop, ForOp into, int64_t shift)
      : loop(loop), b(OpBuilder::atBlockEnd(&into.getBody().front())), shift(shift) {
    map.map(loop.getIteration(), into.getIteration());
  }
  void clone(Operation *op) {
    for (Value v : op->getOperands())
      materialize(v);
    Operation *c = b.clone(*op, map);
    if (auto iv = dyn_cast<IterViewOp>(c))
      iv.setShiftAttr(b.getI64IntegerAttr(int64_t(iv.getShift()) + shift));
  }

private:
  void materialize(Value v) {
    if (map.contains(v))
      return;
    Operation *def = v.getDefiningOp();
    if (!def || !loop->isProperAncestor(def))
      return;  // defined outside the loop
    clone(def);
  }
  ForOp loop;
  OpBuilder b;
  int64_t shift;
  IRMapping map;
};

ForOp makeLoop(OpBuilder &b, ForOp like, int64_t lower, int64_t upper) {
  auto loop = ForOp::create(b, like.getLoc(), like.getBasisAttr(), b.getI64IntegerAttr(lower),
                            b.getI64IntegerAttr(upper), b.getI64IntegerAttr(1), UnitAttr());
  loop.getBody().emplaceBlock().addArgument(b.getIndexType(), like.getLoc());
  return loop;
}

/// Stage 0: the loads, then the VECTOR copies that only prepare what they
/// loaded for the compute (an im2col gather from the image, a tile cleared
/// from a row of zeros, a bias broadcast into the accumulators). A copy
/// belongs to it when it writes rotating local tiles only and reads only
/// tiles stage 0 filled earlier in the iteration, or buffers from outside the
/// loop that the loop never writes: moved one iteration ahead, it touches
/// what the next iteration's loads touch, and VECTOR runs it while MATRIX
/// works on this tile.
SmallPtrSet<Operation *, 16> stageZero(ForOp loop) {
  SmallPtrSet<Value, 8> writtenInLoop, filled;
  Block &body = loop.getBody().front();
  for (Operation &op : body)
    if (auto engine = dyn_cast<EngineOp>(op)) {
      SmallVector<Access> accesses;
      engine.getAccesses(accesses);
      for (const Access &a : accesses)
        if (a.write)
          writtenInLoop.insert(rootOf(a.buffer, loop));
    }
  SmallPtrSet<Operation *, 16> stage;
  for (Operation &op : body) {
    if (isLoad(&op)) {
      stage.insert(&op);
      filled.insert(rootOf(cast<DmaOp>(op).getDst(), loop));
      continue;
    }
    auto engine = dyn_cast<EngineOp>(op);
    if (!engine)
      continue;
    SmallVector<Access> accesses;
    engine.getAccesses(accesses);
    // A tile the compute writes is no longer only what stage 0 filled.
    auto computes = [&] {
      for (const Access &a : accesses)
        if (a.write)
          filled.erase(rootOf(a.buffer, loop));
    };
    if (!isa<CastOp>(op)) {
      computes();
      continue;
    }
    bool ok = true;
    for (const Access &a : accesses) {
      Value root = rootOf(a.buffer, loop);
      if (a.write) {
        ok &= rotates(a.buffer, loop);
        continue;
      }
      Operation *def = root.getDefiningOp();
      bool outside = !def || !loop->isProperAncestor(def);
      ok &= filled.contains(root) || (outside && !writtenInLoop.contains(root));
    }
    if (!ok) {
      computes();
      continue;
    }
    stage.insert(&op);
    for (const Access &a : accesses)
      if (a.write)
        filled.insert(rootOf(a.buffer, loop));
  }
  return stage;
}

bool onVector(Operation *op) {
  auto engine = dyn_cast<EngineOp>(op);
  return engine && engine.getEngine() == Engine::VECTOR;
}

void pipeline(ForOp loop) {
  int64_t lo = int64_t(loop.getLower()), hi = int64_t(loop.getUpper());
  SmallVector<Operation *> loads, rest;
  SmallPtrSet<Operation *, 16> zero = stageZero(loop);
  for (Operation &op : loop.getBody().front())
    if (!isPure(&op))
      (zero.contains(&op) ? loads : rest).push_back(&op);
  OpBuilder b(loop);
  ForOp prologue = makeLoop(b, loop, lo, lo + 1);
  StageCloner first(loop, prologue, 0);
  for (Operation *op : loads)
    first.clone(op);
  // The kernel: the next tile's DMAs, this tile's compute up to its first
  // VECTOR op, the next tile's VECTOR copies, the rest of this tile. Engines
  // take instructions in program order, so the product of this tile is
  // issued before the copies for the next one, and VECTOR runs those copies
  // ahead of this tile's epilogue while MATRIX multiplies.
  ForOp kernel = makeLoop(b, loop, lo, hi - 1);
  StageCloner next(loop, kernel, 1), now(loop, kernel, 0);
  for (Operation *op : loads)
    if (!onVector(op))
      next.clone(op);
  auto firstVector = llvm::find_if(rest, onVector);
  for (Operation *op : llvm::make_range(rest.begin(), firstVector))
    now.clone(op);
  for (Operation *op : loads)
    if (onVector(op))
      next.clone(op);
  for (Operation *op : llvm::make_range(firstVector, rest.end()))
    now.clone(op);
  ForOp epilogue = makeLoop(b, loop, hi - 1, hi);
  StageCloner last(loop, epilogue, 0);
  for (Operation *op : rest)
    last.clone(op);
  loop.erase();
}

struct EmitPipelinePass : npuc::emit::impl::EmitPipelineBase<EmitPipelinePass> {
  void runOnOperation() override {
    SmallVector<ForOp> loops;
    getOperation().walk([&](ForOp loop) {
      if (loop.getPipeline())
        loops.push_back(loop);
    });
    for (ForOp loop : loops) {
      loop.removePipelineAttr();
      if (int64_t(loop.getUpper()) - int64_t(loop.getLower()) < 2)
        continue;  // nothing to overlap
      if (std::string why = whyNot(loop); !why.empty()) {
        loop.emitRemark() << "not pipelined: " << why << "; the loop runs its iterations in order";
        continue;
      }
      pipeline(loop);
    }
  }
};

} // namespace
