//===- GraphFoldPad.cpp - Spatial zero pads folded into convolutions -------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"

#include <cmath>

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHFOLDPAD
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// Whether padding with `value` (a real value) writes what a convolution's
/// own padding holds for an input of element type `el`: +0.0 for f32, the
/// zero point for a per-tensor quantized type.
bool padsLikeConv(double value, Type el) {
  if (el.isF32())
    return value == 0.0 && !std::signbit(value);
  auto q = dyn_cast<quant::UniformQuantizedType>(el);
  return q && std::nearbyint(value / q.getScale()) == 0.0;
}

struct GraphFoldPadPass : npuc::graph::impl::GraphFoldPadBase<GraphFoldPadPass> {
  void runOnOperation() override {
    SmallVector<ConvOp> convs;
    getOperation()->walk([&](ConvOp op) { convs.push_back(op); });
    for (ConvOp conv : convs) {
      auto pad = conv.getX().getDefiningOp<PadOp>();
      if (!pad || pad.getMode() != "constant")
        continue;
      auto in = cast<RankedTensorType>(pad.getInput().getType());
      auto out = cast<RankedTensorType>(pad.getResult().getType());
      ArrayRef<int64_t> pp = pad.getPads(), cp = conv.getPads();
      // NCHW: pads [n, c, h, w begins, then ends]; the conv's [top, left,
      // bottom, right].
      if (in.getRank() != 4 || pp.size() != 8 || cp.size() != 4 ||
          in.getElementType() != out.getElementType() ||
          !padsLikeConv(pad.getValueAttr().getValueAsDouble(), in.getElementType()) ||
          llvm::any_of(pp, [](int64_t v) { return v < 0; }) || pp[0] || pp[1] || pp[4] || pp[5])
        continue;
      SmallVector<int64_t> pads{cp[0] + pp[2], cp[1] + pp[3], cp[2] + pp[6], cp[3] + pp[7]};
      conv.getXMutable().set(pad.getInput());
      conv.setPads(pads);
      if (pad->use_empty())
        pad.erase();
    }
  }
};
} // namespace
