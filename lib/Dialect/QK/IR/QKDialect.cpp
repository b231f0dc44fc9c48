//===- QKDialect.cpp - The quantized-kernel dialect -----------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/QK/IR/QKDialect.h"
#include "npuc/Dialect/QK/IR/QKOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace npuc::qk;

#include "npuc/Dialect/QK/IR/QKDialect.cpp.inc"
#include "npuc/Dialect/QK/IR/QKEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "npuc/Dialect/QK/IR/QKAttributes.cpp.inc"

void QKDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "npuc/Dialect/QK/IR/QKAttributes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "npuc/Dialect/QK/IR/QKOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// RequantAttr
//===----------------------------------------------------------------------===//

static ParseResult parseIntList(AsmParser &parser, StringRef key, SmallVectorImpl<int64_t> &out) {
  if (parser.parseKeyword(key) || parser.parseEqual())
    return failure();
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
    return parser.parseInteger(out.emplace_back());
  });
}

static ParseResult parseIntField(AsmParser &parser, StringRef key, int64_t &out) {
  return failure(parser.parseKeyword(key) || parser.parseEqual() || parser.parseInteger(out));
}

Attribute RequantAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> multiplier, lshift, rshift, clamp;
  int64_t zp = 0, axis = -1;
  StringRef roundingName;
  if (parser.parseLess() || parseIntList(parser, "multiplier", multiplier) ||
      parser.parseComma() || parseIntList(parser, "lshift", lshift) || parser.parseComma() ||
      parseIntList(parser, "rshift", rshift) || parser.parseComma() ||
      parseIntField(parser, "zp", zp) || parser.parseComma() ||
      parseIntList(parser, "clamp", clamp) || parser.parseComma() ||
      parseIntField(parser, "axis", axis) || parser.parseComma() ||
      parser.parseKeyword("rounding") || parser.parseEqual() ||
      parser.parseKeyword(&roundingName) || parser.parseGreater())
    return {};
  std::optional<Rounding> rounding = symbolizeRounding(roundingName);
  if (!rounding) {
    parser.emitError(parser.getCurrentLocation(), "unknown rounding '")
        << roundingName << "' (expected half_away_from_zero)";
    return {};
  }
  if (clamp.size() != 2) {
    parser.emitError(parser.getCurrentLocation(), "clamp needs [min, max], got ")
        << clamp.size() << " values";
    return {};
  }
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), multiplier, lshift, rshift, zp, clamp[0], clamp[1],
                    axis, *rounding);
}

void RequantAttr::print(AsmPrinter &p) const {
  p << "<multiplier = [" << getMultiplier() << "], lshift = [" << getLshift()
    << "], rshift = [" << getRshift() << "], zp = " << getZp() << ", clamp = [" << getClampMin()
    << ", " << getClampMax() << "], axis = " << getAxis()
    << ", rounding = " << stringifyRounding(getRounding()) << ">";
}

LogicalResult RequantAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> multiplier, ArrayRef<int64_t> lshift,
                                  ArrayRef<int64_t> rshift, int64_t zp, int64_t clampMin,
                                  int64_t clampMax, int64_t axis, Rounding) {
  if (multiplier.empty())
    return emitError() << "requant needs at least one multiplier";
  if (lshift.size() != multiplier.size() || rshift.size() != multiplier.size())
    return emitError() << "requant has " << multiplier.size() << " multipliers, "
                       << lshift.size() << " left shifts and " << rshift.size()
                       << " right shifts; expected equal counts";
  if (axis < -1)
    return emitError() << "requant axis " << axis << " must be -1 (per tensor) or >= 0";
  if (axis == -1 && multiplier.size() != 1)
    return emitError() << "per-tensor requant (axis = -1) has " << multiplier.size()
                       << " multipliers, expected 1";
  for (size_t i = 0; i < multiplier.size(); ++i) {
    if (multiplier[i] < 0 || multiplier[i] > 2147483647)
      return emitError() << "multiplier[" << i << "] = " << multiplier[i]
                         << " is outside the Q31 range [0, 2147483647]";
    if (lshift[i] < 0 || lshift[i] > 31)
      return emitError() << "lshift[" << i << "] = " << lshift[i] << " is outside [0, 31]";
    if (rshift[i] < 0 || rshift[i] > 31)
      return emitError() << "rshift[" << i << "] = " << rshift[i] << " is outside [0, 31]";
  }
  if (clampMin > clampMax)
    return emitError() << "clamp [" << clampMin << ", " << clampMax << "] is empty";
  (void)zp;
  return success();
}

//===----------------------------------------------------------------------===//
// TilingAttr
//===----------------------------------------------------------------------===//

Attribute TilingAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> space, tile;
  int64_t buffers = 0, cycles = 0, gmBytes = 0;
  bool resident = false, stacked = false, matrix = false, hasTile = false, hasBuffers = false;
  if (parser.parseLess())
    return {};
  auto entry = [&]() -> ParseResult {
    StringRef key;
    llvm::SMLoc at = parser.getCurrentLocation();
    if (parser.parseKeyword(&key))
      return failure();
    auto list = [&](SmallVectorImpl<int64_t> &out) {
      return failure(parser.parseEqual() ||
                     parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
                       return parser.parseInteger(out.emplace_back());
                     }));
    };
    auto integer = [&](int64_t &out) {
      return failure(parser.parseEqual() || parser.parseInteger(out));
    };
    if (key == "space")
      return list(space);
    if (key == "tile")
      return hasTile = true, list(tile);
    if (key == "buffers")
      return hasBuffers = true, integer(buffers);
    if (key == "cycles")
      return integer(cycles);
    if (key == "gm_bytes")
      return integer(gmBytes);
    if (key == "resident")
      return resident = true, success();
    if (key == "stacked")
      return stacked = true, success();
    if (key == "matrix")
      return matrix = true, success();
    return parser.emitError(at) << "unknown tiling entry '" << key
                                << "' (expected space, tile, buffers, cycles, gm_bytes, resident, "
                                   "stacked or matrix)";
  };
  if (parser.parseCommaSeparatedList(entry) || parser.parseGreater())
    return {};
  if (!hasTile || !hasBuffers) {
    parser.emitError(parser.getCurrentLocation(), "a tiling needs tile and buffers");
    return {};
  }
  return getChecked([&] { return parser.emitError(parser.getCurrentLocation()); },
                    parser.getContext(), space, tile, buffers, cycles, gmBytes, resident, stacked,
                    matrix);
}

void TilingAttr::print(AsmPrinter &p) const {
  p << "<";
  if (!getSpace().empty())
    p << "space = [" << getSpace() << "], ";
  p << "tile = [" << getTile() << "], buffers = " << getBuffers();
  if (getCycles())
    p << ", cycles = " << getCycles();
  if (getGmBytes())
    p << ", gm_bytes = " << getGmBytes();
  if (getResident())
    p << ", resident";
  if (getStacked())
    p << ", stacked";
  if (getMatrix())
    p << ", matrix";
  p << ">";
}

LogicalResult TilingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> space, ArrayRef<int64_t> tile, int64_t buffers,
                                 int64_t cycles, int64_t gmBytes, bool, bool, bool) {
  if (tile.empty())
    return emitError() << "a tiling needs at least one tile extent";
  for (int64_t t : tile)
    if (t < 1)
      return emitError() << "tile extent " << t << " is not positive";
  if (!space.empty() && space.size() != tile.size())
    return emitError() << "tile has " << tile.size() << " extents for a space of " << space.size()
                       << " dimensions";
  if (buffers < 1)
    return emitError() << "buffers " << buffers << " is not positive";
  if (cycles < 0 || gmBytes < 0)
    return emitError() << "a negative estimate (cycles " << cycles << ", gm_bytes " << gmBytes
                       << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// AddressPlanAttr
//===----------------------------------------------------------------------===//

namespace {
/// `e` as constant + sum(coeffs[i] * d_i), each term scaled by `scale`; fails
/// on anything else (a symbol, mod, floordiv, ceildiv, a product of indices).
bool linearForm(AffineExpr e, int64_t scale, SmallVectorImpl<int64_t> &coeffs,
                int64_t &constant) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return constant += scale * c.getValue(), true;
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return coeffs[d.getPosition()] += scale, true;
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return false;
  if (e.getKind() == AffineExprKind::Add)
    return linearForm(bin.getLHS(), scale, coeffs, constant) &&
           linearForm(bin.getRHS(), scale, coeffs, constant);
  if (e.getKind() != AffineExprKind::Mul)
    return false;
  // A product is linear when one side is a constant (the canonical form puts
  // it on the right).
  if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
    return linearForm(bin.getLHS(), scale * c.getValue(), coeffs, constant);
  if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
    return linearForm(bin.getRHS(), scale * c.getValue(), coeffs, constant);
  return false;
}
} // namespace

LogicalResult AddressPlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      ArrayRef<int64_t> shape, AffineMap source, AffineMap dest) {
  if (shape.empty())
    return emitError() << "an address plan needs at least one index";
  for (int64_t n : shape)
    if (n < 1)
      return emitError() << "address plan extent " << n << " is not positive";
  for (auto [what, map] : {std::pair<StringRef, AffineMap>{"source", source}, {"dest", dest}}) {
    if (map.getNumDims() != shape.size() || map.getNumSymbols() != 0)
      return emitError() << "the " << what << " map takes " << map.getNumDims() << " indices and "
                         << map.getNumSymbols() << " symbols; the box has " << shape.size()
                         << " indices and there are no symbols";
    for (AffineExpr e : map.getResults()) {
      std::string text;
      llvm::raw_string_ostream(text) << e;
      SmallVector<int64_t> coeffs(shape.size(), 0);
      int64_t constant = 0;
      if (!linearForm(e, 1, coeffs, constant))
        return emitError() << "the " << what << " coordinate " << text
                           << " is not a constant plus multiples of the indices";
      if (constant < 0 || llvm::any_of(coeffs, [](int64_t c) { return c < 0; }))
        return emitError() << "the " << what << " coordinate " << text
                           << " has a negative term (a strided view has no negative stride)";
    }
  }
  return success();
}

int64_t AddressPlanAttr::getNumElements() const {
  int64_t n = 1;
  for (int64_t e : getShape())
    n *= e;
  return n;
}

std::pair<int64_t, SmallVector<int64_t>> AddressPlanAttr::address(AffineMap map,
                                                                    ArrayRef<int64_t> strides) {
  int64_t offset = 0;
  SmallVector<int64_t> out(map.getNumDims(), 0);
  for (auto [e, stride] : llvm::zip(map.getResults(), strides)) {
    SmallVector<int64_t> coeffs(map.getNumDims(), 0);
    int64_t constant = 0;
    (void)linearForm(e, 1, coeffs, constant);  // the verifier checked the form
    offset += constant * stride;
    for (auto [o, c] : llvm::zip(out, coeffs))
      o += c * stride;
  }
  return {offset, out};
}
