//===- GraphComputeF16.cpp - fp16 compute with fp32 accumulation -----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

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

bool allPlainF32(Operation *op) {
  return llvm::all_of(op->getOperands(), isPlainF32) && llvm::all_of(op->getResults(), isPlainF32);
}

/// MATRIX products: fp16 operands (Gemm's C and a Conv's bias stay f32).
bool isProduct(Operation *op) {
  if (isa<GemmOp, ConvOp>(op))
    return isPlainF32(op->getOperand(0)) && isPlainF32(op->getOperand(1)) && isPlainF32(op->getResult(0));
  return isa<MatMulOp>(op) && allPlainF32(op);
}

/// A product's fp16 operands: the first two.
constexpr unsigned kProductOperands = 2;

/// VECTOR ops with an fp16 kernel: IEEE fp16 arithmetic for the binary ones,
/// the f32 map (the tile converted, computed in f32, rounded to fp16 once)
/// for the unary ones.
bool isVectorOp(Operation *op) {
  return isa<AddOp, SubOp, MulOp, MaxOp, MinOp, ReluOp, SigmoidOp, TanhOp, ExpOp, NegOp, AbsOp,
             SqrtOp, ErfOp, ClipOp, LeakyReluOp, HardSigmoidOp, HardSwishOp, GeluOp>(op) &&
         allPlainF32(op);
}

struct GraphComputeF16Pass : npuc::graph::impl::GraphComputeF16Base<GraphComputeF16Pass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    Type f16 = b.getF16Type(), f32 = b.getF32Type();
    auto retyped = [](Value v, Type element) {
      return RankedTensorType::get(cast<RankedTensorType>(v.getType()).getShape(), element);
    };
    auto after = [&](Value v) {
      if (auto arg = dyn_cast<BlockArgument>(v))
        b.setInsertionPointToStart(arg.getOwner());
      else
        b.setInsertionPointAfter(v.getDefiningOp());
    };
    // Values that are fp16 now (results this pass retyped), and the one fp16
    // or f32 version of a value that others read.
    llvm::DenseSet<Value> isHalf;
    llvm::DenseMap<Value, Value> halfOf, fullOf;
    SmallVector<Operation *> deadConstants;
    auto half = [&](Value v) -> Value {
      if (isHalf.contains(v))
        return v;
      if (Value h = halfOf.lookup(v))
        return h;
      after(v);
      Value h;
      auto cst = v.getDefiningOp<ConstantOp>();
      auto dense = cst ? dyn_cast<DenseFPElementsAttr>(cst.getValue()) : DenseFPElementsAttr();
      if (dense) {
        // Rounded once at compile time, to nearest even.
        const llvm::fltSemantics &sem = cast<FloatType>(f16).getFloatSemantics();
        DenseElementsAttr hv = dense.mapValues(f16, [&](const APFloat &x) {
          APFloat y = x;
          bool lost = false;
          y.convert(sem, APFloat::rmNearestTiesToEven, &lost);
          return y.bitcastToAPInt();
        });
        h = ConstantOp::create(b, cst.getLoc(), retyped(v, f16), hv).getResult();
        deadConstants.push_back(cst);
      } else {
        h = CastOp::create(b, v.getLoc(), retyped(v, f16), v).getResult();
      }
      return halfOf[v] = h;
    };
    auto full = [&](Value v) -> Value {
      if (Value f = fullOf.lookup(v))
        return f;
      after(v);
      return fullOf[v] = CastOp::create(b, v.getLoc(), retyped(v, f32), v).getResult();
    };
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (op->getDialect() == getOperation()->getContext()->getLoadedDialect<GraphDialect>() ||
          op->hasTrait<OpTrait::IsTerminator>())
        ops.push_back(op);
    });
    // Decided on the graph as it is: which products store fp16 (every user
    // reads fp16: a product or a VECTOR op that runs in fp16).
    llvm::DenseSet<Operation *> products, vectors, halfResults;
    for (Operation *op : ops) {
      if (isProduct(op))
        products.insert(op);
      else if (isVectorOp(op))
        vectors.insert(op);
    }
    // A VECTOR op runs in fp16 only where its result goes on in fp16: every
    // user a product or such an op (decided from the last op back), so that
    // no cast back to f32 follows it.
    llvm::DenseSet<Operation *> inHalf;
    for (Operation *op : llvm::reverse(ops))
      if (vectors.contains(op) && llvm::all_of(op->getUsers(), [&](Operation *u) {
            return products.contains(u) || inHalf.contains(u);
          }))
        inHalf.insert(op);
    for (Operation *op : products)
      if (llvm::all_of(op->getResult(0).getUsers(), [&](Operation *u) {
            return products.contains(u) || inHalf.contains(u);
          }))
        halfResults.insert(op);
    for (Operation *op : ops) {
      bool converted = false;
      if (products.contains(op)) {
        for (unsigned i = 0; i < kProductOperands; ++i)
          op->setOperand(i, half(op->getOperand(i)));
        converted = halfResults.contains(op);
      } else if (inHalf.contains(op) &&
                 llvm::any_of(op->getOperands(), [&](Value v) { return isHalf.contains(v); })) {
        // A VECTOR op reading an fp16 value runs in fp16 (its other operands
        // converted); one reading none stays f32.
        for (OpOperand &o : op->getOpOperands())
          o.set(half(o.get()));
        converted = true;
      } else {
        for (OpOperand &o : op->getOpOperands())
          if (isHalf.contains(o.get()))
            o.set(full(o.get()));
      }
      if (converted)
        for (Value r : op->getResults()) {
          r.setType(retyped(r, f16));
          isHalf.insert(r);
        }
    }
    // The f32 constants only converted ops read are gone with them.
    for (Operation *cst : deadConstants)
      if (cst->use_empty())
        cst->erase();
  }
};
} // namespace
