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
  let hasFolder = 1;
}

def Graph_TransposeOp : Graph_VerifiedOp<"transpose", "verifyTranspose"> {
  let summary = "ONNX Transpose: result dim i is input dim perm[i]";
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_PadOp : Graph_VerifiedOp<"pad", "verifyPad"> {
  let summary = "ONNX Pad with constant pads: [begins..., ends...] for every axis";
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$pads, StrAttr:$mode,
                   F64Attr:$value);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_SliceOp : Graph_VerifiedOp<"slice", "verifySlice"> {
  let summary = "ONNX Slice/Split in normal form: starts, ends, steps for every axis";
  let description = [{
    Normal form: one entry per axis, starts and ends clamped to the axis
    (ends may be -1 for a negative step that runs to the front).
  }];
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$starts,
                   DenseI64ArrayAttr:$ends, DenseI64ArrayAttr:$steps);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_GatherOp : Graph_VerifiedOp<"gather", "verifyGather"> {
  let summary = "ONNX Gather along `axis` (negative indices count from the end)";
  let arguments = (ins Graph_Tensor:$data, StaticShapeTensorOf<[I32, I64]>:$indices,
                   I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_ScatterNDOp : Graph_VerifiedOp<"scatter_nd", "verifyScatterND"> {
  let summary = "ONNX ScatterND with reduction none, add, max or min";
  let description = [{
    The result is `data` with, for each index tuple indices[i..., :] (k
    entries, negative ones counted from the end), the slice at that tuple
    combined with updates[i..., ...] in order: replaced (none; a repeated
    index: the last update wins, as onnxruntime), summed, or the maximum or
    minimum. A Mul reduction stays the importer's one-hot form.
  }];
  let arguments = (ins Graph_Tensor:$data, StaticShapeTensorOf<[I32, I64]>:$indices,
                   Graph_Tensor:$updates, StrAttr:$reduction);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$data `,` $indices `,` $updates attr-dict `:` functional-type(operands, results)";
}

def Graph_GatherElementsOp : Graph_VerifiedOp<"gather_elements", "verifyGatherElements"> {
  let summary = "ONNX GatherElements: out[i][j] = data[index[i][j]][j] along `axis`";
  let arguments = (ins Graph_Tensor:$data, StaticShapeTensorOf<[I32, I64]>:$indices,
                   I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$data `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Graph_ExpandOp : Graph_VerifiedOp<"expand", "verifyExpand"> {
  let summary = "ONNX Expand: broadcast to the result shape";
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_TileOp : Graph_VerifiedOp<"tile", "verifyTile"> {
  let summary = "ONNX Tile with constant repeats";
  let arguments = (ins Graph_Tensor:$input, DenseI64ArrayAttr:$repeats);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_DepthToSpaceOp : Graph_VerifiedOp<"depth_to_space", "verifyDepthSpace"> {
  let summary = "ONNX DepthToSpace (mode DCR or CRD)";
  let arguments = (ins Graph_Tensor:$input, I64Attr:$blocksize, StrAttr:$mode);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}
def Graph_SpaceToDepthOp : Graph_VerifiedOp<"space_to_depth", "verifyDepthSpace"> {
  let summary = "ONNX SpaceToDepth";
  let arguments = (ins Graph_Tensor:$input, I64Attr:$blocksize);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_CastOp : Graph_VerifiedOp<"cast", "verifyCast"> {
  let summary = "ONNX Cast: same shape, another element type";
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_StorageCastOp : Graph_VerifiedOp<"storage_cast", "verifyStorageCast"> {
  let summary = "Reinterpret stored integers as a quantized type, or back";
  let description = [{
    Connects ONNX's integer tensors (QOperator inputs and outputs, integer
    model inputs) to quantized types: no value changes, only its meaning.
    A cast back to the type a value had folds away.
  }];
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_BitcastOp : Graph_VerifiedOp<"bitcast", "verifyBitcast"> {
  let summary = "ONNX BitCast: the same bits seen as another plain type of their width";
  let description = [{
    The result has the input's shape and bits: f32 and i32, f16 and i16,
    i8 and ui8 (the types npuc stores as their own bits). A constant folds.
  }];
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_ConcatOp : Graph_VerifiedOp<"concat", "verifyConcat"> {
  let summary = "ONNX Concat; inputs may carry different quantization";
  let arguments = (ins Variadic<Graph_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

#endif
