//===- GraphExpandRecurrent.cpp - LSTM, GRU and RNN as graph ops over time -===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Each recurrence becomes, per direction, one matrix product of every time
// step's input by W (the input projection, hoisted out of the recurrence,
// with the biases that do not depend on the state), then per time step the
// recurrent product h x R^T, the gates and the state update, as ONNX defines
// them (docs/numerics.md, "LSTM, GRU, RNN"). The steps are unrolled: the state
// passes from one step to the next as a graph value. Each gate's columns of
// the products start at an aligned column (`gate-align`), so that a step's
// gates are slices the emit passes can keep in LM.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/StringSwitch.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHEXPANDRECURRENT
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// The time steps (sequence length x directions) beyond which a recurrence
/// is left alone (no lowering: a diagnostic), as the unrolled program grows
/// with them.
constexpr int64_t kMaxUnrolledSteps = 4096;

/// Builds f32 graph ops at one location.
struct Ops {
  RewriterBase &rw;
  Location loc;
  Type f32;

  RankedTensorType type(ArrayRef<int64_t> shape, Type el = {}) const {
    return RankedTensorType::get(shape, el ? el : f32);
  }
  static ArrayRef<int64_t> shape(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }
  Value scalar(float v) const {
    auto t = type({1});
    return ConstantOp::create(rw, loc, t, DenseElementsAttr::get(t, ArrayRef<float>{v}));
  }
  Value splat(ArrayRef<int64_t> s, float v) const {
    auto t = type(s);
    return ConstantOp::create(rw, loc, t, DenseElementsAttr::get(t, v));
  }
  Value zeros(ArrayRef<int64_t> s) const { return splat(s, 0.0f); }
  /// v[lo[i] : hi[i]] on every axis.
  Value slice(Value v, ArrayRef<int64_t> lo, ArrayRef<int64_t> hi) const {
    SmallVector<int64_t> out, steps(lo.size(), 1);
    for (auto [a, b] : llvm::zip(lo, hi))
      out.push_back(b - a);
    auto el = cast<RankedTensorType>(v.getType()).getElementType();
    return SliceOp::create(rw, loc, type(out, el), v, lo, hi, steps);
  }
  /// Columns [lo, hi) of a 2-D value.
  Value cols(Value v, int64_t lo, int64_t hi) const {
    return slice(v, {0, lo}, {shape(v)[0], hi});
  }
  Value reshape(Value v, ArrayRef<int64_t> s) const {
    auto el = cast<RankedTensorType>(v.getType()).getElementType();
    return ReshapeOp::create(rw, loc, type(s, el), v);
  }
  Value transpose(Value v, ArrayRef<int64_t> perm) const {
    SmallVector<int64_t> out;
    for (int64_t p : perm)
      out.push_back(shape(v)[size_t(p)]);
    return TransposeOp::create(rw, loc, type(out), v, perm);
  }
  Value concat(ValueRange vs, int64_t axis) const {
    if (vs.size() == 1)
      return vs.front();
    SmallVector<int64_t> out(shape(vs.front()));
    out[size_t(axis)] = 0;
    for (Value v : vs)
      out[size_t(axis)] += shape(v)[size_t(axis)];
    return ConcatOp::create(rw, loc, type(out), vs, axis);
  }
  /// `v` [..., gates * h] with gate g's h columns at g * pitch, zero columns
  /// between.
  Value padGates(Value v, int64_t gates, int64_t h, int64_t pitch) const {
    if (pitch == h)
      return v;
    SmallVector<int64_t> lo(shape(v).size(), 0), hi(shape(v)), gap(shape(v));
    size_t last = hi.size() - 1;
    gap[last] = pitch - h;
    SmallVector<Value> parts;
    for (int64_t g = 0; g < gates; ++g) {
      lo[last] = g * h;
      hi[last] = (g + 1) * h;
      parts.push_back(slice(v, lo, hi));
      parts.push_back(zeros(gap));
    }
    return concat(parts, int64_t(last));
  }
  /// [M, K] x [K, N].
  Value matmul(Value a, Value b) const {
    return MatMulOp::create(rw, loc, type({shape(a)[0], shape(b)[1]}), a, b);
  }
  // Binary ops whose result has `a`'s shape (b broadcasts to it).
  Value add(Value a, Value b) const { return AddOp::create(rw, loc, a.getType(), a, b); }
  Value sub(Value a, Value b) const { return SubOp::create(rw, loc, a.getType(), a, b); }
  Value mul(Value a, Value b) const { return MulOp::create(rw, loc, a.getType(), a, b); }
  Value div(Value a, Value b) const { return DivOp::create(rw, loc, a.getType(), a, b); }
  Value where(Value m, Value a, Value b) const { return WhereOp::create(rw, loc, a.getType(), m, a, b); }
  Value greater(Value a, Value b) const {
    return GreaterOp::create(rw, loc, type(shape(a), rw.getI1Type()), a, b);
  }
  template <typename OpTy>
  Value unary(Value x) const {
    return OpTy::create(rw, loc, x.getType(), x);
  }
  Value clip(Value x, float c) const {
    return ClipOp::create(rw, loc, x.getType(), x, rw.getF64FloatAttr(-double(c)),
                          rw.getF64FloatAttr(double(c)));
  }
};

/// An activation of ONNX's recurrences with its alpha and beta.
struct Activation {
  std::string name;  // lower case
  float alpha = 0, beta = 0;
};

/// Whether `name` takes an alpha (a beta), and its default.
std::optional<float> alphaDefault(StringRef n) {
  return llvm::StringSwitch<std::optional<float>>(n)
      .Cases({"affine", "thresholdedrelu", "scaledtanh", "elu"}, 1.0f)
      .Case("leakyrelu", 0.01f)
      .Case("hardsigmoid", 0.2f)
      .Default(std::nullopt);
}
std::optional<float> betaDefault(StringRef n) {
  return llvm::StringSwitch<std::optional<float>>(n)
      .Case("affine", 0.0f)
      .Case("scaledtanh", 1.0f)
      .Case("hardsigmoid", 0.5f)
      .Default(std::nullopt);
}

/// The activations in order, each alpha (beta) taken from the attribute's
/// list in the order of the activations that take one, else the default of
/// the ONNX op of that name.
SmallVector<Activation> activations(Operation *op) {
  auto names = op->getAttrOfType<ArrayAttr>("activations");
  ArrayRef<float> alphas = op->getAttrOfType<DenseF32ArrayAttr>("activation_alpha").asArrayRef();
  ArrayRef<float> betas = op->getAttrOfType<DenseF32ArrayAttr>("activation_beta").asArrayRef();
  SmallVector<Activation> out;
  size_t ai = 0, bi = 0;
  for (Attribute a : names) {
    Activation f{cast<StringAttr>(a).getValue().lower()};
    if (std::optional<float> d = alphaDefault(f.name))
      f.alpha = ai < alphas.size() ? alphas[ai++] : *d;
    if (std::optional<float> d = betaDefault(f.name))
      f.beta = bi < betas.size() ? betas[bi++] : *d;
    out.push_back(f);
  }
  return out;
}

Value activate(const Ops &o, const Activation &f, Value x) {
  StringRef n = f.name;
  if (n == "sigmoid")
    return o.unary<SigmoidOp>(x);
  if (n == "tanh")
    return o.unary<TanhOp>(x);
  if (n == "relu")
    return o.unary<ReluOp>(x);
  if (n == "leakyrelu")
    return LeakyReluOp::create(o.rw, o.loc, x.getType(), x, o.rw.getF32FloatAttr(f.alpha));
  if (n == "hardsigmoid")
    return HardSigmoidOp::create(o.rw, o.loc, x.getType(), x, o.rw.getF32FloatAttr(f.alpha),
                                 o.rw.getF32FloatAttr(f.beta));
  if (n == "affine")
    return o.add(o.mul(x, o.scalar(f.alpha)), o.scalar(f.beta));
  if (n == "scaledtanh")
    return o.mul(o.unary<TanhOp>(o.mul(x, o.scalar(f.beta))), o.scalar(f.alpha));
  if (n == "thresholdedrelu")
    return o.where(o.greater(x, o.scalar(f.alpha)), x, o.zeros(Ops::shape(x)));
  if (n == "elu")
    return o.where(o.greater(x, o.scalar(0.0f)), x,
                   o.mul(o.sub(o.unary<ExpOp>(x), o.scalar(1.0f)), o.scalar(f.alpha)));
  if (n == "softsign")
    return o.div(x, o.add(o.unary<AbsOp>(x), o.scalar(1.0f)));
  // softplus: max(x, 0) + log(1 + exp(-|x|)), ONNX's log(exp(x) + 1) without
  // its overflow.
  Value e = o.unary<ExpOp>(o.unary<NegOp>(o.unary<AbsOp>(x)));
  return o.add(o.unary<ReluOp>(x), o.unary<LogOp>(o.add(e, o.scalar(1.0f))));
}

/// What a recurrence's expansion reads of its op.
struct Recurrence {
  enum Kind { LSTM, GRU, RNN } kind;
  Operation *op;
  Value x, w, r, b, seqLens, h0, c0, p;
  int64_t hidden, layout;
  StringRef direction;
  float clip;
  bool inputForget = false, linearBeforeReset = false;
  int64_t gateAlign = 1;

  int64_t gates() const { return kind == LSTM ? 4 : kind == GRU ? 3 : 1; }
  /// The columns from one gate's start to the next in the products: the
  /// hidden size rounded up to `gateAlign` (a single gate starts at 0).
  int64_t gatePitch() const {
    return gates() == 1 ? hidden : (hidden + gateAlign - 1) / gateAlign * gateAlign;
  }
  int64_t perDirection() const { return kind == LSTM ? 3 : kind == GRU ? 2 : 1; }
};

/// Whether every sequence length is a constant equal to `seq` (exporters
/// write one): no step is masked.
bool fullLengths(Value lens, int64_t seq) {
  if (!lens)
    return true;
  DenseElementsAttr a;
  if (!matchPattern(lens, m_Constant(&a)))
    return false;
  return llvm::all_of(a.getValues<APInt>(), [&](const APInt &v) { return v.getSExtValue() == seq; });
}

/// One direction's outputs: Y's steps in time order ([B, H] each), and the
/// final h and c.
struct DirectionResult {
  SmallVector<Value> steps;
  Value h, c;
};

/// Direction `d` of the recurrence over X [S, B, I] (sequence-major).
DirectionResult expandDirection(const Ops &o, const Recurrence &rc, Value x, int64_t d,
                                bool reverse, ArrayRef<Activation> fns, Value seqLens) {
  ArrayRef<int64_t> xs = Ops::shape(x);
  int64_t S = xs[0], B = xs[1], I = xs[2], H = rc.hidden, G = rc.gates(), P = rc.gatePitch();
  auto dirSlice = [&](Value v, int64_t rows, int64_t cols) {
    return o.reshape(o.slice(v, {d, 0, 0}, {d + 1, rows, cols}), {rows, cols});
  };
  // The input projection of every step: X [S*B, I] x W^T [I, G*P], plus the
  // biases that do not depend on the state (all of Wb; Rb too, but GRU's
  // hidden-gate Rb, which the reset gate scales, when linear_before_reset).
  // Gate g's columns are [g*P, g*P + H) of the products (P: gatePitch).
  Value wt = o.padGates(o.transpose(dirSlice(rc.w, G * H, I), {1, 0}), G, H, P);
  Value rt = o.padGates(o.transpose(dirSlice(rc.r, G * H, H), {1, 0}), G, H, P);
  Value xw = o.matmul(o.reshape(x, {S * B, I}), wt);
  Value rbHidden;
  if (rc.b) {
    Value bias = o.reshape(o.slice(rc.b, {d, 0}, {d + 1, 2 * G * H}), {2 * G * H});
    Value wb = o.slice(bias, {0}, {G * H}), rb = o.slice(bias, {G * H}, {2 * G * H});
    if (rc.kind == Recurrence::GRU && rc.linearBeforeReset) {
      rbHidden = o.slice(rb, {2 * H}, {3 * H});
      rb = o.concat({o.slice(rb, {0}, {2 * H}), o.zeros({H})}, 0);
    }
    xw = o.add(xw, o.padGates(o.add(wb, rb), G, H, P));
  }
  auto state = [&](Value init) {
    return init ? o.reshape(o.slice(init, {d, 0, 0}, {d + 1, B, H}), {B, H}) : o.zeros({B, H});
  };
  Value h = state(rc.h0), c = rc.kind == Recurrence::LSTM ? state(rc.c0) : Value();
  // The peepholes i, o, f; GRU's recurrent weights of z and r, and of h.
  Value peep[3];
  if (rc.p) {
    Value p = o.reshape(o.slice(rc.p, {d, 0}, {d + 1, 3 * H}), {3 * H});
    for (int64_t g = 0; g < 3; ++g)
      peep[g] = o.slice(p, {g * H}, {(g + 1) * H});
  }
  Value rtZR, rtH;
  if (rc.kind == Recurrence::GRU) {
    rtZR = o.cols(rt, 0, 2 * P);
    rtH = o.cols(rt, 2 * P, 2 * P + H);
  }
  auto gate = [&](const Activation &f, Value v) { return activate(o, f, rc.clip > 0 ? o.clip(v, rc.clip) : v); };
  const Activation &f = fns[0];
  // 1 - v as -v + 1, exactly the same float: two VECTOR ops with
  // immediates, where a [B, H] constant of ones was loaded at every step.
  auto oneMinus = [&](Value v) {
    Value negated = o.mul(v, o.scalar(-1.0f));
    return o.add(negated, o.scalar(1.0f));
  };
  Value noOutput = seqLens ? o.zeros({B, H}) : Value();
  DirectionResult res;
  res.steps.resize(size_t(S));
  for (int64_t k = 0; k < S; ++k) {
    int64_t t = reverse ? S - 1 - k : k;
    Value xt = o.slice(xw, {t * B, 0}, {(t + 1) * B, G * P});
    Value hNew, cNew;
    if (rc.kind == Recurrence::LSTM) {
      // Gates i, o, f, c (ONNX's order); peepholes i, o, f.
      Value all = o.add(xt, o.matmul(h, rt));
      auto part = [&](int64_t g) { return o.cols(all, g * P, g * P + H); };
      auto peephole = [&](Value v, int64_t g, Value cell) {
        return peep[g] ? o.add(v, o.mul(cell, peep[g])) : v;
      };
      Value i = gate(f, peephole(part(0), 0, c));
      // input_forget couples the gates: f = 1 - i.
      Value fg = rc.inputForget ? oneMinus(i) : gate(f, peephole(part(2), 2, c));
      Value cand = gate(fns[1], part(3));
      cNew = o.add(o.mul(fg, c), o.mul(i, cand));
      Value og = gate(f, peephole(part(1), 1, cNew));
      hNew = o.mul(og, activate(o, fns[2], cNew));
    } else if (rc.kind == Recurrence::GRU) {
      // Gates z, r, h (ONNX's order).
      Value zr = o.add(o.cols(xt, 0, 2 * P), o.matmul(h, rtZR));
      Value z = gate(f, o.cols(zr, 0, H)), r = gate(f, o.cols(zr, P, P + H));
      Value recur;
      if (rc.linearBeforeReset) {
        recur = o.matmul(h, rtH);
        if (rbHidden)
          recur = o.add(recur, rbHidden);
        recur = o.mul(r, recur);
      } else {
        recur = o.matmul(o.mul(r, h), rtH);
      }
      Value cand = gate(fns[1], o.add(o.cols(xt, 2 * P, 2 * P + H), recur));
      // (1 - z) * cand + z * h
      hNew = o.add(o.mul(oneMinus(z), cand), o.mul(z, h));
    } else {
      hNew = gate(f, o.add(xt, o.matmul(h, rt)));
    }
    if (seqLens) {
      // Batches whose sequence ended keep their state and output zeros.
      auto i32 = cast<RankedTensorType>(seqLens.getType()).getElementType();
      auto lensType = o.type({1}, i32);
      Value tv = ConstantOp::create(o.rw, o.loc, lensType,
                                    DenseElementsAttr::get(lensType, APInt(32, uint64_t(t), true)));
      Value live = LessOp::create(o.rw, o.loc, o.type({B}, o.rw.getI1Type()), tv, seqLens);
      live = o.reshape(live, {B, 1});
      res.steps[size_t(t)] = o.where(live, hNew, noOutput);
      hNew = o.where(live, hNew, h);
      if (cNew)
        cNew = o.where(live, cNew, c);
    } else {
      res.steps[size_t(t)] = hNew;
    }
    h = hNew;
    c = cNew;
  }
  res.h = h;
  res.c = c;
  return res;
}

template <typename OpTy>
Recurrence read(OpTy op, Recurrence::Kind kind) {
  Recurrence rc{kind, op, op.getX(), op.getW(), op.getR(), op.getB(), op.getSequenceLens(),
                op.getInitialH()};
  rc.hidden = op.getHiddenSize();
  rc.layout = op.getLayout();
  rc.direction = op.getDirection();
  rc.clip = op.getClip().convertToFloat();
  return rc;
}

/// The expansion of `rc`, or an error at its op saying why there is none.
LogicalResult expand(RewriterBase &rw, const Recurrence &rc) {
  Operation *op = rc.op;
  auto xType = cast<RankedTensorType>(rc.x.getType());
  for (Value v : {rc.x, rc.w, rc.r, rc.b, rc.h0, rc.c0, rc.p})
    if (v && !cast<RankedTensorType>(v.getType()).getElementType().isF32())
      return op->emitOpError() << "has no NPU lowering for " << v.getType()
                               << " operands (f32, or quantized weights dequantized to f32)";
  int64_t dirs = rc.direction == "bidirectional" ? 2 : 1;
  int64_t S = xType.getShape()[rc.layout ? 1 : 0];
  if (S * dirs > kMaxUnrolledSteps)
    return op->emitOpError() << "runs " << S * dirs << " time steps (sequence length " << S << " x "
                             << dirs << " direction(s)); npuc unrolls at most " << kMaxUnrolledSteps;
  SmallVector<Activation> fns = activations(op);
  Ops o{rw, op->getLoc(), xType.getElementType()};
  // Sequence-major X [S, B, I]; states [D, B, H].
  Value x = rc.layout ? o.transpose(rc.x, {1, 0, 2}) : rc.x;
  Recurrence seqMajor = rc;
  if (rc.layout) {
    if (rc.h0)
      seqMajor.h0 = o.transpose(rc.h0, {1, 0, 2});
    if (rc.c0)
      seqMajor.c0 = o.transpose(rc.c0, {1, 0, 2});
  }
  int64_t B = Ops::shape(x)[1], H = rc.hidden;
  Value lens = fullLengths(rc.seqLens, S) ? Value() : rc.seqLens;
  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < dirs; ++d) {
    bool reverse = rc.direction == "reverse" || d == 1;
    DirectionResult res = expandDirection(o, seqMajor, x, d, reverse,
                                          ArrayRef<Activation>(fns).slice(size_t(d * rc.perDirection()),
                                                                          size_t(rc.perDirection())),
                                          lens);
    SmallVector<Value> steps;
    for (Value s : res.steps)
      steps.push_back(o.reshape(s, {1, 1, B, H}));
    ys.push_back(o.concat(steps, 0));
    hs.push_back(o.reshape(res.h, {1, B, H}));
    if (res.c)
      cs.push_back(o.reshape(res.c, {1, B, H}));
  }
  Value y = o.concat(ys, 1), yh = o.concat(hs, 0);
  Value yc = cs.empty() ? Value() : o.concat(cs, 0);
  if (rc.layout) {
    y = o.transpose(y, {2, 0, 1, 3});
    yh = o.transpose(yh, {1, 0, 2});
    if (yc)
      yc = o.transpose(yc, {1, 0, 2});
  }
  SmallVector<Value> results{y, yh};
  if (yc)
    results.push_back(yc);
  rw.replaceOp(op, results);
  return success();
}

Recurrence readLSTM(LSTMOp op) {
  Recurrence rc = read(op, Recurrence::LSTM);
  rc.c0 = op.getInitialC();
  rc.p = op.getP();
  rc.inputForget = op.getInputForget();
  return rc;
}

Recurrence readGRU(GRUOp op) {
  Recurrence rc = read(op, Recurrence::GRU);
  rc.linearBeforeReset = op.getLinearBeforeReset();
  return rc;
}

struct GraphExpandRecurrentPass
    : npuc::graph::impl::GraphExpandRecurrentBase<GraphExpandRecurrentPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Recurrence> found;
    getOperation()->walk([&](Operation *op) {
      if (auto l = dyn_cast<LSTMOp>(op))
        found.push_back(readLSTM(l));
      else if (auto g = dyn_cast<GRUOp>(op))
        found.push_back(readGRU(g));
      else if (auto r = dyn_cast<RNNOp>(op))
        found.push_back(read(r, Recurrence::RNN));
    });
    IRRewriter rw(&getContext());
    bool ok = true;
    if (int64_t(gateAlign) < 1 || int64_t(gateAlign) > 1024) {
      getOperation()->emitError() << "graph-expand-recurrent: gate-align is " << int64_t(gateAlign)
                                  << ", expected 1 to 1024 columns";
      return signalPassFailure();
    }
    for (Recurrence &rc : found) {
      rc.gateAlign = int64_t(gateAlign);
      rw.setInsertionPoint(rc.op);
      ok &= succeeded(expand(rw, rc));
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
