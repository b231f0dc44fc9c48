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

struct GraphRecognizePass : npuc::graph::impl::GraphRecognizeBase<GraphRecognizePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<HardSwish>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
