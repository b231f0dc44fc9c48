//===- EncBase.td - Base class of the generated instruction ops -----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_ENC_IR_ENCBASE_TD
#define NPUC_DIALECT_ENC_IR_ENCBASE_TD

include "npuc/Dialect/Enc/IR/EncDialect.td"

// An instruction op; EncInstOps.td (generated) derives one per instruction.
// The verifier is shared and table-driven: see verifyInstructionFields.
class Enc_InstOp<string mnemonic>
    : Op<Enc_Dialect, mnemonic, [HasParent<"::npuc::enc::ProgramOp">]> {
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::npuc::enc::verifyInstructionFields(getOperation());
    }
  }];
}

#endif
