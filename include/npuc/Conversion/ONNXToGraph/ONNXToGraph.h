//===- ONNXToGraph.h - The ONNX importer ------------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Reads an ONNX ModelProto and builds a verified, fully static graph-dialect
// module, or reports everything that stands in the way, at once: every
// unsupported operator, attribute and type across the whole model, each with
// a stable code from docs/diagnostics.md and located at its ONNX node.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_CONVERSION_ONNXTOGRAPH_ONNXTOGRAPH_H
#define NPUC_CONVERSION_ONNXTOGRAPH_ONNXTOGRAPH_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace npuc::onnx_import {

/// Default-domain opsets the importer normalizes; newer ones are a diagnostic.
/// How the importer reads the opsets after 17 (Debian's libonnx):
/// docs/architecture.md, "Import".
inline constexpr int64_t kMinOpset = 6;
inline constexpr int64_t kMaxOpset = 28;

struct Issue {
  std::string code;     // NPUC-Exxxx, docs/diagnostics.md
  std::string node;     // ONNX node name (or output name), empty for the model
  std::string opType;   // ONNX op type, empty for the model
  std::string domain;
  int64_t opset = 0;
  std::string message;
  /// NPUC-E0104 on a graph input: the input `--bind-input` would freeze.
  std::string bindInput;
  /// Every node the problem is at, `node` first, when it is one problem at
  /// several nodes (an unverified lowering case: one issue per case).
  std::vector<std::string> nodes;
};

/// One imported node: its name (as diagnostics and locations give it), its
/// op, the opset of its domain, and the op's schema version in effect at that
/// opset (ONNX's schema registry; the opset itself for other domains).
struct NodeInfo {
  std::string node, opType, domain;
  int64_t opset = 0, version = 0;
};

/// One lowering case of a node (docs/supported-ops.md) and its evidence on
/// the target, for the report.
struct NodeCase {
  std::string key;
  std::string level;  // "verified", "lowered", "reached", or "none" (no test reached it)
  std::string tests;
};

struct Options {
  /// --input-shape NAME=DIMS: pins the dimensions of a graph input.
  std::vector<std::pair<std::string, std::vector<int64_t>>> inputShapes;
  /// --bind-input NAME=FILE: freezes a graph input to a constant (e.g. the
  /// quantization parameters a QOperator test passes as inputs).
  /// The file is an ONNX TensorProto (.pb) or a numpy .npy file.
  std::vector<std::pair<std::string, std::string>> boundInputs;
  /// --float64: float64 values computed in float32 (true, with a warning),
  /// or refused as an unsupported type (docs/numerics.md, "float64").
  bool float64AsFloat32 = true;
};

struct Result {
  mlir::OwningOpRef<mlir::ModuleOp> module;  // null when there are issues
  std::vector<Issue> issues;
  /// What the import did that the user should know and that is not an
  /// error (float64 computed in float32), one sentence each.
  std::vector<std::string> warnings;
  std::string sourceSha256;
  size_t nodeCount = 0;
  /// Every node that imported, in import order.
  std::vector<NodeInfo> nodes;
};

/// Imports the model at `path` into a graph-dialect module (func.func @main).
Result importModel(mlir::MLIRContext &context, const std::string &path, const Options &options);

/// "model.onnx: node 'conv0' (Conv, opset 13): error NPUC-E0101: ..."
std::string formatIssue(const std::string &path, const Issue &issue);

/// The report of `npuc --report=FILE.json`: the import's issues, then
/// `extraIssues` (later phases' diagnostics), and every node with its
/// lowering cases (`cases`, by node name; a node with none folded at import
/// or fused into a neighbour, or the compile stopped before the cases were
/// selected).
std::string reportJson(const std::string &path, const Result &result,
                       const std::vector<Issue> &extraIssues = {},
                       const std::map<std::string, std::vector<NodeCase>> &cases = {});

/// Every (domain, op type) the importer has a translation for, sorted; the
/// default domain is "".
std::vector<std::pair<std::string, std::string>> importedOps();

} // namespace npuc::onnx_import

#endif
