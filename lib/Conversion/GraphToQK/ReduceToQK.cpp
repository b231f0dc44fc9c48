//===- ReduceToQK.cpp - Pooling, softmax, arg and normalizations to qk ----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// One OpConversionPattern per graph op: MaxPool and AveragePool become
// qk.pool with the window's function, the window (kernel, strides, pads,
// dilations, ceil_mode, count_include_pad) as it is; Softmax and LogSoftmax
// become qk.softmax along their axis, ArgMax and ArgMin qk.arg_reduce (MAX,
// MIN), every Reduce* and the global poolings qk.reduce (a VECTOR reduction
// with the steps ONNX puts before and after it), LayerNormalization qk.layer_norm, BatchNormalization qk.batch_norm
// and graph.channel_affine qk.channel_affine. The operands, the result types
// and the location stay as they are.
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

/// ArgMax (MAX) or ArgMin (MIN) as qk.arg_reduce.
template <typename OpTy, qk::ReduceFn fn>
struct ArgToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<qk::ArgReduceOp>(
        op, op.getResult().getType(), adaptor.getInput(), qk::ReduceFnAttr::get(op.getContext(), fn),
        op.getAxisAttr(), op.getKeepdimsAttr(), op.getSelectLastIndexAttr());
    return success();
  }
};

/// A Reduce* op as qk.reduce: VECTOR's reduction `fn` with the steps ONNX
/// puts before (pre) and after (post) it, over the op's axes.
template <typename OpTy, qk::ReduceFn fn, qk::ReducePre pre, qk::ReducePost post>
struct ReduceToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    rewriter.replaceOpWithNewOp<qk::ReduceOp>(
        op, op.getResult().getType(), adaptor.getInput(), qk::ReduceFnAttr::get(ctx, fn),
        qk::ReducePreAttr::get(ctx, pre), qk::ReducePostAttr::get(ctx, post), op.getAxesAttr(),
        op.getKeepdimsAttr());
    return success();
  }
};

/// GlobalAveragePool (SUM, mean) or GlobalMaxPool (MAX) as qk.reduce over
/// the spatial axes (2 to the last), kept as extent 1.
template <typename OpTy, qk::ReduceFn fn, qk::ReducePost post>
struct GlobalPoolToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    int64_t rank = cast<RankedTensorType>(op.getX().getType()).getRank();
    SmallVector<int64_t> axes;
    for (int64_t i = 2; i < rank; ++i)
      axes.push_back(i);
    rewriter.replaceOpWithNewOp<qk::ReduceOp>(
        op, op.getResult().getType(), adaptor.getX(), qk::ReduceFnAttr::get(ctx, fn),
        qk::ReducePreAttr::get(ctx, qk::ReducePre::None), qk::ReducePostAttr::get(ctx, post),
        rewriter.getDenseI64ArrayAttr(axes), rewriter.getBoolAttr(true));
    return success();
  }
};

/// LayerNormalization as qk.layer_norm (stash_type is 1: the importer
/// refuses any other).
struct LayerNormToKernel : OpConversionPattern<graph::LayerNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::LayerNormOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<qk::LayerNormOp>(op, op->getResultTypes(), adaptor.getX(),
                                                 adaptor.getScale(), adaptor.getBias(),
                                                 op.getAxisAttr(), op.getEpsilonAttr());
    return success();
  }
};

} // namespace

void graph_to_qk::populateReducePatterns(RewritePatternSet &patterns, ConversionTarget &target) {
  patterns.add<PoolToKernel<graph::MaxPoolOp, qk::PoolFn::MAX>,
               PoolToKernel<graph::AveragePoolOp, qk::PoolFn::AVERAGE>,
               SoftmaxToKernel<graph::SoftmaxOp, false>, SoftmaxToKernel<graph::LogSoftmaxOp, true>,
               ArgToKernel<graph::ArgMaxOp, qk::ReduceFn::MAX>,
               ArgToKernel<graph::ArgMinOp, qk::ReduceFn::MIN>, LayerNormToKernel,
               MirrorToKernel<graph::BatchNormOp, qk::BatchNormOp>,
               MirrorToKernel<graph::ChannelAffineOp, qk::ChannelAffineOp>>(patterns.getContext());
  using Fn = qk::ReduceFn;
  using Pre = qk::ReducePre;
  using Post = qk::ReducePost;
  patterns.add<ReduceToKernel<graph::ReduceSumOp, Fn::SUM, Pre::None, Post::None>,
               ReduceToKernel<graph::ReduceMeanOp, Fn::SUM, Pre::None, Post::Mean>,
               ReduceToKernel<graph::ReduceMaxOp, Fn::MAX, Pre::None, Post::None>,
               ReduceToKernel<graph::ReduceMinOp, Fn::MIN, Pre::None, Post::None>,
               ReduceToKernel<graph::ReduceL1Op, Fn::SUM, Pre::Abs, Post::None>,
               ReduceToKernel<graph::ReduceL2Op, Fn::SUM, Pre::Square, Post::Sqrt>,
               ReduceToKernel<graph::ReduceSumSquareOp, Fn::SUM, Pre::Square, Post::None>,
               ReduceToKernel<graph::ReduceLogSumOp, Fn::SUM, Pre::None, Post::Log>,
               ReduceToKernel<graph::ReduceLogSumExpOp, Fn::SUM, Pre::ShiftedExp, Post::LogPlusMax>,
               GlobalPoolToKernel<graph::GlobalAveragePoolOp, Fn::SUM, Post::Mean>,
               GlobalPoolToKernel<graph::GlobalMaxPoolOp, Fn::MAX, Post::None>>(
      patterns.getContext());
  target.addIllegalOp<graph::MaxPoolOp, graph::AveragePoolOp, graph::SoftmaxOp,
                      graph::LogSoftmaxOp, graph::ArgMaxOp, graph::ArgMinOp,
                      graph::LayerNormOp, graph::BatchNormOp, graph::ChannelAffineOp,
                      graph::ReduceSumOp, graph::ReduceMeanOp, graph::ReduceMaxOp,
                      graph::ReduceMinOp, graph::ReduceL1Op, graph::ReduceL2Op,
                      graph::ReduceSumSquareOp, graph::ReduceLogSumOp, graph::ReduceLogSumExpOp,
                      graph::GlobalAveragePoolOp, graph::GlobalMaxPoolOp>();
}
