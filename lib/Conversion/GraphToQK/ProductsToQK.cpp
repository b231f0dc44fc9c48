//===- ProductsToQK.cpp - Float matrix products to qk ---------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The float forms of the product kernels: a MatMul of f32 (or of f16, after
// graph-compute-f16) becomes qk.matmul with f32 accumulation and no integer
// contract. The quantized products became kernels in convert-graph-to-qk;
// these run after the graph passes that match the float graph ops
// (graph-compute-f16). A product of other types stays, for the lowering to
// refuse at the node.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

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

struct FloatMatMulToKernel : OpConversionPattern<graph::MatMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(graph::MatMulOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isFloatMatMul(op))
      return rewriter.notifyMatchFailure(op, "not a float product");
    rewriter.replaceOpWithNewOp<qk::MatMulOp>(
        op, op.getResult().getType(), adaptor.getLhs(), adaptor.getRhs(), /*bias=*/Value(),
        /*lhs_zp=*/IntegerAttr(), /*rhs_zp=*/DenseI64ArrayAttr(),
        TypeAttr::get(rewriter.getF32Type()), /*requant=*/qk::RequantAttr());
    return success();
  }
};
} // namespace

void graph_to_qk::populateFloatProductPatterns(RewritePatternSet &patterns,
                                               ConversionTarget &target) {
  patterns.add<FloatMatMulToKernel>(patterns.getContext());
  target.addDynamicallyLegalOp<graph::MatMulOp>(
      [](graph::MatMulOp op) { return !isFloatMatMul(op); });
}
