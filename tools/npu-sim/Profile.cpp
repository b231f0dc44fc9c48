//===- Profile.cpp - npu-sim --profile: cycles per ONNX node --------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Profile.h"
#include "npuc/Base/Json.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

using namespace npuc;

namespace {

struct Node {
  std::string name;
  uint64_t first = UINT64_MAX, last = 0, gmBytes = 0, macs = 0, peakCycles = 0;
  std::array<uint64_t, sim::kNumEngines> busy{};
  uint64_t instructions = 0;
  uint64_t span() const { return last > first ? last - first : 0; }
  double utilization() const { return span() ? double(peakCycles) / double(span()) : 0.0; }
};

/// Nodes in program order (of their first instruction).
std::vector<Node> nodes(const sim::Simulator &s, const model::Model &m) {
  std::map<std::string, size_t> index;
  std::vector<Node> out;
  const std::vector<sim::PcProfile> &prof = s.profile();
  for (size_t pc = 0; pc < prof.size(); ++pc) {
    const sim::PcProfile &p = prof[pc];
    if (p.first == UINT64_MAX)
      continue;  // never ran on an engine
    std::string name = model::joinedNodes(model::debugNodes(m, pc));
    if (name.empty())
      name = "(no node)";
    auto [it, fresh] = index.try_emplace(name, out.size());
    if (fresh)
      out.push_back(Node{name});
    Node &n = out[it->second];
    n.first = std::min(n.first, p.first);
    n.last = std::max(n.last, p.last);
    n.gmBytes += p.gmBytes, n.macs += p.macs, n.peakCycles += p.peakCycles;
    for (unsigned e = 0; e < sim::kNumEngines; ++e)
      n.busy[e] += p.busy[e];
    ++n.instructions;
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Node &a, const Node &b) { return a.first < b.first; });
  return out;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

} // namespace

std::string profile::table(const sim::Simulator &s, const model::Model &m,
                           const target::TargetInfo &t) {
  std::vector<Node> ns = nodes(s, m);
  std::stable_sort(ns.begin(), ns.end(),
                   [](const Node &a, const Node &b) { return a.span() > b.span(); });
  uint64_t total = s.stats().cycles;
  std::ostringstream os;
  os << "profile: " << ns.size() << " nodes, " << total << " cycles on " << t.name
     << " (spans overlap where nodes run concurrently)\n";
  char line[512];
  std::snprintf(line, sizeof line, "%10s %6s %9s %9s %9s %9s %11s %6s  %s\n", "cycles", "%run",
                "DMA_IN", "DMA_OUT", "MATRIX", "VECTOR", "GM bytes", "MAC%", "node");
  os << line;
  for (const Node &n : ns) {
    std::snprintf(line, sizeof line, "%10llu %6s %9llu %9llu %9llu %9llu %11llu %6s  ",
                  (unsigned long long)n.span(),
                  fixed(total ? 100.0 * double(n.span()) / double(total) : 0.0, 1).c_str(),
                  (unsigned long long)n.busy[1], (unsigned long long)n.busy[2],
                  (unsigned long long)n.busy[3], (unsigned long long)n.busy[4],
                  (unsigned long long)n.gmBytes, fixed(100.0 * n.utilization(), 1).c_str());
    os << line << n.name << "\n";  // names of any length
  }
  return os.str();
}

std::string profile::json(const sim::Simulator &s, const model::Model &m,
                          const target::TargetInfo &t) {
  std::ostringstream os;
  os << "{\"target\": " << json::quote(t.name) << ", \"cycles\": " << s.stats().cycles
     << ", \"nodes\": [";
  bool first = true;
  for (const Node &n : nodes(s, m)) {
    os << (first ? "\n" : ",\n") << "  {\"node\": " << json::quote(n.name)
       << ", \"first\": " << n.first << ", \"last\": " << n.last << ", \"cycles\": " << n.span()
       << ", \"instructions\": " << n.instructions << ", \"busy\": {";
    for (unsigned e = 1; e < sim::kNumEngines; ++e)
      os << (e > 1 ? ", " : "") << "\"" << isa::engineName(isa::Engine(e)) << "\": " << n.busy[e];
    os << "}, \"gm_bytes\": " << n.gmBytes << ", \"macs\": " << n.macs
       << ", \"mac_utilization\": " << fixed(n.utilization(), 4) << "}";
    first = false;
  }
  os << "\n]}\n";
  return os.str();
}
