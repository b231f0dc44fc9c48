//===- EmitAttributes.td - Memory spaces and engines -----------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_EMIT_IR_EMITATTRIBUTES_TD
#define NPUC_DIALECT_EMIT_IR_EMITATTRIBUTES_TD

include "npuc/Dialect/Emit/IR/EmitDialect.td"
include "mlir/IR/EnumAttr.td"

def Emit_MemorySpace : I32EnumAttr<"MemorySpace", "where a buffer lives", [
    I32EnumAttrCase<"Const", 0, "const">, I32EnumAttrCase<"Arena", 1, "arena">,
    I32EnumAttrCase<"Input", 2, "input">, I32EnumAttrCase<"Output", 3, "output">,
    I32EnumAttrCase<"State", 4, "state">, I32EnumAttrCase<"LM", 5, "lm">,
    I32EnumAttrCase<"ACC", 6, "acc">, I32EnumAttrCase<"LUT", 7, "lut">]> {
  let cppNamespace = "::npuc::emit";
  let genSpecializedAttr = 0;
}
def Emit_MemorySpaceAttr : EnumAttr<Emit_Dialect, Emit_MemorySpace, "space">;

def Emit_Engine : I32EnumAttr<"Engine", "an NPU engine", [
    I32EnumAttrCase<"Scalar", 0, "scalar">, I32EnumAttrCase<"DmaIn", 1, "dma_in">,
    I32EnumAttrCase<"DmaOut", 2, "dma_out">, I32EnumAttrCase<"Matrix", 3, "matrix">,
    I32EnumAttrCase<"Vector", 4, "vector">]> {
  let cppNamespace = "::npuc::emit";
  let genSpecializedAttr = 0;
}
def Emit_EngineAttr : EnumAttr<Emit_Dialect, Emit_Engine, "engine">;

#endif
