//===- ElementwiseKernels.cpp - Elementwise loop nests and binary kernels -===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The elementwise loop nests over a 4-D iteration space every VECTOR kernel
// runs on, the binary kernels (qk.binary, qk.prelu) and the channel
// parameters (BatchNorm, the channel-affine) (docs/architecture.md, "The
// backend"); the maps of one tensor are in MapKernels.cpp, Q/DQ and
// requantization in QuantKernels.cpp, reductions, Softmax and pooling in
// ReduceKernels.cpp.
//
//===----------------------------------------------------------------------===//

#include "KernelPattern.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

// The selectors, case spaces and plans of this file's patterns.
namespace npuc::emit::lowering {
LogicalResult selectBinary(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &binarySpace();
LogicalResult selectChannelParams(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &channelParamsSpace();
LogicalResult planBinary(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
LogicalResult planChannelParams(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
} // namespace npuc::emit::lowering

namespace {

/// qk.binary: a VECTOR binary function of two broadcast operands.
struct BinaryPattern : OpKernelPattern<qk::BinaryOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectBinary;
  static constexpr SpaceOf space = binarySpace;
  static constexpr PlanFn plan = planBinary;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;

protected:
  void shiftUnsigned(EwTiles &tl, VBinFunc func, unsigned width);
};

/// qk.prelu: qk.binary's lowering, its slope the broadcast operand.
struct PReluPattern : BinaryPattern {
  using BinaryPattern::BinaryPattern;
  using Op = qk::PReluOp;
};

/// qk.batch_norm: per-channel parameters, one value per tile row.
struct BatchNormPattern : OpKernelPattern<qk::BatchNormOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectChannelParams;
  static constexpr SpaceOf space = channelParamsSpace;
  static constexpr PlanFn plan = planChannelParams;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.channel_affine: a per-channel scale and shift.
struct ChannelAffinePattern : OpKernelPattern<qk::ChannelAffineOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectChannelParams;
  static constexpr SpaceOf space = channelParamsSpace;
  static constexpr PlanFn plan = planChannelParams;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

} // namespace

void lowering::populateBinaryPatterns(KernelPatterns &patterns) {
  patterns.add<BinaryPattern, PReluPattern>();
}

void lowering::populateChannelPatterns(KernelPatterns &patterns) {
  patterns.add<BatchNormPattern, ChannelAffinePattern>();
}

//===----------------------------------------------------------------------===//
// Elementwise kernels
//===----------------------------------------------------------------------===//

EwAccess lowering::broadcastAccess(Value tensor, ArrayRef<int64_t> outShape, bool perRow) {
  RankedTensorType type = tensorOf(tensor);
  ArrayRef<int64_t> shape = type.getShape();
  int64_t es = bytesOf(storageOf(type.getElementType()));
  SmallVector<int64_t> dense = denseStrides(shape, es);
  EwAccess a{{}, es, perRow};
  size_t lead = outShape.size() - shape.size();
  for (size_t i = 0; i < outShape.size(); ++i)
    a.strides.push_back(i < lead || shape[i - lead] == 1 ? 0 : dense[i - lead]);
  return a;
}

EwAccess lowering::denseAccess(Value tensor) {
  RankedTensorType type = tensorOf(tensor);
  int64_t es = bytesOf(storageOf(type.getElementType()));
  SmallVector<int64_t> dense = denseStrides(type.getShape(), es);
  return EwAccess{std::vector<int64_t>(dense.begin(), dense.end()), es, false};
}

EwAccess lowering::axisAccess(size_t rank, int64_t axis, bool perRow) {
  EwAccess a{std::vector<int64_t>(rank, 0), 4, perRow};
  a.strides[size_t(axis)] = 4;
  return a;
}

/// A product's tiles hold their rows at an aligned pitch, which a VECTOR
/// copy can take where a flat run across rows is not aligned. That pays
/// where the value stays in LM, so only for values of at most a quarter of
/// LM (emit-resident-values takes up to half, but beside a layer's tiles
/// larger values rarely fit, and then rows only cost GM bursts). Every
/// unaligned row stays a row when a matrix product is within six ops of
/// elementwise work and copies on such values (an RNN step's gates of 7
/// floats are sliced, activated and combined between products); rows of at
/// least two granules when a convolution is next to `op`, through reshapes
/// (a 7x7 map's rows of 7 bytes would pay a GM burst each).
RowRule lowering::rowsBesideProduct(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  const target::TargetInfo *t = module ? target::lookupTarget(targetName(module)) : nullptr;
  auto small = [&](Value v) {
    auto tt = dyn_cast<RankedTensorType>(v.getType());
    return tt && tt.hasStaticShape() &&
           tt.getNumElements() * bytesOf(storageOf(tt.getElementType())) <= t->params.LMBytes / 4;
  };
  if (!t || op->getNumResults() != 1 || !small(op->getResult(0)))
    return {};
  auto passes = [](Operation *x) {
    return llvm::isa<qk::ViewOp, qk::CopyOp, qk::BinaryOp, qk::CompareOp, qk::SelectOp, qk::CastOp,
                     qk::MapOp, qk::ClipOp, qk::LeakyReluOp, qk::HardSigmoidOp, qk::HardSwishOp,
                     qk::GeluOp, qk::PReluOp, qk::PowOp>(x);
  };
  struct Step {
    Operation *x;
    int hops;
    bool direct;  // reached from `op` through reshapes only
  };
  SmallVector<Step> work{{op, 0, true}};
  DenseSet<Operation *> seen{op};
  constexpr int kHops = 6;
  bool matrix = false, conv = false;
  while (!work.empty() && !matrix) {
    auto [x, hops, direct] = work.pop_back_val();
    SmallVector<Operation *> next;
    for (Value v : x->getOperands())
      if (Operation *def = v.getDefiningOp(); def && small(v))
        next.push_back(def);
    for (Value r : x->getResults())
      for (Operation *user : r.getUsers())
        next.push_back(user);
    for (Operation *y : next) {
      matrix |= llvm::isa<qk::MatMulOp>(y);
      conv |= direct && llvm::isa<qk::Conv2DOp>(y);
      if (hops + 1 < kHops && passes(y) && llvm::all_of(y->getResults(), small) &&
          seen.insert(y).second)
        work.push_back({y, hops + 1, direct && llvm::isa<qk::ViewOp>(y)});
    }
  }
  int64_t align = t->params.VectorAlign;
  if (matrix)
    return {align, 0};
  if (conv)
    return {align, 2 * align};
  return {};
}

LogicalResult lowering::addNest(Operation *op, IterationSpaces &s, ArrayRef<int64_t> shape,
                                std::vector<EwAccess> ins, EwAccess out, EwWork work) {
  // The canonical 4-D iteration space (ElementwiseTiling.h); near a
  // product, rows of its tiles stay rows.
  ElementwiseProblem nest;
  if (std::optional<std::string> why = canonicalize(std::vector<int64_t>(shape.begin(), shape.end()),
                                                    std::move(ins), std::move(out), work, nest,
                                                    rowsBesideProduct(op)))
    return op->emitOpError() << *why;
  s.nests.push_back(std::move(nest));
  return success();
}


FailureOr<ElementwiseTiling> KernelBuilder::nestTiling(Operation *op, const ElementwiseProblem &p) {
  unsigned k = nestsEmitted[op]++;
  auto list = op->getAttrOfType<ArrayAttr>(kLoopTilingAttr);
  if (!list || k >= list.size())
    return op->emitOpError() << "internal error: no tiling for its elementwise loop nest " << k
                             << " (" << kLoopTilingAttr
                             << "); select-tiling chooses it before this lowering";
  auto d = dyn_cast<qk::TilingAttr>(list[k]);
  if (!d || d.getSpace().size() != 4 || d.getTile().size() != 4)
    return op->emitOpError() << kLoopTilingAttr << " entry " << k
                             << " needs space = [4 extents] and tile = [4 extents]";
  if (!llvm::equal(d.getSpace(), p.shape))
    return op->emitOpError() << "internal error: " << kLoopTilingAttr << " entry " << k
                             << " was chosen for the iteration space [" << d.getSpace()
                             << "]; the lowering walks [" << ArrayRef<int64_t>(p.shape) << "]";
  ElementwiseTiling tl;
  std::copy(d.getTile().begin(), d.getTile().end(), tl.tile.begin());
  tl.buffers = d.getBuffers();
  if (std::optional<std::string> why = checkTiling(p, tl, t))
    return op->emitOpError() << kLoopTilingAttr << " entry " << k << " [" << d.getTile()
                             << "] x " << tl.buffers << " cannot run here: " << *why;
  return tl;
}

LogicalResult KernelBuilder::rowLoops(
    Operation *op, const ElementwiseProblem &p,
    const std::function<void(int64_t rows, const Offset &first)> &body) {
  FailureOr<ElementwiseTiling> chosen = nestTiling(op, p);
  if (failed(chosen))
    return failure();
  for (auto [size, count, first] : tileParts(p.shape[2], chosen->tile[2])) {
    int64_t buffers = count > 1 ? chosen->buffers : 1;
    e.beginLoop({count}, buffers, buffers > 1);
    body(size, first + e.coordinate(0) * size);
    e.endLoop();
  }
  return success();
}

LogicalResult KernelBuilder::columnLoops(
    Operation *op, const ElementwiseProblem &p,
    const std::function<void(int64_t cols, const Offset &block, const Offset &first)> &body) {
  FailureOr<ElementwiseTiling> chosen = nestTiling(op, p);
  if (failed(chosen))
    return failure();
  // columnProblem's space: [1, outer, r, inner], a tile [1, 1, r, cols].
  int64_t outer = p.shape[1];
  for (auto [cols, count, first] : tileParts(p.shape[3], chosen->tile[3])) {
    int64_t buffers = outer * count > 1 ? chosen->buffers : 1;
    e.beginLoop({outer, count}, buffers, buffers > 1);
    body(cols, e.coordinate(0), first + e.coordinate(1) * cols);
    e.endLoop();
  }
  return success();
}

LogicalResult KernelBuilder::elementwise(Operation *op, const ElementwiseProblem &nest,
                                          ArrayRef<Value> insIn, Value out,
                                          const std::function<void(EwTiles &)> &body) {
  // The plan assumed each buffer's element size; a buffer of another would
  // be walked with the wrong strides.
  for (auto [k, v] : llvm::enumerate(insIn))
    if (cast<BufferType>(v.getType()).getElementBytes() != nest.ins[k].elemBytes)
      return op->emitOpError() << "internal error: operand " << k << " of its loop nest has "
                               << cast<BufferType>(v.getType()).getElementBytes()
                               << "-byte elements; its plan walks " << nest.ins[k].elemBytes;
  // An empty tensor moves nothing.
  if (nest.empty())
    return success();
  FailureOr<ElementwiseTiling> chosen = nestTiling(op, nest);
  if (failed(chosen))
    return failure();
  ArrayRef<int64_t> shape = nest.shape;
  SmallVector<ArrayRef<int64_t>> strides;
  for (const EwAccess &a : nest.ins)
    strides.push_back(a.strides);
  strides.push_back(nest.out.strides);
  const std::array<int64_t, 4> &tile = chosen->tile;
  int64_t va = t.params.VectorAlign;
  // The tiles as loops: per dimension the full tiles, then the remainder.
  std::vector<TilePart> parts[4];
  for (int k = 0; k < 4; ++k)
    parts[k] = tileParts(shape[size_t(k)], tile[k]);
  auto oneTile = [&](const TilePart *p) {
    Offset idx[4];
    for (unsigned k = 0; k < 4; ++k)
      idx[k] = p[k].first + e.coordinate(k) * p[k].size;
    int64_t c0 = p[0].size, c1 = p[1].size, c2 = p[2].size, c3 = p[3].size;
    SmallVector<int64_t> box{c0, c1, c2, c3};
    auto at = [&](ArrayRef<int64_t> st, int dims) {
      Offset off;
      for (int k = 0; k < dims; ++k)
        off += idx[k] * st[size_t(k)];
      return off;
    };
    auto gmBox = [&](Value buf, ArrayRef<int64_t> st) { return e.view(buf, at(st, 4), box, st); };
    auto localBox = [&](Value tileV) {
      auto tt = cast<BufferType>(tileV.getType());
      int64_t pitch = tt.getStrides()[0], es = tt.getElementBytes();
      return e.view(tileV, 0, box, {c1 * c2 * pitch, c2 * pitch, pitch, es});
    };
    EwTiles tl;
    tl.rows = c0 * c1 * c2;
    tl.cols = c3;
    for (auto [k, gmIn] : llvm::enumerate(insIn)) {
      auto bt = cast<BufferType>(gmIn.getType());
      if (nest.ins[k].perRow) {
        int64_t es = bt.getElementBytes();
        Value col = e.alloc(MemorySpace::LM, {tl.rows, 1}, bt.getElementType(), {va, es});
        SmallVector<int64_t> rowBox{c0, c1, c2, 1};
        Value to = e.view(col, 0, rowBox, {c1 * c2 * va, c2 * va, va, es});
        e.dma(e.view(gmIn, at(strides[k], 3), rowBox, strides[k]), to);
        tl.in.push_back(col);
        continue;
      }
      Value tileV = e.tile(MemorySpace::LM, tl.rows, tl.cols, bt.getElementType());
      Value to = localBox(tileV);
      e.dma(gmBox(gmIn, strides[k]), to);
      tl.in.push_back(tileV);
    }
    tl.out = nullptr;
    body(tl);
    if (!tl.out)
      tl.out = tl.in.front();
    Value to = gmBox(out, strides.back());
    e.dma(localBox(tl.out), to);
  };
  for (const TilePart &p0 : parts[0])
    for (const TilePart &p1 : parts[1])
      for (const TilePart &p2 : parts[2])
        for (const TilePart &p3 : parts[3]) {
          TilePart p[4] = {p0, p1, p2, p3};
          int64_t n = p0.count * p1.count * p2.count * p3.count;
          int64_t buffers = n > 1 ? chosen->buffers : 1;
          e.beginLoop({p0.count, p1.count, p2.count, p3.count}, buffers, buffers > 1);
          oneTile(p);
          e.endLoop();
        }
  return success();
}

Value KernelBuilder::toF32(Value tile, const std::optional<Quant> &q) {
  auto tt = cast<BufferType>(tile.getType());
  Value f = tile;
  if (q && !tt.getElementType().isF32()) {
    // (f32(q) - zp) * scale in one pass (V_DEQUANT), the same f32 steps.
    f = e.tile(MemorySpace::LM, tt.getShape()[0], tt.getShape()[1], b.getF32Type());
    e.quantCast(tile, f, float(q->scales[0]), q->zeroPoints[0]);
    return f;
  }
  if (!tt.getElementType().isF32()) {
    f = e.tile(MemorySpace::LM, tt.getShape()[0], tt.getShape()[1], b.getF32Type());
    e.cast(tile, f);
  }
  if (q) {
    e.vbini(VBinFunc::SUB, f, b.getF32FloatAttr(float(q->zeroPoints[0])), f);
    e.vbini(VBinFunc::MUL, f, b.getF32FloatAttr(float(q->scales[0])), f);
  }
  return f;
}

Value KernelBuilder::fromF32(Value f, const std::optional<Quant> &q, Type storage) {
  auto ft = cast<BufferType>(f.getType());
  if (!q && storage != ft.getElementType()) {
    // An fp16 result (--float fp16): rounded once, to nearest even.
    Value out = e.tile(MemorySpace::LM, ft.getShape()[0], ft.getShape()[1], storage);
    e.cast(f, out);
    return out;
  }
  if (!q)
    return f;
  // saturate(round_half_even(f / scale) + zp) in one pass (V_QUANT).
  Value out = e.tile(MemorySpace::LM, ft.getShape()[0], ft.getShape()[1], storage);
  e.quantCast(f, out, float(q->scales[0]), q->zeroPoints[0]);
  return out;
}

//===----------------------------------------------------------------------===//
// Binary and unary elementwise ops
//===----------------------------------------------------------------------===//

namespace {
// qk.binary's function and VECTOR's are one ISA enum (ISA_VBinFuncCases).
static_assert(int(qk::BinaryFn::ADD) == int(VBinFunc::ADD) &&
                  int(qk::BinaryFn::MIN) == int(VBinFunc::MIN) &&
                  int(qk::BinaryFn::XOR) == int(VBinFunc::XOR) &&
                  int(qk::BinaryFn::SRA) == int(VBinFunc::SRA),
              "qk.binary's functions are VECTOR's, numbered alike");

/// The VECTOR function of a binary kernel; none for PRelu, which is
/// composed of several.
std::optional<VBinFunc> binaryFunction(Operation *op) {
  if (auto k = llvm::dyn_cast<qk::BinaryOp>(op))
    return VBinFunc(k.getFn());
  return std::nullopt;
}

/// AND, OR and XOR: the logic of bools, bitwise of integers (LogicKernels.cpp).
bool isLogical(qk::BinaryOp op) {
  qk::BinaryFn fn = op.getFn();
  return fn == qk::BinaryFn::AND || fn == qk::BinaryFn::OR || fn == qk::BinaryFn::XOR;
}

/// Whether an operand's access is constant along the innermost dimension
/// (a scalar, or a per-channel [1, C, 1, 1] scale or bias broadcast over
/// H x W): one value per tile row, broadcast by VECTOR (b_bcast), not a tile
/// gathered a burst per element.
bool rowConstant(const EwAccess &a) { return a.strides.empty() || a.strides.back() == 0; }

/// Whether a binary op's lowering reads its operands the other way round: a
/// row-constant left operand of a commutative function moves to the right.
bool swapsOperands(Operation *op, ArrayRef<int64_t> shape) {
  std::optional<VBinFunc> func = binaryFunction(op);
  bool commutative = func == VBinFunc::ADD || func == VBinFunc::MUL || func == VBinFunc::MAX ||
                     func == VBinFunc::MIN;
  return commutative && rowConstant(broadcastAccess(op->getOperand(0), shape)) &&
         !rowConstant(broadcastAccess(op->getOperand(1), shape));
}

/// Whether a binary op on i8, ui8 or i16 computes in i32 and wraps to the
/// width (ONNX's modular integers): ADD, SUB, MUL and DIV.
bool wrapsNarrow(Operation *op) {
  std::optional<VBinFunc> func = binaryFunction(op);
  auto narrow = dyn_cast<IntegerType>(storageOf(tensorOf(op->getResult(0)).getElementType()));
  bool quantized = bool(quantOf(tensorOf(op->getResult(0)).getElementType()));
  return !quantized && narrow && narrow.getWidth() < 32 && func != VBinFunc::MAX &&
         func != VBinFunc::MIN && func != VBinFunc::SHL && func != VBinFunc::SRA;
}

/// The name of a binary op's function in diagnostics.
std::string binaryFunctionName(std::optional<VBinFunc> func) {
  return func ? stringifyVBinFunc(*func).str() : "PRELU";
}
} // namespace

const CaseSpace &lowering::binarySpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    const std::vector<std::string> both = opNames<qk::BinaryOp, qk::PReluOp>();
    const ct::List unsignedInts = {"ui8", "ui16", "ui32"};
    s.signatures = {{"T,T->T", {{"T", ct::kFloat}}, both},
                    {"T,T->T", {{"T", ct::kInt}}, both},
                    {"A,B->C", {{"A", ct::kQuant}, {"B", ct::kQuant}, {"C", ct::kQuant}}, both},
                    {"i1,i1->i1", {}, opNames<qk::BinaryOp>()}};
    s.properties = {kBinaryFn.declare(cond::op(opNames<qk::BinaryOp>())), kBroadcast.declare()};
    using F = qk::BinaryFn;
    auto logical = kBinaryFn({F::AND, F::OR, F::XOR});
    auto quantized = cond::any({cond::operand(0, ct::kQuant), cond::operand(1, ct::kQuant),
                                cond::result(0, ct::kQuant)});
    s.rules = {
        // ONNX's And, Or and Xor are of bools, BitwiseAnd, BitwiseOr and
        // BitwiseXor of integers, its other functions of numbers.
        never(cond::all({logical, cond::any({cond::operand(0, ct::kFloat), quantized})}),
              "And, Or and Xor are of bools and integers"),
        never(cond::all({cond::operand(0, ct::kBool), cond::negate(logical)}),
              "bools have only the logical functions"),
        refused(cond::all({cond::op(opNames<qk::PReluOp>()), cond::operand(0, ct::concat({{"f16"}, ct::kInt}))}),
                "PRelu lowers for f32 and per-tensor quantized operands"),
        refused(cond::all({kBinaryFn({F::DIV}), cond::operand(0, ct::concat({{"f16"}, ct::kQuant}))}),
                "division lowers for f32 and integers stored as i32"),
        refused(cond::all({kBinaryFn({F::ADD, F::SUB, F::MUL, F::SHL}), cond::operand(0, {"ui32"})}),
                "uint32 results leave the int32 they are stored as"),
        refused(cond::all({kBinaryFn({F::MUL}), cond::operand(0, {"ui16"})}),
                "a uint16 product leaves the int32 it is stored as"),
        // graph-fuse-qdq quantizes Add, Sub and Mul (isFusable); the
        // other functions and PRelu stay f32 between DequantizeLinear and
        // QuantizeLinear.
        never(cond::all({quantized, cond::any({cond::op(opNames<qk::PReluOp>()),
                                               kBinaryFn({F::DIV, F::MAX, F::MIN, F::SHL, F::SRA})})}),
              "the op stays f32 between DequantizeLinear and QuantizeLinear"),
        never(cond::all({kBinaryFn({F::SHL, F::SRA}), cond::negate(cond::operand(0, unsignedInts))}),
              "BitShift is of unsigned integers")};
    return s;
  }();
  return space;
}

/// f32, or per-tensor quantized operands and result computed on their exact
/// dequantized values; broadcasting operands read with zero strides (L5).
LogicalResult lowering::selectBinary(LoweringCase &c, const target::TargetInfo &t) {
  Operation *op = c.op;
  if (auto k = llvm::dyn_cast<qk::BinaryOp>(op)) {
    c.choose(kBinaryFn, k.getFn());
    if (isLogical(k))
      return selectLogic(c, t);
  }
  Value lhs = op->getOperand(0), rhs = op->getOperand(1), res = op->getResult(0);
  auto ql = quantOf(tensorOf(lhs).getElementType()), qr = quantOf(tensorOf(rhs).getElementType());
  auto qy = quantOf(tensorOf(res).getElementType());
  bool quantized = ql || qr || qy;
  if (quantized && (!ql || !qr || !qy || ql->axis >= 0 || qr->axis >= 0 || qy->axis >= 0))
    return op->emitOpError("quantized elementwise ops need per-tensor quantized operands and result");
  Type fl = tensorOf(lhs).getElementType();
  std::optional<VBinFunc> func = binaryFunction(op);
  std::string name = binaryFunctionName(func);
  // Plain integers: stored as i32 (int32, int64, uint16, uint32), VECTOR's
  // integer functions (docs/numerics.md: exact, then saturated to int32;
  // division truncates toward zero); narrower ones in i32, wrapped to their
  // width as ONNX does.
  Type st = storageOf(fl);
  bool integer = !quantized && llvm::isa<IntegerType>(fl) && !fl.isInteger(1) &&
                 fl == tensorOf(rhs).getElementType() && isModelStorage(st) && func;
  // uint32 values above 2^31 - 1 have no int32 storage, so its ADD, SUB and
  // MUL (which wrap into them) have no lowering; nor has uint16's MUL
  // (a product beyond int32). uint16 ADD and SUB wrap like the narrow types.
  if (integer && func != VBinFunc::MAX && func != VBinFunc::MIN && func != VBinFunc::DIV &&
      func != VBinFunc::SRA &&
      (fl.isUnsignedInteger(32) || (fl.isUnsignedInteger(16) && func == VBinFunc::MUL)))
    return op->emitOpError() << "elementwise " << name << " on " << fl
                             << " has no NPU lowering (its results leave the int32 it is stored as)";
  if ((func == VBinFunc::SHL || func == VBinFunc::SRA) && (!integer || !fl.isUnsignedInteger()))
    return op->emitOpError() << "bit shift of " << fl
                             << " has no NPU lowering (unsigned integers of up to 32 bits)";
  if (func == VBinFunc::DIV && !tensorOf(res).getElementType().isF32() && !integer)
    return op->emitOpError() << "division of " << fl
                             << " has no NPU lowering yet (f32, or integers stored as i32)";
  if (!quantized && !fl.isF32() && !(fl.isF16() && func) && !integer)
    return op->emitOpError() << "elementwise " << name << " on " << fl
                             << " has no NPU lowering yet (f32, f16, per-tensor quantized, or "
                                "integers of up to 32 bits)";
  ArrayRef<int64_t> shape = tensorOf(res).getShape();
  c.flag(kBroadcast, tensorOf(lhs).getShape() != shape || tensorOf(rhs).getShape() != shape);
  return success();
}

/// One nest over the result; a row-constant operand loads per row, on the
/// right (swapsOperands).
LogicalResult lowering::planBinary(const LoweringCase &c, const target::TargetInfo &t,
                                   IterationSpaces &s) {
  Operation *op = c.op;
  if (auto k = llvm::dyn_cast<qk::BinaryOp>(op); k && isLogical(k))
    return planLogic(c, t, s);
  Value res = op->getResult(0);
  ArrayRef<int64_t> shape = tensorOf(res).getShape();
  std::vector<EwAccess> ins{broadcastAccess(op->getOperand(0), shape),
                            broadcastAccess(op->getOperand(1), shape)};
  if (swapsOperands(op, shape))
    std::swap(ins[0], ins[1]);
  if (rowConstant(ins[1]) && !rowConstant(ins[0]))
    ins[1].perRow = true;
  bool prelu = !binaryFunction(op), wrap = wrapsNarrow(op);
  bool quantized = bool(quantOf(tensorOf(res).getElementType()));
  EwWork work{(prelu ? 3 : 2) * 4 + 3 + (wrap ? 8 : 0),
              (prelu ? 4 : 1) + (quantized ? 3 : 0) + (wrap ? 5 : 0)};
  return addNest(op, s, shape, std::move(ins), denseAccess(res), work);
}

LogicalResult BinaryPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  Operation *op = c.op;
  if (auto k = llvm::dyn_cast<qk::BinaryOp>(op); k && isLogical(k))
    return lowerLogic(c, planned);
  Value lhs = op->getOperand(0), rhs = op->getOperand(1), res = op->getResult(0);
  ArrayRef<int64_t> shape = tensorOf(res).getShape();
  auto ql = quantOf(tensorOf(lhs).getElementType()), qr = quantOf(tensorOf(rhs).getElementType());
  auto qy = quantOf(tensorOf(res).getElementType());
  bool quantized = bool(qy);
  SmallVector<Value> ins{gmOf(lhs), gmOf(rhs)};
  Value out = resultBuffer(res);
  Type st = cast<BufferType>(out.getType()).getElementType();
  std::optional<VBinFunc> func = binaryFunction(op);
  bool prelu = !func;
  if (swapsOperands(op, shape)) {
    std::swap(ins[0], ins[1]);
    std::swap(ql, qr);
  }
  // a = func(a, b) in f32.
  auto apply = [&](EwTiles &tl, Value a, Value bv) {
    if (!prelu) {
      e.vbin(*func, a, bv, a);
      return;
    }
    // PRelu: slope * min(a, 0) + max(a, 0). Exact where ONNX's select is:
    // a - max(a, 0) is a or 0 exactly, and adding 0 changes nothing.
    Value pos = e.tile(MemorySpace::LM, tl.rows, tl.cols, b.getF32Type());
    e.vun(VUnFunc::RELU, a, pos);
    e.vbin(VBinFunc::SUB, a, pos, a);
    e.vbin(VBinFunc::MUL, a, bv, a);
    e.vbin(VBinFunc::ADD, a, pos, a);
  };
  // i8, ui8 and i16 ADD, SUB, MUL, DIV: in i32 (exact for two such values),
  // then wrapped to the width (ONNX's modular integers) and stored back.
  auto narrow = dyn_cast<IntegerType>(st);
  Type element = tensorOf(res).getElementType();
  bool shift = func == VBinFunc::SHL || func == VBinFunc::SRA;
  bool wrap = wrapsNarrow(op);
  // uint16, stored as i32: ADD and SUB wrap to 16 bits in place.
  bool wrap16 = !quantized && element.isUnsignedInteger(16) && (func == VBinFunc::ADD || func == VBinFunc::SUB);
  return elementwise(op, planned.nests[0], ins, out, [&](EwTiles &tl) {
    if (shift) {
      shiftUnsigned(tl, *func, cast<IntegerType>(element).getWidth());
      return;
    }
    if (wrap16) {
      e.vbin(*func, tl.in[0], tl.in[1], tl.in[0]);
      int64_t mask = std::numeric_limits<uint16_t>::max();
      e.vbini(VBinFunc::AND, tl.in[0], b.getIntegerAttr(b.getIntegerType(32), mask), tl.in[0]);
      tl.out = tl.in[0];
      return;
    }
    if (wrap) {
      Type i32 = b.getIntegerType(32);
      auto widened = [&](Value v) {
        ArrayRef<int64_t> s = cast<BufferType>(v.getType()).getShape();
        Value w = e.tile(MemorySpace::LM, s[0], s[1], i32);
        e.cast(v, w);
        return w;
      };
      Value a = widened(tl.in[0]), bv = widened(tl.in[1]);
      e.vbin(*func, a, bv, a);
      int64_t width = narrow.getWidth(), half = int64_t(1) << (width - 1);
      auto imm = [&](int64_t v) { return b.getIntegerAttr(i32, v); };
      if (!narrow.isUnsigned())
        e.vbini(VBinFunc::ADD, a, imm(half), a);
      e.vbini(VBinFunc::AND, a, imm((int64_t(1) << width) - 1), a);
      if (!narrow.isUnsigned())
        e.vbini(VBinFunc::SUB, a, imm(half), a);
      e.cast(a, tl.in[0]);
      tl.out = tl.in[0];
      return;
    }
    if (!quantized) {
      apply(tl, tl.in[0], tl.in[1]);
      tl.out = tl.in[0];
      return;
    }
    // Exact float path: dequantize both (exact in f32), one f32 operation,
    // quantize with round half to even. Error <= 0.5 step plus one f32
    // rounding of the operation (docs/numerics.md).
    Value fa = toF32(tl.in[0], ql), fb = toF32(tl.in[1], qr);
    apply(tl, fa, fb);
    tl.out = fromF32(fa, qy, st);
  });
}

/// BitShift of unsigned integers of `width` bits (docs/numerics.md), in
/// i32: the amount is first clamped to the width (a shift by the width or
/// more gives 0). VECTOR's SHL saturates, so a left shift moves at most 8
/// bits at a time (a value below 2^16 times 2^8 fits int32) and is wrapped
/// to the width after each step; SRA of a non-negative value is exact.
void BinaryPattern::shiftUnsigned(EwTiles &tl, VBinFunc func, unsigned width) {
  Type i32 = b.getIntegerType(32);
  auto imm = [&](int64_t v) { return b.getIntegerAttr(i32, v); };
  auto widened = [&](Value v) {
    auto bt = cast<BufferType>(v.getType());
    if (bt.getElementType() == i32)
      return v;
    Value w = e.tile(MemorySpace::LM, bt.getShape()[0], bt.getShape()[1], i32);
    e.cast(v, w);
    return w;
  };
  Value a = widened(tl.in[0]), amount = widened(tl.in[1]);
  e.vbini(VBinFunc::MIN, amount, imm(width), amount);
  if (func == VBinFunc::SRA) {
    e.vbin(VBinFunc::SRA, a, amount, a);
  } else {
    int64_t mask = (int64_t(1) << width) - 1;
    auto shape = cast<BufferType>(amount.getType()).getShape();
    Value step = e.tile(MemorySpace::LM, shape[0], shape[1], i32);
    for (unsigned done = 0; done < width; done += 8) {
      e.vbini(VBinFunc::MIN, amount, imm(8), step);
      e.vbin(VBinFunc::SHL, a, step, a);
      e.vbini(VBinFunc::AND, a, imm(mask), a);
      if (done + 8 < width)
        e.vbin(VBinFunc::SUB, amount, step, amount);
    }
  }
  if (a != tl.in[0])
    e.cast(a, tl.in[0]);
  tl.out = tl.in[0];
}

//===----------------------------------------------------------------------===//
// BatchNormalization and the channel-affine (not folded into a convolution)
//===----------------------------------------------------------------------===//

const CaseSpace &lowering::channelParamsSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"f32,f32,f32,f32,f32->f32", {}, opNames<qk::BatchNormOp>()},
                    {"f32,f32,f32->f32", {}, opNames<qk::ChannelAffineOp>()}};
    s.properties = {kParamsPerRow.declare()};
    return s;
  }();
  return space;
}

/// BatchNormalization and channel-affine (qk.batch_norm, qk.channel_affine): f32 tensors of rank >= 2
/// whose parameters hold one value per channel (axis 1).
LogicalResult lowering::selectChannelParams(LoweringCase &c, const target::TargetInfo &) {
  auto xt = tensorOf(c.op->getOperand(0));
  if (!xt.getElementType().isF32() || xt.getRank() < 2)
    return c.op->emitOpError() << c.op->getName().stripDialect()
                               << " lowers for f32 tensors of rank >= 2, got " << xt;
  // The per-channel parameters load as one value per row when a spatial
  // dimension follows the channels, at the tile's size otherwise ([N, C, 1, 1]).
  c.flag(kParamsPerRow, paramsPerRow(xt.getShape(), 1));
  return success();
}

/// One nest over x; each per-channel parameter (axis 1) broadcast along
/// every other axis by zero strides (never materialized at the tensor's size
/// in GM, contract N7). BatchNorm's body: 6 passes; the channel-affine's: 2.
LogicalResult lowering::planChannelParams(const LoweringCase &c, const target::TargetInfo &,
                                          IterationSpaces &s) {
  Value x = c.op->getOperand(0);
  ArrayRef<int64_t> shape = tensorOf(x).getShape();
  std::vector<EwAccess> ins{broadcastAccess(x, shape)};
  for (size_t k = 1; k < c.op->getNumOperands(); ++k)
    ins.push_back(axisAccess(shape.size(), 1, c.is(kParamsPerRow)));
  bool bn = llvm::isa<qk::BatchNormOp>(c.op);
  return addNest(c.op, s, shape, std::move(ins), denseAccess(c.op->getResult(0)),
                 bn ? EwWork{24, 6} : EwWork{16, 2});
}

/// ONNX's inference form, step by step in f32: scale * (x - mean) /
/// sqrt(var + epsilon) + bias.
LogicalResult BatchNormPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto bn = cast<qk::BatchNormOp>(c.op);
  SmallVector<Value> ins{gmOf(bn.getX()), gmOf(bn.getScale()), gmOf(bn.getBias()),
                         gmOf(bn.getMean()), gmOf(bn.getVar())};
  float eps = float(bn.getEpsilonAttr().getValueAsDouble());
  return elementwise(c.op, planned.nests[0], ins, resultBuffer(bn.getResult()), [&](EwTiles &tl) {
    Value x = tl.in[0], var = tl.in[4];
    e.vbin(VBinFunc::SUB, x, tl.in[3], x);
    e.vbin(VBinFunc::MUL, x, tl.in[1], x);  // IEEE products commute
    e.vbini(VBinFunc::ADD, var, b.getF32FloatAttr(eps), var);
    e.vun(VUnFunc::SQRT, var, var);
    e.vbin(VBinFunc::DIV, x, var, x);
    e.vbin(VBinFunc::ADD, x, tl.in[2], x);
  });
}

/// x * scale, rounded to f32, + bias, rounded to f32: the Mul and Add it
/// replaces, in one pass.
LogicalResult ChannelAffinePattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::ChannelAffineOp>(c.op);
  SmallVector<Value> ins{gmOf(op.getX()), gmOf(op.getScale()), gmOf(op.getBias())};
  return elementwise(c.op, planned.nests[0], ins, resultBuffer(op.getResult()), [&](EwTiles &tl) {
    e.vbin(VBinFunc::MUL, tl.in[0], tl.in[1], tl.in[0]);
    e.vbin(VBinFunc::ADD, tl.in[0], tl.in[2], tl.in[0]);
  });
}
