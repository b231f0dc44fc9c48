//===- ConvKernels.cpp - Convolutions on MATRIX and V_DW -------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Convolutions (qk.conv2d, integer and float): dense and grouped ones as
// im2col products or window kernels, pointwise ones as matrix products,
// depthwise ones on V_DW; transposed convolutions (qk.conv_transpose)
// spread into a convolution or as a depth-to-space product
// (docs/architecture.md, "The backend"). The matrix products and their
// epilogue are MatrixKernels.cpp's, the window and depthwise kernels
// WindowKernels.cpp's.
//
//===----------------------------------------------------------------------===//

#include "KernelPattern.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"

#include "llvm/ADT/ScopeExit.h"
#include <cstring>
#include <type_traits>

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

// The selectors, case spaces and plans of this file's patterns.
namespace npuc::emit::lowering {
LogicalResult selectConv(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &convSpace();
LogicalResult selectConvTranspose(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &convTransposeSpace();
LogicalResult planConv(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
LogicalResult planConvTranspose(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
} // namespace npuc::emit::lowering

namespace {

/// qk.conv2d: pointwise, depthwise, window and im2col convolutions.
struct Conv2DPattern : OpKernelPattern<qk::Conv2DOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectConv;
  static constexpr SpaceOf space = convSpace;
  static constexpr PlanFn plan = planConv;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.conv_transpose: a depth-to-space product when its windows do not
/// overlap, otherwise a convolution of the spread input.
struct ConvTransposePattern : OpKernelPattern<qk::ConvTransposeOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectConvTranspose;
  static constexpr SpaceOf space = convTransposeSpace;
  static constexpr PlanFn plan = planConvTranspose;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;

private:
  LogicalResult lowerDepthToSpace(qk::ConvTransposeOp op);
};

} // namespace

void lowering::populateConvPatterns(KernelPatterns &patterns) {
  patterns.add<Conv2DPattern, ConvTransposePattern>();
}

namespace {
/// A convolution's kind by its groups: one input and one output channel per
/// group (depthwise), several groups, or one.
ConvKind convKind(int64_t groups, int64_t channelsPerGroup, int64_t outputsPerGroup) {
  if (channelsPerGroup == 1 && outputsPerGroup == 1)
    return ConvKind::Depthwise;
  return groups > 1 ? ConvKind::Grouped : ConvKind::Dense;
}

Window windowOf(ArrayRef<int64_t> weightShape) {
  return weightShape[2] * weightShape[3] == 1 ? Window::OneByOne : Window::KByK;
}

/// A float product with the weights on the left: its bias is per row.
ProductContract weightsOnTheLeft() {
  ProductContract k;
  k.biasPerRow = true;
  return k;
}

bool anyNot(ArrayRef<int64_t> values, int64_t v) {
  return llvm::any_of(values, [&](int64_t x) { return x != v; });
}

/// What an im2col product reads of its operands: the shapes and storage
/// types of the (padded) input, the weights and the result.
struct ConvShapes {
  SmallVector<int64_t, 4> x, w, y;
  Type xElement, wElement, yElement;
};

/// The im2col product of a dense or grouped convolution (the plan's, which
/// lowerConvBuffers walks):
/// output pixels by the window's taps of a group's channels, per batch and
/// group. A result row wider than one MATRIX tile has none.
FailureOr<Im2colProduct> im2colProduct(Operation *op, const ConvShapes &s, int64_t groups,
                                       bool bias, qk::RequantAttr rq) {
  int64_t N = s.x[0], M = s.w[0], Cg = s.w[1], khw = s.w[2] * s.w[3];
  int64_t OH = s.y[2], OW = s.y[3];
  if (OW > kMatrixExtentMax)
    return op->emitOpError() << "output width " << OW << " exceeds one MATRIX tile ("
                             << kMatrixExtentMax << " rows)";
  MatmulProblem product;
  product.batch = N * groups, product.M = OH * OW, product.N = M / groups, product.K = Cg * khw;
  product.aBytes = bytesOf(s.xElement), product.bBytes = bytesOf(s.wElement);
  product.outBytes = bytesOf(s.yElement);
  product.mode = matrixMode(s.xElement, s.wElement);
  product.batchedB = groups > 1, product.bias = bias, product.requant = bool(rq);
  product.requantTable = rq && rq.isPerChannel();
  return Im2colProduct{op, product, OW, khw};
}

/// The storage shape and type of a tensor.
std::pair<SmallVector<int64_t, 4>, Type> stored(Value v) {
  RankedTensorType type = tensorOf(v);
  return {SmallVector<int64_t, 4>(type.getShape()), storageOf(type.getElementType())};
}

/// A spread ConvTranspose's geometry (ConvTransposePattern): the zeroed
/// [N, Cin, Hz, Wz] input with every input row at its stride, placed at
/// (top, left).
struct Spread {
  int64_t N, Cin, H, W, Hz, Wz, top, left;
  /// The copy of the input into it: [N * Cin, H, W] at (top, left), by strides.
  SmallVector<int64_t> shape() const { return {N * Cin, H, W}; }
  SmallVector<int64_t> dstStrides(ArrayRef<int64_t> st) const {
    return {Hz * Wz * 4, st[0] * Wz * 4, st[1] * 4};
  }
};
Spread spreadOf(qk::ConvTransposeOp op) {
  ArrayRef<int64_t> xs = tensorOf(op.getX()).getShape(), ws = tensorOf(op.getW()).getShape();
  ArrayRef<int64_t> st = op.getStrides(), pd = op.getPads(), dl = op.getDilations(),
                    outPad = op.getOutputPadding();
  int64_t KH = ws[2], KW = ws[3];
  Spread s{xs[0], xs[1], xs[2], xs[3], 0, 0, dl[0] * (KH - 1) - pd[0], dl[1] * (KW - 1) - pd[1]};
  int64_t bottom = dl[0] * (KH - 1) - pd[2] + outPad[0], right = dl[1] * (KW - 1) - pd[3] + outPad[1];
  s.Hz = (s.H - 1) * st[0] + 1 + s.top + bottom;
  s.Wz = (s.W - 1) * st[1] + 1 + s.left + right;
  return s;
}

/// The zero fill of a spread input: one padded DMA of a single zero makes
/// each tile, whose store writes the zeros.
ElementwiseProblem zeroFill(const Spread &s) {
  ElementwiseProblem fill;
  fill.shape = {1, 1, s.N * s.Cin * s.Hz, s.Wz};
  fill.out = {{0, 0, s.Wz * 4, 4}, 4, false};
  fill.work = {4, 0};
  fill.maxTile = {1, 1, kDmaPadMax + 1, kDmaPadMax + 1};
  return fill;
}

/// A depth-to-space ConvTranspose's copies (lowerDepthToSpace), one per
/// batch and output channel: [H, KH, KW, W] from the product's rows into
/// output rows.
struct DepthToSpaceCopy {
  SmallVector<int64_t> shape, src, dst;
};
DepthToSpaceCopy depthToSpaceCopy(qk::ConvTransposeOp op) {
  ArrayRef<int64_t> xs = tensorOf(op.getX()).getShape(), ws = tensorOf(op.getW()).getShape();
  int64_t H = xs[2], W = xs[3], KH = ws[2], KW = ws[3], HW = H * W, OW = W * KW;
  return {{H, KH, KW, W}, {W * 4, KW * HW * 4, HW * 4, 4}, {KH * OW * 4, OW * 4, 4, KW * 4}};
}
} // namespace

/// A window kind, a pointwise or a depthwise convolution has no nest and no
/// im2col product; the others a padded copy first (planPad) when padded, and
/// their im2col product.
LogicalResult lowering::planConv(const LoweringCase &c, const target::TargetInfo &,
                                 IterationSpaces &s) {
  auto conv = cast<qk::Conv2DOp>(c.op);
  if (convProblem(c.op) || isPointwise(c.op) || c.get(kConvKind) == ConvKind::Depthwise)
    return success();
  ConvShapes shapes;
  std::tie(shapes.x, shapes.xElement) = stored(conv.getInput());
  std::tie(shapes.w, shapes.wElement) = stored(conv.getWeight());
  std::tie(shapes.y, shapes.yElement) = stored(conv.getResult());
  if (c.is(kPadded)) {
    ArrayRef<int64_t> pads = conv.getPads();
    if (failed(planPad(c.op, shapes.x, {0, 0, pads[0], pads[1]}, {0, 0, pads[2], pads[3]},
                       bytesOf(shapes.xElement), s)))
      return failure();
    shapes.x[2] += pads[0] + pads[2];
    shapes.x[3] += pads[1] + pads[3];
  }
  FailureOr<Im2colProduct> product =
      im2colProduct(c.op, shapes, int64_t(conv.getGroups()), bool(conv.getBias()),
                    conv.isInteger() ? conv.getRequantAttr() : qk::RequantAttr());
  if (failed(product))
    return failure();
  s.products.push_back(*product);
  return success();
}

/// Depth-to-space: a matrix product, then one copy per batch and output
/// channel. Spread: the zero fill, the copy of the input into it, then the
/// convolution's im2col product (none for a depthwise one).
LogicalResult lowering::planConvTranspose(const LoweringCase &c, const target::TargetInfo &,
                                          IterationSpaces &s) {
  auto op = cast<qk::ConvTransposeOp>(c.op);
  ArrayRef<int64_t> xs = tensorOf(op.getX()).getShape(), ws = tensorOf(op.getW()).getShape();
  bool depthwise = c.get(kConvKind) == ConvKind::Depthwise;
  if (!depthwise && c.get(kTransposedForm) == TransposedForm::DepthToSpace) {
    DepthToSpaceCopy copy = depthToSpaceCopy(op);
    for (int64_t n = 0; n < xs[0] * ws[1]; ++n)
      if (failed(planCopy(op, copy.shape, copy.src, copy.dst, 4, s)))
        return failure();
    return success();
  }
  Spread spread = spreadOf(op);
  s.nests.push_back(zeroFill(spread));
  SmallVector<int64_t> shape = spread.shape();
  if (failed(planCopy(op, shape, denseStrides(shape, 4), spread.dstStrides(op.getStrides()), 4, s)))
    return failure();
  if (depthwise)
    return success();
  Type f32 = Float32Type::get(op.getContext());
  int64_t g = op.getGroup();
  ConvShapes shapes{{spread.N, spread.Cin, spread.Hz, spread.Wz},
                    {g * ws[1], spread.Cin / g, ws[2], ws[3]},
                    SmallVector<int64_t, 4>(tensorOf(op.getResult()).getShape()),
                    f32, f32, f32};
  FailureOr<Im2colProduct> product = im2colProduct(op, shapes, g, bool(op.getBias()), {});
  if (failed(product))
    return failure();
  s.products.push_back(*product);
  return success();
}

const CaseSpace &lowering::convSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    const ct::List bytes = {"i8", "ui8"};
    s.signatures = productSignatures("X");
    // The integer form's requantization, the float form's activation.
    auto integer = cond::operand(0, bytes);
    s.properties = {kConvKind.declare(),
                    kPadded.declare(),
                    kStrided.declare(),
                    kDilated.declare(),
                    kWindow.declare(kConvKind({ConvKind::Dense, ConvKind::Grouped})),
                    kBias.declare(),
                    kConvRequant.declare(integer),
                    kActivation.declare(cond::negate(integer))};
    s.rules = {
        biasIsThirdOperand(),
        never(cond::any({cond::all({kConvRequant({Requant::None}), cond::result(0, {"i8", "ui8"})}),
                         cond::all({kConvRequant({Requant::Tensor, Requant::Channel}),
                                    cond::result(0, {"i32"})})}),
              "an int32 result is the accumulator, an 8-bit one is requantized")};
    return s;
  }();
  return space;
}

/// qk.conv2d (NCHW), integer or float: dense, grouped or depthwise; padded
/// first; strides and dilations in the im2col DMA; a 1x1 window gathered by
/// one 3-D DMA; bias, requantization and the fused activation in the
/// epilogue.
LogicalResult lowering::selectConv(LoweringCase &c, const target::TargetInfo &) {
  auto conv = cast<qk::Conv2DOp>(c.op);
  if (conv.isInteger()) {
    ArrayRef<int64_t> wzp = *conv.getWeightZp();
    if (llvm::any_of(wzp, [&](int64_t z) { return z != wzp[0]; }))
      return conv.emitOpError("per-channel weight zero points that differ need a correction term; "
                              "MATRIX subtracts one b_zp");
  }
  if (failed(checkMatrixTypes(conv, storageOf(tensorOf(conv.getInput()).getElementType()),
                              storageOf(tensorOf(conv.getWeight()).getElementType()))))
    return failure();
  ArrayRef<int64_t> ws = tensorOf(conv.getWeight()).getShape();
  int64_t groups = int64_t(conv.getGroups());
  ConvKind kind = c.choose(kConvKind, convKind(groups, ws[1], ws[0] / groups));
  c.flag(kPadded, anyNot(conv.getPads(), 0));
  c.flag(kStrided, anyNot(conv.getStrides(), 1));
  c.flag(kDilated, anyNot(conv.getDilations(), 1));
  if (kind != ConvKind::Depthwise)
    c.choose(kWindow, windowOf(ws));
  c.flag(kBias, bool(conv.getBias()));
  if (conv.isInteger()) {
    qk::RequantAttr rq = conv.getRequantAttr();
    c.choose(kConvRequant, !rq ? Requant::None : rq.isPerChannel() ? Requant::Channel : Requant::Tensor);
    return success();
  }
  std::optional<qk::FusedActivation> fused = conv.getActivation();
  c.choose(kActivation, !fused                                ? Activation::None
                        : *fused == qk::FusedActivation::Relu ? Activation::Relu
                                                              : Activation::Clip);
  return success();
}

LogicalResult Conv2DPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  // The fused activation, for this op's epilogues.
  auto conv = cast<qk::Conv2DOp>(c.op);
  FloatActivation activation;
  if (!conv.isInteger() && c.get(kActivation) != Activation::None) {
    activation.kind = c.get(kActivation);
    if (FloatAttr lo = conv.getActivationMinAttr())
      activation.lo = float(lo.getValueAsDouble());
    if (FloatAttr hi = conv.getActivationMaxAttr())
      activation.hi = float(hi.getValueAsDouble());
  }
  ConvPlan plan;
  plan.depthwise = c.get(kConvKind) == ConvKind::Depthwise;
  plan.padded = c.is(kPadded);
  plan.window1x1 = !plan.depthwise && c.get(kWindow) == Window::OneByOne;
  if (!planned.products.empty())
    plan.product = &planned.products.front().problem;
  auto buffers = [&](Value x, Value w, Value bias, Value y) {
    return std::make_tuple(gmOf(x), gmOf(w), bias ? gmOf(bias) : Value(), resultBuffer(y));
  };
  // A pointwise convolution (dense, 1x1, unstrided, unpadded: properties the
  // case records) is a tiled matrix product, the weights on the left.
  bool pointwise = c.get(kConvKind) == ConvKind::Dense && plan.window1x1 && !plan.padded && !c.is(kStrided);
  if (pointwise != isPointwise(c.op))
    return c.op->emitOpError("internal error: the pointwise test disagrees with the case");
  // The window kinds gather in LM from their weights reordered (the
  // constant as imported is never placed).
  if (std::optional<ConvProblem> cp = convProblem(c.op)) {
    ConvOperands o = *convOperands(c.op);
    Value y = resultBuffer(o.y), bias = o.b ? gmOf(o.b) : Value();
    ConvContract k;
    if (conv.isInteger())
      k.xzp = int64_t(*conv.getInputZp()), k.wzp = (*conv.getWeightZp())[0],
      k.rq = conv.getRequantAttr();
    k.activation = activation;
    return lowerWindowConv(c.op, *cp, gmOf(o.x), bias, y, k);
  }
  auto [X, W, B, Y] = buffers(conv.getInput(), conv.getWeight(), conv.getBias(), conv.getResult());
  ConvGeometry geometry{conv.getStrides(), conv.getPads(), conv.getDilations(),
                        static_cast<int64_t>(conv.getGroups())};
  if (!conv.isInteger()) {
    if (pointwise) {
      ProductContract k = weightsOnTheLeft();
      k.activation = activation;
      return lowerMatmulBuffers(c.op, {W, X, B, Y}, k);
    }
    return lowerConvBuffers(c.op, plan, {X, W, B, Y}, geometry, {0, 0, {}, activation});
  }
  int64_t xzp = int64_t(*conv.getInputZp()), wzp = (*conv.getWeightZp())[0];
  if (pointwise) {
    qk::RequantAttr rq = conv.getRequantAttr();
    ProductContract k;
    k.azp = wzp, k.bzp = xzp, k.rq = rq;
    k.perRow = rq && rq.isPerChannel(), k.biasPerRow = true;
    return lowerMatmulBuffers(c.op, {W, X, B, Y}, k);
  }
  return lowerConvBuffers(c.op, plan, {X, W, B, Y}, geometry, {xzp, wzp, conv.getRequantAttr(), {}});
}

const CaseSpace &lowering::convTransposeSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"f32,f32->f32"}, {"f32,f32,f32->f32"}};
    auto notDepthwise = kConvKind({ConvKind::Dense, ConvKind::Grouped});
    s.properties = {kConvKind.declare(),
                    kStrided.declare(),
                    kDilated.declare(),
                    kOutputPadding.declare(),
                    kWindow.declare(notDepthwise),
                    kBias.declare(),
                    kTransposedForm.declare(notDepthwise)};
    s.rules = {
        biasIsThirdOperand(),
        never(cond::all({kTransposedForm({TransposedForm::DepthToSpace}),
                         cond::any({kConvKind({ConvKind::Grouped}), kDilated(),
                                    kOutputPadding(),
                                    cond::all({kStrided(), kWindow({Window::OneByOne})}),
                                    cond::all({kStrided(false), kWindow({Window::KByK})})})}),
              "depth-to-space is a dense, undilated transposed convolution whose stride is its "
              "window, unpadded"),
        never(cond::all({kOutputPadding(), kStrided(false),
                         kDilated(false)}),
              "ONNX's output_padding is smaller than the stride or the dilation"),
        never(cond::all({kTransposedForm({TransposedForm::Spread}), kConvKind({ConvKind::Dense}),
                         kWindow({Window::OneByOne}), kStrided(false),
                         kDilated(false), kOutputPadding(false)}),
              "a dense 1x1 window of stride 1 is depth-to-space unpadded, and pads past a 1x1 "
              "window are refused")};
    return s;
  }();
  return space;
}

/// ConvTranspose (f32, constant weights) as a convolution: the input is
/// spread with stride s into a zeroed arena buffer padded by d * (k - 1) - p
/// (plus output_padding at the end), and convolved with stride 1 by the
/// weights flipped in space with input and output channels exchanged per
/// group. The weights are stored [Cin, Cout / group, kh, kw] (contract L2).
LogicalResult lowering::selectConvTranspose(LoweringCase &c, const target::TargetInfo &) {
  auto op = cast<qk::ConvTransposeOp>(c.op);
  auto xt = tensorOf(op.getX());
  if (!xt.getElementType().isF32() || xt.getRank() != 4)
    return op.emitOpError("ConvTranspose lowers for 2-D f32 inputs (quantized: no kernel yet)");
  auto wc = op.getW().getDefiningOp<graph::ConstantOp>();
  if (!wc || !llvm::isa<DenseFPElementsAttr>(wc.getValue()))
    return op.emitOpError("ConvTranspose needs constant weights to lower");
  ArrayRef<int64_t> ws = tensorOf(op.getW()).getShape(), pd = op.getPads(), dl = op.getDilations(),
                    outPad = op.getOutputPadding();
  // The spread input's padding on each side, d * (k - 1) - pad (plus
  // output_padding at the end), cannot be negative.
  for (int i = 0; i < 2; ++i)
    if (dl[i] * (ws[2 + i] - 1) - pd[i] < 0 || dl[i] * (ws[2 + i] - 1) - pd[2 + i] + outPad[i] < 0)
      return op.emitOpError(
          "ConvTranspose pads larger than the dilated kernel have no NPU lowering yet");
  int64_t g = op.getGroup();
  // The stride-1 convolution it becomes: [g * Cout/g, Cin/g, kh, kw] weights.
  ConvKind kind = c.choose(kConvKind, convKind(g, xt.getShape()[1] / g, ws[1]));
  c.flag(kStrided, anyNot(op.getStrides(), 1));
  c.flag(kDilated, anyNot(dl, 1));
  c.flag(kOutputPadding, anyNot(op.getOutputPadding(), 0));
  if (kind != ConvKind::Depthwise)
    c.choose(kWindow, windowOf(ws));
  c.flag(kBias, bool(op.getBias()));
  if (kind != ConvKind::Depthwise)
    c.choose(kTransposedForm, isDepthToSpace(op) ? TransposedForm::DepthToSpace : TransposedForm::Spread);
  return success();
}

/// ConvTranspose (f32, constant weights) as a convolution: the input is
/// spread with stride s into a zeroed arena buffer padded by d * (k - 1) - p
/// (plus output_padding at the end), and convolved with stride 1 by the
/// weights flipped in space with input and output channels exchanged per
/// group. The weights are stored [Cin, Cout / group, kh, kw] (contract L2).
LogicalResult ConvTransposePattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::ConvTransposeOp>(c.op);
  // A depthwise one records no form: it is always spread.
  if (c.get(kConvKind) != ConvKind::Depthwise && c.get(kTransposedForm) == TransposedForm::DepthToSpace)
    return lowerDepthToSpace(op);
  auto wv = cast<DenseFPElementsAttr>(op.getW().getDefiningOp<graph::ConstantOp>().getValue());
  ArrayRef<int64_t> ws = tensorOf(op.getW()).getShape();
  ArrayRef<int64_t> dl = op.getDilations();
  Spread spread = spreadOf(op);
  int64_t g = op.getGroup(), N = spread.N, Cin = spread.Cin;
  int64_t Cing = Cin / g, Coutg = ws[1], KH = ws[2], KW = ws[3];
  int64_t top = spread.top, left = spread.left, Hz = spread.Hz, Wz = spread.Wz;
  // Flipped, transposed weights: W'[g*Coutg + co][ci][kh][kw] = W[g*Cing + ci][co][KH-1-kh][KW-1-kw].
  SmallVector<float> w(wv.getValues<float>().begin(), wv.getValues<float>().end());
  SmallVector<float> wt(w.size());
  for (int64_t gi = 0; gi < g; ++gi)
    for (int64_t co = 0; co < Coutg; ++co)
      for (int64_t ci = 0; ci < Cing; ++ci)
        for (int64_t kh = 0; kh < KH; ++kh)
          for (int64_t kw = 0; kw < KW; ++kw)
            wt[size_t((((gi * Coutg + co) * Cing + ci) * KH + kh) * KW + kw)] =
                w[size_t((((gi * Cing + ci) * Coutg + co) * KH + (KH - 1 - kh)) * KW + (KW - 1 - kw))];
  auto wType = RankedTensorType::get({g * Coutg, Cing, KH, KW}, b.getF32Type());
  Value Wt = constant(DenseElementsAttr::get(wType, ArrayRef<float>(wt)), wType);
  // The spread input: zeros, then every input row at its stride.
  SmallVector<int64_t> zshape{N, Cin, Hz, Wz};
  Value Z = e.alloc(MemorySpace::ARENA, zshape, b.getF32Type(), denseStrides(zshape, 4));
  // A fill (zeroFill; its one burst left out of the model), tiled by
  // select-tiling.
  Value zero = f32Constant({0.0f});
  FailureOr<ElementwiseTiling> chosen = nestTiling(op, planned.nests[0]);
  if (failed(chosen))
    return failure();
  int64_t rowsChunk = chosen->tile[2], chunk = chosen->tile[3];
  for (int64_t r0 = 0; r0 < N * Cin * Hz; r0 += rowsChunk)
    for (int64_t c0 = 0; c0 < Wz; c0 += chunk) {
      int64_t rows = std::min(rowsChunk, N * Cin * Hz - r0), cols = std::min(chunk, Wz - c0);
      Value tileV = e.tile(MemorySpace::LM, rows, cols, b.getF32Type());
      e.dma(e.view(zero, 0, {1, 1}, {0, 4}), tileV, {0, 0}, {rows - 1, cols - 1}, 0);
      e.dma(tileV, e.view(Z, (r0 * Wz + c0) * 4, {rows, cols}, {Wz * 4, 4}));
    }
  Value X = gmOf(op.getX());
  SmallVector<int64_t> shape = spread.shape();
  SmallVector<int64_t> to = spread.dstStrides(op.getStrides());
  Value spreadView = e.view(Z, (top * Wz + left) * 4, shape, to);
  if (failed(lowerCopy(op, e.view(X, 0, shape, denseStrides(shape, 4)), spreadView, shape,
                       denseStrides(shape, 4))))
    return failure();
  SmallVector<int64_t> ones{1, 1}, zeros{0, 0, 0, 0};
  ConvPlan plan;
  plan.depthwise = c.get(kConvKind) == ConvKind::Depthwise;
  plan.window1x1 = !plan.depthwise && c.get(kWindow) == Window::OneByOne;
  if (!planned.products.empty())
    plan.product = &planned.products.front().problem;
  Value y = resultBuffer(op.getResult());
  return lowerConvBuffers(op, plan, {Z, Wt, op.getBias() ? gmOf(op.getBias()) : Value(), y},
                          {ones, zeros, dl, g}, {});
}

/// isDepthToSpace's ConvTranspose: Y' [n] [(co, a, b)] [i, j] =
/// sum over ci of W [ci] [co] [a] [b] x X [n] [ci] [i, j] (+ bias [co]), a
/// tiled matrix product with the reordered weights on the left (select-tiling
/// chose its tiles: matmulProblem), into the arena; then per output channel
/// one copy puts block (a, b) of pixel (i, j) at Y [n] [co] [i kh + a] [j kw + b]:
/// the copy's DMAs read rows of pixels and write whole output rows.
LogicalResult ConvTransposePattern::lowerDepthToSpace(qk::ConvTransposeOp op) {
  ArrayRef<int64_t> xs = tensorOf(op.getX()).getShape(), ws = tensorOf(op.getW()).getShape();
  int64_t N = xs[0], Cin = xs[1], H = xs[2], W = xs[3], Cout = ws[1], KH = ws[2], KW = ws[3];
  int64_t M = Cout * KH * KW, HW = H * W, OH = H * KH, OW = W * KW;
  auto wv = cast<DenseFPElementsAttr>(op.getW().getDefiningOp<graph::ConstantOp>().getValue());
  SmallVector<float> w(wv.getValues<float>().begin(), wv.getValues<float>().end());
  SmallVector<float> wt(size_t(M * Cin));
  for (int64_t ci = 0; ci < Cin; ++ci)
    for (int64_t r = 0; r < M; ++r)  // r = (co * KH + a) * KW + b
      wt[size_t(r * Cin + ci)] = w[size_t(ci * M + r)];
  auto wType = RankedTensorType::get({M, Cin}, b.getF32Type());
  Value A = constant(DenseElementsAttr::get(wType, ArrayRef<float>(wt)), wType);
  Value bias;
  if (op.getBias()) {
    auto bv = cast<DenseFPElementsAttr>(op.getBias().getDefiningOp<graph::ConstantOp>().getValue());
    SmallVector<float> bo(bv.getValues<float>().begin(), bv.getValues<float>().end()), br;
    for (int64_t r = 0; r < M; ++r)
      br.push_back(bo[size_t(r / (KH * KW))]);
    bias = f32Constant(br);
  }
  SmallVector<int64_t> rShape{N, M, HW};
  Value R = e.alloc(MemorySpace::ARENA, rShape, b.getF32Type(), denseStrides(rShape, 4));
  Value X = e.view(gmOf(op.getX()), 0, {N, Cin, HW}, {Cin * HW * 4, HW * 4, 4});
  if (failed(lowerMatmulBuffers(op, {A, X, bias, R}, weightsOnTheLeft())))
    return failure();
  Value Y = resultBuffer(op.getResult());
  DepthToSpaceCopy copy = depthToSpaceCopy(op);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t co = 0; co < Cout; ++co) {
      Value to = e.view(Y, (n * Cout + co) * OH * OW * 4, copy.shape, copy.dst);
      if (failed(lowerCopy(op, e.view(R, (n * M + co * KH * KW) * HW * 4, copy.shape, copy.src), to,
                           copy.shape, copy.src)))
        return failure();
    }
  return success();
}

LogicalResult KernelBuilder::lowerConvBuffers(Operation *op, const ConvPlan &plan,
                                               const ConvBuffers &buf, const ConvGeometry &geometry,
                                               const ConvContract &k) {
  Value X = buf.x, W = buf.w, Bias = buf.bias, Y = buf.y;
  ArrayRef<int64_t> strides = geometry.strides, pads = geometry.pads, dil = geometry.dilations;
  int64_t groups = geometry.groups, xzp = k.xzp, wzp = k.wzp;
  qk::RequantAttr rq = k.rq;
  auto xt = cast<BufferType>(X.getType()), wt = cast<BufferType>(W.getType());
  auto yt = cast<BufferType>(Y.getType());
  int64_t N = xt.getShape()[0], C = xt.getShape()[1];
  int64_t M = wt.getShape()[0], Cg = wt.getShape()[1], KH = wt.getShape()[2], KW = wt.getShape()[3];
  int64_t OH = yt.getShape()[2], OW = yt.getShape()[3], Mg = M / groups;
  int64_t ex = xt.getElementBytes(), ey = yt.getElementBytes();
  if (plan.depthwise)  // pads on the way into LM
    return lowerDepthwise(op, buf, k);
  // Padding first: a padded copy in the arena, filled with the input zero
  // point so that padded taps contribute (zp - zp) * w = 0.
  if (plan.padded) {
    SmallVector<int64_t> shape{N, C, xt.getShape()[2] + pads[0] + pads[2],
                               xt.getShape()[3] + pads[1] + pads[3]};
    Value padded = e.alloc(MemorySpace::ARENA, shape, xt.getElementType(), denseStrides(shape, ex));
    int64_t fill = llvm::isa<FloatType>(xt.getElementType()) ? 0 : int64_t(uint8_t(int8_t(xzp)));
    if (failed(lowerPad(op, X, padded, xt.getShape(), {0, 0, pads[0], pads[1]},
                        {0, 0, pads[2], pads[3]}, fill)))
      return failure();
    X = padded;
    xt = cast<BufferType>(X.getType());
  }
  int64_t Wd = xt.getShape()[3];
  int64_t khw = KH * KW;
  Type accType = llvm::isa<FloatType>(xt.getElementType()) ? Type(b.getF32Type()) : Type(b.getIntegerType(32));
  Value params = rq && rq.isPerChannel() ? requantTable(rq, M) : Value();
  // Tiles, as select-tiling chose them (chooseIm2colTiling): T output rows x
  // wc columns form the MATRIX m dimension; kc input channels x KH x KW the
  // k dimension; nt output channels of the group n.
  if (!plan.product)
    return op->emitOpError("internal error: its plan states no im2col product");
  const MatmulProblem &product = *plan.product;
  FailureOr<qk::TilingAttr> tiling = chosenTiling(op, 3, "mt, nt, kt");
  if (failed(tiling))
    return failure();
  ArrayRef<int64_t> tile = tiling->getTile();
  MatmulTiling tl{tile[0], tile[1], tile[2], tiling->getBuffers(), 0, 0};
  if (tl.kt % khw != 0 || (tl.mt > OW && tl.mt % OW != 0))
    return op->emitOpError() << kTilingAttr << " [" << tl.mt << ", " << tl.nt << ", " << tl.kt
                             << "] is not whole windows (" << khw << " taps) and whole or part "
                             << "rows (" << OW << " columns)";
  if (std::optional<std::string> why = checkTiling(product, tl, t))
    return op->emitOpError() << kTilingAttr << " [" << tl.mt << ", " << tl.nt << ", " << tl.kt
                             << "] x " << tl.buffers << " cannot run here: " << *why;
  int64_t nt = tl.nt, kc = tl.kt / khw;
  int64_t wc = std::min(tl.mt, OW), T = tl.mt > OW ? tl.mt / OW : 1;
  int64_t lda = roundUp(kc * khw * ex, t.params.VectorAlign);
  int64_t sx = xt.getStrides()[1];  // bytes per input channel plane
  // One result tile: rows x cols output pixels (m) by nc output channels.
  auto body = [&](int64_t rows, int64_t cols, int64_t nc, Offset n, Offset g, Offset oh0,
                  Offset ow0, Offset m0) {
    int64_t m = rows * cols;
    Value acc = e.tile(MemorySpace::ACC, m, nc, accType, t.params.MatrixAlign);
    for (int64_t c0 = 0; c0 < Cg; c0 += kc) {
      int64_t cc = std::min(kc, Cg - c0), k = cc * khw;
      Value aT = e.alloc(MemorySpace::LM, {m, k}, xt.getElementType(), {lda, ex});
      Offset base = (n * C + g * Cg + c0) * sx + oh0 * (strides[0] * Wd * ex) +
                    ow0 * (strides[1] * ex);
      if (plan.window1x1) {
        // im2col of a 1x1 window: [rows][cols][cc] from [cc][H][W].
        Value to = e.view(aT, 0, {rows, cols, cc}, {cols * lda, lda, ex});
        e.dma(e.view(X, base, {rows, cols, cc}, {strides[0] * Wd * ex, strides[1] * ex, sx}), to);
      } else {
        for (int64_t c = 0; c < cc; ++c) {
          Value to = e.view(aT, c * khw * ex, {rows, KH, cols, KW}, {cols * lda, KW * ex, lda, ex});
          e.dma(e.view(X, base + c * sx, {rows, KH, cols, KW},
                       {strides[0] * Wd * ex, dil[0] * Wd * ex, strides[1] * ex, dil[1] * ex}),
                to);
        }
      }
      // B[k][j] = w[g*Mg + m0 + j][c0 + k / khw][k % khw].
      Value bT = e.tile(MemorySpace::LM, k, nc, wt.getElementType(), t.params.MatrixAlign);
      Offset wbase = ((g * Mg + m0) * Cg + c0) * (khw * ex);
      e.dma(e.view(W, wbase, {k, nc}, {ex, Cg * khw * ex}), bT);
      e.matmul(aT, bT, acc, c0 > 0, xzp, wzp);
    }
    // y[n][g*Mg + m0 + j][oh0 + r][ow0 + w] = acc[r*cols + w][j]; the m
    // rows are contiguous in y (whole rows, or one partial row).
    Offset oc = g * Mg + m0;
    Value dst = e.view(Y, (((n * M + oc) * OH + oh0) * OW + ow0) * ey, {m, nc}, {ey, OH * OW * ey});
    epilogue(acc, m, nc, dst, {Bias, rq, params, false, false, false, k.activation}, 0, oc);
  };
  // The tiles as loops over [batch, group, row tiles, column tiles, channel
  // tiles]: full and remainder tiles of each tiled dimension get a loop each.
  // With one chunk of input channels each tile is loaded once per iteration,
  // so two rotating slots let the next tile's loads run under this product.
  int64_t buffers = tl.buffers;
  for (auto [rows, rowCount, rowFirst] : tileParts(OH, T))
    for (auto [cols, colCount, colFirst] : tileParts(OW, wc))
      for (auto [nc, chanCount, chanFirst] : tileParts(Mg, nt)) {
        int64_t iterations = N * groups * rowCount * colCount * chanCount;
        e.beginLoop({N, groups, rowCount, colCount, chanCount}, iterations > 1 ? buffers : 1,
                    iterations > 1 && buffers > 1);
        body(rows, cols, nc, e.coordinate(0), e.coordinate(1), rowFirst + e.coordinate(2) * rows,
             colFirst + e.coordinate(3) * cols, chanFirst + e.coordinate(4) * nc);
        e.endLoop();
      }
  return success();
}

Value KernelBuilder::windowConvWeights(Operation *op, const ConvProblem &p, int64_t chunk,
                                        int64_t gap, bool stacked) {
  Value w = convOperands(op)->w;
  DenseElementsAttr dense = constantValue(w);
  Type st = storageOf(tensorOf(w).getElementType());
  const DepthwiseProblem &g = p.window;
  int64_t M = p.groups * p.outChannels, Cg = g.C, KH = g.KH, KW = g.KW, rows = 0;
  for (auto [c0, cc] : convChunks(p, chunk))
    rows += convLayout(p, cc, 1, t.params, stacked).depth;
  // Row r0(chunk) + kh * block + kw * cc + c of the result holds
  // W[n][c0 + c][kh][kw] in column n; stacked, row r0 + (kw * KH + kh) * cc + c.
  // The weights are read in place (a splat as its one value), never copied.
  if (dense.getElementType() != st)
    dense = dense.bitcast(st);
  ArrayRef<char> raw = dense.getRawData();
  bool splat = dense.isSplat();
  auto place = [&](auto &out) {
    using T = std::decay_t<decltype(out[0])>;
    auto in = [&](size_t i) {
      T v;
      std::memcpy(&v, raw.data() + (splat ? 0 : i * sizeof(T)), sizeof(T));
      return v;
    };
    int64_t r0 = 0;
    for (auto [c0, cc] : convChunks(p, chunk)) {
      ConvLayout l = convLayout(p, cc, 1, t.params, stacked);
      for (int64_t n = 0; n < M; ++n)
        for (int64_t c = 0; c < cc; ++c)
          for (int64_t kh = 0; kh < KH; ++kh)
            for (int64_t kw = 0; kw < KW; ++kw)
              out[size_t((r0 + (stacked ? (kw * KH + kh) * cc : kh * l.block + kw * cc) + c) * M +
                         n)] = in(size_t(((n * Cg + c0 + c) * KH + kh) * KW + kw));
      r0 += l.depth;
    }
  };
  auto type = RankedTensorType::get({rows, M}, st);
  if (st.isF32()) {
    SmallVector<float> out(size_t(rows * M), float(gap));
    place(out);
    return constant(DenseElementsAttr::get(type, ArrayRef<float>(out)), type);
  }
  if (st.isF16()) {
    // fp16 weights (graph-compute-f16) move as their bits; a float gap is 0.
    SmallVector<uint16_t> out(size_t(rows * M), uint16_t(0));
    place(out);
    auto bits = RankedTensorType::get({rows, M}, b.getIntegerType(16));
    return constant(DenseElementsAttr::get(bits, ArrayRef<uint16_t>(out)).bitcast(st), type);
  }
  SmallVector<int8_t> out(size_t(rows * M), int8_t(gap));
  place(out);
  auto bytes = RankedTensorType::get({rows, M}, b.getIntegerType(8));
  return constant(DenseElementsAttr::get(bytes, ArrayRef<int8_t>(out)), type);
}

/// A dense or grouped convolution by the tiling select-tiling chose
/// (ConvTiling.h). Per tile (rows whole output rows by nc output channels of
/// one group): per chunk of input channels, the image rows the window
/// reaches arrive channels innermost, padded with the input zero point on
/// the way into LM; VECTOR copies each output row's kernel rows (KW x chunk
/// contiguous elements per output pixel, sw x chunk apart) into the im2col
/// tile; MATRIX multiplies it by the reordered weights, accumulating over
/// chunks; the output stage drains the tile into whole output rows.
FailureOr<qk::TilingAttr> KernelBuilder::chosenTiling(Operation *op, size_t extents,
                                                       StringRef form) {
  auto tiling = op->getAttrOfType<qk::TilingAttr>(kTilingAttr);
  if (!tiling)
    return op->emitOpError() << "internal error: no tiling (" << kTilingAttr
                             << "); select-tiling chooses it before this lowering";
  if (tiling.getTile().size() != extents)
    return op->emitOpError() << kTilingAttr << " needs tile = [" << form << "]";
  return tiling;
}
