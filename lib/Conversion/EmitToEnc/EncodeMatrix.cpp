//===- EncodeMatrix.cpp - MATRIX --------------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// emit.matmul (MM_CFG, then MATMUL, or a LOOP of them for a repeated product)
// and emit.drain (MM_CFG, MM_RQ_CFG, MM_OUT).
//
//===----------------------------------------------------------------------===//

#include "Encoder.h"

using namespace npuc;
using namespace npuc::encode;

LogicalResult Encoder::drain(emit::DrainOp op) {
  auto at = cast<BufferType>(op.getA().getType()), dt = cast<BufferType>(op.getD().getType());
  FailureOr<Addr> a = address(op, op.getA()), d = address(op, op.getD());
  if (failed(a) || failed(d))
    return failure();
  FailureOr<Addr> bias = Addr{}, params = Addr{};
  if (op.getBias() && failed(bias = address(op, op.getBias())))
    return failure();
  if (op.getParams() && failed(params = address(op, op.getParams())))
    return failure();
  if (a->byte % t.params.MatrixAlign || d->byte % t.params.VectorAlign)
    return op.emitOpError() << "accumulators at " << a->byte << " or destination at " << d->byte
                            << " are not " << t.params.MatrixAlign << "- and "
                            << t.params.VectorAlign << "-byte aligned";
  int64_t ldc = at.getStrides()[0], ldd = dt.getStrides()[0];
  if (ldc > isa::limit::MM_CFG::ldc_max || ldd > isa::limit::MM_RQ_CFG::ldd_max)
    return op.emitOpError() << "row pitches " << ldc << " and " << ldd
                            << " exceed the mm_cfg and mm_rq_cfg fields ("
                            << isa::limit::MM_CFG::ldc_max << ")";
  // The accumulators' pitch is MM_CFG's ldc; keep the operand pitches the
  // engine holds, so a product after the drain needs no new configuration.
  isa::Inst cfg = inst(isa::Opcode::MM_CFG);
  if (auto it = config.find(uint8_t(isa::Opcode::MM_CFG)); it != config.end())
    cfg = it->second;
  cfg.fields[F::MM_CFG::ldc] = ldc;
  configure(cfg);
  isa::Inst rq = inst(isa::Opcode::MM_RQ_CFG);
  namespace R = F::MM_RQ_CFG;
  rq.fields[R::ldd] = ldd;
  if (!op.getParams()) {
    rq.fields[R::mult] = op.getMult(), rq.fields[R::ls] = op.getLs(), rq.fields[R::rs] = op.getRs();
    rq.fields[R::zp] = op.getZp(), rq.fields[R::lo] = op.getLo(), rq.fields[R::hi] = op.getHi();
  } else if (auto it = config.find(uint8_t(isa::Opcode::MM_RQ_CFG)); it != config.end()) {
    // A table gives the parameters: keep the per-tensor ones the engine holds.
    rq = it->second;
    rq.fields[R::ldd] = ldd;
  }
  configure(rq);
  isa::Inst i = inst(isa::Opcode::MM_OUT);
  namespace M = F::MM_OUT;
  i.fields[M::otype] = dtype(dt.getElementType());
  i.fields[M::pmode] = !op.getParams() ? int64_t(isa::PMode::TENSOR)
                       : op.getPerRow() ? int64_t(isa::PMode::ROW)
                                        : int64_t(isa::PMode::COL);
  i.fields[M::bias] = op.getBias() ? 1 : 0;
  i.fields[M::bias_row] = op.getBiasPerRow() ? 1 : 0;
  std::tie(i.fields[M::a_addr], i.fields[M::a_reg]) = local(*a);
  std::tie(i.fields[M::d_addr], i.fields[M::d_reg]) = local(*d);
  if (op.getParams())
    std::tie(i.fields[M::p_addr], i.fields[M::p_reg]) = local(*params);
  if (op.getBias())
    std::tie(i.fields[M::b_addr], i.fields[M::b_reg]) = local(*bias);
  i.fields[M::m] = at.getShape()[0];
  i.fields[M::n] = at.getShape()[1];
  emitInst(i);
  return success();
}

LogicalResult Encoder::matmul(emit::MatmulOp op) {
  auto at = cast<BufferType>(op.getA().getType()), bt = cast<BufferType>(op.getB().getType()),
       ct = cast<BufferType>(op.getC().getType());
  FailureOr<Addr> a = address(op, op.getA()), bb = address(op, op.getB()), c = address(op, op.getC());
  if (failed(a) || failed(bb) || failed(c))
    return failure();
  for (Addr x : {*a, *bb, *c})
    if (x.byte % t.params.MatrixAlign)
      return op.emitOpError() << "operand at " << x.byte << " is not " << t.params.MatrixAlign
                              << "-byte aligned";
  for (int64_t pitch : {at.getStrides()[0], bt.getStrides()[0], ct.getStrides()[0]})
    if (pitch > isa::limit::MM_CFG::lda_max)
      return op.emitOpError() << "row pitch " << pitch << " exceeds the mm_cfg field ("
                              << isa::limit::MM_CFG::lda_max << ")";
  isa::Inst cfg = inst(isa::Opcode::MM_CFG);
  namespace C = F::MM_CFG;
  cfg.fields[C::lda] = at.getStrides()[0];
  cfg.fields[C::ldb] = bt.getStrides()[0];
  cfg.fields[C::ldc] = ct.getStrides()[0];
  cfg.fields[C::a_zp] = op.getAZp();
  cfg.fields[C::b_zp] = op.getBZp();
  configure(cfg);
  isa::MmMode mode = emit::matrixMode(at.getElementType(), bt.getElementType());
  // A repeated product: three registers borrowed for the loop's scope hold
  // the byte offsets of a, b and c, advanced after each matmul. In a
  // hardware loop they start from the enclosing loop's register, if any.
  int64_t count = int64_t(op.getCount());
  SmallVector<int64_t, 3> regs;
  const Addr *operands[3] = {&*a, &*bb, &*c};
  Operation *head = nullptr;
  int64_t start = 0;
  if (count > 1) {
    if (failed(borrow(op, 3, regs)))
      return failure();
    for (auto [r, x] : llvm::zip(regs, operands)) {
      if (x->reg) {
        isa::Inst mv = inst(isa::Opcode::ALU);
        mv.fields[F::ALU::func] = int64_t(isa::AluFunc::ADD);
        mv.fields[F::ALU::rd] = r;
        mv.fields[F::ALU::rs1] = x->reg;
        mv.fields[F::ALU::rs2] = 0;
        emitInst(mv);
        continue;
      }
      isa::Inst li = inst(isa::Opcode::LI);
      li.fields[F::LI::rd] = r;
      li.fields[F::LI::imm] = 0;
      emitInst(li);
    }
    if (failed(openLoop(op, count, head, start)))
      return failure();
  }
  isa::Inst i = inst(isa::Opcode::MATMUL);
  namespace M = F::MATMUL;
  if (count > 1) {
    i.fields[M::a_reg] = regs[0];
    i.fields[M::b_reg] = regs[1];
    i.fields[M::c_reg] = regs[2];
  } else {
    i.fields[M::a_reg] = a->reg;
    i.fields[M::b_reg] = bb->reg;
    i.fields[M::c_reg] = c->reg;
  }
  i.fields[M::mode] = int64_t(mode);
  i.fields[M::acc] = op.getAccumulate();
  i.fields[M::a_addr] = a->byte / isa::kGranuleBytes;
  i.fields[M::b_addr] = bb->byte / isa::kGranuleBytes;
  i.fields[M::c_addr] = c->byte / isa::kGranuleBytes;
  i.fields[M::m] = at.getShape()[0];
  i.fields[M::k] = at.getShape()[1];
  i.fields[M::n] = bt.getShape()[1];
  emitInst(i);
  if (count > 1) {
    int64_t steps[3] = {int64_t(op.getAStep()), int64_t(op.getBStep()), int64_t(op.getCStep())};
    for (int k = 0; k < 3; ++k) {
      isa::Inst add = inst(isa::Opcode::ALUI);
      add.fields[F::ALUI::func] = int64_t(isa::AluFunc::ADD);
      add.fields[F::ALUI::rd] = regs[size_t(k)];
      add.fields[F::ALUI::rs1] = regs[size_t(k)];
      add.fields[F::ALUI::imm] = steps[k];
      emitInst(add);
    }
    release(regs);
    return closeLoop(op, head, start);
  }
  return success();
}
