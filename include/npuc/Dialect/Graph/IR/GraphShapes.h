//===- GraphShapes.h - Shape functions of graph ops -------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Pure shape arithmetic, shared by the verifiers and (later) the importer's
// shape inference. Each returns the result shape, or an error text that says
// what was expected and what was found.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHSHAPES_H
#define NPUC_DIALECT_GRAPH_IR_GRAPHSHAPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace npuc::graph::shapes {
using Shape = llvm::SmallVector<int64_t, 6>;

/// Multidirectional (numpy) broadcasting.
llvm::Expected<Shape> broadcast(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

struct WindowParams {
  llvm::ArrayRef<int64_t> kernel, strides, pads, dilations;  // pads: begins then ends
  bool ceilMode = false;
};
/// Spatial output sizes of a sliding window over `spatial` input sizes.
llvm::Expected<Shape> window(llvm::ArrayRef<int64_t> spatial, const WindowParams &p);

/// numpy matmul of two shapes (1-D operands promoted, batch dims broadcast).
llvm::Expected<Shape> matmul(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// Reduction of `in` over normalized `axes`.
llvm::Expected<Shape> reduce(llvm::ArrayRef<int64_t> in, llvm::ArrayRef<int64_t> axes,
                             bool keepdims);

/// Product of the dimensions, or an error when it overflows int64.
llvm::Expected<int64_t> numElements(llvm::ArrayRef<int64_t> shape);

/// The number of elements a slice takes from clamped `start` to `end` with
/// `step` (not 0; any int64_t, INT64_MIN included, without overflow).
int64_t sliceLength(int64_t start, int64_t end, int64_t step);

/// Product of the dimensions with each 0 counted as 1, or an error when it
/// overflows int64: what bounds every partial product of the dimensions,
/// also of an empty tensor (whose element count, 0, bounds nothing).
llvm::Expected<int64_t> extent(llvm::ArrayRef<int64_t> shape);

/// The input coordinate ONNX Resize samples for output index `o` along an
/// axis of `in` -> `out` elements with factor `scale`, under
/// coordinate_transformation_mode `ctm` (not clamped), or nullopt for a mode
/// other than asymmetric, half_pixel, pytorch_half_pixel,
/// tf_half_pixel_for_nn, align_corners and tf_crop_and_resize (whose crop
/// of the axis is [roiStart, roiEnd], normalized).
std::optional<double> resizeCoordinate(int64_t o, int64_t in, int64_t out, double scale,
                                       llvm::StringRef ctm, double roiStart = 0.0, double roiEnd = 1.0);

/// The most strided copies one data-movement op is lowered as (a gather by
/// constant indices, a reversed slice, a nearest resize's runs, a copy of
/// more than the DMA's 4 dimensions); beyond, the op is refused or, for a
/// gather of f32 data, becomes a one-hot product.
constexpr int64_t kMaxStridedCopies = 1024;

/// A run of output indices along one axis: `length` indices from `start`
/// read the input from `source` on, `step` (>= 0) indices apart.
struct IndexRun {
  int64_t start, length, source, step;
};

/// The output indices 0..src.size()-1, reading input index src[o], as runs
/// of a constant non-negative step (a decreasing pair starts a new run).
llvm::SmallVector<IndexRun> indexRuns(llvm::ArrayRef<int64_t> src);

/// One strided copy per combination of one run per axis (`runs[k]` the runs
/// of axis k), the last axis' runs varying fastest: each entry holds the
/// combination's run of every axis.
llvm::SmallVector<llvm::SmallVector<IndexRun>>
runCombinations(llvm::ArrayRef<llvm::SmallVector<IndexRun>> runs);

/// Why a gather of `shape` along `axis` with `elemBytes`-byte elements by
/// indices known only at run time does not fit the indexed DMA
/// (DMA_IN_GATHER: the axis' rows, each a box of the dimensions before the
/// axis (merged) and after it (merged), within the DMA's extent, stride and
/// row-bound fields); empty when it fits.
std::string indexedGatherMisfit(llvm::ArrayRef<int64_t> shape, int64_t axis, int64_t elemBytes);

/// "1x3x224x224" ("scalar" for rank 0).
std::string str(llvm::ArrayRef<int64_t> shape);
} // namespace npuc::graph::shapes

#endif
