//===- SelectTiling.cpp - select-tiling -----------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Writes each matrix product's, convolution's and pooling's tiling, and the
// tilings of every op's elementwise loop nests, chosen by the cost models of
// lib/Schedule, as the attributes convert-kernel-to-emit reads (after IREE's
// KernelDispatch, which writes a lowering_config the codegen follows). The
// problems come from each op's plan (IterationSpaces), stated from its types
// and attributes; nothing is lowered to learn them.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "npuc/Conversion/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"

#include <algorithm>
#include <cstdint>
#include <map>

namespace npuc {
#define GEN_PASS_DEF_SELECTTILING
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

using namespace mlir;
using namespace npuc;
using namespace npuc::emit::lowering;

namespace {
/// The #qk.tiling of a choice; an estimate beyond int64 is clamped (the
/// attribute holds it signed).
qk::TilingAttr tiling(Builder &b, ArrayRef<int64_t> space, ArrayRef<int64_t> tile,
                      int64_t buffers, uint64_t cycles, uint64_t gmBytes, bool resident = false,
                      bool stacked = false) {
  auto est = [](uint64_t v) { return int64_t(std::min<uint64_t>(v, uint64_t(INT64_MAX))); };
  return qk::TilingAttr::get(b.getContext(), space, tile, buffers, est(cycles), est(gmBytes),
                             resident, stacked);
}

struct SelectTilingPass : npuc::impl::SelectTilingBase<SelectTilingPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::TargetInfo *t = passTarget(module);
    if (!t)
      return signalPassFailure();
    Builder b(module.getContext());
    bool ok = true;
    auto write = [&](Operation *op, ArrayRef<int64_t> tile, int64_t buffers, uint64_t cycles,
                     uint64_t gmBytes, bool resident = false, bool stacked = false) {
      op->setAttr(kTilingAttr,
                  tiling(b, {}, tile, buffers, cycles, gmBytes, resident, stacked));
    };
    module.walk([&](Operation *op) {
      std::optional<DepthwiseProblem> d = depthwiseProblem(op);
      if (!d)
        d = poolProblem(op);
      if (d) {
        std::optional<DepthwiseTiling> tl = chooseDepthwiseTiling(*d, *t);
        if (!tl) {
          // The reason of the smallest tile says what no tile can avoid.
          DepthwiseTiling one{1, 1, 1, 0, 0};
          op->emitOpError() << "no tiling of the " << (d->pooling() ? "pooling" : "depthwise convolution")
                            << " (" << d->C
                            << " channels, " << d->KH << "x" << d->KW << " window, " << d->OH
                            << "x" << d->OW << " outputs) fits " << t->name << ": "
                            << checkTiling(*d, one, *t).value_or("no candidate fits");
          ok = false;
          return;
        }
        write(op, {tl->channels, tl->rows}, tl->buffers, tl->cycles, tl->gmBytes, tl->resident);
        return;
      }
      if (std::optional<ConvProblem> cp = convProblem(op)) {
        std::optional<ConvTiling> tl = chooseConvTiling(*cp, *t);
        if (!tl) {
          ConvTiling one{1, 1, 1, 1, 0, 0};
          op->emitOpError() << "no tiling of the convolution (" << cp->window.C * cp->groups
                            << " input channels in " << cp->groups << " groups, "
                            << cp->window.KH << "x" << cp->window.KW << " window, "
                            << cp->window.OH << "x" << cp->window.OW << " outputs) fits "
                            << t->name << ": " << checkTiling(*cp, one, *t).value_or("no candidate fits");
          ok = false;
          return;
        }
        write(op, {tl->rows, tl->outChannels, tl->chunk}, tl->buffers, tl->cycles, tl->gmBytes,
              tl->resident, tl->stacked);
        return;
      }
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
      write(op, {tl->mt, tl->nt, tl->kt}, tl->buffers, tl->cycles, tl->gmBytes);
    });
    if (!ok)
      return signalPassFailure();
    if (failed(tileLoopNests(module, *t)))
      signalPassFailure();
  }

  /// Each op's plan (planOf: its loop nests and im2col products, from the
  /// op alone), each nest tiled by ElementwiseTiling.h's model:
  /// `npuc.loop_tiling` lists them in the order the lowering walks them. The
  /// same nest (shape, strides, work) is chosen once. The function is
  /// checked as the lowering checks it first.
  LogicalResult tileLoopNests(ModuleOp module, const target::TargetInfo &t) {
    Builder b(module.getContext());
    std::map<std::string, std::optional<ElementwiseTiling>> memo;
    for (func::FuncOp func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (failed(checkFunction(func)))
        return failure();
      std::vector<std::pair<Operation *, ElementwiseProblem>> nests;
      std::vector<Im2colProduct> products;
      auto add = [&](Operation *op, IterationSpaces &s) {
        for (ElementwiseProblem &p : s.nests)
          if (!p.empty())  // an empty tensor moves nothing
            nests.push_back({op, std::move(p)});
        llvm::append_range(products, s.products);
      };
      Block &body = func.getBody().front();
      for (Operation &op : body.without_terminator()) {
        if (llvm::isa<graph::ConstantOp>(op))
          continue;
        if (failed(checkConstants(&op)))
          return failure();
        LoweringCase c(&op);
        IterationSpaces s;
        if (failed(selectCase(c, t)) || failed(planOf(c, t, s)))
          return failure();
        add(&op, s);
      }
      IterationSpaces copies;
      if (failed(planReturn(func, copies)))
        return failure();
      add(body.getTerminator(), copies);
      for (const Im2colProduct &d : products) {
        std::optional<MatmulTiling> tl = chooseIm2colTiling(d.problem, d.OW, d.khw, t);
        if (!tl)
          return d.op->emitOpError()
                 << "no tiling of its im2col product (" << d.problem.M << " pixels, "
                 << d.problem.K << " taps, " << d.problem.N << " channels per group) fits "
                 << t.name << "'s LM (" << t.params.LMBytes << " bytes) and ACC ("
                 << t.params.ACCBytes << " bytes)";
        d.op->setAttr(kTilingAttr, tiling(b, {}, {tl->mt, tl->nt, tl->kt}, tl->buffers,
                                          tl->cycles, tl->gmBytes));
      }
      llvm::MapVector<Operation *, SmallVector<Attribute>> lists;
      for (auto &[op, p] : nests) {
        std::string key = nestKey(p);
        auto it = memo.find(key);
        if (it == memo.end())
          it = memo.emplace(key, chooseElementwiseTiling(p, t)).first;
        const std::optional<ElementwiseTiling> &tl = it->second;
        if (!tl) {
          ElementwiseTiling one;
          return op->emitOpError()
                 << "no tiling of its elementwise loop nest over [" << ArrayRef<int64_t>(p.shape)
                 << "] fits " << t.name << ": " << checkTiling(p, one, t).value_or("no candidate fits");
        }
        lists[op].push_back(tiling(b, p.shape, tl->tile, tl->buffers, tl->cycles, tl->gmBytes));
      }
      for (auto &[op, list] : lists)
        op->setAttr(kLoopTilingAttr, b.getArrayAttr(list));
    }
    return success();
  }

  static std::string nestKey(const ElementwiseProblem &p) {
    std::string k;
    auto add = [&](int64_t v) { k += std::to_string(v) + ","; };
    for (int64_t v : p.shape)
      add(v);
    std::vector<const EwAccess *> all;
    for (const EwAccess &a : p.ins)
      all.push_back(&a);
    all.push_back(&p.out);
    for (const EwAccess *a : all) {
      k += "|";
      for (int64_t v : a->strides)
        add(v);
      add(a->elemBytes);
      add(a->perRow);
      add(a->oneRow);
    }
    add(p.work.lmBytesPerElement);
    add(p.work.vectorPasses);
    for (int64_t v : p.fixed)
      add(v);
    add(p.partials);
    for (int64_t v : p.maxTile)
      add(v);
    add(p.rowsFirst);
    add(p.padRows);
    add(p.maxBuffers);
    return k;
  }
};
} // namespace
