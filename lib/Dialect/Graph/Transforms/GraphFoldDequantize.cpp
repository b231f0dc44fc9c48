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
  std::optional<QuantParameters> p = quantParameters(qt);
  if (!p)
    return std::nullopt;
  ArrayRef<int64_t> shape = result.getShape();
  SmallVector<float> out;
  out.reserve(size_t(result.getNumElements()));
  int64_t i = 0;
  for (const APInt &v : q.getValues<APInt>()) {
    size_t c = p->indexOf(i++, shape);
    int64_t stored = qt.isSigned() ? v.getSExtValue() : int64_t(v.getZExtValue());
    out.push_back(float(stored - p->zeroPoints[c]) * float(p->scales[c]));
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
