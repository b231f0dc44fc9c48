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

def ConvertKernelToEmit : Pass<"convert-kernel-to-emit", "::mlir::ModuleOp"> {
  let summary = "qk kernels and the remaining graph ops to tiled engine operations";
  let description = [{
    Replaces the module's function by an emit.program: every tensor gets a GM
    buffer (input, output, const or arena, dense row-major; reshapes and
    storage casts are views of their source), and every kernel becomes DMA,
    MATRIX and VECTOR operations on local tiles sized for the target's LM and
    ACC. Local tiles pad their row pitch to the 32-byte vector granule (64 for
    MATRIX operands). An op without a lowering is an error at its ONNX node.
  }];
  let options = [Option<"targetName", "target", "std::string", "\"npu-v1\"",
                        "target to compile for">];
  let dependentDialects = ["::npuc::emit::EmitDialect"];
}

def ConvertEmitToEnc : Pass<"convert-emit-to-enc", "::mlir::ModuleOp"> {
  let summary = "Engine operations to one enc op per machine instruction";
  let description = [{
    Every field resolved: descriptor configuration words (skipped when the
    engine already holds the same values), addresses as granule plus a
    borrowed scalar register for the remainder, physical flag ids, modes and
    element types. Constants become enc.const, model inputs and outputs
    enc.tensor, the arena's extent the program's arena_size. Requires placed
    buffers and allocated flags. Encodable ranges (the 32-bit GM offset, DMA
    extents and strides, MATRIX pitches) are checked here with their own
    diagnostics.
  }];
  let dependentDialects = ["::npuc::enc::EncDialect"];
}

#endif
