//===- MapKernels.cpp - Elementwise maps on VECTOR ------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The maps of one tensor: qk.map (one VECTOR function, f32, f16, integers
// or quantized through f32) and the maps composed of several functions,
// each through f32 on the elementwise loop nests of ElementwiseKernels.cpp:
// Clip, LeakyRelu, HardSigmoid, HardSwish and Gelu.
//
//===----------------------------------------------------------------------===//

#include "KernelPattern.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

// The selectors, case spaces and plans of this file's patterns.
namespace npuc::emit::lowering {
LogicalResult selectUnary(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &unarySpace();
LogicalResult selectF32Map(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &f32MapSpace();
LogicalResult selectGelu(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &geluSpace();
LogicalResult selectClip(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &clipSpace();
LogicalResult selectLeakyRelu(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &leakyReluSpace();
LogicalResult planMap(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
} // namespace npuc::emit::lowering

namespace {

/// qk.map: a VECTOR unary function, on stored integers where it can be.
struct MapPattern : OpKernelPattern<qk::MapOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectUnary;
  static constexpr SpaceOf space = unarySpace;
  static constexpr PlanFn plan = planMap;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.clip: MAX then MIN.
struct ClipPattern : OpKernelPattern<qk::ClipOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectClip;
  static constexpr SpaceOf space = clipSpace;
  static constexpr PlanFn plan = planMap;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.leaky_relu: x, or alpha * x below zero, through f32.
struct LeakyReluPattern : OpKernelPattern<qk::LeakyReluOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectLeakyRelu;
  static constexpr SpaceOf space = leakyReluSpace;
  static constexpr PlanFn plan = planMap;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.hard_sigmoid: max(0, min(1, alpha * x + beta)), through f32.
struct HardSigmoidPattern : OpKernelPattern<qk::HardSigmoidOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectF32Map;
  static constexpr SpaceOf space = f32MapSpace;
  static constexpr PlanFn plan = planMap;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.hard_swish: x * hard_sigmoid(x), through f32.
struct HardSwishPattern : OpKernelPattern<qk::HardSwishOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectF32Map;
  static constexpr SpaceOf space = f32MapSpace;
  static constexpr PlanFn plan = planMap;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.gelu: exact (erf) or tanh-approximated, through f32.
struct GeluPattern : OpKernelPattern<qk::GeluOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectGelu;
  static constexpr SpaceOf space = geluSpace;
  static constexpr PlanFn plan = planMap;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

} // namespace

void lowering::populateMapPatterns(KernelPatterns &patterns) {
  patterns.add<MapPattern, ClipPattern, LeakyReluPattern, HardSigmoidPattern, HardSwishPattern,
               GeluPattern>();
}

namespace {
static_assert(int(qk::UnaryFn::COPY) == int(VUnFunc::COPY) &&
                  int(qk::UnaryFn::RELU) == int(VUnFunc::RELU) &&
                  int(qk::UnaryFn::ERF) == int(VUnFunc::ERF),
              "qk.map's functions are VECTOR's, numbered alike");

/// The VECTOR function of a map kernel.
std::optional<VUnFunc> unaryFunction(Operation *op) {
  if (auto k = llvm::dyn_cast<qk::MapOp>(op))
    return VUnFunc(k.getFn());
  return std::nullopt;
}
} // namespace

namespace {
/// f32 or f16 in and out, or per-tensor quantized input and result: of the
/// kernels graph-fuse-qdq's ops become (its isFusable: Clip, LeakyRelu,
/// HardSigmoid, HardSwish); Gelu stays f32 between DequantizeLinear and
/// QuantizeLinear.
CaseSpace f32MapTypes() {
  CaseSpace s;
  s.signatures = {{"T->T", {{"T", ct::kFloat}}}, {"A->B", {{"A", ct::kQuant}, {"B", ct::kQuant}}}};
  s.rules = {never(
      cond::all({cond::any({cond::operand(0, ct::kQuant), cond::result(0, ct::kQuant)}),
                 cond::negate(cond::op(
                     opNames<qk::ClipOp, qk::LeakyReluOp, qk::HardSigmoidOp, qk::HardSwishOp>()))}),
      "the op stays f32 between DequantizeLinear and QuantizeLinear")};
  return s;
}
} // namespace

const CaseSpace &lowering::f32MapSpace() {
  static const CaseSpace space = f32MapTypes();
  return space;
}

namespace {
/// What diagnostics call a map: a kernel by its function ("sigmoid"), a
/// graph op by its name ("hard_sigmoid").
std::string mapName(Operation *op) {
  if (auto k = llvm::dyn_cast<qk::MapOp>(op))
    return StringRef(qk::stringifyUnaryFn(k.getFn())).lower();
  return op->getName().stripDialect().str();
}
} // namespace

/// An elementwise map through f32: f32 in and out, or per-tensor quantized
/// input and result (lowerF32Map).
LogicalResult lowering::selectF32Map(LoweringCase &c, const target::TargetInfo &) {
  Operation *op = c.op;
  Type el = tensorOf(op->getOperand(0)).getElementType();
  auto qx = quantOf(el), qy = quantOf(tensorOf(op->getResult(0)).getElementType());
  if (qx || qy) {
    if (!qx || !qy || qx->axis >= 0 || qy->axis >= 0)
      return op->emitOpError() << "quantized " << mapName(op)
                               << " needs per-tensor quantized input and result";
  } else if (!el.isF32() && !el.isF16()) {
    return op->emitOpError() << mapName(op) << " on " << el
                             << " has no NPU lowering yet (f32, f16, or per-tensor quantized)";
  }
  return success();
}

const CaseSpace &lowering::geluSpace() {
  static const CaseSpace space = [] {
    CaseSpace s = f32MapTypes();
    s.properties = {kGeluForm.declare()};
    return s;
  }();
  return space;
}

/// GELU maps through f32 in its erf form ('none') or its tanh form.
LogicalResult lowering::selectGelu(LoweringCase &c, const target::TargetInfo &t) {
  auto gelu = cast<qk::GeluOp>(c.op);
  if (failed(selectF32Map(c, t)))
    return failure();
  c.choose(kGeluForm, gelu.getApproximate() == qk::GeluApproximation::Tanh ? GeluForm::Tanh
                                                                           : GeluForm::Erf);
  return success();
}

const CaseSpace &lowering::unarySpace() {
  static const CaseSpace space = [] {
    using F = qk::UnaryFn;
    CaseSpace s;
    s.signatures = {{"T->T", {{"T", ct::kFloat}}}, {"A->B", {{"A", ct::kQuant}, {"B", ct::kQuant}}}};
    s.properties = {kUnaryFn.declare(), kInteger.declare(kUnaryFn({F::RELU}))};
    // graph-fuse-qdq quantizes Relu, Sigmoid, Tanh and Abs (isFusable);
    // the other functions stay f32 between DequantizeLinear and QuantizeLinear.
    s.rules.push_back(never(cond::all({cond::operand(0, ct::kQuant),
                                       cond::negate(kUnaryFn({F::RELU, F::SIGMOID, F::TANH, F::ABS}))}),
                            "the op stays f32 between DequantizeLinear and QuantizeLinear"));
    s.rules.push_back(never(kUnaryFn({F::COPY}),
                            "graph.identity folds to its input (an Identity's types are equal)"));
    s.rules.push_back(never(cond::all({kInteger(),
                                cond::custom("input and result types differ or are not quantized",
                                             [](const support::CasePoint &p) {
                                               return p.operands[0] != p.results[0] ||
                                                      p.operands[0][0] != 'q';
                                             })}),
                     "an integer Relu keeps its input's quantization"));
    return s;
  }();
  return space;
}

/// Unary ops map through f32; a quantized Relu whose input and result share
/// their quantization is max(q, zp) on the integers instead, exactly.
LogicalResult lowering::selectUnary(LoweringCase &c, const target::TargetInfo &t) {
  auto op = cast<qk::MapOp>(c.op);
  if (kUnaryFn.spell(op.getFn()).empty())
    return op->emitOpError() << "function " << qk::stringifyUnaryFn(op.getFn())
                             << " has no NPU lowering as qk.map";
  qk::UnaryFn fn = c.choose(kUnaryFn, op.getFn());
  if (failed(selectF32Map(c, t)))
    return failure();
  if (fn == qk::UnaryFn::RELU) {
    Type x = tensorOf(c.op->getOperand(0)).getElementType();
    c.flag(kInteger, quantOf(x) && sameQuant(x, tensorOf(c.op->getResult(0)).getElementType()));
  }
  return success();
}

namespace {
/// A Relu on the stored integers of a quantized tensor (max with the zero
/// point), or a Clip of plain integers (on their storage): no f32 steps.
bool onStoredIntegers(const LoweringCase &c) {
  if (llvm::isa<qk::MapOp>(c.op))
    return c.get(kUnaryFn) == qk::UnaryFn::RELU && c.is(kInteger);
  Type el = tensorOf(c.op->getOperand(0)).getElementType();
  return llvm::isa<qk::ClipOp>(c.op) && llvm::isa<IntegerType>(el) && !quantOf(el);
}

/// What a map's body costs VECTOR, in passes over the f32 tile.
int64_t mapPasses(const LoweringCase &c) {
  return llvm::TypeSwitch<Operation *, int64_t>(c.op)
      .Case<qk::MapOp>([](auto) { return 1; })
      .Case<qk::ClipOp, qk::LeakyReluOp>([](auto) { return 2; })
      .Case<qk::HardSigmoidOp>([](auto) { return 4; })
      .Case<qk::HardSwishOp>([](auto) { return 5; })
      .Case<qk::GeluOp>([&](auto) { return c.get(kGeluForm) == GeluForm::Tanh ? 9 : 5; })
      .Default([](Operation *) { return 0; });
}
} // namespace

LogicalResult lowering::planF32Map(Operation *op, IterationSpaces &s, int64_t bodyPasses) {
  Value x = op->getOperand(0), res = op->getResult(0);
  ArrayRef<int64_t> shape = tensorOf(res).getShape();
  auto qx = quantOf(tensorOf(x).getElementType()), qy = quantOf(tensorOf(res).getElementType());
  EwWork work{14, bodyPasses + (qx ? 1 : 0) + (qy ? 1 : 0)};
  return addNest(op, s, shape, {broadcastAccess(x, shape)}, denseAccess(res), work);
}

/// One nest over the result: through f32 (planF32Map), or on the stored
/// integers (an integer Relu: one pass; an integer Clip: two).
LogicalResult lowering::planMap(const LoweringCase &c, const target::TargetInfo &,
                                IterationSpaces &s) {
  if (!onStoredIntegers(c))
    return planF32Map(c.op, s, mapPasses(c));
  ArrayRef<int64_t> shape = tensorOf(c.op->getResult(0)).getShape();
  return addNest(c.op, s, shape, {broadcastAccess(c.op->getOperand(0), shape)},
                 denseAccess(c.op->getResult(0)),
                 EwWork{2, llvm::isa<qk::ClipOp>(c.op) ? 2 : 1});
}

LogicalResult MapPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  Operation *op = c.op;
  Value x = op->getOperand(0), res = op->getResult(0);
  std::optional<VUnFunc> func = unaryFunction(op);
  if (!func)
    return op->emitOpError("npuc's internal error: no VECTOR function for this unary op");
  if (onStoredIntegers(c)) {
    int64_t zp = quantOf(tensorOf(x).getElementType())->zeroPoints[0];
    Value out = resultBuffer(res);
    return elementwise(op, planned.nests[0], {gmOf(x)}, out,
                       [&](EwTiles &tl) {
                         e.vbini(VBinFunc::MAX, tl.in[0], b.getIntegerAttr(b.getIntegerType(32), zp),
                                 tl.in[0]);
                       });
  }
  return lowerF32Map(op, planned.nests[0], x, res, [&](Value f) { e.vun(*func, f, f); });
}

const CaseSpace &lowering::clipSpace() {
  static const CaseSpace space = [] {
    CaseSpace s = f32MapTypes();
    s.signatures.push_back({"T->T", {{"T", ct::kInt}}});
    s.properties = {kMin.declare(), kMax.declare()};
    return s;
  }();
  return space;
}

/// Clip in f32 (a Clip right after a conv or matmul folds into its
/// requantization instead, convert-graph-to-qk): a bound ONNX leaves out is
/// not applied.
LogicalResult lowering::selectClip(LoweringCase &c, const target::TargetInfo &t) {
  auto clip = cast<qk::ClipOp>(c.op);
  // Plain integers clamp exactly on their storage (bounds beyond it are
  // its limits: an int64 is an int32 on chip).
  Type el = tensorOf(clip.getInput()).getElementType();
  bool integer = llvm::isa<IntegerType>(el) && !el.isInteger(1) && isModelStorage(storageOf(el));
  if (!integer && failed(selectF32Map(c, t)))
    return failure();
  c.flag(kMin, bool(clip.getMin()));
  c.flag(kMax, bool(clip.getMax()));
  return success();
}

LogicalResult ClipPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto clip = cast<qk::ClipOp>(c.op);
  Type el = tensorOf(clip.getInput()).getElementType();
  if (onStoredIntegers(c)) {
    auto st = cast<IntegerType>(storageOf(el));
    unsigned w = st.getWidth();
    double lo = st.isUnsigned() ? 0.0 : -std::ldexp(1.0, int(w) - 1);
    double hi = st.isUnsigned() ? std::ldexp(1.0, int(w)) - 1 : std::ldexp(1.0, int(w) - 1) - 1;
    auto bound = [&](FloatAttr a) {
      double v = std::min(std::max(a.getValueAsDouble(), lo), hi);
      return b.getIntegerAttr(st, int64_t(v));
    };
    Value out = resultBuffer(clip.getResult());
    return elementwise(clip, planned.nests[0], {gmOf(clip.getInput())}, out,
                       [&](EwTiles &tl) {
                         if (c.is(kMin))
                           e.vbini(VBinFunc::MAX, tl.in[0], bound(clip.getMinAttr()), tl.in[0]);
                         if (c.is(kMax))
                           e.vbini(VBinFunc::MIN, tl.in[0], bound(clip.getMaxAttr()), tl.in[0]);
                       });
  }
  return lowerF32Map(c.op, planned.nests[0], clip.getInput(), clip.getResult(), [&](Value f) {
    if (c.is(kMin))
      e.vbini(VBinFunc::MAX, f, b.getF32FloatAttr(float(clip.getMinAttr().getValueAsDouble())), f);
    if (c.is(kMax))
      e.vbini(VBinFunc::MIN, f, b.getF32FloatAttr(float(clip.getMaxAttr().getValueAsDouble())), f);
  });
}

const CaseSpace &lowering::leakyReluSpace() {
  static const CaseSpace space = [] {
    CaseSpace s = f32MapTypes();
    s.properties = {kSelect.declare()};
    return s;
  }();
  return space;
}

/// x < 0 ? alpha * x : x is max(x, alpha * x) for alpha <= 1, min otherwise.
LogicalResult lowering::selectLeakyRelu(LoweringCase &c, const target::TargetInfo &t) {
  if (failed(selectF32Map(c, t)))
    return failure();
  auto lr = cast<qk::LeakyReluOp>(c.op);
  c.choose(kSelect, lr.getAlphaAttr().getValueAsDouble() <= 1.0 ? Select::Max : Select::Min);
  return success();
}

LogicalResult LeakyReluPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto lr = cast<qk::LeakyReluOp>(c.op);
  float alpha = float(lr.getAlphaAttr().getValueAsDouble());
  return lowerF32Map(c.op, planned.nests[0], lr.getInput(), lr.getResult(), [&](Value f) {
    auto ft = cast<BufferType>(f.getType());
    Value ax = e.tile(MemorySpace::LM, ft.getShape()[0], ft.getShape()[1], b.getF32Type());
    e.vbini(VBinFunc::MUL, f, b.getF32FloatAttr(alpha), ax);
    e.vbin(c.get(kSelect) == Select::Max ? VBinFunc::MAX : VBinFunc::MIN, f, ax, f);
  });
}

// HardSigmoid: max(0, min(1, alpha * x + beta)); HardSwish: x times
// HardSigmoid with alpha = 1/6, beta = 1/2 (ONNX's definitions, f32 steps).
namespace {
void hardSigmoid(Emitter &e, Value f, Value into, float alpha, float beta) {
  e.vbini(VBinFunc::MUL, f, e.b.getF32FloatAttr(alpha), into);
  e.vbini(VBinFunc::ADD, into, e.b.getF32FloatAttr(beta), into);
  e.vbini(VBinFunc::MAX, into, e.b.getF32FloatAttr(0.0f), into);
  e.vbini(VBinFunc::MIN, into, e.b.getF32FloatAttr(1.0f), into);
}
} // namespace

LogicalResult HardSigmoidPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto hs = cast<qk::HardSigmoidOp>(c.op);
  return lowerF32Map(c.op, planned.nests[0], hs.getInput(), hs.getResult(), [&](Value f) {
    hardSigmoid(e, f, f, float(hs.getAlphaAttr().getValueAsDouble()),
                float(hs.getBetaAttr().getValueAsDouble()));
  });
}

LogicalResult HardSwishPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  return lowerF32Map(c.op, planned.nests[0], c.op->getOperand(0), c.op->getResult(0), [&](Value f) {
    auto ft = cast<BufferType>(f.getType());
    Value g = e.tile(MemorySpace::LM, ft.getShape()[0], ft.getShape()[1], b.getF32Type());
    hardSigmoid(e, f, g, 1.0f / 6.0f, 0.5f);
    e.vbin(VBinFunc::MUL, f, g, f);
  });
}

// GELU, in f32 steps in the order ONNX writes it and exporters decompose
// it: (x * 0.5) * (1 + erf(x / sqrt(2))), or in the tanh form
// (x * 0.5) * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
LogicalResult GeluPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  bool tanhForm = c.get(kGeluForm) == GeluForm::Tanh;
  return lowerF32Map(c.op, planned.nests[0], c.op->getOperand(0), c.op->getResult(0), [&](Value f) {
    auto ft = cast<BufferType>(f.getType());
    Value g = e.tile(MemorySpace::LM, ft.getShape()[0], ft.getShape()[1], b.getF32Type());
    if (tanhForm) {
      e.vbin(VBinFunc::MUL, f, f, g);
      e.vbin(VBinFunc::MUL, g, f, g);
      e.vbini(VBinFunc::MUL, g, b.getF32FloatAttr(0.044715f), g);
      e.vbin(VBinFunc::ADD, g, f, g);
      e.vbini(VBinFunc::MUL, g, b.getF32FloatAttr(0.797884561f), g);
      e.vun(VUnFunc::TANH, g, g);
      e.vbini(VBinFunc::ADD, g, b.getF32FloatAttr(1.0f), g);
      e.vbini(VBinFunc::MUL, f, b.getF32FloatAttr(0.5f), f);
      e.vbin(VBinFunc::MUL, f, g, f);
      return;
    }
    e.vbini(VBinFunc::DIV, f, b.getF32FloatAttr(1.41421356f), g);
    e.vun(VUnFunc::ERF, g, g);
    e.vbini(VBinFunc::ADD, g, b.getF32FloatAttr(1.0f), g);
    e.vbini(VBinFunc::MUL, f, b.getF32FloatAttr(0.5f), f);
    e.vbin(VBinFunc::MUL, f, g, f);
  });
}

LogicalResult KernelBuilder::lowerF32Map(Operation *op, const ElementwiseProblem &nest, Value x,
                                          Value res, const std::function<void(Value)> &body) {
  auto qx = quantOf(tensorOf(x).getElementType()), qy = quantOf(tensorOf(res).getElementType());
  Value out = resultBuffer(res);
  Type st = cast<BufferType>(out.getType()).getElementType();
  return elementwise(op, nest, {gmOf(x)}, out, [&](EwTiles &tl) {
    Value f = toF32(tl.in[0], qx);
    body(f);
    tl.out = fromF32(f, qy, st);
  });
}
