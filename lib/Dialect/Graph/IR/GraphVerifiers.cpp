//===- GraphVerifiers.cpp - Verifiers of graph ops ------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Every message states what was expected and what was found.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "VerifierUtils.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::graph;
namespace sh = npuc::graph::shapes;

Type graph::storageType(Type element) {
  MLIRContext *ctx = element.getContext();
  if (auto q = dyn_cast<quant::QuantizedType>(element)) {
    unsigned w = q.getStorageTypeIntegralWidth();
    return q.isSigned() ? Type(IntegerType::get(ctx, w)) : Type(IntegerType::get(ctx, w, IntegerType::Unsigned));
  }
  if (auto i = dyn_cast<IntegerType>(element)) {
    if (i.getWidth() == 1)
      return IntegerType::get(ctx, 8);
    if ((i.getWidth() == 64 && !i.isUnsigned()) || (i.isUnsigned() && (i.getWidth() == 16 || i.getWidth() == 32)))
      return IntegerType::get(ctx, 32);
    if (i.isSigned())
      return IntegerType::get(ctx, i.getWidth());
  }
  return element;
}

Type graph::expressedElementType(Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t))
    t = shaped.getElementType();
  if (auto q = dyn_cast<quant::QuantizedType>(t))
    return q.getExpressedType();
  return t;
}

using namespace npuc::graph::detail;

/// A matrix product's result expresses its operands' type, or is f32 for
/// f16 operands (fp32 accumulation kept: graph-compute-f16).
static LogicalResult verifyProductResult(Operation *op, Value operand, Value res) {
  if (elementOf(operand).isF16() && elementOf(res).isF32())
    return success();
  return verifySameExpressed(op, {{operand, "operands"}, {res, "result"}});
}

LogicalResult graph::verifyBroadcastBinary(Operation *op) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1), res = op->getResult(0);
  if (failed(verifyBroadcastShape(op, lhs, rhs)))
    return failure();
  return verifySameExpressed(op, {{lhs, "lhs"}, {rhs, "rhs"}, {res, "result"}});
}

LogicalResult graph::verifySameShapeUnary(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  if (failed(verifyQuantizedValues(op)) || failed(expectShape(op, res, shapeOf(in), "result")))
    return failure();
  return verifySameExpressed(op, {{in, "input"}, {res, "result"}});
}

LogicalResult graph::verifyClip(Operation *op) {
  if (failed(verifySameShapeUnary(op)))
    return failure();
  auto lo = op->getAttrOfType<FloatAttr>("min"), hi = op->getAttrOfType<FloatAttr>("max");
  if (lo && hi && lo.getValueAsDouble() > hi.getValueAsDouble())
    return op->emitOpError() << "min " << lo.getValueAsDouble() << " exceeds max "
                             << hi.getValueAsDouble();
  return success();
}

LogicalResult graph::verifyConv(Operation *op) {
  Value x = op->getOperand(0), w = op->getOperand(1), res = op->getResult(0);
  Value bias = op->getNumOperands() > 2 ? op->getOperand(2) : Value();
  if (failed(verifyQuantizedValues(op)) || failed(expectRank(op, x, 3, "input")))
    return failure();
  ArrayRef<int64_t> xs = shapeOf(x), ws = shapeOf(w);
  if (ws.size() != xs.size())
    return op->emitOpError() << "weight has rank " << ws.size() << ", expected " << xs.size()
                             << " like the input";
  int64_t group = op->getAttrOfType<IntegerAttr>("group").getInt();
  if (group < 1)
    return op->emitOpError() << "group must be >= 1, got " << group;
  if (auto act = op->getAttrOfType<StringAttr>("activation")) {
    bool clip = act.getValue() == "clip";
    if (!clip && act.getValue() != "relu")
      return op->emitOpError() << "activation '" << act.getValue() << "' is not relu or clip";
    if (!elementOf(res).isF32() && !elementOf(res).isF16())
      return op->emitOpError("a fused activation needs an f32 or f16 result");
    if (!clip && (op->hasAttr("activation_min") || op->hasAttr("activation_max")))
      return op->emitOpError("activation bounds belong to a clip");
  } else if (op->hasAttr("activation_min") || op->hasAttr("activation_max")) {
    return op->emitOpError("activation bounds without an activation");
  }
  if (ws[1] * group != xs[1])
    return op->emitOpError() << "input has " << xs[1] << " channels, but the weight expects "
                             << ws[1] << " per group x " << group << " groups = " << ws[1] * group;
  if (ws[0] % group != 0)
    return op->emitOpError() << "weight has " << ws[0]
                             << " output channels, not divisible by group " << group;
  if (auto perAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(elementOf(w));
      perAxis && perAxis.getQuantizedDimension() != 0)
    return op->emitOpError() << "weight is quantized along axis "
                             << perAxis.getQuantizedDimension()
                             << ", expected axis 0 (output channels)";
  if (bias && shapeOf(bias) != ArrayRef<int64_t>{ws[0]})
    return op->emitOpError() << "bias shape " << sh::str(shapeOf(bias)) << " does not match the "
                             << "expected " << ws[0];
  sh::Shape spatial;
  sh::WindowParams p{ws.drop_front(2), i64s(op, "strides").asArrayRef(),
                     i64s(op, "pads").asArrayRef(), i64s(op, "dilations").asArrayRef(), false};
  if (failed(fromExpected(op, sh::window(xs.drop_front(2), p), spatial)))
    return failure();
  sh::Shape want{xs[0], ws[0]};
  want.append(spatial);
  if (failed(expectShape(op, res, want, "result")))
    return failure();
  if (failed(verifySameExpressed(op, {{x, "input"}, {w, "weight"}})))
    return failure();
  return verifyProductResult(op, x, res);
}

LogicalResult graph::verifyGemm(Operation *op) {
  Value a = op->getOperand(0), b = op->getOperand(1), res = op->getResult(0);
  Value c = op->getNumOperands() > 2 ? op->getOperand(2) : Value();
  if (failed(verifyQuantizedValues(op)))
    return failure();
  if (shapeOf(a).size() != 2 || shapeOf(b).size() != 2)
    return op->emitOpError() << "operands must have rank 2, got " << shapeOf(a).size() << " and "
                             << shapeOf(b).size();
  bool ta = flag(op, "trans_a"), tb = flag(op, "trans_b");
  int64_t m = shapeOf(a)[ta ? 1 : 0], k1 = shapeOf(a)[ta ? 0 : 1];
  int64_t k2 = shapeOf(b)[tb ? 1 : 0], n = shapeOf(b)[tb ? 0 : 1];
  if (k1 != k2)
    return op->emitOpError() << "contraction dimensions differ: op(a) is " << m << "x" << k1
                             << ", op(b) is " << k2 << "x" << n;
  sh::Shape want{m, n};
  if (c) {
    llvm::Expected<sh::Shape> withC = sh::broadcast(shapeOf(c), want);
    bool ok = withC && ArrayRef<int64_t>(*withC) == ArrayRef<int64_t>(want);
    if (!withC)
      llvm::consumeError(withC.takeError());
    if (!ok)
      return op->emitOpError() << "c of shape " << sh::str(shapeOf(c))
                               << " does not broadcast to " << sh::str(want);
  }
  if (failed(expectShape(op, res, want, "result")))
    return failure();
  if (failed(verifySameExpressed(op, {{a, "a"}, {b, "b"}})))
    return failure();
  return verifyProductResult(op, a, res);
}

LogicalResult graph::verifyMatMul(Operation *op) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1), res = op->getResult(0);
  sh::Shape want;
  if (failed(verifyQuantizedValues(op)) ||
      failed(fromExpected(op, sh::matmul(shapeOf(lhs), shapeOf(rhs)), want)) ||
      failed(expectShape(op, res, want, "result")))
    return failure();
  if (failed(verifySameExpressed(op, {{lhs, "lhs"}, {rhs, "rhs"}})))
    return failure();
  return verifyProductResult(op, lhs, res);
}

LogicalResult graph::verifyPool(Operation *op) {
  Value x = op->getOperand(0), res = op->getResult(0);
  if (failed(verifyQuantizedValues(op)) || failed(expectRank(op, x, 3, "input")))
    return failure();
  ArrayRef<int64_t> xs = shapeOf(x);
  sh::WindowParams p{i64s(op, "kernel_shape").asArrayRef(), i64s(op, "strides").asArrayRef(),
                     i64s(op, "pads").asArrayRef(), i64s(op, "dilations").asArrayRef(),
                     flag(op, "ceil_mode")};
  sh::Shape spatial;
  if (failed(fromExpected(op, sh::window(xs.drop_front(2), p), spatial)))
    return failure();
  sh::Shape want{xs[0], xs[1]};
  want.append(spatial);
  if (failed(expectShape(op, res, want, "result")))
    return failure();
  return verifySameExpressed(op, {{x, "input"}, {res, "result"}});
}

LogicalResult graph::verifyGlobalPool(Operation *op) {
  Value x = op->getOperand(0), res = op->getResult(0);
  if (failed(verifyQuantizedValues(op)) || failed(expectRank(op, x, 3, "input")))
    return failure();
  sh::Shape want(shapeOf(x));
  std::fill(want.begin() + 2, want.end(), 1);
  if (failed(expectShape(op, res, want, "result")))
    return failure();
  return verifySameExpressed(op, {{x, "input"}, {res, "result"}});
}

LogicalResult graph::verifyBatchNorm(Operation *op) {
  Value x = op->getOperand(0), res = op->getResult(0);
  if (failed(verifyQuantizedValues(op)) || failed(expectRank(op, x, 2, "input")))
    return failure();
  int64_t channels = shapeOf(x)[1];
  static const char *const names[] = {"scale", "bias", "mean", "var"};
  for (unsigned i = 1; i < 5; ++i)
    if (failed(expectShape(op, op->getOperand(i), {channels}, names[i - 1])))
      return failure();
  double eps = op->getAttrOfType<FloatAttr>("epsilon").getValueAsDouble();
  if (!(eps >= 0) || std::isinf(eps))
    return op->emitOpError() << "epsilon must be finite and >= 0, got " << eps;
  if (failed(expectShape(op, res, shapeOf(x), "result")))
    return failure();
  return verifySameExpressed(op, {{x, "input"}, {res, "result"}});
}

LogicalResult graph::verifyChannelAffine(Operation *op) {
  Value x = op->getOperand(0), res = op->getResult(0);
  if (failed(verifyQuantizedValues(op)) || failed(expectRank(op, x, 2, "input")))
    return failure();
  int64_t channels = shapeOf(x)[1];
  if (failed(expectShape(op, op->getOperand(1), {channels}, "scale")) ||
      failed(expectShape(op, op->getOperand(2), {channels}, "bias")) ||
      failed(expectShape(op, res, shapeOf(x), "result")))
    return failure();
  return verifySameExpressed(op, {{x, "input"}, {res, "result"}});
}

LogicalResult graph::verifyAxisUnary(Operation *op) {
  if (failed(verifySameShapeUnary(op)))
    return failure();
  int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
  int64_t rank = shapeOf(op->getOperand(0)).size();
  if (axis < 0 || axis >= rank)
    return op->emitOpError() << "axis " << axis << " is outside [0, " << rank
                             << ") (normal form has non-negative axes)";
  return success();
}

LogicalResult graph::verifyReduce(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  sh::Shape want;
  if (failed(verifyQuantizedValues(op)) ||
      failed(fromExpected(op, sh::reduce(shapeOf(in), i64s(op, "axes").asArrayRef(),
                                         flag(op, "keepdims")),
                          want)) ||
      failed(expectShape(op, res, want, "result")))
    return failure();
  return verifySameExpressed(op, {{in, "input"}, {res, "result"}});
}

LogicalResult graph::verifyConstant(Operation *op) {
  if (failed(verifyQuantizedValues(op)))
    return failure();
  auto value = op->getAttrOfType<ElementsAttr>("value");
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  auto valueType = cast<ShapedType>(value.getType());
  if (valueType.getShape() != type.getShape())
    return op->emitOpError() << "value shape " << sh::str(valueType.getShape())
                             << " does not match the result shape " << sh::str(type.getShape());
  Type want = type.getElementType();
  if (auto q = dyn_cast<quant::QuantizedType>(want))
    want = q.getStorageType();
  if (valueType.getElementType() != want)
    return op->emitOpError() << "value element type " << valueType.getElementType()
                             << " does not match " << want
                             << " (a quantized constant stores its storage type)";
  return success();
}

LogicalResult graph::verifyReshape(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  if (failed(verifyQuantizedValues(op)))
    return failure();
  auto a = sh::numElements(shapeOf(in));
  if (!a)
    return op->emitOpError("input: ") << llvm::toString(a.takeError());
  auto b = sh::numElements(shapeOf(res));
  if (!b)
    return op->emitOpError("result: ") << llvm::toString(b.takeError());
  if (*a != *b)
    return op->emitOpError() << "input " << sh::str(shapeOf(in)) << " has " << *a
                             << " elements, result " << sh::str(shapeOf(res)) << " has " << *b;
  // A per-axis quantized axis survives a reshape only when it stays a whole
  // dimension with the same elements before it.
  int64_t newAxis = -1;
  if (auto pa = dyn_cast<quant::UniformQuantizedPerAxisType>(elementOf(in))) {
    int64_t axis = pa.getQuantizedDimension(), before = 1;
    for (int64_t d = 0; d < axis; ++d)
      before *= shapeOf(in)[d];
    int64_t acc = 1;
    for (int64_t d = 0; d < int64_t(shapeOf(res).size()); ++d) {
      if (acc == before && shapeOf(res)[d] == shapeOf(in)[axis]) {
        newAxis = d;
        break;
      }
      acc *= shapeOf(res)[d];
    }
  }
  return verifyMovedElementType(op, in, res, newAxis, "a reshape");
}

LogicalResult graph::verifyTranspose(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  if (failed(verifyQuantizedValues(op)))
    return failure();
  ArrayRef<int64_t> perm = i64s(op, "perm").asArrayRef(), xs = shapeOf(in);
  if (perm.size() != xs.size())
    return op->emitOpError() << "perm has " << perm.size() << " entries, expected the rank "
                             << xs.size();
  llvm::SmallVector<bool> seen(xs.size(), false);
  sh::Shape want;
  for (int64_t p : perm) {
    if (p < 0 || p >= int64_t(xs.size()) || seen[p])
      return op->emitOpError() << "perm is not a permutation of [0, " << xs.size() << ")";
    seen[p] = true;
    want.push_back(xs[p]);
  }
  if (failed(expectShape(op, res, want, "result")))
    return failure();
  int64_t newAxis = -1;
  if (auto pa = dyn_cast<quant::UniformQuantizedPerAxisType>(elementOf(in)))
    newAxis = llvm::find(perm, pa.getQuantizedDimension()) - perm.begin();
  return verifyMovedElementType(op, in, res, newAxis, "a transpose");
}

LogicalResult graph::verifyConcat(Operation *op) {
  if (op->getNumOperands() == 0)
    return op->emitOpError("needs at least one input");
  if (failed(verifyQuantizedValues(op)))
    return failure();
  int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
  sh::Shape want(shapeOf(op->getOperand(0)));
  if (axis < 0 || axis >= int64_t(want.size()))
    return op->emitOpError() << "axis " << axis << " is outside [0, " << want.size() << ")";
  want[axis] = 0;
  llvm::SmallVector<std::pair<Value, StringRef>> values;
  std::vector<std::string> names;
  names.reserve(op->getNumOperands());
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    ArrayRef<int64_t> s = shapeOf(v);
    for (size_t d = 0; d < s.size() || d < want.size(); ++d)
      if (s.size() != want.size() || (int64_t(d) != axis && s[d] != want[d]))
        return op->emitOpError() << "input #" << i << " has shape " << sh::str(s)
                                 << ", which differs from input #0 outside axis " << axis;
    want[axis] += s[axis];
    names.push_back("input #" + std::to_string(i));
    values.push_back({v, names.back()});
  }
  if (failed(expectShape(op, op->getResult(0), want, "result")))
    return failure();
  values.push_back({op->getResult(0), "result"});
  return verifySameExpressed(op, values);
}

LogicalResult graph::verifyQuantize(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  if (failed(verifyQuantizedValues(op)) || failed(expectShape(op, res, shapeOf(in), "result")))
    return failure();
  return verifySameExpressed(op, {{in, "input"}, {res, "result"}});
}

LogicalResult graph::verifyDequantize(Operation *op) { return verifyQuantize(op); }

LogicalResult graph::verifyRequantize(Operation *op) {
  Value in = op->getOperand(0), res = op->getResult(0);
  if (failed(verifyQuantizedValues(op)))
    return failure();
  return expectShape(op, res, shapeOf(in), "result");
}
