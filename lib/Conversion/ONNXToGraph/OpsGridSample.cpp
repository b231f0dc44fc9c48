//===- OpsGridSample.cpp - Bilinear sampling on the indexed DMA; AffineGrid -===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// GridSample (opsets 16, 20, 22; 2-D) as the ONNX reference computes it:
// each output position's grid point denormalized (align_corners), rounded
// for nearest, clamped (border) or reflected (reflection) when outside the
// image's border, then its taps (1, 2 x 2 or 4 x 4) read by run-time row
// numbers from the image laid out as rows of channels [N*H*W, C] (a
// graph.gather: the indexed DMA), each tap's row index padded (zeros: the
// tap reads 0; border: clamped; reflection: reflected and truncated), and
// combined row by row with the linear or cubic (A = -0.75) coefficients.
// Coordinates are f32, as the reference's; row numbers are exact integers in
// f32 below 2^24 (docs/numerics.md, "GridSample").
//
// RoiAlign and DeformConv sample the same way, at points computed from rois
// and offsets.
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace npuc::onnx_import;

namespace {
/// The most image rows (N*H*W) whose row numbers f32 holds exactly.
constexpr int64_t kMaxImageRows = int64_t(1) << 24;

enum class Mode { Nearest, Linear, Cubic };
enum class Padding { Zeros, Border, Reflection };

/// f32 arithmetic on the per-position columns [P, 1] of one GridSample.
struct Coords {
  OpChain &b;
  RankedTensorType col, mask;  // [P, 1] f32 and i1

  Value k(float v) { return b.splat(b.c.b.getF32Type(), v); }
  template <typename OpTy>
  Value op(ValueRange operands) {
    return b.op<OpTy>(operands, col);
  }
  Value add(Value x, Value y) { return op<graph::AddOp>({x, y}); }
  Value sub(Value x, Value y) { return op<graph::SubOp>({x, y}); }
  Value mul(Value x, Value y) { return op<graph::MulOp>({x, y}); }
  Value floor(Value x) { return op<graph::FloorOp>({x}); }
  Value less(Value x, Value y) { return b.op<graph::LessOp>({x, y}, mask); }
  Value greater(Value x, Value y) { return b.op<graph::GreaterOp>({x, y}, mask); }
  Value either(Value p, Value q) { return b.op<graph::OrOp>({p, q}, mask); }
  Value where(Value p, Value x, Value y) { return op<graph::WhereOp>({p, x, y}); }
  /// The image rows [.., C] whose numbers `linear` (integral f32 columns)
  /// holds, read by the indexed DMA: [P, C], P the columns' elements.
  Value taps(Value rows, Value linear) {
    auto lt = cast<RankedTensorType>(linear.getType()), rt = cast<RankedTensorType>(rows.getType());
    int64_t P = lt.getNumElements();
    Value idx = b.reshape(b.op<graph::CastOp>({linear}, lt.clone(b.c.b.getI32Type())), {P});
    return b.op<graph::GatherOp>({rows, idx}, rt.clone({P, rt.getDimSize(1)}),
                                 {b.c.named("axis", b.c.b.getI64IntegerAttr(0))});
  }
  Value clip(Value x, float lo, float hi) {
    return b.op<graph::ClipOp>({x}, col,
                               {b.c.named("min", b.c.b.getF64FloatAttr(lo)),
                                b.c.named("max", b.c.b.getF64FloatAttr(hi))});
  }
  /// The reference's _gs_reflect: by the near border until inside [lo, hi].
  Value reflect(Value x, float lo, float hi) {
    float range = hi - lo;
    if (range <= 0)  // a one-pixel axis with align_corners: only lo is inside
      return add(mul(x, k(0.0f)), k(lo));
    Value below = less(x, k(lo)), above = greater(x, k(hi));
    Value dx = where(below, sub(k(lo), x), sub(x, k(hi)));
    // int(dx / rng) of a non-negative quotient: its floor.
    Value n = floor(op<graph::DivOp>({dx, k(range)}));
    Value r = sub(dx, mul(n, k(range)));
    Value half = mul(n, k(0.5f));
    Value odd = b.op<graph::NotOp>({b.op<graph::EqualOp>({floor(half), half}, mask)}, mask);
    Value fromBelow = where(odd, sub(k(hi), r), add(k(lo), r));
    Value fromAbove = where(odd, add(k(lo), r), sub(k(hi), r));
    return where(below, fromBelow, where(above, fromAbove, x));
  }
};

/// One axis of the image (H or W) as the taps along it see it.
struct Axis {
  int64_t size;
  float lo, hi;  // the reference's border: [-0.5, size - 0.5], or [0, size - 1]
};

/// The taps' coefficients for the fractional part t: linear [1 - t, t],
/// cubic Keys's with A = -0.75, in the reference's operation order.
SmallVector<Value> coefficients(Coords &f, Mode mode, Value t) {
  if (mode == Mode::Linear)
    return {f.sub(f.k(1.0f), t), t};
  const float A = -0.75f;
  Value t1 = f.add(t, f.k(1.0f)), u = f.sub(f.k(1.0f), t), u1 = f.sub(f.k(2.0f), t);
  auto outer = [&](Value s) {  // ((A s - 5A) s + 8A) s - 4A
    Value v = f.sub(f.mul(f.k(A), s), f.k(5 * A));
    v = f.add(f.mul(v, s), f.k(8 * A));
    return f.sub(f.mul(v, s), f.k(4 * A));
  };
  auto inner = [&](Value s) {  // ((A + 2) s - (A + 3)) s s + 1
    Value v = f.sub(f.mul(f.k(A + 2), s), f.k(A + 3));
    return f.add(f.mul(f.mul(v, s), s), f.k(1.0f));
  };
  return {outer(t1), inner(t), inner(u), outer(u1)};
}

/// A tap's index `i` (an integral f32) padded: its row number along the axis
/// and, for zeros, whether it is inside.
std::pair<Value, Value> padTap(Coords &f, Padding padding, const Axis &a, Value i) {
  float last = float(a.size - 1);
  switch (padding) {
  case Padding::Zeros:
    return {f.clip(i, 0, last), f.either(f.less(i, f.k(0.0f)), f.greater(i, f.k(last)))};
  case Padding::Border:
    return {f.clip(i, 0, last), Value()};
  case Padding::Reflection:
    // int(reflect(i)): reflect(i) >= lo >= -0.5, so truncation is floor of
    // its non-negative part.
    return {f.floor(f.clip(f.reflect(i, a.lo, a.hi), 0, last)), Value()};
  }
  return {};
}

LogicalResult importGridSample(NodeContext &c) {
  std::optional<Val> x = c.required(0), grid = c.required(1);
  if (!x || !grid)
    return failure();
  ArrayRef<int64_t> xs = x->shape(), gs = grid->shape();
  if (xs.size() != 4)
    return c.fail(code::ShapeMismatch, "GridSample of a rank-" + llvm::Twine(xs.size()) +
                                           " input is not supported (2-D images [N, C, H, W])");
  if (gs.size() != 4 || gs[0] != xs[0] || gs[3] != 2)
    return c.fail(code::ShapeMismatch, "the grid must be [N, H_out, W_out, 2] for an input [N, C, H, W]");
  if (!x->element().isF32() || !grid->element().isF32())
    return c.fail(code::UnsupportedType, "GridSample needs f32 input and grid");
  std::string m = c.stringAttr("mode", c.opset >= 20 ? "linear" : "bilinear");
  std::string p = c.stringAttr("padding_mode", "zeros");
  bool align = c.intAttr("align_corners", 0) != 0;
  Mode mode;
  if (m == "nearest")
    mode = Mode::Nearest;
  else if (m == "bilinear" || m == "linear")
    mode = Mode::Linear;
  else if (m == "bicubic" || m == "cubic")
    mode = Mode::Cubic;
  else
    return c.fail(code::UnsupportedAttr, "GridSample mode '" + m + "' is not nearest, linear or cubic");
  Padding padding;
  if (p == "zeros")
    padding = Padding::Zeros;
  else if (p == "border")
    padding = Padding::Border;
  else if (p == "reflection")
    padding = Padding::Reflection;
  else
    return c.fail(code::UnsupportedAttr, "GridSample padding_mode '" + p +
                                             "' is not zeros, border or reflection");
  int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3], Ho = gs[1], Wo = gs[2];
  if (N * H * W >= kMaxImageRows)
    return c.fail(code::Overflow, "GridSample of " + llvm::Twine(N * H * W) + " image positions: past the " +
                                      llvm::Twine(kMaxImageRows) + " whose row numbers f32 holds exactly");
  int64_t P = N * Ho * Wo;
  Type f32 = c.b.getF32Type();
  OpChain b{c};
  Coords f{b, c.tensor({P, 1}, f32), c.tensor({P, 1}, c.b.getI1Type())};
  // The grid's x (width) and y (height) columns, denormalized.
  Value g = b.reshape(grid->value, {P, 2});
  auto column = [&](int64_t k, int64_t size) {
    Value v = b.slice(g, 1, k, k + 1);
    return align ? f.mul(f.mul(f.add(v, f.k(1.0f)), f.k(0.5f)), f.k(float(size - 1)))
                 : f.mul(f.sub(f.mul(f.add(v, f.k(1.0f)), f.k(float(size))), f.k(1.0f)), f.k(0.5f));
  };
  Axis ax{W, align ? 0.0f : -0.5f, align ? float(W - 1) : float(W) - 0.5f};
  Axis ay{H, align ? 0.0f : -0.5f, align ? float(H - 1) : float(H) - 0.5f};
  Value px = column(0, W), py = column(1, H);
  // Nearest rounds half to even (PyTorch's nearbyint, the reference's rint);
  // outside the border a coordinate is clamped or reflected.
  auto place = [&](Value v, const Axis &a) {
    if (mode == Mode::Nearest)
      v = f.op<graph::RoundOp>({v});
    Value outside = f.either(f.less(v, f.k(a.lo)), f.greater(v, f.k(a.hi)));
    if (padding == Padding::Border)
      return f.where(outside, f.clip(v, 0, float(a.size - 1)), v);
    if (padding == Padding::Reflection)
      return f.reflect(v, a.lo, a.hi);
    return v;
  };
  px = place(px, ax);
  py = place(py, ay);
  // The image as rows of channels; each position's first row number n*H*W.
  Value rows = b.reshape(b.transpose(x->value, {0, 2, 3, 1}), {N * H * W, C});
  std::vector<float> base(static_cast<size_t>(P));
  for (int64_t i = 0; i < P; ++i)
    base[size_t(i)] = float((i / (Ho * Wo)) * H * W);
  Value first = c.constant(DenseElementsAttr::get(f.col, ArrayRef<float>(base))).value;
  auto tapsOf = [&](Value v, const Axis &a, SmallVector<Value> &coeffs) {
    SmallVector<Value> taps;
    if (mode == Mode::Nearest) {
      // astype(int32) truncates; the coordinate is integral or a reflected
      // half (-0.5 truncates to 0).
      Value t = f.floor(f.clip(v, 0.0f, float(a.size - 1)));
      if (padding == Padding::Zeros)
        t = v;
      taps.push_back(t);
      return taps;
    }
    Value v0 = f.floor(v);
    coeffs = coefficients(f, mode, f.sub(v, v0));
    int64_t from = mode == Mode::Cubic ? -1 : 0, count = mode == Mode::Cubic ? 4 : 2;
    for (int64_t k = 0; k < count; ++k)
      taps.push_back(f.add(v0, f.k(float(from + k))));
    return taps;
  };
  SmallVector<Value> cx, cy;
  SmallVector<Value> tx = tapsOf(px, ax, cx), ty = tapsOf(py, ay, cy);
  auto rt = c.tensor({P, C}, f32);
  Value zeroRow = b.splat(f32, 0.0);
  Value y;
  for (size_t r = 0; r < ty.size(); ++r) {
    auto [iy, outY] = padTap(f, padding, ay, ty[r]);
    Value rowSum;
    for (size_t k = 0; k < tx.size(); ++k) {
      auto [ix, outX] = padTap(f, padding, ax, tx[k]);
      Value linear = f.add(f.add(first, f.mul(iy, f.k(float(W)))), ix);
      Value v = f.taps(rows, linear);
      if (padding == Padding::Zeros)
        v = b.op<graph::WhereOp>({f.either(outX, outY), zeroRow, v}, rt);
      if (mode != Mode::Nearest)
        v = b.op<graph::MulOp>({cx[k], v}, rt);
      rowSum = rowSum ? b.op<graph::AddOp>({rowSum, v}, rt) : v;
    }
    if (mode != Mode::Nearest)
      rowSum = b.op<graph::MulOp>({cy[r], rowSum}, rt);
    y = y ? b.op<graph::AddOp>({y, rowSum}, rt) : rowSum;
  }
  y = b.transpose(b.reshape(y, {N, Ho, Wo, C}), {0, 3, 1, 2});
  return b.finish(y);
}
} // namespace

namespace {
/// The most grid points AffineGrid builds as a constant.
constexpr int64_t kMaxAffineGridPoints = int64_t(1) << 22;

/// AffineGrid (opset 20): theta [N, 2, 3] (or [N, 3, 4]) times the base
/// grid's homogeneous points [x, y, (z,) 1] of the constant size [N, C, H,
/// W] (or [N, C, D, H, W]): -1 + (2 i + 1) / n per axis, or -1 + 2 i / (n -
/// 1) with align_corners (-1 for an axis of 1), the ONNX reference's. One
/// batched product theta x base^T [N, 2, H*W], transposed to [N, H, W, 2].
LogicalResult importAffineGrid(NodeContext &c) {
  std::optional<Val> theta = c.required(0);
  auto size = c.constantInts(1, "size");
  if (!theta || !size)
    return failure();
  Type el = theta->element();
  if (!el.isF32())
    return c.fail(code::UnsupportedType, "AffineGrid of f32 theta only");
  size_t dims = size->size() - 2;
  if ((size->size() != 4 && size->size() != 5) || theta->shape().size() != 3 ||
      theta->shape()[0] != (*size)[0] || theta->shape()[1] != int64_t(dims) ||
      theta->shape()[2] != int64_t(dims) + 1)
    return c.fail(code::ShapeMismatch, "theta " + sh::str(theta->shape()) + " and size [" +
                                           llvm::Twine(size->size()) + " entries] must be [N, 2, 3] with [N, C, H, W] "
                                           "or [N, 3, 4] with [N, C, D, H, W]");
  if (!c.inSizeRange("size", *size, 1))
    return failure();
  ArrayRef<int64_t> spatial = ArrayRef<int64_t>(*size).drop_front(2);
  int64_t points = 1;
  for (int64_t n : spatial) {
    points *= n;
    if (points > kMaxAffineGridPoints)
      return c.fail(code::Overflow, "an affine grid of more than 2^22 points is not built");
  }
  bool align = c.intAttr("align_corners", 0) != 0;
  // base^T [dims + 1, points]: row k the k-th coordinate (x the last axis).
  int64_t hom = int64_t(dims) + 1;
  std::vector<float> base(static_cast<size_t>(hom * points), 1.0f);
  for (int64_t p = 0; p < points; ++p) {
    int64_t rem = p;
    for (int64_t a = int64_t(dims) - 1; a >= 0; --a) {
      int64_t n = spatial[size_t(a)], i = rem % n;
      rem /= n;
      double v = align ? (n == 1 ? -1.0 : -1.0 + 2.0 * double(i) / double(n - 1))
                       : -1.0 + (2.0 * double(i) + 1.0) / double(n);
      // x (the last axis) is coordinate 0.
      base[size_t((int64_t(dims) - 1 - a) * points + p)] = float(v);
    }
  }
  int64_t N = (*size)[0];
  OpChain b{c};
  Value bt = c.constant(DenseElementsAttr::get(c.tensor({hom, points}, el), ArrayRef<float>(base))).value;
  Value g = b.op<graph::MatMulOp>({theta->value, bt}, c.tensor({N, int64_t(dims), points}, el));
  g = b.transpose(g, {0, 2, 1});
  SmallVector<int64_t> out{N};
  out.append(spatial.begin(), spatial.end());
  out.push_back(int64_t(dims));
  return b.finish(b.reshape(g, out));
}
} // namespace

namespace {
/// RoiAlign (opsets 10, 16): per roi, output_height x output_width bins of
/// g_h x g_w sample points each, every point bilinear in its roi's image
/// (rows of channels, the taps gathered on the indexed DMA as GridSample's),
/// then the bins' average or maximum. The samples are columns [R, S], S =
/// (bin y, bin x, sample y, sample x): per roi values [R, 1] (its start and
/// bin size, from the rois at run time) with per sample constants [1, S].
/// In the reference's order: a point outside [-1, size] contributes 0 (to
/// the maximum too); clamped to [0, size - 1], its low tap floor(y), its
/// high tap min(low + 1, size - 1); the weights (1 - ly)(1 - lx), (1 - ly)
/// lx, ly (1 - lx), ly lx; max mode keeps the largest weighted tap, as
/// onnxruntime's kernel does. sampling_ratio 0 takes g from each roi's size,
/// so it needs constant rois.
LogicalResult importRoiAlign(NodeContext &c) {
  std::optional<Val> x = c.required(0), rois = c.required(1), bidx = c.required(2);
  if (!x || !rois || !bidx)
    return failure();
  ArrayRef<int64_t> xs = x->shape();
  if (xs.size() != 4 || rois->shape().size() != 2 || rois->shape()[1] != 4 || bidx->shape().size() != 1 ||
      bidx->shape()[0] != rois->shape()[0] || !isa<IntegerType>(bidx->element()))
    return c.fail(code::ShapeMismatch, "RoiAlign needs X [N, C, H, W], rois [R, 4] and integer batch_indices [R]");
  if (!x->element().isF32() || !rois->element().isF32())
    return c.fail(code::UnsupportedType, "RoiAlign of f32 X and rois only");
  std::string mode = c.stringAttr("mode", "avg");
  std::string ctm = c.stringAttr("coordinate_transformation_mode", c.opset >= 16 ? "half_pixel" : "output_half_pixel");
  if (mode != "avg" && mode != "max")
    return c.fail(code::UnsupportedAttr, "mode '" + mode + "' is not avg or max");
  if (ctm != "half_pixel" && ctm != "output_half_pixel")
    return c.fail(code::UnsupportedAttr, "coordinate_transformation_mode '" + ctm +
                                             "' is not half_pixel or output_half_pixel");
  std::optional<int64_t> oh = c.sizeAttr("output_height", 1, 1), ow = c.sizeAttr("output_width", 1, 1);
  std::optional<int64_t> ratio = c.sizeAttr("sampling_ratio", 0, 0);
  if (!oh || !ow || !ratio)
    return failure();
  float scale = float(c.floatAttr("spatial_scale", 1.0));
  bool half = ctm == "half_pixel";
  float offset = half ? 0.5f : 0.0f;
  int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3], R = rois->shape()[0];
  if (N * H * W >= kMaxImageRows)
    return c.fail(code::Overflow, "RoiAlign of " + llvm::Twine(N * H * W) + " image positions: past the " +
                                      llvm::Twine(kMaxImageRows) + " whose row numbers f32 holds exactly");
  // The sample grid of each roi: g_h x g_w, fixed, or (ratio 0) from
  // constant rois; G the largest.
  std::vector<int64_t> gh(static_cast<size_t>(R), *ratio), gw(static_cast<size_t>(R), *ratio);
  if (*ratio == 0) {
    DenseElementsAttr values;
    if (!matchPattern(rois->value, m_Constant(&values)))
      return c.fail(code::UnsupportedAttr,
                    "sampling_ratio 0 takes each roi's sample count from its size, which run-time rois fix only "
                    "at run time: export the model with a fixed sampling_ratio (such as 2)");
    std::vector<float> r(values.getValues<float>().begin(), values.getValues<float>().end());
    for (int64_t i = 0; i < R; ++i) {
      float w = r[size_t(4 * i + 2)] * scale - r[size_t(4 * i)] * scale;
      float hgt = r[size_t(4 * i + 3)] * scale - r[size_t(4 * i + 1)] * scale;
      if (!half) {
        w = std::max(w, 1.0f);
        hgt = std::max(hgt, 1.0f);
      }
      gh[size_t(i)] = std::max<int64_t>(int64_t(std::ceil(hgt / float(*oh))), 1);
      gw[size_t(i)] = std::max<int64_t>(int64_t(std::ceil(w / float(*ow))), 1);
    }
  }
  int64_t Gh = *std::max_element(gh.begin(), gh.end()), Gw = *std::max_element(gw.begin(), gw.end());
  int64_t S = *oh * *ow * Gh * Gw;
  if (!c.fitsBuiltConstant(R * S * 3, "RoiAlign's sample points"))
    return failure();
  // Per sample constants: bin + (sample + 0.5) / g along y and x (in bins),
  // and 1 where the sample is one of its roi's (ratio 0), else 0.
  std::vector<float> fy(static_cast<size_t>(R * S)), fx(static_cast<size_t>(R * S)), in(static_cast<size_t>(R * S));
  for (int64_t i = 0; i < R; ++i)
    for (int64_t q = 0; q < S; ++q) {
      int64_t sx = q % Gw, sy = (q / Gw) % Gh, bx = (q / (Gw * Gh)) % *ow, by = q / (Gw * Gh * *ow);
      size_t at = size_t(i * S + q);
      fy[at] = float(by) + (float(sy) + 0.5f) / float(gh[size_t(i)]);
      fx[at] = float(bx) + (float(sx) + 0.5f) / float(gw[size_t(i)]);
      in[at] = sy < gh[size_t(i)] && sx < gw[size_t(i)] ? 1.0f : 0.0f;
    }
  Type f32 = c.b.getF32Type();
  OpChain b{c};
  Coords f{b, c.tensor({R, S}, f32), c.tensor({R, S}, c.b.getI1Type())};
  auto perRoi = c.tensor({R, 1}, f32);
  auto constant = [&](ArrayRef<float> v) {
    return c.constant(DenseElementsAttr::get(c.tensor({R, S}, f32), v)).value;
  };
  auto corner = [&](int64_t k) {
    Value v = b.op<graph::MulOp>({b.slice(rois->value, 1, k, k + 1), b.splat(f32, scale)}, perRoi);
    return b.op<graph::SubOp>({v, b.splat(f32, offset)}, perRoi);
  };
  Value x0 = corner(0), y0 = corner(1), x1 = corner(2), y1 = corner(3);
  Value rw = b.op<graph::SubOp>({x1, x0}, perRoi), rh = b.op<graph::SubOp>({y1, y0}, perRoi);
  if (!half) {
    rw = b.op<graph::MaxOp>({rw, b.splat(f32, 1.0)}, perRoi);
    rh = b.op<graph::MaxOp>({rh, b.splat(f32, 1.0)}, perRoi);
  }
  Value binW = b.op<graph::DivOp>({rw, b.splat(f32, double(*ow))}, perRoi);
  Value binH = b.op<graph::DivOp>({rh, b.splat(f32, double(*oh))}, perRoi);
  Value py = f.add(y0, f.mul(binH, constant(fy))), px = f.add(x0, f.mul(binW, constant(fx)));
  // Outside [-1, size]: no contribution.
  Value out = f.either(f.either(f.less(py, f.k(-1.0f)), f.greater(py, f.k(float(H)))),
                       f.either(f.less(px, f.k(-1.0f)), f.greater(px, f.k(float(W)))));
  Value keep = f.where(out, f.k(0.0f), constant(in));
  struct Taps {
    Value low, high, frac;
  };
  auto taps = [&](Value v, int64_t size) {
    Value clamped = f.clip(v, 0.0f, float(size - 1));
    Value low = f.floor(clamped);
    return Taps{low, f.clip(f.add(low, f.k(1.0f)), 0.0f, float(size - 1)), f.sub(clamped, low)};
  };
  Taps ty = taps(py, H), tx = taps(px, W);
  Value hy = f.sub(f.k(1.0f), ty.frac), hx = f.sub(f.k(1.0f), tx.frac);
  // The image as rows of channels; a roi's first row b * H * W.
  Value rows = b.reshape(b.transpose(x->value, {0, 2, 3, 1}), {N * H * W, C});
  Value first = b.op<graph::MulOp>({b.op<graph::CastOp>({bidx->value}, c.tensor({R}, f32)), b.splat(f32, double(H * W))},
                                   c.tensor({R}, f32));
  first = b.reshape(first, {R, 1});
  auto st = c.tensor({R, S, C}, f32);
  SmallVector<std::pair<Value, Value>> corners{{ty.low, tx.low}, {ty.low, tx.high}, {ty.high, tx.low}, {ty.high, tx.high}};
  Value weights[4] = {f.mul(hy, hx), f.mul(hy, tx.frac), f.mul(ty.frac, hx), f.mul(ty.frac, tx.frac)};
  Value y;
  for (size_t k = 0; k < 4; ++k) {
    Value linear = f.add(f.add(first, f.mul(corners[k].first, f.k(float(W)))), corners[k].second);
    Value v = b.reshape(f.taps(rows, linear), {R, S, C});
    Value w = b.reshape(f.mul(weights[k], keep), {R, S, 1});
    v = b.op<graph::MulOp>({w, v}, st);
    y = !y ? v : mode == "max" ? b.op<graph::MaxOp>({y, v}, st) : b.op<graph::AddOp>({y, v}, st);
  }
  // The bins: [R, oh, ow, Gh * Gw, C] reduced over the samples.
  y = b.reshape(y, {R, *oh, *ow, Gh * Gw, C});
  auto bins = c.tensor({R, *oh, *ow, C}, f32);
  SmallVector<NamedAttribute> over{c.named("axes", c.b.getDenseI64ArrayAttr({3})),
                                   c.named("keepdims", c.b.getBoolAttr(false))};
  if (mode == "max") {
    y = b.op<graph::ReduceMaxOp>({y}, bins, over);
  } else {
    y = b.op<graph::ReduceSumOp>({y}, bins, over);
    std::vector<float> count(static_cast<size_t>(R));
    for (int64_t i = 0; i < R; ++i)
      count[size_t(i)] = float(std::max<int64_t>(gh[size_t(i)] * gw[size_t(i)], 1));
    Value n = c.constant(DenseElementsAttr::get(c.tensor({R, 1, 1, 1}, f32), ArrayRef<float>(count))).value;
    y = b.op<graph::DivOp>({y, n}, bins);
  }
  return b.finish(b.transpose(y, {0, 3, 1, 2}));
}
} // namespace

namespace {
/// DeformConv (opset 19, 2-D): each kernel tap (i, j) of each output
/// position reads X at its place moved by the offsets, (oh * stride - pad +
/// i * dilation + dy, ...), bilinear with zeros outside (the ONNX reference
/// samples with GridSample, linear, zeros, align_corners 1), times the mask;
/// those columns [N * oh * ow, C * kh * kw] times the weights are the
/// convolution (a product batched over the groups). The image is read as rows of
/// the channels of one offset group, [N * offset_group * H * W, C /
/// offset_group], the taps on the indexed DMA; the sample columns are [N *
/// offset_group, kh * kw, oh * ow].
LogicalResult importDeformConv(NodeContext &c) {
  std::optional<Val> x = c.required(0), w = c.required(1), off = c.required(2);
  if (!x || !w || !off)
    return failure();
  std::optional<Val> bias = c.input(3), mask = c.input(4);
  ArrayRef<int64_t> xs = x->shape(), ws = w->shape(), os = off->shape();
  if (xs.size() != 4 || ws.size() != 4 || os.size() != 4)
    return c.fail(code::ShapeMismatch, "DeformConv of 2-D images only: X [N, C, H, W], W [M, C / group, kH, kW], "
                                       "offset [N, 2 * offset_group * kH * kW, oH, oW]");
  if (!x->element().isF32() || w->element() != x->element() || off->element() != x->element() ||
      (bias && bias->element() != x->element()) || (mask && mask->element() != x->element()))
    return c.fail(code::UnsupportedType, "DeformConv of f32 inputs only");
  std::optional<int64_t> group = c.sizeAttr("group", 1, 1), og = c.sizeAttr("offset_group", 1, 1);
  if (!group || !og)
    return failure();
  int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3], M = ws[0], kh = ws[2], kw = ws[3];
  if (auto k = c.intsAttr("kernel_shape"); k && (k->size() != 2 || (*k)[0] != kh || (*k)[1] != kw))
    return c.fail(code::ShapeMismatch, "kernel_shape does not match W's " + llvm::Twine(kh) + "x" + llvm::Twine(kw));
  std::vector<int64_t> strides = c.intsAttr("strides").value_or(std::vector<int64_t>{1, 1});
  std::vector<int64_t> dil = c.intsAttr("dilations").value_or(std::vector<int64_t>{1, 1});
  std::vector<int64_t> pads = c.intsAttr("pads").value_or(std::vector<int64_t>{0, 0, 0, 0});
  if (strides.size() != 2 || dil.size() != 2 || pads.size() != 4 || !c.inSizeRange("strides", strides, 1) ||
      !c.inSizeRange("dilations", dil, 1) || !c.inSizeRange("pads", pads, 0))
    return c.fail(code::UnsupportedAttr, "strides and dilations need 2 positive entries, pads 4 non-negative ones");
  int64_t oh = (H + pads[0] + pads[2] - ((kh - 1) * dil[0] + 1)) / strides[0] + 1;
  int64_t ow = (W + pads[1] + pads[3] - ((kw - 1) * dil[1] + 1)) / strides[1] + 1;
  int64_t K = kh * kw, Q = oh * ow, G = *group, OG = *og;
  if (C % G || M % G || ws[1] != C / G || C % OG)
    return c.fail(code::ShapeMismatch, "X's " + llvm::Twine(C) + " channels, W " + sh::str(ws) + ", group " +
                                           llvm::Twine(G) + " and offset_group " + llvm::Twine(OG) + " do not agree");
  if (oh < 1 || ow < 1 || os != ArrayRef<int64_t>{N, 2 * OG * K, oh, ow} ||
      (mask && mask->shape() != ArrayRef<int64_t>{N, OG * K, oh, ow}) || (bias && bias->shape() != ArrayRef<int64_t>{M}))
    return c.fail(code::ShapeMismatch, "offset must be [" + llvm::Twine(N) + ", " + llvm::Twine(2 * OG * K) + ", " +
                                           llvm::Twine(oh) + ", " + llvm::Twine(ow) + "], mask [" + llvm::Twine(N) +
                                           ", " + llvm::Twine(OG * K) + ", oH, oW], B [" + llvm::Twine(M) + "]");
  if (N * OG * H * W >= kMaxImageRows)
    return c.fail(code::Overflow, "DeformConv of " + llvm::Twine(N * OG * H * W) + " image rows: past the " +
                                      llvm::Twine(kMaxImageRows) + " whose row numbers f32 holds exactly");
  if (!c.fitsBuiltConstant(N * OG * K * Q, "DeformConv's sample points"))
    return failure();
  int64_t B = N * OG, Cg = C / OG;
  Type f32 = x->element();
  OpChain b{c};
  Coords f{b, c.tensor({B, K, Q}, f32), c.tensor({B, K, Q}, c.b.getI1Type())};
  // Each tap's unmoved place [1, K, Q], and each (image, offset group)'s
  // first row [B, 1, 1].
  std::vector<float> baseY(static_cast<size_t>(K * Q)), baseX(static_cast<size_t>(K * Q)), first;
  for (int64_t k = 0; k < K; ++k)
    for (int64_t q = 0; q < Q; ++q) {
      baseY[size_t(k * Q + q)] = float((q / ow) * strides[0] - pads[0] + (k / kw) * dil[0]);
      baseX[size_t(k * Q + q)] = float((q % ow) * strides[1] - pads[1] + (k % kw) * dil[1]);
    }
  for (int64_t i = 0; i < B; ++i)
    first.push_back(float(i * H * W));
  auto constant = [&](ArrayRef<int64_t> shape, ArrayRef<float> v) {
    return c.constant(DenseElementsAttr::get(c.tensor(shape, f32), v)).value;
  };
  Value o = b.reshape(off->value, {B, K, 2, Q});
  Value py = f.add(constant({1, K, Q}, baseY), b.reshape(b.slice(o, 2, 0, 1), {B, K, Q}));
  Value px = f.add(constant({1, K, Q}, baseX), b.reshape(b.slice(o, 2, 1, 2), {B, K, Q}));
  Value y0 = f.floor(py), x0 = f.floor(px);
  Value ly = f.sub(py, y0), lx = f.sub(px, x0);
  Value m = mask ? b.reshape(mask->value, {B, K, Q}) : Value();
  // The image as rows of one offset group's channels.
  Value rows = b.reshape(b.transpose(b.reshape(x->value, {N, OG, Cg, H, W}), {0, 1, 3, 4, 2}), {B * H * W, Cg});
  Value start = constant({B, 1, 1}, first);
  auto vt = c.tensor({B, K, Q, Cg}, f32);
  Value v;
  for (int64_t dy = 0; dy < 2; ++dy)
    for (int64_t dx = 0; dx < 2; ++dx) {
      Value yy = dy ? f.add(y0, f.k(1.0f)) : y0, xx = dx ? f.add(x0, f.k(1.0f)) : x0;
      Value outside = f.either(f.either(f.less(yy, f.k(0.0f)), f.greater(yy, f.k(float(H - 1)))),
                               f.either(f.less(xx, f.k(0.0f)), f.greater(xx, f.k(float(W - 1)))));
      Value weight = f.mul(dy ? ly : f.sub(f.k(1.0f), ly), dx ? lx : f.sub(f.k(1.0f), lx));
      weight = f.where(outside, f.k(0.0f), m ? f.mul(weight, m) : weight);
      Value linear = f.add(f.add(start, f.mul(f.clip(yy, 0.0f, float(H - 1)), f.k(float(W)))),
                           f.clip(xx, 0.0f, float(W - 1)));
      Value tap = b.reshape(f.taps(rows, linear), {B, K, Q, Cg});
      tap = b.op<graph::MulOp>({b.reshape(weight, {B, K, Q, 1}), tap}, vt);
      v = v ? b.op<graph::AddOp>({v, tap}, vt) : tap;
    }
  // The columns [G, N * Q, C / G * K] (channel-major, as W flattens), times
  // W as [G, C / G * K, M / G]: a product batched over the groups.
  int64_t Cw = C / G, Mg = M / G;
  Value cols = b.transpose(b.reshape(v, {N, OG, K, Q, Cg}), {0, 3, 1, 4, 2});  // [N, Q, OG, Cg, K]
  cols = b.transpose(b.reshape(cols, {N * Q, G, Cw * K}), {1, 0, 2});           // [G, N Q, Cw K]
  Value wt = b.transpose(b.reshape(w->value, {G, Mg, Cw * K}), {0, 2, 1});
  Value y = b.op<graph::MatMulOp>({cols, wt}, c.tensor({G, N * Q, Mg}, f32));
  y = b.reshape(b.transpose(b.reshape(y, {G, N, Q, Mg}), {1, 0, 3, 2}), {N, M, oh, ow});
  if (bias)
    y = b.op<graph::AddOp>({y, b.reshape(bias->value, {M, 1, 1})}, c.tensor({N, M, oh, ow}, f32));
  return b.finish(y);
}
} // namespace

void npuc::onnx_import::registerGridSampleOps(llvm::StringMap<OpImporter> &t) {
  t["GridSample"] = importGridSample;
  t["AffineGrid"] = importAffineGrid;
  t["RoiAlign"] = importRoiAlign;
  t["DeformConv"] = importDeformConv;
}
