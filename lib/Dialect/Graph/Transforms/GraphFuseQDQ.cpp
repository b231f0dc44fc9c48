//===- GraphFuseQDQ.cpp - QDQ pairs to quantized types --------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHFUSEQDQ
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// Ops that compute on real values and may run on quantized ones: their
/// quantized form means dequantize -> op -> quantize with the types given.
bool isFusable(Operation *op) {
  return isa<ConvOp, ConvTransposeOp, MatMulOp, GemmOp, AddOp, SubOp, MulOp, ReluOp, ClipOp,
             LeakyReluOp, SigmoidOp, TanhOp, HardSigmoidOp, HardSwishOp, SoftmaxOp, MaxPoolOp,
             AveragePoolOp, GlobalAveragePoolOp, GlobalMaxPoolOp, ReshapeOp, TransposeOp,
             ConcatOp, PadOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ResizeOp, AbsOp, SliceOp,
             GatherOp, DepthToSpaceOp, SpaceToDepthOp>(op);
}

struct FuseQDQ : RewritePattern {
  FuseQDQ(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), 1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isFusable(op) || op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
      return failure();
    auto quantize = dyn_cast<QuantizeOp>(*op->getResult(0).getUsers().begin());
    if (!quantize)
      return failure();
    SmallVector<Value> operands;
    for (Value v : op->getOperands()) {
      auto dq = v.getDefiningOp<DequantizeOp>();
      if (dq) {
        operands.push_back(dq.getInput());
        continue;
      }
      // Integer operands (e.g. gather indices) pass through; real ones block.
      if (isa<IntegerType>(cast<ShapedType>(v.getType()).getElementType())) {
        operands.push_back(v);
        continue;
      }
      return rewriter.notifyMatchFailure(op, "a real-valued operand is not dequantized");
    }
    OperationState state(op->getLoc(), op->getName());
    state.addOperands(operands);
    state.addTypes(quantize.getResult().getType());
    state.addAttributes(op->getAttrs());
    if (op->getPropertiesStorageSize())
      state.propertiesAttr = op->getPropertiesAsAttribute();
    rewriter.setInsertionPoint(op);
    Operation *fused = rewriter.create(state);
    // A quantized form the verifier rejects (say, a per-axis type on an axis
    // the op moves) is simply not fused; its diagnostic is not an error here.
    ScopedDiagnosticHandler quiet(op->getContext(), [](Diagnostic &) { return success(); });
    if (failed(mlir::verify(fused, /*verifyRecursively=*/false))) {
      rewriter.eraseOp(fused);
      return rewriter.notifyMatchFailure(op, "the quantized form does not verify");
    }
    rewriter.replaceOp(quantize, fused->getResults());
    rewriter.eraseOp(op);
    return success();
  }
};

struct GraphFuseQDQPass : npuc::graph::impl::GraphFuseQDQBase<GraphFuseQDQPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseQDQ>(&getContext());
    // Folding also cancels storage_cast pairs between a Q and a DQ.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
