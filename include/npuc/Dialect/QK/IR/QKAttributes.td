//===- QKAttributes.td - Numerical-contract attributes ---------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_QK_IR_QKATTRIBUTES_TD
#define NPUC_DIALECT_QK_IR_QKATTRIBUTES_TD

include "npuc/Dialect/QK/IR/QKDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "npuc/Dialect/QK/IR/ISAEnumCases.td"

// The one rounding V_REQUANT and MM_OUT implement (docs/numerics.md), stated
// in every #qk.requant so the contract reads whole.
def QK_Rounding : I32EnumAttr<"Rounding", "rounding of a requantizing right shift", [
    I32EnumAttrCase<"HalfAwayFromZero", 0, "half_away_from_zero">]> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_RoundingAttr : EnumAttr<QK_Dialect, QK_Rounding, "rounding">;

// qk.binary's function: the ISA's VECTOR binary functions (ISA.td, through
// npuc-tblgen), numbered as the ISA numbers them.
def QK_BinaryFn : I32EnumAttr<"BinaryFn", "VECTOR binary function", ISA_VBinFuncCases<0, 0>.cases> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_BinaryFnAttr : EnumAttr<QK_Dialect, QK_BinaryFn, "binary_fn"> {
  let assemblyFormat = "`<` $value `>`";
}

// qk.map's function: the ISA's VECTOR unary functions.
def QK_UnaryFn : I32EnumAttr<"UnaryFn", "VECTOR unary function", ISA_VUnFuncCases<0, 0>.cases> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_UnaryFnAttr : EnumAttr<QK_Dialect, QK_UnaryFn, "unary_fn"> {
  let assemblyFormat = "`<` $value `>`";
}

// qk.compare's predicate: V_CMP's comparison, numbered as the ISA numbers it.
def QK_CompareFn : I32EnumAttr<"CompareFn", "V_CMP comparison", ISA_CmpFuncCases<0, 0>.cases> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_CompareFnAttr : EnumAttr<QK_Dialect, QK_CompareFn, "compare_fn"> {
  let assemblyFormat = "`<` $value `>`";
}

// A VECTOR reduction's function (qk.reduce, qk.arg_reduce), numbered as the
// ISA numbers it.
def QK_ReduceFn : I32EnumAttr<"ReduceFn", "VECTOR reduction", ISA_ReduceFuncCases<0, 0>.cases> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_ReduceFnAttr : EnumAttr<QK_Dialect, QK_ReduceFn, "reduce_fn"> {
  let assemblyFormat = "`<` $value `>`";
}

// The elementwise step qk.reduce applies before a SUM: |x| (ReduceL1),
// x * x (ReduceL2, ReduceSumSquare), or exp(x - max) with the maximum of the
// same reduced elements (ReduceLogSumExp).
def QK_ReducePre : I32EnumAttr<"ReducePre", "the step before a reduction", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Abs", 1, "abs">,
    I32EnumAttrCase<"Square", 2, "square">,
    I32EnumAttrCase<"ShiftedExp", 3, "shifted_exp">]> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_ReducePreAttr : EnumAttr<QK_Dialect, QK_ReducePre, "reduce_pre"> {
  let assemblyFormat = "`<` $value `>`";
}

// The step qk.reduce applies after a SUM: divide by the count (ReduceMean,
// GlobalAveragePool), sqrt (ReduceL2), log (ReduceLogSum), or log then add
// the maximum shifted_exp subtracted (ReduceLogSumExp).
def QK_ReducePost : I32EnumAttr<"ReducePost", "the step after a reduction", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Mean", 1, "mean">,
    I32EnumAttrCase<"Sqrt", 2, "sqrt">,
    I32EnumAttrCase<"Log", 3, "log">,
    I32EnumAttrCase<"LogPlusMax", 4, "log_plus_max">]> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_ReducePostAttr : EnumAttr<QK_Dialect, QK_ReducePost, "reduce_post"> {
  let assemblyFormat = "`<` $value `>`";
}

// GELU's form (qk.gelu): ONNX's approximate = "none" (the erf form) or "tanh".
def QK_GeluApproximation : I32EnumAttr<"GeluApproximation", "GELU's formula", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Tanh", 1, "tanh">]> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_GeluApproximationAttr : EnumAttr<QK_Dialect, QK_GeluApproximation, "gelu_approximation"> {
  let assemblyFormat = "`<` $value `>`";
}

// The activation a float convolution applies to its sums (qk.conv2d's
// float form, folded by graph-fuse-activation): max(x, 0), or a clip to
// [activation_min, activation_max].
def QK_FusedActivation : I32EnumAttr<"FusedActivation", "a float convolution's fused activation", [
    I32EnumAttrCase<"Relu", 0, "relu">,
    I32EnumAttrCase<"Clip", 1, "clip">]> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_FusedActivationAttr : EnumAttr<QK_Dialect, QK_FusedActivation, "activation"> {
  let assemblyFormat = "`<` $value `>`";
}

// How an 8-bit requantization is computed (qk.requantize).
def QK_RequantizeForm : I32EnumAttr<"RequantizeForm", "the computation of a requantization", [
    I32EnumAttrCase<"F32", 0, "f32">,
    I32EnumAttrCase<"TopBit", 1, "top_bit">]> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_RequantizeFormAttr : EnumAttr<QK_Dialect, QK_RequantizeForm, "requantize_form"> {
  let assemblyFormat = "`<` $value `>`";
}

// A pooling window's function (qk.pool).
def QK_PoolFn : I32EnumAttr<"PoolFn", "a pooling window's function", [
    I32EnumAttrCase<"MAX", 0, "max">,
    I32EnumAttrCase<"AVERAGE", 1, "average">]> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_PoolFnAttr : EnumAttr<QK_Dialect, QK_PoolFn, "pool_fn"> {
  let assemblyFormat = "`<` $value `>`";
}

def QK_RequantAttr : AttrDef<QK_Dialect, "Requant"> {
  let mnemonic = "requant";
  let summary = "int32 -> narrow integer requantization, per tensor or per channel";
  let description = [{
    y = clamp(zp + RoundingRightShift(SaturatingRoundingDoublingHighMul(
        x << lshift[c], multiplier[c]), rshift[c]), clamp_min, clamp_max)

    `multiplier` is a Q31 value in [0, 2^31 - 1]; `lshift` and `rshift` are in
    [0, 31], the ranges of the V_REQUANT instruction. With `axis = -1` there is
    one entry; otherwise one entry per index of that axis.

    ```mlir
    #qk.requant<multiplier = [1073741824], lshift = [0], rshift = [7], zp = -3,
                clamp = [-128, 127], axis = -1, rounding = half_away_from_zero>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$multiplier,
    ArrayRefParameter<"int64_t">:$lshift,
    ArrayRefParameter<"int64_t">:$rshift,
    "int64_t":$zp, "int64_t":$clampMin, "int64_t":$clampMax, "int64_t":$axis,
    "::npuc::qk::Rounding":$rounding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isPerChannel() const { return getAxis() >= 0; }
    size_t getNumChannels() const { return getMultiplier().size(); }
  }];
}

def QK_TilingAttr : AttrDef<QK_Dialect, "Tiling"> {
  let mnemonic = "tiling";
  let summary = "The tiling select-tiling chose for a kernel or one of its loop nests";
  let description = [{
    Written by select-tiling from the cost models of lib/Schedule (as the
    op's `npuc.tiling`, or one per elementwise loop nest in its
    `npuc.loop_tiling` list) and read by the lowering, which emits the tile
    loops it states: `tile` (per kernel kind: [rows, channels, chunk] for a
    window convolution, [channels, rows] for depthwise and pooling,
    [mt, nt, kt] for a matrix product, one extent per dimension of `space`
    for a loop nest), `buffers` rotating slots per tile, the estimate the
    choice was made on (`cycles`, `gm_bytes`), and whether the weights or
    parameters stay `resident` in LM, the window's kernel rows are
    `stacked` in one image row, and a depthwise convolution runs on the
    `matrix` array's depthwise mode (MM_DW) instead of VECTOR.

    The loops the tiles run in are the schedule's (lib/Schedule), stated
    once for the cost model and the lowering: tiles that do not fill the
    tile extent (remainders) are peeled into loops of their own, one tile
    shape per loop (`tileParts`); a matrix product's loops are
    `productLoops`', rows of tiles outermost. The attribute names no loop
    order because no model ranks one: no kernel reuses an operand across
    iterations, so every order costs the same.

    ```mlir
    #qk.tiling<tile = [4, 3, 2], buffers = 2, cycles = 544, gm_bytes = 608, resident>
    #qk.tiling<space = [1, 1, 8, 3072], tile = [1, 1, 8, 3072], buffers = 1>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$space,
    ArrayRefParameter<"int64_t">:$tile,
    "int64_t":$buffers, "int64_t":$cycles, "int64_t":$gmBytes,
    "bool":$resident, "bool":$stacked, "bool":$matrix);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def QK_AddressPlanAttr : AttrDef<QK_Dialect, "AddressPlan"> {
  let mnemonic = "address_plan";
  let summary = "One strided copy of a qk.copy: its iteration space and where each index reads and writes";
  let description = [{
    A box of `shape` indices; the index (d0, d1, ...) reads the operand's
    element `source(d0, d1, ...)` and writes the result's element
    `dest(d0, d1, ...)`. Both maps are linear in the indices: each
    coordinate a non-negative constant plus non-negative multiples of the
    indices (no mod, floordiv or product of indices), so every piece is one
    strided DMA pattern over any buffer's strides, and a stride of 0 reads
    an element again (a broadcast).

    ```mlir
    // Transpose of a 2x3 by perm [1, 0]:
    #qk.address_plan<shape = [3, 2], source = (d0, d1) -> (d1, d0), dest = (d0, d1) -> (d0, d1)>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::AffineMap":$source,
                        "::mlir::AffineMap":$dest);
  let assemblyFormat = [{
    `<` `shape` `=` `[` $shape `]` `,` `source` `=` $source `,` `dest` `=` $dest `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of indices of the box.
    int64_t getNumElements() const;
    /// A linear map's offset and the stride of each index, over a buffer of
    /// strides `strides` (one per result of the map): the address of index
    /// d is offset + sum(stride[i] * d[i]).
    static std::pair<int64_t, llvm::SmallVector<int64_t>>
    address(::mlir::AffineMap map, llvm::ArrayRef<int64_t> strides);
  }];
}

#endif
