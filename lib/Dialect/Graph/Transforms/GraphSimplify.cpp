//===- GraphSimplify.cpp - Fold algebraic identities, normal forms --------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHSIMPLIFY
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// A reduction over axes that are not one contiguous block (MVN's [0, 2, 3]):
/// the kept axes moved first (a transpose, their order kept), the reduced
/// ones last, reduced as one block, and the result viewed in the op's shape
/// (the reduced axes are 1 or gone, so the view keeps the element order).
template <typename ReduceOp>
struct ContiguousReduceAxes : OpRewritePattern<ReduceOp> {
  using OpRewritePattern<ReduceOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp op, PatternRewriter &rw) const override {
    ArrayRef<int64_t> axes = op.getAxes();
    if (axes.empty() || axes.back() - axes.front() + 1 == int64_t(axes.size()))
      return failure();
    auto type = cast<RankedTensorType>(op.getInput().getType());
    int64_t rank = type.getRank();
    SmallVector<int64_t> perm, shape, reduced, keptShape;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(axes, d)) {
        perm.push_back(d);
        keptShape.push_back(type.getDimSize(d));
      }
    for (int64_t d : axes)
      perm.push_back(d);
    for (int64_t d : perm)
      shape.push_back(type.getDimSize(d));
    for (int64_t d = rank - int64_t(axes.size()); d < rank; ++d)
      reduced.push_back(d);
    Location loc = op.getLoc();
    Value t = TransposeOp::create(rw, loc, type.clone(shape), op.getInput(), rw.getDenseI64ArrayAttr(perm));
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    SmallVector<int64_t> outShape(keptShape);
    if (op.getKeepdims())
      outShape.append(axes.size(), 1);
    Value r = ReduceOp::create(rw, loc, resultType.clone(outShape), t, rw.getDenseI64ArrayAttr(reduced),
                               op.getKeepdimsAttr());
    if (!op.getKeepdims())
      rw.replaceOp(op, r);
    else
      rw.replaceOpWithNewOp<ReshapeOp>(op, resultType, r);
    return success();
  }
};

/// A Concat with empty parts (a KV cache with no past yet: [B, H, 0, D])
/// concatenates the others; one left is the result itself.
struct ConcatDropsEmptyParts : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConcatOp op, PatternRewriter &rw) const override {
    auto isEmpty = [](Value v) { return cast<RankedTensorType>(v.getType()).getNumElements() == 0; };
    if (isEmpty(op.getResult()) || llvm::none_of(op.getInputs(), isEmpty))
      return failure();
    SmallVector<Value> parts;
    for (Value v : op.getInputs())
      if (!isEmpty(v))
        parts.push_back(v);
    if (parts.size() == 1 && parts[0].getType() == op.getResult().getType()) {
      rw.replaceOp(op, parts[0]);
      return success();
    }
    rw.replaceOpWithNewOp<ConcatOp>(op, op.getResult().getType(), parts, op.getAxisAttr());
    return success();
  }
};

struct GraphSimplifyPass : npuc::graph::impl::GraphSimplifyBase<GraphSimplifyPass> {
  void runOnOperation() override {
    // The folders carry the algebra; the patterns put ops in the form their
    // kernels take.
    RewritePatternSet patterns(&getContext());
    patterns.add<ContiguousReduceAxes<ReduceMeanOp>, ContiguousReduceAxes<ReduceSumOp>,
                 ContiguousReduceAxes<ReduceMaxOp>, ContiguousReduceAxes<ReduceMinOp>,
                 ContiguousReduceAxes<ReduceProdOp>, ContiguousReduceAxes<ReduceL1Op>,
                 ContiguousReduceAxes<ReduceL2Op>, ContiguousReduceAxes<ReduceSumSquareOp>,
                 ContiguousReduceAxes<ReduceLogSumOp>, ContiguousReduceAxes<ReduceLogSumExpOp>,
                 ConcatDropsEmptyParts>(&getContext());
    GreedyRewriteConfig config;
    config.enableFolding(true);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
