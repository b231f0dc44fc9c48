//===- EmitInterfaces.td - What engine operations share --------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// After IREE's Stream/IR/StreamInterfaces.td: analyses (sync insertion, the
// encoder) ask an op what it does through an interface, instead of keeping a
// list of op kinds and their special cases.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_EMIT_IR_EMITINTERFACES_TD
#define NPUC_DIALECT_EMIT_IR_EMITINTERFACES_TD

include "mlir/IR/OpBase.td"

def Emit_EngineOpInterface : OpInterface<"EngineOp"> {
  let description = [{
    An operation one engine runs: which engine, and every buffer it reads or
    writes with the bytes it touches, repeated forms included (a repeated
    matmul's later iterations reach past its operands' views).
  }];
  let cppNamespace = "::npuc::emit";
  let methods = [
    InterfaceMethod<"The engine that runs the op.", "::npuc::emit::Engine", "getEngine">,
    InterfaceMethod<[{
        Appends every buffer the op reads or writes, in operand order; an
        access whose bytes reach past the buffer's own span says by how much.
      }], "void", "getAccesses", (ins "::llvm::SmallVectorImpl<::npuc::emit::Access> &":$out)>,
  ];
}

#endif
