//===- EmitOps.cpp - Verifiers of engine operations -----------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Dialect/Emit/IR/EmitISA.h"
#include "npuc/Base/ISA.h"
#include "npuc/Base/Target.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallSet.h"

namespace {
// Field limits from ISA.td (npuc-tblgen), never retyped here.
constexpr int64_t kPadMax = npuc::isa::limit::DMA_IN_PAD::lo0_max;
constexpr int64_t kMatrixExtentMax = npuc::isa::limit::MATMUL::m_max;
static_assert(kMatrixExtentMax == npuc::isa::limit::MATMUL::n_max &&
                  kMatrixExtentMax == npuc::isa::limit::MATMUL::k_max,
              "the verifier assumes one MATRIX extent limit");
static_assert(npuc::isa::limit::MM_CFG::a_zp_min == npuc::isa::limit::MM_CFG::b_zp_min &&
                  npuc::isa::limit::MM_CFG::a_zp_max == npuc::isa::limit::MM_CFG::b_zp_max,
              "the verifier assumes one zero-point range");
} // namespace

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

namespace {
LogicalResult verifyVectorOperands(Operation *op, std::initializer_list<Value> values);
BufferType bufferOf(Value v) { return cast<BufferType>(v.getType()); }
bool isLocalCompute(MemorySpace s) { return s == MemorySpace::LM || s == MemorySpace::ACC; }

/// What a local address field can name (ISA.td: 16-bit fields of granules).
constexpr int64_t kLocalGranule = isa::kGranuleBytes;
constexpr int64_t kEncodableLocalBytes = (isa::limit::MATMUL::a_addr_max + 1) * kLocalGranule;

/// offset + span > limit, without overflow (offset and span are >= 0).
bool exceeds(int64_t offset, int64_t span, int64_t limit) {
  return offset > limit || span > limit - offset;
}

std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

/// The operands of a two-input VECTOR op (vbin, vcmp, vsel): a of d's
/// shape, `bname` broadcasting to it along either dimension (stride 0).
LogicalResult verifyBroadcastOperands(Operation *op, BufferType a, BufferType b, BufferType d,
                                      const char *bname = "b") {
  if (a.getShape() != d.getShape())
    return op->emitOpError() << "a is " << shapeStr(a.getShape()) << " but d is "
                             << shapeStr(d.getShape());
  for (int i = 0; i < 2; ++i)
    if (b.getShape()[i] != 1 && b.getShape()[i] != d.getShape()[i])
      return op->emitOpError() << bname << " of shape " << shapeStr(b.getShape())
                               << " does not broadcast to " << shapeStr(d.getShape());
  return success();
}
} // namespace

LogicalResult ProgramOp::verify() {
  const target::TargetInfo *t = target::lookupTarget(getTarget());
  if (!t)
    return emitOpError("unknown target '") << getTarget() << "'; valid targets: "
                                           << target::targetNames();
  return success();
}

LogicalResult ProgramOp::verifyRegions() {
  // Capacity (what the target has) is checked here, after every alloc has
  // passed its own encodability check.
  const target::TargetInfo *t = target::lookupTarget(getTarget());
  WalkResult result = getBody().walk([&](AllocOp alloc) {
    BufferType type = alloc.getBuffer().getType();
    std::optional<int64_t> offset = alloc.getOffset();
    int64_t capacity = type.getSpace() == MemorySpace::LM    ? t->params.LMBytes
                       : type.getSpace() == MemorySpace::ACC ? t->params.ACCBytes
                       : type.getSpace() == MemorySpace::LUT
                           ? t->params.LUTTables * t->params.LUTEntries * 2
                           : -1;
    if (!offset || capacity < 0 || !exceeds(*offset, type.getSpanBytes(), capacity))
      return WalkResult::advance();
    alloc.emitOpError() << "buffer at offset " << *offset << " spanning " << type.getSpanBytes()
                        << " bytes exceeds the " << stringifyMemorySpace(type.getSpace())
                        << " capacity of " << t->name << " (" << capacity << " bytes)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

LogicalResult AllocOp::verify() {
  std::optional<int64_t> offset = getOffset();
  if (!offset)
    return success();
  BufferType type = getBuffer().getType();
  if (*offset < 0)
    return emitOpError() << "offset " << *offset << " is negative";
  if (type.isGlobal())
    return success();
  if (*offset % kLocalGranule != 0)
    return emitOpError() << stringifyMemorySpace(type.getSpace()) << " offset " << *offset
                         << " is not a multiple of the " << kLocalGranule << "-byte granule";
  if (exceeds(*offset, type.getSpanBytes(), kEncodableLocalBytes))
    return emitOpError() << "buffer at offset " << *offset << " spanning " << type.getSpanBytes()
                         << " bytes exceeds the encodable local address range ("
                         << kEncodableLocalBytes << " bytes)";
  return success();
}

Engine DmaOp::getEngine() {
  return bufferOf(getSrc()).isGlobal() ? Engine::DMA_IN : Engine::DMA_OUT;
}

LogicalResult DmaOp::verify() {
  BufferType src = bufferOf(getSrc()), dst = bufferOf(getDst());
  bool in = src.isGlobal() && !dst.isGlobal();
  bool out = !src.isGlobal() && dst.isGlobal() && isLocalCompute(src.getSpace());
  if (!in && !out)
    return emitOpError() << "cannot move " << stringifyMemorySpace(src.getSpace()) << " -> "
                         << stringifyMemorySpace(dst.getSpace())
                         << ": DMA_IN copies GM to lm/acc/lut, DMA_OUT lm/acc to GM";
  if (src.getElementType() != dst.getElementType())
    return emitOpError() << "element types differ: " << src.getElementType() << " -> "
                         << dst.getElementType();
  size_t rank = src.getShape().size();
  if (rank > 4 || dst.getShape().size() != rank)
    return emitOpError() << "needs equal ranks of at most 4, got " << rank << " -> "
                         << dst.getShape().size();
  if ((getPadLo() || getPadHi() || getFill()) && !in)
    return emitOpError("padding is a DMA_IN feature");
  SmallVector<int64_t> lo(rank, 0), hi(rank, 0);
  if (getPadLo() || getPadHi()) {
    if (!getPadLo() || !getPadHi() || getPadLo()->size() != rank || getPadHi()->size() != rank)
      return emitOpError() << "pad_lo and pad_hi need " << rank << " entries each";
    lo.assign(getPadLo()->begin(), getPadLo()->end());
    hi.assign(getPadHi()->begin(), getPadHi()->end());
  }
  for (size_t i = 0; i < rank; ++i) {
    if (lo[i] < 0 || hi[i] < 0 || lo[i] > kPadMax || hi[i] > kPadMax)
      return emitOpError() << "pads of dimension " << i << " (" << lo[i] << ", " << hi[i]
                           << ") are outside [0, " << kPadMax << "]";
    if (dst.getShape()[i] != src.getShape()[i] + lo[i] + hi[i])
      return emitOpError() << "destination shape " << shapeStr(dst.getShape())
                           << " is not the source shape " << shapeStr(src.getShape())
                           << " plus its pads";
  }
  return success();
}

/// The operands of an indexed DMA: a GM table, an lm index list and the lm
/// rows [n, box...] (`rows`), the table's rows bounding the indices.
static LogicalResult verifyIndexed(Operation *op, BufferType table, BufferType ids, BufferType rows,
                                   StringRef what) {
  if (!table.isGlobal() || ids.getSpace() != MemorySpace::LM || rows.getSpace() != MemorySpace::LM)
    return op->emitOpError() << what;
  if (!ids.getElementType().isInteger(32) || ids.getShape().size() != 1 ||
      (ids.getShape()[0] > 1 && ids.getStrides()[0] != 4))
    return op->emitOpError() << "indices must be contiguous i32 [n], got " << ids;
  if (table.getElementType() != rows.getElementType())
    return op->emitOpError() << "element types differ: " << table.getElementType() << " and "
                             << rows.getElementType();
  size_t rank = table.getShape().size();
  if (rank < 1 || rank > 4 || rows.getShape().size() != rank)
    return op->emitOpError() << "needs a table and lm rows of one rank from 1 to 4, got " << rank << " and "
                             << rows.getShape().size();
  if (rows.getShape()[0] != ids.getShape()[0] || rows.getShape().drop_front() != table.getShape().drop_front())
    return op->emitOpError() << "lm rows " << shapeStr(rows.getShape()) << " are not [" << ids.getShape()[0]
                             << "] followed by the table's row box " << shapeStr(table.getShape().drop_front());
  return success();
}

LogicalResult GatherOp::verify() {
  return verifyIndexed(*this, bufferOf(getTable()), bufferOf(getIndices()), bufferOf(getDst()),
                       "gathers a GM table into lm by an index list in lm");
}

LogicalResult ScatterOp::verify() {
  if (bufferOf(getTable()).getSpace() == MemorySpace::CONST)
    return emitOpError("scatters into const, which is read-only");
  return verifyIndexed(*this, bufferOf(getTable()), bufferOf(getIndices()), bufferOf(getSrc()),
                       "scatters lm rows into a GM table by an index list in lm");
}

LogicalResult MatmulOp::verify() {
  BufferType a = bufferOf(getA()), b = bufferOf(getB()), c = bufferOf(getC());
  if (a.getSpace() != MemorySpace::LM || b.getSpace() != MemorySpace::LM ||
      c.getSpace() != MemorySpace::ACC)
    return emitOpError("expects a and b in lm and c in acc");
  if (a.getShape().size() != 2 || b.getShape().size() != 2 || c.getShape().size() != 2)
    return emitOpError("expects 2-D a, b and c");
  int64_t m = a.getShape()[0], k = a.getShape()[1], n = b.getShape()[1];
  if (b.getShape()[0] != k || c.getShape()[0] != m || c.getShape()[1] != n)
    return emitOpError() << "shapes " << shapeStr(a.getShape()) << " x "
                         << shapeStr(b.getShape()) << " -> " << shapeStr(c.getShape())
                         << " do not form a matrix product";
  for (int64_t e : {m, n, k})
    if (e > kMatrixExtentMax)
      return emitOpError() << "extent " << e << " exceeds the MATRIX extent field (at most "
                           << kMatrixExtentMax << "): tile it";
  // MATRIX reads rows at a pitch, elements contiguous within a row.
  for (BufferType t : {a, b, c})
    if (t.getShape()[1] > 1 && t.getStrides()[1] != t.getElementBytes())
      return emitOpError() << "matrix operand rows must be contiguous: column stride "
                           << t.getStrides()[1] << " is not the element size "
                           << t.getElementBytes();
  Type ta = a.getElementType(), tb = b.getElementType(), tc = c.getElementType();
  bool intMode = ta.isInteger(8) && tb.isInteger(8) && tc.isInteger(32);
  bool floatMode = ta == tb && (ta.isF16() || ta.isF32()) && tc.isF32();
  if (!intMode && !floatMode)
    return emitOpError() << "no MATRIX mode computes " << ta << " x " << tb << " -> " << tc;
  for (int64_t zp : {getAZp(), getBZp()})
    if (zp < isa::limit::MM_CFG::a_zp_min || zp > isa::limit::MM_CFG::a_zp_max ||
        (floatMode && zp != 0))
      return emitOpError() << "zero point " << zp << " is outside ["
                           << isa::limit::MM_CFG::a_zp_min << ", " << isa::limit::MM_CFG::a_zp_max
                           << "] (and must be 0 in float modes)";
  int64_t count = int64_t(getCount());
  if (count < 1 || count > isa::limit::LOOP::count_max)
    return emitOpError() << "count " << count << " is outside [1, " << isa::limit::LOOP::count_max
                         << "] (the loop count field)";
  for (int64_t step : {int64_t(getAStep()), int64_t(getBStep()), int64_t(getCStep())})
    if (step < 0 || step % 64)
      return emitOpError() << "step " << step
                           << " must be a non-negative multiple of 64 (MATRIX operand alignment)";
  return success();
}

LogicalResult DepthwiseOp::verify() {
  bool mac = getFunc() == WindowFunc::MAC;
  if (mac != bool(getB()))
    return emitOpError() << (mac ? "MAC needs taps" : "a pooling function takes no taps");
  if (!mac && (getAZp() || getBZp()))
    return emitOpError("a pooling function reads the image as stored: no zero points");
  if (getMatrix() && (!mac || bufferOf(getD()).getSpace() != MemorySpace::ACC))
    return emitOpError("the array's depthwise mode (matrix) multiplies and accumulates into acc");
  if (getBias() || getRelu()) {
    BufferType dt = bufferOf(getD());
    if (!mac || !dt.getElementType().isF32())
      return emitOpError("a bias or a Relu needs an f32 multiply-accumulate");
    if (getBias()) {
      BufferType bt = bufferOf(getBias());
      if (bt.getSpace() != MemorySpace::LM || !bt.getElementType().isF32() ||
          bt.getShape().size() != 2 || bt.getShape()[1] != 1 ||
          bt.getShape()[0] != dt.getShape()[0])
        return emitOpError() << "bias must be lm [" << dt.getShape()[0] << ", 1] f32, one per channel";
    }
  }
  BufferType a = bufferOf(getA()), d = bufferOf(getD());
  // Pooling has no taps: check the image against itself.
  BufferType b = mac ? bufferOf(getB()) : BufferType();
  if (a.getSpace() != MemorySpace::LM || (mac && b.getSpace() != MemorySpace::LM) ||
      !isLocalCompute(d.getSpace()))
    return emitOpError("expects a and b in lm and d in lm or acc");
  if (a.getShape().size() != 3 || (mac && b.getShape().size() != 2) || d.getShape().size() != 3)
    return emitOpError("expects a [channels, rows, columns] image, [channels, taps] taps and "
                       "[channels, rows, columns] results");
  ArrayRef<int64_t> k = getKernel(), st = getStrides(), dl = getDilations();
  if (k.size() != 2 || st.size() != 2 || dl.size() != 2)
    return emitOpError("expects kernel, strides and dilations of 2 entries each");
  namespace L = isa::limit::V_DW_CFG;
  for (ArrayRef<int64_t> v : {k, st, dl})
    for (int64_t x : v)
      if (x < L::kh_min || x > L::kh_max)
        return emitOpError() << "window size, stride or dilation " << x << " is outside ["
                             << L::kh_min << ", " << L::kh_max << "] (the v_dw_cfg fields)";
  int64_t c = a.getShape()[0], orows = d.getShape()[1], ocols = d.getShape()[2];
  if ((mac && b.getShape()[0] != c) || d.getShape()[0] != c)
    return emitOpError() << "channels differ: image " << c << ", taps "
                         << (mac ? b.getShape()[0] : c) << ", results " << d.getShape()[0];
  if (mac && b.getShape()[1] != k[0] * k[1])
    return emitOpError() << "taps hold " << b.getShape()[1] << " per channel, the " << k[0] << "x"
                         << k[1] << " window needs " << k[0] * k[1];
  int64_t rows = (orows - 1) * st[0] + (k[0] - 1) * dl[0] + 1;
  int64_t cols = (ocols - 1) * st[1] + (k[1] - 1) * dl[1] + 1;
  if (std::optional<ArrayRef<int64_t>> pads = getPads()) {
    namespace W = isa::limit::V_DW_CFG;
    static_assert(W::pt_max == isa::limit::MM_DW_CFG::pt_max &&
                      W::ih_max <= isa::limit::MM_DW_CFG::ih_max,
                  "one feeder: v_dw_cfg's padding fields are the narrower");
    if (!mac || pads->size() != 2 || (*pads)[0] < 0 || (*pads)[0] > W::pt_max ||
        (*pads)[1] < 0 || (*pads)[1] > W::pl_max)
      return emitOpError() << "pads are [top, left] in [0, " << W::pt_max
                           << "] of a multiply-accumulate, padded by the feeder";
    if (a.getShape()[1] > W::ih_max || a.getShape()[2] > W::iw_max)
      return emitOpError() << "an image of " << a.getShape()[1] << "x" << a.getShape()[2]
                           << " exceeds the v_dw_cfg extents (" << W::ih_max << ")";
    // Rows and columns past the image are padding too: nothing to reach.
    rows = cols = 0;
  }
  if (a.getShape()[1] < rows || a.getShape()[2] < cols)
    return emitOpError() << "the image is " << a.getShape()[1] << "x" << a.getShape()[2]
                         << " but " << orows << "x" << ocols << " outputs reach " << rows << "x"
                         << cols;
  if (orows > L::orows_max || a.getStrides()[1] > L::lda_max || a.getStrides()[1] < 0)
    return emitOpError() << orows << " output rows or an image row pitch of " << a.getStrides()[1]
                         << " exceed the v_dw_cfg fields (" << L::orows_max << ", "
                         << L::lda_max << ")";
  Type ta = a.getElementType(), tb = mac ? b.getElementType() : ta, td = d.getElementType();
  bool intMode = ta.isInteger(8) && tb.isInteger(8) && td.isInteger(32);
  bool floatMode = ta == tb && (ta.isF16() || ta.isF32()) && td.isF32();
  if (!intMode && !floatMode)
    return emitOpError() << "no V_DW mode computes " << ta << " x " << tb << " -> " << td;
  if (a.getStrides()[2] != a.getElementBytes() || (mac && b.getStrides()[1] != b.getElementBytes()) ||
      d.getStrides()[2] != 4 || (orows > 1 && d.getStrides()[1] != ocols * 4))
    return emitOpError("expects image rows, taps and each channel's results contiguous");
  for (int64_t zp : {getAZp(), getBZp()})
    if (zp < L::a_zp_min || zp > L::a_zp_max || (floatMode && zp != 0))
      return emitOpError() << "zero point " << zp << " is outside [" << L::a_zp_min << ", "
                           << L::a_zp_max << "] (and must be 0 in float modes)";
  return success();
}

LogicalResult VBinOp::verify() {
  BufferType a = bufferOf(getA()), b = bufferOf(getB()), d = bufferOf(getD());
  if (failed(verifyVectorOperands(*this, {getA(), getB(), getD()})) ||
      failed(verifyBroadcastOperands(*this, a, b, d)))
    return failure();
  if (a.getElementType() != b.getElementType() || a.getElementType() != d.getElementType())
    return emitOpError("expects equal element types");
  return success();
}

LogicalResult FlagOp::verify() {
  // A wait that no earlier signal (in program order, through nested scopes)
  // can satisfy deadlocks the waiting engine. Only the flag's own users are
  // compared, so verifying is linear in the program.
  auto before = [](Operation *a, Operation *b) {
    // Lift both to ancestors in one block, then compare positions there.
    for (Operation *x = a; x; x = x->getParentOp())
      for (Operation *y = b; y; y = y->getParentOp())
        if (x->getBlock() && x->getBlock() == y->getBlock())
          return x != y ? x->isBeforeInBlock(y) : a != b && a->isAncestor(b);
    return false;
  };
  SmallVector<Operation *> signals, waits;
  for (Operation *user : getFlag().getUsers())
    (llvm::isa<SignalOp>(user) ? signals : waits).push_back(user);
  for (Operation *w : waits)
    if (llvm::none_of(signals, [&](Operation *s) { return before(s, w); }))
      return w->emitOpError("waits on a flag that no earlier emit.signal sets (deadlock)");
  return success();
}

LogicalResult BarrierOp::verify() {
  if (getEngines().empty())
    return emitOpError("names no engine");
  llvm::SmallSet<int, 5> seen;
  for (Attribute a : getEngines()) {
    Engine e = cast<EngineAttr>(a).getValue();
    if (e == Engine::SCALAR)
      return emitOpError("cannot wait for the scalar engine itself");
    if (!seen.insert(int(e)).second)
      return emitOpError() << "names " << stringifyEngine(e) << " twice";
  }
  return success();
}

LogicalResult ConstantOp::verify() {
  BufferType type = getBuffer().getType();
  if (type.getSpace() != MemorySpace::CONST)
    return emitOpError() << "constants live in the const region, not "
                         << stringifyMemorySpace(type.getSpace());
  auto value = cast<ShapedType>(getValue().getType());
  if (value.getShape() != type.getShape() || value.getElementType() != type.getElementType())
    return emitOpError() << "value of type " << value << " does not match the buffer's "
                         << shapeStr(type.getShape()) << "x" << type.getElementType();
  int64_t expect = type.getElementBytes();
  for (int64_t i = int64_t(type.getShape().size()) - 1; i >= 0; --i) {
    if (type.getStrides()[i] != expect)
      return emitOpError() << "constant strides must be dense row-major: stride " << i << " is "
                           << type.getStrides()[i] << ", expected " << expect;
    expect *= type.getShape()[i];
  }
  return success();
}

LogicalResult ViewOp::verify() {
  BufferType src = bufferOf(getSource()), dst = bufferOf(getResult());
  if (src.getSpace() != dst.getSpace())
    return emitOpError() << "a view stays in its space: " << stringifyMemorySpace(src.getSpace())
                         << " -> " << stringifyMemorySpace(dst.getSpace());
  int64_t offset = int64_t(getOffset());  // I64Attr getters are unsigned
  if (offset < 0)
    return emitOpError() << "offset " << offset << " is negative";
  if (exceeds(offset, dst.getSpanBytes(), src.getSpanBytes()))
    return emitOpError() << "view at offset " << offset << " spanning " << dst.getSpanBytes()
                         << " bytes leaves its source's " << src.getSpanBytes() << " bytes";
  return success();
}

namespace {
LogicalResult verifyVectorOperands(Operation *op, std::initializer_list<Value> values) {
  for (Value v : values) {
    BufferType t = bufferOf(v);
    if (!isLocalCompute(t.getSpace()) || t.getShape().size() != 2)
      return op->emitOpError("expects 2-D operands in lm or acc");
    if (t.getStrides()[1] != t.getElementBytes() && !(t.getShape()[1] == 1))
      return op->emitOpError() << "vector operands have contiguous rows; column stride "
                               << t.getStrides()[1] << " is not the element size "
                               << t.getElementBytes();
  }
  return success();
}

LogicalResult verifySameGrid(Operation *op, Value a, Value d) {
  if (bufferOf(a).getShape() != bufferOf(d).getShape())
    return op->emitOpError() << "a is " << shapeStr(bufferOf(a).getShape()) << " but d is "
                             << shapeStr(bufferOf(d).getShape());
  return success();
}

} // namespace

LogicalResult VCmpOp::verify() {
  if (getFunc() == CmpFunc::LTU || getFunc() == CmpFunc::GEU)
    return emitOpError() << "v_cmp has no unsigned comparison " << stringifyCmpFunc(getFunc());
  BufferType a = bufferOf(getA()), b = bufferOf(getB()), d = bufferOf(getD());
  if (failed(verifyVectorOperands(*this, {getA(), getB(), getD()})) ||
      failed(verifyBroadcastOperands(*this, a, b, d)))
    return failure();
  if (a.getElementType() != b.getElementType())
    return emitOpError("expects a and b of one element type");
  if (!d.getElementType().isSignlessInteger(8))
    return emitOpError() << "d is " << d.getElementType() << "; v_cmp writes i8";
  return success();
}

LogicalResult VSelOp::verify() {
  BufferType a = bufferOf(getA()), b = bufferOf(getB()), m = bufferOf(getM()),
             d = bufferOf(getD());
  if (failed(verifyVectorOperands(*this, {getA(), getB(), getM(), getD()})))
    return failure();
  if (m.getShape() != d.getShape())
    return emitOpError() << "mask is " << shapeStr(m.getShape()) << " but d is "
                         << shapeStr(d.getShape());
  if (!m.getElementType().isSignlessInteger(8))
    return emitOpError() << "mask is " << m.getElementType() << "; v_sel reads an i8 mask";
  if (m.getShape()[0] > 1 && m.getStrides()[0] != d.getStrides()[0])
    return emitOpError() << "mask row pitch " << m.getStrides()[0] << " differs from d's "
                         << d.getStrides()[0] << "; v_sel reads the mask with d's pitch";
  // a broadcasts too (V_SEL's a_bcast): checked as the broadcast operand.
  if (failed(verifyBroadcastOperands(*this, d, a, d, "a")) ||
      failed(verifyBroadcastOperands(*this, d, b, d)))
    return failure();
  if (a.getElementType() != b.getElementType() || a.getElementType() != d.getElementType())
    return emitOpError("expects equal element types for a, b and d");
  return success();
}

LogicalResult VUnOp::verify() {
  if (failed(verifyVectorOperands(*this, {getA(), getD()})) ||
      failed(verifySameGrid(*this, getA(), getD())))
    return failure();
  if (bufferOf(getA()).getElementType() != bufferOf(getD()).getElementType())
    return emitOpError("expects equal element types");
  return success();
}

LogicalResult VBinImmOp::verify() {
  if (failed(verifyVectorOperands(*this, {getA(), getD()})) ||
      failed(verifySameGrid(*this, getA(), getD())))
    return failure();
  Type t = bufferOf(getA()).getElementType();
  if (t != bufferOf(getD()).getElementType())
    return emitOpError("expects equal element types");
  bool floatImm = llvm::isa<FloatAttr>(getImm());
  if (floatImm != llvm::isa<FloatType>(t) || (!floatImm && !llvm::isa<IntegerAttr>(getImm())))
    return emitOpError() << "immediate " << getImm() << " does not suit elements of " << t;
  return success();
}

LogicalResult CastOp::verify() {
  if (failed(verifyVectorOperands(*this, {getA(), getD()})) ||
      failed(verifySameGrid(*this, getA(), getD())))
    return failure();
  int64_t zp = int64_t(getZp());
  if (!getScale()) {
    if (zp != 0)
      return emitOpError("has a zero point but no scale");
    return success();
  }
  Type ta = bufferOf(getA()).getElementType(), td = bufferOf(getD()).getElementType();
  if (ta.isF32() == td.isF32() || !(ta.isF32() || ta.isInteger()) || !(td.isF32() || td.isInteger()))
    return emitOpError() << "with a scale converts between f32 and an integer type, not " << ta
                         << " -> " << td;
  if (zp < INT16_MIN || zp > INT16_MAX)
    return emitOpError() << "zero point " << zp << " does not fit the 16-bit field";
  return success();
}

namespace {
/// The parameters of a requantization (emit.requant, emit.drain): an lm table
/// of 16-byte entries, `entries` of them (one per column, or per row with
/// per_row), or the per-tensor attributes in their fields' ranges.
template <typename OpTy>
LogicalResult verifyRequantParams(OpTy op, Value params, int64_t entries) {
  if (params) {
    BufferType t = bufferOf(params);
    if (t.getSpace() != MemorySpace::LM || !t.getElementType().isSignlessInteger(8) ||
        t.getShape().size() != 2 || t.getShape()[1] != 16 || t.getShape()[0] != entries)
      return op.emitOpError() << "params must be an lm table of 16-byte entries, one per "
                              << (op.getPerRow() ? "row" : "column") << " (" << entries << ")";
    return success();
  }
  // I64Attr getters are unsigned; the parameters are signed.
  int64_t mult = int64_t(op.getMult()), ls = int64_t(op.getLs()), rs = int64_t(op.getRs());
  int64_t lo = int64_t(op.getLo()), hi = int64_t(op.getHi());
  namespace L = isa::limit::V_RQ_CFG;  // MM_RQ_CFG's fields have the same ranges
  static_assert(L::mult_max == isa::limit::MM_RQ_CFG::mult_max &&
                    L::ls_max == isa::limit::MM_RQ_CFG::ls_max &&
                    L::rs_max == isa::limit::MM_RQ_CFG::rs_max,
                "one requantization parameter range");
  if (mult < L::mult_min || mult > L::mult_max || ls < 0 || ls > L::ls_max || rs < 0 ||
      rs > L::rs_max)
    return op.emitOpError() << "multiplier " << mult << " or shifts (" << ls << ", " << rs
                            << ") outside [0, " << L::mult_max << "] and [0, " << L::ls_max
                            << "]";
  if (lo > hi)
    return op.emitOpError() << "clamp [" << lo << ", " << hi << "] is empty";
  return success();
}
} // namespace

LogicalResult RequantOp::verify() {
  if (failed(verifyVectorOperands(*this, {getA(), getD()})) ||
      failed(verifySameGrid(*this, getA(), getD())))
    return failure();
  if (!bufferOf(getA()).getElementType().isSignlessInteger(32))
    return emitOpError("requantizes i32 accumulators");
  Type d = bufferOf(getD()).getElementType();
  if (!d.isInteger(8) && !d.isSignlessInteger(16))
    return emitOpError() << "requantizes to i8, ui8 or i16, not " << d;
  return verifyRequantParams(*this, getParams(), bufferOf(getD()).getShape()[getPerRow() ? 0 : 1]);
}

LogicalResult DrainOp::verify() {
  BufferType a = bufferOf(getA()), d = bufferOf(getD());
  if (a.getSpace() != MemorySpace::ACC || d.getSpace() != MemorySpace::LM ||
      a.getShape().size() != 2 || d.getShape().size() != 2)
    return emitOpError("drains a 2-D acc tile into a 2-D lm tile");
  if (a.getShape() != d.getShape())
    return emitOpError() << "a is " << shapeStr(a.getShape()) << " but d is "
                         << shapeStr(d.getShape());
  for (BufferType t : {a, d})
    if (t.getShape()[1] > 1 && t.getStrides()[1] != t.getElementBytes())
      return emitOpError() << "rows must be contiguous: column stride " << t.getStrides()[1]
                           << " is not the element size " << t.getElementBytes();
  for (int64_t e : a.getShape())
    if (e > isa::limit::MM_OUT::m_max)
      return emitOpError() << "extent " << e << " exceeds the MM_OUT extent field (at most "
                           << isa::limit::MM_OUT::m_max << "): tile it";
  if (!a.getElementType().isSignlessInteger(32))
    return emitOpError("drains i32 accumulators");
  Type dt = d.getElementType();
  if (!dt.isInteger(8) && !dt.isSignlessInteger(16))
    return emitOpError() << "drains to i8, ui8 or i16, not " << dt;
  int64_t entries = a.getShape()[getPerRow() ? 0 : 1];
  if (Value bias = getBias()) {
    BufferType t = bufferOf(bias);
    int64_t biases = a.getShape()[getBiasPerRow() ? 0 : 1];
    if (t.getSpace() != MemorySpace::LM || !t.getElementType().isSignlessInteger(32) ||
        t.getShape().size() != 2 || t.getShape()[0] * t.getShape()[1] != biases ||
        (t.getShape()[1] > 1 && t.getStrides()[1] != 4) ||
        (t.getShape()[0] > 1 && t.getStrides()[0] != 4))
      return emitOpError() << "bias must be " << biases << " contiguous i32 values in lm, one per "
                           << (getBiasPerRow() ? "row" : "column");
  } else if (getBiasPerRow()) {
    return emitOpError("bias_per_row without a bias");
  }
  return verifyRequantParams(*this, getParams(), entries);
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyVectorOperands(*this, {getA(), getD()})))
    return failure();
  ArrayRef<int64_t> a = bufferOf(getA()).getShape(), d = bufferOf(getD()).getShape();
  SmallVector<int64_t> want = getAxis() == Axis::COLS ? SmallVector<int64_t>{a[0], 1}
                                                  : SmallVector<int64_t>{1, a[1]};
  if (d != ArrayRef<int64_t>(want))
    return emitOpError() << "d is " << shapeStr(d) << ", expected " << shapeStr(want);
  Type ta = bufferOf(getA()).getElementType(), td = bufferOf(getD()).getElementType();
  if (llvm::isa<FloatType>(ta) != llvm::isa<FloatType>(td))
    return emitOpError("a reduction keeps floats float and integers integer");
  return success();
}

LogicalResult ValueOp::verify() {
  BufferType bt = getBuffer().getType();
  if (!bt.isGlobal())
    return emitOpError() << "names a value in " << stringifyMemorySpace(bt.getSpace())
                         << "; values are observed in GM";
  if (getName().empty())
    return emitOpError("needs the value's name");
  return success();
}

//===----------------------------------------------------------------------===//
// EngineOp: the engine and the buffers of each engine operation
//===----------------------------------------------------------------------===//

void DmaOp::getAccesses(SmallVectorImpl<Access> &out) {
  out.push_back({getSrc(), false});
  out.push_back({getDst(), true});
}

Engine GatherOp::getEngine() { return Engine::DMA_IN; }
void GatherOp::getAccesses(SmallVectorImpl<Access> &out) {
  // Any row of the table may be read: the whole table is.
  out.push_back({getTable(), false});
  out.push_back({getIndices(), false});
  out.push_back({getDst(), true});
}

Engine ScatterOp::getEngine() { return Engine::DMA_OUT; }
void ScatterOp::getAccesses(SmallVectorImpl<Access> &out) {
  out.push_back({getSrc(), false});
  out.push_back({getIndices(), false});
  // Any row of the table may be written (and, combining, read first).
  if (getFunc() != ScatterFunc::NONE)
    out.push_back({getTable(), false});
  out.push_back({getTable(), true});
}

Engine MatmulOp::getEngine() { return Engine::MATRIX; }
void MatmulOp::getAccesses(SmallVectorImpl<Access> &out) {
  // A repeated product touches every iteration's operands: count - 1 steps
  // past each view.
  int64_t more = int64_t(getCount()) - 1;
  int64_t a = more * int64_t(getAStep()), b = more * int64_t(getBStep());
  int64_t c = more * int64_t(getCStep());
  out.push_back({getA(), false, a});
  out.push_back({getB(), false, b});
  if (getAccumulate())
    out.push_back({getC(), false, c});
  out.push_back({getC(), true, c});
}

Engine DrainOp::getEngine() { return Engine::MATRIX; }
void DrainOp::getAccesses(SmallVectorImpl<Access> &out) {
  out.push_back({getA(), false});
  if (getBias())
    out.push_back({getBias(), false});
  if (getParams())
    out.push_back({getParams(), false});
  out.push_back({getD(), true});
}

Engine DepthwiseOp::getEngine() { return getMatrix() ? Engine::MATRIX : Engine::VECTOR; }
void DepthwiseOp::getAccesses(SmallVectorImpl<Access> &out) {
  out.push_back({getA(), false});
  if (getB())
    out.push_back({getB(), false});
  if (getBias())
    out.push_back({getBias(), false});
  if (getAccumulate())
    out.push_back({getD(), false});
  out.push_back({getD(), true});
}

Engine VCmpOp::getEngine() { return Engine::VECTOR; }
void VCmpOp::getAccesses(SmallVectorImpl<Access> &out) {
  out.push_back({getA(), false});
  out.push_back({getB(), false});
  out.push_back({getD(), true});
}

Engine VSelOp::getEngine() { return Engine::VECTOR; }
void VSelOp::getAccesses(SmallVectorImpl<Access> &out) {
  out.push_back({getA(), false});
  out.push_back({getB(), false});
  out.push_back({getM(), false});
  out.push_back({getD(), true});
}

Engine VBinOp::getEngine() { return Engine::VECTOR; }
void VBinOp::getAccesses(SmallVectorImpl<Access> &out) {
  out.push_back({getA(), false});
  out.push_back({getB(), false});
  out.push_back({getD(), true});
}

Engine RequantOp::getEngine() { return Engine::VECTOR; }
void RequantOp::getAccesses(SmallVectorImpl<Access> &out) {
  out.push_back({getA(), false});
  if (getParams())
    out.push_back({getParams(), false});
  out.push_back({getD(), true});
}

namespace {
/// VECTOR ops of one input and one result, in operand order.
void unaryAccesses(Operation *op, SmallVectorImpl<Access> &out) {
  out.push_back({op->getOperand(0), false});
  out.push_back({op->getOperand(1), true});
}
} // namespace

Engine VUnOp::getEngine() { return Engine::VECTOR; }
void VUnOp::getAccesses(SmallVectorImpl<Access> &out) { unaryAccesses(*this, out); }
Engine VBinImmOp::getEngine() { return Engine::VECTOR; }
void VBinImmOp::getAccesses(SmallVectorImpl<Access> &out) { unaryAccesses(*this, out); }
Engine CastOp::getEngine() { return Engine::VECTOR; }
void CastOp::getAccesses(SmallVectorImpl<Access> &out) { unaryAccesses(*this, out); }
Engine ReduceOp::getEngine() { return Engine::VECTOR; }
void ReduceOp::getAccesses(SmallVectorImpl<Access> &out) { unaryAccesses(*this, out); }

std::pair<Operation *, int64_t> npuc::emit::rootOf(Value buffer) {
  int64_t offset = 0;
  while (auto view = buffer.getDefiningOp<ViewOp>()) {
    offset += view.getOffset();
    buffer = view.getSource();
  }
  return {buffer.getDefiningOp(), offset};
}

FailureOr<SmallVector<ByteRange, 4>> npuc::emit::placedRanges(EngineOp op) {
  SmallVector<Access> accesses;
  op.getAccesses(accesses);
  SmallVector<ByteRange, 4> out;
  for (const Access &a : accesses) {
    std::optional<int64_t> lo = placedByte(a.buffer);
    if (!lo)
      return op->emitOpError("uses a buffer that emit-plan-memory has not placed"), failure();
    auto type = cast<BufferType>(a.buffer.getType());
    out.push_back({type.getSpace(), *lo, *lo + type.getSpanBytes() + a.extra, a.write});
  }
  return out;
}

isa::MmMode npuc::emit::matrixMode(Type a, Type b) {
  return a.isF32()                                             ? isa::MmMode::F32
         : a.isF16()                                           ? isa::MmMode::F16
         : a.isUnsignedInteger(8) && b.isUnsignedInteger(8) ? isa::MmMode::U8U8
         : a.isUnsignedInteger(8)                              ? isa::MmMode::U8I8
         : b.isUnsignedInteger(8)                              ? isa::MmMode::I8U8
                                                               : isa::MmMode::I8I8;
}

std::optional<int64_t> npuc::emit::placedByte(Value buffer) {
  auto [root, offset] = rootOf(buffer);
  if (auto a = dyn_cast_or_null<AllocOp>(root); a && a.getOffset())
    return int64_t(*a.getOffset()) + offset;
  if (auto c = dyn_cast_or_null<ConstantOp>(root); c && c.getOffset())
    return int64_t(*c.getOffset()) + offset;
  return std::nullopt;
}

#include "npuc/Dialect/Emit/IR/EmitInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "npuc/Dialect/Emit/IR/EmitOps.cpp.inc"
