//===- Zoo.cpp - npuc-zoo: discovery, one hermetic compile, the cache -----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Zoo.h"

#include "Process.h"
#include "TestData.h"
#include "npuc/Base/Hash.h"
#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Sha256.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

using namespace npuc;
using namespace npuc::zoo;
namespace fs = std::filesystem;

//===----------------------------------------------------------------------===//
// Discovery
//===----------------------------------------------------------------------===//

namespace {
bool hasSuffix(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The output name of a model file: its directory's name for model.onnx (the
/// ONNX test-data layout), else the file name without .onnx; for a file found
/// below a directory given (`root`), that directory's name and the path from
/// it (models/mnist8 and examples/mnist8 stay apart, as in npuc-conformance).
std::string nameOf(const fs::path &file, const fs::path *root) {
  fs::path p = file.filename() == "model.onnx" ? file.parent_path() : file.parent_path() / file.stem();
  if (!root)
    return fs::absolute(p).lexically_normal().filename().string();
  fs::path top = fs::absolute(*root).lexically_normal();
  if (top.filename().empty())
    top = top.parent_path();
  fs::path rel = fs::absolute(p).lexically_normal().lexically_relative(top);
  return (rel.empty() || rel == ".") ? top.filename().string() : (top.filename() / rel).string();
}

bool addFile(const fs::path &file, const fs::path *root, std::vector<std::string> options,
             std::vector<Model> &models) {
  models.push_back({file.string(), nameOf(file, root), std::move(options)});
  return true;
}

bool addDirectory(const fs::path &dir, std::vector<Model> &models, std::string &error) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    std::string n = it->path().filename().string();
    if (!n.empty() && n[0] == '.') {
      if (it->is_directory(ec))
        it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && hasSuffix(n, ".onnx"))
      found.push_back(it->path());
  }
  if (ec) {
    error = "cannot search '" + dir.string() + "': " + ec.message();
    return false;
  }
  std::sort(found.begin(), found.end());
  for (const fs::path &f : found)
    addFile(f, &dir, {}, models);
  return true;
}

bool addInput(const std::string &input, std::vector<std::string> options, std::vector<Model> &models,
              std::string &error) {
  std::error_code ec;
  fs::file_status st = fs::status(input, ec);
  if (ec || !fs::exists(st)) {
    error = "'" + input + "' does not exist";
    return false;
  }
  if (fs::is_directory(st)) {
    if (!options.empty()) {
      error = "'" + input + "' is a directory: options in a list file apply to one model file";
      return false;
    }
    return addDirectory(input, models, error);
  }
  if (!hasSuffix(input, ".onnx")) {
    error = "'" + input + "' is neither a directory nor an .onnx file";
    return false;
  }
  return addFile(input, nullptr, std::move(options), models);
}
} // namespace

bool zoo::discover(const std::vector<std::string> &inputs, const std::vector<std::string> &lists,
                   std::vector<Model> &models, std::string &error) {
  for (const std::string &in : inputs)
    if (!addInput(in, {}, models, error))
      return false;
  for (const std::string &list : lists) {
    std::ifstream f(list);
    if (!f) {
      error = "cannot read the list file '" + list + "'";
      return false;
    }
    fs::path base = fs::path(list).parent_path();
    std::string line;
    for (size_t lineNo = 1; std::getline(f, line); ++lineNo) {
      std::istringstream words(line);
      std::string path, word;
      if (!(words >> path) || path[0] == '#')
        continue;
      std::vector<std::string> options;
      while (words >> word)
        options.push_back(word);
      std::string where = fs::path(path).is_absolute() ? path : (base / path).string();
      if (!addInput(where, std::move(options), models, error)) {
        error = list + ":" + std::to_string(lineNo) + ": " + error;
        return false;
      }
    }
  }
  std::map<std::string, std::string> byName;
  for (const Model &m : models) {
    auto [it, fresh] = byName.emplace(m.name, m.path);
    if (!fresh) {
      error = "'" + m.path + "' and '" + it->second + "' would both be written to '" + m.name +
              ".bin'; give them in separate runs or list one under another name";
      return false;
    }
  }
  if (models.empty()) {
    error = "no models found (an input is an .onnx file, a directory searched for *.onnx, or "
            "--list FILE)";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

namespace {
std::string entryPath(const std::string &cacheDir, const std::string &key, const char *ext) {
  return cacheDir + "/" + key.substr(0, 2) + "/" + key + ext;
}

std::string fileDigest(const std::string &path) {
  std::vector<uint8_t> bytes;
  std::string error;
  if (!model::readFile(path, bytes, error))
    return "unreadable";
  return sha256Hex(bytes.data(), bytes.size());
}
} // namespace

std::optional<uint64_t> zoo::fileXxh3(const std::string &path, uint64_t size) {
  std::error_code ec;
  if (fs::file_size(path, ec) != size || ec)
    return std::nullopt;
  // Mapped, not copied: a hit of a large model reads it at memory speed.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buf || (*buf)->getBufferSize() != size)
    return std::nullopt;
  return llvm::xxh3_64bits((*buf)->getBuffer());
}

Lookup zoo::cacheLookup(const std::string &cacheDir, const std::string &key, Entry &entry) {
  std::string bin = entryPath(cacheDir, key, ".bin"), meta = entryPath(cacheDir, key, ".json");
  std::error_code ec;
  if (!fs::exists(bin, ec) && !fs::exists(meta, ec))
    return Lookup::Miss;
  // The entry's own record of what it holds: its size, its XXH3 (checked on
  // every hit: a damaged or truncated file is found at gigabytes per
  // second), its SHA-256 (reported) and the options the compile used.
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(tools::slurp(meta));
  const llvm::json::Object *o = v ? v->getAsObject() : nullptr;
  if (!v)
    llvm::consumeError(v.takeError());
  std::optional<int64_t> size = o ? o->getInteger("size") : std::nullopt;
  std::optional<uint64_t> hash = size && *size >= 0 ? fileXxh3(bin, uint64_t(*size)) : std::nullopt;
  if (hash && o->getString("xxh3").value_or("") == hex64(*hash)) {
    entry.path = bin;
    entry.size = uint64_t(*size);
    entry.xxh3 = *hash;
    entry.sha256 = o->getString("sha256").value_or("").str();
    entry.npucArgs.clear();
    if (const llvm::json::Array *args = o->getArray("npuc_args"))
      for (const llvm::json::Value &a : *args)
        entry.npucArgs.push_back(a.getAsString().value_or("").str());
    return Lookup::Hit;
  }
  fs::remove(meta, ec);
  fs::remove(bin, ec);
  return Lookup::Corrupt;
}

bool zoo::cacheStore(const std::string &cacheDir, const std::string &key, const std::vector<uint8_t> &bytes,
                     const std::string &sha256, const std::vector<std::string> &npucArgs,
                     std::string &error) {
  std::error_code ec;
  fs::create_directories(cacheDir + "/" + key.substr(0, 2), ec);
  llvm::json::Array args;
  for (const std::string &a : npucArgs)
    args.push_back(a);
  std::string meta;
  llvm::raw_string_ostream os(meta);
  os << llvm::json::Value(llvm::json::Object{{"sha256", sha256},
                                             {"xxh3", hex64(llvm::xxh3_64bits(bytes))},
                                             {"size", int64_t(bytes.size())},
                                             {"npuc_args", std::move(args)}})
     << "\n";
  // The model first, its record last: a record names complete bytes.
  return model::writeFileAtomically(entryPath(cacheDir, key, ".bin"), bytes, error) &&
         model::writeFileAtomically(entryPath(cacheDir, key, ".json"),
                                    std::vector<uint8_t>(meta.begin(), meta.end()), error);
}

//===----------------------------------------------------------------------===//
// One model
//===----------------------------------------------------------------------===//

namespace {
/// The test data a model is specialized to: test_data_set_0's inputs, in
/// graph input order (empty when there is none, or it does not fit).
struct TestInputs {
  std::vector<std::pair<std::string, bool>> graphInputs;  // (name, dynamic)
  std::vector<fs::path> files;
};

TestInputs testInputs(const onnx::ModelProto &proto, const fs::path &modelDir) {
  TestInputs t;
  fs::path ds = modelDir / "test_data_set_0";
  std::error_code ec;
  if (!fs::is_directory(ds, ec))
    return t;
  std::optional<std::vector<fs::path>> files = tools::numberedFiles(ds, "input_", ".pb");
  std::vector<std::pair<std::string, bool>> inputs = tools::graphInputs(proto);
  if (files && files->size() == inputs.size()) {
    t.graphInputs = std::move(inputs);
    t.files = std::move(*files);
  }
  return t;
}

/// The cache key: SHA-256 of every declared input of the compile.
std::string cacheKey(const Config &cfg, const std::string &modelPath, const onnx::ModelProto *proto,
                     const std::vector<std::string> &options, const TestInputs &test) {
  std::string text = "npuc-zoo cache 1\nidentity " + cfg.identity + "\nmodel " + fileDigest(modelPath) + "\n";
  fs::path dir = fs::path(modelPath).parent_path();
  if (proto)
    for (const std::string &loc : tools::externalDataFiles(*proto))
      text += "external " + loc + " " + fileDigest((dir / loc).string()) + "\n";
  // A file an option names (--bind-input NAME=FILE) enters by its contents.
  for (size_t k = 0; k < options.size(); ++k) {
    const std::string &o = options[k];
    text += "option " + o + "\n";
    std::string bound = o.rfind("--bind-input=", 0) == 0 ? o.substr(13)
                        : k > 0 && options[k - 1] == "--bind-input" ? o : std::string();
    if (size_t eq = bound.rfind('='); eq != std::string::npos)
      text += "bound-file " + fileDigest(bound.substr(eq + 1)) + "\n";
  }
  for (const fs::path &f : test.files)
    text += "test-input " + f.filename().string() + " " + fileDigest(f.string()) + "\n";
  return sha256Hex(text.data(), text.size());
}

std::vector<Diagnostic> diagnosticsOf(const std::string &reportPath) {
  std::vector<Diagnostic> out;
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(tools::slurp(reportPath));
  if (!v) {
    llvm::consumeError(v.takeError());
    return out;
  }
  if (const llvm::json::Object *o = v->getAsObject())
    for (const tools::ReportIssue &i : tools::reportIssues(*o))
      out.push_back({i.code, i.node, tools::firstLine(i.message)});
  return out;
}

/// "NAME=1x3x224x224" for a dynamic input, from its test data.
std::optional<std::string> shapeArg(const std::string &name, const fs::path &pb) {
  std::optional<std::vector<int64_t>> dims = tools::tensorDims(pb.string());
  if (!dims)
    return std::nullopt;
  std::string s;
  for (int64_t d : *dims)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return name + "=" + (s.empty() ? "1" : s);
}

/// Compiles into `work`, freezing the inputs npuc asks for (NPUC-E0104) to
/// their test data; fills the result's diagnostics, failure and arguments.
bool compile(const Model &model, const Config &cfg, const std::vector<std::string> &options,
             const TestInputs &test, const std::string &work, Result &r) {
  std::vector<std::string> bound;
  for (size_t attempt = 0; attempt <= test.files.size(); ++attempt) {
    std::vector<std::string> args = options, shown = options;
    for (size_t k = 0; k < test.files.size(); ++k) {
      const std::string &name = test.graphInputs[k].first;
      if (std::count(bound.begin(), bound.end(), name)) {
        args.insert(args.end(), {"--bind-input", name + "=" + test.files[k].string()});
        shown.insert(shown.end(), {"--bind-input", name + "=" + test.files[k].filename().string()});
      } else if (test.graphInputs[k].second) {
        if (std::optional<std::string> s = shapeArg(name, test.files[k])) {
          args.insert(args.end(), {"--input-shape", *s});
          shown.insert(shown.end(), {"--input-shape", *s});
        }
      }
    }
    std::string report = work + "/report.json";
    std::error_code ec;
    fs::remove(report, ec);
    std::vector<std::string> argv{model.path, "-o", work + "/model.bin", "--report", report};
    argv.insert(argv.end(), args.begin(), args.end());
    tools::RunResult c = tools::runProgram(cfg.npuc, argv, work, cfg.timeout);
    r.npucArgs = shown;
    r.diagnostics = diagnosticsOf(report);
    if (!c.crashed && c.rc == 0)
      return true;
    if (c.crashed) {
      r.failure = "npuc " + (c.timedOut ? c.why : "crashed (" + c.why + ")");
      return false;
    }
    size_t before = bound.size();
    // Inputs npuc needs constant, frozen to the test data when there is some.
    llvm::Expected<llvm::json::Value> v = llvm::json::parse(tools::slurp(report));
    if (v) {
      if (const llvm::json::Object *o = v->getAsObject())
        for (const tools::ReportIssue &i : tools::reportIssues(*o))
          if (i.code == "NPUC-E0104" && !i.bindInput.empty() &&
              !std::count(bound.begin(), bound.end(), i.bindInput) &&
              std::any_of(test.graphInputs.begin(), test.graphInputs.end(),
                          [&](const auto &g) { return g.first == i.bindInput; }))
            bound.push_back(i.bindInput);
    } else {
      llvm::consumeError(v.takeError());
    }
    if (bound.size() == before) {
      r.failure = r.diagnostics.empty() ? tools::lastLine(c.err)
                                        : r.diagnostics.front().code + ": " +
                                              (r.diagnostics.front().node.empty()
                                                   ? ""
                                                   : "node '" + r.diagnostics.front().node + "': ") +
                                              r.diagnostics.front().message;
      return false;
    }
  }
  r.failure = "npuc kept asking for inputs to freeze";
  return false;
}

/// npu-sim on the compiled model with test_data_set_0's inputs.
void simulate(const Config &cfg, const TestInputs &test, const std::string &work, Result &r) {
  if (test.files.empty()) {
    r.simulation = "no test_data_set_0 to run";
    return;
  }
  std::vector<std::string> args{r.output, "-o", work + "/sim", "--stats"};
  for (size_t k = 0; k < test.files.size(); ++k) {
    const std::string &name = test.graphInputs[k].first;
    bool bound = false;
    for (size_t a = 0; a + 1 < r.npucArgs.size(); ++a)
      bound |= r.npucArgs[a] == "--bind-input" && r.npucArgs[a + 1].rfind(name + "=", 0) == 0;
    if (!bound)
      args.insert(args.end(), {"-i", name + "=" + test.files[k].string()});
  }
  tools::RunResult s = tools::runProgram(cfg.sim, args, work, cfg.timeout);
  if (s.crashed || s.rc != 0) {
    r.simulation = "npu-sim: " + (s.crashed ? s.why : tools::lastLine(s.err));
    return;
  }
  std::istringstream lines(s.out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("cycles: ", 0) == 0)
      r.cycles = std::stoull(line.substr(8));
}
} // namespace

Result zoo::build(const Model &model, const Config &cfg) {
  auto start = std::chrono::steady_clock::now();
  Result r;
  r.output = cfg.outputDir + "/" + model.name + ".bin";
  std::error_code ec;
  fs::create_directories(fs::path(r.output).parent_path(), ec);
  onnx::ModelProto proto;
  bool parsed = tools::readModel(model.path, proto);
  TestInputs test = parsed && cfg.testDataShapes ? testInputs(proto, fs::path(model.path).parent_path())
                                                 : TestInputs{};
  std::vector<std::string> options = cfg.options;
  options.insert(options.end(), model.options.begin(), model.options.end());
  r.key = cacheKey(cfg, model.path, parsed ? &proto : nullptr, options, test);

  std::vector<uint8_t> bytes;
  std::string error;
  Entry hit;
  if (!cfg.cacheDir.empty()) {
    Lookup l = cacheLookup(cfg.cacheDir, r.key, hit);
    r.cache = l == Lookup::Hit ? "hit" : l == Lookup::Corrupt ? "corrupt" : "miss";
  }
  // A directory of its own (two models of one key may run at once).
  std::string work = (fs::temp_directory_path() / "npuc-zoo-XXXXXX").string();
  if (!mkdtemp(work.data())) {
    r.failure = "cannot create a work directory in " + fs::temp_directory_path().string();
    return r;
  }
  if (r.cache == "hit") {
    r.sha256 = hit.sha256;
    r.npucArgs = hit.npucArgs;
    // An output that holds these bytes already (a rerun into the same
    // directory) is left as it is; else the entry is copied, atomically.
    r.ok = fileXxh3(r.output, hit.size) == hit.xxh3 ||
           (model::readFile(hit.path, bytes, error) &&
            model::writeFileAtomically(r.output, bytes, error));
  } else {
    if (compile(model, cfg, options, test, work, r) &&
        model::readFile(work + "/model.bin", bytes, error)) {
      r.sha256 = sha256Hex(bytes.data(), bytes.size());
      if (!cfg.cacheDir.empty() && !cacheStore(cfg.cacheDir, r.key, bytes, r.sha256, r.npucArgs, error))
        r.diagnostics.push_back({"", "", "not cached: " + error});
      error.clear();
      r.ok = model::writeFileAtomically(r.output, bytes, error);
    }
  }
  if (!r.ok) {
    if (r.failure.empty())
      r.failure = error;
    fs::remove(r.output, ec);  // no stale model at the path of one that failed
  }
  if (r.ok && cfg.simulate)
    simulate(cfg, test, work, r);
  fs::remove_all(work, ec);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}
