//===- Pipeline.h - The npuc compilation pipeline ---------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// One pipeline builder, used by the npuc driver and registered in npuc-opt as
// `npuc-pipeline`, so that a lit test of the pipeline runs the same passes, in
// the same order, with the same options as the compiler.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_PIPELINE_PIPELINE_H
#define NPUC_PIPELINE_PIPELINE_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace npuc {

struct PipelineOptions : mlir::PassPipelineOptions<PipelineOptions> {
  Option<std::string> target{*this, "target", llvm::cl::desc("target to compile for"),
                             llvm::cl::init("npu-v1")};
  Option<std::string> until{
      *this, "until",
      llvm::cl::desc("last phase to run: graph, kernel, emission or encoding"),
      llvm::cl::init("encoding")};
  Option<int64_t> gmBudget{*this, "gm-budget",
                           llvm::cl::desc("arena bound in bytes (0: the target's default)"),
                           llvm::cl::init(0)};
  Option<bool> allowUnverified{
      *this, "allow-unverified",
      llvm::cl::desc("skip check-lowering-evidence: compile lowering cases no test verified"),
      llvm::cl::init(false)};
  Option<std::string> floatType{
      *this, "float",
      llvm::cl::desc("float compute type: fp32, or fp16 (MATRIX operands in fp16, fp32 "
                     "accumulation: graph-compute-f16)"),
      llvm::cl::init("fp32")};
  Option<bool> hardwareLoops{
      *this, "hardware-loops",
      llvm::cl::desc("roll iterations that repeat into hardware loops (emit-hardware-loops)"),
      llvm::cl::init(true)};
  Option<bool> materializeValues{
      *this, "materialize-values",
      llvm::cl::desc("write every graph value to GM, also those handed from kernel to kernel "
                     "in LM (emit-forward-stores keep-stores): dumps hold every value"),
      llvm::cl::init(false)};
  Option<std::string> evidence{
      *this, "evidence",
      llvm::cl::desc("the evidence table the gate reads (default: the installed one)"),
      llvm::cl::init("")};
  Option<bool> verifyEach{
      *this, "verify-each",
      llvm::cl::desc("run npuc-verify-ir after every pass (the driver does, with the pass "
                     "manager's own verifier off): IR a pass built that does not verify is "
                     "reported as the compiler's internal error, not the model's"),
      llvm::cl::init(false)};
};

/// The argument of the pass that checks that the pass before it built IR
/// whose ops verify (PipelineOptions::verifyEach).
inline constexpr const char *kVerifyIRPass = "npuc-verify-ir";

/// Appends the passes from the graph dialect onwards, up to and including the
/// phase `until`: graph (graph-simplify, graph-fold-batchnorm,
/// graph-fuse-qdq), kernel (convert-graph-to-qk, select-lowering-cases,
/// check-case-spaces and, unless `allowUnverified`, the evidence gate
/// check-lowering-evidence),
/// emission (convert-qk-to-emit, the loop passes, emit-plan-memory,
/// emit-insert-sync and, with `hardwareLoops`, emit-hardware-loops) and
/// encoding (convert-emit-to-enc).
void buildPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

} // namespace npuc

#endif
