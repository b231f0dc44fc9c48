//===- MultiBuffer.cpp - Rotating slots for the tiles of a loop -----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// After IREE's GPUMultiBuffering: a buffer allocated per iteration becomes N
// slots allocated once, and iteration t uses slot t mod N.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Target.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace npuc::emit {
#define GEN_PASS_DEF_EMITMULTIBUFFER
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

void multiBuffer(ForOp loop, int64_t align) {
  SmallVector<AllocOp> allocs;
  for (Operation &op : loop.getBody().front())
    if (auto alloc = dyn_cast<AllocOp>(op); alloc && !alloc.getBuffer().getType().isGlobal())
      allocs.push_back(alloc);
  OpBuilder b(loop);
  for (AllocOp alloc : allocs) {
    BufferType type = alloc.getBuffer().getType();
    int64_t slot = (type.getSpanBytes() + align - 1) / align * align;
    // A tile may ask for more slots than the loop's (kExtraSlots): one the
    // next iteration's preparation writes while a store of it is in flight.
    int64_t n = int64_t(loop.getBuffers());
    if (auto extra = alloc->getAttrOfType<IntegerAttr>(AllocOp::kExtraSlots))
      n += extra.getInt();
    // The slots as one buffer: a leading dimension of N slots.
    SmallVector<int64_t> shape{n}, strides{slot};
    shape.append(type.getShape().begin(), type.getShape().end());
    strides.append(type.getStrides().begin(), type.getStrides().end());
    b.setInsertionPoint(loop);
    auto slots = AllocOp::create(b, alloc.getLoc(),
                                 BufferType::get(b.getContext(), type.getSpace(), shape,
                                                 type.getElementType(), strides),
                                 IntegerAttr(), StringAttr());
    b.setInsertionPoint(alloc);
    auto view = IterViewOp::create(
        b, alloc.getLoc(), type, slots, loop.getIteration(), b.getI64IntegerAttr(0),
        b.getDenseI64ArrayAttr(SmallVector<int64_t>(loop.getBasis().size(), 0)),
        b.getI64IntegerAttr(0), b.getI64IntegerAttr(slot), b.getI64IntegerAttr(n));
    alloc.getBuffer().replaceAllUsesWith(view.getResult());
    alloc.erase();
  }
  loop.setBuffersAttr(OpBuilder(loop).getI64IntegerAttr(1));
}

struct EmitMultiBufferPass : npuc::emit::impl::EmitMultiBufferBase<EmitMultiBufferPass> {
  void runOnOperation() override {
    ProgramOp program = getOperation();
    const target::TargetInfo *t = target::lookupTarget(program.getTarget());
    if (!t)
      return signalPassFailure();
    SmallVector<ForOp> loops;
    program.walk([&](ForOp loop) {
      if (loop.getBuffers() > 1)
        loops.push_back(loop);
    });
    for (ForOp loop : loops)
      multiBuffer(loop, t->params.MatrixAlign);
  }
};

} // namespace
