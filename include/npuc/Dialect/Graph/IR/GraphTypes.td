//===- GraphTypes.td - Type constraints of the graph dialect ---------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The graph dialect defines no types of its own: tensors are builtin ranked
// tensors whose element type is a float, an integer, or an upstream quant type.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHTYPES_TD
#define NPUC_DIALECT_GRAPH_IR_GRAPHTYPES_TD

include "mlir/IR/CommonTypeConstraints.td"

def Graph_QuantType : Type<
  CPred<"::llvm::isa<::mlir::quant::UniformQuantizedType, "
        "::mlir::quant::UniformQuantizedPerAxisType>($_self)">,
  "uniform quantized type">;

def Graph_Element : AnyTypeOf<[AnyFloat, AnyInteger, Graph_QuantType]>;
def Graph_Tensor : StaticShapeTensorOf<[Graph_Element]>;
def Graph_FloatTensor : StaticShapeTensorOf<[AnyFloat]>;
def Graph_QuantTensor : StaticShapeTensorOf<[Graph_QuantType]>;

#endif
