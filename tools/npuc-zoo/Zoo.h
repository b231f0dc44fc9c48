//===- Zoo.h - npuc-zoo: many models, one call, a content-addressed cache --===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// npuc-zoo compiles every model it is given (files, directories searched for
// *.onnx, list files) with npuc as child processes on N workers. Each compile
// is a hermetic action: its declared inputs (the model, its external data,
// the test data it is specialized to, the options and npuc's identity) make
// its cache key, and its output bytes depend on nothing else (docs/ci.md).
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_TOOLS_NPUC_ZOO_ZOO_H
#define NPUC_TOOLS_NPUC_ZOO_ZOO_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuc::zoo {

/// One model to compile.
struct Model {
  std::string path;                 // the .onnx file, as given or found
  std::string name;                 // output name below the output directory, without .bin
  std::vector<std::string> options; // npuc options of its own (a list file's line)
};

/// Finds the models of `inputs` (files, directories, searched recursively for
/// *.onnx) and of the list files `lists` (a line: PATH [NPUC-OPTION...],
/// '#' comments, PATH relative to the list file). False with `error` on a
/// missing input, a bad list line or two models with the same output name.
bool discover(const std::vector<std::string> &inputs, const std::vector<std::string> &lists,
              std::vector<Model> &models, std::string &error);

struct Config {
  std::string npuc, sim;          // the programs run
  std::string outputDir;          // <outputDir>/<name>.bin
  std::string cacheDir;           // empty: no cache
  std::vector<std::string> options; // npuc options for every model
  bool testDataShapes = true;     // specialize to test_data_set_0 (shapes, bound inputs)
  bool simulate = false;          // run npu-sim on test_data_set_0 and record cycles
  unsigned timeout = 600;
  std::string identity;           // `npuc --identity`, part of every key
};

struct Diagnostic {
  std::string code, node, message;
};

/// What became of one model.
struct Result {
  bool ok = false;
  std::string cache = "off";      // hit, miss, corrupt (a damaged entry replaced), off
  std::vector<Diagnostic> diagnostics;
  std::string failure;            // one line when !ok
  double seconds = 0;
  std::string output, sha256, key;
  std::vector<std::string> npucArgs; // the options the compile used (bound files by name)
  std::optional<uint64_t> cycles; // --simulate
  std::string simulation;         // why there are no cycles, when asked for
};

/// Compiles (or fetches from the cache) one model.
Result build(const Model &model, const Config &cfg);

/// The content-addressed cache: CACHE/<key[0:2]>/<key>.bin and .json (the
/// output's size, XXH3 and SHA-256 and the npuc options the compile used,
/// written last). A hit is verified against its size and XXH3: a damaged
/// entry is removed and reported, never used.
enum class Lookup { Hit, Miss, Corrupt };
struct Entry {
  std::string path;  // the entry's .bin
  uint64_t size = 0, xxh3 = 0;
  std::string sha256;
  std::vector<std::string> npucArgs;
};
Lookup cacheLookup(const std::string &cacheDir, const std::string &key, Entry &entry);
/// The XXH3 of the file at `path` when it has `size` bytes.
std::optional<uint64_t> fileXxh3(const std::string &path, uint64_t size);
bool cacheStore(const std::string &cacheDir, const std::string &key, const std::vector<uint8_t> &bytes,
                const std::string &sha256, const std::vector<std::string> &npucArgs, std::string &error);

} // namespace npuc::zoo

#endif
