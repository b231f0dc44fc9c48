//===- OpsSignal.cpp - DFT, STFT, window functions, MelWeightMatrix -------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Audio front ends. The window functions and MelWeightMatrix depend only on
// their (constant) sizes: they are constants computed at import. DFT and
// STFT are products by a constant matrix of cosines and sines (the transform
// of a fixed length is linear): one MATRIX product whose rows take the
// signal's interleaved real and imaginary parts and whose columns give the
// output's (docs/numerics.md, "DFT and STFT").
//
//===----------------------------------------------------------------------===//

#include "Ops.h"

#include <cmath>

using namespace mlir;
using namespace npuc::onnx_import;

namespace {
/// The largest DFT matrix built (elements).
constexpr int64_t kMaxDFTMatrix = int64_t(1) << 24;
/// The most STFT frames sliced.
constexpr int64_t kMaxFrames = 4096;

/// One constant scalar integer at input `i`.
std::optional<int64_t> scalarInt(NodeContext &c, size_t i, StringRef what) {
  auto v = c.constantInts(i, what);
  if (!v)
    return std::nullopt;
  if (v->size() != 1) {
    (void)c.fail(code::ShapeMismatch, llvm::Twine(what) + " must hold one value");
    return std::nullopt;
  }
  return (*v)[0];
}

/// The output element type an `output_datatype` attribute names (f32 only).
LogicalResult checkFloatOutput(NodeContext &c) {
  if (int64_t t = c.intAttr("output_datatype", 1); t != 1)
    return c.fail(code::UnsupportedType, "output_datatype " + llvm::Twine(t) + " is not supported (float only)");
  return success();
}

/// HannWindow, HammingWindow, BlackmanWindow of a constant size: ONNX's
/// formulas over n / N (N = size when periodic, else size - 1) in double,
/// rounded to f32 once.
LogicalResult importWindow(NodeContext &c) {
  if (failed(checkFloatOutput(c)))
    return failure();
  std::optional<int64_t> size = scalarInt(c, 0, "size");
  if (!size)
    return failure();
  if (*size < 1 || !c.fitsBuiltConstant(*size, "the window"))
    return c.fail(code::ShapeMismatch, "window size " + llvm::Twine(*size) + " is not positive");
  bool periodic = c.intAttr("periodic", 1) != 0;
  double N = double(periodic ? *size : *size - 1);
  StringRef op = c.node.op_type();
  std::vector<float> w(static_cast<size_t>(*size));
  for (int64_t n = 0; n < *size; ++n) {
    double x = N > 0 ? double(n) / N : 0.0;
    double v;
    if (op == "HannWindow")
      v = std::pow(std::sin(M_PI * x), 2);
    else if (op == "HammingWindow")
      v = 25.0 / 46.0 - (1.0 - 25.0 / 46.0) * std::cos(2 * M_PI * x);
    else
      v = 0.42 - 0.5 * std::cos(2 * M_PI * x) + 0.08 * std::cos(4 * M_PI * x);
    w[size_t(n)] = float(v);
  }
  auto t = c.tensor({*size}, c.b.getF32Type());
  c.setOutput(0, c.constant(DenseElementsAttr::get(t, ArrayRef<float>(w))));
  return success();
}

/// MelWeightMatrix, as ONNX's reference computes it: num_mel_bins + 2 band
/// edges equally spaced in mel between the edges, back to hertz, to bins
/// ((dft_length + 1) * f // sample_rate), then triangles of peak 1.
LogicalResult importMelWeightMatrix(NodeContext &c) {
  if (failed(checkFloatOutput(c)))
    return failure();
  std::optional<int64_t> mels = scalarInt(c, 0, "num_mel_bins"), dft = scalarInt(c, 1, "dft_length"),
                         rate = scalarInt(c, 2, "sample_rate");
  DenseElementsAttr lo = c.requiredConstant(3, "lower_edge_hertz"), hi = c.requiredConstant(4, "upper_edge_hertz");
  if (!mels || !dft || !rate || !lo || !hi)
    return failure();
  if (*mels < 1 || *dft < 1 || *rate < 1 || !isa<FloatType>(lo.getElementType()) ||
      !isa<FloatType>(hi.getElementType()))
    return c.fail(code::ShapeMismatch, "num_mel_bins, dft_length and sample_rate must be positive, the edges floats");
  int64_t bins = *dft / 2 + 1;
  if (!c.fitsBuiltConstant(bins * *mels, "the mel weight matrix"))
    return failure();
  auto hz = [](DenseElementsAttr a) { return (*a.getValues<APFloat>().begin()).convertToDouble(); };
  double loMel = 2595 * std::log10(1 + hz(lo) / 700), hiMel = 2595 * std::log10(1 + hz(hi) / 700);
  double step = (hiMel - loMel) / double(*mels + 2);
  std::vector<int64_t> edge(static_cast<size_t>(*mels + 2));
  for (int64_t i = 0; i < *mels + 2; ++i) {
    double f = 700 * (std::pow(10.0, (double(i) * step + loMel) / 2595) - 1);
    edge[size_t(i)] = int64_t(std::floor(double(*dft + 1) * f / double(*rate)));
  }
  std::vector<float> m(static_cast<size_t>(bins * *mels), 0.0f);
  auto set = [&](int64_t j, int64_t i, double v) {
    if (j >= 0 && j < bins)
      m[size_t(j * *mels + i)] = float(v);
  };
  for (int64_t i = 0; i < *mels; ++i) {
    int64_t left = edge[size_t(i)], center = edge[size_t(i + 1)], right = edge[size_t(i + 2)];
    if (center == left)
      set(center, i, 1.0);
    else
      for (int64_t j = left; j <= center; ++j)
        set(j, i, double(j - left) / double(center - left));
    for (int64_t j = center; j < right; ++j)
      set(j, i, double(right - j) / double(right - center));
  }
  auto t = c.tensor({bins, *mels}, c.b.getF32Type());
  c.setOutput(0, c.constant(DenseElementsAttr::get(t, ArrayRef<float>(m))));
  return success();
}

/// The DFT matrix [n * c, k * 2]: row (n, input part), column (frequency, output
/// part), for a transform of length N over `used` input samples of `c`
/// parts (1 real, 2 complex), K output frequencies.
std::vector<float> dftMatrix(int64_t used, int64_t parts, int64_t N, int64_t K, bool inverse) {
  std::vector<float> m(size_t(used * parts * K * 2), 0.0f);
  double scale = inverse ? 1.0 / double(N) : 1.0, sign = inverse ? 1.0 : -1.0;
  for (int64_t n = 0; n < used; ++n)
    for (int64_t k = 0; k < K; ++k) {
      double theta = 2 * M_PI * double((n * k) % N) / double(N);
      double cs = std::cos(theta) * scale, sn = sign * std::sin(theta) * scale;
      // (xr + i xi)(cos + i sn) = xr cos - xi sn + i (xr sn + xi cos).
      size_t re = size_t(k * 2), im = re + 1, row = size_t(n * parts);
      size_t cols = size_t(K * 2);
      m[row * cols + re] = float(cs);
      m[row * cols + im] = float(sn);
      if (parts == 2) {
        m[(row + 1) * cols + re] = float(-sn);
        m[(row + 1) * cols + im] = float(cs);
      }
    }
  return m;
}

/// `frames` [R, L * parts] times the DFT matrix of length N, K frequencies:
/// [R, K * 2].
FailureOr<Value> dftProduct(NodeContext &c, Value frames, int64_t R, int64_t L, int64_t parts, int64_t N,
                            int64_t K, bool inverse) {
  if (L * parts * K * 2 > kMaxDFTMatrix)
    return (void)c.fail(code::Overflow, "the DFT matrix of " + llvm::Twine(L) + " x " + llvm::Twine(K) +
                                            " points is past 2^24 elements"),
           failure();
  std::vector<float> m = dftMatrix(L, parts, N, K, inverse);
  Type f32 = c.b.getF32Type();
  auto mt = c.tensor({L * parts, K * 2}, f32);
  Value mv = c.constant(DenseElementsAttr::get(mt, ArrayRef<float>(m))).value;
  return c.build<graph::MatMulOp>({frames, mv}, c.tensor({R, K * 2}, f32));
}

/// DFT (opset 17 on): the signal axis moved next to the last (the parts),
/// zero-padded or cut to dft_length by the matrix's rows, one product.
LogicalResult importDFT(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  ArrayRef<int64_t> s = x->shape();
  int64_t rank = int64_t(s.size());
  if (!x->element().isF32() || rank < 3 || (s.back() != 1 && s.back() != 2))
    return c.fail(code::UnsupportedType, "DFT of f32 [batch, ..., 1 or 2] signals only");
  int64_t axisAttr = c.intAttr("axis", 1);
  if (c.opset >= 20) {
    axisAttr = -2;
    if (c.input(2)) {
      std::optional<int64_t> a = scalarInt(c, 2, "axis");
      if (!a)
        return failure();
      axisAttr = *a;
    }
  }
  std::optional<int64_t> axis = c.axis(axisAttr, rank);
  if (!axis)
    return failure();
  if (*axis == 0 || *axis == rank - 1)
    return c.fail(code::UnsupportedAttr, "the DFT axis must be a signal axis (not the batch or the parts)");
  bool inverse = c.intAttr("inverse", 0) != 0, onesided = c.intAttr("onesided", 0) != 0;
  int64_t parts = s.back(), Nin = s[size_t(*axis)], N = Nin;
  if (c.input(1)) {
    std::optional<int64_t> len = scalarInt(c, 1, "dft_length");
    if (!len)
      return failure();
    N = *len;
  }
  if (N < 1)
    return c.fail(code::ShapeMismatch, "dft_length " + llvm::Twine(N) + " is not positive");
  if (onesided && (inverse || parts == 2))
    return c.fail(code::UnsupportedAttr, "onesided takes a real forward DFT");
  int64_t K = onesided ? N / 2 + 1 : N, used = std::min(Nin, N);
  // [.., axis, .., parts] -> [others..., axis, parts].
  SmallVector<int64_t> perm, moved;
  for (int64_t d = 0; d < rank - 1; ++d)
    if (d != *axis)
      perm.push_back(d);
  perm.append({*axis, rank - 1});
  int64_t R = 1;
  for (int64_t d : perm)
    moved.push_back(s[size_t(d)]);
  for (size_t d = 0; d + 2 < moved.size(); ++d)
    R *= moved[d];
  Type f32 = c.b.getF32Type();
  FailureOr<Value> v = x->value;
  if (*axis != rank - 2)
    v = c.build<graph::TransposeOp>({*v}, c.tensor(moved, f32), {c.named("perm", c.b.getDenseI64ArrayAttr(perm))});
  if (succeeded(v) && used < Nin)
    v = sliceAxis(c, *v, int64_t(moved.size()) - 2, 0, used, 1, used);
  if (succeeded(v))
    v = c.build<graph::ReshapeOp>({*v}, c.tensor({R, used * parts}, f32));
  if (succeeded(v))
    v = dftProduct(c, *v, R, used, parts, N, K, inverse);
  SmallVector<int64_t> outMoved(moved);
  outMoved[moved.size() - 2] = K;
  outMoved.back() = 2;
  if (succeeded(v))
    v = c.build<graph::ReshapeOp>({*v}, c.tensor(outMoved, f32));
  if (failed(v))
    return failure();
  if (*axis != rank - 2) {
    SmallVector<int64_t> inverse(perm.size()), outShape(s);
    for (size_t i = 0; i < perm.size(); ++i)
      inverse[size_t(perm[i])] = int64_t(i);
    outShape[size_t(*axis)] = K;
    outShape.back() = 2;
    return c.buildOutput<graph::TransposeOp>({*v}, c.tensor(outShape, f32),
                                             {c.named("perm", c.b.getDenseI64ArrayAttr(inverse))});
  }
  c.setOutput(0, *v);
  return success();
}

/// STFT (opset 17): frames of frame_length samples every frame_step, times
/// the window, each a DFT of the frame's length (onesided by default): the
/// frames sliced and stacked [batch * frames, L * parts], one product.
LogicalResult importSTFT(NodeContext &c) {
  std::optional<Val> x = c.required(0);
  if (!x)
    return failure();
  ArrayRef<int64_t> s = x->shape();
  if (!x->element().isF32() || s.size() != 3 || (s[2] != 1 && s[2] != 2))
    return c.fail(code::UnsupportedType, "STFT of f32 [batch, length, 1 or 2] signals only");
  std::optional<int64_t> step = scalarInt(c, 1, "frame_step");
  if (!step)
    return failure();
  std::optional<Val> window = c.input(2);
  int64_t L = 0;
  if (c.input(3)) {
    std::optional<int64_t> len = scalarInt(c, 3, "frame_length");
    if (!len)
      return failure();
    L = *len;
  } else if (window) {
    L = window->shape().empty() ? 0 : window->shape()[0];
  }
  int64_t B = s[0], T = s[1], parts = s[2];
  if (L < 1 || L > T || *step < 1)
    return c.fail(code::ShapeMismatch, "frame_length " + llvm::Twine(L) + " and frame_step " + llvm::Twine(*step) +
                                           " do not frame a signal of " + llvm::Twine(T));
  if (window && (window->shape().size() != 1 || window->shape()[0] != L || !window->element().isF32()))
    return c.fail(code::ShapeMismatch, "the window must be f32 [frame_length]");
  bool onesided = c.intAttr("onesided", 1) != 0;
  if (onesided && parts == 2)
    return c.fail(code::UnsupportedAttr, "onesided takes a real signal");
  int64_t F = (T - L) / *step + 1, K = onesided ? L / 2 + 1 : L;
  if (F > kMaxFrames)
    return c.fail(code::Overflow, llvm::Twine(F) + " frames are past the " + llvm::Twine(kMaxFrames) +
                                      " STFT slices one by one");
  Type f32 = c.b.getF32Type();
  SmallVector<Value> frames;
  for (int64_t f = 0; f < F; ++f) {
    FailureOr<Value> fr = sliceAxis(c, x->value, 1, f * *step, f * *step + L, 1, L);
    if (succeeded(fr))
      fr = c.build<graph::ReshapeOp>({*fr}, c.tensor({B, 1, L, parts}, f32));
    if (failed(fr))
      return failure();
    frames.push_back(*fr);
  }
  FailureOr<Value> v = frames.size() == 1 ? FailureOr<Value>(frames.front())
                                          : c.build<graph::ConcatOp>(frames, c.tensor({B, F, L, parts}, f32),
                                                                     {c.named("axis", c.b.getI64IntegerAttr(1))});
  if (succeeded(v) && window) {
    FailureOr<Value> w = c.build<graph::ReshapeOp>({window->value}, c.tensor({L, 1}, f32));
    v = succeeded(w) ? c.build<graph::MulOp>({*v, *w}, c.tensor({B, F, L, parts}, f32)) : w;
  }
  if (succeeded(v))
    v = c.build<graph::ReshapeOp>({*v}, c.tensor({B * F, L * parts}, f32));
  if (succeeded(v))
    v = dftProduct(c, *v, B * F, L, parts, L, K, false);
  if (failed(v))
    return failure();
  return c.buildOutput<graph::ReshapeOp>({*v}, c.tensor({B, F, K, 2}, f32));
}
} // namespace

void npuc::onnx_import::registerSignalOps(llvm::StringMap<OpImporter> &t) {
  t["HannWindow"] = importWindow;
  t["HammingWindow"] = importWindow;
  t["BlackmanWindow"] = importWindow;
  t["MelWeightMatrix"] = importMelWeightMatrix;
  t["DFT"] = importDFT;
  t["STFT"] = importSTFT;
}
