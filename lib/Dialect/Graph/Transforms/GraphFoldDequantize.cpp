//===- GraphFoldDequantize.cpp - Constant weights dequantized at compile time ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/SetVector.h"

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
      foldDataMovement(folded);
    }
  }

  /// Folds the data movement the weights pass through on their way to
  /// their products (an RNN's slices, transposes and gate padding): the
  /// ops ran on the device when the weights were dequantized at run time,
  /// and graph-simplify, which folds them on constants, has run.
  static void foldDataMovement(Value constant) {
    SmallVector<Value> work{constant}, made{constant};
    while (!work.empty()) {
      Value v = work.pop_back_val();
      // Each user once, also one that reads v twice.
      llvm::SetVector<Operation *> users(llvm::from_range, v.getUsers());
      for (Operation *user : users) {
        if (!llvm::isa<SliceOp, ReshapeOp, TransposeOp, ConcatOp, ExpandOp>(user) ||
            !llvm::all_of(user->getOperands(),
                          [](Value o) { return o.getDefiningOp<ConstantOp>(); }))
          continue;
        SmallVector<OpFoldResult> results;
        if (failed(user->fold(results)) || results.size() != 1)
          continue;
        // A constant, or an operand (a fold that returns its input).
        Value c = dyn_cast<Value>(results.front());
        if (auto attr = dyn_cast_if_present<ElementsAttr>(dyn_cast<Attribute>(results.front()))) {
          OpBuilder b(user);
          c = ConstantOp::create(b, user->getLoc(), user->getResult(0).getType(), attr);
        }
        if (!c || c == user->getResult(0) || c.getType() != user->getResult(0).getType())
          continue;
        user->getResult(0).replaceAllUsesWith(c);
        // Its operands' constants, each once (graph-simplify made a gate's
        // zero columns one constant, which a padded concat reads G times).
        llvm::SetVector<Operation *> defs;
        for (Value o : user->getOperands())
          defs.insert(o.getDefiningOp());
        user->erase();
        for (Operation *def : defs)
          if (def->use_empty() && !llvm::is_contained(made, def->getResult(0)))
            def->erase();
        if (!llvm::is_contained(made, c)) {
          work.push_back(c);
          made.push_back(c);
        }
      }
    }
    // The steps' constants nothing reads any more.
    for (Value c : llvm::reverse(made))
      if (c.use_empty())
        c.getDefiningOp()->erase();
  }
};
} // namespace
