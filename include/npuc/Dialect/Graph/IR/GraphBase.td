//===- GraphBase.td - Base classes of graph ops ----------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHBASE_TD
#define NPUC_DIALECT_GRAPH_IR_GRAPHBASE_TD

include "npuc/Dialect/Graph/IR/GraphDialect.td"
include "npuc/Dialect/Graph/IR/GraphTypes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic, !listconcat(traits, [Pure])>;

// An op whose verifier is a shared shape/type function in GraphVerifiers.cpp.
class Graph_VerifiedOp<string mnemonic, string verifier, list<Trait> traits = []>
    : Graph_Op<mnemonic, traits> {
  let hasVerifier = 1;
  let extraClassDefinition = "::llvm::LogicalResult $cppClass::verify() {\n"
    "  return ::npuc::graph::" # verifier # "(*this);\n}\n";
}

// Multidirectional (numpy) broadcasting of two operands.
class Graph_BinaryOp<string mnemonic, list<Trait> traits = []>
    : Graph_VerifiedOp<mnemonic, "verifyBroadcastBinary", traits> {
  let arguments = (ins Graph_Tensor:$lhs, Graph_Tensor:$rhs);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

// Same shape in and out; the element types agree up to quantization.
class Graph_UnaryOp<string mnemonic, list<Trait> traits = []>
    : Graph_VerifiedOp<mnemonic, "verifySameShapeUnary", traits> {
  let arguments = (ins Graph_Tensor:$input);
  let results = (outs Graph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif
