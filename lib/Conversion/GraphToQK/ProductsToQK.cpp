//===- ProductsToQK.cpp - Float matrix products and convolutions to qk ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The float forms of the product kernels: a MatMul of f32 (or of f16, after
// graph-compute-f16) or a Gemm becomes qk.matmul, a 2-D Conv qk.conv2d (with the
// activation graph-fuse-activation folded into it), with f32 accumulation
// and no integer contract. The quantized products became kernels in
// convert-graph-to-qk; these run after the graph passes that match the float
// graph ops (graph-compute-f16). A Conv of another rank or a product of
// other types stays a graph op, for select-lowering-cases to refuse at the
// node (explainProduct says why).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "npuc/Conversion/GraphToQK.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/QK/IR/QKOps.h"

using namespace mlir;
using namespace npuc;

namespace {
bool isFloatTensor(Value v) {
  return isa<FloatType>(cast<RankedTensorType>(v.getType()).getElementType());
}

bool isFloatMatMul(graph::MatMulOp op) {
  return isFloatTensor(op.getLhs()) && isFloatTensor(op.getRhs()) && isFloatTensor(op.getResult());
}

Type elementOf(Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); }

/// A float convolution qk.conv2d's float form states: 2-D (NCHW), input and
/// weight of one float type, the result of that type (or f32 of f16), an
/// f32 bias if any.
bool isFloatConv(graph::ConvOp op) {
  Type xt = elementOf(op.getX()), wt = elementOf(op.getW()), yt = elementOf(op.getResult());
  return isa<FloatType>(xt) && xt == wt && (yt == xt || (xt.isF16() && yt.isF32())) &&
         cast<RankedTensorType>(op.getX().getType()).getRank() == 4 &&
         (!op.getBias() || elementOf(op.getBias()).isF32());
}

struct FloatConvToKernel : OpConversionPattern<graph::ConvOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::ConvOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isFloatConv(op))
      return rewriter.notifyMatchFailure(op, "not a 2-D float convolution");
    qk::FusedActivationAttr activation;
    if (std::optional<StringRef> fused = op.getActivation()) {
      std::optional<qk::FusedActivation> kind = qk::symbolizeFusedActivation(*fused);
      if (!kind)
        return rewriter.notifyMatchFailure(op, "an activation the kernel does not name");
      activation = qk::FusedActivationAttr::get(op.getContext(), *kind);
    }
    rewriter.replaceOpWithNewOp<qk::Conv2DOp>(
        op, op.getResult().getType(), adaptor.getX(), adaptor.getW(), adaptor.getBias(),
        op.getStridesAttr(), op.getPadsAttr(), op.getDilationsAttr(), op.getGroupAttr(),
        /*input_zp=*/IntegerAttr(), /*weight_zp=*/DenseI64ArrayAttr(),
        TypeAttr::get(rewriter.getF32Type()), /*requant=*/qk::RequantAttr(), activation,
        op.getActivationMinAttr(), op.getActivationMaxAttr());
    return success();
  }
};

/// `op` replaced by qk.matmul's float form: f32 accumulation, no zero
/// points or requantization; Gemm's addend, transposes and scales when
/// given (null: ONNX's defaults).
void replaceByFloatProduct(ConversionPatternRewriter &rewriter, Operation *op, Value lhs,
                           Value rhs, Value addend = Value(), BoolAttr transA = BoolAttr(),
                           BoolAttr transB = BoolAttr(), FloatAttr alpha = FloatAttr(),
                           FloatAttr beta = FloatAttr()) {
  rewriter.replaceOpWithNewOp<qk::MatMulOp>(
      op, op->getResult(0).getType(), lhs, rhs, addend, /*lhs_zp=*/IntegerAttr(),
      /*rhs_zp=*/DenseI64ArrayAttr(), TypeAttr::get(rewriter.getF32Type()),
      /*requant=*/qk::RequantAttr(), transA, transB, alpha, beta);
}

struct FloatMatMulToKernel : OpConversionPattern<graph::MatMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::MatMulOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isFloatMatMul(op))
      return rewriter.notifyMatchFailure(op, "not a float product");
    replaceByFloatProduct(rewriter, op, adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

/// A Gemm of floats: f32 (or f16 after graph-compute-f16) a and b, a float
/// result, an f32 c if any.
bool isFloatGemm(graph::GemmOp op) {
  return isFloatTensor(op.getA()) && isFloatTensor(op.getB()) && isFloatTensor(op.getResult()) &&
         (!op.getC() || elementOf(op.getC()).isF32());
}

/// Gemm as qk.matmul's float form: c is the addend, the transposes and
/// scales carried when they are not ONNX's defaults.
struct FloatGemmToKernel : OpConversionPattern<graph::GemmOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::GemmOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isFloatGemm(op))
      return rewriter.notifyMatchFailure(op, "not a float Gemm");
    auto unlessDefault = [&](FloatAttr f) {
      return f.getValueAsDouble() == 1.0 ? FloatAttr() : f;
    };
    replaceByFloatProduct(rewriter, op, adaptor.getA(), adaptor.getB(), adaptor.getC(),
                          op.getTransA() ? op.getTransAAttr() : BoolAttr(),
                          op.getTransB() ? op.getTransBAttr() : BoolAttr(),
                          unlessDefault(op.getAlphaAttr()), unlessDefault(op.getBetaAttr()));
    return success();
  }
};
} // namespace

void graph_to_qk::populateFloatProductPatterns(RewritePatternSet &patterns,
                                               ConversionTarget &target) {
  patterns.add<FloatMatMulToKernel, FloatGemmToKernel, FloatConvToKernel>(patterns.getContext());
  target.addDynamicallyLegalOp<graph::GemmOp>([](graph::GemmOp op) { return !isFloatGemm(op); });
  target.addDynamicallyLegalOp<graph::MatMulOp>(
      [](graph::MatMulOp op) { return !isFloatMatMul(op); });
  target.addDynamicallyLegalOp<graph::ConvOp>([](graph::ConvOp op) { return !isFloatConv(op); });
}

LogicalResult graph_to_qk::explainProduct(Operation *op) {
  if (auto conv = dyn_cast<graph::ConvOp>(op);
      conv && isFloatTensor(conv.getResult()) &&
      cast<RankedTensorType>(conv.getX().getType()).getRank() != 4)
    return op->emitOpError("convolution lowering handles 2-D (NCHW) inputs");
  if (auto gemm = dyn_cast<graph::GemmOp>(op); gemm && !isFloatGemm(gemm))
    return op->emitOpError("Gemm lowers for f32 and f16 (a quantized Gemm has no kernel yet)");
  return success();
}

LogicalResult graph_to_qk::explainUnconverted(Operation *op) {
  if (failed(explainProduct(op)))
    return failure();
  return explainCopy(op);
}
