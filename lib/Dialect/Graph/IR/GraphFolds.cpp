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
// An op whose operands are all constants evaluates exactly first
// (ConstantEval.h): its value, computed as the op would run.
//
//===----------------------------------------------------------------------===//

#include "ConstantEval.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Base/Numerics.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <functional>

using namespace mlir;
using namespace npuc::graph;
using eval::Folded;
using eval::Num;

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
/// An elementwise op on constant operands: `fn` of their elements.
OpFoldResult evaluate(Operation *op, ArrayRef<Attribute> attrs, eval::ElementFn fn) {
  std::optional<SmallVector<Folded, 3>> in = eval::operands(op, attrs);
  return in ? eval::elementwise(op, *in, fn) : OpFoldResult();
}

/// Add, Sub, Mul, Div on constants.
OpFoldResult arithmetic(Operation *op, ArrayRef<Attribute> attrs, char kind) {
  Type element = cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  return evaluate(op, attrs, [&](ArrayRef<Num> x) { return eval::arith(kind, x[0], x[1], element); });
}

/// A comparison or logic op on constants: a boolean of two elements.
OpFoldResult predicate(Operation *op, ArrayRef<Attribute> attrs,
                       llvm::function_ref<bool(Num, Num)> fn) {
  return evaluate(op, attrs, [&](ArrayRef<Num> x) -> std::optional<Num> {
    if (x[0].isFloat != x[1].isFloat)
      return std::nullopt;
    return Num::integer(fn(x[0], x[1]));
  });
}

/// A unary op on constants.
OpFoldResult unary(Operation *op, ArrayRef<Attribute> attrs,
                   llvm::function_ref<std::optional<Num>(Num)> fn) {
  return evaluate(op, attrs, [&](ArrayRef<Num> x) { return fn(x[0]); });
}

/// A float function on constants (integers keep their value: Floor, Ceil
/// and Round of an integer are the integer).
OpFoldResult real(Operation *op, ArrayRef<Attribute> attrs, llvm::function_ref<double(double)> fn) {
  return unary(op, attrs, [&](Num a) { return a.isFloat ? Num::real(fn(a.f)) : a; });
}

/// Data movement on a constant: result element `idx` is operand 0's element
/// source(operands, idx).
OpFoldResult move(Operation *op, ArrayRef<Attribute> attrs,
                  llvm::function_ref<std::optional<uint64_t>(ArrayRef<Folded>, ArrayRef<int64_t>)> source) {
  std::optional<SmallVector<Folded, 3>> in = eval::operands(op, attrs);
  if (!in)
    return {};
  return eval::gatherElements(op, (*in)[0], [&](ArrayRef<int64_t> idx) { return source(*in, idx); });
}
} // namespace

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult value = arithmetic(*this, adaptor.getOperands(), '+'))
    return value;
  if (isSplat(getRhs(), Splat::NegativeZero))
    return foldTo(getLhs(), getResult());
  if (isSplat(getLhs(), Splat::NegativeZero))
    return foldTo(getRhs(), getResult());
  return {};
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult value = arithmetic(*this, adaptor.getOperands(), '-'))
    return value;
  if (isSplat(getRhs(), Splat::Zero))
    return foldTo(getLhs(), getResult());
  return {};
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult value = arithmetic(*this, adaptor.getOperands(), '*'))
    return value;
  if (isSplat(getRhs(), Splat::One))
    return foldTo(getLhs(), getResult());
  if (isSplat(getLhs(), Splat::One))
    return foldTo(getRhs(), getResult());
  return {};
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult value = arithmetic(*this, adaptor.getOperands(), '/'))
    return value;
  if (isSplat(getRhs(), Splat::One))
    return foldTo(getLhs(), getResult());
  return {};
}

OpFoldResult IdentityOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult value = unary(*this, adaptor.getOperands(), [](Num a) { return a; }))
    return value;
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

OpFoldResult BitcastOp::fold(FoldAdaptor adaptor) {
  auto value = llvm::dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  if (!value)
    return {};
  return value.bitcast(getType().getElementType());
}

//===----------------------------------------------------------------------===//
// Exact evaluation on constants (ConstantEval.h)
//===----------------------------------------------------------------------===//

namespace {
/// Max and Min: NaN if either is NaN, else the larger (smaller) element.
OpFoldResult extremum(Operation *op, ArrayRef<Attribute> attrs, bool max) {
  return evaluate(op, attrs, [&](ArrayRef<Num> x) -> std::optional<Num> {
    if (x[0].isFloat != x[1].isFloat)
      return std::nullopt;
    if (x[0].isFloat && (std::isnan(x[0].f) || std::isnan(x[1].f)))
      return Num::real(NAN);
    return eval::less(x[0], x[1]) == max ? x[1] : x[0];
  });
}
} // namespace

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) { return extremum(*this, adaptor.getOperands(), true); }
OpFoldResult MinOp::fold(FoldAdaptor adaptor) { return extremum(*this, adaptor.getOperands(), false); }

OpFoldResult EqualOp::fold(FoldAdaptor adaptor) {
  return predicate(*this, adaptor.getOperands(), eval::equal);
}
OpFoldResult LessOp::fold(FoldAdaptor adaptor) {
  return predicate(*this, adaptor.getOperands(), eval::less);
}
OpFoldResult LessOrEqualOp::fold(FoldAdaptor adaptor) {
  return predicate(*this, adaptor.getOperands(),
                   [](Num a, Num b) { return eval::less(a, b) || eval::equal(a, b); });
}
OpFoldResult GreaterOp::fold(FoldAdaptor adaptor) {
  return predicate(*this, adaptor.getOperands(), [](Num a, Num b) { return eval::less(b, a); });
}
OpFoldResult GreaterOrEqualOp::fold(FoldAdaptor adaptor) {
  return predicate(*this, adaptor.getOperands(),
                   [](Num a, Num b) { return eval::less(b, a) || eval::equal(a, b); });
}
namespace {
bool isBool(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType()).getElementType().isInteger(1);
}
/// And, Or and Xor of integers (BitwiseAnd, BitwiseOr, BitwiseXor), each
/// result wrapped to its type.
OpFoldResult bitwise(Operation *op, ArrayRef<Attribute> attrs, int64_t (*fn)(int64_t, int64_t)) {
  return evaluate(op, attrs, [&](ArrayRef<Num> x) -> std::optional<Num> {
    if (x[0].isFloat || x[1].isFloat)
      return std::nullopt;
    return Num::integer(fn(x[0].i, x[1].i));
  });
}
} // namespace

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  if (!isBool(*this))
    return bitwise(*this, adaptor.getOperands(), [](int64_t a, int64_t b) { return a & b; });
  return predicate(*this, adaptor.getOperands(), [](Num a, Num b) { return a.nonzero() && b.nonzero(); });
}
OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (!isBool(*this))
    return bitwise(*this, adaptor.getOperands(), [](int64_t a, int64_t b) { return a | b; });
  return predicate(*this, adaptor.getOperands(), [](Num a, Num b) { return a.nonzero() || b.nonzero(); });
}
OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  if (!isBool(*this))
    return bitwise(*this, adaptor.getOperands(), [](int64_t a, int64_t b) { return a ^ b; });
  return predicate(*this, adaptor.getOperands(), [](Num a, Num b) { return a.nonzero() != b.nonzero(); });
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  bool boolean = isBool(*this);
  return unary(*this, adaptor.getOperands(), [&](Num a) -> std::optional<Num> {
    if (a.isFloat)
      return std::nullopt;
    return Num::integer(boolean ? int64_t(!a.nonzero()) : ~a.i);
  });
}
OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  return unary(*this, adaptor.getOperands(), [](Num a) -> std::optional<Num> {
    return a.isFloat ? Num::real(-a.f) : Num::integer(int64_t(0 - uint64_t(a.i)));
  });
}
OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  return unary(*this, adaptor.getOperands(), [](Num a) -> std::optional<Num> {
    if (a.isFloat)
      return Num::real(std::fabs(a.f));
    return Num::integer(a.i < 0 ? int64_t(0 - uint64_t(a.i)) : a.i);
  });
}
OpFoldResult ReluOp::fold(FoldAdaptor adaptor) {
  // max(x, 0) as VECTOR's RELU: -0 gives +0, NaN stays NaN.
  return unary(*this, adaptor.getOperands(), [](Num a) -> std::optional<Num> {
    if (a.isFloat)
      return a.f <= 0 ? Num::real(0.0) : a;
    return a.i < 0 ? Num::integer(0) : a;
  });
}
OpFoldResult FloorOp::fold(FoldAdaptor adaptor) {
  return real(*this, adaptor.getOperands(), [](double a) { return std::floor(a); });
}
OpFoldResult CeilOp::fold(FoldAdaptor adaptor) {
  return real(*this, adaptor.getOperands(), [](double a) { return std::ceil(a); });
}
OpFoldResult RoundOp::fold(FoldAdaptor adaptor) {
  return real(*this, adaptor.getOperands(), [](double a) { return std::nearbyint(a); });
}
OpFoldResult SqrtOp::fold(FoldAdaptor adaptor) {
  bool f32 = getType().getElementType().isF32();
  return real(*this, adaptor.getOperands(),
              [&](double a) { return f32 ? double(std::sqrt(float(a))) : std::sqrt(a); });
}
OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  Type to = getType().getElementType();
  return unary(*this, adaptor.getOperands(), [&](Num a) { return eval::castTo(a, to); });
}

OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  std::optional<SmallVector<Folded, 3>> in = eval::operands(*this, adaptor.getOperands());
  if (!in)
    return {};
  return eval::build(*this, [&](uint64_t, ArrayRef<int64_t> idx) -> std::optional<Num> {
    bool c = eval::at((*in)[0], eval::broadcastIndex((*in)[0].shape, idx)).nonzero();
    const Folded &pick = c ? (*in)[1] : (*in)[2];
    return eval::at(pick, eval::broadcastIndex(pick.shape, idx));
  });
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  std::optional<SmallVector<Folded, 3>> in = eval::operands(*this, adaptor.getOperands());
  if (!in)
    return {};
  // Row-major on both sides: element e is element e.
  return eval::build(*this, [&](uint64_t e, ArrayRef<int64_t>) -> std::optional<Num> {
    return e < (*in)[0].size() ? std::optional<Num>(eval::at((*in)[0], e)) : std::nullopt;
  });
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> perm = getPerm();
  return move(*this, adaptor.getOperands(), [&](ArrayRef<Folded> in, ArrayRef<int64_t> idx) {
    SmallVector<int64_t> src(idx.size());
    for (size_t d = 0; d < perm.size(); ++d)
      src[size_t(perm[d])] = idx[d];
    return std::optional<uint64_t>(eval::flatIndex(in[0].shape, src));
  });
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> starts = getStarts(), steps = getSteps();
  return move(*this, adaptor.getOperands(),
              [&](ArrayRef<Folded> in, ArrayRef<int64_t> idx) -> std::optional<uint64_t> {
                SmallVector<int64_t> src(idx.size());
                for (size_t d = 0; d < idx.size(); ++d) {
                  src[d] = starts[d] + idx[d] * steps[d];
                  if (src[d] < 0 || src[d] >= in[0].shape[d])
                    return std::nullopt;
                }
                return eval::flatIndex(in[0].shape, src);
              });
}

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  return move(*this, adaptor.getOperands(), [](ArrayRef<Folded> in, ArrayRef<int64_t> idx) {
    return std::optional<uint64_t>(eval::broadcastIndex(in[0].shape, idx));
  });
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  std::optional<SmallVector<Folded, 3>> in = eval::operands(*this, adaptor.getOperands());
  if (!in)
    return {};
  size_t axis = size_t(getAxis());
  return eval::build(*this, [&](uint64_t, ArrayRef<int64_t> idx) -> std::optional<Num> {
    int64_t k = idx[axis];
    for (const Folded &t : *in) {
      if (k < t.shape[axis]) {
        SmallVector<int64_t> src(idx);
        src[axis] = k;
        return eval::at(t, eval::flatIndex(t.shape, src));
      }
      k -= t.shape[axis];
    }
    return std::nullopt;
  });
}

std::optional<SmallVector<int64_t>> npuc::graph::constantGatherSources(GatherOp op,
                                                                  std::optional<int64_t> *outside) {
  auto known = op.getIndices().getDefiningOp<ConstantOp>();
  auto ids = known ? dyn_cast<DenseIntElementsAttr>(known.getValue()) : DenseIntElementsAttr();
  if (!ids)
    return std::nullopt;
  int64_t V = cast<RankedTensorType>(op.getData().getType()).getShape()[size_t(op.getAxis())];
  SmallVector<int64_t> src;
  for (const APInt &x : ids.getValues<APInt>()) {
    int64_t id = x.getSExtValue();
    if (id < -V || id >= V) {
      if (outside)
        *outside = id;
      return std::nullopt;
    }
    src.push_back(id < 0 ? id + V : id);
  }
  return src;
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  size_t axis = size_t(getAxis());
  return move(*this, adaptor.getOperands(),
              [&](ArrayRef<Folded> in, ArrayRef<int64_t> idx) -> std::optional<uint64_t> {
                // result [data[:axis], indices..., data[axis+1:]]
                size_t q = in[1].shape.size();
                SmallVector<int64_t> iidx(idx.begin() + long(axis), idx.begin() + long(axis + q));
                Num index = eval::at(in[1], eval::flatIndex(in[1].shape, iidx));
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
                return eval::flatIndex(in[0].shape, src);
              });
}
