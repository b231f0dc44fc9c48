//===- npuc-conformance.cpp - Compile, execute and compare ONNX tests -----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// npuc-conformance DIR... [--target T[,T...]] [-j N] [--json FILE]
//                 [--expectations FILE] [--write-expectations FILE]
//                 [--write-evidence FILE]
//
// For every ONNX test directory under DIR (model.onnx + test_data_set_*):
// compile it with npuc for the data set's input shapes, execute it in npu-sim,
// compare every output with the data set's expected output, and classify it:
//
//   PASS         every output within tolerance (docs/cli.md, "Comparison")
//   FAIL         a wrong answer: the largest error and where
//   UNSUPPORTED  npuc declined it: its diagnostic and code
//   CRASH        npuc or npu-sim died (a signal, a timeout, an internal error)
//   FAULT        npu-sim faulted on the compiled program
//
// npuc and npu-sim run as child processes, so a crash is contained and
// classified. The runner links no MLIR and no compiler code.
//
// Exit status: 0 when nothing failed (FAIL, CRASH, FAULT) or, with
// --expectations, when every result is as expected; 1 otherwise; 2 on usage
// errors.
//
//===----------------------------------------------------------------------===//

#include "npuc/Base/Json.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Base/TensorFile.h"
#include "npuc/Support/OpSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <onnx/onnx_pb.h>

#include <CLI/CLI.hpp>

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using namespace npuc;

namespace {

enum class Class { Pass, Fail, Unsupported, Crash, Fault };
constexpr Class kClasses[] = {Class::Pass, Class::Fail, Class::Unsupported, Class::Crash,
                              Class::Fault};

const char *className(Class c) {
  switch (c) {
  case Class::Pass: return "PASS";
  case Class::Fail: return "FAIL";
  case Class::Unsupported: return "UNSUPPORTED";
  case Class::Crash: return "CRASH";
  case Class::Fault: return "FAULT";
  }
  return "?";
}

bool parseClass(llvm::StringRef s, Class &c) {
  for (Class k : kClasses)
    if (s == className(k)) {
      c = k;
      return true;
    }
  return false;
}

bool failed(Class c) { return c == Class::Fail || c == Class::Crash || c == Class::Fault; }

struct Test {
  std::string name;  // "<root's basename>/<path below the root>"
  std::string dir;
};

struct Outcome {
  Class cls = Class::Pass;
  std::string code;    // the diagnostic code of an UNSUPPORTED, else empty
  std::string detail;  // one line
  std::vector<std::string> keys;  // the combinations npuc reported
  std::vector<std::string> bound; // inputs frozen with --bind-input
  bool compiled = false;
  double seconds = 0;
};

struct Config {
  std::string npuc, sim;
  unsigned timeout = 600;
};

// --- Discovery ---------------------------------------------------------------

void discover(const fs::path &root, const fs::path &dir, const std::string &prefix,
              std::vector<Test> &out, int depth) {
  std::error_code ec;
  if (fs::exists(dir / "model.onnx", ec)) {
    std::string rel = fs::relative(dir, root, ec).generic_string();
    out.push_back({prefix + (rel == "." ? "" : "/" + rel), dir.string()});
    return;
  }
  if (depth == 0)
    return;
  std::vector<fs::path> subdirs;
  for (const fs::directory_entry &e : fs::directory_iterator(dir, ec))
    if (e.is_directory(ec))
      subdirs.push_back(e.path());
  std::sort(subdirs.begin(), subdirs.end());
  for (const fs::path &d : subdirs)
    discover(root, d, prefix, out, depth - 1);
}

/// PREFIX0SUFFIX, PREFIX1SUFFIX, ... in `dir`, in index order; nullopt when
/// the indices are not exactly 0..n-1 (a gap, or input_1 next to input_01).
std::optional<std::vector<fs::path>> numberedFiles(const fs::path &dir, const std::string &prefix,
                                                   const std::string &suffix) {
  std::map<long, fs::path> byIndex;
  size_t count = 0;
  std::error_code ec;
  for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
    std::string n = e.path().filename().string();
    if (n.size() <= prefix.size() + suffix.size() || n.compare(0, prefix.size(), prefix) ||
        n.compare(n.size() - suffix.size(), suffix.size(), suffix))
      continue;
    std::string digits = n.substr(prefix.size(), n.size() - prefix.size() - suffix.size());
    if (digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos)
      continue;
    byIndex[std::stol(digits)] = e.path();
    ++count;
  }
  std::vector<fs::path> files;
  for (auto &[k, p] : byIndex) {
    if (k != long(files.size()))
      return std::nullopt;
    files.push_back(p);
  }
  if (count != files.size())
    return std::nullopt;
  return files;
}

// --- Child processes ---------------------------------------------------------

struct RunResult {
  int rc = 0;
  bool crashed = false, timedOut = false;
  std::string out, err, why;
};

/// The file's bytes as text; empty when it cannot be read.
std::string slurp(const std::string &path) {
  std::vector<uint8_t> bytes;
  std::string error;
  model::readFile(path, bytes, error);
  return std::string(bytes.begin(), bytes.end());
}

/// Runs `program` with `args`, its output into `work`. The deadline is kept
/// here, per child, with non-blocking waits: ExecuteAndWait's timeout uses
/// alarm() and SIGALRM, which are per process and unsafe across worker threads.
RunResult runProgram(const std::string &program, const std::vector<std::string> &args,
                     const std::string &work, const Config &cfg) {
  std::vector<llvm::StringRef> argv{program};
  for (const std::string &a : args)
    argv.push_back(a);
  std::string outPath = work + "/stdout.txt", errPath = work + "/stderr.txt";
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(outPath),
                                                llvm::StringRef(errPath)};
  RunResult r;
  bool failedToRun = false;
  llvm::sys::ProcessInfo pi =
      llvm::sys::ExecuteNoWait(program, argv, std::nullopt, redirects, 0, &r.why, &failedToRun);
  if (failedToRun || pi.Pid <= 0) {
    r.crashed = true;
    r.why = "cannot run " + program + ": " + r.why;
    return r;
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(cfg.timeout);
  llvm::sys::ProcessInfo done;
  for (;;) {
    done = llvm::sys::Wait(pi, /*SecondsToWait=*/0, &r.why);
    if (done.Pid != 0)
      break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pi.Pid, SIGKILL);
      done = llvm::sys::Wait(pi, std::nullopt, &r.why);
      r.timedOut = true;
      r.why = "timed out after " + std::to_string(cfg.timeout) + " s";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.rc = done.ReturnCode;
  r.out = slurp(outPath);
  r.err = slurp(errPath);
  r.crashed = r.timedOut || r.rc < 0;
  return r;
}

std::string firstLine(const std::string &s, size_t max = 300) {
  std::string line = s.substr(0, s.find('\n'));
  return line.size() > max ? line.substr(0, max) + "..." : line;
}

std::string lastLine(std::string s) {
  while (!s.empty() && s.back() == '\n')
    s.pop_back();
  size_t nl = s.rfind('\n');
  return firstLine(nl == std::string::npos ? s : s.substr(nl + 1));
}

// --- Comparison --------------------------------------------------------------

constexpr double kRelTol = 1e-4, kAbsTol = 1e-5;

double element(const HostTensor &t, uint64_t i) {
  const uint8_t *p = t.data.data();
  switch (t.dtype) {
  case model::DType::I8: return double(int8_t(p[i]));
  case model::DType::U8: return double(p[i]);
  case model::DType::I16: { int16_t v; std::memcpy(&v, p + 2 * i, 2); return v; }
  case model::DType::I32: { int32_t v; std::memcpy(&v, p + 4 * i, 4); return v; }
  case model::DType::F32: { float v; std::memcpy(&v, p + 4 * i, 4); return v; }
  case model::DType::F16: { uint16_t h; std::memcpy(&h, p + 2 * i, 2); return num::halfToFloat(h); }
  }
  return 0;
}

bool isFloat(model::DType t) { return t == model::DType::F32 || t == model::DType::F16; }

std::string indexString(const std::vector<int64_t> &shape, uint64_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? int64_t(flat % uint64_t(shape[d])) : 0;
    flat = shape[d] ? flat / uint64_t(shape[d]) : 0;
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d)
    s += (d ? "," : "") + std::to_string(idx[d]);
  return s + "]";
}

std::string numText(double v) {
  std::ostringstream os;
  os.precision(9);
  os << v;
  return os.str();
}

/// Compares one output; fills `detail` on a mismatch. Accumulates the largest
/// difference and the count of differing elements.
bool compareOutput(size_t k, const HostTensor &got, const HostTensor &want, bool quantized,
                   double &worst, uint64_t &differing, uint64_t &total, std::string &detail) {
  if (got.dtype != want.dtype || got.shape != want.shape) {
    detail = "output " + std::to_string(k) + " is " + got.describe() + ", expected " +
             want.describe();
    return false;
  }
  uint64_t n = want.numElements(), bad = 0, worstAt = 0;
  double worstBad = -1;
  for (uint64_t i = 0; i < n; ++i) {
    double g = element(got, i), w = element(want, i);
    double diff;
    bool ok;
    if (std::isnan(g) || std::isnan(w)) {
      ok = std::isnan(g) && std::isnan(w);
      diff = ok ? 0 : INFINITY;
    } else if (std::isinf(g) || std::isinf(w)) {
      ok = g == w;
      diff = ok ? 0 : INFINITY;
    } else {
      diff = std::fabs(g - w);
      ok = isFloat(want.dtype) ? diff <= kAbsTol + kRelTol * std::fabs(w)
           : quantized             ? diff <= 1
                                   : diff == 0;
    }
    worst = std::max(worst, diff);
    differing += diff != 0;
    if (!ok) {
      ++bad;
      if (diff > worstBad) {
        worstBad = diff;
        worstAt = i;
      }
    }
  }
  total += n;
  if (!bad)
    return true;
  detail = "output " + std::to_string(k) + ": largest error " + numText(worstBad) + " at " +
           indexString(want.shape, worstAt) + " (got " + numText(element(got, worstAt)) +
           ", expected " + numText(element(want, worstAt)) + "); " + std::to_string(bad) + " of " +
           std::to_string(n) + " elements outside tolerance";
  return false;
}

// --- One test ----------------------------------------------------------------

/// What the runner needs from model.onnx, read once per test.
struct ModelInfo {
  /// The graph inputs that are not initializers, with whether each has a
  /// dimension that is not a fixed positive number.
  std::vector<std::pair<std::string, bool>> inputs;
  /// Per graph output, whether it is a quantized value, so one step of
  /// difference is allowed: a QuantizeLinear, DynamicQuantizeLinear or
  /// QLinear* node produces it. Every other integer output must match exactly.
  std::vector<bool> quantizedOutputs;
};

/// nullopt when the model does not parse (npuc then says why).
std::optional<ModelInfo> readModelInfo(const std::string &modelPath) {
  onnx::ModelProto model;
  std::ifstream in(modelPath, std::ios::binary);
  if (!model.ParseFromIstream(&in))
    return std::nullopt;
  ModelInfo info;
  std::set<std::string> inits;
  for (const onnx::TensorProto &t : model.graph().initializer())
    inits.insert(t.name());
  for (const onnx::ValueInfoProto &vi : model.graph().input()) {
    if (inits.count(vi.name()))
      continue;
    // Sequences, optionals and maps have no shape to pin: npuc judges them.
    bool dynamic = vi.type().has_tensor_type() && !vi.type().tensor_type().has_shape();
    if (vi.type().has_tensor_type())
      for (const auto &d : vi.type().tensor_type().shape().dim())
        dynamic |= !d.has_dim_value() || d.dim_value() <= 0;
    info.inputs.push_back({vi.name(), dynamic});
  }
  std::map<std::string, std::string> producer;
  for (const onnx::NodeProto &n : model.graph().node())
    for (const std::string &out : n.output())
      producer[out] = n.op_type();
  for (const onnx::ValueInfoProto &out : model.graph().output()) {
    auto it = producer.find(out.name());
    llvm::StringRef op = it == producer.end() ? "" : llvm::StringRef(it->second);
    info.quantizedOutputs.push_back(op == "QuantizeLinear" || op == "DynamicQuantizeLinear" ||
                                    op.starts_with("QLinear"));
  }
  return info;
}

/// Reads npuc's --report: the first issue (code, message) and the combinations.
void readReport(const std::string &path, std::string &code, std::string &message,
                std::vector<std::string> &keys, std::vector<std::string> &toBind) {
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(slurp(path));
  if (!v) {
    llvm::consumeError(v.takeError());
    return;
  }
  const llvm::json::Object *o = v->getAsObject();
  if (!o)
    return;
  if (const llvm::json::Array *issues = o->getArray("issues"))
    for (const llvm::json::Value &i : *issues) {
      const llvm::json::Object *io = i.getAsObject();
      if (!io)
        continue;
      std::string c = io->getString("code").value_or("").str();
      std::string m = io->getString("message").value_or("").str();
      if (code.empty()) {
        code = c;
        std::string node = io->getString("node").value_or("").str();
        message = (node.empty() ? "" : "node '" + node + "': ") + firstLine(m);
      }
      std::string bindInput = io->getString("bind_input").value_or("").str();
      if (c == "NPUC-E0104" && !bindInput.empty())
        toBind.push_back(bindInput);
    }
  if (const llvm::json::Array *support = o->getArray("support"))
    for (const llvm::json::Value &s : *support)
      if (const llvm::json::Object *so = s.getAsObject())
        keys.push_back(so->getString("key").value_or("").str());
}

/// One test on one target, into `r`; runTest creates `work` and removes it.
void runTestIn(const Test &test, const std::string &target, const Config &cfg,
               const std::string &work, Outcome &r) {
  std::string modelPath = test.dir + "/model.onnx";
  std::vector<fs::path> dataSets;
  std::error_code ec;
  for (const fs::directory_entry &e : fs::directory_iterator(test.dir, ec))
    if (e.is_directory(ec) && e.path().filename().string().rfind("test_data_set_", 0) == 0)
      dataSets.push_back(e.path());
  std::sort(dataSets.begin(), dataSets.end());
  if (dataSets.empty()) {
    r.cls = Class::Unsupported;
    r.code = "no-test-data";
    r.detail = "no test_data_set_* directory";
    return;
  }
  std::optional<ModelInfo> parsed = readModelInfo(modelPath);
  const std::vector<std::pair<std::string, bool>> inputs =
      parsed ? parsed->inputs : std::vector<std::pair<std::string, bool>>{};
  const std::vector<bool> quantized = parsed ? parsed->quantizedOutputs : std::vector<bool>{};
  std::set<std::string> bind;
  double worst = 0;
  uint64_t differing = 0, total = 0;
  std::string cycles, lastCompile;

  for (const fs::path &ds : dataSets) {
    std::string dsName = ds.filename().string();
    std::optional<std::vector<fs::path>> inList = numberedFiles(ds, "input_", ".pb");
    std::optional<std::vector<fs::path>> outList = numberedFiles(ds, "output_", ".pb");
    if (!inList || !outList) {
      r.cls = Class::Unsupported;
      r.code = "test-data";
      r.detail = dsName + ": input_K.pb / output_K.pb are not numbered 0..n-1";
      return;
    }
    const std::vector<fs::path> &inFiles = *inList, &outFiles = *outList;
    // Input shapes from the data set (for inputs with dynamic dimensions); the
    // data itself is npuc's (--bind-input) and npu-sim's to read and judge.
    std::vector<std::vector<int64_t>> inShapes(inFiles.size());
    for (size_t k = 0; k < inFiles.size(); ++k) {
      onnx::TensorProto t;
      std::ifstream in(inFiles[k], std::ios::binary);
      if (t.ParseFromIstream(&in))
        inShapes[k].assign(t.dims().begin(), t.dims().end());
      // An empty tensor cannot be a runtime input (npuc pins positive
      // dimensions only); it is data, so it is frozen.
      if (k < inputs.size() && inputs[k].second &&
          std::count(inShapes[k].begin(), inShapes[k].end(), 0)) {
        bind.insert(inputs[k].first);
        r.bound.assign(bind.begin(), bind.end());
      }
    }
    if (parsed && inFiles.size() != inputs.size()) {
      r.cls = Class::Unsupported;
      r.code = "test-data";
      r.detail = dsName + " has " + std::to_string(inFiles.size()) + " inputs, the model " +
                 std::to_string(inputs.size());
      return;
    }
    // Compile; an input npuc needs constant is frozen to the data set's value.
    for (int attempt = 0;; ++attempt) {
      std::vector<std::string> args{modelPath, "--target", target, "--allow-unverified",
                                    "-o", work + "/model.bin", "--report", work + "/report.json"};
      std::string identity;
      for (size_t k = 0; k < inputs.size(); ++k) {
        if (bind.count(inputs[k].first)) {
          args.push_back("--bind-input");
          args.push_back(inputs[k].first + "=" + inFiles[k].string());
          identity += "bind " + inFiles[k].string();
        } else if (inputs[k].second) {
          std::string dims;
          for (int64_t d : inShapes[k])
            dims += (dims.empty() ? "" : "x") + std::to_string(d);
          if (inShapes[k].empty())
            dims = "1";
          args.push_back("--input-shape");
          args.push_back(inputs[k].first + "=" + dims);
          identity += " shape " + dims;
        }
      }
      if (identity == lastCompile && !lastCompile.empty())
        break;  // same specialization as the previous data set
      if (attempt == 0 && dataSets.front() != ds && identity.empty())
        break;  // nothing data-set specific: the model compiled once
      fs::remove(work + "/report.json", ec);  // no stale report from an earlier attempt
      RunResult c = runProgram(cfg.npuc, args, work, cfg);
      std::string code, message;
      std::vector<std::string> keys, toBind;
      readReport(work + "/report.json", code, message, keys, toBind);
      if (!keys.empty())
        r.keys = keys;
      if (c.crashed) {
        r.cls = Class::Crash;
        r.detail = "npuc " + std::string(c.timedOut ? "timed out" : "died") + ": " + c.why +
                   (c.err.empty() ? "" : " (" + lastLine(c.err) + ")");
        return;
      }
      if (c.rc == 0) {
        lastCompile = identity.empty() ? "once" : identity;
        r.compiled = true;
        break;
      }
      bool progress = false;
      for (const std::string &name : toBind)
        for (const auto &in : inputs)
          if (in.first == name && bind.insert(name).second)
            progress = true;
      r.bound.assign(bind.begin(), bind.end());
      if (progress && attempt < 4)
        continue;
      // UNSUPPORTED only with a diagnostic that has a code: exit 1 without
      // one, or npuc refusing the command line the runner built (exit 2), is
      // a failure of the tools that must not hide in the expectations.
      if (c.rc == 1 && !code.empty()) {
        r.cls = Class::Unsupported;
        r.code = code;
        r.detail = message;
      } else {
        r.cls = Class::Crash;
        r.detail = (c.rc == 2 ? "npuc refused the runner's command line: "
                              : "npuc exited with " + std::to_string(c.rc) + " and no diagnostic: ") +
                   lastLine(c.err);
      }
      return;
    }
    // Execute.
    std::string outDir = work + "/out";
    fs::remove_all(outDir, ec);
    std::vector<std::string> args{work + "/model.bin", "-o", outDir, "--stats"};
    for (size_t k = 0; k < inputs.size(); ++k)
      if (!bind.count(inputs[k].first)) {
        args.push_back("-i");
        args.push_back(inputs[k].first + "=" + inFiles[k].string());
      }
    RunResult s = runProgram(cfg.sim, args, work, cfg);
    if (s.rc == 1) {
      // The compiled model does not take the test's own data: a wrong model.
      r.cls = Class::Fail;
      r.detail = dsName + ": npu-sim refused the data set: " + lastLine(s.err);
      return;
    }
    if (s.crashed || (s.rc != 0 && s.rc != 3)) {
      r.cls = Class::Crash;
      r.detail = "npu-sim " +
                 std::string(s.crashed ? (s.timedOut ? "timed out" : "died") : "failed") + ": " +
                 (s.why.empty() ? "exit " + std::to_string(s.rc) : s.why) + " (" +
                 lastLine(s.err) + ")";
      return;
    }
    if (s.rc == 3) {
      r.cls = Class::Fault;
      r.detail = dsName + ": " + lastLine(s.err);
      return;
    }
    size_t at = s.out.find("cycles: ");
    if (at != std::string::npos)
      cycles = s.out.substr(at + 8, s.out.find(' ', at + 8) - at - 8);
    // Compare.
    std::vector<fs::path> gotFiles =
        numberedFiles(outDir, "output_", ".npy").value_or(std::vector<fs::path>{});
    if (gotFiles.size() != outFiles.size()) {
      r.cls = Class::Fail;
      r.detail = dsName + ": " + std::to_string(gotFiles.size()) + " outputs, expected " +
                 std::to_string(outFiles.size());
      return;
    }
    for (size_t k = 0; k < outFiles.size(); ++k) {
      HostTensor got, want;
      std::string error, detail;
      if (!readTensorFile(outFiles[k].string(), want, error) ||
          !readTensorFile(gotFiles[k].string(), got, error)) {
        r.cls = Class::Fail;
        r.detail = dsName + ": output " + std::to_string(k) + ": " + error;
        return;
      }
      if (!compareOutput(k, got, want, k < quantized.size() && quantized[k], worst, differing,
                         total, detail)) {
        r.cls = Class::Fail;
        r.detail = dsName + ": " + detail;
        return;
      }
    }
  }
  r.cls = Class::Pass;
  r.detail = "max |diff| " + numText(worst) + ", " + std::to_string(differing) + " of " +
             std::to_string(total) + " elements differ" +
             (dataSets.size() > 1 ? ", " + std::to_string(dataSets.size()) + " data sets" : "") +
             (cycles.empty() ? "" : ", " + cycles + " cycles");
  return;
}

Outcome runTest(const Test &test, const std::string &target, const Config &cfg) {
  Outcome r;
  llvm::SmallString<128> workDir;
  if (llvm::sys::fs::createUniqueDirectory("npuc-conformance", workDir)) {
    r.cls = Class::Crash;
    r.detail = "cannot create a temporary directory";
    return r;
  }
  try {
    runTestIn(test, target, cfg, workDir.str().str(), r);
  } catch (const std::exception &e) {
    r.cls = Class::Crash;
    r.detail = std::string("the runner failed on this test: ") + e.what();
  }
  std::error_code ec;
  fs::remove_all(workDir.str().str(), ec);
  return r;
}

// --- Expectations ------------------------------------------------------------

struct Expectation {
  Class cls;
  std::string reason;
  size_t line;
  bool seen = false;
};

/// Lines "NAME[@TARGET] CLASS REASON..."; '#' starts a comment line.
bool readExpectations(const std::string &path, std::map<std::string, Expectation> &out,
                      std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read '" + path + "'";
    return false;
  }
  std::string line;
  size_t lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    llvm::StringRef l = llvm::StringRef(line).trim();
    if (l.empty() || l.starts_with("#"))
      continue;
    auto [name, rest] = l.split(' ');
    auto [cls, reason] = rest.trim().split(' ');
    Expectation e{Class::Pass, reason.trim().str(), lineNo};
    if (!parseClass(cls, e.cls) || e.cls == Class::Pass || reason.trim().empty()) {
      error = path + ":" + std::to_string(lineNo) +
              ": expected 'NAME[@TARGET] FAIL|UNSUPPORTED REASON' (every entry needs its reason)";
      return false;
    }
    if (e.cls == Class::Crash || e.cls == Class::Fault) {
      error = path + ":" + std::to_string(lineNo) + ": a " + className(e.cls) +
              " cannot be expected; it always fails the suite";
      return false;
    }
    if (!out.emplace(name.str(), e).second) {
      error = path + ":" + std::to_string(lineNo) + ": '" + name.str() + "' is listed twice";
      return false;
    }
  }
  return true;
}

/// Appends the directories `path` names: one per line, '#' comments, $NAME
/// replaced by the environment variable NAME (which must be set).
bool readList(const std::string &path, std::vector<std::string> &out, std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read '" + path + "'";
    return false;
  }
  std::string line;
  for (size_t lineNo = 1; std::getline(in, line); ++lineNo) {
    llvm::StringRef l = llvm::StringRef(line).split('#').first.trim();
    std::string dir;
    while (!l.empty()) {
      size_t dollar = l.find('$');
      dir += l.take_front(dollar).str();
      if (dollar == llvm::StringRef::npos)
        break;
      l = l.drop_front(dollar + 1);
      size_t end = l.find_if_not([](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
      std::string var = l.take_front(end).str();
      const char *value = std::getenv(var.c_str());
      if (var.empty() || !value) {
        error = path + ":" + std::to_string(lineNo) + ": $" + var + " is not set";
        return false;
      }
      dir += value;
      l = l.drop_front(var.size());
    }
    if (!dir.empty())
      out.push_back(dir);
  }
  return true;
}

struct Job {
  const Test *test;
  std::string target;
  Outcome outcome;
};


} // namespace

int main(int argc, char **argv) {
  CLI::App app{"npuc-conformance: compile ONNX tests with npuc, execute them in npu-sim, "
               "compare with their expected outputs"};
  std::vector<std::string> roots;
  std::string targets = "npu-v1", jsonPath, expectationsPath, writeExpectations, writeEvidence;
  std::string npucPath, simPath;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  Config cfg;
  std::vector<std::string> lists;
  app.add_option("dirs", roots, "test directories, or folders of them");
  app.add_option("--list", lists,
                 "a file naming test directories, one per line ('#' comments, $VAR expanded)");
  app.add_option("--target", targets, "target(s), comma-separated (default npu-v1)");
  app.add_option("-j,--jobs", jobs, "tests run in parallel")->check(CLI::Range(1u, 256u));
  app.add_option("--json", jsonPath, "write every result as JSON");
  app.add_option("--expectations", expectationsPath,
                 "known non-passing tests: NAME[@TARGET] CLASS REASON per line; any other "
                 "result, and any listed test that passes, fails the run");
  bool strict = false;
  app.add_flag("--strict", strict, "every test must pass: UNSUPPORTED fails the run too");
  app.add_option("--write-expectations", writeExpectations,
                 "write this run's non-passing tests, with their diagnostics as reasons");
  app.add_option("--write-evidence", writeEvidence,
                 "write the op evidence table (lib/Support/OpEvidence.tsv) from this run");
  app.add_option("--npuc", npucPath, "the npuc to test (default: next to this tool)");
  app.add_option("--npu-sim", simPath, "the npu-sim to use (default: next to this tool)");
  app.add_option("--timeout", cfg.timeout, "seconds per compile or simulation (default 600)")
      ->check(CLI::Range(1u, 86400u));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  std::string self = llvm::sys::fs::getMainExecutable(argv[0], (void *)&main);
  std::string binDir = llvm::sys::path::parent_path(self).str();
  cfg.npuc = npucPath.empty() ? binDir + "/npuc" : npucPath;
  cfg.sim = simPath.empty() ? binDir + "/npu-sim" : simPath;
  for (const std::string &p : {cfg.npuc, cfg.sim})
    if (!llvm::sys::fs::can_execute(p)) {
      std::cerr << "npuc-conformance: error: '" << p << "' is not an executable\n";
      return 2;
    }
  std::vector<std::string> targetList;
  for (llvm::StringRef rest = targets; !rest.empty();) {
    auto [t, tail] = rest.split(',');
    if (t.empty()) {
      std::cerr << "npuc-conformance: error: --target '" << targets << "' has an empty name\n";
      return 2;
    }
    targetList.push_back(t.str());
    rest = tail;
  }

  std::map<std::string, Expectation> expectations;
  if (!expectationsPath.empty()) {
    std::string error;
    if (!readExpectations(expectationsPath, expectations, error)) {
      std::cerr << "npuc-conformance: error: " << error << "\n";
      return 2;
    }
  }

  for (const std::string &list : lists) {
    std::string error;
    if (!readList(list, roots, error)) {
      std::cerr << "npuc-conformance: error: " << error << "\n";
      return 2;
    }
  }
  if (roots.empty()) {
    std::cerr << "npuc-conformance: error: no test directory given\n";
    return 2;
  }
  // Expectations are complete for the folders given whole: an entry of such
  // a folder that matches no test is stale.
  std::vector<Test> tests;
  std::set<std::string> prefixes;
  for (const std::string &root : roots) {
    fs::path r = fs::absolute(root).lexically_normal();
    std::string base = r.has_filename() ? r.filename().string() : r.parent_path().filename().string();
    std::error_code ec;
    if (!fs::is_directory(r, ec)) {
      std::cerr << "npuc-conformance: error: '" << root << "' is not a directory\n";
      return 2;
    }
    size_t before = tests.size();
    if (fs::exists(r / "model.onnx", ec)) {
      tests.push_back({r.parent_path().filename().string() + "/" + base, r.string()});
      continue;
    }
    discover(r, r, base, tests, 3);
    if (tests.size() == before) {
      std::cerr << "npuc-conformance: error: no test (a directory with model.onnx) under '"
                << root << "'\n";
      return 2;
    }
    prefixes.insert(base + "/");
  }

  std::vector<Job> work;
  for (const Test &t : tests)
    for (const std::string &target : targetList)
      work.push_back({&t, target, {}});
  std::atomic<size_t> next{0};
  size_t done = 0;
  std::mutex mu;
  auto worker = [&] {
    for (size_t i; (i = next++) < work.size();) {
      auto start = std::chrono::steady_clock::now();
      work[i].outcome = runTest(*work[i].test, work[i].target, cfg);
      work[i].outcome.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::lock_guard<std::mutex> lock(mu);
      const Outcome &o = work[i].outcome;
      std::cout << "[" << ++done << "/" << work.size() << "] " << className(o.cls) << "  "
                << work[i].test->name << "  " << work[i].target << "  "
                << (o.code.empty() ? "" : o.code + ": ") << o.detail << std::endl;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned k = 0; k < std::min<size_t>(jobs, work.size()); ++k)
    threads.emplace_back(worker);
  for (std::thread &t : threads)
    t.join();

  // Summary.
  std::map<std::string, std::map<Class, size_t>> perTarget;
  size_t passed = 0, failedCount = 0;
  for (const Job &j : work) {
    ++perTarget[j.target][j.outcome.cls];
    passed += j.outcome.cls == Class::Pass;
    failedCount += failed(j.outcome.cls);
  }
  for (const auto &[target, counts] : perTarget) {
    std::cout << target << ":";
    for (Class c : kClasses)
      std::cout << " " << className(c) << " " << (counts.count(c) ? counts.at(c) : 0);
    std::cout << "\n";
  }

  // Expectations.
  size_t unexpected = 0;
  auto complain = [&](const std::string &msg) {
    if (!unexpected++)
      std::cout << "unexpected results (" << expectationsPath << "):\n";
    std::cout << "  " << msg << "\n";
  };
  if (!expectationsPath.empty()) {
    for (const Job &j : work) {
      const std::string &name = j.test->name;
      auto it = expectations.find(name + "@" + j.target);
      if (it == expectations.end())
        it = expectations.find(name);
      Expectation *e = it == expectations.end() ? nullptr : &it->second;
      if (e)
        e->seen = true;
      Class c = j.outcome.cls;
      std::string where = name + " on " + j.target + ": ";
      if (c == Class::Crash || c == Class::Fault)
        complain(where + className(c) + " (" + j.outcome.detail + ")");
      else if (c == Class::Pass && e)
        complain(where + "passes now; remove its entry (line " + std::to_string(e->line) +
                 ", the list only shrinks), or qualify it with the targets where it still fails");
      else if (c != Class::Pass && !e)
        complain(where + className(c) + " is not expected; fix it, or list it with its reason (" +
                 (j.outcome.code.empty() ? "" : j.outcome.code + ": ") + j.outcome.detail + ")");
      else if (c != Class::Pass && e->cls != c)
        complain(where + className(c) + ", expected " + className(e->cls) + " (" +
                 j.outcome.detail + ")");
    }
    for (const auto &[name, e] : expectations) {
      std::string test = name.substr(0, name.find('@'));
      if (name.find('@') != std::string::npos &&
          !llvm::is_contained(targetList, name.substr(name.find('@') + 1)))
        continue;  // a target this run does not cover
      bool inScope = std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string &p) {
        return test.rfind(p, 0) == 0;
      });
      if (inScope && !e.seen)
        complain(name + ": listed (line " + std::to_string(e.line) + ") but no such test ran");
    }
  }

  if (!writeExpectations.empty()) {
    std::ofstream os(writeExpectations);
    os << "# Known non-passing tests: NAME[@TARGET] CLASS REASON. A listed test that passes,\n"
          "# or an unlisted one that does not, fails the suite; CRASH and FAULT always do.\n";
    std::map<std::string, std::vector<const Job *>> byTest;
    for (const Job &j : work)
      byTest[j.test->name].push_back(&j);
    for (const auto &[name, js] : byTest) {
      bool same = std::all_of(js.begin(), js.end(), [&](const Job *j) {
        return j->outcome.cls == js[0]->outcome.cls && j->outcome.code == js[0]->outcome.code;
      });
      for (const Job *j : js) {
        const Outcome &o = j->outcome;
        if (o.cls == Class::Pass || o.cls == Class::Crash || o.cls == Class::Fault)
          continue;
        os << name << (same && js.size() == targetList.size() ? "" : "@" + j->target) << " "
           << className(o.cls) << " " << (o.code.empty() ? "" : o.code + ": ") << o.detail
           << "\n";
        if (same && js.size() == targetList.size())
          break;
      }
    }
  }

  if (!writeEvidence.empty()) {
    // Per (combination, target), the best level and the tests behind it.
    std::map<std::pair<std::string, std::string>, std::pair<support::Level, std::set<std::string>>>
        best;
    for (const Job &j : work) {
      const Outcome &o = j.outcome;
      support::Level level = o.cls == Class::Pass ? support::Level::Verified
                             : o.compiled         ? support::Level::Lowered
                                                  : support::Level::Imported;
      std::string entry = j.test->name;
      if (level == support::Level::Imported && !o.code.empty())
        entry += " [" + o.code + "]";
      else if (level == support::Level::Lowered)
        entry += " [" + std::string(className(o.cls)) + "]";
      for (const std::string &key : std::set<std::string>(o.keys.begin(), o.keys.end())) {
        auto &slot = best[{key, j.target}];
        if (slot.second.empty() || level > slot.first)
          slot = {level, {}};
        if (level == slot.first)
          slot.second.insert(entry);
      }
    }
    std::vector<support::Evidence> evidence;
    for (const auto &[kt, ls] : best) {
      std::string tests;
      size_t n = 0;
      for (const std::string &t : ls.second)
        if (n++ < 5)
          tests += (tests.empty() ? "" : ",") + t;
      if (ls.second.size() > 5)
        tests += ",+" + std::to_string(ls.second.size() - 5) + " more";
      evidence.push_back({kt.first, kt.second, ls.first, tests});
    }
    std::ofstream(writeEvidence) << support::formatEvidence(evidence);
  }

  if (!jsonPath.empty()) {
    std::ofstream os(jsonPath);
    os << "{\"results\": [";
    for (size_t i = 0; i < work.size(); ++i) {
      const Job &j = work[i];
      const Outcome &o = j.outcome;
      os << (i ? ",\n  " : "\n  ") << "{\"test\": " << json::quote(j.test->name)
         << ", \"dir\": " << json::quote(j.test->dir) << ", \"target\": " << json::quote(j.target)
         << ", \"class\": \"" << className(o.cls) << "\", \"code\": " << json::quote(o.code)
         << ", \"detail\": " << json::quote(o.detail) << ", \"seconds\": " << numText(o.seconds)
         << ", \"bound_inputs\": [";
      for (size_t k = 0; k < o.bound.size(); ++k)
        os << (k ? ", " : "") << json::quote(o.bound[k]);
      os << "], \"combinations\": [";
      for (size_t k = 0; k < o.keys.size(); ++k)
        os << (k ? ", " : "") << json::quote(o.keys[k]);
      os << "]}";
    }
    os << "]}\n";
  }

  std::cout << passed << " passed, " << failedCount << " failed";
  if (!expectationsPath.empty())
    std::cout << ", " << unexpected << " unexpected";
  std::cout << "\n";
  if (strict)
    return passed == work.size() && !unexpected ? 0 : 1;
  if (!expectationsPath.empty())
    return unexpected ? 1 : 0;
  return failedCount ? 1 : 0;
}
