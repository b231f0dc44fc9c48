//===- EmitDialect.cpp - The emission dialect and its types ---------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Emit/IR/EmitDialect.h"
#include "npuc/Dialect/Emit/IR/EmitOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace npuc::emit;

#include "npuc/Dialect/Emit/IR/EmitDialect.cpp.inc"
#include "npuc/Dialect/Emit/IR/EmitEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "npuc/Dialect/Emit/IR/EmitAttributes.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "npuc/Dialect/Emit/IR/EmitTypes.cpp.inc"

void EmitDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "npuc/Dialect/Emit/IR/EmitAttributes.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "npuc/Dialect/Emit/IR/EmitTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "npuc/Dialect/Emit/IR/EmitOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// BufferType
//===----------------------------------------------------------------------===//

Type BufferType::parse(AsmParser &parser) {
  StringRef spaceName;
  SmallVector<int64_t> shape, strides;
  Type element;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&spaceName) || parser.parseComma() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) || parser.parseType(element) ||
      parser.parseComma() || parser.parseKeyword("strides") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() { return parser.parseInteger(strides.emplace_back()); }) ||
      parser.parseGreater())
    return {};
  std::optional<MemorySpace> space = symbolizeMemorySpace(spaceName);
  if (!space) {
    parser.emitError(loc, "unknown memory space '")
        << spaceName << "' (expected const, arena, input, output, state, lm, acc or lut)";
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), *space, shape,
                    element, strides);
}

void BufferType::print(AsmPrinter &p) const {
  p << "<" << stringifyMemorySpace(getSpace()) << ", ";
  for (int64_t d : getShape())
    p << d << "x";
  p << getElementType() << ", strides = [" << getStrides() << "]>";
}

LogicalResult BufferType::verify(function_ref<InFlightDiagnostic()> emitError, MemorySpace space,
                                 ArrayRef<int64_t> shape, Type element,
                                 ArrayRef<int64_t> strides) {
  if (strides.size() != shape.size())
    return emitError() << "buffer has rank " << shape.size() << " but " << strides.size()
                       << " strides";
  // A graph input or output may be empty (nothing reads or writes it).
  bool boundary = space == MemorySpace::INPUT || space == MemorySpace::OUTPUT;
  for (int64_t d : shape)
    if (d < (boundary ? 0 : 1))
      return emitError() << "buffer dimension " << d << " must be >= " << (boundary ? 0 : 1);
  for (int64_t s : strides)
    if (s < 0)
      return emitError() << "buffer stride " << s << " must be >= 0 (0 broadcasts)";
  bool isInt = element.isSignlessInteger(8) || element.isUnsignedInteger(8) ||
               element.isSignlessInteger(16) || element.isSignlessInteger(32);
  bool isFloat = element.isF16() || element.isF32();
  if (!isInt && !isFloat)
    return emitError() << "buffer element type " << element
                       << " is not a storage type (i8, i16, i32, ui8, f16, f32)";
  if (space == MemorySpace::ACC && !element.isSignlessInteger(32) && !element.isF32())
    return emitError() << "acc holds i32 or f32 accumulators, not " << element;
  if (space == MemorySpace::LUT && !element.isSignlessInteger(16))
    return emitError() << "lut holds 16-bit entries, not " << element;
  return success();
}

int64_t BufferType::getElementBytes() const {
  return (getElementType().getIntOrFloatBitWidth() + 7) / 8;
}

int64_t BufferType::getSpanBytes() const {
  if (llvm::is_contained(getShape(), 0))
    return 0;  // an empty graph input or output
  int64_t span = getElementBytes();
  for (auto [d, s] : llvm::zip(getShape(), getStrides()))
    span += (d - 1) * s;
  return span;
}

LogicalResult FlagType::verify(function_ref<InFlightDiagnostic()> emitError, Engine src,
                               Engine dst) {
  if (src == dst)
    return emitError() << "a flag connects two different engines, got " << stringifyEngine(src)
                       << " -> " << stringifyEngine(dst);
  return success();
}
