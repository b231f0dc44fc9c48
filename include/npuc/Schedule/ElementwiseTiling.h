//===- ElementwiseTiling.h - Tiles of elementwise loop nests, by cost -*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The cost model of select-tiling for elementwise loop nests: the maps,
// Q/DQ, BatchNorm and the copies (Concat, Transpose, Slice, Resize, layout
// changes) that walk a 4-D iteration space with one DMA per operand per tile.
// The iteration space is canonical (dimensions every operand walks
// contiguously merged, size-1 dimensions dropped, padded to 4-D); a tile is a
// box of it, [t0, t1, t2] rows of t3 columns. Candidates are fitted against LM
// and the ISA's fields and estimated with npuc::timing, like MatmulTiling.h.
// No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_SCHEDULE_ELEMENTWISETILING_H
#define NPUC_SCHEDULE_ELEMENTWISETILING_H

#include "npuc/Schedule/MatmulTiling.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace npuc::emit::lowering {

/// VECTOR's extent limit, rows and columns alike, generated from ISA.td.
inline constexpr int64_t kVectorExtentMax = isa::limit::V_SHAPE::rows_max;
static_assert(kVectorExtentMax == isa::limit::V_SHAPE::cols_max, "one VECTOR extent limit");

/// How one operand (or the result) walks the iteration space: byte strides
/// per dimension (0 where it broadcasts) and its element bytes. A `perRow`
/// operand is constant along the columns and loads one value per tile row
/// (a [rows, 1] tile at the VECTOR pitch). A `oneRow` access covers one row
/// of each tile's rows (a reduction's result along them: [1, cols]).
struct EwAccess {
  std::vector<int64_t> strides;
  int64_t elemBytes = 1;
  bool perRow = false;
  bool oneRow = false;
};

/// What a loop nest's body costs per element: LM bytes of every tile it
/// allocates (operands, result, scratch) and the VECTOR passes over a tile.
/// A copy has no pass; a map through f32 has a few.
struct EwWork {
  int64_t lmBytesPerElement = 1;
  int64_t vectorPasses = 0;
};

/// One elementwise loop nest: the canonical 4-D iteration space and how each
/// input and the result walk it.
struct ElementwiseProblem {
  std::array<int64_t, 4> shape{1, 1, 1, 1};
  std::vector<EwAccess> ins;
  EwAccess out;
  EwWork work;
  /// Tile extents the body fixes (0: the model chooses): whole rows for a
  /// softmax or a reduction along rows, [1, 1, r, *] for one along columns.
  std::array<int64_t, 4> fixed{0, 0, 0, 0};
  /// A two-pass reduction along rows: each row of a tile reduces to one f32
  /// partial per column tile, kept in LM as [column tiles, rows] until the
  /// partials reduce along rows.
  bool partials = false;
  /// The largest tile extent per dimension the body takes (0: no limit
  /// beyond VECTOR's): a fill made by one padded DMA is bounded by its pad
  /// fields.
  std::array<int64_t, 4> maxTile{0, 0, 0, 0};
  /// A Pad: a tile holds several planes (dimension 1) only with all their
  /// rows (dimension 2), and each plane's tile takes `padRows` rows more in
  /// LM (the padding above and below, made by the DMA).
  bool rowsFirst = false;
  int64_t padRows = 0;
  /// Rotating slots the body can use: 1 where it is unrolled code rather
  /// than a tile loop (a Pad, whose tiles differ in their padding; a
  /// two-pass reduction, whose partials stay).
  int64_t maxBuffers = tiling::kMaxBuffers;
  bool empty() const { return shape[0] * shape[1] * shape[2] * shape[3] == 0; }
};

/// Which innermost rows a nest keeps as rows instead of merging them into
/// longer runs: those of at least `minBytes` that are not a multiple of
/// `align` (0: every contiguous dimension merges). A tile of such rows,
/// each at an aligned pitch, is what a VECTOR copy can fill from a
/// product's tile (emit-forward-stores, emit-resident-values), where a flat
/// run crossing rows is not.
struct RowRule {
  int64_t align = 0, minBytes = 0;
};

/// The canonical problem of a nest over `shape` (any rank) whose inputs and
/// result walk it with the given strides, or why it has none (more than four
/// dimensions remain after merging: the DMA moves at most four); `rows`
/// says which rows stay rows.
std::optional<std::string> canonicalize(const std::vector<int64_t> &shape,
                                        std::vector<EwAccess> ins, EwAccess out, EwWork work,
                                        ElementwiseProblem &p, RowRule rows = {});

/// A nest over `rows` rows of `cols` elements each, kept whole, reading `in`
/// and writing `out` (per row: `out.perRow`).
ElementwiseProblem rowProblem(int64_t rows, int64_t cols, const EwAccess &in, const EwAccess &out,
                              EwWork work);
/// A reduction along columns: `outer` blocks of `r` rows of `inner`
/// elements, each block reduced to one row; a tile is the `r` rows of a run
/// of columns of one block, its result one row.
ElementwiseProblem columnProblem(int64_t outer, int64_t r, int64_t inner, const EwAccess &in,
                                 const EwAccess &out, EwWork work);

/// A choice: tiles of [t0, t1, t2] rows by t3 columns, `buffers` rotating
/// slots per tile (loads of the next tile and the store of the last overlap
/// this one's VECTOR work), and what the model estimates for it.
struct ElementwiseTiling {
  std::array<int64_t, 4> tile{1, 1, 1, 1};
  int64_t buffers = 1;
  uint64_t cycles = 0, gmBytes = 0;
  int64_t rows() const { return tile[0] * tile[1] * tile[2]; }
};

TileFootprint footprint(const ElementwiseProblem &p, const ElementwiseTiling &t,
                        const target::TargetInfo &target);
std::optional<std::string> checkTiling(const ElementwiseProblem &p, const ElementwiseTiling &t,
                                       const target::TargetInfo &target);
void estimate(const ElementwiseProblem &p, ElementwiseTiling &t, const target::TargetInfo &target);
/// The candidate with the fewest estimated cycles (then GM bytes, then the
/// fewest tiles, then fewer buffers), or nullopt when none fits.
std::optional<ElementwiseTiling> chooseElementwiseTiling(const ElementwiseProblem &p,
                                                         const target::TargetInfo &target);

} // namespace npuc::emit::lowering

#endif
