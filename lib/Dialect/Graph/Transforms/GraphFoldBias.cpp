//===- GraphFoldBias.cpp - Per-channel constant Adds into conv biases ------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ConstantValues.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHFOLDBIAS
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// Whether a tensor of `shape` broadcasts against [N, M, spatial...] as one
/// value per channel (or one for all): 1 everywhere but the channel axis.
bool perChannel(ArrayRef<int64_t> shape, ArrayRef<int64_t> result) {
  if (shape.size() > result.size())
    return false;
  size_t lead = result.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) {
    size_t axis = lead + i;
    if (shape[i] != 1 && !(axis == 1 && shape[i] == result[1]))
      return false;
  }
  return true;
}

/// Folds `add` (an f32 convolution's only use plus a per-channel constant)
/// into the convolution's bias; true when it did.
bool fold(AddOp add) {
  for (unsigned i = 0; i < 2; ++i) {
    auto conv = add->getOperand(i).getDefiningOp<ConvOp>();
    Value other = add->getOperand(1 - i);
    if (!conv || !conv.getResult().hasOneUse() || conv.getActivation() ||
        add.getResult().getType() != conv.getResult().getType())
      continue;
    auto type = cast<RankedTensorType>(conv.getResult().getType());
    // An f32 convolution of f32 operands: a dequantized one is quantized
    // later (graph-fuse-qdq), its bias in the integer domain.
    if (!type.getElementType().isF32() || conv.getX().getDefiningOp<DequantizeOp>() ||
        conv.getW().getDefiningOp<DequantizeOp>() || type.getRank() < 2)
      continue;
    std::optional<SmallVector<float>> values = f32ConstantValues(other);
    if (!values || !perChannel(cast<RankedTensorType>(other.getType()).getShape(), type.getShape()))
      continue;
    std::optional<SmallVector<float>> bias;
    if (conv.getBias() && !(bias = f32ConstantValues(conv.getBias())))
      continue;
    int64_t channels = type.getShape()[1];
    SmallVector<float> sum(static_cast<size_t>(channels), 0.0f);
    for (int64_t c = 0; c < channels; ++c)
      sum[size_t(c)] = (bias ? (*bias)[size_t(c)] : 0.0f) + (*values)[values->size() == 1 ? 0 : size_t(c)];
    // The conv now computes the sum.
    foldIntoConv(conv, sum, add.getLoc(), add);
    return true;
  }
  return false;
}

struct GraphFoldBiasPass : npuc::graph::impl::GraphFoldBiasBase<GraphFoldBiasPass> {
  void runOnOperation() override {
    SmallVector<AddOp> adds;
    getOperation()->walk([&](AddOp op) { adds.push_back(op); });
    for (AddOp add : adds)
      fold(add);
  }
};
} // namespace
