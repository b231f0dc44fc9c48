//===- Placement.h - Buffers placed by liveness ------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// How emit-plan-memory places the buffers of straight-line code, shared with
// the passes that try a change before placement and keep it only if the
// buffers still fit (emit-prefetch-constants): one placement, not an
// estimate of it.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_DIALECT_EMIT_TRANSFORMS_PLACEMENT_H
#define NPUC_LIB_DIALECT_EMIT_TRANSFORMS_PLACEMENT_H

#include "npuc/Dialect/Emit/IR/EmitOps.h"

#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace npuc::emit {

/// What every buffer is aligned to.
constexpr int64_t kPlacementAlign = 64;

/// A buffer's life in program indices and its bytes.
struct Interval {
  AllocOp alloc;
  int64_t start, end, size;
  /// The tile loop whose iteration created the buffer (emit-lower-loops'
  /// tag), or a number of the buffer's own.
  int64_t group;
  int64_t offset = -1;
};

/// Last program index at which `v` or any view of it is used (a view
/// keeps its bytes alive).
int64_t lastUse(mlir::Value v, const llvm::DenseMap<mlir::Operation *, int64_t> &index);

/// `alloc`'s interval: from its index to its last use.
Interval intervalOf(AllocOp alloc, const llvm::DenseMap<mlir::Operation *, int64_t> &index);

/// Whether `body` is straight-line code (its tile loops lowered): what the
/// passes that place or move buffers before emit-plan-memory work on.
bool straightLine(mlir::Block &body);

/// Each op of `body` numbered in order.
llvm::DenseMap<mlir::Operation *, int64_t> number(mlir::Block &body);

/// The intervals of the buffers of `space` placement has yet to place.
std::vector<Interval> localIntervals(mlir::Block &body,
                                     const llvm::DenseMap<mlir::Operation *, int64_t> &index,
                                     MemorySpace space = MemorySpace::LM);

/// The bytes of `space` live at each program index of `body` (one more
/// entry than ops), as placement will see them.
std::vector<int64_t> liveBytes(mlir::Block &body,
                               const llvm::DenseMap<mlir::Operation *, int64_t> &index,
                               MemorySpace space = MemorySpace::LM);

/// Places the intervals in order of their start among those live at the
/// same time: first fit in address order, or with `capacity`, next fit by
/// group. Returns the bytes needed at the peak.
int64_t place(std::vector<Interval> &items, int64_t align, int64_t capacity = 0);

/// A local memory's placement: next fit, unless that fragments the space
/// past `capacity` where first fit does not. Returns the peak.
int64_t placeLocal(std::vector<Interval> &items, int64_t capacity);

} // namespace npuc::emit

#endif
