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
def Graph_PowOp : Graph_VerifiedOp<"pow", "verifyPow"> {
  let summary = "ONNX Pow: the exponent may have another element type (opset 12+)";
  let arguments = (ins Graph_Tensor:$lhs, Graph_Tensor:$rhs);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}
def Graph_MaxOp : Graph_BinaryOp<"max", [Commutative]> {
  let summary = "ONNX Max of two inputs (the importer chains more)";
  let hasFolder = 1;
}
def Graph_MinOp : Graph_BinaryOp<"min", [Commutative]> {
  let summary = "ONNX Min of two inputs (the importer chains more)";
  let hasFolder = 1;
}

def Graph_PReluOp : Graph_BinaryOp<"prelu"> {
  let summary = "ONNX PRelu: lhs < 0 ? lhs * slope : lhs (slope broadcast to lhs)";
}
def Graph_AndOp : Graph_BinaryOp<"and", [Commutative]> {
  let summary = "ONNX And (i1) and BitwiseAnd (integers)";
  let hasFolder = 1;
}
def Graph_OrOp : Graph_BinaryOp<"or", [Commutative]> {
  let summary = "ONNX Or (i1) and BitwiseOr (integers)";
  let hasFolder = 1;
}
def Graph_XorOp : Graph_BinaryOp<"xor", [Commutative]> {
  let summary = "ONNX Xor (i1) and BitwiseXor (integers)";
  let hasFolder = 1;
}
def Graph_ShiftLeftOp : Graph_BinaryOp<"shift_left"> {
  let summary = "ONNX BitShift LEFT of unsigned integers (wrapping; a shift by the width or more gives 0)";
}
def Graph_ShiftRightOp : Graph_BinaryOp<"shift_right"> {
  let summary = "ONNX BitShift RIGHT of unsigned integers (a shift by the width or more gives 0)";
}

// Comparisons: broadcasting like the binary ops, an i1 result.
class Graph_CompareOp<string mnemonic, list<Trait> traits = []>
    : Graph_VerifiedOp<mnemonic, "verifyCompare", traits> {
  let arguments = (ins Graph_Tensor:$lhs, Graph_Tensor:$rhs);
  let results = (outs StaticShapeTensorOf<[I1]>:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}
def Graph_EqualOp : Graph_CompareOp<"equal", [Commutative]> {
  let summary = "ONNX Equal";
  let hasFolder = 1;
}
def Graph_LessOp : Graph_CompareOp<"less"> {
  let summary = "ONNX Less";
  let hasFolder = 1;
}
def Graph_LessOrEqualOp : Graph_CompareOp<"less_or_equal"> {
  let summary = "ONNX LessOrEqual";
  let hasFolder = 1;
}
def Graph_GreaterOp : Graph_CompareOp<"greater"> {
  let summary = "ONNX Greater";
  let hasFolder = 1;
}
def Graph_GreaterOrEqualOp : Graph_CompareOp<"greater_or_equal"> {
  let summary = "ONNX GreaterOrEqual";
  let hasFolder = 1;
}

def Graph_WhereOp : Graph_VerifiedOp<"where", "verifyWhere"> {
  let summary = "ONNX Where: cond ? x : y with three-way broadcasting";
  let arguments = (ins StaticShapeTensorOf<[I1]>:$cond, Graph_Tensor:$x, Graph_Tensor:$y);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$cond `,` $x `,` $y attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_ReluOp : Graph_UnaryOp<"relu"> {
  let summary = "ONNX Relu";
  let hasFolder = 1;
}
def Graph_NotOp : Graph_UnaryOp<"not"> {
  let summary = "ONNX Not (i1) and BitwiseNot (integers: every bit flipped)";
  let hasFolder = 1;
}
def Graph_RoundOp : Graph_UnaryOp<"round"> {
  let summary = "ONNX Round (half to even)";
  let hasFolder = 1;
}
def Graph_HardSwishOp : Graph_UnaryOp<"hard_swish"> { let summary = "ONNX HardSwish"; }
def Graph_SigmoidOp : Graph_UnaryOp<"sigmoid"> { let summary = "ONNX Sigmoid"; }
def Graph_TanhOp : Graph_UnaryOp<"tanh"> { let summary = "ONNX Tanh"; }
def Graph_ExpOp : Graph_UnaryOp<"exp"> { let summary = "ONNX Exp"; }
def Graph_LogOp : Graph_UnaryOp<"log"> { let summary = "ONNX Log"; }
def Graph_NegOp : Graph_UnaryOp<"neg"> {
  let summary = "ONNX Neg";
  let hasFolder = 1;
}
def Graph_AbsOp : Graph_UnaryOp<"abs"> {
  let summary = "ONNX Abs: keeps the input's scale and needs its zero point";
  let hasFolder = 1;
}
def Graph_SignOp : Graph_UnaryOp<"sign"> {
  let summary = "ONNX Sign: {-1, 0, 1} in the result's own type";
}
def Graph_SqrtOp : Graph_UnaryOp<"sqrt"> {
  let summary = "ONNX Sqrt";
  let hasFolder = 1;
}
def Graph_ReciprocalOp : Graph_UnaryOp<"reciprocal"> { let summary = "ONNX Reciprocal"; }
def Graph_ErfOp : Graph_UnaryOp<"erf"> { let summary = "ONNX Erf"; }
def Graph_SinOp : Graph_UnaryOp<"sin"> { let summary = "ONNX Sin"; }
def Graph_CosOp : Graph_UnaryOp<"cos"> { let summary = "ONNX Cos"; }
def Graph_TanOp : Graph_UnaryOp<"tan"> { let summary = "ONNX Tan"; }
def Graph_AsinOp : Graph_UnaryOp<"asin"> { let summary = "ONNX Asin"; }
def Graph_AcosOp : Graph_UnaryOp<"acos"> { let summary = "ONNX Acos"; }
def Graph_AtanOp : Graph_UnaryOp<"atan"> { let summary = "ONNX Atan"; }
def Graph_AsinhOp : Graph_UnaryOp<"asinh"> { let summary = "ONNX Asinh"; }
def Graph_AcoshOp : Graph_UnaryOp<"acosh"> { let summary = "ONNX Acosh"; }
def Graph_AtanhOp : Graph_UnaryOp<"atanh"> { let summary = "ONNX Atanh"; }
def Graph_FloorOp : Graph_UnaryOp<"floor"> {
  let summary = "ONNX Floor";
  let hasFolder = 1;
}
def Graph_CeilOp : Graph_UnaryOp<"ceil"> {
  let summary = "ONNX Ceil";
  let hasFolder = 1;
}
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

def Graph_HardSigmoidOp : Graph_VerifiedOp<"hard_sigmoid", "verifySameShapeUnary"> {
  let summary = "ONNX HardSigmoid: max(0, min(1, alpha * x + beta))";
  let arguments = (ins Graph_Tensor:$input, F32Attr:$alpha, F32Attr:$beta);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Graph_GeluOp : Graph_VerifiedOp<"gelu", "verifySameShapeUnary"> {
  let summary = "ONNX Gelu; `approximate` is none or tanh";
  let arguments = (ins Graph_Tensor:$input, StrAttr:$approximate);
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
