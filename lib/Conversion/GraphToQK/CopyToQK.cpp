//===- CopyToQK.cpp - Data movement to qk.copy ----------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// One OpConversionPattern per graph op that moves data without computing:
// Transpose, Slice, Expand, Tile, DepthToSpace and SpaceToDepth become
// qk.copy, the op's index arithmetic written as address plans (a box of
// indices, where each reads and where it writes). A Slice with a negative
// step is one piece per combination of runs (graph::shapes::indexRuns), as
// a strided view has no negative stride; more pieces than a program may
// hold are refused at the node (checkCopies), before any is built. An op
// with an empty tensor stays, for the lowering to refuse as every one.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "npuc/Dialect/QK/IR/QKOps.h"

using namespace mlir;
using namespace npuc;
namespace sh = npuc::graph::shapes;

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
  MLIRContext *ctx = op.getContext();
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

/// A tensor with no elements has no box of indices to copy: the op stays, and
/// the lowering refuses it at the node as every empty tensor.
bool hasEmptyTensor(Operation *op) {
  return llvm::any_of(llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()),
                      [](Type t) { return cast<RankedTensorType>(t).getNumElements() == 0; });
}

template <typename OpTy>
struct CopyToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (hasEmptyTensor(op))
      return rewriter.notifyMatchFailure(op, "a tensor with no elements");
    SmallVector<Attribute> pieces;
    if constexpr (std::is_same_v<OpTy, graph::SliceOp>) {
      FailureOr<SmallVector<Attribute>> p = slicePieces(op, /*report=*/false);
      if (failed(p))
        return rewriter.notifyMatchFailure(op, "too many pieces (checkCopies reports it)");
      pieces = std::move(*p);
    } else if constexpr (std::is_same_v<OpTy, graph::TransposeOp>) {
      pieces = transposePieces(op);
    } else if constexpr (std::is_same_v<OpTy, graph::ExpandOp>) {
      pieces = expandPieces(op);
    } else if constexpr (std::is_same_v<OpTy, graph::TileOp>) {
      pieces = tilePieces(op);
    } else if constexpr (std::is_same_v<OpTy, graph::DepthToSpaceOp>) {
      pieces = depthToSpacePieces(op);
    } else {
      pieces = spaceToDepthPieces(op);
    }
    rewriter.replaceOpWithNewOp<qk::CopyOp>(op, op->getResultTypes(), adaptor.getOperands()[0],
                                            rewriter.getArrayAttr(pieces));
    return success();
  }
};
} // namespace

LogicalResult graph_to_qk::checkCopies(Operation *root) {
  bool ok = true;
  root->walk([&](graph::SliceOp op) {
    ok &= hasEmptyTensor(op) || succeeded(slicePieces(op, /*report=*/true));
  });
  return success(ok);
}

void graph_to_qk::populateCopyPatterns(RewritePatternSet &patterns, ConversionTarget &target) {
  patterns.add<CopyToKernel<graph::TransposeOp>, CopyToKernel<graph::SliceOp>,
               CopyToKernel<graph::ExpandOp>, CopyToKernel<graph::TileOp>,
               CopyToKernel<graph::DepthToSpaceOp>, CopyToKernel<graph::SpaceToDepthOp>>(
      patterns.getContext());
  target.addDynamicallyLegalOp<graph::TransposeOp, graph::SliceOp, graph::ExpandOp, graph::TileOp,
                               graph::DepthToSpaceOp, graph::SpaceToDepthOp>(hasEmptyTensor);
}
