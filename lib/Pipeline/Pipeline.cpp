//===- Pipeline.cpp - The npuc compilation pipeline -----------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Pipeline/Pipeline.h"
#include "npuc/Conversion/Passes.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"
#include "npuc/InitAll.h"

#include "mlir/Pass/PassRegistry.h"

void npuc::buildPipeline(mlir::OpPassManager &pm, const PipelineOptions &options) {
  // Graph level: quantization becomes types first, algebra after (N11).
  pm.addPass(graph::createGraphSimplify());
  pm.addPass(graph::createGraphRecognize());
  pm.addPass(graph::createGraphExpandGather());
  pm.addPass(graph::createGraphFoldBias());
  pm.addPass(graph::createGraphFoldBatchNorm());
  pm.addPass(graph::createGraphFuseQDQ());
  pm.addPass(graph::createGraphFoldPad());
  pm.addPass(graph::createGraphLiftConv1D());
  pm.addPass(graph::createGraphSimplify());
  if (options.until == "graph")
    return;
  // Kernel level: quantized convolutions and matmuls with their ledgers; then
  // every op's lowering case, and the gate on the cases' evidence (D10, D11).
  pm.addPass(createConvertGraphToQK());
  pm.addPass(graph::createGraphFoldDequantize());
  pm.addPass(graph::createGraphFuseActivation());
  if (options.floatType == "fp16")
    pm.addPass(graph::createGraphComputeF16());
  pm.addPass(createSelectLoweringCases(SelectLoweringCasesOptions{options.target}));
  if (!options.allowUnverified)
    pm.addPass(createCheckLoweringEvidence(CheckLoweringEvidenceOptions{options.target, ""}));
  // Schedule decisions, by the cost model on the target's timing function.
  pm.addPass(createSelectTiling(SelectTilingOptions{options.target}));
  if (options.until == "kernel")
    return;
  // Emission: tile loops; rotating buffers and the next tile's loads ahead of
  // this tile's compute; loops to straight-line engine code; placed buffers,
  // derived flags; iterations that repeat rolled into hardware loops.
  pm.addPass(createConvertKernelToEmit(ConvertKernelToEmitOptions{options.target}));
  pm.addNestedPass<emit::ProgramOp>(emit::createEmitMultiBuffer());
  pm.addNestedPass<emit::ProgramOp>(emit::createEmitPipeline());
  pm.addNestedPass<emit::ProgramOp>(
      emit::createEmitLowerLoops(emit::EmitLowerLoopsOptions{false, options.hardwareLoops}));
  pm.addNestedPass<emit::ProgramOp>(
      emit::createEmitPlanMemory(emit::EmitPlanMemoryOptions{options.gmBudget}));
  pm.addNestedPass<emit::ProgramOp>(emit::createEmitElideReloads());
  pm.addNestedPass<emit::ProgramOp>(emit::createEmitInsertSync());
  if (options.hardwareLoops)
    pm.addNestedPass<emit::ProgramOp>(emit::createEmitHardwareLoops());
  if (options.until == "emission")
    return;
  // Encoding: one enc op per machine instruction.
  pm.addPass(createConvertEmitToEnc());
}

void npuc::registerAllPasses() {
  graph::registerGraphPasses();
  emit::registerEmitPasses();
  registerConversionPasses();
  mlir::PassPipelineRegistration<PipelineOptions>(
      "npuc-pipeline", "the npuc compilation pipeline (as run by the npuc driver)",
      buildPipeline);
}
