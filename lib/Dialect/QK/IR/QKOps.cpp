//===- QKOps.cpp - Verifiers of quantized kernels -------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/QK/IR/QKOps.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::qk;
namespace sh = npuc::graph::shapes;

namespace {
/// [min, max] of an integer storage type.
std::pair<int64_t, int64_t> storageRange(Type t) {
  auto i = cast<IntegerType>(t);
  return {quant::QuantizedType::getDefaultMinimumForInteger(!i.isUnsigned(), i.getWidth()),
          quant::QuantizedType::getDefaultMaximumForInteger(!i.isUnsigned(), i.getWidth())};
}

Type elementOf(Value v) { return cast<RankedTensorType>(v.getType()).getElementType(); }
ArrayRef<int64_t> shapeOf(Value v) { return cast<RankedTensorType>(v.getType()).getShape(); }

LogicalResult checkInRange(Operation *op, StringRef what, int64_t v, Type storage) {
  auto [lo, hi] = storageRange(storage);
  if (v >= lo && v <= hi)
    return success();
  return op->emitOpError() << what << " " << v << " is outside the range [" << lo << ", " << hi
                           << "] of " << storage;
}

/// The requantization must produce the result's storage type and have one
/// entry per index of `channelAxis` (size `channels`) when per channel.
LogicalResult verifyRequant(Operation *op, RequantAttr rq, Value result, int64_t channelAxis,
                            int64_t channels) {
  bool wide = elementOf(result).isSignlessInteger(32);
  if (!rq || wide) {
    if (!rq && wide)
      return success();
    return op->emitOpError() << (rq ? "an i32 result takes no requant"
                                    : "an 8-bit result needs a requant");
  }
  if (rq.isPerChannel() &&
      (rq.getAxis() != channelAxis || int64_t(rq.getNumChannels()) != channels))
    return op->emitOpError() << "per-channel requant has " << rq.getNumChannels()
                             << " entries along axis " << rq.getAxis() << ", expected "
                             << channels << " along axis " << channelAxis;
  Type storage = elementOf(result);
  if (failed(checkInRange(op, "requant zero point", rq.getZp(), storage)) ||
      failed(checkInRange(op, "clamp min", rq.getClampMin(), storage)) ||
      failed(checkInRange(op, "clamp max", rq.getClampMax(), storage)))
    return failure();
  return success();
}

LogicalResult verifyZeroPoints(Operation *op, StringRef what, ArrayRef<int64_t> zps,
                               int64_t channels, Type storage) {
  if (zps.size() != 1 && int64_t(zps.size()) != channels)
    return op->emitOpError() << what << " has " << zps.size() << " entries, expected 1 or "
                             << channels;
  for (int64_t zp : zps)
    if (failed(checkInRange(op, what, zp, storage)))
      return failure();
  return success();
}

LogicalResult verifyAccumulator(Operation *op, Type acc) {
  if (acc.isSignlessInteger(32))
    return success();
  return op->emitOpError() << "accumulator type " << acc
                           << " is not supported for integer kernels (expected i32)";
}

LogicalResult verifyBias(Operation *op, Value bias, int64_t channels) {
  if (bias && shapeOf(bias) != ArrayRef<int64_t>{channels})
    return op->emitOpError() << "bias shape " << sh::str(shapeOf(bias)) << " does not match "
                             << "the expected " << channels;
  return success();
}
} // namespace

LogicalResult Conv2DOp::verify() {
  ArrayRef<int64_t> in = shapeOf(getInput()), w = shapeOf(getWeight());
  if (in.size() != 4 || w.size() != 4)
    return emitOpError() << "input and weight must have rank 4, got " << in.size() << " and "
                         << w.size();
  int64_t channels = in[1];
  SmallVector<int64_t> spatial{in[2], in[3]};
  int64_t groups = getGroups();
  if (groups < 1 || w[1] * groups != channels || w[0] % groups != 0)
    return emitOpError() << "input has " << channels << " channels and weight " << sh::str(w)
                         << ", which does not fit groups = " << groups;
  sh::WindowParams p{w.drop_front(2), getStrides(), getPads(), getDilations(), false};
  auto out = sh::window(spatial, p);
  if (!out)
    return emitOpError(llvm::toString(out.takeError()));
  SmallVector<int64_t> want{in[0], w[0], (*out)[0], (*out)[1]};
  if (shapeOf(getResult()) != ArrayRef<int64_t>(want))
    return emitOpError() << "result shape " << sh::str(shapeOf(getResult()))
                         << " does not match the expected " << sh::str(want);
  if (failed(verifyBias(*this, getBias(), w[0])))
    return failure();
  return verifyContract();
}

/// The integer form's zero points, accumulator and requantization, or the
/// float form's types, accumulator and activation.
LogicalResult Conv2DOp::verifyContract() {
  Type xt = elementOf(getInput()), wt = elementOf(getWeight()), yt = elementOf(getResult());
  Type bt = getBias() ? elementOf(getBias()) : Type();
  int64_t channels = shapeOf(getWeight())[0];
  if (isa<FloatType>(xt) || isa<FloatType>(wt)) {
    if (xt != wt || !(yt == xt || (xt.isF16() && yt.isF32())))
      return emitOpError() << "a float convolution takes input and weight of one float type and "
                              "gives that type (or f32 of f16 operands), got "
                           << xt << " x " << wt << " -> " << yt;
    if (bt && !bt.isF32())
      return emitOpError() << "a float convolution's bias is f32, not " << bt;
    if (getInputZpAttr() || getWeightZpAttr() || getRequantAttr())
      return emitOpError("a float convolution has no zero points or requantization");
    if (!getAccType().isF32())
      return emitOpError() << "accumulator type " << getAccType()
                           << " is not supported for float convolutions (expected f32)";
    bool clip = getActivation() == FusedActivation::Clip;
    if (!clip && (getActivationMinAttr() || getActivationMaxAttr()))
      return emitOpError("activation bounds belong to a clip");
    return success();
  }
  if (!isa<IntegerType>(yt) || (bt && !bt.isSignlessInteger(32)))
    return emitOpError() << "an integer convolution gives integers from an i32 bias, not " << yt;
  if (!getInputZpAttr() || !getWeightZpAttr())
    return emitOpError("an integer convolution states its zero points (input_zp, weight_zp)");
  if (getActivationAttr() || getActivationMinAttr() || getActivationMaxAttr())
    return emitOpError("an integer convolution clamps in its requantization, not by an activation");
  if (failed(checkInRange(*this, "input zero point", int64_t(*getInputZp()), xt)) ||
      failed(verifyZeroPoints(*this, "weight zero point", *getWeightZp(), channels, wt)) ||
      failed(verifyAccumulator(*this, getAccType())))
    return failure();
  return verifyRequant(*this, getRequantAttr(), getResult(), 1, channels);
}

/// The float form: graph.matmul's shapes (its verifier: batch dimensions
/// broadcast as ONNX's; the lowering refuses the ones it does not lower at
/// the node), no integer contract, f32 accumulation.
LogicalResult MatMulOp::verifyFloat() {
  Type lt = elementOf(getLhs()), rt = elementOf(getRhs()), yt = elementOf(getResult());
  if (lt != rt || !(yt == lt || (lt.isF16() && yt.isF32())))
    return emitOpError() << "a float product takes operands of one float type and gives that "
                            "type (or f32 of f16 operands), got "
                         << lt << " x " << rt << " -> " << yt;
  if (getLhsZpAttr() || getRhsZpAttr() || getRequantAttr())
    return emitOpError("a float product has no zero points or requantization");
  if (getBias() && !elementOf(getBias()).isF32())
    return emitOpError() << "a float product's addend is f32, not " << elementOf(getBias());
  if (!getAccType().isF32())
    return emitOpError() << "accumulator type " << getAccType()
                         << " is not supported for float products (expected f32)";
  // Gemm's shapes (2-D, transposes, the addend broadcast) or MatMul's.
  return isGemm() ? graph::verifyGemm(*this) : graph::verifyMatMul(*this);
}

LogicalResult MatMulOp::verify() {
  if (isa<FloatType>(elementOf(getLhs())) || isa<FloatType>(elementOf(getRhs())))
    return verifyFloat();
  ArrayRef<int64_t> a = shapeOf(getLhs()), b = shapeOf(getRhs());
  if (a.size() < 2 || b.size() < 2 || (a.size() > 2 && b.size() > 2 && b.size() != a.size()))
    return emitOpError() << "lhs and rhs must have rank >= 2, and the same rank when both have "
                            "batch dimensions, got "
                         << a.size() << " and " << b.size();
  if (a.size() > 2 && b.size() > 2 && a.drop_back(2) != b.drop_back(2))
    return emitOpError() << "batch dimensions differ: " << sh::str(a) << " x " << sh::str(b);
  if (a.back() != b[b.size() - 2])
    return emitOpError() << "contraction dimensions differ: " << sh::str(a) << " x "
                         << sh::str(b);
  // [batch..., M, N], the batch dimensions of whichever operand has them.
  SmallVector<int64_t> want(a.size() >= b.size() ? a.begin() : b.begin(),
                            a.size() >= b.size() ? a.end() : b.end());
  want[want.size() - 2] = a[a.size() - 2];
  want.back() = b.back();
  b = b.take_back(2);
  if (shapeOf(getResult()) != ArrayRef<int64_t>(want))
    return emitOpError() << "result shape " << sh::str(shapeOf(getResult()))
                         << " does not match the expected " << sh::str(want);
  Type lt = elementOf(getLhs()), rt = elementOf(getRhs()), yt = elementOf(getResult());
  if (!isa<IntegerType>(yt))
    return emitOpError() << "an integer product gives integers, not " << yt;
  if (!getLhsZpAttr() || !getRhsZpAttr())
    return emitOpError("an integer product states its zero points (lhs_zp, rhs_zp)");
  if (getTransAAttr() || getTransBAttr() || getAlphaAttr() || getBetaAttr())
    return emitOpError("an integer product has no transposes or scales (Gemm's are float)");
  if (getBias() && !elementOf(getBias()).isSignlessInteger(32))
    return emitOpError() << "an integer product's bias is i32, not " << elementOf(getBias());
  if (failed(verifyBias(*this, getBias(), b[1])) ||
      failed(checkInRange(*this, "lhs zero point", int64_t(*getLhsZp()), lt)) ||
      failed(verifyZeroPoints(*this, "rhs zero point", *getRhsZp(), b[1], rt)) ||
      failed(verifyAccumulator(*this, getAccType())))
    return failure();
  // Per-channel requantization follows the weights: the result's columns
  // (rhs weights) or its rows (lhs weights, axis rank - 2).
  RequantAttr rq = getRequantAttr();
  int64_t rank = int64_t(want.size());
  if (rq && rq.isPerChannel() && rq.getAxis() == rank - 2)
    return verifyRequant(*this, rq, getResult(), rank - 2, a[a.size() - 2]);
  return verifyRequant(*this, rq, getResult(), rank - 1, b[1]);
}

#define GET_OP_CLASSES
#include "npuc/Dialect/QK/IR/QKOps.cpp.inc"

/// Requantizing from `in` to `out` (8-bit, per tensor) moves every value by
/// exactly 128 between uint8 and int8 at one scale: then
/// saturate(round(x - zp_in) + zp_out) is x with its top bit flipped, for
/// every x (no value saturates, no rounding happens).
bool RequantizeOp::flipsTopBit(Type in, Type out) {
  auto a = dyn_cast<quant::UniformQuantizedType>(in), b = dyn_cast<quant::UniformQuantizedType>(out);
  if (!a || !b || a.getScale() != b.getScale() || a.getStorageTypeIntegralWidth() != 8 ||
      b.getStorageTypeIntegralWidth() != 8 || a.isSigned() == b.isSigned())
    return false;
  return b.getZeroPoint() - a.getZeroPoint() == (a.isSigned() ? 128 : -128);
}

LogicalResult RequantizeOp::verify() {
  if (shapeOf(getInput()) != shapeOf(getResult()))
    return emitOpError() << "result shape " << sh::str(shapeOf(getResult()))
                         << " differs from the input's " << sh::str(shapeOf(getInput()));
  if (getForm() == RequantizeForm::TopBit &&
      !flipsTopBit(elementOf(getInput()), elementOf(getResult())))
    return emitOpError() << "form top_bit needs per-tensor 8-bit types of one scale, opposite "
                            "signedness and zero points 128 apart, got "
                         << elementOf(getInput()) << " -> " << elementOf(getResult());
  return success();
}

namespace {
/// The result of an elementwise kernel of two operands has their
/// (multidirectional) broadcast shape.
LogicalResult verifyBroadcastResult(Operation *op, Value lhs, Value rhs, Value result) {
  auto shape = sh::broadcast(shapeOf(lhs), shapeOf(rhs));
  if (!shape) {
    llvm::consumeError(shape.takeError());
    return op->emitOpError() << "operand shapes " << sh::str(shapeOf(lhs)) << " and "
                             << sh::str(shapeOf(rhs)) << " do not broadcast";
  }
  if (ArrayRef<int64_t>(*shape) != shapeOf(result))
    return op->emitOpError() << "result shape " << sh::str(shapeOf(result))
                             << " is not the operands' broadcast shape " << sh::str(*shape);
  return success();
}
} // namespace

LogicalResult BinaryOp::verify() {
  return verifyBroadcastResult(*this, getLhs(), getRhs(), getResult());
}

LogicalResult CompareOp::verify() {
  if (!elementOf(getResult()).isInteger(1))
    return emitOpError() << "result elements are " << elementOf(getResult()) << ", expected i1";
  return verifyBroadcastResult(*this, getLhs(), getRhs(), getResult());
}

LogicalResult MapOp::verify() {
  if (shapeOf(getInput()) != shapeOf(getResult()))
    return emitOpError() << "result shape " << sh::str(shapeOf(getResult()))
                         << " differs from the input's " << sh::str(shapeOf(getInput()));
  return success();
}

/// graph.max_pool's and average_pool's window attributes, by the same names:
/// graph::verifyPool checks the result shape against the window for both.
LogicalResult PoolOp::verify() {
  if (getCountIncludePad() && getFn() != PoolFn::AVERAGE)
    return emitOpError("count_include_pad is an average pooling's");
  return graph::verifyPool(*this);
}

/// The shape and axis rule of graph.softmax (graph::verifyAxisUnary).
LogicalResult SoftmaxOp::verify() { return graph::verifyAxisUnary(*this); }

/// The shape rule of graph.argmax (graph::verifyArgReduce: axis, keepdims).
/// graph.reduce_*'s operand and attributes (axes, keepdims): their verifier
/// states the shapes once for both. The steps around the reduction belong
/// to a SUM, and exp(x - max) comes with the log + max that undoes it.
LogicalResult ReduceOp::verify() {
  if (getFn() != ReduceFn::SUM && (getPre() != ReducePre::None || getPost() != ReducePost::None))
    return emitOpError() << "fn " << stringifyReduceFn(getFn()) << " takes no step before or "
                         << "after it, got pre " << stringifyReducePre(getPre()) << " and post "
                         << stringifyReducePost(getPost());
  if ((getPre() == ReducePre::ShiftedExp) != (getPost() == ReducePost::LogPlusMax))
    return emitOpError() << "pre shifted_exp and post log_plus_max come together, got pre "
                         << stringifyReducePre(getPre()) << " and post "
                         << stringifyReducePost(getPost());
  return graph::verifyReduce(*this);
}

/// The maps through f32 and PRelu and Pow take the graph ops' operands and
/// attributes by the same names: the graph verifiers state their shapes.
LogicalResult ClipOp::verify() { return graph::verifyClip(*this); }
LogicalResult LeakyReluOp::verify() { return graph::verifySameShapeUnary(*this); }
LogicalResult HardSigmoidOp::verify() { return graph::verifySameShapeUnary(*this); }
LogicalResult HardSwishOp::verify() { return graph::verifySameShapeUnary(*this); }
LogicalResult GeluOp::verify() { return graph::verifySameShapeUnary(*this); }
LogicalResult PReluOp::verify() { return graph::verifyBroadcastBinary(*this); }
LogicalResult PowOp::verify() { return graph::verifyPow(*this); }

/// A view between a quantized and a plain type is a storage cast, any other
/// a reshape: the graph op's verifier of each.
LogicalResult ViewOp::verify() {
  bool quantizedIn = isa<quant::QuantizedType>(elementOf(getInput()));
  bool quantizedOut = isa<quant::QuantizedType>(elementOf(getResult()));
  if (quantizedIn != quantizedOut)
    return graph::verifyStorageCast(*this);
  // Two plain types: graph.bitcast's rule (and its shape).
  if (!quantizedIn && elementOf(getInput()) != elementOf(getResult()))
    return graph::verifyBitcast(*this);
  return graph::verifyReshape(*this);
}

/// graph.conv_transpose's operands and attributes, by the same names.
LogicalResult ConvTransposeOp::verify() { return graph::verifyConvTranspose(*this); }

/// graph.quantize's and graph.dequantize's operand and result: their
/// verifier states the shape and type rules once for both dialects.
LogicalResult QuantizeOp::verify() { return graph::verifyQuantize(*this); }
LogicalResult DequantizeOp::verify() { return graph::verifyDequantize(*this); }

LogicalResult ArgReduceOp::verify() {
  if (getFn() == ReduceFn::SUM)
    return emitOpError("fn SUM selects no element; an arg reduction is MAX or MIN");
  return graph::verifyArgReduce(*this);
}

/// The operands, attributes and results of graph.layer_norm, in its order:
/// its verifier states the shapes once for both.
LogicalResult LayerNormOp::verify() { return graph::verifyLayerNorm(*this); }

/// graph.batch_norm's and graph.channel_affine's operands and attributes, in
/// their order: their verifiers state the shapes once for both dialects.
LogicalResult BatchNormOp::verify() { return graph::verifyBatchNorm(*this); }
LogicalResult ChannelAffineOp::verify() { return graph::verifyChannelAffine(*this); }

/// graph.where's and graph.cast's operands in their order: one verifier each
/// for both dialects.
LogicalResult SelectOp::verify() { return graph::verifyWhere(*this); }
LogicalResult CastOp::verify() { return graph::verifyCast(*this); }

/// Each piece's maps have a coordinate per dimension and keep inside the
/// tensors (the maps are non-negative and linear: the last index of the box
/// reaches the farthest element); the pieces write as many elements as the
/// result holds.
LogicalResult GatherOp::verify() {
  ArrayRef<int64_t> ds = shapeOf(getData()), is = shapeOf(getIndices()), rs = shapeOf(getResult());
  int64_t axis = getAxis(), rank = int64_t(ds.size());
  if (axis < 0 || axis >= rank)
    return emitOpError() << "axis " << axis << " is outside [0, " << rank << ")";
  auto it = dyn_cast<IntegerType>(cast<ShapedType>(getIndices().getType()).getElementType());
  if (!it || !it.isSignless() || (it.getWidth() != 32 && it.getWidth() != 64))
    return emitOpError("indices must be i32 or i64");
  SmallVector<int64_t> want(ds.begin(), ds.begin() + axis);
  want.append(is.begin(), is.end());
  want.append(ds.begin() + axis + 1, ds.end());
  if (ArrayRef<int64_t>(want) != rs)
    return emitOpError() << "result shape " << graph::shapes::str(rs) << " is not "
                         << graph::shapes::str(want) << " (data before the axis, the indices, data after it)";
  if (cast<ShapedType>(getData().getType()).getElementType() != cast<ShapedType>(getResult().getType()).getElementType())
    return emitOpError("moves elements unchanged: data and result types must agree");
  return success();
}

LogicalResult ScatterOp::verify() {
  StringRef red = getReduction();
  if (red != "none" && red != "add" && red != "max" && red != "min")
    return emitOpError() << "reduction '" << red << "' is not none, add, max or min";
  ArrayRef<int64_t> ds = shapeOf(getData()), is = shapeOf(getIndices()), us = shapeOf(getUpdates());
  auto it = dyn_cast<IntegerType>(cast<ShapedType>(getIndices().getType()).getElementType());
  if (!it || !it.isSignless() || (it.getWidth() != 32 && it.getWidth() != 64) || is.empty() || is.back() != 1)
    return emitOpError("indices must be i32 or i64 [..., 1]");
  if (ds.empty())
    return emitOpError("data must have rows");
  SmallVector<int64_t> want(is.begin(), is.end() - 1);
  want.append(ds.begin() + 1, ds.end());
  if (ArrayRef<int64_t>(want) != us)
    return emitOpError() << "updates shape " << graph::shapes::str(us) << " is not " << graph::shapes::str(want);
  Type el = cast<ShapedType>(getData().getType()).getElementType();
  if (cast<ShapedType>(getUpdates().getType()).getElementType() != el ||
      cast<ShapedType>(getResult().getType()).getElementType() != el || shapeOf(getResult()) != ds)
    return emitOpError("data, updates and result must share the element type, data and result the shape");
  return success();
}

LogicalResult CopyOp::verify() {
  if (getPieces().empty())
    return emitOpError("needs at least one piece");
  int64_t written = 0;
  for (auto [i, a] : llvm::enumerate(getPieces())) {
    auto piece = cast<AddressPlanAttr>(a);
    for (auto [what, map, shape] :
         {std::tuple<StringRef, AffineMap, ArrayRef<int64_t>>{"source", piece.getSource(), shapeOf(getInput())},
          {"dest", piece.getDest(), shapeOf(getResult())}}) {
      if (map.getNumResults() != shape.size())
        return emitOpError() << "piece " << i << "'s " << what << " map has "
                             << map.getNumResults() << " coordinates for a tensor of rank "
                             << shape.size();
      SmallVector<int64_t> last;
      for (int64_t n : piece.getShape())
        last.push_back(n - 1);
      SmallVector<int64_t> far = map.compose(last);
      for (size_t k = 0; k < far.size(); ++k)
        if (far[k] >= shape[k])
          return emitOpError() << "piece " << i << "'s " << what << " reaches index " << far[k]
                               << " of dimension " << k << ", which has " << shape[k];
    }
    written += piece.getNumElements();
  }
  int64_t n = cast<RankedTensorType>(getResult().getType()).getNumElements();
  if (written != n)
    return emitOpError() << "pieces write " << written << " elements; the result has " << n;
  return success();
}

LogicalResult ConcatOp::verify() { return graph::verifyConcat(*this); }

/// The type `fill` must have for a result of element type `element`: a
/// quantized type's storage integer (signed or unsigned, as the type is),
/// otherwise the element type itself.
static Type fillTypeOf(Type element) {
  if (auto q = dyn_cast<quant::QuantizedType>(element))
    return IntegerType::get(element.getContext(), q.getStorageTypeIntegralWidth(),
                            q.isSigned() ? IntegerType::Signless : IntegerType::Unsigned);
  return element;
}

LogicalResult PadOp::verify() {
  ArrayRef<int64_t> in = shapeOf(getInput()), out = shapeOf(getResult());
  ArrayRef<int64_t> low = getLow(), high = getHigh();
  if (low.size() != in.size() || high.size() != in.size())
    return emitOpError() << "low and high need one count per axis (" << in.size() << "), not "
                         << low.size() << " and " << high.size();
  for (size_t k = 0; k < in.size(); ++k)
    if (out[k] != in[k] + low[k] + high[k])
      return emitOpError() << "result axis " << k << " has " << out[k] << " elements, expected "
                           << in[k] << " + " << low[k] << " + " << high[k];
  Type element = elementOf(getResult());
  if (auto q = dyn_cast<quant::QuantizedType>(element); q && !isa<quant::UniformQuantizedType>(q))
    return emitOpError() << "pads a tensor of " << element << "; a quantized pad is per tensor";
  Type want = fillTypeOf(element);
  if (getFill().getType() != want)
    return emitOpError() << "fill has type " << getFill().getType() << ", expected " << want;
  if (!isa<IntegerAttr, FloatAttr>(getFill()))
    return emitOpError("fill is not an integer or a float");
  auto q = dyn_cast<quant::QuantizedType>(element);
  if (!q)
    return success();
  const APInt &v = cast<IntegerAttr>(getFill()).getValue();
  int64_t fill = q.isSigned() ? v.getSExtValue() : int64_t(v.getZExtValue());
  if (fill < q.getStorageTypeMin() || fill > q.getStorageTypeMax())
    return emitOpError() << "fill " << fill << " is outside [" << q.getStorageTypeMin() << ", "
                         << q.getStorageTypeMax() << "], the stored range of " << element;
  return success();
}
