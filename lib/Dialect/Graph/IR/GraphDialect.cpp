//===- GraphDialect.cpp - The graph dialect -------------------------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "npuc/Dialect/Graph/IR/GraphDialect.h"
#include "npuc/Dialect/Graph/IR/GraphOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace npuc::graph;

#include "npuc/Dialect/Graph/IR/GraphDialect.cpp.inc"

void GraphDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "npuc/Dialect/Graph/IR/GraphOps.cpp.inc"
      >();
}

Operation *GraphDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!elements || !tensor)
    return nullptr;
  // A quantized constant's value holds its storage type's integers.
  Type element = tensor.getElementType();
  if (auto q = dyn_cast<quant::QuantizedType>(element))
    element = q.getStorageType();
  if (elements.getShapedType().getShape() != tensor.getShape() ||
      elements.getElementType() != element)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  Attribute value;
  Type type;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseAttribute(value))
    return failure();
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(parser.getCurrentLocation(), "expected an elements attribute");
  type = elements.getType();
  if (succeeded(parser.parseOptionalArrow()) && parser.parseType(type))
    return failure();
  result.getOrAddProperties<Properties>().value = elements;
  result.addTypes(type);
  return success();
}

void ConstantOp::print(OpAsmPrinter &p) {
  p.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  p << ' ';
  p.printAttribute(getValue());
  if (getValue().getType() != getType())
    p << " -> " << getType();
}

#define GET_OP_CLASSES
#include "npuc/Dialect/Graph/IR/GraphOps.cpp.inc"
