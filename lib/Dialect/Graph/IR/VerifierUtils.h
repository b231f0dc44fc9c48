//===- VerifierUtils.h - Helpers shared by the graph verifiers --*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_DIALECT_GRAPH_IR_VERIFIERUTILS_H
#define NPUC_LIB_DIALECT_GRAPH_IR_VERIFIERUTILS_H

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"

namespace npuc::graph::detail {
using namespace mlir;
namespace sh = npuc::graph::shapes;
} // namespace npuc::graph::detail

namespace npuc::graph::detail {
inline ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }
inline Type elementOf(Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); }

inline DenseI64ArrayAttr i64s(Operation *op, StringRef name) {
  return op->getAttrOfType<DenseI64ArrayAttr>(name);
}

inline bool flag(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<BoolAttr>(name);
  return attr && attr.getValue();
}

/// A per-axis quantized tensor needs a valid axis and one scale per slice.
inline LogicalResult verifyQuantizedValue(Operation *op, Value v, StringRef what) {
  auto type = cast<RankedTensorType>(v.getType());
  auto perAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(type.getElementType());
  if (!perAxis)
    return success();
  int64_t axis = perAxis.getQuantizedDimension();
  if (axis >= type.getRank())
    return op->emitOpError() << what << " is quantized along axis " << axis
                             << ", but has rank " << type.getRank();
  if (int64_t(perAxis.getScales().size()) != type.getDimSize(axis))
    return op->emitOpError() << what << " has " << perAxis.getScales().size()
                             << " quantization scales along axis " << axis
                             << ", expected one per slice (" << type.getDimSize(axis) << ")";
  return success();
}

/// Checks the quantization of every operand and result.
inline LogicalResult verifyQuantizedValues(Operation *op) {
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (failed(verifyQuantizedValue(op, v, "operand #" + std::to_string(i))))
      return failure();
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (failed(verifyQuantizedValue(op, v, "result #" + std::to_string(i))))
      return failure();
  return success();
}

/// All named values must have the same expressed element type.
inline LogicalResult verifySameExpressed(Operation *op, ArrayRef<std::pair<Value, StringRef>> values) {
  Type first = expressedElementType(values.front().first.getType());
  for (auto [v, name] : values.drop_front())
    if (expressedElementType(v.getType()) != first)
      return op->emitOpError() << name << " has element type " << elementOf(v)
                               << ", which does not express " << first << " like "
                               << values.front().second << " (" << elementOf(values.front().first)
                               << ")";
  return success();
}

inline LogicalResult expectShape(Operation *op, Value v, ArrayRef<int64_t> want, StringRef what) {
  if (shapeOf(v) == want)
    return success();
  return op->emitOpError() << what << " shape " << sh::str(shapeOf(v)) << " does not match the "
                           << "expected " << sh::str(want);
}

inline LogicalResult fromExpected(Operation *op, llvm::Expected<sh::Shape> shape, sh::Shape &out) {
  if (!shape)
    return op->emitOpError(llvm::toString(shape.takeError()));
  out = std::move(*shape);
  return success();
}

/// The operands' quantization is valid and the result has their broadcast shape.
inline LogicalResult verifyBroadcastShape(Operation *op, Value lhs, Value rhs) {
  sh::Shape want;
  if (failed(verifyQuantizedValues(op)) ||
      failed(fromExpected(op, sh::broadcast(shapeOf(lhs), shapeOf(rhs)), want)))
    return failure();
  return expectShape(op, op->getResult(0), want, "result");
}

inline LogicalResult expectRank(Operation *op, Value v, int64_t minRank, StringRef what) {
  int64_t rank = shapeOf(v).size();
  if (rank >= minRank)
    return success();
  return op->emitOpError() << what << " has rank " << rank << ", expected at least " << minRank;
}
/// Data movement keeps quantization: the result's element type is the input's,
/// except that a per-axis type's axis moves to `newAxis` (-1: may not move).
inline LogicalResult verifyMovedElementType(Operation *op, Value in, Value res, int64_t newAxis,
                                            StringRef what) {
  Type a = elementOf(in), b = elementOf(res);
  auto pa = dyn_cast<quant::UniformQuantizedPerAxisType>(a);
  if (!pa) {
    if (a != b)
      return op->emitOpError() << "changes the element type from " << a << " to " << b << " ("
                               << what << " moves values unchanged)";
    return success();
  }
  if (newAxis < 0)
    return op->emitOpError() << "splits or merges axis " << pa.getQuantizedDimension()
                             << ", along which the input is quantized";
  auto pb = dyn_cast<quant::UniformQuantizedPerAxisType>(b);
  if (!pb || pb.getQuantizedDimension() != newAxis)
    return op->emitOpError() << "moves the quantized axis " << pa.getQuantizedDimension()
                             << " to " << newAxis << ", but the result element type is " << b;
  if (pa.getScales() != pb.getScales() || pa.getZeroPoints() != pb.getZeroPoints() ||
      pa.getStorageType() != pb.getStorageType() ||
      pa.getExpressedType() != pb.getExpressedType() || pa.getFlags() != pb.getFlags() ||
      pa.getStorageTypeMin() != pb.getStorageTypeMin() ||
      pa.getStorageTypeMax() != pb.getStorageTypeMax())
    return op->emitOpError() << "changes the per-axis quantization parameters (" << what
                             << " moves values unchanged)";
  return success();
}

} // namespace npuc::graph::detail

#endif
