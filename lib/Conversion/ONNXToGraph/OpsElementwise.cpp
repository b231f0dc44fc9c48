//===- OpsElementwise.cpp - Elementwise, activation and compare importers -===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

using namespace mlir;
using namespace npuc::onnx_import;

LogicalResult npuc::onnx_import::importUnary(NodeContext &c, GraphOpBuilder op,
                                             ArrayRef<NamedAttribute> attrs) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  return c.buildOutput(op, {x->value}, x->type(), attrs);
}

FailureOr<Value> npuc::onnx_import::buildBinary(NodeContext &c, GraphOpBuilder op, Val lhs, Val rhs,
                                                Type element) {
  auto shape = sh::broadcast(lhs.shape(), rhs.shape());
  if (!shape) {
    (void)c.fail(code::ShapeMismatch, llvm::toString(shape.takeError()));
    return failure();
  }
  return c.build(op, {lhs.value, rhs.value}, c.tensor(*shape, element ? element : lhs.element()));
}

namespace {
struct BinaryInfo {
  GraphOpBuilder op;  // graph op
  bool compare;       // i1 result
  bool variadic;      // a chain of binary ops over all inputs
};

const llvm::StringMap<BinaryInfo> &binaries() {
  static const llvm::StringMap<BinaryInfo> table = {
      {"Add", {graphOp<graph::AddOp>, false, false}},
      {"Sub", {graphOp<graph::SubOp>, false, false}},
      {"Mul", {graphOp<graph::MulOp>, false, false}},
      {"Div", {graphOp<graph::DivOp>, false, false}},
      {"PRelu", {graphOp<graph::PReluOp>, false, false}},
      {"And", {graphOp<graph::AndOp>, false, false}},
      {"Or", {graphOp<graph::OrOp>, false, false}},
      {"Xor", {graphOp<graph::XorOp>, false, false}},
      {"BitwiseAnd", {graphOp<graph::AndOp>, false, false}},
      {"BitwiseOr", {graphOp<graph::OrOp>, false, false}},
      {"BitwiseXor", {graphOp<graph::XorOp>, false, false}},
      {"Equal", {graphOp<graph::EqualOp>, true, false}},
      {"Less", {graphOp<graph::LessOp>, true, false}},
      {"LessOrEqual", {graphOp<graph::LessOrEqualOp>, true, false}},
      {"Greater", {graphOp<graph::GreaterOp>, true, false}},
      {"GreaterOrEqual", {graphOp<graph::GreaterOrEqualOp>, true, false}},
      {"Max", {graphOp<graph::MaxOp>, false, true}},
      {"Min", {graphOp<graph::MinOp>, false, true}},
      {"Sum", {graphOp<graph::AddOp>, false, true}}};
  return table;
}

/// Builds the graph op (on constants, the importer folds it: graph::foldToConstant).
FailureOr<Val> binary(NodeContext &c, const BinaryInfo &info, Val lhs, Val rhs) {
  Type element = info.compare ? Type(c.b.getI1Type()) : lhs.element();
  FailureOr<Value> v = buildBinary(c, info.op, lhs, rhs, element);
  if (failed(v))
    return failure();
  return Val{*v, {}};
}

/// `v` with `shape` (the same elements): a constant stays one.
FailureOr<Val> reshaped(NodeContext &c, const Val &v, ArrayRef<int64_t> shape) {
  if (v.constant)
    return c.constant(DenseElementsAttr(v.constant).reshape(RankedTensorType::get(shape, v.element())));
  FailureOr<Value> r = buildReshape(c, v.value, shape);
  if (failed(r))
    return failure();
  return Val{*r, {}};
}

/// Opsets before 7 broadcast only with `broadcast` = 1, and then B to A:
/// aligned at A's dimension `axis` when given (B's dimensions at
/// axis .. axis + rank(B) - 1), else at A's trailing dimensions, which is what
/// multidirectional broadcasting does anyway. Returns B, reshaped if needed.
/// PRelu before opset 7 has no `broadcast`: a slope of one element is shared,
/// and a slope of C elements is per channel (A's dimension 1).
FailureOr<Val> legacyBroadcast(NodeContext &c, const Val &a, const Val &b) {
  if (c.opset >= 7)
    return b;
  bool prelu = c.node.op_type() == "PRelu";
  if (prelu && b.shape().size() == 1 && a.shape().size() >= 2 && b.shape()[0] == a.shape()[1] &&
      b.shape()[0] != 1) {
    SmallVector<int64_t> shape(a.shape().size() - 1, 1);
    shape[0] = b.shape()[0];
    return reshaped(c, b, shape);
  }
  if (prelu)  // otherwise as PRelu-7: the slope broadcasts to X
    return b;
  if (c.intAttr("broadcast", 0) == 0) {
    if (a.shape() != b.shape())
      return c.fail(code::ShapeMismatch, "without broadcast = 1, opset-" + llvm::Twine(c.opset) + " " +
                                             c.node.op_type() + " needs operands of one shape, got " +
                                             sh::str(a.shape()) + " and " + sh::str(b.shape()));
    return b;
  }
  if (!c.attr("axis")) {
    // B aligns with A's trailing dimensions; the result keeps A's shape.
    auto shape = sh::broadcast(a.shape(), b.shape());
    bool fits = bool(shape) && ArrayRef<int64_t>(*shape) == a.shape();
    if (!shape)
      llvm::consumeError(shape.takeError());
    if (!fits)
      return c.fail(code::ShapeMismatch, "B " + sh::str(b.shape()) + " does not broadcast to A " +
                                             sh::str(a.shape()));
    return b;
  }
  int64_t rankA = int64_t(a.shape().size()), rankB = int64_t(b.shape().size());
  std::optional<int64_t> axis = c.axis(c.intAttr("axis", 0), rankA);
  if (!axis)
    return failure();
  if (*axis + rankB > rankA)
    return c.fail(code::ShapeMismatch, "broadcast axis " + llvm::Twine(*axis) + " leaves no room for B " +
                                           sh::str(b.shape()) + " in A " + sh::str(a.shape()));
  SmallVector<int64_t> shape(rankA, 1);
  for (int64_t i = 0; i < rankB; ++i) {
    int64_t d = b.shape()[i];
    if (d != 1 && d != a.shape()[*axis + i])
      return c.fail(code::ShapeMismatch, "B " + sh::str(b.shape()) + " does not broadcast to A " +
                                             sh::str(a.shape()) + " at axis " + llvm::Twine(*axis));
    shape[*axis + i] = d;
  }
  return reshaped(c, b, shape);
}

/// Whether `v` is of an integer type ONNX's Bitwise ops take (not bool).
LogicalResult bitwiseOperand(NodeContext &c, const Val &v) {
  Type t = v.element();
  if (isa<IntegerType>(t) && !t.isInteger(1))
    return success();
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return c.fail(code::UnsupportedType, c.node.op_type() + " takes integer tensors, got " + s);
}

LogicalResult importBinary(NodeContext &c) {
  const BinaryInfo &info = binaries().find(c.node.op_type())->second;
  if (c.numInputs() == 0)
    return c.fail(code::Structure, "needs at least one input");
  std::optional<Val> acc = c.required(0);
  if (!acc)
    return failure();
  // BitwiseAnd, BitwiseOr, BitwiseXor: And, Or, Xor of integers (bitwise on
  // bools' 0/1 too, which ONNX's And, Or, Xor take).
  if (llvm::StringRef(c.node.op_type()).starts_with("Bitwise"))
    for (size_t i = 0; i < c.numInputs(); ++i)
      if (std::optional<Val> v = c.required(i); !v || failed(bitwiseOperand(c, *v)))
        return failure();
  // Max, Min and Sum are variadic: a chain of binary ops.
  size_t last = info.variadic ? c.numInputs() : 2;
  if (last == 2 && c.numInputs() != 2)
    return c.fail(code::Structure, "expects 2 inputs, got " + llvm::Twine(c.numInputs()));
  for (size_t i = 1; i < last; ++i) {
    std::optional<Val> rhs = c.required(i);
    if (!rhs)
      return failure();
    if (last == 2) {
      FailureOr<Val> b = legacyBroadcast(c, *acc, *rhs);
      if (failed(b))
        return failure();
      rhs = *b;
    }
    FailureOr<Val> r = binary(c, info, *acc, *rhs);
    if (failed(r))
      return failure();
    acc = *r;
  }
  c.setOutput(0, *acc);
  return success();
}

LogicalResult importPow(NodeContext &c) {
  std::optional<Val> x = c.required(0), e = c.required(1);
  if (!x || !e)
    return failure();
  FailureOr<Val> legacy = legacyBroadcast(c, *x, *e);
  if (failed(legacy))
    return failure();
  if (isa<IntegerType>(x->element()))
    return importIntegerPow(c, *x, *legacy);
  // A 64-bit integer exponent of a float base: its int32 view (a larger
  // magnitude overflows or vanishes in any float type).
  if (isa<FloatType>(x->element()) && legacy->element().isSignlessInteger(64)) {
    FailureOr<Value> narrow = c.build<graph::CastOp>({legacy->value}, legacy->type().clone(c.b.getIntegerType(32)));
    if (failed(narrow))
      return failure();
    legacy = Val{*narrow, {}};
  }
  FailureOr<Value> r = buildBinary(c, graphOp<graph::PowOp>, *x, *legacy);
  if (failed(r))
    return failure();
  c.setOutput(0, *r);
  return success();
}

LogicalResult importMean(NodeContext &c) {
  std::optional<Val> acc = c.required(0);
  if (!acc)
    return failure();
  for (size_t i = 1; i < c.numInputs(); ++i) {
    std::optional<Val> rhs = c.required(i);
    if (!rhs)
      return failure();
    FailureOr<Value> s = buildBinary(c, graphOp<graph::AddOp>, *acc, *rhs);
    if (failed(s))
      return failure();
    acc = Val{*s, {}};
  }
  if (!isa<FloatType>(acc->element()))
    return c.fail(code::UnsupportedType, "Mean of non-float values");
  auto scalarType = c.tensor({}, acc->element());
  Val n = c.constant(DenseElementsAttr::get(
      scalarType, FloatAttr::get(acc->element(), double(c.numInputs())).getValue()));
  FailureOr<Value> r = buildBinary(c, graphOp<graph::DivOp>, *acc, n);
  if (failed(r))
    return failure();
  c.setOutput(0, *r);
  return success();
}

LogicalResult importWhere(NodeContext &c) {
  std::optional<Val> cond = c.required(0), x = c.required(1), y = c.required(2);
  if (!cond || !x || !y)
    return failure();
  auto xy = sh::broadcast(x->shape(), y->shape());
  if (!xy)
    return c.fail(code::ShapeMismatch, llvm::toString(xy.takeError()));
  auto shape = sh::broadcast(cond->shape(), *xy);
  if (!shape)
    return c.fail(code::ShapeMismatch, llvm::toString(shape.takeError()));
  // cond ? x : y on integer constants: all three expanded to the result shape.
  if (auto ci = asInts(*cond))
    if (auto xi = asInts(*x))
      if (auto yi = asInts(*y))
        if (auto ce = expandInts(*ci, *shape))
          if (auto xe = expandInts(*xi, *shape))
            if (auto ye = expandInts(*yi, *shape)) {
              for (size_t i = 0; i < xe->data.size(); ++i)
                if (!ce->data[i])
                  xe->data[i] = ye->data[i];
              c.setOutput(0, c.constant(toAttr(*xe)));
              return success();
            }
  return c.buildOutput<graph::WhereOp>({cond->value, x->value, y->value},
                                      c.tensor(*shape, x->element()));
}

LogicalResult importNot(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (auto xi = asInts(*x)) {
    for (int64_t &v : xi->data)
      v = !v;
    c.setOutput(0, c.constant(toAttr(*xi)));
    return success();
  }
  return importUnary(c, graphOp<graph::NotOp>);
}

/// BitwiseNot (opset 18): graph.not of an integer tensor, every bit
/// flipped (an unsigned value to its width).
LogicalResult importBitwiseNot(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x || failed(bitwiseOperand(c, *x)))
    return failure();
  if (auto xi = asInts(*x)) {
    for (int64_t &v : xi->data)
      v = ~v;
    c.setOutput(0, c.constant(toAttr(*xi)));
    return success();
  }
  return importUnary(c, graphOp<graph::NotOp>);
}

LogicalResult importSimpleUnary(NodeContext &c) {
  static const llvm::StringMap<GraphOpBuilder> ops = {
      {"Relu", graphOp<graph::ReluOp>},
      {"Sigmoid", graphOp<graph::SigmoidOp>},
      {"Tanh", graphOp<graph::TanhOp>},
      {"Exp", graphOp<graph::ExpOp>},
      {"Log", graphOp<graph::LogOp>},
      {"Neg", graphOp<graph::NegOp>},
      {"Abs", graphOp<graph::AbsOp>},
      {"Sign", graphOp<graph::SignOp>},
      {"Sqrt", graphOp<graph::SqrtOp>},
      {"Reciprocal", graphOp<graph::ReciprocalOp>},
      {"Erf", graphOp<graph::ErfOp>},
      {"Sin", graphOp<graph::SinOp>},
      {"Cos", graphOp<graph::CosOp>},
      {"Tan", graphOp<graph::TanOp>},
      {"Asin", graphOp<graph::AsinOp>},
      {"Acos", graphOp<graph::AcosOp>},
      {"Atan", graphOp<graph::AtanOp>},
      {"Asinh", graphOp<graph::AsinhOp>},
      {"Acosh", graphOp<graph::AcoshOp>},
      {"Atanh", graphOp<graph::AtanhOp>},
      {"Floor", graphOp<graph::FloorOp>},
      {"Ceil", graphOp<graph::CeilOp>},
      {"Round", graphOp<graph::RoundOp>},
      {"HardSwish", graphOp<graph::HardSwishOp>}};
  return importUnary(c, ops.find(c.node.op_type())->second);
}

LogicalResult importIdentity(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  c.setOutput(0, *x);
  return success();
}

/// Dropout at inference is the identity; its mask output, when a model
/// declares it, keeps every element: all true (bool from opset 10 on, the
/// input's type before).
LogicalResult importDropout(NodeContext &c) {
  // Before opset 7, Dropout trains unless is_test = 1.
  if (c.intAttr("is_test", c.opset < 7 ? 0 : 1) == 0)
    return c.fail(code::UnsupportedAttr, "training-mode Dropout is not supported");
  if (auto mode = c.input(2)) {
    // training_mode decides whether Dropout is random: it must be known
    // (a graph input is named for --bind-input). Training with ratio 0 drops
    // nothing: the identity, its mask all true; any other ratio is random.
    DenseElementsAttr t = c.requiredConstant(2, "training_mode");
    if (!t)
      return failure();
    if (!t.empty() && (*t.getValues<APInt>().begin()).getBoolValue()) {
      double ratio = 0.5;
      if (c.input(1)) {
        DenseElementsAttr r = c.requiredConstant(1, "ratio");
        if (!r)
          return failure();
        if (!isa<FloatType>(r.getElementType()) || r.getNumElements() != 1)
          return c.fail(code::UnsupportedType, "ratio must be one float");
        ratio = (*r.getValues<APFloat>().begin()).convertToDouble();
      }
      if (ratio != 0.0)
        return c.fail(code::UnsupportedAttr, "training-mode Dropout with ratio " + llvm::Twine(std::to_string(ratio)) +
                                                 " drops elements at random, which a compiled inference program "
                                                 "does not do; export the model for inference (training_mode "
                                                 "false) or with ratio 0");
    }
  }
  if (failed(importIdentity(c)))
    return failure();
  if (c.node.output_size() > 1 && !c.node.output(1).empty()) {
    std::optional<Val> x = c.input(0);
    Type maskType = c.opset >= 10 ? c.b.getI1Type() : x->element();
    auto type = c.tensor(x->shape(), maskType);
    if (!c.imp.fitsMemory(type, "Dropout mask", &c.node))
      return failure();
    Attribute one = c.opset >= 10 ? Attribute(c.b.getBoolAttr(true))
                    : isa<FloatType>(maskType) ? Attribute(c.b.getFloatAttr(maskType, 1.0))
                                               : Attribute(c.b.getIntegerAttr(maskType, 1));
    c.setOutput(1, c.constant(DenseElementsAttr::get(type, one)));
  }
  return success();
}

LogicalResult importLeakyRelu(NodeContext &c) {
  return importUnary(c, graphOp<graph::LeakyReluOp>,
                     {c.named("alpha", c.b.getF32FloatAttr(c.floatAttr("alpha", 0.01f)))});
}

LogicalResult importHardSigmoid(NodeContext &c) {
  return importUnary(c, graphOp<graph::HardSigmoidOp>,
                     {c.named("alpha", c.b.getF32FloatAttr(c.floatAttr("alpha", 0.2f))),
                      c.named("beta", c.b.getF32FloatAttr(c.floatAttr("beta", 0.5f)))});
}

LogicalResult importGelu(NodeContext &c) {
  std::string approx = c.stringAttr("approximate", "none");
  if (approx != "none" && approx != "tanh")
    return c.fail(code::UnsupportedAttr, "approximate '" + approx + "' is not none or tanh");
  return importUnary(c, graphOp<graph::GeluOp>, {c.named("approximate", c.b.getStringAttr(approx))});
}

LogicalResult importClip(NodeContext &c) {
  SmallVector<NamedAttribute> attrs;
  if (c.opset < 11) {
    if (c.attr("min"))
      attrs.push_back(c.named("min", c.b.getF64FloatAttr(c.floatAttr("min", 0))));
    if (c.attr("max"))
      attrs.push_back(c.named("max", c.b.getF64FloatAttr(c.floatAttr("max", 0))));
  } else {
    // Bounds computed at run time (a scalar from a ReduceMax chain, say):
    // min(max(x, lo), hi), ONNX's definition, on VECTOR with the scalars
    // broadcast (hi wins where lo > hi, as Clip's definition says).
    std::optional<Val> lo = c.input(1), hi = c.input(2);
    if ((lo && !lo->constant) || (hi && !hi->constant)) {
      std::optional<Val> x = c.required(0);
      if (!x)
        return failure();
      Value y = x->value;
      for (auto [bound, op, name] : {std::tuple{lo, graphOp<graph::MaxOp>, "min"},
                                     std::tuple{hi, graphOp<graph::MinOp>, "max"}}) {
        if (!bound)
          continue;
        if (bound->type().getNumElements() != 1)
          return c.fail(code::UnsupportedAttr, std::string(name) + " must be a scalar");
        if (bound->element() != x->element())
          return c.fail(code::UnsupportedType, std::string(name) + " has another type than the input");
        FailureOr<Value> r = c.build(op, {y, bound->value}, x->type());
        if (failed(r))
          return failure();
        y = *r;
      }
      c.setOutput(0, y);
      return success();
    }
    for (auto [i, name] : {std::pair<size_t, const char *>{1, "min"}, {2, "max"}}) {
      if (!c.input(i))
        continue;
      DenseElementsAttr bound = c.requiredConstant(i, name);
      if (!bound)
        return failure();
      if (bound.getNumElements() != 1)
        return c.fail(code::UnsupportedAttr, std::string(name) + " must be a scalar");
      double v = firstAsDouble(bound);
      attrs.push_back(c.named(name, c.b.getF64FloatAttr(v)));
    }
  }
  return importUnary(c, graphOp<graph::ClipOp>, attrs);
}

LogicalResult importLRN(NodeContext &c) {
  if (!c.attr("size"))
    return c.fail(code::UnsupportedAttr, "LRN needs its size attribute");
  std::optional<int64_t> size = c.sizeAttr("size", 1, 1);
  if (!size)
    return failure();
  return importUnary(c, graphOp<graph::LRNOp>,
                     {c.named("size", c.b.getI64IntegerAttr(*size)),
                      c.named("alpha", c.b.getF32FloatAttr(c.floatAttr("alpha", 1e-4f))),
                      c.named("beta", c.b.getF32FloatAttr(c.floatAttr("beta", 0.75f))),
                      c.named("bias", c.b.getF32FloatAttr(c.floatAttr("bias", 1.0f)))});
}
/// Builds a chain of graph ops on f32 tensors of x's type, stopping at the
/// first that fails (its diagnostic is the node's).
struct F32Chain {
  NodeContext &c;
  RankedTensorType type;
  bool ok = true;
  Value scalar(float v) {
    return c.constant(DenseElementsAttr::get(c.tensor({1}, c.b.getF32Type()), ArrayRef<float>{v})).value;
  }
  template <typename OpTy>
  Value op(ValueRange operands, Type result = {}) {
    if (!ok)
      return Value();
    FailureOr<Value> r = c.build<OpTy>(operands, result ? result : Type(type));
    ok = succeeded(r);
    return ok ? *r : Value();
  }
  template <typename OpTy>
  Value mask(Value a, Value b) {
    return op<OpTy>({a, b}, c.tensor(type.getShape(), c.b.getI1Type()));
  }
  LogicalResult finish(Value y) {
    if (!ok)
      return failure();
    c.setOutput(0, y);
    return success();
  }
};

/// The activations ONNX defines piecewise or by formula, as graph ops in
/// their definitions' order (docs/numerics.md): Elu, Selu, Celu,
/// ThresholdedRelu, Shrink, Softplus, Softsign, Mish; f32 only.
LogicalResult importActivation(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (!x->element().isF32())
    return c.fail(code::UnsupportedType, c.node.op_type() + " of a non-f32 input is not supported");
  StringRef type = c.node.op_type();
  F32Chain f{c, x->type()};
  Value v = x->value, zero = f.scalar(0.0f);
  // alpha * (exp(x / div) - 1), the negative branch of Elu, Selu and Celu.
  auto expm1 = [&](float alpha, float div) {
    Value e = f.op<graph::ExpOp>({div == 1.0f ? v : f.op<graph::DivOp>({v, f.scalar(div)})});
    return f.op<graph::MulOp>({f.op<graph::SubOp>({e, f.scalar(1.0f)}), f.scalar(alpha)});
  };
  if (type == "Elu" || type == "Selu") {
    bool selu = type == "Selu";
    float alpha = c.floatAttr("alpha", selu ? 1.67326319f : 1.0f);
    Value y = f.op<graph::WhereOp>({f.mask<graph::GreaterOp>(v, zero), v, expm1(alpha, 1.0f)});
    return f.finish(selu ? f.op<graph::MulOp>({y, f.scalar(c.floatAttr("gamma", 1.05070102f))}) : y);
  }
  if (type == "Celu") {
    float alpha = c.floatAttr("alpha", 1.0f);
    return f.finish(f.op<graph::AddOp>(
        {f.op<graph::MaxOp>({v, zero}), f.op<graph::MinOp>({expm1(alpha, alpha), zero})}));
  }
  if (type == "ThresholdedRelu")
    return f.finish(f.op<graph::WhereOp>(
        {f.mask<graph::GreaterOp>(v, f.scalar(c.floatAttr("alpha", 1.0f))), v, zero}));
  if (type == "Shrink") {
    float bias = c.floatAttr("bias", 0.0f), lambd = c.floatAttr("lambd", 0.5f);
    Value high = f.op<graph::WhereOp>({f.mask<graph::GreaterOp>(v, f.scalar(lambd)),
                                       f.op<graph::SubOp>({v, f.scalar(bias)}), zero});
    return f.finish(f.op<graph::WhereOp>({f.mask<graph::LessOp>(v, f.scalar(-lambd)),
                                          f.op<graph::AddOp>({v, f.scalar(bias)}), high}));
  }
  if (type == "Softsign")
    return f.finish(
        f.op<graph::DivOp>({v, f.op<graph::AddOp>({f.op<graph::AbsOp>({v}), f.scalar(1.0f)})}));
  // Softplus = log(exp(x) + 1), computed as max(x, 0) + log(1 + exp(-|x|)),
  // which is the same value and finite for any x; Mish = x * tanh(Softplus).
  Value softplus = f.op<graph::AddOp>(
      {f.op<graph::MaxOp>({v, zero}),
       f.op<graph::LogOp>({f.op<graph::AddOp>(
           {f.op<graph::ExpOp>({f.op<graph::NegOp>({f.op<graph::AbsOp>({v})})}), f.scalar(1.0f)})})});
  if (type == "Softplus")
    return f.finish(softplus);
  return f.finish(f.op<graph::MulOp>({v, f.op<graph::TanhOp>({softplus})}));
}
/// Mod of floats (fmod = 1, as ONNX requires for them): C's fmod, x - trunc(x
/// / y) * y with the sign of x, as f32 graph ops (f16 converted to f32 and
/// the result back, which it represents exactly). A quotient that rounds up
/// to the next integer leaves a remainder of the wrong sign, which one more y
/// (toward x's sign) corrects; the product trunc * y rounds once
/// (docs/numerics.md).
LogicalResult importFloatMod(NodeContext &c, Val a, Val b) {
  Type el = a.element(), f32t = c.b.getF32Type();
  if (b.element() != el || !(el.isF32() || el.isF16()))
    return c.fail(code::UnsupportedType, "Mod of floats is supported for f32 and f16 of one type");
  if (!c.intAttr("fmod", 0))
    return c.fail(code::UnsupportedAttr, "Mod of floats needs fmod = 1 (ONNX's rule)");
  auto shape = sh::broadcast(a.shape(), b.shape());
  if (!shape)
    return c.fail(code::ShapeMismatch, llvm::toString(shape.takeError()));
  bool half = el.isF16();
  if (half) {
    for (Val *v : {&a, &b}) {
      FailureOr<Value> w = c.build<graph::CastOp>({v->value}, c.tensor(v->shape(), f32t));
      if (failed(w))
        return failure();
      *v = Val{*w, {}};
    }
    el = f32t;
  }
  auto rt = c.tensor(*shape, el);
  auto mask = [&](ArrayRef<int64_t> s) { return c.tensor(s, c.b.getI1Type()); };
  F32Chain f{c, rt};
  Value zero = c.constant(DenseElementsAttr::get(c.tensor({1}, el), c.b.getFloatAttr(el, 0.0))).value;
  Value q = f.op<graph::DivOp>({a.value, b.value});
  Value trunc = f.op<graph::WhereOp>({f.mask<graph::LessOp>(q, zero), f.op<graph::CeilOp>({q}),
                                      f.op<graph::FloorOp>({q})});
  Value r = f.op<graph::SubOp>({a.value, f.op<graph::MulOp>({trunc, b.value})});
  Value xNeg = f.op<graph::LessOp>({a.value, zero}, mask(a.shape()));
  Value yNeg = f.op<graph::LessOp>({b.value, zero}, mask(b.shape()));
  Value wrong = f.op<graph::AndOp>({f.op<graph::NotOp>({f.mask<graph::EqualOp>(r, zero)}, mask(*shape)),
                                    f.op<graph::XorOp>({f.mask<graph::LessOp>(r, zero), xNeg}, mask(*shape))},
                                   mask(*shape));
  // One more y, toward x's sign: +y where x and y share a sign, else -y.
  Value step = f.op<graph::WhereOp>({f.op<graph::XorOp>({xNeg, yNeg}, mask(*shape)),
                                     f.op<graph::NegOp>({b.value}, b.type()), b.value});
  Value y = f.op<graph::WhereOp>({wrong, f.op<graph::AddOp>({r, step}), r});
  if (half)
    y = f.op<graph::CastOp>({y}, c.tensor(*shape, c.b.getF16Type()));
  return f.finish(y);
}

/// Mod of signed integers and uint8: r = a - trunc(a / b) * b, C's remainder
/// (fmod = 1), or with the divisor's sign (fmod = 0, Python's %): r + b where
/// r is not 0 and its sign differs from b's.
LogicalResult importMod(NodeContext &c) {
  std::optional<Val> a = c.required(0), b = c.required(1);
  if (!a || !b)
    return failure();
  if (isa<FloatType>(a->element()))
    return importFloatMod(c, *a, *b);
  auto it = dyn_cast<IntegerType>(a->element());
  if (!it || a->element() != b->element() || it.getWidth() == 1 ||
      (it.isUnsigned() && it.getWidth() >= 16))
    return c.fail(code::UnsupportedType, "Mod of " + std::string(isa<FloatType>(a->element()) ? "floats" : "these integers") +
                                             " is not supported (signed integers and uint8)");
  auto shape = sh::broadcast(a->shape(), b->shape());
  if (!shape)
    return c.fail(code::ShapeMismatch, llvm::toString(shape.takeError()));
  auto rt = c.tensor(*shape, it), mt = c.tensor(*shape, c.b.getI1Type());
  F32Chain f{c, rt};
  Value q = f.op<graph::DivOp>({a->value, b->value});
  Value r = f.op<graph::SubOp>({a->value, f.op<graph::MulOp>({q, b->value})});
  if (!c.intAttr("fmod", 0) && !it.isUnsigned()) {
    Value zero = c.constant(DenseElementsAttr::get(c.tensor({1}, it), APInt(it.getWidth(), 0))).value;
    Value nonzero = f.op<graph::NotOp>({f.mask<graph::EqualOp>(r, zero)}, mt);
    Value rNeg = f.op<graph::LessOp>({r, zero}, mt);
    Value bNeg = f.op<graph::LessOp>({b->value, zero}, c.tensor(b->shape(), c.b.getI1Type()));
    Value differ = f.op<graph::XorOp>({rNeg, bNeg}, mt);
    Value fix = f.op<graph::AndOp>({nonzero, differ}, mt);
    r = f.op<graph::WhereOp>({fix, f.op<graph::AddOp>({r, b->value}), r});
  }
  return f.finish(r);
}

/// NegativeLogLikelihoodLoss, and SoftmaxCrossEntropyLoss as it on
/// LogSoftmax along axis 1: per element -input[n, t, d...] * weight[t] (0
/// where t is ignore_index), picked by a one-hot selection of the targets
/// (Equal with 0..C-1, Where, a sum along C: exact); then none, sum, or the
/// mean weighted by the picked weights (ONNX's definition).
LogicalResult importLoss(NodeContext &c) {
  bool softmax = c.node.op_type() == "SoftmaxCrossEntropyLoss";
  std::optional<Val> x = c.required(0), target = c.required(1);
  if (!x || !target)
    return failure();
  if (!x->element().isF32() || !isa<IntegerType>(target->element()))
    return c.fail(code::UnsupportedType, c.node.op_type() + " needs f32 scores and integer targets");
  ArrayRef<int64_t> xs = x->shape();
  int64_t rank = int64_t(xs.size());
  if (rank < 2 || int64_t(target->shape().size()) != rank - 1)
    return c.fail(code::ShapeMismatch, "the targets must have the scores' shape without axis 1");
  int64_t C = xs[1];
  std::string reduction = c.stringAttr("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return c.fail(code::UnsupportedAttr, "reduction '" + reduction + "' is not none, sum or mean");
  Type f32 = c.b.getF32Type(), it = target->element();
  if (it.isInteger(1))
    return c.fail(code::UnsupportedType, c.node.op_type() + " targets must be class indices, not bool");
  F32Chain f{c, x->type()};
  // Targets narrower than 32 bits are compared as int32: the class indices
  // 0..C-1 and ignore_index need not fit them.
  Value targets = target->value;
  if (cast<IntegerType>(it).getWidth() < 32) {
    it = c.b.getIntegerType(32);
    targets = f.op<graph::CastOp>({targets}, c.tensor(target->shape(), it));
  }
  Value scores = x->value;
  Value logProb;
  if (softmax) {
    FailureOr<Value> r = c.build<graph::LogSoftmaxOp>({scores}, x->type(),
                                                      {c.named("axis", c.b.getI64IntegerAttr(1))});
    if (failed(r))
      return failure();
    scores = logProb = *r;
  }
  SmallVector<int64_t> ts(target->shape().begin(), target->shape().end()), tu = ts;
  tu.insert(tu.begin() + 1, 1);
  FailureOr<Val> range = iota(c, it, C, 1, rank);
  if (failed(range))
    return failure();
  Value t1 = f.op<graph::ReshapeOp>({targets}, c.tensor(tu, it));
  Value hot = f.op<graph::EqualOp>({t1, range->value}, c.tensor(xs, c.b.getI1Type()));
  Value zero = f.scalar(0.0f);
  auto alongC = [&](Value v) {
    if (!f.ok)
      return Value();
    FailureOr<Value> r = c.build<graph::ReduceSumOp>({v}, c.tensor(ts, f32),
                                                     {c.named("axes", c.b.getDenseI64ArrayAttr({1})),
                                                      c.named("keepdims", c.b.getBoolAttr(false))});
    f.ok = succeeded(r);
    return f.ok ? *r : Value();
  };
  Value picked = alongC(f.op<graph::WhereOp>({hot, scores, zero}));
  Value w;  // the weight of each element's target, 0 where ignored
  if (std::optional<Val> weight = c.input(2)) {
    Value wc = f.op<graph::ReshapeOp>({weight->value}, c.tensor(range->type().getShape(), f32));
    w = alongC(f.op<graph::WhereOp>({hot, wc, zero}, c.tensor(xs, f32)));
  }
  // An ignore_index the targets' type cannot hold matches no target: nothing
  // is ignored (found by the importer fuzzer: INT64_MIN with int32 targets).
  if (const onnx::AttributeProto *ii = c.attr("ignore_index");
      ii && llvm::isIntN(cast<IntegerType>(it).getWidth(), ii->i())) {
    auto one = c.tensor({1}, it);
    Value ignore = c.constant(DenseElementsAttr::get(
        one, APInt(cast<IntegerType>(it).getWidth(), uint64_t(ii->i()), true))).value;
    Value keep =
        f.op<graph::NotOp>({f.op<graph::EqualOp>({targets, ignore}, c.tensor(ts, c.b.getI1Type()))},
                           c.tensor(ts, c.b.getI1Type()));
    Value valid = f.op<graph::CastOp>({keep}, c.tensor(ts, f32));
    w = w ? f.op<graph::MulOp>({w, valid}, c.tensor(ts, f32)) : valid;
  }
  Value loss = f.op<graph::NegOp>({w ? f.op<graph::MulOp>({picked, w}, c.tensor(ts, f32)) : picked},
                                  c.tensor(ts, f32));
  Value y = loss;
  if (reduction != "none") {
    SmallVector<int64_t> all, ones(ts.size(), 1);
    for (size_t i = 0; i < ts.size(); ++i)
      all.push_back(int64_t(i));
    auto total = [&](Value v) {
      if (!f.ok)
        return Value();
      FailureOr<Value> r = c.build<graph::ReduceSumOp>({v}, c.tensor(ones, f32),
                                                       {c.named("axes", c.b.getDenseI64ArrayAttr(all)),
                                                        c.named("keepdims", c.b.getBoolAttr(true))});
      f.ok = succeeded(r);
      return f.ok ? *r : Value();
    };
    y = total(loss);
    if (reduction == "mean") {
      int64_t n = 1;
      for (int64_t d : ts)
        n *= d;
      Value den = w ? total(w) : f.scalar(float(n));
      y = f.op<graph::DivOp>({y, den}, c.tensor(ones, f32));
    }
    y = f.op<graph::ReshapeOp>({y}, c.tensor({}, f32));
  }
  if (!f.ok)
    return failure();
  c.setOutput(0, y);
  if (softmax && c.node.output_size() > 1 && !c.node.output(1).empty())
    c.setOutput(1, logProb);
  return success();
}
} // namespace

void npuc::onnx_import::registerElementwiseOps(llvm::StringMap<OpImporter> &t) {
  t["NegativeLogLikelihoodLoss"] = importLoss;
  t["Mod"] = importMod;
  t["SoftmaxCrossEntropyLoss"] = importLoss;
  for (const char *op : {"Elu", "Selu", "Celu", "ThresholdedRelu", "Shrink", "Softplus", "Softsign", "Mish"})
    t[op] = importActivation;
  for (const auto &entry : binaries())
    t[entry.getKey()] = importBinary;
  for (const char *op : {"Relu", "Sigmoid", "Tanh", "Exp", "Log", "Neg", "Abs", "Sign", "Sqrt",
                         "Reciprocal", "Erf", "Floor", "Ceil", "Round", "HardSwish", "Sin", "Cos",
                         "Tan", "Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh"})
    t[op] = importSimpleUnary;
  t["Mean"] = importMean;
  t["Pow"] = importPow;
  t["Where"] = importWhere;
  t["Not"] = importNot;
  t["BitwiseNot"] = importBitwiseNot;
  t["Identity"] = importIdentity;
  t["Dropout"] = importDropout;
  t["LeakyRelu"] = importLeakyRelu;
  t["HardSigmoid"] = importHardSigmoid;
  t["Gelu"] = importGelu;
  t["Clip"] = importClip;
  t["LRN"] = importLRN;
}
