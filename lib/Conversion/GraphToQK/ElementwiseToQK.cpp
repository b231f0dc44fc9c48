//===- ElementwiseToQK.cpp - Elementwise graph ops to qk kernels ----------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// One OpConversionPattern per graph op (BinaryToKernel<OpTy, fn>,
// CompareToKernel<OpTy, fn>, MapToKernel<OpTy, fn>, MirrorToKernel<OpTy,
// KernelTy> of Patterns.h for a kernel that mirrors its op): the op becomes
// qk.binary, qk.compare or qk.map with the VECTOR function it computes
// (And, Or and Xor of bools are qk.binary's AND, OR and XOR); Not becomes
// qk.not, Where qk.select and Cast qk.cast, QuantizeLinear and
// DequantizeLinear qk.quantize and qk.dequantize; the maps composed of
// several functions (Clip, LeakyRelu, HardSigmoid, HardSwish, Gelu) and
// PRelu, Pow and ConvTranspose the kernels of those names. Data movement
// becomes qk.copy (CopyToQK.cpp), a float MatMul or Conv the float form of
// qk.matmul or qk.conv2d (ProductsToQK.cpp). Nothing else about an op
// changes (operands, result type, location).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

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
                 MapToKernel<graph::SinOp, qk::UnaryFn::SIN>,
                 MapToKernel<graph::CosOp, qk::UnaryFn::COS>,
                 MapToKernel<graph::TanOp, qk::UnaryFn::TAN>,
                 MapToKernel<graph::AsinOp, qk::UnaryFn::ASIN>,
                 MapToKernel<graph::AcosOp, qk::UnaryFn::ACOS>,
                 MapToKernel<graph::AtanOp, qk::UnaryFn::ATAN>,
                 MapToKernel<graph::AsinhOp, qk::UnaryFn::ASINH>,
                 MapToKernel<graph::AcoshOp, qk::UnaryFn::ACOSH>,
                 MapToKernel<graph::AtanhOp, qk::UnaryFn::ATANH>,
                 MapToKernel<graph::FloorOp, qk::UnaryFn::FLOOR>,
                 MapToKernel<graph::CeilOp, qk::UnaryFn::CEIL>,
                 MapToKernel<graph::RoundOp, qk::UnaryFn::ROUND>,
                 MapToKernel<graph::IdentityOp, qk::UnaryFn::COPY>>(context);
    patterns.add<CompareToKernel<graph::EqualOp, qk::CompareFn::EQ>,
                 CompareToKernel<graph::LessOp, qk::CompareFn::LT>,
                 CompareToKernel<graph::LessOrEqualOp, qk::CompareFn::LE>,
                 CompareToKernel<graph::GreaterOp, qk::CompareFn::GT>,
                 CompareToKernel<graph::GreaterOrEqualOp, qk::CompareFn::GE>>(context);
    // Kernels that mirror their graph op (operands and attributes): the
    // views (Reshape, the storage casts convert-graph-to-qk writes too), Not,
    // Where, Cast (graph-compute-f16 writes casts too: this pass runs after
    // it), QuantizeLinear and DequantizeLinear (after graph-fold-dequantize,
    // which folds graph.dequantize of constants), the maps composed of
    // several functions, PRelu, Pow and ConvTranspose.
    using graph_to_qk::MirrorToKernel;
    patterns.add<MirrorToKernel<graph::ReshapeOp, qk::ViewOp>,
                 MirrorToKernel<graph::StorageCastOp, qk::ViewOp>,
                 MirrorToKernel<graph::BitcastOp, qk::ViewOp>,
                 MirrorToKernel<graph::NotOp, qk::NotOp>,
                 MirrorToKernel<graph::WhereOp, qk::SelectOp>,
                 MirrorToKernel<graph::CastOp, qk::CastOp>,
                 MirrorToKernel<graph::QuantizeOp, qk::QuantizeOp>,
                 MirrorToKernel<graph::DequantizeOp, qk::DequantizeOp>,
                 MirrorToKernel<graph::ClipOp, qk::ClipOp>,
                 MirrorToKernel<graph::LeakyReluOp, qk::LeakyReluOp>,
                 MirrorToKernel<graph::HardSigmoidOp, qk::HardSigmoidOp>,
                 MirrorToKernel<graph::HardSwishOp, qk::HardSwishOp>,
                 MirrorToKernel<graph::PReluOp, qk::PReluOp>,
                 MirrorToKernel<graph::PowOp, qk::PowOp>,
                 MirrorToKernel<graph::ConvTransposeOp, qk::ConvTransposeOp>, GeluToKernel>(context);
    ConversionTarget target(*context);
    target.addLegalDialect<graph::GraphDialect, qk::QKDialect>();
    target.addIllegalOp<graph::AddOp, graph::SubOp, graph::MulOp, graph::DivOp, graph::MaxOp,
                        graph::MinOp, graph::ShiftLeftOp, graph::ShiftRightOp, graph::AndOp,
                        graph::OrOp, graph::XorOp, graph::NotOp>();
    target.addIllegalOp<graph::ReluOp, graph::SigmoidOp, graph::TanhOp, graph::ExpOp, graph::LogOp,
                        graph::NegOp, graph::AbsOp, graph::SignOp, graph::SqrtOp,
                        graph::ReciprocalOp, graph::ErfOp, graph::FloorOp, graph::CeilOp,
                        graph::RoundOp, graph::IdentityOp>();
    target.addIllegalOp<graph::SinOp, graph::CosOp, graph::TanOp, graph::AsinOp, graph::AcosOp,
                        graph::AtanOp, graph::AsinhOp, graph::AcoshOp, graph::AtanhOp>();
    target.addIllegalOp<graph::EqualOp, graph::LessOp, graph::LessOrEqualOp, graph::GreaterOp,
                        graph::GreaterOrEqualOp, graph::WhereOp, graph::CastOp,
                        graph::QuantizeOp, graph::DequantizeOp, graph::ReshapeOp,
                        graph::StorageCastOp, graph::BitcastOp>();
    target.addIllegalOp<graph::ClipOp, graph::LeakyReluOp, graph::HardSigmoidOp,
                        graph::HardSwishOp, graph::PReluOp, graph::PowOp,
                        graph::ConvTransposeOp>();
    // A Gelu of another approximation (the importer makes none) stays, for
    // the lowering to refuse at the node.
    target.addDynamicallyLegalOp<graph::GeluOp>([](graph::GeluOp op) {
      return !qk::symbolizeGeluApproximation(op.getApproximate());
    });
    graph_to_qk::populateCopyPatterns(patterns, target);
    graph_to_qk::populateFloatProductPatterns(patterns, target);
    // An op no pattern converts stays a graph op: select-lowering-cases
    // reports every one (explainUnconverted says why).
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
