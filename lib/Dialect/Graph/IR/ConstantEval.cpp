//===- ConstantEval.cpp - Exact evaluation of graph ops on constants -----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ConstantEval.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Dialect/Graph/IR/ConstantFolding.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace mlir;
using namespace npuc::graph;
using namespace npuc::graph::eval;

namespace {
bool foldableElement(Type t) {
  return t.isF32() || t.isF64() || llvm::isa<IntegerType>(t);
}

/// An integer element of type `t` as int64 (zero-extended when unsigned or i1).
int64_t intValue(const APInt &v, Type t) {
  return t.isUnsignedInteger() || t.isInteger(1) ? int64_t(v.getZExtValue()) : v.getSExtValue();
}

DenseElementsAttr write(const Folded &t) {
  auto type = RankedTensorType::get(t.shape, t.element);
  if (t.isFloat()) {
    if (t.element.isF32()) {
      SmallVector<float> v(t.f.begin(), t.f.end());
      return DenseElementsAttr::get(type, ArrayRef<float>(v));
    }
    return DenseElementsAttr::get(type, ArrayRef<double>(t.f));
  }
  return intElements(type, t.i);
}

/// `v` wrapped to the width and signedness of integer type `t` (i1: 0 or 1).
int64_t wrap(int64_t v, Type t) {
  auto it = cast<IntegerType>(t);
  unsigned w = it.getWidth();
  if (w == 1)
    return v != 0;
  if (w >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << w) - 1, u = uint64_t(v) & mask;
  if (it.isUnsigned() || !(u >> (w - 1)))
    return int64_t(u);
  return int64_t(u | ~mask);
}

/// A float result in `t`'s precision.
double round(double v, Type t) { return t.isF32() ? double(float(v)) : v; }

/// Calls fn(flat result index, result index) over `shape`.
void forEachIndex(ArrayRef<int64_t> shape,
                  const std::function<void(uint64_t, ArrayRef<int64_t>)> &fn) {
  SmallVector<int64_t> idx(shape.size(), 0);
  uint64_t n = 1;
  for (int64_t d : shape)
    n *= uint64_t(d);
  for (uint64_t e = 0; e < n; ++e) {
    fn(e, idx);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
}

} // namespace

std::optional<SmallVector<Folded, 3>> eval::operands(Operation *op, ArrayRef<Attribute> attrs) {
  if (op->getNumResults() != 1 || attrs.empty() || attrs.size() != op->getNumOperands())
    return std::nullopt;
  SmallVector<Folded, 3> in;
  for (auto [v, attr] : llvm::zip(op->getOperands(), attrs)) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
    auto type = cast<RankedTensorType>(v.getType());
    if (!dense || !foldableElement(type.getElementType()) ||
        uint64_t(type.getNumElements()) > kMaxFoldedElements)
      return std::nullopt;
    Folded t{SmallVector<int64_t>(type.getShape()), type.getElementType(), {}, {}};
    if (t.isFloat())
      for (const APFloat &x : dense.getValues<APFloat>())
        t.f.push_back(x.convertToDouble());
    else
      for (const APInt &x : dense.getValues<APInt>())
        t.i.push_back(intValue(x, t.element));
    in.push_back(std::move(t));
  }
  return in;
}

/// Index arithmetic of multidirectional broadcasting: the flat index into an
/// operand of `shape` for the result index `idx` (rank of the result).
uint64_t eval::broadcastIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> idx) {
  uint64_t off = 0;
  size_t lead = idx.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d)
    off = off * uint64_t(shape[d]) + uint64_t(shape[d] == 1 ? 0 : idx[lead + d]);
  return off;
}

uint64_t eval::flatIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> idx) {
  uint64_t off = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    off = off * uint64_t(shape[d]) + uint64_t(idx[d]);
  return off;
}

/// The element at `flat` of `t`.
Num eval::at(const Folded &t, uint64_t flat) {
  return t.isFloat() ? Num::real(t.f[flat]) : Num::integer(t.i[flat]);
}

OpFoldResult eval::build(Operation *op, IndexFn get) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Folded r{SmallVector<int64_t>(type.getShape()), type.getElementType(), {}, {}};
  if (!foldableElement(r.element) || uint64_t(type.getNumElements()) > kMaxFoldedElements)
    return {};
  bool ok = true;
  forEachIndex(r.shape, [&](uint64_t e, ArrayRef<int64_t> idx) {
    std::optional<Num> v = ok ? get(e, idx) : std::nullopt;
    // Only Cast changes between float and integer, and it converts itself.
    if (!v || v->isFloat != r.isFloat()) {
      ok = false;
      return;
    }
    if (r.isFloat())
      r.f.push_back(round(v->f, r.element));
    else
      r.i.push_back(wrap(v->i, r.element));
  });
  if (!ok)
    return {};
  return write(r);
}

OpFoldResult eval::elementwise(Operation *op, ArrayRef<Folded> in, ElementFn fn) {
  return build(op, [&](uint64_t, ArrayRef<int64_t> idx) -> std::optional<Num> {
    SmallVector<Num, 3> x;
    for (const Folded &t : in)
      x.push_back(at(t, broadcastIndex(t.shape, idx)));
    return fn(x);
  });
}

OpFoldResult eval::gatherElements(Operation *op, const Folded &x, SourceFn source) {
  return build(op, [&](uint64_t, ArrayRef<int64_t> idx) -> std::optional<Num> {
    std::optional<uint64_t> s = source(idx);
    if (!s || *s >= x.size())
      return std::nullopt;
    return at(x, *s);
  });
}

/// A binary arithmetic op: f32 operands combined in f32, int32 saturated as
/// VECTOR computes it, other integers in two's complement.
std::optional<Num> eval::arith(char kind, Num a, Num b, Type element) {
  if (a.isFloat != b.isFloat)
    return std::nullopt;
  if (a.isFloat && element.isF32()) {
    float x = float(a.f), y = float(b.f);
    switch (kind) {
    case '+': return Num::real(double(x + y));
    case '-': return Num::real(double(x - y));
    case '*': return Num::real(double(x * y));
    case '/': return Num::real(double(x / y));
    }
  }
  if (a.isFloat) {
    switch (kind) {
    case '+': return Num::real(a.f + b.f);
    case '-': return Num::real(a.f - b.f);
    case '*': return Num::real(a.f * b.f);
    case '/': return Num::real(a.f / b.f);
    }
  }
  // Integers as the lowered op computes them (docs/numerics.md): int32 by
  // VECTOR's ADD, SUB, MUL, DIV, exact and then saturated; every other width
  // wraps, as ONNX's integers do (build() wraps the result to the width):
  // int8, uint8, int16 and uint16 run in int32 on the NPU and are wrapped
  // there too. An int64 fold is exact in ONNX's terms; int64 is int32 on
  // chip, and a constant beyond int32 is refused when it reaches the NPU
  // (NPUC-E0401).
  auto it = cast<IntegerType>(element);
  if (it.getWidth() == 32 && !it.isUnsigned()) {
    int64_t x = a.i, y = b.i;  // int32 values: no int64 result overflows
    switch (kind) {
    case '+': return Num::integer(num::saturateI32(x + y));
    case '-': return Num::integer(num::saturateI32(x - y));
    case '*': return Num::integer(num::saturateI32(x * y));
    case '/':
      // Division by zero is a fault at run time: left to it.
      if (y == 0)
        return std::nullopt;
      return Num::integer(num::saturateI32(x / y));  // truncates toward zero
    }
    return std::nullopt;
  }
  uint64_t x = uint64_t(a.i), y = uint64_t(b.i);
  switch (kind) {
  case '+': return Num::integer(int64_t(x + y));
  case '-': return Num::integer(int64_t(x - y));
  case '*': return Num::integer(int64_t(x * y));
  case '/':
    // Division by zero and INT64_MIN / -1 have no int64 result: left to run
    // time (and its diagnostics).
    if (b.i == 0 || (b.i == -1 && a.i == std::numeric_limits<int64_t>::min()))
      return std::nullopt;
    return Num::integer(a.i / b.i);  // truncates toward zero, as onnxruntime
  }
  return std::nullopt;
}

/// a < b, a == b for two elements of one type (NaN compares false).
bool eval::less(Num a, Num b) { return a.isFloat ? a.f < b.f : a.i < b.i; }
bool eval::equal(Num a, Num b) { return a.isFloat ? a.f == b.f : a.i == b.i; }

/// Cast by ONNX's rules: float to integer truncates toward zero (and is not
/// folded out of range), integer to float rounds to nearest, to bool is != 0.
std::optional<Num> eval::castTo(Num v, Type to) {
  if (auto it = dyn_cast<IntegerType>(to)) {
    if (it.getWidth() == 1)
      return Num::integer(v.nonzero());
    if (v.isFloat) {
      if (!std::isfinite(v.f) || std::fabs(v.f) >= 9.2e18)
        return std::nullopt;
      return Num::integer(wrap(int64_t(std::trunc(v.f)), to));
    }
    return Num::integer(wrap(v.i, to));
  }
  if (v.isFloat)
    return Num::real(round(v.f, to));
  // One rounding, from the integer itself to the destination's precision.
  return Num::real(to.isF32() ? double(float(v.i)) : double(v.i));
}

DenseElementsAttr npuc::graph::intElements(RankedTensorType type, ArrayRef<int64_t> values) {
  Type element = type.getElementType();
  if (element.isInteger(1)) {
    SmallVector<bool> bits;
    for (int64_t v : values)
      bits.push_back(v != 0);
    return DenseElementsAttr::get(type, ArrayRef<bool>(bits));
  }
  unsigned width = element.getIntOrFloatBitWidth();
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(width, uint64_t(v), /*isSigned=*/!element.isUnsignedInteger(),
                         /*implicitTrunc=*/true));
  return DenseElementsAttr::get(type, ints);
}

std::optional<DenseElementsAttr> npuc::graph::foldToConstant(Operation *op) {
  auto quantized = [](Type t) {
    return llvm::isa<quant::QuantizedType>(cast<ShapedType>(t).getElementType());
  };
  if (op->getNumResults() != 1 || op->getNumOperands() == 0 ||
      llvm::any_of(op->getOperandTypes(), quantized) || llvm::any_of(op->getResultTypes(), quantized))
    return std::nullopt;
  SmallVector<Attribute, 3> attrs;
  for (Value v : op->getOperands()) {
    Attribute a;
    if (!matchPattern(v, m_Constant(&a)))
      return std::nullopt;
    attrs.push_back(a);
  }
  SmallVector<OpFoldResult, 1> results;
  if (failed(op->fold(attrs, results)) || results.size() != 1)
    return std::nullopt;
  auto value = dyn_cast_or_null<DenseElementsAttr>(dyn_cast<Attribute>(results[0]));
  if (!value || value.getType() != op->getResult(0).getType())
    return std::nullopt;
  return value;
}
