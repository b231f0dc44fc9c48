//===- GraphOps.h - The graph dialect's ops ---------------------*- C++ -*-===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef NPUC_DIALECT_GRAPH_IR_GRAPHOPS_H
#define NPUC_DIALECT_GRAPH_IR_GRAPHOPS_H

#include "npuc/Dialect/Graph/IR/GraphDialect.h"
#include "npuc/Dialect/Graph/IR/QuantParameters.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace npuc::graph {
// Shared verifiers (GraphVerifiers.cpp): each checks an op's shapes, element
// types and attributes, and says what it expected and what it found.
llvm::LogicalResult verifyBroadcastBinary(mlir::Operation *op);
llvm::LogicalResult verifySameShapeUnary(mlir::Operation *op);
llvm::LogicalResult verifyClip(mlir::Operation *op);
llvm::LogicalResult verifyConv(mlir::Operation *op);
llvm::LogicalResult verifyGemm(mlir::Operation *op);
llvm::LogicalResult verifyMatMul(mlir::Operation *op);
llvm::LogicalResult verifyPool(mlir::Operation *op);
llvm::LogicalResult verifyGlobalPool(mlir::Operation *op);
llvm::LogicalResult verifyBatchNorm(mlir::Operation *op);
llvm::LogicalResult verifyChannelAffine(mlir::Operation *op);
llvm::LogicalResult verifyAxisUnary(mlir::Operation *op);
llvm::LogicalResult verifyReduce(mlir::Operation *op);
llvm::LogicalResult verifyConstant(mlir::Operation *op);
llvm::LogicalResult verifyReshape(mlir::Operation *op);
llvm::LogicalResult verifyTranspose(mlir::Operation *op);
llvm::LogicalResult verifyConcat(mlir::Operation *op);
llvm::LogicalResult verifyQuantize(mlir::Operation *op);
llvm::LogicalResult verifyRequantize(mlir::Operation *op);
llvm::LogicalResult verifyDequantize(mlir::Operation *op);
llvm::LogicalResult verifyCompare(mlir::Operation *op);
llvm::LogicalResult verifyPow(mlir::Operation *op);
llvm::LogicalResult verifyWhere(mlir::Operation *op);
llvm::LogicalResult verifyConvTranspose(mlir::Operation *op);
llvm::LogicalResult verifyResize(mlir::Operation *op);
llvm::LogicalResult verifyArgReduce(mlir::Operation *op);
llvm::LogicalResult verifyPad(mlir::Operation *op);
llvm::LogicalResult verifySlice(mlir::Operation *op);
llvm::LogicalResult verifyGather(mlir::Operation *op);
llvm::LogicalResult verifyScatterND(mlir::Operation *op);
llvm::LogicalResult verifyExpand(mlir::Operation *op);
llvm::LogicalResult verifyTile(mlir::Operation *op);
llvm::LogicalResult verifyDepthSpace(mlir::Operation *op);
llvm::LogicalResult verifyCast(mlir::Operation *op);
llvm::LogicalResult verifyStorageCast(mlir::Operation *op);
llvm::LogicalResult verifyBitcast(mlir::Operation *op);
/// Whether BitCast moves between `from` and `to` (graph.bitcast's rule).
bool isBitcastPair(mlir::Type from, mlir::Type to);
llvm::LogicalResult verifyGatherElements(mlir::Operation *op);
llvm::LogicalResult verifyLayerNorm(mlir::Operation *op);
llvm::LogicalResult verifyRecurrent(mlir::Operation *op);
llvm::LogicalResult verifyDynamicQuantize(mlir::Operation *op);

/// The element type with quantization stripped (the expressed type).
mlir::Type expressedElementType(mlir::Type tensorOrElement);
/// The type a tensor's elements are stored as on the NPU: a quantized type's
/// storage; bool (i1) as i8 0/1; int64, uint16 and uint32 as i32 (the
/// boundary types of docs/model-format.md: ids, indices, counts and masks,
/// narrowed where they enter and widened where they leave).
mlir::Type storageType(mlir::Type element);
} // namespace npuc::graph

#define GET_OP_CLASSES
#include "npuc/Dialect/Graph/IR/GraphOps.h.inc"

namespace npuc::graph {
/// The data indices a gather by constant indices reads along its axis, the
/// indices flattened and a negative one counted from the end; nullopt when
/// the indices are not a constant or one is outside [-V, V) (then
/// `*outside`, when given, is that index).
std::optional<llvm::SmallVector<int64_t>> constantGatherSources(GatherOp op,
                                                                 std::optional<int64_t> *outside = nullptr);
} // namespace npuc::graph

#endif
