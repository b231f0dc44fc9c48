//===- PowKernels.cpp - Pow in f32 ------------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// ONNX Pow on f32 bases: a constant exponent that is a small integer or 1/2
// is IEEE arithmetic (x * x, sqrt: correctly rounded; the cube rounds
// twice); any other exponent is
// exp(y * log|x|) with C's pow rules for negative and zero bases, built from
// VECTOR arithmetic without a select (docs/numerics.md, "Pow").
//
//===----------------------------------------------------------------------===//

#include "KernelPattern.h"

#include <cmath>

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

// The selectors, case spaces and plans of this file's patterns.
namespace npuc::emit::lowering {
LogicalResult selectPow(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &powSpace();
LogicalResult planPow(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
} // namespace npuc::emit::lowering

namespace {

/// qk.pow: x to the power y in f32 (exact IEEE operations for a constant
/// exponent of 0, 0.5, +-1, 2 or 3; exp(y * log x) otherwise).
struct PowPattern : OpKernelPattern<qk::PowOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectPow;
  static constexpr SpaceOf space = powSpace;
  static constexpr PlanFn plan = planPow;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

} // namespace

void lowering::populatePowPatterns(KernelPatterns &patterns) {
  patterns.add<PowPattern>();
}

namespace {
/// The exponent's one value when it is a constant whose elements are all
/// equal (a scalar, or a splat of any shape).
std::optional<double> constantExponent(Value y) {
  auto c = y.getDefiningOp<graph::ConstantOp>();
  if (!c)
    return std::nullopt;
  auto values = dyn_cast<DenseElementsAttr>(c.getValue());
  if (!values || values.getNumElements() == 0)
    return std::nullopt;
  std::optional<double> first;
  auto same = [&](double v) {
    if (!first)
      first = v;
    return *first == v || (std::isnan(*first) && std::isnan(v));
  };
  if (llvm::isa<FloatType>(values.getElementType())) {
    for (const APFloat &f : values.getValues<APFloat>())
      if (!same(f.convertToDouble()))
        return std::nullopt;
  } else if (auto it = dyn_cast<IntegerType>(values.getElementType())) {
    for (const APInt &i : values.getValues<APInt>())
      if (!same(double(it.isUnsigned() ? int64_t(i.getZExtValue()) : i.getSExtValue())))
        return std::nullopt;
  } else {
    return std::nullopt;
  }
  return first;
}

/// How a constant exponent is computed: exactly by IEEE operations, or
/// through exp and log.
PowForm constantForm(double k) {
  if (k == 1.0)
    return PowForm::Identity;
  if (k == 2.0)
    return PowForm::Square;
  if (k == 3.0)
    return PowForm::Cube;
  if (k == 0.5)
    return PowForm::Sqrt;
  if (k == -1.0)
    return PowForm::Reciprocal;
  if (k == 0.0)
    return PowForm::One;
  return PowForm::ExpLog;
}
} // namespace

const CaseSpace &lowering::powSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"f32,E->f32", {{"E", {"f32", "i8", "ui8", "i16", "ui16", "i32", "ui32"}}}}};
    s.properties = {
        kExponent.declare(),
        kPowForm.declare(kExponent({Exponent::Constant})),
        kIntegerExponent.declare(kExponent({Exponent::Tensor})),
        kBroadcast.declare(kExponent({Exponent::Tensor}))};
    s.rules = {never(cond::all({kPowForm({PowForm::Sqrt}), cond::negate(cond::operand(1, {"f32"}))}),
                     "an integer exponent is not 1/2"),
               never(cond::all({kPowForm({PowForm::Reciprocal}), cond::operand(1, {"ui8", "ui16", "ui32"})}),
                     "an unsigned exponent is not -1"),
               never(cond::any({cond::all({kIntegerExponent(), cond::operand(1, {"f32"})}),
                                cond::all({kIntegerExponent(false),
                                           cond::negate(cond::operand(1, {"f32"}))})}),
                     "integer-exponent is the exponent's type")};
    return s;
  }();
  return space;
}

/// f32 bases and results; the exponent f32 or an integer, a constant of one
/// value (its form recorded) or a tensor (broadcast like any binary op).
LogicalResult lowering::selectPow(LoweringCase &c, const target::TargetInfo &) {
  auto op = cast<qk::PowOp>(c.op);
  Type xe = tensorOf(op.getLhs()).getElementType(), ye = tensorOf(op.getRhs()).getElementType();
  if (!xe.isF32() || !tensorOf(op.getResult()).getElementType().isF32())
    return op->emitOpError() << "Pow of " << xe
                             << " bases has no NPU lowering yet (f32 bases only)";
  if (quantOf(ye) || !(ye.isF32() || ye.isInteger(32) || ye.isInteger(8) || ye.isInteger(16)))
    return op->emitOpError() << "Pow with a " << ye
                             << " exponent has no NPU lowering yet (f32 or a 32-bit or narrower "
                                "integer)";
  if (std::optional<double> k = constantExponent(op.getRhs())) {
    c.choose(kExponent, Exponent::Constant);
    c.choose(kPowForm, constantForm(*k));
    return success();
  }
  c.choose(kExponent, Exponent::Tensor);
  c.flag(kIntegerExponent, !ye.isF32());
  ArrayRef<int64_t> shape = tensorOf(op.getResult()).getShape();
  c.flag(kBroadcast, tensorOf(op.getLhs()).getShape() != shape ||
                          tensorOf(op.getRhs()).getShape() != shape);
  return success();
}

/// A constant exponent: an f32 map (exp and log: 8 passes; the others at
/// most 3). A tensor exponent: one nest over the result, 28 passes.
LogicalResult lowering::planPow(const LoweringCase &c, const target::TargetInfo &,
                                IterationSpaces &s) {
  auto op = cast<qk::PowOp>(c.op);
  if (c.get(kExponent) == Exponent::Constant)
    return planF32Map(op, s, c.get(kPowForm) == PowForm::ExpLog ? 8 : 3);
  ArrayRef<int64_t> shape = tensorOf(op.getResult()).getShape();
  return addNest(op, s, shape, {broadcastAccess(op.getLhs(), shape), broadcastAccess(op.getRhs(), shape)},
                 denseAccess(op.getResult()), EwWork{7 * 4, 28});
}

LogicalResult PowPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::PowOp>(c.op);
  Value x = op.getLhs(), y = op.getRhs(), res = op.getResult();
  auto f32 = [&](float v) { return b.getF32FloatAttr(v); };
  auto scratch = [&](Value like) {
    ArrayRef<int64_t> s = cast<BufferType>(like.getType()).getShape();
    return e.tile(MemorySpace::LM, s[0], s[1], b.getF32Type());
  };
  if (c.get(kExponent) == Exponent::Constant) {
    double k = *constantExponent(y);
    PowForm form = c.get(kPowForm);
    return lowerF32Map(op, planned.nests[0], x, res, [&](Value f) {
      if (form == PowForm::Square) {
        e.vbin(VBinFunc::MUL, f, f, f);
      } else if (form == PowForm::Cube) {
        Value g = scratch(f);
        e.vbin(VBinFunc::MUL, f, f, g);
        e.vbin(VBinFunc::MUL, g, f, f);
      } else if (form == PowForm::Sqrt) {
        e.vun(VUnFunc::SQRT, f, f);
      } else if (form == PowForm::Reciprocal) {
        e.vun(VUnFunc::RECIP, f, f);
      } else if (form == PowForm::One) {
        // sign(|x|) is 1, or 0 for a zero; times 0 plus 1 is 1 (NaN stays NaN).
        e.vun(VUnFunc::ABS, f, f);
        e.vun(VUnFunc::SIGN, f, f);
        e.vbini(VBinFunc::MUL, f, f32(0.0f), f);
        e.vbini(VBinFunc::ADD, f, f32(1.0f), f);
      } else if (form == PowForm::ExpLog) {
        // |x|^k = exp(k * log|x|); an odd integer k keeps x's sign (a zero
        // base counts as positive); a non-integer k of a negative base is
        // NaN through log of the negative base itself.
        bool integer = std::floor(k) == k && std::fabs(k) < 16777216.0;
        bool odd = integer && std::fmod(std::fabs(k), 2.0) == 1.0;
        Value s;
        if (odd) {
          s = scratch(f);
          e.vun(VUnFunc::SIGN, f, s);
          Value z = scratch(f);
          e.vun(VUnFunc::ABS, s, z);
          e.vbini(VBinFunc::SUB, z, f32(1.0f), z);
          e.vbin(VBinFunc::SUB, s, z, s);  // sign(x), and 1 for a zero
        }
        if (integer)
          e.vun(VUnFunc::ABS, f, f);
        e.vun(VUnFunc::LOG, f, f);
        e.vbini(VBinFunc::MUL, f, f32(float(k)), f);
        e.vun(VUnFunc::EXP, f, f);
        if (odd)
          e.vbin(VBinFunc::MUL, f, s, f);
      }
    });
  }
  // A tensor exponent: p = exp(y * log(|x| + z)), z = 1 where x and y are
  // both 0 (0^0 = 1); times -1 for a negative base and an odd integer y;
  // plus sqrt(-(neg * frac(y))), which is NaN for a negative base and a
  // non-integer y and -0 otherwise (p + -0 is p).
  SmallVector<Value> ins{gmOf(x), gmOf(y)};
  Value out = resultBuffer(res);
  return elementwise(op, planned.nests[0], ins, out, [&](EwTiles &tl) {
    Value f = tl.in[0], yv = tl.in[1];
    if (c.is(kIntegerExponent)) {
      auto yt = cast<BufferType>(yv.getType());
      Value g = e.tile(MemorySpace::LM, yt.getShape()[0], yt.getShape()[1], b.getF32Type());
      e.cast(yv, g);
      yv = g;
    }
    Value yy = yv;  // a full tile: a broadcast operand is loaded at the tile's size
    Value t = scratch(f), u = scratch(f), neg = scratch(f);
    // neg = 1 where x < 0: relu(-sign(x)).
    e.vun(VUnFunc::SIGN, f, neg);
    e.vun(VUnFunc::NEG, neg, neg);
    e.vun(VUnFunc::RELU, neg, neg);
    // z = (1 - |sign(x)|) * (1 - |sign(y)|).
    e.vun(VUnFunc::SIGN, f, t);
    e.vun(VUnFunc::ABS, t, t);
    e.vbini(VBinFunc::SUB, t, f32(1.0f), t);
    e.vun(VUnFunc::SIGN, yy, u);
    e.vun(VUnFunc::ABS, u, u);
    e.vbini(VBinFunc::SUB, u, f32(1.0f), u);
    e.vbin(VBinFunc::MUL, t, u, t);  // (|s| - 1) * (|s'| - 1), the same product
    e.vun(VUnFunc::ABS, f, f);
    e.vbin(VBinFunc::ADD, f, t, f);
    e.vun(VUnFunc::LOG, f, f);
    e.vbin(VBinFunc::MUL, f, yy, f);
    e.vun(VUnFunc::EXP, f, f);
    // odd = 2 * (y/2 - floor(y/2)): 1 for an odd integer, 0 for an even one.
    e.vbini(VBinFunc::MUL, yy, f32(0.5f), t);
    e.vun(VUnFunc::FLOOR, t, u);
    e.vbin(VBinFunc::SUB, t, u, t);
    e.vbini(VBinFunc::MUL, t, f32(4.0f), t);  // 2 for odd: factor = 1 - neg * 2 * odd
    e.vbin(VBinFunc::MUL, t, neg, t);
    e.vbini(VBinFunc::MUL, t, f32(-1.0f), t);
    e.vbini(VBinFunc::ADD, t, f32(1.0f), t);
    e.vbin(VBinFunc::MUL, f, t, f);
    // frac(y) of a negative base: sqrt(-(neg * frac)) is NaN or -0.
    e.vun(VUnFunc::FLOOR, yy, u);
    e.vbin(VBinFunc::SUB, yy, u, u);
    e.vbin(VBinFunc::MUL, u, neg, u);
    e.vun(VUnFunc::NEG, u, u);
    e.vun(VUnFunc::SQRT, u, u);
    e.vbin(VBinFunc::ADD, f, u, f);
    tl.out = f;
  });
}
