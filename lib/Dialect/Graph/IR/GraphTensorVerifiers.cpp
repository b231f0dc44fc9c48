//===- GraphTensorVerifiers.cpp - Verifiers of data-movement and compare ops ===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "VerifierUtils.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::graph;
using namespace npuc::graph::detail;

LogicalResult graph::verifyCompare(Operation *op) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  if (failed(verifyBroadcastShape(op, lhs, rhs)))
    return failure();
  return verifySameExpressed(op, {{lhs, "lhs"}, {rhs, "rhs"}});
}

LogicalResult graph::verifyPow(Operation *op) {
  Value base = op->getOperand(0), exponent = op->getOperand(1), res = op->getResult(0);
  if (failed(verifyBroadcastShape(op, base, exponent)))
    return failure();
  return verifySameExpressed(op, {{base, "base"}, {res, "result"}});
}

LogicalResult graph::verifyWhere(Operation *op) {
  Value c = op->getOperand(0), x = op->getOperand(1), y = op->getOperand(2);
  sh::Shape xy, want;
  if (failed(verifyQuantizedValues(op)) ||
      failed(fromExpected(op, sh::broadcast(shapeOf(x), shapeOf(y)), xy)) ||
      failed(fromExpected(op, sh::broadcast(shapeOf(c), xy), want)) ||
      failed(expectShape(op, op->getResult(0), want, "result")))
    return failure();
  return verifySameExpressed(op, {{x, "x"}, {y, "y"}, {op->getResult(0), "result"}});
}

LogicalResult graph::verifyConvTranspose(Operation *op) {
  Value x = op->getOperand(0), w = op->getOperand(1), res = op->getResult(0);
  Value bias = op->getNumOperands() > 2 ? op->getOperand(2) : Value();
  if (failed(verifyQuantizedValues(op)) || failed(expectRank(op, x, 3, "input")))
    return failure();
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w);
  if (ws.size() != xs.size())
    return op->emitOpError() << "weight has rank " << ws.size() << ", expected " << xs.size();
  int64_t group = op->getAttrOfType<IntegerAttr>("group").getInt();
  if (group < 1 || ws[0] != xs[1])
    return op->emitOpError() << "input has " << xs[1] << " channels, but the weight [C, M/group, ...] "
                             << "has " << ws[0] << " (group " << group << ")";
  int64_t outChannels = ws[1] * group;
  if (bias && shapeOf(bias) != ArrayRef<int64_t>{outChannels})
    return op->emitOpError() << "bias shape " << sh::str(shapeOf(bias))
                             << " does not match the expected " << outChannels;
  size_t n = xs.size() - 2;
  ArrayRef<int64_t> strides = i64s(op, "strides").asArrayRef(), pads = i64s(op, "pads").asArrayRef(),
                    dil = i64s(op, "dilations").asArrayRef(),
                    outPad = i64s(op, "output_padding").asArrayRef();
  if (strides.size() != n || dil.size() != n || outPad.size() != n || pads.size() != 2 * n)
    return op->emitOpError() << "strides, dilations and output_padding need " << n
                             << " entries and pads " << 2 * n;
  sh::Shape want{xs[0], outChannels};
  for (size_t i = 0; i < n; ++i) {
    if (strides[i] < 1 || dil[i] < 1 || pads[i] < 0 || pads[n + i] < 0 || outPad[i] < 0 ||
        outPad[i] >= std::max(strides[i], dil[i]))
      return op->emitOpError() << "spatial axis " << i
                               << ": strides and dilations must be >= 1, pads >= 0, and "
                                  "output_padding below the stride or dilation";
    int64_t o = strides[i] * (xs[2 + i] - 1) + outPad[i] + dil[i] * (ws[2 + i] - 1) + 1 - pads[i] -
                pads[n + i];
    if (o < 1)
      return op->emitOpError() << "spatial axis " << i << " would have size " << o;
    want.push_back(o);
  }
  if (failed(expectShape(op, res, want, "result")))
    return failure();
  return verifySameExpressed(op, {{x, "input"}, {w, "weight"}, {res, "result"}});
}

LogicalResult graph::verifyResize(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  if (failed(verifyQuantizedValues(op)))
    return failure();
  auto scales = op->getAttrOfType<DenseF32ArrayAttr>("scales");
  if (shapeOf(res).size() != shapeOf(in).size() || int64_t(scales.size()) != int64_t(shapeOf(in).size()))
    return op->emitOpError() << "input rank " << shapeOf(in).size() << ", result rank "
                             << shapeOf(res).size() << " and " << scales.size()
                             << " scales must agree";
  for (float s : scales.asArrayRef())
    if (!(s > 0))
      return op->emitOpError() << "scale " << s << " must be positive";
  StringRef mode = op->getAttrOfType<StringAttr>("mode").getValue();
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return op->emitOpError() << "mode '" << mode << "' is not nearest, linear or cubic";
  if (auto roi = op->getAttrOfType<DenseF32ArrayAttr>("roi"); roi && roi.size() != 2 * int64_t(shapeOf(in).size()))
    return op->emitOpError() << "roi has " << roi.size() << " entries, expected " << 2 * shapeOf(in).size()
                             << " (a start and an end per axis)";
  return verifySameExpressed(op, {{in, "input"}, {res, "result"}});
}

LogicalResult graph::verifyArgReduce(Operation *op) {
  Value in = op->getOperand(0);
  int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
  sh::Shape want;
  if (failed(fromExpected(op, sh::reduce(shapeOf(in), {axis}, flag(op, "keepdims")), want)))
    return failure();
  return expectShape(op, op->getResult(0), want, "result");
}

LogicalResult graph::verifyPad(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  ArrayRef<int64_t> pads = i64s(op, "pads").asArrayRef(), xs = shapeOf(in);
  if (pads.size() != 2 * xs.size())
    return op->emitOpError() << "pads has " << pads.size() << " entries, expected "
                             << 2 * xs.size() << " (begins then ends of every axis)";
  StringRef mode = op->getAttrOfType<StringAttr>("mode").getValue();
  if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
    return op->emitOpError() << "mode '" << mode << "' is not constant, reflect, edge or wrap";
  sh::Shape want;
  for (size_t i = 0; i < xs.size(); ++i) {
    int64_t d = xs[i] + pads[i] + pads[xs.size() + i];
    if (d < 0)
      return op->emitOpError() << "axis " << i << " would have size " << d;
    want.push_back(d);
  }
  if (failed(verifyQuantizedValues(op)) || failed(expectShape(op, res, want, "result")))
    return failure();
  return verifyMovedElementType(op, in, res, -1, "a pad");
}

LogicalResult graph::verifySlice(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  ArrayRef<int64_t> xs = shapeOf(in), starts = i64s(op, "starts").asArrayRef(),
                    ends = i64s(op, "ends").asArrayRef(), steps = i64s(op, "steps").asArrayRef();
  if (starts.size() != xs.size() || ends.size() != xs.size() || steps.size() != xs.size())
    return op->emitOpError() << "starts, ends and steps need one entry per axis (" << xs.size()
                             << ")";
  sh::Shape want;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (steps[i] == 0)
      return op->emitOpError() << "step of axis " << i << " is 0";
    bool forward = steps[i] > 0;
    int64_t lo = forward ? 0 : -1, hi = forward ? xs[i] : xs[i] - 1;
    if (starts[i] < lo || starts[i] > hi || ends[i] < lo || ends[i] > hi)
      return op->emitOpError() << "axis " << i << ": start " << starts[i] << " and end " << ends[i]
                               << " are not clamped to the axis of size " << xs[i];
    want.push_back(sh::sliceLength(starts[i], ends[i], steps[i]));
  }
  if (failed(verifyQuantizedValues(op)) || failed(expectShape(op, res, want, "result")))
    return failure();
  return verifyMovedElementType(op, in, res, -1, "a slice");
}

LogicalResult graph::verifyGather(Operation *op) {
  Value data = op->getOperand(0), idx = op->getOperand(1), res = op->getResult(0);
  int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
  ArrayRef<int64_t> ds = shapeOf(data);
  if (axis < 0 || axis >= int64_t(ds.size()))
    return op->emitOpError() << "axis " << axis << " is outside [0, " << ds.size() << ")";
  sh::Shape want(ds.begin(), ds.begin() + axis);
  want.append(shapeOf(idx).begin(), shapeOf(idx).end());
  want.append(ds.begin() + axis + 1, ds.end());
  if (failed(verifyQuantizedValues(op)) || failed(expectShape(op, res, want, "result")))
    return failure();
  return verifyMovedElementType(op, data, res, -1, "a gather");
}

LogicalResult graph::verifyScatterND(Operation *op) {
  Value data = op->getOperand(0), idx = op->getOperand(1), upd = op->getOperand(2), res = op->getResult(0);
  StringRef red = op->getAttrOfType<StringAttr>("reduction").getValue();
  if (red != "none" && red != "add" && red != "max" && red != "min")
    return op->emitOpError() << "reduction '" << red << "' is not none, add, max or min";
  ArrayRef<int64_t> ds = shapeOf(data), is = shapeOf(idx);
  if (is.empty() || is.back() < 1 || is.back() > int64_t(ds.size()))
    return op->emitOpError() << "indices must be [..., k] with k in [1, " << ds.size() << "]";
  sh::Shape want(is.begin(), is.end() - 1);
  want.append(ds.begin() + is.back(), ds.end());
  if (failed(verifyQuantizedValues(op)) || failed(expectShape(op, upd, want, "updates")) ||
      failed(expectShape(op, res, sh::Shape(ds.begin(), ds.end()), "result")))
    return failure();
  if (failed(verifyMovedElementType(op, upd, res, -1, "a scatter")))
    return failure();
  return verifyMovedElementType(op, data, res, -1, "a scatter");
}

LogicalResult graph::verifyExpand(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  sh::Shape want;
  if (failed(fromExpected(op, sh::broadcast(shapeOf(in), shapeOf(res)), want)) ||
      failed(expectShape(op, res, want, "result")))
    return failure();
  return verifyMovedElementType(op, in, res, -1, "an expand");
}

LogicalResult graph::verifyTile(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  ArrayRef<int64_t> reps = i64s(op, "repeats").asArrayRef(), xs = shapeOf(in);
  if (reps.size() != xs.size())
    return op->emitOpError() << "repeats has " << reps.size() << " entries, expected " << xs.size();
  sh::Shape want;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (reps[i] < 0)
      return op->emitOpError() << "repeat " << reps[i] << " is negative";
    want.push_back(xs[i] * reps[i]);
  }
  if (failed(expectShape(op, res, want, "result")))
    return failure();
  return verifyMovedElementType(op, in, res, -1, "a tile");
}

LogicalResult graph::verifyDepthSpace(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  int64_t b = op->getAttrOfType<IntegerAttr>("blocksize").getInt();
  ArrayRef<int64_t> xs = shapeOf(in);
  if (xs.size() != 4 || b < 1)
    return op->emitOpError() << "expects a 4-D input and blocksize >= 1";
  bool toSpace = isa<DepthToSpaceOp>(op);
  if (toSpace) {
    StringRef mode = op->getAttrOfType<StringAttr>("mode").getValue();
    if (mode != "DCR" && mode != "CRD")
      return op->emitOpError() << "mode '" << mode << "' is not DCR or CRD";
    if (xs[1] % (b * b))
      return op->emitOpError() << xs[1] << " channels are not divisible by blocksize^2 = " << b * b;
  } else if (xs[2] % b || xs[3] % b) {
    return op->emitOpError() << "spatial size " << xs[2] << "x" << xs[3]
                             << " is not divisible by blocksize " << b;
  }
  sh::Shape want = toSpace ? sh::Shape{xs[0], xs[1] / (b * b), xs[2] * b, xs[3] * b}
                           : sh::Shape{xs[0], xs[1] * b * b, xs[2] / b, xs[3] / b};
  if (failed(expectShape(op, res, want, "result")))
    return failure();
  return verifyMovedElementType(op, in, res, -1, "a depth/space rearrangement");
}

LogicalResult graph::verifyCast(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  if (llvm::isa<quant::QuantizedType>(elementOf(in)) || llvm::isa<quant::QuantizedType>(elementOf(res)))
    return op->emitOpError("casts plain values; quantize, dequantize or storage_cast "
                           "change quantized ones");
  return expectShape(op, res, shapeOf(in), "result");
}

LogicalResult graph::verifyStorageCast(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  if (failed(verifyQuantizedValues(op)) || failed(expectShape(op, res, shapeOf(in), "result")))
    return failure();
  auto qa = llvm::dyn_cast<quant::QuantizedType>(elementOf(in));
  auto qb = llvm::dyn_cast<quant::QuantizedType>(elementOf(res));
  if (bool(qa) == bool(qb))
    return op->emitOpError("converts between an integer type and a quantized type, got ")
           << elementOf(in) << " -> " << elementOf(res);
  Type storage = qa ? qa.getStorageType() : qb.getStorageType();
  Type plain = qa ? elementOf(res) : elementOf(in);
  auto pi = llvm::dyn_cast<IntegerType>(plain);
  auto si = llvm::cast<IntegerType>(storage);
  bool isSigned = qa ? qa.isSigned() : qb.isSigned();
  if (!pi || pi.getWidth() != si.getWidth() || (isSigned && pi.isUnsigned()) ||
      (!isSigned && !pi.isUnsigned()))
    return op->emitOpError() << "integer type " << plain
                             << " does not match the quantized storage "
                             << (isSigned ? "i" : "ui") << si.getWidth();
  return success();
}

/// The element types BitCast moves between: those npuc stores as their own
/// bits, of one width (f32 and i32, f16 and i16, i8 and ui8).
bool graph::isBitcastPair(Type from, Type to) {
  auto bits = [](Type t) -> unsigned {
    if (t.isF32() || t.isSignlessInteger(32) || t.isSignedInteger(32))
      return 32;
    if (t.isF16() || t.isSignlessInteger(16) || t.isSignedInteger(16))
      return 16;
    if (t.isInteger(8))
      return 8;
    return 0;
  };
  return bits(from) != 0 && bits(from) == bits(to);
}

LogicalResult graph::verifyBitcast(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  if (failed(expectShape(op, res, shapeOf(in), "result")))
    return failure();
  if (!isBitcastPair(elementOf(in), elementOf(res)))
    return op->emitOpError() << "bitcast from " << elementOf(in) << " to " << elementOf(res)
                             << " is not between f32 and i32, f16 and i16, or i8 and ui8";
  return success();
}

LogicalResult graph::verifyGatherElements(Operation *op) {
  Value data = op->getOperand(0), idx = op->getOperand(1), res = op->getResult(0);
  int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
  int64_t rank = int64_t(shapeOf(data).size());
  if (axis < 0 || axis >= rank)
    return op->emitOpError() << "axis " << axis << " is outside [0, " << rank << ")";
  if (int64_t(shapeOf(idx).size()) != rank)
    return op->emitOpError() << "indices have rank " << shapeOf(idx).size() << ", expected " << rank;
  if (failed(verifyQuantizedValues(op)) || failed(expectShape(op, res, shapeOf(idx), "result")))
    return failure();
  return verifyMovedElementType(op, data, res, -1, "a gather");
}

LogicalResult graph::verifyLayerNorm(Operation *op) {
  Value x = op->getOperand(0), res = op->getResult(0);
  int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
  ArrayRef<int64_t> xs = shapeOf(x);
  if (axis < 0 || axis >= int64_t(xs.size()))
    return op->emitOpError() << "axis " << axis << " is outside [0, " << xs.size() << ")";
  for (unsigned i = 1; i < op->getNumOperands(); ++i) {
    sh::Shape b;
    ArrayRef<int64_t> normalized = xs.drop_front(axis);
    if (failed(fromExpected(op, sh::broadcast(shapeOf(op->getOperand(i)), normalized), b)))
      return failure();
    if (ArrayRef<int64_t>(b) != normalized)
      return op->emitOpError() << (i == 1 ? "scale" : "bias") << " of shape "
                               << sh::str(shapeOf(op->getOperand(i)))
                               << " does not broadcast to the normalized axes " << sh::str(normalized);
  }
  if (failed(verifyQuantizedValues(op)) || failed(expectShape(op, res, xs, "result")))
    return failure();
  SmallVector<int64_t> statistics(xs.begin(), xs.end());
  std::fill(statistics.begin() + axis, statistics.end(), 1);
  for (unsigned i = 1; i < 3; ++i) {
    Value s = op->getResult(i);
    if (failed(expectShape(op, s, statistics, i == 1 ? "mean" : "inv_std_dev")))
      return failure();
    if (!cast<ShapedType>(s.getType()).getElementType().isF32())
      return op->emitOpError() << (i == 1 ? "mean" : "inv_std_dev") << " is "
                               << cast<ShapedType>(s.getType()).getElementType()
                               << "; the statistics are f32 (stash_type 1)";
  }
  return verifySameExpressed(op, {{x, "input"}, {res, "result"}});
}

namespace {
/// The optional operands of a recurrence against its sizes: B [D, 2 G H],
/// sequence_lens [batch], initial states [D, batch, H] ([batch, D, H] in
/// layout 1), P [D, 3 H].
template <typename OpTy>
LogicalResult verifyRecurrentOperands(OpTy op, int64_t dirs, int64_t batch, int64_t hidden,
                                      int64_t gates, int64_t layout) {
  Operation *o = op.getOperation();
  sh::Shape state = layout ? sh::Shape{batch, dirs, hidden} : sh::Shape{dirs, batch, hidden};
  if (Value b = op.getB(); b && failed(expectShape(o, b, {dirs, 2 * gates * hidden}, "B")))
    return failure();
  if (Value l = op.getSequenceLens(); l && failed(expectShape(o, l, {batch}, "sequence_lens")))
    return failure();
  if (Value h = op.getInitialH(); h && failed(expectShape(o, h, state, "initial_h")))
    return failure();
  if constexpr (std::is_same_v<OpTy, LSTMOp>) {
    if (Value c = op.getInitialC(); c && failed(expectShape(o, c, state, "initial_c")))
      return failure();
    if (Value p = op.getP(); p && failed(expectShape(o, p, {dirs, 3 * hidden}, "P")))
      return failure();
  }
  return success();
}
} // namespace

LogicalResult graph::verifyRecurrent(Operation *op) {
  bool lstm = isa<LSTMOp>(op), rnn = isa<RNNOp>(op);
  int64_t gates = lstm ? 4 : rnn ? 1 : 3;
  ArrayRef<int64_t> x = shapeOf(op->getOperand(0)), w = shapeOf(op->getOperand(1)),
                    r = shapeOf(op->getOperand(2));
  int64_t hidden = op->getAttrOfType<IntegerAttr>("hidden_size").getInt();
  StringRef direction = op->getAttrOfType<StringAttr>("direction").getValue();
  int64_t layout = op->getAttrOfType<IntegerAttr>("layout").getInt();
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    return op->emitOpError() << "direction '" << direction << "' is not forward, reverse or bidirectional";
  if (layout != 0 && layout != 1)
    return op->emitOpError() << "layout " << layout << " is not 0 or 1";
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  if (x.size() != 3 || w.size() != 3 || r.size() != 3)
    return op->emitOpError("expects 3-D X, W and R");
  int64_t seq = layout ? x[1] : x[0], batch = layout ? x[0] : x[1];
  // gates x hidden in 64 bits (a hostile hidden_size overflowed it).
  std::optional<int64_t> gateRows = llvm::checkedMul(gates, hidden);
  if (hidden < 1 || !gateRows || w[0] != dirs || w[1] != *gateRows || w[2] != x[2] ||
      r[0] != dirs || r[1] != *gateRows || r[2] != hidden)
    return op->emitOpError() << "W " << sh::str(w) << " and R " << sh::str(r) << " do not fit "
                             << dirs << " direction(s), hidden size " << hidden << " and input size "
                             << x[2];
  sh::Shape y = layout ? sh::Shape{batch, seq, dirs, hidden} : sh::Shape{seq, dirs, batch, hidden};
  sh::Shape state = layout ? sh::Shape{batch, dirs, hidden} : sh::Shape{dirs, batch, hidden};
  if (failed(expectShape(op, op->getResult(0), y, "Y")))
    return failure();
  for (unsigned i = 1; i < op->getNumResults(); ++i)
    if (failed(expectShape(op, op->getResult(i), state, "state output")))
      return failure();
  // ONNX's activation functions, as many as each direction takes.
  auto names = op->getAttrOfType<ArrayAttr>("activations");
  int64_t perDirection = lstm ? 3 : rnn ? 1 : 2;
  if (int64_t(names.size()) != dirs * perDirection)
    return op->emitOpError() << "has " << names.size() << " activations; " << dirs
                             << " direction(s) take " << dirs * perDirection;
  for (Attribute a : names) {
    std::string n = cast<StringAttr>(a).getValue().lower();
    if (!llvm::is_contained({"relu", "tanh", "sigmoid", "affine", "leakyrelu", "thresholdedrelu",
                             "scaledtanh", "hardsigmoid", "elu", "softsign", "softplus"},
                            n))
      return op->emitOpError() << "activation '" << cast<StringAttr>(a).getValue()
                               << "' is not one of ONNX's recurrent activations";
  }
  float clip = op->getAttrOfType<FloatAttr>("clip").getValueAsDouble();
  if (!(clip >= 0))
    return op->emitOpError() << "clip " << clip << " is negative (0: no clip)";
  if (auto l = dyn_cast<LSTMOp>(op))
    return verifyRecurrentOperands(l, dirs, batch, hidden, gates, layout);
  if (auto g = dyn_cast<GRUOp>(op))
    return verifyRecurrentOperands(g, dirs, batch, hidden, gates, layout);
  return verifyRecurrentOperands(cast<RNNOp>(op), dirs, batch, hidden, gates, layout);
}

LogicalResult graph::verifyDynamicQuantize(Operation *op) {
  if (failed(expectShape(op, op->getResult(0), shapeOf(op->getOperand(0)), "y")) ||
      failed(expectShape(op, op->getResult(1), {}, "scale")) ||
      failed(expectShape(op, op->getResult(2), {}, "zero point")))
    return failure();
  return success();
}
