//===- SchemaVersion.cpp - A node's schema version ------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The schema version of a node's op at the model's opset, from ONNX's own
// schema registry (libonnx), for the report and diagnostics: Conv in an
// opset-13 and an opset-17 model is the same Conv-11. Evidence is not keyed
// on it: the importer normalizes versions to one graph form, and the lowering
// case (lib/Conversion/QKToEmit/LoweringCase.h) is what tests verify.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <onnx/defs/schema.h>

int64_t npuc::onnx_import::schemaVersion(const onnx::NodeProto &node, int64_t set) {
  if (node.domain().empty() || node.domain() == "ai.onnx")
    if (const onnx::OpSchema *s = onnx::OpSchemaRegistry::Schema(node.op_type(), int(set), ""))
      return s->SinceVersion();
  return set;
}
