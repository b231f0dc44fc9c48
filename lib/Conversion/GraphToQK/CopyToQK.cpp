//===- CopyToQK.cpp - Data movement to qk.copy ----------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// One OpConversionPattern per graph op that moves data without computing:
// Transpose, Slice, Expand, Tile, DepthToSpace, SpaceToDepth, a nearest
// Resize, a Gather by constant indices and a reflect, edge or wrap Pad
// become qk.copy, the op's index arithmetic written as address plans (a box
// of indices, where each reads and where it writes; ONNX's formulas, the
// Resize's coordinate modes included, evaluated here at compile time). An
// axis whose indices are no one progression (a Slice with a negative step,
// a Resize by a fraction, a Gather, a reflection) is one piece per
// combination of runs (graph::shapes::indexRuns), as a strided view has one
// stride per axis. A constant Pad becomes qk.pad (its fill as the result's
// elements hold it), Concat qk.concat. An op none of them can be (an index
// known only at run time, a cubic Resize, more pieces than a program holds)
// or with an empty tensor stays a graph op: select-lowering-cases refuses
// it, explainCopy saying why.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"
#include "npuc/Dialect/QK/IR/QKOps.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"

#include <cmath>

using namespace mlir;
using namespace npuc;
using graph_to_qk::MirrorToKernel;
namespace sh = npuc::graph::shapes;

namespace {
/// Bytes per element of `element` as the NPU stores it.
int64_t storageBytes(Type element) {
  Type st = graph::storageType(element);
  return int64_t((st.getIntOrFloatBitWidth() + 7) / 8);
}
} // namespace

namespace {
ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }

qk::AddressPlanAttr plan(MLIRContext *ctx, ArrayRef<int64_t> shape, ArrayRef<AffineExpr> source,
                         ArrayRef<AffineExpr> dest) {
  return qk::AddressPlanAttr::get(ctx, shape, AffineMap::get(unsigned(shape.size()), 0, source, ctx),
                                  AffineMap::get(unsigned(shape.size()), 0, dest, ctx));
}

/// A copy of one piece over the result's shape, each index written where it
/// is and read where `source` says.
SmallVector<Attribute> wholeResult(Operation *op, ArrayRef<AffineExpr> source) {
  ArrayRef<int64_t> out = shapeOf(op->getResult(0));
  MLIRContext *ctx = op->getContext();
  SmallVector<AffineExpr> dest;
  for (unsigned d = 0; d < out.size(); ++d)
    dest.push_back(getAffineDimExpr(d, ctx));
  return {plan(ctx, out, source, dest)};
}

/// Transpose: result dimension i reads the input's dimension perm[i].
SmallVector<Attribute> transposePieces(graph::TransposeOp op) {
  ArrayRef<int64_t> perm = op.getPerm();
  SmallVector<AffineExpr> source(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    source[size_t(p)] = getAffineDimExpr(unsigned(i), op.getContext());
  return wholeResult(op, source);
}

/// Expand: the input's dimensions align with the result's last ones; one of
/// extent 1 (or one the input lacks) is read at index 0 (a broadcast).
SmallVector<Attribute> expandPieces(graph::ExpandOp op) {
  ArrayRef<int64_t> in = shapeOf(op.getInput());
  size_t lead = shapeOf(op.getResult()).size() - in.size();
  SmallVector<AffineExpr> source;
  for (size_t k = 0; k < in.size(); ++k)
    source.push_back(in[k] == 1 ? getAffineConstantExpr(0, op.getContext())
                                : getAffineDimExpr(unsigned(k + lead), op.getContext()));
  return wholeResult(op, source);
}

/// Tile: the result seen as [r0, d0, r1, d1, ...], repeat r_k of index d_k
/// written at r_k * in[k] + d_k and read at d_k.
SmallVector<Attribute> tilePieces(graph::TileOp op) {
  ArrayRef<int64_t> in = shapeOf(op.getInput());
  MLIRContext *ctx = op.getContext();
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> source, dest;
  for (auto [k, r] : llvm::enumerate(op.getRepeats())) {
    AffineExpr rep = getAffineDimExpr(unsigned(2 * k), ctx), d = getAffineDimExpr(unsigned(2 * k + 1), ctx);
    shape.append({r, in[k]});
    source.push_back(d);
    dest.push_back(rep * in[k] + d);
  }
  return {plan(ctx, shape, source, dest)};
}

/// DepthToSpace of [N, C, H, W] by block b, over [N, C', H, i, W, j]:
/// y[n, c, h*b + i, w*b + j] = x[n, ch, h, w], ch = (i*b + j)*C' + c (DCR)
/// or c*b*b + i*b + j (CRD).
SmallVector<Attribute> depthToSpacePieces(graph::DepthToSpaceOp op) {
  ArrayRef<int64_t> in = shapeOf(op.getInput());
  MLIRContext *ctx = op.getContext();
  int64_t b = int64_t(op.getBlocksize()), cc = in[1] / (b * b);
  AffineExpr n, c, h, i, w, j;
  bindDims(ctx, n, c, h, i, w, j);
  AffineExpr ch = op.getMode() == "CRD" ? c * (b * b) + i * b + j : c + i * (b * cc) + j * cc;
  return {plan(ctx, {in[0], cc, in[2], b, in[3], b}, {n, ch, h, w}, {n, c, h * b + i, w * b + j})};
}

/// SpaceToDepth, DCR's inverse, over [N, i, j, C, H', W']:
/// y[n, (i*b + j)*C + c, h, w] = x[n, c, h*b + i, w*b + j].
SmallVector<Attribute> spaceToDepthPieces(graph::SpaceToDepthOp op) {
  ArrayRef<int64_t> in = shapeOf(op.getInput());
  MLIRContext *ctx = op.getContext();
  int64_t b = int64_t(op.getBlocksize()), cc = in[1];
  AffineExpr n, i, j, c, h, w;
  bindDims(ctx, n, i, j, c, h, w);
  return {plan(ctx, {in[0], b, b, cc, in[2] / b, in[3] / b}, {n, c, h * b + i, w * b + j},
               {n, i * (b * cc) + j * cc + c, h, w})};
}

/// One piece per combination of one run per axis (the last axis' varying
/// fastest): along axis k, a run writes its `length` result indices from
/// `start` and reads from `source` on, `step` operand indices apart.
SmallVector<Attribute> runPieces(MLIRContext *ctx, ArrayRef<SmallVector<sh::IndexRun>> runs) {
  SmallVector<Attribute> pieces;
  for (const SmallVector<sh::IndexRun> &pick : sh::runCombinations(runs)) {
    SmallVector<int64_t> box(runs.size());
    SmallVector<AffineExpr> source(runs.size()), dest(runs.size());
    for (auto [k, r] : llvm::enumerate(pick)) {
      AffineExpr d = getAffineDimExpr(unsigned(k), ctx);
      box[k] = r.length;
      source[k] = d * r.step + r.source;
      dest[k] = d + r.start;
    }
    pieces.push_back(plan(ctx, box, source, dest));
  }
  return pieces;
}

/// Slice: along each axis, the runs it reads (one for a positive step, a
/// run per output index for a negative one); one piece per combination of
/// runs, the last axis' runs varying fastest. Refuses more pieces than
/// sh::kMaxStridedCopies, at the op when `report`.
FailureOr<SmallVector<Attribute>> slicePieces(graph::SliceOp op, bool report) {
  ArrayRef<int64_t> out = shapeOf(op.getResult());
  SmallVector<SmallVector<sh::IndexRun>> runs;
  int64_t copies = 1;
  for (auto [i, start, step] : llvm::enumerate(op.getStarts(), op.getSteps())) {
    if (step > 0) {
      runs.push_back({{0, out[i], start, step}});
      continue;
    }
    if (step == 0)
      return report ? op->emitOpError() << "slice step 0 on axis " << i : failure();
    SmallVector<int64_t> src;
    for (int64_t o = 0; o < out[i]; ++o)
      src.push_back(start + o * step);
    runs.push_back(sh::indexRuns(src));
    copies *= std::max<int64_t>(1, int64_t(runs.back().size()));
    if (copies > sh::kMaxStridedCopies)
      return report ? op->emitOpError() << "slice with step " << step << " on axis " << i
                                        << " needs more than " << sh::kMaxStridedCopies
                                        << " strided copies (one per reversed index)"
                    : failure();
  }
  return runPieces(op.getContext(), runs);
}

/// The input index a nearest Resize reads for output index `o` along an
/// axis (ONNX's coordinate_transformation_mode, then nearest_mode, clamped),
/// or nullopt for a mode this does not know.
std::optional<int64_t> nearestSource(int64_t o, int64_t in, int64_t out, double scale,
                                     StringRef ctm, StringRef nm) {
  // An axis the resize leaves alone is copied, whatever the coordinate
  // mode (tf_half_pixel_for_nn would read o + 1/2, rounded up by ceil and
  // round_prefer_ceil, from every unscaled batch and channel axis): as
  // onnxruntime and the ONNX reference evaluate it (contract D14).
  if (in == out && scale == 1.0)
    return o;
  std::optional<double> coordinate = sh::resizeCoordinate(o, in, out, scale, ctm);
  if (!coordinate)
    return std::nullopt;
  double x = *coordinate;
  double r;
  if (nm == "floor")
    r = std::floor(x);
  else if (nm == "ceil")
    r = std::ceil(x);
  else if (nm == "round_prefer_floor")
    r = x - std::floor(x) == 0.5 ? std::floor(x) : std::round(x);
  else if (nm == "round_prefer_ceil")
    r = std::round(x);
  else
    return std::nullopt;
  return std::min<int64_t>(std::max<int64_t>(int64_t(r), 0), in - 1);
}

/// Resize (nearest; graph-expand-gather made the linear ones products):
/// ONNX's coordinate formula evaluated for every output index. Where every
/// axis reads floor(o / k) for a whole k (a replication), one piece over
/// [in0, k0, in1, k1, ...] reads index i of repeat r at i and writes it at
/// i * k + r; otherwise the runs of source indices, one piece per
/// combination (refused beyond sh::kMaxStridedCopies).
FailureOr<SmallVector<Attribute>> resizePieces(graph::ResizeOp rs, bool report) {
  if (rs.getMode() != "nearest")
    return report ? rs->emitOpError() << "resize mode '" << rs.getMode() << "' has no NPU lowering yet"
                  : failure();
  ArrayRef<int64_t> in = shapeOf(rs.getInput()), out = shapeOf(rs.getResult());
  StringRef ctm = rs.getCoordinateTransformationMode(), nm = rs.getNearestMode();
  MLIRContext *ctx = rs.getContext();
  bool replicateAll = true;
  for (size_t axis = 0; axis < in.size(); ++axis) {
    int64_t k = in[axis] > 0 ? out[axis] / in[axis] : 0;
    bool replicate = k >= 1 && k * in[axis] == out[axis];
    for (int64_t o = 0; replicate && o < out[axis]; ++o)
      replicate = nearestSource(o, in[axis], out[axis], rs.getScales()[axis], ctm, nm) == o / k;
    replicateAll &= replicate;
  }
  SmallVector<SmallVector<sh::IndexRun>> runs;
  int64_t copies = 1;
  for (size_t axis = 0; !replicateAll && axis < in.size(); ++axis) {
    SmallVector<int64_t> src;
    for (int64_t o = 0; o < out[axis]; ++o) {
      std::optional<int64_t> s = nearestSource(o, in[axis], out[axis], rs.getScales()[axis], ctm, nm);
      if (!s)
        return report ? rs->emitOpError() << "nearest resize with coordinates '" << ctm
                                          << "' and rounding '" << nm << "' has no NPU lowering"
                      : failure();
      src.push_back(*s);
    }
    runs.push_back(sh::indexRuns(src));
    copies *= int64_t(runs.back().size());
    if (copies > sh::kMaxStridedCopies)
      return report ? rs->emitOpError() << "nearest resize along axis " << axis << " (" << in[axis]
                                        << " -> " << out[axis] << ", " << ctm << ", " << nm
                                        << ") needs more than " << sh::kMaxStridedCopies
                                        << " strided copies"
                    : failure();
  }
  if (!llvm::is_contained({"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                           "tf_half_pixel_for_nn"}, ctm) ||
      !llvm::is_contained({"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}, nm))
    return report ? rs->emitOpError() << "resize with coordinate transformation '" << ctm
                                      << "' and nearest mode '" << nm << "' has no NPU lowering yet"
                  : failure();
  if (!replicateAll)
    return runPieces(ctx, runs);
  SmallVector<int64_t> box;
  SmallVector<AffineExpr> source, dest;
  for (size_t axis = 0; axis < in.size(); ++axis) {
    int64_t k = out[axis] / in[axis];
    AffineExpr i = getAffineDimExpr(unsigned(2 * axis), ctx), r = getAffineDimExpr(unsigned(2 * axis + 1), ctx);
    box.append({in[axis], k});
    source.push_back(i);
    dest.push_back(i * k + r);
  }
  return SmallVector<Attribute>{plan(ctx, box, source, dest)};
}

/// Gather by constant indices, the indices' dimensions seen as one axis in
/// the gathered axis' place ([d0, ..., n, ...]): one piece per run of
/// indices, every other axis whole.
FailureOr<SmallVector<Attribute>> gatherPieces(graph::GatherOp op, bool report) {
  auto dataType = cast<RankedTensorType>(op.getData().getType());
  int64_t axis = op.getAxis(), V = dataType.getShape()[size_t(axis)];
  std::optional<int64_t> outside;
  std::optional<SmallVector<int64_t>> src = graph::constantGatherSources(op, &outside);
  if (!src && outside)
    return report ? op->emitOpError() << "gather index " << *outside << " is outside [" << -V << ", "
                                      << V << ") along axis " << axis
                  : failure();
  if (!src)
    return report ? op->emitOpError() << "gather of " << graph::shapes::str(dataType.getShape())
                                      << " along axis " << axis
                                      << " by indices known only at run time does not fit the indexed DMA: "
                                      << graph::shapes::indexedGatherMisfit(
                                             dataType.getShape(), axis,
                                             storageBytes(dataType.getElementType()))
                  : failure();
  SmallVector<sh::IndexRun> idRuns = sh::indexRuns(*src);
  if (int64_t(idRuns.size()) > sh::kMaxStridedCopies)
    return report ? op->emitOpError() << "gather by " << src->size() << " constant indices needs "
                                      << idRuns.size() << " strided copies, more than "
                                      << sh::kMaxStridedCopies
                  : failure();
  ArrayRef<int64_t> ds = dataType.getShape();
  SmallVector<SmallVector<sh::IndexRun>> runs;
  for (size_t k = 0; k < ds.size(); ++k)
    runs.push_back(k == size_t(axis) ? idRuns : SmallVector<sh::IndexRun>{{0, ds[k], 0, 1}});
  return runPieces(op.getContext(), runs);
}

/// A reflect, edge or wrap Pad: output index o of an axis reads input index
/// o - begin mapped into [0, n) by the mode (reflect mirrors about the edge
/// elements, edge repeats them, wrap is periodic), as runs. Refuses a
/// negative pad, a reflection wider than the axis, and more pieces than
/// sh::kMaxStridedCopies.
FailureOr<SmallVector<Attribute>> padPieces(graph::PadOp pad, bool report) {
  ArrayRef<int64_t> in = shapeOf(pad.getInput());
  ArrayRef<int64_t> pads = pad.getPads();
  StringRef mode = pad.getMode();
  size_t rank = in.size();
  SmallVector<SmallVector<sh::IndexRun>> runs;
  int64_t copies = 1;
  for (size_t k = 0; k < rank; ++k) {
    int64_t n = in[k], lo = pads[k], hi = pads[k + rank];
    if (lo < 0 || hi < 0)
      return report ? pad->emitOpError() << "a " << mode << " pad of " << lo << " and " << hi
                                         << " on axis " << k
                                         << " has no NPU lowering (negative pads crop; constant "
                                            "mode only)"
                    : failure();
    if (mode == "reflect" && (lo > n - 1 || hi > n - 1) && (lo || hi))
      return report ? pad->emitOpError() << "a reflect pad of " << lo << " and " << hi << " on axis "
                                         << k << " of " << n
                                         << " elements reflects more than the axis holds (at most "
                                         << n - 1 << " each side)"
                    : failure();
    SmallVector<int64_t> src;
    for (int64_t o = 0; o < n + lo + hi; ++o) {
      int64_t i = o - lo;
      if (mode == "reflect")
        i = i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i);
      else if (mode == "edge")
        i = std::min(std::max<int64_t>(i, 0), n - 1);
      else
        i = ((i % n) + n) % n;
      src.push_back(i);
    }
    runs.push_back(sh::indexRuns(src));
    copies *= int64_t(runs.back().size());
    if (copies > sh::kMaxStridedCopies)
      return report ? pad->emitOpError() << "a " << mode << " pad of " << lo << " and " << hi
                                         << " on axis " << k << " needs more than "
                                         << sh::kMaxStridedCopies << " strided copies"
                    : failure();
  }
  return runPieces(pad.getContext(), runs);
}

/// A constant Pad's fill as the result's element type holds it: ONNX's
/// constant_value quantized (half to even, saturated) for a quantized
/// result, rounded to f32 (then to f16) for a float one, converted to an
/// integer type otherwise (truncating).
TypedAttr padFill(graph::PadOp pad) {
  Type el = cast<RankedTensorType>(pad.getType()).getElementType();
  double value = pad.getValueAttr().getValueAsDouble();
  MLIRContext *ctx = pad.getContext();
  if (auto q = dyn_cast<quant::UniformQuantizedType>(el)) {
    double v = std::nearbyint(value / q.getScale()) + double(q.getZeroPoint());
    v = std::min(std::max(v, double(q.getStorageTypeMin())), double(q.getStorageTypeMax()));
    auto st = IntegerType::get(ctx, q.getStorageTypeIntegralWidth(),
                               q.isSigned() ? IntegerType::Signless : IntegerType::Unsigned);
    return IntegerAttr::get(st, APInt(st.getWidth(), uint64_t(int64_t(v)), q.isSigned()));
  }
  if (el.isF32())
    return FloatAttr::get(el, APFloat(float(value)));
  if (el.isF16())
    return FloatAttr::get(el, APFloat(APFloat::IEEEhalf(), APInt(16, num::floatToHalf(float(value)))));
  auto it = cast<IntegerType>(el);
  return IntegerAttr::get(it, APInt(it.getWidth(), uint64_t(int64_t(value)), /*isSigned=*/true,
                                    /*implicitTrunc=*/true));
}

/// A tensor with no elements has no box of indices to copy: the op stays, and
/// the lowering refuses it at the node as every empty tensor.
bool hasEmptyTensor(Operation *op) {
  return llvm::any_of(llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()),
                      [](Type t) { return cast<RankedTensorType>(t).getNumElements() == 0; });
}

/// The pieces of a copy op; a refusal reported at the op when `report`.
template <typename OpTy>
FailureOr<SmallVector<Attribute>> piecesOf(OpTy op, bool report) {
  if constexpr (std::is_same_v<OpTy, graph::SliceOp>)
    return slicePieces(op, report);
  else if constexpr (std::is_same_v<OpTy, graph::ResizeOp>)
    return resizePieces(op, report);
  else if constexpr (std::is_same_v<OpTy, graph::GatherOp>)
    return gatherPieces(op, report);
  else if constexpr (std::is_same_v<OpTy, graph::PadOp>)
    return padPieces(op, report);
  else if constexpr (std::is_same_v<OpTy, graph::TransposeOp>)
    return transposePieces(op);
  else if constexpr (std::is_same_v<OpTy, graph::ExpandOp>)
    return expandPieces(op);
  else if constexpr (std::is_same_v<OpTy, graph::TileOp>)
    return tilePieces(op);
  else if constexpr (std::is_same_v<OpTy, graph::DepthToSpaceOp>)
    return depthToSpacePieces(op);
  else
    return spaceToDepthPieces(op);
}

/// A constant Pad is qk.pad; the other modes read the input only (copies).
bool isConstantPad(Operation *op) {
  auto pad = dyn_cast<graph::PadOp>(op);
  return pad && pad.getMode() == "constant";
}

/// An op of an empty tensor, or a copy without pieces.
template <typename OpTy>
bool staysGraphOp(OpTy op) {
  return hasEmptyTensor(op) || (!isConstantPad(op) && failed(piecesOf(op, /*report=*/false)));
}

template <typename OpTy>
struct CopyToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (hasEmptyTensor(op) || isConstantPad(op))
      return rewriter.notifyMatchFailure(op, "a tensor with no elements, or a constant pad");
    FailureOr<SmallVector<Attribute>> pieces = piecesOf(op, /*report=*/false);
    if (failed(pieces))
      return rewriter.notifyMatchFailure(op, "no copy (explainCopy says why)");
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    Location loc = op.getLoc();
    if constexpr (std::is_same_v<OpTy, graph::GatherOp>) {
      // The gather's indices as one axis: a view gives them their shape
      // back (and computes the ONNX output; the copy names no tensor).
      SmallVector<int64_t> flat(shapeOf(op.getData()));
      flat[size_t(op.getAxis())] = cast<RankedTensorType>(op.getIndices().getType()).getNumElements();
      if (ArrayRef<int64_t>(flat) != type.getShape()) {
        Value copy = qk::CopyOp::create(rewriter, graph::withoutTensorNames(loc),
                                        type.clone(flat), adaptor.getData(),
                                        rewriter.getArrayAttr(*pieces));
        rewriter.replaceOpWithNewOp<qk::ViewOp>(op, type, copy);
        return success();
      }
    }
    rewriter.replaceOpWithNewOp<qk::CopyOp>(op, type, adaptor.getOperands()[0],
                                            rewriter.getArrayAttr(*pieces));
    return success();
  }
};

/// A gather by indices known only at run time that the indexed DMA moves
/// (graph::shapes::indexedGatherMisfit): qk.gather.
bool isIndexedGather(graph::GatherOp op) {
  std::optional<int64_t> outside;
  if (hasEmptyTensor(op) || graph::constantGatherSources(op, &outside) || outside)
    return false;
  auto data = cast<RankedTensorType>(op.getData().getType());
  int64_t es = storageBytes(data.getElementType());
  return graph::shapes::indexedGatherMisfit(data.getShape(), op.getAxis(), es).empty();
}

struct IndexedGatherToKernel : OpConversionPattern<graph::GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::GatherOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isIndexedGather(op))
      return rewriter.notifyMatchFailure(op, "constant indices, or a gather the indexed DMA cannot move");
    rewriter.replaceOpWithNewOp<qk::GatherOp>(op, op.getType(), adaptor.getData(), adaptor.getIndices(),
                                              op.getAxis());
    return success();
  }
};

/// graph.scatter_nd of one index per row (the importer's form): qk.scatter.
bool isIndexedScatter(graph::ScatterNDOp op) {
  return !hasEmptyTensor(op) && shapeOf(op.getIndices()).back() == 1;
}

struct IndexedScatterToKernel : OpConversionPattern<graph::ScatterNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::ScatterNDOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isIndexedScatter(op))
      return rewriter.notifyMatchFailure(op, "more than one index per row, or an empty tensor");
    rewriter.replaceOpWithNewOp<qk::ScatterOp>(op, op.getType(), adaptor.getData(), adaptor.getIndices(),
                                               adaptor.getUpdates(), op.getReduction());
    return success();
  }
};

/// A constant Pad: the counts before and after each axis, and the fill as
/// the result's elements hold it.
struct PadToKernel : OpConversionPattern<graph::PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::PadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (hasEmptyTensor(op) || !isConstantPad(op))
      return rewriter.notifyMatchFailure(op, "a tensor with no elements, or not a constant pad");
    ArrayRef<int64_t> pads = op.getPads();
    size_t rank = pads.size() / 2;
    rewriter.replaceOpWithNewOp<qk::PadOp>(op, op.getType(), adaptor.getInput(),
                                           pads.take_front(rank), pads.drop_front(rank),
                                           padFill(op));
    return success();
  }
};
} // namespace

LogicalResult graph_to_qk::explainCopy(Operation *op) {
  if (hasEmptyTensor(op) || isConstantPad(op))
    return success();
  if (auto slice = dyn_cast<graph::SliceOp>(op))
    return slicePieces(slice, /*report=*/true);
  if (auto resize = dyn_cast<graph::ResizeOp>(op))
    return resizePieces(resize, /*report=*/true);
  if (auto gather = dyn_cast<graph::GatherOp>(op))
    return isIndexedGather(gather) ? success() : LogicalResult(gatherPieces(gather, /*report=*/true));
  if (auto pad = dyn_cast<graph::PadOp>(op))
    return padPieces(pad, /*report=*/true);
  return success();
}

void graph_to_qk::populateCopyPatterns(RewritePatternSet &patterns, ConversionTarget &target) {
  patterns.add<CopyToKernel<graph::TransposeOp>, CopyToKernel<graph::SliceOp>,
               CopyToKernel<graph::ExpandOp>, CopyToKernel<graph::TileOp>,
               CopyToKernel<graph::DepthToSpaceOp>, CopyToKernel<graph::SpaceToDepthOp>,
               CopyToKernel<graph::ResizeOp>, CopyToKernel<graph::GatherOp>,
               CopyToKernel<graph::PadOp>, PadToKernel, IndexedGatherToKernel,
               IndexedScatterToKernel,
               MirrorToKernel<graph::ConcatOp, qk::ConcatOp>>(patterns.getContext());
  // An op of an empty tensor stays, for the lowering to refuse as every
  // one; so does one that is no copy (explainCopy says why).
  target.addDynamicallyLegalOp<graph::TransposeOp, graph::ExpandOp, graph::TileOp,
                               graph::DepthToSpaceOp, graph::SpaceToDepthOp, graph::ConcatOp>(
      hasEmptyTensor);
  target.addDynamicallyLegalOp<graph::SliceOp>(staysGraphOp<graph::SliceOp>);
  target.addDynamicallyLegalOp<graph::ResizeOp>(staysGraphOp<graph::ResizeOp>);
  target.addDynamicallyLegalOp<graph::GatherOp>(
      [](graph::GatherOp op) { return staysGraphOp(op) && !isIndexedGather(op); });
  target.addDynamicallyLegalOp<graph::PadOp>(staysGraphOp<graph::PadOp>);
  target.addDynamicallyLegalOp<graph::ScatterNDOp>([](graph::ScatterNDOp op) { return !isIndexedScatter(op); });
}
