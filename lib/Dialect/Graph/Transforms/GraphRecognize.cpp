//===- GraphRecognize.cpp - Ops that exporters write decomposed ------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ConstantValues.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHRECOGNIZE
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// Whether `v` is an f32 constant of one value (any shape that broadcasts
/// as a scalar: every dimension 1), equal to `want`.
bool isScalar(Value v, float want) {
  std::optional<SmallVector<float>> values = f32ConstantValues(v);
  return values && values->size() == 1 && (*values)[0] == want;
}

/// The operand of binary `op` other than `v`, or null when `v` is neither.
Value other(Operation *op, Value v) {
  if (op->getOperand(0) == v)
    return op->getOperand(1);
  if (op->getOperand(1) == v)
    return op->getOperand(0);
  return Value();
}

/// x * Clip(x + 3, 0, 6) / 6 (or * (1/6)), the HardSwish that PaddlePaddle
/// and older PyTorch exports write: one graph.hard_swish, located at the four
/// nodes.
struct HardSwish : RewritePattern {
  HardSwish(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), 1, ctx) {}

  LogicalResult matchAndRewrite(Operation *last, PatternRewriter &rewriter) const override {
    // The last step: Div by 6 or Mul by 1/6.
    Value product;
    if (auto div = dyn_cast<DivOp>(last); div && isScalar(div.getRhs(), 6.0f))
      product = div.getLhs();
    else if (auto mul = dyn_cast<MulOp>(last)) {
      for (Value v : {mul.getLhs(), mul.getRhs()})
        if (isScalar(other(mul, v), 1.0f / 6.0f))
          product = v;
    }
    auto mul = product ? product.getDefiningOp<MulOp>() : MulOp();
    if (!mul || !mul.getResult().hasOneUse())
      return failure();
    for (Value x : {mul.getLhs(), mul.getRhs()}) {
      auto clip = other(mul, x).getDefiningOp<ClipOp>();
      if (!clip || !clip.getResult().hasOneUse() || !clip.getMinAttr() || !clip.getMaxAttr() ||
          clip.getMinAttr().getValueAsDouble() != 0.0 || clip.getMaxAttr().getValueAsDouble() != 6.0)
        continue;
      auto add = clip.getInput().getDefiningOp<AddOp>();
      if (!add || !add.getResult().hasOneUse() || !isScalar(other(add, x), 3.0f))
        continue;
      auto type = cast<RankedTensorType>(x.getType());
      if (!type.getElementType().isF32() || last->getResult(0).getType() != type)
        continue;
      Location loc = rewriter.getFusedLoc({add.getLoc(), clip.getLoc(), mul.getLoc(), last->getLoc()});
      rewriter.replaceOpWithNewOp<HardSwishOp>(last, type, x).getOperation()->setLoc(loc);
      rewriter.eraseOp(mul);
      rewriter.eraseOp(clip);
      rewriter.eraseOp(add);
      return success();
    }
    return failure();
  }
};

/// The erf GELU as exporters write it: x * 0.5 * (1 + erf(x / sqrt(2))), the
/// division also as a product with 1/sqrt(2), the three factors x, 0.5 and
/// 1 + erf(..) in any grouping of two Muls (tf2onnx: (x * 0.5) * (..);
/// PyTorch: the same, or x * ((..) * 0.5)). Every intermediate must be used
/// by the chain alone. One graph.gelu, located at the five nodes.
struct Gelu : RewritePattern {
  Gelu(MLIRContext *ctx) : RewritePattern(MulOp::getOperationName(), 1, ctx) {}

  static bool near(Value v, double want) {
    std::optional<SmallVector<float>> values = f32ConstantValues(v);
    return values && values->size() == 1 && std::abs(double((*values)[0]) - want) < 1e-6;
  }
  /// 1 + erf(x / sqrt(2)) (or erf(x * (1/sqrt(2))) + 1): its x, and the ops.
  static Value erfTerm(Value a, SmallVectorImpl<Operation *> &ops) {
    auto add = a.getDefiningOp<AddOp>();
    if (!add || !add.getResult().hasOneUse())
      return Value();
    for (Value v : {add.getLhs(), add.getRhs()}) {
      auto erf = v.getDefiningOp<ErfOp>();
      if (!erf || !erf.getResult().hasOneUse() || !isScalar(other(add, v), 1.0f))
        continue;
      Operation *scale = erf.getInput().getDefiningOp();
      if (!scale || !scale->getResult(0).hasOneUse())
        continue;
      Value x;
      if (auto div = dyn_cast<DivOp>(scale); div && near(div.getRhs(), 1.4142135623730951))
        x = div.getLhs();
      else if (auto mul = dyn_cast<MulOp>(scale))
        for (Value w : {mul.getLhs(), mul.getRhs()})
          if (near(other(mul, w), 0.7071067811865476))
            x = w;
      if (!x)
        continue;
      ops.append({scale, erf, add});
      return x;
    }
    return Value();
  }

  LogicalResult matchAndRewrite(Operation *last, PatternRewriter &rewriter) const override {
    auto top = cast<MulOp>(last);
    auto type = dyn_cast<RankedTensorType>(top.getResult().getType());
    if (!type || !type.getElementType().isF32())
      return failure();
    // The three factors: one of the top Mul's operands is itself a Mul (used
    // only here) of two of them.
    for (Value inner : {top.getLhs(), top.getRhs()}) {
      auto mul = inner.getDefiningOp<MulOp>();
      if (!mul || !mul.getResult().hasOneUse())
        continue;
      Value factors[3] = {other(top, inner), mul.getLhs(), mul.getRhs()};
      // Which factor is the half and which the erf term; x is the third.
      for (int h = 0; h < 3; ++h) {
        if (!isScalar(factors[h], 0.5f))
          continue;
        for (int t = 0; t < 3; ++t) {
          if (t == h)
            continue;
          SmallVector<Operation *> ops;
          Value x = erfTerm(factors[t], ops);
          if (!x || factors[3 - h - t] != x || x.getType() != type)
            continue;
          SmallVector<Location> locs;
          for (Operation *op : ops)
            locs.push_back(op->getLoc());
          locs.append({mul.getLoc(), top.getLoc()});
          Location loc = rewriter.getFusedLoc(locs);
          rewriter.replaceOpWithNewOp<GeluOp>(top, type, x, rewriter.getStringAttr("none"))
              .getOperation()
              ->setLoc(loc);
          rewriter.eraseOp(mul);
          for (Operation *op : llvm::reverse(ops))
            rewriter.eraseOp(op);
          return success();
        }
      }
    }
    return failure();
  }
};

/// LayerNormalization as PyTorch and other exporters decompose it:
/// d = x - ReduceMean(x), n = d / Sqrt(ReduceMean(d^2) + eps) (the square as
/// Pow(d, 2) or d * d), then optionally n * gamma and + beta with constants
/// over the normalized axes. The reductions take the same trailing axes with
/// keepdims. One graph.layer_norm, located at every node it replaces
/// (contract N8: the fused kernel reads x once instead of nine passes).
struct LayerNorm : RewritePattern {
  LayerNorm(MLIRContext *ctx) : RewritePattern(DivOp::getOperationName(), 1, ctx) {}

  /// The first reduced axis when `mean` averages a trailing block of axes
  /// with keepdims.
  static std::optional<int64_t> trailingMean(ReduceMeanOp mean) {
    if (!mean || !mean.getKeepdims())
      return std::nullopt;
    ArrayRef<int64_t> axes = mean.getAxes();
    int64_t rank = cast<RankedTensorType>(mean.getInput().getType()).getRank();
    if (axes.empty() || axes.back() != rank - 1)
      return std::nullopt;
    for (size_t i = 1; i < axes.size(); ++i)
      if (axes[i] != axes[i - 1] + 1)
        return std::nullopt;
    return axes.front();
  }

  /// A constant over the normalized axes (`normalized` its shape), as the
  /// operand layer_norm takes: all r values, or one.
  static Value affine(PatternRewriter &rewriter, Value v, ArrayRef<int64_t> normalized,
                      int64_t rank) {
    std::optional<SmallVector<float>> values = f32ConstantValues(v);
    auto type = cast<RankedTensorType>(v.getType());
    if (!values || type.getRank() > rank)
      return Value();
    // Only the normalized axes may be other than 1.
    int64_t lead = rank - int64_t(normalized.size());
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (rank - type.getRank() + i < lead && type.getShape()[size_t(i)] != 1)
        return Value();
    int64_t r = 1;
    for (int64_t d : normalized)
      r *= d;
    SmallVector<int64_t> shape;
    if (int64_t(values->size()) == r)
      shape.assign(normalized.begin(), normalized.end());
    else if (values->size() == 1)
      shape = {1};
    else
      return Value();
    auto t = RankedTensorType::get(shape, rewriter.getF32Type());
    return ConstantOp::create(rewriter, v.getLoc(), t, DenseElementsAttr::get(t, ArrayRef<float>(*values)));
  }

  LogicalResult matchAndRewrite(Operation *root, PatternRewriter &rewriter) const override {
    auto div = cast<DivOp>(root);
    auto type = dyn_cast<RankedTensorType>(div.getResult().getType());
    if (!type || !type.getElementType().isF32())
      return failure();
    auto sub = div.getLhs().getDefiningOp<SubOp>();
    auto sqrt = div.getRhs().getDefiningOp<SqrtOp>();
    if (!sub || !sqrt || !sqrt.getResult().hasOneUse())
      return failure();
    Value x = sub.getLhs(), d = sub.getResult();
    auto mean = sub.getRhs().getDefiningOp<ReduceMeanOp>();
    std::optional<int64_t> axis = trailingMean(mean);
    if (!axis || mean.getInput() != x || !mean.getResult().hasOneUse() || x.getType() != type)
      return failure();
    auto add = sqrt.getInput().getDefiningOp<AddOp>();
    if (!add || !add.getResult().hasOneUse())
      return failure();
    ReduceMeanOp var;
    Value eps;
    for (Value v : {add.getLhs(), add.getRhs()})
      if (auto m = v.getDefiningOp<ReduceMeanOp>()) {
        var = m;
        eps = other(add, v);
      }
    std::optional<SmallVector<float>> epsValue = eps ? f32ConstantValues(eps) : std::nullopt;
    if (!var || !var.getResult().hasOneUse() || trailingMean(var) != axis || !epsValue ||
        epsValue->size() != 1)
      return failure();
    Operation *square = var.getInput().getDefiningOp();
    if (!square || !square->getResult(0).hasOneUse())
      return failure();
    if (auto pow = dyn_cast<PowOp>(square)) {
      std::optional<SmallVector<float>> k = f32ConstantValues(pow.getRhs());
      if (pow.getLhs() != d || !k || k->size() != 1 || (*k)[0] != 2.0f)
        return failure();
    } else if (auto mul = dyn_cast<MulOp>(square)) {
      if (mul.getLhs() != d || mul.getRhs() != d)
        return failure();
    } else {
      return failure();
    }
    // d feeds the square and the division only.
    for (Operation *user : d.getUsers())
      if (user != square && user != div.getOperation())
        return failure();
    int64_t rank = type.getRank();
    ArrayRef<int64_t> normalized = type.getShape().drop_front(*axis);
    SmallVector<Operation *> ops{mean, sub, square, var, add, sqrt, div};
    Operation *last = div;
    rewriter.setInsertionPoint(div);
    Value scale, bias;
    // n * gamma, then + beta, each a constant over the normalized axes.
    auto absorb = [&](auto opType, Value &into) {
      using OpT = decltype(opType);
      Value result = last->getResult(0);
      if (!result.hasOneUse())
        return;
      auto next = dyn_cast<OpT>(*result.getUsers().begin());
      if (!next || next.getResult().getType() != type)
        return;
      Value c = affine(rewriter, other(next, result), normalized, rank);
      if (!c)
        return;
      into = c;
      ops.push_back(next);
      last = next;
    };
    absorb(MulOp(), scale);
    absorb(AddOp(), bias);
    if (!scale) {
      auto t = RankedTensorType::get({1}, rewriter.getF32Type());
      scale = ConstantOp::create(rewriter, div.getLoc(), t, DenseElementsAttr::get(t, ArrayRef<float>{1.0f}));
    }
    SmallVector<int64_t> statistics(type.getShape().begin(), type.getShape().end());
    std::fill(statistics.begin() + *axis, statistics.end(), 1);
    auto stats = RankedTensorType::get(statistics, rewriter.getF32Type());
    SmallVector<Location> locs;
    for (Operation *op : ops)
      locs.push_back(op->getLoc());
    rewriter.setInsertionPoint(last);
    SmallVector<Value> operands{x, scale};
    if (bias)
      operands.push_back(bias);
    SmallVector<NamedAttribute> attrs{
        rewriter.getNamedAttr("axis", rewriter.getI64IntegerAttr(*axis)),
        rewriter.getNamedAttr("epsilon", rewriter.getF32FloatAttr((*epsValue)[0])),
        rewriter.getNamedAttr("stash_type", rewriter.getI64IntegerAttr(1))};
    auto ln = LayerNormOp::create(rewriter, rewriter.getFusedLoc(locs),
                                  TypeRange{type, stats, stats}, operands, attrs);
    rewriter.replaceOp(last, ln.getResult());
    for (Operation *op : llvm::reverse(ops))
      if (op != last)
        rewriter.eraseOp(op);
    return success();
  }
};

struct GraphRecognizePass : npuc::graph::impl::GraphRecognizeBase<GraphRecognizePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<HardSwish, Gelu, LayerNorm>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
