//===- OpsTraining.cpp - Optimizer update steps (ai.onnx.preview.training) -===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Adagrad, Momentum and Adam compute one optimizer step: elementwise formulas
// over each tensor and its gradient and accumulators, with the learning rate
// R (a run-time scalar) and the step count T. T decides the step's constants
// (decay, bias corrections, Momentum's first step), so it must be a constant
// (NPUC-E0104 names the graph input to freeze); the formulas are ONNX's in
// f32 graph ops (docs/numerics.md, "Optimizer steps (ai.onnx.preview.training)").
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include <cmath>

using namespace mlir;
using namespace npuc::onnx_import;

namespace {
/// Elementwise f32 arithmetic on values of one shape and [1] scalars.
struct Arith {
  NodeContext &c;
  RankedTensorType type;
  bool ok = true;

  Value scalar(double v) {
    auto t = c.tensor({1}, c.b.getF32Type());
    return c.constant(DenseElementsAttr::get(t, ArrayRef<float>{float(v)})).value;
  }
  template <typename OpTy>
  Value op(Value a, Value b) {
    if (!ok)
      return a;
    auto ta = cast<RankedTensorType>(a.getType()), tb = cast<RankedTensorType>(b.getType());
    RankedTensorType t = ta.getNumElements() >= tb.getNumElements() ? ta : tb;
    FailureOr<Value> r = c.build<OpTy>({a, b}, t);
    ok = succeeded(r);
    return ok ? *r : a;
  }
  Value add(Value a, Value b) { return op<graph::AddOp>(a, b); }
  Value sub(Value a, Value b) { return op<graph::SubOp>(a, b); }
  Value mul(Value a, Value b) { return op<graph::MulOp>(a, b); }
  Value div(Value a, Value b) { return op<graph::DivOp>(a, b); }
  Value sqrt(Value a) {
    if (!ok)
      return a;
    FailureOr<Value> r = c.build<graph::SqrtOp>({a}, a.getType());
    ok = succeeded(r);
    return ok ? *r : a;
  }
};

/// The common inputs: R, a scalar f32 (as [1]), and T, a constant count; the
/// n groups of `groups` tensors after them, each group of n f32 tensors whose
/// shapes agree tensor by tensor.
struct StepInputs {
  Value r;
  int64_t t = 0;
  size_t n = 0;
};

std::optional<StepInputs> stepInputs(NodeContext &c, size_t groups) {
  std::optional<Val> r = c.required(0);
  auto t = c.constantInts(1, "T, the update count");
  if (!r || !t)
    return std::nullopt;
  if (r->type().getNumElements() != 1 || !r->element().isF32() || t->size() != 1) {
    (void)c.fail(code::ShapeMismatch, "R must be an f32 scalar and T an integer scalar");
    return std::nullopt;
  }
  if (c.numInputs() < 2 + groups || (c.numInputs() - 2) % groups != 0) {
    (void)c.fail(code::Structure, "the inputs after R and T are not " + llvm::Twine(groups) + " groups of equal size");
    return std::nullopt;
  }
  StepInputs s;
  s.t = (*t)[0];
  s.n = (c.numInputs() - 2) / groups;
  FailureOr<Value> rv = c.build<graph::ReshapeOp>({r->value}, c.tensor({1}, r->element()));
  if (failed(rv))
    return std::nullopt;
  s.r = *rv;
  for (size_t i = 0; i < s.n; ++i)
    for (size_t g = 0; g < groups; ++g) {
      std::optional<Val> v = c.required(2 + g * s.n + i), x = c.required(2 + i);
      if (!v || !x)
        return std::nullopt;
      if (!v->element().isF32() || v->type() != x->type()) {
        (void)c.fail(code::ShapeMismatch, "input " + llvm::Twine(2 + g * s.n + i) +
                                              " must be f32 of its tensor's shape");
        return std::nullopt;
      }
    }
  return s;
}

/// norm_coefficient * X + G.
Value regularized(Arith &a, Value x, Value g, double norm) {
  return norm == 0.0 ? g : a.add(a.mul(a.scalar(norm), x), g);
}

/// Adagrad: r = R / (1 + T * decay_factor), G' = norm * X + G, H' = H + G'^2,
/// X' = X - r * G' / (sqrt(H') + epsilon).
LogicalResult importAdagrad(NodeContext &c) {
  std::optional<StepInputs> s = stepInputs(c, 3);
  if (!s)
    return failure();
  double decay = c.floatAttr("decay_factor", 0), eps = c.floatAttr("epsilon", 1e-6f),
         norm = c.floatAttr("norm_coefficient", 0);
  Arith a{c, {}};
  Value r = a.div(s->r, a.scalar(1.0 + double(s->t) * decay));
  for (size_t i = 0; i < s->n; ++i) {
    Value x = c.input(2 + i)->value, g = c.input(2 + s->n + i)->value, h = c.input(2 + 2 * s->n + i)->value;
    Value gr = regularized(a, x, g, norm);
    Value hNew = a.add(h, a.mul(gr, gr));
    Value xNew = a.sub(x, a.mul(r, a.div(gr, a.add(a.sqrt(hNew), a.scalar(eps)))));
    if (!a.ok)
      return failure();
    c.setOutput(i, xNew);
    c.setOutput(s->n + i, hNew);
  }
  return success();
}

/// Momentum: G' = norm * X + G, V' = alpha * V + beta' * G' (beta' = beta
/// after the first step, T > 0, else 1); standard X' = X - R * V', nesterov
/// X' = X - R * (G' + alpha * V').
LogicalResult importMomentum(NodeContext &c) {
  std::optional<StepInputs> s = stepInputs(c, 3);
  if (!s)
    return failure();
  double alpha = c.floatAttr("alpha", 0), beta = c.floatAttr("beta", 0), norm = c.floatAttr("norm_coefficient", 0);
  std::string mode = c.stringAttr("mode", "standard");
  if (mode != "standard" && mode != "nesterov")
    return c.fail(code::UnsupportedAttr, "mode '" + mode + "' is not standard or nesterov");
  double betaT = s->t > 0 ? beta : 1.0;
  Arith a{c, {}};
  for (size_t i = 0; i < s->n; ++i) {
    Value x = c.input(2 + i)->value, g = c.input(2 + s->n + i)->value, v = c.input(2 + 2 * s->n + i)->value;
    Value gr = regularized(a, x, g, norm);
    Value vNew = a.add(a.mul(a.scalar(alpha), v), a.mul(a.scalar(betaT), gr));
    Value step = mode == "standard" ? vNew : a.add(gr, a.mul(a.scalar(alpha), vNew));
    Value xNew = a.sub(x, a.mul(s->r, step));
    if (!a.ok)
      return failure();
    c.setOutput(i, xNew);
    c.setOutput(s->n + i, vNew);
  }
  return success();
}

/// Adam: G' = norm * X + G, V' = alpha V + (1 - alpha) G', H' = beta H + (1 -
/// beta) G'^2, r = R * sqrt(1 - beta^T) / (1 - alpha^T) when T > 0 (else R),
/// X' = (1 - norm_post) * (X - r * V' / (sqrt(H') + epsilon)).
LogicalResult importAdam(NodeContext &c) {
  std::optional<StepInputs> s = stepInputs(c, 4);
  if (!s)
    return failure();
  double alpha = c.floatAttr("alpha", 0.9f), beta = c.floatAttr("beta", 0.999f), eps = c.floatAttr("epsilon", 1e-6f),
         norm = c.floatAttr("norm_coefficient", 0), post = c.floatAttr("norm_coefficient_post", 0);
  Arith a{c, {}};
  Value r = s->r;
  if (s->t > 0)
    r = a.mul(r, a.scalar(std::sqrt(1 - std::pow(beta, double(s->t))) / (1 - std::pow(alpha, double(s->t)))));
  for (size_t i = 0; i < s->n; ++i) {
    Value x = c.input(2 + i)->value, g = c.input(2 + s->n + i)->value, v = c.input(2 + 2 * s->n + i)->value,
          h = c.input(2 + 3 * s->n + i)->value;
    Value gr = regularized(a, x, g, norm);
    Value vNew = a.add(a.mul(a.scalar(alpha), v), a.mul(a.scalar(1 - alpha), gr));
    Value hNew = a.add(a.mul(a.scalar(beta), h), a.mul(a.scalar(1 - beta), a.mul(gr, gr)));
    Value xNew = a.sub(x, a.mul(r, a.div(vNew, a.add(a.sqrt(hNew), a.scalar(eps)))));
    if (post != 0.0)
      xNew = a.mul(a.scalar(1 - post), xNew);
    if (!a.ok)
      return failure();
    c.setOutput(i, xNew);
    c.setOutput(s->n + i, vNew);
    c.setOutput(2 * s->n + i, hNew);
  }
  return success();
}
} // namespace

void npuc::onnx_import::registerTrainingOps(llvm::StringMap<OpImporter> &t) {
  t["ai.onnx.preview.training::Adagrad"] = importAdagrad;
  t["ai.onnx.preview.training::Momentum"] = importMomentum;
  t["ai.onnx.preview.training::Adam"] = importAdam;
}
