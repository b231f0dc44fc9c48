//===- LoweringCase.cpp - What a kernel lowering distinguishes ------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "LoweringCase.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace npuc::emit::lowering;

std::string npuc::emit::lowering::caseTypeName(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  auto intName = [](unsigned width, bool isUnsigned) {
    return (isUnsigned ? "ui" : "i") + std::to_string(width);
  };
  if (auto q = dyn_cast<quant::QuantizedType>(type))
    return "q" + intName(q.getStorageTypeIntegralWidth(), !q.isSigned()) +
           (llvm::isa<quant::UniformQuantizedPerAxisType>(q) ? "/axis" : "");
  if (auto i = dyn_cast<IntegerType>(type))
    return intName(i.getWidth(), i.isUnsigned());
  std::string s;
  llvm::raw_string_ostream os(s);
  type.print(os);
  return s;
}

LoweringCase::LoweringCase(Operation *op) : op(op) {}

bool LoweringCase::flag(StringRef name, bool value) {
  props.push_back({name.str(), value ? "1" : "0", true});
  return value;
}

StringRef LoweringCase::choose(StringRef name, StringRef value) {
  props.push_back({name.str(), value.str(), false});
  return props.back().value;
}

const LoweringCase::Property &LoweringCase::lookup(StringRef name, bool wantFlag) const {
  for (const Property &p : props)
    if (p.name == name && p.isFlag == wantFlag)
      return p;
  llvm::report_fatal_error(llvm::Twine("npuc internal error: the lowering of ") +
                           op->getName().getStringRef() + " asks for " +
                           (wantFlag ? "flag '" : "choice '") + name +
                           "', which its selector did not record in the lowering case");
}

bool LoweringCase::is(StringRef name) const { return lookup(name, true).value == "1"; }

StringRef LoweringCase::get(StringRef name) const { return lookup(name, false).value; }

std::string LoweringCase::key() const {
  std::string s = op->getName().getStringRef().str() + "(";
  for (auto [i, t] : llvm::enumerate(op->getOperandTypes()))
    s += (i ? "," : "") + caseTypeName(t);
  s += "->";
  for (auto [i, t] : llvm::enumerate(op->getResultTypes()))
    s += (i ? "," : "") + caseTypeName(t);
  s += "){";
  for (auto [i, p] : llvm::enumerate(props)) {
    s += i ? "," : "";
    s += p.isFlag ? (p.value == "1" ? p.name : "!" + p.name) : p.name + "=" + p.value;
  }
  return s + "}";
}

LogicalResult npuc::emit::lowering::checkNotEmpty(Operation *op) {
  for (Type type : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto rt = dyn_cast<RankedTensorType>(type); rt && rt.getNumElements() == 0)
      return op->emitOpError() << "has a tensor with no elements (" << rt
                               << "); empty tensors have no NPU lowering";
  return success();
}

LogicalResult npuc::emit::lowering::selectCase(LoweringCase &c, const target::TargetInfo &t) {
  // A tensor with no elements has nothing to lower; that diagnostic comes first.
  if (failed(checkNotEmpty(c.op)))
    return failure();
  Selector select = selectorFor(c.op);
  if (!select)
    return c.op->emitOpError("has no NPU lowering yet");
  return select(c, t);
}
