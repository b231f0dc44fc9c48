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
  let arguments = (ins OptionalAttr<StrAttr>:$target, OptionalAttr<I64Attr>:$arena_size,
                   OptionalAttr<I64Attr>:$state_size);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "(`target` $target^)? attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins CArg<"::llvm::StringRef", "{}">:$target)>];
}

def Enc_TensorOp : Op<Enc_Dialect, "tensor"> {
  let summary = "A tensor the runtime binds (input, output, state) or a graph value to observe";
  let description = [{
    Written to the model file's tensor descriptors (docs/model-format.md).
    `strides` are in bytes and give the physical layout in the region of the
    role (INPUT, OUTPUT or STATE); `offset` is the first element's byte offset.
    Quantized tensors carry `scales`, `zero_points` and, per axis, `axis`.

    Role `value` is a graph value the program materializes (the model file's
    values section, for tensor dumps): its `region` (arena, input or output),
    the ONNX `node` that produced it, and the index of the instruction `after`
    whose execution it is complete (-1: from the start, a graph input).
    An input or output whose host type differs from `element` names it in
    `boundary` (i1, i64, ui16 or ui32 over i8 or i32; format 1.2).

    ```mlir
    enc.tensor "input" "x" : i8 shape [1, 3] strides [32, 1] offset 0
        {scales = array<f32: 0.5>, zero_points = array<i32: -3>}
    enc.tensor "value" "y" : f32 shape [1, 3] strides [12, 4] offset 128
        {region = "arena", node = "relu0", after = 41 : i64}
    ```
  }];
  let arguments = (ins StrAttr:$role, StrAttr:$name, TypeAttr:$element,
                   DenseI64ArrayAttr:$shape, DenseI64ArrayAttr:$strides, I64Attr:$offset,
                   OptionalAttr<DenseF32ArrayAttr>:$scales,
                   OptionalAttr<DenseI32ArrayAttr>:$zero_points, OptionalAttr<I64Attr>:$axis,
                   OptionalAttr<StrAttr>:$region, OptionalAttr<StrAttr>:$node,
                   OptionalAttr<I64Attr>:$after, OptionalAttr<TypeAttr>:$boundary);
  let assemblyFormat = [{
    $role $name `:` $element `shape` $shape `strides` $strides `offset` $offset attr-dict
  }];
  let hasVerifier = 1;
}

def Enc_ConstOp : Op<Enc_Dialect, "const"> {
  let summary = "Bytes of the CONST region: weights, biases, parameter tables, LUTs";
  let description = [{
    The value's elements, little endian in their storage type, at byte `offset`
    of the CONST region. Constants may not overlap.
  }];
  let arguments = (ins I64Attr:$offset, ElementsAttr:$value);
  let assemblyFormat = "`offset` $offset $value attr-dict";
  let hasVerifier = 1;
}

#endif
