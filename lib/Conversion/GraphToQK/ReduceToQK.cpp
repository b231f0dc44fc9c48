//===- ReduceToQK.cpp - Pooling and softmax graph ops to qk kernels -------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// One OpConversionPattern per graph op: MaxPool and AveragePool become
// qk.pool with the window's function, the window (kernel, strides, pads,
// dilations, ceil_mode, count_include_pad) as it is; Softmax and LogSoftmax
// become qk.softmax along their axis. The operand, the result type and the
// location stay as they are.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/QK/IR/QKOps.h"

using namespace mlir;
using namespace npuc;

namespace {
/// A pooling graph op as the qk.pool of its function.
template <typename OpTy, qk::PoolFn fn>
struct PoolToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    bool countIncludePad = false;
    if constexpr (std::is_same_v<OpTy, graph::AveragePoolOp>)
      countIncludePad = op.getCountIncludePad();
    rewriter.replaceOpWithNewOp<qk::PoolOp>(
        op, op.getResult().getType(), adaptor.getX(), qk::PoolFnAttr::get(op.getContext(), fn),
        op.getKernelShapeAttr(), op.getStridesAttr(), op.getPadsAttr(), op.getDilationsAttr(),
        op.getCeilModeAttr(), rewriter.getBoolAttr(countIncludePad));
    return success();
  }
};

/// Softmax (log = false) or LogSoftmax (log = true) as qk.softmax.
template <typename OpTy, bool log>
struct SoftmaxToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<qk::SoftmaxOp>(op, op.getResult().getType(), adaptor.getInput(),
                                               op.getAxisAttr(), rewriter.getBoolAttr(log));
    return success();
  }
};
} // namespace

void graph_to_qk::populateReducePatterns(RewritePatternSet &patterns, ConversionTarget &target) {
  patterns.add<PoolToKernel<graph::MaxPoolOp, qk::PoolFn::MAX>,
               PoolToKernel<graph::AveragePoolOp, qk::PoolFn::AVERAGE>,
               SoftmaxToKernel<graph::SoftmaxOp, false>, SoftmaxToKernel<graph::LogSoftmaxOp, true>>(
      patterns.getContext());
  target.addIllegalOp<graph::MaxPoolOp, graph::AveragePoolOp, graph::SoftmaxOp,
                      graph::LogSoftmaxOp>();
}
