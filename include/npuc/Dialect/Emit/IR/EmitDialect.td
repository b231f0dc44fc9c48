//===- EmitDialect.td - The emission dialect -------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_EMIT_IR_EMITDIALECT_TD
#define NPUC_DIALECT_EMIT_IR_EMITDIALECT_TD

include "mlir/IR/OpBase.td"

def Emit_Dialect : Dialect {
  let name = "emit";
  let cppNamespace = "::npuc::emit";
  let summary = "Buffers, engine operations, virtual sync flags and scalar registers";
  let description = [{
    Emission decides where data lives and which engine moves or computes it:
    buffers in a memory space (GM regions const/arena/input/output/state, or
    the local lm, acc and lut) with explicit byte strides; one op per engine
    operation (dma, matmul, vector ops); virtual sync flags typed by the
    ordered engine pair they connect; and virtual scalar registers, borrowed by
    scope. Flag and register allocation and memory planning turn these into the
    physical resources that the enc dialect encodes.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
}

#endif
