//===- OpsDecomposed.cpp - Ops imported as compositions of graph ops ------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// ONNX ops the NPU has no kernel of their own for, written as graph ops that
// lower: each composition is exact, or its rounding is stated in
// docs/numerics.md ("Ops imported as compositions").
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

using namespace mlir;
using namespace npuc::onnx_import;

/// Values 0..n-1 of `element` along `axis` of a rank-`rank` tensor
/// ([1, .., n, .., 1]); reports when n is more than npuc builds.
FailureOr<Val> npuc::onnx_import::iota(NodeContext &c, Type element, int64_t n, int64_t axis, int64_t rank) {
  if (!c.fitsBuiltConstant(n, c.node.op_type() + " over an axis of " + llvm::Twine(n)))
    return failure();
  SmallVector<int64_t> shape(size_t(rank), 1);
  shape[size_t(axis)] = n;
  auto t = c.tensor(shape, element);
  if (isa<FloatType>(element)) {
    SmallVector<Attribute> v;
    for (int64_t i = 0; i < n; ++i)
      v.push_back(c.b.getFloatAttr(element, double(i)));
    return c.constant(DenseElementsAttr::get(t, v));
  }
  SmallVector<APInt> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(APInt(element.getIntOrFloatBitWidth(), uint64_t(i), true));
  return c.constant(DenseElementsAttr::get(t, v));
}

namespace {
/// A [1]-shaped constant of `element` holding `v` (a float or an integer).
Val scalar(NodeContext &c, Type element, double v) {
  auto t = c.tensor({1}, element);
  if (isa<FloatType>(element))
    return c.constant(DenseElementsAttr::get(t, c.b.getFloatAttr(element, v)));
  if (element.isInteger(1))
    return c.constant(DenseElementsAttr::get(t, v != 0.0));
  return c.constant(DenseElementsAttr::get(t, c.b.getIntegerAttr(element, int64_t(v))));
}

/// Hardmax (opset 13: along one axis): 1 at the first maximum, else 0, as
/// ArgMax, an Equal with the axis's indices and a Cast. Before opset 13 the
/// input is coerced to 2-D at `axis`, which is the same only for the last axis.
LogicalResult importHardmax(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  int64_t rank = int64_t(x->shape().size());
  if (rank == 0)
    return c.fail(code::ShapeMismatch, "Hardmax needs an input of rank 1 or more");
  auto axis = c.axis(c.intAttr("axis", c.opset >= 13 ? -1 : 1), rank);
  if (!axis)
    return failure();
  if (c.opset < 13 && *axis != rank - 1)
    return c.fail(code::UnsupportedAttr, "Hardmax before opset 13 over the 2-D coercion at axis " +
                                             llvm::Twine(*axis) +
                                             " is not supported (only the last axis)");
  if (!isa<FloatType>(x->element()))
    return c.fail(code::UnsupportedType, "Hardmax of a non-float input is not supported");
  Type i64 = c.b.getI64Type();
  SmallVector<int64_t> kept(x->shape().begin(), x->shape().end());
  kept[size_t(*axis)] = 1;
  FailureOr<Value> arg =
      c.build<graph::ArgMaxOp>({x->value}, c.tensor(kept, i64),
                               {c.named("axis", c.b.getI64IntegerAttr(*axis)),
                                c.named("keepdims", c.b.getBoolAttr(true)),
                                c.named("select_last_index", c.b.getBoolAttr(false))});
  if (failed(arg))
    return failure();
  FailureOr<Val> ids = iota(c, i64, x->shape()[size_t(*axis)], *axis, rank);
  if (failed(ids))
    return failure();
  FailureOr<Value> hit =
      c.build<graph::EqualOp>({*arg, ids->value}, c.tensor(x->shape(), c.b.getI1Type()));
  if (failed(hit))
    return failure();
  return c.buildOutput<graph::CastOp>({*hit}, x->type());
}

/// ReduceProd: a halving tree of Muls along each reduced axis (the first
/// half times the second; an odd last slice is carried by a Concat).
LogicalResult reduceProdTree(NodeContext &c, Val x, ArrayRef<int64_t> axes, bool keep) {
  Value cur = x.value;
  SmallVector<int64_t> shape(x.shape().begin(), x.shape().end());
  auto slice = [&](int64_t axis, int64_t lo, int64_t hi) -> FailureOr<Value> {
    SmallVector<int64_t> starts(shape.size(), 0), ends(shape.begin(), shape.end()),
        steps(shape.size(), 1), out(shape.begin(), shape.end());
    starts[size_t(axis)] = lo;
    ends[size_t(axis)] = hi;
    out[size_t(axis)] = hi - lo;
    return c.build<graph::SliceOp>(
        {cur}, c.tensor(out, x.element()),
        {c.named("starts", i64Array(c, starts)), c.named("ends", i64Array(c, ends)),
         c.named("steps", i64Array(c, steps))});
  };
  for (int64_t axis : axes) {
    while (shape[size_t(axis)] > 1) {
      int64_t n = shape[size_t(axis)], h = n / 2;
      FailureOr<Value> lo = slice(axis, 0, h), hi = slice(axis, h, 2 * h);
      if (failed(lo) || failed(hi))
        return failure();
      SmallVector<int64_t> half(shape.begin(), shape.end());
      half[size_t(axis)] = h;
      FailureOr<Value> p = c.build<graph::MulOp>({*lo, *hi}, c.tensor(half, x.element()));
      if (failed(p))
        return failure();
      if (n % 2) {
        FailureOr<Value> last = slice(axis, 2 * h, n);
        if (failed(last))
          return failure();
        half[size_t(axis)] = h + 1;
        p = c.build<graph::ConcatOp>({*p, *last}, c.tensor(half, x.element()),
                                     {c.named("axis", c.b.getI64IntegerAttr(axis))});
        if (failed(p))
          return failure();
      }
      cur = *p;
      shape = half;
    }
  }
  if (!keep) {
    SmallVector<int64_t> dropped;
    for (auto [i, d] : llvm::enumerate(shape))
      if (!llvm::is_contained(axes, int64_t(i)))
        dropped.push_back(d);
    FailureOr<Value> r = buildReshape(c, cur, dropped);
    if (failed(r))
      return failure();
    cur = *r;
  }
  c.setOutput(0, cur);
  return success();
}

/// Sinh and Cosh: (exp(x) - exp(-x)) / 2 and (exp(x) + exp(-x)) / 2.
LogicalResult importHyperbolic(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (!x->element().isF32())
    return c.fail(code::UnsupportedType, c.node.op_type() + " of a non-f32 input is not supported");
  FailureOr<Value> ep = c.build<graph::ExpOp>({x->value}, x->type());
  FailureOr<Value> neg = c.build<graph::NegOp>({x->value}, x->type());
  if (failed(ep) || failed(neg))
    return failure();
  FailureOr<Value> en = c.build<graph::ExpOp>({*neg}, x->type());
  if (failed(en))
    return failure();
  GraphOpBuilder op = c.node.op_type() == "Sinh" ? graphOp<graph::SubOp> : graphOp<graph::AddOp>;
  FailureOr<Value> s = c.build(op, {*ep, *en}, x->type());
  if (failed(s))
    return failure();
  return c.buildOutput<graph::MulOp>({*s, scalar(c, x->element(), 0.5).value}, x->type());
}

/// IsNaN: x != x, as Not(Equal(x, x)). IsInf: Equal with +inf and/or -inf.
LogicalResult importIsSpecial(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (!isa<FloatType>(x->element()))
    return c.fail(code::UnsupportedType, c.node.op_type() + " of a non-float input is not supported");
  auto boolType = c.tensor(x->shape(), c.b.getI1Type());
  if (c.node.op_type() == "IsNaN") {
    FailureOr<Value> same = c.build<graph::EqualOp>({x->value, x->value}, boolType);
    if (failed(same))
      return failure();
    return c.buildOutput<graph::NotOp>({*same}, boolType);
  }
  bool pos = c.intAttr("detect_positive", 1) != 0, neg = c.intAttr("detect_negative", 1) != 0;
  double inf = std::numeric_limits<double>::infinity();
  SmallVector<Value> hits;
  for (auto [want, v] : {std::pair{pos, inf}, std::pair{neg, -inf}}) {
    if (!want)
      continue;
    FailureOr<Value> h =
        c.build<graph::EqualOp>({x->value, scalar(c, x->element(), v).value}, boolType);
    if (failed(h))
      return failure();
    hits.push_back(*h);
  }
  if (hits.empty()) {
    c.setOutput(0, c.constant(DenseElementsAttr::get(boolType, false)));
    return success();
  }
  if (hits.size() == 1) {
    c.setOutput(0, hits[0]);
    return success();
  }
  return c.buildOutput<graph::OrOp>({hits[0], hits[1]}, boolType);
}

/// EyeLike: a constant of the input's shape (its values are not read), with
/// ones on the diagonal shifted by k.
LogicalResult importEyeLike(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (x->shape().size() != 2)
    return c.fail(code::ShapeMismatch, "EyeLike needs a 2-D input");
  Type element = x->element();
  if (const onnx::AttributeProto *d = c.attr("dtype")) {
    std::optional<Type> t = c.imp.elementType(int32_t(d->i()));
    if (!t || t->isBF16())
      return c.fail(code::UnsupportedType,
                    "EyeLike to element type " + llvm::Twine(d->i()) + " is not supported");
    element = *t;
  }
  int64_t rows = x->shape()[0], cols = x->shape()[1], k = c.intAttr("k", 0);
  if (!c.fitsBuiltConstant(rows * cols, "EyeLike of " + llvm::Twine(rows) + "x" + llvm::Twine(cols)))
    return failure();
  auto t = c.tensor({rows, cols}, element);
  if (isa<FloatType>(element)) {
    SmallVector<Attribute> v;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        v.push_back(c.b.getFloatAttr(element, j - i == k ? 1.0 : 0.0));
    c.setOutput(0, c.constant(DenseElementsAttr::get(t, v)));
    return success();
  }
  SmallVector<APInt> v;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      v.push_back(APInt(element.getIntOrFloatBitWidth(), j - i == k ? 1 : 0));
  c.setOutput(0, c.constant(DenseElementsAttr::get(t, v)));
  return success();
}

/// CastLike: Cast to the second input's element type.
LogicalResult importCastLike(NodeContext &c) {
  std::optional<Val> x = c.required(0), like = c.required(1);
  if (!x || !like)
    return failure();
  if (like->element().isBF16() || x->element().isBF16())
    return c.fail(code::UnsupportedType, "CastLike of bfloat16 is not supported");
  if (x->element() == like->element()) {
    c.setOutput(0, *x);
    return success();
  }
  return c.buildOutput<graph::CastOp>({x->value}, c.tensor(x->shape(), like->element()));
}

/// OneHot with a constant depth and values [off, on]: Where(Equal(ids, the
/// axis's indices), on, off), a negative id counting from the end as ONNX says
/// (ids + depth where ids < 0); an id outside [-depth, depth) gives off.
LogicalResult importOneHot(NodeContext &c) {
  std::optional<Val> ids = c.required(0);
  if (!ids)
    return failure();
  DenseElementsAttr depthAttr = c.requiredConstant(1, "depth");
  DenseElementsAttr values = c.requiredConstant(2, "values");
  if (!depthAttr || !values)
    return failure();
  if (depthAttr.getNumElements() != 1 || values.getNumElements() != 2)
    return c.fail(code::ShapeMismatch, "OneHot needs one depth and two values (off, on)");
  double depthValue = isa<FloatType>(depthAttr.getElementType())
                          ? (*depthAttr.getValues<APFloat>().begin()).convertToDouble()
                          : double((*depthAttr.getValues<APInt>().begin()).getSExtValue());
  int64_t depth = int64_t(depthValue);
  if (depth < 1 || depth > (int64_t(1) << 16))
    return c.fail(code::ShapeMismatch, "OneHot depth " + llvm::Twine(depth) + " is not in [1, 65536]");
  int64_t rank = int64_t(ids->shape().size()) + 1;
  auto axis = c.axis(c.intAttr("axis", -1), rank);
  if (!axis)
    return failure();
  Type idType = ids->element();
  if (!isa<FloatType>(idType) && !isa<IntegerType>(idType))
    return c.fail(code::UnsupportedType, "OneHot ids must be numbers");
  // The ids with the new axis inserted, negative ids shifted by depth;
  // integers narrower than 32 bits compared as int32 (depth and the indices
  // 0..depth-1 do not fit them).
  SmallVector<int64_t> idShape(ids->shape().begin(), ids->shape().end());
  idShape.insert(idShape.begin() + *axis, 1);
  FailureOr<Value> shaped = buildReshape(c, ids->value, idShape);
  if (failed(shaped))
    return failure();
  if (isa<IntegerType>(idType) && idType.getIntOrFloatBitWidth() < 32) {
    idType = c.b.getIntegerType(32);
    shaped = c.build<graph::CastOp>({*shaped}, c.tensor(idShape, idType));
    if (failed(shaped))
      return failure();
  }
  auto idT = c.tensor(idShape, idType);
  auto boolIds = c.tensor(idShape, c.b.getI1Type());
  Val zero = scalar(c, idType, 0), d = scalar(c, idType, double(depth));
  FailureOr<Value> isNeg = c.build<graph::LessOp>({*shaped, zero.value}, boolIds);
  FailureOr<Value> wrapped = c.build<graph::AddOp>({*shaped, d.value}, idT);
  if (failed(isNeg) || failed(wrapped))
    return failure();
  FailureOr<Value> fixed = c.build<graph::WhereOp>({*isNeg, *wrapped, *shaped}, idT);
  if (failed(fixed))
    return failure();
  SmallVector<int64_t> outShape(idShape);
  outShape[size_t(*axis)] = depth;
  FailureOr<Val> positions = iota(c, idType, depth, *axis, rank);
  if (failed(positions))
    return failure();
  FailureOr<Value> hit = c.build<graph::EqualOp>({*fixed, positions->value},
                                                 c.tensor(outShape, c.b.getI1Type()));
  if (failed(hit))
    return failure();
  Type vt = values.getElementType();
  auto pick = [&](int64_t i) {
    auto t = c.tensor({1}, vt);
    if (isa<FloatType>(vt))
      return c.constant(DenseElementsAttr::get(t, values.getValues<APFloat>()[i]));
    return c.constant(DenseElementsAttr::get(t, values.getValues<APInt>()[i]));
  };
  return c.buildOutput<graph::WhereOp>({*hit, pick(1).value, pick(0).value},
                                       c.tensor(outShape, vt));
}
/// BitShift of unsigned integers: graph.shift_left / graph.shift_right.
LogicalResult importBitShift(NodeContext &c) {
  std::optional<Val> a = c.required(0), b = c.required(1);
  if (!a || !b)
    return failure();
  auto it = dyn_cast<IntegerType>(a->element());
  if (!it || !it.isUnsigned() || a->element() != b->element())
    return c.fail(code::UnsupportedType, "BitShift needs two operands of one unsigned integer type");
  std::string direction = c.stringAttr("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    return c.fail(code::UnsupportedAttr, "BitShift direction '" + direction + "' is not LEFT or RIGHT");
  GraphOpBuilder op =
      direction == "LEFT" ? graphOp<graph::ShiftLeftOp> : graphOp<graph::ShiftRightOp>;
  FailureOr<Value> r = buildBinary(c, op, *a, *b);
  if (failed(r))
    return failure();
  c.setOutput(0, *r);
  return success();
}
} // namespace

LogicalResult npuc::onnx_import::importReduceProd(NodeContext &c, Val x, ArrayRef<int64_t> axes,
                                                  bool keep) {
  return reduceProdTree(c, x, axes, keep);
}

void npuc::onnx_import::registerDecomposedOps(llvm::StringMap<OpImporter> &t) {
  t["Hardmax"] = importHardmax;
  t["Sinh"] = importHyperbolic;
  t["Cosh"] = importHyperbolic;
  t["IsNaN"] = importIsSpecial;
  t["IsInf"] = importIsSpecial;
  t["EyeLike"] = importEyeLike;
  t["CastLike"] = importCastLike;
  t["OneHot"] = importOneHot;
  t["BitShift"] = importBitShift;
}
