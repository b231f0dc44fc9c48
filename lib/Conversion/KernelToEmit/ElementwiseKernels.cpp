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

#include "KernelLowering.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

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

FailureOr<ElementwiseTiling> KernelLowering::nestTiling(Operation *op, const ElementwiseProblem &p) {
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

FailureOr<std::optional<ElementwiseTiling>> KernelLowering::tileNest(Operation *op,
                                                                    const ElementwiseProblem &p) {
  if (described) {
    described->push_back({op, p});
    return std::optional<ElementwiseTiling>();
  }
  FailureOr<ElementwiseTiling> chosen = nestTiling(op, p);
  if (failed(chosen))
    return failure();
  return std::optional<ElementwiseTiling>(*chosen);
}

LogicalResult KernelLowering::rowLoops(
    Operation *op, const ElementwiseProblem &p,
    const std::function<void(int64_t rows, const Offset &first)> &body) {
  FailureOr<std::optional<ElementwiseTiling>> tiled = tileNest(op, p);
  if (failed(tiled) || !*tiled)
    return failed(tiled) ? failure() : success();  // describing: nothing to emit
  const ElementwiseTiling *chosen = &**tiled;
  for (auto [size, count, first] : tileParts(p.shape[2], chosen->tile[2])) {
    int64_t buffers = count > 1 ? chosen->buffers : 1;
    e.beginLoop({count}, buffers, buffers > 1);
    body(size, first + e.coordinate(0) * size);
    e.endLoop();
  }
  return success();
}

LogicalResult KernelLowering::columnLoops(
    Operation *op, const ElementwiseProblem &p,
    const std::function<void(int64_t cols, const Offset &block, const Offset &first)> &body) {
  FailureOr<std::optional<ElementwiseTiling>> tiled = tileNest(op, p);
  if (failed(tiled) || !*tiled)
    return failed(tiled) ? failure() : success();  // describing: nothing to emit
  const ElementwiseTiling *chosen = &**tiled;
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

LogicalResult KernelLowering::elementwise(Operation *op, ArrayRef<int64_t> shapeIn,
                                          ArrayRef<EwOperand> insIn, Value out, EwWork work,
                                          const std::function<void(EwTiles &)> &body) {
  // The canonical 4-D iteration space (ElementwiseTiling.h).
  auto outType = cast<BufferType>(out.getType());
  std::vector<EwAccess> accesses;
  for (const EwOperand &o : insIn)
    accesses.push_back({std::vector<int64_t>(o.strides.begin(), o.strides.end()),
                        cast<BufferType>(o.gm.getType()).getElementBytes(), o.perRow});
  EwAccess outAccess{std::vector<int64_t>(outType.getStrides().begin(), outType.getStrides().end()),
                     outType.getElementBytes(), false};
  ElementwiseProblem nest;
  if (std::optional<std::string> why =
          canonicalize(std::vector<int64_t>(shapeIn.begin(), shapeIn.end()), accesses, outAccess,
                       work, nest))
    return op->emitOpError() << *why;
  // An empty tensor moves nothing.
  if (nest.empty())
    return success();
  FailureOr<std::optional<ElementwiseTiling>> tiled = tileNest(op, nest);
  if (failed(tiled) || !*tiled)
    return failed(tiled) ? failure() : success();  // describing: nothing to emit
  const ElementwiseTiling *chosen = &**tiled;
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
    for (auto [k, o] : llvm::enumerate(insIn)) {
      auto bt = cast<BufferType>(o.gm.getType());
      if (nest.ins[k].perRow) {
        int64_t es = bt.getElementBytes();
        Value col = e.alloc(MemorySpace::LM, {tl.rows, 1}, bt.getElementType(), {va, es});
        SmallVector<int64_t> rowBox{c0, c1, c2, 1};
        Value to = e.view(col, 0, rowBox, {c1 * c2 * va, c2 * va, va, es});
        e.dma(e.view(o.gm, at(strides[k], 3), rowBox, strides[k]), to);
        tl.in.push_back(col);
        continue;
      }
      Value tileV = e.tile(MemorySpace::LM, tl.rows, tl.cols, bt.getElementType());
      Value to = localBox(tileV);
      e.dma(gmBox(o.gm, strides[k]), to);
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

Value KernelLowering::toF32(Value tile, const std::optional<Quant> &q) {
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

Value KernelLowering::fromF32(Value f, const std::optional<Quant> &q, Type storage) {
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

/// AND, OR and XOR: the logic of bools (LogicKernels.cpp).
bool isLogical(qk::BinaryOp op) {
  qk::BinaryFn fn = op.getFn();
  return fn == qk::BinaryFn::AND || fn == qk::BinaryFn::OR || fn == qk::BinaryFn::XOR;
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
        // ONNX's And, Or and Xor are of bools, its other functions of numbers.
        never(cond::all({logical, cond::negate(cond::operand(0, ct::kBool))}),
              "And, Or and Xor are of bools"),
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

LogicalResult KernelLowering::lowerBinary(const LoweringCase &c) {
  Operation *op = c.op;
  if (auto k = llvm::dyn_cast<qk::BinaryOp>(op); k && isLogical(k))
    return lowerLogic(c);
  Value lhs = op->getOperand(0), rhs = op->getOperand(1), res = op->getResult(0);
  ArrayRef<int64_t> shape = tensorOf(res).getShape();
  auto ql = quantOf(tensorOf(lhs).getElementType()), qr = quantOf(tensorOf(rhs).getElementType());
  auto qy = quantOf(tensorOf(res).getElementType());
  bool quantized = bool(qy);
  SmallVector<EwOperand> ins{broadcastOperand(lhs, shape), broadcastOperand(rhs, shape)};
  Value out = resultBuffer(res);
  Type st = cast<BufferType>(out.getType()).getElementType();
  std::optional<VBinFunc> func = binaryFunction(op);
  bool prelu = !func;
  // An operand constant along the innermost dimension (a scalar, or a
  // per-channel [1, C, 1, 1] scale or bias broadcast over H x W) is one value
  // per tile row, broadcast by VECTOR (b_bcast), not a tile gathered a burst
  // per element; on the left of a commutative function it moves to the right
  // first.
  auto rowConstant = [](const EwOperand &o) { return o.strides.empty() || o.strides.back() == 0; };
  bool commutative = func == VBinFunc::ADD || func == VBinFunc::MUL || func == VBinFunc::MAX ||
                     func == VBinFunc::MIN;
  if (rowConstant(ins[0]) && !rowConstant(ins[1]) && commutative) {
    std::swap(ins[0], ins[1]);
    std::swap(ql, qr);
  }
  if (rowConstant(ins[1]) && !rowConstant(ins[0]))
    ins[1].perRow = true;
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
  bool wrap = !quantized && narrow && narrow.getWidth() < 32 && func != VBinFunc::MAX &&
              func != VBinFunc::MIN && !shift;
  // uint16, stored as i32: ADD and SUB wrap to 16 bits in place.
  bool wrap16 = !quantized && element.isUnsignedInteger(16) && (func == VBinFunc::ADD || func == VBinFunc::SUB);
  EwWork work{(prelu ? 3 : 2) * 4 + 3 + (wrap ? 8 : 0),
              (prelu ? 4 : 1) + (quantized ? 3 : 0) + (wrap ? 5 : 0)};
  return elementwise(op, shape, ins, out, work, [&](EwTiles &tl) {
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
void KernelLowering::shiftUnsigned(EwTiles &tl, VBinFunc func, unsigned width) {
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

/// A per-channel parameter of an op whose operand 0 has `shape`: broadcast
/// along every axis but 1 by zero strides (never materialized at the
/// tensor's size in GM, contract N7).
EwOperand KernelLowering::perChannelOperand(const LoweringCase &c, Value v, ArrayRef<int64_t> shape) {
  EwOperand o{gmOf(v), SmallVector<int64_t, 4>(shape.size(), 0), c.is(kParamsPerRow)};
  o.strides[1] = 4;
  return o;
}

/// ONNX's inference form, step by step in f32: scale * (x - mean) /
/// sqrt(var + epsilon) + bias.
LogicalResult KernelLowering::lowerBatchNorm(const LoweringCase &c) {
  auto bn = cast<qk::BatchNormOp>(c.op);
  ArrayRef<int64_t> shape = tensorOf(bn.getX()).getShape();
  SmallVector<EwOperand> ins{broadcastOperand(bn.getX(), shape), perChannelOperand(c, bn.getScale(), shape),
                             perChannelOperand(c, bn.getBias(), shape),
                             perChannelOperand(c, bn.getMean(), shape),
                             perChannelOperand(c, bn.getVar(), shape)};
  float eps = float(bn.getEpsilonAttr().getValueAsDouble());
  return elementwise(c.op, shape, ins, resultBuffer(bn.getResult()), {24, 6}, [&](EwTiles &tl) {
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
LogicalResult KernelLowering::lowerChannelAffine(const LoweringCase &c) {
  auto op = cast<qk::ChannelAffineOp>(c.op);
  ArrayRef<int64_t> shape = tensorOf(op.getX()).getShape();
  SmallVector<EwOperand> ins{broadcastOperand(op.getX(), shape), perChannelOperand(c, op.getScale(), shape),
                             perChannelOperand(c, op.getBias(), shape)};
  return elementwise(c.op, shape, ins, resultBuffer(op.getResult()), {16, 2}, [&](EwTiles &tl) {
    e.vbin(VBinFunc::MUL, tl.in[0], tl.in[1], tl.in[0]);
    e.vbin(VBinFunc::ADD, tl.in[0], tl.in[2], tl.in[0]);
  });
}
