//===- ConstantEval.cpp - Graph ops on constants, evaluated at import -----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Exporters compute operands from static shapes at run time: Resize sizes as
// Shape -> Gather -> Cast(float) -> Mul -> Floor -> Cast(int64) -> Concat,
// Pad pads through ConstantOfShape, Concat, Reshape, Slice(-1), Transpose and
// Cast, Clip bounds through Cast. With static shapes every such op has only
// constant operands, and the importer replaces it by its value, so that the
// ops that need a constant (Resize, Pad, Clip, Reshape, If) get one.
//
// The evaluation is exact to what the op would compute at run time: float
// ops in the element type's own precision (f32 arithmetic for f32, IEEE
// round to nearest, as VECTOR computes it), int32 exact then saturated
// (VECTOR's rule; ONNX leaves overflow open), other integers wrapped to their
// width as ONNX's integers and the NPU's narrow ones are,
// Cast by ONNX's rules. This is not algebra (contract N11):
// no identity is assumed, quantization does not exist yet at import, and
// only the data movement and exactly rounded arithmetic listed here fold;
// transcendental functions (Exp, Tanh, ...) and f16 do not.
//
//===----------------------------------------------------------------------===//

#include "Folding.h"

#include "npuc/Base/Numerics.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace mlir;
using namespace npuc;
using namespace npuc::onnx_import;

namespace {
/// A constant's elements, row-major: floats as their exact values in
/// `f` (an f32 element is a float widened to double), integers and
/// booleans in `i`.
struct Folded {
  SmallVector<int64_t> shape;
  Type element;
  std::vector<double> f;
  std::vector<int64_t> i;
  bool isFloat() const { return llvm::isa<FloatType>(element); }
  size_t size() const { return isFloat() ? f.size() : i.size(); }
};

bool foldableElement(Type t) {
  return t.isF32() || t.isF64() || llvm::isa<IntegerType>(t);
}

std::optional<Folded> read(Value v) {
  auto c = v.getDefiningOp<graph::ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
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
  return t;
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
  IntTensor it{t.shape, t.i, t.element};
  return toAttr(it);
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

/// One element: a float's exact value or an integer's, never an integer
/// through a double (int64 values past 2^53 would lose bits, and 2^63 has no
/// int64 at all).
struct Num {
  bool isFloat;
  double f = 0;
  int64_t i = 0;
  static Num real(double v) { return {true, v, 0}; }
  static Num integer(int64_t v) { return {false, 0, v}; }
  bool nonzero() const { return isFloat ? f != 0 : i != 0; }
};

/// Index arithmetic of multidirectional broadcasting: the flat index into an
/// operand of `shape` for the result index `idx` (rank of the result).
uint64_t broadcastIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> idx) {
  uint64_t off = 0;
  size_t lead = idx.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d)
    off = off * uint64_t(shape[d]) + uint64_t(shape[d] == 1 ? 0 : idx[lead + d]);
  return off;
}

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

/// The element at `flat` of `t`.
Num at(const Folded &t, uint64_t flat) {
  return t.isFloat() ? Num::real(t.f[flat]) : Num::integer(t.i[flat]);
}

/// A result of `op`'s type, elements from `get(flat result index, index)`.
std::optional<Folded> build(Operation *op, const std::function<std::optional<Num>(
                                               uint64_t, ArrayRef<int64_t>)> &get) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  Folded r{SmallVector<int64_t>(type.getShape()), type.getElementType(), {}, {}};
  if (!foldableElement(r.element) || uint64_t(type.getNumElements()) > kMaxFoldedElements)
    return std::nullopt;
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
  return ok ? std::optional<Folded>(r) : std::nullopt;
}

/// Elementwise ops with broadcasting over the operands `in`; `fn` sees the
/// operands' elements (floats in their precision, integers exactly).
std::optional<Folded> elementwise(Operation *op, ArrayRef<Folded> in,
                                  const std::function<std::optional<Num>(ArrayRef<Num>)> &fn) {
  return build(op, [&](uint64_t, ArrayRef<int64_t> idx) -> std::optional<Num> {
    SmallVector<Num, 3> x;
    for (const Folded &t : in)
      x.push_back(at(t, broadcastIndex(t.shape, idx)));
    return fn(x);
  });
}

/// A binary arithmetic op: f32 operands combined in f32, int32 saturated as
/// VECTOR computes it, other integers in two's complement.
std::optional<Num> arith(char kind, Num a, Num b, Type element) {
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
bool less(Num a, Num b) { return a.isFloat ? a.f < b.f : a.i < b.i; }
bool equal(Num a, Num b) { return a.isFloat ? a.f == b.f : a.i == b.i; }

/// Cast by ONNX's rules: float to integer truncates toward zero (and is not
/// folded out of range), integer to float rounds to nearest, to bool is != 0.
std::optional<Num> castTo(Num v, Type to) {
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

/// Data movement: result element `idx` reads operand element `source(idx)`.
std::optional<Folded> gatherElements(Operation *op, const Folded &x,
                                     const std::function<std::optional<uint64_t>(ArrayRef<int64_t>)> &source) {
  return build(op, [&](uint64_t, ArrayRef<int64_t> idx) -> std::optional<Num> {
    std::optional<uint64_t> s = source(idx);
    if (!s || *s >= x.size())
      return std::nullopt;
    return at(x, *s);
  });
}

uint64_t flatIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> idx) {
  uint64_t off = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    off = off * uint64_t(shape[d]) + uint64_t(idx[d]);
  return off;
}
} // namespace

std::optional<DenseElementsAttr> npuc::onnx_import::evaluateConstant(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumOperands() == 0)
    return std::nullopt;
  SmallVector<Folded, 3> in;
  for (Value v : op->getOperands()) {
    std::optional<Folded> t = read(v);
    if (!t)
      return std::nullopt;
    in.push_back(std::move(*t));
  }
  Type element = in[0].element;
  std::optional<Folded> r;
  auto binary = [&](char kind) {
    return elementwise(op, in, [&](ArrayRef<Num> x) { return arith(kind, x[0], x[1], element); });
  };
  auto compare = [&](const std::function<bool(Num, Num)> &cmp) {
    return elementwise(op, in, [&](ArrayRef<Num> x) -> std::optional<Num> {
      if (x[0].isFloat != x[1].isFloat)
        return std::nullopt;
      return Num::integer(cmp(x[0], x[1]));
    });
  };
  auto unary = [&](const std::function<std::optional<Num>(Num)> &fn) {
    return elementwise(op, in, [&](ArrayRef<Num> x) { return fn(x[0]); });
  };
  /// A float function (integers keep their value: Floor, Ceil and Round of
  /// an integer are the integer).
  auto real = [&](const std::function<double(double)> &fn) {
    return unary([&](Num a) -> std::optional<Num> { return a.isFloat ? Num::real(fn(a.f)) : a; });
  };
  if (llvm::isa<graph::AddOp>(op))
    r = binary('+');
  else if (llvm::isa<graph::SubOp>(op))
    r = binary('-');
  else if (llvm::isa<graph::MulOp>(op))
    r = binary('*');
  else if (llvm::isa<graph::DivOp>(op))
    r = binary('/');
  else if (llvm::isa<graph::MaxOp>(op) || llvm::isa<graph::MinOp>(op)) {
    bool max = llvm::isa<graph::MaxOp>(op);
    r = elementwise(op, in, [&](ArrayRef<Num> x) -> std::optional<Num> {
      if (x[0].isFloat != x[1].isFloat)
        return std::nullopt;
      if (x[0].isFloat && (std::isnan(x[0].f) || std::isnan(x[1].f)))
        return Num::real(NAN);
      return less(x[0], x[1]) == max ? x[1] : x[0];
    });
  } else if (llvm::isa<graph::EqualOp>(op))
    r = compare([](Num a, Num b) { return equal(a, b); });
  else if (llvm::isa<graph::LessOp>(op))
    r = compare([](Num a, Num b) { return less(a, b); });
  else if (llvm::isa<graph::LessOrEqualOp>(op))
    r = compare([](Num a, Num b) { return less(a, b) || equal(a, b); });
  else if (llvm::isa<graph::GreaterOp>(op))
    r = compare([](Num a, Num b) { return less(b, a); });
  else if (llvm::isa<graph::GreaterOrEqualOp>(op))
    r = compare([](Num a, Num b) { return less(b, a) || equal(a, b); });
  else if (llvm::isa<graph::AndOp>(op))
    r = compare([](Num a, Num b) { return a.nonzero() && b.nonzero(); });
  else if (llvm::isa<graph::OrOp>(op))
    r = compare([](Num a, Num b) { return a.nonzero() || b.nonzero(); });
  else if (llvm::isa<graph::XorOp>(op))
    r = compare([](Num a, Num b) { return a.nonzero() != b.nonzero(); });
  else if (llvm::isa<graph::NotOp>(op))
    r = unary([](Num a) -> std::optional<Num> { return Num::integer(!a.nonzero()); });
  else if (llvm::isa<graph::NegOp>(op))
    r = unary([](Num a) -> std::optional<Num> {
      return a.isFloat ? Num::real(-a.f) : Num::integer(int64_t(0 - uint64_t(a.i)));
    });
  else if (llvm::isa<graph::AbsOp>(op))
    r = unary([](Num a) -> std::optional<Num> {
      if (a.isFloat)
        return Num::real(std::fabs(a.f));
      return Num::integer(a.i < 0 ? int64_t(0 - uint64_t(a.i)) : a.i);
    });
  else if (llvm::isa<graph::FloorOp>(op))
    r = real([](double a) { return std::floor(a); });
  else if (llvm::isa<graph::CeilOp>(op))
    r = real([](double a) { return std::ceil(a); });
  else if (llvm::isa<graph::RoundOp>(op))
    r = real([](double a) { return std::nearbyint(a); });
  else if (llvm::isa<graph::SqrtOp>(op))
    r = real([&](double a) { return element.isF32() ? double(std::sqrt(float(a))) : std::sqrt(a); });
  else if (llvm::isa<graph::IdentityOp>(op))
    r = unary([](Num a) -> std::optional<Num> { return a; });
  else if (llvm::isa<graph::CastOp>(op)) {
    Type to = cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
    r = unary([&](Num a) { return castTo(a, to); });
  } else if (llvm::isa<graph::WhereOp>(op)) {
    r = build(op, [&](uint64_t, ArrayRef<int64_t> idx) -> std::optional<Num> {
      bool c = at(in[0], broadcastIndex(in[0].shape, idx)).nonzero();
      const Folded &pick = c ? in[1] : in[2];
      return at(pick, broadcastIndex(pick.shape, idx));
    });
  } else if (llvm::isa<graph::ReshapeOp>(op)) {
    r = build(op, [&](uint64_t e, ArrayRef<int64_t>) -> std::optional<Num> { return at(in[0], e); });
  } else if (auto tr = dyn_cast<graph::TransposeOp>(op)) {
    ArrayRef<int64_t> perm = tr.getPerm();
    r = gatherElements(op, in[0], [&](ArrayRef<int64_t> idx) -> std::optional<uint64_t> {
      SmallVector<int64_t> src(idx.size());
      for (size_t d = 0; d < perm.size(); ++d)
        src[size_t(perm[d])] = idx[d];
      return flatIndex(in[0].shape, src);
    });
  } else if (auto sl = dyn_cast<graph::SliceOp>(op)) {
    ArrayRef<int64_t> starts = sl.getStarts(), steps = sl.getSteps();
    r = gatherElements(op, in[0], [&](ArrayRef<int64_t> idx) -> std::optional<uint64_t> {
      SmallVector<int64_t> src(idx.size());
      for (size_t d = 0; d < idx.size(); ++d) {
        src[d] = starts[d] + idx[d] * steps[d];
        if (src[d] < 0 || src[d] >= in[0].shape[d])
          return std::nullopt;
      }
      return flatIndex(in[0].shape, src);
    });
  } else if (llvm::isa<graph::ExpandOp>(op)) {
    r = gatherElements(op, in[0], [&](ArrayRef<int64_t> idx) -> std::optional<uint64_t> {
      return broadcastIndex(in[0].shape, idx);
    });
  } else if (auto cat = dyn_cast<graph::ConcatOp>(op)) {
    size_t axis = size_t(cat.getAxis());
    r = build(op, [&](uint64_t, ArrayRef<int64_t> idx) -> std::optional<Num> {
      int64_t k = idx[axis];
      for (const Folded &t : in) {
        if (k < t.shape[axis]) {
          SmallVector<int64_t> src(idx);
          src[axis] = k;
          return at(t, flatIndex(t.shape, src));
        }
        k -= t.shape[axis];
      }
      return std::nullopt;
    });
  } else if (auto g = dyn_cast<graph::GatherOp>(op)) {
    size_t axis = size_t(g.getAxis()), q = in[1].shape.size();
    r = gatherElements(op, in[0], [&](ArrayRef<int64_t> idx) -> std::optional<uint64_t> {
      // result [data[:axis], indices..., data[axis+1:]]
      SmallVector<int64_t> iidx(idx.begin() + long(axis), idx.begin() + long(axis + q));
      Num index = at(in[1], flatIndex(in[1].shape, iidx));
      if (index.isFloat)
        return std::nullopt;
      int64_t k = index.i;
      if (k < 0)
        k += in[0].shape[axis];
      if (k < 0 || k >= in[0].shape[axis])
        return std::nullopt;
      SmallVector<int64_t> src(idx.begin(), idx.begin() + long(axis));
      src.push_back(k);
      src.append(idx.begin() + long(axis + q), idx.end());
      return flatIndex(in[0].shape, src);
    });
  } else {
    return std::nullopt;
  }
  if (!r)
    return std::nullopt;
  return write(*r);
}
