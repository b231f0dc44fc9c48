//===- ExecuteVector.cpp - VECTOR semantics --------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Each VECTOR instruction over the grid V_SHAPE set, bit-exactly
// (docs/numerics.md), returning its duration in cycles.
//
//===----------------------------------------------------------------------===//

#include "ExecStep.h"

using namespace npuc;
using namespace npuc::sim;
using namespace npuc::sim::exec;

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
        case isa::VUnFunc::SIN: d.f = num::sinF(x); break;
        case isa::VUnFunc::COS: d.f = num::cosF(x); break;
        case isa::VUnFunc::TAN: d.f = num::tanF(x); break;
        case isa::VUnFunc::ASIN: d.f = num::asinF(x); break;
        case isa::VUnFunc::ACOS: d.f = num::acosF(x); break;
        case isa::VUnFunc::ATAN: d.f = num::atanF(x); break;
        case isa::VUnFunc::ASINH: d.f = num::asinhF(x); break;
        case isa::VUnFunc::ACOSH: d.f = num::acoshF(x); break;
        case isa::VUnFunc::ATANH: d.f = num::atanhF(x); break;
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
  WindowStep w;
  w.kh = cfg[C::kh], w.kw = cfg[C::kw], w.sh = cfg[C::sh], w.sw = cfg[C::sw];
  w.dh = cfg[C::dh], w.dw = cfg[C::dw], w.lda = cfg[C::lda], w.orows = cfg[C::orows];
  w.azp = cfg[C::a_zp], w.bzp = cfg[C::b_zp];
  w.mode = in[V::mode];
  w.accumulate = in[V::acc];
  w.func = isa::WindowFunc(in[V::func]);
  w.bias = in[V::bias], w.relu = in[V::relu];
  w.a = x.local(in[V::a_addr], in[V::a_reg]), w.b = x.local(in[V::b_addr], in[V::b_reg]);
  w.d = x.local(in[V::d_addr], in[V::d_reg]);
  if (w.bias)
    w.e = x.local(in[V::e_addr], in[V::e_reg]);
  w.dSpace = LM + unsigned(in[V::d_space]);
  w.rows = vx.grid.rows, w.cols = vx.grid.cols;
  w.apitch = vx.grid.apitch, w.bpitch = vx.grid.bpitch, w.dpitch = vx.grid.dpitch;
  w.epitch = cfg[C::e_pitch];
  w.pt = cfg[C::pt], w.pl = cfg[C::pl], w.ih = cfg[C::ih], w.iw = cfg[C::iw];
  uint64_t macs = m.windowSums(x, w);
  return timing::depthwiseCycles(x.tp, macs, modeTypes(w.mode).bytes);
}

} // namespace

/// The windows of V_DW and MM_DW over every channel (docs/isa.md): their
/// sums (or pooling's maxima and sums) into d; returns the MACs.
uint64_t Machine::windowSums(const ExecStep &x, const WindowStep &w) {
  int64_t kh = w.kh, kw = w.kw, sh = w.sh, sw = w.sw, dh = w.dh, dw = w.dw, lda = w.lda;
  int64_t orows = w.orows, azp = w.azp, bzp = w.bzp;
  bool accumulate = w.accumulate;
  ModeTypes mt = modeTypes(w.mode);
  bool isFloatMode = mt.isFloat;
  unsigned es = mt.bytes;
  int64_t et = mt.a, bt = mt.b;
  int64_t dt = isFloatMode ? int64_t(DType::F32) : int64_t(DType::I32);
  isa::WindowFunc func = w.func;
  bool mac = func == isa::WindowFunc::MAC;
  if (!mac)
    azp = bzp = 0;  // pooling reads the image as stored
  if (isFloatMode && (azp || bzp))
    fail(x.where() + " runs a float depthwise product with non-zero zero points");
  int64_t rows = w.rows, cols = w.cols, taps = kh * kw;
  bool bias = w.bias, relu = w.relu;
  if ((bias || relu) && (!isFloatMode || !mac))
    fail(x.where() + " adds a bias or a Relu outside a float multiply-accumulate");
  checkWork(uint64_t(rows) * uint64_t(orows) * uint64_t(cols) * uint64_t(taps), x.q.pc);
  uint64_t a = w.a, b = w.b, d = w.d;
  unsigned dSpace = w.dSpace;
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
  // MM_DW pads in its feeder: window row i is image row i - pt, column c
  // image column c - pl; only the image's own rows and columns are read.
  bool padded = w.pt || w.pl || w.ih || w.iw;
  int64_t pt = w.pt, pl = w.pl;
  int64_t ih = w.ih ? w.ih : inRows - pt, iw = w.iw ? w.iw : width - pl;
  // Pooling's windows take no padding: they read the image as stored.
  if (!mac && (pt || pl || ih < inRows || iw < width))
    fail(x.where() + " pools a window that leaves its " + std::to_string(ih) + "x" +
         std::to_string(iw) + " image (padding " + std::to_string(pt) + ", " +
         std::to_string(pl) + "): pooling takes no padding");
  int64_t readCols = std::min(iw, width - pl);
  auto inside = [&](int64_t i, int64_t c) {
    return i - pt >= 0 && i - pt < ih && c - pl >= 0 && c - pl < iw;
  };
  std::vector<const uint8_t *> image(static_cast<size_t>(inRows));
  std::vector<int32_t> wi(static_cast<size_t>(taps)), ai(static_cast<size_t>(inRows * width));
  std::vector<float> wf(static_cast<size_t>(taps)), af(static_cast<size_t>(inRows * width));
  for (int64_t r = 0; r < rows; ++r) {
    uint64_t ar = a + uint64_t(r * w.apitch);
    for (int64_t i = 0; i < inRows; ++i) {
      int64_t y = i - pt;
      image[size_t(i)] = nullptr;
      if (!padded)
        image[size_t(i)] = access(LM, ar + uint64_t(i * lda), inBytes, false, x.dynId, "its image");
      else if (y >= 0 && y < ih && readCols > 0)
        image[size_t(i)] = access(LM, ar + uint64_t(y * lda), uint64_t(readCols) * es, false,
                                  x.dynId, "its image");
    }
    if (mac) {
      const uint8_t *tp = access(LM, b + uint64_t(r * w.bpitch), uint64_t(taps) * es,
                                   false, x.dynId, "its taps");
      for (int64_t t = 0; t < taps; ++t) {
        Value tap = loadElem(tp + t * es, bt);
        wi[size_t(t)] = int32_t(tap.i - bzp);
        wf[size_t(t)] = tap.f;
      }
    }
    float biasRow = 0.0f;
    if (bias) {
      uint64_t e = w.e + uint64_t(r * w.epitch);
      if (r == 0)
        x.aligned(e, 4, "its bias");
      biasRow = loadElem(access(LM, e, 4, false, x.dynId, "its bias"), int64_t(DType::F32)).f;
    }
    uint64_t dr = d + uint64_t(r * w.dpitch);
    if (accumulate)
      access(dSpace, dr, uint64_t(orows * cols) * 4, false, x.dynId, "its results");
    uint8_t *out = access(dSpace, dr, uint64_t(orows * cols) * 4, true, x.dynId, "its results");
    // The window's elements, zero-point adjusted (a tap in the padding reads
    // the zero point: 0 after the adjustment, +0.0 in float modes).
    if (mac)
      for (int64_t i = 0; i < inRows; ++i)
        for (int64_t c = 0; c < width; ++c) {
          Value v = inside(i, c) ? loadElem(image[size_t(i)] + (c - pl) * es, et) : Value{azp, 0.0f};
          ai[size_t(i * width + c)] = int32_t(v.i - azp);
          af[size_t(i * width + c)] = v.f;
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
            fail("accumulator overflow: " + x.where() + " computes " + std::to_string(v.i) +
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
            fail("accumulator overflow: " + x.where() + " computes " + std::to_string(sum) +
                   " at d[" + std::to_string(r) + "][" + std::to_string(o * cols + c) +
                   "], outside int32");
          storeElem(dp, dt, Value{sum, 0});
          continue;
        }
        float sum = accumulate ? loadElem(dp, dt).f : 0.0f;
        for (int64_t i = 0; i < kh; ++i)
          for (int64_t j = 0; j < kw; ++j) {
            float prod = af[size_t((o * sh + i * dh) * width + c * sw + j * dw)] *
                         wf[size_t(i * kw + j)];
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
  stats.macs += macs;
  return macs;
}


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
