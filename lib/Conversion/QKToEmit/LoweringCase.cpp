//===- LoweringCase.cpp - What a kernel lowering distinguishes ------------===//
//
// Part of npuc, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "LoweringCase.h"
#include "npuc/Conversion/GraphToQK.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
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

void LoweringCase::choose(StringRef name, StringRef value) {
  props.push_back({name.str(), value.str(), false});
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

void LoweringCase::undeclaredValue(StringRef name) const {
  llvm::report_fatal_error(llvm::Twine("npuc internal error: the selector of ") +
                           op->getName().getStringRef() + " records a value of '" + name +
                           "' its Choice does not declare");
}

bool LoweringCase::is(StringRef name) const { return lookup(name, true).value == "1"; }

StringRef LoweringCase::get(StringRef name) const { return lookup(name, false).value; }

npuc::support::CasePoint LoweringCase::point() const {
  support::CasePoint p;
  p.op = op->getName().getStringRef().str();
  // A variadic operand group (qk.concat) names its distinct types once.
  p.variadic = op->hasTrait<OpTrait::VariadicOperands>();
  for (Type t : op->getOperandTypes()) {
    std::string name = caseTypeName(t);
    if (!p.variadic || llvm::find(p.operands, name) == p.operands.end())
      p.operands.push_back(name);
  }
  for (Type t : op->getResultTypes())
    p.results.push_back(caseTypeName(t));
  for (const Property &q : props)
    p.props.push_back({q.name, q.value, q.isFlag});
  return p;
}

std::string LoweringCase::key() const { return point().key(); }

npuc::support::CaseRule npuc::emit::lowering::biasIsThirdOperand() {
  return never(cond::any({cond::all({kBias(), cond::operandCount(2)}),
                          cond::all({kBias(false), cond::operandCount(3)})}),
               "bias is whether the bias operand is present");
}

bool npuc::emit::lowering::computesNothing(Operation *op) {
  return op->getNumResults() > 0 && llvm::all_of(op->getResultTypes(), [](Type type) {
           auto rt = dyn_cast<RankedTensorType>(type);
           return rt && rt.getNumElements() == 0;
         });
}

LogicalResult npuc::emit::lowering::checkNotEmpty(Operation *op) {
  if (computesNothing(op))
    return success();
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
  if (!select) {
    // A graph op convert-elementwise-to-qk left says why when it can.
    if (failed(graph_to_qk::explainUnconverted(c.op)))
      return failure();
    return c.op->emitOpError("has no NPU lowering yet");
  }
  // 16-bit quantization (QuantizeLinear-21's int16 and uint16): the VECTOR
  // conversions take 8-bit zero points and the boundary stores uint16 as
  // int32, so no op lowers it yet (the verification grid found every such
  // case wrong or refused). A diagnostic, before any selector sees it.
  for (Type type : llvm::concat<const Type>(c.op->getOperandTypes(), c.op->getResultTypes()))
    if (auto q = dyn_cast<quant::QuantizedType>(getElementTypeOrSelf(type));
        q && q.getStorageTypeIntegralWidth() == 16)
      return c.op->emitOpError() << "has the 16-bit quantized type " << q
                                 << "; 16-bit quantization has no NPU lowering yet (8-bit "
                                    "activations and weights do)";
  return select(c, t);
}
