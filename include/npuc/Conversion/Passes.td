//===- Passes.td - Conversion passes ---------------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_CONVERSION_PASSES_TD
#define NPUC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGraphToQK : Pass<"convert-graph-to-qk"> {
  let summary = "Quantized convolutions and matmuls to qk kernels with their ledgers; pooling, softmax, arg reductions and normalizations to theirs";
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
    quantized stay graph ops. A graph.requantize becomes a qk.requantize whose
    form (top_bit or f32) is decided here, graph.max_pool and average_pool
    become qk.pool (fn max or average) of any element type, their window as
    it is, graph.softmax and log_softmax qk.softmax, graph.argmax and argmin
    qk.arg_reduce, every graph.reduce_* (but reduce_prod) and the global
    poolings qk.reduce (fn SUM, MAX or MIN with the steps before and after
    it), graph.layer_norm, batch_norm and channel_affine the qk kernels of
    those names.
  }];
  let dependentDialects = ["::npuc::qk::QKDialect", "::npuc::graph::GraphDialect"];
}

def ConvertElementwiseToQK : Pass<"convert-elementwise-to-qk"> {
  let summary = "Elementwise graph ops to qk kernels whose attributes name their function";
  let description = [{
    graph.reshape and graph.storage_cast (convert-graph-to-qk writes the
    latter around its kernels) become qk.view; graph.add, sub, mul, div,
    max, min, shift_left and shift_right (and the
    logic of bools: and, or, xor) become qk.binary, graph.equal, less,
    less_or_equal, greater and greater_or_equal qk.compare, graph.not
    qk.not, graph.where qk.select, graph.cast qk.cast, graph.quantize and
    dequantize qk.quantize and qk.dequantize (after graph-fold-dequantize),
    and graph.relu,
    sigmoid, tanh, exp, log, neg, abs, sign, sqrt, reciprocal, erf, floor,
    ceil, round and identity qk.map, with the VECTOR function (`fn`, the
    ISA's enum) each computes, their operands and result as they are (f32,
    f16, integers, bools, per-tensor quantized). The maps composed of
    several functions, graph.clip, leaky_relu, hard_sigmoid, hard_swish and
    gelu, and graph.prelu, pow and conv_transpose become the qk kernels of
    those names.
    graph.transpose, slice, expand, tile, depth_to_space, space_to_depth, a
    nearest graph.resize, a graph.gather by constant indices and a reflect,
    edge or wrap graph.pad become qk.copy, their index arithmetic written as
    address plans; a constant graph.pad becomes qk.pad, graph.concat
    qk.concat. A float graph.matmul or graph.gemm becomes qk.matmul's float
    form, a 2-D float graph.conv qk.conv2d's (with its fused activation).
    An op no kernel takes (a Gather by run-time indices, a cubic Resize, a
    copy of more pieces than a program holds, a quantized Gemm, a 3-D float
    convolution) stays a graph op, which select-lowering-cases reports with
    the reason. It runs after graph-compute-f16 and graph-fuse-activation,
    which match the graph ops.
  }];
  let dependentDialects = ["::npuc::qk::QKDialect", "::npuc::graph::GraphDialect"];
}

def SetTarget : Pass<"set-target", "::mlir::ModuleOp"> {
  let summary = "Name the target the module compiles for (its npuc.target attribute)";
  let description = [{
    Writes the module's `npuc.target` attribute, the one place the passes
    after it (select-lowering-cases, check-case-spaces,
    check-lowering-evidence, select-tiling, convert-qk-to-emit) read the
    target from; a module without it compiles for npu-v1. An unknown name is
    an error listing the targets.
  }];
  let options = [Option<"targetName", "target", "std::string", "\"npu-v1\"",
                        "target to compile for">];
}

def SelectLoweringCases : Pass<"select-lowering-cases", "::mlir::ModuleOp"> {
  let summary = "Record each op's lowering case, the key of npuc's evidence";
  let description = [{
    For every op convert-qk-to-emit will lower, runs the op's selector
    (declared next to its lowering in lib/Conversion/QKToEmit) and writes
    the case as the op's `npuc.case` string: the op, its operand and result
    element types (quantized or not, storage widths), and every property the
    lowering branches on, recorded both ways (e.g. `padded` or `!padded`).
    An op the lowering does not handle (an op without a lowering, or a form
    of it its selector refuses) is an error at the op, naming what is
    missing; every such op is reported. A graph op convert-elementwise-to-qk
    left (no kernel takes it: a Gather by run-time indices, a cubic Resize)
    is reported with the conversion's reason (npuc/Conversion/GraphToQK.h).
  }];
}

def SelectTiling : Pass<"select-tiling", "::mlir::ModuleOp"> {
  let summary = "Choose each matrix product's tiles and buffer count by a cost model";
  let description = [{
    For every matrix product (qk.matmul, and a pointwise qk.conv2d) the
    cost model (include/npuc/Schedule/MatmulTiling.h) enumerates tile
    shapes mt x nt x kt (the whole dimension, multiples of the MATRIX array
    side, even splits) and 1 or 2 rotating buffers; keeps those that fit LM,
    ACC and the ISA's fields; estimates cycles and GM bytes with the target's
    timing function (npuc::timing, the one npu-sim's clock calls); and writes
    the cheapest as `npuc.tiling = #qk.tiling<tile = [mt, nt, kt], buffers = B,
    cycles = C, gm_bytes = G>` (QKAttributes.td). convert-qk-to-emit reads the attribute and picks
    no tile size of its own; a product no candidate fits is an error at its op.
    Depthwise convolutions, pooling and window convolutions are chosen the
    same way (DepthwiseTiling.h, ConvTiling.h).

    Elementwise loop nests (maps, Q/DQ, BatchNorm, reductions, qk.copy's
    copies, qk.concat's and qk.pad's, the return's copies) and the im2col
    products of convolutions come from each op's plan (its pattern's plan,
    `IterationSpaces`): each nest's canonical 4-D iteration space,
    operand strides and work per element, stated from the op's types and
    attributes; the lowering walks the same plan, and nothing is lowered to
    learn it. ElementwiseTiling.h enumerates tile boxes (columns
    along the innermost dimension, rows filled in each order of the outer
    three) and 1 or 2 buffers, fits them against LM and VECTOR's extents,
    estimates them with npuc::timing, and the op gets `npuc.loop_tiling = [#qk.tiling<space
    = [...], tile = [...], ...>, ...]`, one entry per nest in emission order.
  }];
  let dependentDialects = ["::npuc::emit::EmitDialect", "::npuc::qk::QKDialect"];
}

def CheckCaseSpaces : Pass<"check-case-spaces", "::mlir::ModuleOp"> {
  let summary = "Report lowering cases outside the space their selector declares";
  let description = [{
    Every `npuc.case` (select-lowering-cases) must be a point of the case
    space its op's selector declares (npuc/Support/CaseSpace.h): the grid
    verifies the spaces, so a case outside one is a gap in npuc's own
    declarations, which no evidence can vouch for. Reported once per case, as
    npuc's internal error (the driver's NPUC-E0900), with or without
    --allow-unverified.
  }];
}

def CheckLoweringEvidence : Pass<"check-lowering-evidence", "::mlir::ModuleOp"> {
  let summary = "Reject lowering cases no conformance test verified on the target";
  let description = [{
    Contracts D10 and D11: every `npuc.case` (select-lowering-cases) must be
    verified on the target by the evidence table (lib/Support/OpEvidence.tsv,
    compiled in; `evidence` names another file, for tests). A case that is not
    is an error at its op, i.e. at its ONNX node, naming the case and what the
    evidence says of it (no test reached it, or tests reached it and none
    matched). npuc skips this pass with --allow-unverified.
  }];
  let options = [Option<"evidencePath", "evidence", "std::string", "\"\"",
                        "an evidence table to use instead of the compiled-in one">];
}

def ConvertQKToEmit : Pass<"convert-qk-to-emit", "::mlir::ModuleOp"> {
  let summary = "qk kernels to tiled engine operations, one pattern per kernel";
  let description = [{
    Replaces the module's function by an emit.program, each qk op lowered by
    the pattern of its class (lib/Conversion/QKToEmit/KernelPattern.h, one
    per op, registered by its family's file): every tensor gets a GM
    buffer (input, output, const or arena, dense row-major; reshapes and
    storage casts are views of their source), and every kernel becomes DMA,
    MATRIX and VECTOR operations on local tiles sized for the target's LM and
    ACC. Local tiles pad their row pitch to the 32-byte vector granule (64 for
    MATRIX operands). An op without a lowering is an error at its ONNX node.
  }];
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
