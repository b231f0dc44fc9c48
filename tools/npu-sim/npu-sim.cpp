//===- npu-sim.cpp - Run a model file -------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// npu-sim model.bin -i IN0 [-i NAME=IN1 ...] -o OUTDIR [--trace FILE|-] [--stats]
//         [--dump-tensors DIR] [--max-steps N] [--version]
// Exit codes: 0 success, 1 bad input, 2 usage, 3 the program faulted.
// Base layer only: links no MLIR and no compiler code.
//
//===----------------------------------------------------------------------===//

#include "Profile.h"
#include "npuc/Base/CommandLine.h"
#include "npuc/Base/Json.h"
#include "npuc/Base/TensorFile.h"
#include "npuc/Sim/Simulator.h"
#include "npuc/Version.h"

#include <CLI/CLI.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <iostream>

using namespace npuc;

namespace {
constexpr int kBadInput = 1, kUsage = 2, kFault = 3;

int badInput(const std::string &msg) {
  std::cerr << "npu-sim: error: " << msg << "\n";
  return kBadInput;
}

std::string describe(const model::TensorDesc &t) {
  std::string s = std::string(model::dtypeName(t.hostType())) + "[";
  for (size_t i = 0; i < t.shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(t.shape[i]);
  return s + "]";
}

/// The Chrome trace-event JSON of a run (docs/simulator.md, "Trace"): one
/// track per engine, one slice per executed instruction named by its ONNX
/// node(s) (its mnemonic when it has none), with its index, mnemonic and
/// node(s) as args; times in
/// microseconds at the target's clock.
std::string traceJson(const sim::Simulator &simulator, const model::Model &m,
                      const target::TargetInfo &t) {
  std::ostringstream os;
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
  for (const sim::TraceEvent &ev : simulator.trace()) {
    // A slice is named by its ONNX node (the mnemonic when it has none).
    std::string node = model::joinedNodes(model::debugNodes(m, ev.pc));
    const char *mnemonic = code[ev.pc].desc->mnemonic;
    os << "{\"name\": " << json::quote(node.empty() ? std::string(mnemonic) : node)
       << ", \"ph\": \"X\", \"pid\": 0, "
       << "\"tid\": " << unsigned(ev.engine) << ", \"ts\": " << double(ev.start) * usPerCycle
       << ", \"dur\": " << double(ev.end - ev.start) * usPerCycle << ", \"args\": {\"pc\": "
       << ev.pc << ", \"instruction\": " << json::quote(mnemonic) << ", \"node\": "
       << json::quote(node) << "}},\n";
  }
  os << "{\"name\": \"end\", \"ph\": \"i\", \"pid\": 0, \"tid\": 0, \"ts\": "
     << double(simulator.stats().cycles) * usPerCycle << ", \"s\": \"g\"}\n]}\n";
  return os.str();
}

/// A directory a run will write files into: an existing file is not one;
/// checked before the simulation.
bool checkDirectory(const std::string &option, const std::string &dir, std::string &error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (dir.empty()) {
    error = option + " needs a directory name";
    return false;
  }
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    error = option + " '" + dir + "' exists and is not a directory";
    return false;
  }
  // The directory is created with its parents: the nearest one that exists
  // must be a directory (a path through a regular file cannot be created).
  for (fs::path p = fs::path(dir).parent_path(); !p.empty(); p = p.parent_path()) {
    if (!fs::exists(p, ec)) {
      if (p == p.parent_path())
        break;
      continue;
    }
    if (!fs::is_directory(p, ec)) {
      error = option + " '" + dir + "' cannot be created: '" + p.string() + "' is not a directory";
      return false;
    }
    break;
  }
  return true;
}

/// A file name for the value `name` (ONNX names may hold '/', ':' and
/// more): letters, digits, '.', '_' and '-' kept, anything else '_', made
/// unique within the dump.
std::string dumpFileName(const std::string &name, std::set<std::string> &used) {
  std::string base;
  for (char c : name)
    base += std::isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-' ? c : '_';
  if (base.empty() || base[0] == '.')
    base = "_" + base;
  std::string file = base + ".npy";
  for (int k = 1; !used.insert(file).second; ++k)
    file = base + "_" + std::to_string(k) + ".npy";
  return file;
}

/// npu-sim --dump-tensors: every value of the model's values section, taken
/// as soon as the instruction that completes it has executed (before any
/// later write can reuse its bytes), in logical order.
class ValueDump {
public:
  explicit ValueDump(const model::Model &m) : m(m), taken(m.values.size()) {}

  /// Watches the instructions that complete the values.
  void attach(sim::Options &options, sim::Simulator *&simulator) {
    for (size_t i = 0; i < m.values.size(); ++i)
      if (m.values[i].after != model::ValueDesc::kFromStart) {
        byPc[m.values[i].after].push_back(i);
        options.watch.push_back(m.values[i].after);
      }
    options.observe = [this, &simulator](uint32_t pc) {
      for (size_t i : byPc[pc])
        take(*simulator, i);
    };
  }
  /// The values there from the start (graph inputs), once they are bound.
  void takeInitial(sim::Simulator &simulator) {
    for (size_t i = 0; i < m.values.size(); ++i)
      if (m.values[i].after == model::ValueDesc::kFromStart)
        take(simulator, i);
  }
  /// Writes DIR/FILE.npy per value taken and DIR/index.json.
  bool write(const std::string &dir, const std::string &modelPath, std::string &error) const;

private:
  void take(sim::Simulator &simulator, size_t i) {
    const model::ValueDesc &v = m.values[i];
    isa::Region r = isa::Region(v.t.region);
    Taken &t = taken[i];
    t.taken = gatherTensor(v.t, simulator.region(r), t.tensor, t.error);
    t.complete = t.taken;
    unsigned size = model::dtypeBytes(v.t.dtype);
    if (t.taken)
      forEachElement(v.t, [&](uint64_t off) {
        for (unsigned b = 0; b < size; ++b)
          t.complete = t.complete && simulator.written(r, off + b);
      });
  }
  struct Taken {
    bool taken = false, complete = false;
    HostTensor tensor;
    std::string error;
  };
  const model::Model &m;
  std::map<uint32_t, std::vector<size_t>> byPc;
  std::vector<Taken> taken;
};

bool ValueDump::write(const std::string &dir, const std::string &modelPath,
                      std::string &error) const {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir)) {
    error = "cannot create the dump directory '" + dir + "'" + (ec ? ": " + ec.message() : "");
    return false;
  }
  std::set<std::string> used{"index.json"};
  std::string index = "{\"model\": " + json::quote(modelPath) + ", \"target\": " +
                      json::quote(m.targetName) + ",\n \"values\": [";
  for (size_t i = 0; i < m.values.size(); ++i) {
    const model::ValueDesc &v = m.values[i];
    const Taken &t = taken[i];
    std::string file;
    if (t.taken && t.complete) {
      file = dumpFileName(v.t.name, used);
      std::vector<uint8_t> npy = serializeNpy(t.tensor);
      std::string path = dir + "/" + file;
      std::ofstream os(path, std::ios::binary);
      os.write(reinterpret_cast<const char *>(npy.data()), std::streamsize(npy.size()));
      if (!os) {
        error = "cannot write '" + path + "'";
        return false;
      }
    }
    std::string shape;
    for (size_t d = 0; d < v.t.shape.size(); ++d)
      shape += (d ? ", " : "") + std::to_string(v.t.shape[d]);
    std::string quant = "null";
    if (v.t.quant != model::Quant::None) {
      std::string scales, zps;
      for (size_t k = 0; k < v.t.scales.size(); ++k) {
        scales += (k ? ", " : "") + json::number(v.t.scales[k]);
        zps += (k ? ", " : "") + std::to_string(v.t.zeroPoints[k]);
      }
      quant = "{\"axis\": " + std::to_string(v.t.axis) + ", \"scales\": [" + scales +
              "], \"zero_points\": [" + zps + "]}";
    }
    const char *role = v.t.region == uint8_t(isa::Region::INPUT)    ? "input"
                       : v.t.region == uint8_t(isa::Region::OUTPUT) ? "output"
                                                                    : "value";
    index += std::string(i ? ",\n  " : "\n  ") + "{\"name\": " + json::quote(v.t.name) +
             ", \"file\": " + (file.empty() ? "null" : json::quote(file)) +
             ", \"node\": " + json::quote(v.node) + ", \"role\": \"" + role +
             "\", \"dtype\": \"" + model::dtypeName(v.t.dtype) + "\", \"shape\": [" + shape +
             "], \"quant\": " + quant + ", \"after\": " +
             (v.after == model::ValueDesc::kFromStart ? "null" : std::to_string(v.after)) +
             (file.empty() ? ", \"missing\": " +
                                 json::quote(!t.taken ? (t.error.empty() ? "the program did not reach it"
                                                                         : t.error)
                                                      : "not every byte was written")
                           : "") +
             "}";
  }
  index += "]}\n";
  std::ofstream os(dir + "/index.json");
  os << index;
  if (!os) {
    error = "cannot write '" + dir + "/index.json'";
    return false;
  }
  return true;
}

int fault(const std::string &msg) {
  std::cerr << "npu-sim: fault: " << msg << "\n";
  return kFault;
}

/// What the command line asks for (docs/cli.md, "npu-sim").
struct Invocation {
  std::string modelPath, outDir, tracePath, dumpDir, profileJson;
  std::vector<std::string> inputs;
  bool printStats = false, printProfile = false;
  uint64_t maxSteps = uint64_t(1) << 32;
};

void addOptions(CLI::App &app, Invocation &inv) {
  app.add_option("model", inv.modelPath, "model file")->required();
  app.add_option("-i,--input", inv.inputs,
                 "input tensor (.npy or .pb), in graph-input order, or NAME=FILE");
  app.add_option("-o,--output-dir", inv.outDir, "directory for output_K.npy and outputs.json")
      ->required();
  app.add_option("--trace", inv.tracePath,
                 "write a Chrome trace-event JSON file (Perfetto; '-': standard output)");
  app.add_flag("--stats", inv.printStats, "print cycles, engine busy time and GM traffic");
  app.add_flag("--profile", inv.printProfile,
               "print per ONNX node its cycles, each engine's busy time, GM bytes and MAC "
               "utilization");
  app.add_option("--profile-json", inv.profileJson,
                 "write the per-node profile as JSON ('-': standard output)");
  app.add_option("--dump-tensors", inv.dumpDir,
                 "write every graph value the program materializes to DIR (NAME.npy in logical "
                 "order, and index.json), each as soon as it is complete");
  app.add_option("--max-steps", inv.maxSteps, "SCALAR steps before a runaway program faults")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
}

/// Reads and parses the model file; 0, or the exit status of the error
/// reported.
int loadModel(const std::string &path, model::Model &m) {
  std::vector<uint8_t> bytes;
  std::string error;
  if (!model::readFile(path, bytes, error))
    return badInput(error);
  if (!model::parse(bytes.data(), bytes.size(), m, error))
    return badInput(path + ": " + error + model::notAModelHint(error));
  return 0;
}

/// The combinations of output options that are usage errors; 0, or the exit
/// status of the error reported.
int checkUsage(const CLI::App &app, const Invocation &inv) {
  // Standard output carries one document: a trace, a JSON profile, or the
  // text of --stats and --profile.
  std::vector<std::string> stdoutUsers;
  if (inv.tracePath == "-")
    stdoutUsers.push_back("--trace -");
  if (inv.profileJson == "-")
    stdoutUsers.push_back("--profile-json -");
  if (inv.printStats || inv.printProfile)
    stdoutUsers.push_back(inv.printStats ? "--stats" : "--profile");
  if (stdoutUsers.size() > 1) {
    std::cerr << "npu-sim: error: " << stdoutUsers[0] << " and " << stdoutUsers[1]
              << " both write to standard output\n";
    return kUsage;
  }
  if (app.count("--profile-json") && inv.profileJson.empty()) {
    std::cerr << "npu-sim: error: --profile-json needs a file name ('-': standard output)\n";
    return kUsage;
  }
  for (const auto &[option, dir] :
       {std::pair<const char *, const std::string *>{"-o", &inv.outDir},
        {"--dump-tensors", &inv.dumpDir}})
    if (*dir == "-") {
      std::cerr << "npu-sim: error: " << option << " names a directory for several files; '-' "
                << "(standard output) cannot be one\n";
      return kUsage;
    }
  if (app.count("--trace") && inv.tracePath.empty()) {
    std::cerr << "npu-sim: error: --trace needs a file name ('-': standard output)\n";
    return kUsage;
  }
  if (app.count("--dump-tensors") && inv.dumpDir.empty()) {
    std::cerr << "npu-sim: error: --dump-tensors needs a directory name\n";
    return kUsage;
  }
  return 0;
}

/// That every directory and file the run writes can be written, and that
/// the model has what --dump-tensors needs; 0, or the exit status of the
/// error reported.
int checkDestinations(const Invocation &inv, const model::Model &m) {
  std::string error;
  if (!checkDirectory("-o", inv.outDir, error) ||
      (!inv.dumpDir.empty() && !checkDirectory("--dump-tensors", inv.dumpDir, error)) ||
      (!inv.tracePath.empty() && inv.tracePath != "-" &&
       !model::checkWritable(inv.tracePath, error)) ||
      (!inv.profileJson.empty() && inv.profileJson != "-" &&
       !model::checkWritable(inv.profileJson, error)))
    return badInput(error);
  if (!inv.dumpDir.empty() && m.values.empty())
    return badInput(inv.modelPath + " has no values section to dump (npuc writes one from format "
                    "1.1 on; npuc-translate and earlier npuc do not)");
  return 0;
}

/// Binds the -i arguments to the model's inputs `ins`: NAME=FILE by name,
/// the rest in graph-input order. `files` gets one file per input; 0, or
/// the exit status of the error reported.
int bindInputs(const std::vector<std::string> &inputs,
               const std::vector<const model::TensorDesc *> &ins, std::vector<std::string> &files) {
  files.assign(ins.size(), std::string());
  size_t positional = 0;
  for (const std::string &arg : inputs) {
    size_t eq = arg.find('=');
    if (eq != std::string::npos && eq > 0) {
      std::string name = arg.substr(0, eq);
      size_t k = 0;
      while (k < ins.size() && ins[k]->name != name)
        ++k;
      if (k == ins.size()) {
        std::vector<std::string> names;
        std::string list;
        for (const model::TensorDesc *in : ins) {
          names.push_back(in->name);
          list += (list.empty() ? "'" : ", '") + in->name + "' " + describe(*in);
        }
        return badInput("the model has no input named '" + name + "'" +
                        cli::didYouMean(name, names) + "; its inputs are " +
                        (list.empty() ? "none" : list));
      }
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
  return 0;
}

/// Reads input k from files[k], checks its type and shape against ins[k]
/// and stores it in the simulator's INPUT region; 0, or the exit status of
/// the error reported.
int loadInputs(sim::Simulator &simulator, const std::vector<const model::TensorDesc *> &ins,
               const std::vector<std::string> &files) {
  std::string error;
  std::vector<uint8_t> &inputRegion = simulator.region(isa::Region::INPUT);
  for (size_t k = 0; k < ins.size(); ++k) {
    HostTensor t;
    if (!readTensorFile(files[k], t, error))
      return badInput("input " + std::to_string(k) + " '" + ins[k]->name + "': " + error);
    if (t.dtype != ins[k]->hostType() || t.shape != ins[k]->shape)
      return badInput("input " + std::to_string(k) + " '" + ins[k]->name + "': expected " +
                      describe(*ins[k]) + ", got " + t.describe());
    // A boundary type (bool, int64, uint16, uint32) is converted to its
    // storage type; an int64 that int32 cannot hold is a fault, not a
    // silently wrapped id.
    std::vector<uint8_t> stored;
    if (!narrowToStorage(*ins[k], t, stored, error))
      return fault("input " + std::to_string(k) + ": " + error);
    unsigned size = model::dtypeBytes(ins[k]->dtype);
    const uint8_t *src = stored.data();
    forEachElement(*ins[k], [&](uint64_t off) {
      std::memcpy(inputRegion.data() + off, src, size);
      src += size;
    });
  }
  return 0;
}

/// Writes OUTDIR/output_K.npy per graph output, in order, then
/// OUTDIR/outputs.json; 0, or the exit status of the error reported (an
/// output the program did not completely write is a fault).
int writeOutputs(sim::Simulator &simulator, const model::Model &m, const std::string &outDir) {
  std::error_code ec;
  std::filesystem::create_directories(outDir, ec);
  if (ec)
    return badInput("cannot create '" + outDir + "': " + ec.message());
  std::string error;
  std::vector<uint8_t> &outputRegion = simulator.region(isa::Region::OUTPUT);
  std::string manifest = "{\"outputs\": [";
  std::vector<const model::TensorDesc *> outs = m.tensorsWithRole(model::Role::Output);
  for (size_t k = 0; k < outs.size(); ++k) {
    HostTensor t;
    t.name = outs[k]->name;
    t.shape = outs[k]->shape;
    unsigned size = model::dtypeBytes(outs[k]->dtype);
    bool complete = true;
    std::vector<uint8_t> stored;
    forEachElement(*outs[k], [&](uint64_t off) {
      for (unsigned b = 0; b < size; ++b)
        complete = complete && simulator.written(isa::Region::OUTPUT, off + b);
      stored.insert(stored.end(), outputRegion.begin() + off, outputRegion.begin() + off + size);
    });
    if (!complete)
      return fault("output " + std::to_string(k) + " '" + t.name +
                   "' was not completely written by the program");
    if (!widenFromStorage(*outs[k], stored, t, error))
      return fault("output " + std::to_string(k) + ": " + error);
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
  if (!(std::ofstream(outDir + "/outputs.json") << manifest))
    return badInput("cannot write '" + outDir + "/outputs.json'");
  return 0;
}

/// npu-sim --stats: the run's cycles, engine busy time and GM traffic.
void printStats(const sim::Stats &s, const target::TargetInfo &t) {
  std::cout << "cycles: " << s.cycles << " (" << double(s.cycles) / double(t.params.ClockMHz)
            << " us at " << t.params.ClockMHz << " MHz)\n";
  for (unsigned e = 0; e < sim::kNumEngines; ++e)
    std::cout << "engine " << isa::engineName(isa::Engine(e)) << ": " << s.engines[e].instructions
              << " instructions, busy " << s.engines[e].busyCycles << " cycles\n";
  std::cout << "scalar steps: " << s.scalarSteps << "\nGM bytes read: " << s.gmBytesRead
            << "\nGM bytes written: " << s.gmBytesWritten << "\nMACs: " << s.macs << "\n";
}

/// What a completed run reports, in order: --trace, --stats, --profile and
/// --profile-json; 0, or the exit status of the error reported.
int report(const Invocation &inv, const sim::Simulator &simulator, const model::Model &m,
           const target::TargetInfo &t) {
  std::string error;
  if (!inv.tracePath.empty()) {
    std::string trace = traceJson(simulator, m, t);
    if (!model::writeFileOrStdout(inv.tracePath, std::vector<uint8_t>(trace.begin(), trace.end()),
                                  error))
      return badInput("the trace: " + error);
  }
  if (inv.printStats)
    printStats(simulator.stats(), t);
  if (inv.printProfile)
    std::cout << profile::table(simulator, m, t);
  if (!inv.profileJson.empty()) {
    std::string text = profile::json(simulator, m, t);
    if (!model::writeFileOrStdout(inv.profileJson, std::vector<uint8_t>(text.begin(), text.end()),
                                  error))
      return badInput("the profile: " + error);
  }
  return 0;
}

/// Runs the model on the inputs the command line names, then writes what it
/// asks for: the value dump (after a fault too), the outputs, the trace and
/// the reports. The exit status.
int simulate(const Invocation &inv, const model::Model &m) {
  std::vector<const model::TensorDesc *> ins = m.tensorsWithRole(model::Role::Input);
  std::vector<std::string> files;
  if (int status = bindInputs(inv.inputs, ins, files))
    return status;

  const target::TargetInfo &target = *target::lookupTarget(m.targetName);
  sim::Options options;
  options.trace = !inv.tracePath.empty();
  options.profile = inv.printProfile || !inv.profileJson.empty();
  options.maxSteps = inv.maxSteps;
  ValueDump dump(m);
  sim::Simulator *running = nullptr;
  if (!inv.dumpDir.empty())
    dump.attach(options, running);
  sim::Simulator simulator(m, target, options);
  running = &simulator;
  if (!simulator.ready()) {
    std::string why;
    simulator.run(why);
    return fault(why);
  }
  if (int status = loadInputs(simulator, ins, files))
    return status;

  if (!inv.dumpDir.empty())
    dump.takeInitial(simulator);
  std::string why;
  bool ran = simulator.run(why);
  // The values taken before a fault are the user's best clue: written either way.
  if (!inv.dumpDir.empty()) {
    std::string error;
    if (!dump.write(inv.dumpDir, inv.modelPath, error))
      return badInput(error);
  }
  if (!ran)
    return fault(why);

  if (int status = writeOutputs(simulator, m, inv.outDir))
    return status;
  return report(inv, simulator, m, target);
}
} // namespace

int main(int argc, char **argv) {
  CLI::App app{"npu-sim: execute an npuc model file bit-exactly"};
  app.set_version_flag("--version", "npu-sim from " + versionString());
  Invocation inv;
  addOptions(app, inv);
  cli::exitCodes(app, "0 ran; 1 bad input (the model file, an input, an output that cannot be "
                      "written); 2 usage errors; 3 the program faulted (docs/simulator.md).");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return cli::parseError(app, e, "npu-sim");
  }

  model::Model m;
  if (int status = loadModel(inv.modelPath, m))
    return status;
  // Every output the run writes is checked before it runs, so a run that
  // cannot deliver them spends no time and leaves nothing.
  if (int status = checkUsage(app, inv))
    return status;
  if (int status = checkDestinations(inv, m))
    return status;
  return simulate(inv, m);
}
