//===- OpsScatter.cpp - GatherND and the scatters by linear row numbers ----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Each op flattens its data to rows [F, S] (the indexed axes, then the slice
// each index moves) and turns its indices into linear row numbers L
// (negative ones wrapped; a tuple with an entry outside its axis gets F, out
// of range). The rows then move on the indexed DMA (npu-v1.md section 5):
// GatherND is a graph.gather of the rows by L, a scatter a graph.scatter_nd
// of them (reduction none, add, max or min), and npu-sim faults on an index
// out of range. What the DMA cannot do (Mul, GatherND with batch_dims, rows
// past its fields) selects by comparison instead: L against 0..F-1 is a
// one-hot hit matrix [M, F]; GatherND is hit x data, a scatter hit^T x
// updates where rows are hit (none), data + that (add), or the rows' product,
// max or min over the updates hitting them; an index out of range hits no
// row. That costs M x F x S, bounded (kMaxHits) (docs/numerics.md).
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace npuc::onnx_import;

namespace {
/// The most elements of a hit matrix (M x F) and of a selection (M x F x S).
constexpr int64_t kMaxHits = int64_t(1) << 24;

int64_t product(ArrayRef<int64_t> s) {
  return std::accumulate(s.begin(), s.end(), int64_t(1), std::multiplies<int64_t>());
}

struct Builder : OpChain {
  /// `idx` (int64) with negative entries wrapped by `sizes` (broadcast).
  Value wrap(Value idx, Value sizes) {
    auto t = cast<RankedTensorType>(idx.getType());
    Value neg = op<graph::LessOp>({idx, i64({1}, {0})}, t.clone(c.b.getI1Type()));
    return op<graph::WhereOp>({neg, op<graph::AddOp>({idx, sizes}, t), idx}, t);
  }
  /// Whether each index of the int64 `idx` is in [0, size): an i1 of its
  /// shape (an index outside names row F, which the indexed DMA faults on).
  Value inRange(Value idx, int64_t size) {
    auto i1 = cast<RankedTensorType>(idx.getType()).clone(c.b.getI1Type());
    return op<graph::AndOp>({op<graph::GreaterOrEqualOp>({idx, i64({1}, {0})}, i1),
                             op<graph::LessOp>({idx, i64({1}, {size})}, i1)},
                            i1);
  }
  /// One-hot rows: hit[.., m, f] = (L[.., m] == f), L [.., M], as i1 [.., M, F].
  Value hits(Value L, int64_t F) {
    auto t = cast<RankedTensorType>(L.getType());
    SmallVector<int64_t> col(t.getShape()), hs(t.getShape());
    col.push_back(1);
    hs.push_back(F);
    std::vector<int64_t> ramp(static_cast<size_t>(F));
    std::iota(ramp.begin(), ramp.end(), 0);
    return op<graph::EqualOp>({reshape(L, col), i64({F}, ramp)}, c.tensor(hs, c.b.getI1Type()));
  }
};

/// Linear row numbers of the index tuples `idx` [.., k] over the first k
/// axes of `dims`: sum_i wrap(idx[.., i]) * stride_i, an i64 [..].
Value linearRows(Builder &b, Value idx, ArrayRef<int64_t> dims) {
  auto t = cast<RankedTensorType>(idx.getType());
  int64_t k = t.getShape().back(), rank = t.getRank();
  if (!t.getElementType().isInteger(64))
    idx = b.op<graph::CastOp>({idx}, t.clone(b.c.b.getI64Type()));
  auto i64t = t.clone(b.c.b.getI64Type());
  idx = b.wrap(idx, b.i64({k}, SmallVector<int64_t>(dims.take_front(size_t(k)))));
  SmallVector<int64_t> outer(t.getShape().drop_back());
  auto i1 = i64t.clone(outer).clone(b.c.b.getI1Type());
  Value L, valid;
  for (int64_t i = 0; i < k; ++i) {
    int64_t stride = product(dims.slice(size_t(i + 1), size_t(k - i - 1)));
    Value col = b.reshape(b.slice(idx, rank - 1, i, i + 1), outer);
    // 0 <= col < dims[i] (after the wrap): else the tuple names no row.
    Value in = b.op<graph::AndOp>({b.op<graph::GreaterOrEqualOp>({col, b.i64({1}, {0})}, i1),
                                   b.op<graph::LessOp>({col, b.i64({1}, {dims[size_t(i)]})}, i1)},
                                  i1);
    valid = !valid ? in : b.op<graph::AndOp>({valid, in}, i1);
    if (stride != 1)
      col = b.op<graph::MulOp>({col, b.i64({1}, {stride})}, i64t.clone(outer));
    L = !L ? col : b.op<graph::AddOp>({L, col}, i64t.clone(outer));
  }
  return b.op<graph::WhereOp>({valid, L, b.i64({1}, {product(dims.take_front(size_t(k)))})}, i64t.clone(outer));
}

template <typename CombineOp>
Value combineOverRows(Builder &b, Value v);

/// Rows of `data` [B, F, S] picked by L [B, M]: [B, M, S]. f32 data by a
/// product of the hits; any other type by a select and a sum (exact).
Value gatherRows(Builder &b, Value data, Value L) {
  auto dt = cast<RankedTensorType>(data.getType());
  auto lt = cast<RankedTensorType>(L.getType());
  int64_t B = dt.getShape()[0], F = dt.getShape()[1], S = dt.getShape()[2], M = lt.getShape()[1];
  Type el = dt.getElementType();
  Value hit = b.hits(L, F);  // [B, M, F]
  if (el.isF32()) {
    Value hf = b.op<graph::CastOp>({hit}, b.c.tensor({B, M, F}, el));
    return b.op<graph::MatMulOp>({hf, data}, b.c.tensor({B, M, S}, el));
  }
  // Integers: the hit rows selected and summed over F by halving adds
  // (one row or none is nonzero: exact), F leading.
  Value ht = b.op<graph::TransposeOp>({hit}, b.c.tensor({F, B, M}, b.c.b.getI1Type()),
                                      {b.c.named("perm", b.c.b.getDenseI64ArrayAttr({2, 0, 1}))});
  Value dtT = b.op<graph::TransposeOp>({data}, b.c.tensor({F, B, S}, el),
                                       {b.c.named("perm", b.c.b.getDenseI64ArrayAttr({1, 0, 2}))});
  Value picked = b.op<graph::WhereOp>({b.reshape(ht, {F, B, M, 1}), b.reshape(dtT, {F, B, 1, S}), b.splat(el, 0)},
                                      b.c.tensor({F, B, M, S}, el));
  return b.reshape(combineOverRows<graph::AddOp>(b, picked), {B, M, S});
}

/// The product (or the sum) of `v` [M, ...] over axis 0 by halving (an odd
/// last slice carried), M >= 1.
template <typename CombineOp>
Value combineOverRows(Builder &b, Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  while (b.ok && t.getShape()[0] > 1) {
    int64_t M = t.getShape()[0], half = M / 2;
    auto slice = [&](int64_t from, int64_t to) { return b.slice(v, 0, from, to); };
    SmallVector<int64_t> hs(t.getShape());
    hs[0] = half;
    Value prod = b.op<CombineOp>({slice(0, half), slice(half, 2 * half)}, t.clone(hs));
    if (M % 2) {
      hs[0] = half + 1;
      prod = b.op<graph::ConcatOp>({prod, slice(2 * half, M)}, t.clone(hs),
                                   {b.c.named("axis", b.c.b.getI64IntegerAttr(0))});
    }
    v = prod;
    t = cast<RankedTensorType>(v.getType());
  }
  return v;
}

/// `data` [F, S] with rows L [M] updated by `updates` [M, S] (f32); reduction
/// none, add, mul, max, min, or assign (every update of a row has one value).
Value scatterRows(Builder &b, Value data, Value L, Value updates, StringRef reduction) {
  auto dt = cast<RankedTensorType>(data.getType());
  int64_t F = dt.getShape()[0], S = dt.getShape()[1];
  int64_t M = cast<RankedTensorType>(L.getType()).getShape()[0];
  Type el = dt.getElementType(), i1 = b.c.b.getI1Type();
  Value hit = b.hits(L, F);  // [M, F]
  Value hf = b.op<graph::CastOp>({hit}, b.c.tensor({M, F}, el));
  Value ht = b.op<graph::TransposeOp>({hf}, b.c.tensor({F, M}, el),
                                      {b.c.named("perm", b.c.b.getDenseI64ArrayAttr({1, 0}))});
  Value count = b.op<graph::ReduceSumOp>({ht}, b.c.tensor({F, 1}, el),
                                         {b.c.named("axes", b.c.b.getDenseI64ArrayAttr({1})),
                                          b.c.named("keepdims", b.c.b.getBoolAttr(true))});
  Value touched = b.op<graph::GreaterOp>({count, b.splat(el, 0)}, b.c.tensor({F, 1}, i1));
  auto rows = b.c.tensor({F, S}, el);
  if (reduction == "none" || reduction == "add") {
    Value sum = b.op<graph::MatMulOp>({ht, updates}, rows);
    if (reduction == "add")
      return b.op<graph::AddOp>({data, sum}, rows);
    return b.op<graph::WhereOp>({touched, sum, data}, rows);
  }
  // mul, max, min (and assign: duplicates carrying one value, MaxUnpool's):
  // every update's value where it hits, the neutral element elsewhere, [M,
  // F, S], reduced over M.
  double neutral = reduction == "mul"   ? 1.0
                   : reduction == "min" ? std::numeric_limits<double>::infinity()
                                        : -std::numeric_limits<double>::infinity();
  auto cube = b.c.tensor({M, F, S}, el);
  Value h3 = b.reshape(hit, {M, F, 1});
  Value u3 = b.reshape(updates, {M, 1, S});
  Value spread = b.op<graph::WhereOp>({h3, u3, b.splat(el, neutral)}, cube);
  if (reduction == "mul") {
    Value p = b.reshape(combineOverRows<graph::MulOp>(b, spread), {F, S});
    return b.op<graph::MulOp>({data, p}, rows);
  }
  SmallVector<NamedAttribute> over{b.c.named("axes", b.c.b.getDenseI64ArrayAttr({0})),
                                   b.c.named("keepdims", b.c.b.getBoolAttr(false))};
  Value r = reduction == "min" ? b.op<graph::ReduceMinOp>({spread}, rows, over)
                               : b.op<graph::ReduceMaxOp>({spread}, rows, over);
  if (reduction == "assign")
    return b.op<graph::WhereOp>({touched, r, data}, rows);
  Value combined = reduction == "max" ? b.op<graph::MaxOp>({data, r}, rows) : b.op<graph::MinOp>({data, r}, rows);
  return b.op<graph::WhereOp>({touched, combined, data}, rows);
}

/// Whether rows [F, S] of `element` move on the indexed DMA.
bool indexedFits(Type element, int64_t F, int64_t S) {
  int64_t bytes = int64_t((graph::storageType(element).getIntOrFloatBitWidth() + 7) / 8);
  return sh::indexedGatherMisfit({F, S}, 0, bytes).empty();
}

/// Whether a scatter with `reduction` of `element` rows is DMA_OUT_SCATTER's
/// (Mul is not; add, max and min combine numbers, not bools or quantized
/// storage).
bool indexedScatter(Type element, StringRef reduction, int64_t F, int64_t S) {
  if (reduction == "mul" || !indexedFits(element, F, S))
    return false;
  auto it = dyn_cast<IntegerType>(element);
  bool number = isa<FloatType>(element) || (it && !it.isInteger(1));
  // An integer stored wider than its type (uint16, uint32, int64 as int32)
  // would wrap at 32 bits, not at its width.
  bool widened = it && graph::storageType(it).getIntOrFloatBitWidth() != it.getWidth();
  return reduction == "none" || (number && !(reduction == "add" && widened));
}

/// data [F, S] with rows L [M] combined with updates [M, S]: graph.scatter_nd.
Value scatterIndexed(Builder &b, Value data, Value L, Value updates, StringRef reduction) {
  auto lt = cast<RankedTensorType>(L.getType());
  Value idx = b.reshape(L, {lt.getShape()[0], 1});
  return b.op<graph::ScatterNDOp>({data, idx, updates}, data.getType(),
                                  {b.c.named("reduction", b.c.b.getStringAttr(reduction))});
}

LogicalResult checkSize(NodeContext &c, int64_t M, int64_t F, int64_t S) {
  if (M * F > kMaxHits || M * F * S > kMaxHits * 4)
    return c.fail(code::Overflow, "a one-hot selection of " + llvm::Twine(M) + " indices over " + llvm::Twine(F) +
                                      " rows is past 2^24 hits (NPU-v1 has no data-dependent address)");
  return success();
}

std::optional<std::string> reductionOf(NodeContext &c) {
  std::string r = c.stringAttr("reduction", "none");
  if (r != "none" && r != "add" && r != "mul" && r != "max" && r != "min") {
    (void)c.fail(code::UnsupportedAttr, "reduction '" + r + "' is not none, add, mul, max or min");
    return std::nullopt;
  }
  return r;
}

LogicalResult importGatherND(NodeContext &c) {
  std::optional<Val> data = c.required(0), idx = c.required(1);
  if (!data || !idx)
    return failure();
  ArrayRef<int64_t> ds = data->shape(), is = idx->shape();
  int64_t bd = c.intAttr("batch_dims", 0);
  if (is.empty() || !isa<IntegerType>(idx->element()))
    return c.fail(code::ShapeMismatch, "indices must be integers of rank 1 or more");
  int64_t k = is.back(), r = int64_t(ds.size()), q = int64_t(is.size());
  if (bd < 0 || bd >= q || k < 1 || bd + k > r)
    return c.fail(code::ShapeMismatch, "batch_dims " + llvm::Twine(bd) + " and index length " + llvm::Twine(k) +
                                           " do not fit data of rank " + llvm::Twine(r));
  for (int64_t d = 0; d < bd; ++d)
    if (ds[size_t(d)] != is[size_t(d)])
      return c.fail(code::ShapeMismatch, "the batch dimensions of data and indices differ");
  int64_t B = product(ds.take_front(size_t(bd))), F = product(ds.slice(size_t(bd), size_t(k))),
          S = product(ds.drop_front(size_t(bd + k))), M = product(is.slice(size_t(bd), size_t(q - bd - 1)));
  SmallVector<int64_t> out(is.drop_back());
  out.append(ds.begin() + bd + k, ds.end());
  Builder b{c};
  if (bd == 0 && indexedFits(data->element(), F, S)) {
    // The rows by their numbers: a gather on the indexed DMA.
    Value L = b.reshape(linearRows(b, idx->value, ds.take_front(size_t(k))), {M});
    Value rows = b.op<graph::GatherOp>({b.reshape(data->value, {F, S}), L}, c.tensor({M, S}, data->element()),
                                       {c.named("axis", c.b.getI64IntegerAttr(0))});
    Value y = b.reshape(rows, out);
    return b.finish(y);
  }
  if (failed(checkSize(c, B * M, F, S)))
    return failure();
  Value rows = b.reshape(data->value, {B, F, S});
  Value L = b.reshape(linearRows(b, idx->value, ds.slice(size_t(bd), size_t(k))), {B, M});
  Value picked = gatherRows(b, rows, L);
  Value y = b.reshape(picked, out);
  return b.finish(y);
}

LogicalResult importScatterND(NodeContext &c) {
  std::optional<Val> data = c.required(0), idx = c.required(1), upd = c.required(2);
  std::optional<std::string> reduction = reductionOf(c);
  if (!data || !idx || !upd || !reduction)
    return failure();
  ArrayRef<int64_t> ds = data->shape(), is = idx->shape();
  if (is.empty() || !isa<IntegerType>(idx->element()) || is.back() < 1 || is.back() > int64_t(ds.size()))
    return c.fail(code::ShapeMismatch, "indices must be integers [..., k], k at most the data's rank");
  int64_t k = is.back(), F = product(ds.take_front(size_t(k))), S = product(ds.drop_front(size_t(k))),
          M = product(is.drop_back());
  bool indexed = indexedScatter(data->element(), *reduction, F, S);
  if (upd->element() != data->element() || (!indexed && !data->element().isF32()))
    return c.fail(code::UnsupportedType, "ScatterND of updates of the data's type: any type with reduction none, "
                                         "numbers with add, max or min, f32 with mul");
  SmallVector<int64_t> us(is.drop_back());
  us.append(ds.begin() + k, ds.end());
  if (upd->shape() != ArrayRef<int64_t>(us))
    return c.fail(code::ShapeMismatch, "updates must be indices.shape[:-1] + data.shape[k:]");
  if (!indexed && failed(checkSize(c, M, F, S)))
    return failure();
  Builder b{c};
  Value L = b.reshape(linearRows(b, idx->value, ds), {M});
  Value rows = b.reshape(data->value, {F, S}), u = b.reshape(upd->value, {M, S});
  Value y = indexed ? scatterIndexed(b, rows, L, u, *reduction) : scatterRows(b, rows, L, u, *reduction);
  y = b.reshape(y, ds);
  return b.finish(y);
}

/// The row numbers of the data [ds] flattened to [F, 1] that the positions
/// p of `idx` (its shape, rank of ds) name along `axis`: base(p) +
/// wrap(idx[p]) * stride(axis), base(p) the row of p with its axis
/// coordinate 0 (a constant); an index outside the axis after the wrap
/// names no element: row F, which the indexed DMA faults on. An i64 [M].
Value elementRows(Builder &b, Value idx, ArrayRef<int64_t> ds, int64_t axis) {
  NodeContext &c = b.c;
  auto idxType = cast<RankedTensorType>(idx.getType());
  ArrayRef<int64_t> is = idxType.getShape();
  int64_t r = int64_t(ds.size()), F = product(ds), M = product(is);
  SmallVector<int64_t> strides(size_t(r), 1);
  for (int64_t d = r - 2; d >= 0; --d)
    strides[size_t(d)] = strides[size_t(d + 1)] * ds[size_t(d + 1)];
  std::vector<int64_t> base(static_cast<size_t>(M));
  for (int64_t p = 0; p < M; ++p) {
    int64_t rem = p, row = 0;
    for (int64_t d = r - 1; d >= 0; --d) {
      int64_t coord = rem % is[size_t(d)];
      rem /= is[size_t(d)];
      if (d != axis)
        row += coord * strides[size_t(d)];
    }
    base[size_t(p)] = row;
  }
  Value i = idx;
  auto it = c.tensor(is, c.b.getI64Type());
  if (!idxType.getElementType().isInteger(64))
    i = b.op<graph::CastOp>({i}, it);
  i = b.wrap(i, b.i64({1}, {ds[size_t(axis)]}));
  Value valid = b.inRange(i, ds[size_t(axis)]);
  if (strides[size_t(axis)] != 1)
    i = b.op<graph::MulOp>({i, b.i64({1}, {strides[size_t(axis)]})}, it);
  auto lt = c.tensor({M}, c.b.getI64Type());
  Value L = b.op<graph::AddOp>({b.reshape(i, {M}), b.i64({M}, base)}, lt);
  return b.op<graph::WhereOp>({b.reshape(valid, {M}), L, b.i64({1}, {F})}, lt);
}

/// GatherElements: each position p reads data at p with the axis coordinate
/// replaced by indices[p], a one-element row of the data flattened to [F, 1]
/// (elementRows) on the indexed DMA; where the rows do not fit its fields,
/// graph.gather_elements (a one-hot selection, graph-expand-gather).
LogicalResult importGatherElements(NodeContext &c) {
  std::optional<Val> data = c.required(0), idx = c.required(1);
  if (!data || !idx)
    return failure();
  ArrayRef<int64_t> ds = data->shape(), is = idx->shape();
  int64_t r = int64_t(ds.size());
  auto axis = c.axis(c.intAttr("axis", 0), r);
  if (!axis)
    return failure();
  if (int64_t(is.size()) != r || !isa<IntegerType>(idx->element()))
    return c.fail(code::ShapeMismatch, "indices must be integers of the data's rank");
  for (int64_t d = 0; d < r; ++d)
    if (is[size_t(d)] > ds[size_t(d)] && d != *axis)
      return c.fail(code::ShapeMismatch, "indices are larger than the data off the axis");
  int64_t F = product(ds), M = product(is);
  if (M == 0 || !indexedFits(data->element(), F, 1) || !c.fitsBuiltConstant(M, "the gather's base rows"))
    return c.buildOutput<graph::GatherElementsOp>({data->value, idx->value}, c.tensor(is, data->element()),
                                                  {c.named("axis", c.b.getI64IntegerAttr(*axis))});
  Builder b{c};
  Value L = elementRows(b, idx->value, ds, *axis);
  Value rows = b.op<graph::GatherOp>({b.reshape(data->value, {F, 1}), L}, c.tensor({M, 1}, data->element()),
                                     {c.named("axis", c.b.getI64IntegerAttr(0))});
  Value y = b.reshape(rows, is);
  return b.finish(y);
}

/// ScatterElements (and Scatter, its opset 9-10 name): each update position
/// p writes data at p with the axis coordinate replaced by indices[p]: row
/// base(p) + wrap(indices[p]) * stride(axis) of the data flattened to [F, 1],
/// base(p) a constant.
LogicalResult importScatterElements(NodeContext &c) {
  std::optional<Val> data = c.required(0), idx = c.required(1), upd = c.required(2);
  std::optional<std::string> reduction = reductionOf(c);
  if (!data || !idx || !upd || !reduction)
    return failure();
  ArrayRef<int64_t> ds = data->shape(), is = idx->shape();
  int64_t r = int64_t(ds.size());
  bool indexed = indexedScatter(data->element(), *reduction, product(ds), 1);
  if (upd->element() != data->element() || (!indexed && !data->element().isF32()))
    return c.fail(code::UnsupportedType, "ScatterElements of updates of the data's type: any type with reduction "
                                         "none, numbers with add, max or min, f32 with mul");
  if (int64_t(is.size()) != r || upd->shape() != is || !isa<IntegerType>(idx->element()))
    return c.fail(code::ShapeMismatch, "indices and updates must share a shape of the data's rank");
  std::optional<int64_t> axis = c.axis(c.intAttr("axis", 0), r);
  if (!axis)
    return failure();
  for (int64_t d = 0; d < r; ++d)
    if (is[size_t(d)] > ds[size_t(d)] && d != *axis)
      return c.fail(code::ShapeMismatch, "indices are larger than the data off the axis");
  int64_t F = product(ds), M = product(is);
  if ((!indexed && failed(checkSize(c, M, F, 1))) || !c.fitsBuiltConstant(M, "the scatter's base rows"))
    return failure();
  Builder b{c};
  Value L = elementRows(b, idx->value, ds, *axis);
  Value rows = b.reshape(data->value, {F, 1}), u = b.reshape(upd->value, {M, 1});
  Value y = indexed ? scatterIndexed(b, rows, L, u, *reduction) : scatterRows(b, rows, L, u, *reduction);
  y = b.reshape(y, ds);
  return b.finish(y);
}
/// MaxUnpool: zeros of the output shape (output_shape when given, else
/// (in - 1) * stride - pads + kernel per spatial axis) with x written at the
/// flat positions MaxPool's Indices name: ScatterND's selection over the
/// output's elements.
LogicalResult importMaxUnpool(NodeContext &c) {
  std::optional<Val> x = c.required(0), idx = c.required(1);
  if (!x || !idx)
    return failure();
  if (!x->element().isF32() || idx->shape() != x->shape() || !isa<IntegerType>(idx->element()))
    return c.fail(code::UnsupportedType, "MaxUnpool of f32 data with indices of its shape only");
  ArrayRef<int64_t> xs = x->shape();
  if (xs.size() < 3)
    return c.fail(code::ShapeMismatch, "input must have rank >= 3");
  size_t n = xs.size() - 2;
  auto kernel = c.intsAttr("kernel_shape");
  std::vector<int64_t> strides = c.intsAttr("strides").value_or(std::vector<int64_t>(n, 1)),
                       pads = c.intsAttr("pads").value_or(std::vector<int64_t>(2 * n, 0));
  if (!kernel || kernel->size() != n || strides.size() != n || pads.size() != 2 * n)
    return c.fail(code::UnsupportedAttr, "kernel_shape, strides and pads must list every spatial axis");
  SmallVector<int64_t> out{xs[0], xs[1]};
  for (size_t i = 0; i < n; ++i)
    out.push_back((xs[2 + i] - 1) * strides[i] - pads[i] - pads[n + i] + (*kernel)[i]);
  // The indices are positions in the default shape; a larger output_shape
  // pads zeros at the end of each spatial axis (as ONNX's reference does).
  SmallVector<int64_t> given(out);
  if (c.input(2)) {
    auto shape = c.constantInts(2, "output_shape");
    if (!shape)
      return failure();
    if (shape->size() != xs.size() || (*shape)[0] != xs[0] || (*shape)[1] != xs[1])
      return c.fail(code::ShapeMismatch, "output_shape must keep the batch and channels");
    given.assign(shape->begin(), shape->end());
    for (size_t i = 2; i < given.size(); ++i)
      if (given[i] < out[i])
        return c.fail(code::ShapeMismatch, "output_shape is smaller than the unpooled shape along axis " +
                                               llvm::Twine(i));
  }
  for (int64_t d : out)
    if (d < 1)
      return c.fail(code::ShapeMismatch, "the output has an empty axis");
  int64_t F = product(out), M = product(xs);
  if (failed(checkSize(c, M, F, 1)) || !c.fitsBuiltConstant(F, "MaxUnpool's zeros"))
    return failure();
  Builder b{c};
  auto zt = c.tensor({F, 1}, x->element());
  Value zeros = c.constant(DenseElementsAttr::get(zt, c.b.getFloatAttr(x->element(), 0.0))).value;
  Value i = idx->value;
  if (!idx->element().isInteger(64))
    i = b.op<graph::CastOp>({i}, c.tensor(xs, c.b.getI64Type()));
  // Overlapping windows may name one position twice, with one value.
  Value y = scatterRows(b, zeros, b.reshape(i, {M}), b.reshape(x->value, {M, 1}), "assign");
  y = b.reshape(y, out);
  if (given != out) {
    SmallVector<int64_t> padAttr(out.size() * 2, 0);
    for (size_t i = 2; i < out.size(); ++i)
      padAttr[out.size() + i] = given[i] - out[i];
    y = b.op<graph::PadOp>({y}, c.tensor(given, x->element()),
                           {c.named("pads", c.b.getDenseI64ArrayAttr(padAttr)),
                            c.named("mode", c.b.getStringAttr("constant")), c.named("value", c.b.getF64FloatAttr(0.0))});
  }
  return b.finish(y);
}
} // namespace

namespace {
/// TensorScatter (opset 24), a KV-cache update: past [.., max, ..] (`axis`
/// the sequence) with update [.., seq, ..] written from write_indices[b] (0
/// without them) of each batch entry, modulo max in circular mode. The
/// data flattens to rows [P * max, S] (P the positions before the axis, S
/// the elements after it); update row (p, i) goes to row p * max + w[b] + i,
/// a scatter_nd on the indexed DMA. A write outside [0, max) (linear mode,
/// or a negative index) names row P * max, which npu-sim faults on.
LogicalResult importTensorScatter(NodeContext &c) {
  std::optional<Val> past = c.required(0), upd = c.required(1);
  if (!past || !upd)
    return failure();
  std::optional<Val> w = c.input(2);
  ArrayRef<int64_t> ds = past->shape(), us = upd->shape();
  int64_t r = int64_t(ds.size());
  if (r < 2)
    return c.fail(code::ShapeMismatch, "past_cache must have rank 2 or more, got " + llvm::Twine(r));
  std::optional<int64_t> axis = c.axis(c.intAttr("axis", -2), r, "axis");
  if (!axis)
    return failure();
  if (*axis == 0)
    return c.fail(code::UnsupportedAttr, "axis 0 is the batch axis, not a sequence axis");
  std::string mode = c.stringAttr("mode", "linear");
  if (mode != "linear" && mode != "circular")
    return c.fail(code::UnsupportedAttr, "mode '" + mode + "' is not linear or circular");
  int64_t max = ds[size_t(*axis)], seq = us.size() == ds.size() ? us[size_t(*axis)] : -1;
  SmallVector<int64_t> expect(ds);
  expect[size_t(*axis)] = seq;
  if (seq < 0 || seq > max || us != ArrayRef<int64_t>(expect) || upd->element() != past->element())
    return c.fail(code::ShapeMismatch, "update " + sh::str(us) + " must be past_cache " + sh::str(ds) +
                                           " of its type with at most " + llvm::Twine(max) + " along axis " +
                                           llvm::Twine(*axis));
  int64_t batch = ds[0];
  if (w && (!w->element().isInteger(64) || w->shape() != ArrayRef<int64_t>{batch}))
    return c.fail(code::ShapeMismatch, "write_indices must be int64 [" + llvm::Twine(batch) + "]");
  int64_t P = product(ds.take_front(size_t(*axis))), S = product(ds.drop_front(size_t(*axis + 1))), F = P * max;
  if (!indexedScatter(past->element(), "none", F, S))
    return c.fail(code::UnsupportedType, "TensorScatter's rows (" + llvm::Twine(F) + " of " + llvm::Twine(S) +
                                             " elements) do not move on the indexed DMA");
  Builder b{c};
  // pos [.., seq] (the positions before the axis, then seq): w[b] + i.
  SmallVector<int64_t> posShape(ds.take_front(size_t(*axis)));
  posShape.push_back(seq);
  auto pt = c.tensor(posShape, c.b.getI64Type());
  std::vector<int64_t> steps(static_cast<size_t>(P * seq)), base(static_cast<size_t>(P * seq));
  for (int64_t p = 0; p < P; ++p)
    for (int64_t i = 0; i < seq; ++i) {
      steps[size_t(p * seq + i)] = i;
      base[size_t(p * seq + i)] = p * max;
    }
  SmallVector<int64_t> wShape(posShape.size(), 1);
  wShape[0] = batch;
  Value pos = b.i64(posShape, steps);
  if (w)
    pos = b.op<graph::AddOp>({b.reshape(w->value, wShape), pos}, pt);
  Value m = b.i64({1}, {max});
  if (mode == "circular" && w)
    pos = b.op<graph::SubOp>({pos, b.op<graph::MulOp>({b.op<graph::DivOp>({pos, m}, pt), m}, pt)}, pt);
  Value valid = b.inRange(pos, max);
  auto lt = c.tensor({P * seq}, c.b.getI64Type());
  Value L = b.op<graph::AddOp>({b.reshape(pos, {P * seq}), b.i64({P * seq}, base)}, lt);
  L = b.op<graph::WhereOp>({b.reshape(valid, {P * seq}), L, b.i64({1}, {F})}, lt);
  Value rows = b.reshape(past->value, {F, S}), u = b.reshape(upd->value, {P * seq, S});
  Value y = b.reshape(scatterIndexed(b, rows, L, u, "none"), ds);
  return b.finish(y);
}
} // namespace

void npuc::onnx_import::registerScatterOps(llvm::StringMap<OpImporter> &t) {
  t["GatherElements"] = importGatherElements;
  t["GatherND"] = importGatherND;
  t["ScatterND"] = importScatterND;
  t["ScatterElements"] = importScatterElements;
  t["Scatter"] = importScatterElements;
  t["MaxUnpool"] = importMaxUnpool;
  t["TensorScatter"] = importTensorScatter;
}
