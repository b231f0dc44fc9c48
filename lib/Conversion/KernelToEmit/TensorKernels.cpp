//===- TensorKernels.cpp - Data movement: concat, transpose, slice, pad, resize ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Kernels that move data without computing on it (contract D13: coordinates,
// strides and quantization are preserved): a copy through strided views is
// the elementwise iteration with an empty body; Pad uses DMA_IN's padding.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"


using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

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

LogicalResult KernelLowering::lowerConcat(const LoweringCase &c) {
  auto cat = cast<qk::ConcatOp>(c.op);
  Value out = resultBuffer(cat.getResult());
  auto ot = cast<BufferType>(out.getType());
  auto qy = quantOf(tensorOf(cat.getResult()).getElementType());
  int64_t axis = int64_t(cat.getAxis());  // the verifier keeps it in [0, rank)
  int64_t offset = 0;
  for (Value in : cat.getInputs()) {
    ArrayRef<int64_t> shape = tensorOf(in).getShape();
    auto qx = quantOf(tensorOf(in).getElementType());
    Value dst = e.view(out, offset * ot.getStrides()[size_t(axis)], shape, ot.getStrides());
    bool requantize =
        c.is(kRequantize) && !sameQuant(tensorOf(in).getElementType(), tensorOf(cat.getResult()).getElementType());
    if (failed(elementwise(c.op, shape, {broadcastOperand(in, shape)}, dst,
                           EwWork{requantize ? 10 : 2, requantize ? 2 : 0},
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

/// The fill's bits as the result's storage holds them (floats by their IEEE
/// encoding, integers two's complement, truncated to the storage's width).
LogicalResult KernelLowering::lowerPadOp(const LoweringCase &c) {
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

/// Each piece is a strided copy: its maps over the buffers' strides give
/// the offsets and the strides of the source and result views.
LogicalResult KernelLowering::lowerCopyOp(const LoweringCase &c) {
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

LogicalResult KernelLowering::lowerCopy(Operation *op, Value src, Value dst, ArrayRef<int64_t> shape,
                                        ArrayRef<int64_t> srcStrides) {
  int64_t es = cast<BufferType>(src.getType()).getElementBytes();
  auto dt = cast<BufferType>(dst.getType());
  // Does the space fit the DMA's 4 dimensions once contiguous ones merge?
  ElementwiseProblem probe;
  std::vector<EwAccess> ins{{std::vector<int64_t>(srcStrides.begin(), srcStrides.end()), es, false}};
  EwAccess out{std::vector<int64_t>(dt.getStrides().begin(), dt.getStrides().end()), es, false};
  std::vector<int64_t> dims(shape.begin(), shape.end());
  if (!canonicalize(dims, ins, out, EwWork{es, 0}, probe)) {
    EwOperand in{src, SmallVector<int64_t, 4>(srcStrides.begin(), srcStrides.end())};
    return elementwise(op, shape, {in}, dst, EwWork{es, 0}, [](EwTiles &) {});
  }
  // It does not: peel outer dimensions into nests of their own, each a
  // strided copy at its offset, until the rest fits.
  int64_t nests = 1;
  size_t peel = 0;
  for (; peel < shape.size(); ++peel) {
    ElementwiseProblem rest;
    std::vector<EwAccess> restIns{{std::vector<int64_t>(srcStrides.begin() + peel + 1, srcStrides.end()), es, false}};
    EwAccess restOut{std::vector<int64_t>(dt.getStrides().begin() + peel + 1, dt.getStrides().end()), es,
                     false};
    nests *= shape[peel];
    if (nests > kMaxCopyNests)
      return op->emitOpError() << "copies through a strided view of " << shape.size()
                               << " dimensions that needs more than " << kMaxCopyNests
                               << " DMA nests (the DMA moves at most 4 dimensions)";
    std::vector<int64_t> restDims(shape.begin() + peel + 1, shape.end());
    if (!canonicalize(restDims, restIns, restOut, EwWork{es, 0}, rest))
      break;
  }
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
    EwOperand in{e.view(src, srcOff, inner, innerSrc), SmallVector<int64_t, 4>(innerSrc.begin(), innerSrc.end())};
    if (failed(elementwise(op, inner, {in}, e.view(dst, dstOff, inner, innerDst), EwWork{es, 0},
                           [](EwTiles &) {})))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Pad: DMA_IN's padding writes the fill, DMA_OUT stores the padded box.
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerPad(Operation *op, Value src, Value dst, ArrayRef<int64_t> inShape,
                                       ArrayRef<int64_t> lo, ArrayRef<int64_t> hi, int64_t fill) {
  size_t rank = inShape.size();
  if (rank > 4 || rank < 1)
    return op->emitOpError() << "pads tensors of rank 1 to 4, not " << rank;
  for (size_t i = 0; i < rank; ++i)
    if (lo[i] < 0 || hi[i] < 0 || lo[i] > kDmaPadMax || hi[i] > kDmaPadMax)
      return op->emitOpError() << "pads (" << lo[i] << ", " << hi[i] << ") of dimension " << i
                               << " are outside [0, " << kDmaPadMax << "], the DMA's padding range";
  auto st = cast<BufferType>(src.getType()), dt = cast<BufferType>(dst.getType());
  int64_t es = st.getElementBytes();
  // Tile over the leading dimensions; the trailing two stay whole.
  SmallVector<int64_t, 4> in(4 - rank, 1), l(4 - rank, 0), h(4 - rank, 0);
  in.append(inShape.begin(), inShape.end());
  l.append(lo.begin(), lo.end());
  h.append(hi.begin(), hi.end());
  SmallVector<int64_t, 4> sIn(4 - rank, 0), sOut(4 - rank, 0);
  sIn.append(st.getStrides().begin(), st.getStrides().end());
  sOut.append(dt.getStrides().begin(), dt.getStrides().end());
  int64_t wo = in[3] + l[3] + h[3];
  int64_t pitch = roundUp(wo * es, t.params.VectorAlign);
  // Whole padded planes of dimension 1 when select-tiling's tile holds all
  // their rows, else one plane in chunks of source rows (the first chunk
  // carries the top padding, the last the bottom, so every DMA has source
  // rows). Rows are never cut: column tiling of Pad is not implemented.
  ElementwiseProblem p;
  p.shape = {1, in[1] + l[1] + h[1], in[2], wo};
  p.ins = {{{0, sIn[1], sIn[2], sIn[3]}, es, false}};
  p.out = {{0, sOut[1], sOut[2], sOut[3]}, dt.getElementBytes(), false};
  p.work = {es, 0};
  p.fixed = {1, 0, 0, wo};
  p.rowsFirst = true;
  p.padRows = l[2] + h[2];
  p.maxBuffers = 1;
  FailureOr<std::optional<ElementwiseTiling>> tiled = tileNest(op, p);
  if (failed(tiled) || !*tiled)
    return failed(tiled) ? failure() : success();  // describing: nothing to emit
  int64_t planes = (*tiled)->tile[1], rowsPer = (*tiled)->tile[2];
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
