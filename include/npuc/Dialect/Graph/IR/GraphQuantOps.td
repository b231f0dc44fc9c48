//===- GraphQuantOps.td - Entering and leaving the quantized domain --------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHQUANTOPS_TD
#define NPUC_DIALECT_GRAPH_IR_GRAPHQUANTOPS_TD

include "npuc/Dialect/Graph/IR/GraphBase.td"

def Graph_QuantizeOp : Graph_VerifiedOp<"quantize", "verifyQuantize"> {
  let summary = "ONNX QuantizeLinear: the result's quantized type holds scale and zero point";
  let arguments = (ins Graph_FloatTensor:$input);
  let results = (outs Graph_QuantTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_DequantizeOp : Graph_VerifiedOp<"dequantize", "verifyDequantize"> {
  let summary = "ONNX DequantizeLinear: the operand's quantized type holds scale and zero point";
  let arguments = (ins Graph_QuantTensor:$input);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif
