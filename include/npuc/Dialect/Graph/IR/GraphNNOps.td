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
    `activation` ("relu", or "clip" with `activation_min` / `activation_max`)
    is a Relu or Clip that graph-fuse-activation folded into an f32
    convolution: the result is the activation of the convolution.
  }];
  let arguments = (ins Graph_Tensor:$x, Graph_Tensor:$w, Optional<Graph_Tensor>:$bias,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$dilations, I64Attr:$group,
                   OptionalAttr<StrAttr>:$activation, OptionalAttr<F64Attr>:$activation_min,
                   OptionalAttr<F64Attr>:$activation_max);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x `,` $w (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Graph_ConvTransposeOp : Graph_VerifiedOp<"conv_transpose", "verifyConvTranspose"> {
  let summary = "ONNX ConvTranspose in normal form";
  let description = [{
    `w` is stored [C, M / group, k1, ...] (input channels first). The result
    is [N, M, stride_i * (Di - 1) + output_padding_i + dilation_i * (ki - 1) +
    1 - begin_i - end_i]; auto_pad and output_shape are resolved to `pads` by
    the importer.
  }];
  let arguments = (ins Graph_Tensor:$x, Graph_Tensor:$w, Optional<Graph_Tensor>:$bias,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                   DenseI64ArrayAttr:$dilations, DenseI64ArrayAttr:$output_padding,
                   I64Attr:$group);
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

def Graph_LpPoolOp : Graph_PoolOp<"lp_pool", (ins I64Attr:$p)> {
  let summary = "ONNX LpPool: (sum |x|^p over the window)^(1/p)";
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

def Graph_ChannelAffineOp : Graph_VerifiedOp<"channel_affine", "verifyChannelAffine"> {
  let summary = "x * scale + bias with one scale and bias per channel (axis 1)";
  let description = [{
    Not an ONNX op: graph-fold-bias writes it for a Mul by a per-channel
    constant followed by an Add of one (the channel-affine exporters write
    for a BatchNormalization, contract N8) that no convolution absorbs.
    Computed as the two ops it replaces: the product rounded to f32, then
    the sum rounded to f32, so the result is the same bits in one pass.
  }];
  let arguments = (ins Graph_Tensor:$x, Graph_Tensor:$scale, Graph_Tensor:$bias);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$x `,` $scale `,` $bias attr-dict `:` functional-type(operands, results)";
}

def Graph_LayerNormOp : Graph_VerifiedOp<"layer_norm", "verifyLayerNorm"> {
  let summary = "ONNX LayerNormalization over the axes from `axis` to the last";
  let description = [{
    `scale` and the optional `bias` broadcast to the normalized axes;
    `stash_type` is the element type statistics are computed in (1 = f32).
    `mean` and `inv_std_dev` are ONNX's optional outputs, always present here
    (f32, the input's shape with the normalized axes 1): a lowering writes
    them only where they are used.
  }];
  let arguments = (ins Graph_Tensor:$x, Graph_Tensor:$scale, Optional<Graph_Tensor>:$bias,
                   I64Attr:$axis, F32Attr:$epsilon, I64Attr:$stash_type);
  let results = (outs Graph_Tensor:$result, Graph_Tensor:$mean, Graph_Tensor:$inv_std_dev);
  let assemblyFormat = "$x `,` $scale (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Graph_SoftmaxOp : Graph_VerifiedOp<"softmax", "verifyAxisUnary"> {
  let summary = "ONNX Softmax (opset 13 semantics: along one axis)";
  let description = [{
    Opsets before 13 flatten the input to 2-D at `axis`; the importer expresses
    that with reshapes around a softmax over the last axis.
  }];
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}
def Graph_LogSoftmaxOp : Graph_VerifiedOp<"log_softmax", "verifyAxisUnary"> {
  let summary = "ONNX LogSoftmax (opset 13 semantics: along one axis)";
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_ResizeOp : Graph_VerifiedOp<"resize", "verifyResize"> {
  let summary = "ONNX Resize/Upsample with the output size resolved";
  let description = [{
    The sampling contract is explicit: `mode` (nearest, linear, cubic),
    `coordinate_transformation_mode`, `nearest_mode`, `cubic_coeff_a`,
    `exclude_outside` and `antialias` (opset 18: linear and cubic filters
    stretched by 1 / scale when downscaling); with tf_crop_and_resize, `roi`
    (each axis's normalized [start..., end...]) and `extrapolation_value`,
    the output where a coordinate leaves the input; `scales` are the per-axis
    factors the coordinates use (the importer derives them from sizes when
    only sizes are given).
  }];
  let arguments = (ins Graph_Tensor:$input, DenseF32ArrayAttr:$scales, StrAttr:$mode,
                   StrAttr:$coordinate_transformation_mode, StrAttr:$nearest_mode,
                   F32Attr:$cubic_coeff_a, BoolAttr:$exclude_outside,
                   DefaultValuedAttr<BoolAttr, "false">:$antialias,
                   OptionalAttr<DenseF32ArrayAttr>:$roi,
                   DefaultValuedAttr<F32Attr, "0.0f">:$extrapolation_value);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_LRNOp : Graph_VerifiedOp<"lrn", "verifySameShapeUnary"> {
  let summary = "ONNX LRN across channels";
  let arguments = (ins Graph_Tensor:$input, I64Attr:$size, F32Attr:$alpha, F32Attr:$beta,
                   F32Attr:$bias);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

class Graph_ArgOp<string mnemonic> : Graph_VerifiedOp<mnemonic, "verifyArgReduce"> {
  let arguments = (ins Graph_Tensor:$input, I64Attr:$axis, BoolAttr:$keepdims,
                   BoolAttr:$select_last_index);
  let results = (outs StaticShapeTensorOf<[I64]>:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}
def Graph_ArgMaxOp : Graph_ArgOp<"argmax"> { let summary = "ONNX ArgMax"; }
def Graph_ArgMinOp : Graph_ArgOp<"argmin"> { let summary = "ONNX ArgMin"; }

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
def Graph_ReduceProdOp : Graph_ReduceOp<"reduce_prod"> { let summary = "ONNX ReduceProd"; }
def Graph_ReduceL1Op : Graph_ReduceOp<"reduce_l1"> { let summary = "ONNX ReduceL1"; }
def Graph_ReduceL2Op : Graph_ReduceOp<"reduce_l2"> { let summary = "ONNX ReduceL2"; }
def Graph_ReduceSumSquareOp : Graph_ReduceOp<"reduce_sum_square"> {
  let summary = "ONNX ReduceSumSquare";
}
def Graph_ReduceLogSumOp : Graph_ReduceOp<"reduce_log_sum"> { let summary = "ONNX ReduceLogSum"; }
def Graph_ReduceLogSumExpOp : Graph_ReduceOp<"reduce_log_sum_exp"> {
  let summary = "ONNX ReduceLogSumExp";
}

#endif
