//===- EmitToEnc.cpp - Engine operations to machine instructions ----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// One emit op becomes its configuration instructions (skipped when the
// engine's descriptor already holds the same values) and the instruction that
// starts the work: Encoder.h declares one method per emit op, defined here
// (dispatch, addresses, registers, SCALAR and sync) and by engine in
// EncodeDma.cpp, EncodeMatrix.cpp, EncodeVector.cpp and EncodeLoops.cpp. A local address that is not a multiple of the 32-byte
// granule takes its remainder from a scalar register borrowed for that one
// instruction (the engine captures it at dispatch, so it is returned at once).
//
//===----------------------------------------------------------------------===//

#include "Encoder.h"
#include "npuc/Conversion/Passes.h"
#include "npuc/Dialect/Enc/IR/EncDialect.h"
#include "npuc/Dialect/Graph/IR/QuantParameters.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"

namespace npuc {
#define GEN_PASS_DEF_CONVERTEMITTOENC
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

using namespace npuc;
using namespace npuc::encode;

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

LogicalResult Encoder::lower(Operation *op) {
  loc = op->getLoc();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](emit::HwLoopOp o) { return hwLoop(o); })
      .Case<emit::AllocOp, emit::ConstantOp, emit::ViewOp, emit::FlagOp>(
          [](Operation *) { return success(); })
      .Case([&](emit::ValueOp o) { return value(o); })
      .Case([&](emit::DmaOp o) { return dma(o); })
      .Case([&](emit::GatherOp o) { return gather(o); })
      .Case([&](emit::ScatterOp o) { return scatter(o); })
      .Case([&](emit::MatmulOp o) { return matmul(o); })
      .Case([&](emit::DrainOp o) { return drain(o); })
      .Case([&](emit::DepthwiseOp o) { return depthwise(o); })
      .Case([&](emit::SignalOp o) { return sync(o, true); })
      .Case([&](emit::WaitOp o) { return sync(o, false); })
      .Case([&](emit::BarrierOp o) { return barrier(o); })
      .Case([&](emit::VCmpOp o) { return vector(o, [&](Type ta, Type) { return vcmp(o, ta); }); })
      .Case([&](emit::VSelOp o) { return vector(o, [&](Type ta, Type) { return vsel(ta); }); })
      .Case([&](emit::VBinOp o) { return vector(o, [&](Type ta, Type) { return vbin(o, ta); }); })
      .Case([&](emit::VUnOp o) { return vector(o, [&](Type ta, Type) { return vun(o, ta); }); })
      .Case([&](emit::VBinImmOp o) { return vector(o, [&](Type ta, Type) { return vbini(o, ta); }); })
      .Case([&](emit::CastOp o) { return vector(o, [&](Type ta, Type td) { return vcast(o, ta, td); }); })
      .Case([&](emit::ReduceOp o) {
        return vector(o, [&](Type ta, Type td) { return reduce(o, ta, td); });
      })
      .Case([&](emit::RequantOp o) { return vector(o, [&](Type, Type td) { return requant(o, td); }); })
      .Default([](Operation *op) { return op->emitOpError("has no encoding"); });
}

LogicalResult Encoder::value(emit::ValueOp v) {
  // Only DMA_OUT writes GM, in program order: once the last DMA_OUT before
  // this point has run, every write of the value has, and no later one.
  // A value in the input region is there from the start. DMA_OUT is one
  // in-order engine (npu-v1.md). A DMA_OUT in a hardware loop (an
  // emit.hw_loop; values are never observed inside one) completes once per
  // iteration: npu-sim takes the value each time, the last time after the
  // last iteration, which is when the unrolled code would.
  FailureOr<Addr> a = address(v, v.getBuffer());
  if (failed(a))
    return failure();
  observed.push_back({v, *a, a->space == MemorySpace::INPUT ? -1 : lastDmaOut});
  return success();
}

LogicalResult Encoder::sync(Operation *op, bool set) {
  // SET_FLAG runs on the source engine, WAIT_FLAG on the destination; both
  // name the other engine as the peer.
  Value flag = op->getOperand(0);
  auto ft = llvm::cast<emit::FlagType>(flag.getType());
  std::optional<uint64_t> id = flag.getDefiningOp<emit::FlagOp>().getId();
  if (!id)
    return op->emitOpError("uses a flag without a physical id (run emit-insert-sync)");
  isa::Inst i = inst(set ? isa::Opcode::SET_FLAG : isa::Opcode::WAIT_FLAG);
  i.fields[F::SET_FLAG::eng] = int64_t(set ? ft.getSrc() : ft.getDst());
  i.fields[F::SET_FLAG::peer] = int64_t(set ? ft.getDst() : ft.getSrc());
  i.fields[F::SET_FLAG::id] = int64_t(*id);
  emitInst(i);
  return success();
}

LogicalResult Encoder::barrier(emit::BarrierOp bar) {
  int64_t mask = 0;
  for (Attribute a : bar.getEngines()) {
    emit::Engine e = llvm::cast<emit::EngineAttr>(a).getValue();
    mask |= int64_t(1) << (int(e) - 1);
  }
  isa::Inst i = inst(isa::Opcode::BARRIER);
  i.fields[F::BARRIER::mask] = mask;
  emitInst(i);
  return success();
}

namespace {

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
