//===- Timing.h - NPU timing by geometry ------------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The one timing function of the target (npu-v1.md section 9, docs/target.md
// "Timing"): npu-sim's clock and the compiler's cost model both call it, so a
// schedule is tuned against the clock it runs on. Timing orders nothing (flags
// do), so sharing it does not weaken the simulator as an oracle. Base layer: no
// MLIR, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_BASE_TIMING_H
#define NPUC_BASE_TIMING_H

#include "npuc/Base/ISA.h"
#include "npuc/Base/Target.h"

#include <array>
#include <cstdint>
#include <vector>

namespace npuc::timing {

using target::TargetParams;

/// Scalar and configuration instructions take one cycle.
inline constexpr uint64_t kIssueCycles = 1;

/// The side A of the weight-stationary MATRIX array in `mode` (A x A MACs).
int64_t arraySide(const TargetParams &t, isa::MmMode mode);
/// A^2: the physical MAC/cycle peak of `mode`.
int64_t peakMacsPerCycle(const TargetParams &t, isa::MmMode mode);
/// Weight blocks of an [m x k] x [k x n] product: ceil(k/A) * ceil(n/A).
uint64_t matmulPasses(const TargetParams &t, isa::MmMode mode, int64_t n, int64_t k);
/// One MATMUL: 2A (fill and drain) + passes * max(m, A). Each pass holds an
/// A x A weight block and streams m rows, one per cycle; loading the next
/// block hides behind a pass of at least A rows.
uint64_t matmulCycles(const TargetParams &t, isa::MmMode mode, int64_t m, int64_t n, int64_t k);

/// The MATRIX output stage (MM_OUT) over an m x n accumulator tile: A
/// elements per cycle (A = the int8 array side), ceil(m * n / A).
uint64_t drainCycles(const TargetParams &t, int64_t m, int64_t n);

/// One VECTOR instruction over `elements` whose widest operand has
/// `widestBytes` per element: 4 + ceil(elements * widestBytes / lanes).
uint64_t vectorCycles(const TargetParams &t, uint64_t elements, unsigned widestBytes);
/// One V_DW (depthwise multiply-accumulate on VECTOR): the image and taps
/// stream at `elemBytes` per MAC, the int32 or fp32 sums stay in the lanes,
/// so lanes / elemBytes MACs per cycle: vectorCycles(macs, elemBytes).
uint64_t depthwiseCycles(const TargetParams &t, uint64_t macs, unsigned elemBytes);
/// One MM_DW (the array's depthwise mode): one channel per column, the taps
/// down it, `pixels` output pixels streamed one per cycle; the passes and
/// their timing are a product's with k = taps, n = channels, m = pixels:
/// matmulCycles(mode, pixels, channels, taps).
uint64_t arrayDepthwiseCycles(const TargetParams &t, isa::MmMode mode, int64_t channels,
                              int64_t taps, int64_t pixels);

/// The GM side of a DMA transfer: extents (dimension 0 innermost), byte
/// strides and element bytes.
struct GMAccess {
  std::array<int64_t, 4> extent{1, 1, 1, 1};
  std::array<int64_t, 4> stride{0, 0, 0, 0};
  unsigned elemBytes = 1;
};
/// Bytes of data the access moves.
uint64_t dataBytes(const GMAccess &a);
/// Bytes of GM bus time the access costs: it splits into contiguous runs and
/// every run costs at least one GM burst (a gather of 4-byte elements moves
/// a burst per element).
uint64_t busBytes(const TargetParams &t, const GMAccess &a);
/// Bytes of GM bus time of a gather (DMA_IN_GATHER) of `rows` boxes `box`
/// (extent 3 ignored): each row is its own transfer, so rows * busBytes of
/// one box; the index list is read from LM, off the GM bus.
uint64_t gatherBusBytes(const TargetParams &t, const GMAccess &box, uint64_t rows);
/// The order a DMA moves an access's dimensions in, innermost first: by
/// ascending |stride|, dimensions of one element or stride 0 last, ties kept.
/// The order of a copy's elements is free, and this one makes the longest
/// contiguous runs; the encoder issues DMAs in it and busBytes assumes it.
std::array<int, 4> runOrder(const GMAccess &a);
/// Cycles the shared GM bus needs for `bytes` of bus time.
uint64_t busCycles(const TargetParams &t, uint64_t bytes);

/// The two DMA engines and the GM bus they share. A descriptor pays the start
/// latency once; up to DmaInFlight descriptors of one engine overlap, so the
/// latency hides behind earlier transfers' data; data moves in start order at
/// the bus bandwidth both engines share.
class DmaTimeline {
public:
  enum EngineIndex : unsigned { In = 0, Out = 1 };
  explicit DmaTimeline(const TargetParams &t) : t(t) {}

  /// The earliest time at or after `t` at which `engine` may start another
  /// descriptor (fewer than DmaInFlight of its descriptors unfinished).
  uint64_t nextStart(EngineIndex engine, uint64_t time) const;
  struct Transfer {
    uint64_t dataStart, done;
  };
  /// Starts a descriptor of `engine` at `start` (at or after nextStart) that
  /// costs `bytes` of bus time.
  Transfer start(EngineIndex engine, uint64_t start, uint64_t bytes);
  /// When every descriptor `engine` started so far has completed.
  uint64_t drained(EngineIndex engine) const { return last[engine]; }

private:
  const TargetParams &t;
  uint64_t busFree = 0;
  /// Completion times of each engine's most recent descriptors (a ring of
  /// DmaInFlight entries; the target description bounds it below).
  static constexpr unsigned kMaxInFlight = 16;
  std::array<std::array<uint64_t, kMaxInFlight>, 2> ring{};
  std::array<unsigned, 2> head{};
  std::array<uint64_t, 2> last{};
};

/// The steady-state cycles per repetition of a loop body whose DMA_IN starts
/// descriptors of `in` bus bytes and whose DMA_OUT starts descriptors of `out`
/// bus bytes, in order, each engine as fast as its descriptor slots allow:
/// a DmaTimeline run over repetitions of the pattern. It is what the loop's
/// transfers alone cost: the shared bus, each descriptor's start latency,
/// and the slots (small descriptors queued behind a large one hold slots, so
/// the next large one may start only when this one is done). The cost models'
/// DMA term.
uint64_t dmaSteadyCycles(const TargetParams &t, const std::vector<uint64_t> &in,
                         const std::vector<uint64_t> &out);

} // namespace npuc::timing

#endif // NPUC_BASE_TIMING_H
