//===- GraphLiftConv1D.cpp - 1-D convolutions as 2-D ones of height 1 -----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHLIFTCONV1D
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// `v` ([A, B, L]) seen as [A, B, 1, L]: a reshaped constant for a constant,
/// else a graph.reshape (a view).
Value addHeight(OpBuilder &b, Location loc, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  ArrayRef<int64_t> s = t.getShape();
  auto type = RankedTensorType::get({s[0], s[1], 1, s[2]}, t.getElementType());
  if (auto c = v.getDefiningOp<ConstantOp>())
    if (auto dense = dyn_cast<DenseElementsAttr>(c.getValue())) {
      auto storage = RankedTensorType::get(type.getShape(), dense.getElementType());
      return ConstantOp::create(b, c.getLoc(), type, dense.reshape(storage));
    }
  return ReshapeOp::create(b, loc, type, v);
}

/// [a] -> [first, a], and pads [b, e] -> [0, b, 0, e].
DenseI64ArrayAttr lift(OpBuilder &b, ArrayRef<int64_t> a, int64_t first) {
  return b.getDenseI64ArrayAttr({first, a[0]});
}
DenseI64ArrayAttr liftPads(OpBuilder &b, ArrayRef<int64_t> p) {
  return b.getDenseI64ArrayAttr({0, p[0], 0, p[1]});
}

/// Rewrites a 1-D convolution (or transposed one) `op` as the 2-D one over
/// [N, C, 1, L] with [M, C / g, 1, K] weights, its result reshaped back.
template <typename OpTy>
void liftOne(OpTy op) {
  OpBuilder b(op);
  // The reshape back computes the node's ONNX tensor; the lifted op and the
  // views before it do not (TensorNames.h).
  Location loc = withoutTensorNames(op.getLoc());
  auto rt = cast<RankedTensorType>(op.getResult().getType());
  ArrayRef<int64_t> rs = rt.getShape();
  auto type = RankedTensorType::get({rs[0], rs[1], 1, rs[2]}, rt.getElementType());
  Value x = addHeight(b, loc, op.getX()), w = addHeight(b, loc, op.getW());
  OpTy lifted = cast<OpTy>(b.clone(*op));
  lifted->setOperand(0, x);
  lifted->setOperand(1, w);
  lifted.getResult().setType(type);
  lifted->setLoc(loc);
  lifted.setStridesAttr(lift(b, op.getStrides(), 1));
  lifted.setDilationsAttr(lift(b, op.getDilations(), 1));
  lifted.setPadsAttr(liftPads(b, op.getPads()));
  if constexpr (std::is_same_v<OpTy, ConvTransposeOp>)
    lifted.setOutputPaddingAttr(lift(b, op.getOutputPadding(), 0));
  Value back = ReshapeOp::create(b, op.getLoc(), rt, lifted.getResult());
  op.getResult().replaceAllUsesWith(back);
  op.erase();
}

struct GraphLiftConv1DPass : npuc::graph::impl::GraphLiftConv1DBase<GraphLiftConv1DPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<ConvOp, ConvTransposeOp>(op) &&
          cast<RankedTensorType>(op->getOperand(0).getType()).getRank() == 3)
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto conv = dyn_cast<ConvOp>(op))
        liftOne(conv);
      else
        liftOne(cast<ConvTransposeOp>(op));
    }
  }
};
} // namespace
