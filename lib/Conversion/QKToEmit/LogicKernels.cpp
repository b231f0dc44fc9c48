//===- LogicKernels.cpp - Comparisons, masks, selection, casts, arg-reductions -===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
// The ops around bool and integer tensors: comparisons (V_CMP into i8 0/1
// bytes, bool's storage), And/Or/Xor/Not on those bytes, Where (V_SEL),
// Cast, and ArgMax/ArgMin as a max (min), an equality mask, a select of the
// index and a min (max) of the indices (ONNX's first or last index).
//
//===----------------------------------------------------------------------===//

#include "KernelPattern.h"

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

// The selectors, case spaces and plans of this file's patterns.
namespace npuc::emit::lowering {
/// How a Cast between two plain case types converts, or none when it has no
/// lowering.
std::optional<Conversion> castConversion(StringRef from, StringRef to);
LogicalResult selectCompare(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &compareSpace();
const support::CaseSpace &notSpace();
LogicalResult selectWhere(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &whereSpace();
LogicalResult selectCast(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &castSpace();
LogicalResult selectArg(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &argSpace();
LogicalResult planCompare(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
LogicalResult planWhere(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
LogicalResult planCast(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
LogicalResult planArg(const LoweringCase &c, const target::TargetInfo &t, IterationSpaces &s);
} // namespace npuc::emit::lowering

namespace {

/// qk.compare: a bool mask.
struct ComparePattern : OpKernelPattern<qk::CompareOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectCompare;
  static constexpr SpaceOf space = compareSpace;
  static constexpr PlanFn plan = planCompare;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.not: the negation of a bool.
struct NotPattern : OpKernelPattern<qk::NotOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectLogic;
  static constexpr SpaceOf space = notSpace;
  static constexpr PlanFn plan = planLogic;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.select (Where): one of two broadcast operands by a bool mask.
struct SelectPattern : OpKernelPattern<qk::SelectOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectWhere;
  static constexpr SpaceOf space = whereSpace;
  static constexpr PlanFn plan = planWhere;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.cast: a conversion of element types on VECTOR.
struct CastPattern : OpKernelPattern<qk::CastOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectCast;
  static constexpr SpaceOf space = castSpace;
  static constexpr PlanFn plan = planCast;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

/// qk.arg_reduce: ArgMax and ArgMin.
struct ArgReducePattern : OpKernelPattern<qk::ArgReduceOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectArg;
  static constexpr SpaceOf space = argSpace;
  static constexpr PlanFn plan = planArg;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};

} // namespace

void lowering::populateLogicPatterns(KernelPatterns &patterns) {
  patterns.add<ComparePattern, NotPattern, SelectPattern, CastPattern, ArgReducePattern>();
}

namespace {
// qk.compare's predicate and V_CMP's are one ISA enum (ISA_CmpFuncCases).
static_assert(int(qk::CompareFn::EQ) == int(CmpFunc::EQ) &&
                  int(qk::CompareFn::GE) == int(CmpFunc::GE) &&
                  int(qk::CompareFn::GEU) == int(CmpFunc::GEU),
              "qk.compare's predicates are V_CMP's, numbered alike");

/// Whether operands and result differ in shape (broadcast by zero strides).
bool broadcasts(Operation *op) {
  ArrayRef<int64_t> shape = tensorOf(op->getResult(0)).getShape();
  return llvm::any_of(op->getOperands(),
                      [&](Value v) { return tensorOf(v).getShape() != shape; });
}

/// A plain (not quantized) element type the model file can store.
/// The ONNX op a logic kernel is, in diagnostics.
std::string logicName(Operation *op) {
  auto binary = llvm::dyn_cast<qk::BinaryOp>(op);
  return binary ? qk::stringifyBinaryFn(binary.getFn()).str() : std::string("NOT");
}

bool plainStorable(Type element) {
  return !quantOf(element) && isModelStorage(storageOf(element));
}

/// What qk.not XORs each element with: 1 for a bool's byte, all ones of an
/// unsigned type's width (uint8, uint16: ~x stays in range), -1 for a
/// signed one.
Attribute notMask(Type element) {
  Builder b(element.getContext());
  if (element.isInteger(1))
    return b.getIntegerAttr(b.getIntegerType(8), 1);
  unsigned width = element.getIntOrFloatBitWidth();
  if (element.isUnsignedInteger() && width < 32)
    return b.getI32IntegerAttr(int32_t((uint32_t(1) << width) - 1));
  return b.getI32IntegerAttr(-1);
}

} // namespace

//===----------------------------------------------------------------------===//
// Comparisons and logic
//===----------------------------------------------------------------------===//

const CaseSpace &lowering::compareSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"T,T->i1", {{"T", ct::plain()}}}};
    s.properties = {kCompareFn.declare(), kBroadcast.declare()};
    s.rules = {never(cond::all({cond::negate(kCompareFn({qk::CompareFn::EQ})),
                                cond::operand(0, ct::kBool)}),
                     "ONNX orders numbers only; bools compare for equality")};
    return s;
  }();
  return space;
}

/// Both operands of one plain storable type (V_CMP compares them as it).
LogicalResult lowering::selectCompare(LoweringCase &c, const target::TargetInfo &) {
  auto op = cast<qk::CompareOp>(c.op);
  c.choose(kCompareFn, op.getFn());
  Type l = tensorOf(op->getOperand(0)).getElementType(), r = tensorOf(op->getOperand(1)).getElementType();
  if (l != r || !plainStorable(l))
    return op->emitOpError() << "comparison of " << l << " and " << r
                             << " has no NPU lowering yet (two plain operands of one type)";
  c.flag(kBroadcast, broadcasts(op));
  return success();
}

namespace {
/// One nest over the result, every operand broadcast to it.
LogicalResult planOverResult(Operation *op, IterationSpaces &s, EwWork work) {
  ArrayRef<int64_t> shape = tensorOf(op->getResult(0)).getShape();
  std::vector<EwAccess> ins;
  for (Value v : op->getOperands())
    ins.push_back(broadcastAccess(v, shape));
  return addNest(op, s, shape, std::move(ins), denseAccess(op->getResult(0)), work);
}
} // namespace

/// V_CMP, one pass, into a byte mask.
LogicalResult lowering::planCompare(const LoweringCase &c, const target::TargetInfo &,
                                    IterationSpaces &s) {
  return planOverResult(c.op, s, {9, 1});
}

LogicalResult ComparePattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  Operation *op = c.op;
  CmpFunc func = CmpFunc(c.get(kCompareFn));
  Type i8 = b.getIntegerType(8);
  Value out = resultBuffer(op->getResult(0));
  return elementwise(op, planned.nests[0], {gmOf(op->getOperand(0)), gmOf(op->getOperand(1))},
                     out, [&](EwTiles &tl) {
                       Value d = e.tile(MemorySpace::LM, tl.rows, tl.cols, i8);
                       e.vcmp(func, tl.in[0], tl.in[1], d);
                       tl.out = d;
                     });
}

/// qk.not's cases; qk.binary's AND, OR and XOR are cases of qk.binary's
/// space (binarySpace), selected and lowered below.
const CaseSpace &lowering::notSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"i1->i1"}, {"T->T", {{"T", ct::kInt}}}};
    s.properties = {kBroadcast.declare()};
    s.rules = {never(kBroadcast(), "a unary op has nothing to broadcast"),
               refused(cond::operand(0, {"ui32"}), "~x of a uint32 leaves the int32 it is stored as")};
    return s;
  }();
  return space;
}

/// qk.binary's AND, OR and XOR and qk.not, of bool tensors (bitwise on
/// their 0/1 bytes) or of integers of one type (bitwise on their storage).
LogicalResult lowering::selectLogic(LoweringCase &c, const target::TargetInfo &) {
  Operation *op = c.op;
  Type element = tensorOf(op->getResult(0)).getElementType();
  for (Value v : op->getOperands()) {
    Type t = tensorOf(v).getElementType();
    if (t != element || !llvm::isa<IntegerType>(t) || !plainStorable(t))
      return op->emitOpError() << logicName(op) << " of " << t
                               << " has no NPU lowering (bools, or integers of up to 32 bits of the "
                                  "result's type "
                               << element << ")";
  }
  if (!llvm::isa<qk::BinaryOp>(op) && element.isUnsignedInteger(32))
    return op->emitOpError() << "NOT of " << element << " has no NPU lowering (~x leaves the int32 it is stored as)";
  c.flag(kBroadcast, broadcasts(op));
  return success();
}

/// One bitwise pass over the result.
LogicalResult lowering::planLogic(const LoweringCase &c, const target::TargetInfo &,
                                  IterationSpaces &s) {
  return planOverResult(c.op, s, {3, 1});
}

LogicalResult NotPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  return lowerLogic(c, planned);
}

LogicalResult KernelBuilder::lowerLogic(const LoweringCase &c, const IterationSpaces &planned) {
  Operation *op = c.op;
  SmallVector<Value> ins;
  for (Value v : op->getOperands())
    ins.push_back(gmOf(v));
  auto binary = llvm::dyn_cast<qk::BinaryOp>(op);
  return elementwise(op, planned.nests[0], ins, resultBuffer(op->getResult(0)), [&](EwTiles &tl) {
    if (!binary)
      e.vbini(VBinFunc::XOR, tl.in[0], notMask(tensorOf(op->getResult(0)).getElementType()), tl.in[0]);
    else
      e.vbin(VBinFunc(binary.getFn()), tl.in[0], tl.in[1], tl.in[0]);
  });
}

//===----------------------------------------------------------------------===//
// Where
//===----------------------------------------------------------------------===//

const CaseSpace &lowering::whereSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"i1,T,T->T", {{"T", ct::plain()}}}};
    s.properties = {kBroadcast.declare()};
    return s;
  }();
  return space;
}

/// x and y of one plain storable type; the condition's bytes become a mask
/// with the data's row pitch (V_SEL reads it so).
LogicalResult lowering::selectWhere(LoweringCase &c, const target::TargetInfo &) {
  auto op = cast<qk::SelectOp>(c.op);
  Type x = tensorOf(op.getX()).getElementType(), y = tensorOf(op.getY()).getElementType();
  if (x != y || !plainStorable(x))
    return op->emitOpError() << "Where of " << x << " and " << y
                             << " has no NPU lowering yet (two plain operands of one type)";
  c.flag(kBroadcast, broadcasts(op));
  return success();
}

/// The condition's mask copied at the data's pitch, then V_SEL.
LogicalResult lowering::planWhere(const LoweringCase &c, const target::TargetInfo &,
                                  IterationSpaces &s) {
  int64_t ex = bytesOf(storageOf(tensorOf(cast<qk::SelectOp>(c.op).getX()).getElementType()));
  return planOverResult(c.op, s, {2 + 3 * ex, 2});
}

LogicalResult SelectPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::SelectOp>(c.op);
  SmallVector<Value> ins{gmOf(op.getCond()), gmOf(op.getX()), gmOf(op.getY())};
  return elementwise(op, planned.nests[0], ins, resultBuffer(op.getResult()),
                     [&](EwTiles &tl) {
                       Value x = tl.in[1];
                       int64_t pitch = cast<BufferType>(x.getType()).getStrides()[0];
                       Value m = e.alloc(MemorySpace::LM, {tl.rows, tl.cols}, b.getIntegerType(8),
                                         {pitch, 1});
                       e.vun(VUnFunc::COPY, tl.in[0], m);
                       e.vsel(m, x, tl.in[2], x);
                       tl.out = x;
                     });
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

namespace {
/// The values an integer case type holds in ONNX ("i64", "ui32", "i1"), or
/// nullopt for a float.
std::optional<std::pair<int64_t, int64_t>> integerRange(StringRef name) {
  unsigned w;
  bool isUnsigned = name.consume_front("u");
  if (!name.consume_front("i") || name.getAsInteger(10, w) || w == 0 || w > 64)
    return std::nullopt;
  if (w == 1)
    return std::make_pair<int64_t, int64_t>(0, 1);
  if (isUnsigned)
    return std::make_pair<int64_t, int64_t>(0, w >= 63 ? INT64_MAX : (int64_t(1) << w) - 1);
  return std::make_pair(w >= 64 ? INT64_MIN : -(int64_t(1) << (w - 1)),
                        w >= 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1);
}

/// The name of the type a plain case type is stored as (storageOf).
StringRef storageName(StringRef name) {
  if (name == "i1")
    return "i8";
  if (name == "i64" || name == "ui16" || name == "ui32")
    return "i32";
  return name;
}
} // namespace

/// How a Cast between two plain case types converts: `copy` where the
/// stored bytes already mean the result (i64 to i32 and back: both stored as
/// i32; bool to int8), `to-bool` (x != 0), `truncate` (a float to an
/// integer: toward zero, then V_CAST saturates), `convert` (V_CAST: an
/// integer widened or made float, f32 and f16 to each other, round to
/// nearest even); none for a narrowing integer cast, which ONNX wraps and
/// V_CAST would saturate: it has no lowering. The selector and the case
/// space both ask this.
std::optional<Conversion> lowering::castConversion(StringRef from, StringRef to) {
  auto fr = integerRange(from), tr = integerRange(to);
  bool sameStorage = storageName(from) == storageName(to);
  if (to == "i1")
    return from == "i1" ? Conversion::Copy : Conversion::ToBool;
  if (!fr && tr)
    return Conversion::Truncate;
  if (fr && tr) {
    bool widens = tr->first <= fr->first && fr->second <= tr->second;
    // int64 and uint32 values are int32 on chip: int64 <-> int32 is a copy.
    // (Only signed: a uint32 or uint16 is not an int64's storage value.)
    bool narrowedAlready = (from == "i64" && to == "i32") || (to == "i64" && from == "i32");
    if (!widens && !narrowedAlready)
      return std::nullopt;
    return sameStorage ? Conversion::Copy : Conversion::Convert;
  }
  return sameStorage ? Conversion::Copy : Conversion::Convert;
}

const CaseSpace &lowering::castSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"A->B", {{"A", ct::plain()}, {"B", ct::plain()}}}};
    s.properties = {kConversion.declare()};
    s.rules = {never(cond::custom("a cast to its own type", [](const support::CasePoint &p) {
                 return p.operands[0] == p.results[0];
               }), "a Cast to the type it has folds away"),
               refused(cond::custom("a narrowing integer cast",
                                    [](const support::CasePoint &p) {
                                      return !castConversion(p.operands[0], p.results[0]);
                                    }),
                       "ONNX wraps and V_CAST saturates"),
               never(cond::custom("conversion other than the types decide",
                                  [](const support::CasePoint &p) {
                                    std::optional<Conversion> how =
                                        castConversion(p.operands[0], p.results[0]);
                                    return how && StringRef(p.get(kConversion.name.str())) != kConversion.spell(*how);
                                  }),
                     "the conversion follows from the two types")};
    return s;
  }();
  return space;
}

/// A Cast between plain types the model file can store, converted as
/// castConversion says.
LogicalResult lowering::selectCast(LoweringCase &c, const target::TargetInfo &) {
  auto op = cast<qk::CastOp>(c.op);
  Type from = tensorOf(op.getInput()).getElementType(), to = tensorOf(op.getResult()).getElementType();
  if (!plainStorable(from) || !plainStorable(to))
    return op->emitOpError() << "Cast from " << from << " to " << to
                             << " has no NPU lowering (plain f32, f16 and integer types of up to "
                                "32 bits, bool and int64)";
  std::string fromName = caseTypeName(from), toName = caseTypeName(to);
  std::optional<Conversion> how = castConversion(fromName, toName);
  if (!how)
    return op->emitOpError() << "narrowing integer Cast from " << from << " to " << to
                             << " has no NPU lowering yet (ONNX wraps; V_CAST saturates)";
  c.choose(kConversion, *how);
  return success();
}

/// One nest; a truncation (sign, abs, floor, multiply, then the cast) holds
/// a scratch tile of the source type.
LogicalResult lowering::planCast(const LoweringCase &c, const target::TargetInfo &,
                                 IterationSpaces &s) {
  auto op = cast<qk::CastOp>(c.op);
  int64_t eb = bytesOf(storageOf(tensorOf(op.getInput()).getElementType())) +
               bytesOf(storageOf(tensorOf(op.getResult()).getElementType()));
  return planOverResult(op, s, {c.get(kConversion) == Conversion::Truncate ? 2 * eb : eb, 3});
}

LogicalResult CastPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::CastOp>(c.op);
  Type from = storageOf(tensorOf(op.getInput()).getElementType());
  Type to = storageOf(tensorOf(op.getResult()).getElementType());
  Conversion how = c.get(kConversion);
  Value zero;
  if (how == Conversion::ToBool) {
    auto zt = RankedTensorType::get({1, 1}, from);
    Attribute z = llvm::isa<FloatType>(from) ? Attribute(FloatAttr::get(from, 0.0))
                                             : Attribute(IntegerAttr::get(from, 0));
    zero = constant(DenseElementsAttr::get(zt, z), zt);
  }
  Value out = resultBuffer(op.getResult());
  return elementwise(op, planned.nests[0], {gmOf(op.getInput())}, out,
                     [&](EwTiles &tl) {
                       Value x = tl.in[0];
                       if (how == Conversion::Copy)
                         return;
                       if (how == Conversion::ToBool) {
                         Value z = e.tile(MemorySpace::LM, 1, 1, from);
                         e.dma(zero, z);
                         Value d = e.tile(MemorySpace::LM, tl.rows, tl.cols, b.getIntegerType(8));
                         e.vcmp(CmpFunc::NE, x, z, d);
                         tl.out = d;
                         return;
                       }
                       if (how == Conversion::Truncate) {
                         // trunc(x) = sign(x) * floor(|x|), exact in x's type.
                         Value s = e.tile(MemorySpace::LM, tl.rows, tl.cols, from);
                         e.vun(VUnFunc::SIGN, x, s);
                         e.vun(VUnFunc::ABS, x, x);
                         e.vun(VUnFunc::FLOOR, x, x);
                         e.vbin(VBinFunc::MUL, x, s, x);
                       }
                       Value d = e.tile(MemorySpace::LM, tl.rows, tl.cols, to);
                       e.cast(x, d);
                       tl.out = d;
                     });
}

//===----------------------------------------------------------------------===//
// ArgMax, ArgMin
//===----------------------------------------------------------------------===//

namespace {
std::array<int64_t, 3> argExtents(qk::ArgReduceOp op) {
  return aroundAxis(tensorOf(op.getInput()).getShape(), op.getAxisAttr().getInt());
}
} // namespace

const CaseSpace &lowering::argSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures = {{"T->i64", {{"T", ct::concat({{"f32"}, ct::kInt})}}}};
    s.properties = {kArgFn.declare(), kLayout.declare(), kLast.declare()};
    return s;
  }();
  return space;
}

/// f32 or plain integer input; rows (the reduced axis innermost) or columns.
LogicalResult lowering::selectArg(LoweringCase &c, const target::TargetInfo &) {
  auto op = cast<qk::ArgReduceOp>(c.op);
  c.choose(kArgFn, op.getFn());
  Type el = tensorOf(op.getInput()).getElementType();
  if (!plainStorable(el) || el.isF16())
    return op->emitOpError() << (op.getFn() == qk::ReduceFn::MAX ? "argmax" : "argmin") << " of " << el
                             << " has no NPU lowering yet (f32 or plain integers)";
  auto [outer, r, inner] = argExtents(op);
  (void)outer;
  if (r > INT32_MAX)
    return op->emitOpError() << "reduces " << r << " elements; indices are int32 on the NPU";
  c.choose(kLayout, inner == 1 ? Layout::Rows : Layout::Columns);
  c.flag(kLast, op.getSelectLastIndex());
  return success();
}

/// Per element: the input, the selected indices and the mask (at the
/// indices' pitch, 4 bytes an element); VECTOR passes: the extreme, the
/// comparison, the select and the index reduction. Whole rows, or columns
/// of r rows.
LogicalResult lowering::planArg(const LoweringCase &c, const target::TargetInfo &,
                                IterationSpaces &s) {
  auto op = cast<qk::ArgReduceOp>(c.op);
  auto [outer, r, inner] = argExtents(op);
  int64_t ex = bytesOf(storageOf(tensorOf(op.getInput()).getElementType()));
  if (c.get(kLayout) == Layout::Rows)
    s.nests.push_back(rowProblem(outer, r, {{0, 0, r * ex, ex}, ex, false}, {{0, 0, 4, 0}, 4, true},
                                 {ex + 8, 4}));
  else
    s.nests.push_back(columnProblem(outer, r, inner, {{0, r * inner * ex, inner * ex, ex}, ex, false},
                                    {{0, inner * 4, 0, 4}, 4, false}, {ex + 8 + ceilDiv(8 + ex, r), 4}));
  return success();
}

// The extreme along the axis; a mask of the elements equal to it; each
// masked element's index, the others r (first index: then the minimum) or
// -1 (last index: the maximum). Indices are int32, stored for int64.
LogicalResult ArgReducePattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  auto op = cast<qk::ArgReduceOp>(c.op);
  auto [outer, r, inner] = argExtents(op);
  (void)outer;
  bool isMax = c.get(kArgFn) == qk::ReduceFn::MAX, last = c.is(kLast);
  bool rows = c.get(kLayout) == Layout::Rows;
  Value x = gmOf(op.getInput()), y = resultBuffer(op.getResult());
  Type xe = cast<BufferType>(x.getType()).getElementType(), i32 = b.getIntegerType(32);
  int64_t ex = bytesOf(xe);
  SmallVector<int32_t> iota(static_cast<size_t>(r), 0);
  for (int64_t i = 0; i < r; ++i)
    iota[size_t(i)] = int32_t(i);
  auto idxType = RankedTensorType::get(rows ? SmallVector<int64_t>{1, r} : SmallVector<int64_t>{r, 1}, i32);
  Value indices = constant(DenseElementsAttr::get(idxType, ArrayRef<int32_t>(iota)), idxType);
  auto oneType = RankedTensorType::get({1, 1}, i32);
  Value other = constant(DenseElementsAttr::get(oneType, ArrayRef<int32_t>{last ? -1 : int32_t(r)}), oneType);
  // One tile of [tr, tc] elements reduced along `axis` into dst.
  auto body = [&](Value src, int64_t tr, int64_t tc, Axis axis, Value dst) {
    Value t = e.tile(MemorySpace::LM, tr, tc, xe);
    e.dma(src, t);
    Value ext = axis == Axis::COLS ? e.tile(MemorySpace::LM, tr, 1, xe) : e.tile(MemorySpace::LM, 1, tc, xe);
    e.reduce(isMax ? ReduceFunc::MAX : ReduceFunc::MIN, axis, t, ext);
    Value sel = e.tile(MemorySpace::LM, tr, tc, i32);
    Value mask = e.alloc(MemorySpace::LM, {tr, tc}, b.getIntegerType(8),
                         {cast<BufferType>(sel.getType()).getStrides()[0], 1});
    e.vcmp(CmpFunc::EQ, t, ext, mask);
    Value idx = e.tile(MemorySpace::LM, rows ? 1 : tr, rows ? tc : 1, i32);
    e.dma(indices, idx);
    Value o = e.tile(MemorySpace::LM, 1, 1, i32);
    e.dma(other, o);
    e.vsel(mask, idx, o, sel);
    Value res = axis == Axis::COLS ? e.tile(MemorySpace::LM, tr, 1, i32) : e.tile(MemorySpace::LM, 1, tc, i32);
    e.reduce(last ? ReduceFunc::MAX : ReduceFunc::MIN, axis, sel, res);
    e.dma(res, dst);
  };
  if (rows)
    return rowLoops(op, planned.nests[0],
                    [&](int64_t n, const Offset &o) {
                      Value to = e.view(y, o * 4, {n, 1}, {4, 4});
                      body(e.view(x, o * (r * ex), {n, r}, {r * ex, ex}), n, r, Axis::COLS, to);
                    });
  return columnLoops(op, planned.nests[0], [&](int64_t cols, const Offset &o, const Offset &col) {
    Value to = e.view(y, o * (inner * 4) + col * 4, {1, cols}, {0, 4});
    body(e.view(x, o * (r * inner * ex) + col * ex, {r, cols}, {inner * ex, ex}), r, cols, Axis::ROWS, to);
  });
}
