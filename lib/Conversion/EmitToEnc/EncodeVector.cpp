//===- EncodeVector.cpp - VECTOR --------------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// emit.depthwise (V_SHAPE, V_DW_CFG, V_DW) and the elementwise, cast,
// reduction and requantization ops: V_SHAPE, then one instruction whose
// operands are named a, b (or the parameter table p), m and d.
//
//===----------------------------------------------------------------------===//

#include "Encoder.h"

#include <cstring>
#include <string>

using namespace npuc;
using namespace npuc::encode;

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
  if (op.getMatrix())
    return arrayDepthwise(op, *a, *bb, *d);
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
  // The feeder's padding: the image's extent bounds the window only when
  // it pads (the verifier holds the extent to the fields then).
  if (std::optional<ArrayRef<int64_t>> pads = op.getPads()) {
    cfg.fields[C::pt] = (*pads)[0], cfg.fields[C::pl] = (*pads)[1];
    cfg.fields[C::ih] = at.getShape()[1], cfg.fields[C::iw] = at.getShape()[2];
  }
  FailureOr<Addr> bias = windowBias(op, cfg, C::e_pitch, isa::limit::V_DW_CFG::e_pitch_max);
  if (failed(bias))
    return failure();
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

/// The bias of a window instruction (V_DW, MM_DW): its address, and its
/// pitch into `cfg`'s field `ePitch` (at most `max`); without a bias the
/// pitch the engine holds stays, so no new configuration is sent for it.
FailureOr<Addr> Encoder::windowBias(emit::DepthwiseOp op, isa::Inst &cfg, unsigned ePitch,
                                    int64_t max) {
  if (!op.getBias()) {
    if (auto it = config.find(uint8_t(cfg.desc->opcode)); it != config.end())
      cfg.fields[ePitch] = it->second.fields[ePitch];
    return Addr{};
  }
  int64_t pitch = cast<BufferType>(op.getBias().getType()).getStrides()[0];
  if (pitch > max)
    return op.emitOpError() << "bias pitch " << pitch << " exceeds the " << cfg.desc->mnemonic
                            << " field (" << max << ")";
  cfg.fields[ePitch] = pitch;
  return address(op, op.getBias());
}

/// emit.depthwise on the array: MM_CFG (the pitches within a channel and the
/// zero points), MM_DW_CFG (the window, the channel pitches of the image and
/// the bias), MM_DW.
LogicalResult Encoder::arrayDepthwise(emit::DepthwiseOp op, Addr a, Addr b, Addr d) {
  auto at = cast<BufferType>(op.getA().getType()), bt = cast<BufferType>(op.getB().getType()),
       dt = cast<BufferType>(op.getD().getType());
  int64_t channels = dt.getShape()[0], cols = dt.getShape()[2];
  int64_t ldc = dt.getStrides()[0], ldb = bt.getStrides()[0], lda = at.getStrides()[1];
  int64_t apitch = at.getStrides()[0];
  namespace L = isa::limit;
  if (lda > L::MM_CFG::lda_max || ldb > L::MM_CFG::ldb_max || ldc > L::MM_CFG::ldc_max ||
      apitch > L::MM_DW_CFG::a_pitch_max || ldb < 0 || ldc < 0 || apitch < 0)
    return op.emitOpError() << "pitches " << lda << ", " << ldb << ", " << ldc << " and " << apitch
                            << " exceed the mm_cfg fields (" << L::MM_CFG::lda_max
                            << ") or mm_dw_cfg's a_pitch (" << L::MM_DW_CFG::a_pitch_max << ")";
  if (at.getShape()[1] > L::MM_DW_CFG::ih_max || at.getShape()[2] > L::MM_DW_CFG::iw_max)
    return op.emitOpError() << "an image of " << at.getShape()[1] << "x" << at.getShape()[2]
                            << " exceeds the mm_dw_cfg extents (" << L::MM_DW_CFG::ih_max << ")";
  if (channels > L::MM_DW::channels_max || cols > L::MM_DW::cols_max)
    return op.emitOpError() << channels << " channels of " << cols
                            << " columns exceed the mm_dw extents (" << L::MM_DW::channels_max
                            << ")";
  isa::Inst cfg = inst(isa::Opcode::MM_CFG);
  namespace C = F::MM_CFG;
  cfg.fields[C::lda] = lda, cfg.fields[C::ldb] = ldb, cfg.fields[C::ldc] = ldc;
  cfg.fields[C::a_zp] = op.getAZp(), cfg.fields[C::b_zp] = op.getBZp();
  configure(cfg);
  isa::Inst w = inst(isa::Opcode::MM_DW_CFG);
  namespace W = F::MM_DW_CFG;
  w.fields[W::kh] = op.getKernel()[0], w.fields[W::kw] = op.getKernel()[1];
  w.fields[W::sh] = op.getStrides()[0], w.fields[W::sw] = op.getStrides()[1];
  w.fields[W::dh] = op.getDilations()[0], w.fields[W::dw] = op.getDilations()[1];
  w.fields[W::orows] = dt.getShape()[1];
  w.fields[W::a_pitch] = apitch;
  if (std::optional<ArrayRef<int64_t>> pads = op.getPads())
    w.fields[W::pt] = (*pads)[0], w.fields[W::pl] = (*pads)[1];
  w.fields[W::ih] = at.getShape()[1], w.fields[W::iw] = at.getShape()[2];
  FailureOr<Addr> bias = windowBias(op, w, W::e_pitch, L::MM_DW_CFG::e_pitch_max);
  if (failed(bias))
    return failure();
  configure(w);
  isa::Inst i = inst(isa::Opcode::MM_DW);
  namespace D = F::MM_DW;
  i.fields[D::mode] = int64_t(emit::matrixMode(at.getElementType(), bt.getElementType()));
  i.fields[D::acc] = op.getAccumulate();
  std::tie(i.fields[D::a_addr], i.fields[D::a_reg]) = local(a);
  std::tie(i.fields[D::b_addr], i.fields[D::b_reg]) = local(b);
  std::tie(i.fields[D::d_addr], i.fields[D::d_reg]) = local(d);
  if (op.getBias()) {
    i.fields[D::bias] = 1;
    std::tie(i.fields[D::e_addr], i.fields[D::e_reg]) = local(*bias);
  }
  i.fields[D::relu] = op.getRelu();
  i.fields[D::channels] = channels, i.fields[D::cols] = cols;
  emitInst(i);
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

LogicalResult Encoder::vector(Operation *op, llvm::function_ref<VectorInst(Type ta, Type td)> build) {
  SmallVector<emit::Access> accesses;
  llvm::cast<emit::EngineOp>(op).getAccesses(accesses);
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
  VectorInst v = build(llvm::cast<BufferType>(a.getType()).getElementType(),
                       llvm::cast<BufferType>(d.getType()).getElementType());
  setOperand(v.inst, "a", addrs.front());
  if (v.second)
    setOperand(v.inst, v.second, addrs[1]);
  if (v.third)
    setOperand(v.inst, v.third, addrs[2]);
  setOperand(v.inst, "d", addrs.back());
  emitInst(v.inst);
  return success();
}

Encoder::VectorInst Encoder::vcmp(emit::VCmpOp op, Type ta) {
  VectorInst v{inst(isa::Opcode::V_CMP), "b"};
  v.inst.fields[F::V_CMP::func] = int64_t(op.getFunc());
  v.inst.fields[F::V_CMP::dtype] = dtype(ta);
  return v;
}

Encoder::VectorInst Encoder::vsel(Type ta) {
  VectorInst v{inst(isa::Opcode::V_SEL), "b", "m"};
  v.inst.fields[F::V_SEL::dtype] = dtype(ta);
  return v;
}

Encoder::VectorInst Encoder::vbin(emit::VBinOp op, Type ta) {
  VectorInst v{inst(isa::Opcode::V_BIN), "b"};
  v.inst.fields[F::V_BIN::func] = int64_t(op.getFunc());
  v.inst.fields[F::V_BIN::dtype] = dtype(ta);
  return v;
}

Encoder::VectorInst Encoder::vun(emit::VUnOp op, Type ta) {
  VectorInst v{inst(isa::Opcode::V_UN)};
  v.inst.fields[F::V_UN::func] = int64_t(op.getFunc());
  v.inst.fields[F::V_UN::dtype] = dtype(ta);
  return v;
}

Encoder::VectorInst Encoder::vbini(emit::VBinImmOp op, Type ta) {
  VectorInst v{inst(isa::Opcode::V_BINI)};
  v.inst.fields[F::V_BINI::func] = int64_t(op.getFunc());
  v.inst.fields[F::V_BINI::dtype] = dtype(ta);
  uint32_t bits;
  if (auto f = llvm::dyn_cast<FloatAttr>(op.getImm())) {
    float x = float(f.getValueAsDouble());
    std::memcpy(&bits, &x, 4);
  } else {
    // The value the attribute's type says (an unsigned 8-bit 128 is 128,
    // not -128), as the elements read it.
    auto imm = llvm::cast<IntegerAttr>(op.getImm());
    bits = imm.getType().isUnsignedInteger() ? uint32_t(imm.getValue().getZExtValue())
                                             : uint32_t(imm.getValue().getSExtValue());
  }
  v.inst.fields[F::V_BINI::imm] = bits;
  return v;
}

/// With a scale, V_QUANT (f32 in) or V_DEQUANT (f32 out); else V_CAST.
Encoder::VectorInst Encoder::vcast(emit::CastOp op, Type ta, Type td) {
  if (!op.getScale()) {
    VectorInst v{inst(isa::Opcode::V_CAST)};
    v.inst.fields[F::V_CAST::itype] = dtype(ta), v.inst.fields[F::V_CAST::otype] = dtype(td);
    return v;
  }
  bool quant = ta.isF32();
  VectorInst v{inst(quant ? isa::Opcode::V_QUANT : isa::Opcode::V_DEQUANT)};
  if (quant)
    v.inst.fields[F::V_QUANT::otype] = dtype(td);
  else
    v.inst.fields[F::V_DEQUANT::itype] = dtype(ta);
  float scale = op.getScale()->convertToFloat();
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  v.inst.fields[F::V_QUANT::scale] = bits;
  v.inst.fields[F::V_QUANT::zp] = int64_t(op.getZp());
  return v;
}

Encoder::VectorInst Encoder::reduce(emit::ReduceOp op, Type ta, Type td) {
  VectorInst v{inst(isa::Opcode::V_REDUCE)};
  namespace V = F::V_REDUCE;
  v.inst.fields[V::func] = int64_t(op.getFunc());
  v.inst.fields[V::axis] = int64_t(op.getAxis());
  v.inst.fields[V::itype] = dtype(ta), v.inst.fields[V::otype] = dtype(td);
  return v;
}

/// Per column or row from the parameter table p, or per tensor from the
/// V_RQ_CFG registers (configured here, after the grid).
Encoder::VectorInst Encoder::requant(emit::RequantOp op, Type td) {
  VectorInst v{inst(isa::Opcode::V_REQUANT)};
  namespace V = F::V_REQUANT;
  if (op.getParams()) {
    v.inst.fields[V::pmode] = op.getPerRow() ? int64_t(isa::PMode::ROW) : int64_t(isa::PMode::COL);
    v.second = "p";
  } else {
    isa::Inst cfg = inst(isa::Opcode::V_RQ_CFG);
    namespace R = F::V_RQ_CFG;
    cfg.fields[R::mult] = op.getMult(), cfg.fields[R::ls] = op.getLs(), cfg.fields[R::rs] = op.getRs();
    cfg.fields[R::zp] = op.getZp(), cfg.fields[R::lo] = op.getLo(), cfg.fields[R::hi] = op.getHi();
    configure(cfg);
    v.inst.fields[V::pmode] = int64_t(isa::PMode::TENSOR);
  }
  v.inst.fields[V::otype] = dtype(td);
  return v;
}
