//===- EncodeLoops.cpp - Hardware loops -------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// emit.hw_loop nests as LOOP instructions over registers that step each
// address stream, with the configuration words every iteration would resend
// hoisted before the loop.
//
//===----------------------------------------------------------------------===//

#include "Encoder.h"

using namespace npuc;
using namespace npuc::encode;

/// A hardware loop nest: one register per address stream is borrowed for
/// the nest's scope and set to the stream's sub-granule remainder before it;
/// each loop's body ends by advancing the registers by that loop's steps
/// (less what the loops inside it added). A body starts with no
/// configuration assumed: every iteration finds what the previous one left.
LogicalResult Encoder::hwLoop(emit::HwLoopOp op) {
  Nest n;
  n.loops = op.nest();
  for (emit::AddressStream s : op.streams())
    n.regs.insert({s, 0});
  SmallVector<int64_t> regs;
  if (failed(borrow(op, unsigned(n.regs.size()), regs)))
    return failure();
  loc = op.getLoc();
  size_t next = 0;
  for (auto &[stream, reg] : n.regs) {
    reg = regs[next++];
    isa::Inst li = inst(isa::Opcode::LI);
    li.fields[F::LI::rd] = reg;
    li.fields[F::LI::imm] = stream.rem;
    emitInst(li);
  }
  nest = std::move(n);
  LogicalResult result = encodeLoop(op);
  nest.reset();
  release(regs);
  return result;
}

LogicalResult Encoder::openLoop(Operation *op, int64_t count, Operation *&head, int64_t &start) {
  if (depth == 4)
    return op->emitOpError() << "would open a fifth hardware loop; LOOP nests 4 deep";
  isa::Inst i = inst(isa::Opcode::LOOP);
  i.fields[F::LOOP::rc] = 0;
  i.fields[F::LOOP::count] = count;
  i.fields[F::LOOP::body] = 1;
  head = emitInst(i);
  start = emitted;
  ++depth;
  return success();
}

LogicalResult Encoder::closeLoop(Operation *op, Operation *head, int64_t start) {
  --depth;
  int64_t body = emitted - start;
  if (body < 1 || body > isa::limit::LOOP::body_max)
    return op->emitOpError() << "body encodes to " << body << " instructions; LOOP's body field "
                             << "holds 1 to " << isa::limit::LOOP::body_max;
  head->setAttr("body", b.getI64IntegerAttr(body));
  return success();
}

int64_t Encoder::hoistInvariantConfigs(Operation *head, int64_t headIndex, size_t first) {
  std::map<int, int> kinds;
  for (size_t k = first; k < configs.size(); ++k)
    if (!configs[k].locked)
      ++kinds[configs[k].opcode];
    else
      kinds[configs[k].opcode] += 2;  // also sent inside an inner loop
  int64_t moved = 0;
  for (size_t k = first; k < configs.size(); ++k) {
    Sent &c = configs[k];
    if (c.locked || kinds[c.opcode] != 1)
      continue;
    // Instructions [headIndex, c.index) move one down.
    int64_t at = c.index;
    c.op->moveBefore(head);
    if (lastDmaOut >= headIndex && lastDmaOut < at)
      ++lastDmaOut;
    for (size_t j = first; j < configs.size(); ++j)
      if (j != k && configs[j].index >= headIndex && configs[j].index < at)
        ++configs[j].index;
    c.index = headIndex++;
    ++moved;
  }
  // What stays is in this loop's body for good.
  for (size_t k = first; k < configs.size(); ++k)
    if (configs[k].index >= headIndex)
      configs[k].locked = true;
  return moved;
}

LogicalResult Encoder::encodeLoop(emit::HwLoopOp op) {
  loc = op.getLoc();
  Operation *head;
  int64_t start;
  if (failed(openLoop(op, int64_t(op.getCount()), head, start)))
    return failure();
  config.clear();
  size_t firstConfig = configs.size();
  SmallVector<emit::HwLoopOp> inner;
  for (Operation &x : op.getBody().front()) {
    auto l = dyn_cast<emit::HwLoopOp>(x);
    if (l)
      inner.push_back(l);
    if (failed(l ? encodeLoop(l) : lower(&x)))
      return failure();
  }
  // A word the body sends once is the same in every iteration: it goes
  // before the LOOP, and the body starts with the engine holding it.
  start += hoistInvariantConfigs(head, start - 1, firstConfig);
  loc = op.getLoc();
  auto indexOf = [&](emit::HwLoopOp l) {
    return int64_t(llvm::find(nest->loops, l.getOperation()) - nest->loops.begin());
  };
  int64_t self = indexOf(op);
  for (auto &[stream, reg] : nest->regs) {
    int64_t add = stream.stepIn(self);
    for (emit::HwLoopOp l : inner)
      add -= int64_t(l.getCount()) * stream.stepIn(indexOf(l));
    if (!add)
      continue;
    if (add < INT32_MIN || add > INT32_MAX)
      return op.emitOpError() << "advances an address by " << add
                              << " bytes, more than a 32-bit immediate holds";
    isa::Inst i = inst(isa::Opcode::ALUI);
    i.fields[F::ALUI::func] = int64_t(isa::AluFunc::ADD);
    i.fields[F::ALUI::rd] = reg;
    i.fields[F::ALUI::rs1] = reg;
    i.fields[F::ALUI::imm] = add;
    emitInst(i);
  }
  return closeLoop(op, head, start);
}
