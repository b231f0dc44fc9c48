//===- Folding.cpp - Evaluating shape computations at import --------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Folding.h"

#include "npuc/Dialect/Graph/IR/GraphShapes.h"

using namespace mlir;
using namespace npuc::onnx_import;

std::optional<IntTensor> npuc::onnx_import::asInts(const Val &v) {
  if (!v.constant || !isa<IntegerType>(v.element()) || v.constant.getNumElements() > (1 << 20))
    return std::nullopt;
  IntTensor t;
  t.shape.assign(v.shape().begin(), v.shape().end());
  t.element = v.element();
  for (const APInt &x : v.constant.getValues<APInt>())
    t.data.push_back(intValue(x, v.element()));
  return t;
}

int64_t npuc::onnx_import::intValue(const APInt &v, Type t) {
  return t.isUnsignedInteger() || t.isInteger(1) ? int64_t(v.getZExtValue()) : v.getSExtValue();
}

double npuc::onnx_import::firstAsDouble(DenseElementsAttr c) {
  if (isa<FloatType>(c.getElementType()))
    return FloatAttr::getValueAsDouble(*c.getValues<APFloat>().begin());
  APInt v = *c.getValues<APInt>().begin();
  // A bool's true is 1, not the -1 a 1-bit sign extension gives.
  bool zext = c.getElementType().isUnsignedInteger() || c.getElementType().isInteger(1);
  return zext ? double(v.getZExtValue()) : double(v.getSExtValue());
}

std::optional<IntTensor> npuc::onnx_import::expandInts(const IntTensor &t, ArrayRef<int64_t> shape) {
  IntTensor zeros{SmallVector<int64_t>(shape.begin(), shape.end()), {}, t.element};
  uint64_t n = 1;
  for (int64_t d : shape)
    if ((n *= uint64_t(d)) > kMaxFoldedElements)
      return std::nullopt;
  zeros.data.assign(n, 0);
  return broadcastInts(t, zeros, t.element, [](int64_t a, int64_t) { return a; });
}

DenseElementsAttr npuc::onnx_import::toAttr(const IntTensor &t) {
  return graph::intElements(RankedTensorType::get(t.shape, t.element), t.data);
}

std::optional<IntTensor> npuc::onnx_import::broadcastInts(const IntTensor &a, const IntTensor &b,
                                                          Type element,
                                                          int64_t (*fn)(int64_t, int64_t)) {
  auto shape = npuc::graph::shapes::broadcast(a.shape, b.shape);
  if (!shape) {
    llvm::consumeError(shape.takeError());
    return std::nullopt;
  }
  IntTensor out;
  out.shape = *shape;
  out.element = element;
  size_t rank = out.shape.size();
  uint64_t n = 1;
  for (int64_t d : out.shape)
    if ((n *= uint64_t(d)) > kMaxFoldedElements)
      return std::nullopt;
  auto index = [&](const IntTensor &t, const std::vector<int64_t> &idx) {
    uint64_t off = 0;
    size_t lead = rank - t.shape.size();
    for (size_t d = 0; d < t.shape.size(); ++d)
      off = off * uint64_t(t.shape[d]) + uint64_t(t.shape[d] == 1 ? 0 : idx[lead + d]);
    return off;
  };
  std::vector<int64_t> idx(rank, 0);
  for (uint64_t e = 0; e < n; ++e) {
    out.data.push_back(fn(a.data[index(a, idx)], b.data[index(b, idx)]));
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < out.shape[d])
        break;
      idx[d] = 0;
    }
  }
  return out;
}
