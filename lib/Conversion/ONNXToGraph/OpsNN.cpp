//===- OpsNN.cpp - Convolution, matmul, pooling, normalization, reduction -===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Each importer normalizes its opset's form: defaults filled in, auto_pad
// resolved to explicit pads, axes non-negative, attributes-or-inputs unified.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include <limits>

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace npuc::onnx_import;

namespace {
/// Explicit [begins..., ends...] pads for a sliding window, from auto_pad or pads.
std::optional<std::vector<int64_t>> windowPads(NodeContext &c, ArrayRef<int64_t> in,
                                               ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                               ArrayRef<int64_t> dilations) {
  size_t n = in.size();
  if (!c.inSizeRange("kernel_shape", kernel, 1) || !c.inSizeRange("strides", strides, 1) ||
      !c.inSizeRange("dilations", dilations, 1))
    return std::nullopt;
  std::string autoPad = c.stringAttr("auto_pad", "NOTSET");
  std::vector<int64_t> pads(2 * n, 0);
  if (autoPad == "NOTSET") {
    if (auto p = c.intsAttr("pads")) {
      if (p->size() != 2 * n) {
        (void)c.fail(code::UnsupportedAttr, "pads has " + llvm::Twine(p->size()) + " entries, expected " +
                                          llvm::Twine(2 * n));
        return std::nullopt;
      }
      if (!c.inSizeRange("pads", *p, 0))
        return std::nullopt;
      pads = *p;
    }
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t i = 0; i < n; ++i) {
      if (strides[i] < 1 || dilations[i] < 1) {
        (void)c.fail(code::UnsupportedAttr, "strides and dilations must be >= 1");
        return std::nullopt;
      }
      int64_t out = (in[i] + strides[i] - 1) / strides[i];
      int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - in[i]);
      int64_t small = total / 2, large = total - small;
      pads[i] = autoPad == "SAME_UPPER" ? small : large;
      pads[n + i] = autoPad == "SAME_UPPER" ? large : small;
    }
  } else if (autoPad != "VALID") {
    (void)c.fail(code::UnsupportedAttr, "auto_pad '" + autoPad + "' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID");
    return std::nullopt;
  }
  return pads;
}

std::vector<int64_t> intsOr(NodeContext &c, StringRef name, size_t n, int64_t dflt) {
  if (auto v = c.intsAttr(name); v && !v->empty())
    return *v;
  return std::vector<int64_t>(n, dflt);
}

LogicalResult checkCount(NodeContext &c, StringRef name, const std::vector<int64_t> &v, size_t n) {
  if (v.size() == n)
    return success();
  return c.fail(code::UnsupportedAttr, name + llvm::Twine(" has ") + llvm::Twine(v.size()) +
                                           " entries, expected " + llvm::Twine(n));
}

} // namespace

std::optional<ConvGeometry> npuc::onnx_import::convGeometry(NodeContext &c, const Val &x,
                                                            const Val &w) {
  if (x.shape().size() < 3 || w.shape().size() != x.shape().size()) {
    (void)c.fail(code::ShapeMismatch, "input and weight must have the same rank >= 3");
    return std::nullopt;
  }
  size_t n = x.shape().size() - 2;
  ArrayRef<int64_t> kernel = w.shape().drop_front(2);
  if (auto k = c.intsAttr("kernel_shape"); k && ArrayRef<int64_t>(*k) != kernel) {
    (void)c.fail(code::UnsupportedAttr, "kernel_shape does not match the weight's spatial shape");
    return std::nullopt;
  }
  ConvGeometry g;
  g.strides = intsOr(c, "strides", n, 1);
  g.dilations = intsOr(c, "dilations", n, 1);
  if (auto group = c.sizeAttr("group", 1, 1))
    g.group = *group;
  else
    return std::nullopt;
  if (failed(checkCount(c, "strides", g.strides, n)) ||
      failed(checkCount(c, "dilations", g.dilations, n)))
    return std::nullopt;
  auto pads = windowPads(c, x.shape().drop_front(2), kernel, g.strides, g.dilations);
  if (!pads)
    return std::nullopt;
  g.pads = *pads;
  sh::WindowParams p{kernel, g.strides, g.pads, g.dilations, false};
  auto spatial = sh::window(x.shape().drop_front(2), p);
  if (!spatial) {
    (void)c.fail(code::ShapeMismatch, llvm::toString(spatial.takeError()));
    return std::nullopt;
  }
  g.shape = {x.shape()[0], w.shape()[0]};
  g.shape.append(spatial->begin(), spatial->end());
  return g;
}

SmallVector<NamedAttribute> npuc::onnx_import::convAttrs(NodeContext &c, const ConvGeometry &g) {
  return {c.named("strides", i64Array(c, g.strides)), c.named("pads", i64Array(c, g.pads)),
          c.named("dilations", i64Array(c, g.dilations)),
          c.named("group", c.b.getI64IntegerAttr(g.group))};
}

namespace {
LogicalResult importConv(NodeContext &c) {
  std::optional<Val> x = c.required(0), w = c.required(1);
  if (!x || !w)
    return failure();
  std::optional<ConvGeometry> g = convGeometry(c, *x, *w);
  if (!g)
    return failure();
  SmallVector<Value> operands{x->value, w->value};
  if (std::optional<Val> bias = c.input(2))
    operands.push_back(bias->value);
  return c.buildOutput<graph::ConvOp>(operands, c.tensor(g->shape, x->element()),
                                      convAttrs(c, *g));
}

LogicalResult importConvTranspose(NodeContext &c) {
  std::optional<Val> x = c.required(0), w = c.required(1);
  if (!x || !w)
    return failure();
  std::optional<Val> bias = c.input(2);
  if (x->shape().size() < 3 || w->shape().size() != x->shape().size())
    return c.fail(code::ShapeMismatch, "input and weight must have the same rank >= 3");
  size_t n = x->shape().size() - 2;
  ArrayRef<int64_t> in = x->shape().drop_front(2), kernel = w->shape().drop_front(2);
  std::vector<int64_t> strides = intsOr(c, "strides", n, 1), dil = intsOr(c, "dilations", n, 1),
                       outPad = intsOr(c, "output_padding", n, 0);
  if (failed(checkCount(c, "strides", strides, n)) || failed(checkCount(c, "dilations", dil, n)) ||
      failed(checkCount(c, "output_padding", outPad, n)))
    return failure();
  if (!c.inSizeRange("kernel_shape", kernel, 1) || !c.inSizeRange("strides", strides, 1) ||
      !c.inSizeRange("dilations", dil, 1) || !c.inSizeRange("output_padding", outPad, 0))
    return failure();
  // The unpadded output length per axis, in 128 bits: each term is below
  // 2^63 but their sum need not be.
  std::vector<int64_t> full(n);
  for (size_t i = 0; i < n; ++i) {
    __int128 f = __int128(strides[i]) * (in[i] - 1) + outPad[i] + __int128(kernel[i] - 1) * dil[i] + 1;
    if (f > kMaxSizeAttr * kMaxSizeAttr)
      return c.fail(code::Overflow, "output length along spatial axis " + llvm::Twine(i) +
                                        " is past 2^62 (strides x input + dilations x kernel)");
    full[i] = int64_t(f);
  }
  int64_t group = 1;
  if (auto g = c.sizeAttr("group", 1, 1))
    group = *g;
  else
    return failure();
  std::string autoPad = c.stringAttr("auto_pad", "NOTSET");
  std::vector<int64_t> pads(2 * n, 0);
  std::optional<std::vector<int64_t>> outShape = c.intsAttr("output_shape");
  if (outShape && outShape->size() == n + 2)
    outShape = std::vector<int64_t>(outShape->begin() + 2, outShape->end());
  if (outShape && !c.inSizeRange("output_shape", *outShape, 1))
    return failure();
  if (!outShape && (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER")) {
    outShape = std::vector<int64_t>(n);
    for (size_t i = 0; i < n; ++i)
      (*outShape)[i] = in[i] * strides[i];
  }
  if (outShape) {
    if (outShape->size() != n)
      return c.fail(code::UnsupportedAttr, "output_shape has the wrong rank");
    for (size_t i = 0; i < n; ++i) {
      // ONNX's total padding, halved with floor division as its reference
      // does; a negative end pad (output_shape past the full output) is more
      // output_padding: zeros at the end.
      int64_t total = full[i] - (*outShape)[i];
      int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      bool upper = autoPad == "SAME_UPPER";
      pads[i] = upper ? half : total - half;
      pads[n + i] = upper ? total - half : half;
      if (pads[i] < 0)
        return c.fail(code::UnsupportedAttr, "output_shape " + llvm::Twine((*outShape)[i]) + " along spatial axis " +
                                                 llvm::Twine(i) + " starts the output before the full output's first "
                                                 "element (full length " + llvm::Twine(full[i]) + ")");
      if (pads[n + i] < 0) {
        outPad[i] -= pads[n + i];
        full[i] -= pads[n + i];
        pads[n + i] = 0;
      }
    }
  } else if (autoPad == "NOTSET") {
    if (auto p = c.intsAttr("pads")) {
      if (failed(checkCount(c, "pads", *p, 2 * n)) || !c.inSizeRange("pads", *p, 0))
        return failure();
      pads = *p;
    }
  } else if (autoPad != "VALID") {
    return c.fail(code::UnsupportedAttr, "auto_pad '" + autoPad + "' is not supported");
  }
  SmallVector<int64_t> shape{x->shape()[0], w->shape()[1] * group};
  for (size_t i = 0; i < n; ++i)
    shape.push_back(full[i] - pads[i] - pads[n + i]);
  SmallVector<Value> operands{x->value, w->value};
  if (bias)
    operands.push_back(bias->value);
  return c.buildOutput<graph::ConvTransposeOp>(operands, c.tensor(shape, x->element()),
                                               {c.named("strides", i64Array(c, strides)),
                                                c.named("pads", i64Array(c, pads)),
                                                c.named("dilations", i64Array(c, dil)),
                                                c.named("output_padding", i64Array(c, outPad)),
                                                c.named("group", c.b.getI64IntegerAttr(group))});
}

LogicalResult importGemm(NodeContext &c) {
  std::optional<Val> a = c.required(0), b = c.required(1);
  if (!a || !b)
    return failure();
  std::optional<Val> cc = c.input(2);
  if (a->shape().size() != 2 || b->shape().size() != 2)
    return c.fail(code::ShapeMismatch, "Gemm operands must be 2-D");
  bool ta = c.intAttr("transA", 0), tb = c.intAttr("transB", 0);
  SmallVector<int64_t> shape{a->shape()[ta ? 1 : 0], b->shape()[tb ? 0 : 1]};
  SmallVector<Value> operands{a->value, b->value};
  if (cc)
    operands.push_back(cc->value);
  return c.buildOutput<graph::GemmOp>(
      operands, c.tensor(shape, a->element()),
      {c.named("trans_a", c.b.getBoolAttr(ta)), c.named("trans_b", c.b.getBoolAttr(tb)),
       c.named("alpha", c.b.getF32FloatAttr(c.floatAttr("alpha", 1.0f))),
       c.named("beta", c.b.getF32FloatAttr(c.floatAttr("beta", 1.0f)))});
}

LogicalResult importMatMul(NodeContext &c) {
  std::optional<Val> a = c.required(0), b = c.required(1);
  if (!a || !b)
    return failure();
  auto shape = sh::matmul(a->shape(), b->shape());
  if (!shape)
    return c.fail(code::ShapeMismatch, llvm::toString(shape.takeError()));
  return c.buildOutput<graph::MatMulOp>({a->value, b->value}, c.tensor(*shape, a->element()));
}

/// MaxPool, AveragePool and LpPool: one window contract (kernel, strides,
/// dilations, explicit or SAME/VALID pads, ceil mode).
/// MaxPool's Indices output (2-D f32, storage_order 0): the window's first
/// position (row-major) whose value is the max y, as ONNX's flat index into x
/// (n * C * H * W + c * H * W + h * W + w; + w * H + h with storage_order
/// 1, column-major). Per window offset, a strided slice
/// of x padded with -inf and a constant of the flat indices it reads; from
/// the last offset to the first, the index is taken where the slice equals y.
FailureOr<Value> maxPoolIndices(NodeContext &c, const Val &x, Value y, ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> strides, ArrayRef<int64_t> pads, ArrayRef<int64_t> dil,
                                ArrayRef<int64_t> out, bool columnMajor) {
  ArrayRef<int64_t> s = x.shape();
  int64_t N = s[0], C = s[1], H = s[2], W = s[3], OH = out[2], OW = out[3];
  int64_t K = kernel[0] * kernel[1];
  if (!c.fitsBuiltConstant(N * C * OH * OW * K, "the indices MaxPool's windows read"))
    return failure();
  int64_t extraH = std::max<int64_t>(0, (OH - 1) * strides[0] + (kernel[0] - 1) * dil[0] + 1 - H - pads[0] - pads[2]);
  int64_t extraW = std::max<int64_t>(0, (OW - 1) * strides[1] + (kernel[1] - 1) * dil[1] + 1 - W - pads[1] - pads[3]);
  Type f32 = x.element(), i64 = c.b.getI64Type();
  SmallVector<int64_t> padded{N, C, H + pads[0] + pads[2] + extraH, W + pads[1] + pads[3] + extraW};
  FailureOr<Value> xp = c.build<graph::PadOp>(
      {x.value}, c.tensor(padded, f32),
      {c.named("pads", c.b.getDenseI64ArrayAttr({0, 0, pads[0], pads[1], 0, 0, pads[2] + extraH, pads[3] + extraW})),
       c.named("mode", c.b.getStringAttr("constant")),
       c.named("value", c.b.getF64FloatAttr(-std::numeric_limits<double>::infinity()))});
  if (failed(xp))
    return failure();
  auto outF = c.tensor(out, f32), outI = c.tensor(out, i64), outB = c.tensor(out, c.b.getI1Type());
  FailureOr<Value> idx = FailureOr<Value>(failure());
  for (int64_t k = K - 1; k >= 0; --k) {
    int64_t i = k / kernel[1], j = k % kernel[1];
    int64_t h0 = i * dil[0], w0 = j * dil[1];
    FailureOr<Value> cand = c.build<graph::SliceOp>(
        {*xp}, outF,
        {c.named("starts", c.b.getDenseI64ArrayAttr({0, 0, h0, w0})),
         c.named("ends", c.b.getDenseI64ArrayAttr({N, C, h0 + (OH - 1) * strides[0] + 1, w0 + (OW - 1) * strides[1] + 1})),
         c.named("steps", c.b.getDenseI64ArrayAttr({1, 1, strides[0], strides[1]}))});
    std::vector<int64_t> flat(static_cast<size_t>(N * C * OH * OW));
    for (int64_t nc = 0; nc < N * C; ++nc)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          int64_t h = oh * strides[0] + h0 - pads[0], w = ow * strides[1] + w0 - pads[1];
          bool in = h >= 0 && h < H && w >= 0 && w < W;
          flat[size_t((nc * OH + oh) * OW + ow)] = !in ? -1 : nc * H * W + (columnMajor ? w * H + h : h * W + w);
        }
    Value at = c.constant(DenseElementsAttr::get(outI, ArrayRef<int64_t>(flat))).value;
    if (k == K - 1) {
      idx = at;
      continue;
    }
    FailureOr<Value> eq = succeeded(cand) ? c.build<graph::EqualOp>({*cand, y}, outB) : cand;
    if (failed(eq) || failed(idx))
      return failure();
    idx = c.build<graph::WhereOp>({*eq, at, *idx}, outI);
  }
  return idx;
}

/// Whether a dilated pooling reads only every d-th element of each axis:
/// some dilation d > 1, and every stride a multiple of its dilation.
bool subsamplesDilation(ArrayRef<int64_t> strides, ArrayRef<int64_t> dil) {
  bool dilated = false;
  for (size_t i = 0; i < dil.size(); ++i) {
    dilated |= dil[i] > 1;
    if (strides[i] % dil[i])
      return false;
  }
  return dilated;
}

/// A max pooling whose strides are multiples of its dilations reads, along
/// each axis, only the padded input's elements 0, d, 2d, ...: the input
/// padded with -inf (and to the last window's end), sliced with step d, then
/// an undilated pooling of the same kernel with stride s / d. The window no
/// longer spans (k - 1) d + 1 elements in LM, only k. Exact.
LogicalResult importDilatedMaxPool(NodeContext &c, const Val &x, ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                   ArrayRef<int64_t> pads, ArrayRef<int64_t> dil, ArrayRef<int64_t> out) {
  size_t n = kernel.size();
  ArrayRef<int64_t> xs = x.shape();
  SmallVector<int64_t> padAttr(2 * (n + 2), 0), padded(xs.begin(), xs.begin() + 2), starts(n + 2, 0),
      ends(xs.begin(), xs.begin() + 2), steps(n + 2, 1), sliced(xs.begin(), xs.begin() + 2), subStrides;
  for (size_t i = 0; i < n; ++i) {
    int64_t o = out[2 + i], span = (o - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1;
    int64_t extra = std::max<int64_t>(0, span - (xs[2 + i] + pads[i] + pads[n + i]));
    padAttr[2 + i] = pads[i];
    padAttr[n + 2 + 2 + i] = pads[n + i] + extra;
    padded.push_back(xs[2 + i] + pads[i] + pads[n + i] + extra);
    ends.push_back(span);
    steps[2 + i] = dil[i];
    sliced.push_back((o - 1) * (strides[i] / dil[i]) + kernel[i]);
    subStrides.push_back(strides[i] / dil[i]);
  }
  OpChain b{c};
  Value v = b.op<graph::PadOp>({x.value}, c.tensor(padded, x.element()),
                               {c.named("pads", i64Array(c, padAttr)), c.named("mode", c.b.getStringAttr("constant")),
                                c.named("value", c.b.getF64FloatAttr(-std::numeric_limits<double>::infinity()))});
  v = b.op<graph::SliceOp>({v}, c.tensor(sliced, x.element()),
                           {c.named("starts", i64Array(c, starts)), c.named("ends", i64Array(c, ends)),
                            c.named("steps", i64Array(c, steps))});
  std::vector<int64_t> zeros(2 * n, 0), ones(n, 1);
  v = b.op<graph::MaxPoolOp>({v}, c.tensor(out, x.element()),
                             {c.named("kernel_shape", i64Array(c, kernel)), c.named("strides", i64Array(c, subStrides)),
                              c.named("pads", i64Array(c, zeros)), c.named("dilations", i64Array(c, ones)),
                              c.named("ceil_mode", c.b.getBoolAttr(false))});
  return b.finish(v);
}

LogicalResult importPool(NodeContext &c) {
  bool isMax = c.node.op_type() == "MaxPool", isLp = c.node.op_type() == "LpPool";
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  bool withIndices = isMax && c.node.output_size() > 1 && !c.node.output(1).empty();
  if (withIndices && (x->shape().size() != 4 || !x->element().isF32()))
    return c.fail(code::UnsupportedAttr, "the Indices output of MaxPool is supported for 2-D f32 inputs");
  // storage_order only orders the Indices output's flat positions.
  if (x->shape().size() < 3)
    return c.fail(code::ShapeMismatch, "input must have rank >= 3");
  size_t n = x->shape().size() - 2;
  std::optional<std::vector<int64_t>> kernel = c.intsAttr("kernel_shape");
  if (!kernel || kernel->size() != n)
    return c.fail(code::UnsupportedAttr, "kernel_shape must list " + llvm::Twine(n) + " sizes");
  std::vector<int64_t> strides = intsOr(c, "strides", n, 1), dil = intsOr(c, "dilations", n, 1);
  if (failed(checkCount(c, "strides", strides, n)) || failed(checkCount(c, "dilations", dil, n)))
    return failure();
  auto pads = windowPads(c, x->shape().drop_front(2), *kernel, strides, dil);
  if (!pads)
    return failure();
  bool ceil = c.intAttr("ceil_mode", 0);
  sh::WindowParams p{*kernel, strides, *pads, dil, ceil};
  auto spatial = sh::window(x->shape().drop_front(2), p);
  if (!spatial)
    return c.fail(code::ShapeMismatch, llvm::toString(spatial.takeError()));
  SmallVector<int64_t> shape{x->shape()[0], x->shape()[1]};
  shape.append(spatial->begin(), spatial->end());
  SmallVector<NamedAttribute> attrs{c.named("kernel_shape", i64Array(c, *kernel)),
                                    c.named("strides", i64Array(c, strides)),
                                    c.named("pads", i64Array(c, *pads)),
                                    c.named("dilations", i64Array(c, dil)),
                                    c.named("ceil_mode", c.b.getBoolAttr(ceil))};
  if (isLp)
    attrs.push_back(c.named("p", c.b.getI64IntegerAttr(c.intAttr("p", 2))));
  else if (!isMax)
    attrs.push_back(c.named("count_include_pad", c.b.getBoolAttr(c.intAttr("count_include_pad", 0))));
  GraphOpBuilder op = isMax  ? graphOp<graph::MaxPoolOp>
                      : isLp ? graphOp<graph::LpPoolOp>
                             : graphOp<graph::AveragePoolOp>;
  if (isMax && !withIndices && x->element().isF32() && subsamplesDilation(strides, dil))
    return importDilatedMaxPool(c, *x, *kernel, strides, *pads, dil, shape);
  if (withIndices) {
    FailureOr<Value> y = c.build(op, {x->value}, c.tensor(shape, x->element()), attrs);
    if (failed(y))
      return failure();
    FailureOr<Value> idx = maxPoolIndices(c, *x, *y, *kernel, strides, *pads, dil, shape,
                                             c.intAttr("storage_order", 0) != 0);
    if (failed(idx))
      return failure();
    c.setOutput(0, *y);
    c.setOutput(1, *idx);
    return success();
  }
  return c.buildOutput(op, {x->value}, c.tensor(shape, x->element()), attrs);
}

/// GlobalLpPool: (sum over the spatial axes of |x|^p)^(1/p), as ONNX's
/// reference computes it: |x| (p 1), x * x and a square root (p 2), or Pow.
LogicalResult importGlobalLpPool(NodeContext &c, const Val &x, ArrayRef<int64_t> shape) {
  if (!x.element().isF32())
    return c.fail(code::UnsupportedType, "GlobalLpPool of f32 data only");
  int64_t p = c.intAttr("p", 2);
  if (p < 1)
    return c.fail(code::UnsupportedAttr, "p " + llvm::Twine(p) + " is not 1 or more");
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < int64_t(shape.size()); ++d)
    axes.push_back(d);
  Type f32 = x.element();
  OpChain b{c};
  RankedTensorType t = x.type(), rt = c.tensor(shape, f32);
  Value v;
  if (p == 2) {
    v = b.op<graph::MulOp>({x.value, x.value}, t);
  } else {
    v = b.op<graph::AbsOp>({x.value}, t);
    if (p != 1)
      v = b.op<graph::PowOp>({v, b.splat(f32, double(p))}, t);
  }
  Value sum = b.op<graph::ReduceSumOp>({v}, rt, {c.named("axes", c.b.getDenseI64ArrayAttr(axes)),
                                                 c.named("keepdims", c.b.getBoolAttr(true))});
  Value y = p == 1 ? sum : p == 2 ? b.op<graph::SqrtOp>({sum}, rt) : b.op<graph::PowOp>({sum, b.splat(f32, 1.0 / double(p))}, rt);
  return b.finish(y);
}

LogicalResult importGlobalPool(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  if (x->shape().size() < 3)
    return c.fail(code::ShapeMismatch, "input must have rank >= 3");
  SmallVector<int64_t> shape(x->shape());
  std::fill(shape.begin() + 2, shape.end(), 1);
  if (c.node.op_type() == "GlobalLpPool")
    return importGlobalLpPool(c, *x, shape);
  GraphOpBuilder op = c.node.op_type() == "GlobalMaxPool" ? graphOp<graph::GlobalMaxPoolOp>
                                                           : graphOp<graph::GlobalAveragePoolOp>;
  return c.buildOutput(op, {x->value}, c.tensor(shape, x->element()));
}

/// BatchNormalization with training_mode = 1 (opset 14 on): the batch's own
/// statistics, mean and (biased) variance over every axis but the channels,
/// normalize x; the running statistics come out as mean * momentum + batch
/// statistic * (1 - momentum), ONNX's definition in f32 steps.
LogicalResult importBatchNormTraining(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  ArrayRef<int64_t> s = x->shape();
  if (!x->element().isF32() || s.size() < 2)
    return c.fail(code::UnsupportedType, "training-mode BatchNormalization of f32 [N, C, ...] only");
  int64_t C = s[1];
  SmallVector<Value> params;
  for (size_t i = 1; i < 5; ++i) {
    std::optional<Val> v = c.required(i);
    if (!v)
      return failure();
    if (v->shape().size() != 1 || v->shape()[0] != C || !v->element().isF32())
      return c.fail(code::ShapeMismatch, "input " + llvm::Twine(i) + " must be f32 [C]");
    params.push_back(v->value);
  }
  Type f32 = x->element();
  SmallVector<int64_t> axes, cShape(s.size(), 1);
  cShape[1] = C;
  for (int64_t d = 0; d < int64_t(s.size()); ++d)
    if (d != 1)
      axes.push_back(d);
  auto ct = c.tensor(cShape, f32), vt = c.tensor({C}, f32);
  SmallVector<NamedAttribute> reduce{c.named("axes", i64Array(c, axes)), c.named("keepdims", c.b.getBoolAttr(true))};
  auto scalar = [&](double v) {
    return c.constant(DenseElementsAttr::get(c.tensor({1}, f32), ArrayRef<float>{float(v)})).value;
  };
  double eps = c.floatAttr("epsilon", 1e-5f), momentum = c.floatAttr("momentum", 0.9f);
  FailureOr<Value> mean = c.build<graph::ReduceMeanOp>({x->value}, ct, reduce);
  FailureOr<Value> d = succeeded(mean) ? c.build<graph::SubOp>({x->value, *mean}, x->type()) : mean;
  FailureOr<Value> sq = succeeded(d) ? c.build<graph::MulOp>({*d, *d}, x->type()) : d;
  FailureOr<Value> var = succeeded(sq) ? c.build<graph::ReduceMeanOp>({*sq}, ct, reduce) : sq;
  FailureOr<Value> den = succeeded(var) ? c.build<graph::AddOp>({*var, scalar(eps)}, ct) : var;
  if (succeeded(den))
    den = c.build<graph::SqrtOp>({*den}, ct);
  FailureOr<Value> scale = c.build<graph::ReshapeOp>({params[0]}, ct);
  FailureOr<Value> bias = c.build<graph::ReshapeOp>({params[1]}, ct);
  if (failed(den) || failed(scale) || failed(bias))
    return failure();
  FailureOr<Value> y = c.build<graph::DivOp>({*d, *den}, x->type());
  if (succeeded(y))
    y = c.build<graph::MulOp>({*y, *scale}, x->type());
  if (succeeded(y))
    y = c.build<graph::AddOp>({*y, *bias}, x->type());
  if (failed(y))
    return failure();
  c.setOutput(0, *y);
  // Running statistics: input * momentum + batch statistic * (1 - momentum).
  for (auto [k, batch, running] : {std::tuple{1, *mean, params[2]}, std::tuple{2, *var, params[3]}}) {
    FailureOr<Value> b = c.build<graph::ReshapeOp>({batch}, vt);
    FailureOr<Value> keep = c.build<graph::MulOp>({running, scalar(momentum)}, vt);
    if (succeeded(b))
      b = c.build<graph::MulOp>({*b, scalar(1.0 - momentum)}, vt);
    if (failed(b) || failed(keep))
      return failure();
    FailureOr<Value> out = c.build<graph::AddOp>({*keep, *b}, vt);
    if (failed(out))
      return failure();
    c.setOutput(size_t(k), *out);
  }
  return success();
}

LogicalResult importBatchNorm(NodeContext &c) {
  if (c.opset >= 14 && c.intAttr("training_mode", 0))
    return importBatchNormTraining(c);
  for (int i = 1; i < c.node.output_size(); ++i)
    if (!c.node.output(i).empty())
      return c.fail(code::UnsupportedAttr, "the running statistics of BatchNormalization come out only in "
                                           "training mode (training_mode = 1, opset 14 on)");
  // Before opset 7 BatchNormalization trains unless is_test = 1; before
  // opset 9, spatial = 0 asks for per-activation statistics.
  if (c.opset < 7 && c.intAttr("is_test", 0) == 0)
    return c.fail(code::UnsupportedAttr, "training-mode BatchNormalization (is_test = 0) is not supported");
  if (c.opset < 9 && c.intAttr("spatial", 1) == 0)
    return c.fail(code::UnsupportedAttr,
                  "spatial = 0 (per-activation statistics) is not supported");
  SmallVector<Value> operands;
  for (size_t i = 0; i < 5; ++i) {
    std::optional<Val> v = c.required(i);
    if (!v)
      return failure();
    operands.push_back(v->value);
  }
  return c.buildOutput<graph::BatchNormOp>(
      operands, operands[0].getType(),
      {c.named("epsilon", c.b.getF32FloatAttr(c.floatAttr("epsilon", 1e-5f)))});
}

LogicalResult importSoftmax(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  GraphOpBuilder op = c.node.op_type() == "LogSoftmax" ? graphOp<graph::LogSoftmaxOp>
                                                        : graphOp<graph::SoftmaxOp>;
  int64_t rank = int64_t(x->shape().size());
  std::optional<int64_t> axis = c.axis(c.intAttr("axis", c.opset < 13 ? 1 : -1), rank);
  if (!axis)
    return failure();
  if (c.opset >= 13 || *axis == rank - 1) {
    return c.buildOutput(op, {x->value}, x->type(), {c.named("axis", c.b.getI64IntegerAttr(*axis))});
  }
  // Before opset 13 the input is coerced to 2-D at `axis`.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < *axis ? outer : inner) *= x->shape()[d];
  FailureOr<Value> flat = buildReshape(c, x->value, {outer, inner});
  if (failed(flat))
    return failure();
  FailureOr<Value> r = c.build(op, {*flat}, c.tensor({outer, inner}, x->element()),
                               {c.named("axis", c.b.getI64IntegerAttr(1))});
  if (failed(r))
    return failure();
  FailureOr<Value> back = buildReshape(c, *r, x->shape());
  if (failed(back))
    return failure();
  c.setOutput(0, *back);
  return success();
}

LogicalResult importReduce(NodeContext &c) {
  static const llvm::StringMap<GraphOpBuilder> ops = {
      {"ReduceMean", graphOp<graph::ReduceMeanOp>},
      {"ReduceSum", graphOp<graph::ReduceSumOp>},
      {"ReduceMax", graphOp<graph::ReduceMaxOp>},
      {"ReduceMin", graphOp<graph::ReduceMinOp>},
      {"ReduceProd", graphOp<graph::ReduceProdOp>},
      {"ReduceL1", graphOp<graph::ReduceL1Op>},
      {"ReduceL2", graphOp<graph::ReduceL2Op>},
      {"ReduceSumSquare", graphOp<graph::ReduceSumSquareOp>},
      {"ReduceLogSumExp", graphOp<graph::ReduceLogSumExpOp>},
      {"ReduceLogSum", graphOp<graph::ReduceLogSumOp>}};
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  int64_t rank = int64_t(x->shape().size());
  bool axesAsInput = c.node.op_type() == "ReduceSum" ? c.opset >= 13 : c.opset >= 18;
  std::vector<int64_t> axes;
  if (axesAsInput) {
    if (c.input(1)) {
      auto v = c.constantInts(1, "axes");
      if (!v)
        return failure();
      axes = *v;
    }
  } else if (auto a = c.intsAttr("axes")) {
    axes = *a;
  }
  bool keep = c.intAttr("keepdims", 1);
  if (axes.empty()) {
    if (c.intAttr("noop_with_empty_axes", 0)) {
      c.setOutput(0, *x);
      return success();
    }
    axes.resize(static_cast<size_t>(rank));
    std::iota(axes.begin(), axes.end(), 0);
  }
  for (int64_t &a : axes) {
    auto n = c.axis(a, rank);
    if (!n)
      return failure();
    a = *n;
  }
  llvm::sort(axes);
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  if (rank == 0) {
    // Of one value, these reductions are not the identity: reduce a [1] view.
    StringRef type = c.node.op_type();
    if (type != "ReduceSumSquare" && type != "ReduceL1" && type != "ReduceL2" && type != "ReduceLogSum") {
      c.setOutput(0, *x);
      return success();
    }
    FailureOr<Value> one = buildReshape(c, x->value, {1});
    if (failed(one))
      return failure();
    return c.buildOutput(ops.find(type)->second, {*one}, x->type(),
                         {c.named("axes", i64Array(c, {0})), c.named("keepdims", c.b.getBoolAttr(false))});
  }
  auto shape = sh::reduce(x->shape(), axes, keep);
  if (!shape)
    return c.fail(code::ShapeMismatch, llvm::toString(shape.takeError()));
  if (c.node.op_type() == "ReduceProd")
    return importReduceProd(c, *x, axes, keep);
  return c.buildOutput(ops.find(c.node.op_type())->second, {x->value},
                       c.tensor(*shape, x->element()),
                       {c.named("axes", i64Array(c, axes)),
                        c.named("keepdims", c.b.getBoolAttr(keep))});
}

LogicalResult importArg(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  std::optional<int64_t> axis = c.axis(c.intAttr("axis", 0), int64_t(x->shape().size()));
  if (!axis)
    return failure();
  bool keep = c.intAttr("keepdims", 1);
  auto shape = sh::reduce(x->shape(), {*axis}, keep);
  if (!shape)
    return c.fail(code::ShapeMismatch, llvm::toString(shape.takeError()));
  GraphOpBuilder op =
      c.node.op_type() == "ArgMax" ? graphOp<graph::ArgMaxOp> : graphOp<graph::ArgMinOp>;
  return c.buildOutput(op, {x->value}, c.tensor(*shape, c.b.getI64Type()),
                       {c.named("axis", c.b.getI64IntegerAttr(*axis)),
                        c.named("keepdims", c.b.getBoolAttr(keep)),
                        c.named("select_last_index",
                                c.b.getBoolAttr(c.intAttr("select_last_index", 0)))});
}

} // namespace

namespace {
/// Col2Im (opset 18): the columns [N, C * prod(block), L] summed back into
/// an image [N, C, image...] (each block's element k of a column to its
/// position), which is a ConvTranspose of the columns seen as [N, C *
/// prod(block), cols...] by one-hot weights [C * prod(block), 1, block...]
/// in C groups (weight k of a group is 1 at block offset k): output
/// position col * stride - pad + offset * dilation, as ONNX's reference
/// places it; output_padding makes up the image rows a stride skips.
LogicalResult importCol2Im(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  auto image = c.constantInts(1, "image_shape");
  auto block = c.constantInts(2, "block_shape");
  if (!x || !image || !block)
    return failure();
  size_t n = image->size();
  if (n < 1 || n > 3 || block->size() != n || x->shape().size() != 3)
    return c.fail(code::ShapeMismatch, "Col2Im needs input [N, C * prod(block), L] and image_shape and block_shape "
                                       "of 1 to 3 equal entries");
  if (!x->element().isF32())
    return c.fail(code::UnsupportedType, "Col2Im of f32 data only");
  if (!c.inSizeRange("image_shape", *image, 1) || !c.inSizeRange("block_shape", *block, 1))
    return failure();
  auto attr = [&](StringRef name, int64_t fill, size_t count) -> std::optional<std::vector<int64_t>> {
    std::vector<int64_t> v = c.intsAttr(name).value_or(std::vector<int64_t>(count, fill));
    if (v.size() != count) {
      (void)c.fail(code::UnsupportedAttr, name + " has " + llvm::Twine(v.size()) + " entries, expected " +
                                              llvm::Twine(count));
      return std::nullopt;
    }
    if (!c.inSizeRange(name, v, fill))
      return std::nullopt;
    return v;
  };
  auto dil = attr("dilations", 1, n), pads = attr("pads", 0, 2 * n), strides = attr("strides", 1, n);
  if (!dil || !pads || !strides)
    return failure();
  int64_t bl = 1, L = 1;
  SmallVector<int64_t> cols, outPad;
  for (size_t i = 0; i < n; ++i) {
    bl *= (*block)[i];
    int64_t span = (*image)[i] + (*pads)[i] + (*pads)[n + i] - (*dil)[i] * ((*block)[i] - 1) - 1;
    if (span < 0)
      return c.fail(code::ShapeMismatch, "block " + llvm::Twine((*block)[i]) + " with dilation " +
                                             llvm::Twine((*dil)[i]) + " does not fit image axis " + llvm::Twine(i) +
                                             " of " + llvm::Twine((*image)[i]) + " (padded)");
    cols.push_back(span / (*strides)[i] + 1);
    outPad.push_back(span % (*strides)[i]);
    L *= cols.back();
  }
  ArrayRef<int64_t> xs = x->shape();
  if (xs[1] % bl || xs[2] != L)
    return c.fail(code::ShapeMismatch, "input " + sh::str(xs) + " must be [N, C * " + llvm::Twine(bl) + ", " +
                                           llvm::Twine(L) + "] for these blocks and image");
  int64_t C = xs[1] / bl;
  if (!c.fitsBuiltConstant(C * bl * bl, "Col2Im's one-hot weights"))
    return failure();
  std::vector<float> w(static_cast<size_t>(C * bl * bl), 0.0f);
  for (int64_t ch = 0; ch < C; ++ch)
    for (int64_t k = 0; k < bl; ++k)
      w[size_t((ch * bl + k) * bl + k)] = 1.0f;
  SmallVector<int64_t> wShape{C * bl, 1};
  wShape.append(block->begin(), block->end());
  SmallVector<int64_t> colShape{xs[0], xs[1]};
  colShape.append(cols.begin(), cols.end());
  // The padded image (pads past the kernel have no ConvTranspose
  // lowering), then the image cut out of it.
  SmallVector<int64_t> padded{xs[0], C}, starts{0, 0}, ends{xs[0], C}, steps(n + 2, 1);
  for (size_t i = 0; i < n; ++i) {
    padded.push_back((*image)[i] + (*pads)[i] + (*pads)[n + i]);
    starts.push_back((*pads)[i]);
    ends.push_back((*pads)[i] + (*image)[i]);
  }
  OpChain b{c};
  Value weights = c.constant(DenseElementsAttr::get(c.tensor(wShape, x->element()), ArrayRef<float>(w))).value;
  Value y = b.op<graph::ConvTransposeOp>({b.reshape(x->value, colShape), weights}, c.tensor(padded, x->element()),
                                         {c.named("strides", i64Array(c, *strides)),
                                          c.named("pads", i64Array(c, std::vector<int64_t>(2 * n, 0))),
                                          c.named("dilations", i64Array(c, *dil)),
                                          c.named("output_padding", i64Array(c, outPad)),
                                          c.named("group", c.b.getI64IntegerAttr(C))});
  if (llvm::any_of(*pads, [](int64_t p) { return p != 0; })) {
    SmallVector<int64_t> out{xs[0], C};
    out.append(image->begin(), image->end());
    y = b.op<graph::SliceOp>({y}, c.tensor(out, x->element()),
                             {c.named("starts", i64Array(c, starts)), c.named("ends", i64Array(c, ends)),
                              c.named("steps", i64Array(c, steps))});
  }
  return b.finish(y);
}
} // namespace

void npuc::onnx_import::registerNNOps(llvm::StringMap<OpImporter> &t) {
  t["Col2Im"] = importCol2Im;
  t["Conv"] = importConv;
  t["ConvTranspose"] = importConvTranspose;
  t["Gemm"] = importGemm;
  t["MatMul"] = importMatMul;
  t["MaxPool"] = importPool;
  t["AveragePool"] = importPool;
  t["LpPool"] = importPool;
  t["GlobalAveragePool"] = importGlobalPool;
  t["GlobalMaxPool"] = importGlobalPool;
  t["GlobalLpPool"] = importGlobalPool;
  t["BatchNormalization"] = importBatchNorm;
  t["Softmax"] = importSoftmax;
  t["LogSoftmax"] = importSoftmax;
  for (const char *op : {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd",
                         "ReduceL1", "ReduceL2", "ReduceSumSquare", "ReduceLogSumExp", "ReduceLogSum"})
    t[op] = importReduce;
  t["ArgMax"] = importArg;
  t["ArgMin"] = importArg;
}
