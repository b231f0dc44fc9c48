//===- OpsSequence.cpp - Sequences known at compile time, flattened -------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// A sequence whose structure (length, positions) is known at compile time is
// a list of the importer's values (Importer::sequences), not an IR value:
// SequenceConstruct, SequenceEmpty, SequenceInsert, SequenceErase and
// SplitToSequence build the list, SequenceAt and SequenceLength read it,
// ConcatFromSequence concatenates it. Positions must be constants; a sequence
// reaching a graph output is an error (model files hold tensors).
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

using namespace mlir;
using namespace npuc::onnx_import;

namespace {
/// The constant scalar position at input `i`, in [-n, n - 1] (or [-n, n] when
/// `end` allows the position after the last), made non-negative.
std::optional<int64_t> position(NodeContext &c, size_t i, int64_t n, bool end) {
  auto p = c.constantInts(i, "position");
  if (!p)
    return std::nullopt;
  if (p->size() != 1) {
    (void)c.fail(code::ShapeMismatch, "position must hold one value");
    return std::nullopt;
  }
  int64_t v = (*p)[0], hi = end ? n : n - 1;
  if (v < -n || v > hi) {
    (void)c.fail(code::ShapeMismatch, "position " + llvm::Twine(v) + " is outside [" + llvm::Twine(-n) + ", " +
                                          llvm::Twine(hi) + "] for a sequence of " + llvm::Twine(n));
    return std::nullopt;
  }
  return v < 0 ? v + n : v;
}

LogicalResult sameElementType(NodeContext &c, ArrayRef<Val> elements, Type t) {
  for (const Val &v : elements)
    if (v.element() != t)
      return c.fail(code::UnsupportedType, "a sequence holds tensors of one element type");
  return success();
}

LogicalResult importSequenceConstruct(NodeContext &c) {
  std::vector<Val> elements;
  for (size_t i = 0; i < c.numInputs(); ++i) {
    std::optional<Val> v = c.required(i);
    if (!v)
      return failure();
    elements.push_back(*v);
  }
  if (!elements.empty() && failed(sameElementType(c, elements, elements.front().element())))
    return failure();
  c.setSequenceOutput(0, std::move(elements));
  return success();
}

LogicalResult importSequenceEmpty(NodeContext &c) {
  c.setSequenceOutput(0, {});
  return success();
}

LogicalResult importSequenceInsert(NodeContext &c) {
  std::optional<std::vector<Val>> seq = c.sequence(0);
  std::optional<Val> t = c.required(1);
  if (!seq || !t)
    return failure();
  if (!seq->empty() && failed(sameElementType(c, {*t}, seq->front().element())))
    return failure();
  int64_t n = int64_t(seq->size()), at = n;
  if (c.input(2)) {
    std::optional<int64_t> p = position(c, 2, n, true);
    if (!p)
      return failure();
    at = *p;
  }
  seq->insert(seq->begin() + at, *t);
  c.setSequenceOutput(0, std::move(*seq));
  return success();
}

LogicalResult importSequenceErase(NodeContext &c) {
  std::optional<std::vector<Val>> seq = c.sequence(0);
  if (!seq)
    return failure();
  int64_t n = int64_t(seq->size());
  if (n == 0)
    return c.fail(code::ShapeMismatch, "SequenceErase of an empty sequence");
  int64_t at = n - 1;
  if (c.input(1)) {
    std::optional<int64_t> p = position(c, 1, n, false);
    if (!p)
      return failure();
    at = *p;
  }
  seq->erase(seq->begin() + at);
  c.setSequenceOutput(0, std::move(*seq));
  return success();
}

LogicalResult importSequenceAt(NodeContext &c) {
  std::optional<std::vector<Val>> seq = c.sequence(0);
  if (!seq)
    return failure();
  std::optional<int64_t> p = position(c, 1, int64_t(seq->size()), false);
  if (!p)
    return failure();
  c.setOutput(0, (*seq)[size_t(*p)]);
  return success();
}

LogicalResult importSequenceLength(NodeContext &c) {
  std::optional<std::vector<Val>> seq = c.sequence(0);
  if (!seq)
    return failure();
  auto t = c.tensor({}, c.b.getIntegerType(64));
  c.setOutput(0, c.constant(DenseElementsAttr::get(t, APInt(64, seq->size()))));
  return success();
}

/// ConcatFromSequence: the elements concatenated along `axis`, or stacked
/// along a new one (new_axis = 1).
LogicalResult importConcatFromSequence(NodeContext &c) {
  std::optional<std::vector<Val>> seq = c.sequence(0);
  if (!seq)
    return failure();
  if (seq->empty())
    return c.fail(code::ShapeMismatch, "ConcatFromSequence of an empty sequence");
  bool newAxis = c.intAttr("new_axis", 0) != 0;
  int64_t rank = int64_t(seq->front().shape().size());
  std::optional<int64_t> axis = c.axis(c.intAttr("axis", 0), rank + (newAxis ? 1 : 0));
  if (!axis)
    return failure();
  SmallVector<Value> parts;
  SmallVector<int64_t> shape;
  for (const Val &v : *seq) {
    SmallVector<int64_t> s(v.shape());
    if (int64_t(s.size()) != rank)
      return c.fail(code::ShapeMismatch, "the sequence's tensors differ in rank");
    Value part = v.value;
    if (newAxis) {
      s.insert(s.begin() + *axis, 1);
      FailureOr<Value> r = c.build<graph::ReshapeOp>({part}, c.tensor(s, v.element()));
      if (failed(r))
        return failure();
      part = *r;
    }
    if (shape.empty()) {
      shape = s;
    } else {
      for (int64_t d = 0; d < int64_t(s.size()); ++d)
        if (d != *axis && s[size_t(d)] != shape[size_t(d)])
          return c.fail(code::ShapeMismatch, "the sequence's tensors differ off the concatenation axis");
      shape[size_t(*axis)] += s[size_t(*axis)];
    }
    parts.push_back(part);
  }
  Type element = seq->front().element();
  if (parts.size() == 1) {
    c.setOutput(0, parts.front());
    return success();
  }
  return c.buildOutput<graph::ConcatOp>(parts, c.tensor(shape, element),
                                        {c.named("axis", c.b.getI64IntegerAttr(*axis))});
}

/// SplitToSequence: pieces of 1 along `axis` without `split` (squeezed
/// unless keepdims), of a scalar size (the last one shorter), or of the
/// sizes of a 1-D `split`.
LogicalResult importSplitToSequence(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  ArrayRef<int64_t> shape = x->shape();
  std::optional<int64_t> axis = c.axis(c.intAttr("axis", 0), int64_t(shape.size()));
  if (!axis)
    return failure();
  int64_t len = shape[size_t(*axis)];
  std::vector<int64_t> sizes;
  bool squeeze = false;
  if (std::optional<Val> split = c.input(1)) {
    auto s = c.constantInts(1, "split");
    if (!s)
      return failure();
    if (split->shape().empty()) {
      if ((*s)[0] <= 0)
        return c.fail(code::ShapeMismatch, "split size " + llvm::Twine((*s)[0]) + " is not positive");
      for (int64_t at = 0; at < len; at += (*s)[0])
        sizes.push_back(std::min((*s)[0], len - at));
    } else {
      int64_t total = 0;
      for (int64_t v : *s) {
        if (v < 0)
          return c.fail(code::ShapeMismatch, "split sizes must not be negative");
        total += v;
      }
      if (total != len)
        return c.fail(code::ShapeMismatch, "split sizes add up to " + llvm::Twine(total) + ", the axis has " +
                                               llvm::Twine(len));
      sizes = *s;
    }
  } else {
    sizes.assign(size_t(len), 1);
    squeeze = c.intAttr("keepdims", 1) == 0;
  }
  std::vector<Val> pieces;
  int64_t at = 0;
  for (int64_t size : sizes) {
    if (size == 0)
      return c.fail(code::ShapeMismatch, "a piece of the split has no elements; empty tensors have no NPU "
                                         "lowering");
    FailureOr<Value> piece = sliceAxis(c, x->value, *axis, at, at + size, 1, size);
    at += size;
    if (succeeded(piece) && squeeze) {
      SmallVector<int64_t> s(shape);
      s.erase(s.begin() + *axis);
      piece = c.build<graph::ReshapeOp>({*piece}, c.tensor(s, x->element()));
    }
    if (failed(piece))
      return failure();
    pieces.push_back(Val{*piece, {}});
  }
  c.setSequenceOutput(0, std::move(pieces));
  return success();
}
} // namespace

void npuc::onnx_import::registerSequenceOps(llvm::StringMap<OpImporter> &t) {
  t["SequenceConstruct"] = importSequenceConstruct;
  t["SequenceEmpty"] = importSequenceEmpty;
  t["SequenceInsert"] = importSequenceInsert;
  t["SequenceErase"] = importSequenceErase;
  t["SequenceAt"] = importSequenceAt;
  t["SequenceLength"] = importSequenceLength;
  t["ConcatFromSequence"] = importConcatFromSequence;
  t["SplitToSequence"] = importSplitToSequence;
}
