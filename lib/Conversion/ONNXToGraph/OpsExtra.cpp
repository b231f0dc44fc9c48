//===- OpsExtra.cpp - Normalizations and recurrences -----------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"

using namespace mlir;
using namespace npuc::onnx_import;

namespace {
/// InstanceNormalization: a LayerNormalization over the spatial axes (from
/// axis 2, scale 1, no bias), then the per-channel scale and bias as [C, 1,
/// ..] operands; the steps in ONNX's order, (x - mean) / sqrt(var + eps) * s + b.
LogicalResult importInstanceNorm(NodeContext &c) {
  std::optional<Val> x = c.required(0), s = c.required(1), b = c.required(2);
  if (!x || !s || !b)
    return failure();
  ArrayRef<int64_t> xs = x->shape();
  if (xs.size() < 3 || !x->element().isF32())
    return c.fail(code::UnsupportedType,
                  "InstanceNormalization needs an f32 input of rank 3 or more");
  int64_t C = xs[1];
  if (s->shape() != ArrayRef<int64_t>{C} || b->shape() != ArrayRef<int64_t>{C})
    return c.fail(code::ShapeMismatch, "InstanceNormalization's scale and bias must have C = " +
                                           llvm::Twine(C) + " elements");
  Type f32 = c.b.getF32Type();
  Val one = c.constant(DenseElementsAttr::get(c.tensor({1}, f32), ArrayRef<float>{1.0f}));
  SmallVector<int64_t> statistics(xs.begin(), xs.end());
  std::fill(statistics.begin() + 2, statistics.end(), 1);
  Type stats = c.tensor(statistics, f32);
  FailureOr<Operation *> ln =
      c.buildOp<graph::LayerNormOp>({x->value, one.value}, {x->type(), stats, stats},
                                    {c.named("axis", c.b.getI64IntegerAttr(2)),
                                     c.named("epsilon", c.b.getF32FloatAttr(c.floatAttr("epsilon", 1e-5f))),
                                     c.named("stash_type", c.b.getI64IntegerAttr(1))});
  if (failed(ln))
    return failure();
  SmallVector<int64_t> perChannel(xs.size() - 1, 1);
  perChannel[0] = C;
  FailureOr<Value> sc = buildReshape(c, s->value, perChannel);
  FailureOr<Value> bc = buildReshape(c, b->value, perChannel);
  if (failed(sc) || failed(bc))
    return failure();
  FailureOr<Value> scaled = c.build<graph::MulOp>({(*ln)->getResult(0), *sc}, x->type());
  if (failed(scaled))
    return failure();
  return c.buildOutput<graph::AddOp>({*scaled, *bc}, x->type());
}

LogicalResult importLayerNorm(NodeContext &c) {
  std::optional<Val> x = c.required(0), s = c.required(1);
  if (!x || !s)
    return failure();
  auto axis = c.axis(c.intAttr("axis", -1), int64_t(x->shape().size()));
  if (!axis)
    return failure();
  int64_t stash = c.intAttr("stash_type", 1);
  if (stash != 1)
    return c.fail(code::UnsupportedAttr, "stash_type " + std::to_string(stash) +
                                             " is not supported; the statistics are computed in "
                                             "float (stash_type 1)");
  SmallVector<Value> operands{x->value, s->value};
  if (std::optional<Val> b = c.input(2))
    operands.push_back(b->value);
  // Mean and InvStdDev: f32, the input's shape with the normalized axes 1.
  SmallVector<int64_t> statistics(x->shape().begin(), x->shape().end());
  std::fill(statistics.begin() + *axis, statistics.end(), 1);
  Type stats = c.tensor(statistics, c.b.getF32Type());
  SmallVector<Type> results{x->type(), stats, stats};
  FailureOr<Operation *> op =
      c.buildOp<graph::LayerNormOp>(operands, results,
                                    {c.named("axis", c.b.getI64IntegerAttr(*axis)),
                                     c.named("epsilon", c.b.getF32FloatAttr(c.floatAttr("epsilon", 1e-5f))),
                                     c.named("stash_type", c.b.getI64IntegerAttr(stash))});
  if (failed(op))
    return failure();
  for (int i = 0; i < c.node.output_size() && i < 3; ++i)
    if (!c.node.output(i).empty())
      c.setOutput(unsigned(i), (*op)->getResult(unsigned(i)));
  return success();
}

/// RMSNormalization (opset 23): x / sqrt(mean(x^2 over the axes from
/// `axis` on) + epsilon) * scale, as graph ops in that order, in f32.
LogicalResult importRMSNorm(NodeContext &c) {
  std::optional<Val> x = c.required(0), s = c.required(1);
  if (!x || !s)
    return failure();
  if (!x->element().isF32())
    return c.fail(code::UnsupportedType, "RMSNormalization of a non-f32 input is not supported");
  int64_t rank = int64_t(x->shape().size());
  auto axis = c.axis(c.intAttr("axis", -1), rank);
  if (!axis)
    return failure();
  if (int64_t stash = c.intAttr("stash_type", 1); stash != 1)
    return c.fail(code::UnsupportedAttr, "stash_type " + std::to_string(stash) +
                                             " is not supported; the mean is computed in float "
                                             "(stash_type 1)");
  float eps = c.floatAttr("epsilon", 1e-5f);
  SmallVector<int64_t> axes, reduced(x->shape().begin(), x->shape().end());
  for (int64_t a = *axis; a < rank; ++a) {
    axes.push_back(a);
    reduced[size_t(a)] = 1;
  }
  Type f32 = c.b.getF32Type();
  auto scalarType = c.tensor({1}, f32);
  FailureOr<Value> sq = c.build<graph::MulOp>({x->value, x->value}, x->type());
  if (failed(sq))
    return failure();
  FailureOr<Value> mean = c.build<graph::ReduceMeanOp>({*sq}, c.tensor(reduced, f32),
                                                       {c.named("axes", c.b.getDenseI64ArrayAttr(axes)),
                                                        c.named("keepdims", c.b.getBoolAttr(true))});
  if (failed(mean))
    return failure();
  Val e = c.constant(DenseElementsAttr::get(scalarType, ArrayRef<float>{eps}));
  FailureOr<Value> shifted = c.build<graph::AddOp>({*mean, e.value}, c.tensor(reduced, f32));
  if (failed(shifted))
    return failure();
  FailureOr<Value> root = c.build<graph::SqrtOp>({*shifted}, c.tensor(reduced, f32));
  if (failed(root))
    return failure();
  FailureOr<Value> normalized = c.build<graph::DivOp>({x->value, *root}, x->type());
  if (failed(normalized))
    return failure();
  return c.buildOutput<graph::MulOp>({*normalized, s->value}, x->type());
}

/// Trilu: x where the diagonal offset j - i of its last two axes is at
/// least k (upper) or at most k (lower), else 0; k may be computed at run
/// time: Where(Compare(D, k), x, 0) with D = j - i a constant.
LogicalResult importTrilu(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  ArrayRef<int64_t> shape = x->shape();
  if (shape.size() < 2)
    return c.fail(code::ShapeMismatch, "Trilu needs an input of rank 2 or more");
  int64_t H = shape[shape.size() - 2], W = shape[shape.size() - 1];
  if (H * W == 0) {  // no element to keep or zero: the empty input itself
    c.setOutput(0, x->value);
    return success();
  }
  if (!c.fitsBuiltConstant(H * W, "Trilu of a " + llvm::Twine(H) + "x" + llvm::Twine(W) + " matrix"))
    return failure();
  Type i64 = c.b.getI64Type();
  SmallVector<int64_t> offsets;
  for (int64_t i = 0; i < H; ++i)
    for (int64_t j = 0; j < W; ++j)
      offsets.push_back(j - i);
  Val d = c.constant(DenseElementsAttr::get(c.tensor({H, W}, i64), ArrayRef<int64_t>(offsets)));
  Value k;
  if (std::optional<Val> kv = c.input(1)) {
    if (kv->element() != i64 || kv->type().getNumElements() != 1)
      return c.fail(code::UnsupportedType, "Trilu's k must be one int64");
    k = kv->value;
  } else {
    k = c.constant(DenseElementsAttr::get(c.tensor({1}, i64), ArrayRef<int64_t>{0})).value;
  }
  bool upper = c.intAttr("upper", 1) != 0;
  GraphOpBuilder compare = upper ? graphOp<graph::GreaterOrEqualOp> : graphOp<graph::LessOrEqualOp>;
  FailureOr<Value> keep = c.build(compare, {d.value, k}, c.tensor({H, W}, c.b.getI1Type()));
  if (failed(keep))
    return failure();
  auto zt = c.tensor({1}, x->element());
  Attribute zero = isa<FloatType>(x->element()) ? Attribute(c.b.getFloatAttr(x->element(), 0.0))
                                                : Attribute(c.b.getIntegerAttr(x->element(), 0));
  Val z = c.constant(DenseElementsAttr::get(zt, zero));
  return c.buildOutput<graph::WhereOp>({*keep, x->value, z.value}, x->type());
}

/// x * sigmoid(alpha * x), with alpha the node's (default 1).
FailureOr<Value> buildSwish(NodeContext &c, Val x) {
  float alpha = c.floatAttr("alpha", 1.0f);
  Value scaled = x.value;
  if (alpha != 1.0f) {
    Val a = c.constant(DenseElementsAttr::get(c.tensor({1}, x.element()), ArrayRef<float>{alpha}));
    FailureOr<Value> m = c.build<graph::MulOp>({x.value, a.value}, x.type());
    if (failed(m))
      return failure();
    scaled = *m;
  }
  FailureOr<Value> gate = c.build<graph::SigmoidOp>({scaled}, x.type());
  if (failed(gate))
    return failure();
  return c.build<graph::MulOp>({x.value, *gate}, x.type());
}

/// Swish (opset 24): x * sigmoid(alpha * x).
LogicalResult importSwish(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  FailureOr<Value> y = buildSwish(c, *x);
  if (failed(y))
    return failure();
  c.setOutput(0, *y);
  return success();
}

/// SwiGLU (opset 28): Swish(A) * B, A and B of one shape (ONNX does not
/// broadcast them).
LogicalResult importSwiGLU(NodeContext &c) {
  std::optional<Val> a = c.required(0), v = c.required(1);
  if (!a || !v)
    return failure();
  if (a->type() != v->type())
    return c.fail(code::ShapeMismatch, "SwiGLU's A and B must have one shape and element type "
                                       "(ONNX does not broadcast them)");
  FailureOr<Value> gate = buildSwish(c, *a);
  if (failed(gate))
    return failure();
  return c.buildOutput<graph::MulOp>({*gate, v->value}, a->type());
}

LogicalResult importRecurrent(NodeContext &c) {
  bool lstm = c.node.op_type() == "LSTM", rnn = c.node.op_type() == "RNN";
  std::optional<Val> x = c.required(0), w = c.required(1), r = c.required(2);
  if (!x || !w || !r)
    return failure();
  if (x->shape().size() != 3 || r->shape().size() != 3)
    return c.fail(code::ShapeMismatch, "X and R must be 3-D");
  std::string direction = c.stringAttr("direction", "forward");
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  int64_t hidden = c.intAttr("hidden_size", r->shape()[2]);
  int64_t layout = c.intAttr("layout", 0);
  std::vector<std::string> activations;
  if (const onnx::AttributeProto *a = c.attr("activations"))
    activations.assign(a->strings().begin(), a->strings().end());
  if (activations.empty())
    for (int64_t d = 0; d < dirs; ++d)
      for (const char *name : lstm  ? std::vector<const char *>{"Sigmoid", "Tanh", "Tanh"}
                              : rnn ? std::vector<const char *>{"Tanh"}
                                    : std::vector<const char *>{"Sigmoid", "Tanh"})
        activations.push_back(name);
  SmallVector<StringRef> names(activations.begin(), activations.end());
  SmallVector<Value> operands{x->value, w->value, r->value};
  size_t optionalCount = lstm ? 5 : 3;  // B, sequence_lens, initial_h[, initial_c, P]
  SmallVector<int32_t> segments{1, 1, 1};
  for (size_t i = 3; i < 3 + optionalCount; ++i) {
    std::optional<Val> v = c.input(i);
    segments.push_back(v ? 1 : 0);
    if (v)
      operands.push_back(v->value);
  }
  int64_t batch = layout ? x->shape()[0] : x->shape()[1], seq = layout ? x->shape()[1] : x->shape()[0];
  Type element = x->element();
  auto y = c.tensor(layout ? SmallVector<int64_t>{batch, seq, dirs, hidden}
                           : SmallVector<int64_t>{seq, dirs, batch, hidden}, element);
  auto state = c.tensor(layout ? SmallVector<int64_t>{batch, dirs, hidden}
                               : SmallVector<int64_t>{dirs, batch, hidden}, element);
  SmallVector<Type> results{y, state};
  if (lstm)
    results.push_back(state);
  SmallVector<NamedAttribute> attrs{
      c.named("operandSegmentSizes", c.b.getDenseI32ArrayAttr(segments)),
      c.named("hidden_size", c.b.getI64IntegerAttr(hidden)),
      c.named("direction", c.b.getStringAttr(direction)),
      c.named("activations", c.b.getStrArrayAttr(names)),
      c.named("activation_alpha", c.b.getDenseF32ArrayAttr(c.floatsAttr("activation_alpha").value_or(std::vector<float>()))),
      c.named("activation_beta", c.b.getDenseF32ArrayAttr(c.floatsAttr("activation_beta").value_or(std::vector<float>()))),
      c.named("clip", c.b.getF32FloatAttr(c.floatAttr("clip", 0.0f))),
      c.named("layout", c.b.getI64IntegerAttr(layout))};
  if (lstm)
    attrs.push_back(c.named("input_forget", c.b.getBoolAttr(c.intAttr("input_forget", 0))));
  else if (!rnn)
    attrs.push_back(c.named("linear_before_reset", c.b.getBoolAttr(c.intAttr("linear_before_reset", 0))));
  FailureOr<Operation *> op = lstm  ? c.buildOp<graph::LSTMOp>(operands, results, attrs)
                              : rnn ? c.buildOp<graph::RNNOp>(operands, results, attrs)
                                    : c.buildOp<graph::GRUOp>(operands, results, attrs);
  if (failed(op))
    return failure();
  for (unsigned i = 0; i < (*op)->getNumResults(); ++i)
    c.setOutput(i, (*op)->getResult(i));
  return success();
}

/// LpNormalization (opset 1, 22): x / ||x||_p along `axis`, p 1 (the sum of
/// |x|) or 2 (the root of the sum of squares), with no epsilon: a zero norm
/// divides by zero as ONNX's definition does.
LogicalResult importLpNormalization(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (!isa<FloatType>(x->element()) || isa<quant::QuantizedType>(x->element()))
    return c.fail(code::UnsupportedType, "LpNormalization of float data only");
  int64_t rank = int64_t(x->shape().size());
  std::optional<int64_t> axis = c.axis(c.intAttr("axis", -1), rank, "axis");
  if (!axis)
    return failure();
  int64_t p = c.intAttr("p", 2);
  if (p != 1 && p != 2)
    return c.fail(code::UnsupportedAttr, "LpNormalization p is " + llvm::Twine(p) + ", expected 1 or 2");
  SmallVector<int64_t> normShape(x->shape());
  normShape[size_t(*axis)] = 1;
  RankedTensorType type = x->type(), normType = c.tensor(normShape, x->element());
  OpChain b{c};
  Value v = p == 1 ? b.op<graph::AbsOp>({x->value}, type) : b.op<graph::MulOp>({x->value, x->value}, type);
  Value norm = b.op<graph::ReduceSumOp>({v}, normType,
                                        {c.named("axes", c.b.getDenseI64ArrayAttr({*axis})),
                                         c.named("keepdims", c.b.getBoolAttr(true))});
  if (p == 2)
    norm = b.op<graph::SqrtOp>({norm}, normType);
  return b.finish(b.op<graph::DivOp>({x->value, norm}, type));
}

/// GroupNormalization (opsets 18, 21): x [N, C, ...] as [N, G, rest], each
/// group normalized by its mean and (biased) variance, (x - mean) /
/// sqrt(var + epsilon), then scale and bias: per group ([G], opset 18) or
/// per channel ([C], opset 21). float16 data is computed in float32
/// (stash_type 1, the default) and rounded back once.
LogicalResult importGroupNormalization(NodeContext &c) {
  std::optional<Val> x = c.required(0), scale = c.required(1), bias = c.required(2);
  if (!x || !scale || !bias)
    return failure();
  Type el = x->element();
  if (!(el.isF32() || el.isF16()) || scale->element() != el || bias->element() != el)
    return c.fail(code::UnsupportedType, "GroupNormalization of f32 or f16 X, scale and bias of one type only");
  if (c.intAttr("stash_type", 1) != 1)
    return c.fail(code::UnsupportedAttr, "stash_type " + llvm::Twine(c.intAttr("stash_type", 1)) +
                                             " is not supported (1: float32)");
  ArrayRef<int64_t> xs = x->shape();
  std::optional<int64_t> groups = c.sizeAttr("num_groups", 0, 1);
  if (!groups)
    return failure();
  if (xs.size() < 2 || xs[1] % *groups)
    return c.fail(code::ShapeMismatch, "X " + sh::str(xs) + " must be [N, C, ...] with C a multiple of num_groups " +
                                           llvm::Twine(*groups));
  int64_t N = xs[0], C = xs[1], G = *groups, rest = 1;
  for (int64_t d : xs.drop_front(1))
    rest *= d;
  rest /= G;
  bool perChannel = c.opset >= 21;
  int64_t params = perChannel ? C : G;
  if (scale->shape() != ArrayRef<int64_t>{params} || bias->shape() != ArrayRef<int64_t>{params})
    return c.fail(code::ShapeMismatch, "scale and bias must be [" + llvm::Twine(params) + "] (" +
                                           (perChannel ? "one per channel, opset 21" : "one per group, opset 18") +
                                           "), got " + sh::str(scale->shape()) + " and " + sh::str(bias->shape()));
  Type f32 = c.b.getF32Type();
  OpChain b{c};
  auto widen = [&](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    return el.isF16() ? b.op<graph::CastOp>({v}, t.clone(f32)) : v;
  };
  auto grouped = c.tensor({N, G, rest}, f32), stat = c.tensor({N, G, 1}, f32);
  SmallVector<NamedAttribute> over{c.named("axes", c.b.getDenseI64ArrayAttr({2})),
                                   c.named("keepdims", c.b.getBoolAttr(true))};
  Value xg = b.reshape(widen(x->value), {N, G, rest});
  Value mean = b.op<graph::ReduceMeanOp>({xg}, stat, over);
  Value d = b.op<graph::SubOp>({xg, mean}, grouped);
  Value var = b.op<graph::ReduceMeanOp>({b.op<graph::MulOp>({d, d}, grouped)}, stat, over);
  Value den = b.op<graph::SqrtOp>({b.op<graph::AddOp>({var, b.splat(f32, c.floatAttr("epsilon", 1e-5f))}, stat)}, stat);
  Value y = b.op<graph::DivOp>({d, den}, grouped);
  // Per group: [G, 1] over [N, G, rest]; per channel: [C, 1, ...] over X.
  SmallVector<int64_t> pshape{params};
  if (perChannel) {
    y = b.reshape(y, xs);
    pshape.append(xs.size() - 2, 1);
  } else {
    pshape.push_back(1);
  }
  auto yt = cast<RankedTensorType>(y.getType());
  y = b.op<graph::MulOp>({y, b.reshape(widen(scale->value), pshape)}, yt);
  y = b.op<graph::AddOp>({y, b.reshape(widen(bias->value), pshape)}, yt);
  y = b.reshape(y, xs);
  if (el.isF16())
    y = b.op<graph::CastOp>({y}, c.tensor(xs, el));
  return b.finish(y);
}

/// MeanVarianceNormalization (ONNX's function): (x - E[x]) / (sqrt(E[x^2] -
/// E[x]^2) + 1e-9), the means over `axes` (default [0, 2, 3]) kept as axes;
/// the squares are products, as numpy's x ** 2.
LogicalResult importMeanVarianceNorm(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (!x->element().isF32())
    return c.fail(code::UnsupportedType, "MeanVarianceNormalization of f32 data only");
  int64_t rank = int64_t(x->shape().size());
  std::vector<int64_t> axes = c.intsAttr("axes").value_or(std::vector<int64_t>{0, 2, 3});
  SmallVector<int64_t> norm, meanShape(x->shape());
  for (int64_t a : axes) {
    std::optional<int64_t> n = c.axis(a, rank, "axes");
    if (!n)
      return failure();
    if (!llvm::is_contained(norm, *n))
      norm.push_back(*n);
  }
  llvm::sort(norm);
  for (int64_t a : norm)
    meanShape[size_t(a)] = 1;
  RankedTensorType type = x->type(), meanType = c.tensor(meanShape, x->element());
  SmallVector<NamedAttribute> reduce{c.named("axes", c.b.getDenseI64ArrayAttr(norm)),
                                     c.named("keepdims", c.b.getBoolAttr(true))};
  auto eps = c.constant(DenseElementsAttr::get(c.tensor({1}, x->element()), ArrayRef<float>{1e-9f}));
  FailureOr<Value> mean = c.build<graph::ReduceMeanOp>({x->value}, meanType, reduce);
  FailureOr<Value> sq = c.build<graph::MulOp>({x->value, x->value}, type);
  if (failed(mean) || failed(sq))
    return failure();
  FailureOr<Value> meanSq = c.build<graph::ReduceMeanOp>({*sq}, meanType, reduce);
  FailureOr<Value> sqMean = c.build<graph::MulOp>({*mean, *mean}, meanType);
  if (failed(meanSq) || failed(sqMean))
    return failure();
  FailureOr<Value> den = c.build<graph::SubOp>({*meanSq, *sqMean}, meanType);
  if (succeeded(den))
    den = c.build<graph::SqrtOp>({*den}, meanType);
  if (succeeded(den))
    den = c.build<graph::AddOp>({*den, eps.value}, meanType);
  FailureOr<Value> centered = c.build<graph::SubOp>({x->value, *mean}, type);
  if (failed(den) || failed(centered))
    return failure();
  return c.buildOutput<graph::DivOp>({*centered, *den}, type);
}
} // namespace

void npuc::onnx_import::registerExtraOps(llvm::StringMap<OpImporter> &t) {
  t["InstanceNormalization"] = importInstanceNorm;
  t["LayerNormalization"] = importLayerNorm;
  t["RMSNormalization"] = importRMSNorm;
  t["MeanVarianceNormalization"] = importMeanVarianceNorm;
  t["LpNormalization"] = importLpNormalization;
  t["GroupNormalization"] = importGroupNormalization;
  t["Swish"] = importSwish;
  t["SwiGLU"] = importSwiGLU;
  t["Trilu"] = importTrilu;
  t["LSTM"] = importRecurrent;
  t["GRU"] = importRecurrent;
  t["RNN"] = importRecurrent;
}
