//===- Machine.cpp - Scheduling, SCALAR, flags and memory checks ----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Engines are advanced in order of simulated start time (ties: SCALAR, then
// engine number), which also makes every run deterministic. Whether two
// accesses race is decided by vector clocks: instruction B is ordered after A
// when they run on one engine or when B's clock has seen A's epoch through
// flags (set after the producer's earlier work completed), barriers and
// dispatch.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"
#include "npuc/Base/Hash.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace npuc;
using namespace npuc::sim;

const char *sim::spaceName(unsigned s) {
  static const isa::EnumDesc &regions = *isa::lookupEnum("Region");
  static const isa::EnumDesc &locals = *isa::lookupEnum("DmaDst");
  return s < isa::kRegionCount ? regions.values[s]
         : s < kNumSpaces      ? locals.values[s - isa::kRegionCount]
                               : "?";
}


static const char *engineName(unsigned e) { return isa::engineName(isa::Engine(e)); }

//===----------------------------------------------------------------------===//
// Space
//===----------------------------------------------------------------------===//

void Space::init(std::string n, uint64_t size, bool isHostInitialized, bool isWritable) {
  name = std::move(n);
  bytes.assign(size, 0);
  writable = isWritable;
  hostInitialized = isHostInitialized;
  pages.clear();
  pages.resize((size >> kPageBits) + 1);
}

Space::Page &Space::page(uint64_t addr) {
  auto &p = pages[addr >> kPageBits];
  if (!p) {
    p.reset(static_cast<Page *>(std::calloc(1, sizeof(Page))));
    if (!p)
      throw Fault{"out of host memory for the simulator's shadow of " + name};
  }
  return *p;
}

uint32_t &Space::writer(uint64_t addr) {
  return page(addr).writer[addr & ((1u << kPageBits) - 1)];
}
uint32_t &Space::reader(uint64_t addr, unsigned engine) {
  return page(addr).readers[engine - 1][addr & ((1u << kPageBits) - 1)];
}

//===----------------------------------------------------------------------===//
// Machine
//===----------------------------------------------------------------------===//

Machine::Machine(const model::Model &m, const target::TargetInfo &t, Options o)
    : dma(t.params), model(m), target(t), options(o) {
  spaces[CONST_].init("CONST", m.constants.size(), true, false);
  if (!m.constants.empty())
    std::memcpy(spaces[CONST_].bytes.data(), m.constants.data(), m.constants.size());
  spaces[ARENA].init("ARENA", m.arenaSize, false, true);
  spaces[INPUT].init("INPUT", m.inputSize, true, true);
  spaces[OUTPUT].init("OUTPUT", m.outputSize, false, true);
  spaces[STATE].init("STATE", m.stateSize, true, true);
  spaces[LM].init("LM", uint64_t(t.params.LMBytes), false, true);
  spaces[ACC].init("ACC", uint64_t(t.params.ACCBytes), false, true);
  spaces[LUT].init("LUT", uint64_t(t.params.LUTTables * t.params.LUTEntries * 2), false, true);
  for (size_t i = 0; i + isa::kWordBytes <= m.code.size(); i += isa::kWordBytes) {
    isa::Word w;
    std::memcpy(w.data(), m.code.data() + i, isa::kWordBytes);
    isa::Inst inst;
    std::string error;
    if (!isa::decode(w, inst, &error))
      fail("instruction " + std::to_string(i / 16) + ": " + error);
    code.push_back(inst);
  }
  watched.assign(code.size(), false);
  if (options.profile)
    profile.assign(code.size(), PcProfile{});
  for (uint32_t pc : o.watch)
    if (pc < code.size())
      watched[pc] = true;
}

void Machine::fail(const std::string &message) { throw Fault{message}; }

void Machine::checkWork(uint64_t elements, uint32_t at) {
  if (elements > options.maxWork || work > options.maxWork - elements)
    fail("more than " + std::to_string(options.maxWork) + " element operations: " + describe(at) +
         " asks for " + std::to_string(elements) + " (a runaway program?)");
  work += elements;
}

std::string Machine::describe(uint32_t at) const {
  std::string s = "instruction " + std::to_string(at);
  if (at < code.size())
    s += std::string(" (") + code[at].desc->mnemonic + ")";
  // The last record at or before `at` names its node (docs/model-format.md).
  const std::string *node = nullptr;
  for (const auto &[index, name] : model.debug)
    if (index <= at)
      node = &name;
  if (node && !node->empty())
    s += " of node '" + *node + "'";
  return s;
}

bool Machine::ordered(uint32_t prevDyn, const VectorClock &clock, unsigned engine) const {
  const DynOp &p = dyn[prevDyn];
  return p.engine == engine || clock[p.engine] >= p.epoch;
}

namespace {
/// Whether v[0, n) holds one value: a branch-free pass the compiler
/// vectorizes, where the checks below branch per element.
bool uniform(const uint32_t *v, uint64_t n) {
  uint32_t diff = 0;
  for (uint64_t i = 0; i < n; ++i)
    diff |= v[i] ^ v[0];
  return diff == 0;
}
} // namespace

uint8_t *Machine::access(unsigned s, uint64_t addr, uint64_t len, bool write, uint32_t dynId,
                         const char *what) {
  Space &space = spaces[s];
  const DynOp &self = dyn[dynId];
  auto range = [&] {
    return std::string(space.name) + " [" + hex0x(addr) + ", " + hex0x(addr + len) + ")";
  };
  if (addr > space.bytes.size() || len > space.bytes.size() - addr)
    fail("out-of-bounds access: " + describe(self.pc) + " on " + engineName(self.engine) + " " +
         (write ? "writes " : "reads ") + what + " at " + range() + ", but " + space.name +
         " has " + hex0x(space.bytes.size()) + " bytes");
  if (write && !space.writable)
    fail(describe(self.pc) + " on " + engineName(self.engine) + " writes " + what + " at " +
         range() + ", but " + space.name + " is read-only");
  const VectorClock &clock = *currentClock;
  // Page by page; each shadow value is checked once per run of equal values
  // (bytes an instruction wrote or read together share them), since every
  // check depends only on the value.
  auto readFault = [&](uint64_t a, uint32_t w) {
    if (w == Space::kNever)
      fail("read of uninitialized memory: " + describe(self.pc) + " on " +
           engineName(self.engine) + " reads " + what + " at " + range() + ", but byte " +
           hex0x(a) + " of " + space.name + " was never written");
    fail("data race on " + space.name + " byte " + hex0x(a) + ": " + describe(self.pc) + " on " +
         engineName(self.engine) + " reads " + what + " at " + range() + ", which " +
         describe(dyn[w - 1].pc) + " on " + engineName(dyn[w - 1].engine) +
         " wrote; no flag or barrier orders them");
  };
  uint32_t mark = dynId + 1;
  if (len <= 16) {
    // A few bytes (an element, a short row): byte by byte, no set-up.
    for (uint64_t a = addr; a < addr + len; ++a) {
      uint32_t &w = space.writer(a);
      if (!write) {
        if (w == Space::kNever ? !space.hostInitialized : !ordered(w - 1, clock, self.engine))
          readFault(a, w);
        space.reader(a, self.engine) = mark;
        continue;
      }
      if (w != Space::kNever && !ordered(w - 1, clock, self.engine))
        fail("data race on " + space.name + " byte " + hex0x(a) + ": " + describe(self.pc) +
             " on " + engineName(self.engine) + " writes " + what + " at " + range() + ", which " +
             describe(dyn[w - 1].pc) + " on " + engineName(dyn[w - 1].engine) +
             " also wrote; no flag or barrier orders them");
      for (unsigned e = 1; e < kNumEngines; ++e) {
        uint32_t &r = space.reader(a, e);
        if (r != Space::kNever && !ordered(r - 1, clock, self.engine))
          fail("data race on " + space.name + " byte " + hex0x(a) + ": " + describe(self.pc) +
               " on " + engineName(self.engine) + " writes " + what + " at " + range() +
               ", which " + describe(dyn[r - 1].pc) + " on " + engineName(e) +
               " reads; no flag or barrier orders them");
        r = Space::kNever;
      }
      w = mark;
    }
    return space.bytes.data() + addr;
  }
  uint32_t checkedWriter = UINT32_MAX;
  std::array<uint32_t, kNumEngines> checkedReader;
  checkedReader.fill(UINT32_MAX);
  for (uint64_t a = addr, end = addr + len; a < end;) {
    uint64_t n = std::min(end - a, Space::pageRest(a));
    uint32_t *w = space.writers(a);
    if (!write) {
      uint32_t *r = space.readers(a, self.engine);
      if (uniform(w, n)) {
        // One writer for the whole run (the common case): one check.
        if (w[0] != checkedWriter) {
          bool ok = w[0] == Space::kNever ? space.hostInitialized : ordered(w[0] - 1, clock, self.engine);
          if (!ok)
            readFault(a, w[0]);
          checkedWriter = w[0];
        }
        std::fill(r, r + n, mark);
        a += n;
        continue;
      }
      for (uint64_t i = 0; i < n; ++i) {
        if (w[i] != checkedWriter) {
          bool ok = w[i] == Space::kNever ? space.hostInitialized : ordered(w[i] - 1, clock, self.engine);
          if (!ok)
            readFault(a + i, w[i]);
          checkedWriter = w[i];
        }
        r[i] = mark;
      }
      a += n;
      continue;
    }
    for (uint64_t i = 0, step = uniform(w, n) ? n : 1; i < n; i += step)
      if (w[i] != checkedWriter) {
        if (w[i] != Space::kNever && !ordered(w[i] - 1, clock, self.engine))
          fail("data race on " + space.name + " byte " + hex0x(a + i) + ": " + describe(self.pc) +
               " on " + engineName(self.engine) + " writes " + what + " at " + range() +
               ", which " + describe(dyn[w[i] - 1].pc) + " on " + engineName(dyn[w[i] - 1].engine) +
               " also wrote; no flag or barrier orders them");
        checkedWriter = w[i];
      }
    for (unsigned e = 1; e < kNumEngines; ++e) {
      uint32_t *r = space.readers(a, e);
      for (uint64_t i = 0, step = uniform(r, n) ? n : 1; i < n; i += step)
        if (r[i] != checkedReader[e]) {
          if (r[i] != Space::kNever && !ordered(r[i] - 1, clock, self.engine))
            fail("data race on " + space.name + " byte " + hex0x(a + i) + ": " + describe(self.pc) +
                 " on " + engineName(self.engine) + " writes " + what + " at " + range() +
                 ", which " + describe(dyn[r[i] - 1].pc) + " on " + engineName(e) +
                 " reads; no flag or barrier orders them");
          checkedReader[e] = r[i];
        }
      std::fill(r, r + n, Space::kNever);
    }
    std::fill(w, w + n, mark);
    a += n;
  }
  return space.bytes.data() + addr;
}

FlagState &Machine::flag(unsigned src, unsigned dst, unsigned id, uint32_t atPc) {
  if (src == dst)
    fail(describe(atPc) + " uses a flag from " + engineName(src) + " to itself");
  if (id >= unsigned(target.params.FlagsPerPair))
    fail(describe(atPc) + " uses flag " + std::to_string(id) + ", but " + target.name +
         " has " + std::to_string(target.params.FlagsPerPair) + " flags per engine pair");
  return flags[src][dst][id];
}

void Machine::setFlag(EngineId src, unsigned dst, unsigned id, uint64_t time,
                      const VectorClock &clock, uint32_t atPc) {
  FlagState &f = flag(src, dst, id, atPc);
  // A set is processed when its SET_FLAG issues (the flag becomes set later,
  // at `time`); a wait that consumes the pending signal can only be ordered
  // before this set if it already ran, so a pending signal is a lost one
  // whatever the timing.
  if (f.set)
    fail("flag (" + std::string(engineName(src)) + " -> " + engineName(dst) + ", " +
         std::to_string(id) + ") may be set twice: " + describe(atPc) + " sets it while the " +
         "signal " + describe(f.pc) + " set is pending, and nothing orders it after the " +
         "wait_flag that consumes that signal (a lost signal)");
  // Decided on ordering, like races: unless this set happens after the wait
  // that consumed the previous signal, another timing sets it twice.
  if (f.waitDyn >= 0 && !ordered(uint32_t(f.waitDyn), clock, src))
    fail("flag (" + std::string(engineName(src)) + " -> " + engineName(dst) + ", " +
         std::to_string(id) + ") may be set twice: " + describe(atPc) +
         " sets it with nothing ordering it after " + describe(f.waitPc) +
         ", which consumes the previous signal (a lost signal under other timing)");
  f = FlagState{true, time, clock, atPc};
}

//===----------------------------------------------------------------------===//
// SCALAR
//===----------------------------------------------------------------------===//

static int32_t alu(unsigned func, int32_t a, int32_t b) {
  uint32_t ua = uint32_t(a), ub = uint32_t(b);
  switch (isa::AluFunc(func)) {
  case isa::AluFunc::ADD: return int32_t(ua + ub);
  case isa::AluFunc::SUB: return int32_t(ua - ub);
  case isa::AluFunc::MUL: return int32_t(ua * ub);
  case isa::AluFunc::AND: return int32_t(ua & ub);
  case isa::AluFunc::OR: return int32_t(ua | ub);
  case isa::AluFunc::XOR: return int32_t(ua ^ ub);
  case isa::AluFunc::SHL: return int32_t(ua << (ub & 31));
  case isa::AluFunc::SHR: return int32_t(ua >> (ub & 31));
  case isa::AluFunc::SRA: return a >> (ub & 31);
  case isa::AluFunc::MIN: return std::min(a, b);
  case isa::AluFunc::MAX: return std::max(a, b);
  }
  return 0;
}

static bool compare(unsigned func, int32_t a, int32_t b) {
  switch (isa::CmpFunc(func)) {
  case isa::CmpFunc::EQ: return a == b;
  case isa::CmpFunc::NE: return a != b;
  case isa::CmpFunc::LT: return a < b;
  case isa::CmpFunc::LE: return a <= b;
  case isa::CmpFunc::GT: return a > b;
  case isa::CmpFunc::GE: return a >= b;
  case isa::CmpFunc::LTU: return uint32_t(a) < uint32_t(b);
  case isa::CmpFunc::GEU: return uint32_t(a) >= uint32_t(b);
  }
  return false;
}

void Machine::stepScalar() {
  if (pc >= code.size())
    fail("SCALAR ran past the end of the code (" + std::to_string(code.size()) +
         " instructions) without reaching end");
  if (++stats.scalarSteps > options.maxSteps)
    fail("more than " + std::to_string(options.maxSteps) +
         " SCALAR steps: the program does not terminate (at " + describe(pc) + ")");
  const isa::Inst &inst = code[pc];
  const isa::InstDesc &d = *inst.desc;
  int nregs = int(target.params.ScalarRegs);
  auto reg = [&](int64_t r) -> int32_t {
    if (r >= nregs)
      fail(describe(pc) + " names r" + std::to_string(r) + ", but " + target.name + " has " +
           std::to_string(nregs) + " scalar registers");
    return regs[r];
  };
  auto setReg = [&](int64_t r, int32_t v) {
    reg(r);
    if (r != 0)
      regs[r] = v;
  };
  uint32_t next = pc + 1;
  auto jump = [&](int64_t offset) {
    int64_t target = int64_t(pc) + offset;
    if (target < 0 || target >= int64_t(code.size()))
      fail(describe(pc) + " jumps to " + std::to_string(target) + ", outside the code");
    if (!loops.empty() && (target < loops.back().start || target >= loops.back().end))
      fail(describe(pc) + " jumps to " + std::to_string(target) +
           ", out of the body of the hardware loop at instruction " +
           std::to_string(loops.back().start - 1));
    next = uint32_t(target);
  };
  isa::Opcode op = isa::Opcode(d.opcode);
  int engine = d.engine;
  if (op == isa::Opcode::SET_FLAG || op == isa::Opcode::WAIT_FLAG)
    engine = int(inst[0]);
  if (engine == SCALAR) {
    scalarTime += 1;
    switch (op) {
    case isa::Opcode::NOP: break;
    case isa::Opcode::END:
      blocked = Blocked::Done;
      stats.engines[SCALAR].instructions += 1;
      stats.engines[SCALAR].busyCycles += 1;
      return;
    case isa::Opcode::LI: setReg(inst[0], int32_t(inst[1])); break;
    case isa::Opcode::ALU: setReg(inst[1], alu(unsigned(inst[0]), reg(inst[2]), reg(inst[3]))); break;
    case isa::Opcode::ALUI: setReg(inst[1], alu(unsigned(inst[0]), reg(inst[2]), int32_t(inst[3]))); break;
    case isa::Opcode::CMP: setReg(inst[1], compare(unsigned(inst[0]), reg(inst[2]), reg(inst[3]))); break;
    case isa::Opcode::BR:
      if (compare(unsigned(inst[0]), reg(inst[1]), reg(inst[2])))
        jump(inst[3]);
      break;
    case isa::Opcode::JMP: jump(inst[0]); break;
    case isa::Opcode::LOOP: {
      int64_t signedCount = inst[1] + int64_t(reg(inst[0]));
      if (signedCount < 0)
        fail(describe(pc) + " has a negative iteration count " + std::to_string(signedCount));
      uint64_t count = uint64_t(signedCount);
      uint32_t end = pc + 1 + uint32_t(inst[2]);
      if (end > code.size())
        fail(describe(pc) + " has a body past the end of the code");
      if (!loops.empty() && end > loops.back().end)
        fail(describe(pc) + " has a body that ends after the body of the enclosing loop at "
                            "instruction " + std::to_string(loops.back().start - 1) +
             " (loops must nest)");
      if (count == 0) {
        next = end;
      } else {
        if (loops.size() == 4)
          fail(describe(pc) + " nests hardware loops deeper than 4");
        loops.push_back({pc + 1, end, count});
      }
      break;
    }
    case isa::Opcode::SET_FLAG:
      setFlag(SCALAR, unsigned(inst[1]), unsigned(inst[2]), scalarTime, scalarClock, pc);
      break;
    case isa::Opcode::WAIT_FLAG: {
      FlagState &f = flag(unsigned(inst[1]), SCALAR, unsigned(inst[2]), pc);
      if (!f.set) {
        scalarTime -= 1;
        --stats.scalarSteps;
        blocked = Blocked::Flag;
        blockedOn = unsigned(inst[1]) * 8 + unsigned(inst[2]);
        return;
      }
      for (unsigned e = 0; e < kNumEngines; ++e)
        scalarClock[e] = std::max(scalarClock[e], f.clock[e]);
      scalarTime = std::max(scalarTime, f.time + 1);
      f.set = false;
      f.waitDyn = -1;  // later dispatches are after SCALAR's wait
      break;
    }
    case isa::Opcode::BARRIER: {
      unsigned mask = unsigned(inst[0]);
      for (unsigned e = 1; e < kNumEngines; ++e)
        if ((mask >> (e - 1)) & 1 && !engines[e].queue.empty()) {
          scalarTime -= 1;
          --stats.scalarSteps;
          blocked = Blocked::Barrier;
          blockedOn = mask;
          return;
        }
      for (unsigned e = 1; e < kNumEngines; ++e)
        if ((mask >> (e - 1)) & 1) {
          scalarTime = std::max(scalarTime, engines[e].doneAt);
          for (unsigned k = 0; k < kNumEngines; ++k)
            scalarClock[k] = std::max(scalarClock[k], engines[e].clock[k]);
        }
      break;
    }
    default:
      fail(describe(pc) + " cannot run on SCALAR");
    }
    stats.engines[SCALAR].instructions += 1;  // blocked attempts returned above
    stats.engines[SCALAR].busyCycles += 1;
  } else {
    EngineState &target = engines[engine];
    if (target.queue.size() >= size_t(this->target.params.QueueDepth)) {
      --stats.scalarSteps;
      blocked = Blocked::QueueFull;
      blockedOn = unsigned(engine);
      return;
    }
    // (Register indices were checked against the target when the file was read.)
    target.queue.push_back(Queued{inst, pc, regs, scalarTime, scalarClock});
    scalarTime += 1;
  }
  pc = next;
  while (!loops.empty() && pc == loops.back().end) {
    if (--loops.back().remaining > 0) {
      pc = loops.back().start;
      break;
    }
    loops.pop_back();
  }
}

//===----------------------------------------------------------------------===//
// Scheduling
//===----------------------------------------------------------------------===//

bool Machine::scalarReady(uint64_t &time) {
  switch (blocked) {
  case Blocked::Done:
    return false;
  case Blocked::No:
    time = scalarTime;
    return true;
  case Blocked::QueueFull:
    if (engines[blockedOn].queue.size() >= size_t(target.params.QueueDepth))
      return false;
    break;
  case Blocked::Barrier:
    for (unsigned e = 1; e < kNumEngines; ++e)
      if ((blockedOn >> (e - 1)) & 1 && !engines[e].queue.empty())
        return false;
    break;
  case Blocked::Flag:
    if (!flags[blockedOn / 8][SCALAR][blockedOn % 8].set)
      return false;
    break;
  }
  blocked = Blocked::No;
  time = scalarTime;
  return true;
}

bool Machine::engineReady(EngineId e, uint64_t &time) {
  EngineState &s = engines[e];
  if (s.queue.empty())
    return false;
  const Queued &q = s.queue.front();
  time = std::max(s.freeAt, q.dispatchTime);
  switch (isa::Opcode(q.inst.desc->opcode)) {
  case isa::Opcode::WAIT_FLAG: {
    FlagState &f = flag(unsigned(q.inst[1]), e, unsigned(q.inst[2]), q.pc);
    if (!f.set)
      return false;
    time = std::max(time, f.time);
    break;
  }
  case isa::Opcode::DMA_IN_START:
  case isa::Opcode::DMA_IN_GATHER:
    time = dma.nextStart(timing::DmaTimeline::In, time);
    break;
  case isa::Opcode::DMA_OUT_START:
  case isa::Opcode::DMA_OUT_SCATTER:
    time = dma.nextStart(timing::DmaTimeline::Out, time);
    break;
  case isa::Opcode::MM_OUT:
    time = std::max(time, drainFreeAt);  // one output stage at a time
    break;
  default:
    break;
  }
  return true;
}

void Machine::startEngine(EngineId e, uint64_t start) {
  EngineState &s = engines[e];
  Queued q = std::move(s.queue.front());
  s.queue.pop_front();
  if (blocked == Blocked::QueueFull && blockedOn == e)
    scalarTime = std::max(scalarTime, start);
  for (unsigned k = 0; k < kNumEngines; ++k)
    s.clock[k] = std::max(s.clock[k], q.scalarClock[k]);
  ++s.clock[e];
  uint32_t dynId = uint32_t(dyn.size());
  dyn.push_back({q.pc, e, s.clock[e]});
  currentClock = &s.clock;
  currentEngine = e;
  uint64_t cycles = 1;
  switch (isa::Opcode(q.inst.desc->opcode)) {
  case isa::Opcode::SET_FLAG:
    // The flag is set once every earlier instruction of this engine has
    // completed (DMA descriptors and the output stage may still be in
    // flight); the engine goes on with its queue meanwhile.
    setFlag(e, unsigned(q.inst[1]), unsigned(q.inst[2]), std::max(start, s.doneAt) + 1, s.clock,
            q.pc);
    break;
  case isa::Opcode::WAIT_FLAG: {
    FlagState &f = flag(unsigned(q.inst[1]), e, unsigned(q.inst[2]), q.pc);
    for (unsigned k = 0; k < kNumEngines; ++k)
      s.clock[k] = std::max(s.clock[k], f.clock[k]);
    f.set = false;
    f.waitDyn = dynId;
    f.waitPc = q.pc;
    break;
  }
  default: {
    uint64_t gmBefore = stats.gmBytesRead + stats.gmBytesWritten, macsBefore = stats.macs;
    cycles = execute(e, q, dynId, start);
    if (options.profile) {
      PcProfile &p = profile[q.pc];
      p.gmBytes += stats.gmBytesRead + stats.gmBytesWritten - gmBefore;
      uint64_t macs = stats.macs - macsBefore;
      p.macs += macs;
      if (macs) {
        uint64_t peak = uint64_t(timing::peakMacsPerCycle(
            target.params, isa::MmMode(q.inst[isa::field::MATMUL::mode])));
        p.peakCycles += (macs + peak - 1) / peak;
      }
    }
  }
  }
  if (watched[q.pc] && options.observe)
    options.observe(q.pc);
  // A DMA descriptor occupies its engine's issue slot for one cycle and stays
  // in flight until done; so does the MATRIX output stage, which drains while
  // the array runs its next pass. Every other instruction holds its engine
  // throughout. Busy time and trace slices cover the union of in-flight intervals.
  uint64_t done = start + cycles, from = std::max(start, s.doneAt);
  isa::Opcode opc = isa::Opcode(q.inst.desc->opcode);
  bool descriptor = opc == isa::Opcode::DMA_IN_START || opc == isa::Opcode::DMA_IN_GATHER ||
                    opc == isa::Opcode::DMA_OUT_START || opc == isa::Opcode::DMA_OUT_SCATTER ||
                    opc == isa::Opcode::MM_OUT;
  if (opc == isa::Opcode::MM_OUT)
    drainFreeAt = done;
  s.freeAt = descriptor ? start + timing::kIssueCycles : done;
  s.doneAt = std::max(s.doneAt, done);
  stats.engines[e].instructions += 1;
  stats.engines[e].busyCycles += done > from ? done - from : 0;
  if (options.profile) {
    PcProfile &p = profile[q.pc];
    p.busy[e] += done > from ? done - from : 0;
    p.first = std::min(p.first, start);
    p.last = std::max(p.last, done);
  }
  stats.cycles = std::max(stats.cycles, s.doneAt);
  // An instruction that ends inside the in-flight union (a DMA configuration
  // issued while descriptors move) is an instant at its start, so slices nest.
  if (options.trace)
    trace.push_back(done > from ? TraceEvent{uint8_t(e), q.pc, from, done}
                                : TraceEvent{uint8_t(e), q.pc, start, start});
}

void Machine::deadlock() {
  std::string why = "deadlock: no engine can make progress.";
  if (blocked == Blocked::Barrier)
    why += " SCALAR waits at a barrier before " + describe(pc) + ";";
  else if (blocked == Blocked::QueueFull)
    why += " SCALAR waits for room in the " + std::string(engineName(blockedOn)) +
           " queue to dispatch " + describe(pc) + ";";
  else if (blocked == Blocked::Flag)
    why += " SCALAR waits for flag (" + std::string(engineName(blockedOn / 8)) +
           " -> SCALAR, " + std::to_string(blockedOn % 8) + ") at " + describe(pc) + ";";
  for (unsigned e = 1; e < kNumEngines; ++e) {
    const EngineState &s = engines[e];
    if (s.queue.empty())
      continue;
    const Queued &q = s.queue.front();
    why += std::string(" ") + engineName(e) + " waits at " + describe(q.pc);
    if (isa::Opcode(q.inst.desc->opcode) == isa::Opcode::WAIT_FLAG)
      why += " for flag (" + std::string(engineName(unsigned(q.inst[1]))) + " -> " +
             engineName(e) + ", " + std::to_string(q.inst[2]) + "), which nothing sets";
    why += ";";
  }
  why.pop_back();
  fail(why);
}

void Machine::run() {
  for (;;) {
    uint64_t best = UINT64_MAX, t;
    int who = -1;
    if (scalarReady(t)) {
      best = t;
      who = SCALAR;
    }
    for (unsigned e = 1; e < kNumEngines; ++e)
      if (engineReady(EngineId(e), t) && t < best) {
        best = t;
        who = int(e);
      }
    if (who < 0) {
      bool idle = blocked == Blocked::Done;
      for (unsigned e = 1; e < kNumEngines; ++e)
        idle = idle && engines[e].queue.empty();
      if (idle)
        break;
      deadlock();
    }
    if (who == SCALAR)
      stepScalar();
    else
      startEngine(EngineId(who), best);
  }
  for (unsigned e = 0; e < kNumEngines; ++e)
    for (unsigned d = 0; d < kNumEngines; ++d)
      for (unsigned id = 0; id < 8; ++id)
        if (flags[e][d][id].set)
          fail("flag (" + std::string(engineName(e)) + " -> " + engineName(d) + ", " +
               std::to_string(id) + ") is still set at the end: " + describe(flags[e][d][id].pc) +
               " set it and nothing waited for it");
  stats.cycles = std::max(stats.cycles, scalarTime);
}

//===----------------------------------------------------------------------===//
// Simulator
//===----------------------------------------------------------------------===//

Simulator::Simulator(const model::Model &m, const target::TargetInfo &t, Options o) {
  try {
    machine = std::make_unique<Machine>(m, t, o);
  } catch (const Fault &) {
    machine.reset();
  } catch (const std::bad_alloc &) {
    machine.reset();
    outOfMemory = true;
  }
}
Simulator::~Simulator() = default;

std::vector<uint8_t> &Simulator::region(isa::Region r) { return machine->spaces[unsigned(r)].bytes; }
const Stats &Simulator::stats() const { return machine->stats; }
bool Simulator::written(isa::Region r, uint64_t addr) {
  return machine->spaces[unsigned(r)].initialized(addr);
}
const std::vector<TraceEvent> &Simulator::trace() const { return machine->trace; }
const std::vector<PcProfile> &Simulator::profile() const { return machine->profile; }

bool Simulator::run(std::string &fault) {
  if (!machine) {
    fault = outOfMemory ? "out of host memory for the model's regions" : "the code does not decode";
    return false;
  }
  try {
    machine->run();
    return true;
  } catch (const Fault &f) {
    fault = f.message;
    return false;
  } catch (const std::bad_alloc &) {
    fault = "out of host memory (the simulator's shadow memory)";
    return false;
  }
}
