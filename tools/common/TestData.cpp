//===- TestData.cpp - Models in the ONNX test-data layout -----------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "TestData.h"

#include <onnx/onnx_pb.h>

#include <fstream>
#include <map>
#include <set>

using namespace npuc;
namespace fs = std::filesystem;

std::optional<std::vector<fs::path>> tools::numberedFiles(const fs::path &dir, const std::string &prefix,
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

std::vector<std::pair<std::string, bool>> tools::graphInputs(const onnx::ModelProto &model) {
  std::set<std::string> inits;
  for (const onnx::TensorProto &t : model.graph().initializer())
    inits.insert(t.name());
  std::vector<std::pair<std::string, bool>> inputs;
  for (const onnx::ValueInfoProto &vi : model.graph().input()) {
    if (inits.count(vi.name()))
      continue;
    // Sequences, optionals and maps have no shape to pin: npuc judges them.
    bool dynamic = vi.type().has_tensor_type() && !vi.type().tensor_type().has_shape();
    if (vi.type().has_tensor_type())
      for (const auto &d : vi.type().tensor_type().shape().dim())
        dynamic |= !d.has_dim_value() || d.dim_value() <= 0;
    inputs.push_back({vi.name(), dynamic});
  }
  return inputs;
}

std::optional<std::vector<int64_t>> tools::tensorDims(const std::string &path) {
  onnx::TensorProto t;
  std::ifstream in(path, std::ios::binary);
  if (!t.ParseFromIstream(&in))
    return std::nullopt;
  return std::vector<int64_t>(t.dims().begin(), t.dims().end());
}

bool tools::readModel(const std::string &path, onnx::ModelProto &model) {
  std::ifstream in(path, std::ios::binary);
  return in && model.ParseFromIstream(&in);
}

namespace {
void addExternal(const onnx::TensorProto &t, std::set<std::string> &files) {
  if (t.data_location() != onnx::TensorProto::EXTERNAL)
    return;
  for (const onnx::StringStringEntryProto &e : t.external_data())
    if (e.key() == "location")
      files.insert(e.value());
}

void walkGraph(const onnx::GraphProto &g, std::set<std::string> &files) {
  for (const onnx::TensorProto &t : g.initializer())
    addExternal(t, files);
  for (const onnx::SparseTensorProto &s : g.sparse_initializer()) {
    addExternal(s.values(), files);
    addExternal(s.indices(), files);
  }
  for (const onnx::NodeProto &n : g.node())
    for (const onnx::AttributeProto &a : n.attribute()) {
      if (a.has_t())
        addExternal(a.t(), files);
      for (const onnx::TensorProto &t : a.tensors())
        addExternal(t, files);
      if (a.has_g())
        walkGraph(a.g(), files);
      for (const onnx::GraphProto &sub : a.graphs())
        walkGraph(sub, files);
    }
}
} // namespace

std::vector<std::string> tools::externalDataFiles(const onnx::ModelProto &model) {
  std::set<std::string> files;
  walkGraph(model.graph(), files);
  return std::vector<std::string>(files.begin(), files.end());
}

std::vector<tools::ReportIssue> tools::reportIssues(const llvm::json::Object &report) {
  std::vector<ReportIssue> issues;
  if (const llvm::json::Array *list = report.getArray("issues"))
    for (const llvm::json::Value &i : *list)
      if (const llvm::json::Object *o = i.getAsObject())
        issues.push_back({o->getString("code").value_or("").str(), o->getString("node").value_or("").str(),
                          o->getString("message").value_or("").str(),
                          o->getString("bind_input").value_or("").str()});
  return issues;
}
