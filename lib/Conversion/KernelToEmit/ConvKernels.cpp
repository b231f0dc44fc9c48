//===- ConvKernels.cpp - Convolutions on MATRIX and V_DW -------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Convolutions (qk.conv2d, f32 graph.conv): dense and grouped ones as im2col
// products or window kernels, pointwise ones as matrix products, depthwise
// ones on V_DW; transposed convolutions spread into a convolution or as a
// depth-to-space product (docs/architecture.md, "The backend"). The matrix
// products and their epilogue are MatrixKernels.cpp's.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"

#include "llvm/ADT/ScopeExit.h"
#include <cstring>
#include <type_traits>

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

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
} // namespace

const CaseSpace &lowering::convSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    const ct::List bytes = {"i8", "ui8"};
    s.signatures = {{"f32,f32->f32"},
                    {"f32,f32,f32->f32"},
                    {"f16,f16->R", {{"R", ct::kFloat}}},
                    {"f16,f16,f32->R", {{"R", ct::kFloat}}},
                    {"X,W->R", {{"X", bytes}, {"W", bytes}, {"R", {"i8", "ui8", "i32"}}}},
                    {"X,W,i32->R", {{"X", bytes}, {"W", bytes}, {"R", {"i8", "ui8", "i32"}}}}};
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

LogicalResult KernelLowering::lowerConv(const LoweringCase &c) {
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
LogicalResult KernelLowering::lowerConvTranspose(const LoweringCase &c) {
  auto op = cast<qk::ConvTransposeOp>(c.op);
  // A depthwise one records no form: it is always spread.
  if (c.get(kConvKind) != ConvKind::Depthwise && c.get(kTransposedForm) == TransposedForm::DepthToSpace)
    return lowerDepthToSpace(op);
  auto xt = tensorOf(op.getX());
  auto wv = cast<DenseFPElementsAttr>(op.getW().getDefiningOp<graph::ConstantOp>().getValue());
  ArrayRef<int64_t> xs = xt.getShape(), ws = tensorOf(op.getW()).getShape();
  ArrayRef<int64_t> st = op.getStrides(), pd = op.getPads(), dl = op.getDilations(),
                    outPad = op.getOutputPadding();
  int64_t g = op.getGroup(), N = xs[0], Cin = xs[1], H = xs[2], W = xs[3];
  int64_t Cing = Cin / g, Coutg = ws[1], KH = ws[2], KW = ws[3];
  int64_t top = dl[0] * (KH - 1) - pd[0], left = dl[1] * (KW - 1) - pd[1];
  int64_t bottom = dl[0] * (KH - 1) - pd[2] + outPad[0], right = dl[1] * (KW - 1) - pd[3] + outPad[1];
  int64_t Hz = (H - 1) * st[0] + 1 + top + bottom, Wz = (W - 1) * st[1] + 1 + left + right;
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
  // A fill: one padded DMA of a single zero makes each tile (its one burst
  // left out of the model), whose store writes the zeros; tiled by select-tiling.
  Value zero = f32Constant({0.0f});
  ElementwiseProblem fill;
  fill.shape = {1, 1, N * Cin * Hz, Wz};
  fill.out = {{0, 0, Wz * 4, 4}, 4, false};
  fill.work = {4, 0};
  fill.maxTile = {1, 1, kDmaPadMax + 1, kDmaPadMax + 1};
  FailureOr<std::optional<ElementwiseTiling>> chosen = tileNest(op, fill);
  if (failed(chosen))
    return failure();
  if (*chosen) {
    int64_t rowsChunk = (*chosen)->tile[2], chunk = (*chosen)->tile[3];
    for (int64_t r0 = 0; r0 < N * Cin * Hz; r0 += rowsChunk)
      for (int64_t c0 = 0; c0 < Wz; c0 += chunk) {
        int64_t rows = std::min(rowsChunk, N * Cin * Hz - r0), cols = std::min(chunk, Wz - c0);
        Value tileV = e.tile(MemorySpace::LM, rows, cols, b.getF32Type());
        e.dma(e.view(zero, 0, {1, 1}, {0, 4}), tileV, {0, 0}, {rows - 1, cols - 1}, 0);
        e.dma(tileV, e.view(Z, (r0 * Wz + c0) * 4, {rows, cols}, {Wz * 4, 4}));
      }
  }
  Value X = gmOf(op.getX());
  SmallVector<int64_t> spread{N * Cin, H, W};
  Value spreadView = e.view(Z, (top * Wz + left) * 4, spread, {Hz * Wz * 4, st[0] * Wz * 4, st[1] * 4});
  if (failed(lowerCopy(op, e.view(X, 0, spread, denseStrides(spread, 4)), spreadView, spread,
                       denseStrides(spread, 4))))
    return failure();
  SmallVector<int64_t> ones{1, 1}, zeros{0, 0, 0, 0};
  ConvPlan plan;
  plan.depthwise = c.get(kConvKind) == ConvKind::Depthwise;
  plan.window1x1 = !plan.depthwise && c.get(kWindow) == Window::OneByOne;
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
LogicalResult KernelLowering::lowerDepthToSpace(qk::ConvTransposeOp op) {
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
  SmallVector<int64_t> shape{H, KH, KW, W}, src{W * 4, KW * HW * 4, HW * 4, 4};
  for (int64_t n = 0; n < N; ++n)
    for (int64_t co = 0; co < Cout; ++co) {
      Value to = e.view(Y, (n * Cout + co) * OH * OW * 4, shape, {KH * OW * 4, OW * 4, 4, KW * 4});
      if (failed(lowerCopy(op, e.view(R, (n * M + co * KH * KW) * HW * 4, shape, src), to, shape, src)))
        return failure();
    }
  return success();
}

LogicalResult KernelLowering::lowerConvBuffers(Operation *op, const ConvPlan &plan,
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
  if (OW > kMatrixExtentMax)
    return op->emitOpError() << "output width " << OW << " exceeds one MATRIX tile (" << kMatrixExtentMax << " rows)";
  // Tiles, as select-tiling chose them (chooseIm2colTiling): T output rows x
  // wc columns form the MATRIX m dimension; kc input channels x KH x KW the
  // k dimension; nt output channels of the group n.
  MatmulProblem product;
  product.batch = N * groups, product.M = OH * OW, product.N = Mg, product.K = Cg * khw;
  product.aBytes = ex, product.bBytes = wt.getElementBytes(), product.outBytes = ey;
  product.mode = matrixMode(xt.getElementType(), wt.getElementType());
  product.batchedB = groups > 1, product.bias = bool(Bias), product.requant = bool(rq);
  product.requantTable = rq && rq.isPerChannel();
  if (describedProducts) {
    describedProducts->push_back({op, product, OW, khw});
    return success();
  }
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

Value KernelLowering::windowConvWeights(Operation *op, const ConvProblem &p, int64_t chunk,
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
FailureOr<qk::TilingAttr> KernelLowering::chosenTiling(Operation *op, size_t extents,
                                                       StringRef form) {
  auto tiling = op->getAttrOfType<qk::TilingAttr>(kTilingAttr);
  if (!tiling)
    return op->emitOpError() << "internal error: no tiling (" << kTilingAttr
                             << "); select-tiling chooses it before this lowering";
  if (tiling.getTile().size() != extents)
    return op->emitOpError() << kTilingAttr << " needs tile = [" << form << "]";
  return tiling;
}

/// The tiling select-tiling chose for a window convolution (kTilingAttr:
/// tile = [rows, channels, chunk], buffers, stacked, resident), checked
/// against the problem and the target.
FailureOr<ConvTiling> KernelLowering::windowConvTiling(Operation *op, const ConvProblem &p) {
  FailureOr<qk::TilingAttr> tiling = chosenTiling(op, 3, "rows, channels, chunk");
  if (failed(tiling))
    return failure();
  ArrayRef<int64_t> tile = tiling->getTile();
  ConvTiling tl;
  tl.rows = tile[0], tl.outChannels = tile[1], tl.chunk = tile[2], tl.buffers = tiling->getBuffers();
  tl.stacked = tiling->getStacked();
  tl.resident = tiling->getResident();
  if (std::optional<std::string> why = checkTiling(p, tl, t))
    return op->emitOpError() << kTilingAttr << " [" << tl.rows << ", " << tl.outChannels << ", "
                             << tl.chunk << "] x " << tl.buffers << " cannot run here: " << *why;
  return tl;
}

/// A [1, n] LM row of zeros of `element` (0.0 for floats), from CONST.
Value KernelLowering::zeroRow(Type element, int64_t n) {
  Value zeros = e.tile(MemorySpace::LM, 1, n, element, t.params.VectorAlign);
  auto zeroType = RankedTensorType::get({n}, element);
  Value row = llvm::isa<FloatType>(element)
                  ? constant(DenseElementsAttr::get(zeroType, b.getFloatAttr(element, 0.0)), zeroType)
                  : constant(DenseElementsAttr::get(RankedTensorType::get({n}, b.getIntegerType(8)),
                                                    ArrayRef<int8_t>(SmallVector<int8_t>(size_t(n), 0))),
                             zeroType);
  int64_t ex = bytesOf(element);
  e.dma(e.view(row, 0, {1, n}, {n * ex, ex}), zeros);
  return zeros;
}

LogicalResult KernelLowering::lowerWindowConv(Operation *op, const ConvProblem &p, Value X,
                                              Value Bias, Value Y, const ConvContract &k) {
  int64_t xzp = k.xzp, wzp = k.wzp;
  qk::RequantAttr rq = k.rq;
  FailureOr<ConvTiling> chosen = windowConvTiling(op, p);
  if (failed(chosen))
    return failure();
  const ConvTiling &tl = *chosen;
  const DepthwiseProblem &w = p.window;
  auto xt = cast<BufferType>(X.getType()), yt = cast<BufferType>(Y.getType());
  int64_t Cin = w.C * p.groups, M = p.groups * p.outChannels;
  if (xt.getShape() != ArrayRef<int64_t>{w.N, Cin, w.H, w.W})
    return op->emitOpError("internal error: the convolution problem disagrees with its input");
  int64_t ex = w.inBytes, ey = yt.getElementBytes(), ew = p.weightBytes;
  int64_t Wp = w.paddedWidth(), plane = w.H * w.W * ex, ma = t.params.MatrixAlign;
  bool isFloat = llvm::isa<FloatType>(xt.getElementType());
  Type accType = isFloat ? Type(b.getF32Type()) : Type(b.getIntegerType(32));
  Type wType = storageOf(tensorOf(convOperands(op)->w).getElementType());
  Value params = rq && rq.isPerChannel() ? requantTable(rq, M) : Value();
  int64_t fill = isFloat ? 0 : int64_t(uint8_t(int8_t(xzp)));
  // Gap rows of the weights are the weight zero point (0.0 for floats), so
  // they add (a - a_zp) * 0. The im2col gaps are zeroed first all the same:
  // a float NaN or infinity left there would survive x 0, and LM never
  // written is not read (npu-sim faults).
  Value weights = windowConvWeights(op, p, tl.chunk, isFloat ? 0 : wzp, tl.stacked);
  std::vector<std::pair<int64_t, int64_t>> chunks = convChunks(p, tl.chunk);
  SmallVector<int64_t> chunkRow;
  int64_t depthMax = 0, rowsSoFar = 0;
  bool gaps = false;
  int64_t stack = tl.stacked ? w.KH : 1;  // kernel rows per image row
  for (auto [c0, cc] : chunks) {
    ConvLayout l = convLayout(p, cc, 1, t.params, tl.stacked);
    chunkRow.push_back(rowsSoFar);
    rowsSoFar += l.depth;
    depthMax = std::max(depthMax, l.depth);
    gaps |= l.block != w.KW * stack * cc;
  }
  // Resident weights: every row, every group's output channels, loaded once
  // in their GM layout; a tile's block is read in place.
  Value resident;
  if (tl.resident) {
    resident = e.alloc(MemorySpace::LM, {rowsSoFar, M}, wType, {M * ew, ew});
    e.dma(e.view(weights, 0, {rowsSoFar, M}, {M * ew, ew}), resident);
  }
  Value zeros = gaps ? zeroRow(xt.getElementType(), depthMax) : Value();
  auto body = [&](int64_t nc, const RowGroup &g, Offset n, Offset grp, Offset m0, Offset tileIndex) {
    int64_t m = g.rows * w.OW, rin = w.imageRows(g.rows), real = rin - g.padTop - g.padBottom;
    Offset oh0 = tileIndex * tl.rows;
    Offset firstRow = oh0 * w.sh + (g.padTop - w.padTop);  // the first real input row
    Value acc = e.tile(MemorySpace::ACC, m, nc, accType, ma);
    Offset oc = grp * p.outChannels + m0;
    // A float bias starts the sums (broadcast into ACC before the products),
    // so VECTOR has no epilogue queued between this tile's products and the
    // next tile's gathers. The broadcast is part of the next tile's
    // preparation (emit-pipeline's stage 0), issued while this tile's store
    // reads the accumulators two tiles back: a third slot, so that it does
    // not wait for that store (convExtraAccSlots).
    bool biasFirst = Bias && !rq;
    if (int64_t extra = convExtraAccSlots(p, tl))
      acc.getDefiningOp()->setAttr(AllocOp::kExtraSlots, b.getI64IntegerAttr(extra));
    if (biasFirst) {
      int64_t eb = cast<BufferType>(Bias.getType()).getElementBytes();
      Value row = e.tile(MemorySpace::LM, 1, nc, accType, t.params.VectorAlign);
      e.dma(e.view(Bias, oc * eb, {1, nc}, {0, eb}), row);
      e.cast(e.view(row, 0, {m, nc}, {0, eb}), acc);
    }
    for (auto [j, chunk] : llvm::enumerate(chunks)) {
      auto [c0, cc] = chunk;
      ConvLayout l = convLayout(p, cc, nc, t.params, tl.stacked);
      Offset chunkAt = (n * Cin + grp * w.C + c0) * plane;
      Value image;
      if (!tl.stacked) {
        image = e.alloc(MemorySpace::LM, {rin, Wp, cc}, xt.getElementType(),
                        {l.imagePitch, cc * ex, ex});
        Value to = e.view(image, 0, {cc, rin, Wp}, {ex, l.imagePitch, cc * ex});
        e.dma(e.view(X, chunkAt + firstRow * (w.W * ex), {cc, real, w.W}, {plane, w.W * ex, ex}), to,
              {0, g.padTop, w.padLeft}, {0, g.padBottom, w.padRight}, fill);
      } else {
        // One image row per output row; per pixel the KH rows the window
        // reaches, kernel row kh's by its own DMA (rows sh apart in GM).
        image = e.alloc(MemorySpace::LM, {g.rows, Wp, w.KH * cc}, xt.getElementType(),
                        {l.imagePitch, w.KH * cc * ex, ex});
        for (int64_t kh = 0; kh < w.KH; ++kh) {
          StackedRows sr = stackedRows(w, g, kh);
          Offset first = oh0 * w.sh + (sr.top * w.sh + kh * w.dh - w.padTop);
          Value to = e.view(image, kh * cc * ex, {cc, g.rows, Wp}, {ex, l.imagePitch, w.KH * cc * ex});
          e.dma(e.view(X, chunkAt + first * (w.W * ex), {cc, g.rows - sr.top - sr.bottom, w.W},
                       {plane, w.sh * w.W * ex, ex}),
                to, {0, sr.top, w.padLeft}, {0, sr.bottom, w.padRight}, fill);
        }
      }
      Value aT = e.alloc(MemorySpace::LM, {m, l.depth}, xt.getElementType(), {l.lda, ex});
      // The gaps zeroed first, from the last 32-byte boundary of each run on
      // (the gathers then write the runs).
      for (auto [from, columns] : gapClears(p, cc, tl.stacked, m, t.params)) {
        Value to = e.view(aT, from * ex, {m, columns}, {l.lda, ex});
        e.cast(e.view(zeros, 0, {m, columns}, {0, ex}), to);
      }
      // Per output row, each kernel row's run of KW x cc (stacked: the whole
      // window, one run of KW x KH x cc) for every output pixel.
      int64_t run = w.KW * stack * cc;
      for (int64_t r = 0; r < g.rows; ++r)
        for (int64_t kh = 0; kh < w.KH / stack; ++kh) {
          Value to = e.view(aT, r * w.OW * l.lda + kh * l.block * ex, {w.OW, run}, {l.lda, ex});
          e.cast(e.view(image, (tl.stacked ? r : r * w.sh + kh * w.dh) * l.imagePitch,
                        {w.OW, run}, {w.sw * stack * cc * ex, ex}),
                 to);
        }
      Offset block = (chunkRow[j] * M + grp * p.outChannels + m0) * ew;
      Value bT;
      if (resident) {
        bT = e.view(resident, block, {l.depth, nc}, {M * ew, ew});
      } else {
        bT = e.tile(MemorySpace::LM, l.depth, nc, wType, ma);
        e.dma(e.view(weights, block, {l.depth, nc}, {M * ew, ew}), bT);
      }
      e.matmul(aT, bT, acc, biasFirst || j > 0, xzp, wzp);
    }
    Value dst = e.view(Y, ((n * M + oc) * w.OH + oh0) * (w.OW * ey), {m, nc}, {ey, w.OH * w.OW * ey});
    epilogue(acc, m, nc, dst,
             {biasFirst ? Value() : Bias, rq, params, false, false, false, k.activation}, 0, oc);
  };
  // Loops over [batch, group, channel tiles, row tiles], one per tile shape.
  int64_t full = p.outChannels / tl.outChannels, rest = p.outChannels % tl.outChannels;
  for (auto [nc, count, first] : {std::tuple{tl.outChannels, full, int64_t(0)},
                                  std::tuple{rest, int64_t(rest > 0), full * tl.outChannels}}) {
    if (count == 0 || nc == 0)
      continue;
    for (const RowGroup &g : depthwiseRowGroups(w, tl.rows)) {
      bool rotate = w.N * p.groups * count * g.count > 1 && tl.buffers > 1;
      e.beginLoop({w.N, p.groups, count, g.count}, rotate ? tl.buffers : 1, rotate);
      body(nc, g, e.coordinate(0), e.coordinate(1), first + e.coordinate(2) * nc,
           g.first + e.coordinate(3));
      e.endLoop();
    }
  }
  return success();
}

/// Depthwise (one input and one output channel per group) on VECTOR, by the
/// tiling select-tiling chose (DepthwiseTiling.h): per tile, a chunk of
/// channels by a run of whole output rows. The image (the input rows the
/// window reaches, padded on the way in with the input zero point) is one
/// DMA of contiguous rows per channel; the chunk's taps, biases and table
/// follow; one V_DW computes every sum of the tile, and the MATRIX output
/// stage drains them through bias and requantization (per channel: per row).
/// Row tiles of one shape (the same rows and padding) form one tile loop.
FailureOr<DepthwiseTiling> KernelLowering::windowTiling(Operation *op, const DepthwiseProblem &p,
                                                        Value X) {
  FailureOr<qk::TilingAttr> tiling = chosenTiling(op, 2, "channels, rows");
  if (failed(tiling))
    return failure();
  if (cast<BufferType>(X.getType()).getShape() != ArrayRef<int64_t>{p.N, p.C, p.H, p.W})
    return op->emitOpError("internal error: the window problem disagrees with its input");
  DepthwiseTiling tl;
  tl.channels = tiling->getTile()[0], tl.rows = tiling->getTile()[1];
  tl.buffers = tiling->getBuffers();
  tl.resident = tiling->getResident();
  if (std::optional<std::string> why = checkTiling(p, tl, t))
    return op->emitOpError() << kTilingAttr << " [" << tl.channels << ", " << tl.rows << "] x "
                             << tl.buffers << " cannot run here: " << *why;
  return tl;
}

void KernelLowering::windowTiles(const DepthwiseProblem &p, const DepthwiseTiling &tl, Value X,
                                 int64_t fill, const std::function<void(const WindowTile &)> &tile) {
  auto xt = cast<BufferType>(X.getType());
  int64_t ex = p.inBytes, Wp = p.paddedWidth(), plane = p.H * p.W * ex;
  // One tile: `chans` channels from c0, the row group's tile `tileIndex`.
  auto body = [&](int64_t chans, const RowGroup &g, Offset n, Offset chunk, Offset tileIndex) {
    Offset c0 = chunk * tl.channels;
    WindowTile w{chans, g.rows, p.imageRows(g.rows), n, c0, tileIndex * tl.rows, chunk, Value(),
                 depthwisePitches(p, g.rows, t.params)};
    int64_t real = w.rin - g.padTop - g.padBottom;
    Offset firstRow = w.oh0 * p.sh + (g.padTop - p.padTop);  // the first real input row
    w.image = e.alloc(MemorySpace::LM, {chans, w.rin, Wp}, xt.getElementType(),
                      {w.pitch.image, Wp * ex, ex});
    e.dma(e.view(X, (n * p.C + c0) * plane + firstRow * (p.W * ex), {chans, real, p.W},
                 {plane, p.W * ex, ex}),
          w.image, {0, g.padTop, p.padLeft}, {0, g.padBottom, p.padRight}, fill);
    tile(w);
  };
  int64_t full = p.C / tl.channels, rest = p.C % tl.channels;
  for (auto [chans, count, first] : {std::tuple{tl.channels, full, int64_t(0)},
                                     std::tuple{rest, int64_t(rest > 0), full}}) {
    if (count == 0 || chans == 0)
      continue;
    for (const RowGroup &g : depthwiseRowGroups(p, tl.rows)) {
      e.beginLoop({p.N, count, g.count}, tl.buffers, tl.buffers > 1);
      body(chans, g, e.coordinate(0), first + e.coordinate(1), g.first + e.coordinate(2));
      e.endLoop();
    }
  }
}

LogicalResult KernelLowering::lowerDepthwise(Operation *op, const ConvBuffers &buf,
                                             const ConvContract &k) {
  Value X = buf.x, W = buf.w, Bias = buf.bias, Y = buf.y;
  int64_t xzp = k.xzp, wzp = k.wzp;
  qk::RequantAttr rq = k.rq;
  std::optional<DepthwiseProblem> problem = depthwiseProblem(op);
  if (!problem)
    return op->emitOpError("internal error: not a depthwise convolution");
  const DepthwiseProblem &p = *problem;
  FailureOr<DepthwiseTiling> tl = windowTiling(op, p, X);
  if (failed(tl))
    return failure();
  auto xt = cast<BufferType>(X.getType()), wt = cast<BufferType>(W.getType()),
       yt = cast<BufferType>(Y.getType());
  int64_t ex = p.inBytes, ey = yt.getElementBytes(), taps = p.KH * p.KW, Wp = p.paddedWidth();
  Type accType = llvm::isa<FloatType>(xt.getElementType()) ? Type(b.getF32Type()) : Type(b.getIntegerType(32));
  Value params = rq && rq.isPerChannel() ? requantTable(rq, p.C) : Value();
  int64_t fill = llvm::isa<FloatType>(xt.getElementType()) ? 0 : int64_t(uint8_t(int8_t(xzp)));
  // Resident parameters (DepthwiseTiling::resident): every chunk's taps,
  // bias and table in LM, loaded once before the tile loops, a chunk
  // starting on a VECTOR boundary; a tile reads its chunk's.
  ResidentPitches pitch = residentPitches(p, tl->channels, t.params);
  Value residentTaps, residentBias, residentParams;
  if (tl->resident) {
    int64_t c = tl->channels, full = p.C / c, rest = p.C % c, chunks = full + (rest > 0);
    // [C][n] elements of `bytes`, `gm` bytes apart per channel in GM and
    // `lm` bytes in LM, as [chunks][c][n] at `chunkPitch`.
    auto load = [&](Value src, int64_t n, int64_t bytes, int64_t gm, int64_t lm,
                    int64_t chunkPitch) {
      Type elem = cast<BufferType>(src.getType()).getElementType();
      Value all = e.alloc(MemorySpace::LM, {chunks, c, n}, elem, {chunkPitch, lm, bytes});
      if (full) {
        Value to = e.view(all, 0, {full, c, n}, {chunkPitch, lm, bytes});
        e.dma(e.view(src, 0, {full, c, n}, {c * gm, gm, bytes}), to);
      }
      if (rest) {
        Value to = e.view(all, full * chunkPitch, {rest, n}, {lm, bytes});
        e.dma(e.view(src, full * c * gm, {rest, n}, {gm, bytes}), to);
      }
      return all;
    };
    residentTaps = load(W, taps, ex, taps * ex, taps * ex, pitch.taps);
    if (Bias) {
      int64_t eb = cast<BufferType>(Bias.getType()).getElementBytes();
      residentBias = load(Bias, 1, eb, eb, rq ? eb : t.params.VectorAlign, pitch.bias);
    }
    if (params)
      residentParams = load(params, tiling::kParamBytes, 1, tiling::kParamBytes, tiling::kParamBytes, pitch.params);
  }
  windowTiles(p, *tl, X, fill, [&](const WindowTile &w) {
    int64_t chans = w.chans;
    Value acc = e.alloc(MemorySpace::ACC, {chans, w.rows * p.OW}, accType, {w.pitch.acc, 4});
    Value sums = e.view(acc, 0, {chans, w.rows, p.OW}, {w.pitch.acc, p.OW * 4, 4});
    // A float result's bias and Relu ride on the last block's V_DW: the
    // chunk's bias in LM (resident, or loaded for the tile), one per channel.
    bool fuse = depthwiseFusesBias(p);
    Value biasTile;
    if (fuse && Bias) {
      int64_t eb = cast<BufferType>(Bias.getType()).getElementBytes();
      if (residentBias) {
        auto bt = cast<BufferType>(residentBias.getType());
        biasTile = e.view(residentBias, w.chunk * pitch.bias, {chans, 1}, {bt.getStrides()[1], eb});
      } else {
        biasTile = e.alloc(MemorySpace::LM, {chans, 1}, accType, {t.params.VectorAlign, eb});
        e.dma(e.view(Bias, w.c0 * eb, {chans, 1}, {eb, eb}), biasTile);
      }
    }
    bool relu = fuse && k.activation.kind == Activation::Relu;
    // The window in blocks V_DW's fields hold (one, unless it is wider than
    // 15), each from its own corner of the image, the later ones accumulating.
    bool first = true;
    std::vector<WindowBlock> blocks = depthwiseWindowBlocks(p);
    for (const WindowBlock &wb : blocks) {
      bool last = &wb == &blocks.back();
      int64_t n = wb.kh * wb.kw;
      Value tapsT;
      if (residentTaps) {
        tapsT = e.view(residentTaps, w.chunk * pitch.taps, {chans, n}, {n * ex, ex});
      } else {
        tapsT = e.alloc(MemorySpace::LM, {chans, n}, wt.getElementType(), {n * ex, ex});
        Value to = e.view(tapsT, 0, {chans, wb.kh, wb.kw}, {n * ex, wb.kw * ex, ex});
        e.dma(e.view(W, w.c0 * (taps * ex) + (wb.i0 * p.KW + wb.j0) * ex, {chans, wb.kh, wb.kw},
                     {taps * ex, p.KW * ex, ex}),
              to);
      }
      int64_t r0 = wb.i0 * p.dh, q0 = wb.j0 * p.dw;
      Value corner = e.view(w.image, (r0 * Wp + q0) * ex, {chans, w.rin - r0, Wp - q0},
                            {w.pitch.image, Wp * ex, ex});
      DepthwiseOp::create(b, e.loc, corner, tapsT, sums, last ? biasTile : Value(),
                          b.getDenseI64ArrayAttr({wb.kh, wb.kw}), b.getDenseI64ArrayAttr({p.sh, p.sw}),
                          b.getDenseI64ArrayAttr({p.dh, p.dw}), !first, xzp, wzp, WindowFunc::MAC,
                          last && relu);
      first = false;
    }
    Value dst = e.view(Y, ((w.n * p.C + w.c0) * p.OH + w.oh0) * (p.OW * ey),
                       {chans, w.rows * p.OW}, {p.OH * p.OW * ey, ey});
    if (fuse) {
      // What is left of the epilogue: a clip's bounds, then the store.
      epilogue(acc, chans, w.rows * p.OW, dst, {Value(), rq, Value(), true, false, true, k.activation},
               w.c0);
      return;
    }
    if (!tl->resident) {
      epilogue(acc, chans, w.rows * p.OW, dst,
               {Bias, rq, params, true, bool(Bias), false, k.activation}, w.c0);
      return;
    }
    // The chunk's resident bias and table: views the epilogue reads in LM.
    Value bias, table;
    if (residentBias) {
      auto bt = cast<BufferType>(residentBias.getType());
      bias = e.view(residentBias, w.chunk * pitch.bias, {chans, 1},
                    {bt.getStrides()[1], bt.getElementBytes()});
    }
    if (residentParams)
      table = e.view(residentParams, w.chunk * pitch.params, {chans, tiling::kParamBytes}, {tiling::kParamBytes, 1});
    epilogue(acc, chans, w.rows * p.OW, dst,
             {bias, rq, table, true, bool(Bias), false, k.activation});
  });
  return success();
}
