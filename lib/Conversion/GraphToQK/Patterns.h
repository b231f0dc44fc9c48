//===- Patterns.h - GraphToQK's pattern sets --------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The kernel families convert-graph-to-qk converts besides the matrix
// products and requantization (GraphToQK.cpp): each adds its patterns, one
// per graph op, and makes its graph ops illegal.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_LIB_CONVERSION_GRAPHTOQK_PATTERNS_H
#define NPUC_LIB_CONVERSION_GRAPHTOQK_PATTERNS_H

#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/STLExtras.h"

namespace npuc::graph_to_qk {

/// A graph op as the kernel KernelTy that mirrors it: the same operands, the
/// same result types and the same attributes by the same names (the kernel's
/// verifier is the graph op's). The op's inherent attributes carry over, all
/// of them: one the kernel does not declare fails the conversion rather than
/// be dropped (the ODS builder stores the others in the kernel's
/// properties); discardable ones stay behind.
template <typename OpTy, typename KernelTy>
struct MirrorToKernel : mlir::OpConversionPattern<OpTy> {
  using mlir::OpConversionPattern<OpTy>::OpConversionPattern;
  mlir::LogicalResult matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                                      mlir::ConversionPatternRewriter &rewriter) const override {
    llvm::ArrayRef<mlir::StringAttr> inherent = op->getName().getAttributeNames();
    llvm::SmallVector<mlir::NamedAttribute> attributes;
    for (mlir::NamedAttribute a : op->getAttrs()) {
      if (!llvm::is_contained(inherent, a.getName()))
        continue;
      if (!llvm::is_contained(KernelTy::getAttributeNames(), a.getName().getValue()))
        return rewriter.notifyMatchFailure(op, "the kernel does not declare an attribute of the op");
      attributes.push_back(a);
    }
    rewriter.replaceOpWithNewOp<KernelTy>(op, op->getResultTypes(), adaptor.getOperands(),
                                          attributes);
    return mlir::success();
  }
};

/// Pooling, softmax, reductions and normalizations: graph.max_pool and
/// graph.average_pool become qk.pool, graph.softmax and graph.log_softmax
/// qk.softmax, graph.argmax and graph.argmin qk.arg_reduce, every
/// graph.reduce_* but reduce_prod and the global poolings qk.reduce,
/// graph.layer_norm, batch_norm and channel_affine qk.layer_norm, batch_norm
/// and channel_affine.
void populateReducePatterns(mlir::RewritePatternSet &patterns, mlir::ConversionTarget &target);

/// Data movement: graph.transpose, slice, expand, tile, depth_to_space,
/// space_to_depth, resize, gather and a reflect, edge or wrap graph.pad
/// become qk.copy, their index arithmetic as address plans; a constant
/// graph.pad becomes qk.pad, graph.concat qk.concat.
void populateCopyPatterns(mlir::RewritePatternSet &patterns, mlir::ConversionTarget &target);
/// The float forms of the products: a float graph.matmul becomes qk.matmul,
/// a 2-D float graph.conv qk.conv2d.
void populateFloatProductPatterns(mlir::RewritePatternSet &patterns,
                                  mlir::ConversionTarget &target);
/// Why a graph op stayed a graph op (GraphToQK.h's explainUnconverted): a
/// float product qk's products do not take (a convolution that is not 2-D,
/// a quantized Gemm), a copy that cannot be qk.copy (an index known only at
/// run time, a mode no plan computes, more pieces than a program holds).
mlir::LogicalResult explainProduct(mlir::Operation *op);
mlir::LogicalResult explainCopy(mlir::Operation *op);

} // namespace npuc::graph_to_qk

#endif
