//===- IndexedKernels.cpp - Data movement by indices known at run time ----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// qk.gather on the indexed DMA (npu-v1.md section 5): the indices are loaded
// into LM, ONNX's negative indices are moved into range on VECTOR, and
// DMA_IN_GATHER brings each index's row box from GM; DMA_OUT stores the rows
// into the result. Rows move unchanged (contract D13); an index outside the
// table faults at run time, naming the table.
//
//===----------------------------------------------------------------------===//

#include "KernelPattern.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "npuc/Schedule/MatmulTiling.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

namespace npuc::emit::lowering {
LogicalResult selectGather(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &gatherSpace();
} // namespace npuc::emit::lowering

namespace {

/// The most indices one gather moves: the VECTOR grid's columns (the
/// negative-index step runs on a [1, n] row).
constexpr int64_t kMaxChunk = 4096;

/// A gather seen as [A, V, B]: the dimensions before the axis merged, the
/// axis' rows, the dimensions after it merged; N indices.
struct GatherShape {
  int64_t A = 1, V = 1, B = 1, N = 1, elemBytes = 1;
  /// Indices per tile: two slots of (rows + indices) in half of LM.
  int64_t chunk(const target::TargetInfo &t) const {
    int64_t perIndex = A * B * elemBytes + 4;
    return std::min({N, kMaxChunk, t.params.LMBytes / 4 / perIndex});
  }
};

GatherShape shapeOf(qk::GatherOp op) {
  GatherShape g;
  ArrayRef<int64_t> ds = tensorOf(op.getData()).getShape();
  int64_t axis = op.getAxis();
  for (int64_t i = 0; i < int64_t(ds.size()); ++i)
    (i < axis ? g.A : i > axis ? g.B : g.V) *= ds[size_t(i)];
  g.N = tensorOf(op.getIndices()).getNumElements();
  g.elemBytes = bytesOf(storageOf(tensorOf(op.getData()).getElementType()));
  return g;
}

/// qk.gather: DMA_IN_GATHER over chunks of the indices.
struct GatherPattern : OpKernelPattern<qk::GatherOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectGather;
  static constexpr SpaceOf space = gatherSpace;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
  /// One tile: `n` indices from `first`.
  void tile(const GatherShape &g, Value table, Value ids, Value out, int64_t n, const Offset &first);
};

} // namespace

void lowering::populateIndexedPatterns(KernelPatterns &patterns) { patterns.add<GatherPattern>(); }

/// Any type data movement copies; indices of int64 (stored as int32) or int32.
const CaseSpace &lowering::gatherSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"T,I->T", {{"T", ct::movable()}, {"I", {"i32", "i64"}}}}};
    return s;
  }();
  return space;
}

LogicalResult lowering::selectGather(LoweringCase &c, const target::TargetInfo &t) {
  auto op = cast<qk::GatherOp>(c.op);
  GatherShape g = shapeOf(op);
  std::string misfit = graph::shapes::indexedGatherMisfit(tensorOf(op.getData()).getShape(), op.getAxis(),
                                                          g.elemBytes);
  if (!misfit.empty())
    return op.emitOpError() << "does not fit the indexed DMA: " << misfit;
  if (g.chunk(t) < 1)
    return op.emitOpError() << "gathers rows of " << g.A * g.B * g.elemBytes << " bytes; two of them (and "
                            << "their indices) must fit half of LM (" << t.params.LMBytes / 2 << " bytes)";
  return success();
}

void GatherPattern::tile(const GatherShape &g, Value table, Value ids, Value out, int64_t n,
                         const Offset &first) {
  Type i32 = b.getIntegerType(32), st = cast<BufferType>(table.getType()).getElementType();
  int64_t es = g.elemBytes;
  // The indices, in range: i + (V & (i >> 31)) adds V to a negative index
  // (ONNX counts those from the end); any other stays, and DMA_IN_GATHER
  // faults on one outside [0, V).
  Value idx = e.tile(MemorySpace::LM, 1, n, i32), fix = e.tile(MemorySpace::LM, 1, n, i32);
  e.dma(e.view(ids, first * 4, {1, n}, {n * 4, 4}), idx);
  e.vbini(VBinFunc::SRA, idx, b.getIntegerAttr(i32, 31), fix);
  e.vbini(VBinFunc::AND, fix, b.getIntegerAttr(i32, g.V), fix);
  e.vbin(VBinFunc::ADD, idx, fix, idx);
  // The rows, [n, A, B] dense in LM, then into the result [A, N, B].
  Value rows = e.alloc(MemorySpace::LM, {n, g.A, g.B}, st, {g.A * g.B * es, g.B * es, es});
  GatherOp::create(b, e.loc, table, e.view(idx, 0, {n}, {4}), rows);
  e.dma(rows, e.view(out, first * (g.B * es), {n, g.A, g.B}, {g.B * es, g.N * g.B * es, es}));
}

LogicalResult GatherPattern::lower(const LoweringCase &c, const IterationSpaces &) {
  auto op = cast<qk::GatherOp>(c.op);
  GatherShape g = shapeOf(op);
  int64_t es = g.elemBytes;
  // The table's rows: [V, A, B], V's rows B elements apart, A's V * B.
  Value table = e.view(gmOf(op.getData()), 0, {g.V, g.A, g.B}, {g.B * es, g.V * g.B * es, es});
  Value ids = gmOf(op.getIndices()), out = resultBuffer(op.getResult());
  for (auto [size, count, first] : tileParts(g.N, g.chunk(t))) {
    int64_t buffers = count > 1 ? 2 : 1;
    e.beginLoop({count}, buffers, buffers > 1);
    tile(g, table, ids, out, size, first + e.coordinate(0) * size);
    e.endLoop();
  }
  return success();
}
