//===- GraphExpandGather.cpp - Table lookups as one-hot matrix products ----===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"
#include "npuc/Dialect/Graph/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace npuc::graph {
#define GEN_PASS_DEF_GRAPHEXPANDGATHER
#include "npuc/Dialect/Graph/Transforms/Passes.h.inc"
} // namespace npuc::graph

using namespace mlir;
using namespace npuc::graph;

namespace {
/// The one-hot matrix's elements beyond which the lookup is left alone (a
/// diagnostic at lowering): 64 Mi f32, 256 MiB of GM.
constexpr int64_t kMaxOneHot = int64_t(1) << 26;

/// Gather(data, ids) of f32 data [A, V, B] along its axis of V by indices:
/// onehot(ids) [N, V] x data [A, V, B] (a batched product for A > 1), with
/// negative ids counted from the end: exact (each sum is one product 1 * w
/// and zeros). Used where no cheaper form applies: constant ids that make
/// more runs than the lowering copies (copiesWill) give a constant one-hot
/// matrix; ids known at run time go to the indexed DMA (qk.gather) unless
/// the rows do not fit its fields (shapes::indexedGatherMisfit).
/// An integer constant of element type `it` (the indices' type).
Value intConstant(PatternRewriter &rewriter, Location loc, Type it, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> values) {
  auto t = RankedTensorType::get(shape, it);
  SmallVector<APInt> v;
  for (int64_t x : values)
    v.push_back(APInt(cast<IntegerType>(it).getWidth(), uint64_t(x), true));
  return ConstantOp::create(rewriter, loc, t, DenseElementsAttr::get(t, v)).getResult();
}

/// ids < 0 ? ids + V : ids (ONNX's negative indices count from the end).
Value wrapNegative(PatternRewriter &rewriter, Location loc, Value ids, int64_t V) {
  auto t = cast<RankedTensorType>(ids.getType());
  Type it = t.getElementType();
  auto mask = RankedTensorType::get(t.getShape(), rewriter.getI1Type());
  Value negative = LessOp::create(rewriter, loc, mask, ids, intConstant(rewriter, loc, it, {1}, {0}));
  Value wrapped = AddOp::create(rewriter, loc, t, ids, intConstant(rewriter, loc, it, {1}, {V}));
  return WhereOp::create(rewriter, loc, t, negative, wrapped, ids);
}

/// Whether a gather's indices are a constant, each in [-V, V), that makes at
/// most shapes::kMaxStridedCopies runs: the lowering copies those rows as
/// they are (any element type, inf and NaN included), which no product beats.
bool copiesWill(GatherOp op) {
  std::optional<SmallVector<int64_t>> src = constantGatherSources(op);
  return src && int64_t(shapes::indexRuns(*src).size()) <= shapes::kMaxStridedCopies;
}

struct ExpandGather : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherOp op, PatternRewriter &rewriter) const override {
    auto dataType = cast<RankedTensorType>(op.getData().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    int64_t axis = op.getAxis();
    if (!dataType.getElementType().isF32() || axis < 0 || axis >= dataType.getRank())
      return failure();
    if (copiesWill(op))
      return rewriter.notifyMatchFailure(op, "constant indices: strided copies, exact and cheaper");
    if (!op.getIndices().getDefiningOp<ConstantOp>() &&
        shapes::indexedGatherMisfit(dataType.getShape(), axis, 4).empty())
      return rewriter.notifyMatchFailure(op, "indices known at run time: the indexed DMA moves each row");
    ArrayRef<int64_t> shape = dataType.getShape();
    int64_t A = 1, V = shape[size_t(axis)], B = 1, N = 1;
    for (int64_t i = 0; i < dataType.getRank(); ++i)
      if (i != axis)
        (i < axis ? A : B) *= shape[size_t(i)];
    for (int64_t d : idxType.getShape())
      N *= d;
    if (V < 1 || V > INT32_MAX || N < 1 || N > kMaxOneHot / V)
      return rewriter.notifyMatchFailure(op, "the one-hot matrix would be too large");
    // The op replacing `op` computes its ONNX tensor; the ones beside it
    // carry the node without the tensor's name (TensorNames.h), so a tensor
    // dump sees the result in its own shape, not an intermediate's.
    Location loc = withoutTensorNames(op.getLoc());
    Type it = idxType.getElementType(), f32 = rewriter.getF32Type(), i1 = rewriter.getI1Type();
    auto tensor = [](ArrayRef<int64_t> s, Type t) { return RankedTensorType::get(s, t); };
    // [N, V], or [A, N, V] for a batched product (equal batches).
    SmallVector<int64_t> hotShape = A > 1 ? SmallVector<int64_t>{A, N, V} : SmallVector<int64_t>{N, V};
    if (A > 1 && A * N > kMaxOneHot / V)
      return rewriter.notifyMatchFailure(op, "the one-hot matrix would be too large");
    Value oneHot;
    if (auto known = op.getIndices().getDefiningOp<ConstantOp>()) {
      // Known ids: the one-hot matrix is a constant (an id outside [-V, V)
      // is left to the lowering's diagnostic).
      SmallVector<float> hot(size_t(N * V), 0.0f);
      int64_t n = 0;
      for (const APInt &x : cast<DenseIntElementsAttr>(known.getValue()).getValues<APInt>()) {
        int64_t id = x.getSExtValue();
        if (id < -V || id >= V)
          return rewriter.notifyMatchFailure(op, "a constant index is out of range");
        hot[size_t(n++ * V + (id < 0 ? id + V : id))] = 1.0f;
      }
      // One copy per batch: the matrix product takes equal batches.
      SmallVector<float> batched;
      for (int64_t a = 0; a < A; ++a)
        batched.append(hot.begin(), hot.end());
      auto t = tensor(hotShape, f32);
      oneHot = ConstantOp::create(rewriter, loc, t, DenseElementsAttr::get(t, ArrayRef<float>(batched)));
    } else {
      Value ids = wrapNegative(rewriter, loc,
                               ReshapeOp::create(rewriter, loc, tensor({N, 1}, it), op.getIndices()), V);
      // 0..V-1 (per batch: Equal broadcasts the ids over it).
      SmallVector<int64_t> iota;
      for (int64_t a = 0; a < A; ++a)
        for (int64_t i = 0; i < V; ++i)
          iota.push_back(i);
      Value range = intConstant(rewriter, loc, it,
                                A > 1 ? SmallVector<int64_t>{A, 1, V} : SmallVector<int64_t>{V}, iota);
      Value hot = EqualOp::create(rewriter, loc, tensor(hotShape, i1), ids, range);
      oneHot = CastOp::create(rewriter, loc, tensor(hotShape, f32), hot);
    }
    Value data = op.getData();
    SmallVector<int64_t> rhsShape = A > 1 ? SmallVector<int64_t>{A, V, B} : SmallVector<int64_t>{V, B};
    if (auto table = data.getDefiningOp<ConstantOp>()) {
      auto values = cast<DenseElementsAttr>(table.getValue()).reshape(tensor(rhsShape, f32));
      data = ConstantOp::create(rewriter, table.getLoc(), tensor(rhsShape, f32), values);
    } else if (dataType.getShape() != ArrayRef<int64_t>(rhsShape)) {
      data = ReshapeOp::create(rewriter, loc, tensor(rhsShape, f32), data);
    }
    SmallVector<int64_t> rowsShape = A > 1 ? SmallVector<int64_t>{A, N, B} : SmallVector<int64_t>{N, B};
    Value rows = MatMulOp::create(rewriter, loc, tensor(rowsShape, f32), oneHot, data);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, resultType, rows);
    return success();
  }
};

/// GatherElements(data, idx) of f32 data along `axis` (V there, K in idx,
/// the other dimensions equal): out = sum over v of (idx == v ? data : 0),
/// the Equal on idx with a new axis of V after `axis` and data with a new
/// axis of 1 before it. A select, not a product: inf and NaN data move as
/// they are (each sum is the one value and zeros).
struct ExpandGatherElements : OpRewritePattern<GatherElementsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherElementsOp op, PatternRewriter &rewriter) const override {
    auto dataType = cast<RankedTensorType>(op.getData().getType());
    auto idxType = cast<RankedTensorType>(op.getIndices().getType());
    int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt(), rank = dataType.getRank();
    if (!dataType.getElementType().isF32() || axis < 0 || axis >= rank)
      return failure();
    ArrayRef<int64_t> ds = dataType.getShape(), is = idxType.getShape();
    for (int64_t i = 0; i < rank; ++i)
      if (i != axis && ds[size_t(i)] != is[size_t(i)])
        return rewriter.notifyMatchFailure(op, "indices narrower than the data off the axis");
    int64_t V = ds[size_t(axis)], n = 1;
    for (int64_t d : is)
      n *= d;
    if (V < 1 || V > INT32_MAX || n > kMaxOneHot / V)
      return rewriter.notifyMatchFailure(op, "the selection would be too large");
    // The op replacing `op` computes its ONNX tensor; the ones beside it
    // carry the node without the tensor's name (TensorNames.h), so a tensor
    // dump sees the result in its own shape, not an intermediate's.
    Location loc = withoutTensorNames(op.getLoc());
    Type it = idxType.getElementType(), f32 = rewriter.getF32Type(), i1 = rewriter.getI1Type();
    auto tensor = [](ArrayRef<int64_t> sh, Type t) { return RankedTensorType::get(sh, t); };
    auto inserted = [](ArrayRef<int64_t> sh, int64_t at, int64_t d) {
      SmallVector<int64_t> r(sh.begin(), sh.end());
      r.insert(r.begin() + at, d);
      return r;
    };
    SmallVector<int64_t> idxShape = inserted(is, axis + 1, 1), wide = inserted(is, axis + 1, V);
    Value ids = wrapNegative(rewriter, loc,
                             ReshapeOp::create(rewriter, loc, tensor(idxShape, it), op.getIndices()), V);
    SmallVector<int64_t> rangeShape(size_t(rank + 1), 1), iota;
    rangeShape[size_t(axis + 1)] = V;
    for (int64_t v = 0; v < V; ++v)
      iota.push_back(v);
    Value hot = EqualOp::create(rewriter, loc, tensor(wide, i1), ids,
                                intConstant(rewriter, loc, it, rangeShape, iota));
    Value data = ReshapeOp::create(rewriter, loc, tensor(inserted(ds, axis, 1), f32), op.getData());
    auto zt = tensor({1}, f32);
    Value zero = ConstantOp::create(rewriter, loc, zt, DenseElementsAttr::get(zt, ArrayRef<float>{0.0f}));
    Value picked = WhereOp::create(rewriter, loc, tensor(wide, f32), hot, data, zero);
    rewriter.replaceOpWithNewOp<ReduceSumOp>(op, op.getResult().getType(), picked,
                                             rewriter.getDenseI64ArrayAttr({axis + 1}),
                                             rewriter.getBoolAttr(false));
    return success();
  }
};

/// ONNX's coordinate of output `o` along axis `k` (in -> out), of the crop
/// `roi` under tf_crop_and_resize.
std::optional<double> resizeCoordinate(ResizeOp op, int64_t k, int64_t o, int64_t in, int64_t out) {
  double start = 0.0, end = 1.0;
  if (std::optional<ArrayRef<float>> roi = op.getRoi()) {
    start = double((*roi)[size_t(k)]);
    end = double((*roi)[roi->size() / 2 + size_t(k)]);
  }
  return shapes::resizeCoordinate(o, in, out, double(op.getScales()[size_t(k)]),
                                  op.getCoordinateTransformationMode(), start, end);
}

/// Downscaling with antialias (ONNX's reference, opset 18): the filter
/// (linear's triangle, or Keys's cubic with cubic_coeff_a) stretched by 1 /
/// scale, over the taps x0 + i for i in [start, 1 - start + (cubic)) around
/// x0 = floor(x) (x - 1 when x is whole, the ratio r in (0, 1]), each
/// weighted filter(scale * (i - r)) and the weights normalized to sum 1;
/// taps outside clamped to the edge, or with exclude_outside dropped before
/// the normalization.
std::optional<SmallVector<std::pair<int64_t, double>, 4>> antialiasWeights(ResizeOp op, double x, double scale,
                                                                            int64_t in) {
  double fl = std::floor(x), r = x - fl;
  int64_t x0 = int64_t(fl);
  if (r == 0.0) {
    r = 1.0;
    --x0;
  }
  bool cubic = op.getMode() == "cubic";
  double a = double(op.getCubicCoeffA().convertToFloat());
  auto filter = [&](double d) {
    d = std::fabs(d);
    if (!cubic)
      return std::max(0.0, 1.0 - d);
    if (d <= 1)
      return ((a + 2) * d - (a + 3)) * d * d + 1;
    if (d < 2)
      return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
    return 0.0;
  };
  int64_t start = int64_t(std::floor((cubic ? -2.0 : -1.0) / scale)) + 1;
  int64_t end = (cubic ? 2 : 1) - start + (cubic ? 0 : 1);
  SmallVector<std::pair<int64_t, double>, 4> w;
  double sum = 0;
  for (int64_t i = start; i < end; ++i) {
    int64_t idx = x0 + i;
    double v = filter(scale * (double(i) - r));
    if (op.getExcludeOutside() && (idx < 0 || idx >= in))
      v = 0.0;
    w.push_back({std::min(std::max<int64_t>(idx, 0), in - 1), v});
    sum += v;
  }
  if (sum == 0.0)
    return std::nullopt;
  for (auto &p : w)
    p.second /= sum;
  return w;
}

/// The weights of output `o`'s interpolation along one axis (in -> out):
/// linear, 1 - f and f at x0 and x0 + 1 of ONNX's coordinate x clamped to [0,
/// in - 1] (x0 = floor(x), f = x - x0); cubic, Keys's kernel with a =
/// cubic_coeff_a at the four neighbours x0 - 1 .. x0 + 2 (x0 = floor(x), or x -
/// 1 when x is whole, ONNX's ratio in (0, 1]), indices clamped to the edge,
/// or with exclude_outside the outside ones dropped and the rest renormalized.
std::optional<SmallVector<std::pair<int64_t, double>, 4>> interpolationWeights(ResizeOp op, int64_t k, int64_t o,
                                                                                int64_t in, int64_t out) {
  std::optional<double> x = resizeCoordinate(op, k, o, in, out);
  if (!x)
    return std::nullopt;
  SmallVector<std::pair<int64_t, double>, 4> w;
  // tf_crop_and_resize outside the input: extrapolation_value, no weights.
  if (op.getRoi() && (*x < 0.0 || *x > double(in - 1)))
    return w;
  double scale = double(op.getScales()[size_t(k)]);
  if (op.getAntialias() && scale < 1.0)
    return antialiasWeights(op, *x, scale, in);
  if (op.getMode() == "linear") {
    double c = std::min(std::max(*x, 0.0), double(in - 1));
    int64_t x0 = int64_t(std::floor(c)), x1 = std::min(x0 + 1, in - 1);
    double f = c - double(x0);
    w.push_back({x0, 1.0 - f});
    w.push_back({x1, f});
    return w;
  }
  double fl = std::floor(*x), r = *x - fl;
  int64_t x0 = int64_t(fl);
  if (r == 0.0) {
    r = 1.0;
    --x0;
  }
  double a = double(op.getCubicCoeffA().convertToFloat());
  auto near = [&](double d) { return ((a + 2) * d - (a + 3)) * d * d + 1; };         // |d| <= 1
  auto far = [&](double d) { return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a; };   // 1 < |d| < 2
  double coeffs[4] = {far(r + 1), near(r), near(1 - r), far(2 - r)};
  double sum = 0;
  for (int64_t i = 0; i < 4; ++i) {
    int64_t idx = x0 - 1 + i;
    if (op.getExcludeOutside() && (idx < 0 || idx >= in))
      continue;
    w.push_back({std::min(std::max<int64_t>(idx, 0), in - 1), coeffs[i]});
    sum += coeffs[i];
  }
  if (op.getExcludeOutside())
    for (auto &p : w)
      p.second /= sum;
  return w;
}

/// Under tf_crop_and_resize, a constant mask of the outputs some axis's
/// coordinate puts outside the input ([out] along those axes, 1 along the
/// others); null when none is.
Value extrapolated(PatternRewriter &rewriter, Location loc, ResizeOp op, ArrayRef<int64_t> inShape,
                   ArrayRef<int64_t> outShape) {
  if (!op.getRoi())
    return {};
  int64_t rank = int64_t(inShape.size());
  SmallVector<int64_t> maskShape(size_t(rank), 1);
  std::vector<std::vector<bool>> out(static_cast<size_t>(rank));
  std::vector<bool> masked(static_cast<size_t>(rank), false);
  bool any = false;
  for (int64_t k = 0; k < rank; ++k) {
    for (int64_t o = 0; o < outShape[size_t(k)]; ++o) {
      std::optional<double> x = resizeCoordinate(op, k, o, inShape[size_t(k)], outShape[size_t(k)]);
      out[size_t(k)].push_back(x && (*x < 0.0 || *x > double(inShape[size_t(k)] - 1)));
    }
    if (llvm::is_contained(out[size_t(k)], true)) {
      maskShape[size_t(k)] = outShape[size_t(k)];
      masked[size_t(k)] = true;
      any = true;
    }
  }
  if (!any)
    return {};
  int64_t n = 1;
  for (int64_t d : maskShape)
    n *= d;
  SmallVector<bool> mask(static_cast<size_t>(n), false);
  for (int64_t i = 0; i < n; ++i) {
    int64_t rem = i;
    for (int64_t k = rank - 1; k >= 0; --k) {
      int64_t o = rem % maskShape[size_t(k)];
      rem /= maskShape[size_t(k)];
      if (masked[size_t(k)] && out[size_t(k)][size_t(o)])
        mask[size_t(i)] = true;
    }
  }
  auto type = RankedTensorType::get(maskShape, rewriter.getI1Type());
  return ConstantOp::create(rewriter, loc, type, DenseElementsAttr::get(type, ArrayRef<bool>(mask)));
}

/// Linear and cubic Resize of f32 data: separable, so along each resized
/// axis (in -> out, viewed as [A, in, B]) the result is an interpolation
/// matrix M [out, in] (interpolationWeights) times the data. The last axis is
/// data [A, in] x M^T; another axis is M (one copy per batch) x data [A, in,
/// B]. The axes go last to first.
struct ExpandSeparableResize : OpRewritePattern<ResizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ResizeOp op, PatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    if ((op.getMode() != "linear" && op.getMode() != "cubic") || !inType.getElementType().isF32() ||
        !resultType.getElementType().isF32())
      return failure();
    ArrayRef<int64_t> inShape = inType.getShape(), outShape = resultType.getShape();
    int64_t rank = inType.getRank();
    // The op replacing `op` computes its ONNX tensor; the ones beside it
    // carry the node without the tensor's name (TensorNames.h), so a tensor
    // dump sees the result in its own shape, not an intermediate's.
    Location loc = withoutTensorNames(op.getLoc());
    Type f32 = rewriter.getF32Type();
    auto tensor = [](ArrayRef<int64_t> sh, Type t) { return RankedTensorType::get(sh, t); };
    // The matrices first: nothing is rewritten unless every axis has one.
    SmallVector<std::pair<int64_t, std::vector<float>>> axes;
    int64_t batchedElements = 0;
    for (int64_t k = rank - 1; k >= 0; --k) {
      int64_t in = inShape[size_t(k)], out = outShape[size_t(k)];
      std::vector<float> m(size_t(out * in), 0.0f);
      bool identity = in == out;
      for (int64_t o = 0; o < out; ++o) {
        auto weights = interpolationWeights(op, k, o, in, out);
        if (!weights)
          return rewriter.notifyMatchFailure(op, "a coordinate mode without a formula");
        for (auto [i, v] : *weights) {
          m[size_t(o * in + i)] += float(v);
          identity &= v == 0.0 || (i == o && v == 1.0);
        }
      }
      if (identity)
        continue;
      int64_t A = 1;
      for (int64_t i = 0; i < k; ++i)
        A *= inShape[size_t(i)];  // the axes before k are not resized yet
      if (k != rank - 1)
        batchedElements += A * out * in;
      if (out * in > kMaxOneHot || batchedElements > kMaxOneHot)
        return rewriter.notifyMatchFailure(op, "the interpolation matrices would be too large");
      axes.push_back({k, std::move(m)});
    }
    Value outside = extrapolated(rewriter, loc, op, inShape, outShape);
    Value cur = op.getInput();
    SmallVector<int64_t> shape(inShape.begin(), inShape.end());
    for (auto &[k, m] : axes) {
      int64_t in = shape[size_t(k)], out = outShape[size_t(k)], A = 1, B = 1;
      for (int64_t i = 0; i < rank; ++i)
        if (i != k)
          (i < k ? A : B) *= shape[size_t(i)];
      SmallVector<int64_t> next(shape);
      next[size_t(k)] = out;
      Value product;
      if (B == 1) {
        // data [A, in] x M^T [in, out].
        std::vector<float> mt(size_t(in * out));
        for (int64_t o = 0; o < out; ++o)
          for (int64_t i = 0; i < in; ++i)
            mt[size_t(i * out + o)] = m[size_t(o * in + i)];
        auto mtType = tensor({in, out}, f32);
        Value mtv = ConstantOp::create(rewriter, loc, mtType, DenseElementsAttr::get(mtType, ArrayRef<float>(mt)));
        Value rows = ReshapeOp::create(rewriter, loc, tensor({A, in}, f32), cur);
        product = MatMulOp::create(rewriter, loc, tensor({A, out}, f32), rows, mtv);
      } else {
        // M [out, in] (one copy per batch) x data [A, in, B].
        SmallVector<int64_t> mShape = A > 1 ? SmallVector<int64_t>{A, out, in} : SmallVector<int64_t>{out, in};
        std::vector<float> batched;
        for (int64_t a = 0; a < A; ++a)
          batched.insert(batched.end(), m.begin(), m.end());
        auto mType = tensor(mShape, f32);
        Value mv = ConstantOp::create(rewriter, loc, mType, DenseElementsAttr::get(mType, ArrayRef<float>(batched)));
        SmallVector<int64_t> dShape = A > 1 ? SmallVector<int64_t>{A, in, B} : SmallVector<int64_t>{in, B};
        SmallVector<int64_t> pShape = A > 1 ? SmallVector<int64_t>{A, out, B} : SmallVector<int64_t>{out, B};
        Value data = ReshapeOp::create(rewriter, loc, tensor(dShape, f32), cur);
        product = MatMulOp::create(rewriter, loc, tensor(pShape, f32), mv, data);
      }
      bool last = &k == &axes.back().first && !outside;
      cur = ReshapeOp::create(rewriter, last ? op.getLoc() : loc, tensor(next, f32), product);
      shape = next;
    }
    // tf_crop_and_resize: extrapolation_value where any axis's coordinate
    // leaves the input (the products gave 0 there).
    if (outside)
      cur = WhereOp::create(rewriter, op.getLoc(), resultType, outside,
                            ConstantOp::create(rewriter, loc, tensor({1}, f32),
                                               DenseElementsAttr::get(tensor({1}, f32),
                                                                      ArrayRef<float>{op.getExtrapolationValue().convertToFloat()})),
                            cur);
    rewriter.replaceOp(op, cur);  // no axis resized: the input itself
    return success();
  }
};

struct GraphExpandGatherPass : npuc::graph::impl::GraphExpandGatherBase<GraphExpandGatherPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandGather, ExpandGatherElements, ExpandSeparableResize>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
