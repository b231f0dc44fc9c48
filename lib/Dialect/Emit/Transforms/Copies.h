//===- Copies.h - What a DMA copies, and the views it leaves ----*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Shared by the passes that replace a DMA between GM and local memory with
// something else (emit-forward-stores, emit-resident-values): the copy a DMA
// makes in a canonical form, and the cleanup of what a removed op leaves.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_DIALECT_EMIT_TRANSFORMS_COPIES_H
#define NPUC_LIB_DIALECT_EMIT_TRANSFORMS_COPIES_H

#include "npuc/Dialect/Emit/IR/EmitOps.h"

#include "llvm/ADT/SmallVector.h"

namespace npuc::emit {

inline MemorySpace spaceOf(mlir::Value buffer) {
  return mlir::cast<BufferType>(buffer.getType()).getSpace();
}

/// Whether `dma` grows its destination by pads.
bool padded(DmaOp dma);

/// One dimension of a copy: its size and the byte strides of its GM side
/// and its local side.
struct CopyDim {
  int64_t size, gm, local;
  bool operator==(const CopyDim &o) const {
    return size == o.size && gm == o.gm && local == o.local;
  }
};
using CopyForm = llvm::SmallVector<CopyDim, 4>;

/// The copy `dma` makes between GM and local memory, element by element, in
/// a canonical form: dimensions of size 1 dropped, dimensions contiguous on
/// both sides merged, the element's bytes innermost. Two copies of equal
/// forms move the same bytes between the same relative places.
CopyForm copyForm(DmaOp dma);
/// The dimensions of `dma` that move more than one element, as they are.
CopyForm copyDims(DmaOp dma);
/// `dims` with the element's bytes innermost, merged where contiguous on
/// both sides (copyForm's canonical form).
CopyForm mergeCopy(llvm::ArrayRef<CopyDim> dims, int64_t elementBytes);

/// Erases `v` and the views it is made of while nothing uses them.
void eraseDeadViews(mlir::Value v);

/// Erases `dma` and the views only it used.
void eraseCopy(DmaOp dma);

/// Erases VECTOR copies and the views only they used.
void eraseCopies(llvm::ArrayRef<VUnOp> copies);

/// The emit.value ops that record `buffer` or a view of it.
void valuesOver(mlir::Value buffer, llvm::SmallVectorImpl<ValueOp> &out);

} // namespace npuc::emit

#endif
