//===- MatrixKernels.cpp - MATRIX kernels: matmul, conv, depthwise, transposed ---===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Tiles for the MATRIX engine, their im2col DMAs and the epilogue (bias,
// requantization, store).
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

void KernelLowering::epilogue(Value acc, int64_t rows, int64_t cols, Value biasGM, Offset col0,
                              qk::RequantAttr rq, Value paramsGM, Value dst, bool perRow,
                              Offset row0, bool biasPerRow, bool fused) {
  Type accType = cast<BufferType>(acc.getType()).getElementType();
  int64_t eb = biasGM ? cast<BufferType>(biasGM.getType()).getElementBytes() : 0;
  // The bias row (per column) or column (per row) of this tile, from GM; a
  // bias or table already in LM (resident: loaded before the tile loops) is
  // the tile's own, used as it is.
  auto inLM = [](Value v) { return cast<BufferType>(v.getType()).getSpace() == MemorySpace::LM; };
  auto loadBias = [&](ArrayRef<int64_t> perRowStrides) {
    if (inLM(biasGM))
      return biasGM;
    Value bias = biasPerRow ? e.alloc(MemorySpace::LM, {rows, 1}, accType, perRowStrides)
                            : e.tile(MemorySpace::LM, 1, cols, accType);
    e.dma(biasPerRow ? e.view(biasGM, row0 * eb, {rows, 1}, {eb, eb})
                     : e.view(biasGM, col0 * eb, {1, cols}, {0, eb}),
          bias);
    return bias;
  };
  if (rq) {
    // The MATRIX output stage drains the accumulators through bias and
    // requantization into LM: the int32 tile never crosses VECTOR.
    Value out = e.tile(MemorySpace::LM, rows, cols, cast<BufferType>(dst.getType()).getElementType());
    Value bias = biasGM ? loadBias({eb, eb}) : Value();
    if (paramsGM) {
      int64_t n = perRow ? rows : cols;
      Offset first = perRow ? row0 : col0;
      Value params = paramsGM;
      if (!inLM(paramsGM)) {
        params = e.alloc(MemorySpace::LM, {n, 16}, b.getIntegerType(8), {16, 1});
        e.dma(e.view(paramsGM, first * 16, {n, 16}, {16, 1}), params);
      }
      DrainOp::create(b, e.loc, acc, out, bias, params, perRow, biasPerRow && bias, 0, 0, 0, 0, 0,
                      0);
    } else {
      // bias_per_row says where a bias goes: without one it is not set (a
      // pointwise convolution without a bias, its weights on the left).
      DrainOp::create(b, e.loc, acc, out, bias, Value(), false, biasPerRow && bias,
                      rq.getMultiplier()[0],
                      rq.getLshift()[0], rq.getRshift()[0], rq.getZp(), rq.getClampMin(),
                      rq.getClampMax());
    }
    e.dma(out, dst);
    return;
  }
  // A float result: its bias added on VECTOR (a per-row bias is one value per
  // tile row, broadcast along it), then a fused activation.
  if (biasGM)
    e.vbin("ADD", acc, loadBias({t.params.VectorAlign, eb}), acc);
  if (activation.kind == "relu" && !fused)
    e.vun("RELU", acc, acc);
  if (activation.lo)
    e.vbini("MAX", acc, b.getF32FloatAttr(*activation.lo), acc);
  if (activation.hi)
    e.vbini("MIN", acc, b.getF32FloatAttr(*activation.hi), acc);
  Type st = cast<BufferType>(dst.getType()).getElementType();
  if (st != accType) {
    // An fp16 result (graph-compute-f16): rounded once, to nearest even.
    Value out = e.tile(MemorySpace::LM, rows, cols, st);
    e.cast(acc, out);
    acc = out;
  }
  e.dma(acc, dst);
}

namespace {
/// Chooses the MATRIX mode's operand element types.
LogicalResult checkMatrixTypes(Operation *op, Type a, Type w) {
  bool ok = (a.isInteger(8) && w.isInteger(8)) || (a.isF32() && w.isF32()) ||
            (a.isF16() && w.isF16());
  if (!ok)
    return op->emitOpError() << "no MATRIX mode multiplies " << a << " by " << w;
  return success();
}
} // namespace

namespace {
/// The lhs/rhs shape rule lowerMatmul handles: equal batch dimensions, or
/// one side 2-D (a 2-D lhs multiplies every matrix of a batched rhs).
LogicalResult checkMatmulShapes(Operation *op, ArrayRef<int64_t> as, ArrayRef<int64_t> bs) {
  if (as.size() < 2 || bs.size() < 2 ||
      (as.size() > 2 && bs.size() > 2 &&
       (bs.size() != as.size() || as.drop_back(2) != bs.drop_back(2))))
    return op->emitOpError() << "matrix products of shapes " << graph::shapes::str(as) << " and "
                             << graph::shapes::str(bs)
                             << " have no NPU lowering yet (equal batch dimensions, or a 2-D "
                                "operand; broadcast batches are not lowered)";
  return success();
}

/// How an integer kernel's accumulator becomes its result: not at all (an
/// int32 result), one multiplier, or a table per result column or row.
StringRef requantMode(qk::RequantAttr rq, int64_t resultRank) {
  if (!rq)
    return "none";
  if (!rq.isPerChannel())
    return "tensor";
  return rq.getAxis() == resultRank - 2 ? "row" : "column";
}
} // namespace

const CaseSpace &lowering::matmulSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    const ct::List bytes = {"i8", "ui8"};
    s.signatures = {{"f32,f32->f32", {}, {"graph.matmul"}},
                    {"f16,f16->R", {{"R", ct::kFloat}}, {"graph.matmul"}},
                    {"A,W->R", {{"A", bytes}, {"W", bytes}, {"R", {"i8", "ui8", "i32"}}}, {"qk.matmul"}},
                    {"A,W,i32->R", {{"A", bytes}, {"W", bytes}, {"R", {"i8", "ui8", "i32"}}}, {"qk.matmul"}}};
    auto kernel = cond::op({"qk.matmul"});
    s.properties = {choiceProperty("requant", {"none", "tensor", "row", "column"}, kernel),
                    flagProperty("bias", kernel), flagProperty("batch"), flagProperty("batched-rhs")};
    s.rules = {
        never(cond::any({cond::all({cond::choice("requant", {"none"}), cond::result(0, {"i8", "ui8"})}),
                         cond::all({cond::choice("requant", {"tensor", "row", "column"}),
                                    cond::result(0, {"i32"})})}),
              "an int32 result is the accumulator, an 8-bit one is requantized"),
        never(cond::any({cond::all({cond::flag("bias"), cond::operandCount(2)}),
                         cond::all({cond::flag("bias", false), cond::operandCount(3)})}),
              "bias is whether the bias operand is present"),
        never(cond::all({cond::flag("bias"), cond::any({cond::flag("batch"), cond::flag("batched-rhs")})}),
              "graph-to-qk folds a bias into a product of 2-D operands only"),
        never(cond::all({cond::choice("requant", {"row"}), cond::flag("batch")}),
              "per-row requantization follows 2-D weights on the left"),
        never(cond::all({cond::choice("requant", {"row"}), cond::flag("bias")}),
              "graph-to-qk folds a bias per column (weights on the right) only"),
        never(cond::all({cond::choice("requant", {"none"}), cond::flag("bias")}),
              "an int32 result comes from MatMulInteger, which takes no bias (QuantizeLinear has "
              "no int32 result)")};
    return s;
  }();
  return space;
}

/// qk.matmul (integer, its contract in its attributes) and f32 graph.matmul.
LogicalResult lowering::selectMatmul(LoweringCase &c, const target::TargetInfo &) {
  Operation *op = c.op;
  Value lhs = op->getOperand(0), rhs = op->getOperand(1), result = op->getResult(0);
  if (auto mm = dyn_cast<qk::MatMulOp>(op)) {
    ArrayRef<int64_t> zps = mm.getRhsZp();
    if (llvm::any_of(zps, [&](int64_t z) { return z != zps[0]; }))
      return op->emitOpError("per-column rhs zero points that differ need a correction term; "
                             "MATRIX subtracts one b_zp");
  } else if (!llvm::isa<FloatType>(tensorOf(result).getElementType())) {
    return op->emitOpError("non-float graph.matmul reaches emission unquantized");
  }
  if (failed(checkMatrixTypes(op, storageOf(tensorOf(lhs).getElementType()),
                              storageOf(tensorOf(rhs).getElementType()))) ||
      failed(checkMatmulShapes(op, tensorOf(lhs).getShape(), tensorOf(rhs).getShape())))
    return failure();
  if (auto mm = dyn_cast<qk::MatMulOp>(op)) {
    c.choose("requant", requantMode(mm.getRequantAttr(), tensorOf(result).getRank()));
    c.flag("bias", bool(mm.getBias()));
  }
  c.flag("batch", tensorOf(lhs).getRank() > 2);
  c.flag("batched-rhs", tensorOf(rhs).getRank() > 2);
  return success();
}

LogicalResult KernelLowering::lowerMatmulOp(const LoweringCase &c) {
  if (auto mm = dyn_cast<qk::MatMulOp>(c.op))
    return lowerMatmul(c, mm.getLhs(), mm.getRhs(), mm.getBias(), mm.getResult(), mm.getLhsZp(),
                       mm.getRhsZp()[0], mm.getRequantAttr());
  auto mm = cast<graph::MatMulOp>(c.op);
  return lowerMatmul(c, mm.getLhs(), mm.getRhs(), Value(), mm.getResult(), 0, 0, {});
}

const CaseSpace &lowering::gemmSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"f32,f32->f32"},
                    {"f32,f32,f32->f32"},
                    {"f16,f16->R", {{"R", ct::kFloat}}},
                    {"f16,f16,f32->R", {{"R", ct::kFloat}}}};
    s.properties = {flagProperty("transA"), flagProperty("transB"), flagProperty("alpha"),
                    choiceProperty("c", {"none", "matrix", "broadcast"}),
                    flagProperty("beta", cond::choice("c", {"matrix", "broadcast"}))};
    s.rules = {never(cond::any({cond::all({cond::choice("c", {"none"}), cond::operandCount(3)}),
                                cond::all({cond::choice("c", {"matrix", "broadcast"}),
                                           cond::operandCount(2)})}),
                     "c is whether the addend operand is present, and its shape")};
    return s;
  }();
  return space;
}

/// f32 Gemm: transposed operands through transposing DMA views, alpha on the
/// product, beta * C broadcast to [M, N] by zero strides.
LogicalResult lowering::selectGemm(LoweringCase &c, const target::TargetInfo &) {
  auto gemm = cast<graph::GemmOp>(c.op);
  if (!llvm::isa<FloatType>(tensorOf(gemm.getResult()).getElementType()))
    return c.op->emitOpError("Gemm lowers for f32 and f16 (a quantized Gemm has no kernel yet)");
  if (failed(checkMatrixTypes(c.op, tensorOf(gemm.getA()).getElementType(),
                              tensorOf(gemm.getB()).getElementType())))
    return failure();
  c.flag("transA", gemm.getTransA());
  c.flag("transB", gemm.getTransB());
  c.flag("alpha", gemm.getAlphaAttr().getValueAsDouble() != 1.0);
  StringRef addend = "none";
  if (Value cv = gemm.getC())
    addend = tensorOf(cv).getShape() == tensorOf(gemm.getResult()).getShape() ? "matrix"
                                                                               : "broadcast";
  if (c.choose("c", addend) != "none")
    c.flag("beta", gemm.getBetaAttr().getValueAsDouble() != 1.0);
  return success();
}

LogicalResult KernelLowering::lowerGemm(const LoweringCase &c) {
  auto gemm = cast<graph::GemmOp>(c.op);
  Value addend = c.get("c") == "none" ? Value() : gmOf(gemm.getC());
  return lowerMatmul(c, gemm.getA(), gemm.getB(), Value(), gemm.getResult(), 0, 0, {},
                     c.is("transA"), c.is("transB"),
                     c.is("alpha") ? float(gemm.getAlphaAttr().getValueAsDouble()) : 1.0f, addend,
                     addend && c.is("beta") ? float(gemm.getBetaAttr().getValueAsDouble()) : 1.0f);
}

namespace {
/// MATRIX mode of operands stored as `a` and `b`.
isa::MmMode matrixMode(Type a, Type b) {
  if (a.isF32())
    return isa::MmMode::F32;
  if (a.isF16())
    return isa::MmMode::F16;
  return a.isUnsignedInteger() ? (b.isUnsignedInteger() ? isa::MmMode::U8U8 : isa::MmMode::U8I8)
                               : (b.isUnsignedInteger() ? isa::MmMode::I8U8 : isa::MmMode::I8I8);
}

/// What pointwiseProblem and depthwiseProblem read of a qk.conv2d (NCHW) or
/// a graph.conv.
struct ConvOperands {
  Value x, w, y, b;  // b: the bias, or null
  int64_t groups = 1;
  ArrayRef<int64_t> strides, pads, dil;
  bool bias = false;
  bool integer = false;  // qk.conv2d
  qk::RequantAttr rq;
};
std::optional<ConvOperands> convOperands(Operation *op) {
  ConvOperands c;
  if (auto conv = dyn_cast<qk::Conv2DOp>(op)) {
    if (conv.getLayout() != qk::Layout::NCHW)
      return std::nullopt;
    c.x = conv.getInput(), c.w = conv.getWeight(), c.y = conv.getResult();
    c.groups = conv.getGroups(), c.strides = conv.getStrides(), c.pads = conv.getPads();
    c.dil = conv.getDilations(), c.bias = bool(conv.getBias()), c.rq = conv.getRequantAttr();
    c.b = conv.getBias();
    c.integer = true;
  } else if (auto conv = dyn_cast<graph::ConvOp>(op)) {
    c.x = conv.getX(), c.w = conv.getW(), c.y = conv.getResult();
    c.groups = conv.getGroup(), c.strides = conv.getStrides(), c.pads = conv.getPads();
    c.dil = conv.getDilations(), c.bias = bool(conv.getBias());
    c.b = conv.getBias();
  } else {
    return std::nullopt;
  }
  return c;
}

/// A pointwise convolution (NCHW, 1x1 window, stride 1, unpadded, one group)
/// is a matrix product with the weights on the left, per batch:
/// Y[n] (Cout x HW) = W (Cout x Cin) x X[n] (Cin x HW). Its GM runs are whole
/// rows of HW, where im2col would gather single elements.
std::optional<MatmulProblem> pointwiseProblem(Operation *op) {
  std::optional<ConvOperands> c = convOperands(op);
  if (!c)
    return std::nullopt;
  MatmulProblem p;
  p.bias = c->bias;
  p.requant = bool(c->rq);
  p.requantTable = c->rq && c->rq.isPerChannel();
  p.requantPerRow = p.requantTable;
  ArrayRef<int64_t> xs = tensorOf(c->x).getShape(), ws = tensorOf(c->w).getShape();
  // One input and one output channel is the depthwise kind (convKind).
  if (xs.size() != 4 || ws.size() != 4 || c->groups != 1 || ws[2] != 1 || ws[3] != 1 ||
      (ws[0] == 1 && ws[1] == 1) ||
      llvm::any_of(c->strides, [](int64_t s) { return s != 1; }) ||
      llvm::any_of(c->pads, [](int64_t q) { return q != 0; }))
    return std::nullopt;
  p.batch = xs[0], p.M = ws[0], p.K = ws[1], p.N = xs[2] * xs[3];
  p.batchedA = false, p.batchedB = true, p.biasPerRow = true;
  Type tx = storageOf(tensorOf(c->x).getElementType()), tw = storageOf(tensorOf(c->w).getElementType());
  p.aBytes = bytesOf(tw), p.bBytes = bytesOf(tx);
  p.outBytes = bytesOf(storageOf(tensorOf(c->y).getElementType()));
  p.mode = matrixMode(tw, tx);
  return p;
}

/// The value of a constant tensor, through storage casts, or null.
DenseElementsAttr constantValue(Value v) {
  while (auto cast = v.getDefiningOp<graph::StorageCastOp>())
    v = cast->getOperand(0);
  auto c = v.getDefiningOp<graph::ConstantOp>();
  return c ? llvm::dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
}

/// The window geometry, element sizes and epilogue of a 2-D convolution
/// (integer qk.conv2d, or f32 graph.conv); `C` is all input channels.
std::optional<DepthwiseProblem> windowGeometry(const ConvOperands &c) {
  if (!c.integer && !llvm::isa<FloatType>(tensorOf(c.y).getElementType()))
    return std::nullopt;
  ArrayRef<int64_t> xs = tensorOf(c.x).getShape(), ws = tensorOf(c.w).getShape(),
                    ys = tensorOf(c.y).getShape();
  if (xs.size() != 4 || ws.size() != 4 || ys.size() != 4)
    return std::nullopt;
  DepthwiseProblem p;
  p.bias = c.bias;
  p.requant = bool(c.rq);
  p.requantTable = c.rq && c.rq.isPerChannel();
  p.N = xs[0], p.C = xs[1], p.H = xs[2], p.W = xs[3], p.KH = ws[2], p.KW = ws[3];
  p.sh = c.strides[0], p.sw = c.strides[1], p.dh = c.dil[0], p.dw = c.dil[1];
  p.padTop = c.pads[0], p.padLeft = c.pads[1], p.padBottom = c.pads[2], p.padRight = c.pads[3];
  p.OH = ys[2], p.OW = ys[3];
  Type tx = storageOf(tensorOf(c.x).getElementType()), tw = storageOf(tensorOf(c.w).getElementType());
  p.inBytes = bytesOf(tx);
  p.outBytes = bytesOf(storageOf(tensorOf(c.y).getElementType()));
  p.mode = matrixMode(tx, tw);
  return p;
}
} // namespace

bool lowering::isPointwise(Operation *op) { return pointwiseProblem(op).has_value(); }

std::optional<DepthwiseProblem> lowering::depthwiseProblem(Operation *op) {
  if (auto ct = dyn_cast<graph::ConvTransposeOp>(op)) {
    // The stride-1 convolution of the spread, padded input (lowerConvTranspose).
    ArrayRef<int64_t> xs = tensorOf(ct.getX()).getShape(), ws = tensorOf(ct.getW()).getShape();
    ArrayRef<int64_t> ys = tensorOf(ct.getResult()).getShape();
    if (xs.size() != 4 || ws.size() != 4 || ws[1] != 1 || xs[1] != int64_t(ct.getGroup()) ||
        !tensorOf(ct.getResult()).getElementType().isF32())
      return std::nullopt;
    DepthwiseProblem p;
    ArrayRef<int64_t> st = ct.getStrides(), pd = ct.getPads(), dl = ct.getDilations(),
                      outPad = ct.getOutputPadding();
    p.N = xs[0], p.C = xs[1], p.KH = ws[2], p.KW = ws[3], p.dh = dl[0], p.dw = dl[1];
    p.H = (xs[2] - 1) * st[0] + 1 + 2 * dl[0] * (ws[2] - 1) - pd[0] - pd[2] + outPad[0];
    p.W = (xs[3] - 1) * st[1] + 1 + 2 * dl[1] * (ws[3] - 1) - pd[1] - pd[3] + outPad[1];
    p.OH = ys[2], p.OW = ys[3], p.inBytes = 4, p.outBytes = 4, p.mode = isa::MmMode::F32;
    p.bias = bool(ct.getBias());
    return p;
  }
  std::optional<DepthwiseProblem> p;
  std::optional<ConvOperands> c = convOperands(op);
  if (!c || !(p = windowGeometry(*c)))
    return std::nullopt;
  ArrayRef<int64_t> ws = tensorOf(c->w).getShape();
  if (ws[1] != 1 || ws[0] != c->groups || p->C != c->groups)
    return std::nullopt;
  return p;
}

std::optional<ConvProblem> lowering::convProblem(Operation *op) {
  std::optional<ConvOperands> c = convOperands(op);
  std::optional<DepthwiseProblem> g = c ? windowGeometry(*c) : std::nullopt;
  if (!g || isPointwise(op))
    return std::nullopt;
  ArrayRef<int64_t> ws = tensorOf(c->w).getShape();
  int64_t groups = c->groups;
  // The depthwise kind (convKind) runs on VECTOR; a dilated row is not one
  // run of the image; the weights are reordered at compile time.
  if (groups < 1 || (ws[1] == 1 && ws[0] == groups) || ws[1] * groups != g->C ||
      ws[0] % groups || g->dw != 1 || !constantValue(c->w))
    return std::nullopt;
  ConvProblem p;
  p.window = *g;
  p.window.C = ws[1];
  p.groups = groups, p.outChannels = ws[0] / groups;
  p.weightBytes = bytesOf(storageOf(tensorOf(c->w).getElementType()));
  return p;
}

/// A ConvTranspose whose windows do not overlap (kernel = stride, no pads,
/// dilations or output padding, one group; f32, constant weights and bias):
/// every input pixel writes its own kh x kw block of the output, so it is a
/// pointwise product Y' [(co, a, b)] [pixels] = W' x X followed by a
/// depth-to-space copy (lowerConvTranspose).
bool lowering::isDepthToSpace(graph::ConvTransposeOp op) {
  auto xt = tensorOf(op.getX());
  ArrayRef<int64_t> ws = tensorOf(op.getW()).getShape(), st = op.getStrides();
  auto wc = op.getW().getDefiningOp<graph::ConstantOp>();
  auto bc = op.getBias() ? op.getBias().getDefiningOp<graph::ConstantOp>() : graph::ConstantOp();
  auto all = [](ArrayRef<int64_t> values, int64_t v) {
    return llvm::all_of(values, [&](int64_t x) { return x == v; });
  };
  return xt.getRank() == 4 && xt.getElementType().isF32() && op.getGroup() == 1 && ws.size() == 4 &&
         st.size() == 2 && st[0] == ws[2] && st[1] == ws[3] && all(op.getPads(), 0) &&
         all(op.getDilations(), 1) && all(op.getOutputPadding(), 0) && wc &&
         llvm::isa<DenseFPElementsAttr>(wc.getValue()) &&
         (!op.getBias() || (bc && llvm::isa<DenseFPElementsAttr>(bc.getValue())));
}

std::optional<MatmulProblem> lowering::matmulProblem(Operation *op) {
  Value lhs, rhs, result;
  MatmulProblem p;
  if (auto ct = dyn_cast<graph::ConvTransposeOp>(op); ct && isDepthToSpace(ct)) {
    ArrayRef<int64_t> xs = tensorOf(ct.getX()).getShape(), ws = tensorOf(ct.getW()).getShape();
    p.batch = xs[0], p.M = ws[1] * ws[2] * ws[3], p.K = xs[1], p.N = xs[2] * xs[3];
    p.aBytes = p.bBytes = p.outBytes = 4, p.mode = isa::MmMode::F32;
    p.batchedA = false, p.batchedB = true, p.biasPerRow = true, p.bias = bool(ct.getBias());
    return p;
  }
  if (auto mm = dyn_cast<qk::MatMulOp>(op)) {
    lhs = mm.getLhs(), rhs = mm.getRhs(), result = mm.getResult();
    qk::RequantAttr rq = mm.getRequantAttr();
    p.bias = bool(mm.getBias());
    p.requant = bool(rq);
    p.requantTable = rq && rq.isPerChannel();
    p.requantPerRow = p.requantTable && rq.getAxis() == tensorOf(result).getRank() - 2;
  } else if (auto mm = dyn_cast<graph::MatMulOp>(op)) {
    lhs = mm.getLhs(), rhs = mm.getRhs(), result = mm.getResult();
  } else if (auto gemm = dyn_cast<graph::GemmOp>(op)) {
    lhs = gemm.getA(), rhs = gemm.getB(), result = gemm.getResult();
    p.transA = gemm.getTransA(), p.transB = gemm.getTransB();
    p.scale = gemm.getAlphaAttr().getValueAsDouble() != 1.0;
    p.addend = bool(gemm.getC());
  } else if (std::optional<MatmulProblem> pw = pointwiseProblem(op)) {
    return pw;
  } else {
    return std::nullopt;
  }
  ArrayRef<int64_t> as = tensorOf(lhs).getShape(), bs = tensorOf(rhs).getShape();
  if (as.size() < 2 || bs.size() < 2)
    return std::nullopt;
  p.M = p.transA ? as.back() : as[as.size() - 2];
  p.K = p.transA ? as[as.size() - 2] : as.back();
  p.N = p.transB ? bs[bs.size() - 2] : bs.back();
  for (size_t i = 0; i + 2 < as.size(); ++i)
    p.batch *= as[i];
  p.batchedB = bs.size() > 2;
  if (as.size() == 2 && bs.size() > 2) {
    // A 2-D lhs (weights on the left) times each matrix of a batched rhs.
    for (size_t i = 0; i + 2 < bs.size(); ++i)
      p.batch *= bs[i];
    p.batchedA = false;
  }
  Type ta = storageOf(tensorOf(lhs).getElementType()), tb = storageOf(tensorOf(rhs).getElementType());
  p.aBytes = bytesOf(ta), p.bBytes = bytesOf(tb);
  p.outBytes = bytesOf(storageOf(tensorOf(result).getElementType()));
  p.mode = matrixMode(ta, tb);
  return p;
}

LogicalResult KernelLowering::lowerMatmul(const LoweringCase &c, Value lhs, Value rhs, Value bias,
                                          Value result, int64_t azp, int64_t bzp,
                                          qk::RequantAttr rq, bool transA, bool transB,
                                          float alpha, Value addend, float beta) {
  // Per-channel requantization runs along the result's columns (weights on
  // the right) or its rows (weights on the left: the channel axis moved with
  // them); a bias is per column. transA/transB are the problem's (matmulProblem).
  bool perRow = rq && c.get("requant") == "row";
  std::optional<MatmulProblem> p = matmulProblem(c.op);
  if (p && (p->transA != transA || p->transB != transB))
    return c.op->emitOpError("internal error: the matrix problem disagrees with the case on "
                             "transposed operands");
  Value out = resultBuffer(result), biasBuf = bias ? gmOf(bias) : Value(), rhsBuf = gmOf(rhs);
  return lowerMatmulBuffers(c.op, gmOf(lhs), rhsBuf, biasBuf, out, azp, bzp, rq, perRow, false,
                            alpha, addend, beta);
}

LogicalResult KernelLowering::lowerMatmulBuffers(Operation *op, Value A, Value B, Value Bias,
                                                 Value C, int64_t azp, int64_t bzp,
                                                 qk::RequantAttr rq, bool perRow,
                                                 bool biasPerRow, float alpha, Value addend,
                                                 float beta) {
  auto at = cast<BufferType>(A.getType()), bt = cast<BufferType>(B.getType()),
       ct = cast<BufferType>(C.getType());
  std::optional<MatmulProblem> problem = matmulProblem(op);
  auto tiling = op->getAttrOfType<DictionaryAttr>(kTilingAttr);
  if (!problem || !tiling)
    return op->emitOpError() << "internal error: no tiling (" << kTilingAttr
                             << "); select-tiling chooses it before this lowering";
  MatmulTiling tl;
  auto tile = tiling.getAs<DenseI64ArrayAttr>("tile");
  auto buffers = tiling.getAs<IntegerAttr>("buffers");
  if (!tile || tile.size() != 3 || !buffers)
    return op->emitOpError() << kTilingAttr << " needs tile = [mt, nt, kt] and buffers";
  tl.mt = tile[0], tl.nt = tile[1], tl.kt = tile[2], tl.buffers = buffers.getInt();
  if (std::optional<std::string> why = checkTiling(*problem, tl, t))
    return op->emitOpError() << kTilingAttr << " [" << tl.mt << ", " << tl.nt << ", " << tl.kt
                             << "] x " << tl.buffers << " cannot run here: " << *why;
  const MatmulProblem &p = *problem;
  bool transA = p.transA, transB = p.transB;
  int64_t M = p.M, N = p.N, K = p.K;
  int64_t ea = at.getElementBytes(), eb = bt.getElementBytes(), ec = ct.getElementBytes();
  // Float modes (F32, F16) accumulate in fp32.
  Type accType = llvm::isa<FloatType>(at.getElementType()) ? Type(b.getF32Type()) : Type(b.getIntegerType(32));
  Value params = rq && rq.isPerChannel() ? requantTable(rq, perRow ? M : N) : Value();
  int64_t ma = t.params.MatrixAlign, kt = std::min(tl.kt, K);
  // Chunks of kt along K: one chunk's A and B tiles are per iteration (the
  // loop's buffers rotate them); several chunks take turns in a ring of two
  // A and B slots allocated once (matmulChunkRing, MatmulTiling.h), so the
  // next chunk's loads overlap this chunk's product.
  bool ring = K > kt;
  int64_t aPitch = roundUp(kt * ea, ma), bPitch = roundUp(tl.nt * eb, ma);
  int64_t aSlot = roundUp(tl.mt * aPitch, ma), bSlot = roundUp(kt * bPitch, ma);
  Value aRing, bRing;
  if (ring) {
    aRing = e.alloc(MemorySpace::LM, {kMatmulChunkRing, tl.mt, kt}, at.getElementType(), {aSlot, aPitch, ea});
    bRing = e.alloc(MemorySpace::LM, {kMatmulChunkRing, kt, tl.nt}, bt.getElementType(), {bSlot, bPitch, eb});
  }
  // The body at (batch bi, rows m0.., columns n0..): one result tile.
  auto body = [&](int64_t mc, int64_t nc, Offset bi, Offset m0, Offset n0) {
    Value acc = e.tile(MemorySpace::ACC, mc, nc, accType, ma);
    Value aFull = ring ? Value() : e.tile(MemorySpace::LM, mc, kt, at.getElementType(), ma);
    Value bFull = ring ? Value() : e.tile(MemorySpace::LM, kt, nc, bt.getElementType(), ma);
    for (int64_t k0 = 0, j = 0; k0 < K; k0 += kt, ++j) {
      int64_t kc = std::min(kt, K - k0), slot = j % kMatmulChunkRing;
      Value aT = ring ? e.view(aRing, slot * aSlot, {mc, kc}, {aPitch, ea})
                      : e.view(aFull, 0, {mc, kc}, {aPitch, ea});
      Value bT = ring ? e.view(bRing, slot * bSlot, {kc, nc}, {bPitch, eb})
                      : e.view(bFull, 0, {kc, nc}, cast<BufferType>(bFull.getType()).getStrides());
      if (transA)  // A stored [K, M]
        e.dma(e.view(A, (m0 + k0 * M) * ea, {mc, kc}, {ea, M * ea}), aT);
      else
        e.dma(e.view(A, (((p.batchedA ? bi * M : Offset(0)) + m0) * K + k0) * ea, {mc, kc},
                     {K * ea, ea}),
              aT);
      Offset bBase = p.batchedB ? bi * (K * N) : Offset(0);
      if (transB)  // B stored [N, K]
        e.dma(e.view(B, (n0 * K + k0) * eb, {kc, nc}, {eb, K * eb}), bT);
      else
        e.dma(e.view(B, (bBase + n0 + k0 * N) * eb, {kc, nc}, {N * eb, eb}), bT);
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
    epilogue(acc, mc, nc, Bias, n0, rq, params, dst, perRow, m0, biasPerRow);
  };
  // The tiles as up to four loops (full and remainder tiles along M and N
  // have different shapes), each over [batch, row tiles, column tiles].
  int64_t fm = M / tl.mt, rm = M % tl.mt, fn = N / tl.nt, rn = N % tl.nt;
  for (auto [mc, mCount, mFirst] : {std::tuple{tl.mt, fm, int64_t(0)}, std::tuple{rm, int64_t(rm > 0), fm * tl.mt}})
    for (auto [nc, nCount, nFirst] : {std::tuple{tl.nt, fn, int64_t(0)}, std::tuple{rn, int64_t(rn > 0), fn * tl.nt}}) {
      if (mCount == 0 || nCount == 0 || mc == 0 || nc == 0)
        continue;
      // Loads move ahead of the previous tile's compute only when each tile
      // is loaded once per iteration (one chunk along K).
      e.beginLoop({p.batch, mCount, nCount}, tl.buffers, tl.buffers > 1 && kt == K);
      body(mc, nc, e.coordinate(0), mFirst + e.coordinate(1) * mc, nFirst + e.coordinate(2) * nc);
      e.endLoop();
    }
  return success();
}

namespace {
/// A convolution's kind by its groups: one input and one output channel per
/// group (depthwise), several groups, or one.
StringRef convKind(int64_t groups, int64_t channelsPerGroup, int64_t outputsPerGroup) {
  if (channelsPerGroup == 1 && outputsPerGroup == 1)
    return "depthwise";
  return groups > 1 ? "grouped" : "dense";
}

bool anyNot(ArrayRef<int64_t> values, int64_t v) {
  return llvm::any_of(values, [&](int64_t x) { return x != v; });
}
} // namespace

namespace {
/// Whether the bias flag disagrees with the operands (the bias is the third).
support::CaseCond biasMismatch() {
  return cond::any({cond::all({cond::flag("bias"), cond::operandCount(2)}),
                    cond::all({cond::flag("bias", false), cond::operandCount(3)})});
}
} // namespace

const CaseSpace &lowering::convSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    const ct::List bytes = {"i8", "ui8"};
    s.signatures = {{"f32,f32->f32", {}, {"graph.conv"}},
                    {"f32,f32,f32->f32", {}, {"graph.conv"}},
                    {"f16,f16->R", {{"R", ct::kFloat}}, {"graph.conv"}},
                    {"f16,f16,f32->R", {{"R", ct::kFloat}}, {"graph.conv"}},
                    {"X,W->R", {{"X", bytes}, {"W", bytes}, {"R", {"i8", "ui8", "i32"}}}, {"qk.conv2d"}},
                    {"X,W,i32->R", {{"X", bytes}, {"W", bytes}, {"R", {"i8", "ui8", "i32"}}}, {"qk.conv2d"}}};
    s.properties = {choiceProperty("kind", {"dense", "grouped", "depthwise"}),
                    flagProperty("padded"),
                    flagProperty("strided"),
                    flagProperty("dilated"),
                    choiceProperty("window", {"1x1", "kxk"}, cond::choice("kind", {"dense", "grouped"})),
                    flagProperty("bias"),
                    choiceProperty("requant", {"none", "tensor", "channel"}, cond::op({"qk.conv2d"})),
                    choiceProperty("activation", {"none", "relu", "clip"}, cond::op({"graph.conv"}))};
    s.rules = {
        never(biasMismatch(), "bias is whether the bias operand is present"),
        never(cond::any({cond::all({cond::choice("requant", {"none"}), cond::result(0, {"i8", "ui8"})}),
                         cond::all({cond::choice("requant", {"tensor", "channel"}), cond::result(0, {"i32"})})}),
              "an int32 result is the accumulator, an 8-bit one is requantized"),
        never(cond::all({cond::choice("requant", {"none"}), cond::flag("bias")}),
              "an int32 result comes from ConvInteger or MatMulInteger, which take no bias "
              "(QuantizeLinear has no int32 result)")};
    return s;
  }();
  return space;
}

/// qk.conv2d (integer, NCHW) and f32 graph.conv (2-D): dense, grouped or
/// depthwise; padded first; strides and dilations in the im2col DMA; a 1x1
/// window gathered by one 3-D DMA; bias and requantization in the epilogue.
LogicalResult lowering::selectConv(LoweringCase &c, const target::TargetInfo &) {
  Operation *op = c.op;
  qk::RequantAttr rq;
  Value x = op->getOperand(0), w = op->getOperand(1);
  bool bias;
  ArrayRef<int64_t> strides, pads, dil;
  int64_t groups;
  if (auto conv = dyn_cast<qk::Conv2DOp>(op)) {
    if (conv.getLayout() != qk::Layout::NCHW)
      return op->emitOpError("emission handles NCHW convolutions");
    ArrayRef<int64_t> wzp = conv.getWeightZp();
    if (llvm::any_of(wzp, [&](int64_t z) { return z != wzp[0]; }))
      return op->emitOpError("per-channel weight zero points that differ need a correction term; "
                             "MATRIX subtracts one b_zp");
    rq = conv.getRequantAttr();
    bias = bool(conv.getBias());
    strides = conv.getStrides(), pads = conv.getPads(), dil = conv.getDilations();
    groups = conv.getGroups();
  } else {
    auto fconv = cast<graph::ConvOp>(op);
    if (!llvm::isa<FloatType>(tensorOf(fconv.getResult()).getElementType()))
      return op->emitOpError("non-float graph.conv reaches emission unquantized");
    if (tensorOf(fconv.getX()).getRank() != 4)
      return op->emitOpError("convolution lowering handles 2-D (NCHW) inputs");
    bias = bool(fconv.getBias());
    strides = fconv.getStrides(), pads = fconv.getPads(), dil = fconv.getDilations();
    groups = fconv.getGroup();
  }
  if (failed(checkMatrixTypes(op, storageOf(tensorOf(x).getElementType()),
                              storageOf(tensorOf(w).getElementType()))))
    return failure();
  ArrayRef<int64_t> ws = tensorOf(w).getShape();
  StringRef kind = c.choose("kind", convKind(groups, ws[1], ws[0] / groups));
  c.flag("padded", anyNot(pads, 0));
  c.flag("strided", anyNot(strides, 1));
  c.flag("dilated", anyNot(dil, 1));
  if (kind != "depthwise")
    c.choose("window", ws[2] * ws[3] == 1 ? "1x1" : "kxk");
  c.flag("bias", bias);
  if (llvm::isa<qk::Conv2DOp>(op))
    c.choose("requant", !rq ? "none" : rq.isPerChannel() ? "channel" : "tensor");
  else
    c.choose("activation", cast<graph::ConvOp>(op).getActivation().value_or("none"));
  return success();
}

LogicalResult KernelLowering::lowerConv(const LoweringCase &c) {
  // The fused activation, for this op's epilogues only.
  activation = FloatActivation();
  if (auto conv = dyn_cast<graph::ConvOp>(c.op); conv && c.get("activation") != "none") {
    activation.kind = c.get("activation");
    if (FloatAttr lo = conv.getActivationMinAttr())
      activation.lo = float(lo.getValueAsDouble());
    if (FloatAttr hi = conv.getActivationMaxAttr())
      activation.hi = float(hi.getValueAsDouble());
  }
  auto reset = llvm::make_scope_exit([&] { activation = FloatActivation(); });
  ConvPlan plan;
  plan.depthwise = c.get("kind") == "depthwise";
  plan.padded = c.is("padded");
  plan.window1x1 = !plan.depthwise && c.get("window") == "1x1";
  auto buffers = [&](Value x, Value w, Value bias, Value y) {
    return std::make_tuple(gmOf(x), gmOf(w), bias ? gmOf(bias) : Value(), resultBuffer(y));
  };
  // A pointwise convolution (dense, 1x1, unstrided, unpadded: properties the
  // case records) is a tiled matrix product, the weights on the left.
  bool pointwise = c.get("kind") == "dense" && plan.window1x1 && !plan.padded && !c.is("strided");
  if (pointwise != isPointwise(c.op))
    return c.op->emitOpError("internal error: the pointwise test disagrees with the case");
  // The window kinds gather in LM from their weights reordered (the
  // constant as imported is never placed).
  if (std::optional<ConvProblem> cp = convProblem(c.op)) {
    ConvOperands o = *convOperands(c.op);
    auto conv = dyn_cast<qk::Conv2DOp>(c.op);
    Value y = resultBuffer(o.y), bias = o.b ? gmOf(o.b) : Value();
    return lowerWindowConv(c.op, *cp, gmOf(o.x), bias, y,
                           conv ? conv.getInputZp() : 0, conv ? conv.getWeightZp()[0] : 0,
                           conv ? conv.getRequantAttr() : qk::RequantAttr());
  }
  if (auto conv = dyn_cast<qk::Conv2DOp>(c.op)) {
    auto [X, W, B, Y] = buffers(conv.getInput(), conv.getWeight(), conv.getBias(), conv.getResult());
    if (pointwise) {
      qk::RequantAttr rq = conv.getRequantAttr();
      return lowerMatmulBuffers(c.op, W, X, B, Y, conv.getWeightZp()[0], conv.getInputZp(), rq,
                                rq && rq.isPerChannel(), true, 1.0f, Value(), 1.0f);
    }
    return lowerConvBuffers(c.op, plan, X, W, B, Y, conv.getStrides(), conv.getPads(),
                            conv.getDilations(), conv.getGroups(), conv.getInputZp(),
                            conv.getWeightZp()[0], conv.getRequantAttr());
  }
  auto conv = cast<graph::ConvOp>(c.op);
  auto [X, W, B, Y] = buffers(conv.getX(), conv.getW(), conv.getBias(), conv.getResult());
  if (pointwise)
    return lowerMatmulBuffers(c.op, W, X, B, Y, 0, 0, {}, false, true, 1.0f, Value(), 1.0f);
  return lowerConvBuffers(c.op, plan, X, W, B, Y, conv.getStrides(), conv.getPads(),
                          conv.getDilations(), conv.getGroup(), 0, 0, {});
}

const CaseSpace &lowering::convTransposeSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"f32,f32->f32"}, {"f32,f32,f32->f32"}};
    auto notDepthwise = cond::choice("kind", {"dense", "grouped"});
    s.properties = {choiceProperty("kind", {"dense", "grouped", "depthwise"}),
                    flagProperty("strided"),
                    flagProperty("dilated"),
                    flagProperty("output-padding"),
                    choiceProperty("window", {"1x1", "kxk"}, notDepthwise),
                    flagProperty("bias"),
                    choiceProperty("form", {"depth-to-space", "spread"}, notDepthwise)};
    s.rules = {
        never(biasMismatch(), "bias is whether the bias operand is present"),
        never(cond::all({cond::choice("form", {"depth-to-space"}),
                         cond::any({cond::choice("kind", {"grouped"}), cond::flag("dilated"),
                                    cond::flag("output-padding"),
                                    cond::all({cond::flag("strided"), cond::choice("window", {"1x1"})}),
                                    cond::all({cond::flag("strided", false), cond::choice("window", {"kxk"})})})}),
              "depth-to-space is a dense, undilated transposed convolution whose stride is its "
              "window, unpadded"),
        never(cond::all({cond::flag("output-padding"), cond::flag("strided", false),
                         cond::flag("dilated", false)}),
              "ONNX's output_padding is smaller than the stride or the dilation"),
        never(cond::all({cond::choice("form", {"spread"}), cond::choice("kind", {"dense"}),
                         cond::choice("window", {"1x1"}), cond::flag("strided", false),
                         cond::flag("dilated", false), cond::flag("output-padding", false)}),
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
  auto op = cast<graph::ConvTransposeOp>(c.op);
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
  StringRef kind = c.choose("kind", convKind(g, xt.getShape()[1] / g, ws[1]));
  c.flag("strided", anyNot(op.getStrides(), 1));
  c.flag("dilated", anyNot(dl, 1));
  c.flag("output-padding", anyNot(op.getOutputPadding(), 0));
  if (kind != "depthwise")
    c.choose("window", ws[2] * ws[3] == 1 ? "1x1" : "kxk");
  c.flag("bias", bool(op.getBias()));
  if (kind != "depthwise")
    c.choose("form", isDepthToSpace(op) ? "depth-to-space" : "spread");
  return success();
}

/// ConvTranspose (f32, constant weights) as a convolution: the input is
/// spread with stride s into a zeroed arena buffer padded by d * (k - 1) - p
/// (plus output_padding at the end), and convolved with stride 1 by the
/// weights flipped in space with input and output channels exchanged per
/// group. The weights are stored [Cin, Cout / group, kh, kw] (contract L2).
LogicalResult KernelLowering::lowerConvTranspose(const LoweringCase &c) {
  auto op = cast<graph::ConvTransposeOp>(c.op);
  // A depthwise one records no form: it is always spread.
  if (c.get("kind") != "depthwise" && c.get("form") == "depth-to-space")
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
  Value Z = e.alloc(MemorySpace::Arena, zshape, b.getF32Type(), denseStrides(zshape, 4));
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
  plan.depthwise = c.get("kind") == "depthwise";
  plan.window1x1 = !plan.depthwise && c.get("window") == "1x1";
  Value y = resultBuffer(op.getResult());
  return lowerConvBuffers(op, plan, Z, Wt, op.getBias() ? gmOf(op.getBias()) : Value(), y, ones,
                          zeros, dl, g, 0, 0, {});
}

/// isDepthToSpace's ConvTranspose: Y' [n] [(co, a, b)] [i, j] =
/// sum over ci of W [ci] [co] [a] [b] x X [n] [ci] [i, j] (+ bias [co]), a
/// tiled matrix product with the reordered weights on the left (select-tiling
/// chose its tiles: matmulProblem), into the arena; then per output channel
/// one copy puts block (a, b) of pixel (i, j) at Y [n] [co] [i kh + a] [j kw + b]:
/// the copy's DMAs read rows of pixels and write whole output rows.
LogicalResult KernelLowering::lowerDepthToSpace(graph::ConvTransposeOp op) {
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
  Value R = e.alloc(MemorySpace::Arena, rShape, b.getF32Type(), denseStrides(rShape, 4));
  Value X = e.view(gmOf(op.getX()), 0, {N, Cin, HW}, {Cin * HW * 4, HW * 4, 4});
  if (failed(lowerMatmulBuffers(op, A, X, bias, R, 0, 0, {}, false, true, 1.0f, Value(), 1.0f)))
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

LogicalResult KernelLowering::lowerConvBuffers(Operation *op, const ConvPlan &plan, Value X,
                                               Value W, Value Bias, Value Y,
                                               ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                                               ArrayRef<int64_t> dil, int64_t groups, int64_t xzp,
                                               int64_t wzp, qk::RequantAttr rq) {
  auto xt = cast<BufferType>(X.getType()), wt = cast<BufferType>(W.getType());
  auto yt = cast<BufferType>(Y.getType());
  int64_t N = xt.getShape()[0], C = xt.getShape()[1];
  int64_t M = wt.getShape()[0], Cg = wt.getShape()[1], KH = wt.getShape()[2], KW = wt.getShape()[3];
  int64_t OH = yt.getShape()[2], OW = yt.getShape()[3], Mg = M / groups;
  int64_t ex = xt.getElementBytes(), ey = yt.getElementBytes();
  if (plan.depthwise)  // pads on the way into LM
    return lowerDepthwise(op, X, W, Bias, Y, xzp, wzp, rq);
  // Padding first: a padded copy in the arena, filled with the input zero
  // point so that padded taps contribute (zp - zp) * w = 0.
  if (plan.padded) {
    SmallVector<int64_t> shape{N, C, xt.getShape()[2] + pads[0] + pads[2],
                               xt.getShape()[3] + pads[1] + pads[3]};
    Value padded = e.alloc(MemorySpace::Arena, shape, xt.getElementType(), denseStrides(shape, ex));
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
  auto tiling = op->getAttrOfType<DictionaryAttr>(kTilingAttr);
  auto tile = tiling ? tiling.getAs<DenseI64ArrayAttr>("tile") : nullptr;
  auto chosenBuffers = tiling ? tiling.getAs<IntegerAttr>("buffers") : nullptr;
  if (!tile || tile.size() != 3 || !chosenBuffers)
    return op->emitOpError() << "internal error: no im2col tiling (" << kTilingAttr
                             << " = {tile = [mt, nt, kt], buffers}); select-tiling chooses it "
                                "before this lowering";
  MatmulTiling tl{tile[0], tile[1], tile[2], chosenBuffers.getInt(), 0, 0};
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
    epilogue(acc, m, nc, Bias, oc, rq, params, dst);
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
LogicalResult KernelLowering::lowerWindowConv(Operation *op, const ConvProblem &p, Value X,
                                              Value Bias, Value Y, int64_t xzp, int64_t wzp,
                                              qk::RequantAttr rq) {
  auto tiling = op->getAttrOfType<DictionaryAttr>(kTilingAttr);
  if (!tiling)
    return op->emitOpError() << "internal error: no tiling (" << kTilingAttr
                             << "); select-tiling chooses it before this lowering";
  auto tile = tiling.getAs<DenseI64ArrayAttr>("tile");
  auto buffers = tiling.getAs<IntegerAttr>("buffers");
  if (!tile || tile.size() != 3 || !buffers)
    return op->emitOpError() << kTilingAttr << " needs tile = [rows, channels, chunk] and buffers";
  ConvTiling tl;
  tl.rows = tile[0], tl.outChannels = tile[1], tl.chunk = tile[2], tl.buffers = buffers.getInt();
  tl.stacked = bool(tiling.get("stacked"));
  tl.resident = bool(tiling.get("resident"));
  if (std::optional<std::string> why = checkTiling(p, tl, t))
    return op->emitOpError() << kTilingAttr << " [" << tl.rows << ", " << tl.outChannels << ", "
                             << tl.chunk << "] x " << tl.buffers << " cannot run here: " << *why;
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
  Value zeros;
  if (gaps) {
    zeros = e.tile(MemorySpace::LM, 1, depthMax, xt.getElementType(), t.params.VectorAlign);
    auto zeroType = RankedTensorType::get({depthMax}, xt.getElementType());
    Value row = isFloat ? constant(DenseElementsAttr::get(zeroType, b.getFloatAttr(xt.getElementType(), 0.0)),
                                   zeroType)
                        : constant(DenseElementsAttr::get(RankedTensorType::get({depthMax}, b.getIntegerType(8)),
                                                          ArrayRef<int8_t>(SmallVector<int8_t>(size_t(depthMax), 0))),
                                   RankedTensorType::get({depthMax}, xt.getElementType()));
    e.dma(e.view(row, 0, {1, depthMax}, {depthMax * ex, ex}), zeros);
  }
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
    epilogue(acc, m, nc, biasFirst ? Value() : Bias, oc, rq, params, dst);
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
  auto tiling = op->getAttrOfType<DictionaryAttr>(kTilingAttr);
  if (!tiling)
    return op->emitOpError() << "internal error: no tiling (" << kTilingAttr
                             << "); select-tiling chooses it before this lowering";
  if (cast<BufferType>(X.getType()).getShape() != ArrayRef<int64_t>{p.N, p.C, p.H, p.W})
    return op->emitOpError("internal error: the window problem disagrees with its input");
  DepthwiseTiling tl;
  auto tile = tiling.getAs<DenseI64ArrayAttr>("tile");
  auto buffers = tiling.getAs<IntegerAttr>("buffers");
  if (!tile || tile.size() != 2 || !buffers)
    return op->emitOpError() << kTilingAttr << " needs tile = [channels, rows] and buffers";
  tl.channels = tile[0], tl.rows = tile[1], tl.buffers = buffers.getInt();
  tl.resident = bool(tiling.get("resident"));
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

LogicalResult KernelLowering::lowerDepthwise(Operation *op, Value X, Value W, Value Bias, Value Y,
                                             int64_t xzp, int64_t wzp, qk::RequantAttr rq) {
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
    bool relu = fuse && activation.kind == "relu";
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
                          b.getDenseI64ArrayAttr({p.dh, p.dw}), !first, xzp, wzp, "MAC",
                          last && relu);
      first = false;
    }
    Value dst = e.view(Y, ((w.n * p.C + w.c0) * p.OH + w.oh0) * (p.OW * ey),
                       {chans, w.rows * p.OW}, {p.OH * p.OW * ey, ey});
    if (fuse) {
      // What is left of the epilogue: a clip's bounds, then the store.
      epilogue(acc, chans, w.rows * p.OW, Value(), Offset(0), rq, Value(), dst, true, w.c0, false,
               /*fused=*/true);
      return;
    }
    if (!tl->resident) {
      epilogue(acc, chans, w.rows * p.OW, Bias, Offset(0), rq, params, dst, true, w.c0, bool(Bias));
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
    epilogue(acc, chans, w.rows * p.OW, bias, Offset(0), rq, table, dst, true, Offset(0), bool(Bias));
  });
  return success();
}
