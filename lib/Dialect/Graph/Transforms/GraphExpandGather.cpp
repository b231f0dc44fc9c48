//===- GraphExpandGather.cpp - Table lookups as one-hot matrix products ----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHEXPANDGATHER
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// The one-hot matrix's elements beyond which the lookup is left alone (a
/// diagnostic at lowering): 64 Mi f32, 256 MiB of GM.
constexpr int64_t kMaxOneHot = int64_t(1) << 26;

/// Gather(data, ids) of f32 data [A, V, B] along its axis of V by indices:
/// onehot(ids) [N, V] x data [A, V, B] (a batched product for A > 1), with
/// negative ids counted from the end. NPU-v1 has no data-dependent address,
/// so a lookup is a MATRIX product: exact (each sum is one product 1 * w and
/// zeros). Constant ids give a constant one-hot matrix.
/// An integer constant of element type `it` (the indices' type).
Value intConstant(PatternRewriter &rewriter, Location loc, Type it, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> values) {
  auto t = RankedTensorType::get(shape, it);
  SmallVector<APInt> v;
  for (int64_t x : values)
    v.push_back(APInt(cast<IntegerType>(it).getWidth(), uint64_t(x), true));
  return ConstantOp::create(rewriter, loc, t, DenseElementsAttr::get(t, v)).getResult();
}

/// ids < 0 ? ids + V : ids (ONNX's negative indices count from the end).
Value wrapNegative(PatternRewriter &rewriter, Location loc, Value ids, int64_t V) {
  auto t = cast<RankedTensorType>(ids.getType());
  Type it = t.getElementType();
  auto mask = RankedTensorType::get(t.getShape(), rewriter.getI1Type());
  Value negative = LessOp::create(rewriter, loc, mask, ids, intConstant(rewriter, loc, it, {1}, {0}));
  Value wrapped = AddOp::create(rewriter, loc, t, ids, intConstant(rewriter, loc, it, {1}, {V}));
  return WhereOp::create(rewriter, loc, t, negative, wrapped, ids);
}

struct ExpandGather : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherOp op, PatternRewriter &rewriter) const override {
    auto dataType = cast<RankedTensorType>(op.getData().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    int64_t axis = op.getAxis();
    if (!dataType.getElementType().isF32() || axis < 0 || axis >= dataType.getRank())
      return failure();
    ArrayRef<int64_t> shape = dataType.getShape();
    int64_t A = 1, V = shape[size_t(axis)], B = 1, N = 1;
    for (int64_t i = 0; i < dataType.getRank(); ++i)
      if (i != axis)
        (i < axis ? A : B) *= shape[size_t(i)];
    for (int64_t d : idxType.getShape())
      N *= d;
    if (V < 1 || V > INT32_MAX || N < 1 || N > kMaxOneHot / V)
      return rewriter.notifyMatchFailure(op, "the one-hot matrix would be too large");
    Location loc = op.getLoc();
    Type it = idxType.getElementType(), f32 = rewriter.getF32Type(), i1 = rewriter.getI1Type();
    auto tensor = [](ArrayRef<int64_t> s, Type t) { return RankedTensorType::get(s, t); };
    // [N, V], or [A, N, V] for a batched product (equal batches).
    SmallVector<int64_t> hotShape = A > 1 ? SmallVector<int64_t>{A, N, V} : SmallVector<int64_t>{N, V};
    if (A > 1 && A * N > kMaxOneHot / V)
      return rewriter.notifyMatchFailure(op, "the one-hot matrix would be too large");
    Value oneHot;
    if (auto known = op.getIndices().getDefiningOp<ConstantOp>()) {
      // Known ids: the one-hot matrix is a constant (an id outside [-V, V)
      // is left to the lowering's diagnostic).
      SmallVector<float> hot(size_t(N * V), 0.0f);
      int64_t n = 0;
      for (const APInt &x : cast<DenseIntElementsAttr>(known.getValue()).getValues<APInt>()) {
        int64_t id = x.getSExtValue();
        if (id < -V || id >= V)
          return rewriter.notifyMatchFailure(op, "a constant index is out of range");
        hot[size_t(n++ * V + (id < 0 ? id + V : id))] = 1.0f;
      }
      // One copy per batch: the matrix product takes equal batches.
      SmallVector<float> batched;
      for (int64_t a = 0; a < A; ++a)
        batched.append(hot.begin(), hot.end());
      auto t = tensor(hotShape, f32);
      oneHot = ConstantOp::create(rewriter, loc, t, DenseElementsAttr::get(t, ArrayRef<float>(batched)));
    } else {
      Value ids = wrapNegative(rewriter, loc,
                               ReshapeOp::create(rewriter, loc, tensor({N, 1}, it), op.getIndices()), V);
      // 0..V-1 (per batch: Equal broadcasts the ids over it).
      SmallVector<int64_t> iota;
      for (int64_t a = 0; a < A; ++a)
        for (int64_t i = 0; i < V; ++i)
          iota.push_back(i);
      Value range = intConstant(rewriter, loc, it,
                                A > 1 ? SmallVector<int64_t>{A, 1, V} : SmallVector<int64_t>{V}, iota);
      Value hot = EqualOp::create(rewriter, loc, tensor(hotShape, i1), ids, range);
      oneHot = CastOp::create(rewriter, loc, tensor(hotShape, f32), hot);
    }
    Value data = op.getData();
    SmallVector<int64_t> rhsShape = A > 1 ? SmallVector<int64_t>{A, V, B} : SmallVector<int64_t>{V, B};
    if (auto table = data.getDefiningOp<ConstantOp>()) {
      auto values = cast<DenseElementsAttr>(table.getValue()).reshape(tensor(rhsShape, f32));
      data = ConstantOp::create(rewriter, table.getLoc(), tensor(rhsShape, f32), values);
    } else if (dataType.getShape() != ArrayRef<int64_t>(rhsShape)) {
      data = ReshapeOp::create(rewriter, loc, tensor(rhsShape, f32), data);
    }
    SmallVector<int64_t> rowsShape = A > 1 ? SmallVector<int64_t>{A, N, B} : SmallVector<int64_t>{N, B};
    Value rows = MatMulOp::create(rewriter, loc, tensor(rowsShape, f32), oneHot, data);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, resultType, rows);
    return success();
  }
};

/// GatherElements(data, idx) of f32 data along `axis` (V there, K in idx,
/// the other dimensions equal): out = sum over v of (idx == v ? data : 0),
/// the Equal on idx with a new axis of V after `axis` and data with a new
/// axis of 1 before it. A select, not a product: inf and NaN data move as
/// they are (each sum is the one value and zeros).
struct ExpandGatherElements : OpRewritePattern<GatherElementsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherElementsOp op, PatternRewriter &rewriter) const override {
    auto dataType = cast<RankedTensorType>(op.getData().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt(), rank = dataType.getRank();
    if (!dataType.getElementType().isF32() || axis < 0 || axis >= rank)
      return failure();
    ArrayRef<int64_t> ds = dataType.getShape(), is = idxType.getShape();
    for (int64_t i = 0; i < rank; ++i)
      if (i != axis && ds[size_t(i)] != is[size_t(i)])
        return rewriter.notifyMatchFailure(op, "indices narrower than the data off the axis");
    int64_t V = ds[size_t(axis)], n = 1;
    for (int64_t d : is)
      n *= d;
    if (V < 1 || V > INT32_MAX || n > kMaxOneHot / V)
      return rewriter.notifyMatchFailure(op, "the selection would be too large");
    Location loc = op.getLoc();
    Type it = idxType.getElementType(), f32 = rewriter.getF32Type(), i1 = rewriter.getI1Type();
    auto tensor = [](ArrayRef<int64_t> sh, Type t) { return RankedTensorType::get(sh, t); };
    auto inserted = [](ArrayRef<int64_t> sh, int64_t at, int64_t d) {
      SmallVector<int64_t> r(sh.begin(), sh.end());
      r.insert(r.begin() + at, d);
      return r;
    };
    SmallVector<int64_t> idxShape = inserted(is, axis + 1, 1), wide = inserted(is, axis + 1, V);
    Value ids = wrapNegative(rewriter, loc,
                             ReshapeOp::create(rewriter, loc, tensor(idxShape, it), op.getIndices()), V);
    SmallVector<int64_t> rangeShape(size_t(rank + 1), 1), iota;
    rangeShape[size_t(axis + 1)] = V;
    for (int64_t v = 0; v < V; ++v)
      iota.push_back(v);
    Value hot = EqualOp::create(rewriter, loc, tensor(wide, i1), ids,
                                intConstant(rewriter, loc, it, rangeShape, iota));
    Value data = ReshapeOp::create(rewriter, loc, tensor(inserted(ds, axis, 1), f32), op.getData());
    auto zt = tensor({1}, f32);
    Value zero = ConstantOp::create(rewriter, loc, zt, DenseElementsAttr::get(zt, ArrayRef<float>{0.0f}));
    Value picked = WhereOp::create(rewriter, loc, tensor(wide, f32), hot, data, zero);
    rewriter.replaceOpWithNewOp<ReduceSumOp>(op, op.getResult().getType(), picked,
                                             rewriter.getDenseI64ArrayAttr({axis + 1}),
                                             rewriter.getBoolAttr(false));
    return success();
  }
};

struct GraphExpandGatherPass : npuc::graph::impl::GraphExpandGatherBase<GraphExpandGatherPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandGather, ExpandGatherElements>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
