//===- GraphDialect.td - The graph dialect ---------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHDIALECT_TD
#define NPUC_DIALECT_GRAPH_IR_GRAPHDIALECT_TD

include "mlir/IR/OpBase.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let cppNamespace = "::npuc::graph";
  let summary = "ONNX-level operations on ranked tensors";
  let description = [{
    What the ONNX importer produces: one op per ONNX operator, in a normal form
    that does not depend on the opset (attributes that became inputs in later
    opsets are attributes here, defaults are filled in, negative axes are
    normalized). Every tensor is ranked and static. Quantization is part of the
    element type: an operand or result may be `!quant.uniform<...>` per tensor
    or per axis, so the scale and zero point travel with the value and every
    rewrite has to build its result type explicitly.
  }];
  let dependentDialects = ["::mlir::quant::QuantDialect"];
  let hasConstantMaterializer = 1;
}

#endif
