//===- GraphNNOps.td - Convolution, matmul, pooling, normalization ---------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHNNOPS_TD
#define NPUC_DIALECT_GRAPH_IR_GRAPHNNOPS_TD

include "npuc/Dialect/Graph/IR/GraphBase.td"

def Graph_ConvOp : Graph_VerifiedOp<"conv", "verifyConv"> {
  let summary = "ONNX Conv in normal form";
  let description = [{
    `x` is [N, C, D1, ...], `w` is [M, C / group, k1, ...], the optional `bias`
    is [M]. `pads` lists the begin pads of every spatial axis, then the end pads
    (auto_pad is resolved by the importer). The result is
    [N, M, (Di + begin_i + end_i - dilation_i * (ki - 1) - 1) / stride_i + 1].
  }];
  let arguments = (ins Graph_Tensor:$x, Graph_Tensor:$w, Optional<Graph_Tensor>:$bias,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$dilations, I64Attr:$group);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x `,` $w (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Graph_GemmOp : Graph_VerifiedOp<"gemm", "verifyGemm"> {
  let summary = "ONNX Gemm: alpha * op(a) x op(b) + beta * c";
  let arguments = (ins Graph_Tensor:$a, Graph_Tensor:$b, Optional<Graph_Tensor>:$c,
                   BoolAttr:$trans_a, BoolAttr:$trans_b, F32Attr:$alpha, F32Attr:$beta);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)";
}

def Graph_MatMulOp : Graph_VerifiedOp<"matmul", "verifyMatMul"> {
  let summary = "ONNX MatMul with numpy semantics (batch broadcasting, 1-D promotion)";
  let arguments = (ins Graph_Tensor:$lhs, Graph_Tensor:$rhs);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

class Graph_PoolOp<string mnemonic, dag extraArgs>
    : Graph_VerifiedOp<mnemonic, "verifyPool"> {
  let arguments = !con((ins Graph_Tensor:$x, DenseI64ArrayAttr:$kernel_shape,
                            DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                            DenseI64ArrayAttr:$dilations, BoolAttr:$ceil_mode), extraArgs);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}
def Graph_MaxPoolOp : Graph_PoolOp<"max_pool", (ins)> {
  let summary = "ONNX MaxPool (the Indices output is not supported)";
}
def Graph_AveragePoolOp : Graph_PoolOp<"average_pool", (ins BoolAttr:$count_include_pad)> {
  let summary = "ONNX AveragePool; count_include_pad decides the window denominator";
}

def Graph_GlobalAveragePoolOp : Graph_VerifiedOp<"global_average_pool", "verifyGlobalPool"> {
  let summary = "ONNX GlobalAveragePool";
  let arguments = (ins Graph_Tensor:$x);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}
def Graph_GlobalMaxPoolOp : Graph_VerifiedOp<"global_max_pool", "verifyGlobalPool"> {
  let summary = "ONNX GlobalMaxPool";
  let arguments = (ins Graph_Tensor:$x);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
}

def Graph_BatchNormOp : Graph_VerifiedOp<"batch_norm", "verifyBatchNorm"> {
  let summary = "ONNX BatchNormalization in inference mode";
  let arguments = (ins Graph_Tensor:$x, Graph_Tensor:$scale, Graph_Tensor:$bias,
                   Graph_Tensor:$mean, Graph_Tensor:$var, F32Attr:$epsilon);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x `,` $scale `,` $bias `,` $mean `,` $var attr-dict `:` "
                       "functional-type(operands, results)";
}

def Graph_SoftmaxOp : Graph_VerifiedOp<"softmax", "verifyAxisUnary"> {
  let summary = "ONNX Softmax (opset 13 semantics: along one axis)";
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

class Graph_ReduceOp<string mnemonic> : Graph_VerifiedOp<mnemonic, "verifyReduce"> {
  let description = [{
    `axes` are normalized: non-negative, strictly increasing, non-empty (the
    importer turns "no axes" into all axes or removes a no-op reduction).
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$axes, BoolAttr:$keepdims);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}
def Graph_ReduceMeanOp : Graph_ReduceOp<"reduce_mean"> { let summary = "ONNX ReduceMean"; }
def Graph_ReduceSumOp : Graph_ReduceOp<"reduce_sum"> { let summary = "ONNX ReduceSum"; }
def Graph_ReduceMaxOp : Graph_ReduceOp<"reduce_max"> { let summary = "ONNX ReduceMax"; }
def Graph_ReduceMinOp : Graph_ReduceOp<"reduce_min"> { let summary = "ONNX ReduceMin"; }

#endif
