//===- GraphFuseQDQ.cpp - QDQ pairs to quantized types --------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
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
template <typename... Ops>
bool isOneOf(llvm::StringRef name) {
  return ((name == Ops::getOperationName()) || ...);
}
bool isFusable(llvm::StringRef name) {
  return isOneOf<ConvOp, ConvTransposeOp, MatMulOp, GemmOp, AddOp, SubOp, MulOp, ReluOp, ClipOp,
                 LeakyReluOp, SigmoidOp, TanhOp, HardSigmoidOp, HardSwishOp, SoftmaxOp, MaxPoolOp,
                 AveragePoolOp, GlobalAveragePoolOp, GlobalMaxPoolOp, ReshapeOp, TransposeOp,
                 ConcatOp, PadOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ResizeOp, AbsOp, SliceOp,
                 GatherOp, DepthToSpaceOp, SpaceToDepthOp, LayerNormOp>(name);
}
bool isFusable(Operation *op) { return isFusable(op->getName().getStringRef()); }

/// Results beyond the first (LayerNormalization's Mean and InvStdDev) stay
/// float; the op fuses only while they are unused.
bool extraResultsUnused(Operation *op) {
  return llvm::all_of(op->getResults().drop_front(), [](Value v) { return v.use_empty(); });
}

/// Activations that only limit the range: between an op and its quantize they
/// keep the output quantization (the clamp is later applied in that domain).
bool isRangeActivation(Operation *op) { return isa<ReluOp, ClipOp>(op); }

struct FuseQDQ : RewritePattern {
  FuseQDQ(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), 1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isFusable(op) || !extraResultsUnused(op) || !op->getResult(0).hasOneUse())
      return failure();
    Operation *user = *op->getResult(0).getUsers().begin();
    // op -> Relu/Clip -> quantize: both take the quantize's type (contract L10:
    // the activation keeps the output's quantization boundary).
    Operation *activation = nullptr;
    if (isRangeActivation(user) && !isRangeActivation(op) && user->getResult(0).hasOneUse()) {
      activation = user;
      user = *user->getResult(0).getUsers().begin();
    }
    auto quantize = dyn_cast<QuantizeOp>(user);
    if (!quantize)
      return failure();
    SmallVector<Value> operands;
    for (auto [i, v] : llvm::enumerate(op->getOperands())) {
      auto dq = v.getDefiningOp<DequantizeOp>();
      if (dq) {
        operands.push_back(dq.getInput());
        continue;
      }
      // A convolution's constant float bias: quantized at the accumulator
      // scale by convert-graph-to-qk.
      if (isa<ConvOp>(op) && i == 2 && v.getDefiningOp<ConstantOp>() &&
          cast<ShapedType>(v.getType()).getElementType().isF32()) {
        operands.push_back(v);
        continue;
      }
      // A LayerNormalization's scale and bias: float constants as QDQ
      // exporters leave them (the kernel computes in f32 either way); a
      // dequantized one arrives through the first case.
      if (isa<LayerNormOp>(op) && i >= 1 && v.getDefiningOp<ConstantOp>() &&
          cast<ShapedType>(v.getType()).getElementType().isF32()) {
        operands.push_back(v);
        continue;
      }
      // Integer operands (e.g. gather indices) pass through; real ones block.
      if (isa<IntegerType>(cast<ShapedType>(v.getType()).getElementType())) {
        operands.push_back(v);
        continue;
      }
      return rewriter.notifyMatchFailure(op, "a real-valued operand is not dequantized");
    }
    // Located at every node it stands for (TensorNames.h): the op computes
    // the quantize's output, or with an activation the activation does.
    Location fusedLoc = rewriter.getFusedLoc({op->getLoc(), quantize.getLoc()});
    Location actLoc = fusedLoc;
    if (activation) {
      actLoc = rewriter.getFusedLoc({activation->getLoc(), quantize.getLoc()});
      fusedLoc = npuc::graph::withoutTensorNames(fusedLoc);
    }
    OperationState state(fusedLoc, op->getName());
    state.addOperands(operands);
    state.addTypes(quantize.getResult().getType());
    state.addTypes(llvm::to_vector(llvm::drop_begin(op->getResultTypes())));
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
    Value result = fused->getResult(0);
    if (activation) {
      OperationState act(actLoc, activation->getName());
      act.addOperands(result);
      act.addTypes(quantize.getResult().getType());
      act.addAttributes(activation->getAttrs());
      if (activation->getPropertiesStorageSize())
        act.propertiesAttr = activation->getPropertiesAsAttribute();
      Operation *fusedAct = rewriter.create(act);
      if (failed(mlir::verify(fusedAct, /*verifyRecursively=*/false))) {
        rewriter.eraseOp(fusedAct);
        rewriter.eraseOp(fused);
        return rewriter.notifyMatchFailure(op, "the quantized activation does not verify");
      }
      result = fusedAct->getResult(0);
    }
    rewriter.replaceOp(quantize, result);
    if (activation)
      rewriter.eraseOp(activation);
    rewriter.eraseOp(op);
    return success();
  }
};

/// A QuantizeLinear of a DequantizeLinear's result: one requantization
/// (nothing at all when both sides are quantized alike). Per-tensor only.
struct FoldRequantize : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeOp q, PatternRewriter &rewriter) const override {
    auto dq = q.getInput().getDefiningOp<DequantizeOp>();
    if (!dq)
      return failure();
    Value x = dq.getInput();
    auto in = dyn_cast<quant::UniformQuantizedType>(cast<ShapedType>(x.getType()).getElementType());
    auto out = dyn_cast<quant::UniformQuantizedType>(
        cast<ShapedType>(q.getResult().getType()).getElementType());
    if (!in || !out)
      return rewriter.notifyMatchFailure(q, "per-axis quantization is left as it is");
    if (x.getType() == q.getResult().getType()) {
      rewriter.replaceOp(q, x);  // dequantized and quantized alike: the values themselves
    } else {
      Location loc = rewriter.getFusedLoc({dq.getLoc(), q.getLoc()});
      rewriter.replaceOpWithNewOp<RequantizeOp>(q, q.getResult().getType(), x).getOperation()->setLoc(loc);
    }
    if (dq->use_empty())
      rewriter.eraseOp(dq);
    return success();
  }
};

} // namespace


namespace {
struct GraphFuseQDQPass : npuc::graph::impl::GraphFuseQDQBase<GraphFuseQDQPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseQDQ>(&getContext());
    patterns.add<FoldRequantize>(&getContext(), /*benefit=*/0);
    // Folding also cancels storage_cast pairs between a Q and a DQ.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
