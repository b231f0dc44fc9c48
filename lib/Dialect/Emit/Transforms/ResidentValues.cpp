//===- ResidentValues.cpp - Values kept in LM whole -----------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// A kernel writes its result to the arena tile by tile and the next kernel
// reads it back in tiles of its own shape. emit-forward-stores hands a tile
// on only while the tile is still in local memory; tiles of another shape,
// or a result read after the producer's slots rotated, went through GM: two
// transfers at the bandwidth both DMA engines share, each with its
// descriptor's start. When the whole value fits LM and every access to it is
// a DMA of a tile, the value itself can live in LM, laid out as in the
// arena, and each DMA become a VECTOR copy between the tile and those bytes
// (issue #30: activations stay on chip). Propose every such value, place LM
// as emit-plan-memory will, and give values back to GM, the last proposed
// first, until the placement fits.
//
//===----------------------------------------------------------------------===//

#include "Copies.h"
#include "Placement.h"
#include "npuc/Base/ISA.h"
#include "npuc/Base/Target.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include <map>

namespace npuc::emit {
#define GEN_PASS_DEF_EMITRESIDENTVALUES
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

namespace VS = isa::limit::V_SHAPE;

/// The most VECTOR copies one DMA becomes (each pays VECTOR's 4-cycle start).
constexpr int64_t kMaxCopies = 64;
/// A value whose blocks at an aligned pitch take at most this many bytes
/// may take any pitch: what it adds to LM is noise beside a tile.
constexpr int64_t kSmallValueBytes = 4096;

int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

/// Where the value's bytes sit in LM: blocks of `block` bytes (a channel's
/// plane, a matrix row) each at a multiple of `pitch`, so that byte `a` of
/// the arena buffer is byte a / block * pitch + a % block. The arena's own
/// layout is one block; a larger pitch aligns the blocks for VECTOR.
struct Layout {
  int64_t block = INT64_MAX, pitch = INT64_MAX;
  int64_t map(int64_t a) const { return a / block * pitch + a % block; }
};

/// One DMA of a value kept in LM, as the VECTOR copy that replaces it:
/// `rows` runs of `runBytes`, at `pitch` bytes in the value and
/// `localPitch` in the tile.
struct CopyPlan {
  DmaOp dma;
  bool store = false;
  Operation *local = nullptr;  // the tile's alloc
  int64_t localOffset = 0, offset = 0;
  int64_t rows = 1, runBytes = 0, pitch = 0, localPitch = 0;
  /// Dimensions beyond the grid's: one copy per index.
  SmallVector<CopyDim, 2> loops;
};

/// A value moved to LM: what was built, to keep or to give back.
struct Move {
  AllocOp arena, resident;
  SmallVector<DmaOp> dmas;
  SmallVector<VUnOp> copies;
  int64_t bytes = 0, first = 0, last = 0;
  bool reserved = false;  // its bytes counted in `live`
};

/// How `dma`, which stores into or loads from the arena buffer `arena`,
/// becomes VECTOR copies; none, with `why`, if it cannot.
std::optional<CopyPlan> planCopy(DmaOp dma, Operation *arena, const Layout &layout,
                                 int64_t align, std::string &why) {
  CopyPlan p;
  p.dma = dma;
  p.store = rootOf(dma.getDst()).first == arena;
  Value local = p.store ? dma.getSrc() : dma.getDst(), gm = p.store ? dma.getDst() : dma.getSrc();
  MemorySpace space = spaceOf(local);
  if (padded(dma))
    return why = "a load that pads its tile", std::nullopt;
  if (rootOf(gm).first != arena || (p.store ? space != MemorySpace::LM && space != MemorySpace::ACC
                                            : space != MemorySpace::LM))
    return why = "a DMA that is not a tile's store or load", std::nullopt;
  auto localType = cast<BufferType>(local.getType());
  int64_t elem = localType.getElementBytes();
  std::tie(p.local, p.localOffset) = rootOf(local);
  int64_t at = rootOf(gm).second;
  if (!isa_and_nonnull<AllocOp>(p.local) || cast<BufferType>(gm.getType()).getElementBytes() != elem)
    return why = "a tile that is not a buffer of its own elements", std::nullopt;
  // The copy in the value's LM layout: a dimension steps whole blocks or
  // stays within the block it starts in.
  CopyForm dims = copyDims(dma);
  int64_t within = at % layout.block + elem;
  for (CopyDim &d : dims) {
    if (d.gm < 0)
      return why = "a copy that runs backwards", std::nullopt;
    if (d.gm % layout.block == 0)
      d.gm = d.gm / layout.block * layout.pitch;
    else
      within += (d.size - 1) * d.gm;
  }
  if (within > layout.block)
    return why = "a copy across the blocks of an aligned layout", std::nullopt;
  p.offset = layout.map(at);
  CopyForm form = mergeCopy(dims, elem);
  if (form.size() == 1) {
    // One run: rows of the longest aligned length a grid row holds.
    p.runBytes = form[0].size;
    for (int64_t c = VS::cols_max * elem / align * align; p.runBytes > VS::cols_max * elem; c -= align) {
      if (c < align)
        return why = "a run no grid row divides", std::nullopt;
      if (form[0].size % c == 0)
        p.rows = form[0].size / c, p.runBytes = c;
    }
    p.pitch = p.localPitch = p.runBytes;
  } else {
    // Rows of one run along the longest outer dimension; one copy per index
    // of the others.
    ArrayRef<CopyDim> outer = ArrayRef<CopyDim>(form).drop_back();
    size_t r = 0;
    for (size_t k = 1; k < outer.size(); ++k)
      if (outer[k].size > outer[r].size)
        r = k;
    p.rows = outer[r].size, p.runBytes = form.back().size;
    p.pitch = outer[r].gm, p.localPitch = outer[r].local;
    int64_t copies = 1;
    for (size_t k = 0; k < outer.size(); ++k) {
      if (outer[k].gm <= 0 || outer[k].local <= 0)
        return why = "a copy that repeats bytes", std::nullopt;
      if (k == r)
        continue;
      if (outer[k].gm % align || outer[k].local % align)
        return why = "a copy not VECTOR-aligned", std::nullopt;
      p.loops.push_back(outer[k]);
      copies *= outer[k].size;
    }
    if (copies > kMaxCopies)
      return why = "a copy of more than " + std::to_string(kMaxCopies) + " VECTOR grids",
             std::nullopt;
  }
  if (p.offset % align || p.localOffset % align ||
      (p.rows > 1 && (p.pitch % align || p.localPitch % align)))
    return why = "a copy not VECTOR-aligned", std::nullopt;
  if (p.runBytes % elem || p.rows > VS::rows_max || p.runBytes / elem > VS::cols_max ||
      p.pitch > VS::a_pitch_max || p.localPitch > VS::a_pitch_max)
    return why = "a copy larger than a VECTOR grid", std::nullopt;
  return p;
}

/// The copies `p` describes, between its tile and `resident`, into `out`;
/// false if one does not verify (nothing is left of them then).
bool buildCopies(const CopyPlan &p, AllocOp resident, int64_t align,
                 SmallVectorImpl<VUnOp> &out) {
  DmaOp dma = p.dma;
  OpBuilder b(dma);
  Location loc = dma.getLoc();
  auto tile = cast<BufferType>(p.local->getResult(0).getType());
  auto grid = [&](MemorySpace space, int64_t pitch) {
    return BufferType::get(b.getContext(), space, {p.rows, p.runBytes / tile.getElementBytes()},
                           tile.getElementType(),
                           {p.rows == 1 ? roundUp(p.runBytes, align) : pitch,
                            tile.getElementBytes()});
  };
  ScopedDiagnosticHandler quiet(b.getContext(), [](Diagnostic &) { return success(); });
  size_t built = out.size();
  SmallVector<int64_t, 2> at(p.loops.size(), 0);
  while (true) {
    int64_t offset = p.offset, localOffset = p.localOffset;
    for (auto [i, d] : llvm::enumerate(p.loops))
      offset += at[i] * d.gm, localOffset += at[i] * d.local;
    Value inLM = ViewOp::create(b, loc, grid(MemorySpace::LM, p.pitch), resident.getBuffer(),
                                uint64_t(offset));
    Value inTile = ViewOp::create(b, loc, grid(tile.getSpace(), p.localPitch),
                                  p.local->getResult(0), uint64_t(localOffset));
    auto copy = p.store ? VUnOp::create(b, loc, inTile, inLM, VUnFunc::COPY)
                        : VUnOp::create(b, loc, inLM, inTile, VUnFunc::COPY);
    if (auto tag = dma->getAttr(ForOp::kIterationTag))
      copy->setAttr(ForOp::kIterationTag, tag);
    out.push_back(copy);
    if (failed(mlir::verify(copy))) {
      eraseCopies(ArrayRef<VUnOp>(out).drop_front(built));
      out.truncate(built);
      return false;
    }
    // The next index, the last loop fastest.
    size_t k = at.size();
    while (k > 0 && ++at[k - 1] == p.loops[k - 1].size)
      at[--k] = 0;
    if (k == 0)
      return true;
  }
}

/// Whether `type` is laid out row-major without gaps.
bool isDense(BufferType type) {
  int64_t expect = type.getElementBytes();
  for (int64_t i = int64_t(type.getShape().size()) - 1; i >= 0; --i) {
    if (type.getShape()[size_t(i)] != 1 && type.getStrides()[size_t(i)] != expect)
      return false;
    expect *= type.getShape()[size_t(i)];
  }
  return true;
}

/// The DMAs that use `v` or a view of it; false if another op does (an
/// emit.value, which only records the value, aside).
bool dmasOf(Value v, SmallVectorImpl<DmaOp> &out) {
  for (Operation *user : v.getUsers()) {
    if (auto view = dyn_cast<ViewOp>(user)) {
      if (!dmasOf(view.getResult(), out))
        return false;
    } else if (auto dma = dyn_cast<DmaOp>(user)) {
      out.push_back(dma);
    } else if (!llvm::isa<ValueOp>(user)) {
      return false;
    }
  }
  return true;
}

/// Whether the bytes `a` and `b` (views, with `extra` bytes after `a`)
/// overlap.
bool overlap(Value a, int64_t extra, Value b) {
  auto [ra, oa] = rootOf(a);
  auto [rb, ob] = rootOf(b);
  int64_t ea = oa + cast<BufferType>(a.getType()).getSpanBytes() + extra;
  int64_t eb = ob + cast<BufferType>(b.getType()).getSpanBytes();
  return ra == rb && oa < eb && ob < ea;
}

/// Moves a store's copy down past the engine ops of its kernel that neither
/// write its tile nor touch its bytes in LM. VECTOR runs its queue in order:
/// right after the op that computes its tile, the copy held the kernel's
/// next VECTOR op until that op's result was out (a DMA store had waited on
/// DMA_OUT instead). It takes the iteration tag of the op it then follows,
/// so that iterations stay runs of ops (emit-hardware-loops).
void sink(VUnOp copy) {
  Value tile = copy.getA(), bytes = copy.getD();
  Operation *after = nullptr;
  for (Operation *op = copy->getNextNode(); op; op = op->getNextNode()) {
    auto engineOp = dyn_cast<EngineOp>(op);
    if (!engineOp)
      continue;
    if (op->getLoc() != copy->getLoc())
      break;
    SmallVector<Access> accesses;
    engineOp.getAccesses(accesses);
    if (llvm::any_of(accesses, [&](const Access &a) {
          return (a.write && overlap(a.buffer, a.extra, tile)) || overlap(a.buffer, a.extra, bytes);
        }))
      break;
    after = op;
  }
  if (!after)
    return;
  copy->moveAfter(after);
  if (Attribute tag = after->getAttr(ForOp::kIterationTag))
    copy->setAttr(ForOp::kIterationTag, tag);
  else
    copy->removeAttr(ForOp::kIterationTag);
}

struct EmitResidentValuesPass
    : npuc::emit::impl::EmitResidentValuesBase<EmitResidentValuesPass> {
  using Base::Base;

  const target::TargetInfo *target = nullptr;
  DenseMap<Operation *, int64_t> index;
  /// LM bytes live at each program index, as emit-plan-memory will see them.
  std::vector<int64_t> live;

  void runOnOperation() override {
    ProgramOp program = getOperation();
    Block &body = program.getBody().front();
    if (keepStores ||
        !straightLine(body))
      return;  // every value to GM, or tile loops not lowered yet
    target = target::lookupTarget(program.getTarget());
    if (!target)
      return signalPassFailure();
    int64_t capacity = target->params.LMBytes;
    index = number(body);
    live = liveBytes(body, index);

    SmallVector<AllocOp> candidates;
    for (Operation &op : body)
      if (auto alloc = dyn_cast<AllocOp>(op);
          alloc && !alloc.getOffset() && spaceOf(alloc.getBuffer()) == MemorySpace::ARENA)
        candidates.push_back(alloc);
    std::vector<Move> moves;
    std::map<std::string, int64_t> reasons;
    for (AllocOp alloc : candidates) {
      std::string why;
      if (std::optional<Move> m = propose(alloc, why))
        moves.push_back(std::move(*m));
      else if (!why.empty())
        ++reasons[why];
    }
    for (Move &m : moves)
      for (VUnOp copy : m.copies)
        if (rootOf(copy.getD()).first == m.resident && spaceOf(copy.getA()) == MemorySpace::LM)
          sink(copy);
    // Keep what the placements of LM and ACC hold (a store's copy moved
    // down keeps its tile longer); give back the last proposed first.
    int64_t givenBack = 0;
    auto fits = [&](MemorySpace space, int64_t bytes) {
      std::vector<Interval> items = localIntervals(body, number(body), space);
      return placeLocal(items, bytes) <= bytes;
    };
    while (!moves.empty()) {
      if (fits(MemorySpace::LM, capacity) && fits(MemorySpace::ACC, target->params.ACCBytes))
        break;
      giveBack(moves.back());
      moves.pop_back();
      ++givenBack;
    }
    int64_t bytes = 0, dmas = 0, copies = 0;
    for (Move &m : moves) {
      bytes += m.bytes;
      dmas += int64_t(m.dmas.size());
      copies += int64_t(m.copies.size());
      keep(m);
    }
    if (!remarks)
      return;
    InFlightDiagnostic r = program.emitRemark()
                           << moves.size() << " of " << candidates.size()
                           << " arena values kept in LM whole (" << bytes << " bytes; " << dmas
                           << " DMAs now " << copies << " VECTOR copies)";
    if (givenBack)
      r << "; " << givenBack << " given back to GM for the placement of LM and ACC to fit";
    for (auto &[why, n] : reasons)
      r << "; " << n << " left in GM for " << why;
  }

  /// Builds `alloc`'s value in LM beside its arena buffer (the DMAs stay
  /// until keep()); none, with `why`, if it cannot be.
  std::optional<Move> propose(AllocOp alloc, std::string &why) {
    BufferType type = alloc.getBuffer().getType();
    int64_t capacity = target->params.LMBytes, align = target->params.VectorAlign;
    Move m;
    m.arena = alloc;
    m.bytes = type.getSpanBytes();
    if (m.bytes > capacity / 2)
      return why = "a value larger than half of LM", std::nullopt;
    if (!dmasOf(alloc.getBuffer(), m.dmas))
      return why = "an access that is not a DMA", std::nullopt;
    if (m.dmas.empty())
      return std::nullopt;
    llvm::sort(m.dmas, [&](DmaOp a, DmaOp b) { return index.lookup(a) < index.lookup(b); });
    // The arena's layout, else blocks of a dense value's inner dimensions
    // (innermost first) at an aligned pitch, at most half again the bytes
    // (any pitch for a value that stays small: an RNN's output rows of 5
    // floats at 32 bytes).
    SmallVector<CopyPlan> plans;
    SmallVector<int64_t> strides(type.getStrides());
    for (int64_t k = int64_t(strides.size());; --k) {
      Layout layout;
      if (k < int64_t(strides.size())) {
        if (k < 1)
          return std::nullopt;
        int64_t block = strides[size_t(k - 1)], pitch = roundUp(block, align);
        if (block <= 0 || block % align == 0 || !isDense(type) ||
            (pitch * 2 > block * 3 && m.bytes / block * pitch > kSmallValueBytes))
          continue;
        layout = {block, pitch};
      }
      std::string whyNot;
      plans.clear();
      for (DmaOp dma : m.dmas) {
        std::optional<CopyPlan> p = planCopy(dma, alloc, layout, align, whyNot);
        if (!p)
          break;
        plans.push_back(*p);
      }
      if (why.empty())
        why = whyNot;  // the arena layout's reason
      if (plans.size() == m.dmas.size()) {
        why.clear();
        for (int64_t i = 0; i < k && k < int64_t(strides.size()); ++i)
          strides[size_t(i)] = strides[size_t(i)] / layout.block * layout.pitch;
        break;
      }
    }
    if (!plans.front().store || llvm::all_of(plans, [](const CopyPlan &p) { return p.store; }))
      return why = "a value not stored before it is loaded", std::nullopt;
    auto lmType = BufferType::get(alloc.getContext(), MemorySpace::LM, type.getShape(),
                                  type.getElementType(), strides);
    m.bytes = lmType.getSpanBytes();
    m.first = index.lookup(m.dmas.front()), m.last = index.lookup(m.dmas.back());
    for (int64_t k = m.first; k <= m.last; ++k)
      if (live[size_t(k)] + m.bytes > capacity / 4 * 3)
        return why = "LM's live bytes over the value's life", std::nullopt;

    OpBuilder b(m.dmas.front());
    m.resident = AllocOp::create(b, alloc.getLoc(), lmType, IntegerAttr(), StringAttr());
    for (const CopyPlan &p : plans) {
      if (!buildCopies(p, m.resident, align, m.copies)) {
        giveBack(m);
        return why = "a copy VECTOR cannot make", std::nullopt;
      }
    }
    for (int64_t k = m.first; k <= m.last; ++k)
      live[size_t(k)] += m.bytes;
    m.reserved = true;
    return m;
  }

  /// Removes what propose() built: the value stays in GM.
  void giveBack(Move &m) {
    eraseCopies(m.copies);
    m.copies.clear();
    m.resident->erase();
    for (int64_t k = m.first; m.reserved && k <= m.last; ++k)
      live[size_t(k)] -= m.bytes;
    m.reserved = false;
  }

  /// Removes the arena buffer, its DMAs and the values recording it.
  static void keep(Move &m) {
    for (DmaOp dma : m.dmas)
      eraseCopy(dma);
    SmallVector<ValueOp> observers;
    valuesOver(m.arena.getBuffer(), observers);
    for (ValueOp v : observers) {
      Value buffer = v.getBuffer();
      v->erase();
      eraseDeadViews(buffer);
    }
    if (m.arena->use_empty())
      m.arena->erase();
  }
};

} // namespace
