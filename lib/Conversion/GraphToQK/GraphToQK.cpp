//===- GraphToQK.cpp - Quantized graph ops to qk kernels ------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The scale ledger and the value ledger of integer kernels (contract N5):
//   accumulator scale[c] = input scale * weight scale[c]
//   requantization multiplier[c] = accumulator scale[c] / output scale
// derived in double precision and encoded as V_REQUANT's (Q31 multiplier,
// left shift, right shift); and
//   K * max|x - x_zp| * max|w - w_zp| + max|bias| <= INT32_MAX
// for the real contraction length K. Violations are errors at the op.
//
// One OpConversionPattern per kernel (ConvToKernel, MatMulToKernel,
// DequantizedMatMulToKernel, RequantizeToKernel) under the dialect-conversion driver; the
// ConversionTarget (kernelTarget) says which graph ops they rewrite. The
// other families' patterns are in their own files (Patterns.h).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "npuc/Conversion/Passes.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"
#include "npuc/Dialect/QK/IR/QKOps.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

namespace npuc {
#define GEN_PASS_DEF_CONVERTGRAPHTOQK
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

using namespace mlir;
using namespace npuc;

namespace {
/// Scales and zero points of a quantized tensor type, one entry per channel of
/// `axis` (or a single entry per tensor), with its storage range and type.
struct QuantParams : graph::QuantParameters {
  int64_t qmin = 0, qmax = 0;
  Type plain;  // the integer tensor element that stores it
};

std::optional<QuantParams> paramsOf(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  auto q = dyn_cast<quant::QuantizedType>(type.getElementType());
  std::optional<graph::QuantParameters> parameters = graph::quantParameters(type.getElementType());
  if (!q || !parameters)
    return std::nullopt;
  QuantParams p;
  static_cast<graph::QuantParameters &>(p) = std::move(*parameters);
  p.qmin = q.getStorageTypeMin();
  p.qmax = q.getStorageTypeMax();
  unsigned width = q.getStorageTypeIntegralWidth();
  p.plain = q.isSigned() ? Type(IntegerType::get(v.getContext(), width))
                         : Type(IntegerType::get(v.getContext(), width, IntegerType::Unsigned));
  return p;
}

/// Largest |q - zp| a value of these parameters can take.
int64_t maxMagnitude(const QuantParams &p) {
  int64_t m = 0;
  for (int64_t zp : p.zeroPoints)
    m = std::max({m, zp - p.qmin, p.qmax - zp});
  return m;
}

/// A quantized Relu or Clip that is the only user of `result` and keeps its
/// type narrows the requantization clamp instead of running separately:
/// q = zp + round_half_even(bound / scale), within the storage range. This is
/// exactly Quantize(Clip(x)) for every x (contract L10).
Operation *foldableActivation(Value result, const QuantParams &y, int64_t &lo, int64_t &hi) {
  lo = y.qmin;
  hi = y.qmax;
  if (!result.hasOneUse())
    return nullptr;
  Operation *user = *result.getUsers().begin();
  if (!isa<graph::ReluOp, graph::ClipOp>(user) || user->getResult(0).getType() != result.getType())
    return nullptr;
  double scale = y.scales[0];
  int64_t zp = y.zeroPoints[0];
  auto quantizeBound = [&](double real) {
    // Default rounding: half to even. Bounds past the storage range (even
    // infinite ones) saturate one step outside it; NaN lands below it, so a
    // NaN bound is never folded.
    double q = std::nearbyint(real / scale) + double(zp);
    if (q > double(y.qmax) + 1)
      return y.qmax + 1;
    return q >= double(y.qmin) - 1 ? int64_t(q) : y.qmin - 1;
  };
  if (isa<graph::ReluOp>(user)) {
    lo = std::max(lo, zp);
  } else {
    auto clip = cast<graph::ClipOp>(user);
    if (FloatAttr m = clip.getMinAttr())
      lo = std::max(lo, quantizeBound(m.getValueAsDouble()));
    if (FloatAttr m = clip.getMaxAttr())
      hi = std::min(hi, quantizeBound(m.getValueAsDouble()));
  }
  if (lo > hi)
    return nullptr;
  return user;
}

/// Folds a following Relu/Clip into `rq`'s clamp; returns that activation.
Operation *foldActivation(Value result, const QuantParams &y, qk::RequantAttr &rq) {
  int64_t lo, hi;
  if (!rq)
    return nullptr;  // an int32 accumulator result has no clamp to fold into
  Operation *activation = foldableActivation(result, y, lo, hi);
  if (activation)
    rq = qk::RequantAttr::get(rq.getContext(), rq.getMultiplier(), rq.getLshift(), rq.getRshift(),
                              rq.getZp(), lo, hi, rq.getAxis(), rq.getRounding());
  return activation;
}

/// Where a kernel replacing `op` (and `activation` folded into it) stands:
/// at both nodes (TensorNames.h), the result being the activation's output.
Location kernelLoc(OpBuilder &b, Operation *op, Operation *activation) {
  return activation ? b.getFusedLoc({op->getLoc(), activation->getLoc()}) : op->getLoc();
}

/// Replaces `op` (and the activation folded into the kernel) with the
/// kernel's integer result seen again as `op`'s quantized type: that view is
/// the node's output, the kernel itself is located without the names.
void replaceWithKernel(ConversionPatternRewriter &rewriter, Operation *op, Operation *activation,
                       Value kernelResult) {
  Location loc = kernelLoc(rewriter, op, activation);
  kernelResult.getDefiningOp()->setLoc(graph::withoutTensorNames(loc));
  Value back = graph::StorageCastOp::create(rewriter, loc, op->getResult(0).getType(), kernelResult);
  if (activation)
    rewriter.replaceOp(activation, back);
  rewriter.replaceOp(op, back);
}

/// `v` seen as its storage type, an operand view located at the node (no
/// tensor name: it is not the node's output).
Value storageView(OpBuilder &b, Location loc, Value v, Type element) {
  auto type = RankedTensorType::get(cast<RankedTensorType>(v.getType()).getShape(), element);
  return graph::StorageCastOp::create(b, graph::withoutTensorNames(loc), type, v);
}

/// The requantization of `channels` output channels: a per-channel
/// attribute along `channelAxis`, or per tensor when every weight shares one scale.
/// An int32 result is the accumulator itself (ConvInteger, MatMulInteger):
/// no requantization (a null attribute), but its scale must be the
/// accumulator's, input scale x weight scale, with zero point 0.
///
/// The shifts keep as many fractional bits as the accumulator allows: the
/// high multiply rounds once to an integer that carries rs fractional bits of
/// the result, and the final shift rounds again, so a small rs misrounds
/// values near a half step (with rs = 8, 187.4983 became 187.5 and then 188).
/// Both shifts grow by the same amount, as far as |acc| << ls stays inside
/// int32 for the value ledger's bound `accBound` (so SaturatingLeftShift never
/// saturates) and both stay in [0, 31].
FailureOr<qk::RequantAttr> ledger(Operation *op, const QuantParams &x, const QuantParams &w,
                                  const QuantParams &y, int64_t channels, int64_t channelAxis,
                                  ArrayRef<double> accBounds) {
  if (x.scales.size() != 1 || y.scales.size() != 1)
    return op->emitOpError("needs per-tensor quantization of the input and the result"), failure();
  if (y.plain.isSignlessInteger(32)) {
    for (size_t c = 0; c < w.scales.size(); ++c) {
      double want = x.scales[0] * w.scales[c];
      if (std::fabs(y.scales[0] - want) > 1e-6 * want || y.zeroPoints[0] != 0)
        return op->emitOpError() << "an int32 result must be the accumulator: scale " << want
                                 << " and zero point 0, got " << y.scales[0] << " and "
                                 << y.zeroPoints[0],
               failure();
    }
    return qk::RequantAttr();
  }
  SmallVector<int64_t> mult, ls, rs;
  for (int64_t c = 0; c < (w.scales.size() == 1 ? 1 : channels); ++c) {
    double real = x.scales[0] * w.scales[size_t(c)] / y.scales[0];
    int32_t m;
    int l, r;
    if (!num::quantizeMultiplier(real, m, l, r)) {
      int exponent;
      std::frexp(real, &exponent);
      return op->emitOpError() << "cannot requantize output channel " << c
                               << ": the multiplier input scale * weight scale / output scale = "
                               << real << " needs a " << (exponent < 0 ? "right" : "left")
                               << " shift of " << std::abs(exponent)
                               << "; V_REQUANT's shifts are in [0, 31]",
             failure();
    }
    // Per tensor: the largest bound of any channel.
    double accBound = w.scales.size() == 1 ? *llvm::max_element(accBounds) : accBounds[size_t(c)];
    int extra = 0;
    while (extra < 31 - std::max(l, r) && accBound * std::ldexp(1.0, l + extra + 1) <= double(INT32_MAX))
      ++extra;
    mult.push_back(m);
    ls.push_back(l + extra);
    rs.push_back(r + extra);
  }
  int64_t axis = w.scales.size() == 1 ? -1 : channelAxis;
  return qk::RequantAttr::get(op->getContext(), mult, ls, rs, y.zeroPoints[0], y.qmin, y.qmax,
                              axis, qk::Rounding::HalfAwayFromZero);
}

/// The kernel's int32 bias at the accumulator scale (input scale x weight
/// scale[c], zero point 0): the bias itself when it is already that; a
/// constant float bias, or a constant quantized one at another scale or zero
/// point, requantized at compile time, q = round_half_even(real / acc scale[c])
/// (an error of at most half an accumulator step, docs/numerics.md); null
/// without a bias. Anything else, or a value past int32, is an error at the op.
FailureOr<Value> accumulatorBias(OpBuilder &b, Operation *op, Value bias, const QuantParams &x,
                                 const QuantParams &w, int64_t channels) {
  if (!bias)
    return Value();
  auto at = [](const auto &v, size_t c) { return v[v.size() == 1 ? 0 : c]; };
  std::optional<QuantParams> q = paramsOf(bias);
  bool atAccScale = q && q->plain == IntegerType::get(op->getContext(), 32);
  for (size_t c = 0; atAccScale && c < std::max(q->scales.size(), w.scales.size()); ++c) {
    double want = x.scales[0] * at(w.scales, c), have = at(q->scales, c);
    atAccScale = std::fabs(have - want) <= 1e-6 * want && at(q->zeroPoints, c) == 0;
  }
  Location loc = graph::withoutTensorNames(op->getLoc());
  auto type = RankedTensorType::get({channels}, b.getIntegerType(32));
  if (atAccScale)
    return Value(graph::StorageCastOp::create(b, loc, type, bias));
  auto c = bias.getDefiningOp<graph::ConstantOp>();
  auto dense = c ? dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
  if (!dense || (!q && !isa<FloatType>(dense.getElementType())) || dense.getNumElements() != channels)
    return op->emitOpError("needs a constant bias, or an int32 bias quantized at the accumulator "
                           "scale (input scale x weight scale)"),
           failure();
  SmallVector<int32_t> values;
  for (int64_t ch = 0; ch < channels; ++ch) {
    double real;
    if (q) {
      APInt v = dense.getValues<APInt>()[ch];
      int64_t stored = q->plain.isUnsignedInteger() ? int64_t(v.getZExtValue()) : v.getSExtValue();
      real = double(stored - at(q->zeroPoints, size_t(ch))) * at(q->scales, size_t(ch));
    } else {
      real = dense.getValues<APFloat>()[ch].convertToDouble();
    }
    double acc = std::nearbyint(real / (x.scales[0] * at(w.scales, size_t(ch))));
    if (!(std::fabs(acc) <= double(INT32_MAX)))
      return op->emitOpError() << "bias channel " << ch << " = " << real
                               << " is outside int32 at the accumulator scale "
                               << x.scales[0] * at(w.scales, size_t(ch)),
             failure();
    values.push_back(int32_t(acc));
  }
  return Value(graph::ConstantOp::create(b, loc, type,
                                         DenseElementsAttr::get(type, ArrayRef<int32_t>(values))));
}

/// The value ledger, per output channel: the largest |accumulator|, i.e.
/// |x - zp_x| <= maxMagnitude(x) times sum_k |w - zp_w| (exact for constant
/// weights, K times their largest magnitude otherwise), plus |bias|.
/// `channelsLeading`: the weight is [channels, K...] (conv), else [..., K, channels].
SmallVector<double> accumulatorBounds(Value weight, const QuantParams &w, const QuantParams &x,
                                      int64_t k, int64_t channels, bool channelsLeading,
                                      Value bias) {
  SmallVector<double> bounds(size_t(channels),
                             double(k) * double(maxMagnitude(w)) * double(maxMagnitude(x)));
  auto zpOf = [&](int64_t c) { return w.zeroPoints[w.zeroPoints.size() == 1 ? 0 : size_t(c)]; };
  bool isUnsigned = w.plain.isUnsignedInteger();
  if (auto c = weight.getDefiningOp<graph::ConstantOp>())
    if (auto dense = dyn_cast<DenseIntElementsAttr>(c.getValue())) {
      SmallVector<double> sums(size_t(channels), 0.0);
      int64_t i = 0;
      auto add = [&](int64_t q) {
        int64_t ch = channelsLeading ? i / k : i % channels;
        sums[size_t(ch)] += double(std::abs(q - zpOf(ch)));
        ++i;
      };
      if (dense.getElementType().getIntOrFloatBitWidth() == 8 && !dense.isSplat()) {
        // Bytes as stored: a per-element APInt costs more than the sum.
        for (char byte : dense.getRawData())
          add(isUnsigned ? int64_t(uint8_t(byte)) : int64_t(int8_t(byte)));
      } else {
        for (const APInt &v : dense.getValues<APInt>())
          add(isUnsigned ? int64_t(v.getZExtValue()) : v.getSExtValue());
      }
      if (i == k * channels)
        for (int64_t ch = 0; ch < channels; ++ch)
          bounds[size_t(ch)] = sums[size_t(ch)] * double(maxMagnitude(x));
    }
  while (auto view = bias ? bias.getDefiningOp<graph::StorageCastOp>() : graph::StorageCastOp())
    bias = view.getInput();
  if (bias)
    if (auto c = bias.getDefiningOp<graph::ConstantOp>())
      if (auto dense = dyn_cast<DenseIntElementsAttr>(c.getValue());
          dense && (dense.isSplat() || dense.getNumElements() == channels)) {
        auto values = dense.getValues<APInt>();
        for (int64_t ch = 0; ch < channels; ++ch)
          bounds[size_t(ch)] +=
              std::fabs(double((dense.isSplat() ? values[0] : values[ch]).getSExtValue()));
      }
  return bounds;
}

LogicalResult checkValueLedger(Operation *op, ArrayRef<double> bounds, int64_t k) {
  for (auto [c, worst] : llvm::enumerate(bounds))
    if (worst > double(INT32_MAX))
      return op->emitOpError() << "the int32 accumulator of output channel " << c
                               << " may overflow: K = " << k << " products and the bias reach "
                               << worst << " > " << INT32_MAX,
             failure();
  return success();
}

/// Whether `op`'s operands and result are quantized: a kernel's inputs, not
/// an f32 op's.
bool quantizedOperands(Value x, Value w, Value y) {
  return paramsOf(x) && paramsOf(w) && paramsOf(y);
}

/// The patterns' shared state: an op a pattern reported an error at fails
/// the pass (a pattern's failure alone only means "not this pattern").
struct Reported {
  bool any = false;
  LogicalResult operator()(LogicalResult r) {
    any |= failed(r);
    return r;
  }
};

template <typename OpTy>
struct KernelPattern : OpConversionPattern<OpTy> {
  KernelPattern(MLIRContext *context, Reported &reported)
      : OpConversionPattern<OpTy>(context), reported(reported) {}
  Reported &reported;
};

/// A quantized graph.conv is a qk.conv2d with its ledgers; a Relu or Clip
/// after it narrows the requantization clamp.
struct ConvToKernel : KernelPattern<graph::ConvOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(graph::ConvOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    return reported(convert(op, rewriter));
  }

  static LogicalResult convert(graph::ConvOp op, ConversionPatternRewriter &rewriter) {
    auto x = paramsOf(op.getX()), w = paramsOf(op.getW()), y = paramsOf(op.getResult());
    auto xs = op.getX().getType().getShape(), ws = op.getW().getType().getShape();
    if (xs.size() != 4)
      return op.emitOpError("quantized convolution is supported for 2-D (NCHW) inputs");
    if (w->zeroPoints.size() > 1 && w->axis != 0)
      return op.emitOpError("weight quantization must be along the output channels (axis 0)");
    int64_t k = ws[1] * ws[2] * ws[3];
    FailureOr<Value> biasValue = accumulatorBias(rewriter, op, op.getBias(), *x, *w, ws[0]);
    if (failed(biasValue))
      return failure();
    SmallVector<double> bounds = accumulatorBounds(op.getW(), *w, *x, k, ws[0], true, *biasValue);
    if (failed(checkValueLedger(op, bounds, k)))
      return failure();
    FailureOr<qk::RequantAttr> rq = ledger(op, *x, *w, *y, ws[0], 1, bounds);
    if (failed(rq))
      return failure();
    Operation *activation = foldActivation(op.getResult(), *y, *rq);
    Location loc = op.getLoc();
    Value in = storageView(rewriter, loc, op.getX(), x->plain);
    Value weight = storageView(rewriter, loc, op.getW(), w->plain);
    auto resultType = RankedTensorType::get(op.getResult().getType().getShape(), y->plain);
    auto kernel = qk::Conv2DOp::create(
        rewriter, loc, resultType, in, weight, *biasValue, op.getStridesAttr(), op.getPadsAttr(),
        op.getDilationsAttr(), op.getGroupAttr(), rewriter.getI64IntegerAttr(x->zeroPoints[0]),
        rewriter.getDenseI64ArrayAttr(w->zeroPoints), TypeAttr::get(rewriter.getIntegerType(32)),
        *rq, /*activation=*/qk::FusedActivationAttr(), /*activation_min=*/FloatAttr(),
        /*activation_max=*/FloatAttr());
    replaceWithKernel(rewriter, op, activation, kernel.getResult());
    return success();
  }
};

/// A graph.matmul of quantized operands is a qk.matmul: weights on the
/// right per column, or on the left per row.
struct MatMulToKernel : KernelPattern<graph::MatMulOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(graph::MatMulOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!quantizedOperands(op.getLhs(), op.getRhs(), op.getResult()))
      return failure();
    return reported(convert(op, rewriter));
  }

  static LogicalResult convert(graph::MatMulOp op, ConversionPatternRewriter &rewriter) {
    auto a = paramsOf(op.getLhs()), w = paramsOf(op.getRhs()), y = paramsOf(op.getResult());
    auto as = op.getLhs().getType().getShape(), ws = op.getRhs().getType().getShape();
    // Equal batch dimensions, or one side 2-D (the weights of a batched
    // product: on the right, or on the left of a batched rhs).
    if (as.size() < 2 || ws.size() < 2 ||
        (as.size() > 2 && ws.size() > 2 && as.drop_back(2) != ws.drop_back(2)))
      return op.emitOpError() << "quantized matmul needs equal batch dimensions or a 2-D operand "
                                 "(no broadcasting batch), got shapes "
                              << graph::shapes::str(as) << " and " << graph::shapes::str(ws);
    FailureOr<qk::RequantAttr> rq;
    int64_t rank = op.getResult().getType().getRank();
    if (a->scales.size() > 1 && w->scales.size() == 1) {
      // Weights on the left, per output row: Y = W X is (X^T W^T)^T, so the
      // channel axis and the weight's identity move to the rows of the result.
      if (a->axis != int64_t(as.size()) - 2 || as.size() != 2)
        return op.emitOpError("a per-channel lhs must be a 2-D weight quantized along its rows");
      if (llvm::any_of(a->zeroPoints, [&](int64_t z) { return z != a->zeroPoints[0]; }))
        return op.emitOpError("per-row lhs zero points must agree (MATRIX subtracts one a_zp)");
      SmallVector<double> bounds =
          accumulatorBounds(op.getLhs(), *a, *w, as.back(), as[0], true, Value());
      if (failed(checkValueLedger(op, bounds, as.back())))
        return failure();
      rq = ledger(op, *w, *a, *y, as[0], rank - 2, bounds);
    } else {
      if (w->zeroPoints.size() > 1 && w->axis != int64_t(ws.size()) - 1)
        return op.emitOpError("rhs quantization must be along its columns (the last axis)");
      SmallVector<double> bounds =
          accumulatorBounds(op.getRhs(), *w, *a, as.back(), ws.back(), false, Value());
      if (failed(checkValueLedger(op, bounds, as.back())))
        return failure();
      rq = ledger(op, *a, *w, *y, ws.back(), rank - 1, bounds);
    }
    if (failed(rq))
      return failure();
    Operation *activation = foldActivation(op.getResult(), *y, *rq);
    Location loc = op.getLoc();
    auto resultType = RankedTensorType::get(op.getResult().getType().getShape(), y->plain);
    auto kernel = qk::MatMulOp::create(
        rewriter, loc, resultType, storageView(rewriter, loc, op.getLhs(), a->plain),
        storageView(rewriter, loc, op.getRhs(), w->plain), Value(),
        rewriter.getI64IntegerAttr(a->zeroPoints[0]), rewriter.getDenseI64ArrayAttr(w->zeroPoints),
        TypeAttr::get(rewriter.getIntegerType(32)), *rq, /*trans_a=*/BoolAttr(),
        /*trans_b=*/BoolAttr(), /*alpha=*/FloatAttr(), /*beta=*/FloatAttr());
    replaceWithKernel(rewriter, op, activation, kernel.getResult());
    return success();
  }
};

/// DequantizeLinear -> MatMul -> Add(bias) -> QuantizeLinear in f32, the
/// classifier pattern of exported QDQ models (graph-fuse-qdq leaves it, since
/// the Add sits between the MatMul and the Quantize): one integer qk.matmul
/// with its int32 bias, through the same ledgers as any quantized matmul. The
/// f32 path would dequantize the weights to 4 bytes each at run time.
struct DequantizedMatMulToKernel : KernelPattern<graph::MatMulOp> {
  using KernelPattern::KernelPattern;

  /// The ops of the pattern around a matmul.
  struct Chain {
    graph::DequantizeOp lhsDq, rhsDq, biasDq;
    graph::AddOp add;
    graph::QuantizeOp q;
    Value bias;  // biasDq's input, or the float constant
  };

  /// The chain around `op`, when its shapes and types are the pattern's.
  static std::optional<Chain> match(graph::MatMulOp op) {
    Chain c;
    c.lhsDq = op.getLhs().getDefiningOp<graph::DequantizeOp>();
    c.rhsDq = op.getRhs().getDefiningOp<graph::DequantizeOp>();
    if (!c.lhsDq || !c.rhsDq || !op.getResult().hasOneUse())
      return std::nullopt;
    c.add = dyn_cast<graph::AddOp>(*op.getResult().getUsers().begin());
    if (!c.add || !c.add.getResult().hasOneUse())
      return std::nullopt;
    // The bias: dequantized (at any scale), or a float constant.
    Value other = c.add.getLhs() == op.getResult() ? c.add.getRhs() : c.add.getLhs();
    c.biasDq = other.getDefiningOp<graph::DequantizeOp>();
    c.q = dyn_cast<graph::QuantizeOp>(*c.add.getResult().getUsers().begin());
    if ((!c.biasDq && !other.getDefiningOp<graph::ConstantOp>()) || !c.q ||
        c.add.getResult().getType() != op.getResult().getType())
      return std::nullopt;
    c.bias = c.biasDq ? c.biasDq.getInput() : other;
    Value a = c.lhsDq.getInput(), w = c.rhsDq.getInput();
    auto as = cast<RankedTensorType>(a.getType()).getShape();
    auto ws = cast<RankedTensorType>(w.getType()).getShape();
    auto bs = cast<RankedTensorType>(c.bias.getType()).getShape();
    auto pa = paramsOf(a), pw = paramsOf(w), py = paramsOf(c.q.getResult());
    if (!pa || !pw || !py || as.size() != 2 || ws.size() != 2 || bs != ArrayRef<int64_t>{ws[1]} ||
        pa->scales.size() != 1 || (pw->scales.size() > 1 && pw->axis != 1) ||
        !pa->plain.isInteger(8) || !pw->plain.isInteger(8) || !py->plain.isInteger(8) ||
        llvm::any_of(pw->zeroPoints, [&](int64_t z) { return z != pw->zeroPoints[0]; }))
      return std::nullopt;  // stays f32
    return c;
  }

  LogicalResult matchAndRewrite(graph::MatMulOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (quantizedOperands(op.getLhs(), op.getRhs(), op.getResult()))
      return failure();
    std::optional<Chain> c = match(op);
    if (!c)
      return failure();
    // A float bias is the model's own f32 Add: when it has no int32 at the
    // accumulator scale (or the ledgers refuse), the ops stay f32 as written,
    // and nothing is reported. A dequantized bias is the exporter's int32
    // contract, and its failures are errors.
    std::optional<ScopedDiagnosticHandler> quiet;
    if (!c->biasDq)
      quiet.emplace(op->getContext(), [](Diagnostic &) { return success(); });
    Value a = c->lhsDq.getInput(), w = c->rhsDq.getInput();
    auto as = cast<RankedTensorType>(a.getType()).getShape();
    auto ws = cast<RankedTensorType>(w.getType()).getShape();
    auto pa = paramsOf(a), pw = paramsOf(w), py = paramsOf(c->q.getResult());
    rewriter.setInsertionPoint(c->q);
    FailureOr<Value> biasValue = accumulatorBias(rewriter, op, c->bias, *pa, *pw, ws[1]);
    FailureOr<qk::RequantAttr> rq = failure();
    if (succeeded(biasValue)) {
      SmallVector<double> bounds = accumulatorBounds(w, *pw, *pa, as[1], ws[1], false, *biasValue);
      if (succeeded(checkValueLedger(op, bounds, as[1])))
        rq = ledger(op, *pa, *pw, *py, ws[1], 1, bounds);
    }
    // Stays f32, or (a dequantized bias) the error reported above; the
    // framework takes back the bias constant made.
    if (failed(rq))
      return c->biasDq ? reported(failure()) : failure();
    quiet.reset();
    // The kernel stands for the MatMul, the Add and the QuantizeLinear, and
    // computes the latter's output.
    Location loc = rewriter.getFusedLoc({op.getLoc(), c->add.getLoc(), c->q.getLoc()});
    auto resultType = RankedTensorType::get(c->q.getResult().getType().getShape(), py->plain);
    auto kernel = qk::MatMulOp::create(
        rewriter, graph::withoutTensorNames(loc), resultType, storageView(rewriter, loc, a, pa->plain),
        storageView(rewriter, loc, w, pw->plain), *biasValue,
        rewriter.getI64IntegerAttr(pa->zeroPoints[0]), rewriter.getDenseI64ArrayAttr(pw->zeroPoints),
        TypeAttr::get(rewriter.getIntegerType(32)), *rq, /*trans_a=*/BoolAttr(),
        /*trans_b=*/BoolAttr(), /*alpha=*/FloatAttr(), /*beta=*/FloatAttr());
    Value back = graph::StorageCastOp::create(rewriter, loc, c->q.getResult().getType(),
                                              kernel.getResult());
    rewriter.replaceOp(c->q, back);
    rewriter.eraseOp(c->add);
    rewriter.eraseOp(op);
    // A dequantization only the replaced ops read goes with them, after the
    // conversion (eraseUnusedDequantizations): the driver defers erasures,
    // so a use list read here still holds another chain's replaced ops.
    return success();
  }
};

/// A graph.requantize is a qk.requantize whose form states how it is
/// computed: a flip of each byte's top bit where the two types allow it
/// exactly, the f32 steps of DequantizeLinear and QuantizeLinear otherwise.
struct RequantizeToKernel : KernelPattern<graph::RequantizeOp> {
  using KernelPattern::KernelPattern;
  LogicalResult matchAndRewrite(graph::RequantizeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type in = op.getInput().getType().getElementType();
    Type out = op.getResult().getType().getElementType();
    auto form = qk::RequantizeOp::flipsTopBit(in, out) ? qk::RequantizeForm::TopBit
                                                       : qk::RequantizeForm::F32;
    rewriter.replaceOpWithNewOp<qk::RequantizeOp>(
        op, op.getResult().getType(), adaptor.getInput(),
        qk::RequantizeFormAttr::get(op.getContext(), form));
    return success();
  }
};

/// Which ops the patterns rewrite. A graph.requantize always becomes a
/// kernel (illegal). Every other graph op but these two is legal. A
/// quantized convolution or matmul is converted or refused at its node (its
/// pattern reports why); its legality is left open rather than illegal so
/// that every refused node is reported, not only the first (the framework
/// stops at the first illegal op it cannot convert). A float matmul may
/// become a kernel (the dequantized pattern), if its ledgers allow.
ConversionTarget kernelTarget(MLIRContext &context) {
  ConversionTarget target(context);
  target.addLegalDialect<graph::GraphDialect, qk::QKDialect>();
  target.addIllegalOp<graph::RequantizeOp>();
  target.addDynamicallyLegalOp<graph::ConvOp>([](graph::ConvOp op) -> std::optional<bool> {
    if (quantizedOperands(op.getX(), op.getW(), op.getResult()))
      return std::nullopt;
    return true;
  });
  target.addDynamicallyLegalOp<graph::MatMulOp>([](graph::MatMulOp op) -> std::optional<bool> {
    if (quantizedOperands(op.getLhs(), op.getRhs(), op.getResult()) ||
        DequantizedMatMulToKernel::match(op))
      return std::nullopt;
    return true;
  });
  return target;
}

struct ConvertGraphToQKPass : npuc::impl::ConvertGraphToQKBase<ConvertGraphToQKPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    Reported reported;
    RewritePatternSet patterns(context);
    patterns.add<ConvToKernel, MatMulToKernel, DequantizedMatMulToKernel, RequantizeToKernel>(
        context, reported);
    ConversionTarget target = kernelTarget(*context);
    graph_to_qk::populateReducePatterns(patterns, target);
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns), config)) ||
        reported.any)
      return signalPassFailure();
    eraseUnusedDequantizations();
  }

  /// The dequantizations the classifier kernels left without users (every
  /// other one had users before the pass: the graph passes before it erase
  /// dead ops).
  void eraseUnusedDequantizations() {
    SmallVector<graph::DequantizeOp> unused;
    getOperation()->walk([&](graph::DequantizeOp dq) {
      if (dq->use_empty())
        unused.push_back(dq);
    });
    for (graph::DequantizeOp dq : unused)
      dq->erase();
  }
};
} // namespace
