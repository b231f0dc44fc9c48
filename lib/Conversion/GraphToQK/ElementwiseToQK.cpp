//===- ElementwiseToQK.cpp - Elementwise graph ops to qk kernels ----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// One OpConversionPattern per graph op (BinaryToKernel<OpTy, fn>,
// CompareToKernel<OpTy, fn>, MapToKernel<OpTy, fn>): the op becomes
// qk.binary, qk.compare or qk.map with the VECTOR function it computes
// (And, Or and Xor of bools are qk.binary's AND, OR and XOR); Not becomes
// qk.not, Where qk.select and Cast qk.cast, QuantizeLinear and
// DequantizeLinear qk.quantize and qk.dequantize; the maps composed of
// several functions (Clip, LeakyRelu, HardSigmoid, HardSwish, Gelu) and
// PRelu and Pow the kernels of those names. Nothing else about an op
// changes (operands, result type, location).
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
/// A graph op of two operands as the kernel KernelTy (qk.binary,
/// qk.compare) of the function `fn`.
template <typename OpTy, typename KernelTy, auto fn>
struct TwoOperandsToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<KernelTy>(op, op.getResult().getType(), adaptor.getLhs(),
                                          adaptor.getRhs(), fn);
    return success();
  }
};
template <typename OpTy, qk::BinaryFn fn>
using BinaryToKernel = TwoOperandsToKernel<OpTy, qk::BinaryOp, fn>;
template <typename OpTy, qk::CompareFn fn>
using CompareToKernel = TwoOperandsToKernel<OpTy, qk::CompareOp, fn>;

/// A unary graph op as the qk.map of its function.
template <typename OpTy, qk::UnaryFn fn>
struct MapToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<qk::MapOp>(op, op.getResult().getType(), adaptor.getInput(),
                                           qk::UnaryFnAttr::get(op.getContext(), fn));
    return success();
  }
};

/// Where as qk.select.
struct WhereToKernel : OpConversionPattern<graph::WhereOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::WhereOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<qk::SelectOp>(op, op.getResult().getType(), adaptor.getCond(),
                                              adaptor.getX(), adaptor.getY());
    return success();
  }
};

/// An op of one operand as the kernel KernelTy that takes the same operand
/// and result: Not, Cast (graph-compute-f16 writes casts too: this pass runs
/// after it), QuantizeLinear and DequantizeLinear (after
/// graph-fold-dequantize, which folds graph.dequantize of constants).
template <typename OpTy, typename KernelTy>
struct SameOperandToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<KernelTy>(op, op.getResult().getType(), adaptor.getInput());
    return success();
  }
};

/// An op of two operands as the kernel KernelTy of the same operands: PRelu,
/// Pow.
template <typename OpTy, typename KernelTy>
struct SameOperandsToKernel : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<KernelTy>(op, op.getResult().getType(), adaptor.getLhs(),
                                          adaptor.getRhs());
    return success();
  }
};

/// Clip as qk.clip, its bounds as they are (absent where ONNX left one out).
struct ClipToKernel : OpConversionPattern<graph::ClipOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::ClipOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<qk::ClipOp>(op, op.getResult().getType(), adaptor.getInput(),
                                            op.getMinAttr(), op.getMaxAttr());
    return success();
  }
};

/// LeakyRelu as qk.leaky_relu.
struct LeakyReluToKernel : OpConversionPattern<graph::LeakyReluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::LeakyReluOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<qk::LeakyReluOp>(op, op.getResult().getType(), adaptor.getInput(),
                                                 op.getAlphaAttr());
    return success();
  }
};

/// HardSigmoid as qk.hard_sigmoid.
struct HardSigmoidToKernel : OpConversionPattern<graph::HardSigmoidOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::HardSigmoidOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<qk::HardSigmoidOp>(op, op.getResult().getType(),
                                                   adaptor.getInput(), op.getAlphaAttr(),
                                                   op.getBetaAttr());
    return success();
  }
};

/// Gelu as qk.gelu, its approximate string ("none" or "tanh", as the
/// importer holds it) as the enum.
struct GeluToKernel : OpConversionPattern<graph::GeluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::GeluOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<qk::GeluApproximation> form =
        qk::symbolizeGeluApproximation(op.getApproximate());
    if (!form)
      return rewriter.notifyMatchFailure(op, "approximate is neither none nor tanh");
    rewriter.replaceOpWithNewOp<qk::GeluOp>(
        op, op.getResult().getType(), adaptor.getInput(),
        qk::GeluApproximationAttr::get(op.getContext(), *form));
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
                 BinaryToKernel<graph::ShiftRightOp, qk::BinaryFn::SRA>,
                 BinaryToKernel<graph::AndOp, qk::BinaryFn::AND>,
                 BinaryToKernel<graph::OrOp, qk::BinaryFn::OR>,
                 BinaryToKernel<graph::XorOp, qk::BinaryFn::XOR>>(context);
    patterns.add<MapToKernel<graph::ReluOp, qk::UnaryFn::RELU>,
                 MapToKernel<graph::SigmoidOp, qk::UnaryFn::SIGMOID>,
                 MapToKernel<graph::TanhOp, qk::UnaryFn::TANH>,
                 MapToKernel<graph::ExpOp, qk::UnaryFn::EXP>,
                 MapToKernel<graph::LogOp, qk::UnaryFn::LOG>,
                 MapToKernel<graph::NegOp, qk::UnaryFn::NEG>,
                 MapToKernel<graph::AbsOp, qk::UnaryFn::ABS>,
                 MapToKernel<graph::SignOp, qk::UnaryFn::SIGN>,
                 MapToKernel<graph::SqrtOp, qk::UnaryFn::SQRT>,
                 MapToKernel<graph::ReciprocalOp, qk::UnaryFn::RECIP>,
                 MapToKernel<graph::ErfOp, qk::UnaryFn::ERF>,
                 MapToKernel<graph::FloorOp, qk::UnaryFn::FLOOR>,
                 MapToKernel<graph::CeilOp, qk::UnaryFn::CEIL>,
                 MapToKernel<graph::RoundOp, qk::UnaryFn::ROUND>,
                 MapToKernel<graph::IdentityOp, qk::UnaryFn::COPY>>(context);
    patterns.add<CompareToKernel<graph::EqualOp, qk::CompareFn::EQ>,
                 CompareToKernel<graph::LessOp, qk::CompareFn::LT>,
                 CompareToKernel<graph::LessOrEqualOp, qk::CompareFn::LE>,
                 CompareToKernel<graph::GreaterOp, qk::CompareFn::GT>,
                 CompareToKernel<graph::GreaterOrEqualOp, qk::CompareFn::GE>>(context);
    patterns.add<WhereToKernel, SameOperandToKernel<graph::NotOp, qk::NotOp>,
                 SameOperandToKernel<graph::CastOp, qk::CastOp>,
                 SameOperandToKernel<graph::QuantizeOp, qk::QuantizeOp>,
                 SameOperandToKernel<graph::DequantizeOp, qk::DequantizeOp>>(context);
    patterns.add<ClipToKernel, LeakyReluToKernel, HardSigmoidToKernel, GeluToKernel,
                 SameOperandToKernel<graph::HardSwishOp, qk::HardSwishOp>,
                 SameOperandsToKernel<graph::PReluOp, qk::PReluOp>,
                 SameOperandsToKernel<graph::PowOp, qk::PowOp>>(context);
    ConversionTarget target(*context);
    target.addLegalDialect<graph::GraphDialect, qk::QKDialect>();
    target.addIllegalOp<graph::AddOp, graph::SubOp, graph::MulOp, graph::DivOp, graph::MaxOp,
                        graph::MinOp, graph::ShiftLeftOp, graph::ShiftRightOp, graph::AndOp,
                        graph::OrOp, graph::XorOp, graph::NotOp>();
    target.addIllegalOp<graph::ReluOp, graph::SigmoidOp, graph::TanhOp, graph::ExpOp, graph::LogOp,
                        graph::NegOp, graph::AbsOp, graph::SignOp, graph::SqrtOp,
                        graph::ReciprocalOp, graph::ErfOp, graph::FloorOp, graph::CeilOp,
                        graph::RoundOp, graph::IdentityOp>();
    target.addIllegalOp<graph::EqualOp, graph::LessOp, graph::LessOrEqualOp, graph::GreaterOp,
                        graph::GreaterOrEqualOp, graph::WhereOp, graph::CastOp,
                        graph::QuantizeOp, graph::DequantizeOp>();
    target.addIllegalOp<graph::ClipOp, graph::LeakyReluOp, graph::HardSigmoidOp,
                        graph::HardSwishOp, graph::PReluOp, graph::PowOp>();
    // A Gelu of another approximation (the importer makes none) stays, for
    // the lowering to refuse at the node.
    target.addDynamicallyLegalOp<graph::GeluOp>([](graph::GeluOp op) {
      return !qk::symbolizeGeluApproximation(op.getApproximate());
    });
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
