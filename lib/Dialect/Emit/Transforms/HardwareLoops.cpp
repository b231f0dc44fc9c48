//===- HardwareLoops.cpp - Iterations that repeat become hardware loops ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Memory planning and sync insertion run on the unrolled code, where they are
// exact. This pass then finds, among the iterations emit-lower-loops tagged,
// runs whose placed, synchronized code repeats: the same ops with the same
// attributes, types and flag ids, every address stepping by the same bytes
// from one period to the next. Such a run becomes one emit.hw_loop holding the
// first period, so the machine executes exactly the instructions the unrolled
// code would, from a body written once. A period may span several iterations
// (rotating slots, flag ids that alternate). A second round rolls the rows of
// a tile grid: a period may then hold loops of the first round, which repeat
// when their counts and bodies do. A run is left unrolled, with a remark, when
// its nest would need more scalar registers than the target has.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/ISA.h"
#include "npuc/Base/Target.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

#include <map>
#include <set>

namespace npuc::emit {
#define GEN_PASS_DEF_EMITHARDWARELOOPS
#include "npuc/Dialect/Emit/Transforms/Passes.h.inc"
} // namespace npuc::emit

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

/// Declarations run nothing: they are hoisted out of a loop's body.
bool isDeclaration(Operation *op) { return llvm::isa<AllocOp, ViewOp, ConstantOp, FlagOp>(op); }
/// Work that may repeat in a hardware loop (a loop of the first round too).
bool isWork(Operation *op) {
  return llvm::isa<EngineOp, SignalOp, WaitOp, BarrierOp, HwLoopOp>(op);
}

/// An op and, for a loop, every op in it, in preorder.
void flatten(Operation *op, SmallVectorImpl<Operation *> &out) {
  op->walk<WalkOrder::PreOrder>([&](Operation *x) { out.push_back(x); });
}

/// One iteration: consecutive work ops of the same tile-loop iteration.
struct Iteration {
  int64_t loop, t;
  size_t begin, end;  // into Roller::work
};

/// A run to roll: `groups` periods of `period` iterations from iteration
/// `first`; per work op of the first period, the steps of its operands (of
/// every op in it, in preorder, for a loop).
struct Run {
  size_t first = 0, period = 0, groups = 0, ops = 0;
  std::vector<SmallVector<int64_t>> steps;
};

class Roller {
public:
  Roller(ProgramOp program, const target::TargetInfo &t, bool remarks)
      : program(program), t(t), remarks(remarks) {}
  /// One round; returns whether it rolled anything.
  bool round(int level);

private:
  ProgramOp program;
  const target::TargetInfo &t;
  bool remarks;
  /// Work ops and anything else that is not a declaration, in program order
  /// (nullptr: a breaker, something no loop may span).
  std::vector<Operation *> work;
  std::vector<Iteration> iterations;
  int64_t freeRegs() const { return t.params.ScalarRegs - 1; }

  void collect();
  /// Whether op b, `j` periods after op a, repeats it; records (j = 1) or
  /// checks (j > 1) the steps of its operands.
  bool repeats(Operation *a, Operation *b, int64_t j, SmallVectorImpl<int64_t> &steps);
  /// The same for one op (not a loop), its operands' steps from `at`.
  bool repeatsOp(Operation *a, Operation *b, int64_t j, SmallVectorImpl<int64_t> &steps,
                 size_t &at);
  /// The longest run of period p from iteration i (groups < 2: none).
  Run measure(size_t i, size_t end, size_t p);
  /// Rolls r into an emit.hw_loop; none when its nest needs more registers
  /// than the target has (the code stays as it was).
  HwLoopOp roll(const Run &r, int64_t &needed);
  size_t opsOf(size_t i, size_t p) const {
    return iterations[i + p - 1].end - iterations[i].begin;
  }
};

void Roller::collect() {
  work.clear();
  iterations.clear();
  // Which iteration an untagged op belongs to: a wait or barrier to the op
  // after it (it orders that op), a signal to the op before it (it follows
  // its producer).
  std::vector<Operation *> ops;
  for (Operation &op : program.getBody().front())
    if (!isDeclaration(&op))
      ops.push_back(&op);
  size_t n = ops.size();
  std::vector<std::optional<std::pair<int64_t, int64_t>>> tagOf(n), prev(n), next(n);
  for (size_t k = 0; k < n; ++k)
    if (auto tag = ops[k]->getAttrOfType<DenseI64ArrayAttr>(ForOp::kIterationTag);
        tag && tag.size() == 2 && isWork(ops[k]))
      tagOf[k] = std::make_pair(tag[0], tag[1]);
  for (size_t k = 0; k < n; ++k)
    prev[k] = tagOf[k] ? tagOf[k] : (k && isWork(ops[k]) ? prev[k - 1] : std::nullopt);
  for (size_t k = n; k-- > 0;)
    next[k] = tagOf[k] ? tagOf[k] : (k + 1 < n && isWork(ops[k]) ? next[k + 1] : std::nullopt);
  for (size_t k = 0; k < n; ++k) {
    Operation *op = ops[k];
    std::optional<std::pair<int64_t, int64_t>> unit;
    if (isWork(op))
      unit = tagOf[k] ? tagOf[k] : llvm::isa<SignalOp>(op) ? (prev[k] ? prev[k] : next[k])
                                                          : (next[k] ? next[k] : prev[k]);
    work.push_back(isWork(op) ? op : nullptr);
    if (!unit)
      continue;
    if (!iterations.empty() && iterations.back().end == work.size() - 1 &&
        iterations.back().loop == unit->first && iterations.back().t == unit->second)
      iterations.back().end = work.size();
    else
      iterations.push_back({unit->first, unit->second, work.size() - 1, work.size()});
  }
}

bool Roller::repeats(Operation *a, Operation *b, int64_t j, SmallVectorImpl<int64_t> &steps) {
  SmallVector<Operation *> as, bs;
  flatten(a, as);
  flatten(b, bs);
  if (as.size() != bs.size())
    return false;
  size_t at = 0;
  for (auto [x, y] : llvm::zip(as, bs))
    if (!repeatsOp(x, y, j, steps, at))
      return false;
  return true;
}

bool Roller::repeatsOp(Operation *a, Operation *b, int64_t j, SmallVectorImpl<int64_t> &steps,
                       size_t &at) {
  if (a->getName() != b->getName() || a->getNumOperands() != b->getNumOperands() ||
      !sameAttributesUntagged(a, b))
    return false;
  for (auto [va, vb] : llvm::zip(a->getOperands(), b->getOperands())) {
    if (va.getType() != vb.getType())
      return false;
    int64_t step = 0;
    if (llvm::isa<FlagType>(va.getType())) {
      auto fa = va.getDefiningOp<FlagOp>(), fb = vb.getDefiningOp<FlagOp>();
      if (!fa || !fb || !fa.getId() || fa.getId() != fb.getId())
        return false;
    } else if (auto bt = dyn_cast<BufferType>(va.getType())) {
      std::optional<int64_t> pa = placedByte(va), pb = placedByte(vb);
      if (!pa || !pb)
        return false;
      step = *pb - *pa;
      // A local step keeps every iteration's alignment that of the first.
      if (!bt.isGlobal() && step % t.params.MatrixAlign)
        return false;
    } else if (va != vb) {
      return false;
    }
    if (j == 1)
      steps.push_back(step);
    else if (step != j * steps[at])
      return false;
    ++at;
  }
  return true;
}

Run Roller::measure(size_t i, size_t end, size_t p) {
  Run r;
  r.first = i, r.period = p, r.groups = 1, r.ops = opsOf(i, p);
  // The body's instructions must fit LOOP's body field: an op is at most a
  // few configuration words and its start (8 is generous).
  SmallVector<Operation *> flat;
  for (size_t k = 0; k < r.ops; ++k)
    flatten(work[iterations[i].begin + k], flat);
  if (flat.size() * 8 > size_t(isa::limit::LOOP::body_max))
    return r;
  size_t base = iterations[i].begin;
  r.steps.resize(r.ops);
  for (size_t g = 1; i + (g + 1) * p <= end && g < size_t(isa::limit::LOOP::count_max); ++g) {
    size_t at = iterations[i + g * p].begin;
    if (opsOf(i + g * p, p) != r.ops)
      break;
    bool same = true;
    std::vector<SmallVector<int64_t>> steps = r.steps;
    for (size_t k = 0; k < r.ops && same; ++k) {
      Operation *a = work[base + k], *b = work[at + k];
      same = a && b && repeats(a, b, int64_t(g), steps[k]);
    }
    if (!same)
      break;
    r.steps = std::move(steps);
    r.groups = g + 1;
  }
  return r;
}

HwLoopOp Roller::roll(const Run &r, int64_t &needed) {
  size_t base = iterations[r.first].begin;
  size_t last = iterations[r.first + r.groups * r.period - 1].end - 1;
  Operation *first = work[base];
  OpBuilder b(first);
  auto loop = HwLoopOp::create(b, first->getLoc(), b.getI64IntegerAttr(int64_t(r.groups)));
  loop->setAttr(ForOp::kIterationTag,
                b.getDenseI64ArrayAttr({iterations[r.first].loop, iterations[r.first].t}));
  Block *body = &loop.getBody().emplaceBlock();
  // The first period: declarations before the loop, work into its body.
  Operation *end = work[iterations[r.first + r.period - 1].end - 1]->getNextNode();
  SmallVector<Operation *> moved;
  for (Operation *op = loop->getNextNode(); op != end;) {
    Operation *nextOp = op->getNextNode();
    if (isDeclaration(op)) {
      op->moveBefore(loop);
    } else {
      op->moveBefore(body, body->end());
      moved.push_back(op);
    }
    op = nextOp;
  }
  // Each op's steps in this loop go after those of the loops inside it.
  SmallVector<std::pair<Operation *, Attribute>> before;
  for (size_t k = 0; k < r.ops; ++k) {
    SmallVector<Operation *> ops;
    flatten(work[base + k], ops);
    size_t at = 0;
    for (Operation *op : ops) {
      unsigned n = op->getNumOperands();
      ArrayRef<int64_t> mine(r.steps[k].data() + at, n);
      at += n;
      if (llvm::all_of(mine, [](int64_t s) { return s == 0; }))
        continue;
      size_t depth = 0;
      for (Operation *p = op->getParentOp(); p != loop; p = p->getParentOp())
        ++depth;
      SmallVector<int64_t> steps(HwLoopOp::stepsOf(op));
      steps.resize(depth * n, 0);
      steps.append(mine.begin(), mine.end());
      before.push_back({op, op->getAttr(HwLoopOp::kSteps)});
      op->setAttr(HwLoopOp::kSteps, b.getDenseI64ArrayAttr(steps));
    }
  }
  needed = loop.registersNeeded();
  if (needed > freeRegs()) {
    // Undo: the work back where it was (declarations may stay hoisted).
    for (auto [op, attr] : before) {
      if (attr)
        op->setAttr(HwLoopOp::kSteps, attr);
      else
        op->removeAttr(HwLoopOp::kSteps);
    }
    for (Operation *op : moved)
      op->moveBefore(loop);
    loop.erase();
    return HwLoopOp();
  }
  // The later periods go; so do their declarations, once nothing uses them.
  // A wait after the loop on a flag a later period set now waits on the
  // body's signal of it (the same physical flag, set by every iteration).
  SmallVector<Operation *> firstOps;
  for (size_t k = 0; k < r.ops; ++k)
    flatten(work[base + k], firstOps);
  for (size_t g = 1; g < r.groups; ++g) {
    SmallVector<Operation *> ops;
    size_t at = iterations[r.first + g * r.period].begin;
    for (size_t k = 0; k < r.ops; ++k)
      flatten(work[at + k], ops);
    for (auto [x, y] : llvm::zip(ops, firstOps))
      if (auto s = dyn_cast<SignalOp>(x))
        s.getFlag().replaceAllUsesWith(cast<SignalOp>(y).getFlag());
  }
  Operation *stop = work[last]->getNextNode();
  SmallVector<Operation *> declarations;
  for (Operation *op = end; op != stop;) {
    Operation *nextOp = op->getNextNode();
    if (isDeclaration(op))
      declarations.push_back(op);
    else
      op->erase();
    op = nextOp;
  }
  for (Operation *op : llvm::reverse(declarations))
    if (op->use_empty())
      op->erase();
  return loop;
}

bool Roller::round(int level) {
  collect();
  bool any = false;
  // Stretches: iterations of one loop with nothing between them.
  for (size_t s = 0; s < iterations.size();) {
    size_t e = s + 1;
    while (e < iterations.size() && iterations[e].loop == iterations[s].loop &&
           iterations[e].begin == iterations[e - 1].end)
      ++e;
    std::vector<Run> runs;
    for (size_t i = s; i + 1 < e;) {
      // The period that repeats most often (then covers most): the
      // shortest body, and rows of a tile grid stay alike for round 1, where
      // a longer period would have swallowed the row into one body.
      Run best;
      for (size_t p = 1; p <= 8 && i + 2 * p <= e; ++p) {
        Run r = measure(i, e, p);
        if (r.groups >= 2 && std::make_pair(r.groups, r.groups * r.period) >
                                 std::make_pair(best.groups, best.groups * best.period))
          best = std::move(r);
      }
      if (best.groups < 2) {
        ++i;
        continue;
      }
      i += best.groups * best.period;
      runs.push_back(std::move(best));
    }
    Operation *at = work[iterations[s].begin];
    // Round 1 speaks only where it rolls: most stretches are left with
    // nothing alike (a loop of round 0 between unlike iterations).
    bool say = remarks && e - s >= 2 && (level == 0 || !runs.empty());
    InFlightDiagnostic d = say ? at->emitRemark() : InFlightDiagnostic();
    if (say)
      d << "round " << level << ", loop " << iterations[s].loop << ": " << e - s
        << (level ? " items" : " iterations");
    for (const Run &r : runs) {
      int64_t needed = 0;
      HwLoopOp loop = roll(r, needed);
      any |= bool(loop);
      if (!say)
        continue;
      if (loop)
        d << "; hardware loop of " << r.groups << " x " << r.period << ", " << needed
          << " registers";
      else
        d << "; " << r.groups << " x " << r.period << " stays unrolled: it needs " << needed
          << " registers, " << t.name << " has " << freeRegs();
    }
    if (say && runs.empty())
      d << "; none repeats";
    s = e;
  }
  return any;
}

struct EmitHardwareLoopsPass : npuc::emit::impl::EmitHardwareLoopsBase<EmitHardwareLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    ProgramOp program = getOperation();
    const target::TargetInfo *t = target::lookupTarget(program.getTarget());
    if (!t) {
      program.emitOpError() << "unknown target '" << program.getTarget() << "'";
      return signalPassFailure();
    }
    Roller roller(program, *t, remarks);
    // Iterations, then rows of them (loops of the first round repeated).
    if (roller.round(0))
      roller.round(1);
    program.walk([](Operation *op) { op->removeAttr(ForOp::kIterationTag); });
  }
};

} // namespace
