//===- Ops.h - Helpers shared by the op importers ---------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_ONNXTOGRAPH_OPS_H
#define NPUC_LIB_CONVERSION_ONNXTOGRAPH_OPS_H

#include "Folding.h"
#include "Importer.h"

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"

namespace npuc::onnx_import {
namespace graph = npuc::graph;
namespace sh = npuc::graph::shapes;

/// Registers the importers of one family (definitions in Ops*.cpp).
void registerElementwiseOps(llvm::StringMap<OpImporter> &table);
void registerNNOps(llvm::StringMap<OpImporter> &table);
void registerTensorOps(llvm::StringMap<OpImporter> &table);
void registerQuantOps(llvm::StringMap<OpImporter> &table);
void registerExtraOps(llvm::StringMap<OpImporter> &table);
void registerIntegerOps(llvm::StringMap<OpImporter> &table);
void registerSequenceOps(llvm::StringMap<OpImporter> &table);
void registerControlOps(llvm::StringMap<OpImporter> &table);
void registerSignalOps(llvm::StringMap<OpImporter> &table);
void registerTrainingOps(llvm::StringMap<OpImporter> &table);
void registerAttentionOps(llvm::StringMap<OpImporter> &table);
void registerScatterOps(llvm::StringMap<OpImporter> &table);
void registerSumOps(llvm::StringMap<OpImporter> &table);
void registerGridSampleOps(llvm::StringMap<OpImporter> &table);
void registerResizeOps(llvm::StringMap<OpImporter> &table);
/// `v` sliced to [start, end) with `step` along `axis`, `length` elements
/// (a negative step runs backwards; end -1 runs to the front): the one-axis
/// graph.slice the compositions build (OpsDecomposed.cpp).
mlir::FailureOr<mlir::Value> sliceAxis(NodeContext &c, mlir::Value v, int64_t axis, int64_t start, int64_t end,
                                       int64_t step, int64_t length);
/// `parts` concatenated along `axis` (the one part itself).
mlir::FailureOr<mlir::Value> concatAxis(NodeContext &c, llvm::ArrayRef<mlir::Value> parts, int64_t axis);
/// A subgraph's input or output: a tensor, or a sequence known at compile
/// time.
struct BodyValue {
  std::optional<Val> tensor;
  std::vector<Val> sequence;
};
/// Imports subgraph `g` (a control-flow body, or a function body npuc builds
/// for a node) with its inputs bound to `inputs` in order and returns its
/// outputs; the subgraph's own names, initializers included, end with it (a
/// local shadowing an outer name gives the outer value back) (OpsControl.cpp).
mlir::FailureOr<std::vector<BodyValue>> importBody(NodeContext &c, const onnx::GraphProto &g,
                                                   llvm::ArrayRef<BodyValue> inputs);
/// A chain of graph ops built for one node: the first failure (already
/// reported by NodeContext::build) turns every later step into a no-op, so
/// a composition checks `ok` once at its end.
struct OpChain {
  NodeContext &c;
  bool ok = true;

  mlir::Value fail() {
    ok = false;
    return {};
  }
  /// Binds `y` as the node's output 0 when every step succeeded.
  llvm::LogicalResult finish(mlir::Value y) {
    if (!ok)
      return mlir::failure();
    c.setOutput(0, y);
    return mlir::success();
  }
  template <typename OpTy>
  mlir::Value op(mlir::ValueRange operands, mlir::Type type, llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    if (!ok)
      return {};
    mlir::FailureOr<mlir::Value> r = c.build<OpTy>(operands, type, attrs);
    return mlir::succeeded(r) ? *r : fail();
  }
  /// sliceAxis [from, to) with step 1.
  mlir::Value slice(mlir::Value v, int64_t axis, int64_t from, int64_t to) {
    if (!ok)
      return {};
    mlir::FailureOr<mlir::Value> r = sliceAxis(c, v, axis, from, to, 1, to - from);
    return mlir::succeeded(r) ? *r : fail();
  }
  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape) {
    if (!ok)
      return {};
    return op<graph::ReshapeOp>({v}, mlir::cast<mlir::RankedTensorType>(v.getType()).clone(shape));
  }
  /// `v` with its axes in the order `perm` (no op for the identity).
  mlir::Value transpose(mlir::Value v, llvm::ArrayRef<int64_t> perm);
  /// graph.reduce_sum of `v` over the sorted `axes`, dropping them.
  mlir::Value sum(mlir::Value v, llvm::ArrayRef<int64_t> axes);
  mlir::Value i64(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> values) {
    auto t = c.tensor(shape, c.b.getI64Type());
    return c.constant(mlir::DenseElementsAttr::get(t, values)).value;
  }
  mlir::Value splat(mlir::Type element, double v) {
    auto t = c.tensor({1}, element);
    if (mlir::isa<mlir::FloatType>(element))
      return c.constant(mlir::DenseElementsAttr::get(t, c.b.getFloatAttr(element, v))).value;
    return c.constant(mlir::DenseElementsAttr::get(t, c.b.getIntegerAttr(element, int64_t(v)))).value;
  }
};

/// Pow of an integer base (OpsDecomposed.cpp).
llvm::LogicalResult importIntegerPow(NodeContext &c, const Val &x, const Val &e);
void registerDecomposedOps(llvm::StringMap<OpImporter> &table);

/// ReduceProd of `x` over the normalized, sorted `axes` (OpsDecomposed.cpp).
llvm::LogicalResult importReduceProd(NodeContext &c, Val x, llvm::ArrayRef<int64_t> axes, bool keep);

/// A constant of the values 0..n-1 of `element` along `axis` of a
/// rank-`rank` tensor ([1, .., n, .., 1]); reports when n is more than npuc
/// builds (OpsDecomposed.cpp).
mlir::FailureOr<Val> iota(NodeContext &c, mlir::Type element, int64_t n, int64_t axis, int64_t rank);

/// The graph op `op` (graphOp<OpTy>) on one input with the input's type.
llvm::LogicalResult importUnary(NodeContext &c, GraphOpBuilder op,
                                llvm::ArrayRef<mlir::NamedAttribute> attrs = {});
/// The graph op `op` on two broadcast inputs; the result has `element`, or
/// the lhs's element type when null.
mlir::FailureOr<mlir::Value> buildBinary(NodeContext &c, GraphOpBuilder op, Val lhs, Val rhs,
                                         mlir::Type element = {});
/// graph.reshape of `v` to `shape`.
mlir::FailureOr<mlir::Value> buildReshape(NodeContext &c, mlir::Value v,
                                          llvm::ArrayRef<int64_t> shape);

/// The normalized geometry of a Conv-like node (Conv, QLinearConv,
/// ConvInteger): strides, explicit pads from auto_pad or pads, dilations,
/// group, and the result shape [N, M, spatial...].
struct ConvGeometry {
  std::vector<int64_t> strides, pads, dilations;
  int64_t group = 1;
  llvm::SmallVector<int64_t> shape;
};
std::optional<ConvGeometry> convGeometry(NodeContext &c, const Val &x, const Val &w);
llvm::SmallVector<mlir::NamedAttribute> convAttrs(NodeContext &c, const ConvGeometry &g);

/// The integer element type that stores values of quantized type `q`.
mlir::Type plainStorage(NodeContext &c, mlir::quant::QuantizedType q);
/// Integer tensor `v` seen as quantized type `q`: a quantized constant when `v`
/// is constant, else a graph.storage_cast.
mlir::FailureOr<mlir::Value> asQuantized(NodeContext &c, const Val &v, mlir::quant::QuantizedType q);
/// The graph op `op` with a result of quantized type `q`, stored back into
/// ONNX's integer tensor as output 0 of the node (QOperator and QuantizeLinear).
llvm::LogicalResult buildQuantizedOutput(NodeContext &c, GraphOpBuilder op,
                                         mlir::ValueRange operands, llvm::ArrayRef<int64_t> shape,
                                         mlir::quant::QuantizedType q,
                                         llvm::ArrayRef<mlir::NamedAttribute> attrs = {});

inline mlir::DenseI64ArrayAttr i64Array(NodeContext &c, llvm::ArrayRef<int64_t> v) {
  return c.b.getDenseI64ArrayAttr(v);
}

} // namespace npuc::onnx_import

#endif
