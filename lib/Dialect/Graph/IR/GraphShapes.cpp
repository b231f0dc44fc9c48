//===- GraphShapes.cpp - Shape functions of graph ops ---------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphShapes.h"

#include "npuc/Base/ISA.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace llvm;
using namespace npuc::graph;
using namespace npuc::graph::shapes;

static Error err(const Twine &msg) { return createStringError(inconvertibleErrorCode(), msg); }

std::string shapes::str(ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

Expected<Shape> shapes::broadcast(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return err("shapes " + str(a) + " and " + str(b) + " do not broadcast: dimension " +
                 Twine(i) + " of the result is " + Twine(da) + " vs " + Twine(db));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Expected<Shape> shapes::window(ArrayRef<int64_t> spatial, const WindowParams &p) {
  size_t n = spatial.size();
  auto sizeIs = [&](ArrayRef<int64_t> v, size_t want, StringRef what) -> Error {
    if (v.size() != want)
      return err(what + " has " + Twine(v.size()) + " entries, expected " + Twine(want));
    return Error::success();
  };
  if (Error e = sizeIs(p.kernel, n, "kernel"))
    return std::move(e);
  if (Error e = sizeIs(p.strides, n, "strides"))
    return std::move(e);
  if (Error e = sizeIs(p.dilations, n, "dilations"))
    return std::move(e);
  if (Error e = sizeIs(p.pads, 2 * n, "pads (begins then ends)"))
    return std::move(e);
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    if (p.kernel[i] < 1 || p.strides[i] < 1 || p.dilations[i] < 1)
      return err("spatial axis " + Twine(i) + ": kernel, stride and dilation must be >= 1, got " +
                 Twine(p.kernel[i]) + ", " + Twine(p.strides[i]) + ", " + Twine(p.dilations[i]));
    if (p.pads[i] < 0 || p.pads[n + i] < 0)
      return err("spatial axis " + Twine(i) + ": pads must be >= 0, got " + Twine(p.pads[i]) +
                 " and " + Twine(p.pads[n + i]));
    // Hostile sizes (pads, kernels or dilations near 2^63) are an error, not
    // an overflow.
    std::optional<int64_t> paddedOr = llvm::checkedAdd(spatial[i], p.pads[i]);
    if (paddedOr)
      paddedOr = llvm::checkedAdd(*paddedOr, p.pads[n + i]);
    std::optional<int64_t> extentOr = llvm::checkedMul(p.dilations[i], p.kernel[i] - 1);
    if (extentOr)
      extentOr = llvm::checkedAdd(*extentOr, int64_t(1));
    if (!paddedOr || !extentOr)
      return err("spatial axis " + Twine(i) + ": the padded input (" + Twine(spatial[i]) + " + " +
                 Twine(p.pads[i]) + " + " + Twine(p.pads[n + i]) + ") or the window (dilation " +
                 Twine(p.dilations[i]) + ", kernel " + Twine(p.kernel[i]) + ") overflows 64 bits");
    int64_t padded = *paddedOr, extent = *extentOr;
    if (padded < extent)
      return err("spatial axis " + Twine(i) + ": window extent " + Twine(extent) +
                 " exceeds the padded input size " + Twine(padded));
    int64_t span = padded - extent;
    int64_t o = (p.ceilMode ? divideCeil(span, p.strides[i]) : span / p.strides[i]) + 1;
    // With ceil_mode, a last window that starts inside the end padding is dropped.
    if (p.ceilMode && (o - 1) * p.strides[i] >= spatial[i] + p.pads[i])
      --o;
    out[i] = o;
  }
  return out;
}

Expected<Shape> shapes::matmul(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  if (a.empty() || b.empty())
    return err("matmul operands must have rank >= 1");
  Shape as(a), bs(b);
  bool promoteA = as.size() == 1, promoteB = bs.size() == 1;
  if (promoteA)
    as.insert(as.begin(), 1);
  if (promoteB)
    bs.push_back(1);
  int64_t k1 = as.back(), k2 = bs[bs.size() - 2];
  if (k1 != k2)
    return err("contraction dimensions differ: " + str(a) + " x " + str(b) + " (" + Twine(k1) +
               " vs " + Twine(k2) + ")");
  Expected<Shape> batch = broadcast(ArrayRef<int64_t>(as).drop_back(2),
                                    ArrayRef<int64_t>(bs).drop_back(2));
  if (!batch)
    return batch.takeError();
  Shape out = *batch;
  if (!promoteA)
    out.push_back(as[as.size() - 2]);
  if (!promoteB)
    out.push_back(bs.back());
  return out;
}

Expected<Shape> shapes::reduce(ArrayRef<int64_t> in, ArrayRef<int64_t> axes, bool keepdims) {
  if (axes.empty())
    return err("reduction axes are empty (normal form lists them explicitly)");
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= int64_t(in.size()))
      return err("axis " + Twine(axes[i]) + " is outside [0, " + Twine(in.size()) + ")");
    if (i && axes[i] <= axes[i - 1])
      return err("axes must be strictly increasing");
  }
  Shape out;
  for (int64_t d = 0; d < int64_t(in.size()); ++d) {
    if (!llvm::is_contained(axes, d))
      out.push_back(in[d]);
    else if (keepdims)
      out.push_back(1);
  }
  return out;
}

Expected<int64_t> shapes::numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      return err("dimension " + Twine(d) + " is negative");
    if (MulOverflow(n, d, n))
      return err("element count of " + str(shape) + " overflows 64 bits");
  }
  return n;
}

int64_t shapes::sliceLength(int64_t start, int64_t end, int64_t step) {
  int64_t span = step > 0 ? end - start : start - end;
  // |step| in 64 unsigned bits: INT64_MIN has no int64_t negation.
  uint64_t stride = step > 0 ? uint64_t(step) : 0 - uint64_t(step);
  return span <= 0 ? 0 : int64_t(1 + uint64_t(span - 1) / stride);
}

Expected<int64_t> shapes::extent(ArrayRef<int64_t> shape) {
  Expected<int64_t> count = numElements(shape);
  if (!count || *count != 0)
    return count;
  int64_t n = 1;
  for (int64_t d : shape)
    if (d != 0 && MulOverflow(n, d, n))
      return err("the non-zero dimensions of empty " + str(shape) + " multiply past 64 bits");
  return n;
}

std::optional<double> npuc::graph::shapes::resizeCoordinate(int64_t o, int64_t in, int64_t out,
                                                            double scale, llvm::StringRef ctm,
                                                            double roiStart, double roiEnd) {
  if (ctm == "tf_crop_and_resize")
    return out > 1 ? roiStart * double(in - 1) + double(o) * (roiEnd - roiStart) * double(in - 1) / double(out - 1)
                   : 0.5 * (roiStart + roiEnd) * double(in - 1);
  if (ctm == "asymmetric")
    return double(o) / scale;
  if (ctm == "half_pixel")
    return (double(o) + 0.5) / scale - 0.5;
  if (ctm == "pytorch_half_pixel")
    return out > 1 ? (double(o) + 0.5) / scale - 0.5 : 0.0;
  if (ctm == "tf_half_pixel_for_nn")
    return (double(o) + 0.5) / scale;
  if (ctm == "align_corners") {
    // ONNX's resized length is in * scale, not always whole (2 at scale 0.6
    // gives 2.4); a scale derived from sizes is out / in, rounded to f32,
    // whose product is out again.
    double length = double(in) * scale;
    if (std::abs(length - double(out)) <= 1e-5 * double(out))
      length = double(out);
    return out > 1 ? double(o) * double(in - 1) / (length - 1.0) : 0.0;
  }
  return std::nullopt;
}

std::string npuc::graph::shapes::indexedGatherMisfit(llvm::ArrayRef<int64_t> shape, int64_t axis,
                                                    int64_t elemBytes) {
  namespace L = isa::limit;
  int64_t A = 1, B = 1, V = shape[size_t(axis)];
  for (size_t i = 0; i < shape.size(); ++i)
    if (int64_t(i) != axis)
      (int64_t(i) < axis ? A : B) *= shape[i];
  auto s = [](int64_t v) { return std::to_string(v); };
  if (A > L::DMA_IN_SHAPE::n0_max || B > L::DMA_IN_SHAPE::n0_max)
    return "a row box of " + s(A) + " x " + s(B) + " elements exceeds the DMA extent field (" +
           s(L::DMA_IN_SHAPE::n0_max) + ")";
  if (V > L::DMA_IN_IDX::rows_max)
    return s(V) + " rows exceed the gather's row-bound field (" + s(L::DMA_IN_IDX::rows_max) + ")";
  if (A > 1 && V * B * elemBytes > L::DMA_IN_SSTRIDE::s0_max)
    return "the stride between the row boxes' parts (" + s(V * B * elemBytes) +
           " bytes) exceeds the DMA stride field (" + s(L::DMA_IN_SSTRIDE::s0_max) + ")";
  if (B * elemBytes > L::DMA_IN_SSTRIDE::s0_max)
    return "a row of " + s(B * elemBytes) + " bytes exceeds the DMA stride field";
  return "";
}

llvm::SmallVector<npuc::graph::shapes::IndexRun>
npuc::graph::shapes::indexRuns(llvm::ArrayRef<int64_t> src) {
  llvm::SmallVector<IndexRun> runs;
  int64_t n = int64_t(src.size());
  for (int64_t o = 0; o < n;) {
    IndexRun r{o, 1, src[size_t(o)], 0};
    if (o + 1 < n && src[size_t(o) + 1] >= src[size_t(o)]) {
      r.step = src[size_t(o) + 1] - src[size_t(o)];
      while (o + r.length < n && src[size_t(o + r.length)] == r.source + r.length * r.step)
        ++r.length;
    }
    runs.push_back(r);
    o += r.length;
  }
  return runs;
}

llvm::SmallVector<llvm::SmallVector<npuc::graph::shapes::IndexRun>>
npuc::graph::shapes::runCombinations(llvm::ArrayRef<llvm::SmallVector<IndexRun>> runs) {
  int64_t count = 1;
  for (const auto &axisRuns : runs)
    count *= int64_t(axisRuns.size());
  llvm::SmallVector<llvm::SmallVector<IndexRun>> out;
  for (int64_t n = 0; n < count; ++n) {
    llvm::SmallVector<IndexRun> pick(runs.size());
    int64_t rem = n;
    for (size_t k = runs.size(); k-- > 0;) {
      pick[k] = runs[k][size_t(rem % int64_t(runs[k].size()))];
      rem /= int64_t(runs[k].size());
    }
    out.push_back(std::move(pick));
  }
  return out;
}
