//===- KernelToEmit.cpp - qk kernels and graph ops to engine operations ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Every tensor gets a GM buffer (input, output, const or arena) in dense
// row-major order; views (reshape, storage casts) share their source's
// buffer. Each kernel is tiled so its working set fits the target's LM and
// ACC: DMA_IN brings tiles into local memory (im2col windows, broadcasts by
// zero strides, padding by the DMA's fill), MATRIX and VECTOR compute, DMA_OUT
// writes back. Local tiles have row pitches padded to the vector granule.
// Synchronisation, memory placement and encoding are later passes.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Conversion/Passes.h"
#include "npuc/Dialect/Emit/IR/EmitDialect.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "npuc/Dialect/QK/IR/QKOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinOps.h"

#include <functional>

namespace npuc {
#define GEN_PASS_DEF_CONVERTKERNELTOEMIT
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {

/// The type a tensor's elements are stored as.
Type storageOf(Type element) {
  if (auto q = dyn_cast<quant::QuantizedType>(element)) {
    unsigned w = q.getStorageTypeIntegralWidth();
    return q.isSigned() ? Type(IntegerType::get(element.getContext(), w))
                        : Type(IntegerType::get(element.getContext(), w, IntegerType::Unsigned));
  }
  if (auto i = dyn_cast<IntegerType>(element); i && i.isSigned())
    return IntegerType::get(element.getContext(), i.getWidth());
  return element;
}

RankedTensorType tensorOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// Scales and zero points of a quantized type, per tensor or along `axis`.
struct Quant {
  SmallVector<double> scales;
  SmallVector<int64_t> zps;
  int64_t axis = -1;
};
std::optional<Quant> quantOf(Type element) {
  Quant q;
  if (auto t = dyn_cast<quant::UniformQuantizedType>(element)) {
    q.scales = {t.getScale()};
    q.zps = {t.getZeroPoint()};
    return q;
  }
  if (auto t = dyn_cast<quant::UniformQuantizedPerAxisType>(element)) {
    q.scales.assign(t.getScales().begin(), t.getScales().end());
    q.zps.assign(t.getZeroPoints().begin(), t.getZeroPoints().end());
    q.axis = t.getQuantizedDimension();
    return q;
  }
  return std::nullopt;
}

/// One operand of an elementwise kernel: its GM buffer and its byte strides
/// against the kernel's 4-D iteration space (0 where it broadcasts).
struct EwOperand {
  Value gm;
  SmallVector<int64_t, 4> strides;
  /// A per-channel parameter (scale, zero point, BatchNorm operand): when it
  /// is constant along the tile's columns it is loaded as one value per row,
  /// a [rows, 1] tile the VECTOR engine broadcasts by address (b_bcast), not
  /// a copy at the tensor's size (contract N7).
  bool perRow = false;
};

/// The LM tiles an elementwise body works on: one per operand, the output
/// tile, and the grid.
struct EwTiles {
  SmallVector<Value> in;
  Value out;
  int64_t rows, cols;
};

class KernelLowering {
public:
  KernelLowering(OpBuilder &b, const target::TargetInfo &t) : e(b, t), b(b), t(t) {}

  LogicalResult run(func::FuncOp func);

private:
  Emitter e;
  OpBuilder &b;
  const target::TargetInfo &t;
  DenseMap<Value, Value> gm;
  int64_t inputBytes = 0, outputBytes = 0;

  Value gmOf(Value tensor);
  Value ioBuffer(MemorySpace space, int64_t &cursor, StringRef name, RankedTensorType type);
  Value arena(RankedTensorType type) {
    Type st = storageOf(type.getElementType());
    return e.alloc(MemorySpace::Arena, type.getShape(), st, denseStrides(type.getShape(), bytesOf(st)));
  }
  Value resultBuffer(Value result) {
    auto it = gm.find(result);
    if (it != gm.end())
      return it->second;
    return gm[result] = arena(tensorOf(result));
  }
  Value constant(Attribute value, RankedTensorType type);
  Value f32Constant(ArrayRef<float> values);

  LogicalResult lower(Operation *op);
  LogicalResult elementwise(Operation *op, ArrayRef<int64_t> shape, ArrayRef<EwOperand> ins,
                            Value out, int64_t bytesPerElem,
                            const std::function<void(EwTiles &)> &body);
  EwOperand broadcastOperand(Value tensor, ArrayRef<int64_t> outShape);
  LogicalResult lowerQuantize(graph::QuantizeOp op);
  LogicalResult lowerDequantize(graph::DequantizeOp op);
  LogicalResult lowerBinary(Operation *op, StringRef func);
  LogicalResult lowerUnary(Operation *op, StringRef func);
  /// An elementwise function of one f32 or per-tensor quantized tensor,
  /// computed in f32 on the exact dequantized values and quantized once
  /// (docs/numerics.md); `body` rewrites the f32 tile in place.
  LogicalResult lowerF32Map(Operation *op, Value input, Value result,
                            const std::function<void(Value)> &body);
  LogicalResult lowerReduce(Operation *op, Value input, Value result, ArrayRef<int64_t> axes,
                            StringRef func, bool mean);
  LogicalResult lowerSoftmax(graph::SoftmaxOp op);
  LogicalResult lowerPool(Operation *op, Value x, Value result, ArrayRef<int64_t> kernel,
                          ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                          ArrayRef<int64_t> dilations, bool isMax, bool countIncludePad);
  /// A [rows, cols] f32 tile with the real values of `tile`: a cast, then
  /// (q - zp) * scale when `q` is given (each step one f32 rounding, as ONNX).
  Value toF32(Value tile, const std::optional<Quant> &q);
  /// `f` (f32, modified) stored as `storage`: saturate(round_half_even(f / scale) + zp)
  /// when `q` is given, else `f` itself.
  Value fromF32(Value f, const std::optional<Quant> &q, Type storage);
  LogicalResult lowerCopy(Operation *op, Value src, Value dst, ArrayRef<int64_t> shape,
                          ArrayRef<int64_t> srcStrides);
  LogicalResult lowerPad(Operation *op, Value src, Value dst, ArrayRef<int64_t> inShape,
                         ArrayRef<int64_t> lo, ArrayRef<int64_t> hi, int64_t fill);
  /// [..., M, K] x [K, N] (or batched [..., K, N]); Gemm's transposed
  /// operands are read through transposing views, alpha scales the product
  /// and beta * `addend` (broadcast to [M, N]) is added before the store.
  LogicalResult lowerMatmul(Operation *op, Value lhs, Value rhs, Value bias, Value result,
                            int64_t azp, int64_t bzp, qk::RequantAttr rq, bool transA = false,
                            bool transB = false, float alpha = 1.0f, Value addend = {},
                            float beta = 1.0f);
  LogicalResult lowerConv(Operation *op, Value input, Value weight, Value bias, Value result,
                          ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                          ArrayRef<int64_t> dilations, int64_t groups, int64_t xzp, int64_t wzp,
                          qk::RequantAttr rq);
  LogicalResult lowerConvBuffers(Operation *op, Value X, Value W, Value Bias, Value Y,
                                 ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                                 ArrayRef<int64_t> dil, int64_t groups, int64_t xzp, int64_t wzp,
                                 qk::RequantAttr rq);
  LogicalResult lowerConvTranspose(graph::ConvTransposeOp op);
  LogicalResult lowerDepthwise(Operation *op, Value X, Value W, Value Bias, Value Y,
                               ArrayRef<int64_t> strides, ArrayRef<int64_t> dil, int64_t xzp,
                               int64_t wzp, qk::RequantAttr rq, Value params, Type accType);
  /// The kernel epilogue: bias, requantization (or none), DMA_OUT of a
  /// [rows, cols] accumulator tile to `dst` (a 2-D GM view).
  void epilogue(Value acc, int64_t rows, int64_t cols, Value biasGM, int64_t col0,
                qk::RequantAttr rq, Value paramsGM, Value dst, bool perRow = false,
                int64_t row0 = 0);
  Value requantTable(qk::RequantAttr rq, int64_t channels);
};

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

Value KernelLowering::ioBuffer(MemorySpace space, int64_t &cursor, StringRef name,
                               RankedTensorType type) {
  Type st = storageOf(type.getElementType());
  auto bt = e.type(space, type.getShape(), st, denseStrides(type.getShape(), bytesOf(st)));
  Value v = AllocOp::create(b, e.loc, bt, b.getI64IntegerAttr(cursor), b.getStringAttr(name));
  cursor = roundUp(cursor + bt.getSpanBytes(), 64);
  return v;
}

Value KernelLowering::constant(Attribute value, RankedTensorType type) {
  Type st = storageOf(type.getElementType());
  auto dense = cast<DenseElementsAttr>(value);
  if (dense.getElementType() != st)
    dense = dense.bitcast(st);
  dense = dense.reshape(RankedTensorType::get(type.getShape(), st));
  auto bt = e.type(MemorySpace::Const, type.getShape(), st, denseStrides(type.getShape(), bytesOf(st)));
  return ConstantOp::create(b, e.loc, bt, dense, IntegerAttr());
}

Value KernelLowering::f32Constant(ArrayRef<float> values) {
  auto type = RankedTensorType::get({int64_t(values.size())}, b.getF32Type());
  return constant(DenseElementsAttr::get(type, values), type);
}

Value KernelLowering::gmOf(Value tensor) {
  auto it = gm.find(tensor);
  if (it != gm.end())
    return it->second;
  if (auto c = tensor.getDefiningOp<graph::ConstantOp>())
    return gm[tensor] = constant(c.getValue(), tensorOf(tensor));
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Elementwise kernels
//===----------------------------------------------------------------------===//

EwOperand KernelLowering::broadcastOperand(Value tensor, ArrayRef<int64_t> outShape) {
  Value buf = gmOf(tensor);
  auto bt = cast<BufferType>(buf.getType());
  ArrayRef<int64_t> shape = bt.getShape();
  EwOperand op{buf, {}};
  size_t lead = outShape.size() - shape.size();
  for (size_t i = 0; i < outShape.size(); ++i) {
    if (i < lead || shape[i - lead] == 1)
      op.strides.push_back(0);
    else
      op.strides.push_back(bt.getStrides()[i - lead]);
  }
  return op;
}

LogicalResult KernelLowering::elementwise(Operation *op, ArrayRef<int64_t> shapeIn,
                                          ArrayRef<EwOperand> insIn, Value out,
                                          int64_t bytesPerElem,
                                          const std::function<void(EwTiles &)> &body) {
  // Canonical 4-D iteration space: merge dimensions every operand walks
  // contiguously, then pad with leading 1s.
  auto outType = cast<BufferType>(out.getType());
  SmallVector<int64_t> shape(shapeIn.begin(), shapeIn.end());
  SmallVector<SmallVector<int64_t, 4>> strides;
  for (const EwOperand &o : insIn)
    strides.push_back(o.strides);
  strides.push_back(SmallVector<int64_t, 4>(outType.getStrides().begin(), outType.getStrides().end()));
  if (shape.empty()) {
    shape.push_back(1);
    for (auto &s : strides)
      s.push_back(0);
  }
  // Size-1 dimensions move nothing, whatever their strides.
  for (int64_t i = int64_t(shape.size()) - 1; i >= 0 && shape.size() > 1; --i) {
    if (shape[size_t(i)] != 1)
      continue;
    shape.erase(shape.begin() + i);
    for (auto &s : strides)
      s.erase(s.begin() + i);
  }
  for (int64_t i = int64_t(shape.size()) - 2; i >= 0; --i) {
    bool mergeable = llvm::all_of(strides, [&](auto &s) {
      return s[size_t(i)] == s[size_t(i) + 1] * shape[size_t(i) + 1];
    });
    if (!mergeable)
      continue;
    shape[size_t(i)] *= shape[size_t(i) + 1];
    shape.erase(shape.begin() + i + 1);
    for (auto &s : strides) {
      s[size_t(i)] = s[size_t(i) + 1];
      s.erase(s.begin() + i + 1);
    }
  }
  if (shape.size() > 4)
    return op->emitOpError() << "has a " << shape.size()
                             << "-D iteration space after merging contiguous dimensions; the DMA "
                                "moves at most 4";
  while (shape.size() < 4) {
    shape.insert(shape.begin(), 1);
    for (auto &s : strides)
      s.insert(s.begin(), 0);
  }
  // Tile: the innermost dimension up to a column budget, then whole rows. A
  // row of each tile (operands, output, scratch) is padded to the 32-byte
  // granule, so a row costs up to 31 bytes more per tile than its elements.
  int64_t lm = t.params.LMBytes / 4, perElem = std::max<int64_t>(bytesPerElem, 1);
  int64_t tiles = int64_t(insIn.size()) + 4;
  int64_t t3 = std::min({shape[3], lm / perElem / 2, int64_t(4096)});
  int64_t rowBytes = t3 * perElem + 32 * tiles;
  int64_t rowsBudget = std::max<int64_t>(1, std::min<int64_t>(lm / rowBytes, 65535));
  int64_t t2 = std::min(shape[2], rowsBudget);
  int64_t t1 = t2 == shape[2] ? std::max<int64_t>(1, std::min(shape[1], rowsBudget / shape[2])) : 1;
  int64_t t0 = t1 == shape[1] && t2 == shape[2]
                   ? std::max<int64_t>(1, std::min(shape[0], rowsBudget / (shape[1] * shape[2])))
                   : 1;
  for (int64_t i0 = 0; i0 < shape[0]; i0 += t0)
    for (int64_t i1 = 0; i1 < shape[1]; i1 += t1)
      for (int64_t i2 = 0; i2 < shape[2]; i2 += t2)
        for (int64_t i3 = 0; i3 < shape[3]; i3 += t3) {
          int64_t c0 = std::min(t0, shape[0] - i0), c1 = std::min(t1, shape[1] - i1);
          int64_t c2 = std::min(t2, shape[2] - i2), c3 = std::min(t3, shape[3] - i3);
          int64_t idx[4] = {i0, i1, i2, i3};
          SmallVector<int64_t> box{c0, c1, c2, c3};
          auto gmBox = [&](Value buf, ArrayRef<int64_t> s) {
            int64_t off = 0;
            for (int k = 0; k < 4; ++k)
              off += idx[k] * s[size_t(k)];
            return e.view(buf, off, box, s);
          };
          auto localBox = [&](Value tileV) {
            auto tt = cast<BufferType>(tileV.getType());
            int64_t pitch = tt.getStrides()[0], es = tt.getElementBytes();
            return e.view(tileV, 0, box, {c1 * c2 * pitch, c2 * pitch, pitch, es});
          };
          EwTiles tiles;
          tiles.rows = c0 * c1 * c2;
          tiles.cols = c3;
          for (auto [k, o] : llvm::enumerate(insIn)) {
            auto bt = cast<BufferType>(o.gm.getType());
            if (o.perRow && strides[k][3] == 0) {
              int64_t es = bt.getElementBytes();
              Value col = e.alloc(MemorySpace::LM, {tiles.rows, 1}, bt.getElementType(), {32, es});
              SmallVector<int64_t> rowBox{c0, c1, c2, 1};
              int64_t off = idx[0] * strides[k][0] + idx[1] * strides[k][1] + idx[2] * strides[k][2];
              e.dma(e.view(o.gm, off, rowBox, strides[k]),
                    e.view(col, 0, rowBox, {c1 * c2 * 32, c2 * 32, 32, es}));
              tiles.in.push_back(col);
              continue;
            }
            Value tileV = e.tile(MemorySpace::LM, tiles.rows, tiles.cols, bt.getElementType());
            e.dma(gmBox(o.gm, strides[k]), localBox(tileV));
            tiles.in.push_back(tileV);
          }
          tiles.out = nullptr;
          body(tiles);
          if (!tiles.out)
            tiles.out = tiles.in.front();
          e.dma(localBox(tiles.out), gmBox(out, strides.back()));
        }
  return success();
}

Value KernelLowering::toF32(Value tile, const std::optional<Quant> &q) {
  auto tt = cast<BufferType>(tile.getType());
  Value f = tile;
  if (!tt.getElementType().isF32()) {
    f = e.tile(MemorySpace::LM, tt.getShape()[0], tt.getShape()[1], b.getF32Type());
    e.cast(tile, f);
  }
  if (q) {
    e.vbini("SUB", f, b.getF32FloatAttr(float(q->zps[0])), f);
    e.vbini("MUL", f, b.getF32FloatAttr(float(q->scales[0])), f);
  }
  return f;
}

Value KernelLowering::fromF32(Value f, const std::optional<Quant> &q, Type storage) {
  if (!q)
    return f;
  auto ft = cast<BufferType>(f.getType());
  e.vbini("DIV", f, b.getF32FloatAttr(float(q->scales[0])), f);
  e.vun("ROUND", f, f);
  e.vbini("ADD", f, b.getF32FloatAttr(float(q->zps[0])), f);
  Value out = e.tile(MemorySpace::LM, ft.getShape()[0], ft.getShape()[1], storage);
  e.cast(f, out);
  return out;
}

LogicalResult KernelLowering::lowerQuantize(graph::QuantizeOp op) {
  auto q = quantOf(tensorOf(op.getResult()).getElementType());
  if (!q)
    return op.emitOpError("expects a uniform quantized result");
  Value in = gmOf(op.getInput());
  if (!cast<BufferType>(in.getType()).getElementType().isF32())
    return op.emitOpError("quantizes f32 inputs only");
  ArrayRef<int64_t> shape = tensorOf(op.getResult()).getShape();
  SmallVector<EwOperand> ins{broadcastOperand(op.getInput(), shape)};
  // Per axis: the scales and zero points are f32 operands broadcast along
  // every other dimension (zero strides).
  auto perAxis = [&](ArrayRef<float> values) {
    EwOperand o{f32Constant(values), SmallVector<int64_t, 4>(shape.size(), 0), true};
    o.strides[size_t(q->axis)] = 4;
    return o;
  };
  if (q->axis >= 0) {
    SmallVector<float> s, z;
    for (auto [sc, zp] : llvm::zip(q->scales, q->zps)) {
      s.push_back(float(sc));
      z.push_back(float(zp));
    }
    ins.push_back(perAxis(s));
    ins.push_back(perAxis(z));
  }
  Value out = resultBuffer(op.getResult());
  Type st = cast<BufferType>(out.getType()).getElementType();
  return elementwise(op, shape, ins, out, 4 * 4 + 1, [&](EwTiles &tl) {
    // y = saturate(round_half_even(x / scale) + zp), in f32 then one cast.
    Value x = tl.in[0];
    if (q->axis < 0) {
      tl.out = fromF32(x, q, st);
      return;
    }
    e.vbin("DIV", x, tl.in[1], x);
    e.vun("ROUND", x, x);
    e.vbin("ADD", x, tl.in[2], x);
    tl.out = e.tile(MemorySpace::LM, tl.rows, tl.cols, st);
    e.cast(x, tl.out);
  });
}

LogicalResult KernelLowering::lowerDequantize(graph::DequantizeOp op) {
  auto q = quantOf(tensorOf(op.getInput()).getElementType());
  if (!q)
    return op.emitOpError("expects a uniform quantized input");
  ArrayRef<int64_t> shape = tensorOf(op.getResult()).getShape();
  SmallVector<EwOperand> ins{broadcastOperand(op.getInput(), shape)};
  if (q->axis >= 0) {
    SmallVector<float> s, z;
    for (auto [sc, zp] : llvm::zip(q->scales, q->zps)) {
      s.push_back(float(sc));
      z.push_back(float(zp));
    }
    for (auto *values : {&z, &s}) {
      EwOperand o{f32Constant(*values), SmallVector<int64_t, 4>(shape.size(), 0), true};
      o.strides[size_t(q->axis)] = 4;
      ins.push_back(o);
    }
  }
  Value out = resultBuffer(op.getResult());
  return elementwise(op, shape, ins, out, 4 * 4 + 4, [&](EwTiles &tl) {
    // y = (f32(x) - zp) * scale, each step one f32 rounding as in ONNX.
    if (q->axis < 0) {
      tl.out = toF32(tl.in[0], q);
      return;
    }
    Value f = toF32(tl.in[0], std::nullopt);
    e.vbin("SUB", f, tl.in[1], f);
    e.vbin("MUL", f, tl.in[2], f);
    tl.out = f;
  });
}

LogicalResult KernelLowering::lowerBinary(Operation *op, StringRef func) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1), res = op->getResult(0);
  ArrayRef<int64_t> shape = tensorOf(res).getShape();
  auto ql = quantOf(tensorOf(lhs).getElementType()), qr = quantOf(tensorOf(rhs).getElementType());
  auto qy = quantOf(tensorOf(res).getElementType());
  bool quantized = ql || qr || qy;
  if (quantized && (!ql || !qr || !qy || ql->axis >= 0 || qr->axis >= 0 || qy->axis >= 0))
    return op->emitOpError("quantized elementwise ops need per-tensor quantized operands and result");
  Type fl = tensorOf(lhs).getElementType();
  if (!quantized && !fl.isF32())
    return op->emitOpError() << "elementwise " << func << " on " << fl
                             << " has no NPU lowering yet (f32 or per-tensor quantized)";
  SmallVector<EwOperand> ins{broadcastOperand(lhs, shape), broadcastOperand(rhs, shape)};
  Value out = resultBuffer(res);
  Type st = cast<BufferType>(out.getType()).getElementType();
  return elementwise(op, shape, ins, out, 2 * 4 + 3, [&](EwTiles &tl) {
    if (!quantized) {
      e.vbin(func, tl.in[0], tl.in[1], tl.in[0]);
      tl.out = tl.in[0];
      return;
    }
    // Exact float path: dequantize both (exact in f32), one f32 operation,
    // quantize with round half to even. Error <= 0.5 step plus one f32
    // rounding of the operation (docs/numerics.md).
    Value fa = toF32(tl.in[0], ql), fb = toF32(tl.in[1], qr);
    e.vbin(func, fa, fb, fa);
    tl.out = fromF32(fa, qy, st);
  });
}

LogicalResult KernelLowering::lowerUnary(Operation *op, StringRef func) {
  Value x = op->getOperand(0), res = op->getResult(0);
  ArrayRef<int64_t> shape = tensorOf(res).getShape();
  Type el = tensorOf(x).getElementType();
  auto qx = quantOf(el), qy = quantOf(tensorOf(res).getElementType());
  if (qx || qy) {
    if (!qx || !qy || qx->axis >= 0 || qy->axis >= 0)
      return op->emitOpError() << "quantized " << op->getName().stripDialect()
                               << " needs per-tensor quantized input and result";
    // Relu in one quantized domain is max(q, zp), exact on the integers.
    if (func == "RELU" && qx->scales == qy->scales && qx->zps == qy->zps) {
      int64_t zp = qx->zps[0];
      Value out = resultBuffer(res);
      return elementwise(op, shape, {broadcastOperand(x, shape)}, out, 2, [&](EwTiles &tl) {
        e.vbini("MAX", tl.in[0], b.getIntegerAttr(b.getIntegerType(32), zp), tl.in[0]);
      });
    }
  }
  return lowerF32Map(op, x, res, [&](Value f) { e.vun(func, f, f); });
}

LogicalResult KernelLowering::lowerF32Map(Operation *op, Value x, Value res,
                                          const std::function<void(Value)> &body) {
  ArrayRef<int64_t> shape = tensorOf(res).getShape();
  Type el = tensorOf(x).getElementType();
  auto qx = quantOf(el), qy = quantOf(tensorOf(res).getElementType());
  if ((!qx && !el.isF32()) || bool(qx) != bool(qy) || (qx && (qx->axis >= 0 || qy->axis >= 0)))
    return op->emitOpError() << op->getName().stripDialect() << " on " << el
                             << " has no NPU lowering yet (f32, or per-tensor quantized)";
  Value out = resultBuffer(res);
  Type st = cast<BufferType>(out.getType()).getElementType();
  return elementwise(op, shape, {broadcastOperand(x, shape)}, out, 14, [&](EwTiles &tl) {
    Value f = toF32(tl.in[0], qx);
    body(f);
    tl.out = fromF32(f, qy, st);
  });
}

LogicalResult KernelLowering::lowerReduce(Operation *op, Value input, Value result,
                                          ArrayRef<int64_t> axes, StringRef func, bool mean) {
  ArrayRef<int64_t> shape = tensorOf(input).getShape();
  for (size_t i = 1; i < axes.size(); ++i)
    if (axes[i] != axes[i - 1] + 1)
      return op->emitOpError("reduces non-adjacent axes; only one contiguous block of axes "
                             "has an NPU lowering yet");
  auto qx = quantOf(tensorOf(input).getElementType());
  auto qy = quantOf(tensorOf(result).getElementType());
  if ((qx && qx->axis >= 0) || (qy && qy->axis >= 0) || bool(qx) != bool(qy))
    return op->emitOpError("quantized reductions need per-tensor quantized input and result");
  if (!qx && !tensorOf(input).getElementType().isF32())
    return op->emitOpError("reductions of plain integers have no NPU lowering yet");
  int64_t outer = 1, r = 1, inner = 1;
  for (size_t i = 0; i < shape.size(); ++i)
    (int64_t(i) < axes.front() ? outer : int64_t(i) > axes.back() ? inner : r) *= shape[i];
  Value x = gmOf(input), y = resultBuffer(result);
  int64_t ex = cast<BufferType>(x.getType()).getElementBytes();
  Type sy = cast<BufferType>(y.getType()).getElementType();
  int64_t ey = bytesOf(sy);
  int64_t lm = t.params.LMBytes / 4;
  // Reduce f32 [rows, cols] along `axis` into d; then mean, quantize, store.
  auto finish = [&](Value f, StringRef axis, Value dst) {
    auto ft = cast<BufferType>(f.getType());
    int64_t rows = axis == "cols" ? ft.getShape()[0] : 1, cols = axis == "cols" ? 1 : ft.getShape()[1];
    Value d = e.tile(MemorySpace::LM, rows, cols, b.getF32Type());
    ReduceOp::create(b, e.loc, f, d, b.getStringAttr(func), b.getStringAttr(axis));
    if (mean)
      e.vbini("DIV", d, b.getF32FloatAttr(float(r)), d);
    e.dma(fromF32(d, qy, sy), dst);
  };
  if (inner == 1) {
    // Per row: the input row, its f32 copy, and three [rows, 1] tiles at a
    // 32-byte pitch (sum, quantized result).
    int64_t rowBytes = roundUp(r * ex, 32) + roundUp(r * 4, 32) + 3 * 32;
    if (r > 4096 || rowBytes > lm) {
      // Rows longer than a tile: chunks of rc elements reduce to partials,
      // stored one [1, R] row per chunk, then the partials reduce along rows
      // (SUM, MAX and MIN combine with themselves; a mean divides once).
      int64_t rc = std::min<int64_t>(r, 2048), nch = ceilDiv(r, rc);
      int64_t perRow = roundUp(rc * ex, 32) + roundUp(rc * 4, 32);
      int64_t R = std::min<int64_t>({outer, 4096, lm / 2 / perRow, lm / 2 / (4 * (nch + 3))});
      if (R < 1 || nch > 65535)
        return op->emitOpError() << "reduces " << r << " elements per output; more than "
                                 << t.name << "'s LM holds in two passes";
      Type xe = cast<BufferType>(x.getType()).getElementType();
      for (int64_t o = 0; o < outer; o += R) {
        int64_t rows = std::min(R, outer - o), pitch = roundUp(rows * 4, 32);
        Value parts = e.alloc(MemorySpace::LM, {nch, rows}, b.getF32Type(), {pitch, 4});
        for (int64_t j = 0; j < nch; ++j) {
          int64_t cols = std::min(rc, r - j * rc);
          Value tileV = e.tile(MemorySpace::LM, rows, cols, xe);
          e.dma(e.view(x, (o * r + j * rc) * ex, {rows, cols}, {r * ex, ex}), tileV);
          ReduceOp::create(b, e.loc, toF32(tileV, qx), e.view(parts, j * pitch, {rows, 1}, {4, 4}),
                           b.getStringAttr(func), b.getStringAttr("cols"));
        }
        finish(parts, "rows", e.view(y, o * ey, {1, rows}, {0, ey}));
      }
      return success();
    }
    int64_t rowsPer = std::max<int64_t>(1, std::min<int64_t>(lm / rowBytes, 65535));
    for (int64_t o = 0; o < outer; o += rowsPer) {
      int64_t rows = std::min(rowsPer, outer - o);
      Value tileV = e.tile(MemorySpace::LM, rows, r, cast<BufferType>(x.getType()).getElementType());
      e.dma(e.view(x, o * r * ex, {rows, r}, {r * ex, ex}), tileV);
      finish(toF32(tileV, qx), "cols", e.view(y, o * ey, {rows, 1}, {ey, ey}));
    }
    return success();
  }
  // Per column: r input rows and their f32 copy (padded rows count once per
  // tile), plus the [1, cols] results.
  int64_t colsPer = std::min<int64_t>({inner, 4096, (lm / (r + 1) - 64) / (ex + 4 + 8)});
  if (r > 65535 || colsPer < 1)
    return op->emitOpError() << "reduces " << r << " rows per output column; more than one "
                             << t.name << " tile holds";
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t c = 0; c < inner; c += colsPer) {
      int64_t cols = std::min(colsPer, inner - c);
      Value tileV = e.tile(MemorySpace::LM, r, cols, cast<BufferType>(x.getType()).getElementType());
      e.dma(e.view(x, (o * r * inner + c) * ex, {r, cols}, {inner * ex, ex}), tileV);
      finish(toF32(tileV, qx), "rows", e.view(y, (o * inner + c) * ey, {1, cols}, {0, ey}));
    }
  return success();
}

LogicalResult KernelLowering::lowerSoftmax(graph::SoftmaxOp op) {
  ArrayRef<int64_t> shape = tensorOf(op.getInput()).getShape();
  int64_t axis = op.getAxis() < 0 ? op.getAxis() + int64_t(shape.size()) : op.getAxis();
  if (axis != int64_t(shape.size()) - 1)
    return op.emitOpError("softmax over a non-trailing axis has no NPU lowering yet");
  auto qx = quantOf(tensorOf(op.getInput()).getElementType());
  auto qy = quantOf(tensorOf(op.getResult()).getElementType());
  if ((qx && qx->axis >= 0) || (qy && qy->axis >= 0) || bool(qx) != bool(qy))
    return op.emitOpError("quantized softmax needs per-tensor quantized input and result");
  if (!qx && !tensorOf(op.getInput()).getElementType().isF32())
    return op.emitOpError("softmax of plain integers has no NPU lowering");
  int64_t r = shape.back(), outer = 1;
  for (size_t i = 0; i + 1 < shape.size(); ++i)
    outer *= shape[i];
  Value x = gmOf(op.getInput()), y = resultBuffer(op.getResult());
  auto xt = cast<BufferType>(x.getType());
  Type sy = cast<BufferType>(y.getType()).getElementType();
  int64_t ex = xt.getElementBytes(), ey = bytesOf(sy);
  // Per row: the input, its f32 copy, the quantized result (each padded to
  // the granule) and two [rows, 1] tiles (max, sum) at a 32-byte pitch.
  int64_t rowBytes = roundUp(r * ex, 32) + roundUp(r * 4, 32) + roundUp(r * ey, 32) + 2 * 32;
  if (r > 4096 || rowBytes > t.params.LMBytes / 4)
    return op.emitOpError() << "softmax over " << r << " elements does not fit one " << t.name
                            << " tile";
  int64_t rowsPer = std::max<int64_t>(1, std::min<int64_t>(t.params.LMBytes / 4 / rowBytes, 65535));
  for (int64_t o = 0; o < outer; o += rowsPer) {
    int64_t rows = std::min(rowsPer, outer - o);
    Value tileV = e.tile(MemorySpace::LM, rows, r, xt.getElementType());
    e.dma(e.view(x, o * r * ex, {rows, r}, {r * ex, ex}), tileV);
    // exp(x - max) / sum, each step in f32 (EXP per docs/numerics.md).
    Value f = toF32(tileV, qx);
    Value m = e.tile(MemorySpace::LM, rows, 1, b.getF32Type());
    ReduceOp::create(b, e.loc, f, m, b.getStringAttr("MAX"), b.getStringAttr("cols"));
    e.vbin("SUB", f, m, f);
    e.vun("EXP", f, f);
    Value sum = e.tile(MemorySpace::LM, rows, 1, b.getF32Type());
    ReduceOp::create(b, e.loc, f, sum, b.getStringAttr("SUM"), b.getStringAttr("cols"));
    e.vbin("DIV", f, sum, f);
    e.dma(fromF32(f, qy, sy), e.view(y, o * r * ey, {rows, r}, {r * ey, ey}));
  }
  return success();
}

/// Max and average pooling, NCHW. The input is padded into the arena first
/// (max: the lowest value; average: real zero), with extra bottom/right
/// padding when ceil_mode lets the last window run past it. One 4-D DMA per
/// output row gathers the windows of a chunk of channels as [c][ow][tap];
/// VECTOR reduces the taps in f32 (quantized inputs dequantized exactly) and
/// an average divides by the window's denominator: the taps inside the padded
/// input (count_include_pad) or inside the input, a compile-time [OH, OW]
/// table read with a zero channel stride.
LogicalResult KernelLowering::lowerPool(Operation *op, Value input, Value result,
                                        ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
                                        ArrayRef<int64_t> pads, ArrayRef<int64_t> dil, bool isMax,
                                        bool countIncludePad) {
  auto inType = tensorOf(input), outType = tensorOf(result);
  auto qx = quantOf(inType.getElementType()), qy = quantOf(outType.getElementType());
  if ((qx && qx->axis >= 0) || (qy && qy->axis >= 0) || bool(qx) != bool(qy))
    return op->emitOpError("quantized pooling needs per-tensor quantized input and result");
  // Plain 8-bit integers: max pooling is exact on the integers themselves.
  bool integerMax = !qx && isMax && inType.getElementType().isInteger(8);
  if (!qx && !inType.getElementType().isF32() && !integerMax)
    return op->emitOpError() << (isMax ? "max" : "average") << " pooling of "
                             << inType.getElementType() << " has no NPU lowering yet";
  Value X = gmOf(input), Y = resultBuffer(result);
  auto xt = cast<BufferType>(X.getType());
  Type sy = cast<BufferType>(Y.getType()).getElementType();
  // 1-D pooling is 2-D pooling of height 1.
  SmallVector<int64_t> k2(kernel), s2(strides), p2(pads), d2(dil);
  if (inType.getRank() == 3) {
    k2 = {1, kernel[0]};
    s2 = {1, strides[0]};
    p2 = {0, pads[0], 0, pads[1]};
    d2 = {1, dil[0]};
    auto add1 = [&](Value v, ArrayRef<int64_t> shape) {
      auto bt = cast<BufferType>(v.getType());
      SmallVector<int64_t> s4{shape[0], shape[1], 1, shape[2]};
      return e.view(v, 0, s4, denseStrides(s4, bt.getElementBytes()));
    };
    X = add1(X, inType.getShape());
    Y = add1(Y, outType.getShape());
    xt = cast<BufferType>(X.getType());
  } else if (inType.getRank() != 4) {
    return op->emitOpError("pooling lowers for 1-D and 2-D inputs");
  }
  kernel = k2, strides = s2, pads = p2, dil = d2;
  ArrayRef<int64_t> xs = xt.getShape(), ys = cast<BufferType>(Y.getType()).getShape();
  int64_t N = xs[0], C = xs[1], H = xs[2], W = xs[3];
  int64_t OH = ys[2], OW = ys[3];
  int64_t KH = kernel[0], KW = kernel[1], taps = KH * KW;
  int64_t ex = xt.getElementBytes(), ey = bytesOf(sy);
  // Padding, plus what ceil_mode's last window needs beyond it.
  int64_t needH = (OH - 1) * strides[0] + (KH - 1) * dil[0] + 1;
  int64_t needW = (OW - 1) * strides[1] + (KW - 1) * dil[1] + 1;
  int64_t hiH = std::max<int64_t>(pads[2], needH - H - pads[0]);
  int64_t hiW = std::max<int64_t>(pads[3], needW - W - pads[1]);
  Value P = X;
  int64_t Hp = H, Wp = W;
  if (pads[0] || pads[1] || hiH || hiW) {
    Hp = H + pads[0] + hiH;
    Wp = W + pads[1] + hiW;
    SmallVector<int64_t> shape{N, C, Hp, Wp};
    P = e.alloc(MemorySpace::Arena, shape, xt.getElementType(), denseStrides(shape, ex));
    ArrayRef<int64_t> inShape = xs;
    int64_t fill;
    if (xt.getElementType().isF32())
      fill = isMax ? 0xff800000 : 0;  // -inf or +0.0
    else if (isMax)
      fill = xt.getElementType().isUnsignedInteger(8) ? 0 : 0x80;  // the lowest value
    else
      fill = qx->zps[0] & 0xff;  // real zero
    if (failed(lowerPad(op, X, P, inShape, {0, 0, pads[0], pads[1]}, {0, 0, hiH, hiW}, fill)))
      return failure();
  }
  // Denominators of an average: taps counted per axis, multiplied.
  Value den;
  if (!isMax) {
    auto count = [&](int64_t o, int64_t k, int64_t s, int64_t d, int64_t lo, int64_t extent,
                     int64_t hi) {
      int64_t n = 0;
      for (int64_t i = 0; i < k; ++i) {
        int64_t pos = o * s + i * d - lo;
        n += countIncludePad ? (pos >= -lo && pos < extent + hi) : (pos >= 0 && pos < extent);
      }
      return n;
    };
    SmallVector<float> values;
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow)
        values.push_back(float(count(oh, KH, strides[0], dil[0], pads[0], H, pads[2]) *
                               count(ow, KW, strides[1], dil[1], pads[1], W, pads[3])));
    den = f32Constant(values);
  }
  int64_t lmBudget = t.params.LMBytes / 4;
  int64_t cc = std::min({C, lmBudget / (OW * (taps * (ex + 4) + 16) + 64), 65535 / OW});
  if (cc < 1 || taps > 4096)
    return op->emitOpError() << "cannot tile this pooling window (" << taps << " taps, " << OW
                             << " output columns) into " << t.name << "'s LM";
  int64_t plane = Hp * Wp * ex;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c0 = 0; c0 < C; c0 += cc)
      for (int64_t oh = 0; oh < OH; ++oh) {
        int64_t chans = std::min(cc, C - c0), rows = chans * OW;
        Value win = e.alloc(MemorySpace::LM, {rows, taps}, xt.getElementType(), {taps * ex, ex});
        e.dma(e.view(P, (n * C + c0) * plane + oh * strides[0] * Wp * ex, {chans, KH, OW, KW},
                     {plane, dil[0] * Wp * ex, strides[1] * ex, dil[1] * ex}),
              e.view(win, 0, {chans, KH, OW, KW}, {OW * taps * ex, KW * ex, taps * ex, ex}));
        Value f = integerMax ? win : toF32(win, qx);
        Type rt = integerMax ? xt.getElementType() : Type(b.getF32Type());
        int64_t re = bytesOf(rt);
        Value red = e.alloc(MemorySpace::LM, {rows, 1}, rt, {re, re});
        ReduceOp::create(b, e.loc, f, red, b.getStringAttr(isMax ? "MAX" : "SUM"),
                         b.getStringAttr("cols"));
        Value row = e.view(red, 0, {1, rows}, {rows * re, re});
        if (den) {
          Value d = e.tile(MemorySpace::LM, 1, rows, b.getF32Type());
          e.dma(e.view(den, oh * OW * 4, {chans, OW}, {0, 4}),
                e.view(d, 0, {chans, OW}, {OW * 4, 4}));
          e.vbin("DIV", row, d, row);
        }
        Value out = fromF32(row, qy, sy);
        e.dma(e.view(out, 0, {chans, OW}, {OW * ey, ey}),
              e.view(Y, ((n * C + c0) * OH + oh) * OW * ey, {chans, OW}, {OH * OW * ey, ey}));
      }
  return success();
}

LogicalResult KernelLowering::lowerCopy(Operation *op, Value src, Value dst, ArrayRef<int64_t> shape,
                                        ArrayRef<int64_t> srcStrides) {
  EwOperand in{src, SmallVector<int64_t, 4>(srcStrides.begin(), srcStrides.end())};
  int64_t es = cast<BufferType>(src.getType()).getElementBytes();
  return elementwise(op, shape, {in}, dst, es, [](EwTiles &) {});
}

//===----------------------------------------------------------------------===//
// Pad: DMA_IN's padding writes the fill, DMA_OUT stores the padded box.
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerPad(Operation *op, Value src, Value dst, ArrayRef<int64_t> inShape,
                                       ArrayRef<int64_t> lo, ArrayRef<int64_t> hi, int64_t fill) {
  size_t rank = inShape.size();
  if (rank > 4 || rank < 1)
    return op->emitOpError() << "pads tensors of rank 1 to 4, not " << rank;
  for (size_t i = 0; i < rank; ++i)
    if (lo[i] < 0 || hi[i] < 0 || lo[i] > 255 || hi[i] > 255)
      return op->emitOpError() << "pads (" << lo[i] << ", " << hi[i] << ") of dimension " << i
                               << " are outside [0, 255], the DMA's padding range";
  auto st = cast<BufferType>(src.getType()), dt = cast<BufferType>(dst.getType());
  int64_t es = st.getElementBytes();
  // Tile over the leading dimensions; the trailing two stay whole.
  SmallVector<int64_t, 4> in(4 - rank, 1), l(4 - rank, 0), h(4 - rank, 0);
  in.append(inShape.begin(), inShape.end());
  l.append(lo.begin(), lo.end());
  h.append(hi.begin(), hi.end());
  SmallVector<int64_t, 4> sIn(4 - rank, 0), sOut(4 - rank, 0);
  sIn.append(st.getStrides().begin(), st.getStrides().end());
  sOut.append(dt.getStrides().begin(), dt.getStrides().end());
  int64_t ho = in[2] + l[2] + h[2], wo = in[3] + l[3] + h[3];
  int64_t pitch = roundUp(wo * es, 32), budget = t.params.LMBytes / 4;
  if ((1 + l[2] + h[2]) * pitch > budget)
    return op->emitOpError() << "pads rows of " << pitch << " bytes, too wide for " << t.name
                             << "'s LM; column tiling of Pad is not implemented";
  // Whole padded planes of dimension 1 when they fit, else one plane in
  // chunks of source rows (the first chunk carries the top padding, the last
  // the bottom, so every DMA has source rows).
  int64_t planes = std::max<int64_t>(1, budget / (ho * pitch));
  int64_t rowsPer = ho * pitch <= budget ? in[2] : budget / pitch - l[2] - h[2];
  for (int64_t i0 = 0; i0 < in[0] + l[0] + h[0]; ++i0) {
    if (i0 < l[0] || i0 >= l[0] + in[0])
      return op->emitOpError("pads whole planes of fill (padding on the outer dimension) and "
                             "that is not implemented");
    for (int64_t j = 0; j < in[1] + l[1] + h[1]; j += planes) {
      int64_t cnt = std::min(planes, in[1] + l[1] + h[1] - j);
      int64_t srcLo = std::max<int64_t>(j, l[1]), srcHi = std::min<int64_t>(j + cnt, l[1] + in[1]);
      if (srcLo >= srcHi)
        return op->emitOpError("pads whole planes of fill (padding on dimension 1 beyond a "
                               "tile) and that is not implemented");
      for (int64_t a = 0; a < in[2]; a += rowsPer) {
        int64_t rows = std::min(rowsPer, in[2] - a);
        int64_t top = a == 0 ? l[2] : 0, bottom = a + rows == in[2] ? h[2] : 0;
        int64_t outRows = rows + top + bottom, outRow0 = a == 0 ? 0 : a + l[2];
        Value tileV = e.tile(MemorySpace::LM, cnt * outRows, wo, st.getElementType());
        Value box = e.view(tileV, 0, {1, cnt, outRows, wo}, {0, outRows * pitch, pitch, es});
        Value srcBox = e.view(src, (i0 - l[0]) * sIn[0] + (srcLo - l[1]) * sIn[1] + a * sIn[2],
                              {1, srcHi - srcLo, rows, in[3]}, {0, sIn[1], sIn[2], sIn[3]});
        e.dma(srcBox, box, {0, srcLo - j, top, l[3]}, {0, j + cnt - srcHi, bottom, h[3]}, fill);
        Value dstBox = e.view(dst, i0 * sOut[0] + j * sOut[1] + outRow0 * sOut[2],
                              {1, cnt, outRows, wo}, {0, sOut[1], sOut[2], sOut[3]});
        e.dma(box, dstBox);
      }
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Matrix kernels
//===----------------------------------------------------------------------===//

Value KernelLowering::requantTable(qk::RequantAttr rq, int64_t channels) {
  // 16 bytes per column (docs/isa.md, V_REQUANT): mult, ls, rs, zp, lo, hi.
  SmallVector<int8_t> bytes(size_t(channels) * 16, 0);
  for (int64_t c = 0; c < channels; ++c) {
    size_t i = rq.isPerChannel() ? size_t(c) : 0;
    uint8_t *p = reinterpret_cast<uint8_t *>(bytes.data()) + c * 16;
    uint32_t m = uint32_t(rq.getMultiplier()[i]);
    for (int k = 0; k < 4; ++k)
      p[k] = uint8_t(m >> (8 * k));
    p[4] = uint8_t(rq.getLshift()[i]);
    p[5] = uint8_t(rq.getRshift()[i]);
    for (auto [o, v] : {std::pair<int, int64_t>{6, rq.getZp()}, {8, rq.getClampMin()},
                        {10, rq.getClampMax()}}) {
      p[o] = uint8_t(uint16_t(v) & 0xff);
      p[o + 1] = uint8_t(uint16_t(v) >> 8);
    }
  }
  auto type = RankedTensorType::get({channels, 16}, b.getIntegerType(8));
  return constant(DenseElementsAttr::get(type, ArrayRef<int8_t>(bytes)), type);
}

void KernelLowering::epilogue(Value acc, int64_t rows, int64_t cols, Value biasGM, int64_t col0,
                              qk::RequantAttr rq, Value paramsGM, Value dst, bool perRow,
                              int64_t row0) {
  auto at = cast<BufferType>(acc.getType());
  Type accType = at.getElementType();
  if (biasGM) {
    Value bias = e.tile(MemorySpace::LM, 1, cols, accType);
    auto bt = cast<BufferType>(biasGM.getType());
    e.dma(e.view(biasGM, col0 * bt.getElementBytes(), {1, cols}, {0, bt.getElementBytes()}), bias);
    e.vbin("ADD", acc, bias, acc);
  }
  Value out = acc;
  if (rq) {
    Type st = cast<BufferType>(dst.getType()).getElementType();
    out = e.tile(MemorySpace::LM, rows, cols, st);
    if (paramsGM) {
      int64_t n = perRow ? rows : cols, first = perRow ? row0 : col0;
      Value params = e.alloc(MemorySpace::LM, {n, 16}, b.getIntegerType(8), {16, 1});
      e.dma(e.view(paramsGM, first * 16, {n, 16}, {16, 1}), params);
      RequantOp::create(b, e.loc, acc, out, params, perRow, 0, 0, 0, 0, 0, 0);
    } else {
      RequantOp::create(b, e.loc, acc, out, Value(), false, rq.getMultiplier()[0], rq.getLshift()[0],
                        rq.getRshift()[0], rq.getZp(), rq.getClampMin(), rq.getClampMax());
    }
  }
  e.dma(out, dst);
}

/// Chooses the MATRIX mode's operand element types.
LogicalResult checkMatrixTypes(Operation *op, Type a, Type w) {
  bool ok = (a.isInteger(8) && w.isInteger(8)) || (a.isF32() && w.isF32());
  if (!ok)
    return op->emitOpError() << "no MATRIX mode multiplies " << a << " by " << w;
  return success();
}

LogicalResult KernelLowering::lowerMatmul(Operation *op, Value lhs, Value rhs, Value bias,
                                          Value result, int64_t azp, int64_t bzp,
                                          qk::RequantAttr rq, bool transA, bool transB,
                                          float alpha, Value addend, float beta) {
  Value A = gmOf(lhs), B = gmOf(rhs), Bias = bias ? gmOf(bias) : Value();
  Value C = resultBuffer(result);
  auto at = cast<BufferType>(A.getType()), bt = cast<BufferType>(B.getType()),
       ct = cast<BufferType>(C.getType());
  if (failed(checkMatrixTypes(op, at.getElementType(), bt.getElementType())))
    return failure();
  ArrayRef<int64_t> as = at.getShape(), bs = bt.getShape();
  if (as.size() < 2 || bs.size() < 2 ||
      (bs.size() > 2 && (bs.size() != as.size() || as.drop_back(2) != bs.drop_back(2))))
    return op->emitOpError() << "matrix products of shapes " << graph::shapes::str(as) << " and "
                             << graph::shapes::str(bs)
                             << " have no NPU lowering yet (a rank >= 2 lhs and a 2-D rhs, or "
                                "equal batch dimensions; broadcast batches are not lowered)";
  int64_t M = transA ? as.back() : as[as.size() - 2], K = transA ? as[as.size() - 2] : as.back();
  int64_t N = transB ? bs[bs.size() - 2] : bs.back();
  int64_t batch = 1;
  for (size_t i = 0; i + 2 < as.size(); ++i)
    batch *= as[i];
  bool batchedB = bs.size() > 2;
  int64_t ea = at.getElementBytes(), eb = bt.getElementBytes(), ec = ct.getElementBytes();
  Type accType = at.getElementType().isF32() ? Type(b.getF32Type()) : Type(b.getIntegerType(32));
  // Per-channel requantization runs along the result's columns (weights on
  // the right) or its rows (weights on the left: the channel axis moved with them).
  bool perRow = rq && rq.isPerChannel() && rq.getAxis() == int64_t(ct.getShape().size()) - 2;
  Value params = rq && rq.isPerChannel() ? requantTable(rq, perRow ? M : N) : Value();
  // Tiles: ACC holds mt x nt accumulators; LM holds the A and B tiles.
  int64_t nt = std::min<int64_t>(N, 512), kt = std::min<int64_t>(K, 1024);
  int64_t lmBudget = t.params.LMBytes / 6, accBudget = t.params.ACCBytes / 2;
  while (nt > 16 && kt * roundUp(nt * eb, 64) > lmBudget)
    nt = roundUp(nt / 2, 16);
  while (kt > 16 && kt * roundUp(nt * eb, 64) > lmBudget)
    kt = roundUp(kt / 2, 16);
  int64_t mt = std::min({M, int64_t(4095), accBudget / roundUp(nt * 4, 64),
                         lmBudget / roundUp(kt * ea, 64)});
  if (mt < 1 || kt * roundUp(nt * eb, 64) > lmBudget)
    return op->emitOpError() << "cannot tile a " << M << "x" << K << " by " << K << "x" << N
                             << " product into " << t.name << "'s LM and ACC";
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t m0 = 0; m0 < M; m0 += mt)
      for (int64_t n0 = 0; n0 < N; n0 += nt) {
        int64_t mc = std::min(mt, M - m0), nc = std::min(nt, N - n0);
        Value acc = e.tile(MemorySpace::ACC, mc, nc, accType, 64);
        for (int64_t k0 = 0; k0 < K; k0 += kt) {
          int64_t kc = std::min(kt, K - k0);
          Value aT = e.tile(MemorySpace::LM, mc, kc, at.getElementType(), 64);
          Value bT = e.tile(MemorySpace::LM, kc, nc, bt.getElementType(), 64);
          if (transA)  // A stored [K, M]
            e.dma(e.view(A, (k0 * M + m0) * ea, {mc, kc}, {ea, M * ea}), aT);
          else
            e.dma(e.view(A, ((bi * M + m0) * K + k0) * ea, {mc, kc}, {K * ea, ea}), aT);
          int64_t bBase = batchedB ? bi * K * N : 0;
          if (transB)  // B stored [N, K]
            e.dma(e.view(B, (n0 * K + k0) * eb, {kc, nc}, {eb, K * eb}), bT);
          else
            e.dma(e.view(B, (bBase + k0 * N + n0) * eb, {kc, nc}, {N * eb, eb}), bT);
          e.matmul(aT, bT, acc, k0 > 0, azp, bzp);
        }
        if (alpha != 1.0f)
          e.vbini("MUL", acc, b.getF32FloatAttr(alpha), acc);
        if (addend) {
          // beta * C, broadcast to this [mc, nc] tile by zero strides.
          auto xt2 = cast<BufferType>(addend.getType());
          ArrayRef<int64_t> cs = xt2.getShape();
          int64_t e2 = xt2.getElementBytes();
          int64_t sRow = cs.size() == 2 && cs[0] != 1 ? cs[1] * e2 : 0;
          int64_t sCol = !cs.empty() && cs.back() != 1 ? e2 : 0;
          Value cTile = e.tile(MemorySpace::LM, mc, nc, accType);
          e.dma(e.view(addend, m0 * sRow + n0 * sCol, {mc, nc}, {sRow, sCol}), cTile);
          if (beta != 1.0f)
            e.vbini("MUL", cTile, b.getF32FloatAttr(beta), cTile);
          e.vbin("ADD", acc, cTile, acc);
        }
        Value dst = e.view(C, ((bi * M + m0) * N + n0) * ec, {mc, nc}, {N * ec, ec});
        epilogue(acc, mc, nc, Bias, n0, rq, params, dst, perRow, m0);
      }
  return success();
}

LogicalResult KernelLowering::lowerConv(Operation *op, Value input, Value weight, Value bias,
                                        Value result, ArrayRef<int64_t> strides,
                                        ArrayRef<int64_t> pads, ArrayRef<int64_t> dil,
                                        int64_t groups, int64_t xzp, int64_t wzp,
                                        qk::RequantAttr rq) {
  return lowerConvBuffers(op, gmOf(input), gmOf(weight), bias ? gmOf(bias) : Value(),
                          resultBuffer(result), strides, pads, dil, groups, xzp, wzp, rq);
}

/// ConvTranspose (f32, constant weights) as a convolution: the input is
/// spread with stride s into a zeroed arena buffer padded by d * (k - 1) - p
/// (plus output_padding at the end), and convolved with stride 1 by the
/// weights flipped in space with input and output channels exchanged per
/// group. The weights are stored [Cin, Cout / group, kh, kw] (contract L2).
LogicalResult KernelLowering::lowerConvTranspose(graph::ConvTransposeOp op) {
  auto xt = tensorOf(op.getX()), yt = tensorOf(op.getResult());
  if (!xt.getElementType().isF32() || xt.getRank() != 4)
    return op.emitOpError("ConvTranspose lowers for 2-D f32 inputs (quantized: no kernel yet)");
  auto wc = op.getW().getDefiningOp<graph::ConstantOp>();
  auto wv = wc ? dyn_cast<DenseFPElementsAttr>(wc.getValue()) : DenseFPElementsAttr();
  if (!wv)
    return op.emitOpError("ConvTranspose needs constant weights to lower");
  ArrayRef<int64_t> xs = xt.getShape(), ws = tensorOf(op.getW()).getShape();
  ArrayRef<int64_t> st = op.getStrides(), pd = op.getPads(), dl = op.getDilations(),
                    outPad = op.getOutputPadding();
  int64_t g = op.getGroup(), N = xs[0], Cin = xs[1], H = xs[2], W = xs[3];
  int64_t Cing = Cin / g, Coutg = ws[1], KH = ws[2], KW = ws[3];
  int64_t top = dl[0] * (KH - 1) - pd[0], left = dl[1] * (KW - 1) - pd[1];
  int64_t bottom = dl[0] * (KH - 1) - pd[2] + outPad[0], right = dl[1] * (KW - 1) - pd[3] + outPad[1];
  if (top < 0 || left < 0 || bottom < 0 || right < 0)
    return op.emitOpError("ConvTranspose pads larger than the dilated kernel have no NPU lowering yet");
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
  Value Z = e.alloc(MemorySpace::Arena, zshape, b.getF32Type(), denseStrides(zshape, 4));
  Value zero = f32Constant({0.0f});
  int64_t chunk = std::min<int64_t>(Wz, 256);
  int64_t rowsChunk = std::min<int64_t>({N * Cin * Hz, 256, t.params.LMBytes / 4 / roundUp(chunk * 4, 32)});
  for (int64_t r0 = 0; r0 < N * Cin * Hz; r0 += rowsChunk)
    for (int64_t c0 = 0; c0 < Wz; c0 += chunk) {
      int64_t rows = std::min(rowsChunk, N * Cin * Hz - r0), cols = std::min(chunk, Wz - c0);
      Value tileV = e.tile(MemorySpace::LM, rows, cols, b.getF32Type());
      e.dma(e.view(zero, 0, {1, 1}, {0, 4}), tileV, {0, 0}, {rows - 1, cols - 1}, 0);
      e.dma(tileV, e.view(Z, (r0 * Wz + c0) * 4, {rows, cols}, {Wz * 4, 4}));
    }
  Value X = gmOf(op.getX());
  SmallVector<int64_t> spread{N * Cin, H, W};
  if (failed(lowerCopy(op, e.view(X, 0, spread, denseStrides(spread, 4)),
                       e.view(Z, (top * Wz + left) * 4, spread, {Hz * Wz * 4, st[0] * Wz * 4, st[1] * 4}),
                       spread, denseStrides(spread, 4))))
    return failure();
  SmallVector<int64_t> ones{1, 1}, zeros{0, 0, 0, 0};
  return lowerConvBuffers(op, Z, Wt, op.getBias() ? gmOf(op.getBias()) : Value(),
                          resultBuffer(op.getResult()), ones, zeros, dl, g, 0, 0, {});
}

LogicalResult KernelLowering::lowerConvBuffers(Operation *op, Value X, Value W, Value Bias, Value Y,
                                               ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                                               ArrayRef<int64_t> dil, int64_t groups, int64_t xzp,
                                               int64_t wzp, qk::RequantAttr rq) {
  auto xt = cast<BufferType>(X.getType()), wt = cast<BufferType>(W.getType());
  auto yt = cast<BufferType>(Y.getType());
  if (failed(checkMatrixTypes(op, xt.getElementType(), wt.getElementType())))
    return failure();
  if (xt.getShape().size() != 4)
    return op->emitOpError("convolution lowering handles 2-D (NCHW) inputs");
  int64_t N = xt.getShape()[0], C = xt.getShape()[1];
  int64_t M = wt.getShape()[0], Cg = wt.getShape()[1], KH = wt.getShape()[2], KW = wt.getShape()[3];
  int64_t OH = yt.getShape()[2], OW = yt.getShape()[3], Mg = M / groups;
  int64_t ex = xt.getElementBytes(), ey = yt.getElementBytes();
  // Padding first: a padded copy in the arena, filled with the input zero
  // point so that padded taps contribute (zp - zp) * w = 0.
  if (llvm::any_of(pads, [](int64_t p) { return p != 0; })) {
    SmallVector<int64_t> shape{N, C, xt.getShape()[2] + pads[0] + pads[2],
                               xt.getShape()[3] + pads[1] + pads[3]};
    Value padded = e.alloc(MemorySpace::Arena, shape, xt.getElementType(), denseStrides(shape, ex));
    int64_t fill = xt.getElementType().isF32() ? 0 : int64_t(uint8_t(int8_t(xzp)));
    if (failed(lowerPad(op, X, padded, xt.getShape(), {0, 0, pads[0], pads[1]},
                        {0, 0, pads[2], pads[3]}, fill)))
      return failure();
    X = padded;
    xt = cast<BufferType>(X.getType());
  }
  int64_t H = xt.getShape()[2], Wd = xt.getShape()[3];
  int64_t khw = KH * KW;
  Type accType = xt.getElementType().isF32() ? Type(b.getF32Type()) : Type(b.getIntegerType(32));
  Value params = rq && rq.isPerChannel() ? requantTable(rq, M) : Value();
  if (OW > 4095)
    return op->emitOpError() << "output width " << OW << " exceeds one MATRIX tile (4095 rows)";
  if (Cg == 1 && Mg == 1)
    return lowerDepthwise(op, X, W, Bias, Y, strides, dil, xzp, wzp, rq, params, accType);
  // Tiles: T output rows x OW columns form the MATRIX m dimension; kc input
  // channels x KH x KW the k dimension; nt output channels of the group n.
  int64_t lmBudget = t.params.LMBytes / 6, accBudget = t.params.ACCBytes / 2;
  int64_t nt = std::min<int64_t>(Mg, 256);
  int64_t kc = std::max<int64_t>(1, std::min<int64_t>(Cg, 4095 / khw));
  while (kc > 1 && kc * khw * roundUp(nt * ex, 64) > lmBudget)
    kc = (kc + 1) / 2;
  while (nt > 16 && kc * khw * roundUp(nt * ex, 64) > lmBudget)
    nt = roundUp(nt / 2, 16);
  int64_t lda = roundUp(kc * khw * ex, 32);
  // Output columns per tile (all of a row when they fit), then rows per tile.
  int64_t wc = std::min({OW, int64_t(4095), accBudget / roundUp(nt * 4, 64), lmBudget / lda});
  int64_t T = wc < OW ? 1
                      : std::min({OH, 4095 / OW, accBudget / (OW * roundUp(nt * 4, 64)),
                                  lmBudget / (OW * lda)});
  if (wc < 1 || T < 1 || kc * khw > 4095 || kc * khw * roundUp(nt * ex, 64) > lmBudget)
    return op->emitOpError() << "cannot tile this convolution (" << OW << " output columns, "
                             << Cg * khw << " taps per output) into " << t.name
                             << "'s LM and ACC";
  int64_t sx = xt.getStrides()[1];  // bytes per input channel plane
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t oh0 = 0; oh0 < OH; oh0 += T)
        for (int64_t ow0 = 0; ow0 < OW; ow0 += wc)
          for (int64_t m0 = 0; m0 < Mg; m0 += nt) {
            int64_t rows = std::min(T, OH - oh0), cols = std::min(wc, OW - ow0);
            int64_t m = rows * cols, nc = std::min(nt, Mg - m0);
            Value acc = e.tile(MemorySpace::ACC, m, nc, accType, 64);
            for (int64_t c0 = 0; c0 < Cg; c0 += kc) {
              int64_t cc = std::min(kc, Cg - c0), k = cc * khw;
              Value aT = e.alloc(MemorySpace::LM, {m, k}, xt.getElementType(), {lda, ex});
              int64_t base = (n * C + g * Cg + c0) * sx + oh0 * strides[0] * Wd * ex +
                             ow0 * strides[1] * ex;
              if (khw == 1) {
                // im2col of a 1x1 window: [rows][cols][cc] from [cc][H][W].
                e.dma(e.view(X, base, {rows, cols, cc}, {strides[0] * Wd * ex, strides[1] * ex, sx}),
                      e.view(aT, 0, {rows, cols, cc}, {cols * lda, lda, ex}));
              } else {
                for (int64_t c = 0; c < cc; ++c)
                  e.dma(e.view(X, base + c * sx, {rows, KH, cols, KW},
                               {strides[0] * Wd * ex, dil[0] * Wd * ex, strides[1] * ex, dil[1] * ex}),
                        e.view(aT, c * khw * ex, {rows, KH, cols, KW}, {cols * lda, KW * ex, lda, ex}));
              }
              // B[k][j] = w[g*Mg + m0 + j][c0 + k / khw][k % khw].
              Value bT = e.tile(MemorySpace::LM, k, nc, wt.getElementType(), 64);
              int64_t wbase = ((g * Mg + m0) * Cg + c0) * khw * ex;
              e.dma(e.view(W, wbase, {k, nc}, {ex, Cg * khw * ex}), bT);
              e.matmul(aT, bT, acc, c0 > 0, xzp, wzp);
            }
            // y[n][g*Mg + m0 + j][oh0 + r][ow0 + w] = acc[r*cols + w][j]; the m
            // rows are contiguous in y (whole rows, or one partial row).
            int64_t oc = g * Mg + m0;
            Value dst = e.view(Y, (((n * M + oc) * OH + oh0) * OW + ow0) * ey, {m, nc},
                               {ey, OH * OW * ey});
            epilogue(acc, m, nc, Bias, oc, rq, params, dst);
          }
  return success();
}

/// Depthwise (one input and one output channel per group): a chunk of
/// channels shares each DMA. One 4-D DMA per output row gathers the windows of
/// every channel of the chunk ([c][ow][tap], each channel's block 64-byte
/// aligned for MATRIX); the taps, biases and requantization table of the
/// chunk are loaded once; MATRIX runs one [rows*OW x taps] x [taps x 1]
/// product per channel into its own ACC row (one repeated matmul); the bias add, the per-row
/// (per-channel) requantization and the store cover the whole chunk.
LogicalResult KernelLowering::lowerDepthwise(Operation *op, Value X, Value W, Value Bias, Value Y,
                                             ArrayRef<int64_t> strides, ArrayRef<int64_t> dil,
                                             int64_t xzp, int64_t wzp, qk::RequantAttr rq,
                                             Value params, Type accType) {
  auto xt = cast<BufferType>(X.getType()), wt = cast<BufferType>(W.getType()),
       yt = cast<BufferType>(Y.getType());
  int64_t N = xt.getShape()[0], C = xt.getShape()[1], H = xt.getShape()[2], Wd = xt.getShape()[3];
  int64_t KH = wt.getShape()[2], KW = wt.getShape()[3], khw = KH * KW;
  int64_t OH = yt.getShape()[2], OW = yt.getShape()[3];
  int64_t ex = xt.getElementBytes(), ey = yt.getElementBytes();
  // A rows are the taps, unpadded; each channel's block starts 64-byte aligned.
  int64_t lda = khw * ex, wpitch = roundUp(khw * ex, 64);
  int64_t lmBudget = t.params.LMBytes / 4, accBudget = t.params.ACCBytes / 2;
  auto chanPitch = [&](int64_t rows) { return roundUp(rows * OW * lda, 64); };
  // DMAs per output row do not depend on T, but on the number of chunks:
  // first as many channels per chunk as one row allows, then as many rows as
  // those channels allow (fewer MATRIX instructions).
  auto lmPerChannel = [&](int64_t rows) {
    return chanPitch(rows) + roundUp(rows * OW * ey, 32) + wpitch + 64;
  };
  int64_t cc = std::min({C, lmBudget / lmPerChannel(1), accBudget / roundUp(OW * 4, 64)});
  int64_t T = 1;
  while (T < std::min(OH, 4095 / OW) && cc * lmPerChannel(T + 1) <= lmBudget &&
         cc * roundUp((T + 1) * OW * 4, 64) <= accBudget)
    ++T;
  if (cc < 1)
    return op->emitOpError() << "cannot tile this depthwise convolution (" << OW
                             << " output columns) into " << t.name << "'s LM and ACC";
  int64_t plane = H * Wd * ex, accPitch = roundUp(T * OW * 4, 64);
  for (int64_t c0 = 0; c0 < C; c0 += cc) {
    int64_t chans = std::min(cc, C - c0);
    // The chunk's taps (one 64-byte row per channel), biases and table.
    Value taps = e.alloc(MemorySpace::LM, {chans, khw}, wt.getElementType(), {wpitch, ex});
    e.dma(e.view(W, c0 * khw * ex, {chans, khw}, {khw * ex, ex}), taps);
    Value biasTile, table;
    if (Bias) {
      auto bt = cast<BufferType>(Bias.getType());
      biasTile = e.alloc(MemorySpace::LM, {chans, 1}, accType, {32, 4});
      e.dma(e.view(Bias, c0 * bt.getElementBytes(), {chans, 1}, {4, 4}), biasTile);
    }
    if (params) {
      table = e.alloc(MemorySpace::LM, {chans, 16}, b.getIntegerType(8), {16, 1});
      e.dma(e.view(params, c0 * 16, {chans, 16}, {16, 1}), table);
    }
    for (int64_t n = 0; n < N; ++n)
      for (int64_t oh0 = 0; oh0 < OH; oh0 += T) {
        int64_t rows = std::min(T, OH - oh0), m = rows * OW;
        int64_t cp = chanPitch(rows);
        Value a = e.alloc(MemorySpace::LM, {chans, cp / ex}, xt.getElementType(), {cp, ex});
        for (int64_t r = 0; r < rows; ++r)
          e.dma(e.view(X, (n * C + c0) * plane + (oh0 + r) * strides[0] * Wd * ex,
                       {chans, KH, OW, KW},
                       {plane, dil[0] * Wd * ex, strides[1] * ex, dil[1] * ex}),
                e.view(a, r * OW * lda, {chans, KH, OW, KW}, {cp, KW * ex, lda, ex}));
        Value acc = e.alloc(MemorySpace::ACC, {chans, m}, accType, {accPitch, 4});
        // One product per channel: a hardware loop once encoded.
        e.matmulRepeat(e.view(a, 0, {m, khw}, {lda, ex}), e.view(taps, 0, {khw, 1}, {ex, ex}),
                       e.view(acc, 0, {m, 1}, {4, 4}), xzp, wzp, chans, cp, wpitch, accPitch);
        if (biasTile)
          e.vbin("ADD", acc, biasTile, acc);
        Value out = acc;
        if (rq) {
          out = e.tile(MemorySpace::LM, chans, m, yt.getElementType());
          if (table)
            RequantOp::create(b, e.loc, acc, out, table, true, 0, 0, 0, 0, 0, 0);
          else
            RequantOp::create(b, e.loc, acc, out, Value(), false, rq.getMultiplier()[0],
                              rq.getLshift()[0], rq.getRshift()[0], rq.getZp(), rq.getClampMin(),
                              rq.getClampMax());
        }
        e.dma(out, e.view(Y, ((n * C + c0) * OH + oh0) * OW * ey, {chans, m}, {OH * OW * ey, ey}));
      }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lower(Operation *op) {
  e.loc = op->getLoc();
  for (Type t : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto rt = dyn_cast<RankedTensorType>(t); rt && rt.getNumElements() == 0)
      return op->emitOpError() << "has a tensor with no elements (" << rt
                               << "); empty tensors have no NPU lowering";
  if (llvm::isa<graph::ConstantOp>(op))
    return success();  // materialized in CONST when a kernel reads it
  if (llvm::isa<graph::StorageCastOp, graph::ReshapeOp>(op)) {
    Value src = gmOf(op->getOperand(0));
    auto type = tensorOf(op->getResult(0));
    Type st = storageOf(type.getElementType());
    // A view: the physical layout is dense row-major on both sides.
    gm[op->getResult(0)] = e.view(e.retype(src, st), 0, type.getShape(),
                                  denseStrides(type.getShape(), bytesOf(st)));
    return success();
  }
  if (auto q = dyn_cast<graph::QuantizeOp>(op))
    return lowerQuantize(q);
  if (auto dq = dyn_cast<graph::DequantizeOp>(op))
    return lowerDequantize(dq);
  if (llvm::isa<graph::AddOp>(op))
    return lowerBinary(op, "ADD");
  if (llvm::isa<graph::SubOp>(op))
    return lowerBinary(op, "SUB");
  if (llvm::isa<graph::MulOp>(op))
    return lowerBinary(op, "MUL");
  if (llvm::isa<graph::DivOp>(op) && tensorOf(op->getResult(0)).getElementType().isF32())
    return lowerBinary(op, "DIV");
  static const std::pair<StringRef, StringRef> unary[] = {
      {"graph.relu", "RELU"},   {"graph.sigmoid", "SIGMOID"}, {"graph.tanh", "TANH"},
      {"graph.exp", "EXP"},     {"graph.log", "LOG"},         {"graph.neg", "NEG"},
      {"graph.abs", "ABS"},     {"graph.sign", "SIGN"},       {"graph.sqrt", "SQRT"},
      {"graph.reciprocal", "RECIP"}, {"graph.erf", "ERF"},    {"graph.floor", "FLOOR"},
      {"graph.ceil", "CEIL"},   {"graph.round", "ROUND"},     {"graph.identity", "COPY"}};
  for (auto [name, func] : unary)
    if (op->getName().getStringRef() == name)
      return lowerUnary(op, func);
  if (auto sm = dyn_cast<graph::SoftmaxOp>(op))
    return lowerSoftmax(sm);
  if (auto mp = dyn_cast<graph::MaxPoolOp>(op))
    return lowerPool(op, mp.getX(), mp.getResult(), mp.getKernelShape(), mp.getStrides(),
                     mp.getPads(), mp.getDilations(), true, false);
  if (auto ap = dyn_cast<graph::AveragePoolOp>(op))
    return lowerPool(op, ap.getX(), ap.getResult(), ap.getKernelShape(), ap.getStrides(),
                     ap.getPads(), ap.getDilations(), false, ap.getCountIncludePad());
  if (auto cat = dyn_cast<graph::ConcatOp>(op)) {
    // Each input lands in a strided view of the output; an input quantized
    // differently from the output is requantized through f32 on the way
    // (exact dequantization, one rounding half to even).
    Value out = resultBuffer(cat.getResult());
    auto ot = cast<BufferType>(out.getType());
    auto qy = quantOf(tensorOf(cat.getResult()).getElementType());
    int64_t axis = cat.getAxis() < 0 ? cat.getAxis() + ot.getShape().size() : cat.getAxis();
    int64_t offset = 0;
    for (Value in : cat.getInputs()) {
      ArrayRef<int64_t> shape = tensorOf(in).getShape();
      auto qx = quantOf(tensorOf(in).getElementType());
      if ((qx && qx->axis >= 0) || (qy && qy->axis >= 0) || bool(qx) != bool(qy))
        return op->emitOpError("quantized concat needs per-tensor quantized inputs and result");
      Value dst = e.view(out, offset * ot.getStrides()[size_t(axis)], shape, ot.getStrides());
      bool same = !qx || (qx->scales == qy->scales && qx->zps == qy->zps);
      if (failed(elementwise(op, shape, {broadcastOperand(in, shape)}, dst, same ? 2 : 10,
                             [&](EwTiles &tl) {
                               if (!same)
                                 tl.out = fromF32(toF32(tl.in[0], qx), qy, ot.getElementType());
                             })))
        return failure();
      offset += shape[size_t(axis)];
    }
    return success();
  }
  if (auto gap = dyn_cast<graph::GlobalAveragePoolOp>(op)) {
    int64_t rank = tensorOf(gap.getX()).getRank();
    SmallVector<int64_t> axes;
    for (int64_t i = 2; i < rank; ++i)
      axes.push_back(i);
    return lowerReduce(op, gap.getX(), gap.getResult(), axes, "SUM", true);
  }
  if (auto gmp = dyn_cast<graph::GlobalMaxPoolOp>(op)) {
    int64_t rank = tensorOf(gmp.getX()).getRank();
    SmallVector<int64_t> axes;
    for (int64_t i = 2; i < rank; ++i)
      axes.push_back(i);
    return lowerReduce(op, gmp.getX(), gmp.getResult(), axes, "MAX", false);
  }
  if (auto red = dyn_cast<graph::ReduceMeanOp>(op))
    return lowerReduce(op, red.getInput(), red.getResult(), red.getAxes(), "SUM", true);
  if (auto red = dyn_cast<graph::ReduceSumOp>(op))
    return lowerReduce(op, red.getInput(), red.getResult(), red.getAxes(), "SUM", false);
  if (auto red = dyn_cast<graph::ReduceMaxOp>(op))
    return lowerReduce(op, red.getInput(), red.getResult(), red.getAxes(), "MAX", false);
  if (auto red = dyn_cast<graph::ReduceMinOp>(op))
    return lowerReduce(op, red.getInput(), red.getResult(), red.getAxes(), "MIN", false);
  auto f32 = [&](float v) { return b.getF32FloatAttr(v); };
  if (auto clip = dyn_cast<graph::ClipOp>(op)) {
    // A Clip right after a conv or matmul folds into its requantization
    // instead (convert-graph-to-qk); here it clamps the dequantized values.
    std::optional<double> lo, hi;
    if (clip.getMin())
      lo = clip.getMin()->convertToDouble();
    if (clip.getMax())
      hi = clip.getMax()->convertToDouble();
    return lowerF32Map(op, clip.getInput(), clip.getResult(), [&](Value f) {
      if (lo)
        e.vbini("MAX", f, f32(float(*lo)), f);
      if (hi)
        e.vbini("MIN", f, f32(float(*hi)), f);
    });
  }
  if (auto lr = dyn_cast<graph::LeakyReluOp>(op)) {
    // x < 0 ? alpha * x : x is max(x, alpha * x) for alpha <= 1, min otherwise.
    float alpha = lr.getAlpha().convertToFloat();
    return lowerF32Map(op, lr.getInput(), lr.getResult(), [&](Value f) {
      auto ft = cast<BufferType>(f.getType());
      Value ax = e.tile(MemorySpace::LM, ft.getShape()[0], ft.getShape()[1], b.getF32Type());
      e.vbini("MUL", f, f32(alpha), ax);
      e.vbin(alpha <= 1.0f ? "MAX" : "MIN", f, ax, f);
    });
  }
  // HardSigmoid: max(0, min(1, alpha * x + beta)); HardSwish: x times
  // HardSigmoid with alpha = 1/6, beta = 1/2 (ONNX's definitions, f32 steps).
  auto hardSigmoid = [&](Value f, Value into, float alpha, float beta) {
    e.vbini("MUL", f, f32(alpha), into);
    e.vbini("ADD", into, f32(beta), into);
    e.vbini("MAX", into, f32(0.0f), into);
    e.vbini("MIN", into, f32(1.0f), into);
  };
  if (auto hs = dyn_cast<graph::HardSigmoidOp>(op))
    return lowerF32Map(op, hs.getInput(), hs.getResult(), [&](Value f) {
      hardSigmoid(f, f, hs.getAlpha().convertToFloat(), hs.getBeta().convertToFloat());
    });
  if (llvm::isa<graph::HardSwishOp>(op))
    return lowerF32Map(op, op->getOperand(0), op->getResult(0), [&](Value f) {
      auto ft = cast<BufferType>(f.getType());
      Value g = e.tile(MemorySpace::LM, ft.getShape()[0], ft.getShape()[1], b.getF32Type());
      hardSigmoid(f, g, 1.0f / 6.0f, 0.5f);
      e.vbin("MUL", f, g, f);
    });
  if (auto ct = dyn_cast<graph::ConvTransposeOp>(op))
    return lowerConvTranspose(ct);
  if (auto rs = dyn_cast<graph::ResizeOp>(op)) {
    // Nearest-neighbour resizing whose sampling is a pure replication: for
    // every axis, ONNX's coordinate formula (coordinate_transformation_mode,
    // then nearest_mode, clamped) evaluated at compile time for every output
    // index gives floor(o / k) for an integer k. Then the result is the input
    // read with a zero stride over each k (a copy, contract D14); any other
    // sampling is a diagnostic naming it.
    ArrayRef<int64_t> in = tensorOf(rs.getInput()).getShape();
    ArrayRef<int64_t> out = tensorOf(rs.getResult()).getShape();
    ArrayRef<float> scales = rs.getScales();
    StringRef ctm = rs.getCoordinateTransformationMode(), nm = rs.getNearestMode();
    if (rs.getMode() != "nearest")
      return op->emitOpError() << "resize mode '" << rs.getMode() << "' has no NPU lowering yet";
    auto source = [&](int64_t o, size_t axis) -> std::optional<int64_t> {
      double scale = scales[axis], x;
      if (ctm == "asymmetric")
        x = double(o) / scale;
      else if (ctm == "half_pixel")
        x = (double(o) + 0.5) / scale - 0.5;
      else if (ctm == "pytorch_half_pixel")
        x = out[axis] > 1 ? (double(o) + 0.5) / scale - 0.5 : 0.0;
      else if (ctm == "tf_half_pixel_for_nn")
        x = (double(o) + 0.5) / scale;
      else if (ctm == "align_corners")
        x = out[axis] > 1 ? double(o) * double(in[axis] - 1) / double(out[axis] - 1) : 0.0;
      else
        return std::nullopt;
      double r;
      if (nm == "floor")
        r = std::floor(x);
      else if (nm == "ceil")
        r = std::ceil(x);
      else if (nm == "round_prefer_floor")
        r = x - std::floor(x) == 0.5 ? std::floor(x) : std::round(x);
      else if (nm == "round_prefer_ceil")
        r = std::round(x);
      else
        return std::nullopt;
      return std::min<int64_t>(std::max<int64_t>(int64_t(r), 0), in[axis] - 1);
    };
    SmallVector<int64_t> shape, strides;
    Value src = gmOf(rs.getInput());
    auto st = cast<BufferType>(src.getType());
    for (size_t axis = 0; axis < in.size(); ++axis) {
      int64_t k = in[axis] > 0 ? out[axis] / in[axis] : 0;
      bool replicate = k >= 1 && k * in[axis] == out[axis];
      for (int64_t o = 0; replicate && o < out[axis]; ++o)
        replicate = source(o, axis) == o / k;
      if (!replicate)
        return op->emitOpError() << "nearest resize along axis " << axis << " (" << in[axis]
                                 << " -> " << out[axis] << ", " << ctm << ", " << nm
                                 << ") is not a whole-number replication; no NPU lowering yet";
      shape.append({in[axis], k});
      strides.append({st.getStrides()[axis], 0});
    }
    Value dst = resultBuffer(rs.getResult());
    Value dstView = e.view(dst, 0, shape, denseStrides(shape, st.getElementBytes()));
    return lowerCopy(op, e.view(src, 0, shape, strides), dstView, shape, strides);
  }
  if (auto sl = dyn_cast<graph::SliceOp>(op)) {
    // A strided window of the input: starts give the offset, steps scale the
    // strides; the copy keeps coordinates and quantization (contract D13).
    Value src = gmOf(sl.getInput());
    auto st = cast<BufferType>(src.getType());
    SmallVector<int64_t> strides;
    int64_t offset = 0;
    for (auto [i, start, step] : llvm::enumerate(sl.getStarts(), sl.getSteps())) {
      if (step < 1)
        return op->emitOpError() << "slice step " << step << " on axis " << i
                                 << " has no NPU lowering yet (positive steps only)";
      offset += start * st.getStrides()[i];
      strides.push_back(step * st.getStrides()[i]);
    }
    ArrayRef<int64_t> shape = tensorOf(sl.getResult()).getShape();
    return lowerCopy(op, e.view(src, offset, shape, strides), resultBuffer(sl.getResult()), shape,
                     strides);
  }
  if (auto tr = dyn_cast<graph::TransposeOp>(op)) {
    Value src = gmOf(tr.getInput());
    auto st = cast<BufferType>(src.getType());
    SmallVector<int64_t> strides;
    for (int64_t p : tr.getPerm())
      strides.push_back(st.getStrides()[size_t(p)]);
    return lowerCopy(op, src, resultBuffer(tr.getResult()), tensorOf(tr.getResult()).getShape(),
                     strides);
  }
  if (auto pad = dyn_cast<graph::PadOp>(op)) {
    if (pad.getMode() != "constant")
      return op->emitOpError() << "pad mode '" << pad.getMode() << "' has no NPU lowering yet";
    ArrayRef<int64_t> pads = pad.getPads();
    size_t rank = pads.size() / 2;
    Type el = tensorOf(pad.getResult()).getElementType();
    double value = pad.getValue().convertToDouble();
    int64_t fill;
    if (auto q = quantOf(el)) {
      auto qt = cast<quant::QuantizedType>(el);
      double v = std::nearbyint(value / q->scales[0]) + double(q->zps[0]);
      v = std::min(std::max(v, double(qt.getStorageTypeMin())), double(qt.getStorageTypeMax()));
      fill = int64_t(v);
    }
    else if (el.isF32()) {
      float f = float(value);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      fill = bits;
    } else
      fill = int64_t(value);
    fill &= (int64_t(1) << (8 * bytesOf(storageOf(el)))) - 1;
    return lowerPad(op, gmOf(pad.getInput()), resultBuffer(pad.getResult()),
                    tensorOf(pad.getInput()).getShape(), pads.take_front(rank),
                    pads.drop_front(rank), fill);
  }
  if (auto mm = dyn_cast<qk::MatMulOp>(op)) {
    if (mm.getRhsZp().size() != 1 && llvm::any_of(mm.getRhsZp(), [&](int64_t z) { return z != mm.getRhsZp()[0]; }))
      return op->emitOpError("per-column rhs zero points that differ need a correction term; "
                             "MATRIX subtracts one b_zp");
    return lowerMatmul(op, mm.getLhs(), mm.getRhs(), mm.getBias(), mm.getResult(), mm.getLhsZp(),
                       mm.getRhsZp()[0], mm.getRequantAttr());
  }
  if (auto mm = dyn_cast<graph::MatMulOp>(op)) {
    if (!tensorOf(mm.getResult()).getElementType().isF32())
      return op->emitOpError("non-f32 graph.matmul reaches emission unquantized");
    return lowerMatmul(op, mm.getLhs(), mm.getRhs(), Value(), mm.getResult(), 0, 0, {});
  }
  if (auto gemm = dyn_cast<graph::GemmOp>(op)) {
    if (!tensorOf(gemm.getResult()).getElementType().isF32())
      return op->emitOpError("Gemm lowers for f32 (a quantized Gemm has no kernel yet)");
    Value c = gemm.getC() ? gmOf(gemm.getC()) : Value();
    return lowerMatmul(op, gemm.getA(), gemm.getB(), Value(), gemm.getResult(), 0, 0, {},
                       gemm.getTransA(), gemm.getTransB(), gemm.getAlpha().convertToFloat(), c,
                       gemm.getBeta().convertToFloat());
  }
  if (auto bn = dyn_cast<graph::BatchNormOp>(op)) {
    // ONNX's inference form, step by step in f32: scale * (x - mean) /
    // sqrt(var + epsilon) + bias, the per-channel operands broadcast along
    // axis 1 by zero strides (never materialized at the tensor's size in GM).
    auto xt = tensorOf(bn.getX());
    if (!xt.getElementType().isF32() || xt.getRank() < 2)
      return op->emitOpError("BatchNormalization lowers for f32 tensors of rank >= 2");
    ArrayRef<int64_t> shape = xt.getShape();
    auto perChannel = [&](Value v) {
      EwOperand o{gmOf(v), SmallVector<int64_t, 4>(shape.size(), 0), true};
      o.strides[1] = 4;
      return o;
    };
    SmallVector<EwOperand> ins{broadcastOperand(bn.getX(), shape), perChannel(bn.getScale()),
                               perChannel(bn.getBias()), perChannel(bn.getMean()),
                               perChannel(bn.getVar())};
    float eps = bn.getEpsilon().convertToFloat();
    return elementwise(op, shape, ins, resultBuffer(bn.getResult()), 24, [&](EwTiles &tl) {
      Value x = tl.in[0], var = tl.in[4];
      e.vbin("SUB", x, tl.in[3], x);
      e.vbin("MUL", x, tl.in[1], x);  // IEEE products commute
      e.vbini("ADD", var, b.getF32FloatAttr(eps), var);
      e.vun("SQRT", var, var);
      e.vbin("DIV", x, var, x);
      e.vbin("ADD", x, tl.in[2], x);
    });
  }
  if (auto conv = dyn_cast<qk::Conv2DOp>(op)) {
    if (conv.getLayout() != qk::Layout::NCHW)
      return op->emitOpError("emission handles NCHW convolutions");
    ArrayRef<int64_t> wzp = conv.getWeightZp();
    if (llvm::any_of(wzp, [&](int64_t z) { return z != wzp[0]; }))
      return op->emitOpError("per-channel weight zero points that differ need a correction term; "
                             "MATRIX subtracts one b_zp");
    return lowerConv(op, conv.getInput(), conv.getWeight(), conv.getBias(), conv.getResult(),
                     conv.getStrides(), conv.getPads(), conv.getDilations(), conv.getGroups(),
                     conv.getInputZp(), wzp[0], conv.getRequantAttr());
  }
  if (auto conv = dyn_cast<graph::ConvOp>(op)) {
    if (!tensorOf(conv.getResult()).getElementType().isF32())
      return op->emitOpError("non-f32 graph.conv reaches emission unquantized");
    if (tensorOf(conv.getX()).getRank() != 4)
      return op->emitOpError("convolution lowering handles 2-D (NCHW) inputs");
    return lowerConv(op, conv.getX(), conv.getW(), conv.getBias(), conv.getResult(),
                     conv.getStrides(), conv.getPads(), conv.getDilations(), conv.getGroup(), 0, 0,
                     {});
  }
  return op->emitOpError("has no NPU lowering yet");
}

LogicalResult KernelLowering::run(func::FuncOp func) {
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  // Inputs.
  for (BlockArgument arg : body.getArguments()) {
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "graph.name");
    e.loc = arg.getLoc();
    std::string fallback = "input_" + std::to_string(arg.getArgNumber());
    gm[arg] = ioBuffer(MemorySpace::Input, inputBytes, name ? name.getValue() : StringRef(fallback),
                       tensorOf(arg));
  }
  // Outputs: the producing op writes straight into the output region when
  // the returned value is its own result; otherwise a copy does.
  SmallVector<std::pair<Value, Value>> copies;
  llvm::DenseSet<Value> claimed;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    auto name = func.getResultAttrOfType<StringAttr>(unsigned(i), "graph.name");
    e.loc = v.getLoc();
    std::string fallback = "output_" + std::to_string(i);
    Value out = ioBuffer(MemorySpace::Output, outputBytes,
                         name ? name.getValue() : StringRef(fallback), tensorOf(v));
    // Through views back to the op that computes the bytes.
    Value root = v;
    while (root.getDefiningOp() && llvm::isa<graph::StorageCastOp, graph::ReshapeOp>(root.getDefiningOp()))
      root = root.getDefiningOp()->getOperand(0);
    Operation *def = root.getDefiningOp();
    if (def && !llvm::isa<graph::ConstantOp>(def) && claimed.insert(root).second) {
      auto rt = tensorOf(root);
      Type st = storageOf(rt.getElementType());
      gm[root] = e.view(e.retype(out, st), 0, rt.getShape(), denseStrides(rt.getShape(), bytesOf(st)));
    } else {
      copies.push_back({v, out});
    }
  }
  for (Operation &op : body.without_terminator())
    if (failed(lower(&op)))
      return failure();
  for (auto [v, out] : copies) {
    e.loc = v.getLoc();
    Value src = gmOf(v);
    auto st = cast<BufferType>(src.getType());
    if (failed(lowerCopy(ret, src, out, st.getShape(), st.getStrides())))
      return failure();
  }
  return success();
}

struct ConvertKernelToEmitPass
    : npuc::impl::ConvertKernelToEmitBase<ConvertKernelToEmitPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::TargetInfo *t = target::lookupTarget(targetName);
    if (!t) {
      module.emitError() << "unknown target '" << targetName << "'; valid targets: "
                         << target::targetNames();
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    if (funcs.size() != 1) {
      module.emitError() << "expects one function to compile, found " << funcs.size();
      return signalPassFailure();
    }
    OpBuilder b(module.getContext());
    b.setInsertionPointToEnd(module.getBody());
    auto program = ProgramOp::create(b, funcs[0].getLoc(), b.getStringAttr(t->name));
    program.getBody().emplaceBlock();
    b.setInsertionPointToStart(&program.getBody().front());
    KernelLowering lowering(b, *t);
    if (failed(lowering.run(funcs[0]))) {
      program.erase();
      return signalPassFailure();
    }
    funcs[0].erase();
  }
};

} // namespace
