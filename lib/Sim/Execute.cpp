//===- Execute.cpp - DMA and MATRIX semantics -----------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Each function performs one engine instruction bit-exactly (docs/numerics.md)
// and returns its duration in cycles under the target's timing model: the
// dispatch, DMA and MATRIX here, VECTOR in ExecuteVector.cpp.
//
//===----------------------------------------------------------------------===//

#include "ExecStep.h"

using namespace npuc;
using namespace npuc::sim;
using namespace npuc::sim::exec;

namespace {
/// sum(a[i] * b[i]) of zero-point-adjusted int8 values held as int16 (the
/// pattern compilers turn into pmaddwd); exact, as |a|, |b| <= 383 and
/// n <= 4095 keep the sum inside int32.
__attribute__((target_clones("avx2", "default"))) int32_t dotI16(const int16_t *a,
                                                                const int16_t *b, int64_t n) {
  int32_t sum = 0;
  for (int64_t i = 0; i < n; ++i)
    sum += int32_t(a[i]) * int32_t(b[i]);
  return sum;
}
} // namespace

uint64_t Machine::execute(EngineId e, const Queued &q, uint32_t dynId, uint64_t start) {
  ExecStep x{*this, e, q, dynId, start, engines[e], q.inst, target.params};
  switch (Opcode(q.inst.desc->opcode)) {
  case Opcode::DMA_IN_SHAPE:
  case Opcode::DMA_OUT_SHAPE:
  case Opcode::DMA_IN_SSTRIDE:
  case Opcode::DMA_OUT_SSTRIDE:
  case Opcode::DMA_IN_DSTRIDE:
  case Opcode::DMA_OUT_DSTRIDE:
  case Opcode::DMA_IN_PAD:
  case Opcode::DMA_IN_IDX:
  case Opcode::DMA_OUT_IDX:
  case Opcode::MM_CFG:
  case Opcode::MM_RQ_CFG:
  case Opcode::V_SHAPE:
  case Opcode::V_RQ_CFG:
  case Opcode::V_DW_CFG:
  case Opcode::MM_DW_CFG:
    engines[e].config[q.inst.desc->opcode] = q.inst;
    return timing::kIssueCycles;
  case Opcode::DMA_IN_START:
  case Opcode::DMA_OUT_START:
    return executeDma(x);
  case Opcode::DMA_IN_GATHER:
    return executeGather(x);
  case Opcode::DMA_OUT_SCATTER:
    return executeScatter(x);
  case Opcode::MATMUL:
    return executeMatmul(x);
  case Opcode::MM_OUT:
    return executeOutputStage(x);
  case Opcode::MM_DW:
    return executeArrayDepthwise(x);
  default:
    return executeVector(x);
  }
}

/// DMA_IN_START and DMA_OUT_START: a 4-D strided copy, padded on DMA_IN.
uint64_t Machine::executeDma(const ExecStep &x) {
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] const Queued &q = x.q;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  bool isIn = Opcode(in.desc->opcode) == Opcode::DMA_IN_START;
  unsigned srcSpace, dstSpace;
  uint64_t srcBase, dstBase;
  int64_t elemCode;
  bool pad = false;
  if (isIn) {
    srcSpace = unsigned(in[F::DMA_IN_START::src_region]);
    srcBase = x.address(in[F::DMA_IN_START::src_off], in[F::DMA_IN_START::src_reg]);
    dstSpace = LM + unsigned(in[F::DMA_IN_START::dst_space]);
    dstBase = x.local(in[F::DMA_IN_START::dst_addr], in[F::DMA_IN_START::dst_reg]);
    elemCode = in[F::DMA_IN_START::elem];
    pad = in[F::DMA_IN_START::pad];
  } else {
    srcSpace = LM + unsigned(in[F::DMA_OUT_START::src_space]);
    srcBase = x.local(in[F::DMA_OUT_START::src_addr], in[F::DMA_OUT_START::src_reg]);
    dstSpace = unsigned(in[F::DMA_OUT_START::dst_region]);
    dstBase = x.address(in[F::DMA_OUT_START::dst_off], in[F::DMA_OUT_START::dst_reg]);
    elemCode = in[F::DMA_OUT_START::elem];
  }
  unsigned esize = 1u << elemCode;
  x.aligned(srcBase, esize, "its source");
  x.aligned(dstBase, esize, "its destination");
  // Fields 0..3 of the shape and stride instructions are dimensions 0..3.
  const isa::Inst &shape = x.config(isIn ? Opcode::DMA_IN_SHAPE : Opcode::DMA_OUT_SHAPE, true);
  const isa::Inst &sst = x.config(isIn ? Opcode::DMA_IN_SSTRIDE : Opcode::DMA_OUT_SSTRIDE, false);
  const isa::Inst &dst = x.config(isIn ? Opcode::DMA_IN_DSTRIDE : Opcode::DMA_OUT_DSTRIDE, false);
  const isa::Inst &padding = x.config(Opcode::DMA_IN_PAD, pad);
  int64_t n[4], sstride[4], dstride[4], box[4], lo[4] = {}, hi[4] = {};
  for (int i = 0; i < 4; ++i) {
    n[i] = shape[i];
    sstride[i] = sst.desc ? sst[i] : 0;
    dstride[i] = dst.desc ? dst[i] : 0;
    if (pad) {
      lo[i] = padding[F::DMA_IN_PAD::lo0 + i];
      hi[i] = padding[F::DMA_IN_PAD::hi0 + i];
    }
    box[i] = n[i] + lo[i] + hi[i];
  }
  uint32_t fill = pad ? uint32_t(padding[F::DMA_IN_PAD::fill]) : 0;
  // Every element must be aligned to its size: with an aligned base, that
  // is every stride of a dimension that has more than one element.
  for (int i = 0; i < 4; ++i)
    if ((box[i] > 1 && dstride[i] % int64_t(esize)) || (n[i] > 1 && sstride[i] % int64_t(esize)))
      fail("misaligned access: " + x.where() + " moves " + std::to_string(esize) +
           "-byte elements with a stride of dimension " + std::to_string(i) +
           " that is not a multiple of " + std::to_string(esize));
  // Padded boxes reach 66045^4 > 2^64: count in 128 bits and saturate so
  // the work check cannot be bypassed by a wrapped product.
  unsigned __int128 boxElements = 1;
  for (int64_t extent : box)
    boxElements *= uint64_t(extent);
  checkWork(uint64_t(std::min<unsigned __int128>(boxElements, UINT64_MAX)), q.pc);
  uint8_t fillBytes[4];
  for (unsigned b = 0; b < 4; ++b)
    fillBytes[b] = uint8_t(fill >> (8 * b));
  // Rows (dimension 0) contiguous on both sides move as one access each:
  // the same bytes, checked and copied a run at a time.
  bool runs = dstride[0] == int64_t(esize) && (n[0] <= 1 || sstride[0] == int64_t(esize));
  for (int64_t i3 = 0; i3 < box[3]; ++i3)
    for (int64_t i2 = 0; i2 < box[2]; ++i2)
      for (int64_t i1 = 0; i1 < box[1]; ++i1) {
        if (runs) {
          int64_t c1 = i1 - lo[1], c2 = i2 - lo[2], c3 = i3 - lo[3];
          bool inside = c1 >= 0 && c1 < n[1] && c2 >= 0 && c2 < n[2] && c3 >= 0 && c3 < n[3] &&
                        n[0] > 0;
          const uint8_t *src = nullptr;
          if (inside)
            src = access(srcSpace,
                         srcBase + uint64_t(c1 * sstride[1] + c2 * sstride[2] + c3 * sstride[3]),
                         uint64_t(n[0]) * esize, false, dynId, "its source");
          uint8_t *dst = access(dstSpace,
                                dstBase + uint64_t(i1 * dstride[1] + i2 * dstride[2] + i3 * dstride[3]),
                                uint64_t(box[0]) * esize, true, dynId, "its destination");
          int64_t from = inside ? lo[0] : box[0], to = inside ? lo[0] + n[0] : box[0];
          for (int64_t i0 = 0; i0 < box[0]; ++i0)
            if (i0 < from || i0 >= to)
              std::memcpy(dst + i0 * esize, fillBytes, esize);
          if (inside)
            std::memcpy(dst + from * esize, src, size_t(n[0]) * esize);
          continue;
        }
        // A source row contiguous and entirely inside (the destination is
        // strided: an image stored channels innermost) is read as one access.
        int64_t c1 = i1 - lo[1], c2 = i2 - lo[2], c3 = i3 - lo[3];
        if (sstride[0] == int64_t(esize) && lo[0] == 0 && hi[0] == 0 && n[0] > 0 && c1 >= 0 &&
            c1 < n[1] && c2 >= 0 && c2 < n[2] && c3 >= 0 && c3 < n[3]) {
          const uint8_t *src = access(srcSpace,
                                      srcBase + uint64_t(c1 * sstride[1] + c2 * sstride[2] + c3 * sstride[3]),
                                      uint64_t(n[0]) * esize, false, dynId, "its source");
          for (int64_t i0 = 0; i0 < n[0]; ++i0) {
            int64_t d = i0 * dstride[0] + i1 * dstride[1] + i2 * dstride[2] + i3 * dstride[3];
            std::memcpy(access(dstSpace, dstBase + uint64_t(d), esize, true, dynId, "its destination"),
                        src + i0 * esize, esize);
          }
          continue;
        }
        for (int64_t i0 = 0; i0 < box[0]; ++i0) {
          int64_t d = i0 * dstride[0] + i1 * dstride[1] + i2 * dstride[2] + i3 * dstride[3];
          int64_t c[4] = {i0 - lo[0], i1 - lo[1], i2 - lo[2], i3 - lo[3]};
          bool inside = true;
          for (int k = 0; k < 4; ++k)
            inside = inside && c[k] >= 0 && c[k] < n[k];
          uint8_t tmp[4];
          if (inside) {
            int64_t so = c[0] * sstride[0] + c[1] * sstride[1] + c[2] * sstride[2] +
                         c[3] * sstride[3];
            std::memcpy(tmp, access(srcSpace, srcBase + uint64_t(so), esize, false, dynId, "its source"),
                        esize);
          } else {
            for (unsigned b = 0; b < esize; ++b)
              tmp[b] = uint8_t(fill >> (8 * b));
          }
          std::memcpy(access(dstSpace, dstBase + uint64_t(d), esize, true, dynId, "its destination"),
                      tmp, esize);
        }
      }
  // The GM side (the source of DMA_IN, without the padding it fills; the
  // destination of DMA_OUT) decides the bus time (timing::busBytes).
  timing::GMAccess gm;
  gm.elemBytes = esize;
  for (int i = 0; i < 4; ++i) {
    gm.extent[i] = n[i];
    gm.stride[i] = isIn ? sstride[i] : dstride[i];
  }
  (isIn ? stats.gmBytesRead : stats.gmBytesWritten) += timing::dataBytes(gm);
  timing::DmaTimeline::Transfer xfer = dma.start(isIn ? timing::DmaTimeline::In : timing::DmaTimeline::Out,
                                 x.start, timing::busBytes(tp, gm));
  return xfer.done - x.start;
}

/// MATMUL: exact integer or IEEE float products into ACC.
uint64_t Machine::executeMatmul(const ExecStep &x) {
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] const Queued &q = x.q;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  namespace M = F::MATMUL;
  int64_t mode = in[M::mode], m = in[M::m], n = in[M::n], k = in[M::k];
  bool accumulate = in[M::acc];
  const isa::Inst &cfg = x.config(Opcode::MM_CFG, true);
  int64_t lda = cfg[F::MM_CFG::lda], ldb = cfg[F::MM_CFG::ldb], ldc = cfg[F::MM_CFG::ldc];
  int64_t azp = cfg[F::MM_CFG::a_zp], bzp = cfg[F::MM_CFG::b_zp];
  uint64_t a = x.local(in[M::a_addr], in[M::a_reg]), b = x.local(in[M::b_addr], in[M::b_reg]);
  uint64_t c = x.local(in[M::c_addr], in[M::c_reg]);
  checkWork(uint64_t(m) * uint64_t(n) * uint64_t(k), q.pc);
  x.aligned(a, uint64_t(tp.MatrixAlign), "matrix A");
  x.aligned(b, uint64_t(tp.MatrixAlign), "matrix B");
  x.aligned(c, uint64_t(tp.MatrixAlign), "matrix C");
  ModeTypes mt = modeTypes(mode);
  bool isFloatMode = mt.isFloat;
  unsigned esize = mt.bytes;
  bool aSigned = mt.a == int64_t(DType::I8), bSigned = mt.b == int64_t(DType::I8);
  if (isFloatMode && (azp || bzp))
    fail(x.where() + " runs a float matmul with non-zero zero points");
  std::vector<const uint8_t *> arow(static_cast<size_t>(m)), brow(static_cast<size_t>(k));
  for (int64_t i = 0; i < m; ++i)
    arow[i] = access(LM, a + uint64_t(i * lda), uint64_t(k) * esize, false, dynId, "matrix A");
  for (int64_t i = 0; i < k; ++i)
    brow[i] = access(LM, b + uint64_t(i * ldb), uint64_t(n) * esize, false, dynId, "matrix B");
  std::vector<uint8_t *> crow(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) {
    if (accumulate)
      access(ACC, c + uint64_t(i * ldc), uint64_t(n) * 4, false, dynId, "matrix C");
    crow[i] = access(ACC, c + uint64_t(i * ldc), uint64_t(n) * 4, true, dynId, "matrix C");
  }
  if (!isFloatMode) {
    // B transposed, both operands zero-point adjusted into int16.
    std::vector<int16_t> bt(static_cast<size_t>(k * n)), ai(static_cast<size_t>(k));
    for (int64_t kk = 0; kk < k; ++kk)
      for (int64_t j = 0; j < n; ++j)
        bt[j * k + kk] = int16_t((bSigned ? int64_t(int8_t(brow[kk][j])) : brow[kk][j]) - bzp);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t kk = 0; kk < k; ++kk)
        ai[kk] = int16_t((aSigned ? int64_t(int8_t(arow[i][kk])) : arow[i][kk]) - azp);
      for (int64_t j = 0; j < n; ++j) {
        int64_t v = dotI16(ai.data(), bt.data() + j * k, k);
        if (accumulate)
          v += loadElem(crow[i] + 4 * j, int64_t(DType::I32)).i;
        if (v < INT32_MIN || v > INT32_MAX)
          fail("accumulator overflow: " + x.where() + " computes " + std::to_string(v) +
               " at C[" + std::to_string(i) + "][" + std::to_string(j) + "], outside int32");
        storeElem(crow[i] + 4 * j, int64_t(DType::I32), Value{v, 0});
      }
    }
  } else {
    // Operands converted once (B transposed), then each dot product in
    // ascending k, one IEEE product and one sum per step (docs/numerics.md).
    int64_t et = mt.a;
    std::vector<float> bt(static_cast<size_t>(k * n)), ai(static_cast<size_t>(k));
    for (int64_t kk = 0; kk < k; ++kk)
      for (int64_t j = 0; j < n; ++j)
        bt[size_t(j * k + kk)] = loadElem(brow[kk] + j * esize, et).f;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t kk = 0; kk < k; ++kk)
        ai[size_t(kk)] = loadElem(arow[i] + kk * esize, et).f;
      for (int64_t j = 0; j < n; ++j) {
        float sum = accumulate ? loadElem(crow[i] + 4 * j, int64_t(DType::F32)).f : 0.0f;
        const float *b = bt.data() + j * k;
        for (int64_t kk = 0; kk < k; ++kk) {
          float p = ai[size_t(kk)] * b[kk];
          sum = sum + p;
        }
        storeElem(crow[i] + 4 * j, int64_t(DType::F32), Value{0, sum});
      }
    }
  }
  uint64_t macs = uint64_t(m * n * k);
  stats.macs += macs;
  return timing::matmulCycles(tp, isa::MmMode(mode), m, n, k);
}

/// MM_DW: the array's depthwise mode; V_DW's sums, into ACC, timed as the
/// array's passes (one channel per column, the taps down it).
uint64_t Machine::executeArrayDepthwise(const ExecStep &x) {
  const isa::Inst &in = x.in;
  namespace D = F::MM_DW;
  namespace W = F::MM_DW_CFG;
  namespace C = F::MM_CFG;
  const isa::Inst &mm = x.config(Opcode::MM_CFG, true);
  const isa::Inst &cfg = x.config(Opcode::MM_DW_CFG, true);
  WindowStep w;
  w.kh = cfg[W::kh], w.kw = cfg[W::kw], w.sh = cfg[W::sh], w.sw = cfg[W::sw];
  w.dh = cfg[W::dh], w.dw = cfg[W::dw], w.orows = cfg[W::orows];
  w.lda = mm[C::lda], w.azp = mm[C::a_zp], w.bzp = mm[C::b_zp];
  w.mode = in[D::mode];
  w.accumulate = in[D::acc];
  w.bias = in[D::bias], w.relu = in[D::relu];
  w.a = x.local(in[D::a_addr], in[D::a_reg]), w.b = x.local(in[D::b_addr], in[D::b_reg]);
  w.d = x.local(in[D::d_addr], in[D::d_reg]);
  if (w.bias)
    w.e = x.local(in[D::e_addr], in[D::e_reg]);
  w.dSpace = ACC;
  w.rows = in[D::channels], w.cols = in[D::cols];
  w.apitch = cfg[W::a_pitch], w.bpitch = mm[C::ldb], w.dpitch = mm[C::ldc];
  w.epitch = cfg[W::e_pitch];
  w.pt = cfg[W::pt], w.pl = cfg[W::pl], w.ih = cfg[W::ih], w.iw = cfg[W::iw];
  windowSums(x, w);
  return timing::arrayDepthwiseCycles(x.tp, isa::MmMode(w.mode), w.rows, w.kh * w.kw,
                                      w.orows * w.cols);
}

/// MM_OUT: the MATRIX output stage, ACC to LM.
uint64_t Machine::executeOutputStage(const ExecStep &x) {
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] const Queued &q = x.q;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  // The output stage: int32 accumulators (rows mm_cfg.ldc apart), plus an
  // int32 bias, requantized and cast into LM (rows mm_rq_cfg.ldd apart).
  namespace O = F::MM_OUT;
  int64_t ot = in[O::otype], pmode = in[O::pmode], m = in[O::m], n = in[O::n];
  bool bias = in[O::bias], biasRow = in[O::bias_row];
  if (isFloat(ot) || ot == int64_t(DType::I32))
    fail(x.where() + ": the output stage writes 8- or 16-bit integers");
  int64_t ldc = x.config(Opcode::MM_CFG, true)[F::MM_CFG::ldc];
  int64_t ldd = x.config(Opcode::MM_RQ_CFG, true)[F::MM_RQ_CFG::ldd];
  uint64_t a = x.local(in[O::a_addr], in[O::a_reg]), d = x.local(in[O::d_addr], in[O::d_reg]);
  uint64_t table = x.local(in[O::p_addr], in[O::p_reg]), b = x.local(in[O::b_addr], in[O::b_reg]);
  checkWork(uint64_t(m) * uint64_t(n), q.pc);
  x.aligned(a, uint64_t(tp.MatrixAlign), "its accumulators");
  x.aligned(d, uint64_t(tp.VectorAlign), "its destination");
  bool perRow = pmode == int64_t(isa::PMode::ROW);
  // Parameters and biases read once per column (per row with ROW), not per element.
  int64_t entries = pmode == int64_t(isa::PMode::TENSOR) ? 1 : perRow ? m : n;
  std::vector<num::RequantParams> params(static_cast<size_t>(entries));
  for (int64_t i = 0; i < entries; ++i)
    params[size_t(i)] = x.requantParams(pmode, Opcode::MM_RQ_CFG, table, i, ot);
  std::vector<int64_t> biases(bias ? size_t(biasRow ? m : n) : 0);
  for (size_t i = 0; i < biases.size(); ++i)
    biases[i] = loadElem(access(LM, b + uint64_t(i) * 4, 4, false, dynId, "its bias"),
                         int64_t(DType::I32)).i;
  unsigned es = dtypeSize(ot);
  for (int64_t r = 0; r < m; ++r) {
    const uint8_t *acc = access(ACC, a + uint64_t(r * ldc), uint64_t(n) * 4, false, dynId,
                                "its accumulators");
    uint8_t *out = access(LM, d + uint64_t(r * ldd), uint64_t(n) * es, true, dynId,
                          "its destination");
    for (int64_t c = 0; c < n; ++c) {
      int64_t x = loadElem(acc + 4 * c, int64_t(DType::I32)).i;
      if (bias)
        x = num::saturate(x + biases[size_t(biasRow ? r : c)], INT32_MIN, INT32_MAX);
      Value y;
      y.i = num::requantize(int32_t(x), params[entries == 1 ? 0 : size_t(perRow ? r : c)]);
      storeElem(out + c * es, ot, y);
    }
  }
  return timing::drainCycles(tp, m, n);
}
