//===- RunTest.cpp - npuc-conformance: one test on one target ------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Per data set: compile with npuc for the data set's input shapes (freezing
// the inputs npuc needs constant), execute in npu-sim, compare every output
// under the test's tolerance (Compare.cpp). npuc is tried without
// --allow-unverified first: a test refused only by the evidence gate
// (NPUC-E0105) is compiled again with it, to say what it would do. A
// quantized model judged by the deep-network rule is also checked layer by
// layer: compiled again with --materialize-values (every value written to
// GM, contract L4; the kernels and their numerics are the same), npu-sim
// dumps every value and the layer checker evaluates each ONNX node on the
// compiled model's own inputs.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Program.h"

#include <onnx/onnx_pb.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using namespace npuc;
using namespace npuc::conformance;

std::string npuc::conformance::numText(double v) {
  std::ostringstream os;
  os.precision(9);
  os << v;
  return os.str();
}

namespace {

/// What the runner needs from model.onnx, read once per test.
struct ModelInfo {
  /// The graph inputs that are not initializers, with whether each has a
  /// dimension that is not a fixed positive number.
  std::vector<std::pair<std::string, bool>> inputs;
  /// Per graph output, whether it is a quantized value, so one step of
  /// difference is allowed: a QuantizeLinear, DynamicQuantizeLinear or
  /// QLinear* node produces it. Every other integer output must match exactly.
  std::vector<bool> quantizedOutputs;
  /// Whether the model computes on quantized values (Q/DQ or QLinear* nodes).
  bool quantized = false;
};

/// nullopt when the model does not parse (npuc then says why).
std::optional<ModelInfo> readModelInfo(const std::string &modelPath) {
  onnx::ModelProto model;
  if (!tools::readModel(modelPath, model))
    return std::nullopt;
  ModelInfo info;
  info.inputs = tools::graphInputs(model);
  std::map<std::string, std::string> producer;
  for (const onnx::NodeProto &n : model.graph().node()) {
    for (const std::string &out : n.output())
      producer[out] = n.op_type();
    llvm::StringRef op = n.op_type();
    info.quantized |= op == "QuantizeLinear" || op == "DequantizeLinear" || op.starts_with("QLinear");
  }
  for (const onnx::ValueInfoProto &out : model.graph().output()) {
    auto it = producer.find(out.name());
    llvm::StringRef op = it == producer.end() ? "" : llvm::StringRef(it->second);
    info.quantizedOutputs.push_back(op == "QuantizeLinear" || op == "DynamicQuantizeLinear" ||
                                    op.starts_with("QLinear"));
  }
  return info;
}

/// What npuc's --report says: the first issue, whether every issue is the
/// evidence gate's, the inputs to freeze, and every node's lowering cases.
struct Report {
  std::string code, message;
  bool onlyGate = false;  // at least one issue, all NPUC-E0105
  std::vector<std::string> toBind;
  std::set<std::pair<std::string, std::string>> cases;  // (case, ONNX op)
  std::set<std::string> noCaseOps;
  bool selected = false;  // the compile reached case selection
};

Report readReport(const std::string &path) {
  Report rep;
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(slurp(path));
  if (!v) {
    llvm::consumeError(v.takeError());
    return rep;
  }
  const llvm::json::Object *o = v->getAsObject();
  if (!o)
    return rep;
  std::vector<tools::ReportIssue> issues = tools::reportIssues(*o);
  rep.onlyGate = !issues.empty();
  for (const tools::ReportIssue &i : issues) {
    rep.onlyGate &= i.code == "NPUC-E0105";
    if (rep.code.empty()) {
      rep.code = i.code;
      rep.message = (i.node.empty() ? "" : "node '" + i.node + "': ") + firstLine(i.message);
    }
    if (i.code == "NPUC-E0104" && !i.bindInput.empty())
      rep.toBind.push_back(i.bindInput);
  }
  std::vector<std::string> uncased;
  if (const llvm::json::Array *nodes = o->getArray("cases"))
    for (const llvm::json::Value &n : *nodes) {
      const llvm::json::Object *no = n.getAsObject();
      if (!no)
        continue;
      std::string domain = no->getString("domain").value_or("").str();
      std::string op = (domain.empty() ? "" : domain + ".") + no->getString("op_type").value_or("").str();
      const llvm::json::Array *cases = no->getArray("cases");
      if (!cases || cases->empty()) {
        uncased.push_back(op);
        continue;
      }
      rep.selected = true;
      for (const llvm::json::Value &c : *cases)
        if (const llvm::json::Object *co = c.getAsObject())
          rep.cases.insert({co->getString("case").value_or("").str(), op});
    }
  // Nodes without a case of their own count only once cases were selected
  // (otherwise the compile stopped before the lowering looked at them).
  if (rep.selected)
    rep.noCaseOps.insert(uncased.begin(), uncased.end());
  return rep;
}

/// The layer check of a quantized model (docs/numerics.md): npu-sim dumps
/// every materialized value of data set `ds`, the checker judges each layer
/// on the compiled model's own inputs. Returns false with `r` set on a
/// failure; `summary` is the checker's last line.
bool layerCheck(const std::string &work, const std::string &program,
                const std::string &modelPath, const std::vector<std::string> &simInputs,
                const Config &cfg, Outcome &r, std::string &summary) {
  std::string dumpDir = work + "/dump";
  std::error_code ec;
  fs::remove_all(dumpDir, ec);
  std::vector<std::string> args{program, "-o", work + "/out-dump", "--dump-tensors", dumpDir};
  args.insert(args.end(), simInputs.begin(), simInputs.end());
  RunResult s = runProgram(cfg.sim, args, work, cfg.timeout);
  if (s.rc != 0) {
    r.cls = s.rc == 3 ? Class::Fault : Class::Crash;
    r.detail = "npu-sim --dump-tensors: " + (s.crashed ? s.why : lastLine(s.err));
    return false;
  }
  RunResult c = runProgram(cfg.python,
                           {cfg.layerChecker, modelPath, dumpDir, "--strict", "--quiet", "--json",
                            work + "/layers.json"},
                           work, cfg.timeout);
  // The checker's JSON summary, in one line.
  llvm::Expected<llvm::json::Value> j = llvm::json::parse(slurp(work + "/layers.json"));
  const llvm::json::Object *o = j ? j->getAsObject() : nullptr;
  const llvm::json::Object *sum = o ? o->getObject("summary") : nullptr;
  if (!j)
    llvm::consumeError(j.takeError());
  auto num = [&](const char *key) {
    return sum ? numText(sum->getNumber(key).value_or(0)) : std::string("?");
  };
  summary = sum ? num("quantized_values") + " quantized and " + num("float_values") +
                      " float values checked, " + num("beyond_tolerance") +
                      " beyond tolerance (largest " + num("max_step") + " steps; " +
                      num("elements_one_step") + " of " + num("quantized_elements") +
                      " elements one step off, " + num("elements_more_than_one_step") + " more)"
                : lastLine(c.out);
  if (c.crashed || (c.rc != 0 && c.rc != 1)) {
    r.cls = Class::Crash;
    r.detail = "the layer checker failed: " + (c.crashed ? c.why : lastLine(c.err));
    return false;
  }
  // --strict: a node the checker cannot evaluate, or a value the program
  // did not finish writing, fails the check; so does a check of nothing.
  if (c.rc == 0 && sum && sum->getNumber("quantized_values").value_or(0) == 0) {
    r.cls = Class::Fail;
    r.detail = "layer check: no quantized value of the model was dumped and compared";
    return false;
  }
  if (c.rc == 1) {
    // Name the worst layer.
    std::string worst;
    double worstError = -1;
    if (const llvm::json::Array *nodes = o ? o->getArray("nodes") : nullptr)
      for (const llvm::json::Value &n : *nodes)
        if (const llvm::json::Object *no = n.getAsObject())
          if (const llvm::json::Array *outs = no->getArray("outputs"))
            for (const llvm::json::Value &out : *outs) {
              const llvm::json::Object *oo = out.getAsObject();
              if (!oo || oo->getBoolean("ok").value_or(true))
                continue;
              double e = oo->getNumber("max_step").value_or(oo->getNumber("max_abs").value_or(0));
              if (e > worstError) {
                worstError = e;
                worst = "node '" + no->getString("node").value_or("").str() + "' (" +
                        no->getString("op").value_or("").str() + "), " + numText(e) +
                        (oo->getNumber("max_step") ? " steps" : " absolute");
              }
            }
    std::string incomplete;
    if (sum && sum->getNumber("not_evaluated").value_or(0) > 0)
      incomplete += "; " + num("not_evaluated") + " nodes not evaluated";
    if (sum && sum->getNumber("missing_values").value_or(0) > 0)
      incomplete += "; " + num("missing_values") + " values the program did not finish writing";
    r.cls = Class::Fail;
    r.detail = "layer check: " + summary + (worst.empty() ? "" : "; worst " + worst) + incomplete +
               " (scripts/npuc-layer-check.py lists every layer)";
    return false;
  }
  return true;
}

} // namespace

namespace {

/// The test's data set directories (test_data_set_*), sorted.
std::vector<fs::path> findDataSets(const std::string &dir) {
  std::vector<fs::path> dataSets;
  std::error_code ec;
  for (const fs::directory_entry &e : fs::directory_iterator(dir, ec))
    if (e.is_directory(ec) && e.path().filename().string().rfind("test_data_set_", 0) == 0)
      dataSets.push_back(e.path());
  std::sort(dataSets.begin(), dataSets.end());
  return dataSets;
}

/// One data set: its input and expected output files, and the shapes of
/// its inputs.
struct DataSet {
  std::string name;
  std::vector<fs::path> inFiles, outFiles;
  std::vector<std::vector<int64_t>> inShapes;
};

/// One test on one target, into `r`, in `work` (runTest creates it and
/// removes it): every data set compiled (as often as its specialization
/// needs), executed and compared in turn. Each step returns false when `r`
/// holds the test's outcome and the test is over.
class TestRun {
public:
  TestRun(const Test &test, const std::string &target, const Config &cfg, const std::string &work,
          Outcome &r)
      : test(test), target(target), cfg(cfg), work(work), r(r),
        modelPath(test.dir + "/model.onnx") {}

  void run();

private:
  bool readDataSet(const fs::path &ds, DataSet &set);
  std::vector<std::string> compileArgs(const DataSet &set, std::string &identity) const;
  bool compile(const fs::path &ds, const DataSet &set);
  bool compileForDump(const DataSet &set);
  void classifyRefusal(const RunResult &c, const Report &rep);
  bool execute(const DataSet &set, std::vector<std::string> &simInputs);
  bool compareOutputs(const DataSet &set);
  void pass();

  const Test &test;
  const std::string &target;
  const Config &cfg;
  const std::string &work;
  Outcome &r;
  const std::string modelPath;

  std::vector<fs::path> dataSets;
  std::optional<ModelInfo> parsed;
  std::vector<std::pair<std::string, bool>> inputs;
  std::vector<bool> quantized;
  Tolerance tol;
  bool layers = false;  // the deep quantized network rule judges every layer too
  std::set<std::string> bind;
  Agreement agreement;
  std::string cycles, lastCompile, gateMessage, layerSummary;
};

void TestRun::run() {
  dataSets = findDataSets(test.dir);
  if (dataSets.empty()) {
    r.cls = Class::Unsupported;
    r.code = "no-test-data";
    r.detail = "no test_data_set_* directory";
    return;
  }
  parsed = readModelInfo(modelPath);
  if (parsed) {
    inputs = parsed->inputs;
    quantized = parsed->quantizedOutputs;
  }
  std::string tolError;
  // A test without a tolerance of its own may have one kept beside npuc
  // (--tolerances), with the reason it needs one.
  std::string tolDir = test.dir;
  if (!cfg.tolerancesDir.empty() && !fs::exists(fs::path(test.dir) / "tolerance.txt") &&
      fs::exists(fs::path(cfg.tolerancesDir) / test.name / "tolerance.txt"))
    tolDir = (fs::path(cfg.tolerancesDir) / test.name).string();
  if (!readTolerance(tolDir, tol, tolError)) {
    r.cls = Class::Unsupported;
    r.code = "test-data";
    r.detail = tolError;
    return;
  }
  // The deep quantized network rule judges every layer too.
  layers = tol.deepRule() && parsed && parsed->quantized;

  for (const fs::path &ds : dataSets) {
    DataSet set;
    if (!readDataSet(ds, set) || !compile(ds, set))
      return;
    std::vector<std::string> simInputs;
    if (!execute(set, simInputs) || !compareOutputs(set))
      return;
    if (layers && ds == dataSets.front() &&
        (!compileForDump(set) ||
         !layerCheck(work, work + "/model-dump.bin", modelPath, simInputs, cfg, r, layerSummary)))
      return;
  }
  pass();
}

/// The data set's files and input shapes; an empty input tensor is frozen.
bool TestRun::readDataSet(const fs::path &ds, DataSet &set) {
  set.name = ds.filename().string();
  std::optional<std::vector<fs::path>> inList = numberedFiles(ds, "input_", ".pb");
  std::optional<std::vector<fs::path>> outList = numberedFiles(ds, "output_", ".pb");
  if (!inList || !outList) {
    r.cls = Class::Unsupported;
    r.code = "test-data";
    r.detail = set.name + ": input_K.pb / output_K.pb are not numbered 0..n-1";
    return false;
  }
  set.inFiles = *inList;
  set.outFiles = *outList;
  // Input shapes from the data set (for inputs with dynamic dimensions); the
  // data itself is npuc's (--bind-input) and npu-sim's to read and judge.
  set.inShapes.resize(set.inFiles.size());
  for (size_t k = 0; k < set.inFiles.size(); ++k) {
    set.inShapes[k] =
        tools::tensorDims(set.inFiles[k].string()).value_or(std::vector<int64_t>{});
    // An empty tensor cannot be a runtime input (npuc pins positive
    // dimensions only); it is data, so it is frozen.
    if (k < inputs.size() && inputs[k].second &&
        std::count(set.inShapes[k].begin(), set.inShapes[k].end(), 0)) {
      bind.insert(inputs[k].first);
      r.bound.assign(bind.begin(), bind.end());
    }
  }
  if (parsed && set.inFiles.size() != inputs.size()) {
    r.cls = Class::Unsupported;
    r.code = "test-data";
    r.detail = set.name + " has " + std::to_string(set.inFiles.size()) + " inputs, the model " +
               std::to_string(inputs.size());
    return false;
  }
  return true;
}

/// npuc's command line for the data set; `identity` says what in it is
/// specific to the data set (frozen inputs, dynamic shapes), empty if nothing.
std::vector<std::string> TestRun::compileArgs(const DataSet &set, std::string &identity) const {
  std::vector<std::string> args{modelPath, "--target", target, "-o", work + "/model.bin",
                                "--report", work + "/report.json"};
  if (cfg.allowUnverified || r.gated)
    args.push_back("--allow-unverified");
  if (std::string ft = cfg.floatType.empty() ? tol.floatType : cfg.floatType; !ft.empty()) {
    args.push_back("--float");
    args.push_back(ft);
  }
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (bind.count(inputs[k].first)) {
      args.push_back("--bind-input");
      args.push_back(inputs[k].first + "=" + set.inFiles[k].string());
      identity += "bind " + set.inFiles[k].string();
    } else if (inputs[k].second) {
      std::string dims;
      for (int64_t d : set.inShapes[k])
        dims += (dims.empty() ? "" : "x") + std::to_string(d);
      if (set.inShapes[k].empty())
        dims = "1";
      args.push_back("--input-shape");
      args.push_back(inputs[k].first + "=" + dims);
      identity += " shape " + dims;
    }
  }
  return args;
}

/// Compiles for data set `ds` unless the model compiled for the previous one
/// fits it; an input npuc needs constant is frozen to the data set's value.
bool TestRun::compile(const fs::path &ds, const DataSet &set) {
  for (int attempt = 0;; ++attempt) {
    std::string identity;
    std::vector<std::string> args = compileArgs(set, identity);
    if (identity == lastCompile && !lastCompile.empty())
      return true;  // same specialization as the previous data set
    if (attempt == 0 && dataSets.front() != ds && identity.empty())
      return true;  // nothing data-set specific: the model compiled once
    std::error_code ec;
    fs::remove(work + "/report.json", ec);  // no stale report from an earlier attempt
    RunResult c = runProgram(cfg.npuc, args, work, cfg.timeout);
    Report rep = readReport(work + "/report.json");
    r.cases.insert(rep.cases.begin(), rep.cases.end());
    r.noCaseOps.insert(rep.noCaseOps.begin(), rep.noCaseOps.end());
    if (c.crashed) {
      r.cls = Class::Crash;
      r.detail = "npuc " + std::string(c.timedOut ? "timed out" : "died") + ": " + c.why +
                 (c.err.empty() ? "" : " (" + lastLine(c.err) + ")");
      return false;
    }
    if (c.rc == 0) {
      lastCompile = identity.empty() ? "once" : identity;
      r.compiled = true;
      return true;
    }
    // Refused only by the evidence gate: compile it anyway, to say what
    // it would do (the class of a test that then passes is NPUC-E0105).
    if (c.rc == 1 && rep.onlyGate && !r.gated && !cfg.allowUnverified) {
      r.gated = true;
      gateMessage = rep.message;
      continue;
    }
    bool progress = false;
    for (const std::string &name : rep.toBind)
      for (const auto &in : inputs)
        if (in.first == name && bind.insert(name).second)
          progress = true;
    r.bound.assign(bind.begin(), bind.end());
    if (progress && attempt < 4)
      continue;
    classifyRefusal(c, rep);
    return false;
  }
}

/// The program the layer check dumps: the one compile() made, with every
/// value written to GM (npuc --materialize-values).
bool TestRun::compileForDump(const DataSet &set) {
  std::string identity;
  std::vector<std::string> args = compileArgs(set, identity);
  auto out = std::find(args.begin(), args.end(), "-o");
  *std::next(out) = work + "/model-dump.bin";
  args.push_back("--materialize-values");
  RunResult c = runProgram(cfg.npuc, args, work, cfg.timeout);
  if (c.rc == 0)
    return true;
  r.cls = c.crashed || c.rc != 1 ? Class::Crash : Class::Fail;
  r.detail = "npuc --materialize-values (for the layer check): " +
             (c.crashed ? c.why : lastLine(c.err));
  return false;
}

/// The class of a compile npuc refused for good.
void TestRun::classifyRefusal(const RunResult &c, const Report &rep) {
  const std::string &code = rep.code, &message = rep.message;
  // UNSUPPORTED only with a diagnostic that has a code: exit 1 without
  // one, or npuc refusing the command line the runner built (exit 2), is
  // a failure of the tools that must not hide in the expectations.
  // npuc's internal error (NPUC-E0900: IR a pass built that does not
  // verify) is a crash of the compiler, not a model it declines.
  if (c.rc == 1 && code == "NPUC-E0900") {
    r.cls = Class::Crash;
    r.code = code;
    r.detail = message;
  } else if (c.rc == 1 && !code.empty()) {
    r.cls = Class::Unsupported;
    r.code = code;
    r.detail = message;
  } else {
    r.cls = Class::Crash;
    r.detail = (c.rc == 2 ? "npuc refused the runner's command line: "
                          : "npuc exited with " + std::to_string(c.rc) + " and no diagnostic: ") +
               lastLine(c.err);
  }
}

/// Executes the compiled model in npu-sim on the data set's inputs that are
/// not frozen (`simInputs`, its -i options); notes the cycles.
bool TestRun::execute(const DataSet &set, std::vector<std::string> &simInputs) {
  std::string outDir = work + "/out";
  std::error_code ec;
  fs::remove_all(outDir, ec);
  for (size_t k = 0; k < inputs.size(); ++k)
    if (!bind.count(inputs[k].first)) {
      simInputs.push_back("-i");
      simInputs.push_back(inputs[k].first + "=" + set.inFiles[k].string());
    }
  std::vector<std::string> args{work + "/model.bin", "-o", outDir, "--stats"};
  args.insert(args.end(), simInputs.begin(), simInputs.end());
  RunResult s = runProgram(cfg.sim, args, work, cfg.timeout);
  if (s.rc == 1) {
    // The compiled model does not take the test's own data: a wrong model.
    r.cls = Class::Fail;
    r.detail = set.name + ": npu-sim refused the data set: " + lastLine(s.err);
    return false;
  }
  if (s.crashed || (s.rc != 0 && s.rc != 3)) {
    r.cls = Class::Crash;
    r.detail = "npu-sim " +
               std::string(s.crashed ? (s.timedOut ? "timed out" : "died") : "failed") + ": " +
               (s.why.empty() ? "exit " + std::to_string(s.rc) : s.why) + " (" +
               lastLine(s.err) + ")";
    return false;
  }
  if (s.rc == 3 && lastLine(s.err).rfind("npu-sim: fault: input ", 0) == 0) {
    // The data set holds a value the input's boundary type cannot carry (a
    // float64 past float32, an int64 past int32): refused before the program
    // runs, so the test cannot be run as written.
    r.cls = Class::Unsupported;
    r.detail = set.name + ": the data set's input is outside what the model file's boundary type "
                          "holds: " + lastLine(s.err).substr(std::string("npu-sim: fault: ").size());
    return false;
  }
  if (s.rc == 3) {
    r.cls = Class::Fault;
    r.detail = set.name + ": " + lastLine(s.err);
    return false;
  }
  size_t at = s.out.find("cycles: ");
  if (at != std::string::npos) {
    cycles = s.out.substr(at + 8, s.out.find(' ', at + 8) - at - 8);
    if (!r.cycles)
      r.cycles = std::strtoull(cycles.c_str(), nullptr, 10);
  }
  return true;
}

/// Compares every output npu-sim wrote with the data set's expected one.
bool TestRun::compareOutputs(const DataSet &set) {
  std::string outDir = work + "/out";
  std::vector<fs::path> gotFiles =
      numberedFiles(outDir, "output_", ".npy").value_or(std::vector<fs::path>{});
  if (gotFiles.size() != set.outFiles.size()) {
    r.cls = Class::Fail;
    r.detail = set.name + ": " + std::to_string(gotFiles.size()) + " outputs, expected " +
               std::to_string(set.outFiles.size());
    return false;
  }
  for (size_t k = 0; k < set.outFiles.size(); ++k) {
    HostTensor got, want;
    std::string error, detail;
    if (!readTensorFile(set.outFiles[k].string(), want, error) ||
        !readTensorFile(gotFiles[k].string(), got, error)) {
      r.cls = Class::Fail;
      r.detail = set.name + ": output " + std::to_string(k) + ": " + error;
      return false;
    }
    if (!compareOutput(k, got, want, k < quantized.size() && quantized[k], tol, agreement,
                       detail)) {
      r.cls = Class::Fail;
      r.detail = set.name + ": " + detail;
      return false;
    }
  }
  return true;
}

/// Every data set matched: PASS, or UNSUPPORTED NPUC-E0105 when only
/// --allow-unverified compiled it.
void TestRun::pass() {
  r.matched = true;
  r.cls = Class::Pass;
  r.detail = "max |diff| " + numText(agreement.worst) + ", " + std::to_string(agreement.differing) +
             " of " + std::to_string(agreement.total) + " elements differ" +
             (agreement.beyondOne ? " (" + std::to_string(agreement.beyondOne) +
                                        " by more than one step)"
                                  : "") +
             (dataSets.size() > 1 ? ", " + std::to_string(dataSets.size()) + " data sets" : "") +
             (cycles.empty() ? "" : ", " + cycles + " cycles") +
             (layers ? "; layers: " + layerSummary : "");
  if (r.gated) {
    r.cls = Class::Unsupported;
    r.code = "NPUC-E0105";
    r.detail = "passes only with --allow-unverified (" + r.detail + "): " + gateMessage;
  }
}

} // namespace

Outcome npuc::conformance::runTest(const Test &test, const std::string &target, const Config &cfg) {
  Outcome r;
  llvm::SmallString<128> workDir;
  if (llvm::sys::fs::createUniqueDirectory("npuc-conformance", workDir)) {
    r.cls = Class::Crash;
    r.detail = "cannot create a temporary directory";
    return r;
  }
  try {
    std::string work = workDir.str().str();
    TestRun(test, target, cfg, work, r).run();
  } catch (const std::exception &e) {
    r.cls = Class::Crash;
    r.detail = std::string("the runner failed on this test: ") + e.what();
  }
  std::error_code ec;
  fs::remove_all(workDir.str().str(), ec);
  return r;
}

