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

// The one rounding V_REQUANT and MM_OUT implement (docs/numerics.md), stated
// in every #qk.requant so the contract reads whole.
def QK_Rounding : I32EnumAttr<"Rounding", "rounding of a requantizing right shift", [
    I32EnumAttrCase<"HalfAwayFromZero", 0, "half_away_from_zero">]> {
  let cppNamespace = "::npuc::qk";
  let genSpecializedAttr = 0;
}
def QK_RoundingAttr : EnumAttr<QK_Dialect, QK_Rounding, "rounding">;

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

#endif
