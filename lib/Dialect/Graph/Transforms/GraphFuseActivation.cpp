//===- GraphFuseActivation.cpp - Relu and Clip folded into f32 convolutions ===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include <cmath>

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHFUSEACTIVATION
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
struct GraphFuseActivationPass
    : npuc::graph::impl::GraphFuseActivationBase<GraphFuseActivationPass> {
  void runOnOperation() override {
    SmallVector<ConvOp> convs;
    getOperation()->walk([&](ConvOp op) { convs.push_back(op); });
    for (ConvOp conv : convs) {
      Value r = conv.getResult();
      if (conv.getActivation() || !cast<RankedTensorType>(r.getType()).getElementType().isF32() ||
          !r.hasOneUse())
        continue;
      Operation *user = *r.getUsers().begin();
      if (!isa<ReluOp, ClipOp>(user) || user->getResult(0).getType() != r.getType())
        continue;
      Builder b(conv.getContext());
      if (auto clip = dyn_cast<ClipOp>(user)) {
        // A NaN bound is left to the standalone Clip.
        if ((clip.getMinAttr() && std::isnan(clip.getMinAttr().getValueAsDouble())) ||
            (clip.getMaxAttr() && std::isnan(clip.getMaxAttr().getValueAsDouble())))
          continue;
        conv.setActivationAttr(b.getStringAttr("clip"));
        if (clip.getMinAttr())
          conv.setActivationMinAttr(clip.getMinAttr());
        if (clip.getMaxAttr())
          conv.setActivationMaxAttr(clip.getMaxAttr());
      } else {
        conv.setActivationAttr(b.getStringAttr("relu"));
      }
      // At both nodes; the result is the activation's output.
      conv->setLoc(b.getFusedLoc({conv.getLoc(), user->getLoc()}));
      user->getResult(0).replaceAllUsesWith(r);
      user->erase();
    }
  }
};
} // namespace
