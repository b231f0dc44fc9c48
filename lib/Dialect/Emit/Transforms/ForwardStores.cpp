//===- ForwardStores.cpp - Values handed from kernel to kernel in LM ------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// On straight-line code before placement: a kernel stores a tile of its result
// from local memory (LM or ACC) to the arena, and a later kernel loads arena
// bytes it stored into a tile of its own. When nothing in between writes the
// arena bytes or the stored tile, the load copies back what the tile still
// holds, and goes:
// - the last reader of a tile stored whole, laid out the same way, takes the
//   tile over: its buffer becomes a view of the writer's (one buffer, live
//   from the writer's compute to the reader's last use);
// - any other reader, of part of the tile, in another row pitch, from ACC,
//   gets its rows by one VECTOR copy (a few cycles instead of a round trip
//   through GM), the stored tile live until then.
// A hand-on may not raise the live bytes of a space past three quarters of
// it. Then an arena buffer that no op reads any more is not written at all,
// and the value it recorded is not in the model file's values (a dump does
// not hold it) unless `keep-stores` asks for every value in GM (npuc
// --materialize-values, contract L4).
//===----------------------------------------------------------------------===//

#include "Copies.h"
#include "Placement.h"
#include "npuc/Base/Target.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"

#include <map>

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

int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

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

/// A load rewritten as a VECTOR copy: the rows it reads, as a 2-D view of
/// the stored tile and of the loading tile.
struct CopyRows {
  int64_t rows = 0, rowBytes = 0;
  int64_t srcOffset = 0, srcPitch = 0;  // in the stored tile's root
  int64_t dstPitch = 0;
};

/// Where the rows `load` reads from the arena sit in the tile `s` stored
/// there; none unless each row is one run of the tile.
std::optional<CopyRows> rowsInTile(DmaOp load, const Stored &s) {
  CopyForm lf = copyForm(load), sf = s.form;
  CopyRows r;
  if (lf.size() == 1) {
    r.rows = 1, r.rowBytes = lf[0].size, r.dstPitch = lf[0].size;
  } else if (lf.size() == 2 && lf[1].gm == 1 && lf[1].local == 1) {
    r.rows = lf[0].size, r.rowBytes = lf[1].size, r.dstPitch = lf[0].local;
  } else {
    return std::nullopt;
  }
  int64_t gmPitch = lf.size() == 1 ? r.rowBytes : lf[0].gm;
  int64_t at = rangeOf(load.getSrc()).lo - s.arena.lo, tile = s.tile.lo;
  if (sf.size() == 1) {  // the tile is the arena bytes, one run
    r.srcOffset = tile + at, r.srcPitch = gmPitch;
    return r;
  }
  // Rows of C bytes, dense in the arena, at a pitch P in the tile.
  if (sf.size() != 2 || sf[1].gm != 1 || sf[1].local != 1 || sf[0].gm != sf[1].size)
    return std::nullopt;
  int64_t c = sf[1].size, p = sf[0].local;
  if ((r.rows > 1 && gmPitch % c != 0) || at % c + r.rowBytes > c)
    return std::nullopt;
  r.srcOffset = tile + at / c * p + at % c, r.srcPitch = gmPitch / c * p;
  return r;
}

struct EmitForwardStoresPass : npuc::emit::impl::EmitForwardStoresBase<EmitForwardStoresPass> {
  using Base::Base;

  const target::TargetInfo *target = nullptr;
  DenseMap<Operation *, int64_t> index;
  /// Bytes of LM and of ACC live at each program index, as emit-plan-memory
  /// will see them (an alloc's index to its last use).
  std::map<MemorySpace, std::vector<int64_t>> live;
  /// Per arena buffer, the program indices of the loads from it.
  DenseMap<Operation *, SmallVector<int64_t>> loadsOf;
  int64_t takenOver = 0, copied = 0;

  void runOnOperation() override {
    ProgramOp program = getOperation();
    Block &body = program.getBody().front();
    if (!straightLine(body))
      return;  // tile loops not lowered yet: nothing is straight-line
    target = target::lookupTarget(program.getTarget());
    if (!target)
      return signalPassFailure();
    survey(body);

    std::vector<Stored> stored;
    int64_t loads = 0;
    for (Operation &op : llvm::make_early_inc_range(body)) {
      auto engineOp = dyn_cast<EngineOp>(op);
      if (!engineOp)
        continue;
      auto dma = dyn_cast<DmaOp>(op);
      if (dma && isLoad(dma)) {
        ++loads;
        if (forward(dma, stored))
          continue;
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
      if (dma && isStore(dma))
        stored.push_back({dma, rangeOf(dma.getDst()), rangeOf(dma.getSrc()), copyForm(dma)});
    }
    int64_t dropped = keepStores ? 0 : dropUnreadStores(body);
    if (remarks && loads)
      program.emitRemark() << takenOver + copied << " of " << loads
                           << " arena loads read a tile still in local memory and are removed ("
                           << takenOver << " tiles taken over, " << copied
                           << " VECTOR copies); " << dropped
                           << " arena buffers no op reads are no longer written";
  }

  static bool isLoad(DmaOp dma) {
    return spaceOf(dma.getSrc()) == MemorySpace::ARENA &&
           spaceOf(dma.getDst()) == MemorySpace::LM && !padded(dma);
  }
  static bool isStore(DmaOp dma) {
    MemorySpace from = spaceOf(dma.getSrc());
    return (from == MemorySpace::LM || from == MemorySpace::ACC) &&
           spaceOf(dma.getDst()) == MemorySpace::ARENA && !padded(dma) &&
           isa_and_nonnull<AllocOp>(rootOf(dma.getSrc()).first) &&
           isa_and_nonnull<AllocOp>(rootOf(dma.getDst()).first);
  }

  /// Program indices, the live local bytes and the loads of each arena
  /// buffer, before any rewrite.
  void survey(Block &body) {
    int64_t i = 0;
    for (Operation &op : body)
      index[&op] = i++;
    live[MemorySpace::LM].assign(i + 1, 0);
    live[MemorySpace::ACC].assign(i + 1, 0);
    for (Operation &op : body) {
      if (auto alloc = dyn_cast<AllocOp>(op); alloc && live.count(spaceOf(alloc.getBuffer()))) {
        int64_t first = INT64_MAX, last = -1;
        useSpan(alloc.getBuffer(), index, first, last);
        std::vector<int64_t> &bytes = live[spaceOf(alloc.getBuffer())];
        for (int64_t k = index[alloc]; k <= std::max(last, index[alloc]); ++k)
          bytes[k] += alloc.getBuffer().getType().getSpanBytes();
      }
      if (auto dma = dyn_cast<DmaOp>(op); dma && isLoad(dma))
        loadsOf[rootOf(dma.getSrc()).first].push_back(index[&op]);
    }
  }

  /// Whether `growth(k)` more bytes of `space` may be live at each index of
  /// (from, to]; records them if so. Placement needs room beyond the live
  /// bytes (alignment, fragmentation): at most three quarters of the space.
  bool reserve(MemorySpace space, int64_t from, int64_t to,
               llvm::function_ref<int64_t(int64_t)> growth) {
    int64_t capacity = space == MemorySpace::LM ? target->params.LMBytes : target->params.ACCBytes;
    std::vector<int64_t> &bytes = live[space];
    for (int64_t k = from + 1; k <= to; ++k)
      if (bytes[k] + growth(k) > capacity / 4 * 3)
        return false;
    for (int64_t k = from + 1; k <= to; ++k)
      bytes[k] += growth(k);
    return true;
  }

  /// Replaces `load` by what a store left in local memory, if it may be.
  bool forward(DmaOp load, std::vector<Stored> &stored) {
    RootRange from = rangeOf(load.getSrc());
    Stored *match = nullptr;
    for (Stored &s : stored)
      if (s.arena.root == from.root && s.arena.lo <= from.lo && from.hi <= s.arena.hi)
        match = &s;
    if (!match)
      return false;
    if (takeOver(load, *match)) {
      ++takenOver;
      return true;
    }
    if (copy(load, *match)) {
      ++copied;
      return true;
    }
    return false;
  }

  /// The reader's buffer becomes the writer's: the load copies back the
  /// stored tile, whole, the same way, and no later load reads those bytes
  /// (the reader may change the tile; a later reader would need it as
  /// stored).
  bool takeOver(DmaOp load, Stored &s) {
    RootRange from = rangeOf(load.getSrc());
    if (s.arena.lo != from.lo || s.form != copyForm(load) ||
        spaceOf(s.op.getSrc()) != MemorySpace::LM)
      return false;
    auto [readerRoot, readerOffset] = rootOf(load.getDst());
    auto [writerRoot, writerOffset] = rootOf(s.op.getSrc());
    auto reader = dyn_cast_or_null<AllocOp>(readerRoot);
    auto writer = cast<AllocOp>(writerRoot);
    int64_t at = index.lookup(load);
    const SmallVector<int64_t> &later = loadsOf[from.root];
    if (!reader || reader == writer || llvm::any_of(later, [&](int64_t k) { return k > at; }))
      return false;
    // The reader's buffer becomes a view of the writer's that puts the tile
    // where the reader loaded it, aligned as placement aligns buffers.
    BufferType readerType = reader.getBuffer().getType();
    int64_t delta = writerOffset - readerOffset;
    if (delta < 0 || delta % kAlign != 0 ||
        delta + readerType.getSpanBytes() > writer.getBuffer().getType().getSpanBytes())
      return false;
    // The reader's buffer starts with this load; the writer's is not used
    // after it.
    int64_t first = INT64_MAX, last = -1;
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
    if (!reserve(MemorySpace::LM, writerEnd, readerEnd, [&](int64_t k) {
          return writerSpan - (k >= readerStart ? readerType.getSpanBytes() : 0);
        }))
      return false;
    eraseCopy(load);
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

  /// The load becomes a VECTOR copy of its rows out of the stored tile (in
  /// LM or ACC), which stays live until then: a few cycles instead of a
  /// round trip through GM, for a reader that loads part of the tile, in
  /// another row pitch, from ACC, or after another reader.
  bool copy(DmaOp load, Stored &s) {
    auto [readerRoot, readerOffset] = rootOf(load.getDst());
    auto [writerRoot, writerOffset] = rootOf(s.op.getSrc());
    auto src = cast<BufferType>(s.op.getSrc().getType());
    auto dst = cast<BufferType>(load.getDst().getType());
    std::optional<CopyRows> rows = rowsInTile(load, s);
    int64_t align = target->params.VectorAlign, elem = dst.getElementBytes();
    if (!rows || !isa_and_nonnull<AllocOp>(readerRoot) || readerRoot == writerRoot ||
        src.getElementBytes() != elem ||
        rows->rowBytes % elem != 0 || rows->srcOffset % align != 0 || readerOffset % align != 0 ||
        (rows->rows > 1 && (rows->srcPitch % align != 0 || rows->dstPitch % align != 0)))
      return false;
    auto writer = cast<AllocOp>(writerRoot);
    int64_t at = index.lookup(load), first = INT64_MAX, last = -1;
    useSpan(writer.getBuffer(), index, first, last);
    int64_t writerSpan = writer.getBuffer().getType().getSpanBytes();
    if (!reserve(src.getSpace(), std::max(last, index.lookup(writer)), at,
                 [&](int64_t) { return writerSpan; }))
      return false;
    OpBuilder b(load);
    auto rowsType = [&](MemorySpace space, int64_t pitch) {
      int64_t cols = rows->rowBytes / elem;
      if (rows->rows == 1)
        pitch = roundUp(rows->rowBytes, align);
      return BufferType::get(b.getContext(), space, {rows->rows, cols}, dst.getElementType(),
                             {pitch, elem});
    };
    Value from = ViewOp::create(b, load.getLoc(), rowsType(src.getSpace(), rows->srcPitch),
                                writer.getBuffer(), uint64_t(rows->srcOffset));
    Value to = ViewOp::create(b, load.getLoc(), rowsType(MemorySpace::LM, rows->dstPitch),
                              readerRoot->getResult(0), uint64_t(readerOffset));
    auto copyOp = VUnOp::create(b, load.getLoc(), from, to, VUnFunc::COPY);
    if (auto tag = load->getAttr(ForOp::kIterationTag))
      copyOp->setAttr(ForOp::kIterationTag, tag);
    if (failed(mlir::verify(copyOp))) {
      eraseCopies(copyOp);
      return false;
    }
    index[copyOp] = at;
    eraseCopy(load);
    return true;
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

};

} // namespace
