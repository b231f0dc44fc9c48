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

#include <limits>
#include <numeric>

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
/// The most elements TopK selects one by one.
constexpr int64_t kMaxTopK = 256;

/// TopK by repeated selection: k times the max (min for largest = 0) along
/// the axis and its first index (ArgMax: ties to the lower index, as TopK
/// orders them), then that position masked with -inf (+inf) for the next
/// round. Values and indices are the rounds concatenated along the axis, so
/// sorted; sorted = 0 leaves the order open, and this one is allowed.
LogicalResult importTopK(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (!x->element().isF32())
    return c.fail(code::UnsupportedType, "TopK of f32 data only");
  auto k = c.constantInts(1, "k");
  if (!k)
    return failure();
  if (k->size() != 1)
    return c.fail(code::ShapeMismatch, "k must hold one value");
  int64_t rank = int64_t(x->shape().size());
  std::optional<int64_t> axis = c.axis(c.intAttr("axis", -1), rank);
  if (!axis)
    return failure();
  int64_t n = x->shape()[size_t(*axis)], K = (*k)[0];
  if (K < 1 || K > n)
    return c.fail(code::ShapeMismatch, "k = " + llvm::Twine(K) + " is outside [1, " + llvm::Twine(n) + "]");
  if (K > kMaxTopK)
    return c.fail(code::Overflow, "k = " + llvm::Twine(K) + " is past the " + llvm::Twine(kMaxTopK) +
                                      " elements TopK selects one by one");
  bool largest = c.intAttr("largest", 1) != 0;
  SmallVector<int64_t> one(x->shape()), iotaShape(size_t(rank), 1), outShape(x->shape());
  one[size_t(*axis)] = 1;
  iotaShape[size_t(*axis)] = n;
  outShape[size_t(*axis)] = K;
  Type i64 = c.b.getI64Type(), i1 = c.b.getI1Type();
  std::vector<int64_t> ramp(static_cast<size_t>(n));
  std::iota(ramp.begin(), ramp.end(), 0);
  auto iotaType = c.tensor(iotaShape, i64);
  Value iota = c.constant(DenseElementsAttr::get(iotaType, ArrayRef<int64_t>(ramp))).value;
  auto scalarType = c.tensor({1}, x->element());
  float maskValue = largest ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  Value mask = c.constant(DenseElementsAttr::get(scalarType, ArrayRef<float>{maskValue})).value;
  GraphOpBuilder pick = largest ? graphOp<graph::ReduceMaxOp> : graphOp<graph::ReduceMinOp>;
  GraphOpBuilder arg = largest ? graphOp<graph::ArgMaxOp> : graphOp<graph::ArgMinOp>;
  SmallVector<Value> values, indices;
  Value cur = x->value;
  for (int64_t r = 0; r < K; ++r) {
    FailureOr<Value> v = c.build(pick, {cur}, c.tensor(one, x->element()),
                                 {c.named("axes", c.b.getDenseI64ArrayAttr({*axis})),
                                  c.named("keepdims", c.b.getBoolAttr(true))});
    FailureOr<Value> at = c.build(arg, {cur}, c.tensor(one, i64),
                                  {c.named("axis", c.b.getI64IntegerAttr(*axis)),
                                   c.named("keepdims", c.b.getBoolAttr(true)),
                                   c.named("select_last_index", c.b.getBoolAttr(false))});
    if (failed(v) || failed(at))
      return failure();
    values.push_back(*v);
    indices.push_back(*at);
    if (r + 1 == K)
      break;
    FailureOr<Value> hit = c.build<graph::EqualOp>({iota, *at}, c.tensor(x->shape(), i1));
    FailureOr<Value> next = succeeded(hit) ? c.build<graph::WhereOp>({*hit, mask, cur}, x->type())
                                           : FailureOr<Value>(failure());
    if (failed(next))
      return failure();
    cur = *next;
  }
  auto concat = [&](SmallVector<Value> &parts, Type element) -> FailureOr<Value> {
    if (parts.size() == 1)
      return parts.front();
    return c.build<graph::ConcatOp>(parts, c.tensor(outShape, element),
                                    {c.named("axis", c.b.getI64IntegerAttr(*axis))});
  };
  FailureOr<Value> vals = concat(values, x->element()), idxs = concat(indices, i64);
  if (failed(vals) || failed(idxs))
    return failure();
  c.setOutput(0, *vals);
  c.setOutput(1, *idxs);
  return success();
}

/// The most batches ReverseSequence slices one by one.
constexpr int64_t kMaxReverseBatches = 1024;

/// ReverseSequence with constant sequence lengths: per batch, its first
/// length elements along the time axis reversed (a slice of step -1), the
/// rest kept, the batches concatenated again.
LogicalResult importReverseSequence(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  auto lens = c.constantInts(1, "sequence_lens");
  if (!lens)
    return failure();
  int64_t rank = int64_t(x->shape().size());
  if (rank < 2)
    return c.fail(code::ShapeMismatch, "ReverseSequence needs a tensor of rank 2 or more");
  int64_t batchAxis = c.intAttr("batch_axis", 1), timeAxis = c.intAttr("time_axis", 0);
  if ((batchAxis != 0 && batchAxis != 1) || (timeAxis != 0 && timeAxis != 1) || batchAxis == timeAxis)
    return c.fail(code::UnsupportedAttr, "batch_axis and time_axis must be 0 and 1, one each");
  int64_t B = x->shape()[size_t(batchAxis)], T = x->shape()[size_t(timeAxis)];
  if (int64_t(lens->size()) != B)
    return c.fail(code::ShapeMismatch, "sequence_lens has " + llvm::Twine(lens->size()) + " entries for " +
                                           llvm::Twine(B) + " batches");
  if (B > kMaxReverseBatches)
    return c.fail(code::Overflow, llvm::Twine(B) + " batches are past the " + llvm::Twine(kMaxReverseBatches) +
                                      " ReverseSequence slices one by one");
  SmallVector<Value> batches;
  for (int64_t b = 0; b < B; ++b) {
    int64_t len = (*lens)[size_t(b)];
    if (len < 0 || len > T)
      return c.fail(code::ShapeMismatch, "sequence length " + llvm::Twine(len) + " of batch " + llvm::Twine(b) +
                                             " is outside [0, " + llvm::Twine(T) + "]");
    FailureOr<Value> row = sliceAxis(c, x->value, batchAxis, b, b + 1, 1, 1);
    if (failed(row))
      return failure();
    SmallVector<Value> parts;
    if (len > 0) {
      FailureOr<Value> rev = sliceAxis(c, *row, timeAxis, len - 1, -1, -1, len);
      if (failed(rev))
        return failure();
      parts.push_back(*rev);
    }
    if (len < T) {
      FailureOr<Value> rest = sliceAxis(c, *row, timeAxis, len, T, 1, T - len);
      if (failed(rest))
        return failure();
      parts.push_back(*rest);
    }
    FailureOr<Value> joined = concatAxis(c, parts, timeAxis);
    if (failed(joined))
      return failure();
    batches.push_back(*joined);
  }
  FailureOr<Value> y = concatAxis(c, batches, batchAxis);
  if (failed(y))
    return failure();
  c.setOutput(0, *y);
  return success();
}

/// Det of [..., n, n] f32 matrices for n <= 3 by cofactor expansion: n = 2,
/// a d - b c; n = 3, a (e i - f h) - b (d i - f g) + c (d h - e g); each
/// product and difference an f32 rounding (numpy's LU rounds otherwise).
LogicalResult importDet(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  ArrayRef<int64_t> s = x->shape();
  if (s.size() < 2 || s[s.size() - 1] != s[s.size() - 2])
    return c.fail(code::ShapeMismatch, "Det needs square matrices in the last two axes");
  if (!x->element().isF32())
    return c.fail(code::UnsupportedType, "Det of f32 matrices only");
  int64_t n = s.back(), rank = int64_t(s.size());
  if (n > 3)
    return c.fail(code::UnsupportedAttr, "Det of " + llvm::Twine(n) + "x" + llvm::Twine(n) +
                                             " matrices is not supported (cofactor expansion up to 3x3)");
  SmallVector<int64_t> outShape(s.drop_back(2)), elemShape(s.drop_back(2));
  elemShape.append({1, 1});
  auto elemType = c.tensor(elemShape, x->element());
  // Element (i, j) of every matrix, [..., 1, 1].
  auto at = [&](int64_t i, int64_t j) -> FailureOr<Value> {
    FailureOr<Value> r = sliceAxis(c, x->value, rank - 2, i, i + 1, 1, 1);
    return succeeded(r) ? sliceAxis(c, *r, rank - 1, j, j + 1, 1, 1) : r;
  };
  auto bin = [&](GraphOpBuilder op, FailureOr<Value> a, FailureOr<Value> b) -> FailureOr<Value> {
    if (failed(a) || failed(b))
      return failure();
    return c.build(op, {*a, *b}, elemType);
  };
  GraphOpBuilder mul = graphOp<graph::MulOp>, sub = graphOp<graph::SubOp>, add = graphOp<graph::AddOp>;
  auto det2 = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    return bin(sub, bin(mul, at(r0, c0), at(r1, c1)), bin(mul, at(r0, c1), at(r1, c0)));
  };
  FailureOr<Value> d;
  if (n == 1)
    d = at(0, 0);
  else if (n == 2)
    d = det2(0, 1, 0, 1);
  else
    d = bin(add, bin(sub, bin(mul, at(0, 0), det2(1, 2, 1, 2)), bin(mul, at(0, 1), det2(1, 2, 0, 2))),
            bin(mul, at(0, 2), det2(1, 2, 0, 1)));
  if (failed(d))
    return failure();
  return c.buildOutput<graph::ReshapeOp>({*d}, c.tensor(outShape, x->element()));
}
/// b^e in int32 by squaring: per bit k of |e| (k < bits) a factor 1 + bit *
/// (b^(2^k) - 1), the factors multiplied; a negative e gives 1 / b^|e|
/// truncated (1 or -1 where |b| = 1, else 0). Products past int32 saturate
/// as VECTOR's MUL does. `b` and `e` are i32 tensors of shapes broadcasting
/// to `shape`.
FailureOr<Value> powBySquaring(NodeContext &c, Value b, Value e, ArrayRef<int64_t> shape, int64_t bits) {
  Type i32 = c.b.getIntegerType(32), i1 = c.b.getI1Type();
  auto T = c.tensor(shape, i32);
  auto eType = cast<RankedTensorType>(e.getType()), bType = cast<RankedTensorType>(b.getType());
  auto scalar = [&](int32_t v) {
    return c.constant(DenseElementsAttr::get(c.tensor({1}, i32), APInt(32, uint64_t(int64_t(v)), true))).value;
  };
  Value one = scalar(1), two = scalar(2), zero = scalar(0), minusOne = scalar(-1);
  // |v| as v * (v < 0 ? -1 : 1): VECTOR's integer ops have no ABS.
  auto absOf = [&](Value v, RankedTensorType t) -> FailureOr<Value> {
    FailureOr<Value> negative = c.build<graph::LessOp>({v, zero}, t.clone(i1));
    FailureOr<Value> sign = succeeded(negative) ? c.build<graph::WhereOp>({*negative, minusOne, one}, t) : negative;
    return succeeded(sign) ? c.build<graph::MulOp>({v, *sign}, t) : sign;
  };
  FailureOr<Value> cur = absOf(e, eType);
  FailureOr<Value> result = FailureOr<Value>(failure());
  Value p = b;
  for (int64_t k = 0; k < bits && succeeded(cur); ++k) {
    FailureOr<Value> q = c.build<graph::DivOp>({*cur, two}, eType);
    FailureOr<Value> twice = succeeded(q) ? c.build<graph::MulOp>({*q, two}, eType) : q;
    FailureOr<Value> bit = succeeded(twice) ? c.build<graph::SubOp>({*cur, *twice}, eType) : twice;
    FailureOr<Value> pm1 = c.build<graph::SubOp>({p, one}, bType);
    FailureOr<Value> f = succeeded(bit) && succeeded(pm1) ? c.build<graph::MulOp>({*bit, *pm1}, T)
                                                          : FailureOr<Value>(failure());
    if (succeeded(f))
      f = c.build<graph::AddOp>({*f, one}, T);
    if (failed(f))
      return failure();
    result = k == 0 ? f : c.build<graph::MulOp>({*result, *f}, T);
    if (failed(result))
      return failure();
    if (k + 1 < bits) {
      FailureOr<Value> sq = c.build<graph::MulOp>({p, p}, bType);
      if (failed(sq))
        return failure();
      p = *sq;
    }
    cur = q;
  }
  if (failed(cur) || failed(result))
    return failure();
  // e < 0: |b| = 1 keeps b^|e|, any other base truncates to 0.
  FailureOr<Value> neg = c.build<graph::LessOp>({e, zero}, c.tensor(eType.getShape(), i1));
  FailureOr<Value> absB = absOf(b, bType);
  FailureOr<Value> unit = succeeded(absB) ? c.build<graph::EqualOp>({*absB, one}, c.tensor(bType.getShape(), i1))
                                          : absB;
  if (failed(neg) || failed(unit))
    return failure();
  FailureOr<Value> inverse = c.build<graph::WhereOp>({*unit, *result, zero}, T);
  if (failed(inverse))
    return failure();
  return c.build<graph::WhereOp>({*neg, *inverse, *result}, T);
}

/// Pow of an integer base (ONNX: the result has the base's type). An
/// integer exponent: exact, by squaring in int32 (powBySquaring) over the
/// bits the exponent can have (its largest magnitude when constant, else
/// 31). A float exponent: the same where it is a whole number, else the f32
/// Pow truncated toward zero (numpy's power in float, cast back).
LogicalResult integerPow(NodeContext &c, const Val &x, const Val &e) {
  auto shape = sh::broadcast(x.shape(), e.shape());
  if (!shape)
    return c.fail(code::ShapeMismatch, llvm::toString(shape.takeError()));
  auto xt = dyn_cast<IntegerType>(x.element());
  if (!xt || xt.getWidth() == 1 || (xt.isUnsigned() && xt.getWidth() > 32))
    return c.fail(code::UnsupportedType, "Pow of this integer base type is not supported");
  Type i32 = c.b.getIntegerType(32), f32 = c.b.getF32Type(), i1 = c.b.getI1Type();
  bool floatExp = isa<FloatType>(e.element());
  if (!floatExp && (!isa<IntegerType>(e.element()) || e.element().isInteger(1) ||
                    (e.element().isUnsignedInteger() && e.element().getIntOrFloatBitWidth() > 32)))
    return c.fail(code::UnsupportedType, "Pow with this exponent type is not supported");
  auto toType = [&](Value v, Type t) -> FailureOr<Value> {
    auto vt = cast<RankedTensorType>(v.getType());
    if (vt.getElementType() == t)
      return v;
    return c.build<graph::CastOp>({v}, vt.clone(t));
  };
  FailureOr<Value> b = toType(x.value, i32), ei = toType(e.value, i32);
  if (failed(b) || failed(ei))
    return failure();
  int64_t bits = 31;
  if (e.constant && !floatExp) {
    int64_t most = 0;
    for (const APInt &v : e.constant.getValues<APInt>())
      most = std::max<int64_t>(most, std::abs(e.element().isUnsignedInteger() ? int64_t(v.getZExtValue())
                                                                               : v.getSExtValue()));
    bits = std::max<int64_t>(1, std::min<int64_t>(31, int64_t(llvm::Log2_64(uint64_t(most) | 1)) + 1));
  }
  FailureOr<Value> r = powBySquaring(c, *b, *ei, *shape, bits);
  if (failed(r))
    return failure();
  if (floatExp) {
    if (!e.element().isF32())
      return c.fail(code::UnsupportedType, "Pow of an integer base by a float exponent takes f32 exponents");
    FailureOr<Value> fb = toType(x.value, f32);
    FailureOr<Value> fp = succeeded(fb) ? c.build<graph::PowOp>({*fb, e.value}, c.tensor(*shape, f32)) : fb;
    FailureOr<Value> truncated = succeeded(fp) ? c.build<graph::CastOp>({*fp}, c.tensor(*shape, i32)) : fp;
    FailureOr<Value> fl = c.build<graph::FloorOp>({e.value}, e.type());
    FailureOr<Value> whole = succeeded(fl) ? c.build<graph::EqualOp>({*fl, e.value}, c.tensor(e.shape(), i1)) : fl;
    if (failed(truncated) || failed(whole))
      return failure();
    r = c.build<graph::WhereOp>({*whole, *r, *truncated}, c.tensor(*shape, i32));
    if (failed(r))
      return failure();
  }
  FailureOr<Value> y = toType(*r, x.element());
  if (failed(y))
    return failure();
  c.setOutput(0, *y);
  return success();
}
} // namespace

LogicalResult npuc::onnx_import::importReduceProd(NodeContext &c, Val x, ArrayRef<int64_t> axes,
                                                  bool keep) {
  return reduceProdTree(c, x, axes, keep);
}

FailureOr<Value> npuc::onnx_import::concatAxis(NodeContext &c, ArrayRef<Value> parts, int64_t axis) {
  if (parts.size() == 1)
    return parts.front();
  auto t = cast<RankedTensorType>(parts.front().getType());
  SmallVector<int64_t> shape(t.getShape());
  shape[size_t(axis)] = 0;
  for (Value p : parts)
    shape[size_t(axis)] += cast<RankedTensorType>(p.getType()).getDimSize(axis);
  return c.build<graph::ConcatOp>(SmallVector<Value>(parts), t.clone(shape),
                                  {c.named("axis", c.b.getI64IntegerAttr(axis))});
}

FailureOr<Value> npuc::onnx_import::sliceAxis(NodeContext &c, Value v, int64_t axis, int64_t start, int64_t end,
                                              int64_t step, int64_t length) {
  auto t = cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> starts(size_t(t.getRank()), 0), ends(t.getShape()), steps(size_t(t.getRank()), 1),
      shape(t.getShape());
  starts[size_t(axis)] = start;
  ends[size_t(axis)] = end;
  steps[size_t(axis)] = step;
  shape[size_t(axis)] = length;
  return c.build<graph::SliceOp>({v}, t.clone(shape),
                                 {c.named("starts", c.b.getDenseI64ArrayAttr(starts)),
                                  c.named("ends", c.b.getDenseI64ArrayAttr(ends)),
                                  c.named("steps", c.b.getDenseI64ArrayAttr(steps))});
}

LogicalResult npuc::onnx_import::importIntegerPow(NodeContext &c, const Val &x, const Val &e) {
  return integerPow(c, x, e);
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
  t["TopK"] = importTopK;
  t["ReverseSequence"] = importReverseSequence;
  t["Det"] = importDet;
}
