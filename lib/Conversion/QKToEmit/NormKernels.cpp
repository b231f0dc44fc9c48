//===- NormKernels.cpp - Normalizations over rows ---------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// LayerNormalization as one row kernel: each tile of whole rows is loaded
// once, its statistics reduced in LM, normalized, scaled and stored, in f32
// in the order ONNX's definition writes the steps (contract N9).
//
//===----------------------------------------------------------------------===//

#include "KernelPattern.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

// The selectors, case spaces and plans of this file's patterns.
namespace npuc::emit::lowering {
LogicalResult selectLayerNorm(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &layerNormSpace();
LogicalResult planLayerNorm(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
} // namespace npuc::emit::lowering

namespace {

/// qk.layer_norm: ONNX's steps in f32 per tile of whole rows.
struct LayerNormPattern : OpKernelPattern<qk::LayerNormOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectLayerNorm;
  static constexpr SpaceOf space = layerNormSpace;
  static constexpr PlanFn plan = planLayerNorm;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

} // namespace

void lowering::populateNormPatterns(KernelPatterns &patterns) {
  patterns.add<LayerNormPattern>();
}

namespace {
/// outer rows of r normalized elements each.
std::pair<int64_t, int64_t> normalizedRows(qk::LayerNormOp op) {
  ArrayRef<int64_t> shape = tensorOf(op.getX()).getShape();
  int64_t axis = op.getAxis(), outer = 1, r = 1;
  for (size_t i = 0; i < shape.size(); ++i)
    (int64_t(i) < axis ? outer : r) *= shape[i];
  return {outer, r};
}

int64_t elementsOf(Value v) {
  int64_t n = 1;
  for (int64_t d : tensorOf(v).getShape())
    n *= d;
  return n;
}

/// Per row: the input, its f32 copy, the squares, the result; per tile the
/// [1, r] scale and bias. VECTOR passes: the conversion, three sums, two
/// subtractions, the square, the scaling by 1/stddev, the scale, the bias
/// and the quantization.
ElementwiseProblem layerNormRows(qk::LayerNormOp op, int64_t ex, int64_t ey) {
  auto [outer, r] = normalizedRows(op);
  // LM per element: the loaded row, its f32 copy (when it is quantized), the
  // squares and the quantized result (f32 results are stored from the copy).
  bool qx = bool(quantOf(tensorOf(op.getX()).getElementType()));
  bool qy = bool(quantOf(tensorOf(op.getResult()).getElementType()));
  int64_t lm = ex + (qx ? 4 : 0) + 4 + (qy ? ey : 0);
  ElementwiseProblem p = rowProblem(outer, r, {{0, 0, r * ex, ex}, ex, false},
                                    {{0, 0, r * ey, ey}, ey, false}, {lm, 11});
  for (Value v : {op.getScale(), op.getBias()})
    if (v) {
      int64_t es = bytesOf(storageOf(tensorOf(v).getElementType()));
      p.ins.push_back({{0, 0, 0, elementsOf(v) == 1 ? 0 : es}, es, false, true});
    }
  return p;
}
} // namespace

const CaseSpace &lowering::layerNormSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"f32,f32->f32,f32,f32"},
                    {"f32,f32,f32->f32,f32,f32"},
                    {"A,f32->B,f32,f32", {{"A", ct::kQuant}, {"B", ct::kQuant}}},
                    {"A,f32,f32->B,f32,f32", {{"A", ct::kQuant}, {"B", ct::kQuant}}}};
    s.properties = {kBias.declare(), kMean.declare(), kInvStdDev.declare()};
    s.rules = {biasIsThirdOperand(),
               never(cond::all({cond::operand(0, ct::kQuant),
                                cond::any({kMean(), kInvStdDev()})}),
                     "graph-fuse-qdq quantizes a LayerNormalization only while its Mean and "
                     "InvStdDev are unused")};
    return s;
  }();
  return space;
}

/// f32 or per-tensor quantized input and result; scale and bias of the
/// normalized shape or of one value; rows that fit a tile whole.
LogicalResult lowering::selectLayerNorm(LoweringCase &c, const target::TargetInfo &t) {
  auto op = cast<qk::LayerNormOp>(c.op);
  auto qx = quantOf(tensorOf(op.getX()).getElementType());
  auto qy = quantOf(tensorOf(op.getResult()).getElementType());
  if ((qx && qx->axis >= 0) || (qy && qy->axis >= 0) || bool(qx) != bool(qy))
    return op->emitOpError("quantized LayerNormalization needs per-tensor quantized input and result");
  if (!qx && !tensorOf(op.getX()).getElementType().isF32())
    return op->emitOpError() << "LayerNormalization of " << tensorOf(op.getX()).getElementType()
                             << " has no NPU lowering yet (f32 or per-tensor quantized)";
  auto [outer, r] = normalizedRows(op);
  for (Value v : {op.getScale(), op.getBias()}) {
    if (!v)
      continue;
    auto q = quantOf(tensorOf(v).getElementType());
    if ((q && q->axis >= 0) || (!q && !tensorOf(v).getElementType().isF32()))
      return op->emitOpError() << (v == op.getScale() ? "scale" : "bias") << " of type "
                               << tensorOf(v).getElementType()
                               << " has no lowering (f32 or per-tensor quantized)";
    int64_t n = elementsOf(v);
    if (n != r && n != 1)
      return op->emitOpError() << (v == op.getScale() ? "scale" : "bias") << " of " << n
                               << " elements broadcasts along the normalized axes; only one "
                                  "value per normalized element ("
                               << r << ") or a single value has a lowering yet";
  }
  int64_t ex = bytesOf(storageOf(tensorOf(op.getX()).getElementType()));
  int64_t ey = bytesOf(storageOf(tensorOf(op.getResult()).getElementType()));
  ElementwiseTiling oneRow;
  oneRow.tile = {1, 1, 1, r};
  if (std::optional<std::string> why = checkTiling(layerNormRows(op, ex, ey), oneRow, t))
    return op->emitOpError() << "normalizes rows of " << r
                             << " elements, more than one tile holds (" << *why
                             << "); a two-pass LayerNormalization has no lowering yet";
  (void)outer;
  c.flag(kBias, bool(op.getBias()));
  c.flag(kMean, !op.getMean().use_empty());
  c.flag(kInvStdDev, !op.getInvStdDev().use_empty());
  return success();
}

/// One nest of whole rows (layerNormRows).
LogicalResult lowering::planLayerNorm(const LoweringCase &c, const target::TargetInfo &,
                                      IterationSpaces &s) {
  auto op = cast<qk::LayerNormOp>(c.op);
  int64_t ex = bytesOf(storageOf(tensorOf(op.getX()).getElementType()));
  int64_t ey = bytesOf(storageOf(tensorOf(op.getResult()).getElementType()));
  s.nests.push_back(layerNormRows(op, ex, ey));
  return success();
}

// Per tile of whole rows, ONNX's steps in f32: mean = sum(x) / r,
// d = x - mean (corrected by the mean of d), var = sum(d * d) / r,
// inv = 1 / sqrt(var + epsilon), y = d * inv * scale + bias; Mean and
// InvStdDev stored where used.
LogicalResult LayerNormPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::LayerNormOp>(c.op);
  auto [outer, r] = normalizedRows(op);
  (void)outer;
  auto qx = quantOf(tensorOf(op.getX()).getElementType());
  auto qy = quantOf(tensorOf(op.getResult()).getElementType());
  Value x = gmOf(op.getX()), y = resultBuffer(op.getResult());
  auto xt = cast<BufferType>(x.getType());
  Type sy = cast<BufferType>(y.getType()).getElementType();
  int64_t ex = xt.getElementBytes(), ey = bytesOf(sy);
  Value mean = c.is(kMean) ? resultBuffer(op.getMean()) : Value();
  Value inv = c.is(kInvStdDev) ? resultBuffer(op.getInvStdDev()) : Value();
  float eps = float(op.getEpsilonAttr().getValueAsDouble());
  // A [1, r] (or [1, 1]) f32 tile of scale or bias, broadcast along the rows.
  auto rowVector = [&](Value v) {
    Value g = gmOf(v);
    auto gt = cast<BufferType>(g.getType());
    int64_t n = elementsOf(v), es = gt.getElementBytes();
    Value tileV = e.tile(MemorySpace::LM, 1, n, gt.getElementType());
    e.dma(e.view(g, 0, {1, n}, {n * es, es}), tileV);
    return toF32(tileV, quantOf(tensorOf(v).getElementType()));
  };
  return rowLoops(op, planned.nests[0], [&](int64_t rows, const Offset &o) {
    Value tileV = e.tile(MemorySpace::LM, rows, r, xt.getElementType());
    e.dma(e.view(x, o * (r * ex), {rows, r}, {r * ex, ex}), tileV);
    Value f = toF32(tileV, qx);
    Value m = e.tile(MemorySpace::LM, rows, 1, b.getF32Type());
    e.reduce(ReduceFunc::SUM, Axis::COLS, f, m);
    e.vbini(VBinFunc::DIV, m, b.getF32FloatAttr(float(r)), m);
    e.vbin(VBinFunc::SUB, f, m, f);
    // The corrected two-pass mean: the mean of x - mean is the rounding
    // error of the first sum, subtracted again. A row of equal values then
    // has d = 0 exactly (contract N9: it gives beta), whatever the sum's
    // roundings; Mean is the corrected mean.
    Value corr = e.tile(MemorySpace::LM, rows, 1, b.getF32Type());
    e.reduce(ReduceFunc::SUM, Axis::COLS, f, corr);
    e.vbini(VBinFunc::DIV, corr, b.getF32FloatAttr(float(r)), corr);
    e.vbin(VBinFunc::SUB, f, corr, f);
    if (mean)
      e.vbin(VBinFunc::ADD, m, corr, m);
    Value sq = e.tile(MemorySpace::LM, rows, r, b.getF32Type());
    e.vbin(VBinFunc::MUL, f, f, sq);
    Value s = e.tile(MemorySpace::LM, rows, 1, b.getF32Type());
    e.reduce(ReduceFunc::SUM, Axis::COLS, sq, s);
    e.vbini(VBinFunc::DIV, s, b.getF32FloatAttr(float(r)), s);
    e.vbini(VBinFunc::ADD, s, b.getF32FloatAttr(eps), s);
    e.vun(VUnFunc::SQRT, s, s);
    e.vun(VUnFunc::RECIP, s, s);
    e.vbin(VBinFunc::MUL, f, s, f);
    e.vbin(VBinFunc::MUL, f, rowVector(op.getScale()), f);
    if (c.is(kBias))
      e.vbin(VBinFunc::ADD, f, rowVector(op.getBias()), f);
    Value to = e.view(y, o * (r * ey), {rows, r}, {r * ey, ey});
    e.dma(fromF32(f, qy, sy), to);
    if (mean)
      e.dma(m, e.view(mean, o * 4, {rows, 1}, {4, 4}));
    if (inv)
      e.dma(s, e.view(inv, o * 4, {rows, 1}, {4, 4}));
  });
}
