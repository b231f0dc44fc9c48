//===- GraphFoldBatchNorm.cpp - BatchNormalization into conv weights ------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ConstantValues.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include <cmath>
#include <limits>

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHFOLDBATCHNORM
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {

/// Folds `bn` into the convolution that produces its input, or returns
/// success without a change when the pattern does not apply.
LogicalResult fold(BatchNormOp bn) {
  auto conv = bn.getX().getDefiningOp<ConvOp>();
  if (!conv || !conv.getResult().hasOneUse() || conv.getActivation() ||
      !cast<RankedTensorType>(conv.getResult().getType()).getElementType().isF32())
    return success();
  auto w = f32ConstantValues(conv.getW());
  auto gamma = f32ConstantValues(bn.getScale()), beta = f32ConstantValues(bn.getBias());
  auto mean = f32ConstantValues(bn.getMean()), var = f32ConstantValues(bn.getVar());
  std::optional<SmallVector<float>> bias;
  if (conv.getBias()) {
    bias = f32ConstantValues(conv.getBias());
    if (!bias)
      return success();
  }
  if (!w || !gamma || !beta || !mean || !var)
    return success();
  auto wType = cast<RankedTensorType>(conv.getW().getType());
  int64_t channels = wType.getShape()[0];
  auto at = [&](const SmallVector<float> &v, int64_t c) { return double(v[v.size() == 1 ? 0 : size_t(c)]); };
  double eps = bn.getEpsilonAttr().getValueAsDouble();
  // s = gamma / sqrt(var + eps); w' = w * s; b' = (b - mean) * s + beta, in
  // double, each result checked to be a finite f32.
  SmallVector<double> scale(static_cast<size_t>(channels));
  SmallVector<float> newB(static_cast<size_t>(channels));
  double fmax = double(std::numeric_limits<float>::max());
  for (int64_t c = 0; c < channels; ++c) {
    double denom = at(*var, c) + eps;
    if (!(denom > 0))
      return bn.emitOpError() << "cannot fold into the convolution: var + epsilon = " << denom
                              << " for channel " << c << " is not positive";
    double s = at(*gamma, c) / std::sqrt(denom);
    double b = ((bias ? at(*bias, c) : 0.0) - at(*mean, c)) * s + at(*beta, c);
    if (!std::isfinite(s) || std::fabs(b) > fmax)
      return bn.emitOpError() << "cannot fold into the convolution: channel " << c
                              << " would get a scale of " << s << " and a bias of " << b
                              << ", outside f32";
    scale[size_t(c)] = s;
    newB[size_t(c)] = float(b);
  }
  LogicalResult status = success();
  auto overflow = [&](int64_t c, int64_t i, double v) {
    status = bn.emitOpError() << "cannot fold into the convolution: weight " << i << " of channel "
                              << c << " would become " << v << ", outside f32";
  };
  std::optional<SmallVector<float>> newW =
      scaleByChannel(*w, channels, [&](int64_t c) { return scale[size_t(c)]; }, overflow);
  if (!newW)
    return status;
  replaceWeights(conv, *newW);
  // The conv now computes the normalized result.
  foldIntoConv(conv, newB, conv.getLoc(), bn);
  return success();
}

struct GraphFoldBatchNormPass : npuc::graph::impl::GraphFoldBatchNormBase<GraphFoldBatchNormPass> {
  void runOnOperation() override {
    SmallVector<BatchNormOp> ops;
    getOperation()->walk([&](BatchNormOp op) { ops.push_back(op); });
    bool ok = true;
    for (BatchNormOp op : ops)
      ok &= succeeded(fold(op));
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
