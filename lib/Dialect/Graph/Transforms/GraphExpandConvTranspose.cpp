//===- GraphExpandConvTranspose.cpp - Run-time weights' ConvTranspose -----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The ConvTranspose kernel flips and transposes constant weights at compile
// time. Weights computed at run time take the same route in graph ops: the
// input spread by the strides (zeros between its elements), convolved with
// stride 1 by the weights flipped in space, input and output channels
// exchanged per group.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHEXPANDCONVTRANSPOSE
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
RankedTensorType f32Tensor(PatternRewriter &rw, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, rw.getF32Type());
}
Value reshape(PatternRewriter &rw, Location loc, Value v, ArrayRef<int64_t> shape) {
  return ReshapeOp::create(rw, loc, f32Tensor(rw, shape), v);
}
Value slice(PatternRewriter &rw, Location loc, Value v, ArrayRef<int64_t> starts, ArrayRef<int64_t> ends,
            ArrayRef<int64_t> steps, ArrayRef<int64_t> shape) {
  return SliceOp::create(rw, loc, f32Tensor(rw, shape), v, rw.getDenseI64ArrayAttr(starts),
                         rw.getDenseI64ArrayAttr(ends), rw.getDenseI64ArrayAttr(steps));
}

/// `v` viewed as [rows, n, 1] with s - 1 zeros after each element along n:
/// [rows, (n - 1) * s + 1] (the trailing zeros cut).
Value spreadRows(PatternRewriter &rw, Location loc, Value v, int64_t rows, int64_t n, int64_t s) {
  Value r = reshape(rw, loc, v, {rows, n, 1});
  r = PadOp::create(rw, loc, f32Tensor(rw, {rows, n, s}), r, rw.getDenseI64ArrayAttr({0, 0, 0, 0, 0, s - 1}),
                    rw.getStringAttr("constant"), rw.getF64FloatAttr(0.0));
  r = reshape(rw, loc, r, {rows, n * s});
  int64_t spread = (n - 1) * s + 1;
  return slice(rw, loc, r, {0, 0}, {rows, spread}, {1, 1}, {rows, spread});
}

/// `x` [.., n, ..] spread along `axis` by s: s - 1 zeros after each element,
/// the trailing ones cut ((n - 1) * s + 1 elements).
Value spreadAxis(PatternRewriter &rw, Location loc, Value x, int64_t axis, int64_t s) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(x.getType()).getShape();
  int64_t pre = 1, post = 1, n = shape[size_t(axis)];
  for (size_t i = 0; i < shape.size(); ++i)
    (int64_t(i) < axis ? pre : post) *= int64_t(i) == axis ? 1 : shape[i];
  SmallVector<int64_t> spread(shape);
  spread[size_t(axis)] = (n - 1) * s + 1;
  if (post == 1)
    return reshape(rw, loc, spreadRows(rw, loc, x, pre, n, s), spread);
  // Rows of `post` elements spread: [pre, n, 1, post] padded on axis 2.
  Value r = reshape(rw, loc, x, {pre, n, 1, post});
  r = PadOp::create(rw, loc, f32Tensor(rw, {pre, n, s, post}), r,
                    rw.getDenseI64ArrayAttr({0, 0, 0, 0, 0, 0, s - 1, 0}), rw.getStringAttr("constant"),
                    rw.getF64FloatAttr(0.0));
  r = reshape(rw, loc, r, {pre, n * s, post});
  int64_t m = spread[size_t(axis)];
  return reshape(rw, loc, slice(rw, loc, r, {0, 0, 0}, {pre, m, post}, {1, 1, 1}, {pre, m, post}), spread);
}

/// An f32 graph.conv_transpose, 2-D with weights that are not a constant
/// (the kernel flips constant ones at compile time) or 3-D (no kernel): x
/// spread by the strides (a pad of s - 1 zeros after each element, per
/// axis), the weights [g * Cg, Mg, K...] flipped in space (slices of step
/// -1) and transposed per group to [g * Mg, Cg, K...], then a stride-1
/// graph.conv padded by d * (k - 1) - pad (plus output_padding at the end);
/// where that is negative, the convolution's result is cropped instead. A
/// 3-D result is a 3-D graph.conv, which graph-fold-depth folds.
struct ExpandRunTimeConvTranspose : OpRewritePattern<ConvTransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvTransposeOp op, PatternRewriter &rw) const override {
    auto xt = cast<RankedTensorType>(op.getX().getType());
    auto wt = cast<RankedTensorType>(op.getW().getType());
    bool runTime = !op.getW().getDefiningOp<ConstantOp>();
    if (!xt.getElementType().isF32() || !wt.getElementType().isF32() ||
        !((xt.getRank() == 4 && runTime) || xt.getRank() == 5))
      return rw.notifyMatchFailure(op, "not a 2-D f32 transposed convolution of run-time weights, nor a 3-D one");
    ArrayRef<int64_t> xs = xt.getShape(), ws = wt.getShape();
    ArrayRef<int64_t> st = op.getStrides(), pd = op.getPads(), dl = op.getDilations(), op_ = op.getOutputPadding();
    auto rt = cast<RankedTensorType>(op.getResult().getType());
    size_t S = size_t(xt.getRank() - 2);
    int64_t N = xs[0], C = xs[1], g = op.getGroup();
    int64_t Cg = C / g, Mg = ws[1], M = g * Mg, K = 1;
    for (size_t i = 0; i < S; ++i)
      K *= ws[2 + i];
    Location loc = withoutTensorNames(op.getLoc());
    // The spread input [N, C, spread...], the last axis first.
    Value x = op.getX();
    for (size_t i = S; i-- > 0;)
      if (st[i] > 1)
        x = spreadAxis(rw, loc, x, int64_t(2 + i), st[i]);
    ArrayRef<int64_t> spread = cast<RankedTensorType>(x.getType()).getShape();
    // The weights flipped in space, then [g, Cg, Mg, K] -> [g, Mg, Cg, K].
    SmallVector<int64_t> starts(ws.size(), 0), ends(ws), steps(ws.size(), 1);
    for (size_t i = 0; i < S; ++i) {
      starts[2 + i] = ws[2 + i] - 1;
      ends[2 + i] = -1;
      steps[2 + i] = -1;
    }
    Value w = slice(rw, loc, op.getW(), starts, ends, steps, ws);
    w = reshape(rw, loc, w, {g, Cg, Mg, K});
    w = TransposeOp::create(rw, loc, f32Tensor(rw, {g, Mg, Cg, K}), w, rw.getDenseI64ArrayAttr({0, 2, 1, 3}));
    SmallVector<int64_t> wShape = {M, Cg};
    wShape.append(ws.begin() + 2, ws.end());
    w = reshape(rw, loc, w, wShape);
    // Pads d * (k - 1) - pad each side, output_padding at the end.
    SmallVector<int64_t> pads(2 * S), crop(2 * S, 0), convShape = {N, M}, keep = {N, M}, from(2, 0),
                                                      to = {N, M};
    for (size_t i = 0; i < S; ++i) {
      int64_t reach = dl[i] * (ws[2 + i] - 1);
      int64_t want[2] = {reach - pd[i], reach - pd[S + i] + op_[i]};
      for (int e = 0; e < 2; ++e) {
        pads[e * S + i] = std::max<int64_t>(want[e], 0);
        crop[e * S + i] = std::max<int64_t>(-want[e], 0);
      }
      int64_t O = spread[2 + i] + pads[i] + pads[S + i] - reach;
      if (O <= 0 || O - crop[i] - crop[S + i] != rt.getShape()[2 + i])
        return rw.notifyMatchFailure(op, "the result's shape is not ConvTranspose's");
      convShape.push_back(O);
      from.push_back(crop[i]);
      to.push_back(O - crop[S + i]);
    }
    Value y = ConvOp::create(rw, loc, f32Tensor(rw, convShape), x, w, op.getBias(),
                             rw.getDenseI64ArrayAttr(SmallVector<int64_t>(S, 1)), rw.getDenseI64ArrayAttr(pads),
                             rw.getDenseI64ArrayAttr(dl), rw.getI64IntegerAttr(g), nullptr, nullptr, nullptr);
    if (llvm::any_of(crop, [](int64_t v) { return v != 0; }))
      y = slice(rw, loc, y, from, to, SmallVector<int64_t>(S + 2, 1), rt.getShape());
    // The op computing the node's tensor carries its name.
    rw.replaceOp(op, ReshapeOp::create(rw, op.getLoc(), rt, y));
    return success();
  }
};

struct GraphExpandConvTransposePass
    : npuc::graph::impl::GraphExpandConvTransposeBase<GraphExpandConvTransposePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandRunTimeConvTranspose>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
