//===- EmitToEnc.cpp - Engine operations to machine instructions ----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// One emit op becomes its configuration instructions (skipped when the
// engine's descriptor already holds the same values) and the instruction that
// starts the work. A local address that is not a multiple of the 32-byte
// granule takes its remainder from a scalar register borrowed for that one
// instruction (the engine captures it at dispatch, so it is returned at once).
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/ISA.h"
#include "npuc/Base/Timing.h"
#include "npuc/Base/Target.h"
#include "npuc/Conversion/Passes.h"
#include "npuc/Dialect/Emit/IR/EmitISA.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Enc/IR/EncDialect.h"
#include "npuc/Dialect/Enc/IR/EncOps.h"
#include "npuc/Dialect/Graph/IR/QuantParameters.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace npuc {
#define GEN_PASS_DEF_CONVERTEMITTOENC
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

using namespace mlir;
using namespace npuc;
namespace F = npuc::isa::field;
using emit::BufferType;
using emit::MemorySpace;

// The encoder writes emit's enum values into ISA fields as they are: emit's
// enums are generated from ISA.td's (npuc-tblgen -gen-isa-enum-cases), these
// check the layout EmitAttributes.td composes from them.
static_assert(emit::getMaxEnumValForEngine() + 1 == isa::kEngineCount &&
                  unsigned(emit::Engine::VECTOR) == unsigned(isa::Engine::VECTOR),
              "emit::Engine is isa::Engine");
static_assert(unsigned(MemorySpace::STATE) == unsigned(isa::Region::STATE) &&
                  unsigned(MemorySpace::LM) == isa::kRegionCount + unsigned(isa::DmaDst::LM) &&
                  unsigned(MemorySpace::LUT) == isa::kRegionCount + unsigned(isa::DmaDst::LUT),
              "emit::MemorySpace is isa::Region, then isa::DmaDst");

namespace {

int64_t spaceField(MemorySpace s) { return s == MemorySpace::ACC ? int64_t(isa::Local::ACC) : int64_t(isa::Local::LM); }

/// A resolved operand address: in a hardware loop, `byte` is the first
/// iteration's and `reg` the loop register that adds each iteration's step
/// (0: none).
struct Addr {
  MemorySpace space;
  int64_t byte;
  int64_t reg = 0;
};

class Encoder {
public:
  Encoder(OpBuilder &b, const target::TargetInfo &t) : b(b), t(t) {}

  LogicalResult lower(Operation *op);
  int64_t arenaEnd = 0;
  /// A graph value to record (emit.value): where it is and after which
  /// instruction it is complete.
  struct Observed {
    emit::ValueOp op;
    Addr addr;
    int64_t after;
  };
  std::vector<Observed> observed;

private:
  OpBuilder &b;
  const target::TargetInfo &t;
  Location loc = b.getUnknownLoc();
  /// The last configuration word sent to each engine, by opcode.
  std::map<int, isa::Inst> config;
  int nextReg = 0;

  isa::Inst inst(isa::Opcode opcode) {
    isa::Inst i;
    i.desc = isa::lookup(uint8_t(opcode));
    return i;
  }
  Operation *emitInst(const isa::Inst &i) {
    Operation *op = enc::buildInst(b, loc, i);
    if (i.desc->opcode == uint8_t(isa::Opcode::DMA_OUT_START))
      lastDmaOut = emitted;
    ++emitted;
    return op;
  }
  /// Instructions emitted so far, and the index of the last DMA_OUT_START (the
  /// instruction that writes GM; -1: none).
  int64_t emitted = 0, lastDmaOut = -1;
  /// Emits a configuration instruction unless the engine already holds it.
  void configure(const isa::Inst &i) {
    auto it = config.find(i.desc->opcode);
    if (it != config.end() && it->second.fields == i.fields)
      return;
    config[i.desc->opcode] = i;
    configs.push_back({emitInst(i), i.desc->opcode, emitted - 1, false});
  }
  /// Every configuration word sent: its instruction, opcode and index, and
  /// whether it is in the body of a LOOP already closed (it stays there).
  struct Sent {
    Operation *op;
    int opcode;
    int64_t index;
    bool locked;
  };
  std::vector<Sent> configs;
  FailureOr<Addr> address(Operation *op, Value buffer);
  /// Granule and register for a local address: the loop register of a
  /// stepped one, else li of the sub-granule remainder into a free register.
  std::pair<int64_t, int64_t> local(const Addr &a);
  /// The hardware loop nest being encoded: its loops in preorder and the
  /// register of each address stream; the depth of LOOPs open.
  struct Nest {
    SmallVector<Operation *> loops;
    std::map<emit::AddressStream, int64_t> regs;
  };
  std::optional<Nest> nest;
  int depth = 0;
  LogicalResult hwLoop(emit::HwLoopOp op);
  LogicalResult encodeLoop(emit::HwLoopOp op);
  /// Opens a LOOP (its body length patched by closeLoop).
  LogicalResult openLoop(Operation *op, int64_t count, Operation *&head, int64_t &start);
  LogicalResult closeLoop(Operation *op, Operation *head, int64_t start);
  /// Moves before `head` each configuration word the loop body from `first`
  /// sends as the only one of its kind: every iteration would send the same
  /// word again. Returns how many moved.
  int64_t hoistInvariantConfigs(Operation *head, int64_t headIndex, size_t first);
  /// Scalar registers r1..r(N-1): borrowed for a scope (a loop) and returned
  /// at its end; running out is a diagnostic at the op, never a clobber.
  LogicalResult borrow(Operation *op, unsigned n, SmallVectorImpl<int64_t> &regs);
  void release(ArrayRef<int64_t> regs) {
    for (int64_t r : regs)
      held[size_t(r)] = false;
  }
  std::vector<bool> held;
  LogicalResult dma(emit::DmaOp op);
  LogicalResult matmul(emit::MatmulOp op);
  LogicalResult drain(emit::DrainOp op);
  LogicalResult depthwise(emit::DepthwiseOp op);
  /// Configures the grid (the shape of `grid`, d's by default) and pitches.
  LogicalResult vectorShape(Operation *op, Value a, Value bv, Value d, Value grid = {});
  static int64_t dtype(Type t);
  /// emit::MemorySpace holds isa::Region's values, then isa::DmaDst's
  /// (EmitAttributes.td): a GM space's value is its region, a local space's
  /// is DMA_IN's destination after them.
  static int64_t region(MemorySpace s) { return int64_t(s); }
  static int64_t dmaDst(MemorySpace s) { return int64_t(s) - int64_t(isa::kRegionCount); }
};

int64_t Encoder::dtype(Type t) {
  if (t.isF32())
    return int64_t(isa::DType::F32);
  if (t.isF16())
    return int64_t(isa::DType::F16);
  if (t.isUnsignedInteger(8))
    return int64_t(isa::DType::U8);
  if (t.isInteger(8))
    return int64_t(isa::DType::I8);
  if (t.isInteger(16))
    return int64_t(isa::DType::I16);
  return int64_t(isa::DType::I32);
}

FailureOr<Addr> Encoder::address(Operation *op, Value buffer) {
  std::optional<int64_t> byte = emit::placedByte(buffer);
  if (!byte)
    return op->emitOpError("uses a buffer without a placed offset (run emit-plan-memory)"), failure();
  auto type = cast<BufferType>(buffer.getType());
  Addr a{type.getSpace(), *byte};
  if (type.isGlobal() && (a.byte < 0 || uint64_t(a.byte + type.getSpanBytes()) > isa::gmAddressBytes()))
    return op->emitOpError() << "GM address " << a.byte << " spanning " << type.getSpanBytes()
                             << " bytes is outside the 32-bit offset field's range (4 GiB)"
                             << ", an encoding limit, not a capacity one",
           failure();
  // In a hardware loop nest, the operand's address stream: a register holds
  // its steps, and the lowest and highest address any iteration reaches are
  // checked and counted as well.
  int64_t lo = a.byte, last = a.byte;
  for (auto [k, v] : llvm::enumerate(op->getOperands())) {
    if (!nest || v != buffer)
      continue;
    std::optional<emit::AddressStream> s = emit::HwLoopOp::streamOf(op, unsigned(k), nest->loops);
    if (!s)
      break;
    for (auto [l, step] : s->steps) {
      int64_t reach = (int64_t(cast<emit::HwLoopOp>(nest->loops[size_t(l)]).getCount()) - 1) * step;
      (reach < 0 ? lo : last) += reach;
      if (!s->global && step % t.params.MatrixAlign)
        return op->emitOpError() << "steps a local operand by " << step
                                 << " bytes, not a multiple of " << t.params.MatrixAlign
                                 << ": every iteration must keep the first one's alignment",
               failure();
    }
    if (!s->global) {
      int64_t capacity = type.getSpace() == MemorySpace::ACC ? t.params.ACCBytes : t.params.LMBytes;
      if (lo < 0 || last + type.getSpanBytes() > capacity)
        return op->emitOpError() << "steps a local operand to [" << lo << ", " << last
                                 << "], outside the " << capacity << " bytes of "
                                 << emit::stringifyMemorySpace(type.getSpace()),
               failure();
    }
    a.reg = nest->regs.at(*s);
    break;
  }
  if (type.isGlobal() && (lo < 0 || uint64_t(last + type.getSpanBytes()) > isa::gmAddressBytes()))
    return op->emitOpError() << "GM address " << (lo < 0 ? lo : last) << " (of some iteration) spanning "
                             << type.getSpanBytes()
                             << " bytes is outside the 32-bit offset field's range (4 GiB)",
           failure();
  if (type.getSpace() == MemorySpace::ARENA)
    arenaEnd = std::max(arenaEnd, last + type.getSpanBytes());
  return a;
}

LogicalResult Encoder::borrow(Operation *op, unsigned n, SmallVectorImpl<int64_t> &regs) {
  held.resize(size_t(t.params.ScalarRegs), false);
  for (int64_t r = 1; r < t.params.ScalarRegs && regs.size() < n; ++r)
    if (!held[size_t(r)])
      regs.push_back(r);
  if (regs.size() < n)
    return op->emitOpError() << "needs " << n << " scalar registers but only " << regs.size()
                             << " of " << t.name << "'s " << t.params.ScalarRegs - 1
                             << " (r1..r" << t.params.ScalarRegs - 1 << ") are free";
  for (int64_t r : regs)
    held[size_t(r)] = true;
  return success();
}

std::pair<int64_t, int64_t> Encoder::local(const Addr &a) {
  int64_t byte = a.byte, rem = byte % isa::kGranuleBytes;
  if (a.reg)
    return {(byte - rem) / isa::kGranuleBytes, a.reg};  // the register holds rem + k * step
  if (rem == 0)
    return {byte / isa::kGranuleBytes, 0};
  // A register for one instruction (engines capture registers at dispatch):
  // round-robin over the registers no scope holds.
  held.resize(size_t(t.params.ScalarRegs), false);
  int64_t reg = 0;
  for (int64_t k = 0; k < t.params.ScalarRegs - 1 && reg == 0; ++k) {
    int64_t cand = 1 + (nextReg++ % (t.params.ScalarRegs - 1));
    if (!held[size_t(cand)])
      reg = cand;
  }
  isa::Inst li = inst(isa::Opcode::LI);
  li.fields[F::LI::rd] = reg;
  li.fields[F::LI::imm] = rem;
  emitInst(li);
  return {byte / isa::kGranuleBytes, reg};
}

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
  int64_t elem = src.getElementBytes() == 1 ? 0 : src.getElementBytes() == 2 ? 1 : 2;
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
    i.fields[D::src_space] = sa->space == MemorySpace::LM ? int64_t(isa::Local::LM) : int64_t(isa::Local::ACC);
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

LogicalResult Encoder::depthwise(emit::DepthwiseOp op) {
  // Pooling (func MAX or SUM) has no taps: the image stands in for them.
  Value taps = op.getB() ? op.getB() : op.getA();
  auto at = cast<BufferType>(op.getA().getType()), bt = cast<BufferType>(taps.getType()),
       dt = cast<BufferType>(op.getD().getType());
  FailureOr<Addr> a = address(op, op.getA()), bb = address(op, taps), d = address(op, op.getD());
  if (failed(a) || failed(bb) || failed(d))
    return failure();
  if (!op.getB())
    bb->byte = 0, bb->reg = 0;
  // The image only needs its element alignment (V_DW reads it at any tap).
  if (bb->byte % t.params.VectorAlign || d->byte % t.params.VectorAlign ||
      a->byte % at.getElementBytes())
    return op.emitOpError() << "taps at " << bb->byte << " or results at " << d->byte
                            << " are not " << t.params.VectorAlign
                            << "-byte aligned, or the image at " << a->byte
                            << " is not aligned to its elements";
  // The grid: channels x one output row's columns, each operand's channel pitch.
  int64_t rows = dt.getShape()[0], cols = dt.getShape()[2];
  int64_t pitches[3] = {at.getStrides()[0], op.getB() ? bt.getStrides()[0] : 0, dt.getStrides()[0]};
  for (int64_t p : pitches)
    if (p < 0 || p > isa::limit::V_SHAPE::a_pitch_max)
      return op.emitOpError() << "channel pitch " << p << " exceeds the v_shape field ("
                              << isa::limit::V_SHAPE::a_pitch_max << ")";
  if (rows > isa::limit::V_SHAPE::rows_max || cols > isa::limit::V_SHAPE::cols_max)
    return op.emitOpError() << "grid " << rows << "x" << cols << " exceeds the v_shape extents";
  isa::Inst s = inst(isa::Opcode::V_SHAPE);
  namespace S = F::V_SHAPE;
  s.fields[S::rows] = rows, s.fields[S::cols] = cols;
  s.fields[S::a_pitch] = pitches[0], s.fields[S::b_pitch] = pitches[1];
  s.fields[S::d_pitch] = pitches[2];
  configure(s);
  isa::Inst cfg = inst(isa::Opcode::V_DW_CFG);
  namespace C = F::V_DW_CFG;
  cfg.fields[C::kh] = op.getKernel()[0], cfg.fields[C::kw] = op.getKernel()[1];
  cfg.fields[C::sh] = op.getStrides()[0], cfg.fields[C::sw] = op.getStrides()[1];
  cfg.fields[C::dh] = op.getDilations()[0], cfg.fields[C::dw] = op.getDilations()[1];
  cfg.fields[C::lda] = at.getStrides()[1];
  cfg.fields[C::orows] = dt.getShape()[1];
  cfg.fields[C::a_zp] = op.getAZp(), cfg.fields[C::b_zp] = op.getBZp();
  FailureOr<Addr> bias = Addr{};
  if (op.getBias()) {
    auto et = cast<BufferType>(op.getBias().getType());
    if (failed(bias = address(op, op.getBias())))
      return failure();
    if (et.getStrides()[0] > isa::limit::V_DW_CFG::e_pitch_max)
      return op.emitOpError() << "bias pitch " << et.getStrides()[0] << " exceeds the v_dw_cfg field ("
                              << isa::limit::V_DW_CFG::e_pitch_max << ")";
    cfg.fields[C::e_pitch] = et.getStrides()[0];
  } else if (auto it = config.find(uint8_t(isa::Opcode::V_DW_CFG)); it != config.end()) {
    cfg.fields[C::e_pitch] = it->second.fields[C::e_pitch];  // what the engine holds
  }
  configure(cfg);
  isa::Inst i = inst(isa::Opcode::V_DW);
  namespace V = F::V_DW;
  i.fields[V::mode] = int64_t(emit::matrixMode(at.getElementType(), bt.getElementType()));
  i.fields[V::acc] = op.getAccumulate();
  i.fields[V::d_space] = spaceField(d->space);
  i.fields[V::func] = int64_t(op.getFunc());
  std::tie(i.fields[V::a_addr], i.fields[V::a_reg]) = local(*a);
  std::tie(i.fields[V::b_addr], i.fields[V::b_reg]) = local(*bb);
  std::tie(i.fields[V::d_addr], i.fields[V::d_reg]) = local(*d);
  if (op.getBias()) {
    i.fields[V::bias] = 1;
    std::tie(i.fields[V::e_addr], i.fields[V::e_reg]) = local(*bias);
  }
  i.fields[V::relu] = op.getRelu();
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

LogicalResult Encoder::vectorShape(Operation *op, Value a, Value bv, Value d, Value grid) {
  auto dt = cast<BufferType>((grid ? grid : d).getType());
  int64_t rows = dt.getShape()[0], cols = dt.getShape()[1];
  auto pitchOf = [&](Value v, bool &bcast) -> int64_t {
    if (!v)
      return 0;
    auto vt = cast<BufferType>(v.getType());
    bcast = vt.getShape()[1] == 1 && cols > 1;
    return vt.getShape()[0] == 1 && rows > 1 ? 0 : vt.getStrides()[0];
  };
  bool ab = false, bb = false, db = false;
  int64_t ap = pitchOf(a, ab), bp = pitchOf(bv, bb), dp = pitchOf(d, db);
  for (int64_t p : {ap, bp, dp})
    if (p > isa::limit::V_SHAPE::a_pitch_max)
      return op->emitOpError() << "row pitch " << p << " exceeds the v_shape field ("
                               << isa::limit::V_SHAPE::a_pitch_max << ")";
  if (rows > isa::limit::V_SHAPE::rows_max || cols > isa::limit::V_SHAPE::cols_max)
    return op->emitOpError() << "grid " << rows << "x" << cols << " exceeds the v_shape extents";
  isa::Inst s = inst(isa::Opcode::V_SHAPE);
  namespace V = F::V_SHAPE;
  s.fields[V::rows] = rows;
  s.fields[V::cols] = cols;
  s.fields[V::a_pitch] = ap;
  s.fields[V::b_pitch] = bp;
  s.fields[V::d_pitch] = dp;
  s.fields[V::a_bcast] = ab;
  s.fields[V::b_bcast] = bb;
  configure(s);
  return success();
}


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

LogicalResult Encoder::lower(Operation *op) {
  loc = op->getLoc();
  if (auto l = dyn_cast<emit::HwLoopOp>(op))
    return hwLoop(l);
  using O = isa::Opcode;
  if (llvm::isa<emit::AllocOp, emit::ConstantOp, emit::ViewOp, emit::FlagOp>(op))
    return success();
  if (auto v = dyn_cast<emit::ValueOp>(op)) {
    // Only DMA_OUT writes GM, in program order: once the last DMA_OUT before
    // this point has run, every write of the value has, and no later one.
    // A value in the input region is there from the start. DMA_OUT is one
    // in-order engine (npu-v1.md). A DMA_OUT in a hardware loop (an
    // emit.hw_loop; values are never observed inside one) completes once per
    // iteration: npu-sim takes the value each time, the last time after the
    // last iteration, which is when the unrolled code would.
    FailureOr<Addr> a = address(op, v.getBuffer());
    if (failed(a))
      return failure();
    observed.push_back({v, *a, a->space == MemorySpace::INPUT ? -1 : lastDmaOut});
    return success();
  }
  if (auto d = dyn_cast<emit::DmaOp>(op))
    return dma(d);
  if (auto m = dyn_cast<emit::MatmulOp>(op))
    return matmul(m);
  if (auto d = dyn_cast<emit::DrainOp>(op))
    return drain(d);
  if (auto d = dyn_cast<emit::DepthwiseOp>(op))
    return depthwise(d);
  if (llvm::isa<emit::SignalOp, emit::WaitOp>(op)) {
    // SET_FLAG runs on the source engine, WAIT_FLAG on the destination; both
    // name the other engine as the peer.
    Value flag = op->getOperand(0);
    auto ft = cast<emit::FlagType>(flag.getType());
    std::optional<uint64_t> id = flag.getDefiningOp<emit::FlagOp>().getId();
    if (!id)
      return op->emitOpError("uses a flag without a physical id (run emit-insert-sync)");
    bool set = llvm::isa<emit::SignalOp>(op);
    isa::Inst i = inst(set ? O::SET_FLAG : O::WAIT_FLAG);
    i.fields[F::SET_FLAG::eng] = int64_t(set ? ft.getSrc() : ft.getDst());
    i.fields[F::SET_FLAG::peer] = int64_t(set ? ft.getDst() : ft.getSrc());
    i.fields[F::SET_FLAG::id] = int64_t(*id);
    emitInst(i);
    return success();
  }
  if (auto bar = dyn_cast<emit::BarrierOp>(op)) {
    int64_t mask = 0;
    for (Attribute a : bar.getEngines()) {
      emit::Engine e = cast<emit::EngineAttr>(a).getValue();
      mask |= int64_t(1) << (int(e) - 1);
    }
    isa::Inst i = inst(O::BARRIER);
    i.fields[F::BARRIER::mask] = mask;
    emitInst(i);
    return success();
  }
  // VECTOR.
  auto engineOp = dyn_cast<emit::EngineOp>(op);
  if (!engineOp)
    return op->emitOpError("has no encoding");
  SmallVector<emit::Access> accesses;
  engineOp.getAccesses(accesses);
  SmallVector<Addr> addrs;
  for (const emit::Access &a : accesses) {
    FailureOr<Addr> x = address(op, a.buffer);
    if (failed(x))
      return failure();
    if (x->byte % t.params.VectorAlign && !(llvm::isa<emit::RequantOp>(op) && a.buffer == op->getOperand(2)))
      return op->emitOpError() << "vector operand at " << x->byte << " is not "
                               << t.params.VectorAlign << "-byte aligned";
    addrs.push_back(*x);
  }
  // Every VECTOR instruction names its operands the same way: <x>_space,
  // <x>_reg and <x>_addr fields (the parameter table has no space field).
  auto setOperand = [&](isa::Inst &i, std::string_view name, const Addr &a) {
    auto [granule, reg] = local(a);
    std::string n(name);
    if (int f = i.desc->fieldIndex(n + "_space"); f >= 0)
      i.fields[unsigned(f)] = spaceField(a.space);
    i.fields[unsigned(i.desc->fieldIndex(n + "_reg"))] = reg;
    i.fields[unsigned(i.desc->fieldIndex(n + "_addr"))] = granule;
  };
  bool binary = llvm::isa<emit::VBinOp, emit::VCmpOp, emit::VSelOp>(op);
  Value a = op->getOperand(0), d = accesses.back().buffer;  // the one written, last
  Value grid = llvm::isa<emit::ReduceOp>(op) ? a : Value();
  if (failed(vectorShape(op, a, binary ? op->getOperand(1) : Value(), d, grid)))
    return failure();
  Type ta = cast<BufferType>(a.getType()).getElementType(), td = cast<BufferType>(d.getType()).getElementType();
  isa::Inst i;
  const char *second = nullptr;  // a second input operand: b, or the parameter table p
  const char *third = nullptr;   // a third: V_SEL's mask m
  if (auto v = dyn_cast<emit::VCmpOp>(op)) {
    i = inst(O::V_CMP);
    i.fields[F::V_CMP::func] = int64_t(v.getFunc());
    i.fields[F::V_CMP::dtype] = dtype(ta);
    second = "b";
  } else if (llvm::isa<emit::VSelOp>(op)) {
    i = inst(O::V_SEL);
    i.fields[F::V_SEL::dtype] = dtype(ta);
    second = "b";
    third = "m";
  } else if (auto v = dyn_cast<emit::VBinOp>(op)) {
    i = inst(O::V_BIN);
    i.fields[F::V_BIN::func] = int64_t(v.getFunc());
    i.fields[F::V_BIN::dtype] = dtype(ta);
    second = "b";
  } else if (auto v = dyn_cast<emit::VUnOp>(op)) {
    i = inst(O::V_UN);
    i.fields[F::V_UN::func] = int64_t(v.getFunc());
    i.fields[F::V_UN::dtype] = dtype(ta);
  } else if (auto v = dyn_cast<emit::VBinImmOp>(op)) {
    i = inst(O::V_BINI);
    i.fields[F::V_BINI::func] = int64_t(v.getFunc());
    i.fields[F::V_BINI::dtype] = dtype(ta);
    uint32_t bits;
    if (auto f = dyn_cast<FloatAttr>(v.getImm())) {
      float x = float(f.getValueAsDouble());
      std::memcpy(&bits, &x, 4);
    } else {
      // The value the attribute's type says (an unsigned 8-bit 128 is 128,
      // not -128), as the elements read it.
      auto imm = cast<IntegerAttr>(v.getImm());
      bits = imm.getType().isUnsignedInteger() ? uint32_t(imm.getValue().getZExtValue())
                                               : uint32_t(imm.getValue().getSExtValue());
    }
    i.fields[F::V_BINI::imm] = bits;
  } else if (auto c = dyn_cast<emit::CastOp>(op); c && c.getScale()) {
    bool quant = ta.isF32();
    i = inst(quant ? O::V_QUANT : O::V_DEQUANT);
    if (quant)
      i.fields[F::V_QUANT::otype] = dtype(td);
    else
      i.fields[F::V_DEQUANT::itype] = dtype(ta);
    float scale = c.getScale()->convertToFloat();
    uint32_t bits;
    std::memcpy(&bits, &scale, 4);
    i.fields[F::V_QUANT::scale] = bits;
    i.fields[F::V_QUANT::zp] = int64_t(c.getZp());
  } else if (llvm::isa<emit::CastOp>(op)) {
    i = inst(O::V_CAST);
    i.fields[F::V_CAST::itype] = dtype(ta), i.fields[F::V_CAST::otype] = dtype(td);
  } else if (auto r = dyn_cast<emit::ReduceOp>(op)) {
    i = inst(O::V_REDUCE);
    namespace V = F::V_REDUCE;
    i.fields[V::func] = int64_t(r.getFunc());
    i.fields[V::axis] = int64_t(r.getAxis());
    i.fields[V::itype] = dtype(ta), i.fields[V::otype] = dtype(td);
  } else if (auto rq = dyn_cast<emit::RequantOp>(op)) {
    i = inst(O::V_REQUANT);
    namespace V = F::V_REQUANT;
    if (rq.getParams()) {
      i.fields[V::pmode] = rq.getPerRow() ? int64_t(isa::PMode::ROW) : int64_t(isa::PMode::COL);
      second = "p";
    } else {
      isa::Inst cfg = inst(O::V_RQ_CFG);
      namespace R = F::V_RQ_CFG;
      cfg.fields[R::mult] = rq.getMult(), cfg.fields[R::ls] = rq.getLs(), cfg.fields[R::rs] = rq.getRs();
      cfg.fields[R::zp] = rq.getZp(), cfg.fields[R::lo] = rq.getLo(), cfg.fields[R::hi] = rq.getHi();
      configure(cfg);
      i.fields[V::pmode] = int64_t(isa::PMode::TENSOR);
    }
    i.fields[V::otype] = dtype(td);
  } else {
    return op->emitOpError("has no encoding");
  }
  setOperand(i, "a", addrs.front());
  if (second)
    setOperand(i, second, addrs[1]);
  if (third)
    setOperand(i, third, addrs[2]);
  setOperand(i, "d", addrs.back());
  emitInst(i);
  return success();
}

/// The enc.tensor of role value for an observed graph value: its storage
/// layout and, for a quantized value, its scales and zero points.
LogicalResult recordValue(OpBuilder &b, emit::ValueOp v, MemorySpace space, int64_t offset,
                          int64_t after) {
  BufferType bt = v.getBuffer().getType();
  StringRef region = space == MemorySpace::ARENA   ? "arena"
                     : space == MemorySpace::INPUT ? "input"
                     : space == MemorySpace::OUTPUT ? "output"
                                                    : "";
  if (region.empty())
    return v.emitOpError() << "names a value in " << emit::stringifyMemorySpace(space)
                           << "; values are observed in the arena, input or output";
  SmallVector<float> scales;
  SmallVector<int32_t> zps;
  IntegerAttr axis;
  if (std::optional<graph::QuantParameters> q = graph::quantParameters(v.getElement())) {
    for (auto [s, z] : llvm::zip(q->scales, q->zeroPoints)) {
      scales.push_back(float(s));
      zps.push_back(int32_t(z));
    }
    if (q->axis >= 0)
      axis = b.getI64IntegerAttr(q->axis);
  }
  SmallVector<std::string> nodes = graph::nodeNames(v.getLoc());
  enc::TensorOp::create(b, v.getLoc(), b.getStringAttr("value"), v.getNameAttr(),
                        TypeAttr::get(bt.getElementType()), b.getDenseI64ArrayAttr(bt.getShape()),
                        b.getDenseI64ArrayAttr(bt.getStrides()), b.getI64IntegerAttr(offset),
                        scales.empty() ? DenseF32ArrayAttr() : b.getDenseF32ArrayAttr(scales),
                        zps.empty() ? DenseI32ArrayAttr() : b.getDenseI32ArrayAttr(zps), axis,
                        b.getStringAttr(region),
                        b.getStringAttr(nodes.empty() || space == MemorySpace::INPUT
                                            ? std::string()
                                            : nodes.back()),
                        b.getI64IntegerAttr(after), TypeAttr());
  return success();
}

struct ConvertEmitToEncPass : npuc::impl::ConvertEmitToEncBase<ConvertEmitToEncPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<emit::ProgramOp> programs(module.getOps<emit::ProgramOp>());
    if (programs.size() != 1) {
      module.emitError() << "expects one emit.program, found " << programs.size();
      return signalPassFailure();
    }
    emit::ProgramOp program = programs[0];
    const target::TargetInfo *t = target::lookupTarget(program.getTarget());
    OpBuilder b(module.getContext());
    b.setInsertionPoint(program);
    // Constants and the runtime-bound tensors.
    for (Operation &op : program.getBody().front()) {
      if (auto c = dyn_cast<emit::ConstantOp>(op)) {
        if (!c.getOffset()) {
          c.emitOpError("has no placed offset (run emit-plan-memory)");
          return signalPassFailure();
        }
        enc::ConstOp::create(b, c.getLoc(), b.getI64IntegerAttr(*c.getOffset()), c.getValue());
      } else if (auto a = dyn_cast<emit::AllocOp>(op); a && a.getName()) {
        BufferType bt = a.getBuffer().getType();
        bool input = bt.getSpace() == MemorySpace::INPUT;
        enc::TensorOp::create(b, a.getLoc(), b.getStringAttr(input ? "input" : "output"),
                              a.getNameAttr(), TypeAttr::get(bt.getElementType()),
                              b.getDenseI64ArrayAttr(bt.getShape()),
                              b.getDenseI64ArrayAttr(bt.getStrides()),
                              b.getI64IntegerAttr(*a.getOffset()), DenseF32ArrayAttr(),
                              DenseI32ArrayAttr(), IntegerAttr(), StringAttr(), StringAttr(),
                              IntegerAttr(), a->getAttrOfType<TypeAttr>(emit::AllocOp::kBoundary));
      }
    }
    auto encProgram = enc::ProgramOp::create(b, program.getLoc(), t->name);
    b.setInsertionPointToStart(&encProgram.getBody().front());
    Encoder encoder(b, *t);
    for (Operation &op : program.getBody().front())
      if (failed(encoder.lower(&op)))
        return signalPassFailure();
    isa::Inst end;
    end.desc = isa::lookup(uint8_t(isa::Opcode::END));
    enc::buildInst(b, program.getLoc(), end);
    // The observed values, after the program (docs/model-format.md, values).
    b.setInsertionPointAfter(encProgram);
    for (const Encoder::Observed &o : encoder.observed)
      if (failed(recordValue(b, o.op, o.addr.space, o.addr.byte, o.after)))
        return signalPassFailure();
    if (encoder.arenaEnd > 0)
      encProgram.setArenaSizeAttr(b.getI64IntegerAttr((encoder.arenaEnd + 63) / 64 * 64));
    program.erase();
  }
};

} // namespace
