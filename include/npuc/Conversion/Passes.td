//===- Passes.td - Conversion passes ---------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_CONVERSION_PASSES_TD
#define NPUC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGraphToQK : Pass<"convert-graph-to-qk"> {
  let summary = "Quantized graph convolutions and matmuls to qk kernels with their ledgers";
  let description = [{
    A graph.conv or 2-D graph.matmul whose operands and result are quantized
    becomes a qk kernel whose attributes hold the whole contract, derived by
    the scale ledger: accumulator scale = input scale x weight scale (per output
    channel), the bias must already be at that scale, and the requantization
    multiplier accumulator scale / output scale is turned into a Q31
    multiplier and shifts in double precision. A multiplier V_REQUANT cannot
    represent, a bias at another scale, or an accumulator that could overflow
    int32 for the real K (the value ledger) is an error at the op, i.e. at its
    ONNX node, not a raw encoder field later (contract D12). Ops that are not
    quantized stay graph ops.
  }];
  let dependentDialects = ["::npuc::qk::QKDialect", "::npuc::graph::GraphDialect"];
}

#endif
