//===- GraphFoldBias.cpp - Constant Adds into conv and product biases -----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ConstantValues.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHFOLDBIAS
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// Whether a tensor of `shape` broadcasts against [N, M, spatial...] as one
/// value per channel (or one for all): 1 everywhere but the channel axis.
bool perChannel(ArrayRef<int64_t> shape, ArrayRef<int64_t> result) {
  if (shape.size() > result.size())
    return false;
  size_t lead = result.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i) {
    size_t axis = lead + i;
    if (shape[i] != 1 && !(axis == 1 && shape[i] == result[1]))
      return false;
  }
  return true;
}

/// The f32 convolution `v` comes from when a per-channel constant can fold
/// into it: its only use, no fused activation, f32 operands that are not
/// dequantized (graph-fuse-qdq quantizes those, their bias in the integer
/// domain), and a result of `resultType`.
ConvOp foldableConv(Value v, Type resultType) {
  auto conv = v.getDefiningOp<ConvOp>();
  if (!conv || !conv.getResult().hasOneUse() || conv.getActivation() ||
      resultType != conv.getResult().getType())
    return {};
  auto type = cast<RankedTensorType>(conv.getResult().getType());
  if (!type.getElementType().isF32() || conv.getX().getDefiningOp<DequantizeOp>() ||
      conv.getW().getDefiningOp<DequantizeOp>() || type.getRank() < 2)
    return {};
  return conv;
}

/// The values of `v` when it is an f32 constant with one value per channel
/// of `result` (or one for all), expanded to one per channel.
std::optional<SmallVector<float>> perChannelValues(Value v, ArrayRef<int64_t> result) {
  std::optional<SmallVector<float>> values = f32ConstantValues(v);
  if (!values || result.size() < 2 ||
      !perChannel(cast<RankedTensorType>(v.getType()).getShape(), result))
    return std::nullopt;
  if (values->size() == 1)
    values->assign(size_t(result[1]), values->front());
  return values;
}

/// The conv's constant bias (zeros without one), or nothing when it is not
/// a constant.
std::optional<SmallVector<float>> biasOf(ConvOp conv, int64_t channels) {
  if (!conv.getBias())
    return SmallVector<float>(size_t(channels), 0.0f);
  return f32ConstantValues(conv.getBias());
}

/// Folds `add` (an f32 convolution's only use plus a per-channel constant)
/// into the convolution's bias; true when it did.
bool fold(AddOp add) {
  for (unsigned i = 0; i < 2; ++i) {
    ConvOp conv = foldableConv(add->getOperand(i), add.getResult().getType());
    if (!conv)
      continue;
    ArrayRef<int64_t> shape = cast<RankedTensorType>(conv.getResult().getType()).getShape();
    std::optional<SmallVector<float>> values = perChannelValues(add->getOperand(1 - i), shape);
    std::optional<SmallVector<float>> bias = biasOf(conv, shape[1]);
    if (!values || !bias)
      continue;
    for (size_t c = 0; c < bias->size(); ++c)
      (*bias)[c] += (*values)[c];
    // The conv now computes the sum.
    foldIntoConv(conv, *bias, add.getLoc(), add);
    return true;
  }
  return false;
}

/// Folds `add` (an f32 matrix product's only use plus a constant over the
/// product's last axis, or one value) into a Gemm whose C is that constant,
/// broadcast over the rows: the product's leading axes are its rows (a
/// reshape of contiguous memory). The product kernel adds C to its finished
/// sums in ACC (the same f32 addition), instead of a kernel of its own
/// loading the product back. True when it did.
bool foldIntoProduct(AddOp add) {
  auto type = cast<RankedTensorType>(add.getResult().getType());
  if (!type.getElementType().isF32() || type.getRank() < 2 || !type.hasStaticShape())
    return false;
  for (unsigned i = 0; i < 2; ++i) {
    auto mm = add->getOperand(i).getDefiningOp<MatMulOp>();
    if (!mm || !mm.getResult().hasOneUse() || mm.getResult().getType() != type ||
        mm.getLhs().getDefiningOp<DequantizeOp>() || mm.getRhs().getDefiningOp<DequantizeOp>())
      continue;
    auto lhsType = cast<RankedTensorType>(mm.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(mm.getRhs().getType());
    if (lhsType.getRank() < 2 || rhsType.getRank() != 2 || !lhsType.getElementType().isF32() ||
        !rhsType.getElementType().isF32() || lhsType.getNumElements() == 0)
      continue;  // an empty product has no rows to reshape (K = 0 among them)
    // One value per column (or one for all): 1 on every axis but the last.
    Value c = add->getOperand(1 - i);
    auto cType = cast<RankedTensorType>(c.getType());
    int64_t n = type.getShape().back();
    std::optional<SmallVector<float>> values = f32ConstantValues(c);
    ArrayRef<int64_t> lead = cType.getShape();
    if (!lead.empty())
      lead = lead.drop_back();
    if (!values || cType.getRank() > type.getRank() ||
        llvm::any_of(lead, [](int64_t d) { return d != 1; }) ||
        (values->size() != 1 && int64_t(values->size()) != n))
      continue;
    if (values->size() == 1)
      values->assign(size_t(n), values->front());
    OpBuilder b(add);
    Location loc = b.getFusedLoc({mm.getLoc(), add.getLoc()});
    int64_t k = lhsType.getShape().back(), rows = lhsType.getNumElements() / k;
    auto f32 = [&](ArrayRef<int64_t> shape) { return RankedTensorType::get(shape, b.getF32Type()); };
    Value a = mm.getLhs();
    if (lhsType.getRank() != 2)
      a = ReshapeOp::create(b, mm.getLoc(), f32({rows, k}), a);
    Value bias = ConstantOp::create(b, c.getLoc(), f32({n}),
                                    DenseElementsAttr::get(f32({n}), ArrayRef<float>(*values)));
    Value y = GemmOp::create(b, loc, f32({rows, n}), a, mm.getRhs(), bias, b.getBoolAttr(false),
                             b.getBoolAttr(false), b.getF32FloatAttr(1.0f), b.getF32FloatAttr(1.0f));
    if (type.getRank() != 2)
      y = ReshapeOp::create(b, loc, type, y);
    add.getResult().replaceAllUsesWith(y);
    add.erase();
    mm.erase();
    return true;
  }
  return false;
}

/// Folds `mul` (an f32 convolution with constant weights, its only use,
/// times a per-channel constant) into the weights and bias: channel c's
/// weights and bias times s[c], each product in double rounded once to
/// f32. A product outside f32 leaves the Mul in place.
bool fold(MulOp mul) {
  for (unsigned i = 0; i < 2; ++i) {
    ConvOp conv = foldableConv(mul->getOperand(i), mul.getResult().getType());
    if (!conv)
      continue;
    ArrayRef<int64_t> shape = cast<RankedTensorType>(conv.getResult().getType()).getShape();
    std::optional<SmallVector<float>> s = perChannelValues(mul->getOperand(1 - i), shape);
    std::optional<SmallVector<float>> w = f32ConstantValues(conv.getW());
    std::optional<SmallVector<float>> bias = biasOf(conv, shape[1]);
    if (!s || !w || !bias)
      continue;
    auto scale = [&](int64_t c) { return double((*s)[size_t(c)]); };
    std::optional<SmallVector<float>> newW = scaleByChannel(*w, shape[1], scale, [](int64_t, int64_t, double) {});
    std::optional<SmallVector<float>> newB = scaleByChannel(*bias, shape[1], scale, [](int64_t, int64_t, double) {});
    if (!newW || !newB)
      continue;
    replaceWeights(conv, *newW);
    foldIntoConv(conv, *newB, mul.getLoc(), mul);
    return true;
  }
  return false;
}

/// Turns add(mul(x, s), b), s and b per-channel f32 constants and the Mul
/// used only there, into one graph.channel_affine; true when it did.
bool fuseAffine(AddOp add) {
  auto type = cast<RankedTensorType>(add.getResult().getType());
  if (!type.getElementType().isF32() || type.getRank() < 2)
    return false;
  for (unsigned i = 0; i < 2; ++i) {
    auto mul = add->getOperand(i).getDefiningOp<MulOp>();
    std::optional<SmallVector<float>> b = perChannelValues(add->getOperand(1 - i), type.getShape());
    if (!mul || !mul.getResult().hasOneUse() || mul.getResult().getType() != type || !b)
      continue;
    for (unsigned j = 0; j < 2; ++j) {
      Value x = mul->getOperand(j);
      std::optional<SmallVector<float>> s = perChannelValues(mul->getOperand(1 - j), type.getShape());
      if (x.getType() != type || !s)
        continue;
      OpBuilder builder(add);
      auto vecType = RankedTensorType::get({type.getShape()[1]}, builder.getF32Type());
      auto constant = [&](ArrayRef<float> v, Location loc) -> Value {
        return ConstantOp::create(builder, loc, vecType, DenseElementsAttr::get(vecType, v));
      };
      Value bias = constant(*b, add.getLoc()), scale = constant(*s, mul.getLoc());
      Value affine = ChannelAffineOp::create(builder, builder.getFusedLoc({mul.getLoc(), add.getLoc()}),
                                             type, x, scale, bias);
      add.getResult().replaceAllUsesWith(affine);
      add.erase();
      mul.erase();
      return true;
    }
  }
  return false;
}

struct GraphFoldBiasPass : npuc::graph::impl::GraphFoldBiasBase<GraphFoldBiasPass> {
  void runOnOperation() override {
    // Products first, so that a bias after them folds too.
    SmallVector<MulOp> muls;
    getOperation()->walk([&](MulOp op) { muls.push_back(op); });
    for (MulOp mul : muls)
      fold(mul);
    SmallVector<AddOp> adds;
    getOperation()->walk([&](AddOp op) { adds.push_back(op); });
    for (AddOp add : adds)
      if (!fold(add) && !foldIntoProduct(add))
        fuseAffine(add);
  }
};
} // namespace
