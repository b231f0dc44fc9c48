//===- EncodeDma.cpp - DMA_IN and DMA_OUT -----------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// emit.dma: a copy between GM and LM, ACC or LUT as the DMA engines' shape and
// stride descriptors and the instruction that starts it.
//
//===----------------------------------------------------------------------===//

#include "Encoder.h"

using namespace npuc;
using namespace npuc::encode;

/// The ElemEnum code of `bytes`-byte elements (B1, B2, B4).
static int64_t elemCode(int64_t bytes) { return bytes == 1 ? 0 : bytes == 2 ? 1 : 2; }

LogicalResult Encoder::dma(emit::DmaOp op) {
  auto src = cast<BufferType>(op.getSrc().getType()), dst = cast<BufferType>(op.getDst().getType());
  bool in = src.isGlobal();
  FailureOr<Addr> sa = address(op, op.getSrc()), da = address(op, op.getDst());
  if (failed(sa) || failed(da))
    return failure();
  size_t rank = src.getShape().size();
  // Dimension 0 innermost in the ISA, outermost in buffer types.
  int64_t n[4] = {1, 1, 1, 1}, ss[4] = {0, 0, 0, 0}, ds[4] = {0, 0, 0, 0};
  int64_t lo[4] = {0, 0, 0, 0}, hi[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < rank; ++i) {
    size_t k = rank - 1 - i;
    n[i] = src.getShape()[k];
    ss[i] = src.getStrides()[k];
    ds[i] = dst.getStrides()[k];
    if (op.getPadLo()) {
      lo[i] = (*op.getPadLo())[k];
      hi[i] = (*op.getPadHi())[k];
    }
  }
  // Dimensions in the order the DMA moves them (timing::runOrder: the GM
  // side's smallest stride innermost), so a view that transposes (a tile
  // written back to NCHW channel by channel) moves whole runs.
  {
    timing::GMAccess gm;
    for (int i = 0; i < 4; ++i)
      gm.extent[size_t(i)] = n[i], gm.stride[size_t(i)] = in ? ss[i] : ds[i];
    std::array<int, 4> order = timing::runOrder(gm);
    int64_t t[5][4];
    for (int i = 0; i < 4; ++i) {
      int k = order[size_t(i)];
      t[0][i] = n[k], t[1][i] = ss[k], t[2][i] = ds[k], t[3][i] = lo[k], t[4][i] = hi[k];
    }
    for (int i = 0; i < 4; ++i)
      n[i] = t[0][i], ss[i] = t[1][i], ds[i] = t[2][i], lo[i] = t[3][i], hi[i] = t[4][i];
  }
  for (int i = 0; i < 4; ++i) {
    // One element: its stride moves nothing, and one past the field (a view
    // of a tensor larger than 128 MiB) is sent as 0.
    auto fits = [](int64_t v) {
      return v >= isa::limit::DMA_IN_SSTRIDE::s0_min && v <= isa::limit::DMA_IN_SSTRIDE::s0_max;
    };
    if (n[i] == 1 && !(fits(ss[i]) && fits(ds[i])))
      ss[i] = ds[i] = 0;
    if (n[i] > isa::limit::DMA_IN_SHAPE::n0_max)
      return op.emitOpError() << "extent " << n[i] << " exceeds the DMA extent field ("
                              << isa::limit::DMA_IN_SHAPE::n0_max << ")";
    for (int64_t s : {ss[i], ds[i]})
      if (s > isa::limit::DMA_IN_SSTRIDE::s0_max)
        return op.emitOpError() << "stride " << s << " exceeds the DMA stride field ("
                                << isa::limit::DMA_IN_SSTRIDE::s0_max << ")";
  }
  bool padded = op.getPadLo().has_value();
  using O = isa::Opcode;
  isa::Inst shape = inst(in ? O::DMA_IN_SHAPE : O::DMA_OUT_SHAPE);
  isa::Inst sstr = inst(in ? O::DMA_IN_SSTRIDE : O::DMA_OUT_SSTRIDE);
  isa::Inst dstr = inst(in ? O::DMA_IN_DSTRIDE : O::DMA_OUT_DSTRIDE);
  for (int i = 0; i < 4; ++i) {
    shape.fields[unsigned(i)] = n[i];
    sstr.fields[unsigned(i)] = ss[i];
    dstr.fields[unsigned(i)] = ds[i];
  }
  configure(shape);
  configure(sstr);
  configure(dstr);
  if (padded) {
    isa::Inst pad = inst(O::DMA_IN_PAD);
    for (int i = 0; i < 4; ++i) {
      pad.fields[F::DMA_IN_PAD::lo0 + unsigned(i)] = lo[i];
      pad.fields[F::DMA_IN_PAD::hi0 + unsigned(i)] = hi[i];
    }
    pad.fields[F::DMA_IN_PAD::fill] = *op.getFill();
    configure(pad);
  }
  int64_t elem = elemCode(src.getElementBytes());
  if (in) {
    auto [granule, reg] = local(*da);
    isa::Inst i = inst(O::DMA_IN_START);
    namespace D = F::DMA_IN_START;
    i.fields[D::src_region] = region(sa->space);
    i.fields[D::dst_space] = dmaDst(da->space);
    i.fields[D::elem] = elem;
    i.fields[D::pad] = padded;
    i.fields[D::dst_reg] = reg;
    i.fields[D::dst_addr] = granule;
    i.fields[D::src_off] = sa->byte;
    i.fields[D::src_reg] = sa->reg;
    emitInst(i);
  } else {
    auto [granule, reg] = local(*sa);
    isa::Inst i = inst(O::DMA_OUT_START);
    namespace D = F::DMA_OUT_START;
    i.fields[D::src_space] = spaceField(sa->space);
    i.fields[D::src_reg] = reg;
    i.fields[D::dst_region] = region(da->space);
    i.fields[D::elem] = elem;
    i.fields[D::src_addr] = granule;
    i.fields[D::dst_off] = da->byte;
    i.fields[D::dst_reg] = da->reg;
    emitInst(i);
  }
  return success();
}

/// The shape and stride descriptors of an indexed DMA on engine DMA_IN
/// (`in`) or DMA_OUT: the table's row box innermost, the list's length in
/// dimension 3 with the table's row stride and the lm rows' pitch.
LogicalResult Encoder::indexedDescriptor(Operation *op, BufferType table, BufferType rows, bool in) {
  size_t rank = table.getShape().size();
  int64_t n[4] = {1, 1, 1, 1}, gm[4] = {0, 0, 0, 0}, lm[4] = {0, 0, 0, 0};
  for (size_t i = 0; i + 1 < rank; ++i) {
    size_t k = rank - 1 - i;
    n[i] = table.getShape()[k];
    gm[i] = table.getStrides()[k];
    lm[i] = rows.getStrides()[k];
  }
  n[3] = rows.getShape()[0];
  gm[3] = table.getStrides()[0];
  lm[3] = rows.getStrides()[0];
  // A dimension of one element moves nothing by its stride: one past the
  // field (a row box [1, B] of a table larger than 128 MiB) is sent as 0.
  for (int i = 0; i < 3; ++i)
    if (n[i] == 1 && (std::abs(gm[i]) > isa::limit::DMA_IN_SSTRIDE::s0_max ||
                      std::abs(lm[i]) > isa::limit::DMA_IN_SSTRIDE::s0_max))
      gm[i] = lm[i] = 0;
  for (int i = 0; i < 4; ++i) {
    if (n[i] > isa::limit::DMA_IN_SHAPE::n0_max)
      return op->emitOpError() << "extent " << n[i] << " exceeds the DMA extent field ("
                               << isa::limit::DMA_IN_SHAPE::n0_max << ")";
    for (int64_t s : {gm[i], lm[i]})
      if (s > isa::limit::DMA_IN_SSTRIDE::s0_max || s < isa::limit::DMA_IN_SSTRIDE::s0_min)
        return op->emitOpError() << "stride " << s << " exceeds the DMA stride field ("
                                 << isa::limit::DMA_IN_SSTRIDE::s0_max << ")";
  }
  if (table.getShape()[0] > isa::limit::DMA_IN_IDX::rows_max)
    return op->emitOpError() << "a table of " << table.getShape()[0] << " rows exceeds the index bound field ("
                             << isa::limit::DMA_IN_IDX::rows_max << ")";
  using O = isa::Opcode;
  isa::Inst shape = inst(in ? O::DMA_IN_SHAPE : O::DMA_OUT_SHAPE);
  isa::Inst sstr = inst(in ? O::DMA_IN_SSTRIDE : O::DMA_OUT_SSTRIDE);
  isa::Inst dstr = inst(in ? O::DMA_IN_DSTRIDE : O::DMA_OUT_DSTRIDE);
  for (int i = 0; i < 4; ++i) {
    shape.fields[unsigned(i)] = n[i];
    sstr.fields[unsigned(i)] = in ? gm[i] : lm[i];
    dstr.fields[unsigned(i)] = in ? lm[i] : gm[i];
  }
  configure(shape);
  configure(sstr);
  configure(dstr);
  return success();
}

// The two list instructions share their first fields.
static_assert(F::DMA_IN_IDX::idx_reg == F::DMA_OUT_IDX::idx_reg &&
                  F::DMA_IN_IDX::idx_addr == F::DMA_OUT_IDX::idx_addr && F::DMA_IN_IDX::rows == F::DMA_OUT_IDX::rows,
              "dma_in_idx and dma_out_idx start with idx_reg, idx_addr, rows");

/// The list instruction `opc` for the index list at `list` over `table`'s
/// rows. The list's register is read when the gather or scatter issues, so
/// it must not be a register borrowed for one instruction (the next
/// operand's address could take it): the list starts on a granule, or its
/// address steps in a loop register.
FailureOr<isa::Inst> Encoder::indexList(Operation *op, isa::Opcode opc, const Addr &list, BufferType table) {
  if (!list.reg && list.byte % isa::kGranuleBytes != 0)
    return op->emitOpError() << "index list at lm byte " << list.byte << " does not start on a "
                             << isa::kGranuleBytes << "-byte granule";
  auto [granule, reg] = local(list);
  isa::Inst i = inst(opc);
  i.fields[F::DMA_IN_IDX::idx_reg] = reg;
  i.fields[F::DMA_IN_IDX::idx_addr] = granule;
  i.fields[F::DMA_IN_IDX::rows] = table.getShape()[0];
  return i;
}

LogicalResult Encoder::gather(emit::GatherOp op) {
  auto table = cast<BufferType>(op.getTable().getType()), dst = cast<BufferType>(op.getDst().getType());
  FailureOr<Addr> ta = address(op, op.getTable()), ia = address(op, op.getIndices()), da = address(op, op.getDst());
  if (failed(ta) || failed(ia) || failed(da) || failed(indexedDescriptor(op, table, dst, true)))
    return failure();
  FailureOr<isa::Inst> list = indexList(op, isa::Opcode::DMA_IN_IDX, *ia, table);
  if (failed(list))
    return failure();
  configure(*list);
  using O = isa::Opcode;
  auto [granule, reg] = local(*da);
  isa::Inst i = inst(O::DMA_IN_GATHER);
  namespace G = F::DMA_IN_GATHER;
  i.fields[G::src_region] = region(ta->space);
  i.fields[G::src_reg] = ta->reg;
  i.fields[G::src_off] = ta->byte;
  i.fields[G::elem] = elemCode(table.getElementBytes());
  i.fields[G::dst_reg] = reg;
  i.fields[G::dst_addr] = granule;
  emitInst(i);
  return success();
}

LogicalResult Encoder::scatter(emit::ScatterOp op) {
  auto table = cast<BufferType>(op.getTable().getType()), src = cast<BufferType>(op.getSrc().getType());
  FailureOr<Addr> ta = address(op, op.getTable()), ia = address(op, op.getIndices()), sa = address(op, op.getSrc());
  if (failed(ta) || failed(ia) || failed(sa) || failed(indexedDescriptor(op, table, src, false)))
    return failure();
  FailureOr<isa::Inst> list = indexList(op, isa::Opcode::DMA_OUT_IDX, *ia, table);
  if (failed(list))
    return failure();
  list->fields[F::DMA_OUT_IDX::func] = int64_t(op.getFunc());
  list->fields[F::DMA_OUT_IDX::dtype] = dtype(table.getElementType());
  configure(*list);
  using O = isa::Opcode;
  auto [granule, reg] = local(*sa);
  isa::Inst i = inst(O::DMA_OUT_SCATTER);
  namespace S = F::DMA_OUT_SCATTER;
  i.fields[S::src_reg] = reg;
  i.fields[S::src_addr] = granule;
  i.fields[S::dst_region] = region(ta->space);
  i.fields[S::dst_reg] = ta->reg;
  i.fields[S::dst_off] = ta->byte;
  i.fields[S::elem] = elemCode(table.getElementBytes());
  emitInst(i);
  return success();
}
