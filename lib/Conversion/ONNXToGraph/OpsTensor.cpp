//===- OpsTensor.cpp - Data movement, shapes and constants ----------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Integer constants (shape computations) are folded here (Folding.h); every
// other value becomes a graph op with its normalized attributes.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace npuc::onnx_import;

FailureOr<Value> npuc::onnx_import::buildReshape(NodeContext &c, Value v, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  return c.build<graph::ReshapeOp>({v}, c.tensor(shape, type.getElementType()));
}

namespace {
/// The result of a reshape-like op: folded for integer constants, else graph.reshape.
LogicalResult reshapeTo(NodeContext &c, const Val &x, ArrayRef<int64_t> shape) {
  if (auto xi = asInts(x)) {
    auto count = sh::numElements(shape);
    if (!count)
      return c.fail(code::Overflow, llvm::toString(count.takeError()));
    uint64_t n = uint64_t(*count);
    if (n != xi->size())
      return c.fail(code::ShapeMismatch, "cannot reshape " + llvm::Twine(xi->size()) +
                                             " elements to " + llvm::Twine(n));
    xi->shape.assign(shape.begin(), shape.end());
    c.setOutput(0, c.constant(toAttr(*xi)));
    return success();
  }
  FailureOr<Value> r = buildReshape(c, x.value, shape);
  if (failed(r))
    return failure();
  c.setOutput(0, *r);
  return success();
}

int64_t product(ArrayRef<int64_t> dims) {
  return std::accumulate(dims.begin(), dims.end(), int64_t(1), std::multiplies<int64_t>());
}

LogicalResult importReshape(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  std::optional<std::vector<int64_t>> target =
      c.opset < 5 ? c.intsAttr("shape") : c.constantInts(1, "shape");
  if (!target)
    return failure();
  bool allowZero = c.intAttr("allowzero", 0);
  SmallVector<int64_t> shape;
  int64_t infer = -1, known = 1;
  for (size_t i = 0; i < target->size(); ++i) {
    int64_t d = (*target)[i];
    if (d == 0 && !allowZero) {
      if (i >= x->shape().size())
        return c.fail(code::ShapeMismatch, "shape entry " + llvm::Twine(i) + " copies a dimension the input does not have");
      d = x->shape()[i];
    }
    if (d == -1) {
      if (infer >= 0)
        return c.fail(code::ShapeMismatch, "shape has more than one -1");
      infer = int64_t(i);
      shape.push_back(1);
      continue;
    }
    if (d < 0)
      return c.fail(code::ShapeMismatch, "shape entry " + llvm::Twine(d) + " is negative");
    shape.push_back(d);
    if (llvm::MulOverflow(known, d, known))
      return c.fail(code::Overflow, "shape entries multiply past 64 bits");
  }
  int64_t total = product(x->shape());
  if (infer >= 0) {
    if (known == 0 || total % known)
      return c.fail(code::ShapeMismatch, "cannot infer -1: " + llvm::Twine(total) +
                                             " elements do not divide by " + llvm::Twine(known));
    shape[infer] = total / known;
  }
  return reshapeTo(c, *x, shape);
}

LogicalResult importFlatten(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  int64_t rank = int64_t(x->shape().size());
  int64_t a = c.intAttr("axis", 1);
  if (a < 0)
    a += rank;
  if (a < 0 || a > rank)
    return c.fail(code::UnsupportedAttr, "axis " + llvm::Twine(c.intAttr("axis", 1)) +
                                             " is outside [-" + llvm::Twine(rank) + ", " + llvm::Twine(rank) + "]");
  return reshapeTo(c, *x, {product(x->shape().take_front(a)), product(x->shape().drop_front(a))});
}

std::optional<std::vector<int64_t>> axesOf(NodeContext &c, int inputVersion) {
  if (c.opset >= inputVersion) {
    if (!c.input(1))
      return std::vector<int64_t>();
    return c.constantInts(1, "axes");
  }
  if (auto a = c.intsAttr("axes"))
    return *a;
  return std::vector<int64_t>();
}

LogicalResult importSqueeze(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  auto axes = axesOf(c, 13);
  if (!axes)
    return failure();
  int64_t rank = int64_t(x->shape().size());
  std::vector<bool> drop(static_cast<size_t>(rank), false);
  if (axes->empty())
    for (int64_t d = 0; d < rank; ++d)
      drop[d] = x->shape()[d] == 1;
  for (int64_t a : *axes) {
    auto n = c.axis(a, rank);
    if (!n)
      return failure();
    if (x->shape()[*n] != 1)
      return c.fail(code::ShapeMismatch, "cannot squeeze axis " + llvm::Twine(*n) + " of size " +
                                             llvm::Twine(x->shape()[*n]));
    drop[*n] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    if (!drop[d])
      shape.push_back(x->shape()[d]);
  return reshapeTo(c, *x, shape);
}

LogicalResult importUnsqueeze(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  auto axes = axesOf(c, 13);
  if (!axes)
    return failure();
  int64_t rank = int64_t(x->shape().size() + axes->size());
  std::vector<bool> inserted(static_cast<size_t>(rank), false);
  for (int64_t a : *axes) {
    auto n = c.axis(a, rank);
    if (!n)
      return failure();
    if (inserted[*n])
      return c.fail(code::UnsupportedAttr, "axis " + llvm::Twine(*n) + " is given twice");
    inserted[*n] = true;
  }
  SmallVector<int64_t> shape;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(inserted[d] ? 1 : x->shape()[next++]);
  return reshapeTo(c, *x, shape);
}

LogicalResult importTranspose(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  int64_t rank = int64_t(x->shape().size());
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  if (auto p = c.intsAttr("perm"); p && !p->empty())
    perm = *p;
  else
    for (int64_t d = 0; d < rank; ++d)
      perm[d] = rank - 1 - d;
  if (int64_t(perm.size()) != rank)
    return c.fail(code::UnsupportedAttr, "perm has the wrong length");
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= rank)
      return c.fail(code::UnsupportedAttr, "perm is not a permutation");
    shape.push_back(x->shape()[p]);
  }
  return c.buildOutput<graph::TransposeOp>({x->value}, c.tensor(shape, x->element()),
                                           {c.named("perm", i64Array(c, perm))});
}

LogicalResult importConcat(NodeContext &c) {
  if (c.numInputs() == 0)
    return c.fail(code::Structure, "Concat needs inputs");
  std::vector<Val> ins;
  for (size_t i = 0; i < c.numInputs(); ++i) {
    std::optional<Val> v = c.required(i);
    if (!v)
      return failure();
    ins.push_back(*v);
  }
  auto axis = c.axis(c.intAttr("axis", 0), int64_t(ins[0].shape().size()));
  if (!axis)
    return failure();
  SmallVector<int64_t> shape(ins[0].shape());
  shape[*axis] = 0;
  for (const Val &v : ins)
    shape[*axis] += v.shape().size() == shape.size() ? v.shape()[*axis] : 0;
  // Integer constants along axis 0 of 1-D tensors: the usual shape vectors.
  if (shape.size() == 1 && llvm::all_of(ins, [&](const Val &v) {
        return v.shape().size() == 1 && v.element() == ins[0].element() && asInts(v);
      })) {
    IntTensor out{shape, {}, ins[0].element()};
    for (const Val &v : ins) {
      std::optional<IntTensor> part = asInts(v);  // kept alive while its data is read
      out.data.insert(out.data.end(), part->data.begin(), part->data.end());
    }
    c.setOutput(0, c.constant(toAttr(out)));
    return success();
  }
  SmallVector<Value> operands;
  for (const Val &v : ins)
    operands.push_back(v.value);
  return c.buildOutput<graph::ConcatOp>(operands, c.tensor(shape, ins[0].element()),
                                        {c.named("axis", c.b.getI64IntegerAttr(*axis))});
}

/// Clamped [start, end) with step along an axis of size d (ONNX Slice
/// rules). A step longer than the axis selects what a step of the axis'
/// length does (one element): it is clamped to that, so no step arithmetic
/// overflows (the importer fuzzer found steps of INT64_MAX).
void clampSlice(int64_t d, int64_t &step, int64_t &start, int64_t &end) {
  int64_t most = std::max<int64_t>(d, 1);
  step = std::clamp<int64_t>(step, -most, most);
  if (start < 0)
    start += d;
  if (end < 0 && end > INT64_MIN / 2)
    end += d;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, d);
    end = std::clamp<int64_t>(end, 0, d);
  } else {
    start = std::clamp<int64_t>(start, 0, d - 1);
    end = std::clamp<int64_t>(end, -1, d - 1);
  }
}

FailureOr<Val> slice(NodeContext &c, const Val &x, ArrayRef<int64_t> starts, ArrayRef<int64_t> ends,
                     ArrayRef<int64_t> steps) {
  SmallVector<int64_t> shape;
  for (size_t i = 0; i < starts.size(); ++i)
    shape.push_back(sh::sliceLength(starts[i], ends[i], steps[i]));
  if (auto xi = asInts(x)) {
    IntTensor out{shape, {}, xi->element};
    size_t rank = shape.size();
    std::vector<int64_t> idx(rank, 0), strides(rank, 1);
    for (size_t d = rank; d-- > 1;)
      strides[d - 1] = strides[d] * xi->shape[d];
    uint64_t n = uint64_t(product(shape));
    for (uint64_t e = 0; e < n; ++e) {
      int64_t off = 0;
      for (size_t d = 0; d < rank; ++d)
        off += (starts[d] + idx[d] * steps[d]) * strides[d];
      out.data.push_back(xi->data[size_t(off)]);
      for (size_t d = rank; d-- > 0;) {
        if (++idx[d] < shape[d])
          break;
        idx[d] = 0;
      }
    }
    return c.constant(toAttr(out));
  }
  FailureOr<Value> r = c.build<graph::SliceOp>(
      {x.value}, c.tensor(shape, x.element()),
      {c.named("starts", i64Array(c, starts)), c.named("ends", i64Array(c, ends)),
       c.named("steps", i64Array(c, steps))});
  if (failed(r))
    return failure();
  return Val{*r, {}};
}

LogicalResult importSlice(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  std::optional<std::vector<int64_t>> starts, ends, axes, steps;
  if (c.opset < 10) {
    starts = c.intsAttr("starts");
    ends = c.intsAttr("ends");
    axes = c.intsAttr("axes");
    if (!starts || !ends)
      return c.fail(code::UnsupportedAttr, "starts and ends are required");
  } else {
    starts = c.constantInts(1, "starts");
    ends = c.constantInts(2, "ends");
    if (!starts || !ends)
      return failure();
    if (c.input(3) && !(axes = c.constantInts(3, "axes")))
      return failure();
    if (c.input(4) && !(steps = c.constantInts(4, "steps")))
      return failure();
  }
  int64_t rank = int64_t(x->shape().size());
  if (!axes) {
    axes = std::vector<int64_t>(starts->size());
    std::iota(axes->begin(), axes->end(), 0);
  }
  if (!steps)
    steps = std::vector<int64_t>(starts->size(), 1);
  if (ends->size() != starts->size() || axes->size() != starts->size() || steps->size() != starts->size())
    return c.fail(code::UnsupportedAttr, "starts, ends, axes and steps differ in length");
  SmallVector<int64_t> s(static_cast<size_t>(rank), 0), e(x->shape()), st(static_cast<size_t>(rank), 1);
  for (size_t i = 0; i < starts->size(); ++i) {
    auto a = c.axis((*axes)[i], rank);
    if (!a)
      return failure();
    if ((*steps)[i] == 0)
      return c.fail(code::UnsupportedAttr, "step 0 on axis " + llvm::Twine(*a));
    s[*a] = (*starts)[i];
    e[*a] = (*ends)[i];
    st[*a] = (*steps)[i];
    clampSlice(x->shape()[*a], st[*a], s[*a], e[*a]);
  }
  FailureOr<Val> r = slice(c, *x, s, e, st);
  if (failed(r))
    return failure();
  c.setOutput(0, *r);
  return success();
}

LogicalResult importSplit(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  int64_t rank = int64_t(x->shape().size());
  auto axis = c.axis(c.intAttr("axis", 0), rank);
  if (!axis)
    return failure();
  int64_t dim = x->shape()[*axis];
  size_t outs = size_t(c.node.output_size());
  std::vector<int64_t> sizes;
  if (c.opset < 13) {
    if (auto s = c.intsAttr("split"))
      sizes = *s;
  } else if (c.input(1)) {
    auto s = c.constantInts(1, "split");
    if (!s)
      return failure();
    sizes = *s;
  }
  if (sizes.empty()) {
    int64_t parts = c.opset >= 18 && c.attr("num_outputs") ? c.intAttr("num_outputs", 1) : int64_t(outs);
    if (parts < 1)
      return c.fail(code::UnsupportedAttr, "num_outputs " + llvm::Twine(parts) + " must be >= 1");
    if (parts != int64_t(outs))
      return c.fail(code::UnsupportedAttr, "num_outputs " + llvm::Twine(parts) + " differs from the " +
                                               llvm::Twine(outs) + " outputs of the node");
    int64_t each = (dim + parts - 1) / parts;
    for (int64_t p = 0, left = dim; p < parts; ++p, left -= each)
      sizes.push_back(std::min(each, std::max<int64_t>(left, 0)));
  }
  if (sizes.size() != outs || llvm::any_of(sizes, [&](int64_t s) { return s < 0 || s > dim; }) ||
      std::accumulate(sizes.begin(), sizes.end(), int64_t(0)) != dim)
    return c.fail(code::ShapeMismatch, "split sizes do not cover axis " + llvm::Twine(*axis) +
                                           " of size " + llvm::Twine(dim) + " in " + llvm::Twine(outs) + " outputs");
  int64_t offset = 0;
  for (size_t k = 0; k < outs; ++k) {
    SmallVector<int64_t> s(static_cast<size_t>(rank), 0), e(x->shape()), st(static_cast<size_t>(rank), 1);
    s[*axis] = offset;
    e[*axis] = offset + sizes[k];
    offset += sizes[k];
    FailureOr<Val> r = slice(c, *x, s, e, st);
    if (failed(r))
      return failure();
    c.setOutput(k, *r);
  }
  return success();
}

LogicalResult importGather(NodeContext &c) {
  std::optional<Val> data = c.required(0), idx = c.required(1);
  if (!data || !idx)
    return failure();
  int64_t rank = int64_t(data->shape().size());
  auto axis = c.axis(c.intAttr("axis", 0), rank);
  if (!axis)
    return failure();
  SmallVector<int64_t> shape(data->shape().take_front(*axis));
  shape.append(idx->shape().begin(), idx->shape().end());
  shape.append(data->shape().begin() + *axis + 1, data->shape().end());
  auto count = sh::numElements(shape);
  if (!count)
    return c.fail(code::Overflow, llvm::toString(count.takeError()));
  std::optional<IntTensor> di = uint64_t(*count) <= kMaxFoldedElements ? asInts(*data) : std::nullopt;
  if (di)
    if (auto ii = asInts(*idx)) {
      // out[pre, i, post] = data[pre, idx[i], post]
      int64_t pre = product(data->shape().take_front(*axis)), dimA = data->shape()[*axis];
      int64_t post = product(data->shape().drop_front(*axis + 1));
      IntTensor out{shape, {}, di->element};
      for (int64_t p = 0; p < pre; ++p)
        for (int64_t k : ii->data) {
          int64_t j = k < 0 ? k + dimA : k;
          if (j < 0 || j >= dimA)
            return c.fail(code::ShapeMismatch, "index " + llvm::Twine(k) + " is out of range for axis of size " + llvm::Twine(dimA));
          for (int64_t q = 0; q < post; ++q)
            out.data.push_back(di->data[size_t((p * dimA + j) * post + q)]);
        }
      c.setOutput(0, c.constant(toAttr(out)));
      return success();
    }
  return c.buildOutput<graph::GatherOp>({data->value, idx->value}, c.tensor(shape, data->element()),
                                        {c.named("axis", c.b.getI64IntegerAttr(*axis))});
}

/// `x` padded by `pads` ([begins..., ends...]) as node output 0; in
/// constant mode the negative pads crop first (a graph.slice), so the
/// graph.pad that follows has none (the DMA pads, it does not crop).
LogicalResult buildPad(NodeContext &c, const Val &x, ArrayRef<int64_t> pads, StringRef mode, double value) {
  int64_t rank = int64_t(x.shape().size());
  for (int64_t d = 0; d < rank; ++d)
    if (x.shape()[d] + pads[d] + pads[rank + d] < 0)
      return c.fail(code::ShapeMismatch, "pads (" + llvm::Twine(pads[d]) + ", " + llvm::Twine(pads[rank + d]) +
                                             ") crop axis " + llvm::Twine(d) + " of size " +
                                             llvm::Twine(x.shape()[d]) + " below zero");
  Value v = x.value;
  SmallVector<int64_t> starts, ends, steps(rank, 1), cropped(x.shape()), kept(pads);
  bool crops = false;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = std::min<int64_t>(pads[d], 0), hi = std::min<int64_t>(pads[rank + d], 0);
    starts.push_back(-lo);
    ends.push_back(x.shape()[d] + hi);
    cropped[d] = std::max<int64_t>(x.shape()[d] + lo + hi, 0);
    crops |= lo < 0 || hi < 0;
  }
  if (crops && mode == "constant") {
    for (int64_t d = 0; d < rank; ++d) {
      ends[d] = std::max(ends[d], starts[d]);
      kept[d] = std::max<int64_t>(pads[d], 0);
      kept[rank + d] = std::max<int64_t>(pads[rank + d], 0);
    }
    FailureOr<Value> s = c.build<graph::SliceOp>({v}, c.tensor(cropped, x.element()),
                                                 {c.named("starts", i64Array(c, starts)),
                                                  c.named("ends", i64Array(c, ends)),
                                                  c.named("steps", i64Array(c, steps))});
    if (failed(s))
      return failure();
    v = *s;
    if (llvm::all_of(kept, [](int64_t p) { return p == 0; })) {
      c.setOutput(0, v);
      return success();
    }
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(x.shape()[d] + pads[d] + pads[rank + d]);
  return c.buildOutput<graph::PadOp>({v}, c.tensor(shape, x.element()),
                                     {c.named("pads", i64Array(c, crops && mode == "constant" ? kept : SmallVector<int64_t>(pads))),
                                      c.named("mode", c.b.getStringAttr(mode)),
                                      c.named("value", c.b.getF64FloatAttr(value))});
}

LogicalResult importPad(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  int64_t rank = int64_t(x->shape().size());
  std::string mode = c.stringAttr("mode", "constant");
  std::vector<int64_t> pads;
  double value = 0;
  if (c.opset < 11) {
    auto p = c.intsAttr(c.opset < 2 ? "paddings" : "pads");
    if (!p)
      return c.fail(code::UnsupportedAttr, "pads is required");
    pads = *p;
    value = c.floatAttr("value", 0);
  } else {
    auto p = c.constantInts(1, "pads");
    if (!p)
      return failure();
    pads = *p;
    if (c.input(2)) {
      DenseElementsAttr v = c.requiredConstant(2, "constant_value");
      if (!v)
        return failure();
      if (v.getNumElements() == 1)
        value = firstAsDouble(v);
    }
    if (c.input(3)) {
      auto axes = c.constantInts(3, "axes");
      if (!axes)
        return failure();
      std::vector<int64_t> full(static_cast<size_t>(2 * rank), 0);
      if (pads.size() != 2 * axes->size())
        return c.fail(code::UnsupportedAttr, "pads does not match axes");
      for (size_t i = 0; i < axes->size(); ++i) {
        auto a = c.axis((*axes)[i], rank);
        if (!a)
          return failure();
        full[*a] = pads[i];
        full[rank + *a] = pads[axes->size() + i];
      }
      pads = full;
    }
  }
  if (int64_t(pads.size()) != 2 * rank)
    return c.fail(code::UnsupportedAttr, "pads has " + llvm::Twine(pads.size()) + " entries, expected " + llvm::Twine(2 * rank));
  // Negative pads crop; either way no more than a size-like attribute.
  if (!c.inSizeRange("pads", pads, -kMaxSizeAttr))
    return failure();
  return buildPad(c, *x, pads, mode, value);
}

LogicalResult importExpand(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  auto target = c.constantInts(1, "shape");
  if (!x || !target)
    return failure();
  auto shape = sh::broadcast(x->shape(), *target);
  if (!shape)
    return c.fail(code::ShapeMismatch, llvm::toString(shape.takeError()));
  if (auto xi = asInts(*x))
    if (auto r = expandInts(*xi, *shape)) {
      c.setOutput(0, c.constant(toAttr(*r)));
      return success();
    }
  return c.buildOutput<graph::ExpandOp>({x->value}, c.tensor(*shape, x->element()));
}

LogicalResult importTile(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  auto reps = c.constantInts(1, "repeats");
  if (!x || !reps)
    return failure();
  if (reps->size() != x->shape().size())
    return c.fail(code::ShapeMismatch, "repeats has the wrong length");
  if (!c.inSizeRange("repeats", *reps, 0))
    return failure();
  SmallVector<int64_t> shape;
  for (size_t i = 0; i < reps->size(); ++i)
    if (llvm::MulOverflow(x->shape()[i], (*reps)[i], shape.emplace_back()))
      return c.fail(code::Overflow, "repeats " + llvm::Twine((*reps)[i]) + " of axis " + llvm::Twine(i) +
                                        " overflow 64 bits");
  return c.buildOutput<graph::TileOp>({x->value}, c.tensor(shape, x->element()),
                                      {c.named("repeats", i64Array(c, *reps))});
}

/// BitCast (opset 26): the input's bits as element type `to`, between the
/// types npuc stores as their own bits (f32 and i32, f16 and i16, int8 and
/// uint8); the others (bool, int64, uint16, uint32 stored as int32, float64
/// computed in float32, bfloat16) are a diagnostic naming the pair.
LogicalResult importBitCast(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  int32_t onnxTo = int32_t(c.intAttr("to", 0));
  std::optional<Type> to = onnxTo == onnx::TensorProto::DOUBLE ? std::nullopt : c.imp.elementType(onnxTo);
  auto name = [](Type t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << t;
    return s;
  };
  if (to && x->element() == *to) {
    c.setOutput(0, *x);
    return success();
  }
  if (!to || isa<quant::QuantizedType>(x->element()) || !graph::isBitcastPair(x->element(), *to))
    return c.fail(code::UnsupportedType,
                  "BitCast from " + name(x->element()) + " to element type " + llvm::Twine(onnxTo) +
                      " is not supported: npuc keeps the bits of f32 and int32, f16 and int16, int8 and uint8 "
                      "(bool, int64, uint16 and uint32 are stored as other bits, float64 is computed in float32)");
  return c.buildOutput<graph::BitcastOp>({x->value}, c.tensor(x->shape(), *to));
}

LogicalResult importCast(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  std::optional<Type> to = c.imp.elementType(int32_t(c.intAttr("to", 0)));
  if (!to || to->isBF16())
    return c.fail(code::UnsupportedType, "Cast to element type " + llvm::Twine(c.intAttr("to", 0)) +
                                             " is not supported" + c.imp.float64Hint(int32_t(c.intAttr("to", 0))));
  if (x->element() == *to) {
    c.setOutput(0, *x);
    return success();
  }
  if (auto xi = asInts(*x)) {
    if (isa<IntegerType>(*to)) {
      xi->element = *to;
      c.setOutput(0, c.constant(toAttr(*xi)));
      return success();
    }
    SmallVector<APFloat> values;
    // One rounding, from the integer to the destination (not through a
    // double, which rounds int64 values past 2^53 first).
    const llvm::fltSemantics &sem = cast<FloatType>(*to).getFloatSemantics();
    bool isUnsigned = xi->element.isUnsignedInteger();
    for (int64_t v : xi->data) {
      APFloat f(sem);
      f.convertFromAPInt(APInt(64, uint64_t(v), !isUnsigned), !isUnsigned, APFloat::rmNearestTiesToEven);
      values.push_back(f);
    }
    c.setOutput(0, c.constant(DenseElementsAttr::get(c.tensor(xi->shape, *to), values)));
    return success();
  }
  return c.buildOutput<graph::CastOp>({x->value}, c.tensor(x->shape(), *to));
}

LogicalResult importConstant(NodeContext &c) {
  const onnx::AttributeProto *a = nullptr;
  for (const char *name : {"value", "value_float", "value_floats", "value_int", "value_ints",
                           "sparse_value", "value_string", "value_strings"})
    if ((a = c.attr(name)))
      break;
  if (!a)
    return c.fail(code::UnsupportedAttr, "Constant has no value");
  DenseElementsAttr value;
  if (a->name() == "value") {
    value = c.imp.tensorData(a->t(), &c.node);
    if (!value)
      return failure();
  } else if (a->name() == "value_float") {
    value = DenseElementsAttr::get(c.tensor({}, c.b.getF32Type()), a->f());
  } else if (a->name() == "value_floats") {
    std::vector<float> v(a->floats().begin(), a->floats().end());
    value = DenseElementsAttr::get(c.tensor({int64_t(v.size())}, c.b.getF32Type()), ArrayRef<float>(v));
  } else if (a->name() == "value_int") {
    value = DenseElementsAttr::get(c.tensor({}, c.b.getI64Type()), int64_t(a->i()));
  } else if (a->name() == "value_ints") {
    std::vector<int64_t> v(a->ints().begin(), a->ints().end());
    value = DenseElementsAttr::get(c.tensor({int64_t(v.size())}, c.b.getI64Type()), ArrayRef<int64_t>(v));
  } else {
    return c.fail(code::UnsupportedAttr, "Constant " + a->name() + " is not supported");
  }
  c.setOutput(0, c.constant(value));
  return success();
}

LogicalResult importConstantOfShape(NodeContext &c) {
  auto shape = c.constantInts(0, "shape");
  if (!shape)
    return failure();
  for (int64_t d : *shape)
    if (d < 0)
      return c.fail(code::ShapeMismatch, "shape entry " + llvm::Twine(d) + " is negative");
  auto count = sh::numElements(*shape);
  if (!count)
    return c.fail(code::Overflow, llvm::toString(count.takeError()));
  DenseElementsAttr fill = DenseElementsAttr::get(c.tensor({1}, c.b.getF32Type()), 0.0f);
  if (const onnx::AttributeProto *a = c.attr("value")) {
    fill = c.imp.tensorData(a->t(), &c.node);
    if (!fill)
      return failure();
    if (fill.getNumElements() != 1)
      return c.fail(code::UnsupportedAttr, "value must hold one element");
  }
  auto type = c.tensor(*shape, fill.getElementType());
  if (!c.imp.fitsMemory(type, "ConstantOfShape result", &c.node))
    return failure();
  c.setOutput(0, c.constant(DenseElementsAttr::get(type, fill.getSplatValue<Attribute>())));
  return success();
}

LogicalResult importShape(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  int64_t rank = int64_t(x->shape().size());
  int64_t start = c.intAttr("start", 0), end = c.intAttr("end", rank);
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  IntTensor out{{end - start}, {}, c.b.getI64Type()};
  for (int64_t d = start; d < end; ++d)
    out.data.push_back(x->shape()[d]);
  c.setOutput(0, c.constant(toAttr(out)));
  return success();
}

LogicalResult importSize(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  c.setOutput(0, c.constant(toAttr(IntTensor{{}, {product(x->shape())}, c.b.getI64Type()})));
  return success();
}

LogicalResult importRange(NodeContext &c) {
  auto start = c.requiredConstant(0, "start"), limit = c.requiredConstant(1, "limit"),
       delta = c.requiredConstant(2, "delta");
  if (!start || !limit || !delta)
    return failure();
  Type element = start.getElementType();
  for (DenseElementsAttr a : {start, limit, delta})
    if (a.getNumElements() != 1 || a.getElementType() != element)
      return c.fail(code::ShapeMismatch, "start, limit and delta must be scalars of one element type");
  if (isa<IntegerType>(element)) {
    int64_t s = (*start.getValues<APInt>().begin()).getSExtValue();
    int64_t l = (*limit.getValues<APInt>().begin()).getSExtValue();
    int64_t d = (*delta.getValues<APInt>().begin()).getSExtValue();
    if (d == 0)
      return c.fail(code::UnsupportedAttr, "delta is 0");
    // ceil((limit - start) / delta) in 128 bits: limit - start overflows
    // int64 for far-apart bounds.
    __int128 span = __int128(l) - s;
    __int128 count = std::max<__int128>(0, (span + d + (d > 0 ? -1 : 1)) / d);
    if (count > __int128(kMaxFoldedElements))
      return c.fail(code::Overflow, "Range of " + llvm::Twine(uint64_t(std::min<__int128>(count, UINT64_MAX))) +
                                        " elements is too large to fold");
    int64_t n = int64_t(count);
    IntTensor out{{n}, {}, element};
    for (int64_t i = 0; i < n; ++i)
      out.data.push_back(s + i * d);
    c.setOutput(0, c.constant(toAttr(out)));
    return success();
  }
  double s = firstAsDouble(start);
  double l = firstAsDouble(limit);
  double d = firstAsDouble(delta);
  if (d == 0)
    return c.fail(code::UnsupportedAttr, "delta is 0");
  // Range-27 takes float16 and bfloat16 bounds, computed in stash_type
  // (float by default) and rounded to the element type once.
  bool stashF32 = element.isF16() || element.isBF16();
  if (stashF32 && c.opset >= 27)
    if (int64_t stash = c.intAttr("stash_type", 1); stash != 1)
      return c.fail(code::UnsupportedAttr, llvm::Twine("Range of ") + (element.isF16() ? "float16" : "bfloat16") +
                                               " with stash_type " +
                                               llvm::Twine(stash) +
                                               " is not supported (only float, stash_type 1)");
  // The element count is computed in the tensor's own precision, as ONNX does.
  double count = element.isF64() ? std::ceil((l - s) / d)
                                 : double(std::ceil((float(l) - float(s)) / float(d)));
  if (!(count <= double(kMaxFoldedElements)))  // also NaN and infinite counts
    return c.fail(code::Overflow, "Range of " + std::to_string(count) + " elements is too large");
  int64_t n = std::max<int64_t>(0, int64_t(count));
  SmallVector<APFloat> values;
  for (int64_t i = 0; i < n; ++i) {
    APFloat f(stashF32 ? double(float(s) + float(i) * float(d)) : s + double(i) * d);
    bool lost;
    f.convert(cast<FloatType>(element).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    values.push_back(f);
  }
  c.setOutput(0, c.constant(DenseElementsAttr::get(c.tensor({n}, element), values)));
  return success();
}

LogicalResult importDepthSpace(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (x->shape().size() != 4)
    return c.fail(code::ShapeMismatch, "input must be 4-D");
  std::optional<int64_t> block = c.sizeAttr("blocksize", 0, 1);
  if (!block)
    return failure();
  int64_t b = *block;
  ArrayRef<int64_t> s = x->shape();
  bool toSpace = c.node.op_type() == "DepthToSpace";
  // The divisions are exact (as ONNX requires), which also keeps the
  // products below the input's element count.
  if (toSpace ? s[1] % (b * b) != 0 : s[2] % b != 0 || s[3] % b != 0)
    return c.fail(code::ShapeMismatch,
                  "blocksize " + llvm::Twine(b) + " does not divide input " + npuc::graph::shapes::str(s) +
                      (toSpace ? "'s channels by blocksize^2" : "'s height and width"));
  SmallVector<int64_t> shape = toSpace ? SmallVector<int64_t>{s[0], s[1] / (b * b), s[2] * b, s[3] * b}
                                       : SmallVector<int64_t>{s[0], s[1] * b * b, s[2] / b, s[3] / b};
  SmallVector<NamedAttribute> attrs{c.named("blocksize", c.b.getI64IntegerAttr(b))};
  if (toSpace)
    attrs.push_back(c.named("mode", c.b.getStringAttr(c.stringAttr("mode", "DCR"))));
  GraphOpBuilder op = toSpace ? graphOp<graph::DepthToSpaceOp> : graphOp<graph::SpaceToDepthOp>;
  return c.buildOutput(op, {x->value}, c.tensor(shape, x->element()), attrs);
}

} // namespace

namespace {
/// CenterCropPad (opset 18): each listed axis cropped or padded with zeros
/// to the given size about its centre (a crop starts at (in - out) / 2, a
/// pad puts (out - in) / 2 before), as one graph.pad whose negative pads
/// crop.
LogicalResult importCenterCropPad(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  auto sizes = c.constantInts(1, "shape");
  if (!x || !sizes)
    return failure();
  int64_t rank = int64_t(x->shape().size());
  std::vector<int64_t> axes;
  if (auto given = c.intsAttr("axes")) {
    for (int64_t a : *given) {
      std::optional<int64_t> n = c.axis(a, rank, "axes");
      if (!n)
        return failure();
      if (llvm::is_contained(axes, *n))
        return c.fail(code::UnsupportedAttr, "axes names axis " + llvm::Twine(*n) + " twice");
      axes.push_back(*n);
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  if (sizes->size() != axes.size())
    return c.fail(code::ShapeMismatch, "shape has " + llvm::Twine(sizes->size()) + " entries for " +
                                           llvm::Twine(axes.size()) + " axes");
  if (!c.inSizeRange("shape", *sizes, 0))
    return failure();
  SmallVector<int64_t> pads(2 * rank, 0);
  for (size_t k = 0; k < axes.size(); ++k) {
    int64_t a = axes[k], in = x->shape()[size_t(a)], out = (*sizes)[k];
    int64_t before = out >= in ? (out - in) / 2 : -((in - out) / 2);
    pads[size_t(a)] = before;
    pads[size_t(rank + a)] = out - in - before;
  }
  return buildPad(c, *x, pads, "constant", 0.0);
}
} // namespace

void npuc::onnx_import::registerTensorOps(llvm::StringMap<OpImporter> &t) {
  t["CenterCropPad"] = importCenterCropPad;
  t["BitCast"] = importBitCast;
  t["Reshape"] = importReshape;
  t["Flatten"] = importFlatten;
  t["Squeeze"] = importSqueeze;
  t["Unsqueeze"] = importUnsqueeze;
  t["Transpose"] = importTranspose;
  t["Concat"] = importConcat;
  t["Slice"] = importSlice;
  t["Split"] = importSplit;
  t["Gather"] = importGather;
  t["Pad"] = importPad;
  t["Expand"] = importExpand;
  t["Tile"] = importTile;
  t["Cast"] = importCast;
  t["Constant"] = importConstant;
  t["ConstantOfShape"] = importConstantOfShape;
  t["Shape"] = importShape;
  t["Size"] = importSize;
  t["Range"] = importRange;
  t["DepthToSpace"] = importDepthSpace;
  t["SpaceToDepth"] = importDepthSpace;
}
