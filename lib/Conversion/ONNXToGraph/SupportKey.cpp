//===- SupportKey.cpp - A node's support combination ----------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The combination a node exercises, as docs/supported-ops.md and the
// verified-combination check (--allow-unverified) count it:
//
//   <domain.>Op-<version>(<input element types>){<attribute signature>}
//
// The version is the op's schema version in effect at the model's opset
// (ONNX's schema registry), so Conv in an opset-13 and an opset-17 model is
// the same Conv-11. Input element types are positional ("-" for an absent
// optional input). The attribute signature lists the attributes the node sets,
// sorted: strings, element types and flag-like integers with their value
// (mode=reflect, to=INT64, ceil_mode=1, group=1), every other attribute by
// name only (pads, axis).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <onnx/defs/schema.h>

#include <algorithm>

using namespace npuc::onnx_import;

namespace {
std::string onnxTypeName(mlir::Type t) {
  if (t.isF32())
    return "float";
  if (t.isF16())
    return "float16";
  if (t.isF64())
    return "double";
  if (t.isBF16())
    return "bfloat16";
  if (t.isInteger(1))
    return "bool";
  if (auto i = mlir::dyn_cast<mlir::IntegerType>(t))
    return (i.isUnsigned() ? "uint" : "int") + std::to_string(i.getWidth());
  return "?";
}

/// `s` with the characters that would break the evidence table (tabs,
/// newlines) or a Markdown table (|, `) replaced by '_'.
std::string printable(std::string s) {
  for (char &c : s)
    if (c < 0x20 || c == 0x7f || c == '|' || c == '`')
      c = '_';
  return s;
}

/// Integer attributes whose value selects a different computation.
bool isFlag(const std::string &name) {
  static const char *const flags[] = {
      "allowzero", "ceil_mode", "center_point_box", "count_include_pad", "detect_negative",
      "detect_positive", "exclusive", "keepdims", "largest", "noop_with_empty_axes", "reverse",
      "saturate", "select_last_index", "sorted", "storage_order", "training_mode", "transA",
      "transB"};
  return std::find_if(std::begin(flags), std::end(flags),
                      [&](const char *f) { return name == f; }) != std::end(flags);
}
} // namespace

std::string npuc::onnx_import::supportKey(const Importer &imp, const onnx::NodeProto &node,
                                          int64_t set) {
  std::string key;
  int64_t version = set;
  if (node.domain().empty() || node.domain() == "ai.onnx") {
    if (const onnx::OpSchema *s = onnx::OpSchemaRegistry::Schema(node.op_type(), int(set), ""))
      version = s->SinceVersion();
  } else {
    key = node.domain() + ".";
  }
  key += node.op_type() + "-" + std::to_string(version) + "(";
  for (int i = 0; i < node.input_size(); ++i) {
    if (i)
      key += ",";
    auto it = imp.values.find(node.input(i));
    key += node.input(i).empty() || it == imp.values.end() ? "-" : onnxTypeName(it->second.element());
  }
  key += "){";
  std::vector<std::string> attrs;
  for (const onnx::AttributeProto &a : node.attribute()) {
    if (a.name() == "kernel_shape")  // the weights' shape says the same
      continue;
    bool typeAttr = a.name() == "to" || a.name() == "dtype" || a.name() == "output_dtype";
    if (a.type() == onnx::AttributeProto::STRING)
      attrs.push_back(a.name() + "=" + printable(a.s()));
    else if (a.type() == onnx::AttributeProto::INT && typeAttr)
      attrs.push_back(a.name() + "=" +
                      (onnx::TensorProto_DataType_IsValid(int(a.i()))
                           ? onnx::TensorProto_DataType_Name(onnx::TensorProto_DataType(a.i()))
                           : std::to_string(a.i())));
    else if (a.type() == onnx::AttributeProto::INT && isFlag(a.name()))
      attrs.push_back(a.name() + "=" + std::to_string(a.i()));
    else if (a.type() == onnx::AttributeProto::INT && a.name() == "group")
      attrs.push_back(a.i() == 1 ? "group=1" : "group");
    else
      attrs.push_back(a.name());
  }
  std::sort(attrs.begin(), attrs.end());
  for (size_t i = 0; i < attrs.size(); ++i)
    key += (i ? "," : "") + attrs[i];
  return key + "}";
}
