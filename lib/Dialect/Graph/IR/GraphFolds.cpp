//===- GraphFolds.cpp - Folders of graph ops ------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Algebraic identities fold only on unquantized values whose type the fold
// keeps exactly: a quantized x * 1 is a requantization, not a no-op (N10, N11),
// and a fold never changes a result's shape through broadcasting. Operand
// direction is kept: x - 0 folds to x, 0 - x does not (L7). Float x + 0
// folds only for a negative zero: -0 + +0 is +0, so x + (+0) is not x when x
// is -0, while x + (-0), x - (+0), x * 1 and x / 1 are x for every x.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Base/Numerics.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace npuc::graph;

namespace {
enum class Splat { Zero, NegativeZero, One };

/// True when `v` is an unquantized splat constant equal to `which`.
bool isSplat(Value v, Splat which) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return false;
  auto tensorType = cast<RankedTensorType>(v.getType());
  if (isa<quant::QuantizedType>(tensorType.getElementType()))
    return false;
  Type element = attr.getElementType();
  if (isa<FloatType>(element)) {
    APFloat f = attr.getSplatValue<APFloat>();
    if (which == Splat::One)
      return f.compare(APFloat::getOne(f.getSemantics())) == APFloat::cmpEqual;
    return f.isZero() && (which == Splat::Zero || f.isNegative());
  }
  if (isa<IntegerType>(element)) {
    APInt i = attr.getSplatValue<APInt>();
    return which == Splat::One ? i.isOne() : i.isZero();
  }
  return false;
}

/// `keep` may replace the op's result only with exactly the same type.
OpFoldResult foldTo(Value keep, Value result) {
  if (keep.getType() != result.getType() ||
      isa<quant::QuantizedType>(cast<RankedTensorType>(keep.getType()).getElementType()))
    return {};
  return keep;
}
} // namespace

OpFoldResult AddOp::fold(FoldAdaptor) {
  if (isSplat(getRhs(), Splat::NegativeZero))
    return foldTo(getLhs(), getResult());
  if (isSplat(getLhs(), Splat::NegativeZero))
    return foldTo(getRhs(), getResult());
  return {};
}

OpFoldResult SubOp::fold(FoldAdaptor) {
  if (isSplat(getRhs(), Splat::Zero))
    return foldTo(getLhs(), getResult());
  return {};
}

OpFoldResult MulOp::fold(FoldAdaptor) {
  if (isSplat(getRhs(), Splat::One))
    return foldTo(getLhs(), getResult());
  if (isSplat(getLhs(), Splat::One))
    return foldTo(getRhs(), getResult());
  return {};
}

OpFoldResult DivOp::fold(FoldAdaptor) {
  if (isSplat(getRhs(), Splat::One))
    return foldTo(getLhs(), getResult());
  return {};
}

OpFoldResult IdentityOp::fold(FoldAdaptor) {
  if (getInput().getType() == getResult().getType())
    return getInput();
  return {};
}

OpFoldResult ConstantOp::fold(FoldAdaptor) {
  // A ConstantLike op always folds to its value (MLIR's constant matcher
  // asserts it). A quantized constant's value is in its storage type; the
  // folders that look at values refuse quantized types, and
  // GraphDialect::materializeConstant rebuilds the op from the value and the
  // quantized type.
  return getValue();
}

OpFoldResult QuantizeOp::fold(FoldAdaptor adaptor) {
  // ONNX's QuantizeLinear in f32, as V_QUANT computes it (num::quantizeF32).
  // Only finite values fold (the lowering's NaN rule stays the lowering's).
  auto in = dyn_cast_or_null<DenseFPElementsAttr>(adaptor.getInput());
  auto rt = cast<RankedTensorType>(getResult().getType());
  auto qt = dyn_cast<quant::QuantizedType>(rt.getElementType());
  if (!in || !in.getElementType().isF32() || !qt)
    return {};
  std::optional<QuantParameters> params = quantParameters(qt);
  if (!params)
    return {};
  ArrayRef<int64_t> shape = rt.getShape();
  unsigned width = qt.getStorageTypeIntegralWidth();
  SmallVector<APInt> out;
  out.reserve(size_t(rt.getNumElements()));
  int64_t i = 0;
  for (const APFloat &x : in.getValues<APFloat>()) {
    float v = x.convertToFloat();
    if (!std::isfinite(v))
      return {};
    size_t c = params->indexOf(i++, shape);
    int64_t q = num::quantizeF32(v, float(params->scales[c]), float(params->zeroPoints[c]),
                                 qt.getStorageTypeMin(), qt.getStorageTypeMax());
    out.push_back(APInt(width, uint64_t(q), qt.isSigned()));
  }
  return DenseElementsAttr::get(RankedTensorType::get(shape, qt.getStorageType()), out);
}

OpFoldResult StorageCastOp::fold(FoldAdaptor) {
  // storage_cast(storage_cast(x : T) : U) : T is x, with exactly its type.
  if (auto inner = getInput().getDefiningOp<StorageCastOp>())
    if (inner.getInput().getType() == getType())
      return inner.getInput();
  return {};
}
