//===- GraphRecurrentOps.td - LSTM, GRU, RNN and dynamic quantization -----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Imported with their whole contract. graph-expand-recurrent writes LSTM, GRU
// and RNN as graph ops over their time steps; graph-expand-dynamic-quantize
// writes DynamicQuantizeLinear as f32 graph ops.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHRECURRENTOPS_TD
#define NPUC_DIALECT_GRAPH_IR_GRAPHRECURRENTOPS_TD

include "npuc/Dialect/Graph/IR/GraphBase.td"

class Graph_RecurrentOp<string mnemonic, dag extraArgs, dag outputs>
    : Graph_VerifiedOp<mnemonic, "verifyRecurrent", [AttrSizedOperandSegments]> {
  let description = [{
    Operands as in ONNX (X, W, R, then the optional B, sequence_lens,
    initial_h, ...); every attribute explicit: `direction` (forward, reverse,
    bidirectional), `activations`, their alphas and betas, `clip` (0: none),
    `layout` (0: sequence-major, 1: batch-major). All outputs are produced.
  }];
  let arguments = !con((ins Graph_Tensor:$x, Graph_Tensor:$w, Graph_Tensor:$r,
                            Optional<Graph_Tensor>:$b,
                            Optional<StaticShapeTensorOf<[I32]>>:$sequence_lens,
                            Optional<Graph_Tensor>:$initial_h), extraArgs,
                       (ins I64Attr:$hidden_size, StrAttr:$direction, StrArrayAttr:$activations,
                            DenseF32ArrayAttr:$activation_alpha, DenseF32ArrayAttr:$activation_beta,
                            F32Attr:$clip, I64Attr:$layout));
  let results = outputs;
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def Graph_LSTMOp : Graph_RecurrentOp<"lstm",
    (ins Optional<Graph_Tensor>:$initial_c, Optional<Graph_Tensor>:$p, BoolAttr:$input_forget),
    (outs Graph_Tensor:$y, Graph_Tensor:$y_h, Graph_Tensor:$y_c)> {
  let summary = "ONNX LSTM";
}

def Graph_GRUOp : Graph_RecurrentOp<"gru", (ins BoolAttr:$linear_before_reset),
    (outs Graph_Tensor:$y, Graph_Tensor:$y_h)> {
  let summary = "ONNX GRU";
}

def Graph_RNNOp : Graph_RecurrentOp<"rnn", (ins), (outs Graph_Tensor:$y, Graph_Tensor:$y_h)> {
  let summary = "ONNX RNN";
}

def Graph_DynamicQuantizeOp : Graph_VerifiedOp<"dynamic_quantize", "verifyDynamicQuantize"> {
  let summary = "ONNX DynamicQuantizeLinear: uint8 data, its scale and zero point";
  let description = [{
    The scale and zero point are computed from the data at run time, so they
    are values (f32 and ui8 scalars), not a quantized type.
  }];
  let arguments = (ins StaticShapeTensorOf<[F32]>:$input);
  let results = (outs StaticShapeTensorOf<[UI8]>:$y, StaticShapeTensorOf<[F32]>:$scale,
                      StaticShapeTensorOf<[UI8]>:$zero_point);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif
