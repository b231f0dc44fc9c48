//===- GraphElementwiseOps.td - Elementwise graph ops ----------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHELEMENTWISEOPS_TD
#define NPUC_DIALECT_GRAPH_IR_GRAPHELEMENTWISEOPS_TD

include "npuc/Dialect/Graph/IR/GraphBase.td"

def Graph_AddOp : Graph_BinaryOp<"add", [Commutative]> {
  let summary = "ONNX Add: lhs + rhs with broadcasting";
  let hasFolder = 1;
}
def Graph_SubOp : Graph_BinaryOp<"sub"> {
  let summary = "ONNX Sub: lhs - rhs with broadcasting";
  let hasFolder = 1;
}
def Graph_MulOp : Graph_BinaryOp<"mul", [Commutative]> {
  let summary = "ONNX Mul: lhs * rhs with broadcasting";
  let hasFolder = 1;
}
def Graph_DivOp : Graph_BinaryOp<"div"> {
  let summary = "ONNX Div: lhs / rhs with broadcasting";
  let hasFolder = 1;
}
def Graph_PowOp : Graph_BinaryOp<"pow"> { let summary = "ONNX Pow"; }
def Graph_MaxOp : Graph_BinaryOp<"max", [Commutative]> {
  let summary = "ONNX Max of two inputs (the importer chains more)";
}
def Graph_MinOp : Graph_BinaryOp<"min", [Commutative]> {
  let summary = "ONNX Min of two inputs (the importer chains more)";
}

def Graph_ReluOp : Graph_UnaryOp<"relu"> { let summary = "ONNX Relu"; }
def Graph_SigmoidOp : Graph_UnaryOp<"sigmoid"> { let summary = "ONNX Sigmoid"; }
def Graph_TanhOp : Graph_UnaryOp<"tanh"> { let summary = "ONNX Tanh"; }
def Graph_ExpOp : Graph_UnaryOp<"exp"> { let summary = "ONNX Exp"; }
def Graph_LogOp : Graph_UnaryOp<"log"> { let summary = "ONNX Log"; }
def Graph_NegOp : Graph_UnaryOp<"neg"> { let summary = "ONNX Neg"; }
def Graph_AbsOp : Graph_UnaryOp<"abs"> {
  let summary = "ONNX Abs: keeps the input's scale and needs its zero point";
}
def Graph_SignOp : Graph_UnaryOp<"sign"> {
  let summary = "ONNX Sign: {-1, 0, 1} in the result's own type";
}
def Graph_SqrtOp : Graph_UnaryOp<"sqrt"> { let summary = "ONNX Sqrt"; }
def Graph_ReciprocalOp : Graph_UnaryOp<"reciprocal"> { let summary = "ONNX Reciprocal"; }
def Graph_ErfOp : Graph_UnaryOp<"erf"> { let summary = "ONNX Erf"; }
def Graph_FloorOp : Graph_UnaryOp<"floor"> { let summary = "ONNX Floor"; }
def Graph_CeilOp : Graph_UnaryOp<"ceil"> { let summary = "ONNX Ceil"; }
def Graph_IdentityOp : Graph_UnaryOp<"identity"> {
  let summary = "ONNX Identity (and inference-mode Dropout)";
  let hasFolder = 1;
}

def Graph_LeakyReluOp : Graph_VerifiedOp<"leaky_relu", "verifySameShapeUnary"> {
  let summary = "ONNX LeakyRelu";
  let arguments = (ins Graph_Tensor:$input, F32Attr:$alpha);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_ClipOp : Graph_VerifiedOp<"clip", "verifyClip"> {
  let summary = "ONNX Clip with constant bounds (inputs of opset 11+ folded to attributes)";
  let arguments = (ins Graph_Tensor:$input, OptionalAttr<F64Attr>:$min,
                   OptionalAttr<F64Attr>:$max);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif
