//===- GraphExpandDynamicQuantize.cpp - DynamicQuantizeLinear on VECTOR ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// DynamicQuantizeLinear computes its scale and zero point from the data at
// run time, so they cannot be a quantized type: the op becomes ONNX's
// definition step by step in f32 graph ops (docs/numerics.md, "Dynamic
// quantization and run-time quantization parameters").
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHEXPANDDYNAMICQUANTIZE
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// y_scale = (max(0, max(x)) - min(0, min(x))) / 255; zero point
/// round(clip(-min(0, min(x)) / y_scale, 0, 255)); y = clip(round(x /
/// y_scale) + zero point, 0, 255): every division IEEE, every rounding half
/// to even, as ONNX defines uint8 DynamicQuantizeLinear. The reductions keep
/// their axes ([1, ..., 1]) so the scalars broadcast against x; the scale and
/// zero point results are reshaped to rank 0.
struct ExpandDynamicQuantize : OpRewritePattern<DynamicQuantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DynamicQuantizeOp op, PatternRewriter &rw) const override {
    auto type = cast<RankedTensorType>(op.getInput().getType());
    Location loc = op.getLoc();
    Type f32 = type.getElementType();
    int64_t rank = type.getRank();
    SmallVector<int64_t> ones(size_t(rank), 1);
    auto one = RankedTensorType::get(ones, f32);
    auto scalar = [&](float v) {
      return ConstantOp::create(rw, loc, one, DenseElementsAttr::get(one, ArrayRef<float>{v}));
    };
    Value x = op.getInput();
    Value lo = x, hi = x;
    if (rank > 0) {
      SmallVector<int64_t> axes;
      for (int64_t i = 0; i < rank; ++i)
        axes.push_back(i);
      lo = ReduceMinOp::create(rw, loc, one, x, rw.getDenseI64ArrayAttr(axes), rw.getBoolAttr(true));
      hi = ReduceMaxOp::create(rw, loc, one, x, rw.getDenseI64ArrayAttr(axes), rw.getBoolAttr(true));
    }
    Value zero = scalar(0.0f);
    lo = MinOp::create(rw, loc, one, lo, zero);
    hi = MaxOp::create(rw, loc, one, hi, zero);
    Value scale = DivOp::create(rw, loc, one, SubOp::create(rw, loc, one, hi, lo), scalar(255.0f));
    Value zp = DivOp::create(rw, loc, one, SubOp::create(rw, loc, one, zero, lo), scale);
    auto saturate = [&](Value v, RankedTensorType t) {
      return ClipOp::create(rw, loc, t, v, rw.getF64FloatAttr(0.0), rw.getF64FloatAttr(255.0));
    };
    zp = RoundOp::create(rw, loc, one, saturate(zp, one));
    Value q = RoundOp::create(rw, loc, type, DivOp::create(rw, loc, type, x, scale));
    q = saturate(AddOp::create(rw, loc, type, q, zp), type);
    auto yType = cast<RankedTensorType>(op.getY().getType());
    auto zpType = cast<RankedTensorType>(op.getZeroPoint().getType());
    auto scaleType = cast<RankedTensorType>(op.getScale().getType());
    Value y = CastOp::create(rw, loc, yType, q);
    Value zpOut = CastOp::create(rw, loc, zpType.clone(ones), zp);
    rw.replaceOp(op, {y, ReshapeOp::create(rw, loc, scaleType, scale),
                      ReshapeOp::create(rw, loc, zpType, zpOut)});
    return success();
  }
};

struct GraphExpandDynamicQuantizePass
    : npuc::graph::impl::GraphExpandDynamicQuantizeBase<GraphExpandDynamicQuantizePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandDynamicQuantize>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
