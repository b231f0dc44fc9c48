//===- OpsResize.cpp - Resize and Upsample --------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Resize (opsets 10, 11, 13, 18, 19) and Upsample as one graph.resize with
// its output size resolved: scales or sizes (of `axes` only, opset 18; one
// scale for keep_aspect_ratio_policy), the coordinate mode, nearest
// rounding, cubic coefficient, exclude_outside, antialias, and
// tf_crop_and_resize's roi and extrapolation value. graph-expand-gather
// makes linear and cubic ones products by interpolation matrices; nearest
// ones lower as copies.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace npuc::onnx_import;

namespace {
/// tf_crop_and_resize's attributes of graph.resize: the crop (roi, input 1,
/// constant; of `axes` only when given) and the value outside it. Linear and
/// cubic only (the interpolation matrices); reports and returns nullopt
/// otherwise.
std::optional<SmallVector<NamedAttribute>> resizeCrop(NodeContext &c, size_t rank, StringRef mode) {
  if (mode == "nearest")
    return (void)c.fail(code::UnsupportedAttr, "tf_crop_and_resize with mode nearest is not supported (linear and "
                                               "cubic are)"),
           std::nullopt;
  DenseElementsAttr roiAttr = c.requiredConstant(1, "roi");
  if (!roiAttr)
    return std::nullopt;
  std::vector<float> roi;
  for (const APFloat &f : roiAttr.getValues<APFloat>())
    roi.push_back(float(FloatAttr::getValueAsDouble(f)));
  if (auto axes = c.intsAttr("axes"); axes && roi.size() == 2 * axes->size()) {
    std::vector<float> full(2 * rank, 0.0f);
    for (size_t i = 0; i < rank; ++i)
      full[rank + i] = 1.0f;
    for (size_t i = 0; i < axes->size(); ++i) {
      std::optional<int64_t> a = c.axis((*axes)[i], int64_t(rank), "axes");
      if (!a)
        return std::nullopt;
      full[size_t(*a)] = roi[i];
      full[rank + size_t(*a)] = roi[axes->size() + i];
    }
    roi = full;
  }
  if (roi.size() != 2 * rank)
    return (void)c.fail(code::UnsupportedAttr, "roi has " + llvm::Twine(roi.size()) + " entries, expected " +
                                                   llvm::Twine(2 * rank)),
           std::nullopt;
  return SmallVector<NamedAttribute>{
      c.named("roi", c.b.getDenseF32ArrayAttr(roi)),
      c.named("extrapolation_value", c.b.getF32FloatAttr(c.floatAttr("extrapolation_value", 0.0f)))};
}

/// Resize-18's `axes`: `scales` or `sizes` given for those axes only become
/// full (1, or the input's size, elsewhere); `resized` marks the listed axes.
LogicalResult resizeAxes(NodeContext &c, const Val &x, std::vector<float> &scales, std::vector<int64_t> &sizes,
                         std::vector<bool> &resized) {
  std::optional<std::vector<int64_t>> axes = c.intsAttr("axes");
  if (!axes)
    return success();
  size_t rank = x.shape().size();
  std::vector<float> fullScales(rank, 1.0f);
  std::vector<int64_t> fullSizes(x.shape().begin(), x.shape().end());
  std::vector<bool> seen(rank, false);
  size_t given = sizes.empty() ? scales.size() : sizes.size();
  if (given != axes->size())
    return c.fail(code::UnsupportedAttr, llvm::Twine(sizes.empty() ? "scales" : "sizes") + " has " +
                                             llvm::Twine(given) + " entries for " + llvm::Twine(axes->size()) +
                                             " axes");
  for (size_t i = 0; i < axes->size(); ++i) {
    std::optional<int64_t> a = c.axis((*axes)[i], int64_t(rank), "axes");
    if (!a)
      return failure();
    if (seen[size_t(*a)])
      return c.fail(code::UnsupportedAttr, "axes names axis " + llvm::Twine(*a) + " twice");
    seen[size_t(*a)] = true;
    if (sizes.empty())
      fullScales[size_t(*a)] = scales[i];
    else
      fullSizes[size_t(*a)] = sizes[i];
  }
  if (sizes.empty())
    scales = fullScales;
  else
    sizes = fullSizes;
  resized = seen;
  return success();
}

LogicalResult importResize(NodeContext &c) {
  bool upsample = c.node.op_type() == "Upsample";
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  size_t rank = x->shape().size();
  std::vector<float> scales;
  std::vector<int64_t> sizes;
  std::vector<bool> resizedAxes(rank, true);
  auto floatsOf = [&](size_t i) -> bool {
    DenseElementsAttr s = c.requiredConstant(i, "scales");
    if (!s || !isa<FloatType>(s.getElementType())) {
      if (s)
        (void)c.fail(code::UnsupportedType, "scales must be floats");
      return false;
    }
    for (const APFloat &f : s.getValues<APFloat>())
      scales.push_back(float(FloatAttr::getValueAsDouble(f)));
    return true;
  };
  if (upsample) {
    if (c.opset < 9) {
      if (auto s = c.floatsAttr("scales"))
        scales = *s;
    } else if (!floatsOf(1)) {
      return failure();
    }
  } else if (c.opset < 11) {
    if (!floatsOf(1))
      return failure();
  } else {
    std::optional<Val> scaleInput = c.input(2), sizeInput = c.input(3);
    if (sizeInput && sizeInput->constant && sizeInput->constant.getNumElements() == 0)
      sizeInput.reset();
    if (sizeInput) {
      auto v = c.constantInts(3, "sizes");
      if (!v)
        return failure();
      sizes = *v;
    } else if (scaleInput && !(scaleInput->constant && scaleInput->constant.getNumElements() == 0)) {
      // Scales computed at run time: requiredConstant names the graph
      // inputs whose freezing would make them constant.
      if (!floatsOf(2))
        return failure();
    } else {
      return c.fail(code::NotConstant, "Resize needs constant scales or sizes");
    }
  }
  // opset 18's axes: scales and sizes of those axes only, the others kept.
  if (!upsample && failed(resizeAxes(c, *x, scales, sizes, resizedAxes)))
    return failure();
  if (!sizes.empty()) {
    if (sizes.size() != rank)
      return c.fail(code::UnsupportedAttr, "sizes has the wrong rank");
    for (size_t i = 0; i < rank; ++i)
      scales.push_back(x->shape()[i] ? float(double(sizes[i]) / double(x->shape()[i])) : 1.0f);
    // opset 18: not_larger / not_smaller keep the aspect ratio with one scale.
    std::string policy = c.stringAttr("keep_aspect_ratio_policy", "stretch");
    if (policy == "not_larger" || policy == "not_smaller") {
      // One scale for the resized axes (every axis without `axes`).
      std::optional<float> scale;
      for (size_t i = 0; i < rank; ++i)
        if (resizedAxes[i])
          scale = !scale ? scales[i]
                  : policy == "not_larger" ? std::min(*scale, scales[i])
                                           : std::max(*scale, scales[i]);
      for (size_t i = 0; scale && i < rank; ++i) {
        if (!resizedAxes[i])
          continue;
        scales[i] = *scale;
        sizes[i] = int64_t(std::round(double(*scale) * double(x->shape()[i])));
      }
    } else if (policy != "stretch") {
      return c.fail(code::UnsupportedAttr, "keep_aspect_ratio_policy '" + policy + "' is not supported");
    }
  }
  if (scales.size() != rank)
    return c.fail(code::UnsupportedAttr, "scales must have " + llvm::Twine(rank) + " entries");
  SmallVector<int64_t> shape(sizes.begin(), sizes.end());
  for (size_t i = 0; sizes.empty() && i < rank; ++i) {
    double d = std::floor(double(x->shape()[i]) * double(scales[i]));
    if (!(d >= 0 && d < 0x1p62))  // also NaN scales
      return c.fail(code::UnsupportedAttr, "scale " + std::to_string(scales[i]) + " of axis " +
                                               llvm::Twine(i) + " gives no valid output size");
    shape.push_back(int64_t(d));
  }
  std::string mode = c.stringAttr("mode", "nearest");
  std::string coord = upsample || c.opset < 11 ? "asymmetric"
                                               : c.stringAttr("coordinate_transformation_mode", "half_pixel");
  std::string nearest = upsample || c.opset < 11 ? "floor" : c.stringAttr("nearest_mode", "round_prefer_floor");
  SmallVector<NamedAttribute> crop;
  if (coord == "tf_crop_and_resize") {
    std::optional<SmallVector<NamedAttribute>> attrs = resizeCrop(c, rank, mode);
    if (!attrs)
      return failure();
    crop = *attrs;
  } else if (mode == "tf_crop_and_resize") {
    return c.fail(code::UnsupportedAttr, "mode 'tf_crop_and_resize' is a coordinate_transformation_mode, not a mode");
  }
  SmallVector<NamedAttribute> attrs{
      c.named("scales", c.b.getDenseF32ArrayAttr(scales)), c.named("mode", c.b.getStringAttr(mode)),
       c.named("coordinate_transformation_mode", c.b.getStringAttr(coord)),
       c.named("nearest_mode", c.b.getStringAttr(nearest)),
       c.named("cubic_coeff_a", c.b.getF32FloatAttr(c.floatAttr("cubic_coeff_a", -0.75f))),
       c.named("exclude_outside", c.b.getBoolAttr(c.intAttr("exclude_outside", 0))),
       c.named("antialias", c.b.getBoolAttr(!upsample && c.opset >= 18 && c.intAttr("antialias", 0) &&
                                             (mode == "linear" || mode == "cubic")))};
  attrs.append(crop.begin(), crop.end());
  return c.buildOutput<graph::ResizeOp>({x->value}, c.tensor(shape, x->element()), attrs);
}
} // namespace

void npuc::onnx_import::registerResizeOps(llvm::StringMap<OpImporter> &t) {
  t["Resize"] = importResize;
  t["Upsample"] = importResize;
}
