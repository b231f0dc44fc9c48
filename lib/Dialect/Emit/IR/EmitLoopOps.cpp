//===- EmitLoopOps.cpp - Tile loops and the views that follow them --------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Emit/IR/EmitOps.h"
#include "npuc/Base/ISA.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include <limits>

using namespace mlir;
using namespace npuc;
using namespace npuc::emit;

//===----------------------------------------------------------------------===//
// emit.for
//===----------------------------------------------------------------------===//

ParseResult ForOp::parse(OpAsmParser &p, OperationState &state) {
  OpAsmParser::Argument iteration;
  iteration.type = p.getBuilder().getIndexType();
  SmallVector<int64_t> basis;
  int64_t lower = 0, upper = 0;
  if (p.parseArgument(iteration) || p.parseKeyword("basis") ||
      p.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                [&] { return p.parseInteger(basis.emplace_back()); }) ||
      p.parseKeyword("range") || p.parseLSquare() || p.parseInteger(lower) || p.parseComma() ||
      p.parseInteger(upper) || p.parseRParen())
    return failure();
  Builder &b = p.getBuilder();
  state.addAttribute("basis", b.getDenseI64ArrayAttr(basis));
  state.addAttribute("lower", b.getI64IntegerAttr(lower));
  state.addAttribute("upper", b.getI64IntegerAttr(upper));
  if (p.parseOptionalAttrDictWithKeyword(state.attributes))
    return failure();
  Region *body = state.addRegion();
  return p.parseRegion(*body, {iteration});
}

void ForOp::print(OpAsmPrinter &p) {
  p << " ";
  p.printOperand(getIteration());
  p << " basis [";
  llvm::interleaveComma(getBasis(), p);
  p << "] range [" << int64_t(getLower()) << ", " << int64_t(getUpper()) << ")";
  SmallVector<StringRef, 4> elided{"basis", "lower", "upper"};
  if (int64_t(getBuffers()) == 1)
    elided.push_back("buffers");
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), elided);
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

SmallVector<int64_t> ForOp::coordinates(int64_t t) {
  ArrayRef<int64_t> basis = getBasis();
  SmallVector<int64_t> c(basis.size(), 0);
  for (size_t d = basis.size(); d-- > 0;) {
    c[d] = t % basis[d];
    t /= basis[d];
  }
  return c;
}

LogicalResult ForOp::verify() {
  ArrayRef<int64_t> basis = getBasis();
  if (basis.empty())
    return emitOpError("needs a basis of at least one dimension");
  int64_t space = 1;
  for (int64_t b : basis) {
    if (b < 1)
      return emitOpError() << "basis entries must be at least 1, got " << b;
    if (space > (int64_t(1) << 40) / b)
      return emitOpError("basis spans more than 2^40 iterations");
    space *= b;
  }
  int64_t lower = int64_t(getLower()), upper = int64_t(getUpper());
  if (lower < 0 || upper < lower || upper > space)
    return emitOpError() << "range [" << lower << ", " << upper << ") is not within the basis' "
                         << space << " iterations";
  if (int64_t(getBuffers()) < 1)
    return emitOpError() << "buffers must be at least 1, got " << int64_t(getBuffers());
  return success();
}

LogicalResult ForOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError("body takes one index argument, the iteration");
  return success();
}

//===----------------------------------------------------------------------===//
// emit.iter_view
//===----------------------------------------------------------------------===//

ForOp IterViewOp::getLoop() {
  auto arg = dyn_cast<BlockArgument>(getIteration());
  return arg ? dyn_cast<ForOp>(arg.getOwner()->getParentOp()) : ForOp();
}

int64_t IterViewOp::offsetAt(int64_t t) {
  int64_t s = t + int64_t(getShift());
  SmallVector<int64_t> c = getLoop().coordinates(s);
  int64_t off = int64_t(getOffset());
  for (auto [coeff, x] : llvm::zip(getCoeffs(), c))
    off += coeff * x;
  return off + int64_t(getSlotBytes()) * (s % int64_t(getSlots()));
}

LogicalResult IterViewOp::verify() {
  auto src = cast<BufferType>(getSource().getType()), dst = cast<BufferType>(getResult().getType());
  if (src.getSpace() != dst.getSpace())
    return emitOpError() << "a view stays in its space: " << stringifyMemorySpace(src.getSpace())
                         << " -> " << stringifyMemorySpace(dst.getSpace());
  ForOp loop = getLoop();
  if (!loop)
    return emitOpError("iteration must be the argument of an enclosing emit.for");
  if (getCoeffs().size() != loop.getBasis().size())
    return emitOpError() << "has " << getCoeffs().size() << " coefficients for a basis of "
                         << loop.getBasis().size() << " dimensions";
  int64_t shift = int64_t(getShift()), slots = int64_t(getSlots());
  int64_t slotBytes = int64_t(getSlotBytes());
  if (slots < 1 || slotBytes < 0 || shift < 0 || int64_t(getOffset()) < 0)
    return emitOpError("needs slots >= 1 and a non-negative offset, shift and slot size");
  if (int64_t(loop.getUpper()) + shift > [&] {
        int64_t n = 1;
        for (int64_t b : loop.getBasis())
          n *= b;
        return n;
      }())
    return emitOpError() << "shift " << shift << " moves iterations of [" << int64_t(loop.getLower())
                         << ", " << int64_t(loop.getUpper()) << ") past the loop's basis";
  // The largest offset any iteration reaches: each coordinate at its extreme.
  int64_t hi = int64_t(getOffset()) + slotBytes * (slots - 1);
  for (auto [coeff, b] : llvm::zip(getCoeffs(), loop.getBasis())) {
    if (coeff < 0)
      return emitOpError() << "coefficient " << coeff << " is negative";
    if (coeff && (b - 1) > (std::numeric_limits<int64_t>::max() - hi) / coeff)
      return emitOpError() << "offsets overflow 64 bits";
    hi += coeff * (b - 1);
  }
  if (hi > src.getSpanBytes() || dst.getSpanBytes() > src.getSpanBytes() - hi)
    return emitOpError() << "some iteration's view (offset up to " << hi << ", spanning "
                         << dst.getSpanBytes() << " bytes) leaves its source's "
                         << src.getSpanBytes() << " bytes";
  return success();
}

bool npuc::emit::sameAttributesUntagged(Operation *a, Operation *b) {
  auto strip = [](Operation *op) {
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute n : op->getAttrs())
      if (n.getName() != ForOp::kIterationTag)
        attrs.push_back(n);
    return attrs;
  };
  return strip(a) == strip(b);
}

//===----------------------------------------------------------------------===//
// emit.hw_loop
//===----------------------------------------------------------------------===//

ArrayRef<int64_t> HwLoopOp::stepsOf(Operation *op) {
  auto steps = op->getAttrOfType<DenseI64ArrayAttr>(kSteps);
  return steps ? steps.asArrayRef() : ArrayRef<int64_t>();
}

LogicalResult HwLoopOp::verify() {
  int64_t count = int64_t(getCount());
  if (count < 1 || count > isa::limit::LOOP::count_max)
    return emitOpError() << "count " << count << " is outside [1, " << isa::limit::LOOP::count_max
                         << "] (the LOOP count field)";
  return success();
}

/// The hardware loops around `op`, innermost first.
static SmallVector<HwLoopOp> enclosingLoops(Operation *op) {
  SmallVector<HwLoopOp> chain;
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (auto l = dyn_cast<HwLoopOp>(p))
      chain.push_back(l);
  return chain;
}

SmallVector<Operation *> HwLoopOp::nest() {
  SmallVector<Operation *> loops;
  getOperation()->walk<WalkOrder::PreOrder>([&](HwLoopOp l) { loops.push_back(l); });
  return loops;
}

std::optional<AddressStream> HwLoopOp::streamOf(Operation *op, unsigned k,
                                                ArrayRef<Operation *> nest) {
  ArrayRef<int64_t> steps = stepsOf(op);
  unsigned n = op->getNumOperands();
  auto type = dyn_cast<BufferType>(op->getOperand(k).getType());
  if (steps.empty() || !type)
    return std::nullopt;
  SmallVector<HwLoopOp> chain = enclosingLoops(op);
  AddressStream s;
  s.global = type.isGlobal();
  for (size_t l = 0; (l + 1) * n <= steps.size() && l < chain.size(); ++l) {
    int64_t step = steps[l * n + k];
    auto it = llvm::find(nest, chain[l].getOperation());
    if (step && it != nest.end())
      s.steps.push_back({int64_t(it - nest.begin()), step});
  }
  if (s.steps.empty())
    return std::nullopt;
  llvm::sort(s.steps);
  if (!s.global) {
    std::optional<int64_t> byte = placedByte(op->getOperand(k));
    if (!byte)
      return std::nullopt;
    s.rem = *byte % isa::kGranuleBytes;
  }
  return s;
}

std::set<AddressStream> HwLoopOp::streams() {
  SmallVector<Operation *> loops = nest();
  std::set<AddressStream> out;
  getBody().walk([&](Operation *op) {
    for (unsigned k = 0; k < op->getNumOperands(); ++k)
      if (std::optional<AddressStream> s = streamOf(op, k, loops))
        out.insert(*s);
  });
  return out;
}

int64_t HwLoopOp::registersNeeded() {
  bool repeated = false;
  getBody().walk([&](MatmulOp m) { repeated |= int64_t(m.getCount()) > 1; });
  return int64_t(streams().size()) + (repeated ? 3 : 1);
}

LogicalResult HwLoopOp::verifyRegions() {
  for (Operation &op : getBody().front()) {
    // What the body may hold: work that repeats, its sync, and declarations
    // (which run nothing). A value observed inside would complete at no one
    // instruction; a tile loop inside is not lowered.
    if (llvm::isa<ValueOp, ForOp>(op))
      return op.emitOpError("cannot be in the body of an emit.hw_loop");
    ArrayRef<int64_t> steps = stepsOf(&op);
    auto engineOp = dyn_cast<EngineOp>(op);
    if (!engineOp) {
      if (!steps.empty())
        return op.emitOpError() << "has " << kSteps << " but is not an engine op";
      continue;
    }
    if (steps.empty())
      continue;
    size_t depth = enclosingLoops(&op).size(), n = op.getNumOperands();
    if (!n || steps.size() % n || steps.size() / n > depth)
      return op.emitOpError() << "has " << steps.size() << " steps for " << n << " operands in "
                              << depth << " enclosing hardware loop(s)";
    for (auto [i, step] : llvm::enumerate(steps)) {
      Value v = op.getOperand(unsigned(i % n));
      auto type = dyn_cast<BufferType>(v.getType());
      if (step && !type)
        return op.emitOpError() << "steps an operand that is not a buffer";
      if (type && !type.isGlobal() && step % isa::kGranuleBytes)
        return op.emitOpError() << "steps a local operand by " << step
                                << " bytes, not a multiple of " << isa::kGranuleBytes;
    }
  }
  return success();
}
