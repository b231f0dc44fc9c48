//===- ExecuteIndexed.cpp - Indexed data movement (DMA_IN_GATHER) ----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The indexed DMA of npu-v1.md section 5: boxes of GM rows chosen by a list
// of int32 indices in LM, every index checked against the source tensor's
// rows before its row moves.
//
//===----------------------------------------------------------------------===//

#include "ExecStep.h"

#include <cstring>

using namespace npuc;
using namespace npuc::sim;

namespace {
/// The name of the tensor or graph value that holds GM byte `addr` of
/// `region`, or a description of the address when none does.
std::string tensorAt(const model::Model &m, unsigned region, uint64_t addr) {
  auto covers = [&](const model::TensorDesc &t) {
    return t.region == region && addr >= t.offset && addr < t.offset + std::max<uint64_t>(t.spanBytes(), 1);
  };
  for (const model::TensorDesc &t : m.tensors)
    if (covers(t))
      return "'" + t.name + "'";
  for (const model::ValueDesc &v : m.values)
    if (covers(v.t))
      return "'" + v.t.name + "'";
  return "at " + std::string(isa::lookupEnum("Region")->values[region]) + " offset " + std::to_string(addr);
}
/// The box descriptor of an indexed DMA: extents n0..n3 (n3 the list's
/// length), the LM-side and GM-side strides, from the engine's shape and
/// stride registers (`lmSource`: the source strides are LM's).
struct IndexedBox {
  int64_t n[4], lm[4], gm[4];
};

IndexedBox readBox(Machine &m, const ExecStep &x, bool in, unsigned esize) {
  const isa::Inst &shape = x.config(in ? Opcode::DMA_IN_SHAPE : Opcode::DMA_OUT_SHAPE, true);
  const isa::Inst &sst = x.config(in ? Opcode::DMA_IN_SSTRIDE : Opcode::DMA_OUT_SSTRIDE, false);
  const isa::Inst &dst = x.config(in ? Opcode::DMA_IN_DSTRIDE : Opcode::DMA_OUT_DSTRIDE, false);
  IndexedBox b;
  for (int i = 0; i < 4; ++i) {
    b.n[i] = shape[i];
    int64_t ss = sst.desc ? sst[i] : 0, ds = dst.desc ? dst[i] : 0;
    b.gm[i] = in ? ss : ds;
    b.lm[i] = in ? ds : ss;
    if ((b.n[i] > 1 || i == 3) && (ss % int64_t(esize) || ds % int64_t(esize)))
      m.fail("misaligned access: " + x.where() + " moves " + std::to_string(esize) +
             "-byte elements with a stride of dimension " + std::to_string(i) + " that is not a multiple of " +
             std::to_string(esize));
  }
  return b;
}

/// The index list of `listOp` (DMA_IN_IDX or DMA_OUT_IDX), each entry checked
/// against its `rows` before any row moves (the GM tensor at `region`,
/// `base` is named in the fault).
std::vector<int32_t> readList(Machine &m, const ExecStep &x, Opcode listOp, int64_t count, unsigned region,
                              uint64_t base, const char *verb) {
  const isa::Inst &list = x.config(listOp, true);
  // Fields 0..2 of both list instructions: idx_reg, idx_addr, rows.
  int64_t rows = list[2];
  uint64_t addr = x.address(list[1] * isa::kGranuleBytes, list[0]);
  x.aligned(addr, 4, "its index list");
  const uint8_t *p = m.access(LM, addr, uint64_t(count) * 4, false, x.dynId, "its index list");
  std::vector<int32_t> ids(static_cast<size_t>(count));
  std::memcpy(ids.data(), p, size_t(count) * 4);
  for (int64_t i = 0; i < count; ++i)
    if (ids[size_t(i)] < 0 || ids[size_t(i)] >= rows)
      m.fail("index out of range: " + x.where() + " " + verb + " row " + std::to_string(ids[size_t(i)]) + " (entry " +
             std::to_string(i) + " of its index list) of tensor " + tensorAt(m.model, region, base) +
             ", which has " + std::to_string(rows) + " rows");
  return ids;
}
} // namespace

/// DMA_IN_GATHER: for each index of the DMA_IN_IDX list, the box of that row.
uint64_t Machine::executeGather(const ExecStep &x) {
  namespace G = isa::field::DMA_IN_GATHER;
  const isa::Inst &in = x.in;
  unsigned srcSpace = unsigned(in[G::src_region]);
  uint64_t srcBase = x.address(in[G::src_off], in[G::src_reg]);
  uint64_t dstBase = x.local(in[G::dst_addr], in[G::dst_reg]);
  unsigned esize = 1u << in[G::elem];
  x.aligned(srcBase, esize, "its source");
  x.aligned(dstBase, esize, "its destination");
  IndexedBox b = readBox(*this, x, true, esize);
  checkWork(uint64_t(b.n[0]) * uint64_t(b.n[1]) * uint64_t(b.n[2]) * uint64_t(b.n[3]) + uint64_t(b.n[3]), x.q.pc);
  std::vector<int32_t> ids = readList(*this, x, Opcode::DMA_IN_IDX, b.n[3], srcSpace, srcBase, "reads");
  bool runs = b.gm[0] == int64_t(esize) && b.lm[0] == int64_t(esize);
  for (int64_t i = 0; i < b.n[3]; ++i)
    for (int64_t i2 = 0; i2 < b.n[2]; ++i2)
      for (int64_t i1 = 0; i1 < b.n[1]; ++i1) {
        uint64_t from = srcBase + uint64_t(ids[size_t(i)] * b.gm[3] + i2 * b.gm[2] + i1 * b.gm[1]);
        uint64_t to = dstBase + uint64_t(i * b.lm[3] + i2 * b.lm[2] + i1 * b.lm[1]);
        int64_t count = runs ? 1 : b.n[0];
        uint64_t len = runs ? uint64_t(b.n[0]) * esize : esize;
        for (int64_t i0 = 0; i0 < count; ++i0) {
          const uint8_t *src = access(srcSpace, from + uint64_t(i0 * b.gm[0]), len, false, x.dynId, "its source");
          std::memcpy(access(LM, to + uint64_t(i0 * b.lm[0]), len, true, x.dynId, "its destination"), src, len);
        }
      }
  timing::GMAccess box;
  box.elemBytes = esize;
  for (int i = 0; i < 3; ++i) {
    box.extent[size_t(i)] = b.n[i];
    box.stride[size_t(i)] = b.gm[i];
  }
  stats.gmBytesRead += timing::dataBytes(box) * uint64_t(b.n[3]);
  timing::DmaTimeline::Transfer xfer =
      dma.start(timing::DmaTimeline::In, x.start, timing::gatherBusBytes(x.tp, box, uint64_t(b.n[3])));
  return xfer.done - x.start;
}

/// DMA_OUT_SCATTER: for each index of the DMA_OUT_IDX list, in order, the
/// entry's box combined into that row.
uint64_t Machine::executeScatter(const ExecStep &x) {
  namespace S = isa::field::DMA_OUT_SCATTER;
  namespace I = isa::field::DMA_OUT_IDX;
  const isa::Inst &in = x.in;
  unsigned dstSpace = unsigned(in[S::dst_region]);
  uint64_t srcBase = x.local(in[S::src_addr], in[S::src_reg]);
  uint64_t dstBase = x.address(in[S::dst_off], in[S::dst_reg]);
  unsigned esize = 1u << in[S::elem];
  x.aligned(srcBase, esize, "its source");
  x.aligned(dstBase, esize, "its destination");
  IndexedBox b = readBox(*this, x, false, esize);
  const isa::Inst &list = x.config(Opcode::DMA_OUT_IDX, true);
  auto func = isa::ScatterFunc(list[I::func]);
  int64_t t = list[I::dtype];
  if (func != isa::ScatterFunc::NONE && exec::dtypeSize(t) != esize)
    fail(x.where() + " combines " + std::to_string(exec::dtypeSize(t)) + "-byte values in " +
         std::to_string(esize) + "-byte elements");
  checkWork(uint64_t(b.n[0]) * uint64_t(b.n[1]) * uint64_t(b.n[2]) * uint64_t(b.n[3]) + uint64_t(b.n[3]), x.q.pc);
  std::vector<int32_t> ids = readList(*this, x, Opcode::DMA_OUT_IDX, b.n[3], dstSpace, dstBase, "writes");
  for (int64_t i = 0; i < b.n[3]; ++i)
    for (int64_t i2 = 0; i2 < b.n[2]; ++i2)
      for (int64_t i1 = 0; i1 < b.n[1]; ++i1)
        for (int64_t i0 = 0; i0 < b.n[0]; ++i0) {
          uint64_t from = srcBase + uint64_t(i * b.lm[3] + i2 * b.lm[2] + i1 * b.lm[1] + i0 * b.lm[0]);
          uint64_t to = dstBase + uint64_t(ids[size_t(i)] * b.gm[3] + i2 * b.gm[2] + i1 * b.gm[1] + i0 * b.gm[0]);
          const uint8_t *src = access(LM, from, esize, false, x.dynId, "its source");
          if (func == isa::ScatterFunc::NONE) {
            std::memcpy(access(dstSpace, to, esize, true, x.dynId, "its destination"), src, esize);
            continue;
          }
          exec::Value u = exec::loadElem(src, t);
          exec::Value g = exec::loadElem(access(dstSpace, to, esize, false, x.dynId, "its destination"), t), r;
          bool f = exec::isFloat(t);
          switch (func) {
          case isa::ScatterFunc::ADD: f ? void(r.f = g.f + u.f) : void(r.i = g.i + u.i); break;
          case isa::ScatterFunc::MAX: f ? void(r.f = exec::fmaxNaN(g.f, u.f)) : void(r.i = std::max(g.i, u.i)); break;
          default: f ? void(r.f = exec::fminNaN(g.f, u.f)) : void(r.i = std::min(g.i, u.i)); break;
          }
          // Integers wrap to the element's width, floats round once (IEEE).
          exec::storeElem(access(dstSpace, to, esize, true, x.dynId, "its destination"), t, r);
        }
  timing::GMAccess box;
  box.elemBytes = esize;
  for (int i = 0; i < 3; ++i) {
    box.extent[size_t(i)] = b.n[i];
    box.stride[size_t(i)] = b.gm[i];
  }
  uint64_t rows = uint64_t(b.n[3]), data = timing::dataBytes(box) * rows;
  stats.gmBytesWritten += data;
  uint64_t bus = timing::gatherBusBytes(x.tp, box, rows);
  if (func != isa::ScatterFunc::NONE) {
    stats.gmBytesRead += data;
    bus *= 2;
  }
  timing::DmaTimeline::Transfer xfer = dma.start(timing::DmaTimeline::Out, x.start, bus);
  return xfer.done - x.start;
}
