//===- GraphExpandLRN.cpp - LRN's channel window sums as a band product ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHEXPANDLRN
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// The band matrices' elements beyond which an LRN is left alone (no
/// lowering: a diagnostic): 16 Mi f32, 64 MiB of constants.
constexpr int64_t kMaxBand = int64_t(1) << 24;

/// LRN across channels of f32 x [N, C, spatial...]: y = x / (bias + alpha /
/// size * square_sum)^beta, square_sum over the channels of ONNX's window
/// [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)]. The window sums
/// are one MATRIX product: a band matrix [C, C] holding alpha / size where a
/// channel is in another's window (one per batch image when N > 1) times
/// x * x viewed as [C, spatial]; then + bias, Pow beta and the division.
struct ExpandLRN : OpRewritePattern<LRNOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LRNOp op, PatternRewriter &rw) const override {
    auto type = cast<RankedTensorType>(op.getInput().getType());
    if (!type.getElementType().isF32() || type.getRank() < 2)
      return rw.notifyMatchFailure(op, "not f32 of rank 2 or more");
    ArrayRef<int64_t> shape = type.getShape();
    int64_t N = shape[0], C = shape[1], S = 1;
    for (int64_t d : shape.drop_front(2))
      S *= d;
    if (N * C * C > kMaxBand)
      return rw.notifyMatchFailure(op, "the band matrices would be too large");
    int64_t size = op.getSize();
    float scale = op.getAlpha().convertToFloat() / float(size);
    int64_t before = (size - 1) / 2, after = size - 1 - before;
    std::vector<float> band(size_t(N * C * C), 0.0f);
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t i = std::max<int64_t>(0, c - before); i <= std::min(C - 1, c + after); ++i)
          band[size_t((n * C + c) * C + i)] = scale;
    Location loc = op.getLoc();
    Type f32 = type.getElementType();
    auto tensor = [&](ArrayRef<int64_t> s) { return RankedTensorType::get(s, f32); };
    auto scalar = [&](float v) {
      return ConstantOp::create(rw, loc, tensor({1}), DenseElementsAttr::get(tensor({1}), ArrayRef<float>{v}));
    };
    SmallVector<int64_t> bandShape = N > 1 ? SmallVector<int64_t>{N, C, C} : SmallVector<int64_t>{C, C};
    SmallVector<int64_t> flat = N > 1 ? SmallVector<int64_t>{N, C, S} : SmallVector<int64_t>{C, S};
    Value x = op.getInput();
    Value sq = MulOp::create(rw, loc, type, x, x);
    Value b = ConstantOp::create(rw, loc, tensor(bandShape), DenseElementsAttr::get(tensor(bandShape), ArrayRef<float>(band)));
    Value sums = MatMulOp::create(rw, loc, tensor(flat), b, ReshapeOp::create(rw, loc, tensor(flat), sq));
    Value d = AddOp::create(rw, loc, type, ReshapeOp::create(rw, loc, type, sums), scalar(op.getBias().convertToFloat()));
    Value p = PowOp::create(rw, loc, type, d, scalar(op.getBeta().convertToFloat()));
    rw.replaceOpWithNewOp<DivOp>(op, type, x, p);
    return success();
  }
};

struct GraphExpandLRNPass : npuc::graph::impl::GraphExpandLRNBase<GraphExpandLRNPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandLRN>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
