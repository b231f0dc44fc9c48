//===- GraphFoldDequantize.cpp - Constant weights dequantized at compile time ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHFOLDDEQUANTIZE
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// The f32 values DequantizeLinear computes from `q` (stored integers) of
/// quantized type `qt`: float(q - zero point) * scale, in f32.
std::optional<DenseElementsAttr> dequantized(DenseElementsAttr q, quant::QuantizedType qt,
                                             RankedTensorType result) {
  SmallVector<double> scales;
  SmallVector<int64_t> zps;
  int64_t axis = -1;
  if (auto t = dyn_cast<quant::UniformQuantizedType>(qt)) {
    scales = {t.getScale()};
    zps = {t.getZeroPoint()};
  } else if (auto t = dyn_cast<quant::UniformQuantizedPerAxisType>(qt)) {
    scales.assign(t.getScales().begin(), t.getScales().end());
    zps.assign(t.getZeroPoints().begin(), t.getZeroPoints().end());
    axis = t.getQuantizedDimension();
  } else {
    return std::nullopt;
  }
  ArrayRef<int64_t> shape = result.getShape();
  int64_t inner = 1;
  for (size_t d = size_t(axis + 1); axis >= 0 && d < shape.size(); ++d)
    inner *= shape[d];
  SmallVector<float> out;
  out.reserve(size_t(result.getNumElements()));
  int64_t i = 0;
  for (const APInt &v : q.getValues<APInt>()) {
    size_t c = axis < 0 ? 0 : size_t((i / inner) % shape[size_t(axis)]);
    int64_t stored = qt.isSigned() ? v.getSExtValue() : int64_t(v.getZExtValue());
    out.push_back(float(stored - zps[c]) * float(scales[c]));
    ++i;
  }
  return DenseElementsAttr::get(result, ArrayRef<float>(out));
}

struct GraphFoldDequantizePass
    : npuc::graph::impl::GraphFoldDequantizeBase<GraphFoldDequantizePass> {
  void runOnOperation() override {
    SmallVector<DequantizeOp> ops;
    getOperation()->walk([&](DequantizeOp op) { ops.push_back(op); });
    for (DequantizeOp op : ops) {
      // The input is a storage view of a constant (the importer's form).
      Value in = op.getInput();
      auto qt = dyn_cast<quant::QuantizedType>(cast<RankedTensorType>(in.getType()).getElementType());
      while (auto view = in.getDefiningOp<StorageCastOp>())
        in = view.getInput();
      auto c = in.getDefiningOp<ConstantOp>();
      auto dense = c ? dyn_cast<DenseIntElementsAttr>(c.getValue()) : DenseIntElementsAttr();
      auto result = cast<RankedTensorType>(op.getResult().getType());
      if (!qt || !dense || !result.getElementType().isF32())
        continue;
      std::optional<DenseElementsAttr> value = dequantized(dense, qt, result);
      if (!value)
        continue;
      OpBuilder b(op);
      Value folded = ConstantOp::create(b, op.getLoc(), result, cast<ElementsAttr>(*value));
      op.getResult().replaceAllUsesWith(folded);
      op.erase();
    }
  }
};
} // namespace
