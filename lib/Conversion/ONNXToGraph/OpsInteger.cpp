//===- OpsInteger.cpp - Integer kernels and dynamic quantization ----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// ConvInteger and MatMulInteger are the graph op on operands quantized with
// scale 1 and an int32 accumulator type. A zero point the type cannot hold,
// one computed at run time (DynamicQuantizeLinear's, in onnxruntime's dynamic
// quantization) or per-channel weight zero points that differ, is applied by
// correction terms in int32: products of the operands by ones
// (docs/numerics.md, "Dynamic quantization and run-time quantization
// parameters").
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"

using namespace mlir;
using namespace npuc::onnx_import;

namespace {
/// An operand of an integer kernel: `value` is quantized with the zero point
/// its type holds (0 when `correctedZp` is set); `correctedZp` is a zero point
/// applied by correction terms instead.
struct IntegerOperand {
  Value value;
  std::optional<Val> correctedZp;
};

bool allEqual(ArrayRef<int64_t> v) {
  return llvm::all_of(v, [&](int64_t x) { return x == v.front(); });
}

/// `v` (int8 or uint8) with the zero point at input `zpIndex`; a per-axis zero
/// point lies along `axis` (-1: none allowed).
FailureOr<IntegerOperand> integerOperand(NodeContext &c, const Val &v, size_t zpIndex, int64_t axis) {
  auto element = dyn_cast<IntegerType>(v.element());
  if (!element || element.getWidth() != 8)
    return (void)c.fail(code::UnsupportedType, "operands must be int8 or uint8"), failure();
  bool isSigned = !element.isUnsigned();
  SmallVector<int64_t> zps{0};
  IntegerOperand r;
  if (std::optional<Val> zp = c.input(zpIndex)) {
    if (zp->element() != v.element())
      return (void)c.fail(code::UnsupportedType, "a zero point's type differs from its operand's"), failure();
    if (!zp->constant) {
      r.correctedZp = zp;
    } else {
      auto z = c.constantInts(zpIndex, "zero point");
      if (!z)
        return failure();
      if (allEqual(*z) || axis < 0)
        zps.assign(z->begin(), z->end());
      else
        r.correctedZp = zp;
    }
  }
  Type storage = c.b.getIntegerType(8);
  Type f32 = c.b.getF32Type();
  unsigned flags = isSigned ? quant::QuantizationFlags::Signed : 0;
  int64_t lo = isSigned ? -128 : 0, hi = isSigned ? 127 : 255;
  Type q;
  if (zps.size() == 1)
    q = quant::UniformQuantizedType::get(flags, storage, f32, 1.0, zps[0], lo, hi);
  else if (axis >= 0 && int64_t(zps.size()) == v.shape()[axis])
    q = quant::UniformQuantizedPerAxisType::get(flags, storage, f32, SmallVector<double>(zps.size(), 1.0),
                                                 zps, int32_t(axis), lo, hi);
  else
    return (void)c.fail(code::UnsupportedAttr, "this zero-point layout is not supported"), failure();
  FailureOr<Value> value = asQuantized(c, v, cast<quant::QuantizedType>(q));
  if (failed(value))
    return failure();
  r.value = *value;
  return r;
}

/// The int32 result of the integer kernel `op` on quantized operands, as a
/// plain i32 tensor.
FailureOr<Value> integerProduct(NodeContext &c, GraphOpBuilder op, ValueRange operands, ArrayRef<int64_t> shape,
                                ArrayRef<NamedAttribute> attrs = {}) {
  auto acc = quant::UniformQuantizedType::get(quant::QuantizationFlags::Signed, c.b.getIntegerType(32),
                                               c.b.getF32Type(), 1.0, 0, INT32_MIN, INT32_MAX);
  FailureOr<Value> r = c.build(op, operands, c.tensor(shape, acc), attrs);
  if (failed(r))
    return failure();
  return c.build<graph::StorageCastOp>({*r}, c.tensor(shape, c.b.getIntegerType(32)));
}

/// Ones of `shape` with `like`'s element type, quantized with zero point 0:
/// the operand whose product sums the other one.
FailureOr<Value> onesOperand(NodeContext &c, const Val &like, ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  if (!c.fitsBuiltConstant(n, "the operand of ones summing the other operand"))
    return failure();
  Val ones = c.constant(DenseElementsAttr::get(c.tensor(shape, like.element()), APInt(8, 1)));
  FailureOr<IntegerOperand> q = integerOperand(c, ones, size_t(-1), -1);
  if (failed(q))
    return failure();
  return q->value;
}

/// Zero point `zp` as int32 of `shape` (a scalar when it has one element).
FailureOr<Value> zeroPointI32(NodeContext &c, const Val &zp, ArrayRef<int64_t> shape) {
  int64_t n = zp.type().getNumElements(), want = 1;
  for (int64_t d : shape)
    want *= d;
  SmallVector<int64_t> s(shape);
  if (n == 1)
    s = {1};
  else if (n != want)
    return (void)c.fail(code::ShapeMismatch, "a zero point has " + llvm::Twine(n) + " elements; expected 1 or " +
                                                 llvm::Twine(want)),
           failure();
  FailureOr<Value> v = c.build<graph::ReshapeOp>({zp.value}, c.tensor(s, zp.element()));
  if (failed(v))
    return failure();
  return c.build<graph::CastOp>({*v}, c.tensor(s, c.b.getIntegerType(32)));
}

/// y + sign * product of `terms` (int32, broadcast), y's shape kept.
FailureOr<Value> addTerm(NodeContext &c, Value y, ArrayRef<Value> terms, bool subtract) {
  Value t = terms.front();
  Type i32 = c.b.getIntegerType(32);
  for (Value f : terms.drop_front()) {
    auto s = sh::broadcast(cast<RankedTensorType>(t.getType()).getShape(),
                           cast<RankedTensorType>(f.getType()).getShape());
    if (!s)
      return (void)c.fail(code::ShapeMismatch, llvm::toString(s.takeError())), failure();
    FailureOr<Value> m = c.build<graph::MulOp>({t, f}, c.tensor(*s, i32));
    if (failed(m))
      return failure();
    t = *m;
  }
  if (subtract)
    return c.build<graph::SubOp>({y, t}, y.getType());
  return c.build<graph::AddOp>({y, t}, y.getType());
}

/// MatMulInteger with corrected zero points: sum_k (a - az)(b - bz) = a.b -
/// az * colsum(b) - bz * rowsum(a) + K * az * bz, where a and b keep the zero
/// points their types hold and the sums are products by a row or a column of
/// ones: every term exact in int32. az is a scalar, bz one per column.
LogicalResult importCorrectedMatMulInteger(NodeContext &c, const Val &a, const Val &b, const IntegerOperand &qa,
                                           const IntegerOperand &qb, ArrayRef<int64_t> shape) {
  int64_t K = a.shape().back(), N = b.shape().back();
  FailureOr<Value> y = integerProduct(c, graphOp<graph::MatMulOp>, {qa.value, qb.value}, shape);
  FailureOr<Value> az, bz;
  if (failed(y) || (qa.correctedZp && failed(az = zeroPointI32(c, *qa.correctedZp, {}))) ||
      (qb.correctedZp && failed(bz = zeroPointI32(c, *qb.correctedZp, {N}))))
    return failure();
  if (qa.correctedZp) {
    FailureOr<Value> ones = onesOperand(c, a, {1, K});
    auto colShape = sh::matmul({1, K}, b.shape());
    if (failed(ones) || !colShape)
      return failure();
    FailureOr<Value> cols = integerProduct(c, graphOp<graph::MatMulOp>, {*ones, qb.value}, *colShape);
    if (failed(cols) || failed(y = addTerm(c, *y, {*cols, *az}, true)))
      return failure();
  }
  if (qb.correctedZp) {
    FailureOr<Value> ones = onesOperand(c, b, {K, 1});
    auto rowShape = sh::matmul(a.shape(), {K, 1});
    if (failed(ones) || !rowShape)
      return failure();
    FailureOr<Value> rows = integerProduct(c, graphOp<graph::MatMulOp>, {qa.value, *ones}, *rowShape);
    if (failed(rows) || failed(y = addTerm(c, *y, {*rows, *bz}, true)))
      return failure();
  }
  if (qa.correctedZp && qb.correctedZp) {
    auto kt = c.tensor({1}, c.b.getIntegerType(32));
    Value k = c.constant(DenseElementsAttr::get(kt, APInt(32, uint64_t(K)))).value;
    if (failed(y = addTerm(c, *y, {k, *az, *bz}, false)))
      return failure();
  }
  c.setOutput(0, *y);
  return success();
}

/// ConvInteger with corrected zero points: over the window's positions that
/// are not padding (padding is zero after the shift, as ONNX defines it),
/// sum (x - xz)(w - wz) = conv(x, w) - xz * conv(ones, w) - wz * conv(x,
/// ones) + xz * wz * conv(ones, ones); ones over x's extent when there is
/// padding, else over one window (every output then sums the whole window).
/// wz is one per output channel; a corrected wz needs group 1.
LogicalResult importCorrectedConvInteger(NodeContext &c, const Val &x, const Val &w, const IntegerOperand &qx,
                                         const IntegerOperand &qw, const ConvGeometry &g) {
  if (qw.correctedZp && g.group != 1)
    return c.fail(code::UnsupportedAttr, "per-channel or run-time w_zero_point with group " +
                                             llvm::Twine(g.group) + " is not supported (group 1 only)");
  SmallVector<NamedAttribute> attrs = convAttrs(c, g);
  int64_t M = g.shape[1];
  SmallVector<int64_t> wzShape(g.shape.size(), 1);
  wzShape[1] = M;
  FailureOr<Value> y = integerProduct(c, graphOp<graph::ConvOp>, {qx.value, qw.value}, g.shape, attrs);
  FailureOr<Value> xz, wz;
  if (failed(y) || (qx.correctedZp && failed(xz = zeroPointI32(c, *qx.correctedZp, {}))) ||
      (qw.correctedZp && failed(wz = zeroPointI32(c, *qw.correctedZp, wzShape))))
    return failure();
  bool padded = llvm::any_of(g.pads, [](int64_t p) { return p != 0; });
  // The ones standing for x: x's extent, or one window; the outputs of a
  // product with them: x's output extent, or one position.
  SmallVector<int64_t> onesX{1}, onesW{1}, sumSpatial;
  onesX.append(x.shape().begin() + 1, x.shape().end());
  onesW.append(w.shape().begin() + 1, w.shape().end());
  for (size_t i = 2; i < g.shape.size(); ++i) {
    if (!padded)
      onesX[i] = (w.shape()[i] - 1) * g.dilations[i - 2] + 1;
    sumSpatial.push_back(padded ? g.shape[i] : 1);
  }
  auto sumShape = [&](int64_t n, int64_t m, ArrayRef<int64_t> spatial) {
    SmallVector<int64_t> s{n, m};
    s.append(spatial.begin(), spatial.end());
    return s;
  };
  FailureOr<Value> x1, w1;
  if ((qx.correctedZp && failed(x1 = onesOperand(c, x, onesX))) ||
      (qw.correctedZp && failed(w1 = onesOperand(c, w, onesW))))
    return failure();
  if (qx.correctedZp) {
    FailureOr<Value> s =
        integerProduct(c, graphOp<graph::ConvOp>, {*x1, qw.value}, sumShape(1, M, sumSpatial), attrs);
    if (failed(s) || failed(y = addTerm(c, *y, {*s, *xz}, true)))
      return failure();
  }
  if (qw.correctedZp) {
    SmallVector<int64_t> outSpatial(g.shape.begin() + 2, g.shape.end());
    FailureOr<Value> s =
        integerProduct(c, graphOp<graph::ConvOp>, {qx.value, *w1}, sumShape(g.shape[0], 1, outSpatial), attrs);
    if (failed(s) || failed(y = addTerm(c, *y, {*s, *wz}, true)))
      return failure();
  }
  if (qx.correctedZp && qw.correctedZp) {
    FailureOr<Value> s = integerProduct(c, graphOp<graph::ConvOp>, {*x1, *w1}, sumShape(1, 1, sumSpatial), attrs);
    if (failed(s) || failed(y = addTerm(c, *y, {*s, *xz, *wz}, false)))
      return failure();
  }
  c.setOutput(0, *y);
  return success();
}

LogicalResult importIntegerKernel(NodeContext &c) {
  bool conv = c.node.op_type() == "ConvInteger";
  std::optional<Val> a = c.required(0), b = c.required(1);
  if (!a || !b)
    return failure();
  if (a->shape().empty() || b->shape().empty())
    return c.fail(code::ShapeMismatch, "the operands must have rank 1 or more");
  FailureOr<IntegerOperand> qa = integerOperand(c, *a, 2, -1);
  FailureOr<IntegerOperand> qb = integerOperand(c, *b, 3, conv ? 0 : int64_t(b->shape().size()) - 1);
  if (failed(qa) || failed(qb))
    return failure();
  auto acc = quant::UniformQuantizedType::get(quant::QuantizationFlags::Signed, c.b.getIntegerType(32),
                                               c.b.getF32Type(), 1.0, 0, INT32_MIN, INT32_MAX);
  bool corrected = qa->correctedZp || qb->correctedZp;
  SmallVector<int64_t> shape;
  SmallVector<NamedAttribute> attrs;
  if (conv) {
    std::optional<ConvGeometry> g = convGeometry(c, *a, *b);
    if (!g)
      return failure();
    if (corrected)
      return importCorrectedConvInteger(c, *a, *b, *qa, *qb, *g);
    shape = g->shape;
    attrs = convAttrs(c, *g);
  } else {
    auto s = sh::matmul(a->shape(), b->shape());
    if (!s)
      return c.fail(code::ShapeMismatch, llvm::toString(s.takeError()));
    shape.assign(s->begin(), s->end());
    if (corrected)
      return importCorrectedMatMulInteger(c, *a, *b, *qa, *qb, shape);
  }
  GraphOpBuilder op = conv ? graphOp<graph::ConvOp> : graphOp<graph::MatMulOp>;
  return buildQuantizedOutput(c, op, {qa->value, qb->value}, shape, acc, attrs);
}

LogicalResult importDynamicQuantize(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  Type u8 = c.b.getIntegerType(8, false);
  FailureOr<Operation *> op = c.buildOp<graph::DynamicQuantizeOp>(
      {x->value}, {c.tensor(x->shape(), u8), c.tensor({}, c.b.getF32Type()), c.tensor({}, u8)});
  if (failed(op))
    return failure();
  for (unsigned i = 0; i < 3; ++i)
    c.setOutput(i, (*op)->getResult(i));
  return success();
}
} // namespace

void npuc::onnx_import::registerIntegerOps(llvm::StringMap<OpImporter> &t) {
  t["ConvInteger"] = importIntegerKernel;
  t["MatMulInteger"] = importIntegerKernel;
  t["DynamicQuantizeLinear"] = importDynamicQuantize;
}
