//===- EmitAttributes.td - The ISA's enums as attributes ------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_EMIT_IR_EMITATTRIBUTES_TD
#define NPUC_DIALECT_EMIT_IR_EMITATTRIBUTES_TD

include "npuc/Dialect/Emit/IR/EmitDialect.td"
include "mlir/IR/EnumAttr.td"

// Every enum here is the ISA's (include/npuc/Base/ISA.td): npuc-tblgen writes
// its cases into ISAEnumCases.td, so the C++ symbols and numbers are the ISA's
// names and values (emit::Engine::DMA_IN == isa::Engine::DMA_IN), never typed
// twice.
include "npuc/Dialect/Emit/IR/ISAEnumCases.td"

// GM regions first, then the local memories DMA_IN can write.
def Emit_MemorySpace : I32EnumAttr<"MemorySpace", "where a buffer lives",
    !listconcat(ISA_RegionCases<>.cases,
                ISA_DmaDstCases<!size(ISA_RegionCases<>.cases)>.cases)> {
  let cppNamespace = "::npuc::emit";
  let genSpecializedAttr = 0;
}
def Emit_MemorySpaceAttr : EnumAttr<Emit_Dialect, Emit_MemorySpace, "space">;

def Emit_Engine : I32EnumAttr<"Engine", "an NPU engine", ISA_EngineCases<>.cases> {
  let cppNamespace = "::npuc::emit";
  let genSpecializedAttr = 0;
}
def Emit_EngineAttr : EnumAttr<Emit_Dialect, Emit_Engine, "engine">;

// The functions of the VECTOR engine's instructions, spelled as docs/isa.md
// spells them (emit.vbin ADD, emit.reduce MAX cols).
class Emit_ISAEnum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::npuc::emit";
}
def Emit_VBinFunc : Emit_ISAEnum<"VBinFunc", "VECTOR binary function",
                                 ISA_VBinFuncCases<0, 0>.cases>;
def Emit_VUnFunc : Emit_ISAEnum<"VUnFunc", "VECTOR unary function",
                                ISA_VUnFuncCases<0, 0>.cases>;
def Emit_CmpFunc : Emit_ISAEnum<"CmpFunc", "comparison", ISA_CmpFuncCases<0, 0>.cases>;
def Emit_ReduceFunc : Emit_ISAEnum<"ReduceFunc", "VECTOR reduction",
                                   ISA_ReduceFuncCases<0, 0>.cases>;
def Emit_WindowFunc : Emit_ISAEnum<"WindowFunc", "what V_DW computes over a window",
                                   ISA_WindowFuncCases<0, 0>.cases>;
def Emit_ScatterFunc : Emit_ISAEnum<"ScatterFunc", "how a scattered row combines with GM",
                                    ISA_ScatterFuncCases<0, 0>.cases>;
def Emit_Axis : Emit_ISAEnum<"Axis", "reduction direction", ISA_AxisCases<>.cases>;

#endif
