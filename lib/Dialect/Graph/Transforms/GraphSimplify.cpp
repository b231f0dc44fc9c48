//===- GraphSimplify.cpp - Fold algebraic identities ----------------------===//
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
struct GraphSimplifyPass : npuc::graph::impl::GraphSimplifyBase<GraphSimplifyPass> {
  void runOnOperation() override {
    // The folders carry the rules; no extra patterns are needed yet.
    RewritePatternSet patterns(&getContext());
    GreedyRewriteConfig config;
    config.enableFolding(true);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
