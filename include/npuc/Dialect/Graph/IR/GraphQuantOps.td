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
  // An f32 constant quantizes at compile time (vendor quantizers write float
  // weights and biases through QuantizeLinear).
  let hasFolder = 1;
}

def Graph_DequantizeOp : Graph_VerifiedOp<"dequantize", "verifyDequantize"> {
  let summary = "ONNX DequantizeLinear: the operand's quantized type holds scale and zero point";
  let arguments = (ins Graph_QuantTensor:$input);
  let results = (outs Graph_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_RequantizeOp : Graph_VerifiedOp<"requantize", "verifyRequantize"> {
  let summary = "DequantizeLinear then QuantizeLinear, as one op";
  let description = [{
    The input's quantized type says how its values dequantize; the result's
    how they quantize again: result = saturate(round_half_even((x - zp_in) *
    scale_in / scale_out) + zp_out), each step in f32 as the two ONNX ops
    compute it, without the f32 tensor between them. graph-fuse-qdq forms it
    from a DequantizeLinear whose result a QuantizeLinear takes directly (the
    input chain of TFLite exports: uint8 pixels to int8).
  }];
  let arguments = (ins Graph_QuantTensor:$input);
  let results = (outs Graph_QuantTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif
