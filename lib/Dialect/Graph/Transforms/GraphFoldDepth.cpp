//===- GraphFoldDepth.cpp - 3-D convolution and pooling as 2-D ones -------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// NPU-v1's kernels slide windows over two spatial axes. A 3-D convolution or
// pooling over [N, C, D, H, W] becomes 2-D ones with the depth folded away:
// the data is viewed depth-major ([N, D, C, H, W]), each of the depth
// window's taps is a strided slice along D, and
//   - a convolution concatenates the taps along channels (per group) and
//     convolves them with the weights reordered to [M, KD * C / g, KH, KW],
//     one 2-D convolution of N * OD images;
//   - a pooling pools each depth plane over H and W, then combines the taps
//     (max, or the sum divided by the depth window's count: an average over a
//     box is the product of its per-axis averages, for either
//     count_include_pad).
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>
#include <tuple>

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHFOLDDEPTH
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// The most depth taps unrolled (slices and adds per 3-D op).
constexpr int64_t kMaxTaps = 64;

RankedTensorType withShape(Value v, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, cast<RankedTensorType>(v.getType()).getElementType());
}
ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }

Value transpose(PatternRewriter &rw, Location loc, Value v, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> s;
  for (int64_t p : perm)
    s.push_back(shapeOf(v)[p]);
  return TransposeOp::create(rw, loc, withShape(v, s), v, rw.getDenseI64ArrayAttr(perm));
}
Value reshape(PatternRewriter &rw, Location loc, Value v, ArrayRef<int64_t> shape) {
  return ReshapeOp::create(rw, loc, withShape(v, shape), v);
}

/// `t` ([N, D, ...]) padded along D by `begin` and `end` planes of `value`:
/// a concatenation with splat constants.
Value padDepth(PatternRewriter &rw, Location loc, Value t, int64_t begin, int64_t end, double value) {
  if (begin == 0 && end == 0)
    return t;
  auto element = cast<FloatType>(cast<RankedTensorType>(t.getType()).getElementType());
  SmallVector<Value> parts;
  SmallVector<int64_t> s(shapeOf(t));
  auto planes = [&](int64_t n) {
    SmallVector<int64_t> ps(s);
    ps[1] = n;
    auto type = withShape(t, ps);
    return ConstantOp::create(rw, loc, type, DenseElementsAttr::get(type, rw.getFloatAttr(element, value)));
  };
  if (begin)
    parts.push_back(planes(begin));
  parts.push_back(t);
  if (end)
    parts.push_back(planes(end));
  s[1] += begin + end;
  return ConcatOp::create(rw, loc, withShape(t, s), parts, rw.getI64IntegerAttr(1));
}

/// The depth-major data [N, D, C, H, W] padded along D by `begin` and `end`
/// with `value`.
Value depthMajor(PatternRewriter &rw, Location loc, Value x, int64_t begin, int64_t end, double value) {
  return padDepth(rw, loc, transpose(rw, loc, x, {0, 2, 1, 3, 4}), begin, end, value);
}

/// Tap `k` of the depth window: planes k * dilation + od * stride of the
/// padded depth-major data, od < OD: [N, OD, C, H, W].
Value tap(PatternRewriter &rw, Location loc, Value t, int64_t k, int64_t stride, int64_t dilation, int64_t od) {
  SmallVector<int64_t> s(shapeOf(t)), starts(5, 0), ends(s), steps(5, 1);
  starts[1] = k * dilation;
  ends[1] = starts[1] + (od - 1) * stride + 1;
  steps[1] = stride;
  s[1] = od;
  return SliceOp::create(rw, loc, withShape(t, s), t, rw.getDenseI64ArrayAttr(starts),
                         rw.getDenseI64ArrayAttr(ends), rw.getDenseI64ArrayAttr(steps));
}

/// The extra end padding a ceil_mode window needs to stay inside the data.
int64_t endPad(int64_t d, int64_t begin, int64_t end, int64_t k, int64_t stride, int64_t dilation, int64_t od) {
  return std::max(end, (od - 1) * stride + (k - 1) * dilation + 1 - d - begin);
}

struct FoldConv3D : OpRewritePattern<ConvOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvOp op, PatternRewriter &rw) const override {
    auto xt = cast<RankedTensorType>(op.getX().getType());
    if (xt.getRank() != 5 || !isa<FloatType>(xt.getElementType()) || op.getActivation())
      return rw.notifyMatchFailure(op, "not a float 3-D convolution");
    ArrayRef<int64_t> ws = shapeOf(op.getW()), ys = shapeOf(op.getResult());
    int64_t N = xt.getShape()[0], C = xt.getShape()[1], H = xt.getShape()[3], W = xt.getShape()[4];
    int64_t M = ws[0], Cg = ws[1], KD = ws[2], G = op.getGroup(), OD = ys[2];
    ArrayRef<int64_t> st = op.getStrides(), pd = op.getPads(), dl = op.getDilations();
    if (KD > kMaxTaps)
      return rw.notifyMatchFailure(op, "too many depth taps");
    // The reshape back computes the node's tensor; the ops before it do not.
    Location loc = withoutTensorNames(op.getLoc());
    Value t = depthMajor(rw, loc, op.getX(), pd[0], pd[3], 0.0);
    // Per group, the taps' channels side by side: [N * OD, G * KD * Cg, H, W].
    SmallVector<Value> taps, pieces;
    for (int64_t k = 0; k < KD; ++k)
      taps.push_back(reshape(rw, loc, tap(rw, loc, t, k, st[0], dl[0], OD), {N * OD, C, H, W}));
    for (int64_t g = 0; g < G; ++g)
      for (int64_t k = 0; k < KD; ++k) {
        if (G == 1) {
          pieces.push_back(taps[size_t(k)]);
          continue;
        }
        pieces.push_back(SliceOp::create(rw, loc, withShape(taps[size_t(k)], {N * OD, Cg, H, W}), taps[size_t(k)],
                                         rw.getDenseI64ArrayAttr({0, g * Cg, 0, 0}),
                                         rw.getDenseI64ArrayAttr({N * OD, (g + 1) * Cg, H, W}),
                                         rw.getDenseI64ArrayAttr({1, 1, 1, 1})));
      }
    Value x2 = pieces.size() == 1 ? pieces.front()
                                  : ConcatOp::create(rw, loc, withShape(t, {N * OD, G * KD * Cg, H, W}), pieces,
                                                     rw.getI64IntegerAttr(1))
                                        .getResult();
    // Weights [M, Cg, KD, KH, KW] -> [M, KD, Cg, KH, KW] -> [M, KD * Cg, KH, KW].
    Value w2 = reshape(rw, loc, transpose(rw, loc, op.getW(), {0, 2, 1, 3, 4}), {M, KD * Cg, ws[3], ws[4]});
    Value y2 = ConvOp::create(rw, loc, withShape(op.getResult(), {N * OD, M, ys[3], ys[4]}), x2, w2, op.getBias(),
                              rw.getDenseI64ArrayAttr({st[1], st[2]}),
                              rw.getDenseI64ArrayAttr({pd[1], pd[2], pd[4], pd[5]}),
                              rw.getDenseI64ArrayAttr({dl[1], dl[2]}), op.getGroupAttr(), nullptr, nullptr, nullptr);
    Value y = reshape(rw, loc, y2, {N, OD, M, ys[3], ys[4]});
    rw.replaceOp(op, TransposeOp::create(rw, op.getLoc(), op.getResult().getType(), y,
                                         rw.getDenseI64ArrayAttr({0, 2, 1, 3, 4})));
    return success();
  }
};

template <typename PoolOp>
struct FoldPool3D : OpRewritePattern<PoolOp> {
  using OpRewritePattern<PoolOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(PoolOp op, PatternRewriter &rw) const override {
    constexpr bool isMax = std::is_same_v<PoolOp, MaxPoolOp>;
    auto xt = cast<RankedTensorType>(op.getX().getType());
    if (xt.getRank() != 5 || !xt.getElementType().isF32())
      return rw.notifyMatchFailure(op, "not an f32 3-D pooling");
    ArrayRef<int64_t> xs = xt.getShape(), ys = shapeOf(op.getResult());
    ArrayRef<int64_t> ks = op.getKernelShape(), st = op.getStrides(), pd = op.getPads(), dl = op.getDilations();
    int64_t N = xs[0], C = xs[1], D = xs[2], OD = ys[2], KD = ks[0];
    if (KD > kMaxTaps)
      return rw.notifyMatchFailure(op, "too many depth taps");
    Location loc = withoutTensorNames(op.getLoc());
    // Each depth plane pooled over H and W: [N * D, C, OH, OW].
    Value planes = reshape(rw, loc, transpose(rw, loc, op.getX(), {0, 2, 1, 3, 4}), {N * D, C, xs[3], xs[4]});
    auto pooledType = withShape(planes, {N * D, C, ys[3], ys[4]});
    auto attrs = std::make_tuple(rw.getDenseI64ArrayAttr({ks[1], ks[2]}), rw.getDenseI64ArrayAttr({st[1], st[2]}),
                                 rw.getDenseI64ArrayAttr({pd[1], pd[2], pd[4], pd[5]}),
                                 rw.getDenseI64ArrayAttr({dl[1], dl[2]}), op.getCeilModeAttr());
    PoolOp pooled = std::apply(
        [&](auto... a) {
          if constexpr (isMax)
            return PoolOp::create(rw, loc, pooledType, planes, a...);
          else
            return PoolOp::create(rw, loc, pooledType, planes, a..., op.getCountIncludePadAttr());
        },
        attrs);
    Value p = reshape(rw, loc, pooled.getResult(), {N, D, C, ys[3], ys[4]});
    int64_t end = endPad(D, pd[0], pd[3], KD, st[0], dl[0], OD);
    double pad = isMax ? -std::numeric_limits<double>::infinity() : 0.0;
    p = padDepth(rw, loc, p, pd[0], end, pad);
    auto outType = withShape(p, {N, OD, C, ys[3], ys[4]});
    Value acc;
    for (int64_t k = 0; k < KD; ++k) {
      Value v = tap(rw, loc, p, k, st[0], dl[0], OD);
      acc = !acc ? v : isMax ? Value(MaxOp::create(rw, loc, outType, acc, v)) : Value(AddOp::create(rw, loc, outType, acc, v));
    }
    if constexpr (!isMax) {
      // Each output plane's depth count: its taps inside the data, or inside
      // the padded data when padding counts (ONNX's count_include_pad).
      int64_t lo = op.getCountIncludePad() ? -pd[0] : 0, hi = op.getCountIncludePad() ? D + pd[3] : D;
      SmallVector<float> counts;
      for (int64_t o = 0; o < OD; ++o) {
        int64_t n = 0;
        for (int64_t k = 0; k < KD; ++k) {
          int64_t z = o * st[0] + k * dl[0] - pd[0];
          n += z >= lo && z < hi;
        }
        counts.push_back(float(n));
      }
      auto ct = withShape(acc, {1, OD, 1, 1, 1});
      Value c = ConstantOp::create(rw, loc, ct, DenseElementsAttr::get(ct, ArrayRef<float>(counts)));
      acc = DivOp::create(rw, loc, outType, acc, c);
    }
    rw.replaceOp(op, TransposeOp::create(rw, op.getLoc(), op.getResult().getType(), acc,
                                         rw.getDenseI64ArrayAttr({0, 2, 1, 3, 4})));
    return success();
  }
};

struct GraphFoldDepthPass : npuc::graph::impl::GraphFoldDepthBase<GraphFoldDepthPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldConv3D, FoldPool3D<MaxPoolOp>, FoldPool3D<AveragePoolOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
