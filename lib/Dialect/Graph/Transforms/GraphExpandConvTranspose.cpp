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

/// A 2-D f32 graph.conv_transpose whose weights are not a constant: x
/// spread by the strides (a pad of s - 1 zeros after each element, per
/// axis), the weights [g * Cg, Mg, KH, KW] flipped in space (slices of step
/// -1) and transposed per group to [g * Mg, Cg, KH, KW], then a stride-1
/// graph.conv padded by d * (k - 1) - pad (plus output_padding at the end);
/// where that is negative, the convolution's result is cropped instead.
struct ExpandRunTimeConvTranspose : OpRewritePattern<ConvTransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvTransposeOp op, PatternRewriter &rw) const override {
    auto xt = cast<RankedTensorType>(op.getX().getType());
    auto wt = cast<RankedTensorType>(op.getW().getType());
    if (xt.getRank() != 4 || !xt.getElementType().isF32() || !wt.getElementType().isF32() ||
        op.getW().getDefiningOp<ConstantOp>())
      return rw.notifyMatchFailure(op, "not a 2-D f32 transposed convolution of run-time weights");
    ArrayRef<int64_t> xs = xt.getShape(), ws = wt.getShape();
    ArrayRef<int64_t> st = op.getStrides(), pd = op.getPads(), dl = op.getDilations(), op_ = op.getOutputPadding();
    auto rt = cast<RankedTensorType>(op.getResult().getType());
    int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3], g = op.getGroup();
    int64_t Cg = C / g, Mg = ws[1], KH = ws[2], KW = ws[3], M = g * Mg;
    Location loc = withoutTensorNames(op.getLoc());
    // The spread input [N, C, Hs, Ws].
    Value x = op.getX();
    int64_t Hs = (H - 1) * st[0] + 1, Ws = (W - 1) * st[1] + 1;
    if (st[1] > 1)
      x = reshape(rw, loc, spreadRows(rw, loc, x, N * C * H, W, st[1]), {N, C, H, Ws});
    if (st[0] > 1) {
      // Rows of Ws elements spread along H: [N * C, H, 1, Ws] padded on axis 2.
      Value r = reshape(rw, loc, x, {N * C, H, 1, Ws});
      r = PadOp::create(rw, loc, f32Tensor(rw, {N * C, H, st[0], Ws}), r,
                        rw.getDenseI64ArrayAttr({0, 0, 0, 0, 0, 0, st[0] - 1, 0}), rw.getStringAttr("constant"),
                        rw.getF64FloatAttr(0.0));
      r = reshape(rw, loc, r, {N * C, H * st[0], Ws});
      x = reshape(rw, loc, slice(rw, loc, r, {0, 0, 0}, {N * C, Hs, Ws}, {1, 1, 1}, {N * C, Hs, Ws}),
                  {N, C, Hs, Ws});
    }
    // The weights flipped in space, then [g, Cg, Mg, K] -> [g, Mg, Cg, K].
    Value w = slice(rw, loc, op.getW(), {0, 0, KH - 1, KW - 1}, {C, Mg, -1, -1}, {1, 1, -1, -1}, ws);
    w = reshape(rw, loc, w, {g, Cg, Mg, KH * KW});
    w = TransposeOp::create(rw, loc, f32Tensor(rw, {g, Mg, Cg, KH * KW}), w, rw.getDenseI64ArrayAttr({0, 2, 1, 3}));
    w = reshape(rw, loc, w, {M, Cg, KH, KW});
    // Pads d * (k - 1) - pad each side, output_padding at the end.
    int64_t want[4] = {dl[0] * (KH - 1) - pd[0], dl[1] * (KW - 1) - pd[1], dl[0] * (KH - 1) - pd[2] + op_[0],
                       dl[1] * (KW - 1) - pd[3] + op_[1]};
    SmallVector<int64_t> pads, crop(4, 0);
    for (int i = 0; i < 4; ++i) {
      pads.push_back(std::max<int64_t>(want[i], 0));
      crop[size_t(i)] = std::max<int64_t>(-want[i], 0);
    }
    int64_t OH = Hs + pads[0] + pads[2] - dl[0] * (KH - 1), OW = Ws + pads[1] + pads[3] - dl[1] * (KW - 1);
    if (OH - crop[0] - crop[2] != rt.getShape()[2] || OW - crop[1] - crop[3] != rt.getShape()[3] || OH <= 0 ||
        OW <= 0)
      return rw.notifyMatchFailure(op, "the result's shape is not ConvTranspose's");
    Value y = ConvOp::create(rw, loc, f32Tensor(rw, {N, M, OH, OW}), x, w, op.getBias(),
                             rw.getDenseI64ArrayAttr({1, 1}), rw.getDenseI64ArrayAttr(pads),
                             rw.getDenseI64ArrayAttr(dl), rw.getI64IntegerAttr(g), nullptr, nullptr, nullptr);
    if (llvm::any_of(crop, [](int64_t v) { return v != 0; }))
      y = slice(rw, loc, y, {0, 0, crop[0], crop[1]}, {N, M, OH - crop[2], OW - crop[3]}, {1, 1, 1, 1},
                rt.getShape());
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
