//===- TestData.h - Models in the ONNX test-data layout ---------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// What npuc-conformance and npuc-zoo read of a model directory (model.onnx,
// test_data_set_N/input_K.pb, output_K.pb) and of npuc's --report.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_TOOLS_COMMON_TESTDATA_H
#define NPUC_TOOLS_COMMON_TESTDATA_H

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace onnx {
class ModelProto;
}

namespace npuc::tools {

/// PREFIX0SUFFIX, PREFIX1SUFFIX, ... in `dir`, in index order; nullopt when
/// the indices are not exactly 0..n-1 (a gap, or input_1 next to input_01).
std::optional<std::vector<std::filesystem::path>>
numberedFiles(const std::filesystem::path &dir, const std::string &prefix, const std::string &suffix);

/// The graph inputs that are not initializers, with whether each has a
/// dimension that is not a fixed positive number (or no shape at all).
std::vector<std::pair<std::string, bool>> graphInputs(const onnx::ModelProto &model);

/// The dimensions of the ONNX TensorProto in file `path`; nullopt when it
/// does not parse.
std::optional<std::vector<int64_t>> tensorDims(const std::string &path);

/// The external data files the model's tensors name (initializers, Constant
/// attributes, subgraphs), as written in the model (relative to its
/// directory), sorted and without repeats.
std::vector<std::string> externalDataFiles(const onnx::ModelProto &model);

/// Parses `path` as a ModelProto; false when it cannot be read or parsed.
bool readModel(const std::string &path, onnx::ModelProto &model);

/// One issue of npuc's --report: its code (NPUC-E....), the node, the message
/// and, for NPUC-E0104, the graph input that would make it constant.
struct ReportIssue {
  std::string code, node, message, bindInput;
};
std::vector<ReportIssue> reportIssues(const llvm::json::Object &report);

} // namespace npuc::tools

#endif
