//===- ForwardStores.cpp - Values handed from kernel to kernel in LM ------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// On straight-line code before placement: a kernel stores a tile of its result
// from LM to the arena, and a later kernel loads the same arena bytes into a
// tile of its own laid out the same way. When nothing in between writes the
// arena bytes or the stored tile, the load copies back what the tile still
// holds: it is removed and the reader's buffer becomes a view of the writer's
// (one buffer, live from the writer's compute to the reader's last use;
// emit-plan-memory places it). An arena buffer that no op reads any more is
// then not written at all, and the value it recorded is not in the model
// file's values (a dump does not hold it) unless `keep-stores` asks for
// every value in GM (npuc --materialize-values, contract L4).
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Target.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace npuc::emit {
#define GEN_PASS_DEF_EMITFORWARDSTORES
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

/// What emit-plan-memory aligns every buffer to.
constexpr int64_t kAlign = 64;

/// Bytes of one root buffer (an alloc or a constant), before placement.
struct RootRange {
  Operation *root = nullptr;
  int64_t lo = 0, hi = 0;
  bool overlaps(const RootRange &o) const { return root == o.root && lo < o.hi && o.lo < hi; }
};

RootRange rangeOf(Value buffer, int64_t extra = 0) {
  auto [root, offset] = rootOf(buffer);
  int64_t span = cast<BufferType>(buffer.getType()).getSpanBytes();
  return {root, offset, offset + span + extra};
}

MemorySpace spaceOf(Value buffer) { return cast<BufferType>(buffer.getType()).getSpace(); }

bool padded(DmaOp dma) {
  auto nonZero = [](std::optional<ArrayRef<int64_t>> pads) {
    return pads && llvm::any_of(*pads, [](int64_t p) { return p != 0; });
  };
  return nonZero(dma.getPadLo()) || nonZero(dma.getPadHi());
}

/// One dimension of a copy: its size and the byte strides of its GM side
/// and its local side.
struct CopyDim {
  int64_t size, gm, local;
  bool operator==(const CopyDim &o) const {
    return size == o.size && gm == o.gm && local == o.local;
  }
};
using CopyForm = SmallVector<CopyDim, 4>;

/// The copy `dma` makes between GM and local memory, element by element, in
/// a canonical form: dimensions of size 1 dropped, dimensions contiguous on
/// both sides merged, the element's bytes innermost. Two copies of equal
/// forms move the same bytes between the same relative places.
CopyForm copyForm(DmaOp dma) {
  auto src = cast<BufferType>(dma.getSrc().getType());
  auto dst = cast<BufferType>(dma.getDst().getType());
  BufferType gm = src.isGlobal() ? src : dst, local = src.isGlobal() ? dst : src;
  CopyForm dims;
  for (auto [n, g, l] : llvm::zip(gm.getShape(), gm.getStrides(), local.getStrides()))
    if (n != 1)
      dims.push_back({n, g, l});
  dims.push_back({gm.getElementBytes(), 1, 1});
  CopyForm merged;
  for (const CopyDim &d : dims) {
    CopyDim *last = merged.empty() ? nullptr : &merged.back();
    if (last && last->gm == d.size * d.gm && last->local == d.size * d.local)
      *last = {last->size * d.size, d.gm, d.local};
    else
      merged.push_back(d);
  }
  return merged;
}

/// A store still in effect: an LM tile copied to arena bytes, neither
/// written since.
struct Stored {
  DmaOp op;
  RootRange arena, tile;
  CopyForm form;
};

/// Program indices of the first and last op using `v` or a view of it.
void useSpan(Value v, const DenseMap<Operation *, int64_t> &index, int64_t &first,
             int64_t &last) {
  for (Operation *user : v.getUsers()) {
    if (auto view = dyn_cast<ViewOp>(user)) {
      useSpan(view.getResult(), index, first, last);
      continue;
    }
    auto it = index.find(user);
    if (it == index.end())
      continue;
    first = std::min(first, it->second);
    last = std::max(last, it->second);
  }
}

/// Erases `v` and the views it is made of while nothing uses them.
void eraseDeadViews(Value v) {
  while (auto view = v.getDefiningOp<ViewOp>()) {
    if (!view->use_empty())
      return;
    v = view.getSource();
    view->erase();
  }
}

/// The emit.value ops that record `buffer` or a view of it.
void valuesOver(Value buffer, SmallVectorImpl<ValueOp> &out) {
  for (Operation *user : buffer.getUsers()) {
    if (auto view = dyn_cast<ViewOp>(user))
      valuesOver(view.getResult(), out);
    else if (auto value = dyn_cast<ValueOp>(user))
      out.push_back(value);
  }
}

struct EmitForwardStoresPass : npuc::emit::impl::EmitForwardStoresBase<EmitForwardStoresPass> {
  using Base::Base;

  DenseMap<Operation *, int64_t> index;
  /// Bytes of LM live at each program index, as emit-plan-memory will see
  /// them (an alloc's index to its last use), and what may be.
  std::vector<int64_t> live;
  int64_t liveLimit = 0;

  void runOnOperation() override {
    ProgramOp program = getOperation();
    Block &body = program.getBody().front();
    if (llvm::any_of(body, [](Operation &op) { return llvm::isa<ForOp, HwLoopOp>(op); }))
      return;  // tile loops not lowered yet: nothing is straight-line
    const target::TargetInfo *t = target::lookupTarget(program.getTarget());
    if (!t)
      return signalPassFailure();
    // Handing a tile on keeps it live from its writer to its reader. Placement
    // needs room beyond the live bytes (alignment, fragmentation): a hand-on
    // may not raise them past three quarters of LM anywhere.
    liveLimit = t->params.LMBytes / 4 * 3;
    int64_t i = 0;
    for (Operation &op : body)
      index[&op] = i++;
    live.assign(i + 1, 0);
    for (Operation &op : body)
      if (auto alloc = dyn_cast<AllocOp>(op); alloc && spaceOf(alloc.getBuffer()) == MemorySpace::LM) {
        int64_t first = INT64_MAX, last = -1;
        useSpan(alloc.getBuffer(), index, first, last);
        for (int64_t k = index[alloc]; k <= std::max(last, index[alloc]); ++k)
          live[k] += alloc.getBuffer().getType().getSpanBytes();
      }

    std::vector<Stored> stored;
    int64_t loads = 0, forwarded = 0;
    for (Operation &op : llvm::make_early_inc_range(body)) {
      auto engineOp = dyn_cast<EngineOp>(op);
      if (!engineOp)
        continue;
      auto dma = dyn_cast<DmaOp>(op);
      bool isLoad = dma && spaceOf(dma.getSrc()) == MemorySpace::ARENA &&
                    spaceOf(dma.getDst()) == MemorySpace::LM && !padded(dma);
      if (isLoad) {
        ++loads;
        if (forward(dma, stored)) {
          ++forwarded;
          continue;
        }
      }
      // Every write ends what an earlier store left where it writes: the
      // arena bytes it stored, or the tile it stored from.
      SmallVector<Access> accesses;
      engineOp.getAccesses(accesses);
      for (const Access &a : accesses) {
        if (!a.write)
          continue;
        RootRange w = rangeOf(a.buffer, a.extra);
        llvm::erase_if(stored, [&](const Stored &s) {
          return s.arena.overlaps(w) || s.tile.overlaps(w);
        });
      }
      bool isStore = dma && spaceOf(dma.getSrc()) == MemorySpace::LM &&
                     spaceOf(dma.getDst()) == MemorySpace::ARENA && !padded(dma) &&
                     isa_and_nonnull<AllocOp>(rootOf(dma.getSrc()).first) &&
                     isa_and_nonnull<AllocOp>(rootOf(dma.getDst()).first);
      if (isStore)
        stored.push_back({dma, rangeOf(dma.getDst()), rangeOf(dma.getSrc()), copyForm(dma)});
    }
    int64_t dropped = keepStores ? 0 : dropUnreadStores(body);
    if (remarks && loads)
      program.emitRemark() << forwarded << " of " << loads
                           << " arena loads read a tile still in LM and are removed; "
                           << dropped << " arena buffers no op reads are no longer written";
  }

  /// Removes the arena buffers that no engine op reads any more, with the
  /// writes into them and the values they record: what their writers
  /// computed is handed on in LM only. Returns how many.
  int64_t dropUnreadStores(Block &body) {
    DenseMap<Operation *, SmallVector<Operation *>> writers;
    DenseSet<Operation *> read;
    for (Operation &op : body) {
      auto engineOp = dyn_cast<EngineOp>(op);
      if (!engineOp)
        continue;
      SmallVector<Access> accesses;
      engineOp.getAccesses(accesses);
      for (const Access &a : accesses) {
        Operation *root = rootOf(a.buffer).first;
        if (spaceOf(a.buffer) != MemorySpace::ARENA)
          continue;
        if (a.write)
          writers[root].push_back(&op);
        else
          read.insert(root);
      }
    }
    int64_t dropped = 0;
    for (auto &[root, ops] : writers) {
      if (read.contains(root) || !llvm::isa<AllocOp>(root))
        continue;
      ++dropped;
      for (Operation *op : ops) {
        SmallVector<Value> operands(op->getOperands());
        op->erase();
        for (Value v : operands)
          eraseDeadViews(v);
      }
      SmallVector<ValueOp> observers;
      valuesOver(root->getResult(0), observers);
      for (ValueOp v : observers) {
        Value buffer = v.getBuffer();
        v->erase();
        eraseDeadViews(buffer);
      }
      if (root->use_empty())
        root->erase();
    }
    return dropped;
  }

  /// Replaces `load` by the tile of a store it copies back, if any may be.
  bool forward(DmaOp load, std::vector<Stored> &stored) {
    RootRange from = rangeOf(load.getSrc());
    CopyForm form = copyForm(load);
    Stored *match = nullptr;
    for (Stored &s : stored)
      if (s.arena.root == from.root && s.arena.lo == from.lo && s.form == form)
        match = &s;
    if (!match)
      return false;
    auto [readerRoot, readerOffset] = rootOf(load.getDst());
    auto [writerRoot, writerOffset] = rootOf(match->op.getSrc());
    auto reader = dyn_cast_or_null<AllocOp>(readerRoot);
    auto writer = cast<AllocOp>(writerRoot);
    if (reader == writer && readerOffset == writerOffset) {
      // It would copy back what is still in place (a reader that took the
      // tile over loads it again, as every iteration of a loop did).
      Value src = load.getSrc(), dst = load.getDst();
      load->erase();
      eraseDeadViews(dst);
      eraseDeadViews(src);
      return true;
    }
    if (!reader || reader == writer)
      return false;
    // The reader's buffer becomes a view of the writer's that puts the tile
    // where the reader loaded it, aligned as placement aligns buffers.
    BufferType readerType = reader.getBuffer().getType();
    int64_t delta = writerOffset - readerOffset;
    if (delta < 0 || delta % kAlign != 0 ||
        delta + readerType.getSpanBytes() > writer.getBuffer().getType().getSpanBytes())
      return false;
    // The reader's buffer starts with this load; the writer's is not used
    // after it (another reader took it over, or the writer still works in it).
    int64_t at = index.lookup(load), first = INT64_MAX, last = -1;
    useSpan(reader.getBuffer(), index, first, last);
    if (first < at)
      return false;
    int64_t readerEnd = last;
    first = INT64_MAX, last = -1;
    useSpan(writer.getBuffer(), index, first, last);
    if (last > at)
      return false;
    // The writer's bytes stay live until the reader's last use, the reader's
    // own are not needed.
    int64_t writerEnd = std::max(last, index.lookup(writer)), readerStart = index.lookup(reader);
    int64_t writerSpan = writer.getBuffer().getType().getSpanBytes();
    auto growth = [&](int64_t k) {
      return writerSpan - (k >= readerStart ? readerType.getSpanBytes() : 0);
    };
    for (int64_t k = writerEnd + 1; k <= readerEnd; ++k)
      if (live[k] + growth(k) > liveLimit)
        return false;
    for (int64_t k = writerEnd + 1; k <= readerEnd; ++k)
      live[k] += growth(k);
    Value src = load.getSrc(), dst = load.getDst();
    load->erase();
    eraseDeadViews(dst);
    eraseDeadViews(src);
    Value alias = writer.getBuffer();
    if (delta != 0 || readerType != alias.getType()) {
      OpBuilder b(writer->getContext());
      b.setInsertionPointAfter(writer);
      alias = ViewOp::create(b, reader.getLoc(), readerType, alias, uint64_t(delta));
    }
    reader.getBuffer().replaceAllUsesWith(alias);
    reader->erase();
    return true;
  }
};

} // namespace
