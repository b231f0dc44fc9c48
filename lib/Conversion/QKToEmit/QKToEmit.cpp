//===- QKToEmit.cpp - qk kernels to engine operations, the driver -------===//
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

#include "KernelPattern.h"
#include "npuc/Conversion/LoweringCases.h"
#include "npuc/Base/Numerics.h"
#include "npuc/Conversion/Passes.h"
#include "npuc/Dialect/Emit/IR/EmitDialect.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"
#include "npuc/Dialect/Graph/IR/GraphShapes.h"
#include "npuc/Dialect/Graph/IR/TensorNames.h"
#include "npuc/Dialect/QK/IR/QKOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

namespace npuc {
#define GEN_PASS_DEF_CONVERTQKTOEMIT
#define GEN_PASS_DEF_SELECTLOWERINGCASES
#define GEN_PASS_DEF_SETTARGET
#include "npuc/Conversion/Passes.h.inc"
} // namespace npuc

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;
using namespace npuc::emit::lowering;

// The selectors, case spaces and plans of this file's patterns.
namespace npuc::emit::lowering {
LogicalResult selectView(LoweringCase &c, const target::TargetInfo &t);
const support::CaseSpace &viewSpace();
} // namespace npuc::emit::lowering

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

Value KernelBuilder::constant(Attribute value, RankedTensorType type) {
  Type st = storageOf(type.getElementType());
  auto dense = cast<DenseElementsAttr>(value);
  if (isBoundaryType(dense.getElementType())) {
    // bool, int64, uint16, uint32 constants in their i8 / i32 storage; the
    // importer's range checks keep int64 indices inside int32.
    auto it = cast<IntegerType>(dense.getElementType());
    unsigned w = cast<IntegerType>(st).getWidth();
    SmallVector<APInt> values;
    for (const APInt &v : dense.getValues<APInt>())
      values.push_back(it.getWidth() == 1 ? APInt(w, v.getBoolValue())
                       : it.isUnsigned()  ? v.zextOrTrunc(w)
                                          : v.sextOrTrunc(w));
    dense = DenseElementsAttr::get(RankedTensorType::get(dense.getType().getShape(), st), values);
  } else if (dense.getElementType() != st) {
    dense = dense.bitcast(st);
  }
  dense = dense.reshape(RankedTensorType::get(type.getShape(), st));
  auto bt = e.type(MemorySpace::CONST, type.getShape(), st, denseStrides(type.getShape(), bytesOf(st)));
  // A constant is a declaration of the whole program: created in its body,
  // before the tile loop being emitted, never inside it, where unrolling
  // would copy it per iteration and a later kernel's use (gmOf caches it)
  // would not be dominated by it.
  OpBuilder::InsertionGuard guard(b);
  Operation *outer = nullptr;
  for (Operation *op = b.getInsertionBlock()->getParentOp(); op && !llvm::isa<ProgramOp>(op);
       op = op->getParentOp())
    outer = op;
  if (outer)
    b.setInsertionPoint(outer);
  return ConstantOp::create(b, e.loc, bt, dense, IntegerAttr());
}

Value KernelBuilder::f32Constant(ArrayRef<float> values) {
  auto type = RankedTensorType::get({int64_t(values.size())}, b.getF32Type());
  return constant(DenseElementsAttr::get(type, values), type);
}

Value KernelBuilder::gmOf(Value tensor) {
  auto it = gm.find(tensor);
  if (it != gm.end())
    return it->second;
  if (auto c = tensor.getDefiningOp<graph::ConstantOp>())
    return gm[tensor] = constant(c.getValue(), tensorOf(tensor));
  return nullptr;
}


//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// A reshape keeps any type; a storage cast pairs each quantized type with
/// the integer it is stored as, either way. graph-fuse-qdq quantizes
/// Reshape, so every quantized reshape is reachable.
const CaseSpace &lowering::viewSpace() {
  static const CaseSpace space = [] {
    CaseSpace s;
    s.signatures.push_back({"T->T", {{"T", ct::movable()}}});
    const std::pair<const char *, const char *> stored[] = {
        {"i8", "qi8"},       {"ui8", "qui8"},       {"i32", "qi32"},
        {"i8", "qi8/axis"},  {"ui8", "qui8/axis"},  {"i32", "qi32/axis"}};
    for (auto [plain, quant] : stored) {
      s.signatures.push_back({std::string(plain) + "->" + quant});
      s.signatures.push_back({std::string(quant) + "->" + plain});
    }
    // BitCast (graph.bitcast): the same bits as the other type of a pair.
    const std::pair<const char *, const char *> bits[] = {{"f32", "i32"}, {"f16", "i16"}, {"i8", "ui8"}};
    for (auto [a, b] : bits) {
      s.signatures.push_back({std::string(a) + "->" + b});
      s.signatures.push_back({std::string(b) + "->" + a});
    }
    return s;
  }();
  return space;
}

/// qk.view (Reshape, the storage casts, BitCast): the physical layout is dense
/// row-major on both sides, so the result is a view of the source's bytes
/// (of a type a model file stores).
LogicalResult lowering::selectView(LoweringCase &c, const target::TargetInfo &) {
  Type el = tensorOf(c.op->getResult(0)).getElementType();
  if (!isModelStorage(storageOf(el)))
    return c.op->emitOpError() << "a view of " << el
                               << " has no NPU lowering (model files hold f32, f16 and integers "
                                  "of up to 32 bits)";
  return success();
}

namespace {
/// qk.view: a view of its operand's GM buffer, no engine operation.
struct ViewPattern : OpKernelPattern<qk::ViewOp> {
  using OpKernelPattern::OpKernelPattern;
  static constexpr Selector select = selectView;
  static constexpr SpaceOf space = viewSpace;
  LogicalResult lower(const LoweringCase &c, const IterationSpaces &planned) override;
};
} // namespace

void lowering::populateViewPatterns(KernelPatterns &patterns) { patterns.add<ViewPattern>(); }

LogicalResult ViewPattern::lower(const LoweringCase &c, const IterationSpaces &planned) {
  Operation *op = c.op;
  Value src = gmOf(op->getOperand(0));
  auto type = tensorOf(op->getResult(0));
  Type st = storageOf(type.getElementType());
  gm[op->getResult(0)] =
      e.view(e.retype(src, st), 0, type.getShape(), denseStrides(type.getShape(), bytesOf(st)));
  return success();
}

//===----------------------------------------------------------------------===//
// The patterns
//===----------------------------------------------------------------------===//

void KernelPatterns::addRow(KernelPatternInfo row) {
  if (!index.try_emplace(row.id, rows.size()).second)
    llvm::report_fatal_error(llvm::Twine("two kernel patterns lower ") + row.name);
  rows.push_back(std::move(row));
}

const KernelPatternInfo *KernelPatterns::lookup(Operation *op) const {
  auto it = index.find(op->getName().getTypeID());
  return it == index.end() ? nullptr : &rows[it->second];
}

/// graph.constant has no pattern: a constant is materialized in CONST when a
/// kernel reads it.
const KernelPatterns &lowering::kernelPatterns() {
  static const KernelPatterns patterns = [] {
    KernelPatterns p;
    populateViewPatterns(p);
    populateQuantPatterns(p);
    populateBinaryPatterns(p);
    populateMapPatterns(p);
    populateReducePatterns(p);
    populateChannelPatterns(p);
    populateNormPatterns(p);
    populatePowPatterns(p);
    populateLogicPatterns(p);
    populateTensorPatterns(p);
    populateMatrixPatterns(p);
    populateConvPatterns(p);
    populateIndexedPatterns(p);
    return p;
  }();
  return patterns;
}

Selector lowering::selectorFor(Operation *op) {
  const KernelPatternInfo *l = kernelPatterns().lookup(op);
  return l ? l->select : nullptr;
}

LogicalResult lowering::planOf(const LoweringCase &c, const target::TargetInfo &t,
                              IterationSpaces &s) {
  const KernelPatternInfo *l = kernelPatterns().lookup(c.op);
  return l && l->plan ? l->plan(c, t, s) : success();
}

const support::CaseSpace *lowering::spaceFor(Operation *op) {
  const KernelPatternInfo *l = kernelPatterns().lookup(op);
  return l ? &l->space() : nullptr;
}

std::vector<support::OpCaseSpace> npuc::emit::loweringCaseSpaces() {
  std::vector<support::OpCaseSpace> out;
  for (const KernelPatternInfo &l : kernelPatterns().all())
    out.push_back({l.name.str(), &l.space()});
  return out;
}

/// A value of an int64 or uint32 constant that its int32 storage cannot
/// hold (an input's are checked by npu-sim), or nothing.
static std::optional<int64_t> outsideInt32(Value v) {
  auto cst = v.getDefiningOp<graph::ConstantOp>();
  auto dense = cst ? dyn_cast<DenseIntElementsAttr>(cst.getValue()) : DenseIntElementsAttr();
  if (!dense || !isBoundaryType(dense.getElementType()) ||
      cast<IntegerType>(dense.getElementType()).getWidth() < 32)
    return std::nullopt;
  bool isUnsigned = cast<IntegerType>(dense.getElementType()).isUnsigned();
  for (const APInt &x : dense.getValues<APInt>()) {
    int64_t value = isUnsigned ? int64_t(x.getZExtValue()) : x.getSExtValue();
    if (value < INT32_MIN || value > INT32_MAX)
      return value;
  }
  return std::nullopt;
}

LogicalResult lowering::checkConstants(Operation *op) {
  for (Value v : op->getOperands())
    if (std::optional<int64_t> bad = outsideInt32(v))
      return op->emitOpError() << "takes the " << tensorOf(v).getElementType() << " constant "
                               << *bad << ", outside int32, the type "
                               << tensorOf(v).getElementType() << " is narrowed to on the NPU";
  return success();
}

LogicalResult lowering::checkFunction(func::FuncOp func) {
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  // A model file's inputs and outputs have its element types (a folded Shape
  // result, int64, or a bool mask cannot cross the boundary).
  auto checkBoundary = [&](Value v, StringRef what, StringAttr name, size_t index,
                           TypeAttr host) -> LogicalResult {
    Type st = storageOf(tensorOf(v).getElementType());
    // A declared boundary type: f64 computed as f32, nothing else.
    if (host && !(host.getValue().isF64() && tensorOf(v).getElementType().isF32()))
      return emitError(v.getLoc()) << what << " " << index << " declares the boundary type "
                                   << host.getValue() << " ('" << graph::kBoundaryTypeAttr
                                   << "') over " << tensorOf(v).getElementType()
                                   << "; only f64 over f32 is computed as another type";
    if (isModelStorage(st))
      return success();
    return emitError(v.getLoc()) << what << " " << index
                                 << (name ? (" '" + name.getValue() + "'").str() : std::string())
                                 << " has element type " << st
                                 << "; model files hold i8, ui8, i16, i32, f16 and f32 tensors, "
                                    "and bool, int64, uint16 and uint32 stored as i8 and i32";
  };
  for (BlockArgument arg : body.getArguments())
    if (failed(checkBoundary(arg, "graph input",
                             func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), graph::kBoundaryNameAttr),
                             arg.getArgNumber(),
                             func.getArgAttrOfType<TypeAttr>(arg.getArgNumber(), graph::kBoundaryTypeAttr))))
      return failure();
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    if (failed(checkBoundary(v, "graph output",
                             func.getResultAttrOfType<StringAttr>(unsigned(i), graph::kBoundaryNameAttr), i,
                             func.getResultAttrOfType<TypeAttr>(unsigned(i), graph::kBoundaryTypeAttr))))
      return failure();
    // A constant returned as it is: copied, so checked here.
    if (std::optional<int64_t> bad = outsideInt32(v))
      return emitError(v.getLoc()) << "graph output " << i << " is the "
                                   << tensorOf(v).getElementType() << " constant value " << *bad
                                   << ", outside int32, the type it is stored as on the NPU";
  }
  // A tensor with no elements is an error at its op before any buffer is
  // typed (a buffer type has no zero extent); a graph input nothing reads,
  // or returned as it is, at itself.
  // An op whose results are all empty computes nothing (computesNothing);
  // empty graph inputs and outputs are bound and read with no bytes.
  for (Operation &op : body.without_terminator())
    if (failed(checkNotEmpty(&op)))
      return failure();
  return success();
}

namespace {
/// The value whose op computes the bytes of `v`: through views.
Value computedRoot(Value v) {
  while (v.getDefiningOp() && llvm::isa<qk::ViewOp>(v.getDefiningOp()))
    v = v.getDefiningOp()->getOperand(0);
  return v;
}
} // namespace

/// The producing op writes straight into the output region when the
/// returned value is its own result (the first time it is returned);
/// otherwise a copy does.
SmallVector<std::pair<Value, unsigned>> lowering::returnCopies(func::FuncOp func) {
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  SmallVector<std::pair<Value, unsigned>> copies;
  llvm::DenseSet<Value> claimed;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    Value root = computedRoot(v);
    Operation *def = root.getDefiningOp();
    if (tensorOf(v).getNumElements() == 0)
      continue;  // an empty output: nothing to write
    if (!def || llvm::isa<graph::ConstantOp>(def) || !claimed.insert(root).second)
      copies.push_back({v, unsigned(i)});
  }
  return copies;
}

LogicalResult lowering::planReturn(func::FuncOp func, IterationSpaces &s) {
  Operation *ret = func.getBody().front().getTerminator();
  for (auto [v, i] : returnCopies(func)) {
    RankedTensorType type = tensorOf(v);
    int64_t es = bytesOf(storageOf(type.getElementType()));
    SmallVector<int64_t> dense = denseStrides(type.getShape(), es);
    if (failed(planCopy(ret, type.getShape(), dense, dense, es, s)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

namespace {
/// Lowers one function into the emit.program at `b`'s insertion point: the
/// input and output buffers, then each op by the pattern of its class (made
/// when the first op of the class is lowered), then the return's copies.
class FunctionLowering {
public:
  FunctionLowering(OpBuilder &b, const target::TargetInfo &t) : e(b, t), t(t), k(e, t, state) {}
  LogicalResult run(func::FuncOp func);

private:
  Emitter e;
  const target::TargetInfo &t;
  FunctionState state;
  KernelBuilder k;
  DenseMap<TypeID, std::unique_ptr<KernelPattern>> patterns;
  int64_t inputBytes = 0, outputBytes = 0;

  /// An input or output buffer; `host` the boundary type the function
  /// declares for it (kBoundaryTypeAttr), if any.
  Value ioBuffer(MemorySpace space, int64_t &cursor, StringRef name, RankedTensorType type,
                 TypeAttr host);
  /// Selects `op`'s case (checking it against the one select-lowering-cases
  /// recorded, when it ran), plans it and runs its pattern.
  LogicalResult lower(Operation *op);
};
} // namespace

Value FunctionLowering::ioBuffer(MemorySpace space, int64_t &cursor, StringRef name,
                                 RankedTensorType type, TypeAttr host) {
  Type st = storageOf(type.getElementType());
  auto bt = e.type(space, type.getShape(), st, denseStrides(type.getShape(), bytesOf(st)));
  Value v = AllocOp::create(e.b, e.loc, bt, e.b.getI64IntegerAttr(cursor), e.b.getStringAttr(name));
  if (host)
    v.getDefiningOp()->setAttr(AllocOp::kBoundary, host);
  else if (isBoundaryType(type.getElementType()))
    v.getDefiningOp()->setAttr(AllocOp::kBoundary, TypeAttr::get(type.getElementType()));
  cursor = roundUp(cursor + bt.getSpanBytes(), 64);
  return v;
}

LogicalResult FunctionLowering::lower(Operation *op) {
  e.loc = op->getLoc();
  if (llvm::isa<graph::ConstantOp>(op) || computesNothing(op))
    return success();  // materialized in CONST when a kernel reads it; or empty
  if (failed(checkConstants(op)))
    return failure();
  LoweringCase c(op);
  if (failed(selectCase(c, t)))
    return failure();
  // The gate (check-lowering-evidence) judged the case select-lowering-cases
  // recorded; the code generated here must be that case's.
  if (auto selected = op->getAttrOfType<StringAttr>(kCaseAttr); selected && selected != c.key())
    return op->emitOpError() << "internal error: its lowering case changed after selection: "
                             << "selected " << selected.getValue() << ", lowering " << c.key();
  const KernelPatternInfo *info = kernelPatterns().lookup(op);  // selectCase found it
  IterationSpaces planned;
  if (info->plan && failed(info->plan(c, t, planned)))
    return failure();
  std::unique_ptr<KernelPattern> &pattern = patterns[info->id];
  if (!pattern)
    pattern = info->make(k);
  return pattern->lower(c, planned);
}

LogicalResult FunctionLowering::run(func::FuncOp func) {
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  if (failed(checkFunction(func)))
    return failure();
  // The ONNX values (graph inputs, then what the ops compute), for tensor
  // dumps (contract L4); a quantized value and its storage view share a name
  // and their bytes: the first, with its quantization, is recorded.
  llvm::StringSet<> observed;
  // Inputs.
  for (BlockArgument arg : body.getArguments()) {
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), graph::kBoundaryNameAttr);
    e.loc = arg.getLoc();
    std::string fallback = "input_" + std::to_string(arg.getArgNumber());
    state.gm[arg] = ioBuffer(MemorySpace::INPUT, inputBytes,
                             name ? name.getValue() : StringRef(fallback), tensorOf(arg),
                             func.getArgAttrOfType<TypeAttr>(arg.getArgNumber(), graph::kBoundaryTypeAttr));
    if (name && tensorOf(arg).getNumElements() && observed.insert(name.getValue()).second)
      e.value(state.gm[arg], name.getValue(), tensorOf(arg).getElementType());
  }
  // Outputs: written in place by the producing op, or copied
  // (returnCopies).
  SmallVector<std::pair<Value, Value>> copies;
  llvm::DenseSet<unsigned> copied;
  for (auto [v, i] : returnCopies(func))
    copied.insert(i);
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    auto name = func.getResultAttrOfType<StringAttr>(unsigned(i), graph::kBoundaryNameAttr);
    e.loc = v.getLoc();
    std::string fallback = "output_" + std::to_string(i);
    Value out = ioBuffer(MemorySpace::OUTPUT, outputBytes,
                         name ? name.getValue() : StringRef(fallback), tensorOf(v),
                         func.getResultAttrOfType<TypeAttr>(unsigned(i), graph::kBoundaryTypeAttr));
    if (copied.count(unsigned(i))) {
      copies.push_back({v, out});
      continue;
    }
    if (tensorOf(v).getNumElements() == 0)
      continue;  // nothing computes it, nothing is written
    Value root = computedRoot(v);
    auto rt = tensorOf(root);
    Type st = storageOf(rt.getElementType());
    state.gm[root] = e.view(e.retype(out, st), 0, rt.getShape(), denseStrides(rt.getShape(), bytesOf(st)));
  }
  for (Operation &op : body.without_terminator()) {
    if (failed(lower(&op)))
      return failure();
    // A named value the program computes is observable; a view of a
    // constant (a weight-only weight reshaped) is not computed and has no
    // place in the arena to be observed at.
    for (Value r : op.getResults())
      if (std::optional<std::string> name = graph::tensorName(r);
          name && state.gm.count(r) &&
          cast<BufferType>(state.gm[r].getType()).getSpace() != MemorySpace::CONST &&
          observed.insert(*name).second)
        e.value(state.gm[r], *name, tensorOf(r).getElementType());
  }
  for (auto [v, out] : copies) {
    e.loc = v.getLoc();
    Value src = k.gmOf(v);
    auto st = cast<BufferType>(src.getType());
    if (failed(k.lowerCopy(ret, src, out, st.getShape(), st.getStrides())))
      return failure();
  }
  return success();
}

StringRef lowering::targetName(ModuleOp module) {
  auto name = module->getAttrOfType<StringAttr>(kTargetAttr);
  return name ? name.getValue() : StringRef("npu-v1");
}

const target::TargetInfo *lowering::passTarget(ModuleOp module) {
  const target::TargetInfo *t = target::lookupTarget(targetName(module));
  if (!t)
    module.emitError() << "unknown target '" << targetName(module)
                       << "'; valid targets: " << target::targetNames();
  return t;
}

namespace {

/// The module's npuc.target, checked.
struct SetTargetPass : npuc::impl::SetTargetBase<SetTargetPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    module->setAttr(kTargetAttr, StringAttr::get(module.getContext(), targetName));
    if (!passTarget(module))
      signalPassFailure();
  }
};

/// Writes every op's lowering case (LoweringCase.h) as its `npuc.case`; an op
/// the lowering does not handle is an error at the op, and every such op of
/// the function is reported, not only the first.
struct SelectLoweringCasesPass
    : npuc::impl::SelectLoweringCasesBase<SelectLoweringCasesPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::TargetInfo *t = passTarget(module);
    if (!t)
      return signalPassFailure();
    bool ok = true;
    Builder b(module.getContext());
    module.walk([&](func::FuncOp func) {
      for (Operation &op : func.getBody().front().without_terminator()) {
        if (llvm::isa<graph::ConstantOp>(op) || computesNothing(&op))
          continue;
        LoweringCase c(&op);
        if (failed(selectCase(c, *t))) {
          ok = false;
          continue;
        }
        op.setAttr(kCaseAttr, b.getStringAttr(c.key()));
      }
    });
    if (!ok)
      signalPassFailure();
  }
};

struct ConvertQKToEmitPass
    : npuc::impl::ConvertQKToEmitBase<ConvertQKToEmitPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    const target::TargetInfo *t = passTarget(module);
    if (!t)
      return signalPassFailure();
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
    FunctionLowering lowering(b, *t);
    if (failed(lowering.run(funcs[0]))) {
      program.erase();
      return signalPassFailure();
    }
    funcs[0].erase();
  }
};

} // namespace
