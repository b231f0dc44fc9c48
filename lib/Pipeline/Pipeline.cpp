//===- Pipeline.cpp - The npuc compilation pipeline -----------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Pipeline/Pipeline.h"
#include "npuc/Base/Target.h"
#include "npuc/Conversion/Passes.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/Transforms/Passes.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"
#include "npuc/InitAll.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <algorithm>

namespace {
/// Verifies the IR the pass before it built. Its diagnostics are the op
/// verifiers' on IR the compiler made: the driver reports them as internal
/// compiler errors (NPUC-E0900), naming that pass.
struct VerifyIRPass : mlir::PassWrapper<VerifyIRPass, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(VerifyIRPass)
  llvm::StringRef getArgument() const override { return npuc::kVerifyIRPass; }
  llvm::StringRef getDescription() const override {
    return "check that the previous pass built IR whose ops verify";
  }
  void runOnOperation() override {
    if (mlir::failed(mlir::verify(getOperation())))
      signalPassFailure();
  }
};

/// The pipeline's passes, each followed by npuc-verify-ir when asked.
struct Appender {
  mlir::OpPassManager &pm;
  bool verifyEach;
  void add(std::unique_ptr<mlir::Pass> pass) {
    pm.addPass(std::move(pass));
    if (verifyEach)
      pm.addPass(std::make_unique<VerifyIRPass>());
  }
  template <typename OpTy>
  void nested(std::unique_ptr<mlir::Pass> pass) {
    mlir::OpPassManager &inner = pm.nest<OpTy>();
    inner.addPass(std::move(pass));
    if (verifyEach)
      inner.addPass(std::make_unique<VerifyIRPass>());
  }
};
} // namespace

void npuc::buildPipeline(mlir::OpPassManager &pm, const PipelineOptions &options) {
  Appender a{pm, options.verifyEach};
  // Graph level: quantization becomes types first, algebra after (N11).
  a.add(graph::createGraphSimplify());
  // Exporters repeat a node where their source code repeats an expression
  // (x - mean, once for the variance and once for the division); one value
  // each, so that graph-recognize sees the pattern whole.
  a.add(mlir::createCSEPass());
  a.add(graph::createGraphRecognize());
  a.add(graph::createGraphExpandGather());
  // A gate's columns start VECTOR-aligned (f32), so a step's gates stay in LM.
  const target::TargetInfo *t = target::lookupTarget(options.target);
  a.add(graph::createGraphExpandRecurrent(
      graph::GraphExpandRecurrentOptions{t ? std::max<int64_t>(1, t->params.VectorAlign / 4) : 1}));
  a.add(graph::createGraphExpandLRN());
  a.add(graph::createGraphExpandDynamicQuantize());
  a.add(graph::createGraphFoldBias());
  a.add(graph::createGraphFoldBatchNorm());
  a.add(graph::createGraphFuseQDQ());
  a.add(graph::createGraphFoldPad());
  a.add(graph::createGraphLiftConv1D());
  // A 3-D ConvTranspose becomes a 3-D convolution, which fold-depth folds.
  a.add(graph::createGraphExpandConvTranspose());
  a.add(graph::createGraphFoldDepth());
  a.add(graph::createGraphSimplify());
  if (options.until == "graph")
    return;
  // Kernel level: quantized convolutions and matmuls with their ledgers; then
  // every op's lowering case, and the gate on the cases' evidence (D10, D11).
  a.add(createConvertGraphToQK());
  a.add(graph::createGraphFoldDequantize());
  a.add(graph::createGraphFuseActivation());
  if (options.floatType == "fp16")
    a.add(graph::createGraphComputeF16());
  a.add(createConvertElementwiseToQK());
  a.add(createSetTarget(SetTargetOptions{options.target}));
  a.add(createSelectLoweringCases());
  a.add(createCheckCaseSpaces());
  if (!options.allowUnverified)
    a.add(createCheckLoweringEvidence(CheckLoweringEvidenceOptions{options.evidence}));
  // Schedule decisions, by the cost model on the target's timing function.
  a.add(createSelectTiling());
  if (options.until == "kernel")
    return;
  // Emission: tile loops; rotating buffers and the next tile's loads ahead of
  // this tile's compute; loops to straight-line engine code; placed buffers,
  // derived flags; iterations that repeat rolled into hardware loops.
  a.add(createConvertQKToEmit());
  a.nested<emit::ProgramOp>(emit::createEmitHoistInvariantLoads());
  a.nested<emit::ProgramOp>(emit::createEmitMultiBuffer());
  a.nested<emit::ProgramOp>(emit::createEmitPipeline());
  a.nested<emit::ProgramOp>(
      emit::createEmitLowerLoops(emit::EmitLowerLoopsOptions{false, options.hardwareLoops}));
  a.nested<emit::ProgramOp>(emit::createEmitForwardStores(
      emit::EmitForwardStoresOptions{false, options.materializeValues}));
  a.nested<emit::ProgramOp>(emit::createEmitResidentValues(
      emit::EmitResidentValuesOptions{false, options.materializeValues}));
  a.nested<emit::ProgramOp>(emit::createEmitResidentConstants());
  a.nested<emit::ProgramOp>(emit::createEmitPrefetchConstants());
  a.nested<emit::ProgramOp>(
      emit::createEmitPlanMemory(emit::EmitPlanMemoryOptions{options.gmBudget}));
  a.nested<emit::ProgramOp>(emit::createEmitElideReloads());
  a.nested<emit::ProgramOp>(emit::createEmitInsertSync());
  if (options.hardwareLoops)
    a.nested<emit::ProgramOp>(emit::createEmitHardwareLoops());
  if (options.until == "emission")
    return;
  // Encoding: one enc op per machine instruction.
  a.add(createConvertEmitToEnc());
}

void npuc::registerAllPasses() {
  graph::registerGraphPasses();
  emit::registerEmitPasses();
  registerConversionPasses();
  mlir::registerCSEPass();  // the pipeline's, for tests of what it enables
  mlir::PassPipelineRegistration<PipelineOptions>(
      "npuc-pipeline", "the npuc compilation pipeline (as run by the npuc driver)",
      buildPipeline);
}
