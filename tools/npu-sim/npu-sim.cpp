//===- npu-sim.cpp - Run a model file -------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// npu-sim model.bin -i IN0 [-i NAME=IN1 ...] -o OUTDIR [--trace FILE] [--stats]
// Exit codes: 0 success, 1 bad input, 2 usage, 3 the program faulted.
// Base layer only: links no MLIR and no compiler code.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Json.h"
#include "npuc/Base/TensorFile.h"
#include "npuc/Sim/Simulator.h"

#include <CLI/CLI.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

using namespace npuc;

namespace {
constexpr int kBadInput = 1, kUsage = 2, kFault = 3;

int badInput(const std::string &msg) {
  std::cerr << "npu-sim: error: " << msg << "\n";
  return kBadInput;
}

/// Calls fn(physical byte offset) for each logical element in row-major order.
template <typename Fn> void forEachElement(const model::TensorDesc &t, Fn fn) {
  size_t rank = t.shape.size();
  std::vector<int64_t> idx(rank, 0);
  uint64_t n = t.numElements();
  for (uint64_t e = 0; e < n; ++e) {
    uint64_t off = t.offset;
    for (size_t d = 0; d < rank; ++d)
      off += uint64_t(idx[d]) * uint64_t(t.strides[d]);
    fn(off);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < t.shape[d])
        break;
      idx[d] = 0;
    }
  }
}

std::string describe(const model::TensorDesc &t) {
  std::string s = std::string(model::dtypeName(t.dtype)) + "[";
  for (size_t i = 0; i < t.shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(t.shape[i]);
  return s + "]";
}

void writeTrace(const std::string &path, const sim::Simulator &simulator,
                const model::Model &m, const target::TargetInfo &t) {
  std::ofstream os(path);
  os << "{\"traceEvents\": [\n";
  for (unsigned e = 0; e < sim::kNumEngines; ++e)
    os << "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": " << e
       << ", \"args\": {\"name\": \"" << isa::engineName(isa::Engine(e)) << "\"}},\n";
  double usPerCycle = 1.0 / double(t.params.ClockMHz);
  std::vector<isa::Inst> code;
  for (size_t i = 0; i + 16 <= m.code.size(); i += 16) {
    isa::Word w;
    std::memcpy(w.data(), m.code.data() + i, 16);
    isa::Inst inst;
    isa::decode(w, inst);
    code.push_back(inst);
  }
  for (const sim::TraceEvent &ev : simulator.trace())
    os << "{\"name\": " << json::quote(code[ev.pc].desc->mnemonic) << ", \"ph\": \"X\", \"pid\": 0, "
       << "\"tid\": " << unsigned(ev.engine) << ", \"ts\": " << double(ev.start) * usPerCycle
       << ", \"dur\": " << double(ev.end - ev.start) * usPerCycle << ", \"args\": {\"pc\": "
       << ev.pc << "}},\n";
  os << "{\"name\": \"end\", \"ph\": \"i\", \"pid\": 0, \"tid\": 0, \"ts\": "
     << double(simulator.stats().cycles) * usPerCycle << ", \"s\": \"g\"}\n]}\n";
}
} // namespace

int main(int argc, char **argv) {
  CLI::App app{"npu-sim: execute an npuc model file bit-exactly"};
  std::string modelPath, outDir, tracePath;
  std::vector<std::string> inputs;
  bool printStats = false;
  uint64_t maxSteps = uint64_t(1) << 32;
  app.add_option("model", modelPath, "model file")->required();
  app.add_option("-i,--input", inputs, "input tensor (.npy or .pb), in graph-input order, or NAME=FILE");
  app.add_option("-o,--output-dir", outDir, "directory for output_K.npy and outputs.json")->required();
  app.add_option("--trace", tracePath, "write a Chrome trace-event JSON file (Perfetto)");
  app.add_flag("--stats", printStats, "print cycles, engine busy time and GM traffic");
  app.add_option("--max-steps", maxSteps, "SCALAR steps before a runaway program faults")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : kUsage;
  }

  std::vector<uint8_t> bytes;
  std::string error;
  model::Model m;
  if (!model::readFile(modelPath, bytes, error))
    return badInput(error);
  if (!model::parse(bytes.data(), bytes.size(), m, error))
    return badInput(modelPath + ": " + error);
  const target::TargetInfo *target = target::lookupTarget(m.targetName);

  // Bind inputs: NAME=FILE by name, the rest in graph-input order.
  std::vector<const model::TensorDesc *> ins = m.tensorsWithRole(model::Role::Input);
  std::vector<std::string> files(ins.size());
  size_t positional = 0;
  for (const std::string &arg : inputs) {
    size_t eq = arg.find('=');
    if (eq != std::string::npos && eq > 0) {
      std::string name = arg.substr(0, eq);
      size_t k = 0;
      while (k < ins.size() && ins[k]->name != name)
        ++k;
      if (k == ins.size())
        return badInput("the model has no input named '" + name + "'");
      if (!files[k].empty())
        return badInput("input " + std::to_string(k) + " '" + name + "' is given twice");
      files[k] = arg.substr(eq + 1);
      continue;
    }
    while (positional < ins.size() && !files[positional].empty())
      ++positional;
    if (positional == ins.size())
      return badInput("more inputs given than the model's " + std::to_string(ins.size()));
    files[positional] = arg;
  }
  for (size_t k = 0; k < ins.size(); ++k)
    if (files[k].empty())
      return badInput("input " + std::to_string(k) + " '" + ins[k]->name + "' (" +
                      describe(*ins[k]) + ") is not given");

  sim::Options options;
  options.trace = !tracePath.empty();
  options.maxSteps = maxSteps;
  sim::Simulator simulator(m, *target, options);
  if (!simulator.ready()) {
    std::string why;
    simulator.run(why);
    std::cerr << "npu-sim: fault: " << why << "\n";
    return kFault;
  }
  std::vector<uint8_t> &inputRegion = simulator.region(isa::Region::INPUT);
  for (size_t k = 0; k < ins.size(); ++k) {
    HostTensor t;
    if (!readTensorFile(files[k], t, error))
      return badInput("input " + std::to_string(k) + " '" + ins[k]->name + "': " + error);
    if (t.dtype != ins[k]->dtype || t.shape != ins[k]->shape)
      return badInput("input " + std::to_string(k) + " '" + ins[k]->name + "': expected " +
                      describe(*ins[k]) + ", got " + t.describe());
    unsigned size = model::dtypeBytes(t.dtype);
    const uint8_t *src = t.data.data();
    forEachElement(*ins[k], [&](uint64_t off) {
      std::memcpy(inputRegion.data() + off, src, size);
      src += size;
    });
  }

  std::string fault;
  if (!simulator.run(fault)) {
    std::cerr << "npu-sim: fault: " << fault << "\n";
    return kFault;
  }

  std::error_code ec;
  std::filesystem::create_directories(outDir, ec);
  if (ec)
    return badInput("cannot create '" + outDir + "': " + ec.message());
  std::vector<uint8_t> &outputRegion = simulator.region(isa::Region::OUTPUT);
  std::string manifest = "{\"outputs\": [";
  std::vector<const model::TensorDesc *> outs = m.tensorsWithRole(model::Role::Output);
  for (size_t k = 0; k < outs.size(); ++k) {
    HostTensor t;
    t.name = outs[k]->name;
    t.dtype = outs[k]->dtype;
    t.shape = outs[k]->shape;
    unsigned size = model::dtypeBytes(t.dtype);
    bool complete = true;
    forEachElement(*outs[k], [&](uint64_t off) {
      for (unsigned b = 0; b < size; ++b)
        complete = complete && simulator.written(isa::Region::OUTPUT, off + b);
      t.data.insert(t.data.end(), outputRegion.begin() + off, outputRegion.begin() + off + size);
    });
    if (!complete) {
      std::cerr << "npu-sim: fault: output " << k << " '" << t.name
                << "' was not completely written by the program\n";
      return kFault;
    }
    std::string file = "output_" + std::to_string(k) + ".npy";
    std::vector<uint8_t> npy = serializeNpy(t);
    std::ofstream os(outDir + "/" + file, std::ios::binary);
    os.write(reinterpret_cast<const char *>(npy.data()), std::streamsize(npy.size()));
    if (!os)
      return badInput("cannot write '" + outDir + "/" + file + "'");
    std::string shape = "[";
    for (size_t i = 0; i < t.shape.size(); ++i)
      shape += (i ? ", " : "") + std::to_string(t.shape[i]);
    manifest += std::string(k ? ",\n  " : "\n  ") + "{\"index\": " + std::to_string(k) +
                ", \"name\": " + json::quote(t.name) + ", \"dtype\": \"" +
                model::dtypeName(t.dtype) + "\", \"shape\": " + shape + "], \"file\": \"" + file +
                "\"}";
  }
  manifest += "]}\n";
  std::ofstream(outDir + "/outputs.json") << manifest;

  if (!tracePath.empty())
    writeTrace(tracePath, simulator, m, *target);
  if (printStats) {
    const sim::Stats &s = simulator.stats();
    std::cout << "cycles: " << s.cycles << " (" << double(s.cycles) / double(target->params.ClockMHz)
              << " us at " << target->params.ClockMHz << " MHz)\n";
    for (unsigned e = 0; e < sim::kNumEngines; ++e)
      std::cout << "engine " << isa::engineName(isa::Engine(e)) << ": "
                << s.engines[e].instructions << " instructions, busy " << s.engines[e].busyCycles
                << " cycles\n";
    std::cout << "scalar steps: " << s.scalarSteps << "\nGM bytes read: " << s.gmBytesRead
              << "\nGM bytes written: " << s.gmBytesWritten << "\nMACs: " << s.macs << "\n";
  }
  return 0;
}
