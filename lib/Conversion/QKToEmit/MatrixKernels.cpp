//===- MatrixKernels.cpp - MATRIX kernels: matrix products and their epilogue ===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// Tiles for the MATRIX engine and the epilogue (bias, requantization, store):
// MatMul, Gemm and the integer qk.matmul, and the products convolutions
// become (ConvKernels.cpp holds the convolutions).
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
LogicalResult selectMatmul(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &matmulSpace();
} // namespace npuc::emit::lowering

namespace {

/// qk.matmul: MATRIX products, then the epilogue.
struct MatMulPattern : OpKernelPattern<qk::MatMulOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectMatmul;
  static constexpr SpaceOf space = matmulSpace;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;

private:
  /// A matrix product of tensors: `k` without perRow, which the case says;
  /// transA/transB are the problem's (matmulProblem), checked against `c`.
  LogicalResult lowerMatmul(const LoweringCase &c, Value lhs, Value rhs, Value bias, Value result,
                            ProductContract k, bool transA = false, bool transB = false);
};

} // namespace

void lowering::populateMatrixPatterns(KernelPatterns &patterns) {
  patterns.add<MatMulPattern>();
}

//===----------------------------------------------------------------------===//
// Matrix kernels
//===----------------------------------------------------------------------===//

Value KernelBuilder::requantTable(qk::RequantAttr rq, int64_t channels) {
  constexpr int64_t entry = num::kRequantEntryBytes;
  SmallVector<int8_t> bytes(size_t(channels) * entry, 0);
  for (int64_t c = 0; c < channels; ++c) {
    size_t i = rq.isPerChannel() ? size_t(c) : 0;
    num::RequantParams p{int32_t(rq.getMultiplier()[i]), int(rq.getLshift()[i]),
                         int(rq.getRshift()[i]),         int32_t(rq.getZp()),
                         int32_t(rq.getClampMin()),      int32_t(rq.getClampMax())};
    num::packRequantEntry(p, reinterpret_cast<uint8_t *>(bytes.data()) + c * entry);
  }
  auto type = RankedTensorType::get({channels, entry}, b.getIntegerType(8));
  return constant(DenseElementsAttr::get(type, ArrayRef<int8_t>(bytes)), type);
}

void KernelBuilder::epilogue(Value acc, int64_t rows, int64_t cols, Value dst, const Epilogue &ep,
                              Offset row0, Offset col0) {
  Value biasGM = ep.bias, paramsGM = ep.params;
  qk::RequantAttr rq = ep.rq;
  bool perRow = ep.perRow, biasPerRow = ep.biasPerRow;
  const FloatActivation &activation = ep.activation;
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
        constexpr int64_t entry = tiling::kParamBytes;
        params = e.alloc(MemorySpace::LM, {n, entry}, b.getIntegerType(8), {entry, 1});
        e.dma(e.view(paramsGM, first * entry, {n, entry}, {entry, 1}), params);
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
    e.vbin(VBinFunc::ADD, acc, loadBias({t.params.VectorAlign, eb}), acc);
  if (activation.kind == Activation::Relu && !ep.fused)
    e.vun(VUnFunc::RELU, acc, acc);
  if (activation.lo)
    e.vbini(VBinFunc::MAX, acc, b.getF32FloatAttr(*activation.lo), acc);
  if (activation.hi)
    e.vbini(VBinFunc::MIN, acc, b.getF32FloatAttr(*activation.hi), acc);
  Type st = cast<BufferType>(dst.getType()).getElementType();
  if (st != accType) {
    // An fp16 result (graph-compute-f16): rounded once, to nearest even.
    Value out = e.tile(MemorySpace::LM, rows, cols, st);
    e.cast(acc, out);
    acc = out;
  }
  e.dma(acc, dst);
}

/// Chooses the MATRIX mode's operand element types.
LogicalResult lowering::checkMatrixTypes(Operation *op, Type a, Type w) {
  bool ok = (a.isInteger(8) && w.isInteger(8)) || (a.isF32() && w.isF32()) ||
            (a.isF16() && w.isF16());
  if (!ok)
    return op->emitOpError() << "no MATRIX mode multiplies " << a << " by " << w;
  return success();
}

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

/// Gemm's alpha or beta as qk.matmul states it: 1 when absent.
float scaleOf(FloatAttr f) { return f ? float(f.getValueAsDouble()) : 1.0f; }

/// How an integer kernel's accumulator becomes its result: not at all (an
/// int32 result), one multiplier, or a table per result column or row.
Requant requantMode(qk::RequantAttr rq, int64_t resultRank) {
  if (!rq)
    return Requant::None;
  if (!rq.isPerChannel())
    return Requant::Tensor;
  return rq.getAxis() == resultRank - 2 ? Requant::Row : Requant::Column;
}
} // namespace

std::vector<support::TypeSignature> lowering::productSignatures(const char *lhs) {
  const ct::List bytes = {"i8", "ui8"}, results = {"i8", "ui8", "i32"};
  std::string x(lhs);
  return {{"f32,f32->f32"},
          {"f32,f32,f32->f32"},
          {"f16,f16->R", {{"R", ct::kFloat}}},
          {"f16,f16,f32->R", {{"R", ct::kFloat}}},
          {x + ",W->R", {{x, bytes}, {"W", bytes}, {"R", results}}},
          {x + ",W,i32->R", {{x, bytes}, {"W", bytes}, {"R", results}}}};
}

const CaseSpace &lowering::matmulSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    const ct::List bytes = {"i8", "ui8"};
    s.signatures = productSignatures("A");
    // The integer contract's properties; a float product has none of it,
    // and a 2-D one Gemm's (transposes, alpha, the addend C and its beta).
    auto integer = cond::operand(0, bytes);
    auto flat = cond::all({cond::negate(integer), kBatch(false), kBatchedRhs(false)});
    s.properties = {kMatmulRequant.declare(integer),
                    kBias.declare(integer), kBatch.declare(), kBatchedRhs.declare(),
                    kTransA.declare(flat), kTransB.declare(flat), kAlpha.declare(flat),
                    kAddend.declare(flat),
                    kBeta.declare(kAddend({Addend::Matrix, Addend::Broadcast}))};
    s.rules = {
        never(cond::any({cond::all({kMatmulRequant({Requant::None}), cond::result(0, {"i8", "ui8"})}),
                         cond::all({kMatmulRequant({Requant::Tensor, Requant::Row, Requant::Column}),
                                    cond::result(0, {"i32"})})}),
              "an int32 result is the accumulator, an 8-bit one is requantized"),
        biasIsThirdOperand(),
        never(cond::all({kBias(), cond::any({kBatch(), kBatchedRhs()})}),
              "graph-to-qk folds a bias into a product of 2-D operands only"),
        never(cond::all({kMatmulRequant({Requant::Row}), kBatch()}),
              "per-row requantization follows 2-D weights on the left"),
        never(cond::all({kMatmulRequant({Requant::Row}), kBias()}),
              "graph-to-qk folds a bias per column (weights on the right) only"),
        never(cond::all({kMatmulRequant({Requant::None}), kBias()}),
              "an int32 result comes from MatMulInteger, which takes no bias (graph-to-qk folds a "
              "bias into 8-bit results only)"),
        never(cond::any({cond::all({kAddend({Addend::None}), cond::operandCount(3)}),
                         cond::all({kAddend({Addend::Matrix, Addend::Broadcast}),
                                    cond::operandCount(2)})}),
              "c is whether the addend operand is present, and its shape"),
        never(cond::all({cond::negate(integer), cond::operandCount(3),
                         cond::any({kBatch(), kBatchedRhs()})}),
              "Gemm's addend comes with 2-D operands")};
    return s;
  }();
  return space;
}

/// qk.matmul, integer (its contract in its attributes) or float.
LogicalResult lowering::selectMatmul(LoweringCase &c, const target::TargetInfo &) {
  Operation *op = c.op;
  Value lhs = op->getOperand(0), rhs = op->getOperand(1), result = op->getResult(0);
  if (auto mm = dyn_cast<qk::MatMulOp>(op); mm && mm.getRhsZp()) {
    ArrayRef<int64_t> zps = *mm.getRhsZp();
    if (llvm::any_of(zps, [&](int64_t z) { return z != zps[0]; }))
      return op->emitOpError("per-column rhs zero points that differ need a correction term; "
                             "MATRIX subtracts one b_zp");
  }
  if (failed(checkMatrixTypes(op, storageOf(tensorOf(lhs).getElementType()),
                              storageOf(tensorOf(rhs).getElementType()))) ||
      failed(checkMatmulShapes(op, tensorOf(lhs).getShape(), tensorOf(rhs).getShape())))
    return failure();
  auto mm = cast<qk::MatMulOp>(op);
  if (mm.getRhsZp()) {
    c.choose(kMatmulRequant, requantMode(mm.getRequantAttr(), tensorOf(result).getRank()));
    c.flag(kBias, bool(mm.getBias()));
  }
  bool batch = c.flag(kBatch, tensorOf(lhs).getRank() > 2);
  bool batchedRhs = c.flag(kBatchedRhs, tensorOf(rhs).getRank() > 2);
  if (mm.getRhsZp() || batch || batchedRhs)
    return success();
  // A 2-D float product: Gemm's transposes (through transposing DMA views),
  // alpha on the product, beta * C broadcast to [M, N] by zero strides.
  c.flag(kTransA, mm.getTransA().value_or(false));
  c.flag(kTransB, mm.getTransB().value_or(false));
  c.flag(kAlpha, scaleOf(mm.getAlphaAttr()) != 1.0f);
  Addend addend = Addend::None;
  if (Value cv = mm.getBias())
    addend = tensorOf(cv).getShape() == tensorOf(result).getShape() ? Addend::Matrix
                                                                     : Addend::Broadcast;
  if (c.choose(kAddend, addend) != Addend::None)
    c.flag(kBeta, scaleOf(mm.getBetaAttr()) != 1.0f);
  return success();
}

LogicalResult MatMulPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto mm = cast<qk::MatMulOp>(c.op);
  ProductContract k;
  if (mm.getRhsZp()) {  // the integer contract
    k = {static_cast<int64_t>(*mm.getLhsZp()), (*mm.getRhsZp())[0], mm.getRequantAttr()};
    return lowerMatmul(c, mm.getLhs(), mm.getRhs(), mm.getBias(), mm.getResult(), k);
  }
  if (c.is(kBatch) || c.is(kBatchedRhs))
    return lowerMatmul(c, mm.getLhs(), mm.getRhs(), Value(), mm.getResult(), k);
  // Gemm's form: alpha, beta * C, the transposes.
  Value addend = c.get(kAddend) == Addend::None ? Value() : gmOf(mm.getBias());
  k.alpha = c.is(kAlpha) ? scaleOf(mm.getAlphaAttr()) : 1.0f;
  k.addend = addend;
  k.beta = addend && c.is(kBeta) ? scaleOf(mm.getBetaAttr()) : 1.0f;
  return lowerMatmul(c, mm.getLhs(), mm.getRhs(), Value(), mm.getResult(), k, c.is(kTransA),
                     c.is(kTransB));
}


std::optional<ConvOperands> lowering::convOperands(Operation *op) {
  ConvOperands c;
  if (auto conv = dyn_cast<qk::Conv2DOp>(op)) {
    c.x = conv.getInput(), c.w = conv.getWeight(), c.y = conv.getResult();
    c.groups = conv.getGroups(), c.strides = conv.getStrides(), c.pads = conv.getPads();
    c.dil = conv.getDilations(), c.bias = bool(conv.getBias()), c.rq = conv.getRequantAttr();
    c.b = conv.getBias();
    c.integer = conv.isInteger();
  } else {
    return std::nullopt;
  }
  return c;
}

namespace {
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

} // namespace

/// The value of a constant tensor, through storage casts (views that keep
/// the shape), or null.
DenseElementsAttr lowering::constantValue(Value v) {
  for (auto view = v.getDefiningOp<qk::ViewOp>();
       view && tensorOf(view.getInput()).getShape() == tensorOf(view.getResult()).getShape();
       view = v.getDefiningOp<qk::ViewOp>())
    v = view.getInput();
  auto c = v.getDefiningOp<graph::ConstantOp>();
  return c ? llvm::dyn_cast<DenseElementsAttr>(c.getValue()) : DenseElementsAttr();
}

namespace {
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
  if (auto ct = dyn_cast<qk::ConvTransposeOp>(op)) {
    // The stride-1 convolution of the spread, padded input (ConvTransposePattern).
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
/// depth-to-space copy (ConvTransposePattern).
bool lowering::isDepthToSpace(qk::ConvTransposeOp op) {
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
  if (auto ct = dyn_cast<qk::ConvTransposeOp>(op); ct && isDepthToSpace(ct)) {
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
    if (!mm.getRhsZp()) {  // the float form: Gemm's transposes, scale and addend
      p.bias = false;
      p.transA = mm.getTransA().value_or(false), p.transB = mm.getTransB().value_or(false);
      p.scale = scaleOf(mm.getAlphaAttr()) != 1.0f;
      p.addend = bool(mm.getBias());
    }
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

LogicalResult MatMulPattern::lowerMatmul(const LoweringCase &c, Value lhs, Value rhs, Value bias,
                                          Value result, ProductContract k, bool transA,
                                          bool transB) {
  // Per-channel requantization runs along the result's columns (weights on
  // the right) or its rows (weights on the left: the channel axis moved with
  // them); a bias is per column. transA/transB are the problem's (matmulProblem).
  k.perRow = k.rq && c.get(kMatmulRequant) == Requant::Row;
  std::optional<MatmulProblem> p = matmulProblem(c.op);
  if (p && (p->transA != transA || p->transB != transB))
    return c.op->emitOpError("internal error: the matrix problem disagrees with the case on "
                             "transposed operands");
  Value out = resultBuffer(result), biasBuf = bias ? gmOf(bias) : Value(), rhsBuf = gmOf(rhs);
  return lowerMatmulBuffers(c.op, {gmOf(lhs), rhsBuf, biasBuf, out}, k);
}

LogicalResult KernelBuilder::lowerMatmulBuffers(Operation *op, const ProductBuffers &buf,
                                                 const ProductContract &k) {
  Value A = buf.a, B = buf.b, Bias = buf.bias, C = buf.c;
  int64_t azp = k.azp, bzp = k.bzp;
  qk::RequantAttr rq = k.rq;
  bool perRow = k.perRow, biasPerRow = k.biasPerRow;
  float alpha = k.alpha, beta = k.beta;
  Value addend = k.addend;
  auto at = cast<BufferType>(A.getType()), bt = cast<BufferType>(B.getType()),
       ct = cast<BufferType>(C.getType());
  std::optional<MatmulProblem> problem = matmulProblem(op);
  if (!problem)
    return op->emitOpError("internal error: not a matrix product");
  FailureOr<qk::TilingAttr> tiling = chosenTiling(op, 3, "mt, nt, kt");
  if (failed(tiling))
    return failure();
  MatmulTiling tl;
  ArrayRef<int64_t> tile = tiling->getTile();
  tl.mt = tile[0], tl.nt = tile[1], tl.kt = tile[2], tl.buffers = tiling->getBuffers();
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
    // beta * C, broadcast to this [mc, nc] tile by zero strides, loaded with
    // the operands (it is added to the finished sums, as MatMul then Add
    // would): its DMA overlaps theirs instead of waiting for the product.
    Value cTile;
    if (addend) {
      auto xt2 = cast<BufferType>(addend.getType());
      ArrayRef<int64_t> cs = xt2.getShape();
      int64_t e2 = xt2.getElementBytes();
      int64_t sRow = cs.size() == 2 && cs[0] != 1 ? cs[1] * e2 : 0;
      int64_t sCol = !cs.empty() && cs.back() != 1 ? e2 : 0;
      cTile = e.tile(MemorySpace::LM, mc, nc, accType);
      e.dma(e.view(addend, m0 * sRow + n0 * sCol, {mc, nc}, {sRow, sCol}), cTile);
    }
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
      e.vbini(VBinFunc::MUL, acc, b.getF32FloatAttr(alpha), acc);
    if (cTile) {
      if (beta != 1.0f)
        e.vbini(VBinFunc::MUL, cTile, b.getF32FloatAttr(beta), cTile);
      e.vbin(VBinFunc::ADD, acc, cTile, acc);
    }
    Value dst = e.view(C, ((bi * M + m0) * N + n0) * ec, {mc, nc}, {N * ec, ec});
    epilogue(acc, mc, nc, dst, {Bias, rq, params, perRow, biasPerRow, false, k.activation}, m0, n0);
  };
  // The tile loops the schedule states (productLoops: remainder tiles
  // peeled into loops of their own), each over [batch, row tiles, column
  // tiles]. Loads move ahead of the previous tile's compute only when each
  // tile is loaded once per iteration (one chunk along K).
  for (const ProductLoop &loop : productLoops(p, tl)) {
    const TilePart &m = loop.m, &n = loop.n;
    e.beginLoop({p.batch, m.count, n.count}, tl.buffers, tl.buffers > 1 && kt == K);
    body(m.size, n.size, e.coordinate(0), m.first + e.coordinate(1) * m.size,
         n.first + e.coordinate(2) * n.size);
    e.endLoop();
  }
  return success();
}
