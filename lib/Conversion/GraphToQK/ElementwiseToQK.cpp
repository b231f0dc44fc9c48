//===- ElementwiseToQK.cpp - Elementwise graph ops to qk kernels ----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// One OpConversionPattern per graph op (BinaryToKernel<OpTy, fn>): the op
// becomes qk.binary with the VECTOR function it computes; nothing else about
// it changes (operands, result type, location).
//
//===----------------------------------------------------------------------===//

#include "npuc/Conversion/Passes.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/QK/IR/QKOps.h"

#include "mlir/Transforms/DialectConversion.h"

namespace npuc {
#define GEN_PASS_DEF_CONVERTELEMENTWISETOQK
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

using namespace mlir;
using namespace npuc;

namespace {
/// A binary graph op as the qk.binary of its function.
template <typename OpTy, qk::BinaryFn fn>
struct BinaryToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<qk::BinaryOp>(op, op.getResult().getType(), adaptor.getLhs(),
                                              adaptor.getRhs(),
                                              qk::BinaryFnAttr::get(op.getContext(), fn));
    return success();
  }
};

struct ConvertElementwiseToQKPass
    : npuc::impl::ConvertElementwiseToQKBase<ConvertElementwiseToQKPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<BinaryToKernel<graph::AddOp, qk::BinaryFn::ADD>,
                 BinaryToKernel<graph::SubOp, qk::BinaryFn::SUB>,
                 BinaryToKernel<graph::MulOp, qk::BinaryFn::MUL>,
                 BinaryToKernel<graph::DivOp, qk::BinaryFn::DIV>,
                 BinaryToKernel<graph::MaxOp, qk::BinaryFn::MAX>,
                 BinaryToKernel<graph::MinOp, qk::BinaryFn::MIN>,
                 BinaryToKernel<graph::ShiftLeftOp, qk::BinaryFn::SHL>,
                 BinaryToKernel<graph::ShiftRightOp, qk::BinaryFn::SRA>>(context);
    ConversionTarget target(*context);
    target.addLegalDialect<graph::GraphDialect, qk::QKDialect>();
    target.addIllegalOp<graph::AddOp, graph::SubOp, graph::MulOp, graph::DivOp, graph::MaxOp,
                        graph::MinOp, graph::ShiftLeftOp, graph::ShiftRightOp>();
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
