//===- SelectTiling.cpp - select-tiling -----------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Writes each matrix product's tiling, chosen by the cost model of
// MatmulTiling.h, as the attribute convert-kernel-to-emit reads (after IREE's
// KernelDispatch, which writes a lowering_config the codegen follows).
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "npuc/Conversion/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace npuc {
#define GEN_PASS_DEF_SELECTTILING
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

using namespace mlir;
using namespace npuc;
using namespace npuc::emit::lowering;

namespace {
struct SelectTilingPass : npuc::impl::SelectTilingBase<SelectTilingPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::TargetInfo *t = passTarget(module, targetName);
    if (!t)
      return signalPassFailure();
    Builder b(module.getContext());
    bool ok = true;
    module.walk([&](Operation *op) {
      std::optional<MatmulProblem> p = matmulProblem(op);
      if (!p)
        return;
      std::optional<MatmulTiling> tl = chooseMatmulTiling(*p, *t);
      if (!tl) {
        op->emitOpError() << "no tiling of the " << p->M << "x" << p->K << " by " << p->K << "x"
                          << p->N << " product fits " << t->name << "'s LM ("
                          << t->params.LMBytes << " bytes) and ACC (" << t->params.ACCBytes
                          << " bytes)";
        ok = false;
        return;
      }
      op->setAttr(kTilingAttr,
                  b.getDictionaryAttr({
                      b.getNamedAttr("tile", b.getDenseI64ArrayAttr({tl->mt, tl->nt, tl->kt})),
                      b.getNamedAttr("buffers", b.getI64IntegerAttr(tl->buffers)),
                      b.getNamedAttr("cycles", b.getI64IntegerAttr(int64_t(tl->cycles))),
                      b.getNamedAttr("gm_bytes", b.getI64IntegerAttr(int64_t(tl->gmBytes))),
                  }));
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
