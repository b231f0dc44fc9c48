//===- Machine.h - The simulator's internal state ---------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_SIM_MACHINE_H
#define NPUC_LIB_SIM_MACHINE_H

#include "npuc/Base/Timing.h"
#include "npuc/Sim/Simulator.h"

#include <cstdlib>
#include <deque>
#include <memory>

namespace npuc::sim {

/// isa::Engine as an index of per-engine state (its values come from ISA.td).
enum EngineId : uint8_t {
  SCALAR = uint8_t(isa::Engine::SCALAR),
  DMA_IN = uint8_t(isa::Engine::DMA_IN),
  DMA_OUT = uint8_t(isa::Engine::DMA_OUT),
  MATRIX = uint8_t(isa::Engine::MATRIX),
  VECTOR = uint8_t(isa::Engine::VECTOR),
};
using VectorClock = std::array<uint32_t, kNumEngines>;

/// Memory spaces as indices of per-space state: the GM regions (isa::Region),
/// then the local memories DMA_IN writes (isa::DmaDst); values from ISA.td.
enum SpaceId : uint8_t {
  CONST_ = uint8_t(isa::Region::CONST),
  ARENA = uint8_t(isa::Region::ARENA),
  INPUT = uint8_t(isa::Region::INPUT),
  OUTPUT = uint8_t(isa::Region::OUTPUT),
  STATE = uint8_t(isa::Region::STATE),
  LM = isa::kRegionCount + uint8_t(isa::DmaDst::LM),
  ACC = isa::kRegionCount + uint8_t(isa::DmaDst::ACC),
  LUT = isa::kRegionCount + uint8_t(isa::DmaDst::LUT),
  kNumSpaces = isa::kRegionCount + isa::kDmaDstCount,
};
// VECTOR and MATRIX operands name a local memory by isa::Local (LM + field):
// LM and ACC in the order DMA_IN's destinations have them.
static_assert(unsigned(isa::Local::LM) == unsigned(isa::DmaDst::LM) &&
                  unsigned(isa::Local::ACC) == unsigned(isa::DmaDst::ACC),
              "isa::Local and isa::DmaDst agree on LM and ACC");
const char *spaceName(unsigned s);

/// Thrown (and caught in Simulator::run) when the program faults.
struct Fault {
  std::string message;
};

/// One executed engine instruction, for the race detector.
struct DynOp {
  uint32_t pc;
  uint8_t engine;
  uint32_t epoch;  // the engine's own clock value
};

/// A memory with a shadow that records, per byte, the last writer and the
/// last reader per engine (as indices into Machine::dyn, plus one). Shadow
/// pages are allocated zeroed on first touch; a zero writer means "never
/// written" or, in a host-initialized space, "written by the host".
class Space {
public:
  static constexpr uint32_t kNever = 0;
  static constexpr unsigned kPageBits = 16;  // large enough for calloc to map zero pages

  bool hostInitialized = false;
  /// Whether the byte at `addr` holds a value.
  bool initialized(uint64_t addr) { return hostInitialized || writer(addr) != kNever; }

  std::string name;
  std::vector<uint8_t> bytes;
  bool writable = true;

  void init(std::string n, uint64_t size, bool hostInitialized, bool isWritable);
  uint32_t &writer(uint64_t addr);
  uint32_t &reader(uint64_t addr, unsigned engine);
  /// The shadow of the bytes from `addr` to the end of its page, contiguous:
  /// writers, and one engine's readers (engines DMA_IN .. VECTOR).
  uint32_t *writers(uint64_t addr) { return &writer(addr); }
  uint32_t *readers(uint64_t addr, unsigned engine) { return &reader(addr, engine); }
  /// Bytes from `addr` to the end of its shadow page.
  static uint64_t pageRest(uint64_t addr) {
    return (uint64_t(1) << kPageBits) - (addr & ((uint64_t(1) << kPageBits) - 1));
  }

private:
  struct Page {
    uint32_t writer[1 << kPageBits];
    uint32_t readers[kNumEngines - 1][1 << kPageBits];  // DMA_IN .. VECTOR
  };
  struct FreePage {
    void operator()(Page *p) const { std::free(p); }
  };
  Page &page(uint64_t addr);
  std::vector<std::unique_ptr<Page, FreePage>> pages;
};

struct Queued {
  isa::Inst inst;
  uint32_t pc;
  std::array<int32_t, 16> regs;
  uint64_t dispatchTime;
  VectorClock scalarClock;
};

struct EngineState {
  std::deque<Queued> queue;
  /// When the engine may start its next instruction.
  uint64_t freeAt = 0;
  /// When everything it started has completed (later than freeAt while DMA
  /// descriptors are in flight).
  uint64_t doneAt = 0;
  VectorClock clock{};
  /// Descriptor registers: the last configuration instruction of each opcode
  /// (dma_in_shape, mm_cfg, v_shape, ...) this engine ran; desc is null until then.
  isa::Inst config[256];
};

struct FlagState {
  bool set = false;
  uint64_t time = 0;
  VectorClock clock{};
  uint32_t pc = 0;
  /// The engine wait_flag that consumed the previous signal (dynamic id, or
  /// -1): the next set must be ordered after it.
  int64_t waitDyn = -1;
  uint32_t waitPc = 0;
};

struct ExecStep;

/// The operands of a depthwise window instruction (V_DW on VECTOR, MM_DW on
/// MATRIX), decoded: the same sums whichever engine runs them.
struct WindowStep {
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, lda = 0, orows = 1;
  int64_t azp = 0, bzp = 0, mode = 0;
  bool accumulate = false, bias = false, relu = false;
  isa::WindowFunc func = isa::WindowFunc::MAC;
  uint64_t a = 0, b = 0, d = 0, e = 0;
  unsigned dSpace = 0;
  int64_t rows = 1, cols = 1, apitch = 0, bpitch = 0, dpitch = 0, epitch = 0;
  /// The feeder's padding (MM_DW, V_DW): the image starts `pt` rows and `pl`
  /// columns into the window's coordinates and holds ih x iw elements; a tap
  /// outside reads the zero point. An extent of 0 holds every row (column)
  /// the window reaches; all four 0, the window reads only the image.
  int64_t pt = 0, pl = 0, ih = 0, iw = 0;
};

class Machine {
public:
  Machine(const model::Model &m, const target::TargetInfo &t, Options o);
  void run();  // throws Fault

  Space spaces[kNumSpaces];
  Stats stats;
  std::vector<TraceEvent> trace;
  std::vector<PcProfile> profile;  // by pc, with Options::profile

  // Execution of one engine instruction starting at `start` (Execute.cpp);
  // returns its duration in cycles.
  uint64_t execute(EngineId e, const Queued &q, uint32_t dynId, uint64_t start);
  // By engine and instruction kind (Execute.cpp).
  uint64_t executeDma(const ExecStep &x);
  uint64_t executeGather(const ExecStep &x);   // ExecuteIndexed.cpp
  uint64_t executeScatter(const ExecStep &x);  // ExecuteIndexed.cpp
  uint64_t executeMatmul(const ExecStep &x);
  uint64_t executeOutputStage(const ExecStep &x);
  uint64_t executeVector(const ExecStep &x);
  uint64_t executeArrayDepthwise(const ExecStep &x);
  /// Every channel's window sums of V_DW or MM_DW into d (ExecuteVector.cpp);
  /// returns the MACs.
  uint64_t windowSums(const ExecStep &x, const WindowStep &w);
  /// The DMA engines' descriptors in flight and the GM bus they share.
  timing::DmaTimeline dma;
  /// When MATRIX's output stage finishes its drain (MM_OUT).
  uint64_t drainFreeAt = 0;

  // Memory access with bounds, alignment, initialization and race checks.
  uint8_t *access(unsigned space, uint64_t addr, uint64_t len, bool write, uint32_t dynId,
                  const char *what);
  [[noreturn]] void fail(const std::string &message);
  /// Counts element operations against Options::maxWork (a runaway guard).
  void checkWork(uint64_t elements, uint32_t pc);
  uint64_t work = 0;
  std::string describe(uint32_t pc) const;  // "instruction 7 (matmul)"

  const model::Model &model;
  const target::TargetInfo &target;
  Options options;
  std::vector<bool> watched;  // by pc: Options::watch
  std::vector<isa::Inst> code;
  std::vector<DynOp> dyn;
  EngineState engines[kNumEngines];

private:
  // SCALAR state.
  enum class Blocked { No, QueueFull, Barrier, Flag, Done };
  Blocked blocked = Blocked::No;
  unsigned blockedOn = 0;  // engine (QueueFull), mask (Barrier), flag index (Flag)
  uint32_t pc = 0;
  std::array<int32_t, 16> regs{};
  uint64_t scalarTime = 0;
  VectorClock scalarClock{};
  struct Loop {
    uint32_t start, end;
    uint64_t remaining;
  };
  std::vector<Loop> loops;
  FlagState flags[kNumEngines][kNumEngines][8];

  void stepScalar();
  void startEngine(EngineId e, uint64_t start);
  bool scalarReady(uint64_t &time);
  bool engineReady(EngineId e, uint64_t &time);
  void setFlag(EngineId src, unsigned dst, unsigned id, uint64_t time, const VectorClock &clock,
               uint32_t atPc);
  FlagState &flag(unsigned src, unsigned dst, unsigned id, uint32_t atPc);
  [[noreturn]] void deadlock();
  bool ordered(uint32_t prevDyn, const VectorClock &clock, unsigned engine) const;
  friend class Space;
  const VectorClock *currentClock = nullptr;  // of the executing instruction
  unsigned currentEngine = 0;
};

} // namespace npuc::sim

#endif
