//===- TargetEmitter.cpp - Target tables and docs/target.md ---------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Emitters.h"
#include "ISAModel.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace npuc::tblgen;

// The canonical description of a target: what its hash covers.
static std::string canonicalText(const ISAModel &m, const TargetDef &t) {
  std::string text = "target=" + t.name + ";";
  for (const auto &[name, value] : t.params)
    text += name + "=" + std::to_string(value) + ";";
  return text + "isa=" + m.isaFingerprintText();
}

void npuc::tblgen::emitTargetTables(const ISAModel &m, raw_ostream &os) {
  emitBanner(os, "NPU target descriptions (base layer).", "//");
  if (m.targets.empty())
    return;
  const auto &params = m.targets.front().params;
  os << "\n#ifdef NPUC_TARGET_PARAMS\n";
  for (const auto &p : params)
    os << "  int64_t " << p.first << ";\n";
  os << "#endif\n\n#ifdef NPUC_TARGET_TABLES\n"
     << "static const char *const kParamNames[] = {";
  for (const auto &p : params)
    os << "\"" << p.first << "\", ";
  os << "};\nstatic constexpr int64_t TargetParams::*kParamMembers[] = {";
  for (const auto &p : params)
    os << "&TargetParams::" << p.first << ", ";
  os << "};\nstatic const TargetInfo kTargets[] = {\n";
  for (const TargetDef &t : m.targets) {
    if (t.params.size() != params.size())
      report_fatal_error("targets declare different parameters");
    os << "  {\"" << t.name << "\", \"" << t.doc << "\",\n   R\"npuc(" << canonicalText(m, t)
       << ")npuc\",\n   {";
    for (const auto &p : t.params)
      os << p.second << ", ";
    os << "}},\n";
  }
  os << "};\n#endif\n";
}

void npuc::tblgen::emitTargetDoc(const ISAModel &m, raw_ostream &os) {
  emitBanner(os, "docs/target.md", "<!--");
  os << "-->\n\n# NPU targets\n\n"
     << "Generated from `include/npuc/Base/Target.td` by `npuc-tblgen -gen-target-doc`. "
        "A target is data: every parameter below is one TableGen field, read by the "
        "compiler through `npuc::target::TargetInfo` and by the simulator through the "
        "same base library. `npuc --list-targets` prints this table and each target's "
        "hash.\n\n"
     << "The hash is FNV-1a (64-bit) of a canonical text that lists every parameter "
        "and every instruction's encoding (opcode, fields, bit ranges, legal ranges). "
        "The model file records it, so a model built for one machine or one encoding "
        "is never run on another.\n\n"
     << "Encodable ranges (what an address field can name) and capacities (what the "
        "machine has) are separate: an LM address field encodes 2 MiB in 32-byte "
        "granules, while npu-v1 has 1 MiB of LM and npu-v1-tiny 128 KiB.\n\n";
  os << "| parameter |";
  for (const TargetDef &t : m.targets)
    os << " " << t.name << " |";
  os << "\n|---|";
  for (size_t i = 0; i < m.targets.size(); ++i)
    os << "---|";
  os << "\n";
  for (size_t p = 0; p < m.targets.front().params.size(); ++p) {
    os << "| " << m.targets.front().params[p].first << " |";
    for (const TargetDef &t : m.targets)
      os << " " << t.params[p].second << " |";
    os << "\n";
  }
  os << "\n";
  for (const TargetDef &t : m.targets)
    os << "- **" << t.name << "**: " << t.doc << "\n";
  os << R"(
## Timing

Cycle counts follow the machine's geometry (npu-v1.md section 9). One timing
function in the base layer (`include/npuc/Base/Timing.h`, `npuc::timing`)
computes them from the parameters above; npu-sim's clock and the compiler's
cost model both call it. Timing orders nothing (flags do): it only says when.

- **MATRIX** (weight-stationary, A x A MACs, A = `MatrixSideInt8`,
  `MatrixSideFp16` or `MatrixSideFp32` by mode; peak A^2 MAC/cycle): a product
  [M x K] x [K x N] runs ceil(K/A) * ceil(N/A) passes; each holds one A x A
  weight block and streams M rows, one per cycle, and loading the next block
  hides behind a pass of at least A rows. Cycles = 2A (fill and drain, once per
  instruction) + passes * max(M, A). Peak needs K and N multiples of A and M of
  at least A: tile shapes decide utilization.
- **VECTOR**: 4 + ceil(elements * widest operand bytes / `VectorBytesPerCycle`).
- **DMA**: a descriptor takes its engine's issue slot for one cycle and pays
  `DmaStartLatency` once; up to `DmaInFlight` descriptors of one engine are in
  flight, so the latency hides behind earlier transfers' data. Data moves in
  start order at `GMBytesPerCycle`, a bus both DMA engines share. The GM side of
  a transfer (DMA_IN's source without its padding, DMA_OUT's destination) splits
  into contiguous runs and every run costs at least `GMBurstBytes` of bus time.
  SET_FLAG on a DMA engine waits until all its descriptors are done.
  The cost model charges a tile loop's transfers with this same timeline
  (`timing::dmaSteadyCycles`: the loop body's descriptors run through it
  repeatedly, and never less than one repetition's bus time), so small
  descriptors queued behind a large one, holding slots the next large one
  needs, cost what they cost on the clock.
- **SCALAR and configuration instructions**: 1 cycle.
)";
}
