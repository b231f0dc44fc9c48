//===- SelectTiling.cpp - select-tiling -----------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Writes each matrix product's, convolution's and pooling's tiling, and the
// tilings of every op's elementwise loop nests, chosen by the cost models of
// lib/Schedule, as the attributes convert-qk-to-emit reads (after IREE's
// KernelDispatch, which writes a lowering_config the codegen follows). The
// problems come from each op's plan (IterationSpaces), stated from its types
// and attributes; nothing is lowered to learn them.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "npuc/Conversion/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
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
                      bool stacked = false, bool matrix = false) {
  auto est = [](uint64_t v) { return int64_t(std::min<uint64_t>(v, uint64_t(INT64_MAX))); };
  return qk::TilingAttr::get(b.getContext(), space, tile, buffers, est(cycles), est(gmBytes),
                             resident, stacked, matrix);
}

/// Every field of a problem, as a key: a network repeats its layers, and the
/// same problem is chosen once per run (the models are deterministic
/// functions of the problem and the target). A field added to a problem joins
/// its key; the size checks below fail until it does.
auto fields(const DepthwiseProblem &p) {
  return std::make_tuple(p.N, p.C, p.H, p.W, p.KH, p.KW, p.sh, p.sw, p.dh, p.dw, p.padTop,
                         p.padLeft, p.padBottom, p.padRight, p.OH, p.OW, p.inBytes, p.outBytes,
                         p.mode, p.bias, p.requant, p.requantTable, p.window, p.epiloguePasses,
                         p.convertImage);
}
auto fields(const ConvProblem &p) {
  return std::tuple_cat(fields(p.window), std::make_tuple(p.groups, p.outChannels, p.weightBytes));
}
auto fields(const MatmulProblem &p) {
  return std::make_tuple(p.batch, p.M, p.N, p.K, p.aBytes, p.bBytes, p.outBytes, p.transA,
                         p.transB, p.batchedB, p.batchedA, p.biasPerRow, p.mode, p.bias, p.requant,
                         p.requantTable, p.requantPerRow, p.scale, p.addend, p.sharedB);
}
// The sizes with today's fields (19 int64, 2 enums and 4 bools; 3 int64
// more; 7 int64, an enum and 12 bools), padded as on x86-64 and AArch64.
static_assert(sizeof(DepthwiseProblem) == 168 && sizeof(ConvProblem) == 192 &&
                  sizeof(MatmulProblem) == 72,
              "a problem's fields changed: update its key (fields)");

/// Whether `op` is a product whose B is a constant another product reads
/// too, small enough to stay in LM for all of them: its tile, rows at
/// MATRIX's alignment, takes at most a quarter of LM (emit-resident-constants
/// keeps no larger buffer).
bool sharesConstantB(Operation *op, const target::TargetInfo &t) {
  auto mm = dyn_cast<qk::MatMulOp>(op);
  if (!mm || !matchPattern(mm.getRhs(), m_Constant()))
    return false;
  auto type = cast<RankedTensorType>(mm.getRhs().getType());
  if (type.getRank() != 2)
    return false;
  int64_t rowBytes = type.getShape()[1] * type.getElementTypeBitWidth() / 8;
  int64_t align = t.params.MatrixAlign;
  if (type.getShape()[0] * ((rowBytes + align - 1) / align * align) > t.params.LMBytes / 4)
    return false;
  int64_t readers = llvm::count_if(mm.getRhs().getUses(), [](OpOperand &use) {
    auto other = dyn_cast<qk::MatMulOp>(use.getOwner());
    return other && use.get() == other.getRhs();
  });
  return readers > 1;
}

/// The choices made so far, by problem.
template <typename Problem, typename Tiling, typename... Extra>
class Memo {
public:
  template <typename Choose>
  const std::optional<Tiling> &get(const Problem &p, Choose choose, Extra... extra) {
    auto key = std::tuple_cat(fields(p), std::make_tuple(extra...));
    auto it = chosen.find(key);
    if (it == chosen.end())
      it = chosen.emplace(key, choose()).first;
    return it->second;
  }

private:
  std::map<decltype(std::tuple_cat(fields(std::declval<Problem>()), std::make_tuple(std::declval<Extra>()...))),
           std::optional<Tiling>>
      chosen;
};

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
                     uint64_t gmBytes, bool resident = false, bool stacked = false,
                     bool matrix = false) {
      op->setAttr(kTilingAttr,
                  tiling(b, {}, tile, buffers, cycles, gmBytes, resident, stacked, matrix));
    };
    Memo<DepthwiseProblem, DepthwiseTiling> depthwise;
    Memo<ConvProblem, ConvTiling> convs;
    Memo<MatmulProblem, MatmulTiling> products;
    module.walk([&](Operation *op) {
      std::optional<DepthwiseProblem> d = depthwiseProblem(op);
      if (!d)
        d = poolProblem(op);
      if (d) {
        const std::optional<DepthwiseTiling> &tl =
            depthwise.get(*d, [&] { return chooseDepthwiseTiling(*d, *t); });
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
        write(op, {tl->channels, tl->rows}, tl->buffers, tl->cycles, tl->gmBytes, tl->resident,
              false, tl->matrix);
        return;
      }
      if (std::optional<ConvProblem> cp = convProblem(op)) {
        const std::optional<ConvTiling> &tl = convs.get(*cp, [&] { return chooseConvTiling(*cp, *t); });
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
      p->sharedB = sharesConstantB(op, *t);
      const std::optional<MatmulTiling> &tl =
          products.get(*p, [&] { return chooseMatmulTiling(*p, *t); });
      if (!tl) {
        op->emitOpError() << "no tiling of the " << p->M << "x" << p->K << " by " << p->K << "x"
                          << p->N << " product fits " << t->name << "'s LM ("
                          << t->params.LMBytes << " bytes) and ACC (" << t->params.ACCBytes
                          << " bytes)";
        ok = false;
        return;
      }
      write(op, {tl->mt, tl->nt, tl->kt}, tl->buffers, tl->cycles, tl->gmBytes,
            holdsSharedB(*p, *tl));
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
    Memo<MatmulProblem, MatmulTiling, int64_t, int64_t> im2col;
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
        if (llvm::isa<graph::ConstantOp>(op) || computesNothing(&op))
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
        const std::optional<MatmulTiling> &tl = im2col.get(
            d.problem, [&] { return chooseIm2colTiling(d.problem, d.OW, d.khw, t); }, d.OW, d.khw);
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
