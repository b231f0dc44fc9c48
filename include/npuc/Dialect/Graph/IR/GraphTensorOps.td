//===- GraphTensorOps.td - Data movement and constants ---------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHTENSOROPS_TD
#define NPUC_DIALECT_GRAPH_IR_GRAPHTENSOROPS_TD

include "npuc/Dialect/Graph/IR/GraphBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Graph_ConstantOp : Graph_VerifiedOp<"constant", "verifyConstant", [ConstantLike]> {
  let summary = "A constant tensor (ONNX initializer or Constant)";
  let description = [{
    For a quantized result the value holds the stored integers and its element
    type is the quantized type's storage type; the result type follows `->`.

    ```mlir
    %w = graph.constant dense<0.5> : tensor<4xf32>
    %q = graph.constant dense<[1, -2]> : tensor<2xi8> -> tensor<2x!quant.uniform<i8:f32, 0.1>>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Graph_Tensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasFolder = 1;
}

def Graph_ReshapeOp : Graph_VerifiedOp<"reshape", "verifyReshape"> {
  let summary = "ONNX Reshape/Flatten/Squeeze/Unsqueeze: the result type is the new shape";
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_TransposeOp : Graph_VerifiedOp<"transpose", "verifyTranspose"> {
  let summary = "ONNX Transpose: result dim i is input dim perm[i]";
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_ConcatOp : Graph_VerifiedOp<"concat", "verifyConcat"> {
  let summary = "ONNX Concat; inputs may carry different quantization";
  let arguments = (ins Variadic<Graph_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
}

#endif
