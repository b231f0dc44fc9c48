//===- npuc-zoo.cpp - Compile many models in one call, with a cache -------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// docs/cli.md ("npuc-zoo") and docs/ci.md. Runs npuc (and, with --simulate,
// npu-sim) as child processes; links no MLIR and no compiler code.
//
//===----------------------------------------------------------------------===//

#include "Process.h"
#include "Zoo.h"
#include "npuc/Base/CommandLine.h"
#include "npuc/Base/ModelFile.h"
#include "npuc/Base/Resources.h"
#include "npuc/Base/Sha256.h"
#include "npuc/Version.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include <unistd.h>

using namespace npuc;
using namespace npuc::zoo;
namespace fs = std::filesystem;

namespace {
std::string besideThis(const std::string &tool) {
  std::string exe = resources::executablePath();
  return (exe.empty() ? fs::path(tool) : fs::path(exe).parent_path() / tool).string();
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string defaultCacheDir() {
  if (const char *d = std::getenv("NPUC_CACHE_DIR"); d && *d)
    return d;
  if (const char *d = std::getenv("XDG_CACHE_HOME"); d && *d)
    return std::string(d) + "/npuc";
  if (const char *d = std::getenv("HOME"); d && *d)
    return std::string(d) + "/.cache/npuc";
  return "";
}

/// Progress on standard error: a bar redrawn in place on a terminal, one line
/// per finished model otherwise.
class Progress {
public:
  Progress(size_t total, bool bar) : total(total), bar(bar) {}

  void finished(const Model &m, const Result &r) {
    std::lock_guard<std::mutex> lock(mutex);
    ++done;
    failed += !r.ok;
    hits += r.cache == "hit";
    if (bar) {
      const size_t width = 30;
      size_t filled = total ? done * width / total : width;
      std::cerr << "\r\033[K[" << std::string(filled, '#') << std::string(width - filled, '.') << "] "
                << done << "/" << total << "  " << failed << " failed  " << hits << " cached  " << m.name;
      if (!r.ok)
        std::cerr << "\n" << m.name << ": " << r.failure << "\n";
      if (done == total)
        std::cerr << "\n";
    } else {
      std::cerr << "[" << done << "/" << total << "] " << (r.ok ? "ok     " : "FAILED ") << m.name << "  "
                << fixed(r.seconds, 2) << " s  cache " << r.cache;
      if (r.ok)
        std::cerr << "  " << r.output;
      else
        std::cerr << "  " << r.failure;
      if (r.cycles)
        std::cerr << "  " << *r.cycles << " cycles";
      std::cerr << "\n";
    }
  }

private:
  std::mutex mutex;
  size_t total, done = 0, failed = 0, hits = 0;
  bool bar;
};

llvm::json::Value resultJson(const Model &m, const Result &r) {
  llvm::json::Array diags, args;
  for (const Diagnostic &d : r.diagnostics)
    diags.push_back(llvm::json::Object{{"code", d.code}, {"node", d.node}, {"message", d.message}});
  for (const std::string &a : r.npucArgs)
    args.push_back(a);
  llvm::json::Object o{{"model", m.path},
                       {"name", m.name},
                       {"status", r.ok ? "ok" : "failed"},
                       {"cache", r.cache},
                       {"key", r.key},
                       {"compile_seconds", r.seconds},
                       {"diagnostics", std::move(diags)},
                       {"npuc_args", std::move(args)}};
  if (r.ok) {
    o["output"] = r.output;
    o["sha256"] = r.sha256;
  } else {
    o["failure"] = r.failure;
  }
  if (r.cycles)
    o["cycles"] = int64_t(*r.cycles);
  else if (!r.simulation.empty())
    o["simulation"] = r.simulation;
  return o;
}
} // namespace

int main(int argc, char **argv) {
  CLI::App app{"npuc-zoo: compile many ONNX models in one call, on N workers, with a "
               "content-addressed cache (docs/cli.md, docs/ci.md)"};
  app.set_version_flag("--version", "npuc-zoo from " + versionString());
  std::vector<std::string> inputs, lists, options;
  Config cfg;
  std::string jsonPath, cacheDir;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  bool noCache = false, noTestData = false, progressFlag = false, noProgress = false;
  app.add_option("inputs", inputs, "ONNX model files, and directories searched for *.onnx");
  app.add_option("--list", lists,
                 "a file listing models, one per line: PATH [NPUC-OPTION...] ('#' comments; "
                 "PATH relative to the file) (repeatable)");
  app.add_option("-o,--output-dir", cfg.outputDir, "where DIR/<name>.bin go (required)")->required();
  app.add_option("-j,--jobs", jobs, "models compiled at once (default: the processors)")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--json", jsonPath, "write a JSON summary to FILE ('-': standard output)");
  app.add_option("--cache", cacheDir,
                 "the cache directory (default: $NPUC_CACHE_DIR, $XDG_CACHE_HOME/npuc or "
                 "~/.cache/npuc)");
  app.add_flag("--no-cache", noCache, "compile every model, read and write no cache");
  app.add_flag("--no-test-data", noTestData,
               "do not specialize a model to its test_data_set_0 (input shapes, frozen inputs)");
  app.add_flag("--simulate", cfg.simulate,
               "also run each compiled model on its test_data_set_0 in npu-sim and record its cycles");
  app.add_option("--npuc", cfg.npuc, "the npuc to run (default: the one beside npuc-zoo)");
  app.add_option("--npu-sim", cfg.sim, "the npu-sim to run (default: the one beside npuc-zoo)");
  app.add_option("--timeout", cfg.timeout, "seconds one compile may take (default 600)");
  app.add_flag("--progress", progressFlag, "draw a progress bar (default: when standard error is a terminal)");
  app.add_flag("--no-progress", noProgress, "one line per model, also on a terminal");
  app.add_option("--npuc-option", options,
                 "an option for every npuc compile, e.g. --npuc-option=--target=npu-v1-tiny "
                 "(repeatable; also: everything after --)");
  cli::exitCodes(app, "0 every model compiled; 1 a model failed (each named, with its "
                      "diagnostics), or the summary cannot be written; 2 usage errors.");
  // After "--": options for npuc, given through to every compile.
  int ours = argc;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      ours = i;
      break;
    }
  try {
    app.parse(ours, argv);
  } catch (const CLI::ParseError &e) {
    return cli::parseError(app, e, "npuc-zoo");
  }
  for (int i = ours + 1; i < argc; ++i)
    options.push_back(argv[i]);
  cfg.options = options;
  cfg.testDataShapes = !noTestData;
  if (cfg.npuc.empty())
    cfg.npuc = besideThis("npuc");
  if (cfg.sim.empty())
    cfg.sim = besideThis("npu-sim");
  if (!noCache) {
    cfg.cacheDir = cacheDir.empty() ? defaultCacheDir() : cacheDir;
    if (cfg.cacheDir.empty()) {
      std::cerr << "npuc-zoo: error: no cache directory (set NPUC_CACHE_DIR or HOME, give "
                   "--cache DIR, or --no-cache)\n";
      return 2;
    }
  }
  std::vector<Model> models;
  std::string error;
  if (!discover(inputs, lists, models, error)) {
    std::cerr << "npuc-zoo: error: " << error << "\n";
    return 2;
  }
  std::error_code ec;
  fs::create_directories(cfg.outputDir, ec);
  if (!cfg.cacheDir.empty())
    fs::create_directories(cfg.cacheDir, ec);
  if (!jsonPath.empty() && jsonPath != "-" && !model::checkWritable(jsonPath, error)) {
    std::cerr << "npuc-zoo: error: " << error << "\n";
    return 2;
  }
  // npuc's identity is part of every key: the same model, options and
  // identity give the same bytes.
  std::string work = (fs::temp_directory_path() / ("npuc-zoo-" + std::to_string(::getpid()))).string();
  fs::create_directories(work, ec);
  tools::RunResult id = tools::runProgram(cfg.npuc, {"--identity"}, work, cfg.timeout);
  fs::remove_all(work, ec);
  if (id.crashed || id.rc != 0) {
    std::cerr << "npuc-zoo: error: '" << cfg.npuc << " --identity' failed: "
              << (id.crashed ? id.why : tools::lastLine(id.err)) << "\n";
    return 2;
  }
  cfg.identity = sha256Hex(id.out.data(), id.out.size());

  auto start = std::chrono::steady_clock::now();
  std::vector<Result> results(models.size());
  Progress progress(models.size(), !noProgress && (progressFlag || isatty(STDERR_FILENO)));
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (unsigned w = 0; w < std::min<size_t>(jobs, models.size()); ++w)
    workers.emplace_back([&] {
      for (size_t i; (i = next++) < models.size();) {
        results[i] = build(models[i], cfg);
        progress.finished(models[i], results[i]);
      }
    });
  for (std::thread &t : workers)
    t.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  size_t ok = 0, hits = 0;
  llvm::json::Array list;
  for (size_t i = 0; i < models.size(); ++i) {
    ok += results[i].ok;
    hits += results[i].cache == "hit";
    list.push_back(resultJson(models[i], results[i]));
  }
  std::cerr << "npuc-zoo: " << ok << " of " << models.size() << " compiled, " << models.size() - ok
            << " failed, " << hits << " from the cache, in " << fixed(seconds, 1)
            << " s\n";
  bool wrote = true;
  if (!jsonPath.empty()) {
    llvm::json::Array opts;
    for (const std::string &o : cfg.options)
      opts.push_back(o);
    llvm::json::Object summary{{"npuc", cfg.npuc},
                               {"npuc_identity_sha256", cfg.identity},
                               {"options", std::move(opts)},
                               {"cache", cfg.cacheDir},
                               {"models", std::move(list)},
                               {"total", int64_t(models.size())},
                               {"compiled", int64_t(ok)},
                               {"failed", int64_t(models.size() - ok)},
                               {"cache_hits", int64_t(hits)},
                               {"seconds", seconds}};
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(summary))) << "\n";
    wrote = model::writeFileOrStdout(jsonPath, std::vector<uint8_t>(text.begin(), text.end()), error);
    if (!wrote)
      std::cerr << "npuc-zoo: error: " << error << "\n";
  }
  return ok == models.size() && wrote ? 0 : 1;
}
