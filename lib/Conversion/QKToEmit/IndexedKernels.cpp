//===- IndexedKernels.cpp - Data movement by indices known at run time ----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// qk.gather and qk.scatter on the indexed DMA (npu-v1.md section 5): the
// indices are loaded into LM and ONNX's negative indices moved into range on
// VECTOR. A gather's DMA_IN_GATHER brings each index's row box from GM and
// DMA_OUT stores the rows into the result; a scatter copies the data into
// the result, loads the update rows and combines them in with
// DMA_OUT_SCATTER. Rows move unchanged (contract D13) or combine once in
// their type; an index outside the table faults at run time, naming it.
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
LogicalResult selectScatter(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &scatterSpace();
LogicalResult planScatter(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
} // namespace npuc::emit::lowering

namespace {

/// The most indices one tile moves: past a few thousand rows per descriptor
/// the start latency is long hidden, and the negative-index step's [1, n]
/// row stays a small VECTOR grid.
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

/// qk.scatter: a copy of the data, then DMA_OUT_SCATTER over chunks of the
/// update rows.
struct ScatterPattern : OpKernelPattern<qk::ScatterOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectScatter;
  static constexpr SpaceOf space = scatterSpace;
  static constexpr PlanFn plan = planScatter;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// A scatter seen as rows [V, B] of the data, N updates of B elements.
GatherShape shapeOf(qk::ScatterOp op) {
  GatherShape g;
  ArrayRef<int64_t> ds = tensorOf(op.getData()).getShape();
  g.V = ds[0];
  for (int64_t d : ds.drop_front())
    g.B *= d;
  g.N = tensorOf(op.getIndices()).getNumElements();
  g.elemBytes = bytesOf(storageOf(tensorOf(op.getData()).getElementType()));
  return g;
}

/// [1, n] indices from `first`, loaded into LM and moved into [0, V) where
/// ONNX counts them from the end: i + (V & (i >> 31)). Any other stays, and
/// the indexed DMA faults on one outside [0, V).
Value loadIndices(KernelBuilder &k, Value ids, int64_t n, const Offset &first, int64_t V) {
  Type i32 = k.b.getIntegerType(32);
  Value idx = k.e.tile(MemorySpace::LM, 1, n, i32), fix = k.e.tile(MemorySpace::LM, 1, n, i32);
  k.e.dma(k.e.view(ids, first * 4, {1, n}, {n * 4, 4}), idx);
  k.e.vbini(VBinFunc::SRA, idx, k.b.getIntegerAttr(i32, 31), fix);
  k.e.vbini(VBinFunc::AND, fix, k.b.getIntegerAttr(i32, V), fix);
  k.e.vbin(VBinFunc::ADD, idx, fix, idx);
  return k.e.view(idx, 0, {n}, {4});
}

} // namespace

void lowering::populateIndexedPatterns(KernelPatterns &patterns) { patterns.add<GatherPattern, ScatterPattern>(); }

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
  Type st = cast<BufferType>(table.getType()).getElementType();
  int64_t es = g.elemBytes;
  Value idx = loadIndices(*this, ids, n, first, g.V);
  // The rows, [n, A, B] dense in LM, then into the result [A, N, B].
  Value rows = e.alloc(MemorySpace::LM, {n, g.A, g.B}, st, {g.A * g.B * es, g.B * es, es});
  GatherOp::create(b, e.loc, table, idx, rows);
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

/// Any plain type with reduction none; numbers with add, max and min (bools
/// do not add). Quantized data never reaches it (graph-fuse-qdq leaves
/// ScatterND in float), nor int32 indices: the importer's row numbers are
/// int64 (stored as int32).
const CaseSpace &lowering::scatterSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"T,I,T->T", {{"T", ct::plain()}, {"I", {"i64"}}}}};
    s.properties = {kScatterReduction.declare()};
    using R = ScatterReduction;
    s.rules = {never(cond::all({kScatterReduction({R::Add, R::Max, R::Min}), cond::operand(0, ct::kBool)}),
                     "bools are moved, not combined"),
               refused(cond::all({kScatterReduction({R::Add}), cond::operand(0, {"ui16", "ui32", "i64"})}),
                       "stored as int32, a sum would wrap at 32 bits, not at the type's width")};
    return s;
  }();
  return space;
}

LogicalResult lowering::selectScatter(LoweringCase &c, const target::TargetInfo &t) {
  auto op = cast<qk::ScatterOp>(c.op);
  GatherShape g = shapeOf(op);
  StringRef red = op.getReduction();
  c.choose(kScatterReduction, red == "add"   ? ScatterReduction::Add
                              : red == "max" ? ScatterReduction::Max
                              : red == "min" ? ScatterReduction::Min
                                             : ScatterReduction::None);
  auto it = dyn_cast<IntegerType>(tensorOf(op.getData()).getElementType());
  if (red == "add" && it && storageOf(it).getIntOrFloatBitWidth() != it.getWidth())
    return op.emitOpError() << "adds " << it << " values stored as int32: the sum would wrap at 32 bits";
  std::string misfit = graph::shapes::indexedGatherMisfit({g.V, g.B}, 0, g.elemBytes);
  if (!misfit.empty())
    return op.emitOpError() << "does not fit the indexed DMA: " << misfit;
  if (g.chunk(t) < 1)
    return op.emitOpError() << "scatters rows of " << g.B * g.elemBytes << " bytes; two of them (and their "
                            << "indices) must fit half of LM (" << t.params.LMBytes / 2 << " bytes)";
  return success();
}

/// The copy of the data into the result (select-tiling tiles it).
LogicalResult lowering::planScatter(const LoweringCase &c, const target::TargetInfo &, IterationSpaces &s) {
  auto op = cast<qk::ScatterOp>(c.op);
  auto dt = tensorOf(op.getData());
  int64_t es = bytesOf(storageOf(dt.getElementType()));
  SmallVector<int64_t> strides = denseStrides(dt.getShape(), es);
  return planCopy(c.op, dt.getShape(), strides, strides, es, s);
}

LogicalResult ScatterPattern::lower(const LoweringCase &c, const IterationSpaces &) {
  auto op = cast<qk::ScatterOp>(c.op);
  GatherShape g = shapeOf(op);
  int64_t es = g.elemBytes;
  auto dt = tensorOf(op.getData());
  Value out = resultBuffer(op.getResult());
  if (failed(lowerCopy(c.op, gmOf(op.getData()), out, dt.getShape(), denseStrides(dt.getShape(), es))))
    return failure();
  auto func = llvm::StringSwitch<ScatterFunc>(op.getReduction())
                  .Case("add", ScatterFunc::ADD)
                  .Case("max", ScatterFunc::MAX)
                  .Case("min", ScatterFunc::MIN)
                  .Default(ScatterFunc::NONE);
  Type st = storageOf(dt.getElementType());
  Value table = e.view(out, 0, {g.V, g.B}, {g.B * es, es});
  Value ids = gmOf(op.getIndices()), updates = gmOf(op.getUpdates());
  for (auto [size, count, first] : tileParts(g.N, g.chunk(t))) {
    int64_t buffers = count > 1 ? 2 : 1;
    e.beginLoop({count}, buffers, buffers > 1);
    Offset at = first + e.coordinate(0) * size;
    Value idx = loadIndices(*this, ids, size, at, g.V);
    Value rows = e.alloc(MemorySpace::LM, {size, g.B}, st, {g.B * es, es});
    e.dma(e.view(updates, at * (g.B * es), {size, g.B}, {g.B * es, es}), rows);
    ScatterOp::create(b, e.loc, rows, idx, table, func);
    e.endLoop();
  }
  return success();
}
