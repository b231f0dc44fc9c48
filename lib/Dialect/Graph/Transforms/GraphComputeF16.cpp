//===- GraphComputeF16.cpp - Matrix products on fp16 operands -------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHCOMPUTEF16
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
bool isPlainF32(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType().isF32();
}

struct GraphComputeF16Pass : npuc::graph::impl::GraphComputeF16Base<GraphComputeF16Pass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    Type f16 = b.getF16Type();
    // One f16 version per value: a constant rounded at compile time, or a cast.
    llvm::DenseMap<Value, Value> halves;
    auto half = [&](Operation *user, Value v) -> Value {
      auto [it, fresh] = halves.try_emplace(v, Value());
      if (!fresh)
        return it->second;
      auto t = cast<RankedTensorType>(v.getType());
      auto ht = RankedTensorType::get(t.getShape(), f16);
      if (auto cst = v.getDefiningOp<ConstantOp>()) {
        if (auto dense = dyn_cast<DenseFPElementsAttr>(cst.getValue())) {
          b.setInsertionPointAfter(cst);
          const llvm::fltSemantics &sem = cast<FloatType>(f16).getFloatSemantics();
          DenseElementsAttr hv = dense.mapValues(f16, [&](const APFloat &x) {
            APFloat y = x;
            bool lost = false;
            y.convert(sem, APFloat::rmNearestTiesToEven, &lost);
            return y.bitcastToAPInt();
          });
          return it->second = ConstantOp::create(b, cst.getLoc(), ht, hv).getResult();
        }
      }
      if (auto arg = dyn_cast<BlockArgument>(v))
        b.setInsertionPointToStart(arg.getOwner());
      else
        b.setInsertionPointAfter(v.getDefiningOp());
      return it->second = CastOp::create(b, user->getLoc(), ht, v).getResult();
    };
    SmallVector<Operation *> products;
    getOperation()->walk([&](Operation *op) {
      if (isa<MatMulOp, GemmOp, ConvOp>(op))
        products.push_back(op);
    });
    for (Operation *op : products) {
      SmallVector<unsigned> operands;
      if (auto mm = dyn_cast<MatMulOp>(op)) {
        if (isPlainF32(mm.getLhs()) && isPlainF32(mm.getRhs()) && isPlainF32(mm.getResult()))
          operands = {0, 1};
      } else if (auto gemm = dyn_cast<GemmOp>(op)) {
        if (isPlainF32(gemm.getA()) && isPlainF32(gemm.getB()) && isPlainF32(gemm.getResult()))
          operands = {0, 1};  // C is added in the fp32 accumulator
      } else if (auto conv = dyn_cast<ConvOp>(op)) {
        if (isPlainF32(conv.getX()) && isPlainF32(conv.getW()) && isPlainF32(conv.getResult()))
          operands = {0, 1};  // the bias joins the fp32 accumulator
      }
      for (unsigned i : operands)
        op->setOperand(i, half(op, op->getOperand(i)));
    }
    // A product whose every user is a product takes its cast in: its fp32
    // accumulator is rounded to an fp16 result once, on the way out, and the
    // f32 tensor and the cast kernel are gone.
    for (Operation *op : products) {
      Value r = op->getResult(0);
      auto it = halves.find(r);
      if (it == halves.end() || !r.hasOneUse() ||
          !cast<RankedTensorType>(op->getOperand(0).getType()).getElementType().isF16())
        continue;
      Value castResult = it->second;
      Operation *castOp = castResult.getDefiningOp();
      if (!castOp || *r.getUsers().begin() != castOp)
        continue;
      r.setType(castResult.getType());
      castResult.replaceAllUsesWith(r);
      castOp->erase();
      it->second = r;
    }
    // The f32 constants only the products read are gone with them.
    for (auto &entry : halves)
      if (auto cst = entry.first.getDefiningOp<ConstantOp>(); cst && cst->use_empty())
        cst->erase();
  }
};
} // namespace
