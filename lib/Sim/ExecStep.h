//===- ExecStep.h - What an executing instruction sees ---------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Private to lib/Sim: the element helpers of every engine's semantics and the
// ExecStep an instruction executes with (Execute.cpp: DMA and MATRIX;
// ExecuteVector.cpp: VECTOR).
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_SIM_EXECSTEP_H
#define NPUC_LIB_SIM_EXECSTEP_H

#include "Machine.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Base/Timing.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace npuc::sim::exec {
namespace F = npuc::isa::field;
using isa::DType;
using isa::Opcode;

inline unsigned dtypeSize(int64_t t) {
  static const unsigned size[] = {1, 1, 2, 4, 2, 4};
  return size[t];
}
inline bool isFloat(int64_t t) { return t == int64_t(DType::F16) || t == int64_t(DType::F32); }

inline std::pair<int64_t, int64_t> intRange(int64_t t) {
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
inline ModeTypes modeTypes(int64_t mode) {
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

inline Value loadElem(const uint8_t *p, int64_t t) {
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

inline void storeElem(uint8_t *p, int64_t t, Value v) {
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

template <typename T> inline bool compareValues(isa::CmpFunc func, T x, T y) {
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
inline float fmaxNaN(float a, float b) {
  if (a != a || b != b)
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
inline float fminNaN(float a, float b) {
  if (a != a || b != b)
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

} // namespace npuc::sim::exec

/// What one engine instruction sees while it executes: its engine, its
/// operands' scalar registers as captured at dispatch, the engine's
/// descriptor registers, and the checks every instruction shares.
namespace npuc::sim {
using isa::Opcode;

struct ExecStep {
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
    auto [lo, hi] = exec::intRange(otype);
    if (p.lo < lo || p.hi > hi || p.lo > p.hi)
      m.fail(where() + ": clamp [" + std::to_string(p.lo) + ", " + std::to_string(p.hi) +
             "] does not lie in the output type");
    return p;
  }
};
static_assert(isa::field::V_RQ_CFG::mult == 0 && isa::field::V_RQ_CFG::hi == 5 &&
                  isa::field::MM_RQ_CFG::mult == 0 && isa::field::MM_RQ_CFG::hi == 5,
              "requantParams reads fields 0..5 as mult, ls, rs, zp, lo, hi");
} // namespace npuc::sim

#endif
