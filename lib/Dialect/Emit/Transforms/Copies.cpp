//===- Copies.cpp - What a DMA copies, and the views it leaves ------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Copies.h"

using namespace mlir;

namespace npuc::emit {

bool padded(DmaOp dma) {
  auto nonZero = [](std::optional<ArrayRef<int64_t>> pads) {
    return pads && llvm::any_of(*pads, [](int64_t p) { return p != 0; });
  };
  return nonZero(dma.getPadLo()) || nonZero(dma.getPadHi());
}

CopyForm copyDims(DmaOp dma) {
  auto src = cast<BufferType>(dma.getSrc().getType());
  auto dst = cast<BufferType>(dma.getDst().getType());
  BufferType gm = src.isGlobal() ? src : dst, local = src.isGlobal() ? dst : src;
  CopyForm dims;
  for (auto [n, g, l] : llvm::zip(gm.getShape(), gm.getStrides(), local.getStrides()))
    if (n != 1)
      dims.push_back({n, g, l});
  return dims;
}

CopyForm mergeCopy(ArrayRef<CopyDim> dims, int64_t elementBytes) {
  CopyForm merged;
  SmallVector<CopyDim, 4> all(dims.begin(), dims.end());
  all.push_back({elementBytes, 1, 1});
  for (const CopyDim &d : all) {
    CopyDim *last = merged.empty() ? nullptr : &merged.back();
    if (last && last->gm == d.size * d.gm && last->local == d.size * d.local)
      *last = {last->size * d.size, d.gm, d.local};
    else
      merged.push_back(d);
  }
  return merged;
}

CopyForm copyForm(DmaOp dma) {
  auto src = cast<BufferType>(dma.getSrc().getType());
  BufferType gm = src.isGlobal() ? src : cast<BufferType>(dma.getDst().getType());
  return mergeCopy(copyDims(dma), gm.getElementBytes());
}

void eraseDeadViews(Value v) {
  while (auto view = v.getDefiningOp<ViewOp>()) {
    if (!view->use_empty())
      return;
    v = view.getSource();
    view->erase();
  }
}

void eraseCopy(DmaOp dma) {
  Value src = dma.getSrc(), dst = dma.getDst();
  dma->erase();
  eraseDeadViews(dst);
  eraseDeadViews(src);
}

void eraseCopies(ArrayRef<VUnOp> copies) {
  for (VUnOp copy : copies) {
    Value a = copy.getA(), d = copy.getD();
    copy->erase();
    eraseDeadViews(a);
    eraseDeadViews(d);
  }
}

void valuesOver(Value buffer, SmallVectorImpl<ValueOp> &out) {
  for (Operation *user : buffer.getUsers()) {
    if (auto view = dyn_cast<ViewOp>(user))
      valuesOver(view.getResult(), out);
    else if (auto value = dyn_cast<ValueOp>(user))
      out.push_back(value);
  }
}

} // namespace npuc::emit
