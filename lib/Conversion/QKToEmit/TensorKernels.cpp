//===- TensorKernels.cpp - Data movement: concat, transpose, slice, pad, resize ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Kernels that move data without computing on it (contract D13: coordinates,
// strides and quantization are preserved): a copy through strided views is
// the elementwise iteration with an empty body; Pad uses DMA_IN's padding.
//
//===----------------------------------------------------------------------===//

#include "KernelPattern.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"


using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

// The selectors, case spaces and plans of this file's patterns.
namespace npuc::emit::lowering {
LogicalResult selectConcat(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &concatSpace();
LogicalResult selectPad(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &padSpace();
/// qk.copy: strided copies, one per address plan.
LogicalResult selectCopy(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &copySpace();
LogicalResult planConcat(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
LogicalResult planPadOp(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
LogicalResult planCopyOp(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
} // namespace npuc::emit::lowering

namespace {

/// qk.copy: strided copies, one per address plan.
struct CopyPattern : OpKernelPattern<qk::CopyOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectCopy;
  static constexpr SpaceOf space = copySpace;
  static constexpr PlanFn plan = planCopyOp;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.concat: each input copied into its slice of the result, requantized
/// where its quantization differs.
struct ConcatPattern : OpKernelPattern<qk::ConcatOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectConcat;
  static constexpr SpaceOf space = concatSpace;
  static constexpr PlanFn plan = planConcat;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.pad: DMA_IN's padding.
struct PadPattern : OpKernelPattern<qk::PadOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectPad;
  static constexpr SpaceOf space = padSpace;
  static constexpr PlanFn plan = planPadOp;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

} // namespace

void lowering::populateTensorPatterns(KernelPatterns &patterns) {
  patterns.add<CopyPattern, ConcatPattern, PadPattern>();
}

/// The most strided copies one op is split into: a copy whose iteration
/// space has more than the DMA's 4 dimensions after merging (a Tile of four
/// repeated axes, CRD DepthToSpace), a nearest resize's runs, a reversed
/// slice, a gather by constant indices. Hostile sizes are refused, not
/// emitted.
static constexpr int64_t kMaxCopyNests = graph::shapes::kMaxStridedCopies;


//===----------------------------------------------------------------------===//
// Concat
//===----------------------------------------------------------------------===//

const CaseSpace &lowering::concatSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"T...->T", {{"T", ct::plain()}}},
                    {"A...->B", {{"A", ct::kQuant}, {"B", ct::kQuant}}},
                    {"A,B...->C", {{"A", ct::kQuant}, {"B", ct::kQuant}, {"C", ct::kQuant}}}};
    s.properties = {kRequantize.declare()};
    auto sameTypes = cond::custom("the inputs have the result's type", [](const support::CasePoint &p) {
      return p.operands.size() == 1 && p.operands[0] == p.results[0];
    });
    s.rules = {
        never(cond::custom("two variadic types that are one", [](const support::CasePoint &p) {
                return p.operands.size() == 2 && p.operands[0] == p.operands[1];
              }), "the key names each type of the inputs once"),
        never(cond::all({kRequantize(), cond::operand(0, ct::plain())}),
              "plain values have no quantization to change"),
        never(cond::all({kRequantize(false), cond::negate(sameTypes)}),
              "an input stored in another type than the result is requantized")};
    return s;
  }();
  return space;
}

/// Each input lands in a strided view of the output; an input quantized
/// differently from the output is requantized through f32 on the way (exact
/// dequantization, one rounding half to even).
LogicalResult lowering::selectConcat(LoweringCase &c, const target::TargetInfo &) {
  auto cat = cast<qk::ConcatOp>(c.op);
  auto qy = quantOf(tensorOf(cat.getResult()).getElementType());
  bool requantize = false;
  for (Value in : cat.getInputs()) {
    auto qx = quantOf(tensorOf(in).getElementType());
    if ((qx && qx->axis >= 0) || (qy && qy->axis >= 0) || bool(qx) != bool(qy))
      return c.op->emitOpError("quantized concat needs per-tensor quantized inputs and result");
    requantize |= !sameQuant(tensorOf(in).getElementType(), tensorOf(cat.getResult()).getElementType());
  }
  c.flag(kRequantize, requantize);
  return success();
}

namespace {
/// Whether a Concat requantizes input `in` (quantized otherwise than its result).
bool requantizes(const LoweringCase &c, Value in) {
  return c.is(kRequantize) &&
         !sameQuant(tensorOf(in).getElementType(), tensorOf(c.op->getResult(0)).getElementType());
}
} // namespace

/// One nest per input, into its slab of the result (the result's strides);
/// an input requantized on the way holds its f32 copy and takes two passes.
LogicalResult lowering::planConcat(const LoweringCase &c, const target::TargetInfo &,
                                   IterationSpaces &s) {
  auto cat = cast<qk::ConcatOp>(c.op);
  int64_t outBytes = bytesOf(storageOf(tensorOf(cat.getResult()).getElementType()));
  for (Value in : cat.getInputs()) {
    ArrayRef<int64_t> shape = tensorOf(in).getShape();
    bool requantize = requantizes(c, in);
    // LM per element: a copy moves the input's tile itself (its storage
    // bytes: 4 for f32); a requantized input adds two f32 copies and the
    // result's tile.
    int64_t inBytes = bytesOf(storageOf(tensorOf(in).getElementType()));
    int64_t lm = requantize ? inBytes + 8 + outBytes : inBytes;
    if (failed(addNest(c.op, s, shape, {broadcastAccess(in, shape)},
                       denseAccess(cat.getResult()), EwWork{lm, requantize ? 2 : 0})))
      return failure();
  }
  return success();
}

LogicalResult ConcatPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto cat = cast<qk::ConcatOp>(c.op);
  Value out = resultBuffer(cat.getResult());
  auto ot = cast<BufferType>(out.getType());
  auto qy = quantOf(tensorOf(cat.getResult()).getElementType());
  int64_t axis = int64_t(cat.getAxis());  // the verifier keeps it in [0, rank)
  int64_t offset = 0;
  for (auto [k, in] : llvm::enumerate(cat.getInputs())) {
    ArrayRef<int64_t> shape = tensorOf(in).getShape();
    auto qx = quantOf(tensorOf(in).getElementType());
    Value dst = e.view(out, offset * ot.getStrides()[size_t(axis)], shape, ot.getStrides());
    bool requantize = requantizes(c, in);
    if (failed(elementwise(c.op, planned.nests[k], {gmOf(in)}, dst,
                           [&](EwTiles &tl) {
                             if (requantize)
                               tl.out = fromF32(toF32(tl.in[0], qx), qy, ot.getElementType());
                           })))
      return failure();
    offset += shape[size_t(axis)];
  }
  return success();
}

//===----------------------------------------------------------------------===//
// qk.pad: a constant Pad
//===----------------------------------------------------------------------===//

/// Any type a model stores (graph-fuse-qdq quantizes Pad).
const CaseSpace &lowering::padSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"T->T", {{"T", ct::movable()}}}};
    return s;
  }();
  return space;
}

LogicalResult lowering::selectPad(LoweringCase &, const target::TargetInfo &) { return success(); }

LogicalResult lowering::planPadOp(const LoweringCase &c, const target::TargetInfo &,
                                  IterationSpaces &s) {
  auto pad = cast<qk::PadOp>(c.op);
  int64_t es = bytesOf(storageOf(tensorOf(pad.getInput()).getElementType()));
  return planPad(c.op, tensorOf(pad.getInput()).getShape(), pad.getLow(), pad.getHigh(), es, s);
}

/// The fill's bits as the result's storage holds them (floats by their IEEE
/// encoding, integers two's complement, truncated to the storage's width).
LogicalResult PadPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto pad = cast<qk::PadOp>(c.op);
  Type el = tensorOf(pad.getResult()).getElementType();
  uint64_t bits = 0;
  if (auto f = dyn_cast<FloatAttr>(pad.getFill()))
    bits = f.getValue().bitcastToAPInt().getZExtValue();
  else
    bits = cast<IntegerAttr>(pad.getFill()).getValue().getZExtValue();
  int64_t fill = int64_t(bits & ((uint64_t(1) << (8 * bytesOf(storageOf(el)))) - 1));
  Value dst = resultBuffer(pad.getResult());
  return lowerPad(c.op, gmOf(pad.getInput()), dst, tensorOf(pad.getInput()).getShape(),
                  pad.getLow(), pad.getHigh(), fill);
}

//===----------------------------------------------------------------------===//
// qk.copy: Transpose, Slice, Expand, Tile, DepthToSpace, SpaceToDepth
//===----------------------------------------------------------------------===//

/// Any type a model stores, quantized ones included (graph-fuse-qdq
/// quantizes Transpose, Slice, DepthToSpace and SpaceToDepth); `pieces`:
/// more than one strided copy (a Slice with a negative step).
const CaseSpace &lowering::copySpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"T->T", {{"T", ct::movable()}}}};
    s.properties = {kPieces.declare()};
    return s;
  }();
  return space;
}

LogicalResult lowering::selectCopy(LoweringCase &c, const target::TargetInfo &) {
  c.flag(kPieces, cast<qk::CopyOp>(c.op).getPieces().size() > 1);
  return success();
}

/// Each piece's copy (planCopy), over the dense strides of the operand and
/// the result.
LogicalResult lowering::planCopyOp(const LoweringCase &c, const target::TargetInfo &,
                                   IterationSpaces &s) {
  auto op = cast<qk::CopyOp>(c.op);
  int64_t es = bytesOf(storageOf(tensorOf(op.getInput()).getElementType()));
  SmallVector<int64_t> ss = denseStrides(tensorOf(op.getInput()).getShape(), es);
  SmallVector<int64_t> ds = denseStrides(tensorOf(op.getResult()).getShape(), es);
  for (Attribute a : op.getPieces()) {
    auto piece = cast<qk::AddressPlanAttr>(a);
    auto from = qk::AddressPlanAttr::address(piece.getSource(), ss).second;
    auto to = qk::AddressPlanAttr::address(piece.getDest(), ds).second;
    if (failed(planCopy(c.op, piece.getShape(), from, to, es, s)))
      return failure();
  }
  return success();
}

/// Each piece is a strided copy: its maps over the buffers' strides give
/// the offsets and the strides of the source and result views.
LogicalResult CopyPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::CopyOp>(c.op);
  Value src = gmOf(op.getInput()), dst = resultBuffer(op.getResult());
  ArrayRef<int64_t> ss = cast<BufferType>(src.getType()).getStrides();
  ArrayRef<int64_t> ds = cast<BufferType>(dst.getType()).getStrides();
  for (Attribute a : op.getPieces()) {
    auto piece = cast<qk::AddressPlanAttr>(a);
    auto [srcOff, from] = qk::AddressPlanAttr::address(piece.getSource(), ss);
    auto [dstOff, to] = qk::AddressPlanAttr::address(piece.getDest(), ds);
    ArrayRef<int64_t> box = piece.getShape();
    Value dstView = e.view(dst, dstOff, box, to);
    if (failed(lowerCopy(c.op, e.view(src, srcOff, box, from), dstView, box, from)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Copies and padding
//===----------------------------------------------------------------------===//

FailureOr<CopyPlan> lowering::planCopy(Operation *op, ArrayRef<int64_t> shape,
                                       ArrayRef<int64_t> srcStrides, ArrayRef<int64_t> dstStrides,
                                       int64_t es, IterationSpaces &s) {
  auto access = [&](size_t from, ArrayRef<int64_t> strides) {
    return EwAccess{std::vector<int64_t>(strides.begin() + from, strides.end()), es, false};
  };
  // Does the space fit the DMA's 4 dimensions once contiguous ones merge?
  ElementwiseProblem probe;
  std::vector<int64_t> dims(shape.begin(), shape.end());
  if (!canonicalize(dims, {access(0, srcStrides)}, access(0, dstStrides), EwWork{es, 0}, probe,
                    rowsBesideProduct(op))) {
    s.nests.push_back(std::move(probe));
    return CopyPlan{};
  }
  // It does not: peel outer dimensions into nests of their own, each a
  // strided copy at its offset, until the rest fits.
  CopyPlan plan;
  plan.peeled = true;
  ElementwiseProblem rest;
  for (; plan.peel < shape.size(); ++plan.peel) {
    plan.count *= shape[plan.peel];
    if (plan.count > kMaxCopyNests)
      return op->emitOpError() << "copies through a strided view of " << shape.size()
                               << " dimensions that needs more than " << kMaxCopyNests
                               << " DMA nests (the DMA moves at most 4 dimensions)";
    std::vector<int64_t> restDims(shape.begin() + plan.peel + 1, shape.end());
    rest = ElementwiseProblem();
    if (!canonicalize(restDims, {access(plan.peel + 1, srcStrides)}, access(plan.peel + 1, dstStrides),
                      EwWork{es, 0}, rest))
      break;
  }
  s.nests.insert(s.nests.end(), size_t(plan.count), rest);
  return plan;
}

LogicalResult KernelBuilder::lowerCopy(Operation *op, Value src, Value dst, ArrayRef<int64_t> shape,
                                        ArrayRef<int64_t> srcStrides) {
  int64_t es = cast<BufferType>(src.getType()).getElementBytes();
  auto dt = cast<BufferType>(dst.getType());
  if (dt.getElementBytes() != es)
    return op->emitOpError() << "internal error: copies " << es << "-byte elements into "
                             << dt.getElementBytes() << "-byte ones";
  IterationSpaces local;
  FailureOr<CopyPlan> plan = planCopy(op, shape, srcStrides, dt.getStrides(), es, local);
  if (failed(plan))
    return failure();
  if (!plan->peeled)
    return elementwise(op, local.nests[0], {src}, dst, [](EwTiles &) {});
  size_t peel = plan->peel;
  int64_t nests = plan->count;
  ArrayRef<int64_t> inner = shape.drop_front(peel + 1);
  ArrayRef<int64_t> innerSrc = srcStrides.drop_front(peel + 1);
  ArrayRef<int64_t> innerDst = dt.getStrides().drop_front(peel + 1);
  SmallVector<int64_t> index(peel + 1, 0);
  for (int64_t n = 0; n < nests; ++n) {
    int64_t srcOff = 0, dstOff = 0;
    for (size_t k = 0, rem = size_t(n); k <= peel; ++k) {
      size_t d = peel - k;
      index[d] = int64_t(rem % size_t(shape[d]));
      rem /= size_t(shape[d]);
      srcOff += index[d] * srcStrides[d];
      dstOff += index[d] * dt.getStrides()[d];
    }
    Value from = e.view(src, srcOff, inner, innerSrc);
    if (failed(elementwise(op, local.nests[size_t(n)], {from}, e.view(dst, dstOff, inner, innerDst),
                           [](EwTiles &) {})))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Pad: DMA_IN's padding writes the fill, DMA_OUT stores the padded box.
//===----------------------------------------------------------------------===//

namespace {
/// A Pad's shape, pads and dense strides as 4-D (the leading dimensions
/// added of extent 1, no pads and stride 0).
struct Pad4 {
  SmallVector<int64_t, 4> in, l, h, sIn, sOut;
};
Pad4 pad4(ArrayRef<int64_t> inShape, ArrayRef<int64_t> lo, ArrayRef<int64_t> hi, int64_t es) {
  size_t rank = inShape.size();
  Pad4 p;
  p.in.assign(4 - rank, 1), p.l.assign(4 - rank, 0), p.h.assign(4 - rank, 0);
  p.in.append(inShape.begin(), inShape.end());
  p.l.append(lo.begin(), lo.end());
  p.h.append(hi.begin(), hi.end());
  SmallVector<int64_t, 4> out;
  for (size_t i = 0; i < rank; ++i)
    out.push_back(inShape[i] + lo[i] + hi[i]);
  p.sIn.assign(4 - rank, 0), p.sOut.assign(4 - rank, 0);
  llvm::append_range(p.sIn, denseStrides(inShape, es));
  llvm::append_range(p.sOut, denseStrides(out, es));
  return p;
}
} // namespace

LogicalResult lowering::planPad(Operation *op, ArrayRef<int64_t> inShape, ArrayRef<int64_t> lo,
                                ArrayRef<int64_t> hi, int64_t es, IterationSpaces &s) {
  size_t rank = inShape.size();
  if (rank > 4 || rank < 1)
    return op->emitOpError() << "pads tensors of rank 1 to 4, not " << rank;
  for (size_t i = 0; i < rank; ++i)
    if (lo[i] < 0 || hi[i] < 0 || lo[i] > kDmaPadMax || hi[i] > kDmaPadMax)
      return op->emitOpError() << "pads (" << lo[i] << ", " << hi[i] << ") of dimension " << i
                               << " are outside [0, " << kDmaPadMax << "], the DMA's padding range";
  Pad4 d = pad4(inShape, lo, hi, es);
  // Whole padded planes of dimension 1 when select-tiling's tile holds all
  // their rows, else one plane in chunks of source rows (the first chunk
  // carries the top padding, the last the bottom, so every DMA has source
  // rows). Rows are never cut: column tiling of Pad is not implemented.
  int64_t wo = d.in[3] + d.l[3] + d.h[3];
  ElementwiseProblem p;
  p.shape = {1, d.in[1] + d.l[1] + d.h[1], d.in[2], wo};
  p.ins = {{{0, d.sIn[1], d.sIn[2], d.sIn[3]}, es, false}};
  p.out = {{0, d.sOut[1], d.sOut[2], d.sOut[3]}, es, false};
  p.work = {es, 0};
  p.fixed = {1, 0, 0, wo};
  p.rowsFirst = true;
  p.padRows = d.l[2] + d.h[2];
  p.maxBuffers = 1;
  s.nests.push_back(std::move(p));
  return success();
}

LogicalResult KernelBuilder::lowerPad(Operation *op, Value src, Value dst, ArrayRef<int64_t> inShape,
                                       ArrayRef<int64_t> lo, ArrayRef<int64_t> hi, int64_t fill) {
  auto st = cast<BufferType>(src.getType());
  int64_t es = st.getElementBytes();
  IterationSpaces local;
  if (failed(planPad(op, inShape, lo, hi, es, local)))
    return failure();
  // Tile over the leading dimensions; the trailing two stay whole. The
  // buffers are dense (the plan's strides).
  Pad4 d = pad4(inShape, lo, hi, es);
  ArrayRef<int64_t> in = d.in, l = d.l, h = d.h, sIn = d.sIn, sOut = d.sOut;
  int64_t wo = in[3] + l[3] + h[3];
  int64_t pitch = roundUp(wo * es, t.params.VectorAlign);
  FailureOr<ElementwiseTiling> tiled = nestTiling(op, local.nests[0]);
  if (failed(tiled))
    return failure();
  int64_t planes = tiled->tile[1], rowsPer = tiled->tile[2];
  int64_t hOut = in[2] + l[2] + h[2], cOut = in[1] + l[1] + h[1];
  // Planes with no source element (padding on dimension 0, or on dimension
  // 1 beyond a tile, as MediaPipe pads channels): a one-element constant
  // holding the fill, which a padded DMA_IN spreads over a whole block of
  // the tile (every element the fill), written out block by block.
  Value fillOne;
  auto fillPlanes = [&](int64_t i0, int64_t c0, int64_t count) -> LogicalResult {
    int64_t rowsFit = std::min<int64_t>({rowsPer + l[2] + h[2], hOut, kDmaPadMax + 1});
    if (wo > kDmaPadMax + 1)
      return op->emitOpError() << "pads whole planes of fill with rows of " << wo
                               << " elements, more than a padded DMA spreads ("
                               << kDmaPadMax + 1 << ")";
    if (!fillOne) {
      Type bits = b.getIntegerType(unsigned(8 * es));
      auto type = RankedTensorType::get({1}, bits);
      fillOne = e.retype(constant(DenseElementsAttr::get(type, APInt(unsigned(8 * es), uint64_t(fill))), type),
                         st.getElementType());
    }
    int64_t pc = std::min<int64_t>({planes, count, kDmaPadMax + 1});
    for (int64_t c = 0; c < count; c += pc)
      for (int64_t r = 0; r < hOut; r += rowsFit) {
        int64_t np = std::min(pc, count - c), nr = std::min(rowsFit, hOut - r);
        Value tileV = e.tile(MemorySpace::LM, np * nr, wo, st.getElementType());
        Value box = e.view(tileV, 0, {1, np, nr, wo}, {0, nr * pitch, pitch, es});
        e.dma(e.view(fillOne, 0, {1, 1, 1, 1}, {0, 0, 0, es}), box, {0, 0, 0, 0},
              {0, np - 1, nr - 1, wo - 1}, fill);
        e.dma(box, e.view(dst, i0 * sOut[0] + (c0 + c) * sOut[1] + r * sOut[2], {1, np, nr, wo},
                          {0, sOut[1], sOut[2], sOut[3]}));
      }
    return success();
  };
  for (int64_t i0 = 0; i0 < in[0] + l[0] + h[0]; ++i0) {
    if (i0 < l[0] || i0 >= l[0] + in[0]) {
      if (failed(fillPlanes(i0, 0, cOut)))
        return failure();
      continue;
    }
    for (int64_t j = 0; j < cOut; j += planes) {
      int64_t cnt = std::min(planes, cOut - j);
      int64_t srcLo = std::max<int64_t>(j, l[1]), srcHi = std::min<int64_t>(j + cnt, l[1] + in[1]);
      if (srcLo >= srcHi) {
        if (failed(fillPlanes(i0, j, cnt)))
          return failure();
        continue;
      }
      for (int64_t a = 0; a < in[2]; a += rowsPer) {
        int64_t rows = std::min(rowsPer, in[2] - a);
        int64_t top = a == 0 ? l[2] : 0, bottom = a + rows == in[2] ? h[2] : 0;
        int64_t outRows = rows + top + bottom, outRow0 = a == 0 ? 0 : a + l[2];
        Value tileV = e.tile(MemorySpace::LM, cnt * outRows, wo, st.getElementType());
        Value box = e.view(tileV, 0, {1, cnt, outRows, wo}, {0, outRows * pitch, pitch, es});
        Value srcBox = e.view(src, (i0 - l[0]) * sIn[0] + (srcLo - l[1]) * sIn[1] + a * sIn[2],
                              {1, srcHi - srcLo, rows, in[3]}, {0, sIn[1], sIn[2], sIn[3]});
        e.dma(srcBox, box, {0, srcLo - j, top, l[3]}, {0, j + cnt - srcHi, bottom, h[3]}, fill);
        Value dstBox = e.view(dst, i0 * sOut[0] + j * sOut[1] + outRow0 * sOut[2],
                              {1, cnt, outRows, wo}, {0, sOut[1], sOut[2], sOut[3]});
        e.dma(box, dstBox);
      }
    }
  }
  return success();
}
