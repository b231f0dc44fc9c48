//===- Execute.cpp - DMA, MATRIX and VECTOR semantics ---------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Each function performs one engine instruction bit-exactly (docs/numerics.md)
// and returns its duration in cycles under the target's timing model.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Base/Timing.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace npuc;
using namespace npuc::sim;
namespace F = npuc::isa::field;
using isa::DType;
using isa::Opcode;

namespace {

unsigned dtypeSize(int64_t t) {
  static const unsigned size[] = {1, 1, 2, 4, 2, 4};
  return size[t];
}
bool isFloat(int64_t t) { return t == int64_t(DType::F16) || t == int64_t(DType::F32); }

std::pair<int64_t, int64_t> intRange(int64_t t) {
  switch (DType(t)) {
  case DType::I8: return {-128, 127};
  case DType::U8: return {0, 255};
  case DType::I16: return {-32768, 32767};
  default: return {INT32_MIN, INT32_MAX};
  }
}

/// What a MATRIX (and V_DW) mode reads: the element types of its operands a
/// and b, their bytes, and whether it computes in float.
struct ModeTypes {
  int64_t a, b;
  unsigned bytes;
  bool isFloat;
};
ModeTypes modeTypes(int64_t mode) {
  switch (isa::MmMode(mode)) {
  case isa::MmMode::F16: return {int64_t(DType::F16), int64_t(DType::F16), 2, true};
  case isa::MmMode::F32: return {int64_t(DType::F32), int64_t(DType::F32), 4, true};
  case isa::MmMode::I8I8: return {int64_t(DType::I8), int64_t(DType::I8), 1, false};
  case isa::MmMode::I8U8: return {int64_t(DType::I8), int64_t(DType::U8), 1, false};
  case isa::MmMode::U8I8: return {int64_t(DType::U8), int64_t(DType::I8), 1, false};
  default: return {int64_t(DType::U8), int64_t(DType::U8), 1, false};
  }
}

/// Scalar view of one element: integers exactly in int64, floats in f32.
struct Value {
  int64_t i = 0;
  float f = 0;
};

Value loadElem(const uint8_t *p, int64_t t) {
  Value v;
  switch (DType(t)) {
  case DType::I8: v.i = int8_t(p[0]); break;
  case DType::U8: v.i = p[0]; break;
  case DType::I16: v.i = int16_t(uint16_t(p[0] | (p[1] << 8))); break;
  case DType::I32: {
    uint32_t u;
    std::memcpy(&u, p, 4);
    v.i = int32_t(u);
    break;
  }
  case DType::F16: v.f = num::halfToFloat(uint16_t(p[0] | (p[1] << 8))); break;
  case DType::F32: std::memcpy(&v.f, p, 4); break;
  }
  return v;
}

void storeElem(uint8_t *p, int64_t t, Value v) {
  switch (DType(t)) {
  case DType::I8:
  case DType::U8: p[0] = uint8_t(v.i); break;
  case DType::I16: p[0] = uint8_t(v.i); p[1] = uint8_t(v.i >> 8); break;
  case DType::I32: {
    uint32_t u = uint32_t(int32_t(v.i));
    std::memcpy(p, &u, 4);
    break;
  }
  case DType::F16: {
    uint16_t h = num::floatToHalf(v.f);
    p[0] = uint8_t(h);
    p[1] = uint8_t(h >> 8);
    break;
  }
  case DType::F32: std::memcpy(p, &v.f, 4); break;
  }
}

template <typename T> bool compareValues(isa::CmpFunc func, T x, T y) {
  switch (func) {
  case isa::CmpFunc::EQ: return x == y;
  case isa::CmpFunc::NE: return x != y;
  case isa::CmpFunc::LT: return x < y;
  case isa::CmpFunc::LE: return x <= y;
  case isa::CmpFunc::GT: return x > y;
  default: return x >= y;
  }
}

// NaN if either is NaN; of two zeros, MAX picks +0 and MIN -0.
float fmaxNaN(float a, float b) {
  if (a != a || b != b)
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
float fminNaN(float a, float b) {
  if (a != a || b != b)
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

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

/// What one engine instruction sees while it executes: its engine, its
/// operands' scalar registers as captured at dispatch, the engine's
/// descriptor registers, and the checks every instruction shares.
struct npuc::sim::ExecStep {
  Machine &m;
  EngineId e;
  const Queued &q;
  uint32_t dynId;
  uint64_t start;
  EngineState &s;
  const isa::Inst &in;
  const target::TargetParams &tp;

  // Addresses are an immediate plus a signed register, summed without
  // wrapping; a negative sum is out of bounds like any other address outside
  // a memory.
  uint64_t address(int64_t base, int64_t r) const {
    int64_t a = base + int64_t(q.regs[size_t(r)]);
    return a < 0 ? UINT64_MAX / 2 : uint64_t(a);
  }
  /// A local address field (granules) plus a register (bytes).
  uint64_t local(int64_t addr, int64_t r) const { return address(addr * isa::kGranuleBytes, r); }
  std::string where() const { return m.describe(q.pc) + " on " + isa::engineName(isa::Engine(e)); }
  void aligned(uint64_t addr, uint64_t align, const char *what) const {
    if (addr % align)
      m.fail("misaligned access: " + where() + " uses " + what + " at " + std::to_string(addr) +
             ", which is not " + std::to_string(align) + "-byte aligned");
  }
  /// Descriptor registers set by configuration instructions. A required one
  /// that was never set is a fault; strides and padding default to zero.
  const isa::Inst &config(Opcode op, bool required) const {
    const isa::Inst &c = s.config[uint8_t(op)];
    if (!c.desc && required)
      m.fail(where() + " runs before any " + isa::lookup(uint8_t(op))->mnemonic +
             " configured its engine");
    return c;
  }
  /// Requantization parameters (docs/isa.md, V_REQUANT and MM_OUT): per
  /// tensor from a configuration instruction whose fields 0..5 are mult, ls,
  /// rs, zp, lo, hi, or entry `index` of a 16-byte-per-entry table in LM.
  num::RequantParams requantParams(int64_t pmode, Opcode cfgOp, uint64_t table, int64_t index,
                                   int64_t otype) const {
    num::RequantParams p;
    if (pmode == int64_t(isa::PMode::TENSOR)) {
      const isa::Inst &rq = config(cfgOp, true);
      p = {int32_t(rq[0]), int(rq[1]), int(rq[2]), int32_t(rq[3]), int32_t(rq[4]), int32_t(rq[5])};
    } else {
      constexpr unsigned entry = num::kRequantEntryBytes;
      p = num::unpackRequantEntry(m.access(LM, table + uint64_t(index) * entry, entry, false,
                                           dynId, "its parameter table"));
      if (p.multiplier < 0 || p.ls > 31 || p.rs > 31)
        m.fail(where() + ": parameter table entry " + std::to_string(index) +
               " has a multiplier or shift outside its range");
    }
    auto [lo, hi] = intRange(otype);
    if (p.lo < lo || p.hi > hi || p.lo > p.hi)
      m.fail(where() + ": clamp [" + std::to_string(p.lo) + ", " + std::to_string(p.hi) +
             "] does not lie in the output type");
    return p;
  }
};
static_assert(F::V_RQ_CFG::mult == 0 && F::V_RQ_CFG::hi == 5 && F::MM_RQ_CFG::mult == 0 &&
                  F::MM_RQ_CFG::hi == 5,
              "requantParams reads fields 0..5 as mult, ls, rs, zp, lo, hi");

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
  case Opcode::MM_CFG:
  case Opcode::MM_RQ_CFG:
  case Opcode::V_SHAPE:
  case Opcode::V_RQ_CFG:
  case Opcode::V_DW_CFG:
    engines[e].config[q.inst.desc->opcode] = q.inst;
    return timing::kIssueCycles;
  case Opcode::DMA_IN_START:
  case Opcode::DMA_OUT_START:
    return executeDma(x);
  case Opcode::MATMUL:
    return executeMatmul(x);
  case Opcode::MM_OUT:
    return executeOutputStage(x);
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

namespace {

/// What a VECTOR instruction sees: the grid V_SHAPE set, and its operands.
struct VectorStep {
  Machine &m;
  const ExecStep &x;
  struct {
    int64_t rows, cols, apitch, bpitch, dpitch;
    bool abcast, bbcast;
  } grid;

  // Grid operands of VECTOR instructions.
  struct Operand {
    unsigned space;
    uint64_t base;
    int64_t pitch;
    bool bcast;
    int64_t type;
    // The row `at` checked last (one access per row, not per element).
    int64_t row = -1;
    bool rowWrite = false;
    uint8_t *rowPtr = nullptr;
  };
  Operand operand(int64_t space, int64_t addr, int64_t r, int64_t pitch, bool bcast, int64_t type,
                  const char *what) const {
    Operand o{LM + unsigned(space), x.local(addr, r), pitch, bcast, type};
    x.aligned(o.base, uint64_t(x.tp.VectorAlign), what);
    return o;
  }
  // Element (r, c) of an operand whose whole row the instruction touches: the
  // row is checked and marked once, when its first element is reached.
  uint8_t *at(Operand &o, int64_t r, int64_t c, bool write, const char *what) const {
    unsigned es = dtypeSize(o.type);
    if (o.row != r || o.rowWrite != write) {
      o.rowPtr = m.access(o.space, o.base + uint64_t(r * o.pitch),
                          o.bcast ? es : uint64_t(grid.cols) * es, write, x.dynId, what);
      o.row = r;
      o.rowWrite = write;
    }
    return o.rowPtr + (o.bcast ? 0 : c * int64_t(es));
  }
  // One element, for instructions that touch only some of a row's (a select)
  // or walk columns (a reduction along rows).
  uint8_t *atElem(const Operand &o, int64_t r, int64_t c, bool write, const char *what) const {
    uint64_t off = uint64_t(r * o.pitch + (o.bcast ? 0 : c) * int64_t(dtypeSize(o.type)));
    return m.access(o.space, o.base + off, dtypeSize(o.type), write, x.dynId, what);
  }
  uint64_t cost(unsigned bytesPerElem) const {
    return timing::vectorCycles(x.tp, uint64_t(grid.rows * grid.cols), bytesPerElem);
  }
  void needFloat(int64_t t, bool want, const char *what) const {
    if (isFloat(t) != want)
      m.fail(x.where() + ": " + what + (want ? " needs a float type" : " needs an integer type"));
  }
};

/// V_BIN and V_BINI: d = func(a, b) or func(a, imm).
uint64_t vectorBinary(Machine &m, const ExecStep &x, VectorStep &vx) {
  using Operand = VectorStep::Operand;
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  bool imm = Opcode(in.desc->opcode) == Opcode::V_BINI;
  int64_t func = in[0], t = in[1];
  Operand A, B{}, D;
  uint32_t immBits = 0;
  if (!imm) {
    namespace V = F::V_BIN;
    A = vx.operand(in[V::a_space], in[V::a_addr], in[V::a_reg], vx.grid.apitch, vx.grid.abcast, t, "operand a");
    B = vx.operand(in[V::b_space], in[V::b_addr], in[V::b_reg], vx.grid.bpitch, vx.grid.bbcast, t, "operand b");
    D = vx.operand(in[V::d_space], in[V::d_addr], in[V::d_reg], vx.grid.dpitch, false, t, "operand d");
  } else {
    namespace V = F::V_BINI;
    A = vx.operand(in[V::a_space], in[V::a_addr], in[V::a_reg], vx.grid.apitch, vx.grid.abcast, t, "operand a");
    D = vx.operand(in[V::d_space], in[V::d_addr], in[V::d_reg], vx.grid.dpitch, false, t, "operand d");
    immBits = uint32_t(in[V::imm]);
  }
  auto f = isa::VBinFunc(func);
  bool bitwise = f == isa::VBinFunc::AND || f == isa::VBinFunc::OR || f == isa::VBinFunc::XOR ||
                 f == isa::VBinFunc::SHL || f == isa::VBinFunc::SRA;
  if (bitwise)
    vx.needFloat(t, false, "a bitwise or shift function");
  auto [lo, hi] = intRange(t);
  for (int64_t r = 0; r < vx.grid.rows; ++r)
    for (int64_t c = 0; c < vx.grid.cols; ++c) {
      Value a = loadElem(vx.at(A, r, c, false, "operand a"), t), b;
      if (imm) {
        b.i = int32_t(immBits);
        std::memcpy(&b.f, &immBits, 4);
      } else {
        b = loadElem(vx.at(B, r, c, false, "operand b"), t);
      }
      Value d;
      if (isFloat(t)) {
        switch (f) {
        case isa::VBinFunc::ADD: d.f = a.f + b.f; break;
        case isa::VBinFunc::SUB: d.f = a.f - b.f; break;
        case isa::VBinFunc::MUL: d.f = a.f * b.f; break;
        case isa::VBinFunc::DIV: d.f = a.f / b.f; break;
        case isa::VBinFunc::MAX: d.f = fmaxNaN(a.f, b.f); break;
        case isa::VBinFunc::MIN: d.f = fminNaN(a.f, b.f); break;
        default: break;
        }
      } else {
        int64_t v = 0;
        switch (f) {
        case isa::VBinFunc::ADD: v = a.i + b.i; break;
        case isa::VBinFunc::SUB: v = a.i - b.i; break;
        case isa::VBinFunc::MUL: v = a.i * b.i; break;
        case isa::VBinFunc::DIV:
          if (b.i == 0)
            m.fail("division by zero: " + x.where() + " at element (" + std::to_string(r) + ", " +
                 std::to_string(c) + ")");
          v = a.i / b.i;
          break;
        case isa::VBinFunc::MAX: v = std::max(a.i, b.i); break;
        case isa::VBinFunc::MIN: v = std::min(a.i, b.i); break;
        case isa::VBinFunc::AND: v = a.i & b.i; break;
        case isa::VBinFunc::OR: v = a.i | b.i; break;
        case isa::VBinFunc::XOR: v = a.i ^ b.i; break;
        case isa::VBinFunc::SHL: v = a.i * (int64_t(1) << (b.i & 31)); break;
        case isa::VBinFunc::SRA: v = a.i >> (b.i & 31); break;
        }
        d.i = num::saturate(v, lo, hi);
      }
      storeElem(vx.at(D, r, c, true, "operand d"), t, d);
    }
  return vx.cost(dtypeSize(t));
}

/// V_UN: d = func(a).
uint64_t vectorUnary(Machine &m, const ExecStep &x, VectorStep &vx) {
  using Operand = VectorStep::Operand;
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  namespace V = F::V_UN;
  int64_t func = in[V::func], t = in[V::dtype];
  Operand A = vx.operand(in[V::a_space], in[V::a_addr], in[V::a_reg], vx.grid.apitch, vx.grid.abcast, t, "operand a");
  Operand D = vx.operand(in[V::d_space], in[V::d_addr], in[V::d_reg], vx.grid.dpitch, false, t, "operand d");
  auto f = isa::VUnFunc(func);
  if (!isFloat(t) && f >= isa::VUnFunc::SQRT)
    m.fail(x.where() + ": a transcendental or root function needs a float type");
  auto [lo, hi] = intRange(t);
  for (int64_t r = 0; r < vx.grid.rows; ++r)
    for (int64_t c = 0; c < vx.grid.cols; ++c) {
      Value a = loadElem(vx.at(A, r, c, false, "operand a"), t), d;
      if (isFloat(t)) {
        float x = a.f;
        switch (f) {
        case isa::VUnFunc::COPY: d.f = x; break;
        case isa::VUnFunc::NEG: d.f = -x; break;
        case isa::VUnFunc::ABS: d.f = std::fabs(x); break;
        case isa::VUnFunc::SIGN: d.f = x != x ? x : x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f; break;
        case isa::VUnFunc::RELU: d.f = x > 0 ? x : (x != x ? x : 0.0f); break;
        case isa::VUnFunc::FLOOR: d.f = std::floor(x); break;
        case isa::VUnFunc::CEIL: d.f = std::ceil(x); break;
        case isa::VUnFunc::ROUND: d.f = num::roundHalfEven(x); break;
        case isa::VUnFunc::SQRT: d.f = num::sqrtF(x); break;
        case isa::VUnFunc::RSQRT: d.f = num::rsqrtF(x); break;
        case isa::VUnFunc::RECIP: d.f = num::recipF(x); break;
        case isa::VUnFunc::EXP: d.f = num::expF(x); break;
        case isa::VUnFunc::LOG: d.f = num::logF(x); break;
        case isa::VUnFunc::TANH: d.f = num::tanhF(x); break;
        case isa::VUnFunc::SIGMOID: d.f = num::sigmoidF(x); break;
        case isa::VUnFunc::ERF: d.f = num::erfF(x); break;
        }
      } else {
        int64_t x = a.i, v = x;
        switch (f) {
        case isa::VUnFunc::NEG: v = -x; break;
        case isa::VUnFunc::ABS: v = x < 0 ? -x : x; break;
        case isa::VUnFunc::SIGN: v = x > 0 ? 1 : x < 0 ? -1 : 0; break;
        case isa::VUnFunc::RELU: v = x > 0 ? x : 0; break;
        default: break;  // COPY, FLOOR, CEIL, ROUND: identity on integers
        }
        d.i = num::saturate(v, lo, hi);
      }
      storeElem(vx.at(D, r, c, true, "operand d"), t, d);
    }
  return vx.cost(dtypeSize(t));
}

/// V_REQUANT: int32 to a narrow integer.
uint64_t vectorRequant(Machine &m, const ExecStep &x, VectorStep &vx) {
  using Operand = VectorStep::Operand;
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  namespace V = F::V_REQUANT;
  int64_t ot = in[V::otype], pmode = in[V::pmode];
  vx.needFloat(ot, false, "requantization output");
  Operand A = vx.operand(in[V::a_space], in[V::a_addr], in[V::a_reg], vx.grid.apitch, vx.grid.abcast,
                      int64_t(DType::I32), "operand a");
  Operand D = vx.operand(in[V::d_space], in[V::d_addr], in[V::d_reg], vx.grid.dpitch, false, ot, "operand d");
  uint64_t table = x.local(in[V::p_addr], in[V::p_reg]);
  // Parameters read once per column (COL) or row (ROW), not per element.
  int64_t entries = pmode == int64_t(isa::PMode::TENSOR) ? 1
                    : pmode == int64_t(isa::PMode::COL)  ? vx.grid.cols
                                                         : vx.grid.rows;
  std::vector<num::RequantParams> params(static_cast<size_t>(entries));
  for (int64_t i = 0; i < entries; ++i)
    params[size_t(i)] = x.requantParams(pmode, Opcode::V_RQ_CFG, table, i, ot);
  for (int64_t r = 0; r < vx.grid.rows; ++r)
    for (int64_t c = 0; c < vx.grid.cols; ++c) {
      const num::RequantParams &p = pmode == int64_t(isa::PMode::TENSOR) ? params[0]
                                    : pmode == int64_t(isa::PMode::COL)  ? params[size_t(c)]
                                                                         : params[size_t(r)];
      int64_t x = loadElem(vx.at(A, r, c, false, "operand a"), int64_t(DType::I32)).i;
      Value d;
      d.i = num::requantize(int32_t(x), p);
      storeElem(vx.at(D, r, c, true, "operand d"), ot, d);
    }
  return vx.cost(4);
}

/// V_LUT: table lookup, interpolated for 16-bit inputs.
uint64_t vectorLut(Machine &m, const ExecStep &x, VectorStep &vx) {
  using Operand = VectorStep::Operand;
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  namespace V = F::V_LUT;
  int64_t it = in[V::itype], ot = in[V::otype], table = in[V::table];
  if (isFloat(it) || isFloat(ot) || dtypeSize(it) > 2 || dtypeSize(ot) > 2)
    m.fail(x.where() + ": LUT input and output must be 8- or 16-bit integers");
  Operand A = vx.operand(in[V::a_space], in[V::a_addr], in[V::a_reg], vx.grid.apitch, vx.grid.abcast, it, "operand a");
  Operand D = vx.operand(in[V::d_space], in[V::d_addr], in[V::d_reg], vx.grid.dpitch, false, ot, "operand d");
  auto [lo, hi] = intRange(ot);
  uint64_t tbase = uint64_t(table) * uint64_t(tp.LUTEntries) * 2;
  auto entry = [&](int64_t i) {
    const uint8_t *p = m.access(LUT, tbase + uint64_t(i) * 2, 2, false, dynId, "its table");
    return int64_t(int16_t(uint16_t(p[0] | (p[1] << 8))));
  };
  for (int64_t r = 0; r < vx.grid.rows; ++r)
    for (int64_t c = 0; c < vx.grid.cols; ++c) {
      int64_t x = loadElem(vx.at(A, r, c, false, "operand a"), it).i, y;
      if (dtypeSize(it) == 1) {
        y = entry(x - intRange(it).first);
      } else {
        int64_t u = x + 32768, i = u >> 7, f = u & 127;
        int64_t t0 = entry(i), t1 = entry(std::min<int64_t>(i + 1, 511));
        y = t0 + num::roundingRightShift(int32_t((t1 - t0) * f), 7);
      }
      storeElem(vx.at(D, r, c, true, "operand d"), ot, Value{num::saturate(y, lo, hi), 0});
    }
  return vx.cost(std::max(dtypeSize(it), dtypeSize(ot)));
}

/// V_REDUCE: along rows or columns.
uint64_t vectorReduce(Machine &m, const ExecStep &x, VectorStep &vx) {
  using Operand = VectorStep::Operand;
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  namespace V = F::V_REDUCE;
  int64_t func = in[V::func], it = in[V::itype], ot = in[V::otype];
  bool cols = in[V::axis] == int64_t(isa::Axis::COLS);
  if (isFloat(it) != isFloat(ot))
    m.fail(x.where() + ": a reduction keeps floats float and integers integer");
  Operand A = vx.operand(in[V::a_space], in[V::a_addr], in[V::a_reg], vx.grid.apitch, vx.grid.abcast, it, "operand a");
  Operand D = vx.operand(in[V::d_space], in[V::d_addr], in[V::d_reg], vx.grid.dpitch, false, ot, "operand d");
  int64_t outer = cols ? vx.grid.rows : vx.grid.cols, inner = cols ? vx.grid.cols : vx.grid.rows;
  auto [lo, hi] = intRange(ot);
  for (int64_t o = 0; o < outer; ++o) {
    Value acc;
    bool first = true;
    for (int64_t i = 0; i < inner; ++i) {
      Value v = cols ? loadElem(vx.atElem(A, o, i, false, "operand a"), it)
                     : loadElem(vx.atElem(A, i, o, false, "operand a"), it);
      if (first) {
        acc = v;
        first = false;
        continue;
      }
      switch (isa::ReduceFunc(func)) {
      case isa::ReduceFunc::SUM: acc.i += v.i; acc.f = acc.f + v.f; break;
      case isa::ReduceFunc::MAX: acc.i = std::max(acc.i, v.i); acc.f = fmaxNaN(acc.f, v.f); break;
      case isa::ReduceFunc::MIN: acc.i = std::min(acc.i, v.i); acc.f = fminNaN(acc.f, v.f); break;
      }
    }
    if (!isFloat(ot) && (acc.i < lo || acc.i > hi))
      m.fail("accumulator overflow: " + x.where() + " reduces to " + std::to_string(acc.i) +
           ", outside its output type");
    storeElem(cols ? vx.atElem(D, o, 0, true, "operand d") : vx.atElem(D, 0, o, true, "operand d"), ot, acc);
  }
  return vx.cost(dtypeSize(it));
}

/// V_CAST: convert with rounding and saturation.
uint64_t vectorCast(Machine &m, const ExecStep &x, VectorStep &vx) {
  using Operand = VectorStep::Operand;
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  namespace V = F::V_CAST;
  int64_t it = in[V::itype], ot = in[V::otype];
  Operand A = vx.operand(in[V::a_space], in[V::a_addr], in[V::a_reg], vx.grid.apitch, vx.grid.abcast, it, "operand a");
  Operand D = vx.operand(in[V::d_space], in[V::d_addr], in[V::d_reg], vx.grid.dpitch, false, ot, "operand d");
  auto [lo, hi] = intRange(ot);
  for (int64_t r = 0; r < vx.grid.rows; ++r)
    for (int64_t c = 0; c < vx.grid.cols; ++c) {
      Value a = loadElem(vx.at(A, r, c, false, "operand a"), it), d;
      if (isFloat(ot)) {
        d.f = isFloat(it) ? a.f : float(a.i);  // int -> float rounds to nearest even
      } else if (isFloat(it)) {
        float x = num::roundHalfEven(a.f);
        d.i = x != x ? 0 : x <= float(lo) ? lo : x >= float(hi) ? hi : int64_t(x);
      } else {
        d.i = num::saturate(a.i, lo, hi);
      }
      storeElem(vx.at(D, r, c, true, "operand d"), ot, d);
    }
  return vx.cost(std::max(dtypeSize(it), dtypeSize(ot)));
}

/// V_DEQUANT and V_QUANT: V_CAST with the scale and zero point, in the f32
/// steps of the V_CAST and V_BINI sequence they replace.
uint64_t vectorQuant(Machine &m, const ExecStep &x, VectorStep &vx) {
  using Operand = VectorStep::Operand;
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  bool quant = Opcode(in.desc->opcode) == Opcode::V_QUANT;
  namespace Q = F::V_QUANT;
  namespace D = F::V_DEQUANT;
  static_assert(Q::a_space == D::a_space && Q::scale == D::scale && Q::zp == D::zp,
                "v_quant and v_dequant share their operand fields");
  int64_t f32 = int64_t(isa::DType::F32);
  int64_t it = quant ? f32 : in[D::itype], ot = quant ? in[Q::otype] : f32;
  if (isFloat(quant ? ot : it))
    m.fail(x.where() + (quant ? ": v_quant needs an integer otype" : ": v_dequant needs an integer itype"));
  Operand A = vx.operand(in[Q::a_space], in[Q::a_addr], in[Q::a_reg], vx.grid.apitch, vx.grid.abcast, it, "operand a");
  Operand Dst = vx.operand(in[Q::d_space], in[Q::d_addr], in[Q::d_reg], vx.grid.dpitch, false, ot, "operand d");
  uint32_t bits = uint32_t(in[Q::scale]);
  float scale, zp = float(in[Q::zp]);
  std::memcpy(&scale, &bits, 4);
  auto [lo, hi] = intRange(ot);
  for (int64_t r = 0; r < vx.grid.rows; ++r)
    for (int64_t c = 0; c < vx.grid.cols; ++c) {
      Value a = loadElem(vx.at(A, r, c, false, "operand a"), it), d;
      if (quant) {
        d.i = num::quantizeF32(a.f, scale, zp, lo, hi);
      } else {
        d.f = (float(a.i) - zp) * scale;
      }
      storeElem(vx.at(Dst, r, c, true, "operand d"), ot, d);
    }
  return vx.cost(std::max(dtypeSize(it), dtypeSize(ot)));
}

/// V_CMP: d = func(a, b) ? 1 : 0.
uint64_t vectorCompare(Machine &m, const ExecStep &x, VectorStep &vx) {
  using Operand = VectorStep::Operand;
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  namespace V = F::V_CMP;
  int64_t func = in[V::func], t = in[V::dtype];
  if (func >= int64_t(isa::CmpFunc::LTU))
    m.fail(x.where() + ": v_cmp has no unsigned comparisons");
  Operand A = vx.operand(in[V::a_space], in[V::a_addr], in[V::a_reg], vx.grid.apitch, vx.grid.abcast, t, "operand a");
  Operand B = vx.operand(in[V::b_space], in[V::b_addr], in[V::b_reg], vx.grid.bpitch, vx.grid.bbcast, t, "operand b");
  Operand D = vx.operand(in[V::d_space], in[V::d_addr], in[V::d_reg], vx.grid.dpitch, false,
                      int64_t(DType::I8), "operand d");
  for (int64_t r = 0; r < vx.grid.rows; ++r)
    for (int64_t c = 0; c < vx.grid.cols; ++c) {
      Value a = loadElem(vx.at(A, r, c, false, "operand a"), t);
      Value b = loadElem(vx.at(B, r, c, false, "operand b"), t);
      bool v = isFloat(t) ? compareValues(isa::CmpFunc(func), a.f, b.f)
                          : compareValues(isa::CmpFunc(func), a.i, b.i);
      storeElem(vx.at(D, r, c, true, "operand d"), int64_t(DType::I8), Value{v ? 1 : 0, 0});
    }
  return vx.cost(dtypeSize(t));
}

/// V_SEL: d = m ? a : b.
uint64_t vectorSelect(Machine &m, const ExecStep &x, VectorStep &vx) {
  using Operand = VectorStep::Operand;
  [[maybe_unused]] const isa::Inst &in = x.in;
  [[maybe_unused]] uint32_t dynId = x.dynId;
  [[maybe_unused]] const auto &tp = x.tp;
  namespace V = F::V_SEL;
  int64_t t = in[V::dtype];
  Operand A = vx.operand(in[V::a_space], in[V::a_addr], in[V::a_reg], vx.grid.apitch, vx.grid.abcast, t, "operand a");
  Operand B = vx.operand(in[V::b_space], in[V::b_addr], in[V::b_reg], vx.grid.bpitch, vx.grid.bbcast, t, "operand b");
  Operand D = vx.operand(in[V::d_space], in[V::d_addr], in[V::d_reg], vx.grid.dpitch, false, t, "operand d");
  Operand Mk = vx.operand(in[V::m_space], in[V::m_addr], in[V::m_reg], vx.grid.dpitch, false,
                       int64_t(DType::I8), "mask");
  for (int64_t r = 0; r < vx.grid.rows; ++r)
    for (int64_t c = 0; c < vx.grid.cols; ++c) {
      bool pick = loadElem(vx.atElem(Mk, r, c, false, "mask"), int64_t(DType::I8)).i != 0;
      Value v = pick ? loadElem(vx.atElem(A, r, c, false, "operand a"), t)
                     : loadElem(vx.atElem(B, r, c, false, "operand b"), t);
      storeElem(vx.atElem(D, r, c, true, "operand d"), t, v);
    }
  return vx.cost(dtypeSize(t));
}


/// V_DW: depthwise multiply-accumulate; rows of the grid are channels, its
/// columns one output row's pixels, V_DW_CFG the window.
uint64_t vectorDepthwise(Machine &m, const ExecStep &x, VectorStep &vx) {
  const isa::Inst &in = x.in;
  namespace V = F::V_DW;
  namespace C = F::V_DW_CFG;
  const isa::Inst &cfg = x.config(Opcode::V_DW_CFG, true);
  int64_t kh = cfg[C::kh], kw = cfg[C::kw], sh = cfg[C::sh], sw = cfg[C::sw];
  int64_t dh = cfg[C::dh], dw = cfg[C::dw], lda = cfg[C::lda], orows = cfg[C::orows];
  int64_t azp = cfg[C::a_zp], bzp = cfg[C::b_zp];
  int64_t mode = in[V::mode];
  bool accumulate = in[V::acc];
  ModeTypes mt = modeTypes(mode);
  bool isFloatMode = mt.isFloat;
  unsigned es = mt.bytes;
  int64_t et = mt.a, bt = mt.b;
  int64_t dt = isFloatMode ? int64_t(DType::F32) : int64_t(DType::I32);
  auto func = isa::WindowFunc(in[V::func]);
  bool mac = func == isa::WindowFunc::MAC;
  if (!mac)
    azp = bzp = 0;  // pooling reads the image as stored
  if (isFloatMode && (azp || bzp))
    m.fail(x.where() + " runs a float depthwise product with non-zero zero points");
  int64_t rows = vx.grid.rows, cols = vx.grid.cols, taps = kh * kw;
  bool bias = in[V::bias], relu = in[V::relu];
  if ((bias || relu) && (!isFloatMode || !mac))
    m.fail(x.where() + " adds a bias or a Relu outside a float multiply-accumulate");
  m.checkWork(uint64_t(rows) * uint64_t(orows) * uint64_t(cols) * uint64_t(taps), x.q.pc);
  uint64_t a = x.local(in[V::a_addr], in[V::a_reg]), b = x.local(in[V::b_addr], in[V::b_reg]);
  uint64_t d = x.local(in[V::d_addr], in[V::d_reg]);
  unsigned dSpace = LM + unsigned(in[V::d_space]);
  // The window reads the image at any tap, so only its element alignment
  // matters; the taps and the results start on the vector granule.
  x.aligned(a, es, "its image");
  if (mac)
    x.aligned(b, uint64_t(x.tp.VectorAlign), "its taps");
  x.aligned(d, uint64_t(x.tp.VectorAlign), "its results");
  // Per channel: the image rows the window reaches (each checked once), the
  // taps converted once, then every output in tap order.
  int64_t inRows = (orows - 1) * sh + (kh - 1) * dh + 1;
  int64_t width = (cols - 1) * sw + (kw - 1) * dw + 1;
  uint64_t inBytes = uint64_t(width) * es;
  std::vector<const uint8_t *> image(static_cast<size_t>(inRows));
  std::vector<int32_t> wi(static_cast<size_t>(taps)), ai(static_cast<size_t>(inRows * width));
  std::vector<float> wf(static_cast<size_t>(taps));
  for (int64_t r = 0; r < rows; ++r) {
    uint64_t ar = a + uint64_t(r * vx.grid.apitch);
    for (int64_t i = 0; i < inRows; ++i)
      image[size_t(i)] = m.access(LM, ar + uint64_t(i * lda), inBytes, false, x.dynId, "its image");
    if (mac) {
      const uint8_t *tp = m.access(LM, b + uint64_t(r * vx.grid.bpitch), uint64_t(taps) * es,
                                   false, x.dynId, "its taps");
      for (int64_t t = 0; t < taps; ++t) {
        Value w = loadElem(tp + t * es, bt);
        wi[size_t(t)] = int32_t(w.i - bzp);
        wf[size_t(t)] = w.f;
      }
    }
    float biasRow = 0.0f;
    if (bias) {
      uint64_t e = x.local(in[V::e_addr], in[V::e_reg]) + uint64_t(r * cfg[C::e_pitch]);
      if (r == 0)
        x.aligned(e, 4, "its bias");
      biasRow = loadElem(m.access(LM, e, 4, false, x.dynId, "its bias"), int64_t(DType::F32)).f;
    }
    uint64_t dr = d + uint64_t(r * vx.grid.dpitch);
    if (accumulate)
      m.access(dSpace, dr, uint64_t(orows * cols) * 4, false, x.dynId, "its results");
    uint8_t *out = m.access(dSpace, dr, uint64_t(orows * cols) * 4, true, x.dynId, "its results");
    if (mac && !isFloatMode) {
      for (int64_t i = 0; i < inRows; ++i)
        for (int64_t c = 0; c < width; ++c)
          ai[size_t(i * width + c)] = int32_t(loadElem(image[size_t(i)] + c * es, et).i - azp);
    }
    for (int64_t o = 0; o < orows; ++o)
      for (int64_t c = 0; c < cols; ++c) {
        uint8_t *dp = out + (o * cols + c) * 4;
        if (!mac) {
          // Pooling: the window's maximum or sum, from the first tap (or d).
          Value v;
          bool first = !accumulate;
          if (accumulate)
            v = loadElem(dp, dt);
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j) {
              Value a = loadElem(image[size_t(o * sh + i * dh)] + (c * sw + j * dw) * es, et);
              if (first) {
                v = a;
                first = false;
              } else if (func == isa::WindowFunc::MAX) {
                v.i = std::max(v.i, a.i);
                v.f = fmaxNaN(v.f, a.f);
              } else {
                v.i += a.i;
                v.f = v.f + a.f;
              }
            }
          if (!isFloatMode && (v.i < INT32_MIN || v.i > INT32_MAX))
            m.fail("accumulator overflow: " + x.where() + " computes " + std::to_string(v.i) +
                   " at d[" + std::to_string(r) + "][" + std::to_string(o * cols + c) +
                   "], outside int32");
          storeElem(dp, dt, v);
          continue;
        }
        if (!isFloatMode) {
          int64_t sum = accumulate ? loadElem(dp, dt).i : 0;
          for (int64_t i = 0; i < kh; ++i) {
            const int32_t *row = ai.data() + (o * sh + i * dh) * width + c * sw;
            for (int64_t j = 0; j < kw; ++j)
              sum += int64_t(row[j * dw]) * wi[size_t(i * kw + j)];
          }
          if (sum < INT32_MIN || sum > INT32_MAX)
            m.fail("accumulator overflow: " + x.where() + " computes " + std::to_string(sum) +
                   " at d[" + std::to_string(r) + "][" + std::to_string(o * cols + c) +
                   "], outside int32");
          storeElem(dp, dt, Value{sum, 0});
          continue;
        }
        float sum = accumulate ? loadElem(dp, dt).f : 0.0f;
        for (int64_t i = 0; i < kh; ++i)
          for (int64_t j = 0; j < kw; ++j) {
            const uint8_t *p = image[size_t(o * sh + i * dh)] + (c * sw + j * dw) * es;
            float prod = loadElem(p, et).f * wf[size_t(i * kw + j)];
            sum = sum + prod;
          }
        if (bias)
          sum = sum + biasRow;
        if (relu)
          sum = sum > 0 ? sum : (sum != sum ? sum : 0.0f);
        storeElem(dp, dt, Value{0, sum});
      }
  }
  uint64_t macs = uint64_t(rows * orows * cols * taps);
  m.stats.macs += macs;
  return timing::depthwiseCycles(x.tp, macs, es);
}

} // namespace

/// VECTOR instructions over the grid V_SHAPE set.
uint64_t Machine::executeVector(const ExecStep &x) {
  const isa::Inst &vs = x.config(Opcode::V_SHAPE, true);
  namespace VS = F::V_SHAPE;
  VectorStep vx{*this, x, {vs[VS::rows], vs[VS::cols], vs[VS::a_pitch], vs[VS::b_pitch],
                          vs[VS::d_pitch], vs[VS::a_bcast] != 0, vs[VS::b_bcast] != 0}};
  checkWork(uint64_t(vx.grid.rows) * uint64_t(vx.grid.cols), x.q.pc);
  switch (Opcode(x.in.desc->opcode)) {
  case Opcode::V_BIN:
  case Opcode::V_BINI:
    return vectorBinary(*this, x, vx);
  case Opcode::V_UN:
    return vectorUnary(*this, x, vx);
  case Opcode::V_REQUANT:
    return vectorRequant(*this, x, vx);
  case Opcode::V_LUT:
    return vectorLut(*this, x, vx);
  case Opcode::V_REDUCE:
    return vectorReduce(*this, x, vx);
  case Opcode::V_CAST:
    return vectorCast(*this, x, vx);
  case Opcode::V_DEQUANT:
  case Opcode::V_QUANT:
    return vectorQuant(*this, x, vx);
  case Opcode::V_CMP:
    return vectorCompare(*this, x, vx);
  case Opcode::V_SEL:
    return vectorSelect(*this, x, vx);
  case Opcode::V_DW:
    return vectorDepthwise(*this, x, vx);
  default:
    fail(x.where() + " is not an engine instruction");
  }
}
