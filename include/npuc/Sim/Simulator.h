//===- Simulator.h - Bit-exact NPU-v1 simulator -----------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Executes the code of a model file: SCALAR fetches and dispatches, the four
// other engines run their queues in order and concurrently, flags and barriers
// order them. The arithmetic is docs/numerics.md's; the race detector decides
// on happens-before (vector clocks through flags, barriers and dispatch), not
// on timing. Base layer only: no MLIR, no compiler code.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_SIM_SIMULATOR_H
#define NPUC_SIM_SIMULATOR_H

#include "npuc/Base/ISA.h"
#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Target.h"

#include <array>
#include <functional>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npuc::sim {

/// The engines, as ISA.td names them (isa::Engine's values index per-engine state).
inline constexpr unsigned kNumEngines = isa::kEngineCount;

struct EngineStats {
  uint64_t instructions = 0;
  uint64_t busyCycles = 0;
};

struct Stats {
  uint64_t cycles = 0;
  std::array<EngineStats, kNumEngines> engines{};
  uint64_t gmBytesRead = 0, gmBytesWritten = 0;
  uint64_t macs = 0;
  uint64_t scalarSteps = 0;
};

/// What one instruction (by pc) did over a run, with Options::profile: busy
/// cycles per engine (in-flight unions, as Stats), GM bytes it moved, MACs
/// and the cycles those MACs need at the array's peak for their mode, and the
/// first and last cycle it ran.
struct PcProfile {
  std::array<uint64_t, kNumEngines> busy{};
  uint64_t gmBytes = 0, macs = 0, peakCycles = 0;
  uint64_t first = UINT64_MAX, last = 0;
};

struct TraceEvent {
  uint8_t engine;
  uint32_t pc;
  uint64_t start, end;
};

struct Options {
  bool trace = false;
  /// Collect a PcProfile per instruction (npu-sim --profile).
  bool profile = false;
  /// Executed SCALAR instructions after which the run is a fault (runaway loop).
  uint64_t maxSteps = uint64_t(1) << 32;
  /// Element operations (DMA elements, VECTOR grid points) after which the
  /// run is a fault: one instruction can ask for 65535^4 elements.
  uint64_t maxWork = uint64_t(1) << 36;
  /// Instructions to observe: each time one of them has executed (its
  /// writes done), `observe` is called with its index. For tensor dumps.
  std::vector<uint32_t> watch;
  std::function<void(uint32_t pc)> observe;
};

class Machine;

class Simulator {
public:
  Simulator(const model::Model &model, const target::TargetInfo &target, Options options = {});
  ~Simulator();

  /// The bytes of a GM region (CONST, ARENA, INPUT, OUTPUT, STATE). Inputs
  /// are written here before run(), outputs read after it.
  std::vector<uint8_t> &region(isa::Region r);

  /// Runs to END. On a fault returns false; `fault` names the instructions,
  /// engines and address ranges involved.
  bool run(std::string &fault);

  /// Whether the byte at `addr` of a GM region holds a value (host-provided or
  /// written by the program).
  bool written(isa::Region r, uint64_t addr);

  const Stats &stats() const;
  const std::vector<TraceEvent> &trace() const;
  /// Per instruction, indexed by pc; empty without Options::profile.
  const std::vector<PcProfile> &profile() const;

  /// False when the machine could not be set up; run() then reports why.
  bool ready() const { return machine != nullptr; }

private:
  std::unique_ptr<Machine> machine;
  bool outOfMemory = false;
};

} // namespace npuc::sim

#endif
