//===- Encoder.h - emit ops to machine instructions -----*- C++ -*- ---------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The encoder of convert-emit-to-enc, private to lib/Conversion/EmitToEnc: one
// method per emit op, defined by engine (EmitToEnc.cpp: dispatch, addresses,
// registers, SCALAR and sync; EncodeDma.cpp; EncodeMatrix.cpp; EncodeVector.cpp;
// EncodeLoops.cpp: hardware loops).
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_EMITTOENC_ENCODER_H
#define NPUC_LIB_CONVERSION_EMITTOENC_ENCODER_H

#include "npuc/Base/ISA.h"
#include "npuc/Base/Target.h"
#include "npuc/Base/Timing.h"
#include "npuc/Dialect/Emit/IR/EmitISA.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Enc/IR/EncOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <optional>
#include <vector>

namespace npuc::encode {

using namespace mlir;
namespace F = npuc::isa::field;
using emit::BufferType;
using emit::MemorySpace;

/// The ISA's local-memory operand field of an LM or ACC buffer.
inline int64_t spaceField(MemorySpace s) {
  return s == MemorySpace::ACC ? int64_t(isa::Local::ACC) : int64_t(isa::Local::LM);
}

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
    if (i.desc->opcode == uint8_t(isa::Opcode::DMA_OUT_START) || i.desc->opcode == uint8_t(isa::Opcode::DMA_OUT_SCATTER))
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

  // One encoding per emit op, by engine. SCALAR and sync (EmitToEnc.cpp):
  LogicalResult value(emit::ValueOp op);
  LogicalResult sync(Operation *op, bool set);
  LogicalResult barrier(emit::BarrierOp op);
  // DMA_IN and DMA_OUT (EncodeDma.cpp):
  LogicalResult dma(emit::DmaOp op);
  LogicalResult gather(emit::GatherOp op);    // DMA_IN_IDX, DMA_IN_GATHER
  LogicalResult scatter(emit::ScatterOp op);  // DMA_OUT_IDX, DMA_OUT_SCATTER
  LogicalResult indexedDescriptor(Operation *op, BufferType table, BufferType rows, bool in);
  FailureOr<isa::Inst> indexList(Operation *op, isa::Opcode opc, const Addr &list, BufferType table);
  // MATRIX (EncodeMatrix.cpp):
  LogicalResult matmul(emit::MatmulOp op);
  LogicalResult drain(emit::DrainOp op);
  // VECTOR (EncodeVector.cpp): V_DW, and the instructions whose operands
  // are named a, b (or the parameter table p), m and d.
  LogicalResult depthwise(emit::DepthwiseOp op);
  LogicalResult arrayDepthwise(emit::DepthwiseOp op, Addr a, Addr b, Addr d);
  FailureOr<Addr> windowBias(emit::DepthwiseOp op, isa::Inst &cfg, unsigned ePitch, int64_t max);
  /// A VECTOR instruction with its function and types set, and the names of
  /// its second and third input operands (none: nullptr).
  struct VectorInst {
    isa::Inst inst;
    const char *second = nullptr, *third = nullptr;
  };
  /// Addresses `op`'s operands, configures the grid, builds the instruction
  /// (`build`, given a's and d's element types), names its operands, emits it.
  LogicalResult vector(Operation *op, llvm::function_ref<VectorInst(Type ta, Type td)> build);
  VectorInst vcmp(emit::VCmpOp op, Type ta);
  VectorInst vsel(Type ta);
  VectorInst vbin(emit::VBinOp op, Type ta);
  VectorInst vun(emit::VUnOp op, Type ta);
  VectorInst vbini(emit::VBinImmOp op, Type ta);
  VectorInst vcast(emit::CastOp op, Type ta, Type td);
  VectorInst reduce(emit::ReduceOp op, Type ta, Type td);
  VectorInst requant(emit::RequantOp op, Type td);
  /// Configures the grid (the shape of `grid`, d's by default) and pitches.
  LogicalResult vectorShape(Operation *op, Value a, Value bv, Value d, Value grid = {});
  static int64_t dtype(Type t);
  /// emit::MemorySpace holds isa::Region's values, then isa::DmaDst's
  /// (EmitAttributes.td): a GM space's value is its region, a local space's
  /// is DMA_IN's destination after them.
  static int64_t region(MemorySpace s) { return int64_t(s); }
  static int64_t dmaDst(MemorySpace s) { return int64_t(s) - int64_t(isa::kRegionCount); }
};

} // namespace npuc::encode

#endif
