//===- EncDialect.td - The encoding dialect --------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_ENC_IR_ENCDIALECT_TD
#define NPUC_DIALECT_ENC_IR_ENCDIALECT_TD

include "mlir/IR/OpBase.td"

def Enc_Dialect : Dialect {
  let name = "enc";
  let cppNamespace = "::npuc::enc";
  let summary = "One op per NPU machine instruction, every field an integer";
  let description = [{
    The last layer before bytes. Each instruction op is generated from
    include/npuc/Base/ISA.td and carries one integer attribute per field of the
    instruction word; its verifier checks every field against the legal range
    the ISA declares. `enc.program` holds a straight-line instruction stream and,
    when it names a target, is also checked against that target's resources
    (scalar registers, sync flags), which the encoding alone does not bound.
  }];
  let usePropertiesForAttributes = 0;
  let extraClassDeclaration = [{
    /// An instruction op's name and its fields' attribute names, made once
    /// per context (EncDialect.cpp): building and reading an instruction op
    /// then costs no string lookup.
    struct InstInfo;
    /// The instruction `name` is, or nullptr.
    const InstInfo *instInfo(::mlir::OperationName name) const;
    const InstInfo *instInfo(uint8_t opcode) const;

  private:
    std::shared_ptr<const void> instTable;

  public:
  }];
}

#endif
