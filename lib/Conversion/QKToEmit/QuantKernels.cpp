//===- QuantKernels.cpp - QuantizeLinear, DequantizeLinear, requantize ----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Q, DQ and the requantization of qk.requantize on VECTOR, per tensor or
// per axis (docs/numerics.md); the elementwise loop nests they run in are in
// ElementwiseKernels.cpp.
//
//===----------------------------------------------------------------------===//

#include "KernelPattern.h"

#include <functional>

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

// The selectors, case spaces and plans of this file's patterns.
namespace npuc::emit::lowering {
LogicalResult selectQuantize(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &quantizeSpace();
LogicalResult selectDequantize(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &dequantizeSpace();
LogicalResult selectRequantize(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &requantizeSpace();
LogicalResult planQuantize(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
LogicalResult planDequantize(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
LogicalResult planRequantize(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
} // namespace npuc::emit::lowering

namespace {

/// qk.quantize: f32 to a quantized type on VECTOR.
struct QuantizePattern : OpKernelPattern<qk::QuantizeOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectQuantize;
  static constexpr SpaceOf space = quantizeSpace;
  static constexpr PlanFn plan = planQuantize;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.dequantize: a quantized type to f32 on VECTOR.
struct DequantizePattern : OpKernelPattern<qk::DequantizeOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectDequantize;
  static constexpr SpaceOf space = dequantizeSpace;
  static constexpr PlanFn plan = planDequantize;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.requantize: one quantized type to another.
struct RequantizePattern : OpKernelPattern<qk::RequantizeOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectRequantize;
  static constexpr SpaceOf space = requantizeSpace;
  static constexpr PlanFn plan = planRequantize;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

} // namespace

void lowering::populateQuantPatterns(KernelPatterns &patterns) {
  patterns.add<QuantizePattern, DequantizePattern, RequantizePattern>();
}

//===----------------------------------------------------------------------===//
// QuantizeLinear and DequantizeLinear
//===----------------------------------------------------------------------===//

bool lowering::paramsPerRow(ArrayRef<int64_t> shape, int64_t axis) {
  return llvm::any_of(shape.drop_front(size_t(axis) + 1), [](int64_t d) { return d > 1; });
}

namespace {
/// The per-axis scales and zero points of `q` as f32 constants, in the
/// order the nest reads them (planQDQ: each broadcast along every other axis
/// by zero strides, loaded per row or not).
SmallVector<Value, 2> perAxisParams(const Quant &q, bool zeroPointsFirst,
                                    const std::function<Value(ArrayRef<float>)> &constant) {
  SmallVector<float> s, z;
  for (auto [sc, zp] : llvm::zip(q.scales, q.zeroPoints)) {
    s.push_back(float(sc));
    z.push_back(float(zp));
  }
  SmallVector<Value, 2> ins;
  const SmallVector<float> *order[] = {zeroPointsFirst ? &z : &s, zeroPointsFirst ? &s : &z};
  for (const SmallVector<float> *values : order)
    ins.push_back(constant(*values));
  return ins;
}

/// The nest of a Q/DQ over its result: the input, then for a per-axis one
/// its two parameters (axisAccess); `work` per tensor, `axisWork` per axis.
LogicalResult planQDQ(const LoweringCase &c, IterationSpaces &s, EwWork work, EwWork axisWork) {
  Value in = c.op->getOperand(0), res = c.op->getResult(0);
  ArrayRef<int64_t> shape = tensorOf(res).getShape();
  std::vector<EwAccess> ins{broadcastAccess(in, shape)};
  bool perAxis = c.get(kParams) == Params::Axis;
  if (perAxis) {
    Type quantized = llvm::isa<qk::QuantizeOp>(c.op) ? tensorOf(res).getElementType()
                                                     : tensorOf(in).getElementType();
    int64_t axis = quantOf(quantized)->axis;
    ins.push_back(axisAccess(shape.size(), axis, c.is(kParamsPerRow)));
    ins.push_back(axisAccess(shape.size(), axis, c.is(kParamsPerRow)));
  }
  return addNest(c.op, s, shape, std::move(ins), denseAccess(res),
                 perAxis ? axisWork : work);
}

/// Q/DQ: per tensor, or per axis with the parameters loaded per row or at
/// the tile's size.
LogicalResult selectQDQ(LoweringCase &c, Type quantized) {
  auto q = quantOf(quantized);
  if (!q)
    return c.op->emitOpError("expects a uniform quantized type");
  // Per tensor, the zero point is V_QUANT's / V_DEQUANT's 16-bit field.
  static_assert(isa::limit::V_QUANT::zp_min == isa::limit::V_DEQUANT::zp_min &&
                    isa::limit::V_QUANT::zp_max == isa::limit::V_DEQUANT::zp_max,
                "one zero-point field");
  if (q->axis < 0 && (q->zeroPoints[0] < isa::limit::V_DEQUANT::zp_min || q->zeroPoints[0] > isa::limit::V_DEQUANT::zp_max))
    return c.op->emitOpError() << "zero point " << q->zeroPoints[0] << " of " << quantized
                               << " is outside [" << isa::limit::V_DEQUANT::zp_min << ", "
                               << isa::limit::V_DEQUANT::zp_max
                               << "], the range V_QUANT and V_DEQUANT take";
  if (c.choose(kParams, q->axis < 0 ? Params::Tensor : Params::Axis) == Params::Axis)
    c.flag(kParamsPerRow, paramsPerRow(tensorOf(c.op->getResult(0)).getShape(), q->axis));
  return success();
}
} // namespace

/// Per tensor or per axis, the parameters of a per-axis one per row or not.
namespace {
CaseSpace qdqSpace(const char *pattern, ct::List quantTypes, int quantSlot) {
  CaseSpace s;
  s.signatures.push_back({pattern, {{"Q", std::move(quantTypes)}}});
  s.properties = {kParams.declare(), kParamsPerRow.declare(kParams({Params::Axis}))};
  auto perAxis = [quantSlot](const support::CasePoint &p) {
    const std::string &t = quantSlot == 0 ? p.operands[0] : p.results[0];
    return t.size() > 5 && t.compare(t.size() - 5, 5, "/axis") == 0;
  };
  s.rules = {never(cond::custom("params other than the type's quantization",
                                [perAxis](const support::CasePoint &p) {
                                  return (StringRef(p.get(kParams.name.str())) == kParams.spell(Params::Axis)) !=
                                         perAxis(p);
                                }),
                   "params is how the type is quantized (per tensor or per axis)")};
  return s;
}
} // namespace

const CaseSpace &lowering::quantizeSpace() {
  static const CaseSpace space =
      qdqSpace("f32->Q", ct::concat({ct::kQuant, {"qi32"}, ct::kQuantAxis, {"qi32/axis"}}), 1);
  return space;
}

const CaseSpace &lowering::dequantizeSpace() {
  static const CaseSpace space =
      qdqSpace("Q->f32", ct::concat({ct::kQuant, {"qi32"}, ct::kQuantAxis, {"qi32/axis"}}), 0);
  return space;
}

LogicalResult lowering::selectQuantize(LoweringCase &c, const target::TargetInfo &) {
  auto op = cast<qk::QuantizeOp>(c.op);
  if (!tensorOf(op.getInput()).getElementType().isF32())
    return op.emitOpError("quantizes f32 inputs only");
  return selectQDQ(c, tensorOf(op.getResult()).getElementType());
}

LogicalResult lowering::planQuantize(const LoweringCase &c, const target::TargetInfo &,
                                     IterationSpaces &s) {
  return planQDQ(c, s, {4 * 4 + 1, 1}, {4 * 4 + 1, 4});
}

LogicalResult QuantizePattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::QuantizeOp>(c.op);
  auto q = quantOf(tensorOf(op.getResult()).getElementType());
  SmallVector<Value> ins{gmOf(op.getInput())};
  bool perAxis = c.get(kParams) == Params::Axis;
  if (perAxis)
    ins.append(perAxisParams(*q, /*zeroPointsFirst=*/false,
                             [&](ArrayRef<float> v) { return f32Constant(v); }));
  Value out = resultBuffer(op.getResult());
  Type st = cast<BufferType>(out.getType()).getElementType();
  return elementwise(op, planned.nests[0], ins, out, [&](EwTiles &tl) {
    // y = saturate(round_half_even(x / scale) + zp), in f32 then one cast.
    Value x = tl.in[0];
    if (!perAxis) {
      tl.out = fromF32(x, q, st);
      return;
    }
    e.vbin(VBinFunc::DIV, x, tl.in[1], x);
    e.vun(VUnFunc::ROUND, x, x);
    e.vbin(VBinFunc::ADD, x, tl.in[2], x);
    tl.out = e.tile(MemorySpace::LM, tl.rows, tl.cols, st);
    e.cast(x, tl.out);
  });
}

const CaseSpace &lowering::requantizeSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures.push_back({"A->B", {{"A", ct::kQuant}, {"B", ct::kQuant}}});
    s.properties = {kRequantForm.declare()};
    s.rules = {never(cond::all({kRequantForm({RequantForm::TopBit}),
                                cond::negate(cond::any(
                                    {cond::all({cond::operand(0, {"qi8"}), cond::result(0, {"qui8"})}),
                                     cond::all({cond::operand(0, {"qui8"}), cond::result(0, {"qi8"})})}))}),
                     "flipping the top bit moves between int8 and uint8 only")};
    return s;
  }();
  return space;
}

/// The form is the kernel's (convert-graph-to-qk decided it; the verifier
/// holds top_bit to types that allow it).
LogicalResult lowering::selectRequantize(LoweringCase &c, const target::TargetInfo &) {
  auto op = cast<qk::RequantizeOp>(c.op);
  auto qi = quantOf(op.getInput().getType().getElementType());
  auto qo = quantOf(op.getResult().getType().getElementType());
  if (!qi || !qo || qi->axis >= 0 || qo->axis >= 0)
    return c.op->emitOpError("requantizes per-tensor quantized tensors only");
  c.choose(kRequantForm, op.getForm() == qk::RequantizeForm::TopBit ? RequantForm::TopBit
                                                                     : RequantForm::F32);
  return success();
}

/// The top-bit form: one XOR of 0x80 per byte. The f32 form: the
/// dequantization and the quantization of qk.dequantize and
/// qk.quantize in one pass (the same instructions, so the same values),
/// the f32 values never leaving LM.
/// One nest: the top bit, one pass; the f32 form, a Q/DQ's work.
LogicalResult lowering::planRequantize(const LoweringCase &c, const target::TargetInfo &,
                                       IterationSpaces &s) {
  ArrayRef<int64_t> shape = tensorOf(c.op->getResult(0)).getShape();
  bool topBit = c.get(kRequantForm) == RequantForm::TopBit;
  return addNest(c.op, s, shape, {broadcastAccess(c.op->getOperand(0), shape)},
                 denseAccess(c.op->getResult(0)),
                 topBit ? EwWork{2, 1} : EwWork{4 * 4 + 1, 2});
}

LogicalResult RequantizePattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  Operation *op = c.op;
  auto qi = quantOf(tensorOf(op->getOperand(0)).getElementType());
  auto qo = quantOf(tensorOf(op->getResult(0)).getElementType());
  SmallVector<Value> ins{gmOf(op->getOperand(0))};
  Value out = resultBuffer(op->getResult(0));
  Type st = cast<BufferType>(out.getType()).getElementType();
  if (c.get(kRequantForm) == RequantForm::TopBit)
    return elementwise(op, planned.nests[0], ins, out, [&](EwTiles &tl) {
      Value y = e.retype(tl.in[0], st);
      // The immediate as the element reads: 0x80 is 128 as uint8, -128 as int8.
      e.vbini(VBinFunc::XOR, y, b.getI32IntegerAttr(st.isUnsignedInteger() ? 128 : -128), y);
      tl.out = y;
    });
  return elementwise(op, planned.nests[0], ins, out,
                     [&](EwTiles &tl) { tl.out = fromF32(toF32(tl.in[0], qi), qo, st); });
}

LogicalResult lowering::selectDequantize(LoweringCase &c, const target::TargetInfo &) {
  return selectQDQ(c, tensorOf(c.op->getOperand(0)).getElementType());
}

LogicalResult lowering::planDequantize(const LoweringCase &c, const target::TargetInfo &,
                                       IterationSpaces &s) {
  return planQDQ(c, s, {4 * 4 + 4, 1}, {4 * 4 + 4, 3});
}

LogicalResult DequantizePattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::DequantizeOp>(c.op);
  auto q = quantOf(tensorOf(op.getInput()).getElementType());
  SmallVector<Value> ins{gmOf(op.getInput())};
  bool perAxis = c.get(kParams) == Params::Axis;
  if (perAxis)
    ins.append(perAxisParams(*q, /*zeroPointsFirst=*/true,
                             [&](ArrayRef<float> v) { return f32Constant(v); }));
  Value out = resultBuffer(op.getResult());
  return elementwise(op, planned.nests[0], ins, out, [&](EwTiles &tl) {
    // y = (f32(x) - zp) * scale, each step one f32 rounding as in ONNX.
    if (!perAxis) {
      tl.out = toF32(tl.in[0], q);
      return;
    }
    Value f = toF32(tl.in[0], std::nullopt);
    e.vbin(VBinFunc::SUB, f, tl.in[1], f);
    e.vbin(VBinFunc::MUL, f, tl.in[2], f);
    tl.out = f;
  });
}
