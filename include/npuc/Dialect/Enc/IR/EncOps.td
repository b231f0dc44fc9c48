//===- EncOps.td - Hand-written enc ops ------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_ENC_IR_ENCOPS_TD
#define NPUC_DIALECT_ENC_IR_ENCOPS_TD

include "npuc/Dialect/Enc/IR/EncDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/RegionKindInterface.td"

def Enc_ProgramOp : Op<Enc_Dialect, "program",
    [NoTerminator, SingleBlock, IsolatedFromAbove,
     DeclareOpInterfaceMethods<RegionKindInterface>]> {
  let summary = "An NPU instruction stream";
  let description = [{
    Instructions in program order; the word at index i is the i-th op. With a
    `target`, every register index must exist on that target and every flag id
    must be below its flags per engine pair.

    ```mlir
    enc.program target "npu-v1-tiny" {
      enc.li rd = 1, imm = 42
      enc.end
    }
    ```
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$target);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "(`target` $target^)? attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins CArg<"::llvm::StringRef", "{}">:$target)>];
}

#endif
