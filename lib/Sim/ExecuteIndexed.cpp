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
} // namespace

/// DMA_IN_GATHER: for each index of the DMA_IN_IDX list, the box of that row.
uint64_t Machine::executeGather(const ExecStep &x) {
  namespace G = isa::field::DMA_IN_GATHER;
  namespace I = isa::field::DMA_IN_IDX;
  const isa::Inst &in = x.in;
  unsigned srcSpace = unsigned(in[G::src_region]);
  uint64_t srcBase = x.address(in[G::src_off], in[G::src_reg]);
  uint64_t dstBase = x.local(in[G::dst_addr], in[G::dst_reg]);
  unsigned esize = 1u << in[G::elem];
  x.aligned(srcBase, esize, "its source");
  x.aligned(dstBase, esize, "its destination");
  const isa::Inst &shape = x.config(Opcode::DMA_IN_SHAPE, true);
  const isa::Inst &sst = x.config(Opcode::DMA_IN_SSTRIDE, false);
  const isa::Inst &dst = x.config(Opcode::DMA_IN_DSTRIDE, false);
  const isa::Inst &list = x.config(Opcode::DMA_IN_IDX, true);
  int64_t n[4], ss[4], ds[4];
  for (int i = 0; i < 4; ++i) {
    n[i] = shape[i];
    ss[i] = sst.desc ? sst[i] : 0;
    ds[i] = dst.desc ? dst[i] : 0;
    if ((n[i] > 1 || i == 3) && (ss[i] % int64_t(esize) || ds[i] % int64_t(esize)))
      fail("misaligned access: " + x.where() + " moves " + std::to_string(esize) +
           "-byte elements with a stride of dimension " + std::to_string(i) + " that is not a multiple of " +
           std::to_string(esize));
  }
  int64_t rows = list[I::rows];
  uint64_t listAddr = x.address(list[I::idx_addr] * isa::kGranuleBytes, list[I::idx_reg]);
  x.aligned(listAddr, 4, "its index list");
  checkWork(uint64_t(n[0]) * uint64_t(n[1]) * uint64_t(n[2]) * uint64_t(n[3]) + uint64_t(n[3]), x.q.pc);
  const uint8_t *ids = access(LM, listAddr, uint64_t(n[3]) * 4, false, x.dynId, "its index list");
  for (int64_t i = 0; i < n[3]; ++i) {
    int32_t k;
    std::memcpy(&k, ids + 4 * i, 4);
    if (k < 0 || k >= rows)
      fail("index out of range: " + x.where() + " reads row " + std::to_string(k) + " (entry " +
           std::to_string(i) + " of its index list) of tensor " + tensorAt(model, srcSpace, srcBase) + ", which has " +
           std::to_string(rows) + " rows");
    for (int64_t i2 = 0; i2 < n[2]; ++i2)
      for (int64_t i1 = 0; i1 < n[1]; ++i1) {
        uint64_t from = srcBase + uint64_t(k * ss[3] + i2 * ss[2] + i1 * ss[1]);
        uint64_t to = dstBase + uint64_t(i * ds[3] + i2 * ds[2] + i1 * ds[1]);
        if (ss[0] == int64_t(esize) && ds[0] == int64_t(esize)) {
          uint64_t len = uint64_t(n[0]) * esize;
          const uint8_t *src = access(srcSpace, from, len, false, x.dynId, "its source");
          std::memcpy(access(LM, to, len, true, x.dynId, "its destination"), src, len);
          continue;
        }
        for (int64_t i0 = 0; i0 < n[0]; ++i0) {
          const uint8_t *src = access(srcSpace, from + uint64_t(i0 * ss[0]), esize, false, x.dynId, "its source");
          std::memcpy(access(LM, to + uint64_t(i0 * ds[0]), esize, true, x.dynId, "its destination"), src, esize);
        }
      }
  }
  timing::GMAccess box;
  box.elemBytes = esize;
  for (int i = 0; i < 3; ++i) {
    box.extent[size_t(i)] = n[i];
    box.stride[size_t(i)] = ss[i];
  }
  stats.gmBytesRead += timing::dataBytes(box) * uint64_t(n[3]);
  timing::DmaTimeline::Transfer xfer =
      dma.start(timing::DmaTimeline::In, x.start, timing::gatherBusBytes(x.tp, box, uint64_t(n[3])));
  return xfer.done - x.start;
}
