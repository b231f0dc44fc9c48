//===- EmitTypes.td - Buffers, flags and registers -------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_EMIT_IR_EMITTYPES_TD
#define NPUC_DIALECT_EMIT_IR_EMITTYPES_TD

include "npuc/Dialect/Emit/IR/EmitAttributes.td"
include "mlir/IR/AttrTypeBase.td"

class Emit_Type<string name, string typeMnemonic> : TypeDef<Emit_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def Emit_BufferType : Emit_Type<"Buffer", "buffer"> {
  let summary = "A tensor in one memory space, with byte strides";
  let description = [{
    `!emit.buffer<lm, 3x7xi8, strides = [32, 1]>`: logical shape 3x7, rows 32
    bytes apart (the row pitch is padded to the 32-byte vector granule), one
    byte between elements. A stride of 0 repeats one slice (a broadcast view).
  }];
  let parameters = (ins "::npuc::emit::MemorySpace":$space,
                        ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        ArrayRefParameter<"int64_t">:$strides);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isGlobal() const { return getSpace() <= ::npuc::emit::MemorySpace::STATE; }
    int64_t getElementBytes() const;
    /// Bytes from the first to one past the last element addressed.
    int64_t getSpanBytes() const;
  }];
}

def Emit_FlagType : Emit_Type<"Flag", "flag"> {
  let summary = "A virtual sync flag from one engine to another";
  let parameters = (ins "::npuc::emit::Engine":$src, "::npuc::emit::Engine":$dst);
  let assemblyFormat = "`<` $src `->` $dst `>`";
  let genVerifyDecl = 1;
}

#endif
